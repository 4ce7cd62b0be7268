/**
 * P-256 (SP 800-186 §3.2.1.3 domain parameters; SEC 1 §2.3.3-2.3.4 point encodings; SEC 1 §C.8
 * and X.690 DER for ECDSA signatures), checked against @noble/curves and WebCrypto as independent
 * implementations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { p256 } from '@noble/curves/nist.js';
import { bytesToHex, concatBytes, hexToBytes, utf8Encode } from '../../../src/core/encoding.ts';
import { WalletError } from '../../../src/core/errors.ts';
import {
  compressPublicKey,
  decompressPublicKey,
  ecdsaSign,
  ecdsaVerify,
  generateDualKey,
  generateEncryptionKey,
  generateSigningKey,
  importKeyFromScalar,
  P256_ORDER,
  publicKeyFromScalar,
  signatureFromDer,
  signatureToDer,
} from '../../../src/core/p256.ts';

// SP 800-186 §3.2.1.3.
const GX = '6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296';
const GY = '4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5';
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = P256_ORDER;

const scalarBytes = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'));
const randomScalar = () => p256.utils.randomSecretKey();
const invalidArgument = (name: string) => (e: unknown) =>
  e instanceof WalletError && e.code === 'invalid_argument' && e.message.includes(name);

test('SP 800-186: the order constant and the generator, 1·G and (n-1)·G = -G', () => {
  assert.equal(N, 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n);
  assert.equal(bytesToHex(publicKeyFromScalar(scalarBytes(1n))), '04' + GX + GY);
  const minusGy = (P - BigInt('0x' + GY)).toString(16).padStart(64, '0');
  assert.equal(bytesToHex(publicKeyFromScalar(scalarBytes(N - 1n))), '04' + GX + minusGy);
  // Gy is odd, so G compresses with 03 and -G with 02 (SEC 1 §2.3.3).
  assert.equal(bytesToHex(compressPublicKey(hexToBytes('04' + GX + GY))), '03' + GX);
  assert.equal(bytesToHex(decompressPublicKey(hexToBytes('03' + GX))), '04' + GX + GY);
  assert.equal(bytesToHex(decompressPublicKey(hexToBytes('02' + GX))), '04' + GX + minusGy);
});

test('publicKeyFromScalar agrees with @noble/curves on small, large and random scalars', () => {
  const scalars = [scalarBytes(2n), scalarBytes(3n), scalarBytes(N - 2n), scalarBytes(2n ** 255n)];
  for (let i = 0; i < 40; i++) scalars.push(randomScalar());
  for (const d of scalars) {
    assert.equal(bytesToHex(publicKeyFromScalar(d)), bytesToHex(p256.getPublicKey(d, false)));
  }
});

test('publicKeyFromScalar agrees with WebCrypto key generation (JWK d -> x, y)', async () => {
  for (let i = 0; i < 10; i++) {
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const jwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
    const d = new Uint8Array(Buffer.from(jwk.d!, 'base64url'));
    const expected = concatBytes(Uint8Array.of(4), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url'));
    assert.deepEqual(publicKeyFromScalar(d), expected);
  }
});

test('scalars outside [1, n-1] or of the wrong length are rejected naming the argument', () => {
  assert.throws(() => publicKeyFromScalar(new Uint8Array(32)), invalidArgument('scalar'));
  assert.throws(() => publicKeyFromScalar(scalarBytes(N)), invalidArgument('scalar'));
  assert.throws(() => publicKeyFromScalar(new Uint8Array(31).fill(1)), invalidArgument('scalar'));
});

test('SEC 1 §2.3.3/2.3.4: compress/decompress round trips both parities and matches noble', () => {
  const parities = new Set<number>();
  for (let i = 0; i < 40; i++) {
    const uncompressed = p256.getPublicKey(randomScalar(), false);
    const compressed = compressPublicKey(uncompressed);
    parities.add(compressed[0]!);
    assert.equal(bytesToHex(compressed), bytesToHex(p256.Point.fromBytes(uncompressed).toBytes(true)));
    assert.deepEqual(decompressPublicKey(compressed), new Uint8Array(uncompressed));
    // Both functions accept either form.
    assert.deepEqual(compressPublicKey(compressed), compressed);
    assert.deepEqual(decompressPublicKey(uncompressed), new Uint8Array(uncompressed));
  }
  assert.deepEqual([...parities].sort(), [2, 3]);
});

test('points off the curve, x >= p, bad prefixes and lengths are rejected', () => {
  const good = p256.getPublicKey(randomScalar(), false);
  const offCurve = new Uint8Array(good);
  offCurve[64]! ^= 1;
  assert.throws(() => decompressPublicKey(offCurve, 'clientPublicKey'), invalidArgument('clientPublicKey'));
  assert.throws(() => compressPublicKey(offCurve), invalidArgument('publicKey'));
  // An x for which x^3 - 3x + b is not a square: no point has it.
  let x = 1n;
  for (;; x++) {
    try {
      p256.Point.fromHex('02' + x.toString(16).padStart(64, '0'));
    } catch {
      break;
    }
  }
  assert.throws(() => decompressPublicKey(hexToBytes('02' + x.toString(16).padStart(64, '0'))), invalidArgument('publicKey'));
  assert.throws(() => decompressPublicKey(hexToBytes('02' + P.toString(16))), invalidArgument('publicKey'));
  assert.throws(() => decompressPublicKey(concatBytes(Uint8Array.of(5), good.subarray(1))), invalidArgument('publicKey'));
  assert.throws(() => decompressPublicKey(good.subarray(0, 64)), invalidArgument('publicKey'));
  assert.throws(() => decompressPublicKey(concatBytes(Uint8Array.of(4), good.subarray(1, 33))), invalidArgument('publicKey'));
});

test('generated keys are non-extractable and carry their 65-byte public point', async () => {
  for (const pair of [await generateSigningKey(), await generateEncryptionKey()]) {
    assert.equal(pair.privateKey.extractable, false);
    await assert.rejects(crypto.subtle.exportKey('jwk', pair.privateKey));
    assert.equal(pair.publicKey.length, 65);
    assert.doesNotThrow(() => p256.Point.fromBytes(pair.publicKey).assertValidity());
  }
});

test('importKeyFromScalar: non-extractable key with the right public point; the scalar is zeroed', async () => {
  const d = randomScalar();
  const copy = new Uint8Array(d);
  const signing = await importKeyFromScalar(d, 'ECDSA');
  assert.ok(d.every((b) => b === 0), 'scalar bytes overwritten');
  assert.equal(signing.privateKey.extractable, false);
  assert.deepEqual(signing.publicKey, new Uint8Array(p256.getPublicKey(copy, false)));
  const msg = utf8Encode('payload');
  const sig = await ecdsaSign(signing.privateKey, msg);
  assert.ok(p256.verify(sig, msg, p256.getPublicKey(copy), { format: 'der', lowS: false }));

  const dh = await importKeyFromScalar(new Uint8Array(copy), 'ECDH');
  const peer = randomScalar();
  const peerKey = await crypto.subtle.importKey('raw', new Uint8Array(p256.getPublicKey(peer, false)), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const shared = new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: peerKey }, dh.privateKey, 256));
  assert.equal(bytesToHex(shared), bytesToHex(p256.getSharedSecret(peer, p256.getPublicKey(copy)).subarray(1)));
});

test('generateDualKey: one fresh key as non-extractable ECDSA and ECDH keys of the same public point', async () => {
  const seen = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const { signing, receiver } = await generateDualKey();
    assert.deepEqual(signing.publicKey, receiver.publicKey);
    seen.add(bytesToHex(signing.publicKey));
    assert.doesNotThrow(() => p256.Point.fromBytes(signing.publicKey).assertValidity());
    for (const [pair, name, usages] of [[signing, 'ECDSA', ['sign']], [receiver, 'ECDH', ['deriveBits']]] as const) {
      assert.equal(pair.privateKey.extractable, false);
      assert.equal(pair.privateKey.algorithm.name, name);
      assert.deepEqual(pair.privateKey.usages, usages);
      await assert.rejects(crypto.subtle.exportKey('jwk', pair.privateKey));
    }
    // The ECDSA key signs for the public point; the ECDH key agrees with a peer on it.
    const msg = utf8Encode('payload');
    assert.ok(p256.verify(await ecdsaSign(signing.privateKey, msg), msg, signing.publicKey, { format: 'der', lowS: false }));
    const peer = randomScalar();
    const peerKey = await crypto.subtle.importKey('raw', new Uint8Array(p256.getPublicKey(peer, false)), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
    const shared = new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: peerKey }, receiver.privateKey, 256));
    assert.equal(bytesToHex(shared), bytesToHex(p256.getSharedSecret(peer, signing.publicKey).subarray(1)));
  }
  assert.equal(seen.size, 3, 'a fresh key each time');
});

test('importKeyFromScalar zeroes the scalar even when it is rejected', async () => {
  const tooBig = scalarBytes(N);
  await assert.rejects(importKeyFromScalar(tooBig, 'ECDSA'), invalidArgument('scalar'));
  assert.ok(tooBig.every((b) => b === 0));
  const good = randomScalar();
  await assert.rejects(importKeyFromScalar(good, 'RSA' as 'ECDSA'), invalidArgument('algorithm'));
  assert.ok(good.every((b) => b === 0));
});

test('X.690 minimal DER: high bit gets one 0x00, leading zeros are dropped, small integers stay short', () => {
  const raw = (r: string, s: string) => hexToBytes(r.padStart(64, '0') + s.padStart(64, '0'));
  const ff = 'ff'.repeat(32);
  const high = 'f'.repeat(64);
  // Both high bits set: 0x00 prefix, 33-byte INTEGERs, SEQUENCE length 0x46.
  assert.equal(bytesToHex(signatureToDer(raw(high, high))), '3046022100' + ff + '022100' + ff);
  // Leading zero bytes removed: r = 0x7f.. (31 bytes).
  assert.equal(bytesToHex(signatureToDer(raw('7f'.repeat(31), '01'))), '3024021f' + '7f'.repeat(31) + '020101');
  // After stripping zeros the first byte is 0x80: one 0x00 comes back.
  assert.equal(bytesToHex(signatureToDer(raw('80', '7f'))), '3007020200800201' + '7f');
  // Agrees with noble's DER on random signatures.
  for (let i = 0; i < 50; i++) {
    const sig = p256.sign(utf8Encode(`m${i}`), randomScalar(), { lowS: false });
    const der = signatureToDer(sig);
    assert.equal(bytesToHex(der), bytesToHex(p256.Signature.fromBytes(sig, 'compact').toBytes('der')));
    assert.deepEqual(signatureFromDer(der), new Uint8Array(sig));
  }
});

test('the DER parser is strict: non-minimal, negative, out of range, long-form and trailing bytes rejected', () => {
  const body = (r: string, s: string) => {
    const inner = r + s;
    return hexToBytes('30' + (inner.length / 2).toString(16).padStart(2, '0') + inner);
  };
  const int = (hex: string) => '02' + (hex.length / 2).toString(16).padStart(2, '0') + hex;
  assert.deepEqual(signatureFromDer(body(int('01'), int('02'))), hexToBytes('01'.padStart(64, '0') + '02'.padStart(64, '0')));
  const bad: Array<[string, Uint8Array]> = [
    ['non-minimal zero padding', body(int('0001'), int('01'))],
    ['unneeded 0x00 before a byte < 0x80', body(int('007f'), int('01'))],
    ['negative INTEGER', body(int('80'), int('01'))],
    ['zero r', body(int('00'), int('01'))],
    ['r = n', body(int('00' + N.toString(16)), int('01'))],
    ['33-byte magnitude', body(int('01' + 'ff'.repeat(32)), int('01'))],
    ['wrong INTEGER tag', hexToBytes('3006030101020101')],
    ['SEQUENCE length mismatch', hexToBytes('3007020101020101')],
    ['trailing bytes inside', hexToBytes('3008020101020101' + '0000')],
    ['bytes after the SEQUENCE', concatBytes(body(int('01'), int('01')), Uint8Array.of(0))],
    ['long-form length', hexToBytes('308106020101020101')],
    ['truncated', hexToBytes('30060201010201')],
    ['not a SEQUENCE', hexToBytes('3106020101020101')],
  ];
  for (const [why, der] of bad) {
    assert.throws(() => signatureFromDer(der, 'dataSignature'), invalidArgument('dataSignature'), why);
  }
  assert.throws(() => signatureToDer(new Uint8Array(63)), invalidArgument('signature'));
});

test('ECDSA: our DER signatures verify with noble; ecdsaVerify accepts high-S and rejects wrong data or key', async () => {
  const key = await generateSigningKey();
  const data = utf8Encode('{"type":"EMAIL_OTP"}');
  const der = await ecdsaSign(key.privateKey, data);
  assert.ok(p256.verify(der, data, key.publicKey, { format: 'der', lowS: false }));
  assert.equal(await ecdsaVerify(key.publicKey, data, der), true);
  assert.equal(await ecdsaVerify(compressPublicKey(key.publicKey), data, der), true);

  // Flip S to n - S: still a valid ECDSA signature (FIPS 186-5 has no low-S rule).
  const raw = signatureFromDer(der);
  const s = BigInt('0x' + bytesToHex(raw.subarray(32)));
  const flipped = signatureToDer(concatBytes(raw.subarray(0, 32), scalarBytes(N - s)));
  const highS = s > N / 2n ? der : flipped;
  assert.ok(p256.verify(highS, data, key.publicKey, { format: 'der', lowS: false }));
  assert.equal(p256.verify(highS, data, key.publicKey, { format: 'der', lowS: true }), false, 'the signature really is high-S');
  assert.equal(await ecdsaVerify(key.publicKey, data, highS), true);
  assert.equal(await ecdsaVerify(key.publicKey, data, flipped), true);

  assert.equal(await ecdsaVerify(key.publicKey, utf8Encode('{"type":"SMS_OTP"}'), der), false);
  assert.equal(await ecdsaVerify((await generateSigningKey()).publicKey, data, der), false);
  const tampered = new Uint8Array(der);
  tampered[10]! ^= 1;
  assert.equal(await ecdsaVerify(key.publicKey, data, tampered), false);
  await assert.rejects(ecdsaVerify(key.publicKey, data, der.subarray(0, der.length - 1)), invalidArgument('signature'));
});

test('ECDSA: noble signatures (low-S and high-S) verify with ecdsaVerify', async () => {
  for (let i = 0; i < 20; i++) {
    const d = randomScalar();
    const data = utf8Encode(`payload ${i}`);
    const sig = p256.Signature.fromBytes(p256.sign(data, d, { lowS: true }), 'compact');
    const low = sig.toBytes('der');
    const high = new p256.Signature(sig.r, N - sig.s).toBytes('der');
    assert.equal(await ecdsaVerify(p256.getPublicKey(d), data, low), true);
    assert.equal(await ecdsaVerify(p256.getPublicKey(d), data, high), true);
  }
});
