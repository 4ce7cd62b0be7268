/**
 * Encodings (RFC 4648 §10 vectors for base64url; base58check against the independent
 * @turnkey/encoding implementation; SHA-256 against node:crypto).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes as nodeRandomBytes } from 'node:crypto';
import { bs58check } from '@turnkey/encoding';
import {
  base58checkDecode,
  base64urlDecode,
  base64urlEncode,
  bytesToHex,
  concatBytes,
  hexToBytes,
  randomBytes,
  sha256,
  sha256Hex,
  utf8Decode,
  utf8Encode,
} from '../../../src/core/encoding.ts';
import { WalletError } from '../../../src/core/errors.ts';
import { base58checkEncode } from '../../../src/sandbox/service-bundles.ts';

const isInvalidArgument = (name: string) => (e: unknown) =>
  e instanceof WalletError && e.code === 'invalid_argument' && e.message.includes(name);

test('RFC 4648 §10: base64 test vectors, in the URL-safe alphabet without padding', () => {
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'Zg'],
    ['fo', 'Zm8'],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg'],
    ['fooba', 'Zm9vYmE'],
    ['foobar', 'Zm9vYmFy'],
  ];
  for (const [plain, encoded] of vectors) {
    assert.equal(base64urlEncode(utf8Encode(plain)), encoded);
    assert.equal(utf8Decode(base64urlDecode(encoded)), plain);
  }
  // Padding, as some encoders emit it, is tolerated.
  assert.equal(utf8Decode(base64urlDecode('Zm9vYg==')), 'foob');
});

test('RFC 4648 §5: base64url agrees with Node Buffer on random inputs, incl. the - and _ characters', () => {
  for (let n = 0; n < 300; n++) {
    const bytes = new Uint8Array(nodeRandomBytes(n % 70));
    const expected = Buffer.from(bytes).toString('base64url');
    assert.equal(base64urlEncode(bytes), expected);
    assert.deepEqual(base64urlDecode(expected), bytes);
  }
  assert.equal(base64urlEncode(Uint8Array.of(0xfb, 0xff)), '-_8');
});

test('base64url decoding rejects other alphabets, impossible lengths and non-canonical tails', () => {
  assert.throws(() => base64urlDecode('ab+/', 'stamp'), isInvalidArgument('stamp'));
  assert.throws(() => base64urlDecode('abcde'), isInvalidArgument('base64url'));
  assert.throws(() => base64urlDecode('Zh'), isInvalidArgument('base64url')); // 'Zg' is canonical for "f"
  assert.throws(() => base64urlDecode('Zm 9v'), isInvalidArgument('base64url'));
});

test('hex: round trip, either case accepted, odd length and non-hex rejected naming the argument', () => {
  const bytes = new Uint8Array(nodeRandomBytes(64));
  assert.equal(bytesToHex(bytes), Buffer.from(bytes).toString('hex'));
  assert.deepEqual(hexToBytes(bytesToHex(bytes).toUpperCase()), bytes);
  assert.throws(() => hexToBytes('abc', 'targetPublic'), isInvalidArgument('targetPublic'));
  assert.throws(() => hexToBytes('zz', 'signature'), isInvalidArgument('signature'));
  assert.throws(() => hexToBytes('0x00'), isInvalidArgument('hex'));
});

test('UTF-8: multi-byte round trip; malformed input throws instead of inserting U+FFFD', () => {
  const text = 'naïve ✓ 𝄞';
  assert.deepEqual(utf8Encode(text), new Uint8Array(Buffer.from(text, 'utf8')));
  assert.equal(utf8Decode(utf8Encode(text)), text);
  assert.throws(() => utf8Decode(Uint8Array.of(0xc3)), isInvalidArgument('bytes'));
});

test('SHA-256 and sha256Hex agree with node:crypto (FIPS 180-4)', async () => {
  const abc = createHash('sha256').update('abc').digest('hex');
  assert.equal(abc, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(await sha256Hex('abc'), abc);
  const pub = '04' + 'ab'.repeat(64);
  assert.equal(await sha256Hex(pub), createHash('sha256').update(pub, 'utf8').digest('hex'));
  assert.equal(bytesToHex(await sha256(new Uint8Array(0))), createHash('sha256').digest('hex'));
});

test('base58check agrees with @turnkey/encoding in both directions, leading zero bytes kept', async () => {
  const inputs = [new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(0, 0, 1), new Uint8Array(nodeRandomBytes(33))];
  for (let i = 0; i < 40; i++) inputs.push(concatBytes(new Uint8Array(i % 3), new Uint8Array(nodeRandomBytes(1 + i * 3))));
  for (const bytes of inputs) {
    const ours = await base58checkEncode(bytes);
    assert.equal(ours, bs58check.encode(bytes));
    assert.deepEqual(await base58checkDecode(ours), bytes);
    assert.deepEqual(await base58checkDecode(bs58check.encode(bytes)), bytes);
  }
});

test('base58check rejects a wrong checksum, foreign characters and short input', async () => {
  const good = await base58checkEncode(utf8Encode('session key bundle'));
  const last = good.at(-1) === '2' ? '3' : '2';
  await assert.rejects(base58checkDecode(good.slice(0, -1) + last, 'bundle'), isInvalidArgument('bundle'));
  await assert.rejects(base58checkDecode('0OIl'), isInvalidArgument('base58check'));
  await assert.rejects(base58checkDecode('1'), isInvalidArgument('base58check'));
});

test('randomBytes fills large buffers (beyond the 65536-byte getRandomValues limit)', () => {
  const big = randomBytes(70000);
  assert.equal(big.length, 70000);
  assert.ok(big.subarray(65536).some((b) => b !== 0));
  assert.notDeepEqual(randomBytes(32), randomBytes(32));
});
