// Browser tests in Firefox: Debian's firefox-esr (FIREFOX_PATH overrides; scripts/firefox.mjs)
// driven by puppeteer-core over WebDriver BiDi, through @web/test-runner-chrome's launcher, on the
// same rig as web-test-runner.config.mjs (the real sandbox and proxy at /api on the page's origin).
// Run with `npm run test:firefox`. What runs here and what does not: test/browser/support/README.md.
import { chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteer from 'puppeteer-core';
import base from './web-test-runner.config.mjs';
import { findFirefox } from './scripts/firefox.mjs';

export default {
  ...base,
  files: [
    ...base.files,
    // WebOTP (navigator.credentials.get({otp})) is Chromium's alone: the file asserts the browser has it.
    '!test/browser/elements/wallet-login/wallet-login-webotp.test.ts',
    // Every test of these starts from a passkey made in its beforeEach, through Chromium's virtual
    // authenticator (CDP), which Firefox has not: each would be skipped (test/browser/support/README.md).
    '!test/browser/elements/wallet-login/wallet-login-autofill-again.test.ts',
    '!test/browser/elements/wallet-login/wallet-login-autofill-shared.test.ts',
    '!test/browser/elements/wallet-login/wallet-login-other-wallet.test.ts',
  ],
  browsers: [
    chromeLauncher({
      puppeteer,
      launchOptions: {
        browser: 'firefox',
        executablePath: findFirefox(),
        headless: true,
        // No HTTP cache: each test file's page loads the modules it asks for from the test server.
        // The server makes modules cacheable for a year, and this run's pages share one profile
        // (Chromium's run gives each file's page a browser context, and a cache, of its own): a
        // module another file loaded would come from the cache and a `failNextLoad` never be met.
        extraPrefsFirefox: { 'browser.cache.memory.enable': false, 'browser.cache.disk.enable': false },
      },
    }),
  ],
};
