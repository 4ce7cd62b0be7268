// Importing each element module on a server (Node, no DOM) must not throw (STYLE.md: server-side
// rendering must not meet "CustomEvent is not defined"), and must define the element in the
// registry Lit provides there, touching no storage or network.
import { test } from 'node:test';
import assert from 'node:assert/strict';

for (const tag of ['wallet-login', 'passkey-register', 'wallet-credentials']) {
  test(`importing ${tag} on a server defines it without a DOM`, async () => {
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
  const { translate } = await import('../../../src/elements/shared/i18n.ts');
  assert.equal(translate('ar', 'login.heading'), 'سجّل الدخول إلى محفظتك');
  assert.equal(translate('ar-EG', 'error.wrong_code').length > 0, true);
  assert.equal(translate('fr', 'login.heading'), 'Log in to your wallet');
});

test('Arabic covers every English string of these elements, with the same placeholders', async () => {
  const tables = [
    (await import('../../../src/elements/shared/strings.ts')).sharedStrings,
    (await import('../../../src/elements/wallet-login/wallet-login.strings.ts')).walletLoginStrings,
    (await import('../../../src/elements/passkey-register/passkey-register.strings.ts')).passkeyRegisterStrings,
    (await import('../../../src/elements/wallet-credentials/wallet-credentials.strings.ts')).walletCredentialsStrings,
  ];
  const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const table of tables) {
    assert.deepEqual(Object.keys(table.ar).sort(), Object.keys(table.en).sort());
    for (const [key, en] of Object.entries(table.en)) {
      assert.deepEqual(placeholders(table.ar[key]!), placeholders(en), key);
      assert.notEqual(table.ar[key], en, `${key} is not translated`);
    }
  }
});

test('every failure code has a sentence in both languages', async () => {
  const { FAILURE_CODES } = await import('../../../src/elements/shared/failures.ts');
  const { sharedStrings } = await import('../../../src/elements/shared/strings.ts');
  for (const code of FAILURE_CODES) {
    assert.ok(sharedStrings.en[`error.${code}`], code);
    assert.ok(sharedStrings.ar[`error.${code}`], code);
  }
});
