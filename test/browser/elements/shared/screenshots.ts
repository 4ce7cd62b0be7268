/**
 * Captures the screens of <wallet-login>, <passkey-register> and <wallet-credentials> in light,
 * dark and Arabic into docs/screenshots/<tag>/, against the real sandbox through the real proxy, in
 * the system Chromium driven by Playwright, with a virtual authenticator for the passkey screens.
 * The page is served under `Content-Security-Policy: default-src 'self'`, so the pictures also show
 * that the elements render with no inline style or script.
 *
 *   node --import tsx test/browser/elements/shared/screenshots.ts
 *
 * Not a test (it asserts nothing); the browser tests check the behaviour these pictures show.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Page } from 'playwright';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import { testProxy } from '../../../support/test-proxy.ts';
import type { SandboxFixtures } from '../../../../src/core/types.ts';
import { addVirtualAuthenticator } from '../../../support/virtual-authenticator.ts';

// The project's Chromium finder (plain JS, shared with the test runner's config).
const { findChromium, chromiumArgs } = (await import('../../../../scripts/chromium.mjs' as string)) as {
  findChromium(): string;
  chromiumArgs: string[];
};

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const out = (tag: string) => `${root}docs/screenshots/${tag}`;

const bundle = await build({
  entryPoints: [fileURLToPath(new URL('./screenshots.page.ts', import.meta.url))],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  write: false,
  tsconfig: `${root}tsconfig.json`,
  conditions: ['browser'],
  logLevel: 'error',
});
const js = bundle.outputFiles[0]!.text;

const sandbox = await startSandbox({ testClock: true } as Parameters<typeof startSandbox>[0]);
const fx = sandbox.fixtures;
const proxy = testProxy(fx as SandboxFixtures);

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>wallet elements</title>
<link rel="stylesheet" href="/page.css"><script type="module" src="/bundle.js"></script></head>
<body><main id="stage"></main></body></html>`;
const CSS = `body{margin:0;padding:24px;font-family:'DejaVu Sans',sans-serif;background:#f3f4f7}
@media (prefers-color-scheme: dark){body{background:#0b0c10}}
#stage{max-width:560px}`;

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = req.url ?? '/';
  if (url.startsWith('/api/') || url === '/api') {
    proxy(req, res, () => {
      res.writeHead(404).end();
    });
    return;
  }
  const csp = "default-src 'self'; frame-src 'self'";
  const send = (type: string, body: string) => res.writeHead(200, { 'content-type': type, 'content-security-policy': csp }).end(body);
  if (url === '/bundle.js') return send('text/javascript', js);
  if (url === '/page.css') return send('text/css', CSS);
  if (url === '/' || url.startsWith('/?')) return send('text/html; charset=utf-8', PAGE);
  res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const port = (server.address() as { port: number }).port;

async function newAccount(): Promise<{ accountId: string; customerId: string; emailCredentialId: string }> {
  const basic = 'Basic ' + Buffer.from(`${fx.tokenId}:${fx.clientSecret}`).toString('base64');
  const res = await fetch(new URL(fx.baseUrl).origin + '/sandbox/accounts', {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com' }),
  });
  if (!res.ok) throw new Error(`new account: ${res.status}`);
  return (await res.json()) as { accountId: string; customerId: string; emailCredentialId: string };
}

const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
const variants = [
  { name: 'light', colorScheme: 'light' as const, lang: 'en' },
  { name: 'dark', colorScheme: 'dark' as const, lang: 'en' },
  { name: 'ar', colorScheme: 'light' as const, lang: 'ar' },
];

async function pageFor(v: (typeof variants)[number]): Promise<Page> {
  const context = await browser.newContext({ colorScheme: v.colorScheme, viewport: { width: 640, height: 900 }, locale: v.lang });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && console.error(`[page] ${m.text()}`));
  await page.goto(`http://localhost:${port}/`);
  await page.waitForFunction(() => 'shots' in window);
  await page.evaluate((lang) => {
    document.documentElement.lang = lang;
    (window as any).shots.setup();
  }, v.lang);
  await addVirtualAuthenticator(page);
  return page;
}

async function snap(page: Page, tag: string, state: string, variant: string): Promise<void> {
  await page.waitForTimeout(150);
  await page.locator(tag).screenshot({ path: `${out(tag)}/${state}-${variant}.png`, animations: 'disabled' });
}

const mount = (page: Page, tag: string, attrs: Record<string, string>) => page.evaluate(([t, a]) => (window as any).shots.mount(t, a), [tag, attrs] as const);
const state = (page: Page, tag: string, s: string) => page.waitForFunction(([t, n]) => document.querySelector(t)?.matches(`:state(${n})`), [tag, s] as const);

for (const tag of ['wallet-login', 'passkey-register', 'wallet-credentials']) await mkdir(out(tag), { recursive: true });

for (const v of variants) {
  // <wallet-login>
  {
    const page = await pageFor(v);
    const acct = await newAccount();
    const attrs = { 'account-id': acct.accountId, methods: 'email-otp sms-otp passkey oauth', 'no-autofill': '' };
    await mount(page, 'wallet-login', attrs);
    await state(page, 'wallet-login', 'choosing');
    await snap(page, 'wallet-login', 'choosing', v.name);
    await page.locator("wallet-login button[data-method='email-otp']").click();
    await state(page, 'wallet-login', 'code-entry');
    await snap(page, 'wallet-login', 'code-entry', v.name);
    await page.locator('wallet-login #code').fill('123456');
    await page.waitForFunction(() => document.querySelector('wallet-login')?.shadowRoot?.querySelector('[part~=error]')?.textContent?.trim());
    await state(page, 'wallet-login', 'code-entry');
    await snap(page, 'wallet-login', 'wrong-code', v.name);
    await page.locator('wallet-login #code').fill('000000');
    await state(page, 'wallet-login', 'logged-in');
    await snap(page, 'wallet-login', 'logged-in', v.name);
    sandbox.clock.advance(16 * 60_000);
    await mount(page, 'wallet-login', attrs);
    await state(page, 'wallet-login', 'reauth');
    await snap(page, 'wallet-login', 'reauth-expired', v.name);
    await page.context().close();
  }
  // <passkey-register>
  {
    const page = await pageFor(v);
    const acct = await newAccount();
    await mount(page, 'passkey-register', { 'account-id': acct.accountId, nickname: v.lang === 'ar' ? 'الحاسوب المحمول' : 'Work laptop' });
    await state(page, 'passkey-register', 'ready');
    await snap(page, 'passkey-register', 'ready', v.name);
    await page.locator('passkey-register [part~=submit]').click();
    await state(page, 'passkey-register', 'login-required');
    await snap(page, 'passkey-register', 'login-required', v.name);
    await page.evaluate((id) => (window as any).shots.loginByEmail(id), acct.emailCredentialId);
    await state(page, 'passkey-register', 'ready');
    await page.locator('passkey-register [part~=submit]').click();
    await state(page, 'passkey-register', 'done');
    await snap(page, 'passkey-register', 'done', v.name);
    await page.context().close();
  }
  // <wallet-credentials>
  {
    const page = await pageFor(v);
    const acct = await newAccount();
    await page.evaluate((id) => (window as any).shots.loginByEmail(id), acct.emailCredentialId);
    const attrs = { 'account-id': acct.accountId, 'customer-id': acct.customerId };
    await mount(page, 'wallet-credentials', attrs);
    await state(page, 'wallet-credentials', 'ready');
    await snap(page, 'wallet-credentials', 'one-credential', v.name);
    await page.locator("wallet-credentials [part~=add-button][data-type='SMS_OTP']").click();
    await state(page, 'wallet-credentials', 'code-entry');
    await page.waitForFunction(() => !document.querySelector('wallet-credentials')?.matches(':state(busy)'));
    await snap(page, 'wallet-credentials', 'activation-code', v.name);
    await page.locator('wallet-credentials #code').fill('000000');
    await page.locator('wallet-credentials [part~=code-form] [part~=submit]').click();
    await page.waitForFunction(() => {
      const el = document.querySelector('wallet-credentials');
      return el && !el.matches(':state(code-entry)') && !el.matches(':state(busy)');
    });
    await snap(page, 'wallet-credentials', 'two-credentials', v.name);
    await page.locator("wallet-credentials [part~=credential][data-type='EMAIL_OTP'] [part~=revoke-button]").click();
    await state(page, 'wallet-credentials', 'confirming');
    await snap(page, 'wallet-credentials', 'confirm-removal', v.name);
    await page.context().close();
  }
}

await browser.close();
server.close();
await proxy.close();
await sandbox.close();
console.log('screenshots written to docs/screenshots/{wallet-login,passkey-register,wallet-credentials}/');
