// Browser tests: @web/test-runner driving Debian's Chromium through Playwright.
// Playwright cannot download its own browser here, so the system binary is used.
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fileURLToPath } from 'node:url';
import { findChromium, chromiumArgs } from './scripts/chromium.mjs';

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  concurrency: 1,
  concurrentBrowsers: 1,
  testFramework: { config: { timeout: 20000 } },
  browserStartTimeout: 60000,
  testsFinishTimeout: 300000,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: findChromium(),
        args: chromiumArgs,
      },
    }),
  ],
};
