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
  // A test that never settles fails after mocha's timeout (20 s; a suite may raise it for its slow
  // flows) and the file goes on. testsFinishTimeout is per file, for a page whose main thread never
  // comes back (a loop; a DOM node kept as a failed assertion's actual/expected, which resetPage in
  // test/browser/elements/shared/helpers.ts describes instead): when it runs out, every result of the
  // file is lost, so it stays well above the slowest file (wallet-login, about 30 s alone) with a few
  // of its 60 s test timeouts in it.
  testFramework: { config: { timeout: 20000 } },
  // The page-wide watch on uncaught errors and rejections (test/browser/support/uncaught.ts) comes
  // first, before the framework and any test code, with a buffer of resource timings that does not
  // fill up (timings.ts).
  testRunnerHtml: (framework) =>
    `<!DOCTYPE html><html><head></head><body><script type="module" src="/test/browser/support/uncaught.ts"></script><script type="module" src="/test/browser/support/timings.ts"></script><script type="module" src="${framework}"></script></body></html>`,
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
        // Playwright turns the back/forward cache off (so that a goBack() reloads); the browsers
        // a page meets keep it on, and card-reveal-bfcache.test.ts leaves a page and comes back to it.
        ignoreDefaultArgs: ['--disable-back-forward-cache'],
      },
    }),
  ],
};
