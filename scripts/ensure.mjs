// Installs what a fresh clone lacks, so that `npm start` and `npm test` work alone:
// npm dependencies when node_modules is missing or older than the lock file, and, with
// --browser, Debian's Chromium (Playwright's own browser download is not reachable here).
import { existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { findChromium } from './chromium.mjs';

const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
if (!existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs)) {
  console.error('[ensure] installing npm dependencies');
  // `npm install` honours the lock file; `npm ci` is avoided because npm 11 reports this lock file
  // out of sync over optional platform packages it never installs here (and then refuses).
  run('npm', ['install', '--no-audit', '--no-fund']);
}

if (process.argv.includes('--browser') && !findChromium()) {
  if (process.getuid?.() !== 0) {
    console.error('[ensure] Chromium not found: install it with `sudo apt-get install -y chromium` or set CHROMIUM_PATH');
    process.exit(1);
  }
  console.error('[ensure] installing Debian chromium');
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', 'chromium']);
}
