/**
 * <wallet-credentials> beside <wallet-login> on one page, in Chromium against the real sandbox
 * through the real proxy: a logout from the list, and the removal of the login this device signs
 * with, are reflected by both elements.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { advanceClock, type RigAccount } from '../../support/rig.ts';
import { idle, loginByEmail, removeButton } from './helpers.ts';
import { mount, nextEvent, part, parts, resetPage, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';

async function confirmOn(el: WalletCredentials, button: HTMLButtonElement): Promise<void> {
  button.click();
  await waitForState(el, 'confirming');
  part(el, 'confirm')!.querySelector<HTMLButtonElement>('button.danger')!.click();
}

describe('<wallet-credentials> beside <wallet-login>', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  it('"Log out here" in the list logs <wallet-login> out too', async () => {
    await loginByEmail(acct);
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(login, 'logged-in');
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    const mine = parts(el, 'session').find((r) => r.querySelector('button')!.textContent!.trim() === 'Log out here')!;
    const out = nextEvent(login, 'wallet-logged-out');
    await confirmOn(el, mine.querySelector('button')!);
    await out;
    await idle(el);
    await waitFor(() => !login.matches(':state(logged-in)'), '<wallet-login> to leave logged-in');
    expect(el.matches(':state(signed-in)')).to.equal(false);
    expect(await clientFor().listSessions(acct.accountId)).to.deep.equal([]);
  });

  it('removing the login this device signs with (another login of it kept) leaves both elements on the other one', async () => {
    await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    await advanceClock(31_000);
    const smsSession = (await (await walletFor().startOtpLogin({ credentialId: sms.id, registered: sms })).submit('000000')).sessionId;
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(login, 'logged-in');
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    expect((await walletFor().current(acct.accountId))?.sessionId).to.equal(smsSession);
    await waitFor(() => /text message/i.test(login.shadowRoot!.textContent ?? ''), '<wallet-login> to show the text message login');
    const removed = nextEvent(el, 'credential-revoked');
    await confirmOn(el, removeButton(el, 'SMS_OTP'));
    await removed;
    await idle(el);
    const now = await walletFor().current(acct.accountId);
    expect(now?.credentialType).to.equal('EMAIL_OTP');
    expect(el.matches(':state(signed-in)')).to.equal(true);
    expect(parts(el, 'session').map((r) => r.dataset['id'])).to.deep.equal([now!.sessionId]);
    // <wallet-login> shows the session that is left, not one the removal ended.
    await waitFor(() => /email code/i.test(login.shadowRoot!.textContent ?? ''), '<wallet-login> to show the email login');
    expect(login.matches(':state(logged-in)'), 'wallet-login logged in').to.equal(true);
    expect(login.shadowRoot!.textContent).not.to.match(/text message/i);
  });
});
