/**
 * <delegated-keys> when the wallet's code (shared/wallet.ts, loaded on demand) fails to load: in
 * real Chromium, with the module served by the test server, whose failures the rig makes real
 * (503). On a page of its own (shared/load.ts): the test page has loaded it already.
 */
import { expect } from 'chai';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/delegated-keys.ts';
import { failedLoad, shownButtons, useLoadRig } from '../shared/load.ts';

describe('<delegated-keys> when the wallet’s code fails to load', () => {
  const rig = useLoadRig();

  it('a read of the keys whose code did not load says to check the connection and reload the page (load_failed, its own code)', async () => {
    const subject = { dbName: rig.dbName, tag: 'delegated-keys', attributes: { 'card-id': rig.acct.cardId, 'account-id': rig.acct.accountId } };
    const { el, detail } = await failedLoad<DelegatedKeys>('/src/elements/shared/wallet.ts', rig.retried, 'delegated-keys-error', subject);
    expect((detail as { operation?: string }).operation).to.equal('load');
    expect(el.matches(':state(failed)')).to.equal(true);
    // Reloading the page is what works in every browser: no "Try again" beside it.
    expect(shownButtons(el)).to.not.include('Try again');
  });
});
