/**
 * The service's side of the wallet signature (DESIGN.md wire format 1; the client's side, making
 * stamps, is src/core/stamp.ts): parsing a `Service-Wallet-Signature` header value and checking
 * that the stamp's own key signed a payload. Which keys are authorised is the caller's decision
 * (src/sandbox/signed-retry.ts).
 *
 * It deliberately does not re-serialise, trim or normalise the payload: the signature covers its
 * UTF-8 bytes exactly as given.
 */
import { WalletError } from '../core/errors.ts';
import { base64urlDecode, bytesToHex, hexToBytes, utf8Decode, utf8Encode } from '../core/encoding.ts';
import { decompressPublicKey, signatureFromDer } from '../core/p256.ts';
import { STAMP_SCHEME } from '../core/stamp.ts';

export interface ParsedStamp {
  /** Compressed P-256 public key, hex (66 characters). */
  publicKey: string;
  scheme: string;
  /** DER ECDSA signature, hex. */
  signature: string;
}

const COMPRESSED_HEX = /^0[23][0-9a-fA-F]{64}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** Parses a header value; throws `WalletError('invalid_argument')` naming what is malformed. */
export function parseStamp(headerValue: string): ParsedStamp {
  const fail = (why: string, cause?: unknown): never => {
    throw new WalletError('invalid_argument', `stamp ${why}`, { cause });
  };
  if (typeof headerValue !== 'string' || headerValue.length === 0) fail('must be a non-empty string');
  // DESIGN.md wire format 1: base64url *without padding*; the shared decoder tolerates `=` for other fields.
  if (headerValue.includes('=')) fail('must be base64url without padding');
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

// Imported verification keys by uncompressed hex: a service sees the same few keys over and over,
// and importing costs about as much as verifying. Bounded, oldest dropped first.
const verifyKeys = new Map<string, Promise<CryptoKey>>();
const VERIFY_KEY_CACHE_SIZE = 256;

function verifyKey(uncompressed: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const id = bytesToHex(uncompressed);
  let key = verifyKeys.get(id);
  if (!key) {
    key = crypto.subtle.importKey('raw', uncompressed, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    if (verifyKeys.size >= VERIFY_KEY_CACHE_SIZE) verifyKeys.delete(verifyKeys.keys().next().value!);
    verifyKeys.set(id, key);
    key.catch(() => verifyKeys.delete(id));
  }
  return key;
}

/**
 * Checks that the stamp's key signed `payload` (its UTF-8 bytes, as given). Returns the parsed
 * stamp, or null when the signature does not verify; throws `invalid_argument` when the stamp is
 * malformed (bad encoding, a key not on the curve, a signature that is not strict DER). High-S
 * signatures are valid ECDSA and pass, as with the core's ecdsaVerify.
 */
export async function verifyStamp(headerValue: string, payload: string): Promise<ParsedStamp | null> {
  const parsed = parseStamp(headerValue);
  if (typeof payload !== 'string') throw new WalletError('invalid_argument', 'payload must be a string');
  const point = decompressPublicKey(hexToBytes(parsed.publicKey), 'stamp publicKey');
  const raw = signatureFromDer(hexToBytes(parsed.signature), 'stamp signature');
  const ok = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, await verifyKey(point), raw, utf8Encode(payload));
  return ok ? parsed : null;
}
