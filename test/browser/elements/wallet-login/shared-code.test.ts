/**
 * <wallet-login>'s newest code shared between the tabs through localStorage (shared/pending-code.ts),
 * in Chromium against the real sandbox through the real proxy at /api: kept per wallet and per way
 * (email, SMS), and gone once a session came or went, so that a shared device keeps nothing of it.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail, LoggedOutDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { advanceClock, type RigAccount } from '../../support/rig.ts';
import { nextEvent, part, resetPage, type, useRigAccount } from '../shared/helpers.ts';
import { addTextMessageLogin, codeInput, codeScreen, methodButton, resendRefusedThenType } from './helpers.ts';

/**
 * Another tab of the browser asks for a code (`method`) of the account (a <wallet-login> of its own,
 * there on its code screen, then closed). It shares this tab's localStorage but not its
 * sessionStorage: what this tab kept there is as it was.
 */
async function codeInAnotherTab(acct: RigAccount, method: string): Promise<void> {
  const mine = Object.entries(sessionStorage).filter(([k]) => k.startsWith('wallet-elements:'));
  for (const [k] of mine) sessionStorage.removeItem(k);
  const other = await codeScreen({ 'account-id': acct.accountId, methods: 'email-otp sms-otp' }, method);
  other.remove();
  for (const k of Object.keys(sessionStorage)) if (k.startsWith('wallet-elements:')) sessionStorage.removeItem(k);
  for (const [k, v] of mine) sessionStorage.setItem(k, v);
}

/** What the origin's localStorage keeps of the account's codes. */
const sharedCodes = (acct: RigAccount) => Object.keys(localStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.includes(acct.accountId));

describe('<wallet-login> newest code shared between tabs', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  it('a code login, then a logout, leave nothing of the code in localStorage (a shared device)', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    expect(sharedCodes(acct).length, 'the code sent is shared while it waits').to.equal(1);
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    type(codeInput(el), '000000');
    await loggedIn;
    expect(sharedCodes(acct), 'once logged in with it').to.deep.equal([]);
    const loggedOut = nextEvent<CustomEvent<LoggedOutDetail>>(el, 'wallet-logged-out');
    el.logout();
    await loggedOut;
    expect(sharedCodes(acct), 'once logged out').to.deep.equal([]);
  });

  it('an SMS code another tab sent after a newer email code does not hide that email code: "Send a new code" refused, the newer email code is offered, and it logs in', async () => {
    // The wallet gets an SMS credential (logged in by email for it, then out).
    await addTextMessageLogin(acct);
    const el = await codeScreen({ 'account-id': acct.accountId, methods: 'email-otp sms-otp', 'resend-after': '0' });
    // Another tab gets a newer email code (which replaces this tab's upstream), then an SMS code.
    await advanceClock(31_000);
    await codeInAnotherTab(acct, 'email-otp');
    await codeInAnotherTab(acct, 'sms-otp');
    // The service refuses a new email code (429: the other tab's is less than 30 s old).
    expect(await resendRefusedThenType(el)).to.deep.equal([]);
  });
});
