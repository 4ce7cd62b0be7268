/**
 * <wallet-login> with a wallet that has both code logins, in Chromium against the real sandbox
 * (which sends one code per credential per 30 s): a code left for the other way is not lost.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import type { RigAccount } from '../../support/rig.ts';
import { mount, nextEvent, parts, resetPage, text, type, useRig, waitForState } from '../shared/helpers.ts';
import { accountWithBothCodes, challenges, codeInput, methodButton } from './helpers.ts';

describe('<wallet-login> email and text message codes', function () {
  this.timeout(60000);
  let acct: RigAccount;

  beforeEach(async () => {
    await useRig();
    acct = await accountWithBothCodes();
  });
  afterEach(resetPage);

  it('an email code left for a text message code, itself left: email chosen again within the wait brings back the email code, no new one asked for, and it logs in', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp sms-otp' });
    await waitForState(el, 'choosing');
    const errors: string[] = [];
    el.addEventListener('wallet-login-error', (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));
    const back = () => (parts(el, 'button').find((b) => /another way/i.test(b.textContent ?? '')) as HTMLButtonElement).click();
    for (const method of ['email-otp', 'sms-otp']) {
      methodButton(el, method).click();
      await waitForState(el, 'code-entry');
      back();
      await waitForState(el, 'choosing');
    }
    const sent = challenges();
    methodButton(el, 'email-otp').click();
    await waitForState(el, 'code-entry');
    expect(errors).to.deep.equal([]);
    expect(text(el, 'heading')).to.equal('Check your email');
    expect(challenges()).to.equal(sent, 'no new email code (the service would refuse it within 30 s)');
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    type(codeInput(el), '000000');
    expect((await loggedIn).detail.credentialType).to.equal('EMAIL_OTP');
  });
});
