// Browser tests: @web/test-runner driving Debian's Chromium through Playwright.
// Playwright cannot download its own browser here, so the system binary is used.
// Run through `npm run test:browser` (node --import tsx ...) so that this config can load the
// TypeScript rig: the real sandbox and the real proxy start in this process and the proxy is
// mounted at /api on the test page's own origin (http://localhost:PORT, so WebAuthn's RP id is
// `localhost`). Server commands for tests: test/browser/support/README.md.
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fileURLToPath } from 'node:url';
import { findChromium, chromiumArgs } from './scripts/chromium.mjs';
import { walletRig } from './test/browser/support/wallet-rig.ts';

const rig = walletRig({ basePath: '/api' });

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  hostname: 'localhost',
  concurrency: 1,
  concurrentBrowsers: 1,
  testFramework: { config: { timeout: 20000 } },
  browserStartTimeout: 60000,
  testsFinishTimeout: 300000,
  middleware: [rig.middleware],
  plugins: [
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) }),
    rig.plugin,
  ],
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
