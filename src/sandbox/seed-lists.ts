/**
 * Long lists for a customer set, for tests of long lists (`POST /sandbox/accounts` with `passkeys`,
 * `sessions`, `delegatedKeys`): what a wallet used for years on many devices holds. Every record has
 * the shape the service gives (reference.md "AuthMethod", "AuthSession", "DelegatedKey") and real
 * P-256 public keys; no private key of a passkey or session is kept anywhere, so nothing can log in
 * with a seeded passkey nor sign with a seeded session (other devices hold them).
 *
 * - passkeys: PASSKEY credentials of the account, oldest last, named "Passkey 1".."Passkey n";
 * - sessions: live sessions (15 minutes from about now) spread over the account's credentials in
 *   turn (the EMAIL_OTP one and the passkeys), listed in the order made;
 * - delegatedKeys: keys of the card's funding source, the newest ACTIVE and the others REVOKED (one
 *   ACTIVE key per funding source), some with spending limits.
 */
import { base64urlEncode, bytesToHex, concatBytes } from '../core/encoding.ts';
import { compressPublicKey, generateSigningKey } from '../core/p256.ts';
import type { AuthMethod, AuthSession, DelegatedKey, SpendingLimit } from '../core/types.ts';
import type { CustomerSet, World } from './world.ts';

export interface ListCounts {
  passkeys?: number;
  sessions?: number;
  delegatedKeys?: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const DAY = 24 * 60 * 60 * 1000;

/** A COSE_Key (RFC 9053, EC2 P-256, ES256) of an uncompressed public key: a passkey's stored key. */
function coseKey(publicKey: Uint8Array): Uint8Array {
  return concatBytes(
    Uint8Array.of(0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20),
    publicKey.subarray(1, 33),
    Uint8Array.of(0x22, 0x58, 0x20),
    publicKey.subarray(33),
  );
}

export async function seedLists(world: World, set: CustomerSet, counts: ListCounts): Promise<void> {
  const { store, prng } = world;
  const now = world.clock.now();
  const accountId = set.accountId as AuthMethod['accountId'];
  for (let i = 0; i < (counts.passkeys ?? 0); i++) {
    const at = iso(now - (i + 1) * DAY);
    const credentialId = base64urlEncode(Uint8Array.from({ length: 16 }, () => prng.int(0, 255)));
    const method: AuthMethod = { id: `AuthMethod:${prng.uuid()}`, accountId, type: 'PASSKEY', credentialId, nickname: `Passkey ${i + 1}`, createdAt: at, updatedAt: at };
    const { publicKey } = await generateSigningKey();
    store.credentials.set(method.id, { method, revoked: false, passkey: { credentialId, publicKey: coseKey(publicKey), counter: 0, transports: ['internal'] } });
  }
  const credentials = store.activeCredentials(set.accountId);
  for (let i = 0; i < (counts.sessions ?? 0) && credentials.length; i++) {
    const m = credentials[i % credentials.length]!.method;
    const created = now - (i % 60) * 1000;
    const expiresAtMs = created + world.options.sessionLifetimeMs;
    const session: AuthSession = {
      id: `Session:${prng.uuid()}`,
      accountId,
      type: m.type,
      ...(m.credentialId ? { credentialId: m.credentialId } : {}),
      nickname: m.nickname,
      createdAt: iso(created),
      updatedAt: iso(created),
      expiresAt: iso(expiresAtMs),
    };
    const { publicKey } = await generateSigningKey();
    store.sessions.set(session.id, { session, authMethodId: m.id, publicKey: bytesToHex(compressPublicKey(publicKey)), expiresAtMs, revoked: false });
  }
  // Oldest first, so that the newest (the ACTIVE one) is listed last, as one made last would be.
  const n = counts.delegatedKeys ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    const created = now - (i + 1) * DAY;
    const limits: SpendingLimit[] = i % 3 === 0 ? [] : [{ currencyCode: 'USD', maxPerTransaction: prng.int(1, 500) * 100 }, ...(i % 3 === 2 ? [{ currencyCode: 'EUR', maxPerTransaction: prng.int(1, 500) * 100 }] : [])];
    const pair = await generateSigningKey();
    const key: DelegatedKey = {
      id: `DelegatedKey:${prng.uuid()}`,
      cardId: set.cardId as DelegatedKey['cardId'],
      fundingSourceId: set.fundingSourceId as DelegatedKey['fundingSourceId'],
      accountId,
      publicKey: bytesToHex(compressPublicKey(pair.publicKey)),
      nickname: `Key ${n - i}`,
      status: i ? 'REVOKED' : 'ACTIVE',
      ...(limits.length ? { spendingLimits: limits } : {}),
      createdAt: iso(created),
      updatedAt: iso(i ? created + DAY / 2 : created),
    };
    store.delegatedKeys.set(key.id, { key, privateKey: pair.privateKey });
  }
}
