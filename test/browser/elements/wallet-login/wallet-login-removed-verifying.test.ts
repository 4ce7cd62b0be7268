/**
 * <wallet-login> taken off the page while its code is being checked, in Chromium against the real
 * sandbox through the real proxy: the service spends the code on a session (its answer is held on
 * the way back). The check runs to its end, so the login is not lost: put back, the element shows
 * that session (not the methods, where a new code would be refused for the service's 30 s wait);
 * put back for another wallet, it shows that wallet's screen, never the first wallet's session. A
 * wrong code, refused, leaves the code waiting: put back, the element shows its screen, saying the
 * code was wrong, and the right code logs in.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { newAccount, type RigAccount } from '../../support/rig.ts';
import { holdAnswer, inState, part, resetPage, text, useRig, waitFor } from '../shared/helpers.ts';
import { codeInput, codeScreen, errorCodes, typeSandboxCode } from './helpers.ts';

/** A screen the element settles on once back: the methods, the code screen or a session. */
const settled = (el: WalletLogin) => waitFor(() => ['choosing', 'code-entry', 'logged-in'].some((s) => inState(el, s)) && !inState(el, 'busy'), 'a screen');

/**
 * The code typed on `acct`'s code screen and sent; the element leaves the page while the service's
 * answer (the session; `status` 401 for a wrong `code`) is held, and `meanwhile` runs (`back` puts
 * it back) before that answer reaches the page.
 */
async function removedWhileChecked(acct: RigAccount, meanwhile: (el: WalletLogin) => void, code = '000000', status = 200): Promise<WalletLogin> {
  const el = await codeScreen({ 'account-id': acct.accountId });
  const held = holdAnswer('POST', /\/verify$/, (r) => r.status === status);
  try {
    (part(el, 'code-input') as HTMLInputElement).value = code;
    el.renderRoot.querySelector('form')!.requestSubmit();
    await held.arrived;
    expect(inState(el, 'verifying-code')).to.equal(true);
    el.remove();
    // (It stops once it is still off the page after the task that took it off.)
    await new Promise((r) => setTimeout(r, 50));
    meanwhile(el);
    held.release();
    await held.read.catch(() => undefined);
  } finally {
    held.undo();
  }
  return el;
}

/** Asks `check` every 100 ms until it answers something, for 5 s at most (then undefined). */
async function until<T>(check: () => Promise<T | undefined>): Promise<T | undefined> {
  for (const start = performance.now(); performance.now() - start < 5000; await new Promise((r) => setTimeout(r, 100))) {
    const value = await check();
    if (value) return value;
  }
  return undefined;
}

/** The ids of the account's sessions the service lists. */
const listed = async (acct: RigAccount) => (await clientFor().listSessions(acct.accountId)).map((s) => s.id);

describe('<wallet-login> taken off the page while its code is checked', function () {
  this.timeout(60000);
  beforeEach(useRig);
  afterEach(resetPage);

  for (const back of ['after', 'before'] as const) {
    it(`put back ${back} the service’s answer arrives: it shows the session the code made, live upstream`, async () => {
      const acct = await newAccount();
      const el = await removedWhileChecked(acct, (el) => back === 'before' && document.body.append(el));
      if (back === 'after') {
        // Off the page, the check ends all the same: the session is kept here and upstream.
        await until(() => walletFor().current(acct.accountId));
        document.body.append(el);
      }
      const errors = errorCodes(el);
      await settled(el);
      expect(inState(el, 'logged-in'), `logged in, not: ${text(el, 'heading')} ${text(el, 'error')}`).to.equal(true);
      expect(await listed(acct)).to.deep.equal([el.session!.sessionId]);
      expect((await walletFor().current(acct.accountId))?.sessionId).to.equal(el.session!.sessionId);
      expect(errors).to.deep.equal([]);
    });
  }

  for (const back of ['after', 'before'] as const) {
    it(`a wrong code, put back ${back} the service’s answer arrives: the code screen says so, and the right code logs in`, async () => {
      const acct = await newAccount();
      const el = await removedWhileChecked(acct, (el) => back === 'before' && document.body.append(el), '123456', 401);
      // Off the page, the check ends all the same (the answer is read).
      if (back === 'after') document.body.append(el);
      const errors = errorCodes(el);
      await settled(el);
      expect([inState(el, 'code-entry'), text(el, 'error')], `the code screen, not: ${text(el, 'heading')}`).to.deep.equal([true, 'That code didn’t work. Check it and try again; if it has expired, send a new code.']);
      expect(codeInput(el).getAttribute('aria-invalid')).to.equal('true');
      // The code it waited for still stands: the right one logs in, with no new code asked for.
      const loggedIn = await typeSandboxCode(el);
      expect(loggedIn.detail.sessionId).to.equal(el.session!.sessionId);
      expect(await listed(acct)).to.deep.equal([el.session!.sessionId]);
      // (Told once, as the screen shows it.)
      expect(errors).to.deep.equal(['wrong_code']);
    });
  }

  it('put back for another wallet: that wallet’s methods, not the session the code made, which stays its own wallet’s', async () => {
    const acct = await newAccount();
    const other = await newAccount();
    const el = await removedWhileChecked(acct, (el) => {
      el.setAttribute('account-id', other.accountId);
      document.body.append(el);
    });
    await settled(el);
    await until(() => walletFor().current(acct.accountId));
    await new Promise((r) => setTimeout(r, 300));
    expect([inState(el, 'choosing'), el.session]).to.deep.equal([true, null]);
    expect((await walletFor().current(other.accountId))?.sessionId).to.equal(undefined);
    expect(await listed(acct)).to.have.length(1);
    expect(await listed(other)).to.deep.equal([]);
  });
});
