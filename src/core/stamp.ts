/**
 * The wallet signature ("API-key stamp", DESIGN.md wire format 1; api.md "Wallet-signature
 * authorization"): base64url without padding of the UTF-8 JSON
 * `{"publicKey": <compressed hex>, "scheme": "SIGNATURE_SCHEME_TK_API_P256", "signature": <DER hex>}`,
 * where the signature is ECDSA P-256/SHA-256 over the UTF-8 bytes of the payload exactly as given.
 *
 * Used by the browser (making stamps) and the sandbox (checking them). It deliberately does not
 * re-serialise, trim or normalise the payload, and does not decide which keys are authorised:
 * `verifyStamp` only says whether the stamp's own key signed the payload.
 */
import { WalletError } from './errors.ts';
import { base64urlDecode, base64urlEncode, bytesToHex, hexToBytes, utf8Decode, utf8Encode } from './encoding.ts';
import { compressPublicKey, ecdsaVerify, signatureToDer, type KeyPair } from './p256.ts';

const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
// Defined with the signed retry, which sends it beside the stamp; re-exported for the sandbox's checks.
export { REQUEST_ID_HEADER } from './signed-retry.ts';
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/** Signs payloads for the signed retry; where the key lives is the implementation's business. */
export interface Stamper {
  stamp(payload: string): Promise<{ headerName: string; headerValue: string }>;
  /** Compressed hex of the signing key, when known. */
  publicKey?: string;
}

export interface ParsedStamp {
  /** Compressed P-256 public key, hex (66 characters). */
  publicKey: string;
  scheme: string;
  /** DER ECDSA signature, hex. */
  signature: string;
}

interface KeyStampCache {
  /** Compressed hex of the public key. */
  publicKey: string;
  /** base64url of the stamp JSON up to the signature value. */
  prefix: string;
}

// Per key pair: the compressed hex and the encoded start of the stamp, so that a stamp costs one
// ECDSA signature plus encoding its ~72 DER bytes, with no point math.
const keyCache = new WeakMap<KeyPair, KeyStampCache>();

function stampCache(key: KeyPair): KeyStampCache {
  let cached = keyCache.get(key);
  if (cached === undefined) {
    const publicKey = bytesToHex(compressPublicKey(key.publicKey, 'key.publicKey'));
    // JSON.stringify's output for {publicKey, scheme, signature}, in the order the service's own
    // stamper writes them, cut before the signature's value. It is 135 bytes, a multiple of 3, so
    // its base64url is a prefix of the whole stamp's base64url.
    const head = JSON.stringify({ publicKey, scheme: STAMP_SCHEME, signature: '' }).slice(0, -2);
    const headBytes = utf8Encode(head);
    const prefix = headBytes.length % 3 === 0 ? base64urlEncode(headBytes) : '';
    cached = { publicKey, prefix };
    keyCache.set(key, cached);
  }
  return cached;
}

/** Compressed hex of a key pair's public key (cached per KeyPair object). */
export function publicKeyHex(key: KeyPair): string {
  return stampCache(key).publicKey;
}

/** The `Service-Wallet-Signature` header value for `payload`, signed with `key`. */
export function createStamp(payload: string, key: KeyPair): Promise<string> {
  // A plain promise chain (one layer over the signature) rather than an async function: this is the
  // hot path of every signed retry.
  let cache: KeyStampCache;
  try {
    if (typeof payload !== 'string') throw new WalletError('invalid_argument', 'payload must be a string');
    cache = stampCache(key);
  } catch (e) {
    return Promise.reject(e);
  }
  const { publicKey, prefix } = cache;
  // ecdsaSign's steps inlined into a single continuation (same DER encoder).
  return crypto.subtle.sign(ECDSA_SHA256, key.privateKey, utf8Encode(payload)).then((raw) => {
    const signature = bytesToHex(signatureToDer(new Uint8Array(raw)));
    // The tail is ASCII (hex digits and `"}`), so the platform's btoa encodes it directly: several
    // microseconds less than byte-wise base64url on a ~50 µs signature (bench/stamp.ts).
    if (prefix) return prefix + btoa(`${signature}"}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    return base64urlEncode(utf8Encode(JSON.stringify({ publicKey, scheme: STAMP_SCHEME, signature })));
  });
}

/** A Stamper over a key pair held in memory (a non-extractable CryptoKey). */
export function keyStamper(key: KeyPair): Stamper {
  const publicKey = publicKeyHex(key);
  return {
    publicKey,
    async stamp(payload: string) {
      return { headerName: WALLET_SIGNATURE_HEADER, headerValue: await createStamp(payload, key) };
    },
  };
}

const COMPRESSED_HEX = /^0[23][0-9a-fA-F]{64}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** Parses a header value; throws `WalletError('invalid_argument')` naming what is malformed. */
export function parseStamp(headerValue: string): ParsedStamp {
  const fail = (why: string, cause?: unknown): never => {
    throw new WalletError('invalid_argument', `stamp ${why}`, { cause });
  };
  if (typeof headerValue !== 'string' || headerValue.length === 0) fail('must be a non-empty string');
  let value: unknown;
  try {
    value = JSON.parse(utf8Decode(base64urlDecode(headerValue.trim(), 'stamp'), 'stamp'));
  } catch (cause) {
    fail('is not base64url of UTF-8 JSON', cause);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('is not a JSON object');
  const { publicKey, scheme, signature } = value as Record<string, unknown>;
  if (typeof publicKey !== 'string' || !COMPRESSED_HEX.test(publicKey)) fail('publicKey must be a compressed P-256 key in hex');
  if (scheme !== STAMP_SCHEME) fail(`scheme must be ${STAMP_SCHEME}`);
  if (typeof signature !== 'string' || !HEX.test(signature)) fail('signature must be hex');
  return { publicKey: publicKey as string, scheme: STAMP_SCHEME, signature: signature as string };
}

/**
 * Checks that the stamp's key signed `payload` (its UTF-8 bytes, as given). Returns the parsed
 * stamp, or null when the signature does not verify; throws `invalid_argument` when the stamp is
 * malformed (bad encoding, a key not on the curve, a signature that is not strict DER).
 */
export async function verifyStamp(headerValue: string, payload: string): Promise<ParsedStamp | null> {
  const parsed = parseStamp(headerValue);
  if (typeof payload !== 'string') throw new WalletError('invalid_argument', 'payload must be a string');
  const ok = await ecdsaVerify(
    hexToBytes(parsed.publicKey, 'stamp publicKey'),
    utf8Encode(payload),
    hexToBytes(parsed.signature, 'stamp signature'),
  );
  return ok ? parsed : null;
}
