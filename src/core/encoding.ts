/**
 * Byte encodings used on the wire: hex, base64url (RFC 4648 §5, no padding), UTF-8, base58check
 * (Bitcoin alphabet, 4-byte double-SHA-256 checksum), plus SHA-256 and random bytes from the global
 * WebCrypto. Every wire format of DESIGN.md is built from these; there is no other copy (the
 * sandbox's base58check encoder uses BASE58_ALPHABET and base58Checksum from here).
 *
 * Runs unchanged in browsers and in Node >= 20. Decoders are strict and throw
 * `WalletError('invalid_argument')` naming the argument. Deliberately not here: base64 with `+/`,
 * hex with a `0x` prefix, streaming.
 */
import { WalletError } from './errors.ts';

/** Bytes that WebCrypto accepts as a BufferSource (a plain ArrayBuffer behind them). */
export type Bytes = Uint8Array<ArrayBuffer>;

const argument = (message: string, cause?: unknown): WalletError => new WalletError('invalid_argument', message, { cause });

/**
 * Views `b` as backed by an ArrayBuffer for WebCrypto's typings; copies only when it is backed by
 * a SharedArrayBuffer, which WebCrypto refuses.
 */
export function asBuffer(b: Uint8Array): Bytes {
  return b.buffer instanceof ArrayBuffer ? (b as Bytes) : new Uint8Array(b);
}

/** Two lowercase hex digits of each byte value. */
export const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => (i < 16 ? '0' : '') + i.toString(16));

export function bytesToHex(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i++) out += BYTE_HEX[b[i]!];
  return out;
}

/** Decodes hex (either case, even length, no prefix). */
export function hexToBytes(hex: string, name = 'hex'): Bytes {
  if (typeof hex !== 'string' || !/^(?:[0-9a-f]{2})*$/i.test(hex)) throw argument(`${name} must be hex digits of even length`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** base64url without padding (RFC 4648 §5, §3.2) of a binary string (one character per byte, as btoa takes). */
export function base64urlEncodeBinary(binary: string): string {
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url without padding (RFC 4648 §5, §3.2). */
export function base64urlEncode(b: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < b.length; i++) binary += String.fromCharCode(b[i]!);
  return base64urlEncodeBinary(binary);
}

/**
 * Decodes base64url. Trailing `=` padding is tolerated when the length is a multiple of 4 (some
 * encoders add it); anything outside the URL-safe alphabet is not, nor are non-zero bits in the
 * last character (RFC 4648 §3.5): the text must be what base64urlEncode gives for its bytes.
 */
export function base64urlDecode(s: string, name = 'base64url'): Bytes {
  const text = typeof s === 'string' && s.length % 4 === 0 ? s.replace(/={1,2}$/, '') : s;
  if (typeof text !== 'string' || !/^[\w-]*$/.test(text) || text.length % 4 === 1) throw argument(`${name} must be base64url`);
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < out.length; i++) out[i] = binary.charCodeAt(i);
  if (base64urlEncode(out) !== text) throw argument(`${name} is not canonical base64url`);
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
    throw argument(`${name} is not valid UTF-8`, cause);
  }
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

export function randomBytes(n: number): Bytes {
  const out = new Uint8Array(n);
  // getRandomValues fills at most 65536 bytes per call (WebCrypto §10.1.1).
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}

export async function sha256(b: Uint8Array): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', asBuffer(b)));
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text` (DESIGN.md wire format 5, the OIDC nonce). */
export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(await sha256(utf8Encode(text)));
}

export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The 4 checksum bytes base58check appends: SHA-256(SHA-256(payload))[0..4]. */
export async function base58Checksum(payload: Uint8Array): Promise<Bytes> {
  return (await sha256(await sha256(payload))).subarray(0, 4);
}

/** Decodes base58check (no version byte is taken off) and checks its checksum. */
export async function base58checkDecode(s: string, name = 'base58check'): Promise<Bytes> {
  if (typeof s !== 'string') throw argument(`${name} is not base58check`);
  let zeros = 0;
  while (s[zeros] === '1') zeros++;
  // Base conversion on little-endian bytes: O(n^2), but bundles are ~100 bytes.
  const bytes: number[] = [];
  for (const c of s.slice(zeros)) {
    let carry = BASE58_ALPHABET.indexOf(c);
    if (carry < 0) throw argument(`${name} is not base58check`);
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) bytes.push(carry & 0xff);
  }
  const all = concatBytes(new Uint8Array(zeros), Uint8Array.from(bytes.reverse()));
  if (all.length < 4) throw argument(`${name} is not base58check`);
  const payload = all.slice(0, -4);
  if (bytesToHex(all.subarray(-4)) !== bytesToHex(await base58Checksum(payload))) throw argument(`${name} is not base58check`);
  return payload;
}
