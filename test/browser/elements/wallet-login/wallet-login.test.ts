/**
 * <wallet-login> in Chromium against the real sandbox through the real proxy at /api: every login
 * method (email and SMS codes 000000, OAuth with a token from the sandbox's test issuer, a passkey
 * through Chromium's virtual authenticator), sessions that survive a reload, expiry on the sandbox
 * clock, logout upstream, other tabs, error sentences, non-extractable keys, axe.
 */
import { expect } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail, LoggedOutDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import '../../../../src/locales/ar.ts';
import { indexedDbKeyStore, type KeyStore } from '../../../../src/core/keystore.ts';
import { WalletError } from '../../../../src/core/errors.ts';
import type { AuthMethod } from '../../../../src/core/types.ts';
import { configureWallet } from '../../../../src/elements/shared/config.ts';
import { createStore, del } from 'idb-keyval';
import { SESSION_CHANNEL_NAME } from '../../../../src/elements/shared/session-channel.ts';
import { createWallet, type Wallet } from '../../../../src/core/session.ts';
import { createClient } from '../../../../src/core/client.ts';
import { observeServiceDate } from '../../../../src/core/clock.ts';
import { keyStamper } from '../../../../src/core/stamp.ts';
import {
  fixtures,
  newAccount,
  advanceClock,
  goOffline,
  oidcToken,
  addVirtualAuthenticator,
  authenticatorCredentials,
  removeVirtualAuthenticator,
  olderPasskeyHere,
  needsWebAuthn,
  sandboxVariant,
  setAutomaticPresence,
  takeAuthenticatorCredential,
  type RigAccount,
} from '../../support/rig.ts';
import { axeViolations, failNext, focusIn, holdAnswer, holdNext, inState, logInByEmail, loseAnswer, mount, nextEvent, part, parts, paste, refusingKeyStoreDb, reshapeAnswer, resetPage, shadow, shownTexts, text, type, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';
import { buttonNamed, challenges, codeInput, codeScreen, errorCodes, errorOfChoice, methodButton, resendRefusedThenType, typeSandboxCode } from './helpers.ts';

/**
 * Another tab of the browser asks for a code of the account's email login once the service's wait
 * is over (a <wallet-login> of its own, there on its code screen). It shares this tab's localStorage
 * but not its sessionStorage: what this tab kept there is as it was.
 */
async function newerCodeInAnotherTab(acct: RigAccount): Promise<void> {
  const mine = Object.entries(sessionStorage).filter(([k]) => k.startsWith('wallet-elements:'));
  for (const [k] of mine) sessionStorage.removeItem(k);
  await advanceClock(31_000); // the sandbox sends one code per 30 s
  const other = await codeScreen({ 'account-id': acct.accountId });
  other.remove();
  for (const k of Object.keys(sessionStorage)) if (k.startsWith('wallet-elements:')) sessionStorage.removeItem(k);
  for (const [k, v] of mine) sessionStorage.setItem(k, v);
}

const loginWithEmail = async (el: WalletLogin): Promise<LoggedInDetail> => ((await logInByEmail(el)) as CustomEvent<LoggedInDetail>).detail;

/** Gives the account a single sign-on credential (logged in by email for it, then out); returns its subject. */
async function withOAuthCredential(acct: RigAccount): Promise<string> {
  const sub = `user-${crypto.randomUUID()}`;
  const wallet = walletFor();
  await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
  await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub }) });
  await wallet.logout(acct.accountId);
  return sub;
}

/**
 * Another tab of the page that logs in with single sign-on (the wallet gets it, then is logged out
 * here; the sandbox's code wait is over); `kept()` lists the codes this tab keeps for a reload.
 */
async function anotherTabWithSso(acct: RigAccount, store: KeyStore) {
  const sub = await withOAuthCredential(acct);
  const oauthId = (await clientFor().listCredentials(acct.accountId)).find((c) => c.type === 'OAUTH')!.id;
  await advanceClock(31_000); // the sandbox sends one code per 30 s
  const f = await fixtures();
  const otherWallet = createWallet({ client: createClient({ baseUrl: f.apiBase }), store, otpSigner: f.signerPublicKey });
  const channel = new BroadcastChannel(SESSION_CHANNEL_NAME);
  return {
    kept: () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId)),
    async logIn() {
      const session = await otherWallet.loginWithOAuth({ credentialId: oauthId, getIdToken: (nonce) => oidcToken({ sub, nonce }) });
      channel.postMessage({ type: 'logged-in', accountId: acct.accountId, sessionId: session.sessionId });
    },
    close: () => channel.close(),
  };
}

/**
 * A <wallet-login> (single sign-on, then email) whose identity provider keeps its sign-in window
 * open: `given()` is the signal the provider got once asked; `finish()` is the user finishing there.
 */
async function ssoLeftOpen(acct: RigAccount) {
  const sub = await withOAuthCredential(acct);
  let finish!: () => void;
  let given: AbortSignal | undefined;
  const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth email-otp' }, (e) => {
    (e as WalletLogin).oidcTokenProvider = (nonce, { signal }) => {
      given = signal;
      return new Promise<void>((r) => (finish = r)).then(() => oidcToken({ sub, nonce }));
    };
  });
  await waitForState(el, 'choosing');
  return { el, given: () => given, finish: () => finish() };
}

/** A virtual authenticator holding a passkey of the account, registered by a login that then logged out; its wallet. */
async function passkeyRegistered(acct: RigAccount): Promise<Wallet> {
  await addVirtualAuthenticator();
  const wallet = walletFor();
  await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
  await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Test key' });
  await wallet.logout(acct.accountId);
  return wallet;
}

/**
 * The account's sessions upstream, read until `settled` holds (within 5 s): a login stopped while
 * its check was answered ends the session the service made in the background, after the step.
 */
async function sessionsUpstream(acct: RigAccount, settled: (ids: string[]) => boolean = (ids) => ids.length === 0): Promise<string[]> {
  const read = async () => (await clientFor().listSessions(acct.accountId)).map((s) => s.id);
  let ids = await read();
  for (let tries = 0; tries < 50 && !settled(ids); tries++) {
    await new Promise((r) => setTimeout(r, 100));
    ids = await read();
  }
  return ids;
}

/**
 * Counts the WebAuthn ceremonies the page asks the browser for (each is a prompt to the user); the
 * calls go through to the browser unchanged. (The authenticator's signature counter is no measure:
 * the browser may also ask it silently which of the allowed passkeys it holds.)
 */
/**
 * Renews `el`'s session with the service's answer held once the renewal is made (201): `meanwhile`
 * runs while the answer is held, `after` once it is released (given the promise of its reading).
 */
async function renewHeld(el: WalletLogin, meanwhile: () => unknown, after: (read: Promise<void>) => Promise<unknown>): Promise<void> {
  const held = holdAnswer('POST', /\/refresh$/, (r) => r.status === 201);
  try {
    el.refresh();
    await held.arrived;
    await meanwhile();
    held.release();
    await after(held.read);
  } finally {
    held.undo();
  }
}

function countPrompts(): { readonly count: number; restore(): void } {
  const credentials = navigator.credentials;
  const get = credentials.get;
  const counter = { count: 0, restore: () => void (credentials.get = get) };
  credentials.get = function (this: CredentialsContainer, options?: CredentialRequestOptions) {
    if (options?.publicKey) counter.count++;
    return get.call(this, options);
  };
  return counter;
}

/**
 * The passkey prompts (countPrompts) that `logIn` takes: it gives the element once logged in, with
 * the passkey `credentialId` (checked); the element then goes and the wallet logs out.
 */
async function promptsToLogIn(prompts: { readonly count: number }, acct: RigAccount, store: KeyStore, credentialId: string, logIn: () => Promise<WalletLogin>): Promise<number> {
  const before = prompts.count;
  const el = await logIn();
  expect((await store.get(acct.accountId))?.session.credentialId).to.equal(credentialId);
  el.remove();
  await walletFor().logout(acct.accountId);
  return prompts.count - before;
}

/**
 * A <wallet-login> of the account whose logout() is called while its start-up check (the stored
 * session against the service's list) is held on the wire; `held` runs then, before it. The check
 * then goes on: the element, and its next `wallet-logged-out` event.
 */
async function logoutDuringStartupCheck(acct: RigAccount, held?: (el: WalletLogin) => void): Promise<{ el: WalletLogin; loggedOut: Promise<CustomEvent<LoggedOutDetail>> }> {
  const hold = holdNext('GET', /\/auth\/sessions\?/);
  try {
    let loggedOut: Promise<CustomEvent<LoggedOutDetail>> | undefined;
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId }, (e) => {
      loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(e, 'wallet-logged-out');
    });
    await hold.arrived;
    held?.(el);
    el.logout();
    hold.release();
    return { el, loggedOut: loggedOut! };
  } finally {
    hold.undo();
  }
}

/**
 * The code screen of a <wallet-login> of the account, the sandbox's code typed there and the answer
 * of its check (the new session, made upstream) held on its way back: `held` (undo it in a
 * `finally`); `logins()` counts the `wallet-logged-in` events told since the screen showed.
 */
async function codeCheckHeld(acct: RigAccount) {
  const el = await codeScreen({ 'account-id': acct.accountId });
  let logins = 0;
  el.addEventListener('wallet-logged-in', () => logins++);
  const held = holdAnswer('POST', /\/verify$/, (r) => r.status === 200);
  try {
    type(codeInput(el), '000000');
    await held.arrived;
  } catch (e) {
    held.undo();
    throw e;
  }
  return { el, held, logins: () => logins };
}

/** Two passkeys of the account, of which this page's authenticator holds the older (returned); logged out. */
async function olderPasskeyOnly(acct: RigAccount): Promise<AuthMethod> {
  await addVirtualAuthenticator();
  const wallet = walletFor();
  await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
  const { older } = await olderPasskeyHere(wallet, acct.accountId);
  await wallet.logout(acct.accountId);
  return older;
}

/** A sandbox of its own with `options` (sandboxVariant), and a <wallet-login> of its account there, with `attributes` on top. */
async function onVariant(options: Parameters<typeof sandboxVariant>[0], attributes: Record<string, string> = {}) {
  const v = await sandboxVariant(options);
  const el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase, ...attributes });
  return { v, el };
}

/** A <wallet-login> of `acct` offering a passkey (no autofill request) or an email code, on its methods. */
async function passkeyOrEmail(acct: RigAccount): Promise<WalletLogin> {
  const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp', 'no-autofill': '' });
  await waitForState(el, 'choosing');
  return el;
}

/** An email login in a <wallet-login> offering `methods`, taken off the page, then the sandbox clock moved past the session's end. */
async function emailSessionExpired(acct: RigAccount, methods: string): Promise<void> {
  const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods });
  await loginWithEmail(el);
  el.remove();
  await advanceClock(16 * 60 * 1000);
}

/**
 * On the email code screen (`resend-after` as given), "Use another way", then, with `reload`, a new
 * element as after a reload; email chosen again: its code screen comes back with no error and its
 * "new code" button still waiting. Returns that button, how many codes were asked for since the
 * first, and `logIn`, which types the code and expects the email login and no error event.
 */
async function backToEmailCode(acct: RigAccount, resendAfter: string, reload: boolean) {
  const attrs = { 'account-id': acct.accountId, 'resend-after': resendAfter };
  let el = await codeScreen(attrs);
  const sent = challenges();
  buttonNamed(el, /another way/i).click();
  await waitForState(el, 'choosing');
  if (reload) {
    el.remove();
    el = await mount<WalletLogin>('wallet-login', attrs);
    await waitForState(el, 'choosing');
  }
  const errors = errorCodes(el);
  methodButton(el, 'email-otp').click();
  await waitForState(el, 'code-entry');
  const asked = challenges() - sent;
  expect(text(el, 'error')).to.equal('');
  const resend = buttonNamed(el, /new code/);
  expect(resend.disabled).to.equal(true);
  const logIn = async () => {
    expect((await typeSandboxCode(el)).detail.credentialType).to.equal('EMAIL_OTP');
    expect(errors).to.deep.equal([]);
  };
  return { resend, asked, logIn };
}

describe('<wallet-login>', function () {
  this.timeout(60000);
  let acct: RigAccount, store: KeyStore, dbName: string;
  beforeEach(async () => ({ acct, store, dbName } = await useRigAccount()));
  afterEach(resetPage);

  it('logs in by email code: one-time-code input, auto-submit, a non-extractable key, a live session upstream', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const input = codeInput(el);
    expect(input.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(input.getAttribute('inputmode')).to.equal('numeric');
    expect(shadow(el).activeElement === input, `focus moves to the code, not ${focusIn(el)}`).to.equal(true);
    expect(text(el, 'status')).to.contain('Code sent');

    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    type(input, '000000');
    const { detail } = await loggedIn;
    expect(detail.accountId).to.equal(acct.accountId);
    expect(detail.sessionId).to.match(/^Session:/);
    expect(detail.credentialType).to.equal('EMAIL_OTP');
    expect(detail.source).to.equal('login');
    expect(Date.parse(detail.expiresAt)).to.be.greaterThan(Date.now());
    expect(Object.keys(detail).sort()).to.deep.equal(['accountId', 'credentialType', 'expiresAt', 'sessionId', 'source']);
    expect(JSON.stringify(detail)).not.to.contain('000000');

    expect(inState(el, 'logged-in')).to.equal(true);
    expect(text(el, 'heading')).to.equal('You’re logged in');
    // Focus goes to the new heading, not to "Log out": an Enter typed after the code is harmless.
    await el.updateComplete;
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)}`).to.equal(true);
    // The heading says it; the status line does not repeat it.
    expect(text(el, 'status')).to.equal('');
    await sendKeys({ press: 'Enter' });
    await new Promise((r) => setTimeout(r, 200));
    expect(inState(el, 'logged-in')).to.equal(true);
    const stored = await store.get(acct.accountId);
    expect(stored?.key?.privateKey.extractable).to.equal(false);
    expect(stored?.session.sessionId).to.equal(detail.sessionId);
    const upstream = await clientFor().listSessions(acct.accountId);
    expect(upstream.map((s) => s.id)).to.include(detail.sessionId);
    // Nothing secret on attributes either.
    expect(el.outerHTML).not.to.contain('000000');
  });

  it('says a wrong code is wrong, keeps the screen usable, then accepts the right code', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const error = nextEvent<CustomEvent<{ code: string; message: string; status?: number }>>(el, 'wallet-login-error');
    type(codeInput(el), '123456');
    const e = await error;
    expect(e.detail.code).to.equal('wrong_code');
    expect(e.detail.status).to.equal(401);
    await waitFor(() => text(el, 'error').includes('That code didn’t work'), 'the wrong-code sentence');
    expect(part(el, 'error')?.getAttribute('role')).to.equal('alert');
    expect(codeInput(el).getAttribute('aria-invalid')).to.equal('true');
    expect(codeInput(el).getAttribute('aria-describedby')!.split(' ')).to.include('error');
    await waitFor(() => shadow(el).activeElement === codeInput(el), 'focus back on the code');
    // The error sentence and the field marked invalid, in each theme.
    expect(await axeViolations(el)).to.deep.equal([]);
    const loggedIn = nextEvent(el, 'wallet-logged-in');
    type(codeInput(el), '000000');
    await loggedIn;
    expect(text(el, 'error')).to.equal('');
  });

  it('while a code is being checked, "Use another way" is marked unavailable (it could not stop the login), then usable again', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const back = () => buttonNamed(el, /another way/i);
    expect(back().getAttribute('aria-disabled')).to.equal(null);
    const hold = holdNext('POST', /\/verify$/);
    try {
      const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
      type(codeInput(el), '123456');
      await hold.arrived;
      await waitForState(el, 'verifying-code');
      await el.updateComplete;
      expect(part(el, 'submit')!.getAttribute('aria-disabled')).to.equal('true');
      expect(back().getAttribute('aria-disabled'), 'the way back is marked unavailable too').to.equal('true');
      hold.release();
      expect((await error).detail.code).to.equal('wrong_code');
    } finally {
      hold.undo();
    }
    await el.updateComplete;
    expect(back().getAttribute('aria-disabled')).to.equal(null);
    back().click();
    await waitForState(el, 'choosing');
  });

  it('keeps a code the service could not check (500) for a second try, and clears only a wrong one', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const undo = failNext('POST', /\/verify$/, 500);
    try {
      const failed = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
      type(codeInput(el), '000000');
      expect((await failed).detail.code).to.equal('unexpected');
    } finally {
      undo();
    }
    await waitFor(() => shadow(el).activeElement === codeInput(el), 'focus back on the code');
    expect(codeInput(el).value).to.equal('000000');
    const loggedIn = nextEvent(el, 'wallet-logged-in');
    (part(el, 'form') as HTMLFormElement).requestSubmit();
    await loggedIn;
  });

  it('a code the service can no longer take (expired) asks for a new one, offered at once, which logs in', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const resend = () => buttonNamed(el, /new code/);
    expect(resend().disabled, 'the cooldown holds the resend back').to.equal(true);
    // The sandbox keeps a code 5 minutes: 6 minutes pass, on its clock and on this page's.
    await advanceClock(6 * 60 * 1000);
    const deviceNow = Date.now;
    Date.now = () => deviceNow() + 6 * 60 * 1000;
    try {
      const error = nextEvent<CustomEvent<{ code: string; status?: number }>>(el, 'wallet-login-error');
      type(codeInput(el), '000000');
      expect((await error).detail).to.include({ code: 'code_expired', status: 401 });
      await waitFor(() => /can’t be used any more\. Send a new code/.test(text(el, 'error')), 'the used-up code sentence');
      expect(codeInput(el).value).to.equal('');
      expect(codeInput(el).getAttribute('aria-invalid'), 'the used-up code marked as the problem').to.equal('true');
      await waitFor(() => !resend().disabled, 'a new code offered at once');
      // The way on is a new code: the button has the focus, not the field.
      await waitFor(() => shadow(el).activeElement === resend(), 'focus on "Send a new code"');
      resend().click();
      await waitFor(() => inState(el, 'code-entry') && text(el, 'error') === '' && text(el, 'status').includes('Code sent'), 'the new code sent and announced');
      expect(codeInput(el).getAttribute('aria-invalid'), 'the new code field not marked').to.equal('false');
      const loggedIn = nextEvent(el, 'wallet-logged-in');
      type(codeInput(el), '000000');
      await loggedIn;
    } finally {
      Date.now = deviceNow;
    }
  });

  it('a code used up by wrong tries within the service’s wait between codes shows that wait on "Send a new code", then offers it', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const resend = () => buttonNamed(el, /new code/);
    const errors = errorCodes(el);
    // The sandbox closes a code after 5 wrong tries; the next try is told it can no longer be used.
    for (let tries = 1; tries <= 6; tries++) {
      const refused = nextEvent(el, 'wallet-login-error');
      type(codeInput(el), '123456');
      await refused;
      await waitForState(el, 'code-entry');
    }
    expect(errors.at(-1)).to.equal('code_expired');
    await waitFor(() => /can’t be used any more/.test(text(el, 'error')), 'the used-up code sentence');
    // Still within the 30 s the service waits between two codes: the wait shows, nothing to press
    // that the service would refuse.
    const seconds = () => Number(/in (\d+) s/.exec(resend().textContent ?? '')?.[1]);
    expect(resend().disabled, 'not offered while the service would refuse it').to.equal(true);
    const first = seconds();
    expect(first).to.be.within(1, 30);
    await waitFor(() => seconds() < first, 'the wait counting down', 10000);
    // The wait over (both clocks 31 s on): offered, and the new code logs in.
    await advanceClock(31_000);
    const deviceNow = Date.now;
    Date.now = () => deviceNow() + 31_000;
    try {
      await waitFor(() => !resend().disabled, 'a new code offered once the wait is over', 10000);
      resend().click();
      await waitFor(() => inState(el, 'code-entry') && text(el, 'status').includes('Code sent'), 'the new code sent');
      const loggedIn = nextEvent(el, 'wallet-logged-in');
      type(codeInput(el), '000000');
      await loggedIn;
    } finally {
      Date.now = deviceNow;
    }
    expect(errors.filter((code) => code === 'rate_limited' || code === 'code_sent_recently'), 'no new code refused').to.deep.equal([]);
  });

  it('a code refused without a reason (reference.md: one 401 for a wrong code and one no longer valid) is told in a sentence that covers both', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId, 'resend-after': '0' });
    // The sandbox keeps a code 5 minutes.
    await advanceClock(6 * 60 * 1000);
    // The service documents the refusal's status only: the sandbox's details.reason left out.
    const undo = reshapeAnswer('POST', /\/verify$/, 401, ({ details: _reason, ...documented }) => documented);
    try {
      const error = nextEvent<CustomEvent<{ code: string; status?: number }>>(el, 'wallet-login-error');
      type(codeInput(el), '000000');
      expect((await error).detail).to.include({ code: 'wrong_code', status: 401 });
    } finally {
      undo();
    }
    await waitFor(() => text(el, 'error') !== '', 'the sentence');
    expect(text(el, 'error')).to.match(/Check it and try again; if it has expired, send a new code\./);
    expect(text(el, 'error'), 'not said to be mistyped').not.to.match(/not right/);
    const resend = buttonNamed(el, /new code/);
    resend.click();
    await waitFor(() => inState(el, 'code-entry') && text(el, 'status').includes('Code sent'), 'the new code sent');
    const loggedIn = nextEvent(el, 'wallet-logged-in');
    type(codeInput(el), '000000');
    await loggedIn;
  });

  it('accepts the whole code pasted anywhere in the element', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const loggedIn = nextEvent(el, 'wallet-logged-in');
    paste(part(el, 'heading')!, ' 000 000 ');
    await loggedIn;
    expect(inState(el, 'logged-in')).to.equal(true);
  });

  it('offers a new code only after the cooldown, and honours a 429 Retry-After from the service', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId, 'resend-after': '0' });
    const resend = () => buttonNamed(el, /new code/);
    expect(resend().disabled).to.equal(false);
    // The sandbox allows one code per 30 s: it answers 429 with Retry-After.
    const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
    resend().click();
    expect((await error).detail.code).to.equal('rate_limited');
    await waitForState(el, 'code-entry');
    await waitFor(() => /Too many attempts/.test(text(el, 'error')), 'the rate-limit sentence');
    // The wait counts down on its own line, outside the live regions: the alert is said once.
    const alert = text(el, 'error');
    expect(part(el, 'wait')!.hasAttribute('role')).to.equal(false);
    expect(part(el, 'wait')!.hasAttribute('aria-live')).to.equal(false);
    const seconds = () => Number(/in (\d+) s/.exec(text(el, 'wait'))?.[1]);
    const first = seconds();
    expect(first).to.be.greaterThan(0);
    await waitFor(() => seconds() < first, 'the wait counting down', 10000);
    expect(text(el, 'error')).to.equal(alert, 'the alert text does not change with the countdown');
    await waitFor(() => resend().disabled && /in \d+ s/.test(resend().textContent ?? ''), 'a visible countdown');
    // The first code still logs in.
    const loggedIn = nextEvent(el, 'wallet-logged-in');
    type(codeInput(el), '000000');
    await loggedIn;
  });

  it('a new code refused with the service’s wait (429 Retry-After), then a reload: the code screen keeps that wait, "Send a new code" is not offered before it', async () => {
    let el = await codeScreen({ 'account-id': acct.accountId, 'resend-after': '0' });
    let resend = () => buttonNamed(el, /new code/);
    // The sandbox allows one code per 30 s: it answers 429 with Retry-After, which the screen waits out.
    const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
    resend().click();
    expect((await error).detail.code).to.equal('rate_limited');
    await waitFor(() => inState(el, 'code-entry') && resend().disabled, 'the service’s wait on "Send a new code"');
    // The page reloads: a new element in the same tab.
    el.remove();
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'resend-after': '0' });
    await waitForState(el, 'code-entry');
    const errors = errorCodes(el);
    resend = () => buttonNamed(el, /new code/);
    expect(resend().disabled, 'not offered while the service would refuse it').to.equal(true);
    expect(Number(/in (\d+) s/.exec(resend().textContent ?? '')?.[1])).to.be.within(1, 30);
    // The code sent still logs in, and nothing was refused after the reload.
    const loggedIn = typeSandboxCode(el);
    expect((await loggedIn).detail.credentialType).to.equal('EMAIL_OTP');
    expect(errors).to.deep.equal([]);
  });

  it('a code left with "Use another way", then a reload: choosing that way again within its wait brings its screen back, no new code sent, and it logs in', async () => {
    // The page reloads: a new element. The user had chosen another way, so the methods show.
    const { asked, logIn } = await backToEmailCode(acct, '20', true);
    expect(asked).to.equal(0, 'no second code (the service would refuse it within 30 s)');
    await logIn();
  });

  it('a code left with "Use another way" is forgotten once the user logs in another way (a passkey here, a session from another tab)', async () => {
    const keptCodes = () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId));
    const leaveCode = async (el: WalletLogin) => {
      methodButton(el, 'email-otp').click();
      await waitForState(el, 'code-entry');
      buttonNamed(el, /another way/i).click();
      await waitForState(el, 'choosing');
      expect(keptCodes(), 'kept while no one logged in').to.have.length(1);
    };
    // A passkey login here.
    await passkeyRegistered(acct);
    await advanceClock(31_000); // the sandbox sends one code per 30 s
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp passkey', 'no-autofill': '' });
    await waitForState(el, 'choosing');
    await leaveCode(el);
    methodButton(el, 'passkey').click();
    await waitForState(el, 'logged-in');
    expect(keptCodes(), 'forgotten after a passkey login').to.deep.equal([]);
    el.logout();
    await waitForState(el, 'choosing');
    // A session from another tab (single sign-on there; its set-up sends an email code of its own).
    await advanceClock(31_000);
    const otherTab = await anotherTabWithSso(acct, store);
    try {
      await leaveCode(el);
      await otherTab.logIn();
      await waitForState(el, 'logged-in');
      await new Promise((r) => setTimeout(r, 300));
      expect(keptCodes(), 'forgotten after a login in another tab').to.deep.equal([]);
    } finally {
      otherTab.close();
    }
  });

  it('a code left, then a reload, past the element’s wait but within the service’s: the refusal of a new code brings back the code sent, with the service’s wait', async () => {
    // The sandbox sends one code per 30 s: it answers 429 with Retry-After.
    const { resend, logIn } = await backToEmailCode(acct, '0', true);
    expect(Number(/in (\d+) s/.exec(resend.textContent ?? '')?.[1])).to.be.within(1, 30);
    await logIn();
  });

  it('a code left, then a newer one sent in another tab: asked for again within the service’s wait, the newer one is offered (the one that works), not the one left', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId, 'resend-after': '0' });
    buttonNamed(el, /another way/i).click();
    await waitForState(el, 'choosing');
    await newerCodeInAnotherTab(acct);
    const errors = errorCodes(el);
    // The service refuses a new code (429: the other tab's is less than 30 s old).
    methodButton(el, 'email-otp').click();
    await waitForState(el, 'code-entry');
    // The code of the newest message, the other tab's.
    type(codeInput(el), '000000');
    await waitFor(() => inState(el, 'logged-in') || errors.length, 'the outcome of the code');
    expect(errors).to.deep.equal([]);
  });

  it('"Send a new code" refused within the service’s wait of a newer code sent in another tab: that code is offered, and it logs in', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId, 'resend-after': '0' });
    await newerCodeInAnotherTab(acct);
    // The service refuses a new code (429: the other tab's is less than 30 s old).
    expect(await resendRefusedThenType(el)).to.deep.equal([]);
  });

  it('a code asked for within the service’s wait of one this tab did not ask for (another tab) says one was just sent and how long to wait, not "too many attempts"', async () => {
    // Another tab asked for a code a moment ago: this tab keeps nothing of it.
    await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId });
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    const error = nextEvent<CustomEvent<{ code: string; message: string; status?: number }>>(el, 'wallet-login-error');
    methodButton(el, 'email-otp').click();
    const sentence = 'A code was sent to you a moment ago, so a new one cannot be sent yet.';
    // The sandbox answers 429 RATE_LIMITED with Retry-After; the page hears what it meant here.
    expect((await error).detail).to.deep.equal({ code: 'code_sent_recently', message: sentence, status: 429 });
    await waitForState(el, 'choosing');
    expect(text(el, 'error')).to.equal(sentence);
    const seconds = Number(/in (\d+) s/.exec(text(el, 'wait'))?.[1]);
    expect(seconds).to.be.within(1, 30);
    // Once the service's wait is over, a new code comes.
    await advanceClock(31_000);
    methodButton(el, 'email-otp').click();
    await waitForState(el, 'code-entry');
    const loggedIn = nextEvent(el, 'wallet-logged-in');
    type(codeInput(el), '000000');
    await loggedIn;
  });

  it('the proxy’s own rate limit on a first code says to wait and try again, not that a code was sent (the service’s refusal)', async () => {
    // A proxy that lets a client through twice in 4 s: this request, then the credential list; the
    // code request is the proxy's to refuse (429 RATE_LIMITED, as the service's refusal is).
    const v = await sandboxVariant({ rateLimit: { max: 2, windowMs: 4000 } });
    await clientFor(v.apiBase).listCredentials(v.accountId);
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase, methods: 'email-otp' });
    await waitForState(el, 'choosing');
    const error = nextEvent<CustomEvent<{ code: string; message: string; status?: number }>>(el, 'wallet-login-error');
    methodButton(el, 'email-otp').click();
    const { detail } = await error;
    expect(detail.code).to.equal('rate_limited');
    expect(detail.status).to.equal(429);
    expect(detail.message).to.match(/^Too many attempts\. Wait [1-4] seconds, then try again\.$/);
    await waitForState(el, 'choosing');
    expect(text(el, 'error')).to.equal('Too many attempts. Wait a moment, then try again.');
    // The service sent no code: once the proxy's wait is over, the first code goes out.
    await new Promise((r) => setTimeout(r, 4100));
    methodButton(el, 'email-otp').click();
    await waitForState(el, 'code-entry');
  });

  it('keeps the session across a reload (a new element finds the stored key) and logs out upstream', async () => {
    let el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const first = await loginWithEmail(el);
    el.remove();

    const restored = nextEvent<CustomEvent<LoggedInDetail>>(document.body, 'wallet-logged-in');
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const { detail } = await restored;
    expect(detail.source).to.equal('restored');
    expect(detail.sessionId).to.equal(first.sessionId);
    await waitForState(el, 'logged-in');
    // No one moved the focus to the heading: the polite status region tells a screen reader, out of
    // sight, as the heading says it on screen (once: not a second "You’re logged in." under it).
    await el.updateComplete;
    expect(text(el, 'status')).to.equal('You’re logged in.');
    expect(shownTexts(el).filter((line) => line.startsWith('You’re logged in'))).to.deep.equal(['You’re logged in']);

    const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
    (parts(el, 'button').find((b) => b.textContent?.includes('Log out')) as HTMLButtonElement).click();
    expect((await loggedOut).detail).to.deep.equal({ accountId: acct.accountId, reason: 'logout' });
    await waitForState(el, 'choosing');
    expect(await store.get(acct.accountId)).to.equal(undefined);
    const upstream = await clientFor().listSessions(acct.accountId);
    expect(upstream.map((s) => s.id)).not.to.include(first.sessionId);
    expect(text(el, 'status')).to.contain('logged out');
  });

  it('a login stored while another element of the account logs out keeps an element that shows it logged in: its key signs, its session is live', async () => {
    const a = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const first = await loginWithEmail(a);
    const b = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitFor(() => b.session?.sessionId === first.sessionId, 'the other element showing the session');
    await advanceClock(31_000); // the sandbox sends one code per 30 s
    const code = await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId });
    // The revocation reaches the service; its answer is held until the page's login is stored.
    const held = holdAnswer('DELETE', /\/auth\/sessions\//);
    try {
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(a, 'wallet-logged-out');
      a.logout();
      await held.arrived;
      const second = await code.submit('000000');
      await waitFor(() => b.session?.sessionId === second.sessionId, 'the other element showing the new session');
      held.release();
      expect((await loggedOut).detail.reason).to.equal('logout');
      await waitFor(() => !inState(a, 'busy'), 'the end of the logout');
      await new Promise((r) => setTimeout(r, 200));
      expect(inState(b, 'logged-in'), 'still logged in').to.equal(true);
      expect(b.session?.sessionId).to.equal(second.sessionId);
      const stored = await store.get(acct.accountId);
      expect(stored?.session.sessionId).to.equal(second.sessionId);
      expect(stored?.key).not.to.equal(undefined);
      expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([second.sessionId]);
      const account = await clientFor().setWalletPrivacy(acct.accountId, true, { stamper: await walletFor().stamper(acct.accountId) });
      expect(account.privateEnabled).to.equal(true);
    } finally {
      held.undo();
    }
  });

  it('logout() during a renewal ends the renewed session, upstream too, once the renewal is done', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await loginWithEmail(el);
    await waitForState(el, 'logged-in');
    // The renewal's answer (the new session, made upstream) is on its way when the page logs out.
    const held = holdAnswer('POST', /\/auth\/sessions\/[^/]+\/refresh$/, (r) => r.status === 201);
    try {
      el.refresh();
      await held.arrived;
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
      el.logout();
      held.release();
      await waitFor(() => inState(el, 'choosing') || inState(el, 'logged-in'), 'the end of the renewal');
      expect(inState(el, 'choosing'), 'logged out').to.equal(true);
      expect((await loggedOut).detail.reason).to.equal('logout');
    } finally {
      held.undo();
    }
    expect(await store.get(acct.accountId)).to.equal(undefined);
    const upstream = await clientFor().listSessions(acct.accountId);
    expect(upstream.map((s) => s.id), 'no session of the account left upstream').to.deep.equal([]);
  });

  it('the start-up screen is a titled panel at the page\'s heading level, and its heading keeps that level on the next screen', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'heading-level': '3' });
    // Its first render: the check of a stored session starts only after it is painted.
    expect(inState(el, 'restoring')).to.equal(true);
    const heading = part(el, 'heading')!;
    expect([heading.tagName, heading.id, heading.getAttribute('aria-level'), heading.textContent]).to.deep.equal(['H2', 'heading', '3', 'Log in to your wallet']);
    expect(part(el, 'base')!.getAttribute('aria-labelledby')).to.equal('heading');
    expect([part(el, 'intro')!.id, text(el, 'intro')]).to.deep.equal(['intro', 'Checking for your session…']);
    await waitForState(el, 'choosing');
    expect(part(el, 'heading')!.getAttribute('aria-level')).to.equal('3');
  });

  it('logout() during the start-up check logs out the stored session it finds', async () => {
    const wallet = walletFor();
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // The check of the stored session against the service's active list is on the wire.
    const { el, loggedOut } = await logoutDuringStartupCheck(acct, (el) => expect(inState(el, 'restoring')).to.equal(true));
    await waitFor(() => inState(el, 'choosing') || inState(el, 'logged-in'), 'the end of the start-up check');
    expect(inState(el, 'choosing'), 'logged out').to.equal(true);
    expect((await loggedOut).detail.reason).to.equal('logout');
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).not.to.include(session.sessionId);
  });

  it('logout() during the start-up check with the service out of reach still removes the stored session here', async () => {
    const wallet = walletFor();
    const { sessionId } = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // The service cannot be reached: the check of the stored session (held on the wire until the
    // page has asked for the logout) fails, and so would a revocation.
    const unreachable = [failNext('GET', /\/auth\/sessions\?/, 503), failNext('DELETE', /\/auth\/sessions\//, 503)];
    try {
      const { el, loggedOut } = await logoutDuringStartupCheck(acct);
      await waitFor(() => !inState(el, 'restoring') && !inState(el, 'busy'), 'the end of the start-up check');
      expect(inState(el, 'choosing'), 'logged out').to.equal(true);
      expect(await store.get(acct.accountId), 'no session or key left on this device').to.equal(undefined);
      expect(text(el, 'status')).to.equal('You’re logged out on this device. The service could not be told, so the session ends by itself when it expires.');
      expect(text(el, 'error')).to.equal('');
      expect((await loggedOut).detail.reason).to.equal('logout');
    } finally {
      for (const undo of unreachable.reverse()) undo();
    }
    // The service was never told: it still lists the session, which no key here can sign with.
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).to.include(sessionId);
  });

  /**
   * A session stored here, and the element put on a page gone offline (3 s) with its code loaded
   * already (a page that went offline after loading it): only its start-up check fails.
   */
  async function offlineAtStartupCheck() {
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await Promise.all([import('../../../../src/elements/wallet-login/wallet-login.view.ts'), import('../../../../src/elements/wallet-login/wallet-login.flows.ts')]);
    const offline = await goOffline(3000);
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp', 'no-autofill': '' });
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods, the check failed');
    return { el, offline };
  }

  it('offline at its start-up check, shows the session stored here once back online, with no click, the keyboard kept in the element', async () => {
    const { el, offline } = await offlineAtStartupCheck();
    expect(text(el, 'error')).to.equal('The wallet service could not be reached. Check your connection and try again.');
    methodButton(el, 'email-otp').focus();
    await offline.online();
    // Before: the methods and the failure stayed, the stored session unchecked until a click.
    await waitForState(el, 'logged-in');
    expect(text(el, 'error')).to.equal('');
    await el.updateComplete;
    expect(shadow(el).activeElement, 'the keyboard left the element').to.not.equal(null);
  });

  it('back online, a start-up check the connection does not carry yet (a network coming up) is run again a moment later: the session shows with no click', async () => {
    const { el, offline } = await offlineAtStartupCheck();
    // The first check once online fails as offline did (its answer lost on the way).
    const lost = loseAnswer('GET', /\/auth\/sessions\?/);
    try {
      await offline.online();
      // Before: one 'online' event, spent: the methods and the failure stayed until a click.
      await waitForState(el, 'logged-in');
    } finally {
      lost();
    }
    expect(text(el, 'error')).to.equal('');
  });

  it('logout() as the element goes on the page, before its start-up check began, logs out the stored session, upstream too', async () => {
    const wallet = walletFor();
    const { sessionId } = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    let loggedOut: Promise<CustomEvent<LoggedOutDetail>> | undefined;
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId }, (e) => {
      loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(e, 'wallet-logged-out');
    });
    el.logout();
    expect((await loggedOut!).detail.reason).to.equal('logout');
    await waitFor(() => !inState(el, 'busy'), 'the end of the logout');
    expect(inState(el, 'choosing'), 'logged out').to.equal(true);
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).not.to.include(sessionId);
  });

  it('logout() twice during the start-up check: the second joins the first, whose revocation is not cut off; one logout is told', async () => {
    const wallet = walletFor();
    const { sessionId } = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // The check of the stored session is on the wire when the page asks twice (two handlers).
    const hold = holdNext('GET', /\/auth\/sessions\?/);
    try {
      const events: string[] = [];
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId }, (e) => {
        e.addEventListener('wallet-logged-out', (ev) => events.push((ev as CustomEvent<LoggedOutDetail>).detail.reason));
      });
      await hold.arrived;
      el.logout();
      el.logout();
      hold.release();
      await waitFor(() => !inState(el, 'restoring') && !inState(el, 'busy'), 'the end of the logout');
      expect(inState(el, 'choosing'), 'logged out').to.equal(true);
      expect(events, 'one wallet-logged-out').to.deep.equal(['logout']);
      expect(text(el, 'status')).to.equal('You’re logged out.');
    } finally {
      hold.undo();
    }
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id), 'the session ended upstream').not.to.include(sessionId);
  });

  it('logout() while a code is being checked: the session the code led to is logged out, upstream too', async () => {
    // The verify retry's answer (the new session, made upstream) is on its way when the page logs out.
    const { el, held, logins } = await codeCheckHeld(acct);
    try {
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
      el.logout();
      held.release();
      await waitFor(() => !inState(el, 'busy') && !inState(el, 'verifying-code'), 'the end of the code step');
      expect(inState(el, 'choosing'), `logged out, on ${text(el, 'heading')}`).to.equal(true);
      expect((await loggedOut).detail.reason).to.equal('logout');
    } finally {
      held.undo();
    }
    expect(logins()).to.equal(0);
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id), 'no session of the account left upstream').to.deep.equal([]);
  });

  it('an email code whose login answer was lost, the session made upstream: logged in all the same, once, with a session this device holds and nothing left upstream for nobody', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const errors = errorCodes(el);
    const logins: LoggedInDetail[] = [];
    el.addEventListener('wallet-logged-in', (e) => logins.push((e as CustomEvent<LoggedInDetail>).detail));
    // The verify retry makes the session upstream; the connection drops before its answer comes.
    const undo = loseAnswer('POST', /\/verify$/, (r) => r.status === 200);
    try {
      type(codeInput(el), '000000');
      await waitFor(() => inState(el, 'logged-in') || errors.length, 'the outcome of the code');
    } finally {
      undo();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect([errors, logins.length, text(el, 'heading')]).to.deep.equal([[], 1, 'You’re logged in']);
    const [detail] = logins;
    expect([detail!.credentialType, detail!.source]).to.deep.equal(['EMAIL_OTP', 'login']);
    const stored = await store.get(acct.accountId);
    expect(stored?.session.sessionId).to.equal(detail!.sessionId);
    expect(stored?.key?.privateKey.extractable).to.equal(false);
    // The one session upstream is the one stored here, whose key signs its logout.
    expect(await sessionsUpstream(acct, (ids) => ids.length === 1)).to.deep.equal([detail!.sessionId]);
    const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
    el.logout();
    expect((await loggedOut).detail.reason).to.equal('logout');
    expect(await sessionsUpstream(acct)).to.deep.equal([]);
  });

  it('an email code whose login got no answer and made no session fails as before, and another device’s session of that way is left alone', async () => {
    // Another device logged in by email code a moment ago: a session upstream whose key is not here.
    const f = await fixtures();
    const elsewhere = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName: `other-${crypto.randomUUID()}` }), otpSigner: f.signerPublicKey });
    const other = await (await elsewhere.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await advanceClock(31_000); // the sandbox sends one code per 30 s
    const el = await codeScreen({ 'account-id': acct.accountId });
    const errors = errorCodes(el);
    // The code's check fails on its way (503 before the service): nothing is made upstream.
    const undo = failNext('POST', /\/verify$/, 503);
    try {
      type(codeInput(el), '000000');
      await waitFor(() => errors.length, 'the failure');
    } finally {
      undo();
    }
    await waitForState(el, 'code-entry');
    expect([errors, await store.get(acct.accountId)]).to.deep.equal([['network'], undefined]);
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([other.sessionId]);
  });

  // (Taken off the page, the check runs to its end instead: wallet-login-removed-verifying.test.ts.)
  for (const stop of ['cancel()', 'another wallet'] as const) {
    it(`${stop} while a code is being checked: the session the code led to is ended upstream, none kept here`, async () => {
      const other = await newAccount();
      // The verify retry's answer (the new session, made upstream) is on its way when the step stops.
      const { el, held, logins } = await codeCheckHeld(acct);
      try {
        if (stop === 'cancel()') el.cancel();
        else el.setAttribute('account-id', other.accountId);
        held.release();
        await held.read;
      } finally {
        held.undo();
      }
      // It is ended once its answer is in, after the step was stopped.
      expect(await sessionsUpstream(acct), 'no session of the account left upstream').to.deep.equal([]);
      expect(logins()).to.equal(0);
      expect(await store.get(acct.accountId)).to.equal(undefined);
    });
  }

  it('cancel() while a code is being checked: the methods, the code (spent) forgotten; that way again sends a code that works', async () => {
    const kept = () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId));
    const el = await codeScreen({ 'account-id': acct.accountId });
    const held = holdAnswer('POST', /\/verify$/, (r) => r.status === 200);
    try {
      type(codeInput(el), '000000');
      await held.arrived;
      el.cancel();
      held.release();
      await held.read;
    } finally {
      held.undo();
    }
    // The service took the code (its session is ended upstream): its screen would only refuse it again.
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), `the methods, not ${text(el, 'heading')}`);
    expect(kept(), 'no code kept for a reload').to.deep.equal([]);
    expect(await sessionsUpstream(acct)).to.deep.equal([]);
    await advanceClock(31_000); // the sandbox sends one code per 30 s
    await loginWithEmail(el);
    expect(await sessionsUpstream(acct, (ids) => ids.length === 1)).to.deep.equal([el.session!.sessionId]);
  });

  for (const stop of ['cancel()', 'removal'] as const) {
    it(`${stop} while a new code is being sent: no screen of the code it replaced comes back, and ${stop === 'removal' ? 'the new code’s screen does, which logs in' : 'that way again sends a code that works'}`, async () => {
      const kept = () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId));
      let el = await codeScreen({ 'account-id': acct.accountId, 'resend-after': '0' });
      await advanceClock(31_000); // the sandbox sends one code per 30 s
      const before = kept().map((k) => sessionStorage.getItem(k));
      // The service sent the new code (the old one is replaced there); its answer is on its way when the step stops.
      const held = holdAnswer('POST', /\/challenge$/, (r) => r.status === 200);
      try {
        buttonNamed(el, /new code/).click();
        await held.arrived;
        if (stop === 'cancel()') el.cancel();
        else el.remove();
        held.release();
        await held.read.catch(() => undefined);
      } finally {
        held.undo();
      }
      // Removed: the page reloads (a new element), where the new code, sent all the same, is kept:
      // once the removed element has kept it, which a reload before then would not find (the answer
      // read here, the element may still be at work on it: in WebKit it is).
      if (stop === 'removal') {
        await waitFor(() => kept().some((k) => !before.includes(sessionStorage.getItem(k)!)), 'the new code kept for a reload');
        el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      }
      await waitFor(() => (inState(el, 'choosing') || inState(el, 'code-entry')) && !inState(el, 'busy'), 'a screen');
      if (stop === 'removal') {
        expect(inState(el, 'code-entry'), `the new code’s screen, not ${text(el, 'heading')}`).to.equal(true);
        return void (await typeSandboxCode(el));
      }
      expect(inState(el, 'choosing'), `the methods, not ${text(el, 'heading')}`).to.equal(true);
      expect(kept(), 'no code kept for a reload').to.deep.equal([]);
      await advanceClock(31_000);
      await loginWithEmail(el);
    });
  }

  for (const again of ['on its way', 'once there'] as const) {
    it(`offers Cancel on "Sending your code…" while the answer is slow: the methods at once, no error; the code, sent all the same, is kept: that way chosen again with the code ${again} goes to its screen, no new code asked for`, async () => {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp sms-otp', 'no-autofill': '' });
      await waitForState(el, 'choosing');
      const errors = errorCodes(el);
      const sent = challenges();
      // The service sent the code; its answer is slow to come, and the user gives up on it.
      const held = holdAnswer('POST', /\/challenge$/, (r) => r.status === 200);
      try {
        methodButton(el, 'email-otp').click();
        await held.arrived;
        await el.updateComplete;
        const cancel = parts(el, 'button').find((b) => b.textContent!.trim() === 'Cancel');
        expect({ sending: inState(el, 'sending-code'), intro: text(el, 'intro'), cancel: !!cancel, focused: shadow(el).activeElement === part(el, 'heading') }).to.deep.equal({ sending: true, intro: 'Sending your code…', cancel: true, focused: true });
        cancel!.click();
        await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods, usable, while the answer is still on its way');
        await el.updateComplete;
        expect({ error: text(el, 'error'), focused: shadow(el).activeElement === methodButton(el, 'email-otp') }).to.deep.equal({ error: '', focused: true });
        if (again === 'on its way') {
          methodButton(el, 'email-otp').click();
          await el.updateComplete;
          expect([inState(el, 'sending-code'), inState(el, 'busy')], 'sending, the same code').to.deep.equal([true, true]);
          held.release();
        } else {
          held.release();
          await held.read;
          await new Promise((r) => setTimeout(r, 100));
          // Its answer says nothing where the user left it.
          expect({ choosing: inState(el, 'choosing'), error: text(el, 'error'), errors }).to.deep.equal({ choosing: true, error: '', errors: [] });
          methodButton(el, 'email-otp').click();
        }
        // Before: the send stopped at Cancel; that way again was refused as too soon (code_sent_recently).
        await waitForState(el, 'code-entry');
      } finally {
        held.undo();
      }
      expect({ asked: challenges() - sent, errors }).to.deep.equal({ asked: 1, errors: [] });
      await typeSandboxCode(el);
    });
  }

  for (const then of ['logout()', 'another way'] as const) {
    it(`stops a code being sent after Cancel at ${then}: nothing of it is kept, and its answer says nothing`, async () => {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp sms-otp', 'no-autofill': '' });
      await waitForState(el, 'choosing');
      const errors = errorCodes(el);
      // The email codes this tab keeps (an SMS code's screen keeps its own).
      const kept = () => Object.entries(sessionStorage).filter(([k, v]) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId) && /EMAIL/.test(k + v));
      const held = holdAnswer('POST', /\/challenge$/, (r) => r.status === 200);
      try {
        methodButton(el, 'email-otp').click();
        await held.arrived;
        await el.updateComplete;
        el.cancel();
        await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods');
        if (then === 'logout()') el.logout();
        else methodButton(el, 'sms-otp').click();
        // Stopped, the held answer fails as a fetch stopped before its answer does; else it comes now.
        held.release();
        await held.read;
        // (The account has no phone: the text message way ends on the methods, saying so.)
        await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy') && (then === 'logout()' || errors.length > 0), 'the methods');
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        held.undo();
      }
      expect({ kept: kept(), errors, choosing: inState(el, 'choosing') }).to.deep.equal({ kept: [], errors: then === 'logout()' ? [] : ['no_credential'], choosing: true });
    });
  }

  it('a logout in another tab while this one logs out: they take turns (Web Locks), nothing is left upstream, and this tab ends on the methods, logged out here as asked', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await loginWithEmail(el);
    // Another tab: its own wallet and channel, the same origin's key store (and Web Locks).
    const otherTab = new BroadcastChannel(SESSION_CHANNEL_NAME);
    const otherWallet = createWallet({ client: createClient({ baseUrl: '/api' }), store, otpSigner: (await fixtures()).signerPublicKey });
    const otherLogout = () => otherWallet.logout(acct.accountId).then(() => otherTab.postMessage({ type: 'logged-out', accountId: acct.accountId }));
    try {
      // This tab's revocation waits before it leaves; the other tab logs out meanwhile.
      let held = holdNext('DELETE', /\/auth\/sessions\//);
      el.logout();
      await held.arrived;
      let otherDone = false;
      const other = otherLogout().then(() => (otherDone = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(otherDone, 'the other tab’s logout waits for this one’s').to.equal(false);
      held.release();
      held.undo();
      await other;
      await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods');
      expect(await sessionsUpstream(acct), 'no session left upstream').to.deep.equal([]);

      // The other way round: the other tab's revocation is under way when this tab logs out. The
      // user asked for the logout here: it ends as this tab's, though the other tab's ended first.
      await advanceClock(31_000);
      await loginWithEmail(el);
      held = holdNext('DELETE', /\/auth\/sessions\//);
      const first = otherLogout();
      await held.arrived;
      const events: string[] = [];
      el.addEventListener('wallet-logged-out', (e) => events.push((e as CustomEvent<LoggedOutDetail>).detail.reason));
      el.logout();
      held.release();
      held.undo();
      await first;
      await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods');
      expect(events, 'one wallet-logged-out, of a logout here').to.deep.equal(['logout']);
      expect(text(el, 'status')).to.equal('You’re logged out.');
      expect(await sessionsUpstream(acct), 'no session left upstream').to.deep.equal([]);
      expect(await store.get(acct.accountId)).to.equal(undefined);
    } finally {
      otherTab.close();
    }
  });

  it('taken off the page while its session is renewed: the renewed session is kept here (no session upstream without its key), and back it is logged in with it', async () => {
    let el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const { sessionId } = await loginWithEmail(el);
    // The service renewed the session (the old one ended there); its answer is on its way when the element goes.
    await renewHeld(el, () => el.remove(), (read) => read);
    const upstream = await sessionsUpstream(acct, (ids) => ids.length === 1 && ids[0] !== sessionId);
    expect(upstream).to.have.length(1);
    for (let tries = 0; tries < 50 && (await store.get(acct.accountId))?.session.sessionId !== upstream[0]; tries++) await new Promise((r) => setTimeout(r, 100));
    expect((await store.get(acct.accountId))?.session.sessionId, 'the session upstream is the one this device holds the key of').to.equal(upstream[0]);
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'logged-in');
    expect(el.session!.sessionId).to.equal(upstream[0]);
  });

  it('cancel() during a renewal leaves it running to its end: logged in with the renewed session, whose key this device holds', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const { sessionId } = await loginWithEmail(el);
    // The service renewed the session (the old one ended there); its answer is on its way at cancel().
    await renewHeld(el, () => el.cancel(), () => waitFor(() => !inState(el, 'busy'), 'the end of the renewal'));
    expect(inState(el, 'logged-in'), `on ${text(el, 'heading')}: ${text(el, 'status')}`).to.equal(true);
    const upstream = await sessionsUpstream(acct, (ids) => ids.length === 1 && ids[0] !== sessionId);
    expect([el.session?.sessionId, (await store.get(acct.accountId))?.session.sessionId], 'the session shown and kept is the one upstream').to.deep.equal([upstream[0], upstream[0]]);
  });

  it('a logout in another tab while this one renews: it waits for the renewal (Web Locks) and ends the renewed session; this tab ends on the methods', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await loginWithEmail(el);
    const otherTab = new BroadcastChannel(SESSION_CHANNEL_NAME);
    const otherWallet = createWallet({ client: createClient({ baseUrl: '/api' }), store, otpSigner: (await fixtures()).signerPublicKey });
    let other: Promise<void> | undefined;
    try {
      await renewHeld(
        el,
        () => void (other = otherWallet.logout(acct.accountId).then(() => otherTab.postMessage({ type: 'logged-out', accountId: acct.accountId }))),
        async () => {
          await other;
          await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods');
        },
      );
    } finally {
      otherTab.close();
    }
    expect(await sessionsUpstream(acct), 'no session left upstream').to.deep.equal([]);
    expect(await store.get(acct.accountId)).to.equal(undefined);
  });

  it('cancel() during a logout leaves it running to its end: logged out, upstream too', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await loginWithEmail(el);
    const held = holdAnswer('DELETE', /\/auth\/sessions\//);
    try {
      el.logout();
      await held.arrived;
      el.cancel();
      held.release();
      await waitFor(() => !inState(el, 'busy'), 'the end of the logout');
    } finally {
      held.undo();
    }
    expect(inState(el, 'choosing'), `on ${text(el, 'heading')}: ${text(el, 'status')}`).to.equal(true);
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect(await sessionsUpstream(acct), 'no session of the account left upstream').to.deep.equal([]);
  });

  it('logout() while the element put back waits for a renewal left running: the renewal ends first, then its session is ended, upstream too', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await loginWithEmail(el);
    await renewHeld(
      el,
      async () => {
        const parent = el.parentNode!;
        el.remove();
        await new Promise((r) => setTimeout(r));
        parent.appendChild(el);
        el.logout();
      },
      () => waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods'),
    );
    expect(await sessionsUpstream(acct), 'no session of the account left upstream').to.deep.equal([]);
    expect(await store.get(acct.accountId)).to.equal(undefined);
  });

  it('a login in another tab while a code is being checked: only that tab’s session is left, upstream and here', async () => {
    const otherTab = await anotherTabWithSso(acct, store);
    const el = await codeScreen({ 'account-id': acct.accountId });
    // The email code's verify only: the other tab's single sign-on verifies too.
    const held = holdAnswer('POST', new RegExp(`${acct.emailCredentialId.split(':')[1]}/verify$`), (r) => r.status === 200);
    try {
      type(codeInput(el), '000000');
      await held.arrived;
      await otherTab.logIn();
      await waitForState(el, 'logged-in');
      held.release();
      await waitFor(() => !inState(el, 'busy'), 'the code step ended');
    } finally {
      held.undo();
      otherTab.close();
    }
    const mine = el.session!.sessionId;
    expect(el.session!.credentialType).to.equal('OAUTH');
    expect((await store.get(acct.accountId))?.session.sessionId).to.equal(mine);
    expect(await sessionsUpstream(acct, (ids) => ids.length <= 1), 'the code’s session ended upstream').to.deep.equal([mine]);
  });

  it('logout() on the code screen leaves it: the methods, and no code kept for a reload', async () => {
    const kept = () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId));
    const el = await codeScreen({ 'account-id': acct.accountId });
    expect(kept()).to.have.length(1);
    el.logout();
    await waitForState(el, 'choosing', 5000);
    await waitFor(() => kept().length === 0, 'the code forgotten');
  });

  it('logout() during the start-up check forgets a code kept for a reload, and tells of no session ended when there was none', async () => {
    const kept = () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId));
    let el = await codeScreen({ 'account-id': acct.accountId });
    // The page reloads while the code waits; the new element is logged out before its check ends.
    el.remove();
    expect(kept()).to.have.length(1);
    let loggedOut = 0;
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId }, (e) => e.addEventListener('wallet-logged-out', () => loggedOut++));
    el.logout();
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the end of the logout');
    expect(kept(), 'no code kept for a reload').to.deep.equal([]);
    expect(loggedOut, 'no wallet-logged-out: no session ended').to.equal(0);
    // A later reload shows the methods, not the code screen.
    el.remove();
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitFor(() => !inState(el, 'restoring'), 'the end of the start-up check');
    expect(inState(el, 'choosing'), `on ${text(el, 'heading')}`).to.equal(true);
  });

  it('logout() while a passkey login is under way stops it: no prompt answered, no session', async () => {
    await passkeyRegistered(acct);

    const el = await passkeyOrEmail(acct);
    let logins = 0;
    el.addEventListener('wallet-logged-in', () => logins++);
    // The login's challenge is on the wire (the authenticator would answer the prompt at once).
    const hold = holdNext('POST', /\/auth\/credentials\/[^/]+\/challenge$/);
    try {
      methodButton(el, 'passkey').click();
      await hold.arrived;
      el.logout();
      hold.release();
      await waitFor(() => !inState(el, 'busy'), 'the end of the passkey step');
      expect(inState(el, 'choosing'), `on ${text(el, 'heading')}`).to.equal(true);
    } finally {
      hold.undo();
    }
    expect(logins).to.equal(0);
    expect(text(el, 'error')).to.equal('');
    expect(await store.get(acct.accountId)).to.equal(undefined);

    // With the prompt open (nobody touches the authenticator), logout() closes it at once.
    await setAutomaticPresence(false);
    const challenged = holdAnswer('POST', /\/auth\/credentials\/[^/]+\/challenge$/);
    try {
      methodButton(el, 'passkey').click();
      await challenged.arrived;
      challenged.release();
      await challenged.read;
      el.logout();
      await waitForState(el, 'choosing', 5000);
      await waitFor(() => !inState(el, 'busy'), 'the prompt closed');
    } finally {
      challenged.undo();
    }
    expect(logins).to.equal(0);
  });

  it('logout() while single sign-on waits for the identity provider stops it: the provider is told, no session', async () => {
    const { el, given, finish } = await ssoLeftOpen(acct);
    let logins = 0;
    el.addEventListener('wallet-logged-in', () => logins++);
    methodButton(el, 'oauth').click();
    await waitFor(given, 'the provider asked for a token');
    el.logout();
    await waitForState(el, 'choosing', 5000);
    expect(given()!.aborted, 'the provider told to close its window').to.equal(true);
    // The user finishes in the provider's window after all: no login comes of it.
    finish();
    await waitFor(() => !inState(el, 'busy'), 'the end of the step');
    expect(logins).to.equal(0);
    expect(inState(el, 'choosing')).to.equal(true);
    expect(await store.get(acct.accountId)).to.equal(undefined);
  });

  it('Cancel while a passkey login is being checked returns to the methods at once, not when the service answers; that session is ended once it does', async () => {
    await passkeyRegistered(acct);

    const el = await passkeyOrEmail(acct);
    let logins = 0;
    el.addEventListener('wallet-logged-in', () => logins++);
    // The check's answer (the session, made upstream) is held for as long as the service could take.
    const held = holdAnswer('POST', /\/auth\/credentials\/[^/]+\/verify$/, (r) => r.status === 200);
    try {
      methodButton(el, 'passkey').click();
      await held.arrived;
      (parts(el, 'button').find((b) => b.textContent?.includes('Cancel')) as HTMLButtonElement).click();
      await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods, usable, while the answer is still on its way', 10000);
    } finally {
      held.release();
      held.undo();
    }
    expect(logins).to.equal(0);
    expect(text(el, 'error')).to.equal('');
    expect(await sessionsUpstream(acct), 'no session of the account left upstream').to.deep.equal([]);
    expect(await store.get(acct.accountId)).to.equal(undefined);
  });

  it('logout() while single sign-on is being checked: the session the service made for it is ended upstream, none kept here', async () => {
    const { el, given, finish } = await ssoLeftOpen(acct);
    let logins = 0;
    el.addEventListener('wallet-logged-in', () => logins++);
    const held = holdAnswer('POST', /\/auth\/credentials\/[^/]+\/verify$/, (r) => r.status === 200);
    try {
      methodButton(el, 'oauth').click();
      await waitFor(given, 'the provider asked for a token');
      finish();
      await held.arrived;
      el.logout();
      held.release();
      await waitFor(() => !inState(el, 'busy') && !inState(el, 'authenticating'), 'the end of the single sign-on step');
      expect(inState(el, 'choosing'), `on ${text(el, 'heading')}`).to.equal(true);
    } finally {
      held.undo();
    }
    expect(logins).to.equal(0);
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect(await sessionsUpstream(acct), 'no session of the account left upstream').to.deep.equal([]);
  });

  it('a logout the service could not be told of still logs out this device, and says so', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const { sessionId } = await loginWithEmail(el);
    const undo = failNext('DELETE', /\/auth\/sessions\//, 503);
    try {
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
      (parts(el, 'button').find((b) => b.textContent?.includes('Log out')) as HTMLButtonElement).click();
      expect((await loggedOut).detail).to.deep.equal({ accountId: acct.accountId, reason: 'logout' });
    } finally {
      undo();
    }
    await waitForState(el, 'choosing');
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect(text(el, 'status')).to.equal('You’re logged out on this device. The service could not be told, so the session ends by itself when it expires.');
    // The service still lists it (it was never told); no key here can sign with it.
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).to.include(sessionId);
  });

  it('comes back to the code screen after a reload, with no new code sent, forgets it once used, and shows the methods after it was left', async () => {
    const kept = () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId));
    let el = await codeScreen({ 'account-id': acct.accountId, 'resend-after': '20' });
    const sent = challenges();
    expect(kept()).to.have.length(1);
    // What the tab keeps is the public challenge answer: never a code, never a key.
    const saved = JSON.parse(sessionStorage.getItem(kept()[0]!)!) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).to.deep.equal(['accountId', 'id', 'otpEncryptionTargetBundle', 'resendAt', 'sentAt', 'type']);

    // A new element (the page reloaded): the code screen again, its resend wait still running.
    el.remove();
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'resend-after': '20' });
    await waitForState(el, 'code-entry');
    expect(challenges()).to.equal(sent, 'no second code');
    const resend = buttonNamed(el, /new code/);
    expect(resend.disabled).to.equal(true);
    const loggedIn = typeSandboxCode(el);
    expect((await loggedIn).detail.credentialType).to.equal('EMAIL_OTP');
    await waitFor(() => kept().length === 0, 'the used code forgotten');

    // Abandoned ("Use another way"): a reload shows the methods.
    el.remove();
    acct = await newAccount();
    el = await codeScreen({ 'account-id': acct.accountId });
    expect(kept()).to.have.length(1);
    buttonNamed(el, /another way/i).click();
    await waitForState(el, 'choosing');
    // Kept as left (a reload shows the methods; choosing that way again comes back to it), still no code.
    await waitFor(() => (JSON.parse(sessionStorage.getItem(kept()[0]!) ?? '{}') as { left?: boolean }).left, 'the abandoned code marked left');
    el.remove();
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
  });

  it('back to the email code just sent, within its wait: its screen again, no new code asked for, and it logs in', async () => {
    // The wait left of the first code (the button still waiting), not a new one.
    const { asked, logIn } = await backToEmailCode(acct, '20', false);
    expect(asked).to.equal(0, 'no second code (the service would refuse it within 30 s)');
    await logIn();
  });

  it('a kept code whose target no longer verifies is dropped: the methods show, nothing is sent', async () => {
    let el = await codeScreen({ 'account-id': acct.accountId });
    el.remove();
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId))!;
    const saved = JSON.parse(sessionStorage.getItem(key)!) as { otpEncryptionTargetBundle: string };
    // Another key's signature: the pinned signer check refuses it.
    const bundle = JSON.parse(saved.otpEncryptionTargetBundle) as Record<string, string>;
    bundle.dataSignature = bundle.dataSignature!.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    sessionStorage.setItem(key, JSON.stringify({ ...saved, otpEncryptionTargetBundle: JSON.stringify(bundle) }));
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    expect(sessionStorage.getItem(key)).to.equal(null);
    expect(text(el, 'error')).to.equal('');
  });

  it('a kept code whose type is no code’s or whose id is no id (another script of the origin, an older version wrote it) is dropped: the methods show, no new code is sent', async () => {
    let el = await codeScreen({ 'account-id': acct.accountId });
    el.remove();
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId))!;
    const saved = JSON.parse(sessionStorage.getItem(key)!) as Record<string, unknown>;
    await advanceClock(31_000); // past the sandbox's one code per 30 s: it would send another now
    const sent = challenges();
    const types = ['PASSKEY', 'email_otp', null, 42, ['EMAIL_OTP'], { type: 'EMAIL_OTP' }].map((type) => ({ type }));
    // Empty, blank, none (undefined: left out of the JSON), or no string.
    const ids = ['', ' \t\n ', undefined, null, 42, [saved['id']], { id: saved['id'] }].map((id) => ({ id }));
    for (const bad of [...types, ...ids]) {
      sessionStorage.setItem(key, JSON.stringify({ ...saved, ...bad }));
      el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      const shown = await waitFor(() => (inState(el, 'choosing') && 'methods') || (inState(el, 'code-entry') && 'code screen'), 'the methods or a code screen');
      expect([shown, sessionStorage.getItem(key), challenges() - sent, text(el, 'error')], JSON.stringify(bad)).to.deep.equal(['methods', null, 0, '']);
      el.remove();
    }
  });

  it('a kept code’s re-login reason (tab storage, written here) of another type or shape is dropped: the code screen, then every method, as with none', async () => {
    needsWebAuthn();
    const methods = 'email-otp sms-otp passkey';
    const first = await codeScreen({ 'account-id': acct.accountId, methods });
    first.remove();
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId))!;
    const saved = JSON.parse(sessionStorage.getItem(key)!) as Record<string, unknown>;

    /** A reload with the email code kept beside `reauth`: its screen, then "Use another way"; what the methods screen shows. */
    const backFromKept = async (reauth?: unknown) => {
      for (const k of Object.keys(sessionStorage)) if (k.startsWith('wallet-elements:code:')) sessionStorage.removeItem(k);
      sessionStorage.setItem(key, JSON.stringify({ ...saved, reauth }));
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods });
      await waitForState(el, 'code-entry');
      buttonNamed(el, /another way/i).click();
      await waitForState(el, 'choosing');
      const shown = { reauth: inState(el, 'reauth'), offered: parts(el, 'method-button').map((b) => b.dataset['method']), intro: text(el, 'intro') };
      el.remove();
      return shown;
    };

    const none = await backFromKept();
    expect(none).to.deep.include({ reauth: false, offered: ['email-otp', 'sms-otp', 'passkey'] });
    // A reason as the element keeps it narrows the methods to the code's way.
    expect(await backFromKept({ why: 'expired', credentialType: 'EMAIL_OTP' })).to.deep.include({ reauth: true, offered: ['email-otp'] });
    for (const bad of [{ why: 'expired', credentialType: 'SMS_OTP' }, { why: 'stolen', credentialType: 'EMAIL_OTP' }, { why: 'revoked' }, 'expired', [1], 7]) {
      expect(await backFromKept(bad), JSON.stringify(bad)).to.deep.equal(none);
    }
  });

  it('after expiry on the sandbox clock asks again for the same credential type only, and re-authenticates', async () => {
    await emailSessionExpired(acct, 'passkey email-otp oauth');
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp oauth' });
    await waitForState(el, 'reauth');
    expect(text(el, 'intro')).to.contain('Your session has ended');
    const offered = parts(el, 'method-button').map((b) => b.dataset['method']);
    expect(offered).to.deep.equal(['email-otp']);
    const again = await loginWithEmail(el);
    expect(again.credentialType).to.equal('EMAIL_OTP');
  });

  /** Another device logs in to the wallet by email and revokes `sessionId` (reference.md: any active session may sign); that device's wallet. */
  async function revokedFromAnotherDevice(sessionId: string): Promise<Wallet> {
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    const other = createWallet({ client: createClient({ baseUrl: '/api' }), store: indexedDbKeyStore({ dbName: `${dbName}-elsewhere` }), otpSigner: (await fixtures()).signerPublicKey });
    await (await other.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await other.revokeSession(acct.accountId, sessionId);
    return other;
  }

  it('a session revoked from another device, found when its renewal is refused, ends as revoked and the screen says so', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const mine = await loginWithEmail(el);
    const other = await revokedFromAnotherDevice(mine.sessionId);
    const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
    el.refresh();
    expect((await loggedOut).detail.reason).to.equal('revoked');
    await waitForState(el, 'reauth');
    expect(text(el, 'intro')).to.contain('Your session was ended from another device.');
    expect(parts(el, 'method-button').map((b) => b.dataset['method'])).to.deep.equal(['email-otp']);
    expect(await store.list(), 'its key deleted').to.deep.equal([]);
    await other.logout(acct.accountId);
  });

  it('a session whose renewal is refused after its time on the service’s clock, this device’s clock behind, ends as expired, not as revoked', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await loginWithEmail(el);
    // The service's clock passes the session's 15 minutes; this device's clock stays behind (set
    // back, or slow): by its own count the session still has time left.
    await advanceClock(16 * 60_000);
    const ends: Array<boolean | undefined> = [];
    const off = walletFor().subscribe((c) => void (c.type === 'ended' && ends.push(c.revoked)));
    try {
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
      el.refresh();
      expect((await loggedOut).detail.reason).to.equal('expired');
      await waitForState(el, 'reauth');
      expect(text(el, 'intro')).to.contain('Your session has ended');
      // Other elements and tabs are told the same: an end at its time, not a revocation.
      expect(ends).to.deep.equal([undefined]);
    } finally {
      off();
    }
  });

  it('a stored session revoked from another device while the page was away: the start-up check says it was ended from another device', async () => {
    let el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const mine = await loginWithEmail(el);
    el.remove();
    const other = await revokedFromAnotherDevice(mine.sessionId);
    const loggedIn = (() => {
      const seen: string[] = [];
      const on = (e: Event) => seen.push((e as CustomEvent<LoggedInDetail>).detail.source);
      document.body.addEventListener('wallet-logged-in', on);
      return { seen, stop: () => document.body.removeEventListener('wallet-logged-in', on) };
    })();
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'reauth');
    loggedIn.stop();
    expect(loggedIn.seen, 'no session restored').to.deep.equal([]);
    expect(text(el, 'intro')).to.contain('Your session was ended from another device.');
    expect(parts(el, 'method-button').map((b) => b.dataset['method'])).to.deep.equal(['email-otp']);
    expect(await store.list(), 'its key deleted').to.deep.equal([]);
    await other.logout(acct.accountId);
  });

  it('after expiry offers the methods of the attribute when it leaves the ended session’s type out', async () => {
    needsWebAuthn();
    // An email session, and a page whose element offers other ways since.
    await emailSessionExpired(acct, 'email-otp');
    let el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'sms-otp passkey' });
    await waitForState(el, 'choosing');
    expect(parts(el, 'method-button').map((b) => b.dataset['method'])).to.deep.equal(['sms-otp', 'passkey']);
    expect(inState(el, 'reauth')).to.equal(false);

    // The same when the session ends while shown (revoked from another device, its renewal refused upstream).
    el.remove();
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp' });
    const mine = await loginWithEmail(el);
    el.methods = 'oauth';
    const other = await revokedFromAnotherDevice(mine.sessionId);
    const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
    el.refresh();
    expect((await loggedOut).detail.reason).to.equal('revoked');
    await other.logout(acct.accountId);
    await waitForState(el, 'choosing');
    expect(parts(el, 'method-button').map((b) => b.dataset['method'])).to.deep.equal(['oauth']);
    expect(inState(el, 'reauth')).to.equal(false);
  });

  it('a session that another element or tab found ended (its renewal refused upstream) ends here at once', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const mine = await loginWithEmail(el);
    const elsewhere = await revokedFromAnotherDevice(mine.sessionId);
    // Another element of this page renews through the shared wallet and is refused: core deletes
    // the record and says `ended`; the element does not wait for its own renewal to find out.
    const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
    const refused = await walletFor().refresh(acct.accountId).catch((e: unknown) => e);
    expect((refused as WalletError).code).to.equal('session_expired');
    expect((await loggedOut).detail.reason).to.equal('revoked');
    await waitForState(el, 'reauth');
    expect(text(el, 'intro')).to.contain('ended from another device');
    await elsewhere.logout(acct.accountId);
  });

  it('shown again after the device slept (timers stood still, the clock did not): a session that ended meanwhile ends at once', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await loginWithEmail(el);
    // The page's session watch reads the key store once the session is stored (shared/wallet.ts
    // timeEnds) and times its end by the clock as it reads it then; in WebKitGTK that read can end
    // after the login did (measured: 1 ms after), and a clock moved meanwhile ends the session at
    // once, rightly (a sleep right after a login). The sleep comes after the store was read here.
    await store.list();
    await new Promise((r) => setTimeout(r, 100));
    // A sleep: 16 minutes pass on both clocks while none of this page's timers runs. A test cannot
    // put the machine to sleep, so the page's clock (Date.now) is moved as a sleep moves it.
    await advanceClock(16 * 60_000);
    const deviceNow = Date.now;
    Date.now = () => deviceNow() + 16 * 60_000;
    try {
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out', 5000);
      await new Promise((r) => setTimeout(r, 300));
      expect(inState(el, 'logged-in'), 'nothing ends it before the page is shown again').to.equal(true);
      document.dispatchEvent(new Event('visibilitychange'));
      expect((await loggedOut).detail.reason).to.equal('expired');
      await waitForState(el, 'reauth');
      expect(await store.list(), 'its key deleted').to.deep.equal([]);
    } finally {
      Date.now = deviceNow;
    }
  });

  it('renews the session before expiry, or with no-auto-refresh warns with session-expiring', async () => {
    // refresh-before just under the 15-minute lifetime: the renewal is due at once. Earlier tests
    // moved the sandbox clock ahead of this page's: a session is timed by its lifetime.
    let el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'refresh-before': '899' });
    const first = await loginWithEmail(el);
    await waitFor(() => el.session && el.session.sessionId !== first.sessionId, 'a renewed session', 20000);
    const renewed = el.session!;
    expect((await store.get(acct.accountId))?.session.sessionId).to.equal(renewed.sessionId);
    el.remove();
    await walletFor().logout(acct.accountId);
    await advanceClock(31_000);

    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'refresh-before': '899', 'no-auto-refresh': '' });
    const expiring = nextEvent<CustomEvent<{ sessionId: string }>>(el, 'session-expiring', 20000);
    const second = await loginWithEmail(el);
    expect((await expiring).detail.sessionId).to.equal(second.sessionId);
    await waitForState(el, 'expiring');
    // Shown again (the timers set anew): the warning is not given twice.
    let warnings = 0;
    el.addEventListener('session-expiring', () => warnings++);
    document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((r) => setTimeout(r, 1500));
    expect(warnings).to.equal(0);
    const stay = parts(el, 'submit').find((b) => b.textContent?.includes('Stay logged in')) as HTMLButtonElement;
    expect(shadow(el).activeElement === stay, `focus on "Stay logged in", not ${focusIn(el)}`).to.equal(true);
    stay.click();
    await waitFor(() => el.session && el.session.sessionId !== second.sessionId && inState(el, 'logged-in'), 'a session renewed on request');
  });

  it('a refresh-before at or above the session\'s lifetime is ignored: the session is renewed halfway through it, not every second', async () => {
    // Sessions of 20 s and refresh-before an hour: taken as it is, each renewal would be due at once
    // (a second at least), a new session made upstream each second for as long as the page is open.
    const { v, el } = await onVariant({ sessionLifetimeMs: 20_000 }, { 'refresh-before': '3600' });
    const first = await loginWithEmail(el);
    const renewed = await waitFor(() => el.session?.sessionId !== first.sessionId && el.session?.sessionId, 'the renewed session', 15_000);
    await waitForState(el, 'logged-in');
    // The next renewal is 10 s away: 3 s on, still the same session.
    await new Promise((r) => setTimeout(r, 3000));
    expect(el.session?.sessionId, 'renewed again within 3 s').to.equal(renewed);
    el.remove();
    await walletFor(v.apiBase).logout(v.accountId);
  });

  it('a renewal still under way when the session\'s time is up runs to its end: renewed, the new session is shown, its key kept and signing; nothing is logged out', async function () {
    this.timeout(60_000);
    // Sessions of 15 s, renewed 7 s ahead: the renewal starts 8 s in, and its answer (the new
    // session, made upstream; the old one ended there) is held until the old one's time is up here.
    const { v, el } = await onVariant({ sessionLifetimeMs: 15_000 }, { 'refresh-before': '7' });
    const ended: string[] = [];
    el.addEventListener('wallet-logged-out', (e) => ended.push((e as CustomEvent<LoggedOutDetail>).detail.reason));
    const held = holdAnswer('POST', /\/auth\/sessions\/[^/]+\/refresh$/, (r) => r.status === 201);
    try {
      const first = await loginWithEmail(el);
      await held.arrived;
      expect(inState(el, 'refreshing'), 'renewing').to.equal(true);
      const endsAt = el.session!.endsAt;
      await waitFor(() => Date.now() > endsAt + 500, 'the old session\'s end');
      await new Promise((r) => setTimeout(r, 100));
      held.release();
      await waitFor(() => el.session?.sessionId !== first.sessionId || inState(el, 'choosing'), 'the end of the renewal');
      await waitForState(el, 'logged-in');
      expect(ended, 'wallet-logged-out').to.deep.equal([]);
      const renewed = el.session!.sessionId;
      expect(renewed).to.not.equal(first.sessionId);
      const stored = await store.get(v.accountId);
      expect(stored?.session.sessionId).to.equal(renewed);
      expect(stored?.key).not.to.equal(undefined);
      const account = await clientFor(v.apiBase).setWalletPrivacy(v.accountId, true, { stamper: await walletFor(v.apiBase).stamper(v.accountId) });
      expect(account.privateEnabled).to.equal(true);
    } finally {
      held.undo();
    }
    el.remove();
    await walletFor(v.apiBase).logout(v.accountId);
  });

  it('a renewal still under way when the session\'s time is up, refused as it arrives late, logs out as expired', async function () {
    this.timeout(60_000);
    // As above, but the renewal is held before it leaves: it reaches the service after the session's end.
    const { v, el } = await onVariant({ sessionLifetimeMs: 15_000 }, { 'refresh-before': '7' });
    const held = holdNext('POST', /\/auth\/sessions\/[^/]+\/refresh$/);
    try {
      await loginWithEmail(el);
      await held.arrived;
      const endsAt = el.session!.endsAt;
      await waitFor(() => Date.now() > endsAt + 1000, 'the session\'s end');
      expect(inState(el, 'refreshing'), 'still renewing').to.equal(true);
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
      held.release();
      expect((await loggedOut).detail.reason).to.equal('expired');
      await waitForState(el, 'reauth');
      expect(await store.list(), 'its key deleted').to.deep.equal([]);
    } finally {
      held.undo();
    }
  });

  it('a session longer than a timer waits (a minute, then it looks at the clock again) is neither renewed nor ended when that wait is over', async () => {
    // Sessions of 60 days: renewal and end are both far further away than a timer waits (a minute
    // at most; one set for more than 2^31-1 ms, 24.8 days, would fire at once). Those waits are
    // over long before either is due: here they are made to be over at once, six times.
    const v = await sandboxVariant({ sessionLifetimeMs: 60 * 86_400_000 });
    const original = window.setTimeout;
    let capped = 0;
    window.setTimeout = ((fn: TimerHandler, ms?: number, ...rest: unknown[]) => original(fn, ms === 60_000 && capped++ < 6 ? 50 : ms, ...rest)) as typeof window.setTimeout;
    const sent: string[] = [];
    const fetch = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => (sent.push(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`), fetch(input, init));
    const ended: string[] = [];
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase }, (e) => {
        e.addEventListener('wallet-logged-out', (ev) => ended.push((ev as CustomEvent<LoggedOutDetail>).detail.reason));
      });
      const first = await loginWithEmail(el);
      await waitFor(() => capped >= 6, 'the waits of a minute over, six times');
      await new Promise((r) => original(r, 1000));
      expect(sent.filter((s) => s.includes('/refresh')), 'renewals').to.deep.equal([]);
      expect(ended, 'sessions ended').to.deep.equal([]);
      expect(inState(el, 'logged-in'), `on ${text(el, 'heading')}`).to.equal(true);
      expect(el.session?.sessionId).to.equal(first.sessionId);
      el.remove();
    } finally {
      window.setTimeout = original;
      window.fetch = fetch;
    }
    await walletFor(v.apiBase).logout(v.accountId);
  });

  it('reports a key the storage lost and offers the way back in', async () => {
    let el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const first = await loginWithEmail(el);
    el.remove();
    // What storage eviction looks like: the key record gone, the session record left.
    await del(`key:${first.sessionId}`, createStore(dbName, 'sessions'));
    await advanceClock(31_000); // the sandbox sends one code per 30 s
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'reauth');
    expect(text(el, 'intro')).to.contain('no longer holds your session key');
    await loginWithEmail(el);
  });

  it('logs in with an SMS code once the wallet has an SMS credential', async () => {
    const wallet = walletFor();
    const login = await wallet.startOtpLogin({ credentialId: acct.emailCredentialId });
    await login.submit('000000');
    const sms = await wallet.addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    expect(sms.type).to.equal('SMS_OTP');
    await wallet.logout(acct.accountId);

    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'sms-otp email-otp' });
    await waitForState(el, 'choosing');
    expect(parts(el, 'method-button').map((b) => b.dataset['method'])).to.deep.equal(['sms-otp', 'email-otp']);
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    methodButton(el, 'sms-otp').click();
    await waitForState(el, 'code-entry');
    expect(text(el, 'heading')).to.equal('Check your phone');
    type(codeInput(el), '000000');
    expect((await loggedIn).detail.credentialType).to.equal('SMS_OTP');
  });

  it('says so when the wallet has no credential of the chosen kind', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'sms-otp' });
    await waitForState(el, 'choosing');
    expect(await errorOfChoice(el, 'sms-otp')).to.equal('no_credential');
    expect(text(el, 'error')).to.contain('no login of that kind');
    expect(methodButton(el, 'sms-otp').disabled).to.equal(false);
  });

  it('an api-base where no proxy is mounted (the page’s own 404) says the page is not set up, and warns the console once, naming it', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'api-base': '/not-the-proxy' });
      await waitForState(el, 'choosing');
      expect(await errorOfChoice(el, 'email-otp')).to.equal('misconfigured');
      expect(text(el, 'error')).to.equal('This page is not set up to reach the wallet service. Contact the site’s support.');
      expect(await errorOfChoice(el, 'email-otp')).to.equal('misconfigured');
      expect(warnings.filter((w) => !w.includes('Lit is in dev mode'))).to.have.length(1);
      expect(warnings.find((w) => w.includes('/not-the-proxy'))).to.match(/proxy is not at \/not-the-proxy \(apiBase\): .* 404 /);
    } finally {
      console.warn = warn;
    }
  });

  it('logs in with OAuth: the token comes from the page’s provider, bound to the key by its nonce', async () => {
    const sub = `user-${crypto.randomUUID()}`;
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub, email: 'oauth@example.com' }) });
    await wallet.logout(acct.accountId);

    const nonces: string[] = [];
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' }, (e) => {
      (e as WalletLogin).oidcTokenProvider = async (nonce) => {
        nonces.push(nonce);
        return oidcToken({ sub, nonce });
      };
    });
    await waitForState(el, 'choosing');
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    methodButton(el, 'oauth').click();
    expect((await loggedIn).detail.credentialType).to.equal('OAUTH');
    expect(nonces).to.have.length(1);
    expect(nonces[0]).to.match(/^[0-9a-f]{64}$/);
    expect((await store.get(acct.accountId))?.key?.privateKey.extractable).to.equal(false);
  });

  it('OAuth without a token provider, or with a token for another identity, shows its sentence', async () => {
    const sub = await withOAuthCredential(acct);

    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' });
    await waitForState(el, 'choosing');
    expect(await errorOfChoice(el, 'oauth')).to.equal('oauth_unavailable');
    expect(text(el, 'error')).to.contain('identity provider is not available');

    el.oidcTokenProvider = (nonce) => oidcToken({ sub: 'someone-else', nonce });
    expect(await errorOfChoice(el, 'oauth')).to.equal('oauth_rejected');
    expect(text(el, 'error')).to.contain('was not accepted');
  });

  it('OAuth: the user closing the provider\'s sign-in window (AbortError) returns to the methods with no error', async () => {
    await withOAuthCredential(acct);
    let asked = 0;
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth email-otp' }, (e) => {
      (e as WalletLogin).oidcTokenProvider = () => {
        asked++;
        return Promise.reject(new DOMException('The sign-in window was closed.', 'AbortError'));
      };
    });
    await waitForState(el, 'choosing');
    let errors = 0;
    el.addEventListener('wallet-login-error', () => errors++);
    methodButton(el, 'oauth').click();
    await waitFor(() => asked === 1, 'the provider asked for a token');
    await waitForState(el, 'choosing');
    await new Promise((r) => setTimeout(r, 200));
    expect(errors).to.equal(0);
    expect(text(el, 'error')).to.equal('');
    // Any other failure of the provider is still the page's, and says so.
    el.oidcTokenProvider = () => Promise.reject(new Error('identity provider down'));
    expect(await errorOfChoice(el, 'oauth')).to.not.equal('cancelled');
    expect(text(el, 'error')).to.not.equal('');
  });

  it('OAuth: Cancel while the identity provider is still open returns to the methods at once, with no error', async () => {
    // The provider's sign-in window stays open: its promise settles only when the user finishes there.
    const { el, given, finish } = await ssoLeftOpen(acct);
    let errors = 0;
    el.addEventListener('wallet-login-error', () => errors++);
    let logins = 0;
    el.addEventListener('wallet-logged-in', () => logins++);
    methodButton(el, 'oauth').click();
    await waitForState(el, 'authenticating');
    // The identity provider is asked once core's key for the session is made (the wallet's
    // identities are read meanwhile): Cancel comes while its window is open, not before.
    await waitFor(given, 'the provider asked for a token');
    (parts(el, 'button').find((b) => b.textContent?.includes('Cancel')) as HTMLButtonElement).click();
    await waitForState(el, 'choosing', 10000);
    expect(inState(el, 'busy')).to.equal(false);
    expect(errors).to.equal(0);
    expect(text(el, 'error')).to.equal('');
    // The provider was told, so that it can close its window.
    expect(given()?.aborted).to.equal(true);
    // The user finishes in the provider's window after all: the cancelled login does not come back.
    finish();
    await new Promise((r) => setTimeout(r, 500));
    expect(logins).to.equal(0);
    expect(inState(el, 'choosing')).to.equal(true);
    expect(await store.get(acct.accountId)).to.equal(undefined);
  });

  it('logs in with a passkey through the virtual authenticator', async () => {
    await passkeyRegistered(acct);
    // Nobody has touched the authenticator yet: the autofill request waits, as for a user who has
    // not picked the saved passkey (with presence simulated it would log in at once, next test).
    await setAutomaticPresence(false);

    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' });
    await waitForState(el, 'choosing');
    // This Chromium supports WebAuthn autofill: the saved-passkey field is offered from inside the
    // shadow root, and its conditional request is pending while the user picks the button instead.
    const autofill = await waitFor(() => part(el, 'autofill')?.querySelector('input'), 'the autofill field');
    expect(autofill.getAttribute('autocomplete')).to.equal('username webauthn');
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    await setAutomaticPresence(true);
    methodButton(el, 'passkey').click();
    expect((await loggedIn).detail.credentialType).to.equal('PASSKEY');
    expect((await store.get(acct.accountId))?.key?.privateKey.extractable).to.equal(false);
  });

  it('a wallet with several passkeys logs in with the one this device holds, an older one too', async () => {
    const older = await olderPasskeyOnly(acct);
    const el = await passkeyOrEmail(acct);
    let errors = 0;
    el.addEventListener('wallet-login-error', () => errors++);
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    methodButton(el, 'passkey').click();
    await el.updateComplete;
    // The login ends one way or the other (the prompt finding no passkey here, too, ends it).
    await waitFor(() => !inState(el, 'authenticating'), 'the end of the passkey login');
    expect(inState(el, 'logged-in'), `on ${el.shadowRoot!.textContent}`).to.equal(true);
    expect((await loggedIn).detail.credentialType).to.equal('PASSKEY');
    expect((await store.get(acct.accountId))?.session.credentialId).to.equal(older.id);
    expect(errors).to.equal(0);
  });

  it('a saved passkey picked from autofill logs in when it is an older one of the wallet', async () => {
    const older = await olderPasskeyOnly(acct);
    // The virtual authenticator answers the conditional request at once with the passkey it holds.
    let loggedIn: Promise<CustomEvent<LoggedInDetail>> | undefined;
    let error: Promise<CustomEvent> | undefined;
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp passkey' }, (e) => {
      loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(e, 'wallet-logged-in');
      error = nextEvent<CustomEvent>(e, 'wallet-login-error');
    });
    const first = await Promise.race([loggedIn!, error!]);
    expect(first.type, `${JSON.stringify(first.detail)} on ${text(el, 'error')}`).to.equal('wallet-logged-in');
    expect((first as CustomEvent<LoggedInDetail>).detail.credentialType).to.equal('PASSKEY');
    await waitForState(el, 'logged-in');
    expect((await store.get(acct.accountId))?.session.credentialId).to.equal(older.id);
  });

  it('a device holding an older passkey of the wallet is asked once from its second login on, and twice again when that passkey went', async () => {
    const older = await olderPasskeyOnly(acct);
    const prompts = countPrompts();
    const login = () =>
      promptsToLogIn(prompts, acct, store, older.id, async () => {
        // Without autofill: the element asks for no passkey before the button is pressed.
        const el = await passkeyOrEmail(acct);
        methodButton(el, 'passkey').click();
        await el.updateComplete;
        await waitFor(() => !inState(el, 'authenticating'), 'the end of the passkey login');
        expect(inState(el, 'logged-in'), `on ${el.shadowRoot!.textContent}`).to.equal(true);
        return el;
      });
    try {
      // The first login offers every passkey over the newest's challenge, then asks again for the older.
      expect(await login(), 'the first login').to.equal(2);
      expect(await login(), 'the second login').to.equal(1);
      expect(await login(), 'the third login').to.equal(1);

      // The passkey it logged in with moves to another device, a newer one of the wallet comes here:
      // the remembered one is asked for first, and the one here answers on the second prompt.
      const [here] = (await authenticatorCredentials()).credentials;
      await takeAuthenticatorCredential(here!.credentialId);
      const wallet = walletFor();
      await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
      await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
      const newest = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'New laptop' });
      await wallet.logout(acct.accountId);
      const el = await passkeyOrEmail(acct);
      const before = prompts.count;
      methodButton(el, 'passkey').click();
      await waitForState(el, 'logged-in');
      expect((await store.get(acct.accountId))?.session.credentialId).to.equal(newest.id);
      expect(prompts.count - before, 'with the remembered passkey gone').to.equal(2);
    } finally {
      prompts.restore();
    }
  });

  it('a device holding an older passkey of the wallet logs in from autofill with one prompt from its second login on', async () => {
    const older = await olderPasskeyOnly(acct);
    const prompts = countPrompts();
    const login = () =>
      promptsToLogIn(prompts, acct, store, older.id, async () => {
        // The virtual authenticator answers the conditional request at once with the passkey it holds.
        let loggedIn: Promise<CustomEvent<LoggedInDetail>> | undefined;
        const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp passkey' }, (e) => {
          loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(e, 'wallet-logged-in');
        });
        expect((await loggedIn!).detail.credentialType).to.equal('PASSKEY');
        return el;
      });
    try {
      expect(await login(), 'the first login').to.equal(2);
      expect(await login(), 'the second login').to.equal(1);
    } finally {
      prompts.restore();
    }
  });

  it('on a page without WebAuthn leaves passkeys out beside other ways, and alone says they cannot be used here', async () => {
    await passkeyRegistered(acct);
    // A page over plain http (not localhost) has neither (both are for secure contexts only).
    const saved = Object.getOwnPropertyDescriptor(window, 'PublicKeyCredential')!;
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
    Object.defineProperty(navigator, 'credentials', { value: undefined, configurable: true });
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' });
      await waitForState(el, 'choosing');
      expect(parts(el, 'method-button').map((b) => b.dataset['method'])).to.deep.equal(['email-otp']);

      const alone = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey' });
      await waitForState(alone, 'choosing');
      const error = nextEvent<CustomEvent>(alone, 'wallet-login-error');
      methodButton(alone, 'passkey').click();
      expect((await error).detail.code).to.equal('passkey_unsupported');
      await waitForState(alone, 'choosing');
      expect(text(alone, 'error')).to.contain('cannot use passkeys here');
    } finally {
      delete (navigator as { credentials?: unknown }).credentials;
      Object.defineProperty(window, 'PublicKeyCredential', saved);
    }
  });

  it('a device clock 10 minutes ahead of the service keeps the session live, renews it and logs out upstream', async () => {
    // Sessions, renewals and signed retries are timed on the service's clock (core/clock.ts): on the
    // device's, the session would be dead on arrival and every signed retry's window closed.
    const { v, el } = await onVariant({ clockOffsetMs: -10 * 60_000 });
    const first = await loginWithEmail(el);
    // 15 minutes on the service's clock: 5 minutes from now on the device's.
    expect(Date.parse(first.expiresAt)).to.be.below(Date.now() + 6 * 60_000);
    const wallet = walletFor(v.apiBase);
    expect((await wallet.current(v.accountId))?.sessionId).to.equal(first.sessionId);
    await waitForState(el, 'logged-in');

    el.refresh();
    const sessionId = await waitFor(() => el.session?.sessionId !== first.sessionId && el.session?.sessionId, 'the renewed session');
    expect((await wallet.current(v.accountId))?.sessionId).to.equal(sessionId);
    await waitForState(el, 'logged-in');

    const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
    (parts(el, 'button').find((b) => b.textContent?.includes('Log out')) as HTMLButtonElement).click();
    expect((await loggedOut).detail.reason).to.equal('logout');
    expect(text(el, 'status')).to.not.contain('could not be told');
    expect((await clientFor(v.apiBase).listSessions(v.accountId)).map((s) => s.id)).to.not.include(sessionId);
  });

  it('a device clock 20 minutes ahead, behind a proxy that hides Date: logged in for the session\'s lifetime, also after a reload, renewed on time', async () => {
    // Every session's expiresAt is 5 minutes before this device's now, and the page cannot read the
    // service's clock: the session is timed by its lifetime (createdAt to expiresAt) from its arrival.
    const v = await sandboxVariant({ clockOffsetMs: -20 * 60_000, pageOrigin: location.origin, hideDate: true });
    // The page's script names the proxy on the other origin (an api-base alone is not followed there).
    configureWallet({ apiBase: v.apiBase });
    observeServiceDate(new Date().toUTCString()); // this page has read no Date of that service
    let ended = 0;
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase, 'refresh-before': String(14 * 60 + 57) });
    el.addEventListener('wallet-logged-out', () => ended++);
    const before = Date.now();
    const first = await loginWithEmail(el);
    expect(Date.parse(first.expiresAt)).to.be.below(Date.now());
    await waitForState(el, 'logged-in');
    const clock = (ms: number) => new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(ms + 15 * 60_000);
    expect([clock(before), clock(Date.now())], 'its end, on this device\'s clock').to.include(text(el, 'session').match(/\d+:\d\d\s?[AP]M/)?.[0]);
    // Renewed 3 seconds after the login (refresh-before: 14 min 57 s of its 15), not ended at once.
    const renewed = await waitFor(() => el.session?.sessionId !== first.sessionId && el.session?.sessionId, 'the renewed session', 10_000);
    await waitForState(el, 'logged-in');
    expect(ended).to.equal(0);
    el.remove();
    // A reload: the stored session is still live.
    const again = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase });
    await waitForState(again, 'logged-in');
    expect(again.session?.sessionId).to.equal(renewed);
  });

  it('a browser whose storage refuses the key store is told so before any code is sent, not about passkeys', async () => {
    // A real IndexedDB refusal (see refusingKeyStoreDb).
    const broken = indexedDbKeyStore({ dbName: await refusingKeyStoreDb() });
    const refusal = await broken.get(acct.accountId).then(() => undefined, (e: unknown) => e);
    expect(refusal).to.be.instanceOf(WalletError);
    expect((refusal as WalletError).code).to.equal('storage_unavailable');
    const f = await fixtures();
    configureWallet({ apiBase: f.apiBase, environment: 'sandbox', store: broken });
    try {
      let error: Promise<CustomEvent> | undefined;
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp' }, (e) => {
        error = nextEvent<CustomEvent>(e, 'wallet-login-error');
      });
      expect((await error!).detail.code).to.equal('storage_unavailable');
      await waitForState(el, 'choosing');
      expect(text(el, 'error')).to.contain('can’t keep you logged in here');
    } finally {
      configureWallet({ store });
    }
  });

  it('moved in the page while it checks the stored session, it still comes back logged in', async () => {
    const first = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const { sessionId } = await loginWithEmail(first);
    first.remove();
    // A framework moves the element (disconnected, connected again) while its start-up check of
    // the stored session is on the wire; the check of the first connection must not end the second.
    const hold = holdNext('GET', /\/auth\/sessions\?/);
    const box = document.body.appendChild(document.createElement('div'));
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      await hold.arrived;
      box.append(el);
      hold.release();
      await waitForState(el, 'logged-in');
      expect(el.session?.sessionId).to.equal(sessionId);
    } finally {
      hold.undo();
      box.remove();
    }
  });

  it('a credential list that fails reports once, and autofill does not retry it in a loop', async () => {
    needsWebAuthn();
    // The proxy refuses the account (a stale id) or the service is down: the autofill's credential
    // list fails. One request, one error event; the passkey button still works.
    let errors = 0;
    const undo = failNext('GET', /\/auth\/credentials\?/, 503, 100);
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' }, (e) => {
        e.addEventListener('wallet-login-error', () => errors++);
      });
      await waitFor(() => errors > 0, 'the first error event');
      // A second later (the loop made hundreds of requests a second): still the one failure.
      await new Promise((r) => setTimeout(r, 1000));
      expect(errors).to.equal(1);
      expect(inState(el, 'choosing')).to.equal(true);
      expect(methodButton(el, 'passkey').disabled).to.equal(false);
    } finally {
      undo();
    }
  });

  it('a saved passkey picked from autofill logs in without a click', async () => {
    await passkeyRegistered(acct);

    // The virtual authenticator answers the conditional request at once, as a user picking the
    // suggestion would: the element goes from the login screen to logged in on its own. The
    // assertion's check is held on the wire while the keyboard is in the saved-passkey field.
    const held = holdNext('POST', /\/auth\/credentials\/[^/]+\/verify$/);
    try {
      let loggedIn: Promise<CustomEvent<LoggedInDetail>> | undefined;
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp passkey' }, (e) => {
        loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(e, 'wallet-logged-in');
      });
      await held.arrived;
      const field = await waitFor(() => part(el, 'autofill')?.querySelector('input'), 'the autofill field');
      field.focus();
      held.release();
      const { detail } = await loggedIn!;
      expect(detail.credentialType).to.equal('PASSKEY');
      // This element's own login (core tells the page's listeners first), and the keyboard stays in it.
      expect(detail.source).to.equal('login');
      await waitForState(el, 'logged-in');
      await el.updateComplete;
      expect(el.matches(':focus-within'), `focus on ${document.activeElement?.tagName}`).to.equal(true);
      expect((await store.get(acct.accountId))?.session.credentialType).to.equal('PASSKEY');
    } finally {
      held.undo();
    }
  });

  it('logout() on the methods screen while a passkey picked from autofill is being checked stops that login: no session', async () => {
    await passkeyRegistered(acct);

    // The authenticator answers the conditional request at once (the user picked the passkey);
    // the check's answer (the session, made upstream) is on its way when the page logs out.
    const held = holdAnswer('POST', /\/auth\/credentials\/[^/]+\/verify$/, (r) => r.status === 200);
    let logins = 0;
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp passkey' }, (e) => {
        e.addEventListener('wallet-logged-in', () => logins++);
      });
      await held.arrived;
      expect(inState(el, 'choosing')).to.equal(true);
      // Autofill offered again afterwards waits for a pick that does not come.
      await setAutomaticPresence(false);
      el.logout();
      held.release();
      await held.read;
      await new Promise((r) => setTimeout(r, 500));
      expect(inState(el, 'choosing'), `on ${text(el, 'heading')}`).to.equal(true);
      // Offered again once its new request is on its way (a few steps, late on a busy machine).
      await waitFor(() => part(el, 'autofill'), 'autofill offered again', 10000);
      expect(inState(el, 'choosing'), `on ${text(el, 'heading')}`).to.equal(true);
    } finally {
      held.undo();
    }
    expect(logins).to.equal(0);
    expect(await store.get(acct.accountId)).to.equal(undefined);
    // The session the service made for it is ended upstream once its answer is in.
    const upstream = () => clientFor().listSessions(acct.accountId);
    for (let tries = 0; tries < 50 && (await upstream()).length; tries++) await new Promise((r) => setTimeout(r, 100));
    expect((await upstream()).map((s) => s.id), 'no session of the account left upstream').to.deep.equal([]);
  });

  it('a cancelled passkey prompt returns to a usable screen without an error', async () => {
    // A wallet with a passkey, and no authenticator to answer: the prompt waits until cancelled.
    await passkeyRegistered(acct);
    await removeVirtualAuthenticator();
    await advanceClock(31_000); // the sandbox sends one code per 30 s

    const el = await passkeyOrEmail(acct);
    let errors = 0;
    el.addEventListener('wallet-login-error', () => errors++);
    methodButton(el, 'passkey').click();
    await waitForState(el, 'authenticating');
    await new Promise((r) => setTimeout(r, 300));
    const cancel = parts(el, 'button').find((b) => b.textContent?.includes('Cancel')) as HTMLButtonElement;
    cancel.click();
    await waitForState(el, 'choosing');
    expect(errors).to.equal(0);
    expect(methodButton(el, 'email-otp').disabled).to.equal(false);
    // And the other method still works after the cancelled ceremony.
    await loginWithEmail(el);
  });

  it('a session found ended by two refused calls at once: wallet-logged-out fires once, and other tabs hear of it once', async () => {
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'logged-in');
    const otherTab = new BroadcastChannel(SESSION_CHANNEL_NAME);
    const heard: unknown[] = [];
    otherTab.onmessage = (m) => heard.push(m.data);
    const loggedOut: string[] = [];
    el.addEventListener('wallet-logged-out', (e) => loggedOut.push((e as CustomEvent<LoggedOutDetail>).detail.reason));
    try {
      const found = (await store.get(acct.accountId))!;
      await clientFor().revokeSession(found.session.sessionId, { stamper: keyStamper(found.key!) });
      const stamper = await walletFor().stamper(acct.accountId);
      await Promise.all([true, false].map((on) => clientFor().setWalletPrivacy(acct.accountId, on, { stamper }).catch(() => undefined)));
      await waitForState(el, 'choosing');
      // Told to the other tabs (a message, late on a busy machine), then nothing more: once each.
      await waitFor(() => heard.length && loggedOut.length, 'the end told here and to the other tabs', 10000);
      await new Promise((r) => setTimeout(r, 500));
      expect({ loggedOut, heard }).to.deep.equal({ loggedOut: ['revoked'], heard: [{ type: 'ended', accountId: acct.accountId, revoked: true }] });
    } finally {
      otherTab.close();
    }
  });

  it('a session another tab found revoked (a call it signed refused) ends here as revoked', async () => {
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'logged-in');
    // What the other tab did: the service refused the session, its record went from the shared key store, and it said so.
    const found = (await store.get(acct.accountId))!;
    await clientFor().revokeSession(found.session.sessionId, { stamper: keyStamper(found.key!) });
    await store.delete(found.session.sessionId);
    const otherTab = new BroadcastChannel(SESSION_CHANNEL_NAME);
    try {
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
      otherTab.postMessage({ type: 'ended', accountId: acct.accountId, revoked: true });
      expect((await loggedOut).detail.reason).to.equal('revoked');
      await waitForState(el, 'reauth');
      expect(text(el, 'intro')).to.contain('ended from another device');
    } finally {
      otherTab.close();
    }
  });

  it('learns of a login and a logout in another tab (BroadcastChannel)', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    // Another tab: its own channel object, the same origin's key store.
    const otherTab = new BroadcastChannel(SESSION_CHANNEL_NAME);
    const otherWallet = createWallet({ client: createClient({ baseUrl: '/api' }), store, otpSigner: (await fixtures()).signerPublicKey });
    try {
      const session = await (await otherWallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
      const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
      otherTab.postMessage({ type: 'logged-in', accountId: acct.accountId, sessionId: session.sessionId });
      const { detail } = await loggedIn;
      expect(detail.source).to.equal('elsewhere');
      expect(detail.sessionId).to.equal(session.sessionId);

      // The keyboard is on "Log out" here when the other tab logs out: it stays in the element.
      await el.updateComplete;
      shadow(el).querySelector<HTMLButtonElement>('button')!.focus();
      const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
      // As the other tab's logout does: its records go, then the channel says so.
      await otherWallet.logout(acct.accountId);
      otherTab.postMessage({ type: 'logged-out', accountId: acct.accountId });
      expect((await loggedOut).detail.reason).to.equal('elsewhere');
      await waitForState(el, 'choosing');
      await el.updateComplete;
      expect(el.matches(':focus-within'), `focus on ${document.activeElement?.tagName}`).to.equal(true);
    } finally {
      otherTab.close();
    }
  });

  it('a login in another tab while a code is being sent stops that step: no code is kept to come back to', async () => {
    // The other tab logs in with single sign-on; this one has just asked for an email code.
    const otherTab = await anotherTabWithSso(acct, store);
    let el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    const hold = holdNext('POST', /\/challenge$/);
    try {
      methodButton(el, 'email-otp').click();
      await hold.arrived;
      await otherTab.logIn();
      await waitForState(el, 'logged-in');
      hold.release();
      await waitFor(() => !inState(el, 'busy'), 'the code step stopped');
      await new Promise((r) => setTimeout(r, 300));
      expect(otherTab.kept(), 'no code kept for a later visit').to.have.length(0);
    } finally {
      hold.undo();
      otherTab.close();
    }
    // Logged out, then the page reloaded: the methods, not a code screen nobody is waiting on.
    el.logout();
    await waitForState(el, 'choosing');
    el.remove();
    el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
  });

  it('a login in another tab while the code’s target is being checked: no code is kept to come back to', async () => {
    const otherTab = await anotherTabWithSso(acct, store);
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    // The code was sent (the service answered) and its target bundle's signature is being
    // checked (core's ECDSA verify, held here until the other tab's login has landed).
    const subtle = crypto.subtle as SubtleCrypto & { verify: SubtleCrypto['verify'] };
    const verify = subtle.verify;
    let arrive!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    const released = new Promise<void>((r) => (release = r));
    subtle.verify = async function (this: SubtleCrypto, ...args: Parameters<SubtleCrypto['verify']>) {
      delete (subtle as { verify?: unknown }).verify;
      arrive();
      await released;
      return verify.apply(this, args);
    };
    try {
      methodButton(el, 'email-otp').click();
      await arrived;
      await otherTab.logIn();
      await waitForState(el, 'logged-in');
      release();
      await waitFor(() => !inState(el, 'busy'), 'the code step ended');
      expect(otherTab.kept(), 'no code kept for a later visit').to.have.length(0);
    } finally {
      delete (subtle as { verify?: unknown }).verify;
      release();
      otherTab.close();
    }
  });

  it('offers the methods of the attribute in its order and is axe-clean on each screen', async () => {
    needsWebAuthn();
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth email-otp bogus passkey' });
    await waitForState(el, 'choosing');
    expect(parts(el, 'method-button').map((b) => b.dataset['method'])).to.deep.equal(['oauth', 'email-otp', 'passkey']);
    expect(await axeViolations(el)).to.deep.equal([]);
    methodButton(el, 'email-otp').click();
    await waitForState(el, 'code-entry');
    expect(await axeViolations(el)).to.deep.equal([]);
    type(codeInput(el), '000000');
    await waitForState(el, 'logged-in');
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('speaks Arabic right to left and stays axe-clean', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, lang: 'ar' });
    await waitForState(el, 'choosing');
    expect(part(el, 'base')!.getAttribute('dir')).to.equal('rtl');
    expect(text(el, 'heading')).to.equal('سجّل الدخول إلى محفظتك');
    expect(getComputedStyle(part(el, 'base')!).direction).to.equal('rtl');
    expect(await axeViolations(el)).to.deep.equal([]);
    // A page's language switch after the element drew: on the element, then on an ancestor.
    el.setAttribute('lang', 'en');
    await waitFor(() => text(el, 'heading') === 'Log in to your wallet', 'English after lang="en"');
    expect([part(el, 'base')!.getAttribute('dir'), part(el, 'base')!.getAttribute('lang')]).to.deep.equal(['ltr', 'en']);
    el.removeAttribute('lang');
    el.parentElement!.setAttribute('lang', 'ar');
    try {
      await waitFor(() => text(el, 'heading') === 'سجّل الدخول إلى محفظتك', 'Arabic after the container says lang="ar"');
      expect(part(el, 'base')!.getAttribute('dir')).to.equal('rtl');
    } finally {
      el.parentElement!.removeAttribute('lang');
    }
  });

  it('writes every number of a screen in the digits of the page\'s Arabic (ar-SA: ٠١٢…), the counts of its sentences as its times', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId, lang: 'ar-SA' });
    // The code's length and the seconds before a new code, as Intl writes numbers in ar-SA.
    expect(text(el, 'intro')).to.contain('من ٦ أرقام');
    const resend = parts(el, 'button').find((b) => /رمزًا جديدًا/.test(b.textContent ?? ''))!;
    expect(resend.textContent!.trim()).to.match(/^أرسل رمزًا جديدًا بعد [١-٣]?[٠-٩] ث$/);
    type(codeInput(el), '000000');
    await waitForState(el, 'logged-in');
    // The session's end, which Intl.DateTimeFormat writes: no Latin digit on either screen.
    expect(text(el, 'session')).to.match(/[٠-٩]:[٠-٩]{2}/);
    expect(text(el, 'base')).not.to.match(/[0-9]/);
  });

  it('reads a page\'s lang written as a server locale (ar_SA, en_US, with "_") as that language: Arabic right to left, and the session\'s end drawn', async () => {
    const arabic = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, lang: 'ar_SA' });
    await waitForState(arabic, 'choosing');
    expect(text(arabic, 'heading')).to.equal('سجّل الدخول إلى محفظتك');
    expect([part(arabic, 'base')!.getAttribute('lang'), getComputedStyle(part(arabic, 'base')!).direction]).to.deep.equal(['ar-sa', 'rtl']);
    arabic.remove();

    const el = await codeScreen({ 'account-id': acct.accountId, lang: 'en_US' });
    expect(text(el, 'intro')).to.contain('6-digit code');
    type(codeInput(el), '000000');
    await waitForState(el, 'logged-in');
    await el.updateComplete;
    // Intl takes no "_": the time the session lasts until is written by Intl in that language.
    expect(text(el, 'session')).to.match(/^Logged in with Email code\. Your session lasts until \d{1,2}:\d{2}\s?[AP]M\.$/);
    expect(part(el, 'base')!.getAttribute('lang')).to.equal('en-us');
  });

  it('a lang that is no language tag ("en-", "123", "en--US", " ", "ar-") never stops it: its text in the language it names where it can, marked with a valid tag, the session\'s end drawn', async () => {
    for (const [lang, shown] of [['en-', 'en'], ['123', 'en'], ['en--US', 'en'], [' ', 'en'], ['ar-', 'ar']] as const) {
      // An account each: the service sends one a code at most every 30 seconds.
      const el = await codeScreen({ 'account-id': (await newAccount()).accountId, lang });
      type(codeInput(el), '000000');
      await waitForState(el, 'logged-in');
      await el.updateComplete;
      // Intl throws a RangeError on such a tag: the time is written in the language of the text.
      expect(text(el, 'session'), lang).to.match(shown === 'en' ? /^Logged in with Email code\. Your session lasts until \d{1,2}:\d{2}\s?[AP]M\.$/ : /^سجّلت الدخول .* حتى \S/);
      expect([part(el, 'base')!.lang, part(el, 'base')!.dir], lang).to.deep.equal([shown, shown === 'ar' ? 'rtl' : 'ltr']);
      // Logged out on this device, for the next language's login.
      await resetPage();
    }
  });

  it('on a page whose language has no strings registered (lang="fr"), the time in its English sentence is written as English writes it', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId, lang: 'fr' });
    type(codeInput(el), '000000');
    await waitForState(el, 'logged-in');
    await el.updateComplete;
    // In French it would be "14:05" inside "Your session lasts until …".
    expect(text(el, 'session')).to.match(/^Logged in with Email code\. Your session lasts until \d{1,2}:\d{2}\s?[AP]M\.$/);
    expect(part(el, 'base')!.lang).to.equal('en');
  });

  it('in Arabic, the code\'s length is said with the noun its count takes, for every count (one, two, 3 to 10, 11 to 99, 100 and more)', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId, lang: 'ar' });
    const intro = async (length: number) => {
      el.codeLength = length;
      await el.updateComplete;
      return text(el, 'intro').replace(/ إلى البريد.*$/, '');
    };
    expect(await intro(1)).to.equal('أرسلنا رمزًا من رقم واحد');
    expect(await intro(2)).to.equal('أرسلنا رمزًا من رقمين');
    const n = (count: number) => count.toLocaleString('ar');
    expect(await intro(6)).to.equal(`أرسلنا رمزًا من ${n(6)} أرقام`);
    expect(await intro(11)).to.equal(`أرسلنا رمزًا من ${n(11)} رقمًا`);
    expect(await intro(100)).to.equal(`أرسلنا رمزًا من ${n(100)} رقم`);
  });

  it('is fully usable from the keyboard: Tab to a method, Enter, type the code', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp passkey', 'no-autofill': '' });
    await waitForState(el, 'choosing');
    for (const b of parts(el, 'method-button')) expect(b.tabIndex).to.equal(0);
    const before = document.createElement('button');
    before.textContent = 'before';
    document.body.prepend(before);
    try {
      before.focus();
      await sendKeys({ press: 'Tab' });
      expect(shadow(el).activeElement === methodButton(el, 'email-otp'), `focus on the email code button, not ${focusIn(el)}`).to.equal(true);
      expect(getComputedStyle(methodButton(el, 'email-otp')).outlineStyle).to.equal('solid', 'a visible focus ring');
      // While the code is sent, the pressed button is gone: the heading holds the focus, then the code field.
      const focused: string[] = [];
      shadow(el).addEventListener('focusin', (e) => focused.push((e.target as HTMLElement).id));
      await sendKeys({ press: 'Enter' });
      await waitForState(el, 'code-entry');
      expect(shadow(el).activeElement === codeInput(el), `focus on the code field, not ${focusIn(el)}`).to.equal(true);
      expect(focused).to.deep.equal(['heading', 'code']);
      const loggedIn = nextEvent(el, 'wallet-logged-in');
      await sendKeys({ type: '000000' });
      await loggedIn;
    } finally {
      before.remove();
    }
  });

  it('takes a forced dark theme and the documented custom properties', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, theme: 'dark' });
    await waitForState(el, 'choosing');
    expect(getComputedStyle(part(el, 'heading')!).color).to.equal('rgb(236, 238, 242)');
    el.style.setProperty('--wallet-color-accent', 'rgb(255, 180, 0)');
    el.style.setProperty('--wallet-login-max-width', '300px');
    await el.updateComplete;
    // (after the button's colour transition)
    await waitFor(() => getComputedStyle(parts(el, 'method-button')[0]!).backgroundColor === 'rgb(255, 180, 0)', 'the accent colour', 2000);
    expect(el.getBoundingClientRect().width).to.be.at.most(300);
    expect(await axeViolations(el)).to.deep.equal([]);
  });
});
