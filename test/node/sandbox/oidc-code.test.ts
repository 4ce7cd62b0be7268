// The test issuer's authorization code flow with PKCE, over real HTTP: RFC 6749 §4.1 (authorization
// request and response, token request §4.1.3, token response §5.1, errors §5.2), RFC 7636 (PKCE:
// verifier syntax §4.1, S256 §4.2, `plain` as the default method §4.3, the server's check §4.6),
// RFC 9207 (`iss` in the authorization response), OpenID Connect Core 1.0 §3.1 (nonce in the ID
// token) and Discovery 1.0 (metadata).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { base64urlDecode, utf8Decode } from '../../../src/core/encoding.ts';
import { SANDBOX_OIDC_CLIENT_ID } from '../../../src/sandbox/index.ts';
import { Api, withSandbox } from './helpers.ts';

let now = Date.parse('2030-01-01T00:00:00Z');
let api: Api;

before(async () => {
  api = await withSandbox({ now: () => now });
});
after(() => api.sandbox.close());

const REDIRECT = 'http://localhost:5173/cb';

function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier, 'ascii').digest('base64url') };
}

function authorizeQuery(overrides: Record<string, string | undefined> = {}): URLSearchParams {
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: SANDBOX_OIDC_CLIENT_ID,
    redirect_uri: REDIRECT,
    scope: 'openid email',
    nonce: 'nonce-1',
    state: 'state-1',
    code_challenge_method: 'S256',
    ...overrides,
  };
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(all)) if (v !== undefined) q.set(k, v);
  return q;
}

/** The sign-in form's POST, as the browser sends it; answers the redirect's URL. */
async function authorize(q: URLSearchParams): Promise<{ status: number; location: URL | null }> {
  const r = await fetch(`${api.sandbox.url}/oidc/authorize`, { method: 'POST', body: q, redirect: 'manual' });
  await r.arrayBuffer();
  const location = r.headers.get('location');
  return { status: r.status, location: location ? new URL(location) : null };
}

/** A code for a fresh PKCE pair (the authorize page, then its form's POST). */
async function codeFor(overrides: Record<string, string | undefined> = {}): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const { status, location } = await authorize(authorizeQuery({ code_challenge: challenge, ...overrides }));
  assert.equal(status, 303);
  const code = location!.searchParams.get('code');
  assert.ok(code, `a code in ${location}`);
  return { code, verifier };
}

async function token(form: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body.set(k, v);
  const r = await fetch(`${api.sandbox.url}/oidc/token`, { method: 'POST', body, headers: { origin: 'http://localhost:5173', ...headers } });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: JSON.parse(text) as Record<string, any> };
}

const exchange = (code: string, verifier: string, extra: Record<string, string | undefined> = {}) =>
  token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: SANDBOX_OIDC_CLIENT_ID, code_verifier: verifier, ...extra });

function claimsOf(idToken: string): Record<string, unknown> {
  return JSON.parse(utf8Decode(base64urlDecode(idToken.split('.')[1]!))) as Record<string, unknown>;
}

function assertOAuthError(r: { status: number; headers: Headers; body: Record<string, any> }, error: string): void {
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.body.error, error, JSON.stringify(r.body));
  assert.equal(typeof r.body.error_description, 'string');
  assert.equal(r.headers.get('cache-control'), 'no-store');
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
}

describe('test issuer: authorization code flow with PKCE', () => {
  test('discovery names the code flow, S256 only, the token endpoint and the iss parameter', async () => {
    const disc = await api.call('GET', '/oidc/.well-known/openid-configuration', { outside: true, auth: 'none' });
    assert.equal(disc.status, 200);
    assert.deepEqual(disc.body.response_types_supported, ['code']);
    assert.deepEqual(disc.body.grant_types_supported, ['authorization_code']);
    assert.deepEqual(disc.body.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(disc.body.response_modes_supported, ['query']);
    assert.deepEqual(disc.body.token_endpoint_auth_methods_supported, ['none']);
    assert.equal(disc.body.token_endpoint, `${api.fx.oidcIssuer}/token`);
    assert.equal(disc.body.authorization_response_iss_parameter_supported, true);
  });

  test('authorize page: no script, the challenge carried by the form; the POST redirects with code, state and iss in the query', async () => {
    const { verifier, challenge } = pkcePair();
    const q = authorizeQuery({ code_challenge: challenge, state: 's<1>' });
    const page = await fetch(`${api.sandbox.url}/oidc/authorize?${q}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(!/<script/i.test(html), 'no script');
    assert.ok(html.includes('Sign in as the demo user'));
    assert.ok(html.includes('s&#60;1&#62;'), 'state is escaped');
    assert.ok(html.includes(`name="code_challenge" value="${challenge}"`));
    assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' http:\/\/localhost:5173/);

    // A redirect_uri with a query keeps it (RFC 6749 §3.1.2); the answer is in the query, never a fragment.
    const withQuery = `${REDIRECT}?tab=1`;
    const { status, location } = await authorize(authorizeQuery({ code_challenge: challenge, state: 's<1>', redirect_uri: withQuery }));
    assert.equal(status, 303);
    assert.equal(`${location!.origin}${location!.pathname}`, REDIRECT);
    assert.equal(location!.hash, '');
    assert.equal(location!.searchParams.get('tab'), '1');
    assert.equal(location!.searchParams.get('state'), 's<1>');
    assert.equal(location!.searchParams.get('iss'), api.fx.oidcIssuer);
    assert.equal(location!.searchParams.get('id_token'), null, 'no token in the browser history');
    const code = location!.searchParams.get('code')!;
    assert.match(code, /^[A-Za-z0-9_-]{43}$/);

    const r = await exchange(code, verifier, { redirect_uri: withQuery });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // OpenID Connect Core 1.0 §3.1.3.3: access_token and token_type are required in a successful answer.
    assert.deepEqual(Object.keys(r.body).sort(), ['access_token', 'expires_in', 'id_token', 'token_type']);
    assert.match(r.body.access_token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(r.body.token_type, 'Bearer');
    assert.equal(r.body.expires_in, 600);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.headers.get('pragma'), 'no-cache');
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    const claims = claimsOf(r.body.id_token);
    assert.equal(claims.nonce, 'nonce-1');
    assert.equal(claims.iss, api.fx.oidcIssuer);
    assert.equal(claims.aud, SANDBOX_OIDC_CLIENT_ID);
    assert.equal(claims.iat, Math.floor(now / 1000));
  });

  test('an ID token from the code flow logs in an OAUTH credential end to end', async () => {
    const acct = await api.newAccount();
    const email = await api.otpLogin(acct.emailCredentialId);
    const first = await codeFor({ nonce: 'register' });
    const reg = await exchange(first.code, first.verifier);
    const created = await api.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: acct.accountId, oidcToken: reg.body.id_token }, email.key);
    assert.equal(created.status, 201, created.text);
  });

  test('authorize with response_type=code refuses a missing challenge, plain, no method and a malformed challenge, redirecting invalid_request', async () => {
    const { challenge } = pkcePair();
    for (const overrides of [
      { code_challenge: undefined },
      { code_challenge: challenge, code_challenge_method: 'plain' },
      { code_challenge: challenge, code_challenge_method: undefined },
      { code_challenge: challenge, code_challenge_method: 's256' },
      { code_challenge: 'short' },
      { code_challenge: `${challenge.slice(0, 42)}=` },
    ] as Array<Record<string, string | undefined>>) {
      for (const send of ['GET', 'POST']) {
        const q = authorizeQuery(overrides);
        const r = send === 'GET' ? await fetch(`${api.sandbox.url}/oidc/authorize?${q}`, { redirect: 'manual' }) : await fetch(`${api.sandbox.url}/oidc/authorize`, { method: 'POST', body: q, redirect: 'manual' });
        assert.equal(r.status, 303, `${send} ${q}`);
        const location = new URL(r.headers.get('location')!);
        assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
        assert.equal(location.searchParams.get('error'), 'invalid_request', `${send} ${q}`);
        assert.equal(location.searchParams.get('state'), 'state-1');
        assert.equal(location.searchParams.get('code'), null);
      }
    }
  });

  test('authorize issues ID tokens to OpenID requests only: a scope missing, without openid or repeated is refused with invalid_scope (RFC 6749 §3.3, §4.1.2.1; OpenID Connect Core 1.0 §3.1.2.2)', async () => {
    const { challenge } = pkcePair();
    const twice = authorizeQuery({ code_challenge: challenge });
    twice.append('scope', 'openid');
    for (const q of [
      authorizeQuery({ code_challenge: challenge, scope: undefined }),
      authorizeQuery({ code_challenge: challenge, scope: '' }),
      authorizeQuery({ code_challenge: challenge, scope: 'email' }),
      authorizeQuery({ code_challenge: challenge, scope: 'openidemail' }),
      twice,
    ]) {
      for (const send of ['GET', 'POST']) {
        const r = send === 'GET' ? await fetch(`${api.sandbox.url}/oidc/authorize?${q}`, { redirect: 'manual' }) : await fetch(`${api.sandbox.url}/oidc/authorize`, { method: 'POST', body: q, redirect: 'manual' });
        assert.equal(r.status, 303, `${send} ${q}`);
        const location = new URL(r.headers.get('location')!);
        assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
        assert.equal(location.searchParams.get('error'), 'invalid_scope', `${send} ${q}`);
        assert.equal(location.searchParams.get('state'), 'state-1');
        assert.equal(location.searchParams.get('code'), null);
      }
    }
    // The sign-in form posts back the scope it was asked (openid among others, in any order), and gets a code.
    const page = await fetch(`${api.sandbox.url}/oidc/authorize?${authorizeQuery({ code_challenge: challenge, scope: 'email openid' })}`);
    assert.equal(page.status, 200);
    const fields = new URLSearchParams();
    for (const m of (await page.text()).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields.append(m[1]!, m[2]!);
    assert.equal(fields.get('scope'), 'email openid');
    const posted = await authorize(fields);
    assert.equal(posted.status, 303);
    assert.ok(posted.location!.searchParams.get('code'), `a code in ${posted.location}`);
  });

  test('authorize refuses the implicit flow (unsupported_response_type) and never redirects to a foreign or malformed redirect_uri', async () => {
    const { challenge } = pkcePair();
    const implicit = await fetch(`${api.sandbox.url}/oidc/authorize?${authorizeQuery({ response_type: 'id_token', code_challenge: challenge })}`, { redirect: 'manual' });
    assert.equal(implicit.status, 303);
    assert.equal(new URL(implicit.headers.get('location')!).searchParams.get('error'), 'unsupported_response_type');
    for (const redirect_uri of ['https://evil.example/cb', 'not a url', `${REDIRECT}#frag`, undefined]) {
      const q = authorizeQuery({ code_challenge: challenge, redirect_uri });
      const get = await fetch(`${api.sandbox.url}/oidc/authorize?${q}`, { redirect: 'manual' });
      assert.equal(get.status, 400, String(redirect_uri));
      assert.equal(get.headers.get('location'), null);
      const post = await authorize(q);
      assert.equal(post.status, 400);
      assert.equal(post.location, null);
    }
  });

  test('the code flow needs a client_id (else a page, no redirect: RFC 6749 §4.1.2.1); a nonce is optional, echoed when sent (OIDC Core §3.1.2.1)', async () => {
    const { challenge } = pkcePair();
    const noClient = await authorize(authorizeQuery({ code_challenge: challenge, client_id: undefined }));
    assert.equal(noClient.status, 400);
    assert.equal(noClient.location, null);
    // The authorize page carries no nonce field when none was sent.
    const page = await fetch(`${api.sandbox.url}/oidc/authorize?${authorizeQuery({ code_challenge: challenge, nonce: undefined })}`, { redirect: 'manual' });
    assert.equal(page.status, 200, `${page.headers.get('location')}`);
    assert.ok(!(await page.text()).includes('name="nonce"'), 'no nonce field');
    for (const nonce of [undefined, '']) {
      const a = await codeFor({ nonce });
      const r = await exchange(a.code, a.verifier);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(!('nonce' in claimsOf(r.body.id_token)), `no nonce claim for ${JSON.stringify(nonce)}`);
    }
    const b = await codeFor({ nonce: 'n-echo' });
    assert.equal(claimsOf((await exchange(b.code, b.verifier)).body.id_token).nonce, 'n-echo');
    // Still: once, and bounded.
    const twice = authorizeQuery({ code_challenge: challenge });
    twice.append('nonce', 'again');
    for (const q of [twice, authorizeQuery({ code_challenge: challenge, nonce: 'n'.repeat(513) })]) {
      const r = await authorize(q);
      assert.equal(r.status, 303);
      assert.equal(r.location!.searchParams.get('error'), 'invalid_request');
      assert.equal(r.location!.searchParams.get('iss'), api.fx.oidcIssuer);
    }
  });

  test('the sign-in page offers Cancel: declining answers access_denied with the state and iss, and no code (RFC 6749 §4.1.2.1)', async () => {
    const { challenge } = pkcePair();
    const html = await (await fetch(`${api.sandbox.url}/oidc/authorize?${authorizeQuery({ code_challenge: challenge })}`)).text();
    assert.ok(html.includes('<button type="submit" name="deny" value="1">Cancel</button>'), 'a Cancel button in the form');
    const q = authorizeQuery({ code_challenge: challenge });
    q.set('deny', '1');
    const { status, location } = await authorize(q);
    assert.equal(status, 303);
    assert.equal(`${location!.origin}${location!.pathname}`, REDIRECT);
    assert.equal(location!.searchParams.get('error'), 'access_denied');
    assert.equal(location!.searchParams.get('state'), 'state-1');
    assert.equal(location!.searchParams.get('iss'), api.fx.oidcIssuer);
    assert.equal(location!.searchParams.get('code'), null);
  });

  test('token: the S256 check compares the encoded hash with the challenge as strings (RFC 7636 §4.6)', async () => {
    // The 43rd character of a challenge carries 4 bits of the digest and 2 spare bits: a challenge
    // differing there only in the spare bits decodes to the same digest but is another string.
    const { verifier, challenge } = pkcePair();
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = challenge.slice(0, 42) + last[last.indexOf(challenge[42]!) ^ 1];
    assert.deepEqual(Buffer.from(twin, 'base64url'), Buffer.from(challenge, 'base64url'));
    const { location } = await authorize(authorizeQuery({ code_challenge: twin }));
    const code = location!.searchParams.get('code');
    assert.ok(code, `a code in ${location}`);
    assertOAuthError(await exchange(code, verifier), 'invalid_grant');
  });

  test('token: the verifier must hash to the challenge (invalid_grant), and must be well formed (invalid_request)', async () => {
    const a = await codeFor();
    const other = pkcePair();
    assertOAuthError(await exchange(a.code, other.verifier), 'invalid_grant');
    const b = await codeFor();
    // A `plain` downgrade: the challenge itself presented as the verifier.
    const challengeOfB = createHash('sha256').update(b.verifier, 'ascii').digest('base64url');
    assertOAuthError(await exchange(b.code, challengeOfB), 'invalid_grant');
    const c = await codeFor();
    assertOAuthError(await exchange(c.code, undefined as unknown as string), 'invalid_request');
    const d = await codeFor();
    assertOAuthError(await exchange(d.code, 'too-short'), 'invalid_request');
  });

  test('token: client_id and redirect_uri must be the ones of the authorization request, exactly', async () => {
    const a = await codeFor();
    assertOAuthError(await exchange(a.code, a.verifier, { client_id: 'another-client' }), 'invalid_grant');
    const b = await codeFor();
    assertOAuthError(await exchange(b.code, b.verifier, { client_id: undefined }), 'invalid_request');
    for (const redirect_uri of [`${REDIRECT}/`, 'http://LOCALHOST:5173/cb', `${REDIRECT}?x=1`, 'http://localhost:5173/cb2']) {
      const c = await codeFor();
      assertOAuthError(await exchange(c.code, c.verifier, { redirect_uri }), 'invalid_grant');
    }
    const d = await codeFor();
    assertOAuthError(await exchange(d.code, d.verifier, { redirect_uri: undefined }), 'invalid_request');
  });

  test('token: a code is good once; a refused attempt uses it up too', async () => {
    const a = await codeFor();
    assert.equal((await exchange(a.code, a.verifier)).status, 200);
    assertOAuthError(await exchange(a.code, a.verifier), 'invalid_grant');
    const b = await codeFor();
    assertOAuthError(await exchange(b.code, pkcePair().verifier), 'invalid_grant');
    assertOAuthError(await exchange(b.code, b.verifier), 'invalid_grant');
    assertOAuthError(await exchange('no-such-code-no-such-code-no-such-code-0000', a.verifier), 'invalid_grant');
  });

  test('token: a code expires 60 s after it was issued', async () => {
    const a = await codeFor();
    now += 60_000;
    assert.equal((await exchange(a.code, a.verifier)).status, 200, 'still good at 60 s');
    const b = await codeFor();
    now += 60_001;
    assertOAuthError(await exchange(b.code, b.verifier), 'invalid_grant');
  });

  test('token: the grant type must be authorization_code, parameters appear once', async () => {
    const a = await codeFor();
    assertOAuthError(await token({ code: a.code, redirect_uri: REDIRECT, client_id: SANDBOX_OIDC_CLIENT_ID, code_verifier: a.verifier }), 'invalid_request');
    const b = await codeFor();
    const other = await token({ grant_type: 'refresh_token', refresh_token: 'x', client_id: SANDBOX_OIDC_CLIENT_ID });
    assertOAuthError(other, 'unsupported_grant_type');
    const repeated = new URLSearchParams({ grant_type: 'authorization_code', code: b.code, redirect_uri: REDIRECT, client_id: SANDBOX_OIDC_CLIENT_ID, code_verifier: b.verifier });
    repeated.append('code', b.code);
    const r = await fetch(`${api.sandbox.url}/oidc/token`, { method: 'POST', body: repeated });
    assert.equal(r.status, 400);
    assert.equal(((await r.json()) as { error: string }).error, 'invalid_request');
  });

  test('the JSON token request for scripts and tests still answers', async () => {
    const r = await api.call('POST', '/oidc/token', { outside: true, auth: 'none', body: { nonce: 'script' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(claimsOf(r.body.id_token).nonce, 'script');
  });

  test('the JSON token request answers a whole token response: an access_token with its token_type, never cached (RFC 6749 §5.1, OpenID Connect Core 1.0 §3.1.3.3)', async () => {
    const r = await api.call('POST', '/oidc/token', { outside: true, auth: 'none', body: { nonce: 'script' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.token_type, 'Bearer');
    assert.equal(typeof r.body.access_token, 'string');
    assert.ok(r.body.access_token.length >= 32, 'a random access token');
    assert.ok(Number.isInteger(r.body.expires_in) && r.body.expires_in > 0);
    assert.equal(typeof r.body.id_token, 'string');
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.headers.get('pragma'), 'no-cache');
    const again = await api.call('POST', '/oidc/token', { outside: true, auth: 'none', body: { nonce: 'script' } });
    assert.notEqual(again.body.access_token, r.body.access_token);
  });
});
