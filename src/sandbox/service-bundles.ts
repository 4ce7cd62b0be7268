/**
 * The service's side of the signed envelopes and encrypted bundles (DESIGN.md wire formats 2-4;
 * reference.md "export"): signing target bundles and export envelopes, opening the encrypted OTP
 * bundle, sealing the session signing key. The client's side is src/core/bundles.ts; both are
 * built on the same core primitives (sealToKey, openHexPair, parseBundleJson, the base58 alphabet
 * and checksum), so each format exists once.
 *
 * Failures to open are `WalletError('bundle_invalid')`, arguments of the wrong shape
 * `invalid_argument`, as on the client's side.
 */
import { WalletError } from '../core/errors.ts';
import { BASE58_ALPHABET, base58Checksum, bytesToHex, concatBytes, hexToBytes, utf8Encode } from '../core/encoding.ts';
import { compressPublicKey, decompressPublicKey, ecdsaSign, type KeyPair } from '../core/p256.ts';
import { ENVELOPE_VERSION, openHexPair, parseBundleJson, sealToKey, type SignedEnvelope } from '../core/bundles.ts';

const argument = (message: string): WalletError => new WalletError('invalid_argument', message);

/** base58check: base58 of `payload || SHA-256(SHA-256(payload))[0..4]` (no version byte is added). */
export async function base58checkEncode(payload: Uint8Array): Promise<string> {
  const bytes = concatBytes(payload, await base58Checksum(payload));
  let zeros = 0;
  while (bytes[zeros] === 0) zeros++;
  // Base conversion on little-endian base-58 digits: O(n^2), but bundles are ~100 bytes.
  const digits: number[] = [];
  for (const byte of bytes.subarray(zeros)) {
    let carry = byte;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    for (; carry > 0; carry = (carry / 58) | 0) digits.push(carry % 58);
  }
  return '1'.repeat(zeros) + digits.reverse().map((d) => BASE58_ALPHABET[d]).join('');
}

/** `{"version":"v1.0.0","data":hex,"dataSignature":hexDER,"enclaveQuorumPublic":hex}`. */
export async function createSignedEnvelope(data: Uint8Array, signer: KeyPair): Promise<string> {
  if (!(data instanceof Uint8Array)) throw argument('data must be bytes');
  const envelope: SignedEnvelope = {
    version: ENVELOPE_VERSION,
    data: bytesToHex(data),
    dataSignature: bytesToHex(await ecdsaSign(signer.privateKey, data)),
    enclaveQuorumPublic: bytesToHex(decompressPublicKey(signer.publicKey, 'signer.publicKey')),
  };
  return JSON.stringify(envelope);
}

/** Wire format 2: a target bundle whose data is `{"targetPublic": <uncompressed hex>}`. */
export async function createTargetBundle(targetPublic: Uint8Array, signer: KeyPair): Promise<string> {
  if (targetPublic?.length !== 65) throw argument('targetPublic must be a 65-byte uncompressed P-256 public key');
  const target = bytesToHex(decompressPublicKey(targetPublic, 'targetPublic'));
  return createSignedEnvelope(utf8Encode(JSON.stringify({ targetPublic: target })), signer);
}

/** The export: seals `plaintext` to the client key and signs the envelope. */
export async function createExportEnvelope(params: {
  plaintext: string;
  clientPublicKey: Uint8Array;
  signer: KeyPair;
  organizationId: string;
}): Promise<string> {
  const { plaintext, signer, organizationId } = params;
  if (typeof plaintext !== 'string') throw argument('plaintext must be a string');
  if (typeof organizationId !== 'string') throw argument('organizationId must be a string');
  const { enc, ciphertext } = await sealToKey(params.clientPublicKey, utf8Encode(plaintext), 'clientPublicKey');
  const data = { encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext), organizationId };
  return createSignedEnvelope(utf8Encode(JSON.stringify(data)), signer);
}

const invalid = (message: string, cause?: unknown): WalletError => new WalletError('bundle_invalid', message, { cause });

/**
 * Wire format 3: decrypts an `encryptedOtpBundle` with the target key and returns the code and the
 * client's compressed public key (validated on the curve, lowercase).
 */
export async function openOtpBundle(encryptedOtpBundle: string, target: KeyPair): Promise<{ otpCode: string; publicKey: string }> {
  if (typeof encryptedOtpBundle !== 'string') throw argument('encryptedOtpBundle must be a string');
  const plaintext = await openHexPair(parseBundleJson(encryptedOtpBundle, 'encryptedOtpBundle'), target, 'encryptedOtpBundle');
  const inner = parseBundleJson(plaintext, 'encryptedOtpBundle plaintext');
  const { otp_code: otpCode, public_key: publicKey } = inner;
  if (typeof otpCode !== 'string') throw invalid('encryptedOtpBundle otp_code is missing or not a string');
  if (typeof publicKey !== 'string' || !/^0[23][0-9a-f]{64}$/i.test(publicKey)) {
    throw invalid('encryptedOtpBundle public_key is not a compressed P-256 key in hex');
  }
  try {
    decompressPublicKey(hexToBytes(publicKey));
  } catch (cause) {
    throw invalid('encryptedOtpBundle public_key is not a point on P-256', cause);
  }
  return { otpCode, publicKey: publicKey.toLowerCase() };
}

/**
 * Wire format 4: base58check(compressed enc || ciphertext) of a 32-byte private scalar sealed to
 * the client's key, AAD = uncompressed enc || clientPublicKey.
 */
export async function sealSessionKeyBundle(scalar: Uint8Array, clientPublicKey: Uint8Array): Promise<string> {
  if (!(scalar instanceof Uint8Array) || scalar.length !== 32) throw argument('scalar must be 32 bytes');
  const { enc, ciphertext } = await sealToKey(clientPublicKey, scalar, 'clientPublicKey');
  return base58checkEncode(concatBytes(compressPublicKey(enc), ciphertext));
}
