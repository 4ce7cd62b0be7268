/**
 * <wallet-credentials> with long lists (a wallet with hundreds of passkeys and a session on each),
 * in real Chromium against the real sandbox through the real proxy. What the lists read again with
 * one change do to them is counted: DOM mutation records of both lists, and the Intl formatters made
 * and dates formatted (each session row rendered again formats its time). They must follow what
 * changed, not how many rows are listed. Times are logged, not asserted: the machine is shared.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { setStrings } from '../../../../src/elements/shared/i18n.ts';
import '../../../../src/locales/ar.ts';
import { createClient } from '../../../../src/core/client.ts';
import { indexedDbKeyStore } from '../../../../src/core/keystore.ts';
import { createWallet } from '../../../../src/core/session.ts';
import { advanceClock, fixtures, newAccount, type RigAccount } from '../../support/rig.ts';
import { mount, parts, resetPage, shadow, useRig, waitFor } from '../shared/helpers.ts';
import { measure } from '../shared/scale.ts';

const PASSKEYS = 499;
const SESSIONS = 500;

describe('<wallet-credentials> with long lists', function () {
  this.timeout(120000);
  let acct: RigAccount;

  // An account per test: one email code per credential every 30 s (reference.md "Sandbox behaviour").
  beforeEach(async () => {
    await useRig();
    acct = await newAccount({ passkeys: PASSKEYS, sessions: SESSIONS });
  });

  afterEach(resetPage);

  /** Another device of the wallet, logged in by email (after this one's code wait): its own key store and client. */
  async function otherDevice() {
    await advanceClock(31_000);
    const f = await fixtures();
    const wallet = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName: `other-device-${crypto.randomUUID()}` }), otpSigner: f.signerPublicKey });
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    return wallet;
  }

  /** Logged in here, the element with both lists shown. */
  async function listed(): Promise<WalletCredentials> {
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await waitFor(() => el.matches(':state(ready)') && el.matches(':state(signed-in)') && !el.matches(':state(busy)'), 'the lists', 30000);
    await el.updateComplete;
    return el;
  }

  /** Reads the lists again and waits until they show `done`. */
  async function reloaded(el: WalletCredentials, done: () => boolean, what: string): Promise<void> {
    el.reload();
    await waitFor(() => done() && el.matches(':state(ready)') && !el.matches(':state(busy)'), what, 30000);
    await el.updateComplete;
  }

  it('a list read again with one session more, then one passkey fewer (removed from another device), changes those rows alone', async () => {
    const el = await listed();
    // Every credential, and every session: the seeded ones, and this device's.
    expect(parts(el, 'credential')).to.have.length(PASSKEYS + 1);
    expect(parts(el, 'session')).to.have.length(SESSIONS + 1);
    const { list: lists, updates, intl, stop } = measure(el, shadow(el).querySelector('ul[part="credentials"]')!, shadow(el).querySelector('ul[part="sessions"]')!);
    try {
      const other = await otherDevice();
      await reloaded(el, () => parts(el, 'session').length === SESSIONS + 2, 'the new session');
      const login = { records: lists.records, ms: updates.longest, made: intl.made, formatted: intl.formatted };
      lists.reset();
      updates.reset();
      intl.reset();
      // A passkey in the middle of the list, and its session with it (api.md "Revoking a credential").
      const middle = parts(el, 'credential')[Math.floor(PASSKEYS / 2)]!;
      const gone = middle.dataset.id!;
      await other.revokeCredential(acct.accountId, gone);
      await reloaded(el, () => parts(el, 'credential').length === PASSKEYS, 'the passkey removed');
      const removed = { records: lists.records, ms: updates.longest, made: intl.made, formatted: intl.formatted };
      console.log(
        `wallet-credentials, ${PASSKEYS + 1} credentials and ${SESSIONS + 1} sessions: a reload with one session more: ${login.records} mutation records, longest update ${login.ms.toFixed(1)} ms, ` +
          `${login.made} Intl formatters made, ${login.formatted} dates formatted; with one passkey removed: ${removed.records} records, ${removed.ms.toFixed(1)} ms, ${removed.made} made, ${removed.formatted} formatted`,
      );
      expect(parts(el, 'credential').some((r) => r.dataset.id === gone)).to.equal(false);
      expect(parts(el, 'session')).to.have.length(SESSIONS + 1);
      // One row put in at the end of the sessions (a row rendered before it is in the list is not seen).
      expect(login.records, 'mutation records for one session more').to.be.at.most(5);
      // Two rows taken out: the passkey's, and its session's.
      expect(removed.records, 'mutation records for one passkey removed').to.be.at.most(5);
      // Rendering every session row again makes a time formatter each, and formats its time.
      expect([login.made, removed.made], 'Intl formatters made').to.deep.equal([0, 0]);
      expect(Math.max(login.formatted, removed.formatted), 'times formatted').to.be.at.most(2);
    } finally {
      stop();
    }
  });

  it('rows not rendered again for want of change still follow new strings and a new language', async () => {
    const el = await listed();
    const passkeyTypes = () => parts(el, 'credential').filter((r) => r.dataset.type === 'PASSKEY').map((r) => r.querySelector('[part~="credential-type"]')!.textContent!);
    expect(passkeyTypes()).to.have.length(PASSKEYS);
    setStrings('en', { 'credential.PASSKEY': 'Passkey (scale test)' });
    try {
      await el.updateComplete;
      expect(passkeyTypes().filter((t) => !t.startsWith('Passkey (scale test)'))).to.have.length(0);
    } finally {
      setStrings('en', { 'credential.PASSKEY': 'Passkey' });
    }
    el.lang = 'ar';
    await el.updateComplete;
    expect(passkeyTypes().filter((t) => /Passkey/.test(t))).to.have.length(0);
  });
});
