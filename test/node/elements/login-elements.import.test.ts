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
  await import('../../../src/elements/shared/session-channel.ts');
  await import('../../../src/elements/shared/ceremony.ts');
  await import('../../../src/locales/ar.ts');
  const { translate } = await import('../../../src/elements/shared/i18n.ts');
  assert.equal(translate('ar', 'login.heading'), 'سجّل الدخول إلى محفظتك');
  assert.equal(translate('ar-EG', 'error.wrong_code').length > 0, true);
  assert.equal(translate('fr', 'login.heading'), 'Log in to your wallet');
  // Numbers are written as the language writes them; a lang that is no valid tag keeps them as is.
  assert.equal(translate('ar-sa', 'error.wait', { seconds: 12 }), 'يمكنك المحاولة مرة أخرى بعد ١٢ ث.');
  assert.equal(translate('en', 'error.wait', { seconds: 1200 }), 'You can try again in 1,200 s.');
  assert.equal(translate('en_us', 'error.wait', { seconds: 1200 }), 'You can try again in 1200 s.');
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
    (await import('../../../src/elements/wallet-login/wallet-login.strings.ts')).walletLoginStrings.en,
    (await import('../../../src/elements/passkey-register/passkey-register.strings.ts')).passkeyRegisterStrings.en,
    (await import('../../../src/elements/wallet-credentials/wallet-credentials.strings.ts')).walletCredentialsStrings.en,
    (await import('../../../src/elements/card-reveal/card-reveal.strings.ts')).cardRevealStrings.en,
    (await import('../../../src/elements/delegated-keys/delegated-keys.strings.ts')).delegatedKeysStrings.en,
    (await import('../../../src/elements/agent-actions/agent-actions.strings.ts')).agentActionsStrings.en,
  ];
  const arabic: Record<string, string> = ar;
  const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const english = new Set<string>();
  for (const en of tables) {
    for (const [key, text] of Object.entries(en)) {
      english.add(key);
      assert.equal(typeof arabic[key], 'string', `${key} has no Arabic`);
      assert.deepEqual(placeholders(arabic[key]!), placeholders(text), key);
      // A string with no words (`= {amount}`) reads the same in both languages.
      if (/[A-Za-z]/.test(text.replace(/\{\w+\}/g, ''))) assert.notEqual(arabic[key], text, `${key} is not translated`);
    }
  }
  for (const key of Object.keys(arabic)) assert.ok(english.has(key), `${key} has no English`);
});

test('Arabic sentences with a count read right at every count (0, 1, 2, 3-10, 11 and more): no counted noun follows the number', async () => {
  // An Arabic noun after a number takes a form of its own for 1, 2, 3-10 and 11+ ("5 ثوانٍ", "11
  // ثانية"); i18n.ts has no plural rules, so a sentence with a count says it without such a noun
  // ("...: 5", or the unit's abbreviation "ث"). `{length}` is the code's digits, which the
  // service sends 6 of: "أرقام" is right for 3 to 10.
  const { ar } = await import('../../../src/locales/ar.ts');
  const counted = /^\s*(ثانية|ثوان|ثانيتين|ثانيتان|دقيقة|دقائق|ساعة|ساعات|يوم|أيام|حرف|أحرف|مفتاح|مفاتيح|إجراء|إجراءات|محاولة|محاولات)/;
  for (const [key, text] of Object.entries(ar as Record<string, string>)) {
    for (const m of text.matchAll(/\{(seconds|count|n|shown|total)\}/g)) {
      assert.doesNotMatch(text.slice(m.index + m[0].length), counted, `${key}: "${text}"`);
    }
  }
});

test('every failure code has a sentence in both languages', async () => {
  const { FAILURE_CODES } = await import('../../../src/elements/shared/failures.ts');
  const { sharedStrings } = await import('../../../src/elements/shared/strings.ts');
  const { ar } = await import('../../../src/locales/ar.ts');
  for (const code of FAILURE_CODES) {
    assert.ok((sharedStrings.en as Record<string, string>)[`error.${code}`], code);
    assert.ok((ar as Record<string, string>)[`error.${code}`], code);
  }
});
