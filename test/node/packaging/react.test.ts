/**
 * The React wrappers (src/react/, generated from custom-elements.json with @lit/react) rendered by
 * React 19 and by React 18 (the devDependencies react-18 and react-dom-18, which the bundle takes
 * for `react` and `react-dom`) in Chromium, bundled as an application would bundle them (esbuild;
 * React's development build, so that its warnings show): every wrapper renders its element; props arrive as the
 * element's properties, including those with no attribute (`oidcTokenProvider`, `agentToken`);
 * a changed prop updates the element; an `onX` prop receives the element's own event object; and
 * unmounting removes the elements. The service answers 404 to everything here, which is what makes
 * the error events fire. A server-rendered page (react-dom/server in Node, then hydrateRoot in the
 * browser, as Next.js or Remix do) gets the same from the wrappers; a bare tag there gets only its
 * attributes, since React 19 sets no property and adds no listener when it hydrates one. Under
 * React 18 the wrappers behave the same; a bare tag gets its attributes only, rendered or hydrated
 * (React 18 sets no property of a custom element and drops function props).
 *
 * The types are checked by `npm run typecheck` (this file is part of the project): a prop of the
 * wrong type and a wrong use of an event's detail are compile errors.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import * as React from 'react';
import { AgentActions, CardReveal, WalletLogin } from '../../../src/react/index.ts';
import { PRODUCTION_BUILD, ROOT } from '../../../bench/size.ts';
import { bundleApp, htmlPage, startPageRig, type PageRig } from './page-rig.ts';

// Compile-time checks only (never rendered): the wrappers' props and events are typed.
export const typed = [
  React.createElement(CardReveal, {
    cardId: 'Card:00000000-0000-4000-8000-000000000001',
    hideAfter: 30,
    onCardRevealed: (e) => e.detail.expiresAt.slice(0),
    onCardRevealError: (e) => e.detail.code === 'not_found',
  }),
  // @ts-expect-error hideAfter is a number of seconds
  React.createElement(CardReveal, { hideAfter: '30' }),
  // @ts-expect-error card-revealed's detail has cardId and expiresAt only
  React.createElement(CardReveal, { onCardRevealed: (e) => e.detail.pan }),
  React.createElement(WalletLogin, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', oidcTokenProvider: async (nonce: string) => nonce }),
  // @ts-expect-error the provider answers a promise of a token
  React.createElement(WalletLogin, { oidcTokenProvider: (nonce: string) => nonce.length }),
  // Methods are not props: as a prop, @lit/react would replace the element's method.
  // @ts-expect-error checkNow is a method
  React.createElement(AgentActions, { checkNow: () => undefined }),
  // @ts-expect-error logout is a method
  React.createElement(WalletLogin, { logout: async () => undefined }),
  // @ts-expect-error updateComplete is the element's own, not a prop
  React.createElement(CardReveal, { updateComplete: Promise.resolve(true) }),
  React.createElement(AgentActions, { agentToken: 'token', pageSize: 5, onAgentActionChanged: (e) => e.detail.previousStatus }),
];

const app = `
import * as React from 'react';
import { createRoot } from 'react-dom/client';
import * as W from './src/react/index.ts';
import { CardRevealErrorEvent } from './src/elements/card-reveal/index.ts';

const h = React.createElement;
const seen = [];
const provider = async (nonce) => 'token-for-' + nonce;
const tree = (cardId) => h(React.Fragment, null,
  h(W.WalletLogin, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: '/api', methods: 'email-otp passkey', codeLength: 8, noAutofill: true, oidcTokenProvider: provider }),
  h(W.PasskeyRegister, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: '/api' }),
  h(W.WalletCredentials, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: '/api' }),
  h(W.CardReveal, { cardId, accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: '/api', hideAfter: 30,
    onCardRevealError: (e) => seen.push({ type: e.type, code: e.detail.code, own: e instanceof CardRevealErrorEvent }) }),
  h(W.DelegatedKeys, { cardId, accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: '/api' }),
  h(W.AgentActions, { agentToken: 'agent-token', apiBase: '/api', pageSize: 5,
    onAgentActionsError: (e) => seen.push({ type: e.type, code: e.detail.code }) }),
);
const until = async (ok) => { for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25)); };

const root = createRoot(document.getElementById('root'));
root.render(tree('Card:00000000-0000-4000-8000-000000000001'));
await until(() => document.querySelector('agent-actions'));
const els = [...document.getElementById('root').children];
await Promise.all(els.map((el) => el.updateComplete));
const login = document.querySelector('wallet-login');
const reveal = document.querySelector('card-reveal');
const agent = document.querySelector('agent-actions');
const out = {
  react: React.version,
  tags: els.map((el) => el.localName),
  rendered: els.every((el) => el.shadowRoot && el.shadowRoot.childNodes.length > 0),
  login: { codeLength: login.codeLength, noAutofill: login.noAutofill, methods: login.methods, provider: login.oidcTokenProvider === provider },
  reveal: { cardId: reveal.cardId, hideAfter: reveal.hideAfter, attribute: reveal.getAttribute('card-id') },
  agent: { token: agent.agentToken, pageSize: agent.pageSize },
};
reveal.shadowRoot.querySelector('[part=reveal-button]').click();
await until(() => seen.some((s) => s.type === 'card-reveal-error') && seen.some((s) => s.type === 'agent-actions-error'));
out.events = seen;
root.render(tree('Card:00000000-0000-4000-8000-000000000002'));
await until(() => reveal.cardId === 'Card:00000000-0000-4000-8000-000000000002');
out.changed = { cardId: reveal.cardId, keys: document.querySelector('delegated-keys').cardId };
root.unmount();
out.afterUnmount = document.getElementById('root').children.length;
document.title = 'done ' + JSON.stringify(out);
`;

// React 19 without the wrappers: the bare tags (typed in src/react/jsx.ts). A prop the element
// has becomes that property, any other an attribute, and `on<event-name>` listens to that event.
const bareApp = `
import * as React from 'react';
import { createRoot } from 'react-dom/client';
import './src/elements/wallet-login/index.ts';
import './src/elements/card-reveal/index.ts';

const h = React.createElement;
const seen = [];
const provider = async (nonce) => 'token-for-' + nonce;
const root = createRoot(document.getElementById('root'));
root.render(h(React.Fragment, null,
  h('wallet-login', { 'account-id': 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: '/api', codeLength: 8, oidcTokenProvider: provider, 'no-autofill': true }),
  h('card-reveal', { cardId: 'Card:00000000-0000-4000-8000-000000000001', 'api-base': '/api', hideAfter: 30,
    'oncard-reveal-error': (e) => seen.push({ type: e.type, code: e.detail.code }) }),
));
const until = async (ok) => { for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25)); };
await until(() => document.querySelector('card-reveal'));
const login = document.querySelector('wallet-login');
const reveal = document.querySelector('card-reveal');
await Promise.all([login.updateComplete, reveal.updateComplete]);
const out = {
  react: React.version,
  login: { accountId: login.accountId, apiBase: login.apiBase ?? null, codeLength: login.codeLength, noAutofill: login.noAutofill, provider: login.oidcTokenProvider === provider },
  reveal: { cardId: reveal.cardId, apiBase: reveal.apiBase ?? null, hideAfter: reveal.hideAfter ?? null },
  attributes: { login: login.getAttributeNames(), reveal: reveal.getAttributeNames() },
};
// With the properties in place (React 18 sets none), does the element's on<event> prop hear it?
Object.assign(reveal, { cardId: 'Card:00000000-0000-4000-8000-000000000001', apiBase: '/api' });
await reveal.updateComplete;
reveal.shadowRoot.querySelector('[part=reveal-button]').click();
await until(() => seen.length > 0);
out.events = seen;
root.unmount();
document.title = 'done ' + JSON.stringify(out);
`;

// Server rendering then hydration. `tree` is written once for both sides: Node renders it to the
// page's HTML with react-dom/server, the page hydrates the same tree with hydrateRoot.
const serverTree = `
export const tree = (React, W, provider, seen) => React.createElement('div', null,
  React.createElement(W.CardReveal, { cardId: 'Card:00000000-0000-4000-8000-000000000001', apiBase: '/api', hideAfter: 30,
    onCardRevealError: (e) => seen.push({ type: e.type, code: e.detail.code }) }),
  React.createElement(W.WalletLogin, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: '/api', codeLength: 8, oidcTokenProvider: provider }),
);
export const bareTree = (React, provider, seen) => React.createElement('div', null,
  React.createElement('card-reveal', { cardId: 'Card:00000000-0000-4000-8000-000000000001', apiBase: '/api', hideAfter: 30,
    'oncard-reveal-error': (e) => seen.push({ type: e.type, code: e.detail.code }) }),
  React.createElement('wallet-login', { 'account-id': 'InternalAccount:00000000-0000-4000-8000-000000000001', 'code-length': 8, oidcTokenProvider: provider }),
);
// Every element as a bare tag with its attributes only, one of them in Arabic (right to left).
export const attributesTree = (React) => React.createElement('div', null,
  React.createElement('wallet-login', { 'account-id': 'InternalAccount:00000000-0000-4000-8000-000000000001', 'api-base': '/api', lang: 'ar' }),
  React.createElement('passkey-register', { 'account-id': 'InternalAccount:00000000-0000-4000-8000-000000000001', 'api-base': '/api' }),
  React.createElement('wallet-credentials', { 'account-id': 'InternalAccount:00000000-0000-4000-8000-000000000001', 'api-base': '/api' }),
  React.createElement('card-reveal', { 'card-id': 'Card:00000000-0000-4000-8000-000000000001', 'api-base': '/api', theme: 'dark' }),
  React.createElement('delegated-keys', { 'card-id': 'Card:00000000-0000-4000-8000-000000000001', 'account-id': 'InternalAccount:00000000-0000-4000-8000-000000000001', 'api-base': '/api' }),
  React.createElement('agent-actions', { 'api-base': '/api' }),
);`;

const hydrateApp = `
import * as React from 'react';
import { hydrateRoot } from 'react-dom/client';
import * as W from './src/react/index.ts';
${serverTree}
const seen = [];
const provider = async (nonce) => 'token-for-' + nonce;
const bare = location.pathname === '/hydrate-bare';
hydrateRoot(document.getElementById('root'), bare ? bareTree(React, provider, seen) : tree(React, W, provider, seen));
// The wrappers' page waits for what it expects, up to 10 s on a busy machine; the bare tags' page
// waits out 2 s for what must not come (a property or an event React would now give them).
const until = async (ok) => { for (let i = 0, n = bare ? 80 : 400; i < n && !ok(); i++) await new Promise((r) => setTimeout(r, 25)); };
const reveal = document.querySelector('card-reveal');
const login = document.querySelector('wallet-login');
// Hydration is done once the wrappers' layout effects have set the card (the bare tag: waits it out).
await until(() => reveal.cardId);
await Promise.all([reveal.updateComplete, login.updateComplete]);
const out = {
  react: React.version,
  reveal: { cardId: reveal.cardId, apiBase: reveal.apiBase ?? null, hideAfter: reveal.hideAfter ?? null },
  login: { accountId: login.accountId, codeLength: login.codeLength, provider: login.oidcTokenProvider === provider },
};
// With the properties of the server's markup in place, does the listener of the tree hear the element?
Object.assign(reveal, { cardId: 'Card:00000000-0000-4000-8000-000000000001', apiBase: '/api' });
await reveal.updateComplete;
reveal.shadowRoot.querySelector('[part=reveal-button]').click();
await until(() => seen.length > 0);
out.events = seen;
document.title = 'done ' + JSON.stringify(out);
`;

// The bare tags of a server-rendered page, with their attributes only: once defined, the elements
// add no attribute of their own to the host, so hydrating them finds the server's markup as it was.
const hydrateAttributesApp = `
import * as React from 'react';
import { hydrateRoot } from 'react-dom/client';
import './src/react/index.ts';
// The Arabic strings, as a page that offers Arabic loads them: its wallet-login is in Arabic.
import './src/locales/ar.ts';
${serverTree}
hydrateRoot(document.getElementById('root'), attributesTree(React));
const els = [...document.getElementById('root').firstElementChild.children];
await Promise.all(els.map((el) => el.updateComplete));
// React reports a mismatch when hydration ends, after this module's first await.
await new Promise((r) => setTimeout(r, 200));
const base = (el) => el.shadowRoot.querySelector('[part~=base]');
document.title = 'done ' + JSON.stringify({
  react: React.version,
  rendered: els.every((el) => el.shadowRoot && el.shadowRoot.childNodes.length > 0),
  attributes: Object.fromEntries(els.map((el) => [el.localName, el.getAttributeNames()])),
  language: Object.fromEntries(els.map((el) => [el.localName, [base(el).getAttribute('lang'), getComputedStyle(base(el)).direction]])),
});
`;

/**
 * `react` and `react-dom` (and their subpaths) taken from the React 18 devDependencies, for every
 * module of the bundle: the wrappers, @lit/react (which is handed the React it is given) and
 * react-dom-18 itself.
 */
const react18: Plugin = {
  name: 'react-18',
  setup(b) {
    b.onResolve({ filter: /^react(-dom)?(\/|$)/ }, async (args) => {
      const path = args.path.replace(/^react(-dom)?/, (name) => `${name}-18`);
      const found = await b.resolve(path, { resolveDir: args.resolveDir, kind: args.kind });
      return found.errors.length ? { errors: found.errors } : { path: found.path };
    });
  },
};

interface ServerReact {
  React: typeof React;
  renderToString(node: React.ReactNode): string;
  wrappers: typeof import('../../../src/react/index.ts');
}

/** React 18's server renderer in Node: bundled with the alias, since react-dom-18 would require React 19 here. */
async function serverReact18(): Promise<ServerReact> {
  const result = await build({
    ...PRODUCTION_BUILD,
    minify: false,
    splitting: false,
    platform: 'node',
    stdin: {
      contents: "export * as React from 'react'; export { renderToString } from 'react-dom/server'; export * as wrappers from './src/react/index.ts';",
      resolveDir: ROOT,
      loader: 'ts',
      sourcefile: 'server.ts',
    },
    // React's server build requires Node's modules (util, stream, ...): an ES module has no require of its own.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    logLevel: 'silent',
    plugins: [react18],
  });
  const dir = mkdtempSync(join(tmpdir(), 'react-18-server-'));
  try {
    const file = join(dir, 'server.mjs');
    writeFileSync(file, result.outputFiles[0]!.text);
    return (await import(pathToFileURL(file).href)) as ServerReact;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const version of [19, 18] as const) describe(`React ${version}`, () => {
  let rig: PageRig;
  let bundle = '';
  let bareBundle = '';
  let hydrateBundle = '';
  let hydrateAttributesBundle = '';
  const serverHtml: Record<string, string> = {};

  before(async () => {
    const plugins = version === 18 ? [react18] : [];
    bundle = await bundleApp(app, { nodeEnv: 'development', plugins });
    bareBundle = await bundleApp(bareApp, { nodeEnv: 'development', plugins });
    hydrateBundle = await bundleApp(hydrateApp, { nodeEnv: 'development', plugins });
    hydrateAttributesBundle = await bundleApp(hydrateAttributesApp, { nodeEnv: 'development', plugins });
    // (react-dom ships no declarations and @types/react-dom is not a dependency: the one function used, typed here.)
    const server: string = 'react-dom/server';
    const { React: R, renderToString, wrappers } =
      version === 18
        ? await serverReact18()
        : { React, ...((await import(server)) as Pick<ServerReact, 'renderToString'>), wrappers: await import('../../../src/react/index.ts') };
    assert.equal(R.version.split('.')[0], String(version), 'the server renders with the React under test');
    const trees = (await import(`data:text/javascript,${encodeURIComponent(serverTree)}`)) as {
      tree(react: typeof React, wrappers: typeof import('../../../src/react/index.ts'), provider: unknown, seen: unknown[]): React.ReactNode;
      bareTree(react: typeof React, provider: unknown, seen: unknown[]): React.ReactNode;
      attributesTree(react: typeof React): React.ReactNode;
    };
    serverHtml['/hydrate'] = renderToString(trees.tree(R, wrappers, () => '', []));
    serverHtml['/hydrate-bare'] = renderToString(trees.bareTree(R, () => '', []));
    const attributesHtml = renderToString(trees.attributesTree(R));
    rig = await startPageRig((path) => {
      if (path === '/hydrate-attributes') return { type: 'html', body: htmlPage(`<div id="root">${attributesHtml}</div><script type="module" src="/hydrate-attributes.js"></script>`) };
      if (path === '/hydrate-attributes.js') return { type: 'js', body: hydrateAttributesBundle };
      const html = serverHtml[path];
      if (html) return { type: 'html', body: htmlPage(`<div id="root">${html}</div><script type="module" src="/hydrate.js"></script>`) };
      if (path === '/hydrate.js') return { type: 'js', body: hydrateBundle };
      if (path === '/') return { type: 'html', body: htmlPage('<div id="root"></div><script type="module" src="/app.js"></script>') };
      if (path === '/bare') return { type: 'html', body: htmlPage('<div id="root"></div><script type="module" src="/bare.js"></script>') };
      if (path === '/app.js') return { type: 'js', body: bundle };
      if (path === '/bare.js') return { type: 'js', body: bareBundle };
      return undefined;
    });
  });

  type Bare = { react: string; login: Record<string, unknown>; reveal: Record<string, unknown>; attributes: Record<string, string[]>; events: Array<Record<string, unknown>> };

  if (version === 19) test('React 19 renders the bare tags: props the element has become properties, others attributes; on<event> props listen', async () => {
    const { result, problems } = await rig.open<Bare>('/bare', { strictConsole: true });
    assert.deepEqual(problems, []);
    assert.match(result.react, /^19\./);
    assert.deepEqual(result.login, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: '/api', codeLength: 8, noAutofill: true, provider: true });
    assert.deepEqual(result.reveal, { cardId: 'Card:00000000-0000-4000-8000-000000000001', apiBase: '/api', hideAfter: 30 });
    assert.deepEqual(result.events[0], { type: 'card-reveal-error', code: 'not_found' });
  });

  if (version === 18) test('React 18 renders the bare tags with attributes only: no property, no listener (the README sends React 18 to the wrappers)', async () => {
    const { result, problems } = await rig.open<Bare>('/bare', { strictConsole: true });
    assert.deepEqual(problems, []);
    assert.match(result.react, /^18\./);
    // Every prop is an attribute under its own name (an HTML element lower-cases it: codelength), so
    // only those named as the element's attributes arrive (account-id, no-autofill, api-base).
    assert.deepEqual(result.attributes, { login: ['account-id', 'apibase', 'codelength', 'no-autofill'], reveal: ['cardid', 'api-base', 'hideafter'] });
    assert.deepEqual(result.login, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', apiBase: null, codeLength: 6, noAutofill: true, provider: false });
    assert.deepEqual(result.reveal, { cardId: '', apiBase: '/api', hideAfter: null });
    // A function prop is dropped: even with the card set, on<event> hears nothing.
    assert.deepEqual(result.events, []);
  });

  after(async () => {
    await rig?.close();
  });

  test(`React ${version} renders every wrapper: props become properties, onX props get the element events, unmount removes them`, async () => {
    const { result, problems } = await rig.open<{
      react: string;
      tags: string[];
      rendered: boolean;
      login: Record<string, unknown>;
      reveal: Record<string, unknown>;
      agent: Record<string, unknown>;
      events: Array<Record<string, unknown>>;
      changed: Record<string, unknown>;
      afterUnmount: number;
    }>('/', { strictConsole: true });
    // No React warning (unknown prop, wrong attribute value, ...) and no page error.
    assert.deepEqual(problems, []);
    assert.equal(result.react.split('.')[0], String(version));
    assert.deepEqual(result.tags, ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions']);
    assert.equal(result.rendered, true);
    assert.deepEqual(result.login, { codeLength: 8, noAutofill: true, methods: 'email-otp passkey', provider: true });
    assert.deepEqual(result.reveal, { cardId: 'Card:00000000-0000-4000-8000-000000000001', hideAfter: 30, attribute: 'Card:00000000-0000-4000-8000-000000000001' });
    assert.deepEqual(result.agent, { token: 'agent-token', pageSize: 5 });
    assert.deepEqual(
      result.events.find((e) => e.type === 'card-reveal-error'),
      { type: 'card-reveal-error', code: 'not_found', own: true },
    );
    assert.ok(result.events.some((e) => e.type === 'agent-actions-error'), JSON.stringify(result.events));
    assert.deepEqual(result.changed, { cardId: 'Card:00000000-0000-4000-8000-000000000002', keys: 'Card:00000000-0000-4000-8000-000000000002' });
    assert.equal(result.afterUnmount, 0);
  });

  type Hydrated = { react: string; reveal: Record<string, unknown>; login: Record<string, unknown>; events: Array<Record<string, unknown>> };

  test('a server-rendered page: the wrappers hydrate, then set their props as properties and listen, with no hydration warning', async () => {
    // The server wrote the bare tags, no property of them (the provider least of all).
    assert.equal(serverHtml['/hydrate'], '<div><card-reveal></card-reveal><wallet-login></wallet-login></div>');
    const { result, problems } = await rig.open<Hydrated>('/hydrate', { strictConsole: true });
    assert.deepEqual(problems, []);
    assert.equal(result.react.split('.')[0], String(version));
    assert.deepEqual(result.reveal, { cardId: 'Card:00000000-0000-4000-8000-000000000001', apiBase: '/api', hideAfter: 30 });
    assert.deepEqual(result.login, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', codeLength: 8, provider: true });
    assert.deepEqual(result.events, [{ type: 'card-reveal-error', code: 'not_found' }]);
  });

  test(`a server-rendered page: a bare tag gets its attributes only, React ${version} sets no property and adds no listener when it hydrates (the README says to use the wrappers there)`, async () => {
    // What the server writes for the properties: attributes under the properties' names, which the
    // element does not read (an HTML parser lower-cases them: cardid, apibase).
    assert.match(serverHtml['/hydrate-bare']!, /<card-reveal cardId="Card:[^"]+" apiBase="\/api" hideAfter="30"><\/card-reveal>/);
    const { result } = await rig.open<Hydrated>('/hydrate-bare');
    assert.equal(result.react.split('.')[0], String(version));
    assert.deepEqual(result.reveal, { cardId: '', apiBase: null, hideAfter: null }, 'React now sets properties when it hydrates a custom element: README "server-rendered" and jsx.ts can say bare tags work there');
    // `account-id` and `code-length` are the element's attributes: read on upgrade. The provider is lost.
    assert.deepEqual(result.login, { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000001', codeLength: 8, provider: false });
    assert.deepEqual(result.events, [], 'React now listens to on<event> props when it hydrates');
  });

  test('a server-rendered page: bare tags with their attributes hydrate with no warning, since the elements add no attribute to the host (language and direction go on their wrapper)', async () => {
    const { result, problems } = await rig.open<{ react: string; rendered: boolean; attributes: Record<string, string[]>; language: Record<string, string[]> }>('/hydrate-attributes', { strictConsole: true });
    assert.deepEqual(problems, []);
    assert.equal(result.react.split('.')[0], String(version));
    assert.equal(result.rendered, true);
    assert.deepEqual(result.attributes, {
      'wallet-login': ['account-id', 'api-base', 'lang'],
      'passkey-register': ['account-id', 'api-base'],
      'wallet-credentials': ['account-id', 'api-base'],
      'card-reveal': ['card-id', 'api-base', 'theme'],
      'delegated-keys': ['card-id', 'account-id', 'api-base'],
      'agent-actions': ['api-base'],
    });
    assert.deepEqual(result.language, {
      'wallet-login': ['ar', 'rtl'],
      'passkey-register': ['en', 'ltr'],
      'wallet-credentials': ['en', 'ltr'],
      'card-reveal': ['en', 'ltr'],
      'delegated-keys': ['en', 'ltr'],
      'agent-actions': ['en', 'ltr'],
    });
  });
});
