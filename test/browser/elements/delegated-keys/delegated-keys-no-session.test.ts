/**
 * <delegated-keys> without a wallet session, in Chromium against the real sandbox through the real
 * proxy: the list (which needs no session) is shown with a hint to sign in first, and "New key"
 * (whose create the wallet's session signs) is not offered, as <wallet-credentials> does without
 * one; a logout from a <wallet-login> on the same page takes it away while the panel is shown, and
 * an open form says to sign in instead of sending a create that must fail; a login brings it back.
 */
import { expect } from 'chai';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/wallet-login/index.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/index.ts';
import { loginByEmail, mount, nextEvent, part, resetPage, text, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';
import { advanceClock, type RigAccount } from '../../support/rig.ts';

describe('<delegated-keys> without a wallet session', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  const mountReady = async (): Promise<DelegatedKeys> => {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    await waitFor(() => el.matches(':state(ready)'), 'the list');
    return el;
  };
  const newKey = (el: DelegatedKeys) => part(el, 'new-button') as HTMLButtonElement | null;

  it('never logged in: the list shows with a hint to sign in first, and "New key" cannot be pressed', async () => {
    const el = await mountReady();
    await waitFor(() => /^Sign in to your wallet to create a key\.$/.test(text(el, 'hint')), 'the hint to log in', 5000);
    expect(newKey(el)?.disabled, 'New key').to.equal(true);
  });

  it('logged out by a <wallet-login> on the same page: "New key" goes, an open form says to sign in and sends nothing; a login brings it back', async () => {
    await loginByEmail(acct);
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(login, 'logged-in');
    const el = await mountReady();
    await new Promise((r) => setTimeout(r, 500));
    expect(text(el, 'hint')).to.equal('');
    expect(newKey(el)!.disabled).to.equal(false);
    newKey(el)!.click();
    await el.updateComplete;
    expect(part(el, 'form')).to.not.equal(null);

    const out = nextEvent(login, 'wallet-logged-out');
    login.logout();
    await out;
    await waitFor(() => /Sign in to your wallet first/.test(part(el, 'form')?.textContent ?? ''), 'the form to say to log in', 5000);
    const submit = part(el, 'submit-button')!;
    expect(submit.getAttribute('aria-disabled')).to.equal('true');
    let sent = 0;
    const errors: string[] = [];
    el.addEventListener('delegated-keys-error', (e) => errors.push((e as CustomEvent).detail.code));
    const original = window.fetch;
    window.fetch = (input, init) => ((sent += String(input instanceof Request ? input.url : input).includes('delegated-keys') && init?.method === 'POST' ? 1 : 0), original(input, init));
    try {
      el.shadowRoot!.querySelector<HTMLInputElement>('#nickname')!.value = 'After logout';
      el.shadowRoot!.querySelector<HTMLInputElement>('#nickname')!.dispatchEvent(new Event('input'));
      submit.click();
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      window.fetch = original;
    }
    expect(sent, 'creates sent').to.equal(0);
    expect(errors).to.deep.equal([]);
    [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('form button')].find((b) => b.textContent!.trim() === 'Cancel')!.click();
    await el.updateComplete;
    await waitFor(() => /^Sign in to your wallet to create a key\.$/.test(text(el, 'hint')), 'the hint to log in', 5000);
    expect(newKey(el)?.disabled).to.equal(true);

    // Logged in again (here, through the shared wallet; a new code is sent 30 s after the last): "New key" is offered again.
    await advanceClock(31_000);
    await loginByEmail(acct);
    await waitFor(() => newKey(el)?.disabled === false, 'New key again', 5000);
    expect(text(el, 'hint')).to.equal('');
  });
});
