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
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { buildCdn } from '../../../scripts/build.ts';
import { launchChromium } from '../../../bench/browser.ts';
import { ROOT } from '../../../bench/size.ts';

const tags = (JSON.parse(readFileSync(join(ROOT, 'custom-elements.json'), 'utf8')) as {
  modules: Array<{ declarations?: Array<{ customElement?: boolean; tagName?: string }> }>;
}).modules
  .flatMap((m) => m.declarations ?? [])
  .filter((d) => d.customElement && d.tagName)
  .map((d) => d.tagName!);

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'";
const dir = mkdtempSync(join(tmpdir(), 'cdn-'));
let server: Server;
let origin: string;
let browser: Browser;
let externals: string[] = [];

before(async () => {
  const metafile = await buildCdn(dir);
  externals = Object.values(metafile?.outputs ?? {}).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>CDN</title>
<script type="module" src="/cdn/wallet-elements.js"></script></head><body>
${tags.map((t) => `<${t} api-base="/api"></${t}>`).join('\n')}
<script type="module" src="/check.js"></script></body></html>`;
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
  server = createServer((req, res) => {
    const headers = { 'content-security-policy': CSP, 'cache-control': 'no-store' };
    if (req.url === '/') res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(page);
    else if (req.url === '/check.js') res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(check);
    else if (req.url === '/cdn/wallet-elements.js') res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(readFileSync(join(dir, 'wallet-elements.js')));
    // The elements may ask the proxy for data on connect; there is none here.
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

test('the CDN bundle is self-contained: nothing left to import', () => {
  assert.deepEqual(externals, []);
});

test('the CDN bundle defines and renders every element under a strict CSP', async () => {
  assert.ok(tags.length >= 6, `the manifest describes ${tags.length} elements`);
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.title.startsWith('done '), undefined, { timeout: 15000 });
  const result = JSON.parse((await page.title()).slice(5)) as Record<string, { defined: boolean; rendered: boolean }>;
  for (const t of tags) {
    assert.equal(result[t]?.defined, true, `<${t}> defined`);
    assert.equal(result[t]?.rendered, true, `<${t}> rendered`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
