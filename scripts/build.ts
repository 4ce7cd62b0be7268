/**
 * The package build (`npm run build`) and the generated interfaces (`npm run manifest`).
 *
 * `build` writes dist/:
 * - dist/index.js, dist/core.js, dist/elements/<tag>.js, dist/react.js, dist/react/<tag>.js: ESM for browsers and
 *   bundlers, unminified, runtime dependencies (lit, idb-keyval, react) left as imports so an
 *   application shares one copy; shared code in dist/chunks/, so that
 *   `import 'wallet-elements/card-reveal'` pulls only what <card-reveal> needs;
 * - dist/cdn/wallet-elements.js: one minified ES module with lit and everything inlined, for a
 *   `<script type="module" src="https://cdn…">` page with no build step; dist/cdn/locales/<locale>.js
 *   beside it, one per translation;
 * - dist/cdn/elements/<tag>.js: the same per element (one split build, Rolldown's: shared chunks, one
 *   lit), for a page that shows some elements only; dist/cdn/elements/locales/<locale>.js for their translations;
 * - dist/locales/<locale>.js: the optional translations (src/locales/), `wallet-elements/locales/<locale>`;
 * - dist/vue.js: the tag list for Vue's template compiler, with the tags typed for vue-tsc (src/vue/);
 * - dist/proxy.js, dist/sandbox.js, dist/bin/{proxy,sandbox}.js: Node ESM; packages outside
 *   "dependencies" (e.g. @simplewebauthn/server, which the sandbox uses) are bundled in, so the
 *   published package runs without dev-dependencies;
 * - dist/types/**: declarations emitted by the TypeScript compiler from src/ (the project's own
 *   tsconfig, declaration-only), with `.ts` import specifiers rewritten to `.js`.
 *
 * `manifest` regenerates custom-elements.json with the analyzer (custom-elements-manifest.config.mjs)
 * and, from it, the React wrappers in src/react/ (@lit/react `createComponent`, events as `onX`)
 * and the Vue types in src/vue/ (each tag in Vue's GlobalComponents).
 *
 * The browser builds collapse the white space of Lit's html`` and css`` templates
 * (scripts/minify-literals.ts), which a consumer's minifier leaves alone.
 *
 * Deliberately not here: publishing, minifying the npm build's code (bundlers do), source maps.
 */
import { build as esbuild, type BuildOptions, type Metafile } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ROOT, elementTags, localeNames } from '../bench/size.ts';
import { rolldown, type RolldownOutput } from 'rolldown';
import { minifyLiterals, minifyLiteralsTransform } from './minify-literals.ts';

export const DIST = join(ROOT, 'dist');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** Packages an application installs beside us; never bundled into the npm build. */
export const RUNTIME_EXTERNALS = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), 'react'];
const withSubpaths = (names: string[]): string[] => names.flatMap((n) => [n, `${n}/*`]);

/** Browser entries: output name (under dist/, without .js) -> source. Only those that exist. */
export function browserEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  const add = (out: string, src: string): void => {
    if (existsSync(join(ROOT, src))) entries[out] = src;
  };
  add('index', 'src/index.ts');
  add('core', 'src/core/index.ts');
  for (const tag of elementTags()) add(`elements/${tag}`, `src/elements/${tag}/index.ts`);
  for (const locale of localeNames()) add(`locales/${locale}`, `src/locales/${locale}.ts`);
  add('react', 'src/react/index.ts');
  // One wrapper, one element: `wallet-elements/react` defines them all.
  for (const tag of elementTags()) add(`react/${tag}`, `src/react/${tag}.ts`);
  add('vue', 'src/vue/index.ts');
  return entries;
}


/** Node entries: the proxy and the sandbox, as libraries and as command-line programs. */
export function nodeEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  const add = (out: string, src: string): void => {
    if (existsSync(join(ROOT, src))) entries[out] = src;
  };
  add('proxy', 'src/proxy/index.ts');
  add('sandbox', 'src/sandbox/index.ts');
  add('bin/proxy', 'src/proxy/cli.ts');
  add('bin/sandbox', 'src/sandbox/cli.ts');
  return entries;
}

const common: BuildOptions = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  write: true,
  metafile: true,
  legalComments: 'inline',
  logLevel: 'warning',
  tsconfig: join(ROOT, 'tsconfig.json'),
};

const toEntryPoints = (entries: Record<string, string>) => Object.entries(entries).map(([out, src]) => ({ out, in: join(ROOT, src) }));

async function buildBrowser(): Promise<Metafile | undefined> {
  return (await esbuild({
    ...common,
    entryPoints: toEntryPoints(browserEntries()),
    outdir: DIST,
    // Runs in browsers and, for the core, in Node >= 20: no platform shims either way.
    platform: 'neutral',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    external: withSubpaths(RUNTIME_EXTERNALS),
    // The templates' white space is the one thing a consumer's minifier cannot remove.
    plugins: [minifyLiterals()],
  })).metafile;
}

/** The CDN builds: minified, production, everything inlined. */
const CDN: BuildOptions = {
  ...common,
  platform: 'browser',
  minify: true,
  // Module scripts are always decoded as UTF-8 (HTML, "fetch a single module script"): the
  // translations' letters stay letters instead of six-byte \u escapes.
  charset: 'utf8',
  legalComments: 'eof',
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [minifyLiterals()],
};

/**
 * The CDN bundle, `<outdir>/wallet-elements.js`: everything inlined, minified, production; and
 * each translation as `<outdir>/locales/<locale>.js`, which registers its strings through the
 * bundle's own `setStrings` (imported from `../wallet-elements.js`, so one string catalog serves both).
 */
export async function buildCdn(outdir = join(DIST, 'cdn')): Promise<Metafile | undefined> {
  if (!existsSync(join(ROOT, 'src/index.ts'))) return undefined;
  const main = (await esbuild({ ...CDN, entryPoints: { 'wallet-elements': join(ROOT, 'src/index.ts') }, outdir })).metafile;
  const locales = localeNames();
  if (locales.length > 0) {
    await esbuild({
      ...CDN,
      entryPoints: Object.fromEntries(locales.map((l) => [l, join(ROOT, `src/locales/${l}.ts`)])),
      outdir: join(outdir, 'locales'),
      plugins: [
        ...(CDN.plugins ?? []),
        {
          name: 'strings-from-the-cdn-bundle',
          setup(b) {
            b.onResolve({ filter: /\/elements\/shared\/i18n\.ts$/ }, () => ({ path: '../wallet-elements.js', external: true }));
          },
        },
      ],
    });
  }
  return main;
}

/**
 * The CDN modules per element, `<outdir>/<tag>.js`: the element's entry (it defines the element and
 * exports `configureWallet`, `setStrings` and `setLocale`), so a page with no build step loads only
 * the elements it shows. They come from one split build (lit and everything else inlined, shared code
 * in `<outdir>/chunks/`), so the modules one page loads share one lit, one configuration and one
 * string catalog; `<outdir>/locales/<locale>.js` adds a translation to them. An import() asks for its
 * module's chunks at once (fetchImportsAtOnce), so what an element loads on demand arrives in one
 * round as well.
 *
 * What the elements share up front sits in two chunks (cdnChunkGroups): `base` (what <card-reveal>
 * shares with the others) and `ui` (lit-html, templates, strings and form styles, shared by the
 * other five). A page fetches an element in two rounds either way (its module, then the chunks it
 * imports), but each file costs a request and a module to parse and link: split by which entries
 * share each module (esbuild's rule), `wallet-login.js` was 9 files, and its first render took 121 ms
 * where the 3 files of this build take 75 (0.60, the load bench's harness, both in the same 40 rounds
 * on a 2-core machine). esbuild has no way to name chunks, so this build is Rolldown's
 * (`codeSplitting.groups`); its result is returned in esbuild's metafile shape, which the size
 * report and the tests read.
 */
export async function buildCdnElements(outdir = join(DIST, 'cdn/elements')): Promise<Metafile | undefined> {
  const tags = elementTags();
  if (tags.length === 0) return undefined;
  const entry = (tag: string) => join(ROOT, `src/elements/${tag}/index.ts`);
  let groups = new Map<string, string>();
  const bundle = await rolldown({
    cwd: ROOT,
    input: {
      ...Object.fromEntries(tags.map((tag) => [tag, entry(tag)])),
      ...Object.fromEntries(localeNames().map((l) => [`locales/${l}`, join(ROOT, `src/locales/${l}.ts`)])),
    },
    platform: 'browser',
    tsconfig: join(ROOT, 'tsconfig.json'),
    transform: { target: 'es2022', define: { 'process.env.NODE_ENV': '"production"' } },
    // An entry exports exactly what its source does (configureWallet, setStrings, ...).
    preserveEntrySignatures: 'strict',
    logLevel: 'warn',
    plugins: [
      minifyLiteralsTransform(join(ROOT, 'src')),
      {
        name: 'cdn-chunk-groups',
        buildEnd() {
          groups = cdnChunkGroups((id) => this.getModuleInfo(id), new Map(tags.map((tag) => [tag, entry(tag)])), entry('card-reveal'));
        },
      },
    ],
  });
  let output: RolldownOutput['output'];
  try {
    ({ output } = await bundle.write({
      dir: outdir,
      format: 'es',
      minify: true,
      // Module scripts are always decoded as UTF-8 (HTML, "fetch a single module script"): the
      // translations' letters stay letters instead of six-byte \u escapes.
      charset: 'utf8',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      codeSplitting: { groups: [{ debugName: 'shared up front', name: (id) => groups.get(id) ?? null }] },
    }));
  } finally {
    await bundle.close();
  }
  const metafile = asMetafile(output, outdir);
  fetchImportsAtOnce(metafile);
  return metafile;
}

type ModuleInfoOf = (id: string) => { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[]; importers: readonly string[]; dynamicImporters: readonly string[] } | null;

/**
 * Which chunk each module the elements share up front goes to: the modules an element imports
 * statically (transitively) that something else imports too (another element, or on-demand code)
 * go to `base` when <card-reveal> (`base`'s entry) may load them, up front or on demand, and to
 * `ui` when it never does, so a page with <card-reveal> alone never fetches `ui`. A module only
 * one element uses stays in that element's file; on-demand code is split as the bundler splits it.
 */
function cdnChunkGroups(info: ModuleInfoOf, entries: Map<string, string>, base: string): Map<string, 'base' | 'ui'> {
  const reach = (from: string, dynamic: boolean): Set<string> => {
    const seen = new Set<string>();
    const visit = (id: string): void => {
      if (seen.has(id)) return;
      seen.add(id);
      const m = info(id);
      for (const next of [...(m?.importedIds ?? []), ...(dynamic ? (m?.dynamicallyImportedIds ?? []) : [])]) visit(next);
    };
    visit(from);
    return seen;
  };
  const upFront = new Map([...entries].map(([tag, id]) => [tag, reach(id, false)]));
  const baseMayLoad = reach(base, true);
  const users = new Map<string, string[]>();
  for (const [tag, ids] of upFront) for (const id of ids) users.set(id, [...(users.get(id) ?? []), tag]);
  const groups = new Map<string, 'base' | 'ui'>();
  for (const [id, tags] of users) {
    const m = info(id);
    const own = upFront.get(tags[0]!)!;
    const shared = tags.length > 1 || [...(m?.importers ?? []), ...(m?.dynamicImporters ?? [])].some((by) => !own.has(by));
    if (shared && id !== entries.get(tags[0]!)) groups.set(id, baseMayLoad.has(id) ? 'base' : 'ui');
  }
  return groups;
}

/**
 * Rolldown's output in the shape of esbuild's metafile (what the size report, fetchImportsAtOnce
 * and the tests read): each file with its size, the modules in it, what it imports, and the source
 * of the entry or import() target it was built for; paths relative to the working directory, as
 * esbuild writes them.
 */
function asMetafile(output: RolldownOutput['output'], outdir: string): Metafile {
  const path = (file: string) => relative(process.cwd(), join(outdir, file)).replace(/\\/g, '/');
  const source = (id: string) => relative(process.cwd(), id).replace(/\\/g, '/');
  const metafile: Metafile = { inputs: {}, outputs: {} };
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue;
    metafile.outputs[path(chunk.fileName)] = {
      bytes: Buffer.byteLength(chunk.code),
      inputs: Object.fromEntries(Object.entries(chunk.modules).map(([id, m]) => [source(id), { bytesInOutput: m.renderedLength }])),
      imports: [
        ...chunk.imports.map((file) => ({ path: path(file), kind: 'import-statement' as const })),
        ...chunk.dynamicImports.map((file) => ({ path: path(file), kind: 'dynamic-import' as const })),
      ],
      exports: chunk.exports,
      ...(chunk.facadeModuleId ? { entryPoint: source(chunk.facadeModuleId) } : {}),
    };
  }
  return metafile;
}

/**
 * Makes every import() of a split build (in the files written for `metafile`) ask for the module's
 * chunk and, at the same time, every chunk that chunk imports that the importing file has not
 * loaded already: `Promise.all([import("./a.js"), import("./b.js"), import("./t.js")]).then((m) => m[2])`.
 * Otherwise the browser finds those chunks only once the module's own file has arrived and been
 * parsed, a second round trip between a click and, say, <card-reveal>'s reveal request. Modules are
 * instantiated once per URL, and each chunk runs only after the chunks it imports, as before; a chunk
 * that fails to load fails the import() as it would have through the module.
 */
function fetchImportsAtOnce(metafile: Metafile, cwd = process.cwd()): void {
  const { outputs } = metafile;
  /** An output and every chunk it imports statically, transitively. */
  const staticClosure = (from: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(from) || !outputs[from]) return seen;
    seen.add(from);
    for (const i of outputs[from]!.imports) if (i.kind === 'import-statement' && !i.external) staticClosure(i.path, seen);
    return seen;
  };
  for (const [out, { imports }] of Object.entries(outputs)) {
    const targets = new Set(imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path));
    if (targets.size === 0) continue;
    const loaded = staticClosure(out);
    const file = resolve(cwd, out);
    let code = readFileSync(file, 'utf8');
    const specifier = (to: string): string => {
      const path = relative(dirname(out), to).replace(/\\/g, '/');
      return JSON.stringify(path.startsWith('.') ? path : `./${path}`);
    };
    /** The import() of `to` as the bundler wrote it: a string or a template literal with no substitution. */
    const siteOf = (to: string): string | undefined => {
      const quoted = specifier(to);
      return [`import(${quoted})`, `import(\`${quoted.slice(1, -1)}\`)`].find((site) => code.includes(site));
    };
    for (const target of targets) {
      const needed = [...staticClosure(target)].filter((chunk) => chunk !== target && !loaded.has(chunk));
      if (needed.length === 0) continue;
      const site = siteOf(target);
      if (!site) throw new Error(`${out}: no import(${specifier(target)}) to add its chunks to (the bundler's output changed?)`);
      const all = [...needed, target].map((chunk) => `import(${specifier(chunk)})`);
      code = code.replaceAll(site, `Promise.all([${all.join(',')}]).then(m=>m[${needed.length}])`);
    }
    writeFileSync(file, code);
  }
}

/** The Node entries (nodeEntries) into `outdir`: dist/ for the package; elsewhere for a test that runs them in Bun or Deno. */
export async function buildNode(outdir = DIST): Promise<Metafile | undefined> {
  const entries = nodeEntries();
  if (Object.keys(entries).length === 0) return undefined;
  return (await esbuild({
    ...common,
    entryPoints: toEntryPoints(entries),
    outdir,
    platform: 'node',
    splitting: true,
    chunkNames: 'chunks/node-[name]-[hash]',
    // undici: the proxy's optional upstream transport, imported only when chosen; an application
    // that selects it installs it (bundling it would add 1.4 MB to every install).
    external: [...withSubpaths(RUNTIME_EXTERNALS), 'undici', ...builtinModules, 'node:*'],
    // Bundled CommonJS dependencies may call require(); give ESM output a real one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  })).metafile;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/**
 * Declarations for src/ into dist/types (or `outDir`; of `files` and what they import, default all
 * of src/); returns the number of type errors seen (not fatal here).
 */
export function buildTypes(outDir = join(DIST, 'types'), files = sourceFiles(join(ROOT, 'src'))): number {
  const configPath = join(ROOT, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error('tsconfig.json could not be read');
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    outDir,
    rootDir: join(ROOT, 'src'),
    types: ['node'],
  };
  const program = ts.createProgram(files, options);
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (diagnostics.length > 0) {
    console.warn(
      ts.formatDiagnostics(diagnostics.slice(0, 20), {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ROOT,
        getNewLine: () => '\n',
      }),
    );
  }
  // The sources import each other as `./x.ts` (allowImportingTsExtensions); published declarations
  // must name the files consumers have, `./x.js`, which resolve to `./x.d.ts`.
  for (const file of declarationFiles(outDir)) {
    const text = readFileSync(file, 'utf8');
    const fixed = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)\.ts(['"])/g, '$1$2.js$3');
    if (fixed !== text) writeFileSync(file, fixed);
  }
  return diagnostics.length;
}

function declarationFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...declarationFiles(p));
    else if (p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

export interface BuildResult {
  files: string[];
  typeErrors: number;
  /** Output file (relative to the root) -> the packages it still imports (left external). */
  externalImports: Record<string, string[]>;
}

export async function buildPackage(): Promise<BuildResult> {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  const metafiles = [await buildBrowser(), await buildCdn(), await buildCdnElements(), await buildNode()];
  // The React wrappers call hooks (@lit/react), so in a server-components app (Next.js's app
  // router) they must load as client modules: the directive goes first in each React entry, where
  // such bundlers look for it (esbuild drops it from sources it bundles, so it is added here).
  for (const entry of Object.keys(browserEntries()).filter((out) => out === 'react' || out.startsWith('react/'))) {
    const file = join(DIST, `${entry}.js`);
    writeFileSync(file, `'use client';\n` + readFileSync(file, 'utf8'));
  }
  // The command-line programs run as `npx …` once package.json "bin" names them.
  const bin = join(DIST, 'bin');
  for (const name of existsSync(bin) ? readdirSync(bin) : []) {
    const file = join(bin, name);
    writeFileSync(file, '#!/usr/bin/env node\n' + readFileSync(file, 'utf8'));
    chmodSync(file, 0o755);
  }
  const typeErrors = buildTypes();
  cdnDeclarations();
  const externalImports: Record<string, string[]> = {};
  for (const metafile of metafiles) {
    for (const [out, { imports }] of Object.entries(metafile?.outputs ?? {})) {
      externalImports[out] = imports.filter((i) => i.external).map((i) => i.path);
    }
  }
  const files = listFiles(DIST).map((f) => relative(ROOT, f));
  return { files, typeErrors, externalImports };
}

/**
 * A declaration beside each CDN file built from an entry (`cdn/elements/card-reveal.d.ts`, ...): the
 * declarations of its source, re-exported (`export * from '../../types/elements/card-reveal/index.js'`),
 * so that `import … from 'wallet-elements/cdn/elements/card-reveal.js'` (exports "./cdn/*") is typed.
 */
function cdnDeclarations(cdn = join(DIST, 'cdn')): void {
  const entries: Array<[out: string, src: string]> = [
    ['wallet-elements', 'index'],
    ...elementTags().map((tag): [string, string] => [`elements/${tag}`, `elements/${tag}/index`]),
    ...localeNames().flatMap((l): Array<[string, string]> => [[`locales/${l}`, `locales/${l}`], [`elements/locales/${l}`, `locales/${l}`]]),
  ];
  for (const [out, src] of entries) {
    const file = join(cdn, `${out}.d.ts`);
    if (existsSync(join(cdn, `${out}.js`))) writeFileSync(file, `export * from '${relative(dirname(file), join(DIST, 'types', src)).replace(/\\/g, '/')}.js';\n`);
  }
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out.sort();
}

// ---------------------------------------------------------------------------------------------
// custom-elements.json and the React wrappers

export const MANIFEST = join(ROOT, 'custom-elements.json');
export const REACT_DIR = join(ROOT, 'src/react');
export const VUE_DIR = join(ROOT, 'src/vue');

/** Runs the analyzer and returns the manifest text, written to `<outDir>/custom-elements.json`. */
export function generateManifest(outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  const cli = join(ROOT, 'node_modules/@custom-elements-manifest/analyzer/cem.js');
  // The analyzer resolves --outdir against the working directory.
  execFileSync(process.execPath, [cli, 'analyze', '--config', 'custom-elements-manifest.config.mjs', '--outdir', relative(ROOT, outDir) || '.', '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return readFileSync(join(outDir, 'custom-elements.json'), 'utf8');
}

interface ManifestEvent {
  name?: string;
  description?: string;
  type?: { text: string };
}
interface ManifestDeclaration {
  kind: string;
  name: string;
  tagName?: string;
  customElement?: boolean;
  summary?: string;
  description?: string;
  events?: ManifestEvent[];
  members?: Array<{ kind: string; name: string; privacy?: string; static?: boolean; readonly?: boolean }>;
  attributes?: Array<{ name: string; fieldName?: string }>;
}
interface Manifest {
  modules: Array<{
    path: string;
    declarations?: ManifestDeclaration[];
    exports?: Array<{ kind: string; name: string; declaration: { name: string; module?: string } }>;
  }>;
}

/** `wallet-logged-in` -> `onWalletLoggedIn` (the React prop that listens to it). */
export function eventProp(eventName: string): string {
  return 'on' + eventName.replace(/(^|[-:.])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}

/** The React wrapper's export name for a tag: `card-reveal` -> `CardReveal`. */
export const reactName = (tag: string): string => tag.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

const HEADER = '// Generated by `npm run manifest` (scripts/build.ts) from custom-elements.json. Do not edit.\n';

interface ManifestElement {
  tag: string;
  className: string;
  module: string;
  decl: ManifestDeclaration;
}

/** Every custom element the manifest defines, by tag. */
function manifestElements(manifestText: string): ManifestElement[] {
  const manifest = JSON.parse(manifestText) as Manifest;
  const elements: ManifestElement[] = [];
  for (const mod of manifest.modules) {
    for (const ex of mod.exports ?? []) {
      if (ex.kind !== 'custom-element-definition') continue;
      const module = ex.declaration.module ?? mod.path;
      const decl = manifest.modules.find((m) => m.path === module)?.declarations?.find((d) => d.name === ex.declaration.name);
      if (decl) elements.push({ tag: ex.name, className: ex.declaration.name, module, decl });
    }
  }
  return elements.sort((a, b) => a.tag.localeCompare(b.tag));
}

/** The public fields a template may set, and the events, of an element. */
function elementSurface(decl: ManifestDeclaration): { fields: string[]; attributes: Array<{ name: string; fieldName?: string }>; events: string[] } {
  const attributes = decl.attributes ?? [];
  const fields = new Set([
    ...(decl.members ?? []).filter((m) => m.kind === 'field' && (m.privacy ?? 'public') === 'public' && !m.static && !m.readonly).map((m) => m.name),
    ...attributes.flatMap((a) => (a.fieldName ? [a.fieldName] : [])),
  ]);
  const events = (decl.events ?? []).flatMap((e) => (e.name ? [e.name] : []));
  return { fields: [...fields], attributes, events };
}

/** `hide-after` -> `hideAfter`, as Vue's template compiler names an attribute's prop. */
const camelize = (name: string): string => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The Vue file (src/vue/index.ts): the tag list for Vue's compiler, and the tags typed for vue-tsc. */
export function vueTypes(manifestText: string): Record<string, string> {
  const elements = manifestElements(manifestText);
  const imports: string[] = [];
  const tags: string[] = [];
  for (const { tag, className, module, decl } of elements) {
    const rel = relative(VUE_DIR, join(ROOT, module)).replace(/\\/g, '/');
    imports.push(`import type { ${className} as ${className}Element } from '${rel.startsWith('.') ? rel : `./${rel}`}';`);
    const { fields, attributes, events } = elementSurface(decl);
    const withAttribute = new Set(attributes.flatMap((a) => (a.fieldName ? [a.fieldName] : [])));
    // An attribute whose prop name (camelized) is not a field of that name still takes text.
    const loose = attributes.map((a) => camelize(a.name)).filter((name) => !fields.includes(name));
    const list = (names: string[]) => names.map((n) => `'${n}'`).join(' | ') || 'never';
    tags.push(
      `    '${tag}': Tag<\n` +
        `      ${className}Element,\n` +
        `      ${list(fields.filter((f) => !withAttribute.has(f)))},\n` +
        `      ${list(fields.filter((f) => withAttribute.has(f)))},\n` +
        `      ${list(loose)},\n` +
        `      ${list(events)}\n` +
        `    >;\n`,
    );
  }
  const text =
    HEADER +
    `// For Vue 3 applications. At run time: the element tags, for the template compiler's\n` +
    `// \`compilerOptions.isCustomElement\` (safe to import from vite.config: it imports no element).\n` +
    `// For type checking (vue-tsc, Volar): \`import type {} from 'wallet-elements/vue'\` in a .d.ts of the\n` +
    `// application types every tag in its templates: the element's properties (\`:cardId\`, or\n` +
    `// \`card-id="…"\` as text), and \`@card-revealed\`-style listeners with the element's event class.\n` +
    `import type { AllowedComponentProps, ComponentCustomProps, EmitFn, HTMLAttributes, VNodeProps } from 'vue';\n` +
    imports.join('\n') +
    `\n\n/** Every element this package defines. */\n` +
    `export const tags: readonly string[] = [${elements.map((e) => `'${e.tag}'`).join(', ')}];\n\n` +
    `/** For \`vue({ template: { compilerOptions: { isCustomElement } } })\`: true for this package's tags. */\n` +
    `export const isCustomElement = (tag: string): boolean => tags.includes(tag);\n\n` +
    `/** What an element's event handlers receive: the class it declares for the name, else CustomEvent. */\n` +
    `type EventOf<K extends string> = K extends keyof GlobalEventHandlersEventMap ? GlobalEventHandlersEventMap[K] : CustomEvent;\n\n` +
    `/** A property that also has an attribute: in a template, its value or the attribute's text (\`hide-after="30"\`). */\n` +
    `type OrText<T> = { [K in keyof T]?: T[K] | (NonNullable<T[K]> extends string ? never : string) };\n\n` +
    `/**\n` +
    ` * An element as Vue's type checker reads a component: props from \`$props\`, events from \`$emit\`.\n` +
    ` * Both exist for templates only; an element ref has neither.\n` +
    ` */\n` +
    `type Tag<E extends HTMLElement, Props extends keyof E, AttributeProps extends keyof E, Text extends string, Events extends string> = new () => E & {\n` +
    `  /** @deprecated For template type checking only: elements have no \`$props\`. */\n` +
    `  $props: HTMLAttributes & AllowedComponentProps & VNodeProps & ComponentCustomProps & Partial<Pick<E, Props>> & OrText<Pick<E, AttributeProps>> & { [K in Text]?: string | number | boolean | null };\n` +
    `  /** @deprecated For template type checking only: elements have no \`$emit\`. */\n` +
    `  $emit: EmitFn<{ [K in Events]: (event: EventOf<K>) => void }>;\n` +
    `};\n\n` +
    `declare module 'vue' {\n  interface GlobalComponents {\n` +
    tags.join('') +
    `  }\n}\n`;
  return { 'index.ts': text };
}

/** The React wrapper files (name -> text) for every custom element the manifest defines. */
export function reactWrappers(manifestText: string): Record<string, string> {
  const files: Record<string, string> = {};
  const index: string[] = [];
  const elements = manifestElements(manifestText);
  for (const { tag, className, module, decl } of elements) {
    const name = reactName(tag);
    const rel = relative(REACT_DIR, join(ROOT, module)).replace(/\\/g, '/');
    const from = rel.startsWith('.') ? rel : `./${rel}`;
    const events = (decl.events ?? []).filter((e): e is ManifestEvent & { name: string } => typeof e.name === 'string');
    const eventLines = events.map((e) => `    ${eventProp(e.name)}: '${e.name}' as EventName<EventOf<'${e.name}'>>,`);
    const doc = (decl.summary ?? decl.description ?? '').replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();
    files[`${tag}.ts`] =
      HEADER +
      `import * as React from 'react';\n` +
      `import { createComponent${events.length ? ', type EventName' : ''} } from '@lit/react';\n` +
      `import { ${className} as ${className}Element } from '${from}';\n` +
      `import type { ${events.length ? 'EventOf, ' : ''}Wrapper } from './events.ts';\n` +
      `\n/** \`<${tag}>\` as a React component${doc ? `: ${doc}` : '.'} */\n` +
      // Typed with the element's settable properties only: @lit/react's own type would also take
      // its methods (and any other member) as props, and then replace them on the element.
      `export const ${name}: Wrapper<\n` +
      `  ${className}Element,\n` +
      `  ${elementSurface(decl).fields.map((f) => `'${f}'`).join(' | ') || 'never'},\n` +
      `  { ${events.map((e) => `${eventProp(e.name)}: EventOf<'${e.name}'>`).join('; ')}${events.length ? ' ' : ''}}\n` +
      `> = createComponent({\n` +
      `  tagName: '${tag}',\n` +
      `  elementClass: ${className}Element,\n` +
      `  react: React,\n` +
      `  events: {\n${eventLines.join('\n')}${eventLines.length ? '\n' : ''}  },\n` +
      `  displayName: '${name}',\n` +
      `});\n`;
    index.push(`export { ${name} } from './${tag}.ts';`);
  }
  // React 19 renders custom elements itself: a prop the element has is set as that property, any
  // other as an attribute, and `on<event-name>` listens to that event (react-dom 19,
  // setPropOnCustomElement). These declarations type the bare tags in TSX.
  const jsxImports: string[] = [];
  const jsxTags: string[] = [];
  for (const { tag, className, module, decl } of elements) {
    const rel = relative(REACT_DIR, join(ROOT, module)).replace(/\\/g, '/');
    jsxImports.push(`import type { ${className} as ${className}Element } from '${rel.startsWith('.') ? rel : `./${rel}`}';`);
    const surface = elementSurface(decl);
    const { fields, events } = surface;
    const attributes = surface.attributes.map((a) => a.name);
    jsxTags.push(
      `      '${tag}': Tag<${className}Element> &
` +
        `        Partial<Pick<${className}Element, ${fields.map((f) => `'${f}'`).join(' | ') || 'never'}>> & {
` +
        attributes.map((a) => `          '${a}'?: Attribute;
`).join('') +
        events.map((e) => `          'on${e}'?: (event: EventOf<'${e}'>) => void;
`).join('') +
        `        };
`,
    );
  }
  files['jsx.ts'] =
    HEADER +
    `// The elements as React 19 JSX tags, typed: \`<card-reveal card-id="…" oncard-revealed={(e) => …} />\`.\n` +
    `// React 19 sets a prop the element has as that property, any other as an attribute, and listens\n` +
    `// to \`on<event-name>\` props. In effect once anything (a type will do) is imported from\n` +
    `// 'wallet-elements/react'; the wrappers (\`CardReveal\`, …) suit React 17 and 18 too, and\n` +
    `// server-rendered pages: hydrating a bare tag, React 19 sets no property and adds no listener.\n` +
    `import type * as React from 'react';\n` +
    jsxImports.join('\n') +
    `\nimport type { EventOf } from './events.ts';\n\n` +
    `type Tag<E extends HTMLElement> = React.DetailedHTMLProps<React.HTMLAttributes<E>, E>;\n` +
    `type Attribute = string | number | boolean | null;\n\n` +
    `declare module 'react' {\n  namespace JSX {\n    interface IntrinsicElements {\n` +
    jsxTags.join('') +
    `    }\n  }\n}\n`;
  index.push(`export type * from './jsx.ts';`);
  files['events.ts'] =
    HEADER +
    `import type * as React from 'react';\n\n` +
    `/** The event class an element declares for \`name\` in GlobalEventHandlersEventMap, else CustomEvent. */\n` +
    `export type EventOf<K extends string> = K extends keyof GlobalEventHandlersEventMap ? GlobalEventHandlersEventMap[K] : CustomEvent;\n\n` +
    `/**\n` +
    ` * A wrapper's props: the HTML attributes, the element's settable properties \`Props\`, and an \`onX\`\n` +
    ` * listener per event of \`Events\` (prop name -> event class). Not its methods or read-only members.\n` +
    ` */\n` +
    `export type Wrapper<E extends HTMLElement, Props extends keyof E, Events extends Record<string, Event>> = React.ForwardRefExoticComponent<\n` +
    `  Omit<React.HTMLAttributes<E>, Props | keyof Events> &\n` +
    `    Partial<Pick<E, Props>> & { [K in keyof Events]?: (event: Events[K]) => void } & React.RefAttributes<E>\n` +
    `>;\n`;
  files['index.ts'] =
    HEADER +
    `// React components for every element: \`import { CardReveal } from 'wallet-elements/react'\`, which\n` +
    `// defines them all; one alone: \`import { CardReveal } from 'wallet-elements/react/card-reveal'\`.\n` +
    `// Needs react (>= 17) and @lit/react (1.x) installed by the application: optional peer dependencies.\n` +
    index.join('\n') +
    '\n';
  return files;
}

/** Regenerates custom-elements.json, src/react/ and src/vue/ in place. */
export function writeManifestAndWrappers(): void {
  const text = generateManifest(ROOT);
  for (const [dir, files] of [
    [REACT_DIR, reactWrappers(text)],
    [VUE_DIR, vueTypes(text)],
  ] as const) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    console.error(`${Object.keys(files).length} files in ${relative(ROOT, dir)}/ written`);
  }
  console.error('custom-elements.json written');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'manifest') {
    writeManifestAndWrappers();
  } else {
    const started = Date.now();
    const { files, typeErrors } = await buildPackage();
    console.error(`dist/ built in ${Date.now() - started} ms: ${files.length} files${typeErrors ? `, ${typeErrors} type errors (see above)` : ''}`);
    if (typeErrors && process.argv.includes('--strict')) process.exit(1);
  }
}

