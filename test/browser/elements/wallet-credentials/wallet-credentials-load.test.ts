/**
 * <wallet-credentials> when the wallet's code (shared/wallet.ts, then core/session.ts behind it,
 * both loaded on demand) fails to load: in real Chromium, with the modules served by the test
 * server, whose failures the rig makes real (503, or a dropped connection). Each test on a page of
 * its own (shared/load.ts): the test page has loaded both already.
 */
import { expect } from 'chai';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { browserLoadsFailedModulesAgain, type RigAccount } from '../../support/rig.ts';
import { resetPage, text, useRigAccount } from '../shared/helpers.ts';
import { droppedLoad, failedLoad } from '../shared/load.ts';
import { idle, loginByEmail } from './helpers.ts';

const WALLET = '/src/elements/shared/wallet.ts';
const SESSION = '/src/core/session.ts';

describe('<wallet-credentials> when the wallet’s code fails to load', () => {
  let acct: RigAccount;
  let dbName: string;
  /** Whether this browser loads a module again after a failed load (not Chromium after a 5xx). */
  let retried: boolean;
  const subject = () => ({ dbName, tag: 'wallet-credentials', attributes: { 'account-id': acct.accountId } });

  before(async () => {
    ({ acct, dbName } = await useRigAccount());
    // The wallet logged in (in the store the fresh pages share): the element lists its logins.
    await loginByEmail(acct);
    retried = await browserLoadsFailedModulesAgain();
  });
  afterEach(resetPage);

  for (const path of [WALLET, SESSION]) {
    it(`a read of the lists whose ${path} did not load says to check the connection and reload the page (load_failed)`, async () => {
      const { el, detail } = await failedLoad<WalletCredentials>(path, retried, 'wallet-credentials-error', subject());
      expect((detail as { operation?: string }).operation).to.equal('load');
      expect(el.matches(':state(load-failed)')).to.equal(true);
    });

    it(`loads ${path} again at once, unseen, after a dropped connection, and lists the logins`, async () => {
      const el = await droppedLoad<WalletCredentials>(path, 'wallet-credentials-error', subject(), idle);
      expect(text(el, 'error')).to.equal('');
    });
  }
});
