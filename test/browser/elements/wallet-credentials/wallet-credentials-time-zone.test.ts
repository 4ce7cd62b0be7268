/**
 * <wallet-credentials> in Chromium against the real sandbox through the real proxy: the sessions'
 * end times follow the page's time zone as the operating system changes it under an open page
 * (a device travelling), every row alike: rows kept from before the change are written again, not
 * left in the old zone beside new ones in the new zone.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import { advanceClock, setTimeZone, type RigAccount } from '../../support/rig.ts';
import { mount, parts, resetPage, useRigAccount, waitFor } from '../shared/helpers.ts';

/** The end time a session row shows ("until 7:38 PM"), and the one its expiry has in the page's zone now. */
function until(el: WalletCredentials): Array<[string, string]> {
  return parts(el, 'session').map((r) => {
    const expires = r.dataset['expires']!;
    return [r.querySelector('[part=credential-name]')!.textContent!.trim(), `until ${new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(new Date(expires))}`];
  });
}

describe('<wallet-credentials> and the time zone', function () {
  this.timeout(60000);
  let acct: RigAccount, store: KeyStore;
  beforeEach(async () => ({ acct, store } = await useRigAccount()));
  afterEach(async function () {
    await setTimeZone(null);
    await resetPage.call(this);
  });

  it('sessions listed before the page\'s time zone changed are written in the new zone once the lists are read again', async () => {
    await setTimeZone('UTC');
    // Another device's session (its key not kept here) and this device's.
    const other = (await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000')).sessionId;
    await store.delete(other);
    await advanceClock(31_000);
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await waitFor(() => parts(el, 'session').length === 2 && !el.matches(':state(busy)'), 'both sessions');
    const expiries = new Map((await clientFor().listSessions(acct.accountId)).map((s) => [s.id as string, s.expiresAt]));
    const tag = () => parts(el, 'session').forEach((r) => (r.dataset['expires'] = expiries.get(r.dataset['id']!)!));
    tag();
    for (const [shown, now] of until(el)) expect(shown).to.equal(now);
    // The device moves nine hours east with the page open; the lists are read again (the page's reload()).
    await setTimeZone('Asia/Tokyo');
    el.reload();
    await waitFor(() => !el.matches(':state(busy)'), 'the lists read again');
    await el.updateComplete;
    tag();
    const rows = until(el);
    expect(rows).to.have.length(2);
    for (const [shown, now] of rows) expect(shown).to.equal(now);
  });
});
