/**
 * The wallet signature ("API-key stamp", DESIGN.md wire format 1; api.md "Wallet-signature
 * authorization"): base64url without padding of the UTF-8 JSON
 * `{"publicKey": <compressed hex>, "scheme": "SIGNATURE_SCHEME_TK_API_P256", "signature": <DER hex>}`,
 * where the signature is ECDSA P-256/SHA-256 over the UTF-8 bytes of the payload exactly as given.
 *
 * The browser's side: making stamps (the sandbox checks them, src/sandbox/service-stamps.ts). It
 * deliberately does not re-serialise, trim or normalise the payload.
 */
import { WalletError } from './errors.ts';
import { base64urlEncodeBinary, bytesToHex } from './encoding.ts';
import { compressPublicKey, ecdsaSignHex, type KeyPair } from './p256.ts';

export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/** Signs payloads for the signed retry; where the key lives is the implementation's business. */
export interface Stamper {
  stamp(payload: string): Promise<{ headerName: string; headerValue: string }>;
  /** Compressed hex of the signing key, when known. */
  publicKey?: string;
  /**
   * Told when the service refuses a signed call with 401 (not an expired challenge): the session
   * that signed may have ended upstream. What it throws is what the call throws instead (a
   * Wallet's stamper: `session_expired` when the service no longer lists its session, whose record
   * is then deleted); a Stamper it answers signs the exchange again from its start, once (the live
   * session this device holds instead: another tab renewed the one that signed); answering nothing
   * lets the refusal stand.
   */
  refused?(error: unknown): Promise<Stamper | void>;
}

// Per key pair: the compressed hex and the encoded start of the stamp, so that a stamp costs one
// ECDSA signature plus encoding its ~72 DER bytes, with no point math.
const keyCache = new WeakMap<KeyPair, { publicKey: string; prefix: string }>();

function stampCache(key: KeyPair): { publicKey: string; prefix: string } {
  let cached = keyCache.get(key);
  if (!cached) {
    const publicKey = bytesToHex(compressPublicKey(key.publicKey, 'key.publicKey'));
    // JSON.stringify's output for {publicKey, scheme, signature}, in the order the service's own
    // stamper writes them, cut before the signature's value: always 135 ASCII bytes (the key is 66
    // hex digits), a multiple of 3, so its base64url is a prefix of the whole stamp's base64url.
    const head = JSON.stringify({ publicKey, scheme: STAMP_SCHEME, signature: '' }).slice(0, -2);
    keyCache.set(key, (cached = { publicKey, prefix: base64urlEncodeBinary(head) }));
  }
  return cached;
}

/** Compressed hex of a key pair's public key (cached per KeyPair object). */
export function publicKeyHex(key: KeyPair): string {
  return stampCache(key).publicKey;
}

// The payload's UTF-8 goes to one buffer reused by every stamp, not to a fresh ArrayBuffer (about a
// tenth of a stamp's time in Chromium): WebCrypto's sign() copies its data before it returns (its
// step 2), so the next stamp may overwrite it even while this one is being signed.
const encoder = new TextEncoder();
let scratch = new Uint8Array();

/**
 * Signs `payload` and hands the header value to `done` in the signature's continuation (no async
 * frames, no further promises): every signed request waits on it, and the work beside the signature
 * itself is what the stamp benchmark measures.
 */
function stampThen<T>(payload: string, key: KeyPair, done: (headerValue: string) => T): Promise<T> {
  try {
    if (typeof payload !== 'string') throw new WalletError('invalid_argument', 'payload must be a string');
    const { prefix } = stampCache(key);
    // At most 3 UTF-8 bytes per UTF-16 unit.
    if (scratch.length < payload.length * 3) scratch = new Uint8Array(payload.length * 3);
    // The rest of the stamp is ASCII (hex digits and `"}`), so it goes to btoa as it is.
    return ecdsaSignHex(key.privateKey, scratch.subarray(0, encoder.encodeInto(payload, scratch).written)).then((der) => done(prefix + base64urlEncodeBinary(`${der}"}`)));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The `Service-Wallet-Signature` header value for `payload`, signed with `key`. */
export const createStamp = (payload: string, key: KeyPair): Promise<string> => stampThen(payload, key, (headerValue) => headerValue);

/** A Stamper over a key pair held in memory (a non-extractable CryptoKey). */
export function keyStamper(key: KeyPair): Stamper {
  return {
    publicKey: publicKeyHex(key),
    stamp: (payload: string) => stampThen(payload, key, (headerValue) => ({ headerName: WALLET_SIGNATURE_HEADER, headerValue })),
  };
}
