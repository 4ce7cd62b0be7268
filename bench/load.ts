/**
 * Load time: from `import()` of the element's production bundle to its first render, ours
 * (<wallet-login>) beside Hanko's <hanko-auth>, in the same run; and ours from its CDN module
 * (dist/cdn/elements/wallet-login.js), what a page without a build step imports. Every sample is a
 * fresh browser context (empty module map, HTTP cache, IndexedDB) loading the page's production
 * build over loopback; the contenders alternate within each round, in an order that changes every
 * round. Reported: medians, and the median of the per-round ratios ours / Hanko. Measured in the same rounds
 * and the same way: the floor, a module that renders one node and holds nothing else, for the cost
 * of any import() here; the ratio with the floor taken from both sides of each round is reported
 * beside the plain one, to explain it (the target is on the plain one).
 */
import { build as viteBuild } from 'vite';
import { join, relative } from 'node:path';
import type { Browser } from 'playwright';
import { TMP, bundlePages, median, quantile, type StaticServer } from './browser.ts';
import { ROOT, splitOutputs } from './size.ts';
import { minifyLiteralsTransform } from '../scripts/minify-literals.ts';
import { buildCdnElements } from '../scripts/build.ts';
import type { LoadSample } from './pages/load.ts';

/**
 * `tag`: the module is the element's own entry (it exports `configureWallet`); the page configures it
 * and adds the element, for the account the run made. Otherwise the module `mount`s its element.
 */
export const LOAD_CONTENDERS: Record<'ours' | 'cdn' | 'hanko' | 'floor', { url: string; label: string; tag?: string }> = {
  ours: { url: '/load-ours.js', label: '<wallet-login>', tag: 'wallet-login' },
  cdn: { url: '/cdn/wallet-login.js', label: '<wallet-login> from its CDN module (dist/cdn/elements/wallet-login.js)', tag: 'wallet-login' },
  hanko: { url: '/load-hanko.js', label: '@teamhanko/hanko-elements <hanko-auth>' },
  floor: { url: '/load-floor.js', label: 'a module that renders one node (floor)' },
};
type Name = keyof typeof LOAD_CONTENDERS;

interface BenchGlobal {
  bench: { measure(url: string, attributes: Record<string, string>, tag?: string): Promise<LoadSample> };
}

export interface LoadResult {
  rounds: number;
  criterion: string;
  firstRenderMs: Record<Name, number>;
  importMs: Record<Name, number>;
  /** Medians of each sample's time from import() resolved to its first render: the element created, attached and first rendered. */
  afterImportMs: Record<Name, number>;
  /** Median over rounds of ours / hanko, first render. */
  ratio: number;
  /** Median over rounds of cdn / hanko, first render: the page without a build step. */
  ratioCdn: number;
  /** How many files the CDN module's import() fetches before it resolves (from the build's metafile). */
  cdnFiles: number;
  /** The first and third quartiles of those per-round ratios: how far one round's ratio strays. */
  ratioQuartiles: [number, number];
  /** Medians over rounds of each contender's first render minus the floor's in the same round. */
  aboveFloorMs: Record<'ours' | 'cdn' | 'hanko', number>;
  /** Median over rounds of (ours - floor) / (hanko - floor), first render. */
  ratioAboveFloor: number;
  firstMarkup: Record<Name, string>;
}

/**
 * Builds both contenders' pages, and the floor's, with Vite's production build (vite 8: Rolldown,
 * code split at import(), minified, `NODE_ENV=production`), each in its own build, as an integrator's
 * Vite application serves them. Every module the entry imports statically stays in the entry's own
 * file, so an element's file imports nothing before it can render; what an element loads with
 * import() comes in later chunks. The entry keeps its `mount` export and may export what its lazy
 * chunks import from it (`preserveEntrySignatures: 'allow-extension'`), instead of Vite's
 * application default of no exports. Ours goes through the literal minifier of the package build,
 * as the published files do.
 *
 * Not esbuild's splitting: esbuild moves every module shared by the entry and a lazy part (here the
 * page's `configureWallet`) into a chunk the entry imports statically, one more request before the
 * first render (it measured 0.73-0.98 of Hanko). Not one file without splitting either: the
 * browser then parses what loads after the first paint before it can render (0.49-0.61).
 */
export async function prepareLoadBench(): Promise<LoadPages> {
  await bundlePages({ load: 'bench/pages/load.ts' });
  // The CDN modules as `npm run build` writes them (dist/cdn/elements/), served at /cdn/.
  const cdn = await buildCdnElements(join(TMP, 'cdn'));
  if (!cdn) throw new Error('no CDN modules built (src/elements/<tag>/index.ts)');
  await vitePage('load-ours', 'bench/pages/load-ours.ts');
  await vitePage('load-hanko', 'bench/pages/load-hanko.ts');
  await vitePage('load-floor', 'bench/pages/load-floor.ts');
  return { cdnFiles: splitOutputs(cdn, relative(process.cwd(), join(ROOT, 'src/elements/wallet-login/index.ts'))).initial.length };
}

export interface LoadPages {
  /** How many files the CDN module's import() fetches before it resolves: the module and the chunks it imports. */
  cdnFiles: number;
}

/** One Vite production build of a load page into TMP as `<name>.js` (+ its chunks). */
async function vitePage(name: string, input: string): Promise<void> {
  await viteBuild({
    configFile: false,
    root: ROOT,
    publicDir: false,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [{ ...minifyLiteralsTransform(join(ROOT, 'src')), enforce: 'pre' }],
    build: {
      outDir: TMP,
      emptyOutDir: false,
      target: 'es2022',
      modulePreload: { polyfill: false },
      rolldownOptions: {
        input: { [name]: join(ROOT, input) },
        preserveEntrySignatures: 'allow-extension',
        output: { entryFileNames: '[name].js', chunkFileNames: `${name}-[name]-[hash].js` },
      },
    },
  });
}

async function sample(browser: Browser, server: StaticServer, name: Name, attributes: Record<string, string>): Promise<LoadSample> {
  const { url, tag } = LOAD_CONTENDERS[name];
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${server.localhostOrigin}/load.html`);
    await page.addScriptTag({ url: '/load.js', type: 'module' });
    await page.waitForFunction(() => 'bench' in globalThis);
    return await page.evaluate(
      ([url, attrs, tag]) => (globalThis as unknown as BenchGlobal).bench.measure(url, attrs, tag),
      [url, tag ? attributes : {}, tag] as const,
    );
  } finally {
    await context.close();
  }
}

export async function runLoadBench(browser: Browser, server: StaticServer, pages: LoadPages, opts: { rounds?: number; accountId?: string } = {}): Promise<LoadResult> {
  const rounds = opts.rounds ?? 40;
  const attributes: Record<string, string> = opts.accountId ? { 'account-id': opts.accountId } : {};
  const names = Object.keys(LOAD_CONTENDERS) as Name[];
  // Warm-up of the browser process itself (not of any page: every sample gets a fresh context).
  for (const name of names) await sample(browser, server, name, attributes);
  const samples = Object.fromEntries(names.map((n) => [n, [] as LoadSample[]])) as Record<Name, LoadSample[]>;
  // A balanced Latin square, in turn: each contender runs in each place of a round equally often,
  // and right after each other one equally often.
  const orders: Name[][] = [
    ['ours', 'cdn', 'floor', 'hanko'],
    ['cdn', 'hanko', 'ours', 'floor'],
    ['hanko', 'floor', 'cdn', 'ours'],
    ['floor', 'ours', 'hanko', 'cdn'],
  ];
  for (let r = 0; r < rounds; r++) {
    const round = {} as Record<Name, LoadSample>;
    for (const name of orders[r % orders.length]!) round[name] = await sample(browser, server, name, attributes);
    for (const name of names) samples[name].push(round[name]);
  }
  /** Each contender's median of `of` over its samples. */
  const med = (of: (s: LoadSample) => number): Record<Name, number> =>
    Object.fromEntries(names.map((n) => [n, median(samples[n].map(of))])) as Record<Name, number>;
  /** `of` each round's first renders, in round order. */
  const perRound = (of: (ms: Record<Name, number>) => number): number[] =>
    samples.floor.map((_, r) => of(Object.fromEntries(names.map((n) => [n, samples[n][r]!.firstRenderMs])) as Record<Name, number>));
  const ratios = perRound((ms) => ms.ours / ms.hanko);
  const above = (name: 'ours' | 'cdn' | 'hanko') => median(perRound((ms) => ms[name] - ms.floor));
  return {
    rounds,
    criterion: "import() of the element's production bundle until its shadow root first holds an element node (checked every macrotask)",
    firstRenderMs: med((s) => s.firstRenderMs),
    importMs: med((s) => s.importMs),
    afterImportMs: med((s) => s.firstRenderMs - s.importMs),
    ratio: median(ratios),
    ratioCdn: median(perRound((ms) => ms.cdn / ms.hanko)),
    cdnFiles: pages.cdnFiles,
    ratioQuartiles: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    aboveFloorMs: { ours: above('ours'), cdn: above('cdn'), hanko: above('hanko') },
    ratioAboveFloor: median(perRound((ms) => (ms.ours - ms.floor) / (ms.hanko - ms.floor))),
    firstMarkup: Object.fromEntries(names.map((n) => [n, samples[n][0]!.firstMarkup])) as Record<Name, string>,
  };
}
