// The sandbox's HTTP surface (api.md "Authentication", "Errors"; reference.md "Shared shapes"):
// auth on every route, the error shape, unknown routes, body limits, id validation, and the test
// controls (fixtures, clock, fresh accounts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Api, assertAuthMethod, assertAuthSession, assertDelegatedKey, assertError, assertFieldError, idOf, withSandbox } from './helpers.ts';
import { outsideRoutes, serviceRoutes } from './routes.ts';

let api: Api;

before(async () => {
  api = await withSandbox();
});
after(() => api.sandbox.close());

describe('authentication', () => {
  test('every platform route answers 401 UNAUTHORIZED without Basic, with a wrong secret, or with a Bearer token', async () => {
    const bad = [
      'none',
      { raw: 'Basic ' + Buffer.from(`${api.fx.tokenId}:nope`).toString('base64') },
      { raw: 'Basic ' + Buffer.from(`${api.fx.tokenId}`).toString('base64') },
      { raw: 'Basic !!!' },
      { bearer: api.fx.agentToken },
    ] as const;
    for (const route of [...serviceRoutes(api.fx), ...outsideRoutes(api.fx)].filter((r) => r.auth === 'basic')) {
      for (const auth of bad) {
        const r = await api.call(route.method, route.path, { auth, body: route.method === 'GET' ? undefined : {}, outside: route.outside });
        assertError(r, 401, 'UNAUTHORIZED');
      }
    }
  });

  test('agent routes need the Bearer token', async () => {
    for (const route of serviceRoutes(api.fx).filter((r) => r.auth === 'agent')) {
      assertError(await api.call(route.method, route.path, { auth: 'basic' }), 401, 'UNAUTHORIZED');
      assertError(await api.call(route.method, route.path, { auth: { raw: `Bearer ${api.fx.agentToken}x` } }), 401, 'UNAUTHORIZED');
    }
  });

  test('the impersonation pair passes Basic auth (and is refused only by card reveal)', async () => {
    const r = await api.call('GET', `/auth/credentials?accountId=${api.fx.accountId}`, { auth: 'impersonation' });
    assert.equal(r.status, 200);
    assertError(await api.call('POST', `/cards/${api.fx.cardId}/reveal`, { auth: 'impersonation' }), 403, 'FORBIDDEN');
  });
});

describe('errors and input', () => {
  test('unknown routes: 404 NOT_FOUND in the error shape; wrong method: 405 with Allow', async () => {
    assertError(await api.call('GET', '/nope'), 404, 'NOT_FOUND');
    assertError(await api.call('GET', '/auth/credentials/x/y/z'), 404, 'NOT_FOUND');
    assertError(await api.call('GET', '/nope', { outside: true }), 404, 'NOT_FOUND');
    assertError(await api.call('GET', '/2025-01-01/auth/credentials', { outside: true }), 404, 'NOT_FOUND');
    const r = await api.call('PUT', '/auth/credentials');
    assertError(r, 405, 'METHOD_NOT_ALLOWED');
    assert.match(r.headers.get('allow') ?? '', /POST/);
  });

  test('malformed JSON and non-object bodies: 400 INVALID_INPUT', async () => {
    for (const body of ['{', 'null', '[]', '"s"', '12', '{"type":']) {
      assertFieldError(await api.call('POST', '/auth/credentials', { body }), 'body');
    }
    assertFieldError(await api.call('POST', '/auth/delegated-keys', { body: '' }), 'body');
  });

  test('wrong types are 400 with every field named', async () => {
    const r = await api.call('POST', '/auth/delegated-keys', { body: { cardId: 1, internalAccountId: true, nickname: [] } });
    assertError(r, 400, 'INVALID_INPUT');
    assert.deepEqual(r.body.details.errors.map((e: { field: string }) => e.field).sort(), ['cardId', 'internalAccountId', 'nickname']);
  });

  test('bodies over 64 KiB: 413, declared or streamed', async () => {
    const big = JSON.stringify({ nickname: 'x'.repeat(70 * 1024) });
    assertError(await api.call('POST', '/auth/delegated-keys', { body: big }), 413);
    // Chunked, no Content-Length.
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(`${api.fx.baseUrl}/auth/delegated-keys`);
      const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { authorization: api.authHeader('basic')!, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      for (let i = 0; i < 80; i++) req.write('x'.repeat(1024));
      req.end();
    });
    assert.equal(status, 413);
    // Still serving.
    assert.equal((await api.call('GET', '/sandbox/fixtures', { outside: true })).status, 200);
  });

  test('path ids are validated as <Type>:<uuid>, also when percent-encoded', async () => {
    assertFieldError(await api.call('GET', '/auth/delegated-keys/123'), 'id');
    assertFieldError(await api.call('GET', '/auth/delegated-keys/DelegatedKey:123'), 'id');
    assertFieldError(await api.call('GET', '/customers/Card:00000000-0000-4000-8000-000000000000'), 'id');
    const encoded = await api.call('GET', `/customers/${encodeURIComponent(api.fx.customerId)}`);
    assert.equal(encoded.status, 200);
    assert.equal(encoded.body.id, api.fx.customerId);
  });

  test('a path that starts with // does not become an authority', async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const u = new URL(api.sandbox.url);
      const req = request({ host: u.hostname, port: u.port, path: '//evil.example/sandbox/fixtures', method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(r, 404);
  });
});

describe('test controls', () => {
  test('GET /sandbox/fixtures is the fixtures object', async () => {
    const r = await api.call('GET', '/sandbox/fixtures', { outside: true });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, api.fx);
    assert.deepEqual(Object.keys(r.body), ['baseUrl', 'tokenId', 'clientSecret', 'impersonation', 'signerPublicKey', 'processorOrigin', 'oidcIssuer', 'customerId', 'accountId', 'emailCredentialId', 'cardId', 'agentId', 'agentToken']);
    assert.equal(new URL(api.fx.baseUrl).pathname.split('/').at(-1), '2025-10-13');
    assert.match(api.fx.customerId, idOf('Customer'));
    assert.match(api.fx.accountId, idOf('InternalAccount'));
    assert.match(api.fx.emailCredentialId, idOf('AuthMethod'));
    assert.match(api.fx.cardId, idOf('Card'));
    assert.match(api.fx.agentId, idOf('Agent'));
    // The seeded account really has its EMAIL_OTP credential, reachable as described.
    const creds = await api.call('GET', `/auth/credentials?accountId=${api.fx.accountId}`);
    assert.deepEqual(creds.body.data.map((c: { id: string; type: string }) => [c.id, c.type]), [[api.fx.emailCredentialId, 'EMAIL_OTP']]);
  });

  test('POST /sandbox/clock advances the clock; bad values 400', async () => {
    const before = (await api.call('GET', '/sandbox/clock', { outside: true })).body.nowMs;
    const r = await api.call('POST', '/sandbox/clock', { outside: true, body: { advanceMs: 3_600_000 } });
    assert.equal(r.status, 200);
    assert.ok(r.body.nowMs - before >= 3_600_000 && r.body.nowMs - before < 3_700_000);
    assert.ok(api.sandbox.clock.now() - Date.now() >= 3_600_000 - 1000);
    for (const advanceMs of [-1, 1.5, '10', null]) assertFieldError(await api.call('POST', '/sandbox/clock', { outside: true, body: { advanceMs } }), 'advanceMs');
  });

  test('the clock control is refused when the test clock is off', async () => {
    const locked = await withSandbox({ testClock: false });
    try {
      assertError(await locked.call('POST', '/sandbox/clock', { outside: true, body: { advanceMs: 1 } }), 403, 'FORBIDDEN');
    } finally {
      await locked.sandbox.close();
    }
  });

  test('POST /sandbox/accounts makes independent customer sets', async () => {
    const a = await api.newAccount();
    const b = await api.newAccount({ email: 'b@example.com', phone: '+4915112345678' });
    for (const k of ['customerId', 'accountId', 'emailCredentialId', 'cardId', 'fundingSourceId', 'agentId', 'agentToken'] as const) assert.notEqual(a[k], b[k]);
    assert.match(b.fundingSourceId, idOf('CardFundingSource'));
    const customer = await api.call('GET', `/customers/${b.customerId}`);
    assert.equal(customer.body.email, 'b@example.com');
    assert.equal(customer.body.phone, '+4915112345678');
    assertFieldError(await api.call('POST', '/sandbox/accounts', { outside: true, body: { email: 'nope' } }), 'email');
    assertFieldError(await api.call('POST', '/sandbox/accounts', { outside: true, body: { actions: 10001 } }), 'actions');
    const none = await api.newAccount({ actions: 0 });
    const list = await api.call('GET', '/agents/me/actions', { auth: { bearer: none.agentToken } });
    assert.equal(list.body.totalCount, 0);
    assert.deepEqual(list.body.data, []);
    assert.equal(list.body.hasMore, false);
  });

  test('POST /sandbox/accounts seeds long lists of passkeys, sessions and delegated keys in the service\'s shapes', async () => {
    for (const field of ['passkeys', 'sessions', 'delegatedKeys']) {
      assertFieldError(await api.call('POST', '/sandbox/accounts', { outside: true, body: { [field]: 10001 } }), field);
      assertFieldError(await api.call('POST', '/sandbox/accounts', { outside: true, body: { [field]: -1 } }), field);
    }
    const a = await api.newAccount({ passkeys: 300, sessions: 400, delegatedKeys: 500 });
    const credentials = (await api.call('GET', `/auth/credentials?accountId=${a.accountId}`)).body.data;
    assert.equal(credentials.length, 301);
    credentials.forEach(assertAuthMethod);
    assert.equal(credentials.filter((c: { type: string }) => c.type === 'PASSKEY').length, 300);
    assert.equal(new Set(credentials.map((c: { credentialId?: string }) => c.credentialId)).size, 301);
    const sessions = (await api.call('GET', `/auth/sessions?accountId=${a.accountId}`)).body.data;
    assert.equal(sessions.length, 400);
    for (const s of sessions) {
      assertAuthSession(s);
      const c = credentials.find((c: { type: string; nickname: string }) => c.type === s.type && c.nickname === s.nickname);
      assert.ok(c && c.credentialId === s.credentialId, 'a session carries its credential\'s type, nickname and credentialId');
      assert.ok(Date.parse(s.expiresAt) > api.sandbox.clock.now() + 10 * 60 * 1000);
    }
    const keys = (await api.call('GET', `/auth/delegated-keys?fundingSourceId=${a.fundingSourceId}`)).body.data;
    assert.equal(keys.length, 500);
    keys.forEach(assertDelegatedKey);
    assert.deepEqual(keys.filter((k: { status: string }) => k.status === 'ACTIVE').map((k: { nickname: string }) => k.nickname), ['Key 500']);
    assert.ok(keys.every((k: { cardId: string; accountId: string }) => k.cardId === a.cardId && k.accountId === a.accountId));
    assert.equal(new Set(keys.map((k: { publicKey: string }) => k.publicKey)).size, 500);
    // The ACTIVE one is a key of the card like one made through the API: it can be revoked.
    const active = keys.find((k: { status: string }) => k.status === 'ACTIVE');
    assert.equal((await api.call('DELETE', `/auth/delegated-keys/${active.id}`)).status, 204);
    // None by default.
    const plain = await api.newAccount();
    assert.equal((await api.call('GET', `/auth/credentials?accountId=${plain.accountId}`)).body.data.length, 1);
    assert.deepEqual((await api.call('GET', `/auth/sessions?accountId=${plain.accountId}`)).body.data, []);
    assert.deepEqual((await api.call('GET', `/auth/delegated-keys?accountId=${plain.accountId}`)).body.data, []);
  });

  test('the seed makes the generated data reproducible', async () => {
    const s1 = await withSandbox({ seed: 7 });
    const s2 = await withSandbox({ seed: 7 });
    try {
      assert.equal(s1.fx.customerId, s2.fx.customerId);
      assert.equal(s1.fx.cardId, s2.fx.cardId);
      assert.notEqual(s1.fx.clientSecret, s2.fx.clientSecret, 'secrets are never seeded');
      const a1 = await s1.call('GET', '/agents/me/actions?limit=100', { auth: { bearer: s1.fx.agentToken } });
      const a2 = await s2.call('GET', '/agents/me/actions?limit=100', { auth: { bearer: s2.fx.agentToken } });
      assert.deepEqual(a1.body.data.map((a: { id: string }) => a.id), a2.body.data.map((a: { id: string }) => a.id));
    } finally {
      await s1.sandbox.close();
      await s2.sandbox.close();
    }
  });

  test('options are validated', async () => {
    const { startSandbox } = await import('../../../src/sandbox/index.ts');
    await assert.rejects(startSandbox({ sessionLifetimeMs: 0 }), RangeError);
    await assert.rejects(startSandbox({ revealLifetimeMs: -5 }), RangeError);
    await assert.rejects(startSandbox({ webauthn: { origins: ['not an origin'] } }), RangeError);
  });
});
