/**
 * Embedded Wallet credentials (api.md "Credential endpoints"; reference.md "Credentials"): create
 * per type with the per-account limits, list, revoke, and challenge/verify for every type.
 *
 * - EMAIL_OTP / SMS_OTP: each challenge makes a fresh P-256 target key and a target bundle signed by
 *   the sandbox signer (DESIGN.md wire format 2); verify opens the encryptedOtpBundle (format 3), the
 *   code must be `000000`, then a signed retry whose payloadToSign is a verification token (a JWT)
 *   that only the bundle's `public_key` may stamp; that key becomes the session key. /challenge is
 *   rate limited per credential (429 RATE_LIMITED with Retry-After).
 * - OAUTH: sandbox OIDC checks (src/sandbox/oidc.ts); the session key is sealed to clientPublicKey
 *   (format 4).
 * - PASSKEY: registration and assertions verified with @simplewebauthn/server; the login challenge
 *   is the lowercase hex SHA-256 of the session-creation request, bound to a Request-Id.
 *
 * Choices where the documents are silent: a second OAUTH credential for the same provider identity
 * is `400 OAUTH_CREDENTIAL_ALREADY_EXISTS` (reference.md names the code of the other three types
 * only); revoking the last credential is `400 INVALID_INPUT`;
 * an OTP challenge expires after `otpLifetimeMs`, after 5 wrong codes, and once its code made a session.
 */
import { randomUUID } from 'node:crypto';
import { hexToBytes, sha256Hex } from '../../core/encoding.ts';
import { generateEncryptionKey } from '../../core/p256.ts';
import { createTargetBundle, openOtpBundle } from '../service-bundles.ts';
import { REQUEST_ID_HEADER } from '../../core/signed-retry.ts';
import {
  CREDENTIAL_TYPES,
  type AuthMethod,
  type AuthMethodResponse,
  type CredentialType,
  type PasskeyAssertion,
  type PasskeyAttestation,
} from '../../core/types.ts';
import { requireBasic } from '../auth.ts';
import { HttpError, badRequest, json, jsonObject, notFound, unauthorized, type Ctx, type Router } from '../http.ts';
import { signJwt } from '../jwt.ts';
import { checkOidcToken } from '../oidc.ts';
import type { CredentialRecord } from '../state.ts';
import { BASE64URL, Fields, isPlainObject, requireId } from '../validate.ts';
import { verifyPasskeyAssertion, verifyPasskeyRegistration, type RegisteredPasskey } from '../webauthn.ts';
import type { World } from '../world.ts';
import { sealedSession, startSession } from './sessions.ts';

/** The sandbox's OTP code (api.md "Authentication": "In sandbox the email OTP value is always 000000"). */
export const SANDBOX_OTP_CODE = '000000';
const MAX_OTP_ATTEMPTS = 5;
const TRANSPORTS = ['usb', 'nfc', 'ble', 'internal', 'hybrid'] as const;
const B64_MAX = 16 * 1024;

const iso = (ms: number): string => new Date(ms).toISOString();

interface PasskeyLogin {
  requestId: string;
  credentialId: string;
  clientPublicKey: string;
  challenge: string;
  expiresAtMs: number;
  consumed: boolean;
}

function parseAttestation(f: Fields, value: unknown): PasskeyAttestation | undefined {
  if (!isPlainObject(value)) {
    f.fail('attestation', value === undefined ? 'is required' : 'must be an object');
    return undefined;
  }
  const sub = new Fields(value);
  const credentialId = sub.string('credentialId', { max: 1400, pattern: BASE64URL });
  const clientDataJson = sub.string('clientDataJson', { max: B64_MAX, pattern: BASE64URL });
  const attestationObject = sub.string('attestationObject', { max: B64_MAX, pattern: BASE64URL });
  let transports: PasskeyAttestation['transports'];
  const t = value.transports;
  if (t !== undefined && t !== null) {
    if (!Array.isArray(t) || t.length > 8 || !t.every((x) => (TRANSPORTS as readonly unknown[]).includes(x))) {
      sub.fail('transports', `must be an array of ${TRANSPORTS.join(', ')}`);
    } else {
      transports = t as PasskeyAttestation['transports'];
    }
  }
  for (const e of sub.errors) f.fail(`attestation.${e.field}`, e.message);
  if (sub.errors.length > 0) return undefined;
  return { credentialId: credentialId!, clientDataJson: clientDataJson!, attestationObject: attestationObject!, ...(transports ? { transports } : {}) };
}

function parseAssertion(f: Fields, value: unknown): PasskeyAssertion | undefined {
  if (!isPlainObject(value)) {
    f.fail('assertion', value === undefined ? 'is required' : 'must be an object');
    return undefined;
  }
  const sub = new Fields(value);
  const credentialId = sub.string('credentialId', { max: 1400, pattern: BASE64URL });
  const clientDataJson = sub.string('clientDataJson', { max: B64_MAX, pattern: BASE64URL });
  const authenticatorData = sub.string('authenticatorData', { max: B64_MAX, pattern: BASE64URL });
  const signature = sub.string('signature', { max: 1024, pattern: BASE64URL });
  const userHandle = sub.string('userHandle', { optional: true, max: 1024, pattern: BASE64URL });
  for (const e of sub.errors) f.fail(`assertion.${e.field}`, e.message);
  if (sub.errors.length > 0) return undefined;
  return { credentialId: credentialId!, clientDataJson: clientDataJson!, authenticatorData: authenticatorData!, signature: signature!, ...(userHandle ? { userHandle } : {}) };
}

/** Pre-checks the outer JSON of an encryptedOtpBundle so a malformed one is 400, a stale one 401. */
function otpBundleShapeOk(bundle: string): boolean {
  try {
    const v: unknown = JSON.parse(bundle);
    if (!isPlainObject(v)) return false;
    return typeof v.encappedPublic === 'string' && /^04[0-9a-fA-F]{128}$/.test(v.encappedPublic) &&
      typeof v.ciphertext === 'string' && /^(?:[0-9a-fA-F]{2}){17,}$/.test(v.ciphertext);
  } catch {
    return false;
  }
}

export function registerCredentialRoutes(router: Router, world: World): void {
  const { store } = world;
  const passkeyLogins = new Map<string, PasskeyLogin>();
  const now = (): number => world.clock.now();

  function credentialOr404(id: string): CredentialRecord {
    const cred = store.credentials.get(id);
    if (!cred || cred.revoked) throw notFound('Credential not found');
    return cred;
  }

  function methodResponse(cred: CredentialRecord): AuthMethod {
    return { ...cred.method };
  }

  /** A fresh target key and its signed bundle; the previous target stops working. */
  async function newOtpTarget(cred: CredentialRecord): Promise<string> {
    const key = await generateEncryptionKey();
    const t = now();
    cred.otpTarget = { key, issuedAt: t, expiresAt: t + world.options.otpLifetimeMs, failedAttempts: 0 };
    return createTargetBundle(key.publicKey, world.signer);
  }

  /**
   * The OTP verification token that the client key stamps: an ES256 JWT signed by the sandbox
   * signer with the claims of the service's enclave tokens (`id`, `verification_type`, `contact`,
   * `organization_id`, `public_key`, and `exp` as a millisecond-epoch string, not NumericDate).
   */
  async function verificationToken(cred: CredentialRecord, publicKey: string): Promise<string> {
    return signJwt(
      {
        id: randomUUID(),
        verification_type: cred.method.type === 'EMAIL_OTP' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS',
        contact: cred.method.nickname,
        organization_id: cred.method.accountId,
        public_key: publicKey,
        exp: String(now() + world.options.signedRetryWindowMs),
      },
      world.signer,
    );
  }

  // ---- create -------------------------------------------------------------------------------

  router.on('POST', '/auth/credentials', async (ctx) => {
    requireBasic(world, ctx);
    const body = jsonObject(ctx);
    const f = new Fields(body);
    const type = f.enumOf('type', CREDENTIAL_TYPES);
    const accountId = f.id('accountId', 'InternalAccount');
    let oidcToken: string | undefined;
    let nickname: string | undefined;
    let challenge: string | undefined;
    let attestation: PasskeyAttestation | undefined;
    if (type === 'OAUTH') oidcToken = f.string('oidcToken', { max: B64_MAX });
    if (type === 'PASSKEY') {
      nickname = f.string('nickname', { max: 100 });
      challenge = f.string('challenge', { max: 1024, pattern: BASE64URL });
      attestation = parseAttestation(f, body.attestation);
    }
    f.check();
    const account = store.accounts.get(accountId!);
    if (!account) throw notFound('Internal account not found');
    const customer = store.customers.get(account.customerId);

    // Identity of the new credential, checked against the account on both legs.
    let oauth: CredentialRecord['oauth'];
    let passkey: RegisteredPasskey | undefined;
    if (type === 'EMAIL_OTP') {
      if (!customer?.email) throw badRequest('The customer has no email address', [{ field: 'type', message: 'customer has no email' }]);
      nickname = customer.email;
    } else if (type === 'SMS_OTP') {
      if (!customer?.phone) throw badRequest('The customer has no phone number', [{ field: 'type', message: 'customer has no phone' }]);
      nickname = customer.phone;
    } else if (type === 'OAUTH') {
      // On every leg, the signed retry's too: api.md has the token validated "on every call" and
      // its iat within 60 s of "the request", and the retry is a request of its own.
      const identity = await checkOidcToken(world, oidcToken!, {});
      oauth = { iss: identity.iss, sub: identity.sub, aud: identity.aud };
      nickname = identity.email ?? identity.sub;
    }

    const conflicts = (): void => {
      const existing = store.activeCredentials(accountId!);
      if (type === 'EMAIL_OTP' && existing.some((c) => c.method.type === 'EMAIL_OTP')) {
        throw new HttpError(400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', 'The account already has an EMAIL_OTP credential');
      }
      if (type === 'SMS_OTP' && existing.some((c) => c.method.type === 'SMS_OTP')) {
        throw new HttpError(400, 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS', 'The account already has an SMS_OTP credential');
      }
      if (type === 'OAUTH' && existing.some((c) => c.oauth && c.oauth.iss === oauth!.iss && c.oauth.sub === oauth!.sub)) {
        throw new HttpError(400, 'OAUTH_CREDENTIAL_ALREADY_EXISTS', 'The account already has a credential for this provider identity');
      }
      if (type === 'PASSKEY') {
        const taken = [...store.credentials.values()].some((c) => !c.revoked && c.method.credentialId === attestation!.credentialId);
        if (taken) throw new HttpError(400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'This passkey credentialId is already registered');
        if (store.usedRegistrationChallenges.has(challenge!)) {
          throw badRequest('challenge: already used; request new registration options', [{ field: 'challenge', message: 'already used' }]);
        }
      }
    };
    conflicts();
    if (type === 'PASSKEY') passkey = await verifyPasskeyRegistration(world, challenge!, attestation!);

    if (store.activeCredentials(accountId!).length > 0) {
      const gate = await world.retry.gate(ctx, {
        activity: 'ACTIVITY_TYPE_CREATE_CREDENTIAL',
        accountIds: [accountId!],
        parameters: { type: type!, accountId: accountId!, nickname: nickname!, ...(passkey ? { credentialId: passkey.credentialId } : {}) },
        type: type!,
      });
      if (!gate.done) return gate.reply;
      conflicts();
    }

    const t = iso(now());
    const method: AuthMethod = {
      id: `AuthMethod:${randomUUID()}`,
      accountId: accountId!,
      type: type!,
      ...(passkey ? { credentialId: passkey.credentialId } : {}),
      nickname: nickname!,
      createdAt: t,
      updatedAt: t,
    };
    const record: CredentialRecord = { method, revoked: false, ...(oauth ? { oauth } : {}), ...(passkey ? { passkey } : {}) };
    store.credentials.set(method.id, record);
    if (type === 'PASSKEY') store.usedRegistrationChallenges.add(challenge!);
    const response: AuthMethodResponse = { ...method };
    if (type === 'EMAIL_OTP' || type === 'SMS_OTP') response.otpEncryptionTargetBundle = await newOtpTarget(record);
    return json(201, response);
  });

  // ---- list ---------------------------------------------------------------------------------

  router.on('GET', '/auth/credentials', (ctx) => {
    requireBasic(world, ctx);
    const accountId = requireId('InternalAccount', ctx.query.get('accountId') ?? undefined, 'accountId');
    // reference.md answers this list 200 or 400 only: an account without credentials, unknown or
    // not, lists none (as delegated keys do).
    return json(200, { data: store.activeCredentials(accountId).map(methodResponse) });
  });

  // ---- revoke -------------------------------------------------------------------------------

  router.on('DELETE', '/auth/credentials/:id', async (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('AuthMethod', ctx.params.id, 'id');
    const cred = credentialOr404(id);
    const accountId = cred.method.accountId;
    const notLast = (): void => {
      if (store.activeCredentials(accountId).length <= 1) {
        throw badRequest('The only credential of an account cannot be revoked; add another first', [{ field: 'id', message: 'last credential of the account' }]);
      }
    };
    notLast();
    const gate = await world.retry.gate(ctx, {
      activity: 'ACTIVITY_TYPE_DELETE_CREDENTIAL',
      accountIds: [accountId],
      parameters: { authMethodId: id },
      type: cred.method.type,
      // api.md: "the stamp made by a session of a different credential on the same account".
      acceptSession: (s) => s.authMethodId !== id,
    });
    if (!gate.done) return gate.reply;
    credentialOr404(id);
    notLast();
    cred.revoked = true;
    cred.otpTarget = undefined;
    for (const s of store.sessions.values()) if (s.authMethodId === id) s.revoked = true;
    return { status: 204 };
  });

  // ---- challenge ----------------------------------------------------------------------------

  router.on('POST', '/auth/credentials/:id/challenge', async (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('AuthMethod', ctx.params.id, 'id');
    const body = jsonObject(ctx, true);
    const cred = credentialOr404(id);
    const type = cred.method.type;

    if (type === 'EMAIL_OTP' || type === 'SMS_OTP') {
      const t = now();
      const interval = world.options.otpResendIntervalMs;
      if (cred.lastChallengeAt !== undefined && t - cred.lastChallengeAt < interval) {
        const retryAfter = Math.max(1, Math.ceil((cred.lastChallengeAt + interval - t) / 1000));
        throw new HttpError(429, 'RATE_LIMITED', `A code was sent recently; retry in ${retryAfter} s`, { retryAfterSeconds: retryAfter }, { 'Retry-After': String(retryAfter) });
      }
      cred.lastChallengeAt = t;
      const response: AuthMethodResponse = { ...methodResponse(cred), otpEncryptionTargetBundle: await newOtpTarget(cred) };
      return json(200, response);
    }

    if (type === 'PASSKEY') {
      const f = new Fields(body);
      const clientPublicKey = f.uncompressedKey('clientPublicKey');
      f.check();
      const t = now();
      const requestId = `Request:${randomUUID()}`;
      // reference.md: the challenge is the lowercase hex SHA-256 of the session-creation request.
      const sessionRequest = JSON.stringify({
        type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION',
        timestampMs: String(t),
        organizationId: cred.method.accountId,
        requestId,
        parameters: { authMethodId: id, targetPublicKey: clientPublicKey, expirationSeconds: String(Math.floor(world.options.sessionLifetimeMs / 1000)) },
      });
      const challenge = await sha256Hex(sessionRequest);
      const login: PasskeyLogin = { requestId, credentialId: id, clientPublicKey: clientPublicKey!, challenge, expiresAtMs: t + world.options.signedRetryWindowMs, consumed: false };
      for (const [k, v] of passkeyLogins) if (v.expiresAtMs + world.options.signedRetryWindowMs < t) passkeyLogins.delete(k);
      passkeyLogins.set(requestId, login);
      return json(200, { ...methodResponse(cred), credentialId: cred.method.credentialId, challenge, requestId, expiresAt: iso(login.expiresAtMs) });
    }

    throw badRequest('OAUTH credentials have no challenge: call verify with a fresh OIDC token', [{ field: 'id', message: 'OAUTH credentials take no challenge' }]);
  });

  // ---- verify -------------------------------------------------------------------------------

  router.on('POST', '/auth/credentials/:id/verify', async (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('AuthMethod', ctx.params.id, 'id');
    const body = jsonObject(ctx);
    const f = new Fields(body);
    const type = f.enumOf('type', CREDENTIAL_TYPES);
    f.check();
    const cred = credentialOr404(id);
    if (type !== cred.method.type) {
      throw badRequest(`type: does not match the credential (${cred.method.type})`, [{ field: 'type', message: `must be ${cred.method.type}` }]);
    }
    if (type === 'EMAIL_OTP' || type === 'SMS_OTP') return verifyOtp(ctx, f, cred, type);
    if (type === 'OAUTH') return verifyOauth(f, cred);
    return verifyPasskey(ctx, f, body, cred);
  });

  async function verifyOtp(ctx: Ctx, f: Fields, cred: CredentialRecord, type: CredentialType) {
    const bundle = f.string('encryptedOtpBundle', { max: 8192 });
    f.check();
    if (!otpBundleShapeOk(bundle!)) {
      throw badRequest('encryptedOtpBundle: must be the JSON string {"encappedPublic","ciphertext"} in hex', [
        { field: 'encryptedOtpBundle', message: 'must be {"encappedPublic","ciphertext"} JSON with hex values' },
      ]);
    }
    const target = cred.otpTarget;
    if (!target || target.expiresAt <= now()) {
      throw unauthorized('No OTP challenge is open for this credential; request a new code', 'UNAUTHORIZED', { reason: 'OTP_CHALLENGE_MISSING' });
    }
    let opened: { otpCode: string; publicKey: string };
    try {
      opened = await openOtpBundle(bundle!, target.key);
    } catch {
      throw unauthorized('The code was not encrypted to the current OTP challenge; request a new code', 'UNAUTHORIZED', { reason: 'OTP_BUNDLE' });
    }
    if (opened.otpCode !== SANDBOX_OTP_CODE) {
      target.failedAttempts += 1;
      if (target.failedAttempts >= MAX_OTP_ATTEMPTS && cred.otpTarget === target) cred.otpTarget = undefined;
      throw unauthorized('The code is not valid', 'UNAUTHORIZED', { reason: 'OTP_CODE' });
    }
    const gate = await world.retry.gate(ctx, {
      activity: 'ACTIVITY_TYPE_OTP_LOGIN',
      accountIds: [cred.method.accountId],
      type,
      payload: () => verificationToken(cred, opened.publicKey),
      // api.md verify 1: "The client stamps payloadToSign with the same private key".
      requiredPublicKey: opened.publicKey,
    });
    if (!gate.done) return gate.reply;
    if (cred.revoked) throw notFound('Credential not found');
    // A code makes one session. Checked after the signature's await: another retry with the same
    // code (or a new /challenge) may have closed this challenge meanwhile.
    if (cred.otpTarget !== target) {
      throw unauthorized('This code was already used or replaced by a newer one; request a new code', 'UNAUTHORIZED', { reason: 'OTP_CHALLENGE_MISSING' });
    }
    cred.otpTarget = undefined;
    return json(200, startSession(world, cred, opened.publicKey).session);
  }

  async function verifyOauth(f: Fields, cred: CredentialRecord) {
    const oidcToken = f.string('oidcToken', { max: B64_MAX });
    const clientPublicKey = f.uncompressedKey('clientPublicKey');
    f.check();
    await checkOidcToken(world, oidcToken!, { identity: cred.oauth!, clientPublicKey: clientPublicKey! });
    return json(200, await sealedSession(world, cred, clientPublicKey!));
  }

  async function verifyPasskey(ctx: Ctx, f: Fields, body: Record<string, unknown>, cred: CredentialRecord) {
    const assertion = parseAssertion(f, body.assertion);
    f.check();
    const requestId = ctx.header(REQUEST_ID_HEADER);
    if (!requestId) throw new HttpError(401, 'REQUEST_ID_MISSING', `${REQUEST_ID_HEADER} from /challenge is required`);
    const login = passkeyLogins.get(requestId);
    if (!login || login.credentialId !== cred.method.id) {
      throw unauthorized('The Request-Id was not issued by /challenge for this credential', 'UNAUTHORIZED', { reason: 'REQUEST_ID_UNKNOWN' });
    }
    if (login.consumed) throw unauthorized('The Request-Id was already used; call /challenge again', 'UNAUTHORIZED', { reason: 'REQUEST_ID_CONSUMED' });
    login.consumed = true;
    if (login.expiresAtMs <= now()) throw unauthorized('The challenge has expired; call /challenge again', 'UNAUTHORIZED', { reason: 'REQUEST_ID_EXPIRED' });
    if (assertion!.credentialId !== cred.method.credentialId) {
      throw unauthorized('The assertion is from another passkey', 'UNAUTHORIZED', { reason: 'PASSKEY_CREDENTIAL' });
    }
    const newCounter = await verifyPasskeyAssertion(world, cred.passkey!, assertion!, login.challenge);
    if (cred.revoked) throw notFound('Credential not found');
    cred.passkey!.counter = newCounter;
    return json(200, await sealedSession(world, cred, login.clientPublicKey));
  }
}
