/**
 * Size measurement: each entry is bundled the way an integrator's production build would bundle
 * it (esbuild: bundle, minify, ESM, target es2022, platform browser, `NODE_ENV=production`) and
 * gzipped with node:zlib at level 9. Our entries go through the Lit literal minifier of the
 * package build (scripts/minify-literals.ts), as the published files do. Our figures INCLUDE lit and every other runtime dependency,
 * so they compare with the alternatives' figures, which include theirs.
 *
 * Used by `npm run bench` (beside the alternatives) and by `scripts/size-check.ts` (budgets only).
 * It deliberately measures from source through one bundler with one set of options, not from
 * `dist/`, so the figure does not depend on a previous build.
 */
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { minifyLiterals } from '../scripts/minify-literals.ts';

export const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** 1 KB = 1000 bytes throughout the reports. */
export const KB = 1000;

/** Budgets in gzip bytes (the product's promise; a size check fails above them). */
export const BUDGETS: Readonly<Record<string, number>> = {
  'wallet-elements (all)': 25 * KB,
  '<card-reveal>': 9 * KB,
};

/**
 * Ceilings in gzip bytes (what a page loads up front plus what it may load on demand) for each of
 * our entries: the figure measured when the ceiling was last set, plus about 2%. A change that
 * grows an entry past its ceiling fails `npm test` (test/node/packaging/size.test.ts) and
 * `npm run size`: it is then either undone or justified by raising the ceiling in the same commit.
 * Budgets are the product's promise; ceilings hold every byte gained on the way to them.
 */
export const CEILINGS: Readonly<Record<string, number>> = {
  'wallet-elements (all)': 70_250,
  core: 17_475,
  '<agent-actions>': 20_050,
  '<card-reveal>': 26_825,
  '<delegated-keys>': 33_925,
  '<passkey-register>': 31_000,
  '<wallet-credentials>': 35_525,
  '<wallet-login>': 38_525,
  'locales/ar (optional)': 7_375,
  'cdn/elements/agent-actions.js': 24_925,
  'cdn/elements/card-reveal.js': 30_625,
  'cdn/elements/delegated-keys.js': 38_850,
  'cdn/elements/passkey-register.js': 37_525,
  'cdn/elements/wallet-credentials.js': 41_075,
  'cdn/elements/wallet-login.js': 43_875,
};

/** Up front plus on demand: what the entry can make a page download in all. */
export function totalGzip(r: SizeResult): number {
  return r.gzip + (r.lazy?.gzip ?? 0);
}

/** Entries over their ceiling (an entry of ours without a ceiling is reported too). */
export function ceilingFailures(results: SizeResult[]): string[] {
  return results
    .filter((r) => r.group === 'ours')
    .flatMap((r) => {
      const ceiling = CEILINGS[r.name];
      if (ceiling === undefined) return [`${r.name}: no ceiling in bench/size.ts CEILINGS (measured ${totalGzip(r)} B gzip)`];
      return totalGzip(r) > ceiling ? [`${r.name}: ${totalGzip(r)} B gzip (up front + on demand) exceeds its ceiling of ${ceiling} B`] : [];
    });
}

export interface SizeEntry {
  name: string;
  /** Who it belongs to: ours, or an alternative an integrator would otherwise pick. */
  group: 'ours' | 'alternative' | 'reference';
  /** ESM source handed to esbuild as stdin (imports resolve from the repository root). */
  contents: string;
  note?: string;
  /** esbuild plugins for this entry (our entries: the literal minifier of the build). */
  plugins?: Plugin[];
}

export interface SizeResult {
  name: string;
  group: SizeEntry['group'];
  /** What a page loads up front: the entry and the chunks it imports statically. */
  minified: number;
  gzip: number;
  /** What the entry loads only on demand, with import() (absent when nothing is). */
  lazy?: { minified: number; gzip: number };
  budget?: number;
  note?: string;
  /**
   * Bytes in the minified output per package or per our own module, largest first, with an
   * estimate of each one's gzip bytes (its share of the minified bytes times the gzip size; gzip
   * is not additive, so this is an attribution, not a measurement).
   */
  heaviest: Array<{ module: string; bytes: number; gzipShare: number }>;
  /** The same, summed by part: lit, other dependencies, the core, shared element code, each element. */
  parts: Array<{ part: string; bytes: number; gzipShare: number }>;
}

/** Element tags that have an entry point `src/elements/<tag>/index.ts`. */
export function elementTags(): string[] {
  const dir = join(ROOT, 'src/elements');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'index.ts')))
    .map((d) => d.name)
    .sort();
}

/** Optional translations: `src/locales/<locale>.ts`, each its own entry (`wallet-elements/locales/<locale>`). */
export function localeNames(): string[] {
  const dir = join(ROOT, 'src/locales');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort() : [];
}

/** Leaves the elements' string catalog (i18n.ts) out of a translation's figure: the page has it already. */
const catalogExternal: Plugin = {
  name: 'catalog-external',
  setup(b) {
    b.onResolve({ filter: /\/elements\/shared\/i18n\.ts$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * Our entries: the whole library, the core alone, each element alone (all without the optional
 * translations, which a page adds only for the languages it serves), and each translation alone.
 */
export function ourEntries(): SizeEntry[] {
  const entries: SizeEntry[] = [];
  if (existsSync(join(ROOT, 'src/index.ts'))) {
    entries.push({
      name: 'wallet-elements (all)',
      group: 'ours',
      // `export *` keeps every element and every core export alive, as a CDN user gets them.
      contents: `export * from './src/index.ts';`,
      note: 'every element and the core, lit included',
      plugins: [minifyLiterals()],
    });
  }
  if (existsSync(join(ROOT, 'src/core/index.ts'))) {
    entries.push({ name: 'core', group: 'ours', contents: `export * from './src/core/index.ts';`, note: 'no lit' });
  }
  for (const tag of elementTags()) {
    entries.push({
      name: `<${tag}>`,
      group: 'ours',
      contents: `export * from './src/elements/${tag}/index.ts';`,
      note: 'lit included',
      plugins: [minifyLiterals()],
    });
  }
  for (const locale of localeNames()) {
    entries.push({
      name: `locales/${locale} (optional)`,
      group: 'ours',
      contents: `import './src/locales/${locale}.ts';`,
      note: 'the strings of every element in this language; added to a page that serves it',
      plugins: [catalogExternal],
    });
  }
  return entries;
}

/** What an integrator would otherwise install, and the building blocks for scale. */
export function alternativeEntries(): SizeEntry[] {
  return [
    {
      name: '@teamhanko/hanko-elements (register + <hanko-auth>)',
      group: 'alternative',
      contents: `import { register } from '@teamhanko/hanko-elements'; export const r = register;`,
    },
    {
      name: '@turnkey/sdk-browser (Turnkey)',
      group: 'alternative',
      contents: `export { Turnkey } from '@turnkey/sdk-browser';`,
      note: 'viem, an optional peer, left out',
    },
    {
      name: '@turnkey/indexed-db-stamper',
      group: 'alternative',
      contents: `export { IndexedDbStamper } from '@turnkey/indexed-db-stamper';`,
    },
    { name: 'lit (LitElement, html, css)', group: 'reference', contents: `export { LitElement, html, css } from 'lit';` },
    {
      name: '@simplewebauthn/browser (what src/core/webauthn.ts replaces)',
      group: 'reference',
      contents: `export { startRegistration, startAuthentication, browserSupportsWebAuthn } from '@simplewebauthn/browser';`,
    },
    { name: '@noble/curves p256', group: 'reference', contents: `export { p256 } from '@noble/curves/nist.js';` },
    {
      name: '@hpke/core (P-256 suite)',
      group: 'reference',
      contents: `export { CipherSuite, DhkemP256HkdfSha256, HkdfSha256, Aes256Gcm } from '@hpke/core';`,
    },
  ];
}

/** The package (or, for our code, the source file) an input path belongs to. */
function moduleOf(input: string): string {
  const nm = input.lastIndexOf('node_modules/');
  if (nm === -1) return input;
  const rest = input.slice(nm + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

/** Bytes per package or per our own source file, over the given outputs (all by default). */
export function heaviestModules(metafile: Metafile, outputs = Object.keys(metafile.outputs)): Array<{ module: string; bytes: number }> {
  const totals = new Map<string, number>();
  for (const output of outputs.map((o) => metafile.outputs[o]!)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const key = moduleOf(input);
      totals.set(key, (totals.get(key) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([module, bytes]) => ({ module, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** Which part of the bundle a module belongs to. */
export function partOf(module: string): string {
  if (/^(lit|lit-html|lit-element|@lit\/reactive-element)$/.test(module)) return 'lit (lit-html, reactive-element, lit-element)';
  if (!module.startsWith('src/')) return module.endsWith('.ts') ? 'entry' : module;
  if (module.startsWith('src/core/')) return 'src/core';
  const el = /^src\/elements\/([^/]+)\//.exec(module);
  if (el) return `src/elements/${el[1]}`;
  return module;
}

/**
 * The output files a page loads before the entry runs (the entry and the chunks it imports
 * statically, transitively), and those it may load later through an import() that survived tree
 * shaking. A chunk nothing reaches (esbuild emits one for an import() in code it then dropped) is in
 * neither list: no page ever loads it.
 */
export function splitOutputs(metafile: Metafile, entryPoint: string): { initial: string[]; lazy: string[] } {
  const outputs = metafile.outputs;
  const reach = (from: string[], kinds: string[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (o: string): void => {
      if (seen.has(o) || !outputs[o]) return;
      seen.add(o);
      for (const i of outputs[o]!.imports) if (kinds.includes(i.kind) && !i.external) visit(i.path);
    };
    from.forEach(visit);
    return seen;
  };
  // Chunks of import() targets also name an entryPoint; only the bundle's own entry is a root.
  const entries = Object.keys(outputs).filter((o) => outputs[o]!.entryPoint === entryPoint);
  const initial = reach(entries, ['import-statement']);
  const all = reach(entries, ['import-statement', 'dynamic-import']);
  return { initial: [...initial], lazy: [...all].filter((o) => !initial.has(o)) };
}

/**
 * An integrator's production build: bundled, minified, split at import(), ESM for current
 * browsers, lit's production build. Shared with the load bench (bench/load.ts).
 */
export const PRODUCTION_BUILD = {
  absWorkingDir: ROOT,
  bundle: true,
  minify: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  legalComments: 'none',
  tsconfig: join(ROOT, 'tsconfig.json'),
  define: { 'process.env.NODE_ENV': '"production"' },
} as const satisfies BuildOptions;

/** One production build of an entry (not written to disk). */
function bundle(entry: SizeEntry) {
  return build({
    ...PRODUCTION_BUILD,
    stdin: { contents: entry.contents, resolveDir: ROOT, loader: 'ts', sourcefile: `${entry.name}.ts` },
    outdir: join(ROOT, 'bench/.tmp/size'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: entry.plugins ?? [],
    // Optional peers of the alternatives that are not installed; stated in the report.
    external: ['viem', 'viem/*'],
  });
}

/**
 * Bundles one entry for production, with code splitting, so that what the entry loads with import()
 * lands in chunks of its own, as an integrator's bundler would emit it. `minified` and `gzip` are
 * what a page loads up front (the entry and the chunks it imports statically), `lazy` what it may
 * load later, on demand. Each is gzipped as one stream (the files concatenated): how a bundler
 * cuts shared code into chunks should not change the figure, and without lazy code it is the
 * figure of one file. The module breakdown is of the up-front part.
 */
export async function measure(entry: SizeEntry): Promise<SizeResult> {
  const result = await bundle(entry);
  const { initial, lazy } = splitOutputs(result.metafile, `${entry.name}.ts`);
  const files = new Map(result.outputFiles.map((f) => [relative(ROOT, f.path), f.contents]));
  const sum = (names: string[]) => {
    const code = Buffer.concat(names.map((name) => files.get(name)!));
    return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
  };
  const upFront = sum(initial);
  const later = sum(lazy);
  const share = (bytes: number) => Math.round((bytes / upFront.minified) * upFront.gzip);
  const modules = heaviestModules(result.metafile, initial);
  const parts = new Map<string, number>();
  for (const m of modules) parts.set(partOf(m.module), (parts.get(partOf(m.module)) ?? 0) + m.bytes);
  const lazyNote = lazy.length ? `+${formatKB(later.gzip)} gzip loaded on demand (${lazy.length} chunk${lazy.length > 1 ? 's' : ''})` : '';
  return {
    name: entry.name,
    group: entry.group,
    minified: upFront.minified,
    gzip: upFront.gzip,
    ...(lazy.length ? { lazy: later } : {}),
    budget: BUDGETS[entry.name],
    note: [entry.note, lazyNote].filter(Boolean).join('; ') || undefined,
    heaviest: modules.slice(0, 15).map((m) => ({ ...m, gzipShare: share(m.bytes) })),
    parts: [...parts]
      .filter(([part]) => part !== 'entry')
      .map(([part, bytes]) => ({ part, bytes, gzipShare: share(bytes) }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}

/**
 * The per-element CDN modules as a page without a build step fetches them (scripts/build.ts
 * `buildCdnElements`, given the metafile of that build and the directory it ran in): for each
 * `<tag>.js`, the files it imports statically (up front) and those it may import() later (on
 * demand), each file gzipped on its own, as a browser fetches them. Chunks shared by several
 * elements are counted in each element's figure: that is what a page showing one element pays.
 */
export function cdnElementSizes(metafile: Metafile, cwd = process.cwd()): SizeResult[] {
  return Object.entries(metafile.outputs)
    .filter(([out, o]) => o.entryPoint && /\/elements\/[^/]+\/index\.ts$/.test(o.entryPoint) && !out.includes('/chunks/'))
    .map(([out, o]) => {
      const { initial, lazy } = splitOutputs(metafile, o.entryPoint!);
      const sum = (outs: string[]) => {
        const files = outs.map((f) => readFileSync(join(cwd, f)));
        return { minified: files.reduce((n, f) => n + f.length, 0), gzip: files.reduce((n, f) => n + gzipSync(f, { level: 9 }).length, 0) };
      };
      const name = `cdn/elements/${out.slice(out.lastIndexOf('/') + 1)}`;
      return { name, group: 'ours' as const, ...sum(initial), ...(lazy.length ? { lazy: sum(lazy) } : {}), note: `${initial.length} files up front`, heaviest: [], parts: [] };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function measureAll(entries: SizeEntry[]): Promise<SizeResult[]> {
  const results: SizeResult[] = [];
  for (const entry of entries) results.push(await measure(entry));
  return results;
}

export function formatKB(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/** Budgets exceeded, with what is heavy in each offending bundle. */
export function budgetFailures(results: SizeResult[]): string[] {
  const failures: string[] = [];
  for (const name of Object.keys(BUDGETS)) {
    const r = results.find((x) => x.name === name);
    if (!r) {
      failures.push(`${name}: entry missing, cannot check its budget of ${formatKB(BUDGETS[name]!)}`);
      continue;
    }
    if (r.budget !== undefined && r.gzip > r.budget) {
      const heavy = r.heaviest
        .slice(0, 8)
        .map((h) => `\n    ${h.module}: ${h.bytes} B min, ~${h.gzipShare} B gzip`)
        .join('');
      const parts = r.parts.map((p) => `\n    ${p.part}: ${p.bytes} B min, ~${p.gzipShare} B gzip`).join('');
      failures.push(`${name}: ${r.gzip} B gzip exceeds its budget of ${r.budget} B by ${r.gzip - r.budget} B.\n  By part:${parts}\n  Heaviest modules:${heavy}`);
    }
  }
  return failures;
}
