// The browser tests in WebKit: the rig and settings of web-test-runner.config.mjs, with Debian's
// WebKitGTK (scripts/webkit.mjs: MiniBrowser over WebKitWebDriver on Xvfb) as the browser.
// `npm run test:webkit`, or `npm run test:webkit -- --files '<glob>'` (the lists below are then not applied).
import config from './web-test-runner.config.mjs';
import { webkitLauncher } from './scripts/webkit.mjs';

// Files left out: they use rig commands that need Chromium through Playwright or CDP
// (test/browser/support/README.md), or commands of @web/test-runner-commands that WebDriver lacks.
// In the files that run, a test of what only Chromium has (WebAuthn here, WebOTP) skips itself.
const chromiumOnlyFiles = [
  // The virtual WebAuthn authenticator (CDP); WebKitGTK has no PublicKeyCredential besides.
  'core/passkey',
  'elements/passkey-register/passkey-register',
  'elements/passkey-register/passkey-register-session-end',
  'elements/shared/arabic-accessible-text',
  'elements/shared/busy-live-regions',
  'elements/shared/lifecycle',
  'elements/shared/no-leak',
  'elements/shared/strict-csp',
  'elements/shared/wcag-layout',
  'elements/wallet-credentials/wallet-credentials',
  'elements/wallet-login/wallet-login',
  'elements/wallet-login/wallet-login-autofill-again',
  'elements/wallet-login/wallet-login-autofill-shared',
  'elements/wallet-login/wallet-login-elsewhere',
  'elements/wallet-login/wallet-login-other-wallet',
  // Chromium's accessibility tree (CDP).
  'elements/agent-actions/agent-actions',
  'elements/card-reveal/card-reveal',
  'elements/delegated-keys/delegated-keys',
  'elements/wallet-credentials/wallet-credentials-blocked',
  // Playwright's setOffline, emulateMedia, setViewport, back/forward navigation, popup windows; CDP
  // console capture (leak-watch) and time zone override.
  'elements/card-reveal/card-reveal-offline',
  'elements/shared/online',
  'elements/card-reveal/card-reveal-forced-colors',
  'elements/wallet-credentials/wallet-credentials-narrow',
  'elements/card-reveal/card-reveal-bfcache',
  'readme-sso',
  'elements/card-reveal/card-reveal-csp',
  'elements/shared/i18n',
  'elements/wallet-credentials/wallet-credentials-time-zone',
];

export default {
  ...config,
  files: [...config.files, ...chromiumOnlyFiles.map((f) => `!test/browser/${f}.test.ts`)],
  browsers: [webkitLauncher()],
};
