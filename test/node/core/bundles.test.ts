/**
 * DESIGN.md wire formats 2-4 and the export envelope, in both directions against the independent
 * @turnkey/crypto (encryptOtpCodeToBundle, hpkeEncrypt, decryptCredentialBundle,
 * decryptExportBundle) and @hpke/core, plus the published credential-bundle vector of
 * @turnkey/crypto's own tests (test/vectors/turnkey-credential-bundle.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/nist.js';
import {
  decryptCredentialBundle,
  decryptExportBundle,
  encryptOtpCodeToBundle,
  hpkeEncrypt,
  PRODUCTION_SIGNER_SIGN_PUBLIC_KEY,
  PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY,
} from '@turnkey/crypto';
import { bs58check } from '@turnkey/encoding';
import {
  decryptExportEnvelope,
  decryptSessionKeyBundle,
  encryptOtpBundle,
  importSessionKeyBundle,
  PRODUCTION_EXPORT_SIGNER,
  PRODUCTION_OTP_SIGNER,
  SANDBOX_SIGNER_PUBLIC_KEY,
  verifyTargetBundle,
} from '../../../src/core/bundles.ts';
import {
  base58checkEncode,
  createExportEnvelope,
  createSignedEnvelope,
  createTargetBundle,
  openOtpBundle,
  sealSessionKeyBundle,
} from '../../../src/sandbox/service-bundles.ts';
import { bytesToHex, concatBytes, hexToBytes, sha256, utf8Decode, utf8Encode } from '../../../src/core/encoding.ts';
import { WalletError } from '../../../src/core/errors.ts';
import { HPKE_INFO } from '../../../src/core/hpke.ts';
import { ecdsaSign, generateEncryptionKey, generateSigningKey, importKeyFromScalar, publicKeyFromScalar, type KeyPair } from '../../../src/core/p256.ts';

const SANDBOX_SCALAR_HEX = 'e4bd772c8668248291c3113f7a045292dd0c00a6c6066f813735b206b1ba0770';
const sandboxSigner = () => importKeyFromScalar(hexToBytes(SANDBOX_SCALAR_HEX), 'ECDSA');

const bundleInvalid = (e: unknown) => e instanceof WalletError && e.code === 'bundle_invalid';
const invalidArgument = (e: unknown) => e instanceof WalletError && e.code === 'invalid_argument';

/** An ECDH receiver from a known scalar, so that the independent implementations can use the scalar too. */
async function receiverWithScalar(): Promise<{ receiver: KeyPair; scalarHex: string }> {
  const scalar = p256.utils.randomSecretKey();
  const scalarHex = bytesToHex(scalar);
  return { receiver: await importKeyFromScalar(scalar, 'ECDH'), scalarHex };
}

const editJson = (json: string, edit: (o: Record<string, string>) => void) => {
  const o = JSON.parse(json) as Record<string, string>;
  edit(o);
  return JSON.stringify(o);
};
const flipHexChar = (hex: string, at: number) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);

test('signer constants: the sandbox key is pk(SHA-256("wallet-elements sandbox signer v1")); production keys match @turnkey/crypto', async () => {
  const scalar = await sha256(utf8Encode('wallet-elements sandbox signer v1'));
  assert.equal(bytesToHex(scalar), SANDBOX_SCALAR_HEX);
  assert.equal(bytesToHex(publicKeyFromScalar(scalar)), SANDBOX_SIGNER_PUBLIC_KEY);
  assert.equal(PRODUCTION_OTP_SIGNER, PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY);
  assert.equal(PRODUCTION_EXPORT_SIGNER, PRODUCTION_SIGNER_SIGN_PUBLIC_KEY);
  for (const key of [PRODUCTION_OTP_SIGNER, PRODUCTION_EXPORT_SIGNER, SANDBOX_SIGNER_PUBLIC_KEY]) {
    assert.doesNotThrow(() => p256.Point.fromHex(key).assertValidity());
  }
});

test('wire format 2: a target bundle verifies and yields targetPublic; @turnkey/crypto accepts our signature too', async () => {
  const signer = await sandboxSigner();
  const target = await generateEncryptionKey();
  const bundle = await createTargetBundle(target.publicKey, signer);
  const parsed = JSON.parse(bundle) as Record<string, string>;
  assert.deepEqual(Object.keys(parsed), ['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
  assert.equal(parsed.version, 'v1.0.0');
  assert.equal(parsed.enclaveQuorumPublic, SANDBOX_SIGNER_PUBLIC_KEY);
  assert.deepEqual(JSON.parse(utf8Decode(hexToBytes(parsed.data!))), { targetPublic: bytesToHex(target.publicKey) });
  assert.deepEqual(await verifyTargetBundle(bundle, SANDBOX_SIGNER_PUBLIC_KEY), target.publicKey);
  // The independent implementation verifies the envelope's signature before encrypting to it.
  const client = await generateSigningKey();
  await assert.doesNotReject(encryptOtpCodeToBundle('000000', bundle, bytesToHex(p256.Point.fromBytes(client.publicKey).toBytes(true)), SANDBOX_SIGNER_PUBLIC_KEY));
});

test('wire format 2: one pair of stray single quotes (and surrounding whitespace) is tolerated', async () => {
  const signer = await sandboxSigner();
  const target = await generateEncryptionKey();
  const bundle = await createTargetBundle(target.publicKey, signer);
  for (const quoted of [`'${bundle}'`, ` '${bundle}'\n`, `\n${bundle} `]) {
    assert.deepEqual(await verifyTargetBundle(quoted, SANDBOX_SIGNER_PUBLIC_KEY), target.publicKey);
  }
  await assert.rejects(verifyTargetBundle(`''${bundle}''`, SANDBOX_SIGNER_PUBLIC_KEY), bundleInvalid);
  await assert.rejects(verifyTargetBundle(`'${bundle}`, SANDBOX_SIGNER_PUBLIC_KEY), bundleInvalid);
});

test('wire format 2: wrong signer key, tampered data, tampered signature and malformed bundles are rejected', async () => {
  const signer = await sandboxSigner();
  const target = await generateEncryptionKey();
  const bundle = await createTargetBundle(target.publicKey, signer);
  const verify = (b: string, key = SANDBOX_SIGNER_PUBLIC_KEY) => verifyTargetBundle(b, key);

  // Pinned to the production key: the sandbox-signed bundle is refused.
  await assert.rejects(verify(bundle, PRODUCTION_OTP_SIGNER), bundleInvalid);
  // Signed by another key that claims to be the pinned one.
  const attacker = await generateSigningKey();
  const forged = editJson(await createTargetBundle(target.publicKey, attacker), (o) => (o.enclaveQuorumPublic = SANDBOX_SIGNER_PUBLIC_KEY));
  await assert.rejects(verify(forged), bundleInvalid);
  // The attacker's bundle verifies only against the attacker's own key (the check is real).
  assert.ok(await verify(await createTargetBundle(target.publicKey, attacker), bytesToHex(attacker.publicKey)));
  // Tampered data: another targetPublic under the original signature.
  const other = await generateEncryptionKey();
  const swapped = editJson(bundle, (o) => (o.data = bytesToHex(utf8Encode(JSON.stringify({ targetPublic: bytesToHex(other.publicKey) })))));
  await assert.rejects(verify(swapped), bundleInvalid);
  await assert.rejects(verify(editJson(bundle, (o) => (o.data = flipHexChar(o.data!, 40)))), bundleInvalid);
  // Tampered signature: a flipped bit in s, and a signature that is not DER.
  await assert.rejects(verify(editJson(bundle, (o) => (o.dataSignature = flipHexChar(o.dataSignature!, o.dataSignature!.length - 1)))), bundleInvalid);
  await assert.rejects(verify(editJson(bundle, (o) => (o.dataSignature = '3000'))), bundleInvalid);
  await assert.rejects(verify(editJson(bundle, (o) => (o.dataSignature = ''))), bundleInvalid);
  await assert.rejects(verify(editJson(bundle, (o) => (o.dataSignature = 'xyz'))), bundleInvalid);
  // Malformed JSON and missing fields.
  await assert.rejects(verify(bundle.slice(0, -1)), bundleInvalid);
  await assert.rejects(verify('[]'), bundleInvalid);
  await assert.rejects(verify(editJson(bundle, (o) => delete o.data)), bundleInvalid);
  await assert.rejects(verify(editJson(bundle, (o) => delete o.enclaveQuorumPublic)), bundleInvalid);
  await assert.rejects(verify(editJson(bundle, (o) => (o.data = 'zz'))), bundleInvalid);
  // Correctly signed data that is not what a target bundle holds.
  const signed = async (data: string) => createSignedEnvelope(utf8Encode(data), signer);
  await assert.rejects(verify(await signed('not json')), bundleInvalid);
  await assert.rejects(verify(await signed('{"organizationId":"x"}')), bundleInvalid);
  await assert.rejects(verify(await signed(JSON.stringify({ targetPublic: '04' + 'ff'.repeat(64) }))), bundleInvalid);
  await assert.rejects(verify(await signed(JSON.stringify({ targetPublic: bytesToHex(p256.Point.fromBytes(target.publicKey).toBytes(true)) }))), bundleInvalid);
  // A malformed pinned key is the caller's mistake.
  await assert.rejects(verifyTargetBundle(bundle, SANDBOX_SIGNER_PUBLIC_KEY.slice(2)), invalidArgument);
});

test('wire format 3: our encrypted OTP opens with @hpke/core (AAD = enc || targetPublic, info turnkey_hpke)', async () => {
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
  const targetScalar = p256.utils.randomSecretKey();
  const targetPublic = new Uint8Array(p256.getPublicKey(targetScalar, false));
  const client = await generateSigningKey();
  const bundle = await encryptOtpBundle({ otpCode: '000000', targetPublic, clientPublicKey: client.publicKey });
  const { encappedPublic, ciphertext } = JSON.parse(bundle) as Record<string, string>;
  const enc = hexToBytes(encappedPublic!);
  const recipientKey = await suite.kem.importKey('raw', new Uint8Array(targetScalar).buffer, false);
  const plaintext = await suite.open({ recipientKey, enc, info: HPKE_INFO }, hexToBytes(ciphertext!), concatBytes(enc, targetPublic));
  assert.deepEqual(JSON.parse(utf8Decode(new Uint8Array(plaintext))), {
    otp_code: '000000',
    public_key: bytesToHex(p256.Point.fromBytes(client.publicKey).toBytes(true)),
  });
});

test('wire format 3: bundles from @turnkey/crypto encryptOtpCodeToBundle open with openOtpBundle', async () => {
  const signer = await sandboxSigner();
  const target = await generateEncryptionKey();
  const targetBundle = await createTargetBundle(target.publicKey, signer);
  for (const code of ['000000', '123456', 'A1B2C3']) {
    const client = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true));
    const encrypted = await encryptOtpCodeToBundle(code, targetBundle, client, SANDBOX_SIGNER_PUBLIC_KEY);
    assert.deepEqual(await openOtpBundle(encrypted, target), { otpCode: code, publicKey: client });
  }
});

test('wire format 3: ours round-trips; wrong target, tampering and malformed bundles are bundle_invalid', async () => {
  const target = await generateEncryptionKey();
  const client = await generateSigningKey();
  const bundle = await encryptOtpBundle({ otpCode: '000000', targetPublic: target.publicKey, clientPublicKey: client.publicKey });
  const opened = await openOtpBundle(bundle, target);
  assert.equal(opened.otpCode, '000000');
  assert.equal(opened.publicKey, bytesToHex(p256.Point.fromBytes(client.publicKey).toBytes(true)));

  await assert.rejects(openOtpBundle(bundle, await generateEncryptionKey()), bundleInvalid);
  await assert.rejects(openOtpBundle(editJson(bundle, (o) => (o.ciphertext = flipHexChar(o.ciphertext!, 3))), target), bundleInvalid);
  const otherEnc = bytesToHex((await generateEncryptionKey()).publicKey);
  await assert.rejects(openOtpBundle(editJson(bundle, (o) => (o.encappedPublic = otherEnc)), target), bundleInvalid);
  await assert.rejects(openOtpBundle(editJson(bundle, (o) => (o.encappedPublic = flipHexChar(o.encappedPublic!, 129))), target), bundleInvalid);
  await assert.rejects(openOtpBundle('{"encappedPublic":', target), bundleInvalid);
  await assert.rejects(openOtpBundle(editJson(bundle, (o) => delete o.ciphertext), target), bundleInvalid);

  const compressed = p256.Point.fromBytes(target.publicKey).toBytes(true);
  await assert.rejects(encryptOtpBundle({ otpCode: '000000', targetPublic: compressed, clientPublicKey: client.publicKey }), invalidArgument);
  await assert.rejects(encryptOtpBundle({ otpCode: '', targetPublic: target.publicKey, clientPublicKey: client.publicKey }), invalidArgument);
});

const VECTOR = JSON.parse(readFileSync(new URL('../../vectors/turnkey-credential-bundle.json', import.meta.url), 'utf8')) as Record<string, string>;

test('wire format 4: the published @turnkey/crypto credential bundle vector decrypts with ours', async () => {
  const receiver = await importKeyFromScalar(hexToBytes(VECTOR.receiverPrivateKey!), 'ECDH');
  assert.equal(bytesToHex(await decryptSessionKeyBundle(VECTOR.bundle!, receiver)), VECTOR.plaintext);
  // The independent implementation agrees on the same vector.
  assert.equal(decryptCredentialBundle(VECTOR.bundle!, VECTOR.receiverPrivateKey!), VECTOR.plaintext);
  // Imported as the session key: non-extractable, with the public point of the decrypted scalar.
  const session = await importSessionKeyBundle(VECTOR.bundle!, receiver);
  assert.equal(session.privateKey.extractable, false);
  assert.deepEqual(session.publicKey, new Uint8Array(p256.getPublicKey(hexToBytes(VECTOR.plaintext!), false)));
  const sig = await ecdsaSign(session.privateKey, utf8Encode('payload'));
  assert.ok(p256.verify(sig, utf8Encode('payload'), session.publicKey, { format: 'der', lowS: false }));
});

test('wire format 4: @turnkey/crypto hpkeEncrypt + base58check bundles decrypt with ours; ours decrypt with decryptCredentialBundle', async () => {
  for (let i = 0; i < 5; i++) {
    const { receiver, scalarHex } = await receiverWithScalar();
    const sessionScalar = p256.utils.randomSecretKey();
    const theirs = bs58check.encode(hpkeEncrypt({ plainTextBuf: sessionScalar, targetKeyBuf: receiver.publicKey }));
    assert.deepEqual(await decryptSessionKeyBundle(theirs, receiver), new Uint8Array(sessionScalar));

    const ours = await sealSessionKeyBundle(sessionScalar, receiver.publicKey);
    assert.equal(decryptCredentialBundle(ours, scalarHex), bytesToHex(sessionScalar));
    assert.deepEqual(await decryptSessionKeyBundle(ours, receiver), new Uint8Array(sessionScalar));
  }
});

test('wire format 4: checksum, receiver, length and content errors are bundle_invalid', async () => {
  const { receiver } = await receiverWithScalar();
  const bundle = await sealSessionKeyBundle(p256.utils.randomSecretKey(), receiver.publicKey);
  await assert.rejects(decryptSessionKeyBundle(bundle.slice(0, -1) + (bundle.endsWith('2') ? '3' : '2'), receiver), bundleInvalid);
  await assert.rejects(decryptSessionKeyBundle(bundle, await generateEncryptionKey()), bundleInvalid);
  await assert.rejects(decryptSessionKeyBundle(await base58checkEncode(new Uint8Array(40)), receiver), bundleInvalid);
  await assert.rejects(decryptSessionKeyBundle('', receiver), bundleInvalid);
  // A well-formed bundle whose plaintext is not a 32-byte scalar.
  const short = bs58check.encode(hpkeEncrypt({ plainTextBuf: new Uint8Array(31).fill(7), targetKeyBuf: receiver.publicKey }));
  await assert.rejects(decryptSessionKeyBundle(short, receiver), bundleInvalid);
  // A 32-byte plaintext that is not a valid scalar (zero) fails on import.
  const zero = bs58check.encode(hpkeEncrypt({ plainTextBuf: new Uint8Array(32), targetKeyBuf: receiver.publicKey }));
  await assert.rejects(importSessionKeyBundle(zero, receiver), bundleInvalid);
});

const PHRASE = 'abandon ability able about above absent absorb abstract absurd abuse access accident';

test('export envelope: ours decrypts with ours and with @turnkey/crypto decryptExportBundle', async () => {
  const signer = await sandboxSigner();
  const { receiver, scalarHex } = await receiverWithScalar();
  const envelope = await createExportEnvelope({ plaintext: PHRASE, clientPublicKey: receiver.publicKey, signer, organizationId: 'org-1' });
  const inner = JSON.parse(utf8Decode(hexToBytes((JSON.parse(envelope) as Record<string, string>).data!))) as Record<string, string>;
  assert.deepEqual(Object.keys(inner).sort(), ['ciphertext', 'encappedPublic', 'organizationId']);
  assert.equal(await decryptExportEnvelope(envelope, receiver, { trustedSigner: SANDBOX_SIGNER_PUBLIC_KEY }), PHRASE);
  assert.equal(await decryptExportEnvelope(envelope, receiver, { trustedSigner: SANDBOX_SIGNER_PUBLIC_KEY, organizationId: 'org-1' }), PHRASE);
  const theirs = await decryptExportBundle({
    exportBundle: envelope,
    embeddedKey: scalarHex,
    organizationId: 'org-1',
    dangerouslyOverrideSignerPublicKey: SANDBOX_SIGNER_PUBLIC_KEY,
    returnMnemonic: true,
  });
  assert.equal(theirs, PHRASE);
});

test('export envelope: wrong signer, organization, receiver or tampering are refused; skipping verification is explicit', async () => {
  const signer = await sandboxSigner();
  const { receiver } = await receiverWithScalar();
  const envelope = await createExportEnvelope({ plaintext: PHRASE, clientPublicKey: receiver.publicKey, signer, organizationId: 'org-1' });
  const sandbox = { trustedSigner: SANDBOX_SIGNER_PUBLIC_KEY };
  await assert.rejects(decryptExportEnvelope(envelope, receiver, { trustedSigner: PRODUCTION_EXPORT_SIGNER }), bundleInvalid);
  await assert.rejects(decryptExportEnvelope(envelope, receiver, { ...sandbox, organizationId: 'org-2' }), bundleInvalid);
  await assert.rejects(decryptExportEnvelope(envelope, await generateEncryptionKey(), sandbox), bundleInvalid);
  await assert.rejects(decryptExportEnvelope(editJson(envelope, (o) => (o.data = flipHexChar(o.data!, 50))), receiver, sandbox), bundleInvalid);

  // The service's own sandbox leaves the signature empty: refused unless skipping is asked for by name.
  const unsigned = editJson(envelope, (o) => (o.dataSignature = ''));
  await assert.rejects(decryptExportEnvelope(unsigned, receiver, sandbox), bundleInvalid);
  assert.equal(await decryptExportEnvelope(unsigned, receiver, { dangerouslySkipSignatureVerification: true }), PHRASE);
  const bare = editJson(envelope, (o) => {
    delete o.dataSignature;
    delete o.enclaveQuorumPublic;
  });
  await assert.rejects(decryptExportEnvelope(bare, receiver, sandbox), bundleInvalid);
  assert.equal(await decryptExportEnvelope(bare, receiver, { dangerouslySkipSignatureVerification: true }), PHRASE);
  // Skipping the signature does not skip decryption: tampered ciphertext still fails.
  const tamperedInner = editJson(unsigned, (o) => {
    const inner = JSON.parse(utf8Decode(hexToBytes(o.data!))) as Record<string, string>;
    inner.ciphertext = flipHexChar(inner.ciphertext!, 0);
    o.data = bytesToHex(utf8Encode(JSON.stringify(inner)));
  });
  await assert.rejects(decryptExportEnvelope(tamperedInner, receiver, { dangerouslySkipSignatureVerification: true }), bundleInvalid);
  // No silent fallback: options that name neither are an argument error.
  await assert.rejects(decryptExportEnvelope(envelope, receiver, {} as never), invalidArgument);
  await assert.rejects(decryptExportEnvelope(envelope, receiver, { dangerouslySkipSignatureVerification: 'yes' } as never), invalidArgument);
});
