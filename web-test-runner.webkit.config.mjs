// The browser tests in WebKit: the rig and settings of web-test-runner.config.mjs, with Debian's
// WebKitGTK (scripts/webkit.mjs: MiniBrowser over WebKitWebDriver on Xvfb) as the browser.
// `npm run test:webkit`, or `npm run test:webkit -- --files '<glob>'` (the lists below are then not applied).
import config from './web-test-runner.config.mjs';
import { webkitLauncher } from './scripts/webkit.mjs';

// Files left out: nearly every test of each needs what only Chromium (through Playwright or CDP)
// has, or a handle on the page that WebDriver classic lacks. In the files that run, a test that
// asks for such a command is marked pending (wallet-rig.ts CHROMIUM_ONLY and PAGE_HANDLE_ONLY,
// test/browser/support/README.md), as is one of what only Chromium has (WebOTP, its module map).
const chromiumOnlyFiles = [
  // Every test starts from a passkey made through the virtual WebAuthn authenticator (CDP).
  'core/passkey',
  'elements/wallet-login/wallet-login-autofill-again',
  'elements/wallet-login/wallet-login-autofill-shared',
  'elements/wallet-login/wallet-login-other-wallet',
  // WebKitGTK has no WebAuthn (no PublicKeyCredential): <passkey-register> rightly shows only that
  // this browser cannot create passkeys, and every test of these but two starts from its form.
  'elements/passkey-register/passkey-register',
  'elements/passkey-register/passkey-register-session-end',
  'elements/passkey-register/passkey-register-load',
  // Every test goes offline (Playwright's setOffline).
  'elements/shared/online',
  // The back/forward cache's round trip and reasons (Playwright goBack, CDP).
  'elements/card-reveal/card-reveal-bfcache',
  // The time zone changed under the page (CDP Emulation.setTimezoneOverride).
  'elements/wallet-credentials/wallet-credentials-time-zone',
  // A viewport 320 px wide (setViewport: Playwright's; MiniBrowser's window, sized over WebDriver,
  // stays 447 px wide at the least).
  'elements/shared/wcag-layout',
  'elements/wallet-credentials/wallet-credentials-narrow',
];

export default {
  ...config,
  files: [...config.files, ...chromiumOnlyFiles.map((f) => `!test/browser/${f}.test.ts`)],
  browsers: [webkitLauncher()],
};
