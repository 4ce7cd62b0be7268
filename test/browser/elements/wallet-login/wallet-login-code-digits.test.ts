/**
 * <wallet-login>'s code field, in Chromium against the real sandbox (code 000000): the digits a
 * user's keyboard or message gives, which are not always ASCII ones (an Arabic keyboard's ٠-٩,
 * a Persian one's ۰-۹, a Japanese input method's full-width ０-９).
 */
import { expect } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import '../../../../src/locales/ar.ts';
import { newAccount, type RigAccount } from '../../support/rig.ts';
import { focusIn, inState, nextEvent, part, paste, pasteForReal, resetPage, shadow, text, type, useRig, waitFor, waitForState } from '../shared/helpers.ts';
import { codeInput, codeScreen } from './helpers.ts';

describe('<wallet-login> code digits', function () {
  this.timeout(60000);
  let acct: RigAccount;

  beforeEach(async () => {
    await useRig();
    acct = await newAccount();
  });
  afterEach(resetPage);

  for (const [keyboard, code] of [
    ['Arabic', '٠٠٠٠٠٠'],
    ['Persian', '۰۰۰۰۰۰'],
    ['full-width', '００００００'],
  ] as const) {
    it(`a code typed with ${keyboard} digits (${code}) is taken as those digits and logs in`, async () => {
      const el = await codeScreen({ 'account-id': acct.accountId });
      const loggedIn = nextEvent(el, 'wallet-logged-in');
      codeInput(el).focus();
      await sendKeys({ type: code });
      await loggedIn;
      expect(inState(el, 'logged-in')).to.equal(true);
    });
  }

  it('a code pasted in Arabic digits, spaced, logs in', async () => {
    document.documentElement.lang = 'ar';
    try {
      const el = await codeScreen({ 'account-id': acct.accountId });
      const loggedIn = nextEvent(el, 'wallet-logged-in');
      paste(part(el, 'heading')!, '٠٠٠ ٠٠٠');
      await loggedIn;
      expect(inState(el, 'logged-in')).to.equal(true);
    } finally {
      document.documentElement.lang = 'en';
    }
  });

  for (const pasted of ['000-000', '\u200f000\u200f000', '\u2067٠٠٠٠٠٠\u2069']) {
    it(`a code pasted into the field as ${JSON.stringify(pasted)} logs in`, async () => {
      const el = await codeScreen({ 'account-id': acct.accountId });
      const loggedIn = nextEvent(el, 'wallet-logged-in');
      await pasteForReal(codeInput(el), pasted);
      await loggedIn;
    });
  }

  for (const typed of ['123', '']) {
    it(`Confirm pressed on ${typed ? 'a code short of digits' : 'no code'} moves the focus to the code field`, async () => {
      const el = await codeScreen({ 'account-id': acct.accountId });
      const input = codeInput(el);
      type(input, typed);
      (part(el, 'submit') as HTMLButtonElement).focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(shadow(el).activeElement === input, focusIn(el)).to.equal(true);
      expect(text(el, 'error')).to.equal(typed ? 'Enter every digit of the code.' : '');
    });
  }

  it('Enter on a code short of digits sends nothing and says so: five of them leave the code usable', async () => {
    const el = await codeScreen({ 'account-id': acct.accountId });
    const input = codeInput(el);
    // The service takes five tries of a code: a short one sent would be one of them.
    for (let i = 0; i < 5; i++) {
      input.value = '';
      input.focus();
      await sendKeys({ type: '123' });
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      await waitForState(el, 'code-entry');
    }
    const said = text(el, 'error');
    const invalid = input.getAttribute('aria-invalid');
    input.value = '';
    input.focus();
    await sendKeys({ type: '000000' });
    await waitFor(() => inState(el, 'logged-in') || (inState(el, 'code-entry') && text(el, 'error')), 'the outcome of the code');
    expect(inState(el, 'logged-in')).to.equal(true, text(el, 'error'));
    expect(said).to.equal('Enter every digit of the code.');
    expect(invalid).to.equal('true');
  });
});
