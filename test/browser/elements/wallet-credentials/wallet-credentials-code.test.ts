/**
 * <wallet-credentials>'s activation code field of a text message login being added, in Chromium
 * against the real sandbox (code 000000): the digits a user's keyboard gives, which are not always
 * ASCII ones (an Arabic keyboard's ٠-٩, a Persian one's ۰-۹, a Japanese input method's full-width ０-９).
 */
import { expect } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { RigAccount } from '../../support/rig.ts';
import { focusIn, mount, part, pasteForReal, resetPage, shadow, text, type, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';
import { addButton, idle, loginByEmail, smsCodeEntry } from './helpers.ts';

describe('<wallet-credentials> activation code field', function () {
  this.timeout(60000);
  let acct: RigAccount;

  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  const codeForm = () => smsCodeEntry(acct);

  for (const [keyboard, code] of [
    ['Arabic', '٠٠٠٠٠٠'],
    ['Persian', '۰۰۰۰۰۰'],
    ['full-width', '００００００'],
  ] as const) {
    it(`a code typed with ${keyboard} digits (${code}) and Enter activates the login`, async () => {
      const el = await codeForm();
      (part(el, 'code-input') as HTMLInputElement).focus();
      await sendKeys({ type: code });
      await sendKeys({ press: 'Enter' });
      await waitFor(() => text(el, 'status').includes('ready to use'), 'the activation notice', 10000);
    });
  }

  // A code copied from a message comes spaced, dashed or wrapped in bidi marks (Arabic text); the field holds 6 characters.
  for (const pasted of ['000 000', '000-000', '٠٠٠ ٠٠٠', '\u2067000000\u2069', '\u200f000\u200f000']) {
    it(`a code pasted as ${JSON.stringify(pasted)} keeps all its digits and activates the login`, async () => {
      const el = await codeForm();
      const input = part(el, 'code-input') as HTMLInputElement;
      await pasteForReal(input, pasted);
      expect(input.value).to.equal('000000');
      await sendKeys({ press: 'Enter' });
      await waitFor(() => text(el, 'status').includes('ready to use'), 'the activation notice', 10000);
    });
  }

  for (const typed of ['123', '']) {
    it(`Confirm pressed on ${typed ? 'a code short of digits' : 'no code'} moves the focus to the code field, as in <wallet-login>`, async () => {
      const el = await codeForm();
      const input = part(el, 'code-input') as HTMLInputElement;
      type(input, typed);
      (part(el, 'submit') as HTMLButtonElement).focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(shadow(el).activeElement === input, focusIn(el)).to.equal(true);
      expect(shadow(el).getElementById('code-error')!.textContent).to.equal(typed ? 'Enter every digit of the code.' : '');
    });
  }

  it('Enter on a code short of digits sends nothing and says so: five of them leave the code usable', async () => {
    const el = await codeForm();
    const input = part(el, 'code-input') as HTMLInputElement;
    // The service takes five tries of a code: a short one sent would be one of them.
    for (let i = 0; i < 5; i++) {
      input.value = '';
      input.focus();
      await sendKeys({ type: '123' });
      await sendKeys({ press: 'Enter' });
      await idle(el);
    }
    const said = shadow(el).getElementById('code-error')!.textContent;
    const invalid = input.getAttribute('aria-invalid');
    input.value = '';
    input.focus();
    await sendKeys({ type: '000000' });
    await sendKeys({ press: 'Enter' });
    await idle(el);
    expect(text(el, 'status')).to.equal('Text message code is ready to use.');
    expect(said).to.equal('Enter every digit of the code.');
    expect(invalid).to.equal('true');
  });
});
