/**
 * <wallet-credentials> in Chromium against the real sandbox through the real proxy: where the
 * keyboard goes when the control that has it becomes disabled or leaves the page because the lists
 * changed under it (a refusal read back, a session ended elsewhere, a login removed from another
 * element or tab). It must stay in the panel, never fall back to the page's body.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import type { RigAccount } from '../../support/rig.ts';
import { idle, loginByEmail, otherDevice, removeButton } from './helpers.ts';
import { focusIn, mount, nextEvent, part, parts, resetPage, shadow, text, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';

/** Presses the Remove of that row with the keyboard's focus on it, and answers yes. */
async function removeConfirmed(el: WalletCredentials, type: string): Promise<void> {
  removeButton(el, type).focus();
  removeButton(el, type).click();
  await waitForState(el, 'confirming');
  part(el, 'confirm')!.querySelector<HTMLButtonElement>('button.danger')!.click();
}

describe('<wallet-credentials> keeps the keyboard in the panel', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  it('a removal refused as the last login (another device removed the other one): the focus goes to the heading, not to the page', async () => {
    await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    const elsewhere = await otherDevice(sms.id);
    await elsewhere.revokeCredential(acct.accountId, acct.emailCredentialId);
    const failed = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-credentials-error');
    await removeConfirmed(el, 'SMS_OTP');
    expect((await failed).detail.code).to.equal('last_credential');
    await idle(el);
    // The lists read back make that Remove unusable (the only login left; aria-disabled, described
    // by its hint, still focusable): the keyboard was on it.
    await waitFor(() => removeButton(el, 'SMS_OTP').matches("[aria-disabled='true'][aria-describedby]"), 'the Remove of the only login unusable');
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    expect(text(el, 'error')).to.contain('only way to log in');
    await elsewhere.logout(acct.accountId);
  });

  it('a removal refused because another device ended this session: the focus goes to the heading, not to the page', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    const elsewhere = await otherDevice(acct.emailCredentialId);
    await elsewhere.revokeSession(acct.accountId, (await walletFor().current(acct.accountId))!.sessionId);
    const failed = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-credentials-error');
    await removeConfirmed(el, 'SMS_OTP');
    expect((await failed).detail.code).to.equal('session_expired');
    await idle(el);
    await waitFor(() => !el.matches(':state(signed-in)') && removeButton(el, 'SMS_OTP').disabled, 'the logged-out lists');
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    expect(text(el, 'error')).to.equal('Your session has ended. Log in again to continue.');
    await elsewhere.logout(acct.accountId);
  });

  it('a row whose Remove has the focus, removed by another element of the page: the focus goes to the heading, not to the page', async () => {
    await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    removeButton(el, 'SMS_OTP').focus();
    expect(shadow(el).activeElement).to.equal(removeButton(el, 'SMS_OTP'));
    // The page's wallet tells its elements (and other tabs) of the change: this one reads its lists again.
    await walletFor().revokeCredential(acct.accountId, sms.id);
    await waitFor(() => parts(el, 'credential').length === 1, 'the SMS row gone');
    await idle(el);
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type)).to.deep.equal(['EMAIL_OTP']);
  });
});
