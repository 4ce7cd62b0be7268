/**
 * Stateless WebAuthn registration challenges (DESIGN.md wire format 6; reference.md "Credentials":
 * the challenge is base64url, "issued by the integrator backend, single use"): minted by
 * `POST {base}/webauthn/registration-options`, checked when a PASSKEY `POST /auth/credentials` is
 * relayed. Forged, expired and foreign challenges are refused; two instances sharing the secret
 * accept each other's. (Single use is the service's rule: proxy.sandbox.test.ts shows the sandbox
 * refusing a reused one.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHALLENGE_TTL_MS, checkChallenge, deriveChallengeKey, mintChallenge } from '../../../src/proxy/challenge.ts';
import { ACCOUNT, CLIENT_SECRET, JSON_HEADERS, assertErrorShape, raw, startProxy, startRecorder, type Recorded } from './helpers.ts';

const OTHER_ACCOUNT = 'InternalAccount:99999999-9999-4999-8999-999999999999';
const PASSKEY_ID = 'cGFzc2tleS1jcmVkZW50aWFsLWlk';

function passkeyBody(challenge: string, accountId = ACCOUNT): string {
  return JSON.stringify({
    type: 'PASSKEY',
    accountId,
    nickname: 'Laptop',
    challenge,
    attestation: { credentialId: 'abc', clientDataJson: 'def', attestationObject: 'ghi' },
  });
}

describe('challenge minting and checking (unit)', () => {
  const key = deriveChallengeKey('secret-a');

  it('round-trips and is bound to the account', () => {
    const c = mintChallenge(key, ACCOUNT);
    assert.match(c, /^[A-Za-z0-9_-]{75}$/);
    assert.deepEqual(checkChallenge(key, c, ACCOUNT), { ok: true });
    assert.deepEqual(checkChallenge(key, c, OTHER_ACCOUNT), { ok: false, reason: 'forged' });
    assert.deepEqual(checkChallenge(deriveChallengeKey('secret-b'), c, ACCOUNT), { ok: false, reason: 'forged' });
    assert.notEqual(mintChallenge(key, ACCOUNT), c, 'each challenge carries fresh randomness');
  });

  it('refuses any changed byte, expiry included', () => {
    const c = Buffer.from(mintChallenge(key, ACCOUNT), 'base64url');
    for (const i of [0, 7, 8, 23, 24, 55]) {
      const t = Buffer.from(c);
      t[i]! ^= 0x01;
      assert.deepEqual(checkChallenge(key, t.toString('base64url'), ACCOUNT), { ok: false, reason: 'forged' }, `byte ${i}`);
    }
  });

  it('refuses expired and malformed challenges', () => {
    const now = Date.now();
    const old = mintChallenge(key, ACCOUNT, now - CHALLENGE_TTL_MS - 1);
    assert.deepEqual(checkChallenge(key, old, ACCOUNT, now), { ok: false, reason: 'expired' });
    const fresh = mintChallenge(key, ACCOUNT, now);
    assert.deepEqual(checkChallenge(key, fresh, ACCOUNT, now + CHALLENGE_TTL_MS - 1), { ok: true });
    assert.deepEqual(checkChallenge(key, fresh, ACCOUNT, now + CHALLENGE_TTL_MS), { ok: false, reason: 'expired' });
    for (const bad of [undefined, 42, '', 'abc', fresh + 'A', fresh.slice(1), fresh.replace(/.$/, '='), `${fresh.slice(0, -1)}+`]) {
      assert.equal(checkChallenge(key, bad, ACCOUNT).ok, false, String(bad));
    }
  });
});

describe('registration options and PASSKEY relay through two proxies', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  let a: Awaited<ReturnType<typeof startProxy>>;
  let b: Awaited<ReturnType<typeof startProxy>>;
  let other: Awaited<ReturnType<typeof startProxy>>;
  let shared1: Awaited<ReturnType<typeof startProxy>>;
  let shared2: Awaited<ReturnType<typeof startProxy>>;
  const authorized: string[] = [];

  before(async () => {
    up = await startRecorder((req: Recorded, res) => {
      res.writeHead(req.method === 'GET' ? 200 : 201, { 'content-type': 'application/json' });
      if (req.method === 'GET') {
        res.end(
          JSON.stringify({
            data: [
              { id: 'AuthMethod:1', type: 'EMAIL_OTP', accountId: ACCOUNT, nickname: 'a@b.example' },
              { id: 'AuthMethod:2', type: 'PASSKEY', accountId: ACCOUNT, nickname: 'Phone', credentialId: PASSKEY_ID },
            ],
          }),
        );
      } else res.end('{"id":"AuthMethod:3"}');
    });
    a = await startProxy({ upstream: up.url, authorize: ({ route }) => (authorized.push(route), true) });
    b = await startProxy({ upstream: up.url, rp: { id: 'wallet.example', name: 'Example Wallet' } });
    other = await startProxy({ upstream: up.url, challengeSecret: 'another-secret' });
    shared1 = await startProxy({ upstream: up.url, clientSecret: 'secret-one', challengeSecret: 'shared-challenge-secret' });
    shared2 = await startProxy({ upstream: up.url, clientSecret: 'secret-two', challengeSecret: 'shared-challenge-secret' });
  });
  after(async () => {
    for (const p of [a, b, other, shared1, shared2]) await p.close();
    await up.close();
  });

  const options = (port: number, body: unknown, headers: Record<string, string> = {}) =>
    raw(port, { method: 'POST', path: '/api/webauthn/registration-options', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });

  it('answers PublicKeyCredentialCreationOptionsJSON with the account passkeys excluded', async () => {
    const r = await options(a.port, { accountId: ACCOUNT, userName: 'ada@example.com' }, { host: 'localhost:1234' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['cache-control'], 'no-store');
    const o = r.json;
    assert.deepEqual(Object.keys(o).sort(), ['attestation', 'authenticatorSelection', 'challenge', 'excludeCredentials', 'pubKeyCredParams', 'rp', 'timeout', 'user']);
    assert.deepEqual(o.rp, { id: 'localhost', name: 'Wallet' });
    assert.equal(o.user.name, 'ada@example.com');
    assert.equal(o.user.displayName, 'ada@example.com');
    assert.equal(Buffer.from(o.user.id, 'base64url').length, 32);
    assert.deepEqual(o.pubKeyCredParams, [
      { type: 'public-key', alg: -7 },
      { type: 'public-key', alg: -257 },
    ]);
    assert.equal(o.attestation, 'none');
    assert.deepEqual(o.authenticatorSelection, { residentKey: 'preferred', userVerification: 'preferred' });
    assert.deepEqual(o.excludeCredentials, [{ type: 'public-key', id: PASSKEY_ID }]);
    assert.ok(o.timeout >= 60_000);
    assert.equal(Buffer.from(o.challenge, 'base64url').length, 56);
    // The passkey list was read upstream with the proxy's own Basic credentials.
    const list = up.requests.at(-1)!;
    assert.equal(list.url, `/2025-10-13/auth/credentials?accountId=${encodeURIComponent(ACCOUNT)}`);
    assert.match(String(list.headers.authorization), /^Basic /);
    assert.ok(authorized.includes('webauthnRegistrationOptions'), 'authorize decides on registration options too');
    // The user handle is stable per account and differs between accounts.
    const again = await options(a.port, { accountId: ACCOUNT });
    assert.equal(again.json.user.id, o.user.id);
    assert.notEqual(again.json.challenge, o.challenge);
    assert.equal(again.json.user.name, ACCOUNT);
    assert.notEqual((await options(a.port, { accountId: OTHER_ACCOUNT })).json.user.id, o.user.id);
  });

  it('uses the configured relying party', async () => {
    const r = await options(b.port, { accountId: ACCOUNT });
    assert.deepEqual(r.json.rp, { id: 'wallet.example', name: 'Example Wallet' });
  });

  it('validates the options request', async () => {
    assertErrorShape(await options(a.port, { accountId: 'InternalAccount:nope' }), 400, 'INVALID_INPUT');
    assertErrorShape(await options(a.port, {}), 400, 'INVALID_INPUT');
    assertErrorShape(await options(a.port, { accountId: ACCOUNT, userName: 'x'.repeat(65) }), 400, 'INVALID_INPUT');
    assertErrorShape(await raw(a.port, { path: '/api/webauthn/registration-options' }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('accepts a challenge minted by another instance with the same credentials', async () => {
    const { challenge } = (await options(a.port, { accountId: ACCOUNT })).json;
    const count = up.requests.length;
    const body = passkeyBody(challenge);
    const r = await raw(b.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body });
    assert.equal(r.status, 201);
    assert.equal(up.requests.length, count + 1);
    assert.deepEqual(up.requests.at(-1)!.body, Buffer.from(body));
  });

  it('accepts across instances that share challengeSecret but not the client secret', async () => {
    const { challenge } = (await options(shared1.port, { accountId: ACCOUNT })).json;
    const r = await raw(shared2.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: passkeyBody(challenge) });
    assert.equal(r.status, 201);
  });

  it('refuses forged, foreign-secret, expired and other-account challenges with 400 INVALID_INPUT', async () => {
    const count = up.requests.length;
    const { challenge } = (await options(a.port, { accountId: ACCOUNT })).json;
    const count2 = up.requests.length; // the options call listed passkeys upstream
    const forged = Buffer.from(challenge, 'base64url');
    forged[40]! ^= 0xff;
    const expired = mintChallenge(deriveChallengeKey(CLIENT_SECRET), ACCOUNT, Date.now() - CHALLENGE_TTL_MS - 5);
    const cases: Array<[string, number, string]> = [
      [passkeyBody(forged.toString('base64url')), a.port, 'forged'],
      [passkeyBody(challenge), other.port, 'different secret'],
      [passkeyBody(expired), a.port, 'expired'],
      [passkeyBody(challenge, OTHER_ACCOUNT), a.port, 'other account'],
      [passkeyBody('A'.repeat(43)), a.port, 'random base64url'],
      [JSON.stringify({ type: 'PASSKEY', accountId: ACCOUNT }), a.port, 'missing'],
    ];
    for (const [body, port, name] of cases) {
      const r = await raw(port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body });
      assertErrorShape(r, 400, 'INVALID_INPUT');
      assert.equal(r.json.details.errors[0].field, 'challenge', name);
      if (name === 'expired') assert.match(r.json.message, /expired/);
    }
    assert.equal(up.requests.length, count2);
    assert.ok(count2 > count);
  });

  it('does not ask for a challenge on other credential types', async () => {
    const r = await raw(a.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: JSON.stringify({ type: 'EMAIL_OTP', accountId: ACCOUNT }) });
    assert.equal(r.status, 201);
  });
});
