/**
 * <wallet-credentials> and what happens outside it, in Chromium against the real sandbox through the
 * real proxy at /api: a step of the wallet shown before that is still under way when the page sets
 * another account-id, and what the new wallet's lists and changes do meanwhile.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { newAccount, oidcToken, type RigAccount } from '../../support/rig.ts';
import { holdAnswer, mount, part, resetPage, shadow, text, type, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';
import { addButton, idle, loginByEmail } from './helpers.ts';

describe('<wallet-credentials> and changes from elsewhere', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);
  /** The answer of a provider still open (switchedWithProviderOpen), given once the test is over. */
  let answer: ((token: string) => void) | undefined;
  afterEach(() => (answer?.(''), (answer = undefined)));

  /**
   * The wallet shown before had a single sign-on under way whose provider does not listen to the
   * signal (README's `(nonce) => myIdp.signIn({ nonce })`): its sign-in window stays open after the
   * page set another account-id. Returns the element, on the other wallet, settled.
   */
  async function switchedWithProviderOpen(other: RigAccount): Promise<WalletCredentials> {
    await loginByEmail(acct);
    await loginByEmail(other);
    let asked = 0;
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId }, (e) => {
      (e as WalletCredentials).oidcTokenProvider = () => (asked++, new Promise<string>((r) => (answer = r)));
    });
    await idle(el);
    addButton(el, 'OAUTH').click();
    await waitFor(() => asked === 1, 'the provider asked');
    el.setAttribute('account-id', other.accountId);
    await waitFor(() => shadow(el).querySelector(`[part~='credential'][data-id='${other.emailCredentialId}']`), 'the other wallet\'s list');
    await idle(el);
    return el;
  }

  it('a single sign-on of the wallet shown before, its provider still open after the page set another account-id, does not hide a change elsewhere to the new wallet\'s lists', async () => {
    const other = await newAccount();
    const el = await switchedWithProviderOpen(other);
    // Another element of the page adds a login to the wallet shown: the lists follow.
    await walletFor().addCredential({ type: 'OAUTH', accountId: other.accountId, oidcToken: await oidcToken({ sub: `user-${crypto.randomUUID()}`, email: 'sso@example.com' }) });
    await waitFor(() => shadow(el).querySelector("[part~='credential'][data-type='OAUTH']"), 'the added single sign-on in the lists', 5000);
  });

  it('a single sign-on of the wallet shown before, its provider still open after the page set another account-id, does not hold up a change of the new wallet', async () => {
    const other = await newAccount();
    const el = await switchedWithProviderOpen(other);
    addButton(el, 'SMS_OTP').click();
    await waitForState(el, 'code-entry', 10000);
    await idle(el);
    expect(part(el, 'code-input')).not.to.equal(null);
  });
  it('an email change of the customer shown before, answered after the page set another customer-id, is not said as saved for the new one, whose field is empty', async () => {
    const other = await newAccount();
    await loginByEmail(acct);
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
    await idle(el);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail.code));
    type(part(el, 'input') as HTMLInputElement, `held-${crypto.randomUUID()}@example.com`);
    const hold = holdAnswer('PATCH', /\/customers\//);
    try {
      (part(el, 'email-form') as HTMLFormElement).requestSubmit();
      await hold.arrived;
      el.setAttribute('customer-id', other.customerId);
      await el.updateComplete;
      hold.release();
      await hold.read;
    } finally {
      hold.undo();
    }
    await new Promise((r) => setTimeout(r, 500));
    await idle(el);
    // Nor is the address typed for the previous customer left in the field, to be sent for the new one.
    expect([errors, text(el, 'error'), text(el, 'status'), (part(el, 'input') as HTMLInputElement).value]).to.deep.equal([[], '', '', '']);
  });
});
