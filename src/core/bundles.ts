/**
 * The service's signed envelopes and encrypted bundles (DESIGN.md wire formats 2-4; reference.md
 * "export"): the OTP target bundle, the encrypted OTP bundle, the session signing key bundle and
 * the wallet export envelope. Both sides live here, the client's (verify, encrypt, decrypt) and
 * the service's (sign, open, seal) that the sandbox uses, so each format exists once.
 *
 * Every parse is strict and every failure is a `WalletError('bundle_invalid')` that says what was
 * wrong; arguments of the wrong shape are `invalid_argument`. Deliberately not here: trust
 * decisions (the caller pins the signer key), key storage, and any silent fallback when a
 * signature is missing (skipping verification needs the loudly named option).
 */
import { WalletError } from './errors.ts';
import {
  base58checkDecode,
  base58checkEncode,
  bytesToHex,
  concatBytes,
  hexToBytes,
  utf8Decode,
  utf8Encode,
  type Bytes,
} from './encoding.ts';
import { compressPublicKey, decompressPublicKey, ecdsaSign, ecdsaVerify, importKeyFromScalar, type KeyPair } from './p256.ts';
import { hpkeOpen, hpkeSeal } from './hpke.ts';

// The pinned signer keys live in signers.ts (so that a page can pin them without loading the formats).
export { PRODUCTION_EXPORT_SIGNER, PRODUCTION_OTP_SIGNER, SANDBOX_SIGNER_PUBLIC_KEY } from './signers.ts';

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

const UNCOMPRESSED_HEX = /^04[0-9a-fA-F]{128}$/;
const COMPRESSED_HEX = /^0[23][0-9a-fA-F]{64}$/;

const invalid = (message: string, cause?: unknown): WalletError => new WalletError('bundle_invalid', message, { cause });

/** Runs a step whose failures (of any kind) mean the bundle is invalid, keeping the cause. */
async function asBundleError<T>(what: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (cause) {
    if (cause instanceof WalletError && cause.code === 'bundle_invalid') throw cause;
    throw invalid(`${what}`, cause);
  }
}

function parseJsonObject(text: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw invalid(`${name} is not JSON`, cause);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`${name} is not a JSON object`);
  return value as Record<string, unknown>;
}

function stringField(obj: Record<string, unknown>, field: string, name: string): string {
  const v = obj[field];
  if (typeof v !== 'string') throw invalid(`${name}.${field} is missing or not a string`);
  return v;
}

function uncompressedField(obj: Record<string, unknown>, field: string, name: string): Bytes {
  const v = stringField(obj, field, name);
  if (!UNCOMPRESSED_HEX.test(v)) throw invalid(`${name}.${field} is not an uncompressed P-256 key in hex`);
  try {
    return decompressPublicKey(hexToBytes(v), `${name}.${field}`);
  } catch (cause) {
    throw invalid(`${name}.${field} is not a point on P-256`, cause);
  }
}

function hexField(obj: Record<string, unknown>, field: string, name: string): Bytes {
  try {
    return hexToBytes(stringField(obj, field, name), `${name}.${field}`);
  } catch (cause) {
    throw invalid(`${name}.${field} is not hex`, cause);
  }
}

function checkSignerKey(trustedSigner: string, name: string): string {
  if (typeof trustedSigner !== 'string' || !UNCOMPRESSED_HEX.test(trustedSigner)) {
    throw new WalletError('invalid_argument', `${name} must be an uncompressed P-256 public key in hex (130 characters)`);
  }
  return trustedSigner.toLowerCase();
}

/**
 * Parses a signed envelope, tolerating surrounding whitespace and one pair of stray single quotes
 * around the JSON (DESIGN.md wire format 2: some transports deliver the bundle quoted).
 */
export function parseSignedEnvelope(envelope: string, name = 'bundle'): SignedEnvelope & { dataBytes: Bytes } {
  if (typeof envelope !== 'string') throw new WalletError('invalid_argument', `${name} must be a string`);
  let text = envelope.trim();
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) text = text.slice(1, -1).trim();
  const obj = parseJsonObject(text, name);
  const version = obj.version === undefined ? ENVELOPE_VERSION : stringField(obj, 'version', name);
  const data = stringField(obj, 'data', name);
  const dataBytes = hexField(obj, 'data', name);
  // Absent signature fields read as empty (the service's own sandbox may leave them out); an empty
  // signer or signature never passes verification, so only the explicit skip option gets past.
  const dataSignature = obj.dataSignature === undefined ? '' : stringField(obj, 'dataSignature', name);
  const enclaveQuorumPublic = obj.enclaveQuorumPublic === undefined ? '' : stringField(obj, 'enclaveQuorumPublic', name);
  return { version, data, dataSignature, enclaveQuorumPublic, dataBytes };
}

/**
 * Checks the envelope's signer equals the pinned key and its signature over the decoded data
 * bytes, then returns the data parsed as a JSON object.
 */
async function openSignedEnvelope(envelope: string, trustedSigner: string | null, name: string): Promise<Record<string, unknown>> {
  const parsed = parseSignedEnvelope(envelope, name);
  if (trustedSigner !== null) {
    if (parsed.enclaveQuorumPublic.toLowerCase() !== trustedSigner) {
      throw invalid(`${name} is signed by ${parsed.enclaveQuorumPublic.slice(0, 10)}…, not by the pinned signer key`);
    }
    const signature = await asBundleError(`${name}.dataSignature is not hex`, () =>
      hexToBytes(parsed.dataSignature, `${name}.dataSignature`),
    );
    const ok = await asBundleError(`${name}.dataSignature is not a valid DER ECDSA signature`, () =>
      ecdsaVerify(hexToBytes(trustedSigner), parsed.dataBytes, signature),
    );
    if (!ok) throw invalid(`${name}.dataSignature does not verify against the pinned signer key`);
  }
  const dataText = await asBundleError(`${name}.data is not UTF-8`, () => utf8Decode(parsed.dataBytes, `${name}.data`));
  return parseJsonObject(dataText, `${name}.data`);
}

/**
 * Verifies an OTP target bundle (`otpEncryptionTargetBundle`) against the pinned signer and
 * returns its `targetPublic` (65 bytes). DESIGN.md wire format 2.
 */
export async function verifyTargetBundle(bundle: string, trustedSigner: string): Promise<Bytes> {
  const signer = checkSignerKey(trustedSigner, 'trustedSigner');
  const data = await openSignedEnvelope(bundle, signer, 'bundle');
  return uncompressedField(data, 'targetPublic', 'bundle.data');
}

function checkUncompressed(pub: Uint8Array, name: string): Bytes {
  if (!(pub instanceof Uint8Array) || pub.length !== 65 || pub[0] !== 4) {
    throw new WalletError('invalid_argument', `${name} must be a 65-byte uncompressed P-256 public key`);
  }
  return decompressPublicKey(pub, name);
}

/** AAD of every bundle here: `enc || receiver public key`, both uncompressed (wire formats 3, 4). */
const bundleAad = (receiver: Uint8Array) => (enc: Uint8Array): Bytes => concatBytes(enc, receiver);

/**
 * The `encryptedOtpBundle` (DESIGN.md wire format 3): HPKE of the UTF-8 JSON
 * `{"otp_code", "public_key"}` to `targetPublic` with AAD = enc || targetPublic. `public_key` is the
 * compressed hex of the client key that then stamps the verify retry.
 */
export async function encryptOtpBundle(params: { otpCode: string; targetPublic: Uint8Array; clientPublicKey: Uint8Array }): Promise<string> {
  const { otpCode } = params;
  if (typeof otpCode !== 'string' || otpCode.length === 0 || otpCode.length > 64) {
    throw new WalletError('invalid_argument', 'otpCode must be a non-empty string of at most 64 characters');
  }
  const targetPublic = checkUncompressed(params.targetPublic, 'targetPublic');
  const publicKey = bytesToHex(compressPublicKey(checkUncompressed(params.clientPublicKey, 'clientPublicKey')));
  const plaintext = utf8Encode(JSON.stringify({ otp_code: otpCode, public_key: publicKey }));
  const { enc, ciphertext } = await hpkeSeal({ recipientPublicKey: targetPublic, plaintext, aad: bundleAad(targetPublic) });
  return JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) });
}

/** Opens `{encappedPublic, ciphertext}` hex fields with AAD = enc || receiver. */
async function openHexPair(obj: Record<string, unknown>, receiver: KeyPair, name: string): Promise<Bytes> {
  const enc = uncompressedField(obj, 'encappedPublic', name);
  const ciphertext = hexField(obj, 'ciphertext', name);
  const receiverPublic = checkUncompressed(receiver.publicKey, 'receiver.publicKey');
  return asBundleError(`${name} did not decrypt`, () =>
    hpkeOpen({ recipient: receiver, enc, ciphertext, aad: concatBytes(enc, receiverPublic) }),
  );
}

/**
 * Service side of wire format 3: decrypts an `encryptedOtpBundle` with the target key and returns
 * the code and the client's compressed public key (validated on the curve).
 */
export async function openOtpBundle(encryptedOtpBundle: string, target: KeyPair): Promise<{ otpCode: string; publicKey: string }> {
  if (typeof encryptedOtpBundle !== 'string') throw new WalletError('invalid_argument', 'encryptedOtpBundle must be a string');
  const outer = parseJsonObject(encryptedOtpBundle, 'encryptedOtpBundle');
  const plaintext = await openHexPair(outer, target, 'encryptedOtpBundle');
  const inner = parseJsonObject(
    await asBundleError('encryptedOtpBundle plaintext is not UTF-8', () => utf8Decode(plaintext)),
    'encryptedOtpBundle plaintext',
  );
  const otpCode = stringField(inner, 'otp_code', 'encryptedOtpBundle plaintext');
  const publicKey = stringField(inner, 'public_key', 'encryptedOtpBundle plaintext');
  if (!COMPRESSED_HEX.test(publicKey)) throw invalid('encryptedOtpBundle public_key is not a compressed P-256 key in hex');
  await asBundleError('encryptedOtpBundle public_key is not a point on P-256', () => decompressPublicKey(hexToBytes(publicKey)));
  return { otpCode, publicKey: publicKey.toLowerCase() };
}

/**
 * Service side of wire format 4: base58check(compressed enc || ciphertext) of a 32-byte private
 * scalar sealed to the client's key, AAD = uncompressed enc || clientPublicKey.
 */
export async function sealSessionKeyBundle(scalar: Uint8Array, clientPublicKey: Uint8Array): Promise<string> {
  if (!(scalar instanceof Uint8Array) || scalar.length !== 32) throw new WalletError('invalid_argument', 'scalar must be 32 bytes');
  const receiver = checkUncompressed(clientPublicKey, 'clientPublicKey');
  const { enc, ciphertext } = await hpkeSeal({ recipientPublicKey: receiver, plaintext: scalar, aad: bundleAad(receiver) });
  return base58checkEncode(concatBytes(compressPublicKey(enc), ciphertext));
}

/**
 * Decrypts an `encryptedSessionSigningKey` (wire format 4) and returns the 32-byte scalar. The
 * caller imports it at once with `importKeyFromScalar`, which wipes it; `importSessionKeyBundle`
 * does both.
 */
export async function decryptSessionKeyBundle(bundle: string, receiver: KeyPair): Promise<Bytes> {
  if (typeof bundle !== 'string') throw new WalletError('invalid_argument', 'bundle must be a string');
  const bytes = await asBundleError('session key bundle is not base58check', () => base58checkDecode(bundle.trim(), 'bundle'));
  // 33-byte compressed enc, then at least the 16-byte tag.
  if (bytes.length < 33 + 16) throw invalid(`session key bundle is too short (${bytes.length} bytes)`);
  const enc = await asBundleError('session key bundle enc is not a point on P-256', () =>
    decompressPublicKey(bytes.subarray(0, 33), 'bundle enc'),
  );
  const receiverPublic = checkUncompressed(receiver.publicKey, 'receiver.publicKey');
  const scalar = await asBundleError('session key bundle did not decrypt', () =>
    hpkeOpen({ recipient: receiver, enc, ciphertext: bytes.subarray(33), aad: concatBytes(enc, receiverPublic) }),
  );
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
  if (typeof opts !== 'object' || opts === null) throw new WalletError('invalid_argument', 'opts must name trustedSigner or dangerouslySkipSignatureVerification');
  let signer: string | null;
  if ('trustedSigner' in opts) signer = checkSignerKey(opts.trustedSigner, 'opts.trustedSigner');
  else if ((opts as { dangerouslySkipSignatureVerification?: unknown }).dangerouslySkipSignatureVerification === true) signer = null;
  else throw new WalletError('invalid_argument', 'opts must name trustedSigner or dangerouslySkipSignatureVerification: true');
  const data = await openSignedEnvelope(envelope, signer, 'envelope');
  if (opts.organizationId !== undefined && data.organizationId !== opts.organizationId) {
    throw invalid('envelope.data.organizationId does not match the expected organization');
  }
  const plaintext = await openHexPair(data, receiver, 'envelope.data');
  return asBundleError('envelope plaintext is not UTF-8', () => utf8Decode(plaintext, 'envelope plaintext'));
}

/** Service side: `{"version":"v1.0.0","data":hex,"dataSignature":hexDER,"enclaveQuorumPublic":hex}`. */
export async function createSignedEnvelope(data: Uint8Array, signer: KeyPair): Promise<string> {
  if (!(data instanceof Uint8Array)) throw new WalletError('invalid_argument', 'data must be bytes');
  const enclaveQuorumPublic = bytesToHex(checkUncompressed(signer.publicKey, 'signer.publicKey'));
  const dataSignature = bytesToHex(await ecdsaSign(signer.privateKey, data));
  const envelope: SignedEnvelope = { version: ENVELOPE_VERSION, data: bytesToHex(data), dataSignature, enclaveQuorumPublic };
  return JSON.stringify(envelope);
}

/** Service side of wire format 2: a target bundle whose data is `{"targetPublic": <uncompressed hex>}`. */
export async function createTargetBundle(targetPublic: Uint8Array, signer: KeyPair): Promise<string> {
  const target = bytesToHex(checkUncompressed(targetPublic, 'targetPublic'));
  return createSignedEnvelope(utf8Encode(JSON.stringify({ targetPublic: target })), signer);
}

/** Service side of the export: seals `plaintext` to the client key and signs the envelope. */
export async function createExportEnvelope(params: {
  plaintext: string;
  clientPublicKey: Uint8Array;
  signer: KeyPair;
  organizationId: string;
}): Promise<string> {
  const { plaintext, signer, organizationId } = params;
  if (typeof plaintext !== 'string') throw new WalletError('invalid_argument', 'plaintext must be a string');
  if (typeof organizationId !== 'string') throw new WalletError('invalid_argument', 'organizationId must be a string');
  const receiver = checkUncompressed(params.clientPublicKey, 'clientPublicKey');
  const { enc, ciphertext } = await hpkeSeal({ recipientPublicKey: receiver, plaintext: utf8Encode(plaintext), aad: bundleAad(receiver) });
  const data = { encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext), organizationId };
  return createSignedEnvelope(utf8Encode(JSON.stringify(data)), signer);
}
