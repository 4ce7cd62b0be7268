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

/** A browser from Debian's packages when `flag` is given and `find` finds none (as root; otherwise says how). */
function ensureBrowser(flag, find, name, pkg, envVar) {
  if (!process.argv.includes(flag) || find()) return;
  if (process.getuid?.() !== 0) {
    console.error(`[ensure] ${name} not found: install it with \`sudo apt-get install -y ${pkg}\` or set ${envVar}`);
    process.exit(1);
  }
  console.error(`[ensure] installing Debian ${pkg}`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', pkg]);
}

ensureBrowser('--browser', findChromium, 'Chromium', 'chromium', 'CHROMIUM_PATH');
ensureBrowser('--firefox', findFirefox, 'Firefox', 'firefox-esr', 'FIREFOX_PATH');

const webkitPackages = { miniBrowser: 'libwebkit2gtk-4.1-0', driver: 'webkit2gtk-driver', xvfb: 'xvfb' };
const webkitMissing = process.argv.includes('--webkit')
  ? Object.entries(findWebKit()).filter(([, p]) => !p).map(([k]) => webkitPackages[k])
  : [];
if (webkitMissing.length) {
  if (process.getuid?.() !== 0) {
    console.error(`[ensure] WebKit not found: install it with \`sudo apt-get install -y --no-install-recommends ${webkitMissing.join(' ')}\``);
    process.exit(1);
  }
  console.error(`[ensure] installing Debian ${webkitMissing.join(', ')}`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...webkitMissing]);
}
