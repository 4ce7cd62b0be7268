/**
 * <wallet-credentials> in Chromium against the real sandbox through the real proxy: a removal or an
 * end of a session that fails is said in the row it is about, beside the button that asked for it
 * (which the keyboard is on and which the sentence describes), not only at the foot of the panel.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import type { RigAccount } from '../../support/rig.ts';
import { advanceClock } from '../../support/rig.ts';
import { addButton, idle, loginByEmail, removeButton } from './helpers.ts';
import { failNext, mount, nextEvent, part, parts, resetPage, shadow, useRigAccount, waitForState } from '../shared/helpers.ts';

async function confirmOn(el: WalletCredentials, button: HTMLButtonElement): Promise<void> {
  button.focus();
  button.click();
  await waitForState(el, 'confirming');
  part(el, 'confirm')!.querySelector<HTMLButtonElement>('button.danger')!.click();
}

/** The sentence that describes `button` (its aria-describedby), read in its own row. */
function describedInRow(button: HTMLButtonElement): string {
  const row = button.closest('li, .row')!;
  return (button.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => row.querySelector(`#${CSS.escape(id)}`)?.textContent ?? '')
    .join(' ');
}

describe('<wallet-credentials> says a failed change in its row', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  it('a refused removal is said in the row of that login, describing its Remove, which keeps the focus; another row says nothing', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    const undo = failNext('DELETE', /\/auth\/credentials\//, 500, 1, {}, { status: 500, code: 'INTERNAL', message: 'boom' });
    try {
      const failed = nextEvent(el, 'wallet-credentials-error');
      await confirmOn(el, removeButton(el, 'SMS_OTP'));
      await failed;
    } finally {
      undo();
    }
    await idle(el);
    const button = removeButton(el, 'SMS_OTP');
    expect(describedInRow(button)).to.contain('Something went wrong');
    expect(shadow(el).activeElement).to.equal(button);
    expect(describedInRow(removeButton(el, 'EMAIL_OTP'))).not.to.contain('Something went wrong');
    // Said once on screen: the panel's alert announces it without drawing it a second time.
    expect(part(el, 'error')!.getBoundingClientRect().height).to.be.at.most(1);
  });

  it('a failed end of a session is said in that session\'s row; the next change takes it away', async () => {
    await loginByEmail(acct);
    await advanceClock(31_000);
    await loginByEmail(acct);
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    const other = parts(el, 'session').find((r) => r.querySelector('button')!.textContent!.trim() !== 'Log out here')!;
    const id = other.dataset['id']!;
    const undo = failNext('DELETE', /\/auth\/sessions\//, 500, 1, {}, { status: 500, code: 'INTERNAL', message: 'boom' });
    try {
      const failed = nextEvent(el, 'wallet-credentials-error');
      await confirmOn(el, other.querySelector('button')!);
      await failed;
    } finally {
      undo();
    }
    await idle(el);
    const row = () => parts(el, 'session').find((r) => r.dataset['id'] === id)!;
    expect(describedInRow(row().querySelector('button')!)).to.contain('Something went wrong');
    const ended = nextEvent(el, 'session-revoked');
    await confirmOn(el, row().querySelector('button')!);
    await ended;
    await idle(el);
    expect(parts(el, 'session').map((r) => r.textContent).join(' ')).not.to.contain('Something went wrong');
  });

  it('a failed add is said beside its add button, which keeps the focus; the other add button says nothing', async () => {
    await loginByEmail(acct);
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    const undo = failNext('POST', /\/auth\/credentials$/, 500, 1, {}, { status: 500, code: 'INTERNAL', message: 'boom' });
    try {
      const failed = nextEvent(el, 'wallet-credentials-error');
      addButton(el, 'SMS_OTP').focus();
      addButton(el, 'SMS_OTP').click();
      await failed;
    } finally {
      undo();
    }
    await idle(el);
    expect(describedInRow(addButton(el, 'SMS_OTP'))).to.contain('Something went wrong');
    expect(shadow(el).activeElement).to.equal(addButton(el, 'SMS_OTP'));
    expect(describedInRow(addButton(el, 'OAUTH'))).not.to.contain('Something went wrong');
    expect(part(el, 'error')!.getBoundingClientRect().height).to.be.at.most(1);
  });
});
