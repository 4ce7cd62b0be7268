/**
 * Byte encodings used on the wire: hex, base64url (RFC 4648 §5, no padding), UTF-8, base58check
 * (Bitcoin alphabet, 4-byte double-SHA-256 checksum), plus SHA-256 and random bytes from the global
 * WebCrypto. Every wire format of DESIGN.md is built from these; there is no other copy.
 *
 * Runs unchanged in browsers and in Node >= 20. Decoders are strict and throw
 * `WalletError('invalid_argument')` naming the argument. Deliberately not here: base64 with `+/`,
 * hex with a `0x` prefix, streaming.
 */
import { WalletError } from './errors.ts';

/** Bytes that WebCrypto accepts as a BufferSource (a plain ArrayBuffer behind them). */
export type Bytes = Uint8Array<ArrayBuffer>;

/**
 * Views `b` as backed by an ArrayBuffer for WebCrypto's typings; copies only when it is backed by
 * a SharedArrayBuffer, which WebCrypto refuses.
 */
export function asBuffer(b: Uint8Array): Bytes {
  return b.buffer instanceof ArrayBuffer ? (b as Bytes) : new Uint8Array(b);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function bytesToHex(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i++) out += HEX[b[i]!];
  return out;
}

function hexNibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

/** Decodes hex (either case, even length, no prefix). */
export function hexToBytes(hex: string, name = 'hex'): Bytes {
  if (typeof hex !== 'string' || hex.length % 2 !== 0) {
    throw new WalletError('invalid_argument', `${name} must be a hex string of even length`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexNibble(hex.charCodeAt(2 * i));
    const lo = hexNibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw new WalletError('invalid_argument', `${name} must contain only hex digits`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64URL_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B64URL.length; i++) B64URL_INDEX[B64URL.charCodeAt(i)] = i;

/** base64url without padding (RFC 4648 §5, §3.2). */
export function base64urlEncode(b: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]! + B64URL[n & 63]!;
  }
  const rest = b.length - i;
  if (rest === 1) {
    const n = b[i]! << 16;
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8);
    out += B64URL[n >> 18]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]!;
  }
  return out;
}

/**
 * Decodes base64url. Trailing `=` padding is tolerated (some encoders add it), anything outside
 * the URL-safe alphabet is not, nor are non-zero bits in the last character (RFC 4648 §3.5).
 */
export function base64urlDecode(s: string, name = 'base64url'): Bytes {
  if (typeof s !== 'string') throw new WalletError('invalid_argument', `${name} must be a base64url string`);
  let end = s.length;
  if (end % 4 === 0) while (end > 0 && end > s.length - 2 && s.charCodeAt(end - 1) === 61) end--;
  if (end % 4 === 1) throw new WalletError('invalid_argument', `${name} has an impossible base64url length`);
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? B64URL_INDEX[c]! : -1;
    if (v < 0) throw new WalletError('invalid_argument', `${name} must contain only base64url characters`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) {
    throw new WalletError('invalid_argument', `${name} is not canonical base64url`);
  }
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function utf8Encode(s: string): Bytes {
  return encoder.encode(s) as Bytes;
}

/** Decodes UTF-8, throwing on malformed input rather than inserting U+FFFD. */
export function utf8Decode(b: Uint8Array, name = 'bytes'): string {
  try {
    return decoder.decode(b);
  } catch (cause) {
    throw new WalletError('invalid_argument', `${name} is not valid UTF-8`, { cause });
  }
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Constant-time equality of two byte strings of the same length. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function randomBytes(n: number): Bytes {
  const out = new Uint8Array(n);
  // getRandomValues fills at most 65536 bytes per call (WebCrypto §10.1.1).
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

export async function sha256(b: Uint8Array): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', asBuffer(b)));
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text` (DESIGN.md wire format 5, the OIDC nonce). */
export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(await sha256(utf8Encode(text)));
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B58_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B58.length; i++) B58_INDEX[B58.charCodeAt(i)] = i;

function base58Encode(b: Uint8Array): string {
  let zeros = 0;
  while (zeros < b.length && b[zeros] === 0) zeros++;
  // Base conversion on little-endian base-58 digits: O(n^2) but bundles are ~100 bytes.
  const digits: number[] = [];
  for (let i = zeros; i < b.length; i++) {
    let carry = b[i]!;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '1'.repeat(zeros);
  for (let i = digits.length - 1; i >= 0; i--) out += B58[digits[i]!];
  return out;
}

function base58Decode(s: string, name: string): Bytes {
  let zeros = 0;
  while (zeros < s.length && s[zeros] === '1') zeros++;
  const bytes: number[] = [];
  for (let i = zeros; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let carry = c < 128 ? B58_INDEX[c]! : -1;
    if (carry < 0) throw new WalletError('invalid_argument', `${name} must contain only base58 characters`);
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[out.length - 1 - i] = bytes[i]!;
  return out;
}

async function checksum(payload: Uint8Array): Promise<Bytes> {
  return (await sha256(await sha256(payload))).subarray(0, 4);
}

/** base58check: base58 of `payload || SHA-256(SHA-256(payload))[0..4]` (no version byte is added). */
export async function base58checkEncode(b: Uint8Array): Promise<string> {
  return base58Encode(concatBytes(b, await checksum(b)));
}

export async function base58checkDecode(s: string, name = 'base58check'): Promise<Bytes> {
  if (typeof s !== 'string') throw new WalletError('invalid_argument', `${name} must be a base58check string`);
  const all = base58Decode(s, name);
  if (all.length < 4) throw new WalletError('invalid_argument', `${name} is too short for base58check`);
  const payload = all.slice(0, all.length - 4);
  if (!equalBytes(all.subarray(all.length - 4), await checksum(payload))) {
    throw new WalletError('invalid_argument', `${name} has a wrong base58check checksum`);
  }
  return payload;
}
