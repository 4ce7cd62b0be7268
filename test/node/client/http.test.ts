/**
 * The client's HTTP layer and shape checks against a real HTTP server on loopback: how answers map
 * to ServiceError / WalletError (src/core/client.ts header), and what goes out on the wire.
 */
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { createClient } from '../../../src/core/client.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import { serviceNow } from '../../../src/core/clock.ts';
import { startScriptedServer, type ScriptedServer } from './scripted-server.ts';

async function walletError(p: Promise<unknown>, code: string): Promise<WalletError> {
  const e = await p.then(
    () => assert.fail('expected a rejection'),
    (x: unknown) => x,
  );
  assert.ok(e instanceof WalletError, `expected WalletError(${code}), got ${String(e)}`);
  assert.equal(e.code, code);
  return e;
}

/** A `<Type>:<uuid>` id (api.md "Identifiers"), numbered. */
const id = (type: string, n: number): string => `${type}:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const session = (over: Record<string, unknown> = {}) => ({
  id: 'Session:6b3c5c8e-7a43-4a77-9bd8-2f0f2a1f7c11',
  accountId: 'InternalAccount:6b3c5c8e-7a43-4a77-9bd8-2f0f2a1f7c12',
  type: 'OAUTH',
  nickname: 'a@b.c',
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 900_000).toISOString(),
  ...over,
});

describe('client HTTP layer', () => {
  let server: ScriptedServer;
  before(async () => {
    server = await startScriptedServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('maps an error body to ServiceError with status, code, message, details and Retry-After', async () => {
    server.setScript(() => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { status: 429, code: 'RATE_LIMITED', message: 'Slow down.', details: { limit: 5 } },
    }));
    const client = createClient({ baseUrl: server.url });
    const e = await client.listCredentials('InternalAccount:x').catch((x: unknown) => x);
    assert.ok(e instanceof ServiceError);
    assert.equal(e.status, 429);
    assert.equal(e.code, 'RATE_LIMITED');
    assert.equal(e.message, 'Slow down.');
    assert.deepEqual(e.details, { limit: 5 });
    assert.equal(e.retryAfter, 7);
  });

  it('keeps the HTTP status when an error answer has no error body', async () => {
    server.setScript(() => ({ status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } }));
    const e = await createClient({ baseUrl: server.url }).getDelegatedKey(id('DelegatedKey', 1)).catch((x: unknown) => x);
    assert.ok(e instanceof ServiceError);
    assert.equal(e.status, 502);
    assert.ok(!e.message.includes('<html>'));
  });

  it('reads an HTTP-date Retry-After as seconds from now', async () => {
    server.setScript(() => ({
      status: 503,
      headers: { 'retry-after': new Date(Date.now() + 30_000).toUTCString() },
      body: { status: 503, code: 'UNAVAILABLE', message: 'Later.' },
    }));
    const e = (await createClient({ baseUrl: server.url }).listSessions('InternalAccount:x').catch((x: unknown) => x)) as ServiceError;
    assert.ok(e.retryAfter !== undefined && e.retryAfter >= 28 && e.retryAfter <= 31, String(e.retryAfter));
  });

  it("takes the service's clock from each answer's Date header (expiry times are on it); under 5 s off counts as none", async () => {
    const client = createClient({ baseUrl: server.url });
    // The service's clock less this machine's, read within one millisecond (two reads of the clock
    // that straddle a tick would say -1 ms off).
    const offsetNow = (): number => {
      for (;;) {
        const t = Date.now();
        const s = serviceNow();
        if (Date.now() === t) return s - t;
      }
    };
    const answerDated = async (offsetMs?: number) => {
      // No date given: Node's server writes its own, this machine's clock.
      server.setScript(() => ({ status: 200, headers: offsetMs === undefined ? {} : ({ date: new Date(Date.now() + offsetMs).toUTCString() } as Record<string, string>), body: { data: [] } }));
      await client.listSessions(id('InternalAccount', 1));
      return offsetNow();
    };
    try {
      // The header has whole seconds: the guess is the middle of the second, within a second.
      assert.ok(Math.abs((await answerDated(-600_000)) + 600_000) <= 1000);
      assert.ok(Math.abs((await answerDated(120_000)) - 120_000) <= 1000);
      assert.equal(await answerDated(3_000), 0);
      assert.ok(Math.abs((await answerDated(-60_000)) + 60_000) <= 1000);
      // A Date header that does not parse changes nothing.
      server.setScript(() => ({ status: 200, headers: { date: 'yesterday' }, body: { data: [] } }));
      await client.listSessions(id('InternalAccount', 1));
      assert.ok(Math.abs(offsetNow() + 60_000) <= 1000);
    } finally {
      assert.equal(await answerDated(), 0);
    }
  });

  it('says network when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    await walletError(createClient({ baseUrl: `http://127.0.0.1:${port}/api` }).listCredentials('InternalAccount:x'), 'network');
  });

  it('says aborted when the signal aborts a slow answer', async () => {
    server.setScript(() => ({ status: 200, body: { data: [] }, delayMs: 2000 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await walletError(createClient({ baseUrl: server.url }).listCredentials('InternalAccount:x', { signal: controller.signal }), 'aborted');
    assert.ok(Date.now() - started < 1500);
  });

  it('says network when the answer does not come within timeoutMs', async () => {
    server.setScript(() => ({ status: 200, body: { data: [] }, delayMs: 1500 }));
    const started = Date.now();
    const e = await walletError(createClient({ baseUrl: server.url, timeoutMs: 100 }).listCredentials('InternalAccount:x'), 'network');
    assert.match(e.message, /did not answer/);
    assert.ok(Date.now() - started < 1000);
  });

  it('says misconfigured, naming the base, for an answer below 500 that is not the service\'s JSON, with one console warning per page', async (t) => {
    // What a page's own server answers where no proxy is mounted: its 404 or 405 page, an app's
    // index.html with 200, or JSON of another kind. The proxy answers JSON only, errors in the service's shape.
    const warn = t.mock.method(console, 'warn', () => undefined);
    const base = `${server.url}/not-the-proxy`;
    const client = createClient({ baseUrl: base });
    const answers = [
      { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } },
      { status: 405, body: '' },
      { status: 200, body: '<!doctype html><title>Shop</title>', headers: { 'content-type': 'text/html' } },
      { status: 404, body: { error: 'Not Found' } },
      { status: 401, body: '<html>Log in</html>', headers: { 'content-type': 'text/html' } },
    ];
    for (const answer of answers) {
      server.setScript(() => answer);
      const e = await walletError(client.listCredentials('InternalAccount:x'), 'misconfigured');
      assert.ok(e.message.includes(`not at ${base} (apiBase):`), e.message);
      assert.ok(e.message.includes(` ${answer.status} `) && !e.message.includes('<'), e.message);
    }
    assert.equal(warn.mock.callCount(), 1);
    assert.ok(String(warn.mock.calls[0]!.arguments[0]).includes(base));
    // A 5xx or a 429 without an error body may come from something between the page and the proxy.
    for (const status of [429, 502]) {
      server.setScript(() => ({ status, body: '<html>busy</html>', headers: { 'content-type': 'text/html', 'retry-after': '3' } }));
      const e = await client.listCredentials('InternalAccount:x').catch((x: unknown) => x);
      assert.ok(e instanceof ServiceError && e.status === status && e.retryAfter === 3, String(e));
    }
    assert.equal(warn.mock.callCount(), 1);
  });

  it('says unexpected_response for a 2xx of JSON not of the documented shape', async () => {
    const client = createClient({ baseUrl: server.url });
    server.setScript(() => ({ status: 200, body: { items: [] } }));
    await walletError(client.listCredentials('InternalAccount:x'), 'unexpected_response');
    server.setScript(() => ({ status: 200, body: session({ encryptedSessionSigningKey: undefined }) }));
    await walletError(
      client.verifyOAuth(id('AuthMethod', 1), { oidcToken: 'a.b.c', clientPublicKey: '04' + 'a'.repeat(128) }),
      'unexpected_response',
    );
    server.setScript(() => ({ status: 200, body: session({ id: id('AuthMethod', 1), encryptedSessionSigningKey: 'x' }) }));
    await walletError(
      client.verifyOAuth(id('AuthMethod', 1), { oidcToken: 'a.b.c', clientPublicKey: '04' + 'a'.repeat(128) }),
      'unexpected_response',
    );
    server.setScript(() => ({ status: 200, body: { data: [], hasMore: true } }));
    await walletError(client.listAgentActions({ agentToken: 't' }), 'unexpected_response');
    server.setScript(() => ({ status: 200, body: { panEmbedUrl: 'not a url', expiresAt: new Date().toISOString() } }));
    await walletError(client.revealCard(id('Card', 1)), 'unexpected_response');
  });

  it('sends ids as path segments with their colon, the agent token as Bearer, and bodyless writes marked', async () => {
    server.setScript((req) =>
      req.path.startsWith('/api/agents')
        ? { status: 200, body: { data: [], hasMore: false, totalCount: 0 } }
        : { status: 204 },
    );
    const client = createClient({ baseUrl: server.url + '/api/', headers: { 'X-Custom': '1' } });
    await client.revokeDelegatedKey(id('DelegatedKey', 0x1f0e));
    await client.listAgentActions({ agentToken: 'tok-123', status: 'APPROVED', limit: 5, cursor: 'c/+=' });
    const [del, list] = server.requests;
    assert.equal(del!.method, 'DELETE');
    assert.equal(del!.path, `/api/auth/delegated-keys/${id('DelegatedKey', 0x1f0e)}`);
    assert.equal(del!.headers['x-requested-with'], 'wallet-elements');
    assert.equal(del!.headers['x-custom'], '1');
    assert.equal(del!.headers.authorization, undefined);
    assert.equal(list!.path, '/api/agents/me/actions?status=APPROVED&limit=5&cursor=c%2F%2B%3D');
    assert.equal(list!.headers.authorization, 'Bearer tok-123');
  });

  it('refuses a path id that is not a <Type>:<uuid> of its type, before any request', async () => {
    const client = createClient({ baseUrl: server.url });
    server.setScript(() => ({ status: 200, body: {} }));
    // `..` would be resolved away by the URL (GET /auth/), a slash or a query would name another
    // route, another type's id another resource.
    const bad = ['..', '../cards/Card:1', `${id('DelegatedKey', 1)}/x`, `${id('DelegatedKey', 1)}?a=1`, 'DelegatedKey:1', id('Card', 1), '', 42];
    for (const v of bad) {
      const e = await walletError(client.getDelegatedKey(v as string), 'invalid_argument');
      assert.match(e.message, /^id must be a DelegatedKey:<uuid> id\.$/);
    }
    await walletError(client.revealCard('..'), 'invalid_argument');
    await walletError(client.getAgentAction('..', { agentToken: 't' }), 'invalid_argument');
    assert.deepEqual(server.requests, []);
  });

  it('iterates agent actions over cursor pages and refuses a cursor loop', async () => {
    const action = (n: number) => ({
      id: id('AgentAction', n),
      agentId: id('Agent', 1),
      customerId: id('Customer', 1),
      platformCustomerId: 'p',
      status: 'PENDING_APPROVAL',
      type: 'EXECUTE_QUOTE',
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    });
    server.setScript((req) => {
      const cursor = new URL(req.path, 'http://x').searchParams.get('cursor');
      if (!cursor) return { status: 200, body: { data: [action(1), action(2)], hasMore: true, nextCursor: 'p2', totalCount: 3 } };
      return { status: 200, body: { data: [action(3)], hasMore: false, totalCount: 3 } };
    });
    const client = createClient({ baseUrl: server.url });
    const ids: string[] = [];
    for await (const a of client.iterateAgentActions({ agentToken: 't', limit: 2 })) ids.push(a.id);
    assert.deepEqual(ids, [1, 2, 3].map((n) => id('AgentAction', n)));

    server.setScript(() => ({ status: 200, body: { data: [action(1)], hasMore: true, nextCursor: 'same' } }));
    const loop = (async () => {
      for await (const _ of client.iterateAgentActions({ agentToken: 't' })) void _;
    })();
    await walletError(loop, 'unexpected_response');
  });
});
