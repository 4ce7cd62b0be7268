// Sessions of the sandbox (reference.md "Sessions"): list, refresh, revoke and expiry, driven by the
// injectable clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDualKey, generateEncryptionKey, generateSigningKey } from '../../../src/core/p256.ts';
import { importSessionKeyBundle } from '../../../src/core/bundles.ts';
import { Api, assertAuthSession, assertError, assertFieldError, bytesToHex, withSandbox } from './helpers.ts';

let now = Date.parse('2030-01-01T00:00:00Z');
let api: Api;

before(async () => {
  api = await withSandbox({ now: () => now, sessionLifetimeMs: 60_000 });
});
after(() => api.sandbox.close());

async function loggedIn() {
  const acct = await api.newAccount();
  const login = await api.otpLogin(acct.emailCredentialId);
  return { acct, ...login };
}

describe('sessions', () => {
  test('list: active sessions only, no signing key; expiry takes them off', async () => {
    const { acct, session } = await loggedIn();
    const r = await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.data.length, 1);
    assertAuthSession(r.body.data[0]);
    assert.equal(r.body.data[0].id, session.id);
    now += 59_999;
    assert.equal((await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`)).body.data.length, 1);
    now += 1;
    assert.equal((await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`)).body.data.length, 0);
    assertFieldError(await api.call('GET', '/auth/sessions'), 'accountId');
    // reference.md lists 200 only: a well-formed account id the service does not know has no session.
    const unknown = await api.call('GET', '/auth/sessions?accountId=InternalAccount:00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 200, unknown.text);
    assert.deepEqual(unknown.body, { data: [] });
  });

  test('refresh: stamped by the current session key; 201 new session keyed by the new client key, no bundle; the old one ends', async () => {
    const { acct, session, key } = await loggedIn();
    const next = await generateSigningKey();
    const body = { clientPublicKey: bytesToHex(next.publicKey) };
    const path = `/auth/sessions/${session.id}/refresh`;

    // Another live session of the same account may not refresh this one.
    now += 30_000;
    const other = await api.otpLogin(acct.emailCredentialId);
    const ch0 = await api.challenge('POST', path, body);
    assertError(await api.retry('POST', path, body, ch0, other.key), 401, 'WALLET_SIGNATURE_INVALID');

    now += 10_000;
    const r = await api.signed('POST', path, body, key);
    assert.equal(r.status, 201, r.text);
    assertAuthSession(r.body);
    assert.notEqual(r.body.id, session.id);
    assert.equal(r.body.type, 'EMAIL_OTP');
    assert.equal(Date.parse(r.body.expiresAt), now + 60_000, 'a full lifetime from the refresh');

    const ids = (await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`)).body.data.map((s: { id: string }) => s.id);
    assert.ok(ids.includes(r.body.id));
    assert.ok(!ids.includes(session.id), 'the refreshed session ended');
    // The new client key signs; the old one does not.
    assert.equal((await api.signed('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true }, next)).status, 200);
    assertError(await api.signed('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true }, key), 401, 'WALLET_SIGNATURE_INVALID');
    // Refreshing the ended session: 401.
    assertError(await api.call('POST', path, { body }), 401, 'UNAUTHORIZED');
  });

  test('refresh of an expired session is 401, of an unknown one 404; body rules', async () => {
    const { session } = await loggedIn();
    const body = { clientPublicKey: bytesToHex((await generateSigningKey()).publicKey) };
    assertFieldError(await api.call('POST', `/auth/sessions/${session.id}/refresh`, { body: { clientPublicKey: 'nope' } }), 'clientPublicKey');
    now += 60_000;
    const r = await api.call('POST', `/auth/sessions/${session.id}/refresh`, { body });
    assertError(r, 401, 'UNAUTHORIZED');
    assert.equal(r.body.details.reason, 'SESSION_EXPIRED');
    assertError(await api.call('POST', '/auth/sessions/Session:00000000-0000-4000-8000-000000000000/refresh', { body }), 404);
  });

  test('refresh body must be the same on both legs', async () => {
    const { session, key } = await loggedIn();
    const path = `/auth/sessions/${session.id}/refresh`;
    const ch = await api.challenge('POST', path, { clientPublicKey: bytesToHex((await generateSigningKey()).publicKey) });
    const swapped = { clientPublicKey: bytesToHex((await generateSigningKey()).publicKey) };
    assertError(await api.retry('POST', path, swapped, ch, key), 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
  });

  test('revoke (logout): the session may sign its own revocation; 204; then 404', async () => {
    const { acct, session, key } = await loggedIn();
    const ch = await api.challenge('DELETE', `/auth/sessions/${session.id}`);
    assert.equal(ch.type, 'EMAIL_OTP');
    const r = await api.retry('DELETE', `/auth/sessions/${session.id}`, undefined, ch, key);
    assert.equal(r.status, 204, r.text);
    assertError(await api.call('DELETE', `/auth/sessions/${session.id}`), 404);
    assert.equal((await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`)).body.data.length, 0);
    assertError(await api.signed('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true }, key), 401, 'WALLET_SIGNATURE_INVALID');
  });

  test('revoke with another session of the account; a session of another account may not', async () => {
    const { acct, session } = await loggedIn();
    now += 30_000;
    const second = await api.otpLogin(acct.emailCredentialId);
    const stranger = await loggedIn();
    const ch = await api.challenge('DELETE', `/auth/sessions/${session.id}`);
    assertError(await api.retry('DELETE', `/auth/sessions/${session.id}`, undefined, ch, stranger.key), 401, 'WALLET_SIGNATURE_INVALID');
    assert.equal((await api.signed('DELETE', `/auth/sessions/${session.id}`, undefined, second.key)).status, 204);
  });

  test('two live sessions under one client key: the later one is refreshed with that key too', async () => {
    const { acct, session: first, key } = await loggedIn();
    now += 30_000;
    const { session: second } = await api.otpLogin(acct.emailCredentialId, { key });
    const body = { clientPublicKey: bytesToHex((await generateSigningKey()).publicKey) };
    const r = await api.signed('POST', `/auth/sessions/${second.id}/refresh`, body, key);
    assert.equal(r.status, 201, r.text);
    const ids = (await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`)).body.data.map((s: { id: string }) => s.id);
    assert.deepEqual(new Set(ids), new Set([first.id, r.body.id]));
  });

  test('revoke of an expired or unknown session is 404', async () => {
    const { session } = await loggedIn();
    now += 60_000;
    assertError(await api.call('DELETE', `/auth/sessions/${session.id}`), 404);
    assertFieldError(await api.call('DELETE', '/auth/sessions/abc'), 'id');
  });
});

describe('sessions, with refreshSealsKey', () => {
  let sealing: Api;
  before(async () => {
    sealing = await withSandbox({ refreshSealsKey: true });
  });
  after(() => sealing.sandbox.close());

  test('refresh answers a fresh key sealed to the clientPublicKey sent; that key signs, the client key does not', async () => {
    const acct = await sealing.newAccount();
    const { session, key } = await sealing.otpLogin(acct.emailCredentialId);
    const { signing, receiver } = await generateDualKey();
    const body = { clientPublicKey: bytesToHex(signing.publicKey) };
    const r = await sealing.signed('POST', `/auth/sessions/${session.id}/refresh`, body, key);
    assert.equal(r.status, 201, r.text);
    assertAuthSession(r.body, { withKey: true });
    // Wire format 4: only the receiver of the clientPublicKey sent opens it.
    const sessionKey = await importSessionKeyBundle(r.body.encryptedSessionSigningKey, receiver);
    assert.notDeepEqual(sessionKey.publicKey, signing.publicKey);
    await assert.rejects(importSessionKeyBundle(r.body.encryptedSessionSigningKey, await generateEncryptionKey()));
    const path = `/internal-accounts/${acct.accountId}`;
    assert.equal((await sealing.signed('PATCH', path, { privateEnabled: true }, sessionKey)).status, 200);
    assertError(await sealing.signed('PATCH', path, { privateEnabled: true }, signing), 401, 'WALLET_SIGNATURE_INVALID');
    // Lists never carry the key.
    const listed = (await sealing.call('GET', `/auth/sessions?accountId=${acct.accountId}`)).body.data;
    assert.deepEqual(listed.map((s: { id: string }) => s.id), [r.body.id]);
    assert.equal(listed[0].encryptedSessionSigningKey, undefined);
  });
});

describe('sessions: refreshes of one session signed at once', () => {
  // reference.md has a refresh end nothing but answer 401 for a session that ended; the sandbox ends
  // the refreshed session, so of refreshes signed at once exactly one may win.
  for (const refreshSealsKey of [false, true]) {
    test(`one wins with 201, the others get 401 SESSION_REVOKED, one session stays live (refreshSealsKey: ${refreshSealsKey})`, async () => {
      const racing = await withSandbox({ refreshSealsKey });
      try {
        const acct = await racing.newAccount();
        const { session, key } = await racing.otpLogin(acct.emailCredentialId);
        const path = `/auth/sessions/${session.id}/refresh`;
        // Every first leg answers while the session is live; the signed retries then go out together.
        const legs = [];
        for (let i = 0; i < 4; i++) {
          const body = { clientPublicKey: bytesToHex((await generateSigningKey()).publicKey) };
          legs.push({ body, challenge: await racing.challenge('POST', path, body) });
        }
        const answers = await Promise.all(legs.map((l) => racing.retry('POST', path, l.body, l.challenge, key)));
        const won = answers.filter((r) => r.status === 201);
        assert.equal(won.length, 1, answers.map((r) => `${r.status} ${r.text}`).join('\n'));
        for (const r of answers.filter((a) => a.status !== 201)) {
          assertError(r, 401, 'UNAUTHORIZED');
          assert.equal(r.body.details.reason, 'SESSION_REVOKED');
        }
        const listed = (await racing.call('GET', `/auth/sessions?accountId=${acct.accountId}`)).body.data;
        assert.deepEqual(listed.map((s: { id: string }) => s.id), [won[0]!.body.id]);
      } finally {
        await racing.sandbox.close();
      }
    });
  }
});
