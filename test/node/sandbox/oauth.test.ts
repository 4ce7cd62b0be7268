// OAUTH credentials and the test OIDC issuer of the sandbox (api.md "Verify by credential type" 2;
// reference.md "Sandbox behaviour"; DESIGN.md wire format 5; OpenID Connect Discovery 1.0). The
// issuer's authorization code flow with PKCE: oidc-code.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { base64urlDecode, bytesToHex, sha256Hex, utf8Decode, utf8Encode } from '../../../src/core/encoding.ts';
import { generateEncryptionKey } from '../../../src/core/p256.ts';
import { mintIdToken, SANDBOX_OIDC_CLIENT_ID } from '../../../src/sandbox/index.ts';
import { Api, assertAuthMethod, assertError, assertFieldError, withSandbox } from './helpers.ts';
import { createStamp, WALLET_SIGNATURE_HEADER } from '../../../src/core/stamp.ts';
import { REQUEST_ID_HEADER } from '../../../src/core/signed-retry.ts';

let now = Date.parse('2030-01-01T00:00:00Z');
let api: Api;

before(async () => {
  api = await withSandbox({ now: () => now });
});
after(() => api.sandbox.close());

const nowS = (): number => Math.floor(now / 1000);

/** An account with an OAUTH credential for `claims` (added with the email session). */
async function accountWithOauth(claims: Record<string, unknown>) {
  const acct = await api.newAccount();
  const email = await api.otpLogin(acct.emailCredentialId);
  const oidcToken = await mintIdToken(claims, { now });
  const created = await api.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: acct.accountId, oidcToken }, email.key);
  assert.equal(created.status, 201, created.text);
  return { acct, email, credential: created.body };
}

describe('OAUTH credential', () => {
  test('create: nickname from the email claim; 202 names the type', async () => {
    const acct = await api.newAccount();
    const oidcToken = await mintIdToken({ sub: 'g-1', email: 'ada@example.com' }, { now });
    const ch = await api.challenge('POST', '/auth/credentials', { type: 'OAUTH', accountId: acct.accountId, oidcToken });
    assert.equal(ch.type, 'OAUTH');
    const { credential } = await accountWithOauth({ sub: 'g-2', email: 'grace@example.com' });
    assertAuthMethod(credential);
    assert.equal(credential.type, 'OAUTH');
    assert.equal(credential.nickname, 'grace@example.com');
  });

  test('verify: a fresh token with nonce = sha256(clientPublicKey hex) gives a session whose sealed key signs', async () => {
    const { credential, acct } = await accountWithOauth({ sub: 'g-3', email: 'x@example.com' });
    const login = await api.oauthLogin(credential.id, { sub: 'g-3' });
    assert.equal(login.res.status, 200, login.res.text);
    assert.equal(login.session.type, 'OAUTH');
    const r = await api.signed('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true }, login.key);
    assert.equal(r.status, 200, r.text);
  });

  test('the sandbox issuer, the bare Google issuer form and Apple are supported; others are not', async () => {
    const sandboxIss = await accountWithOauth({ iss: api.fx.oidcIssuer, sub: 'demo-1' });
    assert.equal((await api.oauthLogin(sandboxIss.credential.id, { iss: api.fx.oidcIssuer, sub: 'demo-1', iat: nowS() })).res.status, 200);
    const apple = await accountWithOauth({ iss: 'https://appleid.apple.com', sub: 'a-1' });
    assert.equal((await api.oauthLogin(apple.credential.id, { iss: 'https://appleid.apple.com', sub: 'a-1', iat: nowS() })).res.status, 200);
    const google = await accountWithOauth({ iss: 'accounts.google.com', sub: 'g-4' });
    assert.equal((await api.oauthLogin(google.credential.id, { iss: 'https://accounts.google.com', sub: 'g-4', iat: nowS() })).res.status, 200);
    const acct = await api.newAccount();
    const r = await api.call('POST', '/auth/credentials', { body: { type: 'OAUTH', accountId: acct.accountId, oidcToken: await mintIdToken({ iss: 'https://evil.example' }, { now }) } });
    assertError(r, 401, 'UNAUTHORIZED');
  });

  test('verify: a credential removed while its verifies are under way leaves no live session of it', async () => {
    const { credential, acct, email } = await accountWithOauth({ sub: 'g-removed' });
    const path = `/auth/credentials/${credential.id}`;
    const ch = await api.challenge('DELETE', path);
    const removal = { [WALLET_SIGNATURE_HEADER]: await createStamp(ch.payloadToSign, email.key), [REQUEST_ID_HEADER]: ch.requestId };
    const bodies = [];
    for (let i = 0; i < 20; i++) {
      const clientPublicKey = bytesToHex((await generateEncryptionKey()).publicKey);
      bodies.push({ type: 'OAUTH', oidcToken: await mintIdToken({ sub: 'g-removed', nonce: await sha256Hex(clientPublicKey) }, { now }), clientPublicKey });
    }
    // The removal's signed leg sent among the verifies: each verify is answered before it (its
    // session then ended by it) or after it (404), never with a session that outlives it.
    const verify = (body: unknown) => api.call('POST', `${path}/verify`, { body });
    const sent = [...bodies.slice(0, 10).map(verify), api.call('DELETE', path, { headers: removal }), ...bodies.slice(10).map(verify)];
    const answers = await Promise.all(sent);
    assert.equal(answers[10]!.status, 204, answers[10]!.text);
    for (const a of answers) assert.ok([200, 204, 404].includes(a.status), a.text);
    const sessions = (await api.call('GET', `/auth/sessions?accountId=${acct.accountId}`)).body.data as Array<{ id: string; type: string }>;
    assert.deepEqual(sessions.filter((s) => s.type === 'OAUTH'), [], answers.map((a) => a.status).join(' '));
  });

  test('verify refusals: stale or future iat, expired, wrong nonce, identity mismatch', async () => {
    const { credential } = await accountWithOauth({ sub: 'g-5', email: 'y@example.com' });
    const cases: Array<[string, Record<string, unknown>]> = [
      ['OIDC_STALE', { sub: 'g-5', iat: nowS() - 66 }],
      // api.md: "no more than 60 seconds older than the request"; the 5 s skew is for an issuer's clock ahead.
      ['OIDC_STALE', { sub: 'g-5', iat: nowS() - 61 }],
      ['OIDC_STALE', { sub: 'g-5', iat: nowS() + 6 }],
      ['OIDC_EXPIRED', { sub: 'g-5', iat: nowS(), exp: nowS() - 6 }],
      // reference.md: "`exp` in the future", with no skew.
      ['OIDC_EXPIRED', { sub: 'g-5', iat: nowS() - 10, exp: nowS() - 1 }],
      ['OIDC_EXPIRED', { sub: 'g-5', iat: nowS() - 10, exp: nowS() }],
      ['OIDC_IDENTITY', { sub: 'g-6', iat: nowS() }],
      ['OIDC_IDENTITY', { sub: 'g-5', aud: 'another-client', iat: nowS() }],
      ['OIDC_IDENTITY', { sub: 'g-5', iss: 'https://appleid.apple.com', iat: nowS() }],
      ['OIDC_SUB', { sub: '', iat: nowS() }],
      ['OIDC_AUD', { sub: 'g-5', aud: '', iat: nowS() }],
    ];
    for (const [reason, claims] of cases) {
      const { res } = await api.oauthLogin(credential.id, claims);
      assertError(res, 401, 'UNAUTHORIZED');
      assert.equal(res.body.details.reason, reason, JSON.stringify(claims));
    }
    // Inside the 60 s window it passes, and with an issuer clock up to 5 s ahead.
    assert.equal((await api.oauthLogin(credential.id, { sub: 'g-5', iat: nowS() - 60 })).res.status, 200);
    assert.equal((await api.oauthLogin(credential.id, { sub: 'g-5', iat: nowS() - 10, exp: nowS() + 1 })).res.status, 200);
    assert.equal((await api.oauthLogin(credential.id, { sub: 'g-5', iat: nowS() + 4 })).res.status, 200);

    // The nonce binds the token to the clientPublicKey sent.
    const receiver = await generateEncryptionKey();
    const other = await generateEncryptionKey();
    const oidcToken = await mintIdToken({ sub: 'g-5', nonce: await sha256Hex(bytesToHex(other.publicKey)) }, { now });
    const r = await api.call('POST', `/auth/credentials/${credential.id}/verify`, { body: { type: 'OAUTH', oidcToken, clientPublicKey: bytesToHex(receiver.publicKey) } });
    assertError(r, 401, 'UNAUTHORIZED');
    assert.equal(r.body.details.reason, 'OIDC_NONCE');
  });

  test('create: the signed retry checks the token as fresh again (api.md: validated "on every call")', async () => {
    const acct = await api.newAccount();
    const email = await api.otpLogin(acct.emailCredentialId);
    const body = { type: 'OAUTH', accountId: acct.accountId, oidcToken: await mintIdToken({ sub: 'g-11', iat: nowS() - 50 }, { now }) };
    const first = await api.challenge('POST', '/auth/credentials', body);
    // The token passes 60 s of age between the legs.
    now += 15_000;
    try {
      const r = await api.retry('POST', '/auth/credentials', body, first, email.key);
      assertError(r, 401, 'UNAUTHORIZED');
      assert.equal(r.body.details.reason, 'OIDC_STALE');
      const listed = (await api.call('GET', `/auth/credentials?accountId=${acct.accountId}`)).body.data;
      assert.deepEqual(listed.map((c: { type: string }) => c.type), ['EMAIL_OTP']);
    } finally {
      now -= 15_000;
    }
  });

  test('create of the first credential checks iat and exp even when the request carries retry headers', async () => {
    const acct = await api.newAccount({ emailCredential: false });
    const stale = await mintIdToken({ sub: 'g-10', iat: nowS() - 3600, exp: nowS() - 3000 }, { now });
    const body = { type: 'OAUTH', accountId: acct.accountId, oidcToken: stale };
    const plain = await api.call('POST', '/auth/credentials', { body });
    assertError(plain, 401, 'UNAUTHORIZED');
    assert.equal(plain.body.details.reason, 'OIDC_STALE');
    // No signed retry applies to a first credential, so the headers change nothing.
    const headers = { 'Request-Id': 'Request:00000000-0000-4000-8000-000000000000', 'Service-Wallet-Signature': 'x' };
    const withHeaders = await api.call('POST', '/auth/credentials', { body, headers });
    assertError(withHeaders, 401, 'UNAUTHORIZED');
    assert.equal(withHeaders.body.details.reason, 'OIDC_STALE');
    assert.deepEqual((await api.call('GET', `/auth/credentials?accountId=${acct.accountId}`)).body.data, []);
  });

  test('malformed tokens and keys are 400; /challenge of an OAUTH credential is 400', async () => {
    const { credential } = await accountWithOauth({ sub: 'g-7' });
    const clientPublicKey = bytesToHex((await generateEncryptionKey()).publicKey);
    assertFieldError(await api.call('POST', `/auth/credentials/${credential.id}/verify`, { body: { type: 'OAUTH', oidcToken: 'abc', clientPublicKey } }), 'oidcToken');
    assertFieldError(await api.call('POST', `/auth/credentials/${credential.id}/verify`, { body: { type: 'OAUTH', oidcToken: await mintIdToken({}, { now }), clientPublicKey: 'abc' } }), 'clientPublicKey');
    assertFieldError(await api.call('POST', `/auth/credentials/${credential.id}/verify`, { body: { type: 'OAUTH', oidcToken: await mintIdToken({}, { now }), clientPublicKey: '04' + '00'.repeat(64) } }), 'clientPublicKey');
    assertError(await api.call('POST', `/auth/credentials/${credential.id}/challenge`), 400, 'INVALID_INPUT');
  });

  test('one credential per provider identity per account', async () => {
    const { acct, email } = await accountWithOauth({ sub: 'g-8' });
    const dup = await api.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: acct.accountId, oidcToken: await mintIdToken({ sub: 'g-8' }, { now }) }, email.key);
    assertError(dup, 400, 'OAUTH_CREDENTIAL_ALREADY_EXISTS');
    const second = await api.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: acct.accountId, oidcToken: await mintIdToken({ sub: 'g-9' }, { now }) }, email.key);
    assert.equal(second.status, 201, second.text);
  });
});

describe('test OIDC issuer', () => {
  test('discovery and JWKS; minted tokens verify against the JWKS key', async () => {
    const disc = await api.call('GET', '/oidc/.well-known/openid-configuration', { outside: true, auth: 'none' });
    assert.equal(disc.status, 200);
    assert.equal(disc.body.issuer, api.fx.oidcIssuer);
    assert.deepEqual(disc.body.id_token_signing_alg_values_supported, ['ES256']);
    const jwks = await api.call('GET', '/oidc/jwks', { outside: true, auth: 'none' });
    const jwk = jwks.body.keys[0];
    assert.equal(jwk.kty, 'EC');
    assert.equal(jwk.crv, 'P-256');
    const key = await crypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);

    const r = await api.call('POST', '/oidc/token', { outside: true, auth: 'none', body: { nonce: 'n-1', sub: 'alice', email: 'alice@example.com' }, headers: { origin: 'http://localhost:5173' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    const [h, p, s] = r.body.id_token.split('.');
    const ok = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, base64urlDecode(s), utf8Encode(`${h}.${p}`));
    assert.ok(ok, 'ES256 signature verifies with the JWKS key');
    const header = JSON.parse(utf8Decode(base64urlDecode(h)));
    assert.equal(header.kid, jwk.kid);
    const claims = JSON.parse(utf8Decode(base64urlDecode(p)));
    assert.equal(claims.iss, api.fx.oidcIssuer);
    assert.equal(claims.sub, 'alice');
    assert.equal(claims.aud, SANDBOX_OIDC_CLIENT_ID);
    assert.equal(claims.nonce, 'n-1');
    assert.equal(claims.iat, nowS());

    const pre = await fetch(`${api.sandbox.url}/oidc/token`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
    assert.equal(pre.status, 204);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /content-type/i);
    const bad = await api.call('POST', '/oidc/token', { outside: true, auth: 'none', body: {} });
    assertFieldError(bad, 'nonce');
    assert.equal(bad.headers.get('access-control-allow-origin'), '*');
  });

  test('a token from the issuer endpoint logs in an OAUTH credential end to end', async () => {
    const acct = await api.newAccount();
    const email = await api.otpLogin(acct.emailCredentialId);
    const first = await api.call('POST', '/oidc/token', { outside: true, auth: 'none', body: { nonce: 'reg' } });
    const created = await api.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: acct.accountId, oidcToken: first.body.id_token }, email.key);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.nickname, 'demo@sandbox.test');
    const receiver = await generateEncryptionKey();
    const clientPublicKey = bytesToHex(receiver.publicKey);
    const tok = await api.call('POST', '/oidc/token', { outside: true, auth: 'none', body: { nonce: await sha256Hex(clientPublicKey) } });
    const r = await api.call('POST', `/auth/credentials/${created.body.id}/verify`, { body: { type: 'OAUTH', oidcToken: tok.body.id_token, clientPublicKey } });
    assert.equal(r.status, 200, r.text);
  });
});
