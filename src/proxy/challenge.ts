/**
 * Stateless WebAuthn registration challenges, minted and checked by the proxy.
 *
 * reference.md ("Credentials"): the `challenge` of a PASSKEY `POST /auth/credentials` is "issued by
 * the integrator backend, single use", base64url. The proxy is that backend. A challenge is
 *
 *   base64url( expiry (8 bytes, ms since epoch, big-endian) || nonce (16 random bytes)
 *              || HMAC-SHA256(key, label || expiry || nonce || accountId) )
 *
 * so any proxy instance holding the same key can check it without shared storage (no sticky
 * sessions), and a challenge minted for one account is refused for another. The key is the
 * integrator's `challengeSecret`, or else derived from the API client secret with HKDF-SHA256
 * (RFC 5869), so instances sharing credentials agree and the secret itself is never the HMAC key.
 *
 * Deliberately does not: remember challenges. Single use is the service's rule (it refuses a
 * challenge it has already seen); the proxy only refuses forged, expired or foreign ones early.
 * Also builds the PublicKeyCredentialCreationOptionsJSON of W3C WebAuthn Level 3 section 5.4.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const LABEL = Buffer.from('wallet-elements webauthn registration challenge v1\u0000');
const EXPIRY_BYTES = 8;
const NONCE_BYTES = 16;
const MAC_BYTES = 32;
const CHALLENGE_BYTES = EXPIRY_BYTES + NONCE_BYTES + MAC_BYTES;

/** How long a minted challenge is accepted: the ceremony timeout plus a minute for the relay. */
export const REGISTRATION_TIMEOUT_MS = 300_000;
export const CHALLENGE_TTL_MS = REGISTRATION_TIMEOUT_MS + 60_000;

/** Derives the 32-byte HMAC key: HKDF-SHA256 over the configured secret (RFC 5869). */
export function deriveChallengeKey(secret: string): Buffer {
  if (!secret) throw new TypeError('challengeSecret (or clientSecret) must be a non-empty string');
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('wallet-elements proxy'), Buffer.from('webauthn challenge key v1'), 32));
}

function mac(key: Buffer, expiry: Buffer, nonce: Buffer, accountId: string): Buffer {
  return createHmac('sha256', key).update(LABEL).update(expiry).update(nonce).update(accountId, 'utf8').digest();
}

/** Mints a challenge for `accountId`, valid until `now + ttlMs`. */
export function mintChallenge(key: Buffer, accountId: string, now = Date.now(), ttlMs = CHALLENGE_TTL_MS): string {
  const expiry = Buffer.alloc(EXPIRY_BYTES);
  expiry.writeBigUInt64BE(BigInt(now + ttlMs));
  const nonce = randomBytes(NONCE_BYTES);
  return Buffer.concat([expiry, nonce, mac(key, expiry, nonce, accountId)]).toString('base64url');
}

export type ChallengeCheck = { ok: true } | { ok: false; reason: 'malformed' | 'forged' | 'expired' };

/** Checks that `challenge` was minted with `key` for `accountId` and has not expired at `now`. */
export function checkChallenge(key: Buffer, challenge: unknown, accountId: string, now = Date.now()): ChallengeCheck {
  if (typeof challenge !== 'string' || !/^[A-Za-z0-9_-]+$/.test(challenge)) return { ok: false, reason: 'malformed' };
  const bytes = Buffer.from(challenge, 'base64url');
  // Length and canonical form: the same bytes must re-encode to the same string.
  if (bytes.length !== CHALLENGE_BYTES || bytes.toString('base64url') !== challenge) return { ok: false, reason: 'malformed' };
  const expiry = bytes.subarray(0, EXPIRY_BYTES);
  const nonce = bytes.subarray(EXPIRY_BYTES, EXPIRY_BYTES + NONCE_BYTES);
  const given = bytes.subarray(EXPIRY_BYTES + NONCE_BYTES);
  // Check the MAC before the expiry so that a forged challenge never tells how it was read.
  if (!timingSafeEqual(given, mac(key, expiry, nonce, accountId))) return { ok: false, reason: 'forged' };
  if (Number(expiry.readBigUInt64BE()) <= now) return { ok: false, reason: 'expired' };
  return { ok: true };
}

/** The WebAuthn user handle for an account: stable, opaque, not personal data (WebAuthn L3 5.4.3). */
export function userHandle(key: Buffer, accountId: string): string {
  return createHmac('sha256', key).update('wallet-elements user handle v1\u0000').update(accountId, 'utf8').digest().subarray(0, 32).toString('base64url');
}

export interface RegistrationOptionsJSON {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  pubKeyCredParams: Array<{ type: 'public-key'; alg: number }>;
  timeout: number;
  attestation: 'none';
  authenticatorSelection: { residentKey: 'preferred'; userVerification: 'preferred' };
  excludeCredentials: Array<{ type: 'public-key'; id: string }>;
}

export function registrationOptions(input: {
  challenge: string;
  rp: { id: string; name: string };
  userId: string;
  userName: string;
  excludeCredentialIds: string[];
}): RegistrationOptionsJSON {
  return {
    challenge: input.challenge,
    rp: input.rp,
    user: { id: input.userId, name: input.userName, displayName: input.userName },
    // ES256 first, RS256 for authenticators (Windows Hello) that only offer it (WebAuthn L3 5.4, note on pubKeyCredParams).
    pubKeyCredParams: [
      { type: 'public-key', alg: -7 },
      { type: 'public-key', alg: -257 },
    ],
    timeout: REGISTRATION_TIMEOUT_MS,
    attestation: 'none',
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    excludeCredentials: input.excludeCredentialIds.map((id) => ({ type: 'public-key', id })),
  };
}
