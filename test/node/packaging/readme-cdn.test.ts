/**
 * README "Use it in a page" without a build step: the page of that section, its bare
 * `'wallet-elements'` import replaced by the CDN form the README gives for it (`import {
 * configureWallet } from '/cdn/wallet-elements.js'`, the package's `dist/cdn/` served at `/cdn/`),
 * both read from the README. A loopback server stands in for the CDN and for the page's own server:
 * it serves the page, the CDN build (scripts/build.ts buildCdn) where the README says, and the real
 * proxy at `/api` in front of the real sandbox. Chromium loads the page and logs in by email code.
 * As in readme-page.test.ts, the README's sandbox configuration stands in for its production one.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import type { Browser } from 'playwright';
import { launchChromium } from '../../../bench/browser.ts';
import { ROOT } from '../../../bench/size.ts';
import { buildCdn } from '../../../scripts/build.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { testProxy } from '../../support/test-proxy.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const flat = readme.replace(/\s+/g, ' ');
/** The README's CDN import and where it serves dist/cdn/. */
const cdn = /`(import \{ configureWallet \} from '([^']+)')` with the package's `dist\/cdn\/` served at `([^`]+)`/.exec(flat);
const section = readme.slice(readme.indexOf('## Use it in a page'));
const page = /```html\n([\s\S]*?)```/.exec(section)?.[1];
const sandboxConfig = /`(configureWallet\(\{ apiBase: '\/api', environment: 'sandbox' \}\))`/.exec(flat)?.[1];

const dir = mkdtempSync(join(tmpdir(), 'readme-cdn-'));
let sandbox: Sandbox;
let server: Server;
let origin: string;
let browser: Browser;
let account: { customerId: string; accountId: string; cardId: string };
const served: string[] = [];

before(async () => {
  assert.ok(cdn && page && sandboxConfig, 'the README has its page, its CDN import and its sandbox configuration');
  await buildCdn(dir);
  sandbox = await startSandbox({ otpResendIntervalMs: 1 });
  const proxy = testProxy(sandbox.fixtures);
  const f = sandbox.fixtures;
  const made = await fetch(`${sandbox.url}/sandbox/accounts`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(`${f.tokenId}:${f.clientSecret}`).toString('base64'), 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'cdn@example.com' }),
  });
  assert.equal(made.status, 201);
  account = (await made.json()) as typeof account;
  const [, , address, at] = cdn!;
  // The page as the README writes it, its import the CDN form, with this account's ids.
  const html = page!
    .replace("import { configureWallet } from 'wallet-elements';", `import { configureWallet } from '${address}';`)
    .replace("configureWallet({ apiBase: '/api' });", `${sandboxConfig};`)
    .replace(/InternalAccount:…/g, account.accountId)
    .replace(/Customer:…/g, account.customerId)
    .replace(/Card:…/g, account.cardId);
  assert.ok(html.includes(`from '${address}'`) && html.includes(sandboxConfig!), 'the page\'s import and configuration were replaced');
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    served.push(path);
    if (path.startsWith('/api/')) return proxy(req, res);
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>page</title></head><body>${html}</body></html>`);
    const file = normalize(join(dir, path.slice(at!.length)));
    if (path.startsWith(at!) && file.startsWith(dir + '/') && existsSync(file) && statSync(file).isFile()) {
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('README page with the CDN import: every element defined from the CDN file, and a login by email code through the proxy', async () => {
  const tab = await browser.newPage();
  const problems: string[] = [];
  tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  try {
    await tab.goto(`${origin}/`);
    await tab.waitForFunction(() => customElements.get('wallet-login') && customElements.get('agent-actions'), undefined, { timeout: 15000 });
    const defined = await tab.evaluate(() => ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions'].filter((t) => customElements.get(t)));
    assert.equal(defined.length, 6, `defined: ${defined}`);
    assert.ok(served.includes(cdn![2]!), `the page loaded ${cdn![2]}: ${served}`);
    assert.equal(await tab.evaluate(() => typeof (document.querySelector('wallet-login') as unknown as { oidcTokenProvider?: unknown }).oidcTokenProvider), 'function');
    const loggedIn = tab.evaluate(() => new Promise<string>((resolve) => document.querySelector('wallet-login')!.addEventListener('wallet-logged-in', (e) => resolve((e as CustomEvent<{ accountId: string }>).detail.accountId), { once: true })));
    await tab.locator("wallet-login button[data-method='email-otp']").click();
    await tab.locator('wallet-login [part~="code-input"]').fill('000000');
    assert.equal(await loggedIn, account.accountId);
    assert.deepEqual(problems, []);
  } finally {
    await tab.close();
  }
});
