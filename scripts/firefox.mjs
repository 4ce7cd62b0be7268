// Where the system Firefox lives: Debian's `firefox-esr` package (FIREFOX_PATH overrides), which
// puppeteer-core drives over WebDriver BiDi for the Firefox run of the browser tests.
import { existsSync } from 'node:fs';

export function findFirefox() {
  const candidates = [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'];
  return candidates.find((p) => p && existsSync(p));
}
