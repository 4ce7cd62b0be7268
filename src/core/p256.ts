/**
 * P-256 (NIST SP 800-186 §3.2.1.3, SEC 1 v2) keys and ECDSA for the wallet's wire formats, on the
 * global WebCrypto: key generation, import of a received private scalar, point compression
 * (SEC 1 §2.3.3-2.3.4), and the project's only minimal-DER encoder and strict DER parser for
 * ECDSA signatures (SEC 1 §C.8 `ECDSA-Sig-Value`, X.690 §8.3 / §10).
 *
 * The BigInt arithmetic is used only where WebCrypto has no operation: decompressing a point and
 * computing the public point of a received scalar (Jacobian coordinates, one field inversion).
 * It is deliberately not a signing implementation: every private-key operation happens inside
 * WebCrypto on a non-extractable CryptoKey. BigInt arithmetic is not constant time; it touches a
 * private scalar only once, when a session key bundle is imported (DESIGN.md wire format 4).
 */
import { WalletError } from './errors.ts';
import { BYTE_HEX, asBuffer, base64urlEncode, bytesToHex, concatBytes, hexToBytes, type Bytes } from './encoding.ts';

/**
 * WebCrypto's key handle. Named through `crypto.subtle` rather than the DOM's global `CryptoKey` so
 * that the published declarations also compile in a Node-only project (@types/node and no DOM lib,
 * where the same object is `webcrypto.CryptoKey`): the proxy and sandbox entries reach this file.
 */
export type WebCryptoKey = Parameters<typeof crypto.subtle.sign>[1];

export interface KeyPair {
  privateKey: WebCryptoKey;
  /** The 65-byte uncompressed public point `04 || x || y`. */
  publicKey: Uint8Array;
}

// Curve parameters: SP 800-186 §3.2.1.3.
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
const GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n;
const GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n;

/** The curve order n, for callers that check scalar ranges. */
export const P256_ORDER = N;

const mod = (a: bigint): bigint => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

function powMod(base: bigint, exp: bigint): bigint {
  let result = 1n;
  for (let b = mod(base), e = exp; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) result = (result * b) % P;
  return result;
}

const toBigInt = (b: Uint8Array): bigint => BigInt('0x0' + bytesToHex(b));
/** 32 big-endian bytes of a field element or scalar (every value here is below p or n). */
const toBytes32 = (n: bigint): Bytes => hexToBytes(n.toString(16).padStart(64, '0'));

/** y^2 = x^3 - 3x + b (mod p). */
const curveRhs = (x: bigint): bigint => mod(x * x * x - 3n * x + B);

function isOnCurve(x: bigint, y: bigint): boolean {
  return x < P && y < P && mod(y * y) === curveRhs(x);
}

// Jacobian point (X, Y, Z) stands for the affine (X/Z^2, Y/Z^3); Z = 0 is the point at infinity.
type Jacobian = [bigint, bigint, bigint];

/** dbl-2001-b (a = -3), from the Explicit-Formulas Database. */
function jDouble([x1, y1, z1]: Jacobian): Jacobian {
  if (z1 === 0n || y1 === 0n) return [0n, 1n, 0n];
  const delta = (z1 * z1) % P;
  const gamma = (y1 * y1) % P;
  const beta = (x1 * gamma) % P;
  const alpha = mod(3n * (x1 - delta) * (x1 + delta));
  const x3 = mod(alpha * alpha - 8n * beta);
  const z3 = mod((y1 + z1) * (y1 + z1) - gamma - delta);
  const y3 = mod(alpha * (4n * beta - x3) - 8n * gamma * gamma);
  return [x3, y3, z3];
}

/** add-2007-bl, from the Explicit-Formulas Database: Jacobian plus Jacobian. */
function jAdd(p1: Jacobian, p2: Jacobian): Jacobian {
  const [x1, y1, z1] = p1;
  const [x2, y2, z2] = p2;
  if (!z1 || !z2) return z1 ? p1 : p2;
  const z1z1 = (z1 * z1) % P;
  const z2z2 = (z2 * z2) % P;
  const u1 = (x1 * z2z2) % P;
  const s1 = (y1 * z2 * z2z2) % P;
  const h = mod(x2 * z1z1 - u1);
  const r = mod(2n * (y2 * z1 * z1z1 - s1));
  if (h === 0n) return r === 0n ? jDouble(p1) : [0n, 1n, 0n];
  const i = (4n * h * h) % P;
  const j = (h * i) % P;
  const v = (u1 * i) % P;
  const x3 = mod(r * r - j - 2n * v);
  const y3 = mod(r * (v - x3) - 2n * s1 * j);
  const z3 = mod(((z1 + z2) * (z1 + z2) - z1z1 - z2z2) * h);
  return [x3, y3, z3];
}

/**
 * d·G in affine coordinates; d in [1, n-1]. Fixed 4-bit windows over a table of 1·G to 15·G (made
 * per call, 14 additions): four doublings and one addition per window, the addition always
 * computed (of 1·G for a zero window) and its result kept or not.
 */
function multiplyBase(d: bigint): [bigint, bigint] {
  const table: Jacobian[] = [[GX, GY, 1n]];
  for (let i = 1; i < 15; i++) table.push(jAdd(table[i - 1]!, table[0]!));
  let acc: Jacobian = [0n, 1n, 0n];
  for (let shift = 252n; shift >= 0n; shift -= 4n) {
    acc = jDouble(jDouble(jDouble(jDouble(acc))));
    const w = Number((d >> shift) & 15n);
    const added = jAdd(acc, table[(w || 1) - 1]!);
    if (w) acc = added;
  }
  const [x, y, z] = acc;
  const zInv = powMod(z, P - 2n); // the one inversion (Fermat)
  const zInv2 = (zInv * zInv) % P;
  return [(x * zInv2) % P, (y * zInv2 * zInv) % P];
}

const argument = (message: string): WalletError => new WalletError('invalid_argument', message);

function checkScalar(scalar: Uint8Array, name: string): bigint {
  if (!(scalar instanceof Uint8Array) || scalar.length !== 32) throw argument(`${name} must be a 32-byte P-256 private scalar`);
  const d = toBigInt(scalar);
  if (d === 0n || d >= N) throw argument(`${name} is outside [1, n-1] of P-256`);
  return d;
}

const uncompressed = (x: bigint, y: bigint): Bytes => concatBytes(Uint8Array.of(4), toBytes32(x), toBytes32(y));

/** The 65-byte uncompressed public point of a 32-byte private scalar. */
export function publicKeyFromScalar(scalar: Uint8Array): Bytes {
  return uncompressed(...multiplyBase(checkScalar(scalar, 'scalar')));
}

/** Parses a 33- or 65-byte SEC 1 point, checks it lies on the curve and returns affine x, y. */
function parsePoint(pub: Uint8Array, name: string): [bigint, bigint] {
  const length = pub instanceof Uint8Array ? pub.length : 0;
  if (!((length === 65 && pub[0] === 4) || (length === 33 && (pub[0] === 2 || pub[0] === 3)))) {
    throw argument(`${name} must be a 33-byte compressed or 65-byte uncompressed P-256 point`);
  }
  const x = toBigInt(pub.subarray(1, 33));
  let y = toBigInt(pub.subarray(33));
  if (length === 33) {
    // p ≡ 3 (mod 4), so a square root is rhs^((p+1)/4) (SEC 1 §2.3.4 step 2.4.1); the curve check
    // below fails when rhs has none.
    y = powMod(curveRhs(x), (P + 1n) / 4n);
    if ((y & 1n) !== BigInt(pub[0]! & 1)) y = P - y;
  }
  if (!isOnCurve(x, y)) throw argument(`${name} is not a point on P-256`);
  return [x, y];
}

/** SEC 1 §2.3.3 point compression: `02|03 || x`. Accepts 33 (validated, copied) or 65 bytes. */
export function compressPublicKey(pub: Uint8Array, name = 'publicKey'): Bytes {
  const [x, y] = parsePoint(pub, name);
  return concatBytes(Uint8Array.of(y & 1n ? 3 : 2), toBytes32(x));
}

/** SEC 1 §2.3.4 point decompression to `04 || x || y`. Accepts 33 or 65 (validated, copied) bytes. */
export function decompressPublicKey(pub: Uint8Array, name = 'publicKey'): Bytes {
  return uncompressed(...parsePoint(pub, name));
}

async function keyPair(pair: CryptoKeyPair): Promise<KeyPair> {
  return { privateKey: pair.privateKey, publicKey: new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)) };
}

/** A fresh ECDSA P-256 key pair whose private key cannot be exported. */
export async function generateSigningKey(): Promise<KeyPair> {
  return keyPair(await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']));
}

/** A fresh ECDH P-256 key pair (an HPKE receiver) whose private key cannot be exported. */
export async function generateEncryptionKey(): Promise<KeyPair> {
  return keyPair(await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']));
}

/**
 * Imports a 32-byte private scalar as a non-extractable key (DESIGN.md wire format 4): a JWK
 * (RFC 7518 §6.2.2) with x and y computed here, since WebCrypto cannot import a bare scalar.
 * The caller's `scalar` bytes are overwritten with zeros afterwards, also when the import fails.
 * (The JWK's base64url strings cannot be wiped; they become garbage at once.)
 */
export async function importKeyFromScalar(scalar: Uint8Array, algorithm: 'ECDSA' | 'ECDH'): Promise<KeyPair> {
  return (await importScalar(scalar, [algorithm]))[0]!;
}

/** One scalar as one non-extractable key per algorithm (same public key); the scalar is wiped. */
async function importScalar(scalar: Uint8Array, algorithms: Array<'ECDSA' | 'ECDH'>): Promise<KeyPair[]> {
  try {
    if (algorithms.some((a) => a !== 'ECDSA' && a !== 'ECDH')) throw argument("algorithm must be 'ECDSA' or 'ECDH'");
    const publicKey = publicKeyFromScalar(scalar);
    const jwk: JsonWebKey = {
      kty: 'EC',
      crv: 'P-256',
      d: base64urlEncode(scalar),
      x: base64urlEncode(publicKey.subarray(1, 33)),
      y: base64urlEncode(publicKey.subarray(33)),
      ext: false,
    };
    return await Promise.all(
      algorithms.map(async (name) => ({
        privateKey: await crypto.subtle.importKey('jwk', jwk, { name, namedCurve: 'P-256' }, false, name === 'ECDSA' ? ['sign'] : ['deriveBits']),
        publicKey,
      })),
    );
  } finally {
    if (scalar instanceof Uint8Array) scalar.fill(0);
  }
}

/** A uniformly random private scalar in [1, n-1] (`crypto.getRandomValues`, redrawn outside it: odds about 2^-32). */
export function randomScalar(): Uint8Array {
  const scalar = new Uint8Array(32);
  do crypto.getRandomValues(scalar);
  while (toBigInt(scalar) === 0n || toBigInt(scalar) >= N);
  return scalar;
}

/**
 * A fresh private key held twice, as a non-extractable ECDSA key and a non-extractable ECDH key
 * of the same scalar (one public key), for a call whose answer either makes the public key sent
 * the session key or seals a service-chosen key to it (session refresh, reference.md "Sessions").
 * WebCrypto binds a key it generates to one algorithm, so the scalar is drawn here
 * (`randomScalar`), imported and wiped, as a decrypted session key is (wire format 4).
 */
export async function generateDualKey(): Promise<{ signing: KeyPair; receiver: KeyPair }> {
  const [signing, receiver] = await importScalar(randomScalar(), ['ECDSA', 'ECDH']);
  return { signing: signing!, receiver: receiver! };
}

/**
 * Encodes a raw `r || s` signature (64 bytes, as WebCrypto returns it) as minimal DER
 * `SEQUENCE { INTEGER r, INTEGER s }`, in hex: leading zero bytes dropped, one 0x00 prepended
 * when the high bit is set (X.690 §8.3.2: the shortest two's-complement form). Every stamp runs
 * it, so it writes the hex digits directly (no byte array in between); the lengths are at most 33
 * and 70, so each is one byte (X.690 §8.1.3.4 short form).
 */
export function signatureToDerHex(raw64: Uint8Array): string {
  if (!(raw64 instanceof Uint8Array) || raw64.length !== 64) throw argument('signature must be 64 bytes (r || s)');
  let body = '';
  for (let half = 0; half < 64; half += 32) {
    let start = half;
    while (start < half + 31 && raw64[start] === 0) start++;
    let int = raw64[start]! > 0x7f ? '00' : '';
    for (let i = start; i < half + 32; i++) int += BYTE_HEX[raw64[i]!];
    body += '02' + BYTE_HEX[int.length / 2] + int;
  }
  return '30' + BYTE_HEX[body.length / 2] + body;
}

/** The same DER encoding as bytes. */
export const signatureToDer = (raw64: Uint8Array): Bytes => hexToBytes(signatureToDerHex(raw64));

/**
 * Parses a DER ECDSA signature strictly (X.690 §10 DER: definite short lengths, minimal positive
 * INTEGERs, nothing trailing) and returns raw `r || s` (64 bytes). r and s must lie in [1, n-1].
 */
export function signatureFromDer(der: Uint8Array, name = 'signature'): Bytes {
  // Which rule was broken is not said: a signature either is strict DER or is refused.
  const fail = (): never => {
    throw argument(`${name} is not a strict DER ECDSA signature`);
  };
  // At most 2 + 2 * (2 + 33) = 72 bytes, so every length is in the short form (X.690 §8.1.3.4).
  if (!(der instanceof Uint8Array) || der.length < 8 || der.length > 72 || der[0] !== 0x30 || der[1] !== der.length - 2) fail();
  let offset = 2;
  const readInteger = (): Bytes => {
    const len = der[offset + 1]!;
    const start = offset + 2;
    const body = der.subarray(start, (offset = start + len));
    const n = toBigInt(body);
    // An INTEGER of a valid length, positive, minimally encoded, in [1, n-1].
    if (der[start - 2] !== 0x02 || len < 1 || len > 33 || offset > der.length || body[0]! & 0x80 || (body[0] === 0 && (len === 1 || !(body[1]! & 0x80))) || n === 0n || n >= N) fail();
    return toBytes32(n);
  };
  const r = readInteger();
  const s = readInteger();
  if (offset !== der.length) fail();
  return concatBytes(r, s);
}

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** ECDSA P-256 with SHA-256 over `data`; returns the minimal DER signature in hex. */
export function ecdsaSignHex(privateKey: WebCryptoKey, data: Uint8Array): Promise<string> {
  // A plain promise chain rather than an async function: stamping sits on this path.
  return crypto.subtle.sign(ECDSA_SHA256, privateKey, asBuffer(data)).then((raw) => signatureToDerHex(new Uint8Array(raw)));
}

/** ECDSA P-256 with SHA-256 over `data`; returns the minimal DER signature. */
export const ecdsaSign = (privateKey: WebCryptoKey, data: Uint8Array): Promise<Bytes> => ecdsaSignHex(privateKey, data).then((hex) => hexToBytes(hex));

/**
 * Verifies a DER ECDSA P-256/SHA-256 signature. High-S signatures are valid ECDSA (FIPS 186-5
 * §6.4.2 has no low-S rule) and are accepted; WebCrypto does not normalise S either.
 * Throws `invalid_argument` when the key or the DER is malformed; returns false when the
 * signature does not verify.
 */
export async function ecdsaVerify(publicKey: Uint8Array, data: Uint8Array, derSignature: Uint8Array): Promise<boolean> {
  const point = decompressPublicKey(publicKey);
  const raw = signatureFromDer(derSignature);
  const key = await crypto.subtle.importKey('raw', point, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  return crypto.subtle.verify(ECDSA_SHA256, key, raw, asBuffer(data));
}
