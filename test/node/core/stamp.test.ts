/**
 * Wallet signature stamps (DESIGN.md wire format 1), checked in both directions against independent
 * implementations: @turnkey/api-key-stamper (its node, pure-JS and WebCrypto signers),
 * @turnkey/crypto's verifyStampSignature and @noble/curves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { p256 } from '@noble/curves/nist.js';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { verifyStampSignature } from '@turnkey/crypto';
import { base64urlDecode, base64urlEncode, bytesToHex, concatBytes, hexToBytes, utf8Decode, utf8Encode } from '../../../src/core/encoding.ts';
import { WalletError } from '../../../src/core/errors.ts';
import { generateSigningKey, importKeyFromScalar, P256_ORDER, signatureFromDer, signatureToDer } from '../../../src/core/p256.ts';
import { createStamp, keyStamper, STAMP_SCHEME, WALLET_SIGNATURE_HEADER } from '../../../src/core/stamp.ts';
import { parseStamp, verifyStamp } from '../../../src/sandbox/service-stamps.ts';

// A payloadToSign as the service sends it: exact bytes matter, including whitespace and non-ASCII.
const PAYLOAD = '{"requestId":"Request:6f1c2a4e-9d3b-4b8e-a1f0-2c5d7e9b0a13","body":{"nickname":"Café ☕"},  "ts":"2025-10-13T00:00:00Z"}';

const decodeStampJson = (value: string) => JSON.parse(utf8Decode(base64urlDecode(value))) as Record<string, string>;
const encodeStampJson = (obj: unknown) => base64urlEncode(utf8Encode(JSON.stringify(obj)));
const invalidArgument = (e: unknown) => e instanceof WalletError && e.code === 'invalid_argument';

test('wire format 1: the header value is unpadded base64url of {publicKey, scheme, signature}', async () => {
  const key = await generateSigningKey();
  const value = await createStamp(PAYLOAD, key);
  assert.match(value, /^[A-Za-z0-9_-]+$/);
  const json = decodeStampJson(value);
  assert.deepEqual(Object.keys(json), ['publicKey', 'scheme', 'signature']);
  assert.equal(json.scheme, 'SIGNATURE_SCHEME_TK_API_P256');
  assert.equal(json.publicKey, bytesToHex(p256.Point.fromBytes(key.publicKey).toBytes(true)));
  // Minimal DER: re-encoding the parsed signature gives the same bytes.
  assert.equal(bytesToHex(signatureToDer(signatureFromDer(hexToBytes(json.signature!)))), json.signature);

  const stamper = keyStamper(key);
  assert.equal(stamper.publicKey, json.publicKey);
  const { headerName, headerValue } = await stamper.stamp(PAYLOAD);
  assert.equal(headerName, WALLET_SIGNATURE_HEADER);
  assert.ok(await verifyStamp(headerValue, PAYLOAD));
});

test('our stamps verify with @turnkey/crypto verifyStampSignature and with @noble/curves', async () => {
  for (let i = 0; i < 10; i++) {
    const key = await generateSigningKey();
    const payload = `${PAYLOAD} #${i}`;
    const { publicKey, signature } = decodeStampJson(await createStamp(payload, key));
    assert.equal(await verifyStampSignature(publicKey!, signature!, payload), true);
    assert.ok(p256.verify(hexToBytes(signature!), utf8Encode(payload), hexToBytes(publicKey!), { format: 'der', lowS: false }));
    assert.equal(p256.verify(hexToBytes(signature!), utf8Encode(payload + ' '), hexToBytes(publicKey!), { format: 'der', lowS: false }), false);
  }
});

test('stamps made by @turnkey/api-key-stamper (node, purejs and WebCrypto signers) verify with ours', async () => {
  for (const runtimeOverride of ['node', 'purejs', 'browser'] as const) {
    for (let i = 0; i < 5; i++) {
      const d = p256.utils.randomSecretKey();
      const apiPublicKey = bytesToHex(p256.getPublicKey(d, true));
      const stamper = new ApiKeyStamper({ apiPublicKey, apiPrivateKey: bytesToHex(d), runtimeOverride });
      const { stampHeaderValue } = await stamper.stamp(PAYLOAD);
      const parsed = await verifyStamp(stampHeaderValue, PAYLOAD);
      assert.ok(parsed, `${runtimeOverride} stamp verifies`);
      assert.equal(parsed.publicKey, apiPublicKey);
      assert.equal(await verifyStamp(stampHeaderValue, PAYLOAD.replace('Café', 'Cafe')), null);
    }
  }
});

test('a stamp made with a known private key verifies in both implementations with the same key', async () => {
  // Fixed key: the stamp's publicKey field must be the compressed point of this scalar.
  const scalarHex = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721';
  const expectedPublic = bytesToHex(p256.getPublicKey(hexToBytes(scalarHex), true));
  const ours = await importKeyFromScalar(hexToBytes(scalarHex), 'ECDSA');
  const oursValue = await createStamp(PAYLOAD, ours);
  assert.equal(decodeStampJson(oursValue).publicKey, expectedPublic);
  const theirs = await new ApiKeyStamper({ apiPublicKey: expectedPublic, apiPrivateKey: scalarHex, runtimeOverride: 'purejs' }).stamp(PAYLOAD);
  assert.equal((await verifyStamp(theirs.stampHeaderValue, PAYLOAD))?.publicKey, expectedPublic);
  assert.equal((await verifyStamp(oursValue, PAYLOAD))?.publicKey, expectedPublic);
});

test('high-S stamps are accepted', async () => {
  const key = await generateSigningKey();
  const json = decodeStampJson(await createStamp(PAYLOAD, key));
  const raw = signatureFromDer(hexToBytes(json.signature!));
  const s = BigInt('0x' + bytesToHex(raw.subarray(32)));
  const otherS = hexToBytes((P256_ORDER - s).toString(16).padStart(64, '0'));
  const flipped = bytesToHex(signatureToDer(concatBytes(raw.subarray(0, 32), otherS)));
  // Exactly one of the two is high-S; both must verify.
  for (const signature of [json.signature!, flipped]) {
    assert.ok(await verifyStamp(encodeStampJson({ ...json, signature }), PAYLOAD));
  }
});

test('a tampered signature, a wrong payload or another key give null', async () => {
  const key = await generateSigningKey();
  const value = await createStamp(PAYLOAD, key);
  const json = decodeStampJson(value);
  assert.equal(await verifyStamp(value, PAYLOAD.trim() + ' '), null);
  assert.equal(await verifyStamp(value, JSON.stringify(JSON.parse(PAYLOAD))), null, 're-serialised payload differs');
  const sig = hexToBytes(json.signature!);
  sig[sig.length - 1]! ^= 0x01;
  assert.equal(await verifyStamp(encodeStampJson({ ...json, signature: bytesToHex(sig) }), PAYLOAD), null);
  const other = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true));
  assert.equal(await verifyStamp(encodeStampJson({ ...json, publicKey: other }), PAYLOAD), null);
});

test('malformed stamps throw invalid_argument', async () => {
  const key = await generateSigningKey();
  const json = decodeStampJson(await createStamp(PAYLOAD, key));
  const cases: Array<[string, string]> = [
    ['empty', ''],
    ['not base64url', 'eyJ+/'],
    ['not JSON', base64urlEncode(utf8Encode('publicKey=02..'))],
    ['a JSON array', encodeStampJson([json.publicKey, json.scheme, json.signature])],
    ['wrong scheme', encodeStampJson({ ...json, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' })],
    ['uncompressed key', encodeStampJson({ ...json, publicKey: bytesToHex(key.publicKey) })],
    ['key not on the curve', encodeStampJson({ ...json, publicKey: '02' + 'ff'.repeat(32) })],
    ['non-hex signature', encodeStampJson({ ...json, signature: 'zz' + json.signature!.slice(2) })],
    ['raw r||s instead of DER', encodeStampJson({ ...json, signature: bytesToHex(signatureFromDer(hexToBytes(json.signature!))) })],
    ['missing signature', encodeStampJson({ publicKey: json.publicKey, scheme: json.scheme })],
  ];
  for (const [why, value] of cases) {
    await assert.rejects(verifyStamp(value, PAYLOAD), invalidArgument, why);
  }
  assert.throws(() => parseStamp('e30'), invalidArgument); // {}
  assert.deepEqual(parseStamp(encodeStampJson(json)), { publicKey: json.publicKey, scheme: STAMP_SCHEME, signature: json.signature });
});

test('throughput: a stamp costs about one bare WebCrypto ECDSA signature (goal >= 0.9)', async () => {
  const key = await generateSigningKey();
  const data = utf8Encode(PAYLOAD);
  const bareSign = () => crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, data);
  const stamp = () => createStamp(PAYLOAD, key);
  const time = async (fn: () => Promise<unknown>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  for (let i = 0; i < 100; i++) await Promise.all([bareSign(), stamp()]); // warm up both paths
  // Alternating single operations share the machine's noise; medians drop the outliers.
  const bare: number[] = [];
  const stamped: number[] = [];
  for (let i = 0; i < 1500; i++) {
    bare.push(await time(bareSign));
    stamped.push(await time(stamp));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  const ratio = median(bare) / median(stamped);
  console.log(
    `# stamp throughput vs bare WebCrypto sign: ${ratio.toFixed(3)} (median ${(median(stamped) * 1000).toFixed(0)} µs per stamp, ${(median(bare) * 1000).toFixed(0)} µs per bare signature)`,
  );
  // The goal is 0.9; the bound leaves room for scheduler noise on a shared 2-core machine.
  assert.ok(ratio >= 0.8, `stamp throughput ratio ${ratio.toFixed(3)}`);
});

test('createStamp reports a bad payload or key as a rejected promise, never a synchronous throw', async () => {
  const key = await generateSigningKey();
  let pending: Promise<string> | undefined;
  assert.doesNotThrow(() => (pending = createStamp(42 as unknown as string, key)));
  await assert.rejects(pending!, invalidArgument);
  assert.doesNotThrow(() => (pending = createStamp(PAYLOAD, { privateKey: key.privateKey, publicKey: new Uint8Array(3) })));
  await assert.rejects(pending!, invalidArgument);
  await assert.rejects(keyStamper(key).stamp(null as unknown as string), invalidArgument);
});

test('stamps started together on different payloads (short, then longer, non-ASCII) each sign their own payload', async () => {
  const key = await generateSigningKey();
  const stamper = keyStamper(key);
  const payloads = ['a', PAYLOAD, `${PAYLOAD}${'€'.repeat(2000)}`, '', 'b'.repeat(5000), PAYLOAD.slice(0, 10)];
  const stamps = await Promise.all(payloads.map((p, i) => (i % 2 ? createStamp(p, key) : stamper.stamp(p).then((s) => s.headerValue))));
  for (const [i, stamp] of stamps.entries()) {
    assert.ok(await verifyStamp(stamp, payloads[i]!), `stamp ${i} verifies over its own payload`);
    assert.equal(await verifyStamp(stamp, payloads[(i + 1) % payloads.length]!), null);
  }
});
