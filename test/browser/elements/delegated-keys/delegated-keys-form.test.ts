/**
 * The creation form of <delegated-keys> as people of other keyboards and second thoughts fill it, in
 * real Chromium against the real sandbox: limits typed in the digits of an Arabic, Persian or
 * full-width keyboard, and a refused limit row removed while its errors show.
 */
import { expect } from 'chai';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/wallet-login/index.ts';
import '../../../../src/locales/ar.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import type { DelegatedKey } from '../../../../src/core/types.ts';
import type { RigAccount } from '../../support/rig.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { logInByEmail, loginByEmail, mount, nextEvent, overflowing, part, pasteForReal, resetPage, shadow, type, useRigAccount, waitFor } from '../shared/helpers.ts';

const errorOf = (el: Element, id: string) => shadow(el).getElementById(`${id}-error`)!.textContent!.trim();

/** Creates the key of the three rows typed (5000 USD, 1200 EUR, 300 JPY in any digits): no field refused, those limits sent. */
async function expectCreated(el: DelegatedKeys): Promise<void> {
  const created = nextEvent<CustomEvent<{ key: DelegatedKey }>>(el, 'delegated-key-created');
  (part(el, 'submit-button') as HTMLButtonElement).click();
  await el.updateComplete;
  expect([0, 1, 2].map((i) => errorOf(el, `limits.${i}.maxPerTransaction`))).to.deep.equal(['', '', '']);
  expect((await created).detail.key.spendingLimits).to.deep.equal([
    { currencyCode: 'USD', maxPerTransaction: 5000 },
    { currencyCode: 'EUR', maxPerTransaction: 1200 },
    { currencyCode: 'JPY', maxPerTransaction: 300 },
  ]);
}

describe('<delegated-keys> creation form', () => {
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  const field = (el: Element, id: string) => shadow(el).getElementById(id) as HTMLInputElement;

  /** What reaches past the element or scrolls sideways, but a field's own text and the 1-pixel clip of a text for screen readers only. */
  const wide = (el: Element) => overflowing(el).filter((o) => !/^<input|visually-hidden/.test(o));

  /** The form, for a wallet this device holds a session of (creating a key needs one). */
  async function openForm(lang = 'en', rows = 0): Promise<DelegatedKeys> {
    if (!(await walletFor().current(acct.accountId))) await loginByEmail(acct);
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId, lang });
    await waitFor(() => el.matches(':state(ready)') && (part(el, 'new-button') as HTMLButtonElement | null)?.disabled === false, 'the list');
    await el.updateComplete;
    (part(el, 'new-button') as HTMLButtonElement).click();
    await el.updateComplete;
    for (let i = 0; i < rows; i++) {
      shadow(el).querySelector<HTMLButtonElement>('[data-focus=add-limit]')!.click();
      await el.updateComplete;
    }
    return el;
  }

  it('limits typed in Arabic-Indic, Persian or full-width digits are those numbers: previewed, sent and listed', async () => {
    await logInByEmail(await mount('wallet-login', { 'account-id': acct.accountId }));
    const el = await openForm('ar', 3);
    type(field(el, 'nickname'), 'مشتريات');
    const limits = [['USD', '٥٠٠٠'], ['EUR', '۱۲۰۰'], ['JPY', '３００']];
    limits.forEach(([code, amount], i) => {
      type(field(el, `limits.${i}.currencyCode`), code!);
      type(field(el, `limits.${i}.maxPerTransaction`), amount!);
    });
    await el.updateComplete;
    expect(shadow(el).getElementById('limits.0.maxPerTransaction-preview')!.textContent).to.match(/[٥5][٠0]/);
    await expectCreated(el);
  });

  it('amounts pasted from Arabic text, with their bidi marks (RLM, ALM, isolates), are those numbers: previewed, sent and listed', async () => {
    await logInByEmail(await mount('wallet-login', { 'account-id': acct.accountId }));
    const el = await openForm('ar', 3);
    type(field(el, 'nickname'), 'مشتريات');
    const limits = [['USD', '\u200f٥٠٠٠\u200f'], ['EUR', '\u2067١\u061c٢٠٠\u2069'], ['JPY', '\u2066300\u2069\u200e']];
    for (const [i, [code, amount]] of limits.entries()) {
      type(field(el, `limits.${i}.currencyCode`), code!);
      await pasteForReal(field(el, `limits.${i}.maxPerTransaction`), amount!);
    }
    await el.updateComplete;
    expect(field(el, 'limits.0.maxPerTransaction').value, 'pasted with its marks').to.equal(limits[0]![1]);
    expect(shadow(el).getElementById('limits.0.maxPerTransaction-preview')!.textContent).to.match(/[٥5][٠0]/);
    await expectCreated(el);
  });

  it('removing a refused limit row takes its errors with it; a row that moves up keeps its own, on its own fields', async () => {
    const el = await openForm('en', 3);
    type(field(el, 'nickname'), 'Groceries');
    type(field(el, 'limits.0.currencyCode'), 'USD');
    type(field(el, 'limits.0.maxPerTransaction'), 'abc');
    type(field(el, 'limits.1.currencyCode'), 'EUR');
    type(field(el, 'limits.1.maxPerTransaction'), '100');
    type(field(el, 'limits.2.currencyCode'), 'GBP');
    (part(el, 'submit-button') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(field(el, 'limits.0.maxPerTransaction').getAttribute('aria-invalid')).to.equal('true');
    expect(errorOf(el, 'limits.2.maxPerTransaction')).to.equal('This field is required.');

    shadow(el).querySelector<HTMLButtonElement>('[aria-label="Remove limit 1"]')!.click();
    await el.updateComplete;
    // EUR 100 is now the first row, and valid; GBP without an amount the second, still refused.
    expect(field(el, 'limits.0.currencyCode').value).to.equal('EUR');
    expect([field(el, 'limits.0.maxPerTransaction').getAttribute('aria-invalid'), errorOf(el, 'limits.0.maxPerTransaction')]).to.deep.equal(['false', '']);
    expect([field(el, 'limits.1.maxPerTransaction').getAttribute('aria-invalid'), errorOf(el, 'limits.1.maxPerTransaction')]).to.deep.equal(['true', 'This field is required.']);
  });

  it('a name of 256 characters with no space, and the largest amount, stay in a column 320 pixels wide: form, list, notice and revoke question', async () => {
    await logInByEmail(await mount('wallet-login', { 'account-id': acct.accountId }));
    for (const lang of ['en', 'ar']) {
      const el = await openForm(lang, 1);
      el.style.inlineSize = '320px';
      const name = (lang === 'en' ? 'W' : 'ش').repeat(256);
      type(field(el, 'nickname'), name);
      type(field(el, 'limits.0.currencyCode'), 'USD');
      type(field(el, 'limits.0.maxPerTransaction'), '9007199254740991');
      await el.updateComplete;
      expect(wide(el), `${lang}: the form`).to.deep.equal([]);
      const created = nextEvent<CustomEvent<{ key: DelegatedKey }>>(el, 'delegated-key-created');
      (part(el, 'submit-button') as HTMLButtonElement).click();
      const { key } = (await created).detail;
      await el.updateComplete;
      expect(key.nickname).to.equal(name);
      expect(wide(el), `${lang}: the list and its notice`).to.deep.equal([]);
      (part(el, 'revoke-button') as HTMLButtonElement).click();
      await el.updateComplete;
      expect(wide(el), `${lang}: the revoke question`).to.deep.equal([]);
      const revoked = nextEvent(el, 'delegated-key-revoked');
      shadow(el).querySelector<HTMLButtonElement>('.confirm button')!.click();
      await revoked;
      await el.updateComplete;
      expect(wide(el), `${lang}: revoked`).to.deep.equal([]);
      el.remove();
    }
  });

  it('a currency code typed in full-width letters (a Japanese or Chinese keyboard) is that code: previewed and not refused', async () => {
    const el = await openForm('en', 1);
    type(field(el, 'nickname'), 'Groceries');
    type(field(el, 'limits.0.currencyCode'), 'ｕｓｄ');
    type(field(el, 'limits.0.maxPerTransaction'), '５０００');
    await el.updateComplete;
    expect(shadow(el).getElementById('limits.0.maxPerTransaction-preview')!.textContent).to.equal('= $50.00');
    (part(el, 'submit-button') as HTMLButtonElement).click();
    await el.updateComplete;
    expect([field(el, 'limits.0.currencyCode').getAttribute('aria-invalid'), errorOf(el, 'limits.0.currencyCode')]).to.deep.equal(['false', '']);
  });

  it('an amount beyond 2^53 - 1 of the smallest unit, typed or pasted, is refused as too large, never cut to fewer digits, in English and Arabic', async () => {
    // In Arabic, the digits of the engine's locale data: Latin in Chromium's, Arabic-Indic in WebKitGTK's (the system's ICU).
    const arabic = new RegExp(new Intl.NumberFormat('ar').format(9007199254740991));
    for (const [lang, said] of [['en', /^Enter 9,007,199,254,740,991 or less\.$/], ['ar', arabic]] as const) {
      const el = await openForm(lang, 2);
      type(field(el, 'nickname'), 'Groceries');
      type(field(el, 'limits.0.currencyCode'), 'USD');
      type(field(el, 'limits.0.maxPerTransaction'), '9007199254740992');
      type(field(el, 'limits.1.currencyCode'), 'EUR');
      // Pasted as a user does: the field takes what its rules allow.
      field(el, 'limits.1.maxPerTransaction').focus();
      document.execCommand('insertText', false, '100000000000000000');
      expect(field(el, 'limits.1.maxPerTransaction').value).to.equal('100000000000000000');
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await el.updateComplete;
      for (const row of [0, 1]) expect(errorOf(el, `limits.${row}.maxPerTransaction`), `${lang}, row ${row}`).to.match(said);
      expect(shadow(el).activeElement === field(el, 'limits.0.maxPerTransaction'), 'focus on the first refused amount').to.equal(true);
      el.remove();
    }
  });
});
