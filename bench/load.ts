/**
 * Load time: from `import()` of the element's production bundle to its first render, ours
 * (<wallet-login>) beside Hanko's <hanko-auth>, in the same run. Every sample is a fresh browser
 * context (empty module map, HTTP cache, IndexedDB) loading one bundle over loopback; the two
 * contenders alternate within each round and the order flips every round. Reported: medians, and
 * the median of the per-round ratios ours / Hanko.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { TMP, bundlePages, median, type StaticServer } from './browser.ts';
import { PRODUCTION_BUILD, ROOT } from './size.ts';
import { minifyLiterals } from '../scripts/minify-literals.ts';
import type { LoadSample } from './pages/load.ts';

export const LOAD_CONTENDERS = {
  ours: { url: '/load-ours.js', label: '<wallet-login>' },
  hanko: { url: '/load-hanko.js', label: '@teamhanko/hanko-elements <hanko-auth>' },
} as const;
type Name = keyof typeof LOAD_CONTENDERS;

interface BenchGlobal {
  bench: { measure(url: string, attributes: Record<string, string>): Promise<LoadSample> };
}

export interface LoadResult {
  rounds: number;
  criterion: string;
  firstRenderMs: Record<Name, number>;
  importMs: Record<Name, number>;
  /** Median over rounds of ours / hanko, first render. */
  ratio: number;
  firstMarkup: Record<Name, string>;
}

/**
 * Bundles the pages for production, one file per contender (no code splitting: on this loopback
 * server each extra file a module imports costs a round trip before the element can run, a cost
 * the page cannot avoid without preload hints). Ours goes through the literal minifier of the
 * package build, as the published files do; what our element loads with import() is inlined and
 * evaluated only when it is called.
 */
export async function prepareLoadBench(): Promise<void> {
  await bundlePages({ load: 'bench/pages/load.ts', 'load-hanko': 'bench/pages/load-hanko.ts' });
  await build({
    ...PRODUCTION_BUILD,
    splitting: false,
    entryPoints: [{ out: 'load-ours', in: join(ROOT, 'bench/pages/load-ours.ts') }],
    outdir: TMP,
    plugins: [minifyLiterals()],
    logLevel: 'warning',
  });
}

async function sample(browser: Browser, server: StaticServer, name: Name, attributes: Record<string, string>): Promise<LoadSample> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${server.localhostOrigin}/load.html`);
    await page.addScriptTag({ url: '/load.js', type: 'module' });
    await page.waitForFunction(() => 'bench' in globalThis);
    return await page.evaluate(
      ([url, attrs]) => (globalThis as unknown as BenchGlobal).bench.measure(url, attrs),
      [LOAD_CONTENDERS[name].url, name === 'ours' ? attributes : {}] as const,
    );
  } finally {
    await context.close();
  }
}

export async function runLoadBench(browser: Browser, server: StaticServer, opts: { rounds?: number; accountId?: string } = {}): Promise<LoadResult> {
  const rounds = opts.rounds ?? 9;
  const attributes: Record<string, string> = opts.accountId ? { 'account-id': opts.accountId } : {};
  // Warm-up of the browser process itself (not of any page: every sample gets a fresh context).
  await sample(browser, server, 'ours', attributes);
  await sample(browser, server, 'hanko', attributes);
  const samples: Record<Name, LoadSample[]> = { ours: [], hanko: [] };
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order: Name[] = r % 2 === 0 ? ['ours', 'hanko'] : ['hanko', 'ours'];
    const round = {} as Record<Name, LoadSample>;
    for (const name of order) round[name] = await sample(browser, server, name, attributes);
    samples.ours.push(round.ours);
    samples.hanko.push(round.hanko);
    ratios.push(round.ours.firstRenderMs / round.hanko.firstRenderMs);
  }
  const med = (name: Name, k: 'firstRenderMs' | 'importMs') => median(samples[name].map((s) => s[k]));
  return {
    rounds,
    criterion: "import() of the element's production bundle until its shadow root first holds an element node (checked every macrotask)",
    firstRenderMs: { ours: med('ours', 'firstRenderMs'), hanko: med('hanko', 'firstRenderMs') },
    importMs: { ours: med('ours', 'importMs'), hanko: med('hanko', 'importMs') },
    ratio: median(ratios),
    firstMarkup: { ours: samples.ours[0]!.firstMarkup, hanko: samples.hanko[0]!.firstMarkup },
  };
}
