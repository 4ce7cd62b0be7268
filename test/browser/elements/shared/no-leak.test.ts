/**
 * Nothing leaked (DESIGN.md "Security rules"; api.md: the reveal URL "is a short-lived bearer
 * secret: render immediately, never store, cache or log it"): the real flows in Chromium against
 * the real sandbox and proxy, each followed by a grep of everything that could keep a secret
 * (support/traces.ts on the page, `leak-scan` in the rig for the console over CDP, the proxies' log
 * and onError, stdout/stderr, the reveal audit and the cookie jar) for the secrets the flow used:
 * the OTP codes typed (a wrong one first: the sandbox's right code is 000000 everywhere, too common
 * a string to grep for), the OIDC ID token, the reveal URL, its token and the card number it showed,
 * the wallet signatures sent, the passkeys' private keys (from the virtual authenticator), the
 * step-up grant (an HttpOnly cookie, its one place), the agent's token and the platform's Basic
 * credentials. A marker put into every sink must be found there, so a sink the scan stopped seeing
 * fails too.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import '../../../../src/elements/passkey-register/passkey-register.ts';
import '../../../../src/elements/card-reveal/card-reveal.ts';
import '../../../../src/elements/delegated-keys/delegated-keys.ts';
import '../../../../src/elements/agent-actions/agent-actions.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/card-reveal.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/delegated-keys.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/agent-actions.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { addVirtualAuthenticator, approveAction, fixtures, newAccount, newAgentAction, oidcToken, pageFrames, sandboxVariant, type RigAccount, type RigFixtures } from '../../support/rig.ts';
import { watchForLeaks, type Trail } from '../../support/traces.ts';
import { mount, nextEvent, part, resetPage, shadow, type, useRig, waitFor, waitForState } from './helpers.ts';

/** A six-digit code that is not the sandbox's: a wrong code typed first, the OTP secret grepped for. */
function wrongCode(): string {
  for (;;) {
    const code = String(crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000).padStart(6, '0');
    if (code !== '000000' && !/(\d)\1\1/.test(code)) return code;
  }
}

function methodButton(el: WalletLogin, method: string): HTMLButtonElement {
  const b = shadow(el).querySelector<HTMLButtonElement>(`button[data-method='${method}']`);
  if (!b) throw new Error(`no ${method} button`);
  return b;
}

/** Logs in with a code of `method`: a wrong code first (a secret too), then the right one. */
async function loginWithCode(el: WalletLogin, method: 'email-otp' | 'sms-otp', trail: Trail): Promise<void> {
  await waitForState(el, 'choosing');
  methodButton(el, method).click();
  await waitForState(el, 'code-entry');
  await trail.snapshot('code asked');
  const wrong = wrongCode();
  trail.secret('an OTP code typed', wrong);
  const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
  type(part(el, 'code-input') as HTMLInputElement, wrong);
  expect((await error).detail.code).to.equal('wrong_code');
  await trail.snapshot('wrong code said');
  const loggedIn = nextEvent(el, 'wallet-logged-in');
  type(part(el, 'code-input') as HTMLInputElement, '000000');
  await loggedIn;
  await trail.snapshot('logged in');
}

/**
 * Shows the card and hides it: the reveal URL (read from the answer as it reaches the page), its
 * token and the card number the processor's frame showed are secrets of the flow; snapshots while shown.
 */
async function revealAndHide(el: CardReveal, trail: Trail, processorOrigin: string): Promise<void> {
  const pageFetch = window.fetch;
  let answer: Promise<string | undefined> | undefined;
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await pageFetch(...args);
    if (new Request(...args).url.endsWith('/reveal')) answer = response.clone().json().then((b: { panEmbedUrl?: string }) => b.panEmbedUrl);
    return response;
  };
  try {
    const revealed = Promise.race([nextEvent<CustomEvent>(el, 'card-revealed'), nextEvent<CustomEvent>(el, 'card-reveal-error').then((e) => Promise.reject(new Error(`card-reveal-error ${JSON.stringify(e.detail)}`)))]);
    (part(el, 'reveal-button') as HTMLButtonElement).click();
    await revealed;
  } finally {
    window.fetch = pageFetch;
  }
  const url = await answer;
  if (!url) throw new Error('no reveal URL in the answer');
  trail.secret('the reveal URL', url);
  trail.secret('the reveal token', new URL(url).searchParams.get('token'));
  let pan: string | undefined;
  for (let tries = 0; !pan && tries < 100; tries++) {
    if (tries) await new Promise((r) => setTimeout(r, 100));
    const inFrame = (await pageFrames()).frames.find((x) => x.origin === processorOrigin);
    pan = /\d{4} \d{4} \d{4} \d{4}/.exec(inFrame?.text ?? '')?.[0];
  }
  if (!pan) throw new Error('no card number in the processor frame');
  trail.secret('the card number', pan);
  trail.secret('the card number', pan.replace(/ /g, ''));
  await trail.snapshot('card shown');
  const hidden = nextEvent(el, 'card-hidden');
  (part(el, 'hide-button') as HTMLButtonElement).click();
  await hidden;
  await trail.snapshot('card hidden');
}

/** On its methods screen, presses that method's button: once the element has told its login. */
async function logInWith(el: WalletLogin, method: string): Promise<void> {
  await waitForState(el, 'choosing');
  const loggedIn = nextEvent(el, 'wallet-logged-in');
  methodButton(el, method).click();
  await loggedIn;
}

describe('nothing leaked: the real flows, then every place a secret could land', function () {
  this.timeout(60000);
  let f: RigFixtures;
  let acct: RigAccount;
  let trail: Trail | undefined;

  beforeEach(async () => {
    await useRig();
    f = await fixtures();
    acct = await newAccount();
    trail = await watchForLeaks({ apiBase: f.apiBase });
    trail.secret('the agent\'s token', acct.agentToken);
  });
  afterEach(async function () {
    await trail?.stop();
    trail = undefined;
    await resetPage.call(this);
  });

  /** Scans, and expects every sink seen and no secret in any. */
  async function expectNothingLeaked(t: Trail, expected: Record<string, number> = {}): Promise<void> {
    const { found, blind, unseen, counts, problems } = await t.scan();
    // Blind only where the browser's run gives no sink to look in, and says so (WebKit's console).
    expect(blind.filter((sink) => !unseen.includes(sink)), 'sinks the scan does not see').to.deep.equal([]);
    for (const [name, least] of Object.entries(expected)) expect(counts[name] ?? 0, `values of ${name} looked for`).to.be.at.least(least);
    expect([...found, ...problems]).to.deep.equal([]);
  }

  it('email OTP login, refresh and logout', async () => {
    const t = trail!;
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp' });
    await loginWithCode(el, 'email-otp', t);
    const before = (await walletFor().current(acct.accountId))?.sessionId;
    el.refresh();
    for (let tries = 0; (await walletFor().current(acct.accountId))?.sessionId === before; tries++) {
      if (tries > 100) throw new Error('the session was not refreshed');
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitForState(el, 'logged-in');
    await t.snapshot('refreshed');
    el.logout();
    await waitForState(el, 'choosing');
    await expectNothingLeaked(t, { 'an OTP code typed': 1, 'a wallet signature (stamp)': 2, 'the platform\'s Basic credentials': 2 });
  });

  it('SMS OTP login', async () => {
    const t = trail!;
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await wallet.addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    await wallet.logout(acct.accountId);
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'sms-otp' });
    await loginWithCode(el, 'sms-otp', t);
    await expectNothingLeaked(t, { 'an OTP code typed': 1, 'a wallet signature (stamp)': 2 });
  });

  it('single sign-on login: the ID token', async () => {
    const t = trail!;
    const sub = `user-${crypto.randomUUID()}`;
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub }) });
    await wallet.logout(acct.accountId);
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' }, (e) => {
      (e as WalletLogin).oidcTokenProvider = async (nonce) => {
        const token = await oidcToken({ sub, nonce });
        t.secret('the OIDC ID token', token);
        return token;
      };
    });
    await logInWith(el, 'oauth');
    await t.snapshot('logged in');
    await expectNothingLeaked(t, { 'the OIDC ID token': 1 });
  });

  it('passkey registration and login (virtual authenticator)', async () => {
    const t = trail!;
    await addVirtualAuthenticator();
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const reg = await mount('passkey-register', { 'account-id': acct.accountId, nickname: 'Canary key' });
    await waitForState(reg, 'ready');
    await t.snapshot('register ready');
    (part(reg, 'submit') as HTMLButtonElement).click();
    await waitForState(reg, 'done', 20000);
    await t.snapshot('registered');
    await walletFor().logout(acct.accountId);
    reg.remove();
    // The passkey button's login (no autofill: Chromium's virtual authenticator answers the autofill's
    // request at once, and the element logs in before the methods screen can be seen).
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey', 'no-autofill': '' });
    await logInWith(el, 'passkey');
    await t.snapshot('logged in with the passkey');
    await expectNothingLeaked(t, { 'a passkey\'s private key': 3 });
  });

  it('card reveal', async () => {
    const t = trail!;
    const el = await mount<CardReveal>('card-reveal', { 'card-id': acct.cardId, 'allowed-origins': f.processorOrigin });
    await revealAndHide(el, t, f.processorOrigin);
    await revealAndHide(el, t, f.processorOrigin);
    el.remove();
    await expectNothingLeaked(t, { 'the reveal URL': 2, 'the reveal token': 2, 'the card number': 2 });
  });

  it('card reveal with require-session (the step-up grant)', async () => {
    const t = trail!;
    const v = await sandboxVariant({ stepUp: true });
    const wallet = walletFor(v.apiBase);
    await (await wallet.startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    const el = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin, 'account-id': v.accountId, 'require-session': '' });
    await revealAndHide(el, t, v.processorOrigin);
    await expectNothingLeaked(t, { 'the reveal token': 1, 'the step-up grant (HttpOnly cookie)': 1 });
  });

  it('delegated key creation and revocation', async () => {
    const t = trail!;
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    await waitFor(() => part(el, 'new-button'), 'the list');
    (part(el, 'new-button') as HTMLButtonElement).click();
    await el.updateComplete;
    type(shadow(el).querySelector<HTMLInputElement>("input[name='nickname']")!, 'Canary');
    await el.updateComplete;
    const created = nextEvent<CustomEvent>(el, 'delegated-key-created', 20000);
    (part(el, 'submit-button') as HTMLButtonElement).click();
    await created;
    await el.updateComplete;
    await t.snapshot('key created');
    await expectNothingLeaked(t, { 'a wallet signature (stamp)': 3 });
  });

  it('agent actions: polling, an approval', async () => {
    const t = trail!;
    const el = document.createElement('agent-actions') as AgentActions;
    el.setAttribute('poll-interval', '150');
    el.setAttribute('poll-max-interval', '400');
    el.agentToken = acct.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(polling)') || el.matches(':state(ready)'), 'the first page');
    const created = await newAgentAction(acct.agentId, 'TRANSFER_OUT');
    const changed = nextEvent<CustomEvent>(el, 'agent-action-changed', 15000);
    const headingId = `action-${created.id.replace(/[^A-Za-z0-9-]/g, '-')}`;
    await waitFor(() => shadow(el).getElementById(headingId), 'the new action shown', 8000);
    await approveAction(acct.agentId, created.id);
    await changed;
    await t.snapshot('decided');
    await expectNothingLeaked(t, { 'the agent\'s token': 1 });
  });
});
