// Wallet operations behind the signed retry (reference.md "Wallet operations that use the signed
// retry"; api.md "PATCH {base_url}/customers/{customerId}").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateEncryptionKey } from '../../../src/core/p256.ts';
import { decryptExportEnvelope, PRODUCTION_EXPORT_SIGNER } from '../../../src/core/bundles.ts';
import { SANDBOX_WALLET_PHRASE } from '../../../src/sandbox/index.ts';
import { Api, assertError, assertFieldError, bytesToHex, withSandbox } from './helpers.ts';

let api: Api;

before(async () => {
  api = await withSandbox();
});
after(() => api.sandbox.close());

describe('wallet export', () => {
  test('signed retry, then {id, encryptedWalletCredentials}: a signed envelope that opens to the 12-word phrase', async () => {
    const acct = await api.newAccount();
    const { key } = await api.otpLogin(acct.emailCredentialId);
    const receiver = await generateEncryptionKey();
    const body = { clientPublicKey: bytesToHex(receiver.publicKey) };
    const r = await api.signed('POST', `/internal-accounts/${acct.accountId}/export`, body, key);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body).sort(), ['encryptedWalletCredentials', 'id']);
    assert.equal(r.body.id, acct.accountId);
    const phrase = await decryptExportEnvelope(r.body.encryptedWalletCredentials, receiver, { trustedSigner: api.fx.signerPublicKey, organizationId: acct.accountId });
    assert.equal(phrase, SANDBOX_WALLET_PHRASE);
    assert.equal(phrase.split(' ').length, 12);
    // Really signed: pinning another signer refuses it; another receiver cannot open it.
    await assert.rejects(decryptExportEnvelope(r.body.encryptedWalletCredentials, receiver, { trustedSigner: PRODUCTION_EXPORT_SIGNER }));
    await assert.rejects(decryptExportEnvelope(r.body.encryptedWalletCredentials, await generateEncryptionKey(), { trustedSigner: api.fx.signerPublicKey }));
  });

  test('validation and 404', async () => {
    const acct = await api.newAccount();
    assertFieldError(await api.call('POST', `/internal-accounts/${acct.accountId}/export`, { body: {} }), 'clientPublicKey');
    assertFieldError(await api.call('POST', `/internal-accounts/${acct.accountId}/export`, { body: { clientPublicKey: '03' + 'aa'.repeat(32) } }), 'clientPublicKey');
    const receiver = await generateEncryptionKey();
    assertError(await api.call('POST', '/internal-accounts/InternalAccount:00000000-0000-4000-8000-000000000000/export', { body: { clientPublicKey: bytesToHex(receiver.publicKey) } }), 404);
  });
});

describe('wallet privacy', () => {
  test('PATCH {privateEnabled} through the signed retry; 200 InternalAccount', async () => {
    const acct = await api.newAccount();
    const { key } = await api.otpLogin(acct.emailCredentialId);
    const ch = await api.challenge('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true });
    assert.equal(ch.type, undefined, 'type only on credential and session operations');
    const r = await api.signed('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true }, key);
    assert.equal(r.status, 200);
    assert.equal(r.body.id, acct.accountId);
    assert.equal(r.body.privateEnabled, true);
    assert.equal((await api.call('GET', `/internal-accounts/${acct.accountId}`)).body.privateEnabled, true);
    assertFieldError(await api.call('PATCH', `/internal-accounts/${acct.accountId}`, { body: { privateEnabled: 'yes' } }), 'privateEnabled');
    assertFieldError(await api.call('PATCH', `/internal-accounts/${acct.accountId}`, { body: {} }), 'privateEnabled');
  });
});

describe('customer email', () => {
  test('202 when an EMAIL_OTP credential is tied, then 200 Customer; the credential nickname follows', async () => {
    const acct = await api.newAccount();
    const { key } = await api.otpLogin(acct.emailCredentialId);
    const path = `/customers/${acct.customerId}`;
    const r = await api.signed('PATCH', path, { email: 'new@example.com' }, key);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.id, acct.customerId);
    assert.equal(r.body.email, 'new@example.com');
    const creds = await api.call('GET', `/auth/credentials?accountId=${acct.accountId}`);
    assert.equal(creds.body.data[0].nickname, 'new@example.com');
    assert.equal((await api.call('GET', path)).body.email, 'new@example.com');
  });

  test('200 directly when no OTP credential is tied; validation', async () => {
    const acct = await api.newAccount({ emailCredential: false });
    const path = `/customers/${acct.customerId}`;
    const r = await api.call('PATCH', path, { body: { email: 'direct@example.com' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.email, 'direct@example.com');
    assertFieldError(await api.call('PATCH', path, { body: { email: 'not-an-email' } }), 'email');
    assertError(await api.call('PATCH', path, { body: { email: 'a@b.co', phone: '+14155550100' } }), 400, 'INVALID_INPUT');
    assertError(await api.call('PATCH', path, { body: {} }), 400, 'INVALID_INPUT');
    // api.md "Errors" names 404 USER_NOT_FOUND, and a user is a customer there (USER_NOT_READY: "customer not ready").
    const unknown = '/customers/Customer:00000000-0000-4000-8000-000000000000';
    assertError(await api.call('PATCH', unknown, { body: { email: 'a@b.co' } }), 404, 'USER_NOT_FOUND');
    assertError(await api.call('GET', unknown), 404, 'USER_NOT_FOUND');
  });

  test('a session of another customer cannot sign the change', async () => {
    const acct = await api.newAccount();
    const other = await api.otpLogin((await api.newAccount()).emailCredentialId);
    const ch = await api.challenge('PATCH', `/customers/${acct.customerId}`, { email: 'x@example.com' });
    assertError(await api.retry('PATCH', `/customers/${acct.customerId}`, { email: 'x@example.com' }, ch, other.key), 401, 'WALLET_SIGNATURE_INVALID');
  });
});
