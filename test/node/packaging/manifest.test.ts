/**
 * custom-elements.json, the React wrappers and the Vue types are generated (scripts/build.ts,
 * `npm run manifest`) and committed; these tests regenerate them from the current source and fail when the committed
 * copies differ, so the published description of attributes, properties, events, slots, parts and
 * CSS properties cannot drift from the code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MANIFEST, REACT_DIR, VUE_DIR, eventProp, generateManifest, reactWrappers, vueTypes } from '../../../scripts/build.ts';
import { elementTags, ROOT } from '../../../bench/size.ts';

const dir = mkdtempSync(join(tmpdir(), 'cem-'));
let fresh: string;
try {
  fresh = generateManifest(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

interface Decl {
  name: string;
  tagName?: string;
  customElement?: boolean;
  events?: Array<{ name?: string; description?: string; type?: { text: string } }>;
  attributes?: Array<{ name: string }>;
  cssProperties?: Array<{ name: string; description?: string }>;
  cssStates?: Array<{ name: string; description?: string }>;
}
const modules = (JSON.parse(fresh) as { modules: Array<{ path: string; declarations?: Decl[] }> }).modules;
const elements = modules.flatMap((m) => (m.declarations ?? []).filter((d) => d.customElement && d.tagName));

test('the committed custom-elements.json matches the source (run `npm run manifest` after changing an element)', () => {
  assert.deepEqual(JSON.parse(readFileSync(MANIFEST, 'utf8')), JSON.parse(fresh));
});

test('the committed React wrappers match the manifest (run `npm run manifest`)', () => {
  const expected = reactWrappers(fresh);
  const actual = Object.fromEntries(readdirSync(REACT_DIR).map((f) => [f, readFileSync(join(REACT_DIR, f), 'utf8')]));
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort());
  for (const [name, text] of Object.entries(expected)) assert.equal(actual[name], text, `src/react/${name}`);
});

test('the committed Vue types match the manifest (run `npm run manifest`)', () => {
  const expected = vueTypes(fresh);
  const actual = Object.fromEntries(readdirSync(VUE_DIR).map((f) => [f, readFileSync(join(VUE_DIR, f), 'utf8')]));
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort());
  for (const [name, text] of Object.entries(expected)) assert.equal(actual[name], text, `src/vue/${name}`);
});

test('every element with an entry point is described in the manifest, with its documented events typed', () => {
  const described = new Set(elements.map((d) => d.tagName));
  for (const tag of elementTags()) assert.ok(described.has(tag), `<${tag}> has src/elements/${tag}/index.ts but no custom element in the manifest`);
  for (const el of elements) {
    for (const event of el.events ?? []) {
      assert.match(event.name ?? '', /^[a-z][a-z0-9]*(-[a-z0-9]+)+$/, `<${el.tagName}> event name`);
      assert.ok(event.description, `<${el.tagName}> ${event.name} is documented with @event`);
    }
  }
});

test('every element lists its custom states in cssStates, each set in its code, and no CSS custom property description carries them', () => {
  for (const el of elements) {
    for (const p of el.cssProperties ?? []) assert.doesNotMatch(p.description ?? '', /Custom states|:state\(/, `<${el.tagName}> ${p.name}'s description`);
    const states = el.cssStates ?? [];
    assert.ok(states.length > 0, `<${el.tagName}> has no cssStates (@cssstate in its class JSDoc)`);
    const dir = join(ROOT, 'src/elements', el.tagName!);
    const code = readdirSync(dir).filter((f) => f.endsWith('.ts') && !/\.(test|styles)\.ts$/.test(f)).map((f) => readFileSync(join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')).join('\n');
    for (const s of states) {
      assert.match(s.name, /^[a-z]+(-[a-z]+)*$/, `<${el.tagName}> state name`);
      assert.ok(s.description, `<${el.tagName}> :state(${s.name}) is described`);
      assert.ok(code.includes(`'${s.name}'`) || new RegExp(`[{,\\s]${s.name}:`).test(code), `<${el.tagName}> :state(${s.name}) is set nowhere in its code`);
    }
  }
});

test('every element has an entry in the package exports map, and every element export has a source', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; customElements?: string };
  assert.equal(pkg.customElements, 'custom-elements.json');
  for (const tag of elementTags()) assert.ok(pkg.exports[`./${tag}`], `package.json exports lacks "./${tag}"`);
  for (const key of Object.keys(pkg.exports)) {
    const target = pkg.exports[key] as { default?: string } | string;
    const file = typeof target === 'string' ? target : (target.default ?? '');
    const m = /^\.\/dist\/elements\/([a-z-]+)\.js$/.exec(file);
    if (m) assert.ok(existsSync(join(ROOT, 'src/elements', m[1]!, 'index.ts')), `${key} points at an element without src/elements/${m[1]}/index.ts`);
  }
});

test('React event props are the on-prefixed PascalCase of the event names', () => {
  assert.equal(eventProp('wallet-logged-in'), 'onWalletLoggedIn');
  assert.equal(eventProp('card-reveal-error'), 'onCardRevealError');
  assert.equal(eventProp('card-hidden'), 'onCardHidden');
});
