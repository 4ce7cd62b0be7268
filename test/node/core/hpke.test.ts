/**
 * RFC 9180 HPKE base mode. Appendix A.3.1 (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM),
 * the published vector in test/vectors/rfc9180-a3.1.json, runs through the same code as the
 * wallet's suite: the KEM, the KDF and the key schedule are shared, only the AEAD id and key length
 * differ. RFC 9180 publishes no vector for AES-256-GCM with this KEM, so the wallet's exact suite
 * (0x0010/0x0001/0x0002) is checked byte for byte against @hpke/core as an independent
 * implementation, with the same fixed ephemeral key on both sides.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Aes128Gcm, Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/nist.js';
import { bytesToHex, hexToBytes, randomBytes, utf8Encode } from '../../../src/core/encoding.ts';
import { WalletError } from '../../../src/core/errors.ts';
import { decap, encap, HPKE_INFO, hpkeOpen, hpkeSeal, keyScheduleBase } from '../../../src/core/hpke.ts';
import { generateEncryptionKey, importKeyFromScalar, publicKeyFromScalar } from '../../../src/core/p256.ts';

const A31 = JSON.parse(readFileSync(new URL('../../vectors/rfc9180-a3.1.json', import.meta.url), 'utf8')) as Record<string, string> & {
  encryptions: Array<{ sequence_number: number; pt: string; aad: string; nonce: string; ct: string }>;
};
const h = (name: string) => hexToBytes(A31[name]!, name);
const seq0 = A31.encryptions.find((e) => e.sequence_number === 0)!;

const bundleInvalid = (e: unknown) => e instanceof WalletError && e.code === 'bundle_invalid';
const invalidArgument = (e: unknown) => e instanceof WalletError && e.code === 'invalid_argument';

test('RFC 9180 A.3.1: the vector is self-consistent with our P-256 (pkEm = pk(skEm), pkRm = pk(skRm))', () => {
  assert.equal(A31.kem_id, 16 as unknown as string);
  assert.equal(bytesToHex(publicKeyFromScalar(h('skEm'))), A31.pkEm);
  assert.equal(bytesToHex(publicKeyFromScalar(h('skRm'))), A31.pkRm);
});

test('RFC 9180 A.3.1: Encap with skEm gives enc and shared_secret (§4.1)', async () => {
  const { enc, sharedSecret } = await encap(h('pkRm'), h('skEm'));
  assert.equal(bytesToHex(enc), A31.enc);
  assert.equal(bytesToHex(sharedSecret), A31.shared_secret);
});

test('RFC 9180 A.3.1: Decap with skRm gives shared_secret (§4.1)', async () => {
  const recipient = await importKeyFromScalar(h('skRm'), 'ECDH');
  assert.equal(bytesToHex(await decap(h('enc'), recipient)), A31.shared_secret);
});

test('RFC 9180 A.3.1: KeySchedule(mode_base) gives key_schedule_context, secret, key, base_nonce, exporter_secret (§5.1)', async () => {
  const ctx = await keyScheduleBase(h('shared_secret'), h('info'), 'AES-128-GCM');
  assert.equal(bytesToHex(ctx.keyScheduleContext), A31.key_schedule_context);
  assert.equal(bytesToHex(ctx.secret), A31.secret);
  assert.equal(bytesToHex(ctx.key), A31.key);
  assert.equal(bytesToHex(ctx.baseNonce), A31.base_nonce);
  assert.equal(bytesToHex(ctx.baseNonce), seq0.nonce, 'sequence 0 uses base_nonce');
  assert.equal(bytesToHex(ctx.exporterSecret), A31.exporter_secret);
});

test('RFC 9180 A.3.1.1: single-shot Seal/Open at sequence number 0 (§6.1)', async () => {
  const { enc, ciphertext } = await hpkeSeal({
    recipientPublicKey: h('pkRm'),
    plaintext: hexToBytes(seq0.pt),
    aad: hexToBytes(seq0.aad),
    info: h('info'),
    ephemeralScalar: h('skEm'),
    aead: 'AES-128-GCM',
  });
  assert.equal(bytesToHex(enc), A31.enc);
  assert.equal(bytesToHex(ciphertext), seq0.ct);
  const recipient = await importKeyFromScalar(h('skRm'), 'ECDH');
  const opened = await hpkeOpen({ recipient, enc: h('enc'), ciphertext: hexToBytes(seq0.ct), aad: hexToBytes(seq0.aad), info: h('info'), aead: 'AES-128-GCM' });
  assert.equal(bytesToHex(opened), seq0.pt);
  // The same ciphertext under the wallet's suite (AES-256-GCM) must not open: the suite id is bound.
  await assert.rejects(hpkeOpen({ recipient, enc: h('enc'), ciphertext: hexToBytes(seq0.ct), aad: hexToBytes(seq0.aad), info: h('info') }), bundleInvalid);
});

// The independent implementation, for the wallet's suite and for AES-128-GCM.
const suites = {
  'AES-256-GCM': new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() }),
  'AES-128-GCM': new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() }),
} as const;

async function theirKeyPair(suite: CipherSuite, scalar: Uint8Array): Promise<CryptoKeyPair> {
  return {
    privateKey: await suite.kem.importKey('raw', new Uint8Array(scalar).buffer, false),
    publicKey: await suite.kem.importKey('raw', new Uint8Array(p256.getPublicKey(scalar, false)).buffer, true),
  };
}

test('wallet suite 0x0010/0x0001/0x0002: same ephemeral key, byte-identical enc and ciphertext as @hpke/core', async () => {
  for (const aead of ['AES-256-GCM', 'AES-128-GCM'] as const) {
    const suite = suites[aead];
    for (const length of [0, 1, 32, 33, 1000]) {
      const skR = p256.utils.randomSecretKey();
      const skE = p256.utils.randomSecretKey();
      const plaintext = randomBytes(length);
      const aad = randomBytes(130);
      const ours = await hpkeSeal({ recipientPublicKey: p256.getPublicKey(skR, false), plaintext, aad, ephemeralScalar: skE, aead });
      const theirs = await suite.seal(
        { recipientPublicKey: (await theirKeyPair(suite, skR)).publicKey, info: HPKE_INFO, ekm: await theirKeyPair(suite, skE) },
        plaintext,
        aad,
      );
      assert.equal(bytesToHex(ours.enc), bytesToHex(new Uint8Array(theirs.enc)), `${aead} enc, ${length} bytes`);
      assert.equal(bytesToHex(ours.ciphertext), bytesToHex(new Uint8Array(theirs.ct)), `${aead} ciphertext, ${length} bytes`);
    }
  }
});

test('wallet suite: @hpke/core seals, we open with a non-extractable receiver; we seal, @hpke/core opens', async () => {
  const suite = suites['AES-256-GCM'];
  for (let i = 0; i < 5; i++) {
    const skR = p256.utils.randomSecretKey();
    const theirs = await theirKeyPair(suite, skR);
    const recipient = await importKeyFromScalar(new Uint8Array(skR), 'ECDH');
    assert.equal(recipient.privateKey.extractable, false);
    const plaintext = utf8Encode(`{"otp_code":"00000${i}"}`);
    const aadOf = (enc: Uint8Array) => new Uint8Array([...enc, ...recipient.publicKey]);

    // @hpke/core fixes the AAD before Encap, so the bundles' `enc || receiver` AAD is not possible
    // there in one step; a fixed AAD exercises the same path.
    const aad = randomBytes(40);
    const sealed = await suite.seal({ recipientPublicKey: theirs.publicKey, info: HPKE_INFO }, plaintext, aad);
    assert.deepEqual(await hpkeOpen({ recipient, enc: new Uint8Array(sealed.enc), ciphertext: new Uint8Array(sealed.ct), aad }), plaintext);

    const ours = await hpkeSeal({ recipientPublicKey: recipient.publicKey, plaintext, aad: aadOf });
    const opened = await suite.open({ recipientKey: theirs.privateKey, enc: ours.enc, info: HPKE_INFO }, ours.ciphertext, aadOf(ours.enc));
    assert.deepEqual(new Uint8Array(opened), plaintext);
  }
});

test('Open fails as bundle_invalid on tampered bytes, wrong AAD, wrong info, wrong receiver, short ciphertext', async () => {
  const recipient = await generateEncryptionKey();
  const aad = utf8Encode('aad');
  const { enc, ciphertext } = await hpkeSeal({ recipientPublicKey: recipient.publicKey, plaintext: utf8Encode('secret'), aad });
  assert.deepEqual(await hpkeOpen({ recipient, enc, ciphertext, aad }), utf8Encode('secret'));
  for (const index of [0, ciphertext.length >> 1, ciphertext.length - 1]) {
    const tampered = new Uint8Array(ciphertext);
    tampered[index]! ^= 0x80;
    await assert.rejects(hpkeOpen({ recipient, enc, ciphertext: tampered, aad }), bundleInvalid, `byte ${index}`);
  }
  await assert.rejects(hpkeOpen({ recipient, enc, ciphertext, aad: utf8Encode('aae') }), bundleInvalid);
  await assert.rejects(hpkeOpen({ recipient, enc, ciphertext, aad, info: utf8Encode('turnkey_hpkf') }), bundleInvalid);
  await assert.rejects(hpkeOpen({ recipient: await generateEncryptionKey(), enc, ciphertext, aad }), bundleInvalid);
  await assert.rejects(hpkeOpen({ recipient, enc, ciphertext: ciphertext.subarray(0, 15), aad }), bundleInvalid);
  // Another enc (a valid point) derives another key.
  const otherEnc = (await generateEncryptionKey()).publicKey;
  await assert.rejects(hpkeOpen({ recipient, enc: otherEnc, ciphertext, aad }), bundleInvalid);
});

test('Deserialization (§7.1.4): enc off the curve or not uncompressed, and bad receiver keys are invalid_argument', async () => {
  const recipient = await generateEncryptionKey();
  const { enc, ciphertext } = await hpkeSeal({ recipientPublicKey: recipient.publicKey, plaintext: utf8Encode('x'), aad: new Uint8Array(0) });
  const offCurve = new Uint8Array(enc);
  offCurve[64]! ^= 1;
  await assert.rejects(hpkeOpen({ recipient, enc: offCurve, ciphertext, aad: new Uint8Array(0) }), invalidArgument);
  await assert.rejects(hpkeOpen({ recipient, enc: p256.Point.fromBytes(enc).toBytes(true), ciphertext, aad: new Uint8Array(0) }), invalidArgument);
  const badReceiver = new Uint8Array(recipient.publicKey);
  badReceiver[64]! ^= 1;
  await assert.rejects(hpkeSeal({ recipientPublicKey: badReceiver, plaintext: utf8Encode('x'), aad: new Uint8Array(0) }), (e: unknown) =>
    invalidArgument(e) && (e as Error).message.includes('recipientPublicKey'),
  );
});

test('HPKE_INFO is the ASCII bytes of turnkey_hpke; a fixed ephemeral scalar is not wiped', async () => {
  assert.equal(Buffer.from(HPKE_INFO).toString('latin1'), 'turnkey_hpke');
  const skE = p256.utils.randomSecretKey();
  const copy = new Uint8Array(skE);
  await hpkeSeal({ recipientPublicKey: (await generateEncryptionKey()).publicKey, plaintext: utf8Encode('x'), aad: new Uint8Array(0), ephemeralScalar: skE });
  assert.deepEqual(skE, copy);
});
