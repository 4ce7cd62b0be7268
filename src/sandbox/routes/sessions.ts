/**
 * Sessions of Embedded Wallet credentials (reference.md "Sessions"): creation after a verify, list
 * (active only, never a signing key), refresh (signed by the current session key; the new session's
 * key is the new client key, so no bundle is returned) and revoke (any active session of the
 * account may sign, including the one being revoked: logout).
 *
 * A refresh ends the session it replaces: one live session per refresh chain; of concurrent
 * refreshes of one session, one wins and the others get 401 (reason SESSION_REVOKED). Deliberately not
 * here: session scopes or read-only sessions.
 */
import { randomUUID } from 'node:crypto';
import { bytesToHex, hexToBytes } from '../../core/encoding.ts';
import { compressPublicKey, publicKeyFromScalar, randomScalar } from '../../core/p256.ts';
import type { AuthSession } from '../../core/types.ts';
import { requireBasic } from '../auth.ts';
import { HttpError, json, jsonObject, notFound, type Router } from '../http.ts';
import { isLive, publicSession, type CredentialRecord, type SessionRecord } from '../state.ts';
import { Fields, requireId } from '../validate.ts';
import { sealSessionKeyBundle } from '../service-bundles.ts';
import type { World } from '../world.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

/** Starts a session of `credential` whose key is `publicKey` (compressed hex). */
export function startSession(world: World, credential: CredentialRecord, publicKey: string): SessionRecord {
  const now = world.clock.now();
  const expiresAtMs = now + world.options.sessionLifetimeMs;
  const m = credential.method;
  const session: AuthSession = {
    id: `Session:${randomUUID()}`,
    accountId: m.accountId,
    type: m.type,
    ...(m.credentialId ? { credentialId: m.credentialId } : {}),
    nickname: m.nickname,
    createdAt: iso(now),
    updatedAt: iso(now),
    expiresAt: iso(expiresAtMs),
  };
  const record: SessionRecord = { session, authMethodId: m.id, publicKey: publicKey.toLowerCase(), expiresAtMs, revoked: false };
  world.store.sessions.set(session.id, record);
  return record;
}

/** A fresh private scalar in [1, n-1] and its compressed public key (hex). */
export function freshSessionScalar(): { scalar: Uint8Array; publicKey: string } {
  const scalar = randomScalar();
  return { scalar, publicKey: bytesToHex(compressPublicKey(publicKeyFromScalar(scalar))) };
}

/** A session whose fresh key is sealed to the client (OAUTH, PASSKEY, and refresh when so set: DESIGN.md wire format 4). */
export async function sealedSession(world: World, cred: CredentialRecord, clientPublicKeyHex: string): Promise<AuthSession> {
  const { scalar, publicKey } = freshSessionScalar();
  try {
    const encryptedSessionSigningKey = await sealSessionKeyBundle(scalar, hexToBytes(clientPublicKeyHex));
    // After the last wait: a credential removed meanwhile (its sessions ended then) makes none.
    if (cred.revoked) throw notFound('Credential not found');
    const record = startSession(world, cred, publicKey);
    return { ...record.session, encryptedSessionSigningKey };
  } finally {
    scalar.fill(0);
  }
}

export function registerSessionRoutes(router: Router, world: World): void {
  const { store } = world;

  router.on('GET', '/auth/sessions', (ctx) => {
    requireBasic(world, ctx);
    const accountId = requireId('InternalAccount', ctx.query.get('accountId') ?? undefined, 'accountId');
    // reference.md answers this list 200 only: an unknown account has no active session.
    const data = store.activeSessions(accountId, world.clock.now()).map(publicSession);
    return json(200, { data });
  });

  router.on('POST', '/auth/sessions/:id/refresh', async (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('Session', ctx.params.id, 'id');
    const f = new Fields(jsonObject(ctx));
    const clientPublicKey = f.uncompressedKey('clientPublicKey');
    f.check();
    const current = liveOr401(world, id);
    const gate = await world.retry.gate(ctx, {
      activity: 'ACTIVITY_TYPE_REFRESH_SESSION',
      accountIds: [current.session.accountId],
      parameters: { sessionId: id, targetPublicKey: clientPublicKey },
      // reference.md: stamp with the *current* session key.
      acceptSession: (s) => s.session.id === current.session.id,
      // A refresh of the same session that completed while this one's signature was checked ended it.
      recheck: () => void liveOr401(world, id),
    });
    if (!gate.done) return gate.reply;
    // Checked and claimed with nothing awaited in between: of two refreshes of one session signed
    // at once, one wins (201) and the other is answered as a refresh of an ended session (401).
    liveOr401(world, id);
    const credential = store.credentials.get(current.authMethodId);
    if (!credential || credential.revoked) throw new HttpError(401, 'UNAUTHORIZED', 'The credential of this session was revoked');
    current.revoked = true;
    try {
      const next = world.options.refreshSealsKey
        ? await sealedSession(world, credential, clientPublicKey!)
        : publicSession(startSession(world, credential, bytesToHex(compressPublicKey(hexToBytes(clientPublicKey!)))));
      return json(201, next);
    } catch (err) {
      // No new session was made: the one being refreshed goes on.
      current.revoked = false;
      throw err;
    }
  });

  router.on('DELETE', '/auth/sessions/:id', async (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('Session', ctx.params.id, 'id');
    const target = liveOr404(world, id);
    const gate = await world.retry.gate(ctx, {
      activity: 'ACTIVITY_TYPE_DELETE_SESSION',
      accountIds: [target.session.accountId],
      parameters: { sessionId: id },
      type: target.session.type,
    });
    if (!gate.done) return gate.reply;
    liveOr404(world, id).revoked = true;
    return { status: 204 };
  });
}

function liveOr404(world: World, id: string): SessionRecord {
  const s = world.store.sessions.get(id);
  if (!s || !isLive(s, world.clock.now())) throw notFound('Session not found, expired or already revoked');
  return s;
}

/** reference.md: refresh answers 401 when the session already expired; unknown ids are 404. */
function liveOr401(world: World, id: string): SessionRecord {
  const s = world.store.sessions.get(id);
  if (!s) throw notFound('Session not found');
  if (s.revoked) throw new HttpError(401, 'UNAUTHORIZED', 'The session was revoked; log in again', { reason: 'SESSION_REVOKED' });
  if (!isLive(s, world.clock.now())) throw new HttpError(401, 'UNAUTHORIZED', 'The session has expired; log in again', { reason: 'SESSION_EXPIRED' });
  return s;
}
