// PASSKEY credentials of the sandbox (api.md "Verify by credential type" 3, "Registration of a
// passkey"; reference.md "Credentials", "PASSKEY challenge"; DESIGN.md wire format 6), with a
// software authenticator and the session key bundle of wire format 4.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { base64urlEncode, bytesToHex, randomBytes, sha256Hex, utf8Encode } from '../../../src/core/encoding.ts';
import { generateEncryptionKey } from '../../../src/core/p256.ts';
import { importSessionKeyBundle } from '../../../src/core/bundles.ts';
import { REQUEST_ID_HEADER } from '../../../src/core/signed-retry.ts';
import { SoftAuthenticator } from './authenticator.ts';
import { Api, assertAuthMethod, assertAuthSession, assertError, assertFieldError, idOf, ISO, withSandbox } from './helpers.ts';

let now = Date.parse('2030-01-01T00:00:00Z');
let api: Api;

before(async () => {
  api = await withSandbox({ now: () => now });
});
after(() => api.sandbox.close());

const newChallenge = (): string => base64urlEncode(randomBytes(32));

/** An account with a passkey registered through the signed retry, plus the email session used. */
async function accountWithPasskey(auth?: SoftAuthenticator) {
  const acct = await api.newAccount();
  const email = await api.otpLogin(acct.emailCredentialId);
  const authenticator = auth ?? (await SoftAuthenticator.create());
  const challenge = newChallenge();
  const body = { type: 'PASSKEY', accountId: acct.accountId, nickname: 'Laptop', challenge, attestation: await authenticator.register(challenge) };
  const created = await api.signed('POST', '/auth/credentials', body, email.key);
  assert.equal(created.status, 201, created.text);
  return { acct, email, authenticator, passkey: created.body, body };
}

/** /challenge then /verify; returns the raw verify response and the receiver key. */
async function passkeyLogin(credentialId: string, authenticator: SoftAuthenticator, overrides: Parameters<SoftAuthenticator['assert']>[1] = {}) {
  const receiver = await generateEncryptionKey();
  const clientPublicKey = bytesToHex(receiver.publicKey);
  const ch = await api.call('POST', `/auth/credentials/${credentialId}/challenge`, { body: { clientPublicKey } });
  assert.equal(ch.status, 200, ch.text);
  const assertion = await authenticator.assert(utf8Encode(ch.body.challenge), overrides);
  const res = await api.call('POST', `/auth/credentials/${credentialId}/verify`, {
    body: { type: 'PASSKEY', assertion },
    headers: { [REQUEST_ID_HEADER]: ch.body.requestId },
  });
  return { res, receiver, ch, assertion };
}

describe('PASSKEY registration', () => {
  test('added with a signed retry; 201 AuthMethod with credentialId and nickname', async () => {
    const { passkey, authenticator, acct } = await accountWithPasskey();
    assertAuthMethod(passkey);
    assert.equal(passkey.type, 'PASSKEY');
    assert.equal(passkey.nickname, 'Laptop');
    assert.equal(passkey.credentialId, authenticator.credentialIdB64);
    assert.equal(passkey.otpEncryptionTargetBundle, undefined);
    const list = await api.call('GET', `/auth/credentials?accountId=${acct.accountId}`);
    assert.equal(list.body.data.length, 2);
  });

  test('the 202 of a passkey registration names its type', async () => {
    const acct = await api.newAccount();
    const a = await SoftAuthenticator.create();
    const challenge = newChallenge();
    const ch = await api.challenge('POST', '/auth/credentials', { type: 'PASSKEY', accountId: acct.accountId, nickname: 'Phone', challenge, attestation: await a.register(challenge) });
    assert.equal(ch.type, 'PASSKEY');
  });

  test('the same credentialId twice: 400 PASSKEY_CREDENTIAL_ALREADY_EXISTS', async () => {
    const { body, email } = await accountWithPasskey();
    const r = await api.signed('POST', '/auth/credentials', body, email.key);
    assertError(r, 400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS');
    // Also on another account: WebAuthn credential ids are global.
    const other = await api.newAccount();
    const r2 = await api.call('POST', '/auth/credentials', { body: { ...body, accountId: other.accountId } });
    assertError(r2, 400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS');
  });

  test('a registration challenge is single use: 400 INVALID_INPUT', async () => {
    const { body, email } = await accountWithPasskey();
    const other = await SoftAuthenticator.create();
    const reuse = { ...body, attestation: await other.register(body.challenge) };
    const r = await api.signed('POST', '/auth/credentials', reuse, email.key);
    assertFieldError(r, 'challenge');
  });

  test('the registration is verified for real: challenge, origin, RP id, user presence', async () => {
    const acct = await api.newAccount();
    const a = await SoftAuthenticator.create();
    const challenge = newChallenge();
    const cases = [
      { attestation: await a.register(newChallenge()) },
      { attestation: await a.register(challenge, { origin: 'https://evil.example' }) },
      { attestation: await a.register(challenge, { rpId: 'evil.example' }) },
      { attestation: await a.register(challenge, { type: 'webauthn.get' }) },
      { attestation: await a.register(challenge, { flags: 0x40 }) },
    ];
    for (const c of cases) {
      const r = await api.call('POST', '/auth/credentials', { body: { type: 'PASSKEY', accountId: acct.accountId, nickname: 'x', challenge, ...c } });
      assertFieldError(r, 'attestation');
    }
    const good = await api.call('POST', '/auth/credentials', { body: { type: 'PASSKEY', accountId: acct.accountId, nickname: 'x', challenge, attestation: await a.register(challenge) } });
    assert.equal(good.status, 202, good.text);
  });

  test('field validation: nickname 1..100, base64url fields, transports', async () => {
    const acct = await api.newAccount();
    const a = await SoftAuthenticator.create();
    const challenge = newChallenge();
    const attestation = await a.register(challenge);
    const post = (b: Record<string, unknown>) => api.call('POST', '/auth/credentials', { body: { type: 'PASSKEY', accountId: acct.accountId, nickname: 'x', challenge, attestation, ...b } });
    assertFieldError(await post({ nickname: '' }), 'nickname');
    assertFieldError(await post({ nickname: 'n'.repeat(101) }), 'nickname');
    assert.equal((await post({ nickname: 'n'.repeat(100) })).status, 202);
    assertFieldError(await post({ challenge: 'not base64url!' }), 'challenge');
    assertFieldError(await post({ attestation: 'x' }), 'attestation');
    assertFieldError(await post({ attestation: { ...attestation, clientDataJson: '***' } }), 'attestation.clientDataJson');
    assertFieldError(await post({ attestation: { ...attestation, transports: ['carrier-pigeon'] } }), 'attestation.transports');
  });
});

describe('PASSKEY login', () => {
  test('/challenge returns the AuthMethod, credentialId, a hex challenge, requestId and expiresAt', async () => {
    const { passkey, authenticator } = await accountWithPasskey();
    const receiver = await generateEncryptionKey();
    const r = await api.call('POST', `/auth/credentials/${passkey.id}/challenge`, { body: { clientPublicKey: bytesToHex(receiver.publicKey) } });
    assert.equal(r.status, 200, r.text);
    assertAuthMethod(r.body);
    assert.equal(r.body.id, passkey.id);
    assert.equal(r.body.credentialId, authenticator.credentialIdB64);
    assert.match(r.body.challenge, /^[0-9a-f]{64}$/);
    assert.match(r.body.requestId, idOf('Request'));
    assert.match(r.body.expiresAt, ISO);
    assertFieldError(await api.call('POST', `/auth/credentials/${passkey.id}/challenge`, { body: { clientPublicKey: '02' + 'ab'.repeat(32) } }), 'clientPublicKey');
    assertFieldError(await api.call('POST', `/auth/credentials/${passkey.id}/challenge`, { body: {} }), 'clientPublicKey');
  });

  test('verify: 200 AuthSession with a session key sealed to clientPublicKey, which then signs', async () => {
    const { passkey, authenticator, acct } = await accountWithPasskey();
    const { res, receiver } = await passkeyLogin(passkey.id, authenticator);
    assert.equal(res.status, 200, res.text);
    assertAuthSession(res.body, { withKey: true });
    assert.equal(res.body.type, 'PASSKEY');
    assert.equal(res.body.credentialId, authenticator.credentialIdB64);
    const key = await importSessionKeyBundle(res.body.encryptedSessionSigningKey, receiver);
    const r = await api.signed('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true }, key);
    assert.equal(r.status, 200, r.text);
    // Listed sessions never carry the key.
    const sessions = await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`);
    const listed = sessions.body.data.find((s: { id: string }) => s.id === res.body.id);
    assertAuthSession(listed);
  });

  test('the WebAuthn challenge is the UTF-8 of the hex string, not its decoded bytes', async () => {
    const { passkey, authenticator } = await accountWithPasskey();
    const receiver = await generateEncryptionKey();
    const ch = await api.call('POST', `/auth/credentials/${passkey.id}/challenge`, { body: { clientPublicKey: bytesToHex(receiver.publicKey) } });
    const assertion = await authenticator.assert(Buffer.from(ch.body.challenge, 'hex'));
    const r = await api.call('POST', `/auth/credentials/${passkey.id}/verify`, { body: { type: 'PASSKEY', assertion }, headers: { [REQUEST_ID_HEADER]: ch.body.requestId } });
    assertError(r, 401, 'UNAUTHORIZED');
  });

  test('failed assertions are 401: bad signature, wrong origin, wrong RP id, no user presence, other passkey', async () => {
    const { passkey, authenticator } = await accountWithPasskey();
    for (const o of [{ corruptSignature: true }, { origin: 'https://evil.example' }, { rpId: 'evil.example' }, { flags: 0x00 }, { type: 'webauthn.create' }]) {
      const { res } = await passkeyLogin(passkey.id, authenticator, o);
      assertError(res, 401, 'UNAUTHORIZED');
    }
    const stranger = await SoftAuthenticator.create();
    const { res } = await passkeyLogin(passkey.id, stranger);
    assertError(res, 401, 'UNAUTHORIZED');
  });

  test('the signature counter must grow', async () => {
    const { passkey, authenticator } = await accountWithPasskey();
    assert.equal((await passkeyLogin(passkey.id, authenticator, { counter: 10 })).res.status, 200);
    assertError((await passkeyLogin(passkey.id, authenticator, { counter: 10 })).res, 401, 'UNAUTHORIZED');
    assertError((await passkeyLogin(passkey.id, authenticator, { counter: 3 })).res, 401, 'UNAUTHORIZED');
    assert.equal((await passkeyLogin(passkey.id, authenticator, { counter: 11 })).res.status, 200);
  });

  test('Request-Id: missing 401 REQUEST_ID_MISSING, consumed 401, expired 401, of another credential 401', async () => {
    const { passkey, authenticator } = await accountWithPasskey();
    const { res, ch, assertion } = await passkeyLogin(passkey.id, authenticator);
    assert.equal(res.status, 200);
    const replay = await api.call('POST', `/auth/credentials/${passkey.id}/verify`, { body: { type: 'PASSKEY', assertion }, headers: { [REQUEST_ID_HEADER]: ch.body.requestId } });
    assertError(replay, 401, 'UNAUTHORIZED');
    assert.equal(replay.body.details.reason, 'REQUEST_ID_CONSUMED');
    assertError(await api.call('POST', `/auth/credentials/${passkey.id}/verify`, { body: { type: 'PASSKEY', assertion } }), 401, 'REQUEST_ID_MISSING');

    const receiver = await generateEncryptionKey();
    const ch2 = await api.call('POST', `/auth/credentials/${passkey.id}/challenge`, { body: { clientPublicKey: bytesToHex(receiver.publicKey) } });
    const a2 = await authenticator.assert(utf8Encode(ch2.body.challenge));
    now += 5 * 60_000;
    const expired = await api.call('POST', `/auth/credentials/${passkey.id}/verify`, { body: { type: 'PASSKEY', assertion: a2 }, headers: { [REQUEST_ID_HEADER]: ch2.body.requestId } });
    assertError(expired, 401, 'UNAUTHORIZED');
    assert.equal(expired.body.details.reason, 'REQUEST_ID_EXPIRED');

    const other = await accountWithPasskey();
    const ch3 = await api.call('POST', `/auth/credentials/${other.passkey.id}/challenge`, { body: { clientPublicKey: bytesToHex(receiver.publicKey) } });
    const a3 = await authenticator.assert(utf8Encode(ch3.body.challenge));
    const cross = await api.call('POST', `/auth/credentials/${passkey.id}/verify`, { body: { type: 'PASSKEY', assertion: a3 }, headers: { [REQUEST_ID_HEADER]: ch3.body.requestId } });
    assertError(cross, 401, 'UNAUTHORIZED');
  });

  test('the challenge is the SHA-256 of a request that names the client key', async () => {
    const { passkey } = await accountWithPasskey();
    const k1 = bytesToHex((await generateEncryptionKey()).publicKey);
    const c1 = await api.call('POST', `/auth/credentials/${passkey.id}/challenge`, { body: { clientPublicKey: k1 } });
    const c2 = await api.call('POST', `/auth/credentials/${passkey.id}/challenge`, { body: { clientPublicKey: k1 } });
    assert.notEqual(c1.body.challenge, c2.body.challenge, 'fresh per call');
    assert.notEqual(c1.body.challenge, await sha256Hex(k1));
  });
});

describe('credential revocation', () => {
  test('needs a session of a different credential; ends the revoked credential\'s sessions; 204', async () => {
    const { passkey, authenticator, acct, email } = await accountWithPasskey();
    const { res, receiver } = await passkeyLogin(passkey.id, authenticator);
    const passkeyKey = await importSessionKeyBundle(res.body.encryptedSessionSigningKey, receiver);

    // Its own session may not revoke it.
    const ch = await api.challenge('DELETE', `/auth/credentials/${passkey.id}`);
    assert.equal(ch.type, 'PASSKEY');
    assertError(await api.retry('DELETE', `/auth/credentials/${passkey.id}`, undefined, ch, passkeyKey), 401, 'WALLET_SIGNATURE_INVALID');

    const ok = await api.signed('DELETE', `/auth/credentials/${passkey.id}`, undefined, email.key);
    assert.equal(ok.status, 204, ok.text);
    assert.equal(ok.text, '');
    const list = await api.call('GET', `/auth/credentials?accountId=${acct.accountId}`);
    assert.deepEqual(list.body.data.map((m: { id: string }) => m.id), [acct.emailCredentialId]);
    const sessions = await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`);
    assert.ok(!sessions.body.data.some((s: { id: string }) => s.id === res.body.id), 'the passkey session ended');
    // Its session key no longer signs.
    const after = await api.signed('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true }, passkeyKey);
    assertError(after, 401, 'WALLET_SIGNATURE_INVALID');
    // And the passkey no longer logs in.
    assertError(await api.call('POST', `/auth/credentials/${passkey.id}/challenge`, { body: { clientPublicKey: bytesToHex(receiver.publicKey) } }), 404);
    // The same authenticator may register again after revocation.
    const challenge = newChallenge();
    const again = await api.signed('POST', '/auth/credentials', { type: 'PASSKEY', accountId: acct.accountId, nickname: 'Again', challenge, attestation: await authenticator.register(challenge) }, email.key);
    assert.equal(again.status, 201, again.text);
  });

  test('the only credential of an account: 400', async () => {
    const acct = await api.newAccount();
    const { key } = await api.otpLogin(acct.emailCredentialId);
    const r = await api.signed('DELETE', `/auth/credentials/${acct.emailCredentialId}`, undefined, key);
    assertError(r, 400);
    assertError(await api.call('DELETE', `/auth/credentials/AuthMethod:00000000-0000-4000-8000-000000000000`), 404);
  });

  test('EMAIL_OTP can be re-added once removed', async () => {
    const { acct, passkey, authenticator } = await accountWithPasskey();
    const { res, receiver } = await passkeyLogin(passkey.id, authenticator);
    const key = await importSessionKeyBundle(res.body.encryptedSessionSigningKey, receiver);
    assert.equal((await api.signed('DELETE', `/auth/credentials/${acct.emailCredentialId}`, undefined, key)).status, 204);
    const readd = await api.signed('POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: acct.accountId }, key);
    assert.equal(readd.status, 201, readd.text);
    await api.otpLogin(readd.body.id, { bundle: readd.body.otpEncryptionTargetBundle });
  });
});
