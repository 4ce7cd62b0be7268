/**
 * <wallet-login> single sign-on on a wallet with several single sign-on identities (api.md: OAUTH
 * credentials "for each supported provider identity"), in Chromium against the real sandbox through
 * the real proxy: the token the page's provider returns is for one of them, and the service takes
 * it only on that credential's verify (the token identity must match the credential).
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import { oidcToken, type RigAccount } from '../../support/rig.ts';
import { mount, nextEvent, resetPage, useRigAccount, waitForState } from '../shared/helpers.ts';
import { methodButton } from './helpers.ts';

describe('<wallet-login> single sign-on with several identities', function () {
  this.timeout(60000);
  let acct: RigAccount, store: KeyStore;
  beforeEach(async () => ({ acct, store } = await useRigAccount()));
  afterEach(resetPage);

  /** Adds single sign-on identities in this order (logged in by email for them, then out); their credential ids. */
  async function withIdentities(...subs: string[]): Promise<string[]> {
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const ids: string[] = [];
    for (const sub of subs) ids.push((await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub, email: `${sub}@example.com` }) })).id);
    await wallet.logout(acct.accountId);
    return ids;
  }

  for (const which of [0, 1]) {
    it(`logs in with the ${which ? 'newer' : 'older'} of two identities: the session is that credential's`, async () => {
      const subs = [`first-${crypto.randomUUID()}`, `second-${crypto.randomUUID()}`];
      const ids = await withIdentities(...subs);
      expect((await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'OAUTH')).to.have.length(2);
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' }, (e) => {
        (e as WalletLogin).oidcTokenProvider = (nonce) => oidcToken({ sub: subs[which]!, email: `${subs[which]}@example.com`, nonce });
      });
      await waitForState(el, 'choosing');
      const outcome = Promise.race([
        nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in').then((e) => e.detail.credentialType),
        nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error').then((e) => `error ${e.detail.code}`),
      ]);
      methodButton(el, 'oauth').click();
      expect(await outcome).to.equal('OAUTH');
      expect((await store.get(acct.accountId))?.session.credentialId).to.equal(ids[which]);
    });
  }
});
