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

const i2osp2 = (n: number): Bytes => Uint8Array.of(n >> 8, n & 0xff);
const HPKE_V1 = utf8Encode('HPKE-v1');
const KEM_SUITE_ID = concatBytes(utf8Encode('KEM'), i2osp2(KEM_ID)); // §4.1

async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Bytes> {
  const k = await crypto.subtle.importKey('raw', asBuffer(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, asBuffer(data)));
}

/**
 * LabeledExtract (§4) over HKDF-Extract (RFC 5869 §2.2). An empty salt means HashLen zero bytes;
 * HMAC pads keys with zeros, so this is the same value, and WebCrypto refuses zero-length HMAC keys.
 */
function labeledExtract(suiteId: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array): Promise<Bytes> {
  return hmacSha256(salt.length ? salt : new Uint8Array(NH), concatBytes(HPKE_V1, suiteId, utf8Encode(label), ikm));
}

/**
 * LabeledExpand (§4) over HKDF-Expand (RFC 5869 §2.3). Every length this suite asks for is at most
 * HashLen (32), so the output is the first block T(1) = HMAC(prk, info || 0x01), truncated.
 */
async function labeledExpand(suiteId: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number): Promise<Bytes> {
  const labeledInfo = concatBytes(i2osp2(length), HPKE_V1, suiteId, utf8Encode(label), info, Uint8Array.of(1));
  return (await hmacSha256(prk, labeledInfo)).slice(0, length);
}

/** DH(sk, pk) of P-256 (the 32-byte x-coordinate, §7.1, SEC 1 §3.3.1), then ExtractAndExpand (§4.1). */
async function sharedSecretOf(privateKey: CryptoKey, publicKey: Bytes, kemContext: Uint8Array): Promise<Bytes> {
  const pk = await crypto.subtle.importKey('raw', publicKey, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const dh = new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: pk }, privateKey, 256));
  const eaePrk = await labeledExtract(KEM_SUITE_ID, new Uint8Array(0), 'eae_prk', dh);
  return labeledExpand(KEM_SUITE_ID, eaePrk, 'shared_secret', kemContext, NSECRET);
}

/** What the base-mode key schedule (§5.1) derives; exported for the known-answer tests. */
export interface HpkeContext {
  keyScheduleContext: Bytes;
  secret: Bytes;
  key: Bytes;
  baseNonce: Bytes;
  exporterSecret: Bytes;
}

/** KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = "") of §5.1. */
export async function keyScheduleBase(sharedSecret: Uint8Array, info: Uint8Array, aead: HpkeAead = 'AES-256-GCM'): Promise<HpkeContext> {
  const suite = AEADS[aead];
  if (!suite) throw new WalletError('invalid_argument', 'aead must be AES-256-GCM or AES-128-GCM');
  const suiteId = concatBytes(utf8Encode('HPKE'), i2osp2(KEM_ID), i2osp2(KDF_ID), i2osp2(suite.id)); // §5.1
  const empty = new Uint8Array(0);
  const keyScheduleContext = concatBytes(
    Uint8Array.of(0x00),
    await labeledExtract(suiteId, empty, 'psk_id_hash', empty),
    await labeledExtract(suiteId, empty, 'info_hash', info),
  );
  const secret = await labeledExtract(suiteId, sharedSecret, 'secret', empty);
  const expand = (label: string, length: number) => labeledExpand(suiteId, secret, label, keyScheduleContext, length);
  return { keyScheduleContext, secret, key: await expand('key', suite.nk), baseNonce: await expand('base_nonce', NN), exporterSecret: await expand('exp', NH) };
}

/**
 * Encap(pkR) of §4.1; `ephemeralScalar` fixes skE (for known-answer tests only). The receiver key
 * is serialized uncompressed (§7.1.1) after a check that it lies on the curve.
 */
export async function encap(recipientPublicKey: Uint8Array, ephemeralScalar?: Uint8Array): Promise<{ sharedSecret: Bytes; enc: Bytes }> {
  const pkRm = decompressPublicKey(recipientPublicKey, 'recipientPublicKey');
  // The caller's scalar is copied: importKeyFromScalar wipes what it is given.
  const ephemeral = ephemeralScalar ? await importKeyFromScalar(new Uint8Array(ephemeralScalar), 'ECDH') : await generateEncryptionKey();
  const enc = new Uint8Array(ephemeral.publicKey);
  return { sharedSecret: await sharedSecretOf(ephemeral.privateKey, pkRm, concatBytes(enc, pkRm)), enc };
}

/** Decap(enc, skR) of §4.1; enc must be a 65-byte uncompressed point (§7.1.4). */
export async function decap(enc: Uint8Array, recipient: KeyPair): Promise<Bytes> {
  if (enc?.length !== 65) throw new WalletError('invalid_argument', 'enc must be an uncompressed P-256 point');
  const pkE = decompressPublicKey(enc, 'enc');
  return sharedSecretOf(recipient.privateKey, pkE, concatBytes(pkE, decompressPublicKey(recipient.publicKey, 'recipient.publicKey')));
}

const aesGcm = async (key: Bytes, iv: Bytes, aad: Uint8Array, usage: 'encrypt' | 'decrypt', data: Uint8Array): Promise<Bytes> =>
  new Uint8Array(
    await crypto.subtle[usage](
      { name: 'AES-GCM', iv, additionalData: asBuffer(aad), tagLength: 128 },
      await crypto.subtle.importKey('raw', key, { name: 'AES-GCM' }, false, [usage]),
      asBuffer(data),
    ),
  );

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
  const { plaintext, aad, info = HPKE_INFO, aead } = params;
  if (!(plaintext instanceof Uint8Array)) throw new WalletError('invalid_argument', 'plaintext must be bytes');
  const { sharedSecret, enc } = await encap(params.recipientPublicKey, params.ephemeralScalar);
  const additionalData = typeof aad === 'function' ? aad(new Uint8Array(enc)) : aad;
  if (!(additionalData instanceof Uint8Array)) throw new WalletError('invalid_argument', 'aad must be bytes');
  const { key, baseNonce } = await keyScheduleBase(sharedSecret, info, aead);
  return { enc, ciphertext: await aesGcm(key, baseNonce, additionalData, 'encrypt', plaintext) };
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
 * authenticate (wrong key, wrong AAD or info, tampered or short bytes), `invalid_argument` for bad keys.
 */
export async function hpkeOpen(params: HpkeOpenParams): Promise<Bytes> {
  const { key, baseNonce } = await keyScheduleBase(await decap(params.enc, params.recipient), params.info ?? HPKE_INFO, params.aead);
  try {
    return await aesGcm(key, baseNonce, params.aad, 'decrypt', params.ciphertext);
  } catch (cause) {
    throw new WalletError('bundle_invalid', 'ciphertext did not decrypt with this key', { cause });
  }
}
