/**
 * HPKE (RFC 9180) base mode, single shot (§6.1), for the suite of DESIGN.md wire formats 3 and 4:
 * DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM (ids 0x0010 / 0x0001 / 0x0002), on the
 * global WebCrypto: ECDH `deriveBits` for DH (the receiver's private key stays non-extractable),
 * HMAC-SHA256 for LabeledExtract / LabeledExpand (§4), AES-GCM for the AEAD.
 *
 * AES-128-GCM (0x0001) is also accepted through the `aead` option so that the published
 * RFC 9180 Appendix A.3.1 vector can run through this exact code. Deliberately not here: PSK and
 * Auth modes, other KEMs and KDFs, multi-message contexts (sequence numbers > 0), the exporter.
 */
import { WalletError } from './errors.ts';
import { asBuffer, concatBytes, utf8Encode, type Bytes } from './encoding.ts';
import { decompressPublicKey, generateEncryptionKey, importKeyFromScalar, type KeyPair } from './p256.ts';

/** The `info` of the service's bundles: ASCII `turnkey_hpke` (DESIGN.md wire formats 3, 4). */
export const HPKE_INFO: Bytes = utf8Encode('turnkey_hpke');

export type HpkeAead = 'AES-256-GCM' | 'AES-128-GCM';

const KEM_ID = 0x0010; // DHKEM(P-256, HKDF-SHA256), §7.1
const KDF_ID = 0x0001; // HKDF-SHA256, §7.2
const AEADS = { 'AES-128-GCM': { id: 0x0001, nk: 16 }, 'AES-256-GCM': { id: 0x0002, nk: 32 } } as const; // §7.3
const NN = 12; // AES-GCM nonce length
const NH = 32; // SHA-256 output length
const NSECRET = 32; // DHKEM(P-256) shared secret length

const i2osp2 = (n: number): Bytes => Uint8Array.of((n >> 8) & 0xff, n & 0xff);
const HPKE_V1 = utf8Encode('HPKE-v1');
const KEM_SUITE_ID = concatBytes(utf8Encode('KEM'), i2osp2(KEM_ID)); // §4.1
const hpkeSuiteId = (aead: HpkeAead): Bytes =>
  concatBytes(utf8Encode('HPKE'), i2osp2(KEM_ID), i2osp2(KDF_ID), i2osp2(AEADS[aead].id)); // §5.1

async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Bytes> {
  const k = await crypto.subtle.importKey('raw', asBuffer(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, asBuffer(data)));
}

/**
 * HKDF-Extract (RFC 5869 §2.2). An empty salt means HashLen zero bytes; HMAC pads keys with zeros,
 * so this is the same value, and WebCrypto refuses zero-length HMAC keys anyway.
 */
function extract(salt: Uint8Array, ikm: Uint8Array): Promise<Bytes> {
  return hmacSha256(salt.length === 0 ? new Uint8Array(NH) : salt, ikm);
}

/** HKDF-Expand (RFC 5869 §2.3). */
async function expand(prk: Uint8Array, info: Uint8Array, length: number): Promise<Bytes> {
  const out = new Uint8Array(length);
  let t: Uint8Array = new Uint8Array(0);
  for (let i = 1, filled = 0; filled < length; i++) {
    t = await hmacSha256(prk, concatBytes(t, info, Uint8Array.of(i)));
    out.set(t.subarray(0, Math.min(t.length, length - filled)), filled);
    filled += t.length;
  }
  return out;
}

/** LabeledExtract (§4). */
function labeledExtract(suiteId: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array): Promise<Bytes> {
  return extract(salt, concatBytes(HPKE_V1, suiteId, utf8Encode(label), ikm));
}

/** LabeledExpand (§4). */
function labeledExpand(suiteId: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number): Promise<Bytes> {
  return expand(prk, concatBytes(i2osp2(length), HPKE_V1, suiteId, utf8Encode(label), info), length);
}

/** ExtractAndExpand of DHKEM (§4.1). */
async function extractAndExpand(dh: Uint8Array, kemContext: Uint8Array): Promise<Bytes> {
  const eaePrk = await labeledExtract(KEM_SUITE_ID, new Uint8Array(0), 'eae_prk', dh);
  return labeledExpand(KEM_SUITE_ID, eaePrk, 'shared_secret', kemContext, NSECRET);
}

/** DH(sk, pk) of P-256: the 32-byte x-coordinate of the shared point (§7.1, SEC 1 §3.3.1). */
async function dh(privateKey: CryptoKey, publicKey: Bytes): Promise<Bytes> {
  const pk = await crypto.subtle.importKey('raw', publicKey, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: pk }, privateKey, 256));
}

/** What the base-mode key schedule (§5.1) derives; exported for the known-answer tests. */
export interface HpkeContext {
  sharedSecret: Bytes;
  keyScheduleContext: Bytes;
  secret: Bytes;
  key: Bytes;
  baseNonce: Bytes;
  exporterSecret: Bytes;
}

/** KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = "") of §5.1. */
export async function keyScheduleBase(sharedSecret: Uint8Array, info: Uint8Array, aead: HpkeAead = 'AES-256-GCM'): Promise<HpkeContext> {
  const suiteId = hpkeSuiteId(aead);
  const empty = new Uint8Array(0);
  const pskIdHash = await labeledExtract(suiteId, empty, 'psk_id_hash', empty);
  const infoHash = await labeledExtract(suiteId, empty, 'info_hash', info);
  const keyScheduleContext = concatBytes(Uint8Array.of(0x00), pskIdHash, infoHash);
  const secret = await labeledExtract(suiteId, sharedSecret, 'secret', empty);
  return {
    sharedSecret: new Uint8Array(sharedSecret),
    keyScheduleContext,
    secret,
    key: await labeledExpand(suiteId, secret, 'key', keyScheduleContext, AEADS[aead].nk),
    baseNonce: await labeledExpand(suiteId, secret, 'base_nonce', keyScheduleContext, NN),
    exporterSecret: await labeledExpand(suiteId, secret, 'exp', keyScheduleContext, NH),
  };
}

/** The receiver key as SerializePublicKey gives it (§7.1.1: uncompressed), validated on the curve. */
function receiverPoint(pub: Uint8Array, name: string): Bytes {
  return decompressPublicKey(pub, name);
}

/** Encap(pkR) of §4.1; `ephemeralScalar` fixes skE (for known-answer tests only). */
export async function encap(recipientPublicKey: Uint8Array, ephemeralScalar?: Uint8Array): Promise<{ sharedSecret: Bytes; enc: Bytes }> {
  const pkRm = receiverPoint(recipientPublicKey, 'recipientPublicKey');
  // The caller's scalar is copied: importKeyFromScalar wipes what it is given.
  const ephemeral = ephemeralScalar ? await importKeyFromScalar(new Uint8Array(ephemeralScalar), 'ECDH') : await generateEncryptionKey();
  const enc = new Uint8Array(ephemeral.publicKey);
  const sharedSecret = await extractAndExpand(await dh(ephemeral.privateKey, pkRm), concatBytes(enc, pkRm));
  return { sharedSecret, enc };
}

/** Decap(enc, skR) of §4.1. */
export async function decap(enc: Uint8Array, recipient: KeyPair): Promise<Bytes> {
  if (!(enc instanceof Uint8Array) || enc.length !== 65 || enc[0] !== 4) {
    throw new WalletError('invalid_argument', 'enc must be a 65-byte uncompressed P-256 point');
  }
  const pkE = receiverPoint(enc, 'enc');
  const pkRm = receiverPoint(recipient.publicKey, 'recipient.publicKey');
  return extractAndExpand(await dh(recipient.privateKey, pkE), concatBytes(pkE, pkRm));
}

async function aesKey(key: Uint8Array, usage: KeyUsage): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', asBuffer(key), { name: 'AES-GCM' }, false, [usage]);
}

export interface HpkeSealParams {
  /** The receiver's P-256 public key, 65 bytes uncompressed (33 compressed is accepted). */
  recipientPublicKey: Uint8Array;
  plaintext: Uint8Array;
  /**
   * The AEAD's associated data, or a function of `enc` that returns it: the service's bundles bind
   * the encapsulated key into the AAD (`enc || receiver`), and enc only exists after Encap.
   */
  aad: Uint8Array | ((enc: Bytes) => Uint8Array);
  /** Defaults to HPKE_INFO. */
  info?: Uint8Array;
  /** A fixed ephemeral private scalar, for known-answer tests only: never reuse one. */
  ephemeralScalar?: Uint8Array;
  aead?: HpkeAead;
}

/** SealBase (§6.1): Encap, KeySchedule, then Seal at sequence number 0. */
export async function hpkeSeal(params: HpkeSealParams): Promise<{ enc: Bytes; ciphertext: Bytes }> {
  const { recipientPublicKey, plaintext, aad, info = HPKE_INFO, ephemeralScalar, aead = 'AES-256-GCM' } = params;
  if (!(plaintext instanceof Uint8Array)) throw new WalletError('invalid_argument', 'plaintext must be bytes');
  if (!(aad instanceof Uint8Array) && typeof aad !== 'function') throw new WalletError('invalid_argument', 'aad must be bytes');
  if (!(aead in AEADS)) throw new WalletError('invalid_argument', 'aead must be AES-256-GCM or AES-128-GCM');
  const { sharedSecret, enc } = await encap(recipientPublicKey, ephemeralScalar);
  const ctx = await keyScheduleBase(sharedSecret, info, aead);
  const additionalData = typeof aad === 'function' ? aad(new Uint8Array(enc)) : aad;
  if (!(additionalData instanceof Uint8Array)) throw new WalletError('invalid_argument', 'aad must be bytes');
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: ctx.baseNonce, additionalData: asBuffer(additionalData), tagLength: 128 },
    await aesKey(ctx.key, 'encrypt'),
    asBuffer(plaintext),
  );
  return { enc, ciphertext: new Uint8Array(ciphertext) };
}

export interface HpkeOpenParams {
  /** The receiver's ECDH key pair (private key non-extractable). */
  recipient: KeyPair;
  /** The 65-byte uncompressed encapsulated key. */
  enc: Uint8Array;
  ciphertext: Uint8Array;
  aad: Uint8Array;
  /** Defaults to HPKE_INFO. */
  info?: Uint8Array;
  aead?: HpkeAead;
}

/**
 * OpenBase (§6.1). Throws `WalletError('bundle_invalid')` when the ciphertext does not
 * authenticate (wrong key, wrong AAD or info, tampered bytes), `invalid_argument` for bad inputs.
 */
export async function hpkeOpen(params: HpkeOpenParams): Promise<Bytes> {
  const { recipient, enc, ciphertext, aad, info = HPKE_INFO, aead = 'AES-256-GCM' } = params;
  if (!(ciphertext instanceof Uint8Array)) throw new WalletError('invalid_argument', 'ciphertext must be bytes');
  if (!(aad instanceof Uint8Array)) throw new WalletError('invalid_argument', 'aad must be bytes');
  if (!(aead in AEADS)) throw new WalletError('invalid_argument', 'aead must be AES-256-GCM or AES-128-GCM');
  if (ciphertext.length < 16) throw new WalletError('bundle_invalid', 'ciphertext is shorter than the AES-GCM tag');
  const ctx = await keyScheduleBase(await decap(enc, recipient), info, aead);
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: ctx.baseNonce, additionalData: asBuffer(aad), tagLength: 128 },
      await aesKey(ctx.key, 'decrypt'),
      asBuffer(ciphertext),
    );
    return new Uint8Array(plaintext);
  } catch (cause) {
    throw new WalletError('bundle_invalid', 'ciphertext did not decrypt with this key', { cause });
  }
}
