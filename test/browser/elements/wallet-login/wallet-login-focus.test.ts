/**
 * <wallet-login>'s focus when its own timers change the screen (a renewal, a session's end), in
 * Chromium against the real sandbox: the user may be typing in a field of the page meanwhile.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { newAccount, sandboxVariant } from '../../support/rig.ts';
import { focusIn, inState, logInByEmail, mount, nextEvent, part, resetPage, text, type, useRig, waitFor, waitForState } from '../shared/helpers.ts';
import { codeInput, methodButton } from './helpers.ts';

const logIn = async (el: WalletLogin) => ((await logInByEmail(el)) as CustomEvent<LoggedInDetail>).detail;

/** The page's own field, focused, where the user types while the element's timers run. */
function pageField(): HTMLInputElement {
  const field = document.createElement('input');
  document.body.append(field);
  field.focus();
  return field;
}

describe('<wallet-login> focus on its timers', function () {
  this.timeout(60000);
  beforeEach(useRig);
  afterEach(resetPage);

  it('a renewal of the session leaves the focus in the page’s field where the user is', async () => {
    const acct = await newAccount();
    // refresh-before just under the 15-minute lifetime: the renewal is due a second after the login.
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'refresh-before': '899' });
    const first = await logIn(el);
    const field = pageField();
    try {
      await waitFor(() => el.session && el.session.sessionId !== first.sessionId, 'a renewed session', 20000);
      await waitForState(el, 'logged-in');
      await new Promise((r) => setTimeout(r, 100));
      expect(document.activeElement === field, `focus on the page's field, not ${focusIn(el)}`).to.equal(true);
    } finally {
      field.remove();
      await walletFor().logout(acct.accountId);
    }
  });

  it('with no-auto-refresh, the warning and the session’s end leave the focus in the page’s field where the user is, and are said in the status line', async () => {
    const v = await sandboxVariant({ sessionLifetimeMs: 4000 });
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase, 'no-auto-refresh': '' });
    // The warning's screen, read as it is drawn: it lasts the session's last 2 s, which a poll of a
    // busy page could miss.
    const warned = nextEvent(el, 'session-expiring', 10000).then(async () => {
      await el.updateComplete;
      return [inState(el, 'expiring'), part(el, 'status')?.getAttribute('role'), text(el, 'status')];
    });
    await logIn(el);
    const field = pageField();
    const moved: string[] = [];
    field.addEventListener('blur', () => setTimeout(() => moved.push(focusIn(el))));
    try {
      // Said to a screen reader (the polite live region), since the focus stays where the user is.
      expect(await warned).to.deep.equal([true, 'status', 'Your session ends soon.']);
      await waitForState(el, 'reauth', 10000);
      await new Promise((r) => setTimeout(r, 100));
      expect(text(el, 'status')).to.equal('Your session has ended. Log in again with your Email code.');
      expect(moved, 'the focus taken from the field').to.deep.equal([]);
      expect(document.activeElement === field, `focus on the page's field, not ${focusIn(el)}`).to.equal(true);
    } finally {
      field.remove();
    }
  });
});
