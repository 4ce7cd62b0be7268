// Importing each element module on a server (Node, no DOM) must not throw (STYLE.md: server-side
// rendering must not meet "CustomEvent is not defined"), and must define the element in the
// registry a DOM shim provides there (@lit-labs/ssr-dom-shim, what Lit's server rendering
// installs), touching no storage or network. Without any shim, importing must not throw either:
// test/node/packaging/dist.test.ts imports every published entry so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HTMLElement, customElements } from '@lit-labs/ssr-dom-shim';

Object.assign(globalThis, { HTMLElement, customElements });

for (const tag of ['wallet-login', 'passkey-register', 'wallet-credentials']) {
  test(`importing ${tag} on a server (DOM shim) defines it`, async () => {
    assert.equal(typeof document, 'undefined');
    const mod = (await import(`../../../src/elements/${tag}/index.ts`)) as Record<string, unknown>;
    assert.ok(Object.keys(mod).length > 0);
    assert.equal(typeof customElements.get(tag), 'function');
  });
}

test('the shared element modules import on a server', async () => {
  await import('../../../src/elements/shared/config.ts');
  await import('../../../src/elements/shared/strings.ts');
  await import('../../../src/elements/shared/error-strings.ts');
  await import('../../../src/elements/shared/session-channel.ts');
  await import('../../../src/elements/shared/ceremony.ts');
  await import('../../../src/locales/ar.ts');
  const { translate } = await import('../../../src/elements/shared/i18n.ts');
  assert.equal(translate('ar', 'login.heading'), 'سجّل الدخول إلى محفظتك');
  assert.equal(translate('ar-EG', 'error.wrong_code').length > 0, true);
  assert.equal(translate('fr', 'login.heading'), 'Log in to your wallet');
  // Numbers are written as the language writes them; a language that is no valid tag is read as
  // its primary language, or English (localeOf), as Intl throws on it.
  assert.equal(translate('ar-sa', 'error.wait', { seconds: 12 }), 'يمكنك المحاولة مرة أخرى بعد ١٢ ث.');
  assert.equal(translate('en', 'error.wait', { seconds: 1200 }), 'You can try again in 1,200 s.');
  const { localeOf, setLocale } = await import('../../../src/elements/shared/i18n.ts');
  try {
    for (const [lang, shown] of [['en-', 'en'], ['ar-', 'ar'], ['x', 'en'], ['123', 'en'], ['en--us', 'en'], [' ', 'en'], ['fr', 'en'], ['ar-sa', 'ar-sa']]) {
      setLocale(lang);
      assert.equal(localeOf(undefined), shown, lang);
    }
    setLocale('en-');
    assert.equal(translate(localeOf(undefined), 'error.wait', { seconds: 1200 }), 'You can try again in 1,200 s.');
  } finally {
    setLocale(undefined);
  }
});

test('a count picks the sentence of its plural category in the language of the sentence: English "1 second", Arabic "رقمين"; a language without that sentence keeps its own', async () => {
  await import('../../../src/elements/shared/error-strings.ts');
  await import('../../../src/locales/ar.ts');
  const { setStrings, translate } = await import('../../../src/elements/shared/i18n.ts');
  assert.equal(translate('en', 'error.rate_limited_wait', { seconds: 1 }), 'Too many attempts. Wait 1 second, then try again.');
  assert.equal(translate('en', 'error.rate_limited_wait', { seconds: 2 }), 'Too many attempts. Wait 2 seconds, then try again.');
  const sent = (length: number) => translate('ar', 'login.code.sent.sms-otp', { length }).replace(/ في رسالة.*$/, '');
  const n = (count: number) => count.toLocaleString('ar');
  assert.deepEqual(
    [0, 1, 2, 3, 10, 11, 99, 100, 102, 103, 111].map(sent),
    [`أرسلنا رمزًا من ${n(0)} رقم`, 'أرسلنا رمزًا من رقم واحد', 'أرسلنا رمزًا من رقمين', `أرسلنا رمزًا من ${n(3)} أرقام`, `أرسلنا رمزًا من ${n(10)} أرقام`, `أرسلنا رمزًا من ${n(11)} رقمًا`, `أرسلنا رمزًا من ${n(99)} رقمًا`, `أرسلنا رمزًا من ${n(100)} رقم`, `أرسلنا رمزًا من ${n(102)} رقم`, `أرسلنا رمزًا من ${n(103)} أرقام`, `أرسلنا رمزًا من ${n(111)} رقمًا`],
  );
  // An integrator's sentence without plural forms is theirs for every count: never English's "one".
  setStrings('de', { 'error.rate_limited_wait': 'Zu viele Versuche. Warte {seconds} s.' });
  assert.equal(translate('de', 'error.rate_limited_wait', { seconds: 1 }), 'Zu viele Versuche. Warte 1 s.');
});

test('a language written as a server locale (en_US, ar_SA, with "_") is that language, as Intl takes it', async () => {
  const { directionOf, localeOf, setLocale, setStrings, translate } = await import('../../../src/elements/shared/i18n.ts');
  try {
    setLocale('ar_SA');
    assert.equal(localeOf(undefined), 'ar-sa');
    assert.equal(directionOf(localeOf(undefined)), 'rtl');
    assert.equal(translate(localeOf(undefined), 'login.heading'), 'سجّل الدخول إلى محفظتك');
    setLocale('en_US');
    assert.equal(new Intl.DateTimeFormat(localeOf(undefined)).resolvedOptions().locale, 'en-US');
    // An integrator's strings under "pt_BR" are found for a page's lang="pt-BR", and the other way round.
    setStrings('pt_BR', { 'login.heading': 'Entre na sua carteira' });
    setLocale('pt-BR');
    assert.equal(translate(localeOf(undefined), 'login.heading'), 'Entre na sua carteira');
    setLocale('pt_br');
    assert.equal(translate(localeOf(undefined), 'login.heading'), 'Entre na sua carteira');
  } finally {
    setLocale(undefined);
  }
});

test('Arabic (src/locales/ar.ts) covers every English string of every element, with the same placeholders, and nothing else', async () => {
  const { ar } = await import('../../../src/locales/ar.ts');
  const tables: Array<Record<string, string>> = [
    (await import('../../../src/elements/shared/strings.ts')).sharedStrings.en,
    (await import('../../../src/elements/shared/error-strings.ts')).sharedErrorStrings.en,
    (await import('../../../src/elements/wallet-login/wallet-login.strings.ts')).walletLoginStrings.en,
    (await import('../../../src/elements/wallet-login/wallet-login.view-strings.ts')).walletLoginViewStrings.en,
    (await import('../../../src/elements/passkey-register/passkey-register.strings.ts')).passkeyRegisterStrings.en,
    (await import('../../../src/elements/wallet-credentials/wallet-credentials.strings.ts')).walletCredentialsStrings.en,
    (await import('../../../src/elements/card-reveal/card-reveal.strings.ts')).cardRevealStrings.en,
    (await import('../../../src/elements/card-reveal/card-reveal.error-strings.ts')).cardRevealErrorStrings.en,
    (await import('../../../src/elements/delegated-keys/delegated-keys.strings.ts')).delegatedKeysStrings.en,
    (await import('../../../src/elements/agent-actions/agent-actions.strings.ts')).agentActionsStrings.en,
  ];
  const arabic: Record<string, string> = ar;
  const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  // A sentence's forms by plural category (`key_one`, ...) are each language's own: one of
  // English's needs none in Arabic, and an Arabic one may say the number in words ("رقمين").
  const plural = /_(zero|one|two|few|many)$/;
  const english = new Set<string>();
  for (const en of tables) {
    for (const [key, text] of Object.entries(en)) {
      if (plural.test(key)) continue;
      english.add(key);
      assert.equal(typeof arabic[key], 'string', `${key} has no Arabic`);
      assert.deepEqual(placeholders(arabic[key]!), placeholders(text), key);
      // A string with no words (`= {amount}`) reads the same in both languages.
      if (/[A-Za-z]/.test(text.replace(/\{\w+\}/g, ''))) assert.notEqual(arabic[key], text, `${key} is not translated`);
    }
  }
  for (const [key, text] of Object.entries(arabic)) {
    const sentence = key.replace(plural, '');
    assert.ok(english.has(sentence), `${key} has no English`);
    // A form may say its number in words ("رقمين"); it puts in nothing its sentence does not.
    for (const p of placeholders(text)) assert.ok(placeholders(arabic[sentence]!).includes(p), `${key}: {${p}}`);
  }
});

test('Arabic sentences with a count read right at every count (0, 1, 2, 3-10, 11 and more): no counted noun follows the number', async () => {
  // An Arabic noun after a number takes a form of its own for 1, 2, 3-10 and 11+ ("5 ثوانٍ", "11
  // ثانية"): a sentence with a count either has a form per plural category (`key_few`, ...; the
  // code's digits, `{length}`, do), or says it without such a noun ("...: 5", or the unit's
  // abbreviation "ث").
  const { ar } = await import('../../../src/locales/ar.ts');
  const counted = /^\s*(رقم|أرقام|ثانية|ثوان|ثانيتين|ثانيتان|دقيقة|دقائق|ساعة|ساعات|يوم|أيام|حرف|أحرف|مفتاح|مفاتيح|إجراء|إجراءات|محاولة|محاولات)/;
  const table = ar as Record<string, string>;
  for (const [key, text] of Object.entries(table)) {
    if (table[`${key.replace(/_(one|two|few|many)$/, '')}_few`] !== undefined) continue;
    for (const m of text.matchAll(/\{(seconds|count|n|shown|total|length)\}/g)) {
      assert.doesNotMatch(text.slice(m.index + m[0].length), counted, `${key}: "${text}"`);
    }
  }
  // A form rule's bound has one value ({chars} 256, {to} 16, {max} 100), so its noun has one form:
  // the singular accusative after 11-99 ("256 حرفًا", "16 حرفًا"), the singular genitive after a
  // round hundred ("100 حرف").
  assert.match(table['delegated-keys.nickname-hint']!, /\{chars\} حرفًا/);
  assert.match(table['delegated-keys.field.too_long']!, /\{chars\} حرفًا/);
  assert.match(table['delegated-keys.field.invalid_currency']!, /\{to\} حرفًا/);
  assert.match(table['passkey.nickname.invalid']!, /\{max\} حرف\./);
  const { NICKNAME_MAX } = await import('../../../src/elements/delegated-keys/delegated-keys.machine.ts');
  assert.ok(NICKNAME_MAX % 100 > 10, `${NICKNAME_MAX} takes the form for 11-99`);
});

test('every failure code has a sentence in both languages', async () => {
  const { FAILURE_CODES } = await import('../../../src/elements/shared/failures.ts');
  const { sharedStrings } = await import('../../../src/elements/shared/strings.ts');
  const { sharedErrorStrings } = await import('../../../src/elements/shared/error-strings.ts');
  const { ar } = await import('../../../src/locales/ar.ts');
  const en: Record<string, string> = { ...sharedStrings.en, ...sharedErrorStrings.en };
  for (const code of FAILURE_CODES) {
    assert.ok(en[`error.${code}`], code);
    assert.ok((ar as Record<string, string>)[`error.${code}`], code);
  }
});
