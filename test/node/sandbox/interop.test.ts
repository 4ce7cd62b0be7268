// The sandbox against an independent client implementation (DESIGN.md "Independent implementations
// to test against"): @turnkey/crypto encrypts the OTP to the sandbox's target bundle, verifies the
// sandbox's OTP verification token and decrypts its session-key and export bundles, and
// @turnkey/api-key-stamper makes the wallet signatures. No src/core crypto on the client side here.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import {
  decryptCredentialBundle,
  decryptExportBundle,
  encryptOtpCodeToBundle,
  generateP256KeyPair,
  getPublicKey,
  verifyOtpVerificationToken,
} from '@turnkey/crypto';
import { sha256Hex } from '../../../src/core/encoding.ts';
import { mintIdToken, SANDBOX_WALLET_PHRASE } from '../../../src/sandbox/index.ts';
import { Api, assertAuthSession, withSandbox } from './helpers.ts';

let api: Api;

before(async () => {
  api = await withSandbox();
});
after(() => api.sandbox.close());

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** A signed retry where the stamp comes from @turnkey/api-key-stamper. */
async function signedWith(stamper: ApiKeyStamper, method: string, path: string, body: unknown) {
  let r = await api.call(method, path, { body });
  for (let i = 0; i < 3 && r.status === 202; i++) {
    const { stampHeaderValue } = await stamper.stamp(r.body.payloadToSign);
    r = await api.call(method, path, { body, headers: { 'Service-Wallet-Signature': stampHeaderValue, 'Request-Id': r.body.requestId } });
  }
  return r;
}

describe('independent client (@turnkey/crypto, @turnkey/api-key-stamper)', () => {
  test('EMAIL_OTP login: encryptOtpCodeToBundle to the sandbox target, verification token verifies, ApiKeyStamper signs', async () => {
    const acct = await api.newAccount();
    const ch = await api.call('POST', `/auth/credentials/${acct.emailCredentialId}/challenge`);
    const client = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle('000000', ch.body.otpEncryptionTargetBundle, client.publicKey, api.fx.signerPublicKey);
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle };
    const first = await api.call('POST', `/auth/credentials/${acct.emailCredentialId}/verify`, { body });
    assert.equal(first.status, 202, first.text);
    const claims = await verifyOtpVerificationToken(first.body.payloadToSign, api.fx.signerPublicKey);
    assert.equal(claims.public_key, client.publicKey);
    assert.equal(claims.organization_id, acct.accountId);
    assert.equal(claims.verification_type, 'OTP_TYPE_EMAIL');
    const stamper = new ApiKeyStamper({ apiPublicKey: client.publicKey, apiPrivateKey: client.privateKey });
    const { stampHeaderValue } = await stamper.stamp(first.body.payloadToSign);
    const session = await api.call('POST', `/auth/credentials/${acct.emailCredentialId}/verify`, { body, headers: { 'Service-Wallet-Signature': stampHeaderValue, 'Request-Id': first.body.requestId } });
    assert.equal(session.status, 200, session.text);
    assertAuthSession(session.body);

    const privacy = await signedWith(stamper, 'PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true });
    assert.equal(privacy.status, 200, privacy.text);

    // Export, opened with decryptExportBundle pinned to the sandbox signer.
    const receiver = generateP256KeyPair();
    const exported = await signedWith(stamper, 'POST', `/internal-accounts/${acct.accountId}/export`, { clientPublicKey: receiver.publicKeyUncompressed });
    assert.equal(exported.status, 200, exported.text);
    const phrase = await decryptExportBundle({
      exportBundle: exported.body.encryptedWalletCredentials,
      embeddedKey: receiver.privateKey,
      organizationId: acct.accountId,
      dangerouslyOverrideSignerPublicKey: api.fx.signerPublicKey,
      returnMnemonic: true,
    });
    assert.equal(phrase, SANDBOX_WALLET_PHRASE);

    // Delegated key creation: two stamps from the independent stamper.
    const dk = await signedWith(stamper, 'POST', '/auth/delegated-keys', { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'interop' });
    assert.equal(dk.status, 201, dk.text);
  });

  test('OAUTH login: decryptCredentialBundle opens encryptedSessionSigningKey; the key signs', async () => {
    const acct = await api.newAccount();
    const email = await api.otpLogin(acct.emailCredentialId);
    const now = api.sandbox.clock.now();
    const created = await api.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: acct.accountId, oidcToken: await mintIdToken({ sub: 'interop' }, { now }) }, email.key);
    assert.equal(created.status, 201);
    const client = generateP256KeyPair();
    const oidcToken = await mintIdToken({ sub: 'interop', nonce: await sha256Hex(client.publicKeyUncompressed) }, { now });
    const r = await api.call('POST', `/auth/credentials/${created.body.id}/verify`, { body: { type: 'OAUTH', oidcToken, clientPublicKey: client.publicKeyUncompressed } });
    assert.equal(r.status, 200, r.text);
    const sessionPrivate = decryptCredentialBundle(r.body.encryptedSessionSigningKey, client.privateKey);
    assert.match(sessionPrivate, /^[0-9a-f]{64}$/);
    const stamper = new ApiKeyStamper({ apiPublicKey: hex(getPublicKey(sessionPrivate, true)), apiPrivateKey: sessionPrivate });
    const privacy = await signedWith(stamper, 'PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true });
    assert.equal(privacy.status, 200, privacy.text);
  });
});
