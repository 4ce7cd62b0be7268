// Where the system Chromium lives. Playwright's own browser download is not reachable on these
// machines, so tests and benchmarks launch Debian's `chromium` package through executablePath.
import { existsSync } from 'node:fs';

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p) => p && existsSync(p));
}

/** Flags for a headless Chromium on a machine with a closed network (no background traffic). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
