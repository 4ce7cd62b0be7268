/**
 * The client's side of the service's signed envelopes and encrypted bundles (DESIGN.md wire formats
 * 2-4; reference.md "export"): verifying the OTP target bundle, encrypting the OTP bundle,
 * decrypting the session signing key bundle and the wallet export envelope. The service's side
 * (sign, open, seal) is the sandbox's (src/sandbox/service-bundles.ts), built on the primitives
 * exported here, so each format exists once.
 *
 * Every parse is strict and every failure is a `WalletError('bundle_invalid')` that says what was
 * wrong; arguments of the wrong shape are `invalid_argument`. Deliberately not here: trust
 * decisions (the caller pins the signer key), key storage, and any silent fallback when a
 * signature is missing (skipping verification needs the loudly named option).
 */
import { WalletError } from './errors.ts';
import { base58checkDecode, bytesToHex, concatBytes, hexToBytes, utf8Decode, utf8Encode, type Bytes } from './encoding.ts';
import { compressPublicKey, decompressPublicKey, ecdsaVerify, importKeyFromScalar, type KeyPair } from './p256.ts';
import { hpkeOpen, hpkeSeal } from './hpke.ts';

// The pinned signer keys live in signers.ts (so that a page can pin them without loading the formats).
export { PRODUCTION_EXPORT_SIGNER, PRODUCTION_OTP_SIGNER, SANDBOX_SIGNER_PUBLIC_KEY } from './signers.ts';
import { SANDBOX_SIGNER_PUBLIC_KEY } from './signers.ts';

export const ENVELOPE_VERSION = 'v1.0.0';

/** A signed envelope as the service sends it (target bundles, export envelopes). */
export interface SignedEnvelope {
  version: string;
  /** Hex of the signed bytes (UTF-8 JSON). */
  data: string;
  /** Hex of a DER ECDSA P-256/SHA-256 signature over the decoded `data` bytes; may be empty in the service's own sandbox. */
  dataSignature: string;
  /** Uncompressed hex of the signer. */
  enclaveQuorumPublic: string;
}

const HEX = /^(?:[0-9a-f]{2})*$/i;
const UNCOMPRESSED_HEX = /^04[0-9a-f]{128}$/i;

const invalid = (message: string, cause?: unknown): WalletError => new WalletError('bundle_invalid', message, { cause });

/** Runs a step whose failures (of any kind) mean the bundle is invalid, keeping the cause. */
async function asBundleError<T>(what: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (cause) {
    throw cause instanceof WalletError && cause.code === 'bundle_invalid' ? cause : invalid(what, cause);
  }
}

/** Parses JSON text (or its UTF-8 bytes) that must be an object; `name` names it in the error. */
export function parseBundleJson(text: string | Uint8Array, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(typeof text === 'string' ? text : utf8Decode(text));
  } catch (cause) {
    throw invalid(`${name} is not UTF-8 JSON`, cause);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`${name} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** `obj[key]` when it is a string (matching `pattern`, when given). */
function field(obj: Record<string, unknown>, key: string, name: string, pattern?: RegExp): string {
  const v = obj[key];
  if (typeof v !== 'string' || (pattern && !pattern.test(v))) throw invalid(`${name}.${key} is missing or malformed`);
  return v;
}

/** An uncompressed P-256 point in hex, checked on the curve. */
const pointField = (obj: Record<string, unknown>, key: string, name: string): Promise<Bytes> =>
  asBundleError(`${name}.${key} is not an uncompressed point on P-256`, () => decompressPublicKey(hexToBytes(field(obj, key, name, UNCOMPRESSED_HEX))));

function checkSignerKey(trustedSigner: string, name: string): string {
  if (typeof trustedSigner !== 'string' || !UNCOMPRESSED_HEX.test(trustedSigner)) {
    throw new WalletError('invalid_argument', `${name} must be an uncompressed P-256 public key in hex`);
  }
  return trustedSigner.toLowerCase();
}

/** A 65-byte uncompressed key as given (the HPKE steps check that it lies on the curve). */
function checkUncompressed(pub: Uint8Array, name: string): Uint8Array {
  if (!(pub instanceof Uint8Array) || pub.length !== 65 || pub[0] !== 4) {
    throw new WalletError('invalid_argument', `${name} must be an uncompressed P-256 public key`);
  }
  return pub;
}

/**
 * Parses a signed envelope, tolerating surrounding whitespace and one pair of stray single quotes
 * around the JSON (DESIGN.md wire format 2: some transports deliver the bundle quoted).
 */
export function parseSignedEnvelope(envelope: string, name = 'bundle'): SignedEnvelope & { dataBytes: Bytes } {
  if (typeof envelope !== 'string') throw new WalletError('invalid_argument', `${name} must be a string`);
  let text = envelope.trim();
  if (/^'.*'$/s.test(text)) text = text.slice(1, -1).trim();
  const obj = parseBundleJson(text, name);
  // Absent fields read as their default (the service's own sandbox may leave the signature out); an
  // empty signer or signature never passes verification, so only the explicit skip option gets past.
  const optional = (key: string, fallback = '') => (obj[key] === undefined ? fallback : field(obj, key, name));
  const data = field(obj, 'data', name, HEX);
  return {
    version: optional('version', ENVELOPE_VERSION),
    data,
    dataSignature: optional('dataSignature'),
    enclaveQuorumPublic: optional('enclaveQuorumPublic'),
    dataBytes: hexToBytes(data),
  };
}

/**
 * Checks the envelope's signer equals the pinned key (null: verification skipped by name) and its
 * signature over the decoded data bytes, then returns the data parsed as a JSON object.
 */
/** Whether the sandbox-signer hint was already given on this page. */
let warned = false;

async function openSignedEnvelope(envelope: string, trustedSigner: string | null, name: string): Promise<Record<string, unknown>> {
  const parsed = parseSignedEnvelope(envelope, name);
  if (trustedSigner !== null) {
    if (parsed.enclaveQuorumPublic.toLowerCase() !== trustedSigner) {
      if (parsed.enclaveQuorumPublic.toLowerCase() === SANDBOX_SIGNER_PUBLIC_KEY && !warned) {
        // The user reads "not set up to reach the wallet service"; the developer is told why, once.
        warned = true;
        console.warn("wallet-elements: the sandbox answered, but the production signer key is pinned: configureWallet({ environment: 'sandbox' }) (never in production).");
      }
      throw invalid(`${name} is not signed by the pinned signer key`);
    }
    const ok = await asBundleError(`${name}.dataSignature is not a DER ECDSA signature in hex`, () =>
      ecdsaVerify(hexToBytes(trustedSigner), parsed.dataBytes, hexToBytes(parsed.dataSignature)),
    );
    if (!ok) throw invalid(`${name} is not signed by the pinned signer key`);
  }
  return parseBundleJson(parsed.dataBytes, `${name}.data`);
}

/**
 * Verifies an OTP target bundle (`otpEncryptionTargetBundle`) against the pinned signer and
 * returns its `targetPublic` (65 bytes). DESIGN.md wire format 2.
 */
export async function verifyTargetBundle(bundle: string, trustedSigner: string): Promise<Bytes> {
  const data = await openSignedEnvelope(bundle, checkSignerKey(trustedSigner, 'trustedSigner'), 'bundle');
  return pointField(data, 'targetPublic', 'bundle.data');
}

/**
 * HPKE to a receiver's uncompressed key with AAD = enc || receiver, as every bundle binds it (wire
 * formats 3, 4 and the export); the service's seals use it too.
 */
export function sealToKey(receiverPublic: Uint8Array, plaintext: Uint8Array, name: string): Promise<{ enc: Bytes; ciphertext: Bytes }> {
  const receiver = checkUncompressed(receiverPublic, name);
  return hpkeSeal({ recipientPublicKey: receiver, plaintext, aad: (enc) => concatBytes(enc, receiver) });
}

/** The inverse of sealToKey with the receiver's key pair; a failure is bundle_invalid. */
async function openWithKey(receiver: KeyPair, enc: Bytes, ciphertext: Uint8Array, name: string): Promise<Bytes> {
  const aad = concatBytes(enc, checkUncompressed(receiver.publicKey, 'receiver.publicKey'));
  return asBundleError(`${name} did not decrypt`, () => hpkeOpen({ recipient: receiver, enc, ciphertext, aad }));
}

/**
 * The `encryptedOtpBundle` (DESIGN.md wire format 3): HPKE of the UTF-8 JSON
 * `{"otp_code", "public_key"}` to `targetPublic` with AAD = enc || targetPublic. `public_key` is the
 * compressed hex of the client key that then stamps the verify retry.
 */
export async function encryptOtpBundle(params: { otpCode: string; targetPublic: Uint8Array; clientPublicKey: Uint8Array }): Promise<string> {
  const { otpCode } = params;
  if (typeof otpCode !== 'string' || otpCode.length === 0 || otpCode.length > 64) {
    throw new WalletError('invalid_argument', 'otpCode must be 1 to 64 characters');
  }
  const publicKey = bytesToHex(compressPublicKey(checkUncompressed(params.clientPublicKey, 'clientPublicKey')));
  const plaintext = utf8Encode(JSON.stringify({ otp_code: otpCode, public_key: publicKey }));
  const { enc, ciphertext } = await sealToKey(params.targetPublic, plaintext, 'targetPublic');
  return JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) });
}

/** Opens the `{encappedPublic, ciphertext}` hex fields of `obj` (wire format 3, the export's data). */
export async function openHexPair(obj: Record<string, unknown>, receiver: KeyPair, name: string): Promise<Bytes> {
  const enc = await pointField(obj, 'encappedPublic', name);
  return openWithKey(receiver, enc, hexToBytes(field(obj, 'ciphertext', name, HEX)), name);
}

/**
 * Decrypts an `encryptedSessionSigningKey` (wire format 4: base58check(compressed enc || ciphertext)
 * of a 32-byte private scalar) and returns the scalar. The caller imports it at once with
 * `importKeyFromScalar`, which wipes it; `importSessionKeyBundle` does both.
 */
export async function decryptSessionKeyBundle(bundle: string, receiver: KeyPair): Promise<Bytes> {
  // 33 bytes of compressed enc, then the ciphertext; whatever fails (checksum, point, tag) is in the cause.
  const bytes = await asBundleError('session key bundle is not base58check', () => base58checkDecode(bundle.trim(), 'bundle'));
  const enc = await asBundleError('session key bundle enc is not a point on P-256', () => decompressPublicKey(bytes.subarray(0, 33)));
  const scalar = await openWithKey(receiver, enc, bytes.subarray(33), 'session key bundle');
  if (scalar.length !== 32) {
    scalar.fill(0);
    throw invalid('session key bundle does not hold a 32-byte private key');
  }
  return scalar;
}

/** Decrypts a session key bundle and imports it as a non-extractable ECDSA key; the scalar is wiped. */
export async function importSessionKeyBundle(bundle: string, receiver: KeyPair): Promise<KeyPair> {
  const scalar = await decryptSessionKeyBundle(bundle, receiver);
  return asBundleError('session key bundle does not hold a valid P-256 private key', () => importKeyFromScalar(scalar, 'ECDSA'));
}

export type ExportVerification = { trustedSigner: string; organizationId?: string } | { dangerouslySkipSignatureVerification: true; organizationId?: string };

/**
 * Decrypts a wallet export envelope (`encryptedWalletCredentials`, reference.md): a signed envelope
 * whose data holds `{encappedPublic, ciphertext, organizationId}`; AAD = enc || receiver. Returns
 * the plaintext (the recovery phrase) as UTF-8 text. The signature is checked against
 * `trustedSigner` unless `dangerouslySkipSignatureVerification: true` is passed (the service's own
 * sandbox leaves export signatures empty); when `organizationId` is given it must match.
 */
export async function decryptExportEnvelope(envelope: string, receiver: KeyPair, opts: ExportVerification): Promise<string> {
  const o: { trustedSigner?: string; dangerouslySkipSignatureVerification?: unknown; organizationId?: string } = Object(opts);
  // Skipping needs the option by name and no trustedSigner beside it; anything else must pin a key.
  const signer =
    o.dangerouslySkipSignatureVerification === true && !('trustedSigner' in o)
      ? null
      : checkSignerKey(o.trustedSigner!, 'opts.trustedSigner (or dangerouslySkipSignatureVerification: true)');
  const data = await openSignedEnvelope(envelope, signer, 'envelope');
  if (o.organizationId !== undefined && data.organizationId !== o.organizationId) {
    throw invalid('envelope.data.organizationId is not the expected one');
  }
  const plaintext = await openHexPair(data, receiver, 'envelope.data');
  return asBundleError('envelope plaintext is not UTF-8', () => utf8Decode(plaintext));
}
