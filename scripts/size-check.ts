/**
 * Size budgets (`npm run size`): bundles the whole library and each element for production
 * (esbuild, minified, lit included, code split at import()) and exits non-zero when a gzip budget
 * or a ceiling of bench/size.ts is exceeded, naming the heaviest modules of the offending bundle (from esbuild's
 * metafile). Budgets apply to what a page loads up front; what loads on demand is printed beside
 * it, and each optional translation (src/locales/) is measured on its own.
 *
 * It does not measure the alternatives; `npm run bench` does, side by side.
 */
import { CEILINGS, budgetFailures, ceilingFailures, formatKB, measureAll, ourEntries } from '../bench/size.ts';

const entries = ourEntries();
if (entries.length === 0) {
  console.error('size-check: no entry points found (src/index.ts, src/elements/<tag>/index.ts)');
  process.exit(1);
}
const results = await measureAll(entries);
for (const r of results) {
  const budget = r.budget === undefined ? '' : ` (budget ${formatKB(r.budget)}, ${((100 * r.gzip) / r.budget).toFixed(0)}%)`;
  const later = r.lazy ? `, +${formatKB(r.lazy.gzip)} on demand` : '';
  const ceiling = CEILINGS[r.name] === undefined ? '' : ` [ceiling ${formatKB(CEILINGS[r.name]!)}]`;
  console.log(`${r.name.padEnd(28)} ${formatKB(r.minified).padStart(10)} min ${formatKB(r.gzip).padStart(9)} gzip${budget}${later}${ceiling}`);
}
const over = ceilingFailures(results);
for (const f of over) console.error(`size ceiling exceeded: ${f}`);
const failures = budgetFailures(results);
for (const f of failures) console.error(`size budget exceeded: ${f}`);
if (over.length > 0 || failures.length > 0) process.exit(1);
console.log('size budgets and ceilings met');
