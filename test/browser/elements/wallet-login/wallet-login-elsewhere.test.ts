/**
 * <wallet-login> and what happens outside it, in Chromium against the real sandbox through the real
 * proxy at /api: a session change of another tab or element reaching it after the page set another
 * account-id, and the focus when such a change ends its session while the user is elsewhere.
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
import { advanceClock, fixtures, newAccount, type RigAccount } from '../../support/rig.ts';
import { focusIn, logInByEmail, mount, resetPage, useRig, waitFor, waitForState } from '../shared/helpers.ts';

describe('<wallet-login> and changes from elsewhere', function () {
  this.timeout(60000);
  let acct: RigAccount;
  let store: KeyStore;
  let dbName: string;

  beforeEach(async () => {
    ({ store, dbName } = await useRig());
    acct = await newAccount();
  });
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
