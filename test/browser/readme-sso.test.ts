/**
 * README "Single sign-on": the worked `codeFlowProvider`, read from the README itself and run
 * against the sandbox's test issuer in a real popup. The element treats an `AbortError` from its
 * provider as the user's cancellation (wallet-login.flows.ts), so both ways of giving up must end
 * with one: Cancel in the element (the signal) and closing the sign-in window. And the whole
 * example: the README's block as written (its last line given the sandbox issuer) on a
 * `<wallet-login>`, the user's click in the issuer's sign-in window, the README's `redirect_uri`
 * page script (support/oidc-callback.html) sending the code back, and a single sign-on session.
 */
import { expect } from 'chai';
import { fixtures, newAccount, oidcSignIn, oidcToken } from './support/rig.ts';
import { mount, nextEvent, resetPage, shadow, useRig, waitFor, waitForState } from './elements/shared/helpers.ts';
import '../../src/elements/wallet-login/wallet-login.ts';
import '../../src/elements/wallet-credentials/wallet-credentials.ts';
import { clientFor, walletFor } from '../../src/elements/shared/wallet.ts';
import { createClient } from '../../src/core/client.ts';
import { indexedDbKeyStore } from '../../src/core/keystore.ts';
import { createWallet } from '../../src/core/session.ts';

type Provider = (nonce: string, options: { signal: AbortSignal }) => Promise<string>;
type CodeFlowProvider = (options: { issuer: string; authorizationEndpoint: string; tokenEndpoint: string; clientId: string; redirectUri: string }) => Provider;

/** The README's example as written, but for its last line (which hands the provider to an element). */
async function readmeCodeFlowProvider(): Promise<CodeFlowProvider> {
  const readme = await (await fetch('/README.md')).text();
  const block = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes('function codeFlowProvider('));
  if (!block) throw new Error('README has no codeFlowProvider example');
  return new Function(`${block.replace(/^document\.querySelector\(.*$/m, '')}\nreturn codeFlowProvider;`)() as CodeFlowProvider;
}

/**
 * Closes `w` as the user's click on its close button would. In WebKitGTK a script's close() made
 * just after the window opened can be lost: `closed` reads true at once, later false, and the window
 * stays open (about 1 run in 10 of this file; a user's close cannot race the page's navigation so).
 * So it is closed again until it has read closed for a second (the README's provider looks every
 * 500 ms).
 */
async function closeForGood(w: Window): Promise<void> {
  const start = performance.now();
  for (let since = performance.now(); performance.now() - since < 1000; await new Promise((r) => setTimeout(r, 100))) {
    if (w.closed) continue;
    if (performance.now() - start > 10000) throw new Error('the sign-in window stays open');
    w.close();
    since = performance.now();
  }
}

/**
 * A new account logged in by email code through the page's wallet, and the README's provider for
 * the sandbox issuer under the client id the README names, its callback page that of this origin.
 */
async function loggedInWithReadmeProvider(): Promise<{ readme: string; clientId: string; acct: Awaited<ReturnType<typeof newAccount>>; provider: Provider }> {
  const readme = await (await fetch('/README.md')).text();
  const clientId = /its client id is `([^`]+)`/.exec(readme)?.[1];
  if (!clientId) throw new Error('the README names no client id for the sandbox issuer');
  const f = await fixtures();
  const acct = await newAccount();
  await useRig();
  await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
  const provider = (await readmeCodeFlowProvider())({
    issuer: f.oidcIssuer,
    authorizationEndpoint: `${f.oidcIssuer}/authorize`,
    tokenEndpoint: `${f.oidcIssuer}/token`,
    clientId,
    redirectUri: new URL('/test/browser/support/oidc-callback.html', location.href).href,
  });
  return { readme, clientId, acct, provider };
}

/**
 * The account's single sign-on login (the test issuer's user, added through the page's wallet, then
 * logged out) on a <wallet-login> with `provider`, its button clicked; `errors` lists the codes of
 * its `wallet-login-error` events.
 */
async function ssoLoginClicked(acct: { accountId: string }, clientId: string, provider: Provider): Promise<{ login: HTMLElement; errors: string[] }> {
  await walletFor().addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub: 'sandbox-demo-user', aud: clientId }) });
  await walletFor().logout(acct.accountId);
  const login = await mount('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' }, (e) => {
    (e as unknown as { oidcTokenProvider: Provider }).oidcTokenProvider = provider;
  });
  await waitForState(login, 'choosing');
  const errors: string[] = [];
  login.addEventListener('wallet-login-error', (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));
  shadow(login).querySelector<HTMLButtonElement>("button[data-method='oauth']")!.click();
  return { login, errors };
}

describe('README single sign-on example (codeFlowProvider)', () => {
  let provider: Provider;
  let opened: Window[];
  /** The addresses the provider opened windows at. */
  let asked: string[];
  const open = window.open;

  beforeEach(async () => {
    const { oidcIssuer } = await fixtures();
    provider = (await readmeCodeFlowProvider())({
      issuer: oidcIssuer,
      authorizationEndpoint: `${oidcIssuer}/authorize`,
      tokenEndpoint: `${oidcIssuer}/token`,
      clientId: 'wallet-elements-sandbox',
      redirectUri: new URL('/oidc-callback.html', location.href).href,
    });
    // The real window.open; only the windows it gives are kept, to close them as a user would.
    opened = [];
    asked = [];
    window.open = (...args) => {
      asked.push(String(args[0]));
      const w = open.apply(window, args);
      if (w) opened.push(w);
      return w;
    };
  });

  afterEach(() => {
    window.open = open;
    for (const w of opened) w.close();
  });

  const outcome = (p: Promise<string>) => p.then((token) => ({ name: 'resolved', token }), (e: Error) => e);

  it('ends with an AbortError when the user closes the sign-in window', async () => {
    const result = outcome(provider('0'.repeat(64), { signal: new AbortController().signal }));
    await closeForGood(await waitFor(() => opened[0], 'the sign-in window'));
    expect((await result).name).to.equal('AbortError');
  });

  it('ends with an AbortError and closes the window when the element cancels', async () => {
    const cancel = new AbortController();
    const result = outcome(provider('0'.repeat(64), { signal: cancel.signal }));
    const popup = await waitFor(() => opened[0], 'the sign-in window');
    cancel.abort();
    expect((await result).name).to.equal('AbortError');
    expect(popup.closed).to.equal(true);
  });

  it('refuses an answer of its own state that names another issuer (RFC 9207), before any code exchange', async () => {
    const result = outcome(provider('0'.repeat(64), { signal: new AbortController().signal }));
    await waitFor(() => opened[0], 'the sign-in window');
    const state = new URL(asked[0]!).searchParams.get('state')!;
    const forged = new BroadcastChannel('oidc-callback');
    forged.postMessage(`?${new URLSearchParams({ code: 'forged', state, iss: 'https://issuer.invalid' })}`);
    forged.close();
    const e = (await result) as Error;
    expect([e.name, e.message]).to.deep.equal(['NotAllowedError', 'Answered by another issuer.']);
  });

  it('the callback page stays open until the page that asked says it has the answer, then closes', async () => {
    const state = `callback-${crypto.randomUUID()}`;
    const channel = new BroadcastChannel('oidc-callback');
    const answers: string[] = [];
    channel.onmessage = ({ data }) => answers.push(String(data));
    try {
      const callback = window.open(`/test/browser/support/oidc-callback.html?${new URLSearchParams({ code: 'the-code', state })}`, '_blank', 'popup')!;
      await waitFor(() => answers[0], 'the callback page\'s answer');
      expect(Object.fromEntries(new URLSearchParams(answers[0]))).to.deep.equal({ code: 'the-code', state });
      // Another sign-in's receipt is not this one's; nor is time (the page closed after 100 ms before).
      channel.postMessage('received=another-state');
      await new Promise((r) => setTimeout(r, 600));
      expect(callback.closed, 'the callback page closed before its answer was taken').to.equal(false);
      channel.postMessage(`received=${state}`);
      await waitFor(() => callback.closed || undefined, 'the callback page closing on its receipt');
    } finally {
      channel.close();
    }
  });

  it('ends with an AbortError and opens no window when the element cancels while the challenge is hashed', async () => {
    const cancel = new AbortController();
    const result = outcome(provider('0'.repeat(64), { signal: cancel.signal }));
    cancel.abort(); // the provider is at its first await (the digest)
    expect((await result).name).to.equal('AbortError');
    expect(opened).to.deep.equal([]);
  });
});

describe('README single sign-on, run whole: the provider on a <wallet-login> and a <wallet-credentials>, the sandbox issuer, the redirect_uri page', () => {
  afterEach(resetPage);

  it('logs in through the code flow: sign-in window, README callback page, code exchange, session', async function () {
    // A new account, two logins and a window of another origin, each step with its own limit within this one.
    this.timeout(40000);
    const readme = await (await fetch('/README.md')).text();
    const clientId = /its client id is `([^`]+)`/.exec(readme)?.[1];
    expect(clientId, 'the README names the sandbox issuer\'s client id').to.be.a('string');
    const f = await fixtures();
    const acct = await newAccount();
    // The account's single sign-on credential: the test issuer's one user (sandbox oidc.ts
    // SANDBOX_OIDC_DEMO_SUB), for its client id, added with a session of the email credential.
    const wallet = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName: `readme-sso-${crypto.randomUUID()}` }), otpSigner: f.signerPublicKey });
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub: 'sandbox-demo-user', aud: clientId! }) });
    await wallet.logout(acct.accountId);

    await useRig();
    const el = await mount('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' });
    // The README's block as written, its last line given the sandbox issuer's endpoints and the
    // callback page of this origin (support/oidc-callback.html runs the README's script for it).
    const block = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes('function codeFlowProvider('))!;
    const options = {
      issuer: f.oidcIssuer,
      authorizationEndpoint: `${f.oidcIssuer}/authorize`,
      tokenEndpoint: `${f.oidcIssuer}/token`,
      clientId: clientId!,
      redirectUri: new URL('/test/browser/support/oidc-callback.html', location.href).href,
    };
    const run = block.replace('codeFlowProvider({ /* your provider\'s */ })', `codeFlowProvider(${JSON.stringify(options)})`);
    expect(run, 'the README hands the provider to the page\'s <wallet-login>').to.not.equal(block);
    new Function(run)();
    const readmeProvider = (el as unknown as { oidcTokenProvider?: Provider }).oidcTokenProvider;
    expect(readmeProvider).to.be.a('function');
    // The README's provider as it is, watched: if it gives up, the test says why at once.
    let gaveUp!: (e: Error) => void;
    const providerFailed = new Promise<never>((_, reject) => (gaveUp = reject));
    (el as unknown as { oidcTokenProvider: Provider }).oidcTokenProvider = (nonce, o) =>
      readmeProvider!(nonce, o).catch((e: Error) => {
        gaveUp(new Error(`the README's provider failed: ${e.name}: ${e.message}`));
        throw e;
      });

    await waitForState(el, 'choosing');
    const loggedIn = nextEvent<CustomEvent<{ accountId: string; credentialType: string }>>(el, 'wallet-logged-in', 15000);
    shadow(el).querySelector<HTMLButtonElement>("button[data-method='oauth']")!.click();
    await Promise.race([oidcSignIn(), providerFailed]);
    const { detail } = await Promise.race([loggedIn, providerFailed]);
    expect(detail.accountId).to.equal(acct.accountId);
    expect(detail.credentialType).to.equal('OAUTH');
  });

  it('adds single sign-on to a wallet through <wallet-credentials> with the same provider', async () => {
    const { acct, provider } = await loggedInWithReadmeProvider();
    const el = await mount('wallet-credentials', { 'account-id': acct.accountId }, (e) => {
      (e as unknown as { oidcTokenProvider: Provider }).oidcTokenProvider = provider;
    });
    const add = await waitFor(() => shadow(el).querySelector<HTMLButtonElement>("[part~='add-button'][data-type='OAUTH']:not([disabled])"), 'the single sign-on button');
    const added = nextEvent<CustomEvent<{ accountId: string; type: string }>>(el, 'credential-added', 15000);
    add.click();
    await oidcSignIn();
    expect((await added).detail).to.include({ accountId: acct.accountId, type: 'OAUTH' });
    expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type).sort()).to.deep.equal(['EMAIL_OTP', 'OAUTH']);
  });

  it('declining at the provider (access_denied) is the user\'s cancellation too: <wallet-login> goes back to its methods without an error', async () => {
    const { clientId, acct, provider } = await loggedInWithReadmeProvider();
    const { login, errors } = await ssoLoginClicked(acct, clientId, provider);
    await waitFor(() => !login.matches(':state(choosing)') || undefined, 'the login waiting for the provider');
    await oidcSignIn('cancel');
    await waitForState(login, 'choosing');
    expect(errors).to.deep.equal([]);
    expect(shadow(login).querySelector("[part~='error']")?.textContent?.trim() ?? '').to.equal('');
  });

  it('closing the sign-in window: each element does what the README says of it', async () => {
    const { readme, clientId, acct, provider } = await loggedInWithReadmeProvider();
    const flat = readme.replace(/\s+/g, ' ');
    // What the README says <wallet-credentials> reports when the user gives up (<wallet-login>: no error).
    const said = /which `<wallet-login>` takes as the user's cancellation \(it goes back to its methods without an error\) and `<wallet-credentials>` reports as `(\w+)`/.exec(flat)?.[1];
    expect(said, 'the README says what each element does when the user gives up').to.be.a('string');
    // The real window.open; only the windows it gives are kept, to close them as a user would.
    const windows: Window[] = [];
    const open = window.open;
    window.open = (...args) => {
      const w = open.apply(window, args);
      if (w) windows.push(w);
      return w;
    };
    try {
      const credentials = await mount('wallet-credentials', { 'account-id': acct.accountId }, (e) => {
        (e as unknown as { oidcTokenProvider: Provider }).oidcTokenProvider = provider;
      });
      const add = await waitFor(() => shadow(credentials).querySelector<HTMLButtonElement>("[part~='add-button'][data-type='OAUTH']:not([disabled])"), 'the single sign-on button');
      const failed = nextEvent<CustomEvent<{ code: string }>>(credentials, 'wallet-credentials-error');
      add.click();
      const first = await waitFor(() => windows[0], 'the sign-in window');
      await closeForGood(first);
      const code = await failed.then(
        (e) => e.detail.code,
        (e: Error) => {
          // Where it stopped: what the element shows, and whether the provider still runs.
          const shown = shadow(credentials).textContent?.replace(/\s+/g, ' ').trim().slice(0, 300);
          throw new Error(`${e.message}; the window closed ${first.closed}; it shows: "${shown}"`);
        },
      );
      expect(code).to.equal(said);

      // <wallet-login> (logged out, the credential added through the wallet): back to its methods, no error.
      const { login, errors } = await ssoLoginClicked(acct, clientId, provider);
      const second = await waitFor(() => windows[1], 'the second sign-in window');
      await waitFor(() => !login.matches(':state(choosing)') || undefined, 'the login waiting for the provider');
      await closeForGood(second);
      await waitForState(login, 'choosing');
      expect(errors).to.deep.equal([]);
    } finally {
      window.open = open;
    }
  });
});
