// The sandbox against the contract, one row per endpoint and situation of spec/api.md and
// spec/reference.md, over real HTTP: the status each document lists, the error code where one is
// named, and the body's field names and types (no field the documents do not name). The per-area
// tests go deeper into each rule; this table is the audit that every listed answer exists.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bytesToHex, utf8Encode } from '../../../src/core/encoding.ts';
import { generateEncryptionKey, generateSigningKey, type KeyPair } from '../../../src/core/p256.ts';
import { REQUEST_ID_HEADER } from '../../../src/core/signed-retry.ts';
import { mintIdToken } from '../../../src/sandbox/index.ts';
import { SoftAuthenticator } from './authenticator.ts';
import {
  Api,
  ISO,
  assertAgentAction,
  assertAuthMethod,
  assertAuthSession,
  assertDelegatedKey,
  assertError,
  assertFieldError,
  assertSignedRequestChallenge,
  idOf,
  withSandbox,
  type Res,
} from './helpers.ts';

const z = '00000000-0000-4000-8000-000000000000';
const AUTH_METHOD_FIELDS = ['id', 'accountId', 'type', 'credentialId', 'nickname', 'createdAt', 'updatedAt'];
const SESSION_FIELDS = [...AUTH_METHOD_FIELDS, 'expiresAt', 'encryptedSessionSigningKey'];
const CHALLENGE_FIELDS = ['payloadToSign', 'requestId', 'expiresAt', 'type'];

function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) assert.ok(allowed.includes(k), `field ${k} is not in the contract (${allowed.join(', ')})`);
}

function challenge202(r: Res, type?: string): void {
  assert.equal(r.status, 202, r.text);
  assertSignedRequestChallenge(r.body);
  onlyFields(r.body, CHALLENGE_FIELDS);
  // reference.md: `type` on credential create/revoke, session revoke and OTP verify only.
  assert.equal(r.body.type, type);
}

let api: Api;
let noIssuer: Api;
let ctx: {
  accountId: string;
  customerId: string;
  cardId: string;
  emailCredentialId: string;
  email: { session: any; key: KeyPair };
  passkey: { id: string; authenticator: SoftAuthenticator };
  oauth: { id: string; sub: string };
};

before(async () => {
  api = await withSandbox();
  noIssuer = await withSandbox({ cardIssuer: false });
  const acct = await api.newAccount();
  const email = await api.otpLogin(acct.emailCredentialId);
  const authenticator = await SoftAuthenticator.create();
  const regChallenge = 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZS0wMDAwMDAwMDAx';
  const passkey = await api.signed(
    'POST',
    '/auth/credentials',
    { type: 'PASSKEY', accountId: acct.accountId, nickname: 'Laptop', challenge: regChallenge, attestation: await authenticator.register(regChallenge) },
    email.key,
  );
  assert.equal(passkey.status, 201, passkey.text);
  const oauth = await api.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: acct.accountId, oidcToken: await mintIdToken({ sub: 'contract-1', email: 'c@example.com' }) }, email.key);
  assert.equal(oauth.status, 201, oauth.text);
  ctx = {
    accountId: acct.accountId,
    customerId: acct.customerId,
    cardId: acct.cardId,
    emailCredentialId: acct.emailCredentialId,
    email,
    passkey: { id: passkey.body.id, authenticator },
    oauth: { id: oauth.body.id, sub: 'contract-1' },
  };
});
after(async () => {
  await api.sandbox.close();
  await noIssuer.sandbox.close();
});

interface Row {
  call: string;
  when: string;
  run: () => Promise<void>;
}

const rows: Row[] = [
  // ---- POST /auth/credentials ------------------------------------------------------------------
  {
    call: 'POST /auth/credentials',
    when: 'first credential of the account: 201 AuthMethodResponse with otpEncryptionTargetBundle',
    run: async () => {
      const empty = await api.newAccount({ emailCredential: false });
      const r = await api.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: empty.accountId } });
      assert.equal(r.status, 201, r.text);
      assertAuthMethod(r.body);
      onlyFields(r.body, [...AUTH_METHOD_FIELDS, 'otpEncryptionTargetBundle']);
      assert.equal(typeof r.body.otpEncryptionTargetBundle, 'string');
    },
  },
  {
    call: 'POST /auth/credentials',
    when: 'the account has one: 202 with type, then 201 on the signed retry',
    run: async () => {
      const acct = await api.newAccount();
      const { key } = await api.otpLogin(acct.emailCredentialId);
      const body = { type: 'SMS_OTP', accountId: acct.accountId };
      const first = await api.call('POST', '/auth/credentials', { body });
      challenge202(first, 'SMS_OTP');
      const r = await api.retry('POST', '/auth/credentials', body, first.body, key);
      assert.equal(r.status, 201, r.text);
      assertAuthMethod(r.body);
      onlyFields(r.body, [...AUTH_METHOD_FIELDS, 'otpEncryptionTargetBundle']);
    },
  },
  {
    call: 'POST /auth/credentials',
    when: 'a second EMAIL_OTP: 400 EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
    run: async () => assertError(await api.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: ctx.accountId } }), 400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS'),
  },
  {
    call: 'POST /auth/credentials',
    when: 'a field missing: 400 INVALID_INPUT naming it',
    run: async () => assertFieldError(await api.call('POST', '/auth/credentials', { body: { accountId: ctx.accountId } }), 'type'),
  },
  {
    call: 'POST /auth/credentials',
    when: 'a PASSKEY nickname of 0 or 101 characters: 400 INVALID_INPUT (1..100)',
    run: async () => {
      for (const nickname of ['', 'n'.repeat(101)]) {
        assertFieldError(await api.call('POST', '/auth/credentials', { body: { type: 'PASSKEY', accountId: ctx.accountId, nickname, challenge: 'abc', attestation: {} } }), 'nickname');
      }
    },
  },
  {
    call: 'POST /auth/credentials',
    when: 'without Basic credentials: 401',
    run: async () => assertError(await api.call('POST', '/auth/credentials', { auth: 'none', body: { type: 'EMAIL_OTP', accountId: ctx.accountId } }), 401, 'UNAUTHORIZED'),
  },
  {
    call: 'POST /auth/credentials',
    when: 'an unknown account: 404',
    run: async () => assertError(await api.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: `InternalAccount:${z}` } }), 404),
  },

  // ---- GET /auth/credentials -------------------------------------------------------------------
  {
    call: 'GET /auth/credentials',
    when: '200 {data: AuthMethod[]}, not paged, no bundle',
    run: async () => {
      const r = await api.call('GET', `/auth/credentials?accountId=${ctx.accountId}`);
      assert.equal(r.status, 200, r.text);
      onlyFields(r.body, ['data']);
      assert.ok(r.body.data.length >= 3);
      for (const m of r.body.data) {
        assertAuthMethod(m);
        onlyFields(m, AUTH_METHOD_FIELDS);
      }
    },
  },
  {
    call: 'GET /auth/credentials',
    when: 'accountId missing or malformed: 400 INVALID_INPUT; unknown: 200 with none',
    run: async () => {
      assertFieldError(await api.call('GET', '/auth/credentials'), 'accountId');
      assertFieldError(await api.call('GET', '/auth/credentials?accountId=acct_1'), 'accountId');
      const unknown = await api.call('GET', `/auth/credentials?accountId=InternalAccount:${z}`);
      assert.equal(unknown.status, 200, unknown.text);
      assert.deepEqual(unknown.body, { data: [] });
    },
  },

  // ---- DELETE /auth/credentials/{id} -----------------------------------------------------------
  {
    call: 'DELETE /auth/credentials/{id}',
    when: '202 with type, then 204 signed by a session of another credential',
    run: async () => {
      const acct = await api.newAccount();
      const { key } = await api.otpLogin(acct.emailCredentialId);
      const sms = await api.signed('POST', '/auth/credentials', { type: 'SMS_OTP', accountId: acct.accountId }, key);
      const path = `/auth/credentials/${sms.body.id}`;
      const first = await api.call('DELETE', path);
      challenge202(first, 'SMS_OTP');
      const r = await api.retry('DELETE', path, undefined, first.body, key);
      assert.equal(r.status, 204, r.text);
      assert.equal(r.text, '');
    },
  },
  {
    call: 'DELETE /auth/credentials/{id}',
    when: 'the only credential: 400',
    run: async () => {
      const acct = await api.newAccount();
      assertError(await api.call('DELETE', `/auth/credentials/${acct.emailCredentialId}`), 400);
    },
  },

  // ---- POST /auth/credentials/{id}/challenge ---------------------------------------------------
  {
    call: 'POST /auth/credentials/{id}/challenge',
    when: 'OTP: 200 AuthMethodResponse with a fresh otpEncryptionTargetBundle; again at once: 429 RATE_LIMITED with Retry-After',
    run: async () => {
      const acct = await api.newAccount();
      const r = await api.call('POST', `/auth/credentials/${acct.emailCredentialId}/challenge`, { body: {} });
      assert.equal(r.status, 200, r.text);
      assertAuthMethod(r.body);
      onlyFields(r.body, [...AUTH_METHOD_FIELDS, 'otpEncryptionTargetBundle']);
      assert.equal(typeof r.body.otpEncryptionTargetBundle, 'string');
      const again = await api.call('POST', `/auth/credentials/${acct.emailCredentialId}/challenge`);
      assertError(again, 429, 'RATE_LIMITED');
      assert.match(again.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    },
  },
  {
    call: 'POST /auth/credentials/{id}/challenge',
    when: 'PASSKEY: 200 AuthMethod + {credentialId, challenge (lowercase hex), requestId, expiresAt}',
    run: async () => {
      const clientPublicKey = bytesToHex((await generateEncryptionKey()).publicKey);
      const r = await api.call('POST', `/auth/credentials/${ctx.passkey.id}/challenge`, { body: { clientPublicKey } });
      assert.equal(r.status, 200, r.text);
      assertAuthMethod(r.body);
      onlyFields(r.body, [...AUTH_METHOD_FIELDS, 'challenge', 'requestId', 'expiresAt']);
      assert.equal(r.body.credentialId, ctx.passkey.authenticator.credentialIdB64);
      assert.match(r.body.challenge, /^[0-9a-f]{64}$/);
      assert.match(r.body.requestId, idOf('Request'));
      assert.match(r.body.expiresAt, ISO);
    },
  },

  // ---- POST /auth/credentials/{id}/verify ------------------------------------------------------
  {
    call: 'POST /auth/credentials/{id}/verify',
    when: 'OTP: 202 with type and a JWT payloadToSign, then 200 AuthSession without a signing key',
    run: async () => {
      const acct = await api.newAccount();
      const { session } = await api.otpLogin(acct.emailCredentialId);
      onlyFields(session, SESSION_FIELDS);
      assert.equal(session.encryptedSessionSigningKey, undefined);
    },
  },
  {
    call: 'POST /auth/credentials/{id}/verify',
    when: 'OTP with no open challenge: 401',
    run: async () => {
      const acct = await api.newAccount();
      const body = { type: 'EMAIL_OTP', encryptedOtpBundle: JSON.stringify({ encappedPublic: '04' + 'ab'.repeat(64), ciphertext: 'ab'.repeat(32) }) };
      assertError(await api.call('POST', `/auth/credentials/${acct.emailCredentialId}/verify`, { body }), 401);
    },
  },
  {
    call: 'POST /auth/credentials/{id}/verify',
    when: 'OAUTH: 200 AuthSession with encryptedSessionSigningKey; a stale token: 401',
    run: async () => {
      const login = await api.oauthLogin(ctx.oauth.id, { sub: ctx.oauth.sub });
      assert.equal(login.res.status, 200, login.res.text);
      onlyFields(login.session, SESSION_FIELDS);
      const stale = await api.oauthLogin(ctx.oauth.id, { sub: ctx.oauth.sub, iat: Math.floor(Date.now() / 1000) - 120 });
      assertError(stale.res, 401);
    },
  },
  {
    call: 'POST /auth/credentials/{id}/verify',
    when: 'PASSKEY: 200 AuthSession with encryptedSessionSigningKey; the Request-Id again: 401',
    run: async () => {
      const clientPublicKey = bytesToHex((await generateEncryptionKey()).publicKey);
      const ch = await api.call('POST', `/auth/credentials/${ctx.passkey.id}/challenge`, { body: { clientPublicKey } });
      const assertion = await ctx.passkey.authenticator.assert(utf8Encode(ch.body.challenge));
      const verify = () => api.call('POST', `/auth/credentials/${ctx.passkey.id}/verify`, { body: { type: 'PASSKEY', assertion }, headers: { [REQUEST_ID_HEADER]: ch.body.requestId } });
      const r = await verify();
      assert.equal(r.status, 200, r.text);
      assertAuthSession(r.body, { withKey: true });
      onlyFields(r.body, SESSION_FIELDS);
      assertError(await verify(), 401);
    },
  },

  // ---- sessions --------------------------------------------------------------------------------
  {
    call: 'GET /auth/sessions',
    when: '200 {data: AuthSession[]}: active only, never a signing key',
    run: async () => {
      const r = await api.call('GET', `/auth/sessions?accountId=${ctx.accountId}`);
      assert.equal(r.status, 200, r.text);
      onlyFields(r.body, ['data']);
      assert.ok(r.body.data.length >= 1);
      for (const s of r.body.data) {
        assertAuthSession(s);
        onlyFields(s, SESSION_FIELDS);
      }
    },
  },
  {
    call: 'POST /auth/sessions/{id}/refresh',
    when: '202 (no type), then 201 AuthSession with a new id',
    run: async () => {
      const acct = await api.newAccount();
      const { session, key } = await api.otpLogin(acct.emailCredentialId);
      const path = `/auth/sessions/${session.id}/refresh`;
      const body = { clientPublicKey: bytesToHex((await generateSigningKey()).publicKey) };
      const first = await api.call('POST', path, { body });
      challenge202(first);
      const r = await api.retry('POST', path, body, first.body, key);
      assert.equal(r.status, 201, r.text);
      assertAuthSession(r.body);
      onlyFields(r.body, SESSION_FIELDS);
      assert.notEqual(r.body.id, session.id);
      // The refreshed session has ended: a refresh of it is a refresh of an ended session.
      assertError(await api.call('POST', path, { body }), 401);
    },
  },
  {
    call: 'POST /auth/sessions/{id}/refresh',
    when: 'the session expired: 401',
    run: async () => {
      let t = Date.parse('2030-01-01T00:00:00Z');
      const clocked = await withSandbox({ now: () => t });
      try {
        const acct = await clocked.newAccount();
        const { session } = await clocked.otpLogin(acct.emailCredentialId);
        t = Date.parse(session.expiresAt);
        const r = await clocked.call('POST', `/auth/sessions/${session.id}/refresh`, { body: { clientPublicKey: bytesToHex((await generateSigningKey()).publicKey) } });
        assertError(r, 401);
      } finally {
        await clocked.sandbox.close();
      }
    },
  },
  {
    call: 'DELETE /auth/sessions/{id}',
    when: '202 with type, signed by the session itself, then 204; again: 404',
    run: async () => {
      const acct = await api.newAccount();
      const { session, key } = await api.otpLogin(acct.emailCredentialId);
      const path = `/auth/sessions/${session.id}`;
      const first = await api.call('DELETE', path);
      challenge202(first, 'EMAIL_OTP');
      const r = await api.retry('DELETE', path, undefined, first.body, key);
      assert.equal(r.status, 204, r.text);
      assertError(await api.call('DELETE', path), 404);
    },
  },

  // ---- wallet operations -----------------------------------------------------------------------
  {
    call: 'POST /internal-accounts/{id}/export',
    when: '202 (no type), then 200 {id, encryptedWalletCredentials}',
    run: async () => {
      const path = `/internal-accounts/${ctx.accountId}/export`;
      const body = { clientPublicKey: bytesToHex((await generateEncryptionKey()).publicKey) };
      const first = await api.call('POST', path, { body });
      challenge202(first);
      const r = await api.retry('POST', path, body, first.body, ctx.email.key);
      assert.equal(r.status, 200, r.text);
      onlyFields(r.body, ['id', 'encryptedWalletCredentials']);
      assert.equal(r.body.id, ctx.accountId);
      assert.equal(typeof r.body.encryptedWalletCredentials, 'string');
    },
  },
  {
    call: 'PATCH /internal-accounts/{id}',
    when: '202 (no type), then 200 InternalAccount with privateEnabled',
    run: async () => {
      const path = `/internal-accounts/${ctx.accountId}`;
      const body = { privateEnabled: true };
      const first = await api.call('PATCH', path, { body });
      challenge202(first);
      const r = await api.retry('PATCH', path, body, first.body, ctx.email.key);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.id, ctx.accountId);
      assert.equal(r.body.privateEnabled, true);
    },
  },
  {
    call: 'PATCH /customers/{customerId}',
    when: 'an EMAIL_OTP credential is tied: 202, then 200 Customer',
    run: async () => {
      const acct = await api.newAccount();
      const { key } = await api.otpLogin(acct.emailCredentialId);
      const path = `/customers/${acct.customerId}`;
      const body = { email: 'renamed@example.com' };
      const first = await api.call('PATCH', path, { body });
      challenge202(first);
      const r = await api.retry('PATCH', path, body, first.body, key);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.id, acct.customerId);
      assert.equal(r.body.email, 'renamed@example.com');
    },
  },

  // ---- delegated keys --------------------------------------------------------------------------
  {
    call: 'POST /auth/delegated-keys',
    when: '202, retry, 202 with a new payload, retry, 201 ACTIVE; then 409 for the same funding source',
    run: async () => {
      const acct = await api.newAccount();
      const { key } = await api.otpLogin(acct.emailCredentialId);
      const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Checkout', spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 5000 }] };
      const first = await api.call('POST', '/auth/delegated-keys', { body });
      challenge202(first);
      const second = await api.retry('POST', '/auth/delegated-keys', body, first.body, key);
      challenge202(second);
      assert.notEqual(second.body.payloadToSign, first.body.payloadToSign);
      const r = await api.retry('POST', '/auth/delegated-keys', body, second.body, key);
      assert.equal(r.status, 201, r.text);
      assertDelegatedKey(r.body);
      onlyFields(r.body, ['id', 'cardId', 'fundingSourceId', 'accountId', 'publicKey', 'nickname', 'status', 'spendingLimits', 'createdAt', 'updatedAt']);
      assert.equal(r.body.status, 'ACTIVE');
      assertError(await api.signed('POST', '/auth/delegated-keys', body, key), 409);
    },
  },
  {
    call: 'POST /auth/delegated-keys',
    when: 'duplicate currency or a nickname out of 1..256: 400; unknown card: 404',
    run: async () => {
      const base = { cardId: ctx.cardId, internalAccountId: ctx.accountId, nickname: 'x' };
      assertError(await api.call('POST', '/auth/delegated-keys', { body: { ...base, spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 1 }, { currencyCode: 'USD', maxPerTransaction: 2 }] } }), 400);
      assertError(await api.call('POST', '/auth/delegated-keys', { body: { ...base, nickname: '' } }), 400);
      assertError(await api.call('POST', '/auth/delegated-keys', { body: { ...base, nickname: 'n'.repeat(257) } }), 400);
      assertError(await api.call('POST', '/auth/delegated-keys', { body: { ...base, cardId: `Card:${z}` } }), 404);
    },
  },
  {
    call: 'GET /auth/delegated-keys, GET and DELETE /auth/delegated-keys/{id}',
    when: 'list 200 {data} (400 with neither filter); get 200 / 404; delete 204, then 400 (not ACTIVE); 404',
    run: async () => {
      const acct = await api.newAccount();
      const { key } = await api.otpLogin(acct.emailCredentialId);
      const created = await api.signed('POST', '/auth/delegated-keys', { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'k' }, key);
      assert.equal(created.status, 201, created.text);
      const list = await api.call('GET', `/auth/delegated-keys?accountId=${acct.accountId}`);
      assert.equal(list.status, 200, list.text);
      onlyFields(list.body, ['data']);
      assert.deepEqual(list.body.data.map((k: { id: string }) => k.id), [created.body.id]);
      assertError(await api.call('GET', '/auth/delegated-keys'), 400);
      const one = await api.call('GET', `/auth/delegated-keys/${created.body.id}`);
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(one.body, created.body);
      assertError(await api.call('GET', `/auth/delegated-keys/DelegatedKey:${z}`), 404);
      assert.equal((await api.call('DELETE', `/auth/delegated-keys/${created.body.id}`)).status, 204);
      assertError(await api.call('DELETE', `/auth/delegated-keys/${created.body.id}`), 400);
      assertError(await api.call('DELETE', `/auth/delegated-keys/DelegatedKey:${z}`), 404);
    },
  },

  // ---- cards -----------------------------------------------------------------------------------
  {
    call: 'POST /cards/{id}/reveal',
    when: '200 {panEmbedUrl, expiresAt}; 401; 403 with no attributable actor; 404; 501 NOT_IMPLEMENTED with no issuer',
    run: async () => {
      const path = `/cards/${ctx.cardId}/reveal`;
      const r = await api.call('POST', path);
      assert.equal(r.status, 200, r.text);
      onlyFields(r.body, ['panEmbedUrl', 'expiresAt']);
      assert.ok(new URL(r.body.panEmbedUrl));
      assert.match(r.body.expiresAt, ISO);
      assertError(await api.call('POST', path, { auth: 'none' }), 401, 'UNAUTHORIZED');
      assertError(await api.call('POST', path, { auth: 'impersonation' }), 403);
      assertError(await api.call('POST', `/cards/Card:${z}/reveal`), 404);
      assertError(await noIssuer.call('POST', `/cards/${noIssuer.fx.cardId}/reveal`), 501, 'NOT_IMPLEMENTED');
    },
  },

  // ---- agents ----------------------------------------------------------------------------------
  {
    call: 'GET /agents/me/actions',
    when: '200 AgentActionList (nextCursor only when hasMore); 401 without the agent token',
    run: async () => {
      const bearer = { bearer: api.fx.agentToken };
      const r = await api.call('GET', '/agents/me/actions?limit=5', { auth: bearer });
      assert.equal(r.status, 200, r.text);
      onlyFields(r.body, ['data', 'hasMore', 'nextCursor', 'totalCount']);
      assert.equal(typeof r.body.hasMore, 'boolean');
      assert.equal(r.body.nextCursor !== undefined, r.body.hasMore);
      if (r.body.totalCount !== undefined) assert.ok(Number.isInteger(r.body.totalCount));
      assert.ok(r.body.data.length <= 5);
      r.body.data.forEach(assertAgentAction);
      const last = await api.call('GET', `/agents/me/actions?limit=100`, { auth: bearer });
      if (!last.body.hasMore) assert.equal(last.body.nextCursor, undefined);
      assertError(await api.call('GET', '/agents/me/actions', { auth: 'none' }), 401, 'UNAUTHORIZED');
      const one = await api.call('GET', `/agents/me/actions/${r.body.data[0].id}`, { auth: bearer });
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(one.body, r.body.data[0]);
    },
  },
];

describe('the sandbox against spec/api.md and spec/reference.md', () => {
  for (const row of rows) test(`${row.call}: ${row.when}`, row.run);
});

