/**
 * <passkey-register> when this device's session of the wallet ends while it is shown, in Chromium
 * against the real sandbox through the real proxy: a logout from a <wallet-login> on the page or
 * from another tab takes the form away at once for the "log in first" sentence (the focus on the
 * form goes to it), as <delegated-keys> stops offering "New key"; a registration whose prompt is
 * open ends with "your session ended" instead of waiting on the prompt; a login brings the form
 * back. Put back on the page after the session ended while it was off, it says "log in first"
 * too, also when it was taken off before it looked the session up, or after it was switched to
 * another wallet or api-base. A look-up answered after a newer one was asked (another wallet) or a
 * logout heard counts for nothing. The end of a session by time is in shared/session-end.test.ts.
 */
import { expect } from 'chai';
import '../../../../src/elements/passkey-register/passkey-register.ts';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { PasskeyRegister } from '../../../../src/elements/passkey-register/passkey-register.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { walletConfig } from '../../../../src/elements/shared/config.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import { addVirtualAuthenticator, advanceClock, fixtures, newAccount, openOtherTab, type RigAccount } from '../../support/rig.ts';
import { focusIn, loginByEmail, mount, nextEvent, part, resetPage, shadow, text, type, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';

const LOG_IN_FIRST = 'Log in to your wallet first: adding a passkey to a wallet that already has a login needs your current session.';

describe('<passkey-register> when the session ends', function () {
  this.timeout(60000);
  let acct: RigAccount, dbName: string, store: KeyStore;
  beforeEach(async () => ({ acct, dbName, store } = await useRigAccount()));
  afterEach(resetPage);

  /** The form of the logged-in wallet, with what it reports from then on. */
  async function loggedInForm(): Promise<{ el: PasskeyRegister; errors: string[] }> {
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    const errors: string[] = [];
    el.addEventListener('passkey-register-error', (e) => errors.push(e.detail.code));
    return { el, errors };
  }

  /** "Log in first" instead of the form: no button that would fail, nothing reported as a failure. */
  async function saysLogInFirst(el: PasskeyRegister, errors: string[]): Promise<void> {
    await waitForState(el, 'login-required', 5000);
    expect(text(el, 'note')).to.equal(LOG_IN_FIRST);
    expect(part(el, 'submit'), 'the button to create a passkey').to.equal(null);
    expect(errors).to.deep.equal([]);
  }

  it('logged out by a <wallet-login> on the page while its button has the focus: "log in first" at once, the focus on it; a login brings the form back with the name typed', async () => {
    const { el, errors } = await loggedInForm();
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(login, 'logged-in');
    type(part(el, 'input') as HTMLInputElement, 'Typed before');
    (part(el, 'submit') as HTMLButtonElement).focus();

    const out = nextEvent(login, 'wallet-logged-out');
    login.logout();
    await out;
    await saysLogInFirst(el, errors);
    await waitFor(() => shadow(el).activeElement === part(el, 'note'), `focus on the sentence, not ${focusIn(el)} (page: ${document.activeElement?.tagName})`, 5000);

    // Past the 30 s between two codes of one credential.
    await advanceClock(31_000);
    await loginByEmail(acct);
    await waitForState(el, 'ready');
    await el.updateComplete;
    expect((part(el, 'input') as HTMLInputElement).value).to.equal('Typed before');
    expect((part(el, 'submit') as HTMLButtonElement).disabled).to.equal(false);
  });

  it('logged out in another tab: "log in first", without taking the focus from the page\'s field', async () => {
    const { el, errors } = await loggedInForm();
    const tab = await openOtherTab();
    const field = document.createElement('input');
    document.body.append(field);
    try {
      tab.configureWallet({ apiBase: (await fixtures()).apiBase, environment: 'sandbox', store: tab.core.indexedDbKeyStore({ dbName }) });
      field.focus();
      await tab.walletFor().logout(acct.accountId);
      await saysLogInFirst(el, errors);
      expect(document.activeElement === field, `focus on the page's field, not ${focusIn(el)}`).to.equal(true);
    } finally {
      field.remove();
      tab.close();
    }
  });

  it('taken off the page while the form shows and put back after a logout meanwhile (a tab panel kept aside): "log in first", the focus left where it is', async () => {
    const { el, errors } = await loggedInForm();
    // By the time a <wallet-login> on the page has found the session, the element has too.
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(login, 'logged-in');
    el.remove();
    const out = nextEvent(login, 'wallet-logged-out');
    login.logout();
    await out;
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    document.body.append(el);
    await saysLogInFirst(el, errors);
    expect(document.activeElement === field, `focus on the page's field, not ${focusIn(el)}`).to.equal(true);
    field.remove();
  });

  it('taken off the page once its passkey is added and put back after a logout meanwhile: "log in first", not the success', async () => {
    await addVirtualAuthenticator();
    const { el, errors } = await loggedInForm();
    (part(el, 'submit') as HTMLButtonElement).click();
    await waitForState(el, 'done', 20000);
    el.remove();
    await walletFor().logout(acct.accountId);
    document.body.append(el);
    await saysLogInFirst(el, errors);
  });

  /**
   * The element's look-up of the session (an idle period after it renders, with the flows' code) has
   * had its time, and the key store has answered a read asked for after it.
   */
  async function afterLookUp(): Promise<void> {
    for (let i = 0; i < 3; i++) await new Promise((r) => requestIdleCallback(r));
    await import('../../../../src/elements/passkey-register/passkey-register.flows.ts');
    await walletFor().current(acct.accountId);
  }

  /** A <passkey-register> of `accountId`, with what it reports. */
  async function mountReporting(accountId: string): Promise<{ el: PasskeyRegister; errors: string[] }> {
    const errors: string[] = [];
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': accountId }, (e) => e.addEventListener('passkey-register-error', (ev) => errors.push(ev.detail.code)));
    return { el, errors };
  }

  /** Taken off the page, the wallet logged out meanwhile, and put back. */
  async function putBackAfterLogout(el: PasskeyRegister): Promise<void> {
    el.remove();
    await afterLookUp();
    await walletFor().logout(acct.accountId);
    document.body.append(el);
  }

  it('taken off the page before it looked the session up, and put back after a logout meanwhile: "log in first"', async () => {
    await loginByEmail(acct);
    const { el, errors } = await mountReporting(acct.accountId);
    await putBackAfterLogout(el);
    await saysLogInFirst(el, errors);
  });

  for (const attribute of ['account-id', 'api-base'] as const) {
    it(`switched (${attribute}) to a wallet whose session lives, then taken off the page and put back after a logout meanwhile: "log in first"`, async () => {
      await loginByEmail(acct);
      // Shown first: another wallet, without a session here (account-id); the same one through another base (api-base).
      const { el, errors } = await mountReporting(attribute === 'account-id' ? (await newAccount()).accountId : acct.accountId);
      await waitForState(el, 'ready');
      await afterLookUp();
      // The same proxy, named by its whole address.
      el.setAttribute(attribute, attribute === 'account-id' ? acct.accountId : new URL(walletConfig().apiBase, location.href).href);
      await el.updateComplete;
      await afterLookUp();
      await putBackAfterLogout(el);
      await saysLogInFirst(el, errors);
    });
  }

  /**
   * The key store's next read of `accountId` (an element's look-up of its session) reads, then
   * answers at `release()`; `read` resolves once it has read. Call `undo` in a `finally`.
   */
  function holdRead(accountId: string): { read: Promise<void>; release: () => void; undo: () => void } {
    const get = store.get.bind(store);
    let release: (() => void) | undefined;
    let read!: () => void;
    const held = new Promise<void>((r) => (read = r));
    store.get = (id, except) => {
      if (id !== accountId) return get(id, except);
      store.get = get;
      return get(id, except).then((found) => new Promise((r) => ((release = () => r(found)), read())));
    };
    return { read: held, release: () => release?.(), undo: () => ((store.get = get), release?.()) };
  }

  /** A read of `accountId` asked for after the held one has answered: the element heard the held answer. */
  async function heard(el: PasskeyRegister, accountId: string): Promise<void> {
    await walletFor().current(accountId);
    await el.updateComplete;
  }

  it('switched to a wallet whose session lives while the previous wallet\'s look-up (no session) is on its way: the form stays, not "log in first"', async () => {
    await loginByEmail(acct);
    const other = await newAccount();
    const hold = holdRead(other.accountId);
    try {
      const { el, errors } = await mountReporting(other.accountId);
      await hold.read;
      el.setAttribute('account-id', acct.accountId);
      await el.updateComplete;
      await afterLookUp();
      hold.release();
      await heard(el, other.accountId);
      expect(el.matches(':state(ready)'), `the form offered, not ${['login-required', 'checking'].filter((s) => el.matches(`:state(${s})`))}`).to.equal(true);
      expect(part(el, 'submit'), 'the button to create a passkey').to.not.equal(null);
      expect(errors).to.deep.equal([]);
    } finally {
      hold.undo();
    }
  });

  it('logged out while its look-up (a live session) is on its way: "log in first" stays', async () => {
    await loginByEmail(acct);
    const hold = holdRead(acct.accountId);
    try {
      const { el, errors } = await mountReporting(acct.accountId);
      await hold.read;
      await walletFor().logout(acct.accountId);
      await saysLogInFirst(el, errors);
      hold.release();
      await heard(el, acct.accountId);
      await saysLogInFirst(el, errors);
    } finally {
      hold.undo();
    }
  });

  it('a registration whose prompt is open when a logout ends the session says the session ended at once, and adds nothing', async () => {
    // No authenticator: the browser's prompt stays open until something ends it.
    const { el, errors } = await loggedInForm();
    (part(el, 'submit') as HTMLButtonElement).click();
    await waitFor(() => text(el, 'status').startsWith('Follow your browser’s prompt'), 'the prompt open', 10000);
    await walletFor().logout(acct.accountId);
    await waitForState(el, 'login-required', 5000);
    expect(text(el, 'note')).to.equal('Your session ended before the passkey was saved. Log in again, then add it.');
    expect(errors).to.deep.equal(['session_expired']);
    await waitFor(() => shadow(el).activeElement === part(el, 'note'), `focus on the sentence, not ${focusIn(el)}`, 5000);
    // Stopped, not left on its open prompt: the wallet's registration lock (which a registration in
    // another tab would wait for) is free again.
    const lock = `wallet-elements:passkey:${acct.accountId}`;
    expect(await navigator.locks.request(lock, { signal: AbortSignal.timeout(5000) }, () => 'free').catch((e: Error) => e.name)).to.equal('free');
    expect((await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY')).to.deep.equal([]);
  });

  it('a logout of another wallet, or a session of this one that ends while another lives, leaves the form', async () => {
    const { el, errors } = await loggedInForm();
    const other = await newAccount();
    await loginByEmail(other);
    await walletFor().logout(other.accountId);
    // A second session of this wallet, then the first one's end: this device still holds one.
    await advanceClock(31_000);
    const first = await walletFor().current(acct.accountId);
    await loginByEmail(acct);
    await walletFor().revokeSession(acct.accountId, first!.sessionId);
    await new Promise((r) => setTimeout(r, 500));
    expect(el.matches(':state(ready)'), 'the form still offered').to.equal(true);
    expect((part(el, 'submit') as HTMLButtonElement).disabled).to.equal(false);
    expect(errors).to.deep.equal([]);
  });
});
