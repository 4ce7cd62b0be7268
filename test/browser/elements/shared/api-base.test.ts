/**
 * An element's `api-base` set by markup alone, on a page that lets untrusted markup in (a CMS, a
 * sanitizer that keeps custom elements and their attributes) but no script: pointed at another
 * origin, whoever answers there would choose what the user's session key stamps (the signed retry's
 * payloadToSign is opaque to the client) and would receive the user's requests. The other origin is
 * a real server of the rig (`hostileOrigin`) recording what reaches it; the page's own proxy is the
 * real one at /api. An `api-base` is followed only to the page's origin or to the origin of
 * configureWallet's `apiBase`, which only the page's script sets.
 */
import { expect } from 'chai';
import { configureWallet } from '../../../../src/elements/shared/config.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import '../../../../src/elements/wallet-login/index.ts';
import '../../../../src/elements/card-reveal/index.ts';
import '../../../../src/elements/agent-actions/index.ts';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/wallet-credentials/index.ts';
import { fixtures, hostileOrigin, hostileRequests, newAccount, type RigAccount, type RigFixtures } from '../../support/rig.ts';
import { mount, nextEvent, part, resetPage, useRig, waitForState } from './helpers.ts';

/** console.warn's messages while `run` runs (Lit's dev-mode notice left out). */
async function warningsOf(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
  try {
    await run();
  } finally {
    console.warn = warn;
  }
  return warnings.filter((w) => !w.includes('Lit is in dev mode'));
}

/** What the hostile origin received, without bodies (kept short in a failure's message). */
async function received(): Promise<string[]> {
  return (await hostileRequests()).map((r) => `${r.method} ${r.url}${r.bearer ? ' with a Bearer token' : ''}${r.stamp ? ` stamped by ${r.stamp.publicKey}${r.stamp.overHostilePayload ? ' over the hostile payload' : ''}` : ''}`);
}

/** The address of src/elements/shared/`path`, for an iframe's module to import. */
const shared = (path: string) => new URL(`../../../../src/elements/shared/${path}`, import.meta.url).href;

/** The rig's watch on a frame's uncaught errors (support/frame-watch.ts), for a frame of this origin to load first. */
const frameWatch = new URL('../../support/frame-watch.ts', import.meta.url).href;

/**
 * What an iframe of `srcdoc` (sandboxed as `sandbox` says, if given) posts to this page first; the
 * iframe is removed then. Not sandboxed, it is of this origin, and what goes uncaught there fails
 * the test at once, as the page's own does (frame-watch.ts, loaded before its scripts).
 */
async function postedBy(srcdoc: string, sandbox?: string): Promise<unknown> {
  if (sandbox === undefined) srcdoc = `<script type="module" src="${frameWatch}"></script>${srcdoc}`;
  const frame = Object.assign(document.createElement('iframe'), { srcdoc });
  if (sandbox !== undefined) frame.setAttribute('sandbox', sandbox);
  const answer = new Promise<MessageEvent>((resolve) => addEventListener('message', function on(e) {
    if (e.source !== frame.contentWindow) return;
    removeEventListener('message', on);
    resolve(e);
  }));
  document.body.append(frame);
  try {
    return (await answer).data;
  } finally {
    frame.remove();
  }
}

describe('api-base set by markup', function () {
  this.timeout(60000);
  let f: RigFixtures;
  let acct: RigAccount;
  let hostile: { apiBase: string; payload: string };

  beforeEach(async () => {
    await useRig();
    f = await fixtures();
    acct = await newAccount();
    hostile = await hostileOrigin();
    await hostileRequests();
  });
  afterEach(resetPage);

  it('<card-reveal require-session> with an api-base of another origin stamps nothing for it and sends it nothing: misconfigured, the console says what to do', async () => {
    const wallet = walletFor();
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    let detail: { code?: string } = {};
    const warnings = await warningsOf(async () => {
      const el = await mount('card-reveal', { 'card-id': acct.cardId, 'account-id': acct.accountId, 'require-session': '', 'api-base': hostile.apiBase });
      const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
      (part(el, 'reveal-button') as HTMLButtonElement).click();
      detail = (await error).detail;
    });
    expect(await received(), `the session key is ${session.publicKey}`).to.deep.equal([]);
    expect(detail.code).to.equal('misconfigured');
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain(`api-base ${hostile.apiBase}`).and.to.contain('configureWallet');
    // The session is untouched: the page's own proxy still takes its stamps.
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(session.sessionId);
    await wallet.logout(acct.accountId);
  });

  it('<wallet-login> with an api-base of another origin sends it no code request: misconfigured', async () => {
    const el = await mount('wallet-login', { 'account-id': acct.accountId, 'api-base': hostile.apiBase, methods: 'email-otp' });
    await waitForState(el, 'choosing');
    const error = nextEvent<CustomEvent>(el, 'wallet-login-error');
    el.shadowRoot!.querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
    const { detail } = await error;
    expect(await received()).to.deep.equal([]);
    expect(detail.code).to.equal('misconfigured');
  });

  it('<agent-actions>, <delegated-keys> and <wallet-credentials> with an api-base of another origin send it nothing, the agent token included', async () => {
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const agent = document.createElement('agent-actions') as HTMLElement & { agentToken: string };
    agent.setAttribute('api-base', hostile.apiBase);
    agent.agentToken = acct.agentToken;
    const agentError = nextEvent<CustomEvent>(agent, 'agent-actions-error');
    document.body.append(agent);
    const keys = await mount('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId, 'api-base': hostile.apiBase });
    const keysError = nextEvent<CustomEvent>(keys, 'delegated-keys-error');
    let credentialsError!: Promise<CustomEvent>;
    const credentials = await mount('wallet-credentials', { 'account-id': acct.accountId, 'api-base': hostile.apiBase }, (el) => (credentialsError = nextEvent<CustomEvent>(el, 'wallet-credentials-error')));
    // Each tells the page, as a load (agent-actions' first read is its load too).
    const details = [(await agentError).detail, (await keysError).detail, (await credentialsError).detail];
    await waitForState(credentials, 'load-failed');
    expect(await received()).to.deep.equal([]);
    expect(details.map((d) => [d.code, d.operation])).to.deep.equal([['misconfigured', 'load'], ['misconfigured', 'load'], ['misconfigured', 'load']]);
    for (const el of [agent, keys, credentials]) expect(part(el, 'error')?.textContent).to.contain('not set up to reach the wallet service');
    await wallet.logout(acct.accountId);
  });

  it('<agent-actions> and <delegated-keys> with an api-base where no proxy is mounted (the page’s own 404) say the page is not set up: misconfigured', async () => {
    const agent = document.createElement('agent-actions') as HTMLElement & { agentToken: string };
    agent.setAttribute('api-base', '/not-the-proxy');
    agent.agentToken = acct.agentToken;
    const agentError = nextEvent<CustomEvent>(agent, 'agent-actions-error');
    document.body.append(agent);
    const keys = await mount('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId, 'api-base': '/not-the-proxy' });
    const keysError = nextEvent<CustomEvent>(keys, 'delegated-keys-error');
    const details = [(await agentError).detail, (await keysError).detail];
    expect(details.map((d) => [d.code, d.status])).to.deep.equal([['misconfigured', undefined], ['misconfigured', undefined]]);
    await Promise.all([agent, keys].map((el) => (el as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete));
    for (const el of [agent, keys]) expect(part(el, 'error')?.textContent).to.contain('This page is not set up to reach the wallet service. Contact the site’s support.');
  });

  it('an api-base whose requests leave the page’s origin once the path is added (a backslash) is refused, nothing fetched', async () => {
    // `/\` alone resolves to this page's root, but `/\/cards/…` is `///cards/…`: the host is the path's first segment.
    const el = await mount('card-reveal', { 'card-id': acct.cardId, 'account-id': acct.accountId, 'api-base': '/\\' });
    const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
    const warnings = await warningsOf(async () => {
      (part(el, 'reveal-button') as HTMLButtonElement).click();
      await error;
    });
    expect((await error).detail.code).to.equal('misconfigured');
    expect(warnings.join()).to.contain('configureWallet');
  });

  it('a <base> of another origin in the markup takes no element there, the configured /api included, and the console names that origin and the <base>', async () => {
    const elsewhere = new URL(hostile.apiBase).origin;
    const base = document.head.appendChild(Object.assign(document.createElement('base'), { href: elsewhere + '/' }));
    try {
      const el = await mount('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp' });
      await waitForState(el, 'choosing');
      const error = nextEvent<CustomEvent>(el, 'wallet-login-error');
      const warnings = await warningsOf(async () => {
        el.shadowRoot!.querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
        await error;
      });
      const { detail } = await error;
      expect(await received()).to.deep.equal([]);
      expect(detail.code).to.equal('misconfigured');
      // Not "only configureWallet's apiBase is allowed": /api is that very base, moved by the <base>.
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.contain(`Nothing was sent to ${elsewhere}`).and.to.contain('<base>').and.to.contain("configureWallet({ apiBase: 'https://").and.not.to.contain('only this page');
    } finally {
      base.remove();
    }
  });

  it('on a page of an opaque origin (a sandboxed iframe), a data: api-base, whose origin is also "null", is refused', async () => {
    // The iframe's module reads its answers from the refusal or from what fetch gave; its own
    // configureWallet names the proxy absolutely (an about:srcdoc page resolves no path).
    const apiBase = new URL(f.apiBase, location.href).href;
    const data = await postedBy(`<script type="module">
        import { transportFor } from '${shared('send.ts')}';
        import { configureWallet } from '${shared('config.ts')}';
        configureWallet({ apiBase: '${apiBase}' });
        const outcome = (url) => transportFor(url).fetch(url, { method: 'POST' }).then((r) => 'fetched ' + r.status, (e) => e.code || e.name);
        parent.postMessage({ origin: location.origin, data: await outcome('data:application/json,{}'), proxy: await outcome('${apiBase}/cards') }, '*');
      </script>`, 'allow-scripts');
    // The proxy's origin is still followed (its CORS answer aside): only the opaque origin is refused.
    expect(data).to.deep.equal({ origin: 'null', data: 'misconfigured', proxy: 'TypeError' });
  });

  it('on a page that inherits this origin (an about:srcdoc iframe), the configured relative apiBase is followed', async () => {
    // Such a page's address, about:srcdoc, resolves no path, but its origin and base are this page's.
    const data = await postedBy(`<script type="module">
        import { transportFor } from '${shared('send.ts')}';
        import { configureWallet } from '${shared('config.ts')}';
        configureWallet({ apiBase: '${f.apiBase}' });
        const outcome = (url) => transportFor(url).fetch(url, { method: 'GET' }).then((r) => 'fetched', (e) => e.code || e.name);
        parent.postMessage({ href: location.href, proxy: await outcome('${f.apiBase}/cards') }, '*');
      </script>`);
    expect(data).to.deep.equal({ href: 'about:srcdoc', proxy: 'fetched' });
  });

  it('an api-base on the page’s origin, or on the origin of configureWallet’s apiBase, is followed', async () => {
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // The page's own origin, written absolute.
    const el = await mount('wallet-credentials', { 'account-id': acct.accountId, 'api-base': new URL(f.apiBase, location.href).href });
    await waitForState(el, 'ready');
    el.remove();
    // The page's script names the other origin: its elements follow an api-base there.
    configureWallet({ apiBase: hostile.apiBase });
    const agent = document.createElement('agent-actions') as HTMLElement & { agentToken: string };
    agent.setAttribute('api-base', `${hostile.apiBase}/`);
    agent.agentToken = acct.agentToken;
    const agentError = nextEvent<CustomEvent>(agent, 'agent-actions-error');
    document.body.append(agent);
    await agentError;
    expect((await received()).map((r) => r.split('?')[0])).to.deep.equal(['GET /api/agents/me/actions']);
    await wallet.logout(acct.accountId);
  });
});
