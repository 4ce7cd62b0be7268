/**
 * README "Use it in a page" without a build step: the page of that section, its bare
 * `'wallet-elements'` import replaced by the CDN form the README gives for it (`import {
 * configureWallet } from '/cdn/wallet-elements.js'`, the package's `dist/cdn/` served at `/cdn/`),
 * both read from the README. A loopback server stands in for the CDN and for the page's own server:
 * it serves the page, the CDN build (scripts/build.ts buildCdn) where the README says, and the real
 * proxy at `/api` in front of the real sandbox. Chromium loads the page and logs in by email code.
 * As in readme-page.test.ts, the README's sandbox configuration stands in for its production one.
 *
 * Then README "Single sign-on" on such a page: its `codeFlowProvider` block (its last line given the
 * sandbox's test issuer and the README's client id for it) on a `<wallet-login>` and a
 * `<wallet-credentials>`, and its `redirect_uri` page (`oidc-callback.html`, the README's script),
 * in a Chromium with its popup blocker on, as a person has it: a person's click opens the sign-in
 * window, a click no person made does not, and the provider's "blocked" failure is reported by
 * either element as the page's provider failing (`oauth_unavailable`), not as the user's Cancel.
 * And on a fresh page of the per-element CDN modules (dist/cdn/elements/, built and served beside
 * it), whose `<wallet-login>` loads core's session flows on demand: a click on single sign-on
 * reaches the provider within its user activation even when that file comes more slowly than the
 * activation lasts, for the element asks for it before the click.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, normalize } from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright';
import { ROOT } from '../../../bench/size.ts';
import { buildCdn, buildCdnElements } from '../../../scripts/build.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createSandboxAccount } from '../../support/sandbox-account.ts';
import { testProxy } from '../../support/test-proxy.ts';

// scripts/chromium.mjs is plain JavaScript shared with the test rig; typed here at the import.
const { chromiumArgs, findChromium } = (await import('../../../scripts/chromium.mjs' as string)) as { chromiumArgs: string[]; findChromium(): string | undefined };

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const flat = readme.replace(/\s+/g, ' ');
/** The README's CDN import and where it serves dist/cdn/. */
const cdn = /`(import \{ configureWallet \} from '([^']+)')` with the package's `dist\/cdn\/` served at `([^`]+)`/.exec(flat);
const section = readme.slice(readme.indexOf('## Use it in a page'));
const page = /```html\n([\s\S]*?)```/.exec(section)?.[1];
const sandboxConfig = /`(configureWallet\(\{ apiBase: '\/api', environment: 'sandbox' \}\))`/.exec(flat)?.[1];
/** README "Single sign-on": the provider's block, the redirect_uri page's name and its script, the issuer's client id. */
const jsBlocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
const ssoBlock = jsBlocks.find((code) => code.includes('function codeFlowProvider('));
const callback = /at the `redirect_uri` \(a page of your origin, `([^`]+)`\):\s*```js\n([\s\S]*?)```/.exec(readme);
const clientId = /its client id is `([^`]+)`/.exec(flat)?.[1];
/** What the README says either element reports when the provider fails otherwise than by the user giving up. */
const providerFailure = /Any other failure of the provider \([^)]*\) is `(\w+)` in either element/.exec(flat)?.[1];

const dir = mkdtempSync(join(tmpdir(), 'readme-cdn-'));
let sandbox: Sandbox;
let server: Server;
let origin: string;
let browser: Browser;
let account: { customerId: string; accountId: string; cardId: string };
/** Pages besides the README's own: path -> html body. */
const pages = new Map<string, string>();
const served: string[] = [];
/** The file of the per-element CDN modules (dist/cdn/elements/chunks/) that holds core's session flows. */
let sessionChunk: string;

before(async () => {
  assert.ok(cdn && page && sandboxConfig, 'the README has its page, its CDN import and its sandbox configuration');
  await buildCdn(dir);
  const outputs = (await buildCdnElements(join(dir, 'elements')))!.outputs;
  sessionChunk = basename(Object.keys(outputs).find((out) => Object.keys(outputs[out]!.inputs).some((i) => i.endsWith('src/core/session.ts')))!);
  sandbox = await startSandbox({ otpResendIntervalMs: 1 });
  const proxy = testProxy(sandbox.fixtures);
  const made = await createSandboxAccount(sandbox, { email: 'cdn@example.com' });
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
    const body = path === '/' ? html : pages.get(path);
    if (body !== undefined) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>page</title></head><body>${body}</body></html>`);
    const file = normalize(join(dir, path.slice(at!.length)));
    if (path.startsWith(at!) && file.startsWith(dir + '/') && existsSync(file) && statSync(file).isFile()) {
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Chromium as a person has it: with its popup blocker on (Playwright turns it off by default).
  browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs, headless: true, ignoreDefaultArgs: ['--disable-popup-blocking'] });
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

/**
 * A page of README "Single sign-on": the CDN import `importLine`, the sandbox configuration, the
 * README's provider (its last line given the sandbox's test issuer and the README's client id) on
 * the page's `<wallet-login>`, then `script`, then `body`; every event of the elements kept in
 * `window.seen`. The README's redirect_uri page is served too.
 */
function ssoPage(importLine: string, script: string, body: string): string {
  assert.ok(ssoBlock && callback && clientId && providerFailure, 'the README has its provider, its redirect_uri page, the issuer\'s client id and what a failing provider is');
  const [, callbackPage, callbackScript] = callback!;
  const f = sandbox.fixtures;
  const options = { issuer: f.oidcIssuer, authorizationEndpoint: `${f.oidcIssuer}/authorize`, tokenEndpoint: `${f.oidcIssuer}/token`, clientId, redirectUri: `${origin}/${callbackPage}` };
  const provider = ssoBlock!.replace("codeFlowProvider({ /* your provider's */ })", `codeFlowProvider(${JSON.stringify(options)})`);
  assert.notEqual(provider, ssoBlock, 'the README hands the provider to the page\'s <wallet-login>');
  pages.set(`/${callbackPage}`, `<script>${callbackScript}</script>`);
  return `<script type="module">
${importLine};
${sandboxConfig};
${provider}
${script}
window.seen = [];
for (const name of ['wallet-logged-in', 'wallet-logged-out', 'wallet-login-error', 'credential-added', 'wallet-credentials-error']) {
  document.addEventListener(name, (e) => window.seen.push({ name, detail: e.detail }));
}
</script>
${body}`;
}

/** Asking the page over CDP, and clicking as a person does, in a tab opened on an SSO page (ssoPage). */
async function ssoTab(tab: Page) {
  /** A person's click on `selector`, then on "Sign in" in the sign-in window it opens. */
  const signInThrough = async (selector: string) => {
    const opened = tab.waitForEvent('popup', { timeout: 10_000 });
    await tab.locator(selector).click();
    await (await opened).getByRole('button', { name: 'Sign in as the demo user' }).click();
  };
  // Script run over CDP with no user gesture: a click no person made. Playwright's evaluate and
  // waitForFunction give the page one, which would let a window open that a person did not ask for.
  const cdp = await tab.context().newCDPSession(tab);
  const script = async (expression: string) => {
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, userGesture: false, returnByValue: true });
    assert.equal(exceptionDetails, undefined, expression);
    return result.value as unknown;
  };
  /** Once the page's last click no longer lets it open a window (transient activation lasts 5 s). */
  const activationGone = async () => {
    for (const end = Date.now() + 10_000; await script('navigator.userActivation.isActive'); await new Promise((r) => setTimeout(r, 250))) {
      assert.ok(Date.now() < end, 'the page\'s user activation never ended');
    }
  };
  /** Once `expression` holds in the page (asked over CDP, so that asking gives the page no click). */
  const until = async (expression: string, what: string) => {
    for (const end = Date.now() + 15_000; !(await script(expression)); await new Promise((r) => setTimeout(r, 100))) {
      assert.ok(Date.now() < end, `timed out waiting for ${what}`);
    }
  };
  /** The `n`th event of that name the page has seen (the page keeps them all, see ssoPage). */
  const nth = async (name: string, n = 1) => {
    const events = `window.seen.filter((e) => e.name === ${JSON.stringify(name)})`;
    await until(`${events}.length >= ${n}`, `${name} #${n}`);
    return (await script(`${events}[${n - 1}].detail`)) as Record<string, unknown>;
  };
  const clickByScript = (tag: string, selector: string) => script(`document.querySelector('${tag}').shadowRoot.querySelector(${JSON.stringify(selector)}).click()`);
  return { signInThrough, script, activationGone, until, nth, clickByScript };
}

test('README single sign-on on the CDN page, popup blocker on: a person\'s click adds it through <wallet-credentials> and another logs in with it (the README\'s redirect_uri page sending the code back); a click no person made is blocked, and each element reports the provider\'s failure', async () => {
  pages.set(
    '/sso',
    ssoPage(
      cdn![1]!,
      "document.querySelector('wallet-credentials').oidcTokenProvider = document.querySelector('wallet-login').oidcTokenProvider;",
      `<wallet-login account-id="${account.accountId}" methods="email-otp oauth"></wallet-login>
<wallet-credentials account-id="${account.accountId}" customer-id="${account.customerId}"></wallet-credentials>`,
    ),
  );

  const tab = await browser.newPage();
  const problems: string[] = [];
  tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const popups: string[] = [];
  tab.on('popup', (p) => popups.push(p.url()));
  const { signInThrough, script, activationGone, until, nth, clickByScript } = await ssoTab(tab);
  try {
    await tab.goto(`${origin}/sso`);
    await until("typeof document.querySelector('wallet-login').oidcTokenProvider === 'function'", 'the README\'s provider on the login');

    await tab.locator("wallet-login button[data-method='email-otp']").click();
    await tab.locator('wallet-login [part~="code-input"]').fill('000000');
    await nth('wallet-logged-in');
    await until("document.querySelector('wallet-credentials').shadowRoot.querySelector(\"[part~='add-button'][data-type='OAUTH']:not([disabled])\")", 'the single sign-on button');

    // The blocker is on: no window without a person's click; the provider's "The sign-in window was
    // blocked." is an error the element reports.
    await activationGone();
    await clickByScript('wallet-credentials', "[part~='add-button'][data-type='OAUTH']");
    // Told as the page's provider failing, as <wallet-login> tells it, not as the user's cancellation.
    assert.equal((await nth('wallet-credentials-error')).code, providerFailure);

    await signInThrough("wallet-credentials [part~='add-button'][data-type='OAUTH']");
    assert.equal((await nth('credential-added')).type, 'OAUTH');

    await script("document.querySelector('wallet-login').logout()");
    await signInThrough("wallet-login button[data-method='oauth']");
    const loggedIn = await nth('wallet-logged-in', 2);
    assert.deepEqual([loggedIn.accountId, loggedIn.credentialType], [account.accountId, 'OAUTH']);
    assert.equal(popups.length, 2);

    await script("document.querySelector('wallet-login').logout()");
    await until("document.querySelector('wallet-login').matches(':state(choosing)')", 'the login\'s methods');
    await activationGone();
    await clickByScript('wallet-login', "button[data-method='oauth']");
    assert.equal((await nth('wallet-login-error')).code, providerFailure);
    assert.equal(popups.length, 2, 'no window opened without a person\'s click');
    assert.deepEqual(problems, []);
  } finally {
    await tab.close();
  }
});

test('single sign-on on a fresh page of the per-element CDN modules (no session, no passkey), popup blocker on: the person\'s click reaches the provider with no file to fetch first, so its sign-in window opens however slowly core\'s session code comes', async () => {
  // The account's single sign-on identity is the one the test above added.
  const url = `${origin}${cdn![3]}elements/chunks/${sessionChunk}`;
  pages.set(
    '/sso-elements',
    ssoPage(
      `import { configureWallet } from '${cdn![3]}elements/wallet-login.js'`,
      // What the provider's window.open gave it: null is a window the browser blocked.
      'window.opened = []; const open = window.open; window.open = (...args) => { const w = open.apply(window, args); window.opened.push(!!w); return w; };',
      `<wallet-login account-id="${account.accountId}" methods="email-otp oauth"></wallet-login>`,
    ),
  );
  const tab = await browser.newPage();
  const problems: string[] = [];
  tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const { script, activationGone, until, nth } = await ssoTab(tab);
  // A network slower than a click's user activation for that file: asked for while the page has one
  // (at a click), it comes once that has lapsed. Whether the page had one when it asked, each time:
  const asked: boolean[] = [];
  await tab.route(url, async (route) => {
    asked.push((await script('navigator.userActivation.isActive')) as boolean);
    await activationGone();
    await route.continue();
  });
  const requests: Request[] = [];
  tab.on('request', (r) => r.url() === url && requests.push(r));
  const popup = tab.waitForEvent('popup', { timeout: 15_000 });
  popup.catch(() => undefined);
  try {
    await tab.goto(`${origin}/sso-elements`);
    await until("document.querySelector('wallet-login').matches(':state(choosing)') && typeof document.querySelector('wallet-login').oidcTokenProvider === 'function'", 'the login\'s methods');
    // A person reads the methods before choosing: that file, when the page asks for it for them (by
    // then, or within 2 s), has come by then.
    if (!requests[0]) await tab.waitForRequest(url, { timeout: 2000 }).catch(() => undefined);
    await requests[0]?.response();
    await tab.locator("wallet-login button[data-method='oauth']").click();
    await until('window.opened.length > 0', 'the provider\'s window.open');
    assert.deepEqual(await script('window.opened'), [true], `the sign-in window opened (false: blocked, the click's activation over; the page had one when it asked for core's session code: ${asked})`);
    assert.deepEqual(asked, [false], 'core\'s session code was asked for once, before the click');
    await (await popup).getByRole('button', { name: 'Sign in as the demo user' }).click();
    const loggedIn = await nth('wallet-logged-in');
    assert.deepEqual([loggedIn.accountId, loggedIn.credentialType], [account.accountId, 'OAUTH']);
    assert.deepEqual(problems, []);
  } finally {
    await tab.close();
  }
});
