// Installs what a fresh clone lacks, so that `npm start` and `npm test` work alone:
// npm dependencies when node_modules is missing or older than the lock file, with --browser,
// Debian's Chromium (Playwright's own browser download is not reachable here), with --firefox,
// Debian's firefox-esr (driven by puppeteer-core over WebDriver BiDi: `npm run test:firefox`), and
// with --webkit, Debian's WebKitGTK MiniBrowser, WebKitWebDriver and Xvfb (scripts/webkit.mjs).
import { existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { findChromium } from './chromium.mjs';
import { findFirefox } from './firefox.mjs';
import { findWebKit } from './webkit.mjs';

const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
if (!existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs)) {
  console.error('[ensure] installing npm dependencies');
  // `npm install` honours the lock file; `npm ci` is avoided because npm 11 reports this lock file
  // out of sync over optional platform packages it never installs here (and then refuses).
  run('npm', ['install', '--no-audit', '--no-fund']);
}

// The browsers asked for and not found, from Debian's packages: one `apt-get update` for all of
// them (as root; otherwise says how). WebKit's without the packages they recommend, which it does
// not need here (a desktop's worth).
const asked = (flag) => process.argv.includes(flag);
const webkitPackages = { miniBrowser: 'libwebkit2gtk-4.1-0', driver: 'webkit2gtk-driver', xvfb: 'xvfb' };
const missing = [...(asked('--browser') && !findChromium() ? ['chromium'] : []), ...(asked('--firefox') && !findFirefox() ? ['firefox-esr'] : [])];
const webkitMissing = asked('--webkit') ? Object.entries(findWebKit()).filter(([, p]) => !p).map(([k]) => webkitPackages[k]) : [];
if (missing.length || webkitMissing.length) {
  const all = [...missing, ...webkitMissing];
  if (process.getuid?.() !== 0) {
    console.error(`[ensure] not found: ${all.join(', ')}; install with \`sudo apt-get install -y ${all.join(' ')}\` or set CHROMIUM_PATH / FIREFOX_PATH / WEBKIT_MINIBROWSER_PATH and WEBKIT_WEBDRIVER_PATH`);
    process.exit(1);
  }
  console.error(`[ensure] installing Debian ${all.join(', ')}`);
  run('apt-get', ['update', '-qq']);
  if (missing.length) run('apt-get', ['install', '-y', '-qq', ...missing]);
  if (webkitMissing.length) run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...webkitMissing]);
}
