/**
 * <wallet-login> and what happens outside it, in Chromium against the real sandbox through the real
 * proxy at /api: a session change of another tab or element reaching it after the page set another
 * account-id or while it checks its stored session, and the focus when such a change ends its
 * session while the user is elsewhere.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { SESSION_CHANNEL_NAME } from '../../../../src/elements/shared/session-channel.ts';
import { indexedDbKeyStore, type KeyStore } from '../../../../src/core/keystore.ts';
import { createWallet } from '../../../../src/core/session.ts';
import { createClient } from '../../../../src/core/client.ts';
import { addVirtualAuthenticator, advanceClock, fixtures, newAccount, openOtherTab, setAutomaticPresence, type RigAccount } from '../../support/rig.ts';
import { focusIn, holdAnswer, holdNext, logInByEmail, loginByEmail, mount, nextEvent, part, resetPage, text, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';

/** A <wallet-login> of `acct`, and what it tells from its start: 'in' for a login, a logout's reason. */
async function mountTelling(acct: RigAccount): Promise<{ el: WalletLogin; told: string[] }> {
  const told: string[] = [];
  const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId }, (e) => {
    e.addEventListener('wallet-logged-in', () => told.push('in'));
    e.addEventListener('wallet-logged-out', (ev) => told.push((ev as CustomEvent<{ reason: string }>).detail.reason));
  });
  return { el, told };
}

/** Until the element's check of its stored session has ended, and 300 ms more for what might follow it. */
async function checkEnded(el: WalletLogin): Promise<void> {
  await waitFor(() => !el.matches(':state(restoring)') && !el.matches(':state(busy)'), 'the end of the check');
  await new Promise((r) => setTimeout(r, 300));
}

describe('<wallet-login> and changes from elsewhere', function () {
  this.timeout(60000);
  let acct: RigAccount, store: KeyStore, dbName: string;
  beforeEach(async () => ({ acct, store, dbName } = await useRigAccount()));
  afterEach(resetPage);

  it('a login in another tab to the wallet shown before, heard as the page sets another account-id: the new wallet is not shown logged in with it', async () => {
    const other = await newAccount();
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    const told: LoggedInDetail[] = [];
    el.addEventListener('wallet-logged-in', (e) => told.push((e as CustomEvent<LoggedInDetail>).detail));
    // Another tab: its own channel object, the same origin's key store.
    const f = await fixtures();
    const otherTab = new BroadcastChannel(SESSION_CHANNEL_NAME);
    // The page's wallet picker hears the same message after the element did (channels hear in the
    // order they were made): the user picks the other wallet as the element looks that session up.
    const picker = new BroadcastChannel(SESSION_CHANNEL_NAME);
    const picked = new Promise<void>((r) => (picker.onmessage = () => r(el.setAttribute('account-id', other.accountId))));
    try {
      const otherWallet = createWallet({ client: createClient({ baseUrl: f.apiBase }), store, otpSigner: f.signerPublicKey });
      const session = await (await otherWallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
      otherTab.postMessage({ type: 'logged-in', accountId: acct.accountId, sessionId: session.sessionId });
      await picked;
      await waitFor(() => !el.matches(':state(restoring)'), 'the new wallet\'s screen');
      await new Promise((r) => setTimeout(r, 500));
      // The new wallet has no session here: its methods, and no login told.
      expect([el.matches(':state(choosing)'), el.session?.sessionId ?? null, told.map((d) => [d.accountId === other.accountId, d.sessionId === session.sessionId])]).to.deep.equal([true, null, []]);
    } finally {
      otherTab.close();
      picker.close();
    }
  });

  it('a passkey login of the page to the wallet shown before, held while autofill ran, is not shown on the wallet the page set meanwhile', async () => {
    const other = await newAccount();
    await addVirtualAuthenticator();
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const passkey = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Test key' });
    await wallet.logout(acct.accountId);
    // No pick comes: the element's autofill request waits. Its field shows before the request is
    // made (its challenge comes first): the authenticator waits again only once the request waits.
    await setAutomaticPresence(false);
    const get = navigator.credentials.get;
    let waiting = 0;
    navigator.credentials.get = function (this: CredentialsContainer, options?: CredentialRequestOptions) {
      const answer = get.call(this, options);
      if (options?.mediation === 'conditional') (waiting++, answer.finally(() => waiting--).catch(() => undefined));
      return answer;
    };
    let session: { sessionId: string };
    const told: LoggedInDetail[] = [];
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' });
      await waitFor(() => waiting === 1, 'the autofill request');
      el.addEventListener('wallet-logged-in', (e) => told.push((e as CustomEvent<LoggedInDetail>).detail));
      // The page's own code logs the wallet in with its passkey (a prompt, answered at once): it ends
      // the autofill request, which asks again once the prompt ended; its list is held until the
      // authenticator waits again, so that the new request waits for a pick as the first did.
      const again = holdAnswer('GET', /\/auth\/credentials\?/);
      try {
        await setAutomaticPresence(true);
        session = await wallet.loginWithPasskey({ credentialId: passkey.id });
        await again.arrived;
        await setAutomaticPresence(false);
        again.release();
      } finally {
        again.undo();
      }
      await waitFor(() => waiting === 1, 'the autofill request made again');
      await new Promise((r) => setTimeout(r, 300));
      // The login heard waits for the autofill's end.
      expect(el.matches(':state(choosing)'), 'the methods while autofill runs').to.equal(true);
      // The page sets another wallet: the autofill ends.
      el.setAttribute('account-id', other.accountId);
      await el.updateComplete;
      await waitFor(() => !el.matches(':state(restoring)'), 'the new wallet\'s screen');
      await new Promise((r) => setTimeout(r, 500));
      expect([el.matches(':state(choosing)'), el.session?.sessionId ?? null, told.map((d) => [d.accountId === other.accountId, d.sessionId === session.sessionId])]).to.deep.equal([true, null, []]);
    } finally {
      navigator.credentials.get = get;
      await wallet.logout(acct.accountId);
    }
  });

  it('logout() as a passkey picked from autofill logs in, then another account-id: the session the pick led to is logged out, and the new wallet is told nothing', async () => {
    const other = await newAccount();
    // (Presence simulated: the autofill request is answered at once, as a user picking the passkey.)
    await addVirtualAuthenticator();
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Test key' });
    await wallet.logout(acct.accountId);
    const told: string[] = [];
    let el: WalletLogin | undefined;
    // The page, told of the session as it is stored (before the autofill's answer reaches the
    // element), logs out and moves to another wallet.
    const unsubscribe = wallet.subscribe((change) => {
      if (!el || change.type !== 'logged-in' || change.accountId !== acct.accountId) return;
      unsubscribe();
      el.logout();
      el.setAttribute('account-id', other.accountId);
    });
    try {
      el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' }, (e) => {
        for (const name of ['wallet-logged-in', 'wallet-logged-out']) e.addEventListener(name, (ev) => told.push(`${name} ${(ev as CustomEvent<{ accountId: string }>).detail.accountId === other.accountId ? 'new' : 'old'}`));
      });
      await waitFor(() => el!.accountId === other.accountId, 'the pick');
      await el.updateComplete;
      await waitFor(() => el!.matches(':state(choosing)'), 'the new wallet\'s methods');
      await new Promise((r) => setTimeout(r, 500));
      expect([el.session, told, (await wallet.current(acct.accountId))?.sessionId ?? null]).to.deep.equal([null, [], null]);
    } finally {
      unsubscribe();
      await wallet.logout(acct.accountId);
    }
  });

  it('another element of the page logs out while this one checks its stored session: this one ends on the methods, telling neither a login nor a logout', async () => {
    await loginByEmail(acct);
    const other = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(other, 'logged-in');
    // This element's check of the stored session: the service's list (the session in it) is on its way back.
    const held = holdAnswer('GET', /\/auth\/sessions\?/);
    try {
      const { el, told } = await mountTelling(acct);
      await held.arrived;
      other.logout();
      await waitFor(() => other.matches(':state(choosing)') && !other.matches(':state(busy)'), 'the other element logged out');
      expect(await store.get(acct.accountId)).to.equal(undefined);
      held.release();
      await checkEnded(el);
      expect([el.matches(':state(choosing)'), el.session], 'on the methods, no session').to.deep.equal([true, null]);
      // The session the check found was logged out before the check ended: no login happened here.
      expect(told, 'events told').to.deep.equal([]);
    } finally {
      held.undo();
    }
  });

  // The service's list asked for before the logout upstream (its answer, with the session in it, on
  // its way back) or after it (the request held before it leaves: the list no longer holds it).
  for (const when of ['answer', 'request'] as const) {
    it(`another tab logs out while this one checks its stored session (its list's ${when} held): this one ends on the methods, tells at most one logout, and signs nothing with the key gone`, async () => {
      await loginByEmail(acct);
      const { publicKey } = (await store.get(acct.accountId))!.session;
      // Another tab of the origin (its own document, core and channel; this page's IndexedDB).
      const tab = await openOtherTab();
      tab.configureWallet({ apiBase: (await fixtures()).apiBase, environment: 'sandbox', store: tab.core.indexedDbKeyStore({ dbName }) });
      // This element's check of the stored session: the service's list (the session in it) is on its way back.
      const held = (when === 'answer' ? holdAnswer : holdNext)('GET', /\/auth\/sessions\?/);
      const channel = new BroadcastChannel(SESSION_CHANNEL_NAME);
      // The page's requests signed with the session's key once the other tab deleted it.
      const signedAfter: string[] = [];
      let gone = false;
      const fetch = window.fetch;
      window.fetch = (input, init) => {
        const signature = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('Service-Wallet-Signature');
        const signer = signature && JSON.parse(atob(signature.replace(/-/g, '+').replace(/_/g, '/'))).publicKey;
        if (gone && signer === publicKey) signedAfter.push(`${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`);
        return fetch(input, init);
      };
      try {
        const { el, told } = await mountTelling(acct);
        await held.arrived;
        // The other tab's logout, its message heard by this page (a channel of the test's own) before the list comes back.
        const heard = new Promise<void>((r) => (channel.onmessage = ({ data }) => data?.type === 'logged-out' && r()));
        await tab.walletFor().logout(acct.accountId);
        gone = true;
        expect(await store.get(acct.accountId), 'the key gone from the origin\'s store').to.equal(undefined);
        await heard;
        await new Promise((r) => setTimeout(r, 200));
        expect(el.matches(':state(restoring)'), 'still checking').to.equal(true);
        held.release();
        await checkEnded(el);
        expect([el.matches(':state(choosing)'), el.session, text(el, 'intro')], 'on the methods, no session').to.deep.equal([true, null, 'Choose how you want to log in.']);
        expect(told.filter((t) => t !== 'in').length, `at most one wallet-logged-out: ${told.join(' ')}`).to.be.at.most(1);
        expect(told.filter((t) => t === 'in').length, `a login told is followed by its logout: ${told.join(' ')}`).to.equal(told.filter((t) => t !== 'in').length);
        // A session left shown would renew on its timers: none is left to renew.
        el.refresh();
        await new Promise((r) => setTimeout(r, 300));
        expect(signedAfter, 'requests signed with the key gone').to.deep.equal([]);
      } finally {
        held.undo();
        channel.close();
        tab.close();
      }
    });
  }

  it('a login and a logout by another element of the page are told as ones from elsewhere (`elsewhere`), as those of another tab are', async () => {
    const other = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    await logInByEmail(other);
    expect((await loggedIn).detail.source).to.equal('elsewhere');
    await waitForState(el, 'logged-in');
    const reasons: string[] = [];
    el.addEventListener('wallet-logged-out', (ev) => reasons.push((ev as CustomEvent<{ reason: string }>).detail.reason));
    other.logout();
    await waitFor(() => reasons.length > 0, "this element's logout");
    expect(reasons).to.deep.equal(['elsewhere']);
  });

  it('a session another element found ended (revoked upstream) leaves the focus where the user is on the page', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const { detail } = await logInByEmail(el);
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    const f = await fixtures();
    const elsewhere = createWallet({ client: createClient({ baseUrl: '/api' }), store: indexedDbKeyStore({ dbName: `${dbName}-elsewhere` }), otpSigner: f.signerPublicKey });
    await (await elsewhere.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await elsewhere.revokeSession(acct.accountId, detail.sessionId);
    // The page's own field, where the user is as another element of the page finds the session ended.
    const field = document.createElement('input');
    document.body.append(field);
    try {
      field.focus();
      await walletFor().refresh(acct.accountId).catch(() => undefined);
      await waitForState(el, 'reauth');
      await new Promise((r) => setTimeout(r, 100));
      expect(document.activeElement === field, `focus on the page's field, not ${focusIn(el)}`).to.equal(true);
    } finally {
      field.remove();
      await elsewhere.logout(acct.accountId);
    }
  });
});
