/**
 * README "In Vue": a Vite build of a small Vue application whose config is the README's line
 * (`import { isCustomElement } from 'wallet-elements/vue'`, then `vue({ template: { compilerOptions:
 * { isCustomElement } } })`, with @vitejs/plugin-vue), and whose template binds the elements the
 * ways the README says (`:account-id="id"`, `:cardId="id"`, `.oidcTokenProvider="provider"`,
 * `@wallet-logged-in`), all read from the README. The built application runs in Chromium against
 * the real proxy and sandbox on loopback: the tags stay the elements (the compiler resolved no
 * component for them), each binding reaches the element as the README says, and a login by email
 * code reaches the application's listener. The same build with the option put where the compiler
 * does not read it resolves the tags as components: the shape of the README's line matters.
 *
 * Two stand-ins: `'wallet-elements/vue'` and `'wallet-elements'` are the package's sources (as
 * readme-page.test.ts does), and the README's sandbox configuration stands in for its production one.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright';
import { build, type InlineConfig } from 'vite';
import { launchChromium } from '../../../bench/browser.ts';
import { ROOT } from '../../../bench/size.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createSandboxAccount } from '../../support/sandbox-account.ts';
import { testProxy } from '../../support/test-proxy.ts';

const flat = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
const vueParagraph = flat.slice(flat.indexOf('In Vue, tell the compiler'), flat.indexOf('(vue >= 3.5)'));
/** The README's Vite setup: the import, and the plugin call. */
const setup = /\(Vite: `(import \{ isCustomElement \} from '([^']+)')`, then `(vue\([^`]+\))`\)/.exec(vueParagraph);
/** The README's bindings: attributes by name, properties by name, a property by `.`, and a listener. */
const binding = (pattern: RegExp) => pattern.exec(vueParagraph)?.[1];
const attributeBinding = binding(/`(:account-id="id")`/);
const propertyBinding = binding(/`(:cardId="id")`/);
const dotBinding = binding(/`(\.oidcTokenProvider="provider")`/);
const listener = binding(/`(@wallet-logged-in)`/);
const sandboxConfig = /`(configureWallet\(\{ apiBase: '\/api', environment: 'sandbox' \}\))`/.exec(flat)?.[1];

const app = mkdtempSync(join(ROOT, '.readme-vue-'));
let sandbox: Sandbox;
let server: Server;
let origin: string;
let browser: Browser;
let built: string;
let control: string;
let account: { customerId: string; accountId: string; cardId: string; emailCredentialId: string };

/** The README's config as a vite.config module of the application, the package's entry at its source. */
function writeConfig(plugin: string): string {
  const file = join(app, `vite.config.${Math.random().toString(36).slice(2)}.ts`);
  const importLine = setup![1]!.replace(`'${setup![2]}'`, JSON.stringify(join(ROOT, 'src/vue/index.ts')));
  writeFileSync(file, `import vue from '@vitejs/plugin-vue';\n${importLine};\nexport const plugins = [${plugin}];\n`);
  return file;
}

/** Builds the application with `plugins` from `configFile`; answers the built JavaScript. */
async function buildApp(configFile: string, outDir: string): Promise<string> {
  const { plugins } = (await import(pathToFileURL(configFile).href)) as { plugins: InlineConfig['plugins'] };
  // Vue's development build, whose warnings say what the compiler made of the tags: Vite takes it
  // from NODE_ENV, put back after.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'development';
  try {
    await build({
      root: app,
      configFile: false,
      logLevel: 'silent',
      plugins,
      resolve: { alias: { 'wallet-elements': join(ROOT, 'src/index.ts') } },
      build: { outDir, emptyOutDir: true, minify: false },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const assets = join(outDir, 'assets');
  return readdirSync(assets).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n');
}

before(async () => {
  assert.ok(setup && attributeBinding && propertyBinding && dotBinding && listener && sandboxConfig, 'the README has its Vue setup, its bindings and its sandbox configuration');
  sandbox = await startSandbox();
  const made = await createSandboxAccount(sandbox, { email: 'vue@example.com' });
  assert.equal(made.status, 201);
  account = (await made.json()) as typeof account;

  mkdirSync(join(app, 'src'));
  writeFileSync(join(app, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>vue</title></head><body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>`);
  writeFileSync(
    join(app, 'src/main.ts'),
    `import { configureWallet } from 'wallet-elements';
import { createApp } from 'vue';
import App from './App.vue';
${sandboxConfig};
const warnings: string[] = [];
const vm = createApp(App);
vm.config.warnHandler = (message) => void warnings.push(message);
vm.mount('#app');
Object.assign(window, { vueWarnings: warnings });
`,
  );
  // A template as the README binds the elements: the card's id as the property cardId, the account's
  // as the attribute account-id, the provider as a property, the login's event to the application.
  writeFileSync(
    join(app, 'src/App.vue'),
    `<script setup lang="ts">
import { ref } from 'vue';
const id = ref(${JSON.stringify(account.accountId)});
const card = ${JSON.stringify(account.cardId)};
const provider = async () => 'not-used';
const loggedIn = ref('');
Object.assign(window, { loggedIn, provider });
</script>
<template>
  <wallet-login ${attributeBinding} ${dotBinding} methods="email-otp" ${listener}="(e: CustomEvent) => (loggedIn = e.detail.accountId)"></wallet-login>
  <card-reveal ${propertyBinding!.replace('"id"', '"card"')} ${attributeBinding}></card-reveal>
  <p id="logged-in">{{ loggedIn }}</p>
</template>
`,
  );
  built = await buildApp(writeConfig(setup![3]!), join(app, 'dist'));
  // The option one level up, where the plugin does not read it.
  const misplaced = setup![3]!.replace('vue({ template: { compilerOptions: { isCustomElement } } })', 'vue({ compilerOptions: { isCustomElement } })');
  assert.notEqual(misplaced, setup![3]);
  control = await buildApp(writeConfig(misplaced), join(app, 'dist-control'));

  const proxy = testProxy(sandbox.fixtures);
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path.startsWith('/api/')) return proxy(req, res);
    const file = normalize(join(serving, path === '/' ? 'index.html' : path));
    if (file.startsWith(serving + '/') && existsSync(file) && statSync(file).isFile()) {
      return res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
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
  if (server) await new Promise((resolve) => server.close(resolve));
  await sandbox?.close();
  rmSync(app, { recursive: true, force: true });
});

/** The page at `/` serves this build. */
let serving = '';

test('with the option where the README puts it, the compiler leaves the tags to the browser; put elsewhere, it resolves them as components', () => {
  assert.match(built, /"wallet-login"/);
  assert.doesNotMatch(built, /resolveComponent\("(wallet-login|card-reveal)"/);
  assert.match(control, /resolveComponent\("wallet-login"/);
});

/** Opens the application built into `dist`; answers what its elements got and Vue's warnings. */
async function openApp(dist: string, then?: (tab: import('playwright').Page) => Promise<void>) {
  serving = dist;
  const tab = await browser.newPage();
  const problems: string[] = [];
  tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  try {
    await tab.goto(`${origin}/`);
    await tab.waitForFunction(() => customElements.get('wallet-login') && document.querySelector('wallet-login')?.shadowRoot, undefined, { timeout: 15000 });
    const seen = await tab.evaluate(() => {
      const login = document.querySelector('wallet-login') as HTMLElement & { oidcTokenProvider?: unknown };
      const reveal = document.querySelector('card-reveal') as HTMLElement & { cardId?: string };
      return {
        loginAccount: login.getAttribute('account-id'),
        revealAccount: reveal.getAttribute('account-id'),
        cardId: reveal.cardId,
        cardIdAttribute: reveal.getAttribute('cardid'),
        providerIsTheApps: login.oidcTokenProvider === (window as unknown as { provider: unknown }).provider,
        warnings: (window as unknown as { vueWarnings: string[] }).vueWarnings,
      };
    });
    await then?.(tab);
    return { seen, problems };
  } finally {
    await tab.close();
  }
}

test('the application built with the option put elsewhere: Vue warns that it could not resolve the tags as components', async () => {
  const { seen } = await openApp(join(app, 'dist-control'));
  assert.ok(seen.warnings.some((w) => /Failed to resolve component: wallet-login/.test(w)), `Vue's warnings: ${seen.warnings}`);
});

test('the application built as the README says: its bindings reach the elements, no warning from Vue, and a login by email code reaches its listener', async () => {
  const { seen, problems } = await openApp(join(app, 'dist'), async (tab) => {
    await tab.locator("wallet-login button[data-method='email-otp']").click();
    await tab.locator('wallet-login [part~="code-input"]').fill('000000');
    await tab.waitForFunction((id) => document.querySelector('#logged-in')?.textContent === id, account.accountId, { timeout: 15000 });
  });
  assert.deepEqual(seen, {
    loginAccount: account.accountId,
    revealAccount: account.accountId,
    cardId: account.cardId,
    cardIdAttribute: null,
    providerIsTheApps: true,
    warnings: [],
  });
  assert.deepEqual(problems, []);
});
