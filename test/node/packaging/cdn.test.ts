/**
 * The CDN build (dist/cdn/wallet-elements.js, scripts/build.ts) in real Chromium: one ES module
 * with lit inlined, loaded by a page under a strict Content Security Policy (`default-src 'self'`,
 * no 'unsafe-inline', no 'unsafe-eval'; DESIGN.md "Strict CSP") from a plain static server, with
 * no import map and no bundler. It must define every element of the manifest, render each one,
 * and raise no CSP violation or page error.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCdn } from '../../../scripts/build.ts';
import { ROOT } from '../../../bench/size.ts';
import { htmlPage, startPageRig, type PageRig } from './page-rig.ts';

const tags = (JSON.parse(readFileSync(join(ROOT, 'custom-elements.json'), 'utf8')) as {
  modules: Array<{ declarations?: Array<{ customElement?: boolean; tagName?: string }> }>;
}).modules
  .flatMap((m) => m.declarations ?? [])
  .filter((d) => d.customElement && d.tagName)
  .map((d) => d.tagName!);

const dir = mkdtempSync(join(tmpdir(), 'cdn-'));
let rig: PageRig;
let externals: string[] = [];

const page = htmlPage(`<script type="module" src="/cdn/wallet-elements.js"></script>
${tags.map((t) => `<${t} api-base="/api"></${t}>`).join('\n')}
<script type="module" src="/check.js"></script>`);
// Runs after the bundle (module scripts execute in order); reports through the title.
const check = `await customElements.whenDefined(${JSON.stringify(tags[0] ?? 'x')});
const tags = ${JSON.stringify(tags)};
const out = {};
for (const t of tags) {
  const el = document.querySelector(t);
  await el?.updateComplete;
  out[t] = { defined: !!customElements.get(t), rendered: !!el?.shadowRoot?.querySelector('*') };
}
document.title = 'done ' + JSON.stringify(out);`;

before(async () => {
  const metafile = await buildCdn(dir);
  externals = Object.values(metafile?.outputs ?? {}).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  rig = await startPageRig((path) => {
    if (path === '/') return { type: 'html', body: page };
    if (path === '/check.js') return { type: 'js', body: check };
    if (path === '/cdn/wallet-elements.js') return { type: 'js', body: readFileSync(join(dir, 'wallet-elements.js')) };
    return undefined;
  });
});

after(async () => {
  await rig?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the CDN bundle is self-contained: nothing left to import', () => {
  assert.deepEqual(externals, []);
});

test('the CDN bundle defines and renders every element under a strict CSP', async () => {
  assert.ok(tags.length >= 6, `the manifest describes ${tags.length} elements`);
  const { result, problems } = await rig.open<Record<string, { defined: boolean; rendered: boolean }>>('/');
  for (const t of tags) {
    assert.equal(result[t]?.defined, true, `<${t}> defined`);
    assert.equal(result[t]?.rendered, true, `<${t}> rendered`);
  }
  assert.deepEqual(problems, []);
});
