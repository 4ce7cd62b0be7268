/**
 * The CDN translation (dist/cdn/locales/ar.js beside dist/cdn/wallet-elements.js, scripts/build.ts)
 * in real Chromium under a strict CSP: loaded after the bundle, it registers its strings in the
 * bundle's own catalog, so an element in `lang="ar"` speaks Arabic and lays out right to left, while
 * a page without it keeps English (the bundle itself carries no Arabic).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCdn } from '../../../scripts/build.ts';
import { ar } from '../../../src/locales/ar.ts';
import { sharedStrings } from '../../../src/elements/shared/strings.ts';
import { htmlPage, startPageRig, type PageRig } from './page-rig.ts';

const dir = mkdtempSync(join(tmpdir(), 'cdn-locale-'));
let rig: PageRig;

const page = (withArabic: boolean) =>
  htmlPage(`<script type="module" src="/cdn/wallet-elements.js"></script>
${withArabic ? '<script type="module" src="/cdn/locales/ar.js"></script>' : ''}
<wallet-login lang="ar" api-base="/api"></wallet-login>
<script type="module" src="/check.js"></script>`);

// Runs after the modules above (module scripts execute in order); reports through the title.
const check = `const el = document.querySelector('wallet-login');
await customElements.whenDefined('wallet-login');
await el.updateComplete;
document.title = 'done ' + JSON.stringify({ text: el.shadowRoot.textContent, dir: el.shadowRoot.querySelector('[part~=base]')?.getAttribute('dir') });`;

before(async () => {
  await buildCdn(dir);
  rig = await startPageRig((path) => {
    if (path === '/' || path === '/english') return { type: 'html', body: page(path === '/') };
    if (path === '/check.js') return { type: 'js', body: check };
    if (path === '/cdn/wallet-elements.js') return { type: 'js', body: readFileSync(join(dir, 'wallet-elements.js')) };
    if (path === '/cdn/locales/ar.js') return { type: 'js', body: readFileSync(join(dir, 'locales/ar.js')) };
    return undefined;
  });
});

after(async () => {
  await rig?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function render(path: string): Promise<{ text: string; dir: string; problems: string[] }> {
  const { result, problems } = await rig.open<{ text: string; dir: string }>(path);
  return { ...result, problems };
}

test('the CDN translation makes an element in lang="ar" speak Arabic, right to left, under a strict CSP', async () => {
  const { text, dir: direction, problems } = await render('/');
  // Without an account-id the element shows one sentence saying it needs one.
  assert.ok(text.includes(ar['common.missing-account']), 'the Arabic sentence is shown');
  assert.ok(!text.includes(sharedStrings.en['common.missing-account']), 'not the English one');
  assert.equal(direction, 'rtl');
  assert.deepEqual(problems, []);
});

test('without it, the same element falls back to English', async () => {
  const { text, problems } = await render('/english');
  assert.ok(text.includes(sharedStrings.en['common.missing-account']));
  assert.deepEqual(problems, []);
});
