/**
 * The CDN translation (dist/cdn/locales/ar.js beside dist/cdn/wallet-elements.js, scripts/build.ts)
 * in real Chromium under a strict CSP: loaded after the bundle, it registers its strings in the
 * bundle's own catalog, so an element in `lang="ar"` speaks Arabic and lays out right to left, while
 * a page without it keeps English (the bundle itself carries no Arabic).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { buildCdn } from '../../../scripts/build.ts';
import { launchChromium } from '../../../bench/browser.ts';
import { ar } from '../../../src/locales/ar.ts';
import { sharedStrings } from '../../../src/elements/shared/strings.ts';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'";
const dir = mkdtempSync(join(tmpdir(), 'cdn-locale-'));
let server: Server;
let origin: string;
let browser: Browser;

const page = (withArabic: boolean) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CDN</title>
<script type="module" src="/cdn/wallet-elements.js"></script>
${withArabic ? '<script type="module" src="/cdn/locales/ar.js"></script>' : ''}</head><body>
<wallet-login lang="ar" api-base="/api"></wallet-login>
<script type="module" src="/check.js"></script></body></html>`;

// Runs after the modules above (module scripts execute in order); reports through the title.
const check = `const el = document.querySelector('wallet-login');
await customElements.whenDefined('wallet-login');
await el.updateComplete;
document.title = 'done ' + JSON.stringify({ text: el.shadowRoot.textContent, dir: el.getAttribute('dir') });`;

before(async () => {
  await buildCdn(dir);
  server = createServer((req, res) => {
    const headers = { 'content-security-policy': CSP, 'cache-control': 'no-store' };
    const js = (file: string) => res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(readFileSync(join(dir, file)));
    if (req.url === '/') res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(page(true));
    else if (req.url === '/english') res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(page(false));
    else if (req.url === '/check.js') res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(check);
    else if (req.url === '/cdn/wallet-elements.js') js('wallet-elements.js');
    else if (req.url === '/cdn/locales/ar.js') js('locales/ar.js');
    else res.writeHead(404, { ...headers, 'content-type': 'application/json' }).end('{"status":404,"code":"NOT_FOUND","message":"none"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

async function render(path: string): Promise<{ text: string; dir: string; problems: string[] }> {
  const tab = await browser.newPage();
  const problems: string[] = [];
  tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  tab.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  await tab.goto(`${origin}${path}`);
  await tab.waitForFunction(() => document.title.startsWith('done '), undefined, { timeout: 15000 });
  const result = JSON.parse((await tab.title()).slice(5)) as { text: string; dir: string };
  await tab.close();
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
