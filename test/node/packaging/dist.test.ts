/**
 * The published package: builds dist/ with scripts/build.ts, then checks what an integrator gets.
 * Every "exports" target exists with its declarations; every entry imports in Node without a DOM
 * (module import must never touch window, document, customElements, IndexedDB or fetch), and on a
 * server with a DOM shim (@lit-labs/ssr-dom-shim, what Lit's server rendering installs) each
 * element entry registers its element; every bare import left in dist/ is a declared dependency,
 * so the package works without our dev-dependencies; the CDN bundle imports nothing.
 * (The React wrappers rendered by React in Chromium: react.test.ts.)
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtinModules } from 'node:module';
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DIST, buildPackage, eventProp, reactName, type BuildResult } from '../../../scripts/build.ts';
import { PRODUCTION_BUILD, ROOT } from '../../../bench/size.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string | { types?: string; default?: string }>;
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  main: string;
  types: string;
};

/** Entries whose source does not exist yet are reported as missing by the first test only. Subpath patterns (`./cdn/*`) have a test of their own. */
const targets = Object.entries(pkg.exports).filter(([key]) => !key.includes('*')).map(([key, t]) => ({
  key,
  js: typeof t === 'string' ? t : t.default!,
  types: typeof t === 'string' ? undefined : t.types,
}));

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

let built: BuildResult;
before(async () => {
  built = await buildPackage();
});

test('every exports target and its declarations exist after the build, and are in "files"', () => {
  for (const { key, js, types } of targets) {
    assert.ok(existsSync(join(ROOT, js)), `${key}: ${js} was not built`);
    if (types) assert.ok(existsSync(join(ROOT, types)), `${key}: ${types} was not emitted`);
    // npm always packs package.json; everything else must be listed in "files".
    assert.ok(
      js === './package.json' || pkg.files.some((f) => js.replace(/^\.\//, '').startsWith(f.replace(/\/$/, ''))),
      `${key}: ${js} is not covered by "files"`,
    );
  }
  assert.ok(existsSync(join(ROOT, pkg.main)) && existsSync(join(ROOT, pkg.types)));
});

test('the CDN files resolve by package name (./cdn/*), as a bundler or an import map generator asks for them', () => {
  assert.equal(pkg.exports['./cdn/*'], './dist/cdn/*');
  for (const file of ['elements/card-reveal.js', 'locales/ar.js', 'wallet-elements.js']) {
    const resolved = fileURLToPath(import.meta.resolve(`${pkg.name}/cdn/${file}`));
    assert.equal(resolved, join(DIST, 'cdn', file));
    assert.ok(existsSync(resolved), `${file} was not built`);
  }
});

test('the package\'s commands (bin) are built, start with a shebang, are in "files", and print their usage', () => {
  const bins = Object.entries((pkg as { bin?: Record<string, string> }).bin ?? {});
  assert.deepEqual(bins.map(([name]) => name).sort(), ['wallet-elements-proxy', 'wallet-elements-sandbox']);
  for (const [name, file] of bins) {
    const path = join(ROOT, file);
    assert.ok(existsSync(path), `${name}: ${file} was not built`);
    assert.match(readFileSync(path, 'utf8'), /^#!\/usr\/bin\/env node\n/, `${name}: no shebang`);
    assert.ok(pkg.files.some((f) => file.replace(/^\.\//, '').startsWith(f.replace(/\/$/, ''))), `${name}: not covered by "files"`);
  }
  const help = spawnSync(process.execPath, [join(ROOT, 'dist/bin/sandbox.js'), '--help'], { encoding: 'utf8', timeout: 20_000 });
  assert.match(help.stdout + help.stderr, /npx wallet-elements-sandbox/);
  const proxy = spawnSync(process.execPath, [join(ROOT, 'dist/bin/proxy.js')], { encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH ?? '' } });
  assert.notEqual(proxy.status, 0);
  assert.match(proxy.stderr, /SERVICE_BASE_URL is not set \(see "Point it at the real service" in the package README\)/);
  const proxyHelp = spawnSync(process.execPath, [join(ROOT, 'dist/bin/proxy.js'), '--help'], { encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH ?? '' } });
  assert.equal(proxyHelp.status, 0);
  assert.match(proxyHelp.stdout, /Usage: wallet-elements-proxy/);
});

test('each React entry is a client module for server-components bundlers (Next.js app router): it starts with \'use client\'; no other entry does', () => {
  const reactEntries = Object.keys(pkg.exports).filter((key) => key === './react' || key.startsWith('./react/'));
  assert.ok(reactEntries.length >= 7, `the React entries: ${reactEntries.join(', ')}`);
  for (const [key, target] of Object.entries(pkg.exports)) {
    const js = typeof target === 'string' ? target : target.default;
    if (!js?.endsWith('.js')) continue;
    const first = readFileSync(join(ROOT, js), 'utf8').split('\n', 1)[0];
    if (reactEntries.includes(key)) assert.equal(first, "'use client';", `${key} (${js}) starts with the directive`);
    else assert.notEqual(first, "'use client';", `${key} (${js}) is not a client module`);
  }
});

test('every entry but the CDN bundle imports in Node with no DOM (React too, for server rendering)', async () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  for (const { key, js } of targets) {
    if (key === './cdn' || !js.endsWith('.js')) continue;
    await import(pathToFileURL(join(ROOT, js)).href);
  }
});

test('React server rendering (no DOM, no registry) writes no property into the HTML, the agent\'s token least of all', async () => {
  // @lit/react passes a prop to the element as a property when the class's prototype has it, else
  // writes it as an attribute; on a server the classes are never defined, so their accessors must
  // exist without customElements.define.
  assert.equal(typeof (globalThis as { customElements?: unknown }).customElements, 'undefined');
  const React = await import('react');
  // (react-dom ships no declarations and @types/react-dom is not a dependency: the one function used, typed here.)
  const server: string = 'react-dom/server';
  const { renderToString } = (await import(server)) as { renderToString(node: React.ReactNode): string };
  const W = (await import(pathToFileURL(join(DIST, 'react.js')).href)) as Record<string, React.ElementType>;
  const html = renderToString(
    React.createElement(
      'main',
      null,
      React.createElement(W.AgentActions!, { agentToken: 'agent-secret-token', pollInterval: 5 }),
      React.createElement(W.CardReveal!, { cardId: 'Card:1', requireSession: true, allowedOrigins: ['https://p.example'] }),
      React.createElement(W.WalletLogin!, { accountId: 'InternalAccount:1', oidcTokenProvider: () => 'x', className: 'login' }),
    ),
  );
  assert.equal(html, '<main><agent-actions></agent-actions><card-reveal></card-reveal><wallet-login class="login"></wallet-login></main>');
});

/**
 * Bytes (gzip) an application's production build loads before anything else, for `source` importing
 * the package by its name: the entry chunk and the chunks it imports statically (code split; what a
 * dynamic import() loads later is not counted). React itself is the application's, not counted.
 */
async function upFrontBytes(source: string): Promise<number> {
  const result = await esbuild({
    ...PRODUCTION_BUILD,
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts', sourcefile: 'app.ts' },
    outdir: join(DIST, '.up-front'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['react', 'react-dom'],
  });
  const outputs = result.metafile.outputs;
  // (Each chunk an import() loads has an entry point of its own too: the application's is app.ts.)
  const entry = Object.keys(outputs).find((out) => outputs[out]!.entryPoint === 'app.ts')!;
  const files = new Set<string>();
  const visit = (out: string): void => {
    if (files.has(out)) return;
    files.add(out);
    for (const i of outputs[out]!.imports) if (i.kind === 'import-statement' && outputs[i.path]) visit(i.path);
  };
  visit(entry);
  return result.outputFiles.filter((f) => files.has(relative(ROOT, f.path))).reduce((sum, f) => sum + gzipSync(f.contents).length, 0);
}

test('a React application that uses one wrapper, imported from its own entry, loads that element only', async () => {
  // `wallet-elements/react` defines every element (its module holds all the wrappers): 46 KB gzip up front.
  const element = await upFrontBytes(`import '${pkg.name}/card-reveal';`);
  const wrapper = await upFrontBytes(`import { CardReveal } from '${pkg.name}/react/card-reveal'; console.log(CardReveal);`);
  const all = await upFrontBytes(`import { CardReveal } from '${pkg.name}/react'; console.log(CardReveal);`);
  // What the wrapper adds to the element: @lit/react's createComponent and the wrapper itself.
  assert.ok(wrapper - element < 1_500, `<card-reveal> ${element} B, its React wrapper ${wrapper} B up front`);
  assert.ok(all > wrapper + 20_000, `every wrapper ${all} B, one ${wrapper} B`);
});

test('every element entry exports the page-wide settings, the same functions as the package entry', async () => {
  const main = (await import(pathToFileURL(join(DIST, 'index.js')).href)) as Record<string, unknown>;
  for (const { js } of targets.filter(({ js }) => /^\.\/dist\/elements\/[a-z-]+\.js$/.test(js))) {
    const entry = (await import(pathToFileURL(join(ROOT, js)).href)) as Record<string, unknown>;
    for (const name of ['configureWallet', 'setStrings', 'setLocale']) {
      assert.equal(typeof entry[name], 'function', `${js} exports ${name}`);
      assert.equal(entry[name], main[name], `${js}: ${name} is the package entry's`);
    }
  }
});

test('element entries define their element on a server with a DOM shim', () => {
  const elements = targets.flatMap(({ js }) => /^\.\/dist\/elements\/([a-z-]+)\.js$/.exec(js)?.[1] ?? []);
  assert.ok(elements.length >= 6);
  // A fresh Node process: the shim must be on globalThis before the first element module evaluates.
  const script = `
    import { HTMLElement, customElements } from '@lit-labs/ssr-dom-shim';
    Object.assign(globalThis, { HTMLElement, customElements });
    const defined = [];
    for (const tag of ${JSON.stringify(elements)}) {
      await import(${JSON.stringify(pathToFileURL(join(DIST, 'elements')).href)} + '/' + tag + '.js');
      if (customElements.get(tag)) defined.push(tag);
    }
    console.log(JSON.stringify(defined));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), elements);
});

test('declarations name .js files, never .ts sources', () => {
  for (const file of walk(join(DIST, 'types'))) {
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /from\s+['"]\.{1,2}\/[^'"]+\.ts['"]/, file);
    assert.doesNotMatch(text, /import\(\s*['"]\.{1,2}\/[^'"]+\.ts['"]/, file);
  }
});

/** A built file and the files it imports, transitively (esbuild's output: `from "./…"`, `import "./…"`; not import()). */
function importClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const dir = join(ROOT, file, '..');
  for (const [, spec] of readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
    importClosure(relative(ROOT, join(dir, spec!)), seen);
  }
  return seen;
}

test('dist/ imports only declared dependencies, and only the React entries reach their optional peers react and @lit/react', () => {
  const allowed = new Set([...Object.keys(pkg.dependencies), 'undici']);
  const reactOnly = new Set(['react', '@lit/react']);
  const builtins = new Set(builtinModules);
  const needReact = new Set<string>();
  assert.ok(Object.keys(built.externalImports).length > 0);
  for (const [file, imports] of Object.entries(built.externalImports)) {
    for (const spec of imports) {
      if (spec.startsWith('node:') || builtins.has(spec)) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (reactOnly.has(name)) {
        needReact.add(file);
        assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} must be an optional peer dependency`);
        assert.ok(pkg.peerDependencies[name], `${name} must be a peer dependency`);
      } else {
        assert.ok(allowed.has(name), `${file} imports ${spec}, which is not a dependency`);
      }
      assert.ok(!file.includes('/cdn/'), `the CDN bundle must be self-contained, but imports ${spec}`);
    }
  }
  // (The wrappers, shared by `./react` and `./react/<tag>`, are in a chunk of their own.)
  assert.ok([...importClosure('dist/react/card-reveal.js')].some((file) => needReact.has(file)), 'the closure of a React entry reaches react');
  for (const { key, js } of targets) {
    if (!js.endsWith('.js') || key === './react' || key.startsWith('./react/')) continue;
    const reached = [...importClosure(js.replace(/^\.\//, ''))].filter((file) => needReact.has(file));
    assert.deepEqual(reached, [], `${key} imports react or @lit/react, which only the React entries may`);
  }
});

test('dependencies take later releases of the same major (^), so an application with its own Lit 3 or undici 7 shares one copy with this package', () => {
  for (const [name, spec] of Object.entries(pkg.dependencies)) {
    const range = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(spec);
    assert.ok(range, `${name}@${spec} is not a ^major.minor.patch range: npm would nest a second copy beside an application's own`);
    const installed = (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version.split('.').map(Number);
    const floor = range.slice(1).map(Number);
    assert.equal(installed[0], floor[0], `${name} installed ${installed.join('.')} outside ${spec}`);
    assert.ok(installed[1]! > floor[1]! || (installed[1] === floor[1] && installed[2]! >= floor[2]!), `${name} installed ${installed.join('.')} below ${spec}`);
  }
});

test('no dependency asks for a peer of its own, which npm would install for every user (as @lit/react did @types/react)', () => {
  for (const name of Object.keys(pkg.dependencies)) {
    const dep = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    const required = Object.keys(dep.peerDependencies ?? {}).filter((peer) => dep.peerDependenciesMeta?.[peer]?.optional !== true);
    assert.deepEqual(required, [], `${name} makes npm install ${required.join(', ')} beside this package`);
  }
});

/**
 * Compiles `lines` as a consumer module inside the package scope (importing the package by its own
 * name, as an application does after `npm install`) against dist/types only; returns the
 * diagnostics as "file: message".
 */
function typecheck(name: string, lines: string[], options: ts.CompilerOptions, extension: 'ts' | 'tsx' = 'ts'): string[] {
  const dir = join(DIST, `.typecheck-${name}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `consumer.${extension}`);
  writeFileSync(file, lines.join('\n') + '\n');
  try {
    const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, ...options });
    return ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName.replace(ROOT + '/', '') ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A browser application's settings: DOM lib, bundler resolution, no global types. */
const BROWSER_APP: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  skipLibCheck: true,
};

/** The same browser application resolving as Node does (`moduleResolution: node16`, an ES module): "exports" and its "types" conditions only, relative imports with their extensions. */
const BROWSER_APP_NODE16: ts.CompilerOptions = { ...BROWSER_APP, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 };

/** A Node application's settings: NodeNext, no DOM lib, Node's types. */
const NODE_CONSUMER: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  typeRoots: [join(ROOT, 'node_modules/@types')],
};

const manifestElements = () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'custom-elements.json'), 'utf8')) as {
    modules: Array<{ declarations?: Array<{ customElement?: boolean; tagName?: string; events?: Array<{ name?: string }> }> }>;
  };
  const exported = new Set(Object.keys(pkg.exports));
  const elements = manifest.modules
    .flatMap((m) => m.declarations ?? [])
    .filter((d) => d.customElement && d.tagName && exported.has(`./${d.tagName}`))
    .map((d) => ({ tag: d.tagName!, events: (d.events ?? []).flatMap((e) => (e.name ? [e.name] : [])) }));
  assert.ok(elements.length > 0, 'no element of the manifest has a package entry');
  return elements;
};

test('an integrator gets typed tags and events from the published declarations (moduleResolution bundler and node16)', () => {
  const lines = [
    `type Specific<T, Base> = Base extends T ? false : true;`,
    ...manifestElements().flatMap(({ tag, events }) => [
      `import '${pkg.name}/${tag}';`,
      `export const tag_${tag.replace(/-/g, '_')}: Specific<HTMLElementTagNameMap['${tag}'], HTMLElement> = true;`,
      ...events.map((e) => `export const event_${e.replace(/-/g, '_')}: Specific<GlobalEventHandlersEventMap['${e}'], Event> = true;`),
    ]),
    // As an application writes it: the element from createElement, its event's detail in a listener.
    `const reveal = document.createElement('card-reveal');`,
    `reveal.hideAfter = 30;`,
    `reveal.addEventListener('card-revealed', (e) => e.detail.expiresAt.toUpperCase());`,
    `document.addEventListener('wallet-logged-in', (e) => e.detail.sessionId.length);`,
    `// @ts-expect-error hideAfter is a number of seconds`,
    `reveal.hideAfter = '30';`,
    `// @ts-expect-error card-revealed's detail has no card number`,
    `reveal.addEventListener('card-revealed', (e) => e.detail.pan);`,
  ];
  assert.deepEqual(typecheck('tags', lines, BROWSER_APP), []);
  assert.deepEqual(typecheck('tags-node16', lines, BROWSER_APP_NODE16), []);
});

test('a React application importing only the wrappers gets every event handler\'s detail type (never any)', () => {
  // The wrappers reach the element modules alone; an element whose events were declared only by its
  // package entry left `e.detail` as `any` in its handler props.
  const lines = [
    `import type * as React from 'react';`,
    `import type * as W from '${pkg.name}/react';`,
    `type IsAny<T> = 0 extends 1 & T ? true : false;`,
    // The handler prop's event detail; any (so the check fails) when the prop or its event is missing.
    `type Detail<P, K extends string> = K extends keyof P ? (NonNullable<P[K]> extends (e: infer E) => unknown ? (E extends { detail: infer D } ? D : any) : any) : any;`,
    ...manifestElements().flatMap(({ tag, events }) =>
      events.map((e) => `export const ${eventProp(e)}_${tag.replace(/-/g, '_')}: IsAny<Detail<React.ComponentProps<typeof W.${reactName(tag)}>, '${eventProp(e)}'>> = false;`),
    ),
  ];
  assert.deepEqual(typecheck('react', lines, BROWSER_APP), []);
});

test('a React 19 application writes the bare tags in TSX, typed: properties, attributes and on<event> listeners with their events', () => {
  const lines = [
    `import type {} from '${pkg.name}/react';`,
    `type IsAny<T> = 0 extends 1 & T ? true : false;`,
    `type Detail<T extends keyof React.JSX.IntrinsicElements, K extends string> = K extends keyof React.JSX.IntrinsicElements[T] ? (NonNullable<React.JSX.IntrinsicElements[T][K]> extends (e: infer E) => unknown ? (E extends { detail: infer D } ? D : any) : any) : any;`,
    // Every event of every tag has its listener prop, whose event's detail is typed (never any).
    ...manifestElements().flatMap(({ tag, events }) => events.map((e) => `export const ${tag.replace(/-/g, '_')}_${e.replace(/-/g, '_')}: IsAny<Detail<'${tag}', 'on${e}'>> = false;`)),
    `export const reveal = <card-reveal card-id="Card:1" require-session hideAfter={30} allowedOrigins={['http://127.0.0.1:4000']} oncard-revealed={(e) => e.detail.expiresAt.toUpperCase()} />;`,
    `export const login = <wallet-login account-id="InternalAccount:1" methods="email-otp" oidcTokenProvider={async (nonce: string) => nonce} onwallet-logged-in={(e) => e.detail.sessionId.length} />;`,
    `// @ts-expect-error hideAfter is a number of seconds`,
    `export const wrong = <card-reveal hideAfter="soon" />;`,
    `// @ts-expect-error card-revealed's detail has no card number`,
    `export const leak = <card-reveal oncard-revealed={(e) => e.detail.pan} />;`,
  ];
  assert.deepEqual(typecheck('react-jsx', lines, { ...BROWSER_APP, jsx: ts.JsxEmit.ReactJSX }, 'tsx'), []);
  assert.deepEqual(typecheck('react-jsx-node16', lines, { ...BROWSER_APP_NODE16, jsx: ts.JsxEmit.ReactJSX }, 'tsx'), []);
});

test('a Vue application gets its templates type-checked by vue-tsc, and the tag list for the compiler', async () => {
  const dir = join(DIST, '.typecheck-vue');
  mkdirSync(dir, { recursive: true });
  const events = manifestElements().flatMap(({ tag, events }) => events.map((e) => `  <${tag} @${e}="(e) => typed(e)" />`));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: [], skipLibCheck: true },
      include: ['env.d.ts', 'App.vue'],
    }),
  );
  // What the README tells a Vue application to add.
  writeFileSync(join(dir, 'env.d.ts'), `import type {} from '${pkg.name}/vue';\n`);
  writeFileSync(
    join(dir, 'App.vue'),
    [
      `<script setup lang="ts">`,
      `type IsAny<T> = 0 extends 1 & T ? true : false;`,
      `/** Takes an element's event, never \`any\`. */`,
      `function typed<E extends Event>(event: IsAny<E> extends true ? never : E): E { return event as E; }`,
      `const cardId = 'Card:1';`,
      // (An array literal written in the template beside another prop leaves the listeners' events
      // untyped in vue-tsc 3.3, for Vue's own components too: a variable does not.)
      `const origins = ['http://127.0.0.1:4000'];`,
      `</script>`,
      `<template>`,
      ...events,
      `  <card-reveal :cardId="cardId" hide-after="30" require-session :allowedOrigins="origins" theme="dark" @card-revealed="(e) => e.detail.expiresAt.toUpperCase()" />`,
      `  <wallet-login account-id="InternalAccount:1" methods="email-otp" :oidcTokenProvider="async (nonce: string) => nonce" @wallet-logged-in="(e) => e.detail.sessionId.length" />`,
      `  <passkey-register heading-level="3" class="wide" />`,
      `  <delegated-keys :headingLevel="3" />`,
      `  <!-- @vue-expect-error a card id is text -->`,
      `  <card-reveal :cardId="42" />`,
      `  <!-- @vue-expect-error hideAfter is a number of seconds -->`,
      `  <card-reveal :hideAfter="true" />`,
      `  <!-- @vue-expect-error the theme is light or dark -->`,
      `  <card-reveal theme="purple" />`,
      `  <!-- @vue-expect-error card-revealed's detail has no card number -->`,
      `  <card-reveal @card-revealed="(e) => e.detail.pan" />`,
      `</template>`,
    ].join('\n') + '\n',
  );
  try {
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/vue-tsc/bin/vue-tsc.js'), '--noEmit', '-p', dir], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 0, `vue-tsc:\n${run.stdout}${run.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // At run time the entry holds only the tag list: a vite.config imports it in Node.
  const vue = (await import(pathToFileURL(join(ROOT, pkg.exports['./vue'] && typeof pkg.exports['./vue'] === 'object' ? pkg.exports['./vue'].default! : '')).href)) as { isCustomElement(tag: string): boolean; tags: readonly string[] };
  assert.deepEqual([...vue.tags], manifestElements().map((e) => e.tag).sort());
  assert.deepEqual(['card-reveal', 'wallet-login', 'hanko-auth', 'div'].map(vue.isCustomElement), [true, true, false, false]);
});

test('the CDN bundle imported by its package name (`wallet-elements/cdn`) is typed, by the package entry\'s declarations: it exports the same names', async () => {
  const lines = [
    `import { configureWallet, CardReveal } from '${pkg.name}/cdn';`,
    `configureWallet({ apiBase: '/api', environment: 'sandbox' });`,
    `export const reveal: CardReveal = document.createElement('card-reveal');`,
    `// @ts-expect-error environment is production or sandbox`,
    `configureWallet({ environment: 'staging' });`,
  ];
  assert.deepEqual(typecheck('cdn', lines, BROWSER_APP), []);
  assert.deepEqual(typecheck('cdn-node16', lines, BROWSER_APP_NODE16), []);
  // The bundle runs only in a browser; its names are read from its closing export statement.
  const cdn = readFileSync(join(DIST, 'cdn', 'wallet-elements.js'), 'utf8');
  const list = [...cdn.matchAll(/export\s*\{([^}]*)\}/g)].at(-1)?.[1] ?? '';
  const names = list.split(',').map((item) => item.trim().split(/\s+as\s+/).at(-1)!).filter(Boolean).sort();
  assert.deepEqual(names, Object.keys(await importEntry(pkg.name)).sort());
});

test('each CDN file an application imports by its package path (`wallet-elements/cdn/elements/<tag>.js`, `cdn/locales/ar.js`, `cdn/wallet-elements.js`) is typed, by the declarations of the entry it was built from: it exports the same names', async () => {
  const tags = manifestElements().map(({ tag }) => tag);
  const lines = [
    `type Specific<T, Base> = Base extends T ? false : true;`,
    ...tags.flatMap((tag) => {
      const id = tag.replace(/-/g, '_');
      return [
        `import * as ${id} from '${pkg.name}/cdn/elements/${tag}.js';`,
        // The element's tag is typed by its module alone (no other entry of the package is imported).
        `export const tag_${id}: Specific<HTMLElementTagNameMap['${tag}'], HTMLElement> = true;`,
        `${id}.configureWallet({ apiBase: '/api' });`,
      ];
    }),
    `import { ar } from '${pkg.name}/cdn/elements/locales/ar.js';`,
    `import { ar as arAll } from '${pkg.name}/cdn/locales/ar.js';`,
    `import { CardReveal, setLocale } from '${pkg.name}/cdn/wallet-elements.js';`,
    `export const strings: string[] = [ar['common.cancel'], arAll['common.cancel']];`,
    `setLocale('ar');`,
    `export const reveal: CardReveal = document.createElement('card-reveal');`,
    `reveal.addEventListener('card-revealed', (e) => e.detail.expiresAt.toUpperCase());`,
    `// @ts-expect-error hideAfter is a number of seconds`,
    `reveal.hideAfter = '30';`,
    `// @ts-expect-error environment is production or sandbox`,
    `card_reveal.configureWallet({ environment: 'staging' });`,
  ];
  assert.deepEqual(typecheck('cdn-files', lines, BROWSER_APP), []);
  assert.deepEqual(typecheck('cdn-files-node16', lines, BROWSER_APP_NODE16), []);
  // The files run only in a browser; their names are read from their closing export statements.
  const exported = (file: string): string[] => {
    const list = [...readFileSync(join(DIST, 'cdn', file), 'utf8').matchAll(/export\s*\{([^}]*)\}/g)].at(-1)?.[1] ?? '';
    return list.split(',').map((item) => item.trim().split(/\s+as\s+/).at(-1)!).filter(Boolean).sort();
  };
  for (const tag of tags) assert.deepEqual(exported(`elements/${tag}.js`), Object.keys(await importEntry(`${pkg.name}/${tag}`)).sort(), tag);
  assert.deepEqual(exported('elements/locales/ar.js'), Object.keys(await importEntry(`${pkg.name}/locales/ar`)).sort());
  assert.deepEqual(exported('locales/ar.js'), Object.keys(await importEntry(`${pkg.name}/locales/ar`)).sort());
});

test('TypeScript\'s older "node" resolution (node10, which ignores "exports") finds every subpath\'s declarations through typesVersions', () => {
  const dir = join(DIST, '.typecheck-node10');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', pkg.name), 'dir');
  try {
    const host = ts.createCompilerHost({});
    const found = targets
      .filter((t) => t.types)
      .map(({ key, types }) => {
        const specifier = key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`;
        const r = ts.resolveModuleName(specifier, join(dir, 'consumer.ts'), { moduleResolution: ts.ModuleResolutionKind.Node10 }, host);
        const file = r.resolvedModule ? realpathSync(r.resolvedModule.resolvedFileName) : 'not found';
        return [specifier, file.replace(ROOT + '/', './')];
      });
    assert.deepEqual(found, targets.filter((t) => t.types).map(({ key, types }) => [key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, types]));
    // The CDN files (exports "./cdn/*"), each typed by the declaration beside it.
    const cdn = ['elements/card-reveal', 'elements/locales/ar', 'locales/ar', 'wallet-elements'].map((file) => {
      const r = ts.resolveModuleName(`${pkg.name}/cdn/${file}.js`, join(dir, 'consumer.ts'), { moduleResolution: ts.ModuleResolutionKind.Node10 }, host);
      return r.resolvedModule ? realpathSync(r.resolvedModule.resolvedFileName).replace(ROOT + '/', './') : 'not found';
    });
    assert.deepEqual(cdn, ['elements/card-reveal', 'elements/locales/ar', 'locales/ar', 'wallet-elements'].map((file) => `./dist/cdn/${file}.d.ts`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Node-only TypeScript project (no DOM lib, library declarations checked) compiles against the proxy and sandbox entries', () => {
  // A server has @types/node and no DOM lib; declarations that name DOM-only globals (CryptoKey,
  // HTMLElement...) fail it with "Cannot find name" unless skipLibCheck hides them.
  const lines = [
    `import { createProxy, type ProxyOptions } from '${pkg.name}/proxy';`,
    `import { startSandbox } from '${pkg.name}/sandbox';`,
    `export const uses: [typeof createProxy, typeof startSandbox, ProxyOptions | undefined] = [createProxy, startSandbox, undefined];`,
  ];
  const diagnostics = typecheck('node', lines, { ...NODE_CONSUMER, skipLibCheck: false });
  assert.deepEqual(diagnostics, []);
});

test('createProxy without `authorize`, `accountFor` or `demoAccount` does not compile (it throws at start), and each of them alone, or with the others, does', () => {
  const settings = `upstream: process.env.SERVICE_BASE_URL, tokenId: process.env.SERVICE_TOKEN_ID, clientSecret: process.env.SERVICE_CLIENT_SECRET`;
  const lines = [
    `import type { IncomingMessage } from 'node:http';`,
    `import { createProxy, type DemoAccount, type ProxyOptions } from '${pkg.name}/proxy';`,
    `declare const account: DemoAccount;`,
    `declare function mySession(request: IncomingMessage): Promise<DemoAccount | undefined>;`,
    `// @ts-expect-error who may touch which account is not said`,
    `createProxy({ ${settings}, basePath: '/api' });`,
    `// @ts-expect-error an authorize left undefined says nothing either`,
    `createProxy({ ${settings}, authorize: undefined });`,
    `createProxy({ ${settings}, authorize: ({ request }) => request.headers.cookie !== undefined });`,
    `createProxy({ ${settings}, accountFor: (request) => mySession(request), stepUp: {} });`,
    `createProxy({ ${settings}, demoAccount: account });`,
    `createProxy({ ${settings}, demoAccount: account, accountFor: mySession, authorize: () => true });`,
    `createProxy<Request>({ ${settings}, accountFor: (request) => (request.url ? account : undefined) });`,
    `export const options: ProxyOptions = { ${settings}, demoAccount: account, rateLimit: false };`,
    `createProxy(options);`,
  ];
  assert.deepEqual(typecheck('proxy-binding', lines, NODE_CONSUMER), []);
});

/** The README's code block under `heading`, as written. */
function readmeBlock(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const block = /```(?:js|ts)\n([\s\S]*?)```/.exec(section);
  assert.ok(readme.includes(heading) && block, `README has no code block under ${heading}`);
  return block[1]!;
}

test('the README\'s createProxy snippet compiles as written (strict, settings read from process.env) against the published proxy declarations', () => {
  const snippet = readmeBlock('## Mount the proxy in your Node server');
  assert.match(snippet, /tokenId: process\.env\./);
  const lines = [
    // What the snippet leaves to the application: its session lookup and its own handler.
    `declare function mySession(request: import('node:http').IncomingMessage): Promise<{ wallet: { customerId: string; accountId: string; cardId: string } } | undefined>;`,
    `declare function myApp(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void;`,
    snippet,
  ];
  const diagnostics = typecheck('readme-proxy', lines, NODE_CONSUMER);
  assert.deepEqual(diagnostics, []);
});

test('the README\'s route handler for servers that hand over a Request compiles as written against the published proxy declarations, without the DOM lib', () => {
  const snippet = readmeBlock('### In a server that hands you a `Request`');
  assert.match(snippet, /proxy\.fetch\(request, \{ clientAddress: /);
  const lines = [
    `declare function mySession(request: Request): Promise<{ wallet: { customerId: string; accountId: string; cardId: string } } | undefined>;`,
    snippet,
  ];
  const diagnostics = typecheck('readme-fetch-proxy', lines, NODE_CONSUMER);
  assert.deepEqual(diagnostics, []);
});

test('the README\'s ServiceError snippet compiles as written (strict, a browser application) against the published core declarations: what it calls is made in it', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const snippet = /```js\n(import \{[^}]*\basksLogin\b[^}]*\} from '[^']+';[\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(snippet, 'the README has a code block that imports asksLogin');
  const lines = [
    // What the snippet leaves to the application: the account it shows and its login screen.
    `declare const accountId: string;`,
    `declare function showLogin(): void;`,
    snippet,
    `export {};`,
  ];
  assert.deepEqual(typecheck('readme-service-error', lines, BROWSER_APP), []);
});

test('the README\'s clientIp, onError and logger options compile as written, each for the entry it names, against the published proxy declarations', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const forFetch = /`(clientIp: [^`]*)` for `proxy\.fetch`/.exec(readme)?.[1];
  const forNode = /`(clientIp: [^`]*)` for the Node handler/.exec(readme)?.[1];
  const onError = /`(onError: [^`]*)`/.exec(readme)?.[1];
  // The proxy's log lines go only to `logger`: a mounted proxy without it logs nothing.
  const logger = /`(logger: [^`]*)`/.exec(readme)?.[1];
  assert.ok(forFetch && forNode && onError && logger, 'the README gives clientIp for each entry, onError and logger');
  // (authorize: who may touch which account, without which createProxy neither compiles nor starts.)
  const settings = `upstream: process.env.SERVICE_BASE_URL, tokenId: process.env.SERVICE_TOKEN_ID, clientSecret: process.env.SERVICE_CLIENT_SECRET, authorize: () => true`;
  const lines = [
    `import { createProxy } from '${pkg.name}/proxy';`,
    `declare function myErrorLog(...args: unknown[]): void;`,
    `export const node = createProxy({ ${settings}, ${forNode}, ${onError}, ${logger} });`,
    `export const fetching = createProxy<Request>({ ${settings}, ${forFetch}, ${onError}, ${logger} });`,
  ];
  assert.deepEqual(typecheck('readme-client-ip', lines, NODE_CONSUMER), []);
});

test('the built proxy relays a browser call to the built sandbox (no dev-dependency needed at run time)', async () => {
  const sandboxJs = pkg.exports['./sandbox'];
  const proxyJs = pkg.exports['./proxy'];
  const { startSandbox } = (await import(pathToFileURL(join(ROOT, typeof sandboxJs === 'string' ? sandboxJs : sandboxJs!.default!)).href)) as typeof import('../../../src/sandbox/index.ts');
  const { createProxy } = (await import(pathToFileURL(join(ROOT, typeof proxyJs === 'string' ? proxyJs : proxyJs!.default!)).href)) as typeof import('../../../src/proxy/index.ts');
  const sandbox = await startSandbox({});
  const f = sandbox.fixtures;
  const proxy = createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, authorize: () => true, basePath: '/api', rateLimit: false, logger: () => {} });
  const server = createServer((req, res) => proxy(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/credentials?accountId=${encodeURIComponent(f.accountId)}`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { data: Array<{ id: string; type: string }> };
    assert.ok(body.data.some((c) => c.id === f.emailCredentialId && c.type === 'EMAIL_OTP'));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await proxy.close();
    await sandbox.close();
  }
});

/** The module an integrator's `import … from '<specifier>'` of this package loads, from the built dist/. */
async function importEntry(specifier: string): Promise<Record<string, unknown>> {
  const target = pkg.exports['.' + specifier.slice(pkg.name.length)];
  assert.ok(target, `${specifier} is no entry of the package`);
  return (await import(pathToFileURL(join(ROOT, typeof target === 'string' ? target : target.default!)).href)) as Record<string, unknown>;
}

test('every name the README imports from the package (a code block or a `name` from `entry` in its text) is an export of the entry it names', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const entry = `(${pkg.name}(?:/[\\w/-]+)?)`;
  const named = [
    ...[...readme.matchAll(new RegExp(`import \\{([^}]+)\\} from '${entry}'`, 'g'))].flatMap((m) => m[1]!.split(',').map((name) => [name.trim().split(' as ')[0]!, m[2]!] as const)),
    ...[...readme.matchAll(new RegExp(`\`(\\w+)(?:\\(\\))?\` from \`${entry}\``, 'g'))].map((m) => [m[1]!, m[2]!] as const),
  ].filter(([name]) => name && !name.startsWith('type '));
  assert.ok(named.some(([name]) => name === 'createProxy') && named.some(([name]) => name === 'startSandbox'), 'the README imports createProxy and startSandbox');
  const missing: string[] = [];
  for (const [name, specifier] of named) if (!(name in (await importEntry(specifier)))) missing.push(`${name} from ${specifier}`);
  assert.deepEqual(missing, [], 'the README imports names its entries do not export');
});

test('the README\'s React paragraph says where a page using the wrappers gets configureWallet: an entry that exports it', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const paragraph = readme.split(/\n\s*\n/).find((p) => p.includes(`'${pkg.name}/react/card-reveal'`));
  assert.ok(paragraph, 'the README has a paragraph on the React wrappers');
  const specifier = new RegExp(`import \\{ configureWallet \\} from '(${pkg.name}(?:/[\\w/-]+)?)'`).exec(paragraph.replace(/\s+/g, ' '))?.[1];
  assert.ok(specifier, 'the React paragraph shows no import of configureWallet (the React entries do not export it)');
  assert.equal(typeof (await importEntry(specifier)).configureWallet, 'function');
});
