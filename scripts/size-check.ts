/**
 * Size budgets (`npm run size`): bundles the whole library and each element for production
 * (esbuild, minified, lit included, code split at import()) and exits non-zero when a gzip budget
 * or a ceiling of bench/size.ts is exceeded, naming the heaviest modules of the offending bundle (from esbuild's
 * metafile). Budgets apply to what a page loads up front; what loads on demand is printed beside
 * it, and each optional translation (src/locales/) is measured on its own. The per-element CDN modules
 * (dist/cdn/elements/<tag>.js) are built and measured file by file, as a page fetches them.
 *
 * It does not measure the alternatives; `npm run bench` does, side by side.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CEILINGS, budgetFailures, ceilingFailures, cdnElementSizes, formatKB, measureAll, ourEntries } from '../bench/size.ts';
import { buildCdnElements } from './build.ts';

const entries = ourEntries();
if (entries.length === 0) {
  console.error('size-check: no entry points found (src/index.ts, src/elements/<tag>/index.ts)');
  process.exit(1);
}
const results = await measureAll(entries);
// The per-element CDN modules, built as `npm run build` builds them, into a directory of its own.
const cdnDir = mkdtempSync(join(tmpdir(), 'size-cdn-'));
try {
  const metafile = await buildCdnElements(cdnDir);
  if (metafile) results.push(...cdnElementSizes(metafile));
} finally {
  rmSync(cdnDir, { recursive: true, force: true });
}
for (const r of results) {
  const budget = r.budget === undefined ? '' : ` (budget ${formatKB(r.budget)}, ${((100 * r.gzip) / r.budget).toFixed(0)}%)`;
  const later = r.lazy ? `, +${formatKB(r.lazy.gzip)} on demand` : '';
  const ceiling = CEILINGS[r.name] === undefined ? '' : ` [ceiling ${formatKB(CEILINGS[r.name]!)}]`;
  console.log(`${r.name.padEnd(34)} ${formatKB(r.minified).padStart(10)} min ${formatKB(r.gzip).padStart(9)} gzip${budget}${later}${ceiling}`);
}
const over = ceilingFailures(results);
for (const f of over) console.error(`size ceiling exceeded: ${f}`);
const failures = budgetFailures(results);
for (const f of failures) console.error(`size budget exceeded: ${f}`);
if (over.length > 0 || failures.length > 0) process.exit(1);
console.log('size budgets and ceilings met');
