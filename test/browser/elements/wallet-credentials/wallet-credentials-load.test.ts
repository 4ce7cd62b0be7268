/**
 * <wallet-credentials> when the wallet's code (shared/wallet.ts, then core/session.ts behind it,
 * both loaded on demand) fails to load: in real Chromium, with the modules served by the test
 * server, whose failures the rig makes real (503, or a dropped connection). Each test on a page of
 * its own (shared/load.ts): the test page has loaded both already.
 */
import { expect } from 'chai';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { text } from '../shared/helpers.ts';
import { droppedLoad, failedLoad, shownButtons, useLoadRig } from '../shared/load.ts';
import { idle } from './helpers.ts';

const WALLET = '/src/elements/shared/wallet.ts';
const SESSION = '/src/core/session.ts';

describe('<wallet-credentials> when the wallet’s code fails to load', () => {
  const rig = useLoadRig('login');
  const subject = () => ({ dbName: rig.dbName, tag: 'wallet-credentials', attributes: { 'account-id': rig.acct.accountId } });

  for (const path of [WALLET, SESSION]) {
    it(`a read of the lists whose ${path} did not load says to check the connection and reload the page (load_failed)`, async () => {
      const { el, detail } = await failedLoad<WalletCredentials>(path, rig.retried, 'wallet-credentials-error', subject());
      expect((detail as { operation?: string }).operation).to.equal('load');
      expect(el.matches(':state(load-failed)')).to.equal(true);
      // Reloading the page is what works in every browser: no "Try again" beside it.
      expect(shownButtons(el)).to.not.include('Try again');
    });

    it(`loads ${path} again at once, unseen, after a dropped connection, and lists the logins`, async () => {
      const el = await droppedLoad<WalletCredentials>(path, 'wallet-credentials-error', subject(), idle);
      expect(text(el, 'error')).to.equal('');
    });
  }
});
