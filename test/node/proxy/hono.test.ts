/**
 * The proxy's fetch entry mounted in Hono on Node (@hono/node-server), as the README ("In a server
 * that hands you a `Request`") says and as an integrator would, on loopback in front of the real
 * sandbox: the core client logs in over HTTP, is refused the card until it refreshed its session,
 * gets the step-up grant and reveals the card, then logs out; under a base path; per-client rate
 * limiting by the address Hono's getConnInfo gives (clients bound to 127.0.0.1 and 127.0.0.2) or
 * by the `clientIp` option; a body over the bound and a large answer; and Hono's `mount`, which
 * hands on the request without the path it is mounted at.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { mount } from 'hono/mount';
import { createProxy, type ProxyLogLine, type ProxyOptions } from '../../../src/proxy/index.ts';
import { getFrom, listen, loginAndReveal, raw, sandboxBinding, useSandbox } from './helpers.ts';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
/** The README's Hono mount, as written (one inline code span). */
const HONO_LINE = /- Hono: `(app\.all\('\/api\/\*'[^`]*)`/.exec(README)?.[1];

describe('proxy.fetch mounted in Hono on Node, in front of the sandbox', () => {
  const sandbox = useSandbox();

  /** A proxy for the sandbox's demo account with the step-up on, its log lines and onError calls kept. */
  function proxyFor(options: Partial<ProxyOptions<Request>> = {}) {
    const f = sandbox().fixtures;
    const logs: ProxyLogLine[] = [];
    const errors: unknown[] = [];
    const proxy = createProxy<Request>({
      ...sandboxBinding(sandbox()),
      stepUp: { ttlSeconds: 30 },
      logger: (line) => logs.push(line),
      onError: (error) => errors.push(error),
      ...options,
    });
    return { proxy, logs, errors };
  }

  it('the README\'s Hono line, run as written: login, step-up, card reveal and logout; the app\'s own routes stay its own', async () => {
    assert.ok(HONO_LINE, 'the README has no Hono mount');
    const { proxy, logs, errors } = proxyFor();
    const app = new Hono();
    new Function('app', 'proxy', 'getConnInfo', HONO_LINE)(app, proxy, getConnInfo);
    app.get('/health', (c) => c.json({ ok: true }));
    const server = await listen(app);
    try {
      await loginAndReveal(sandbox(), `${server.origin}/api`);
      assert.deepEqual(errors, []);
      assert.deepEqual(
        logs.filter((l) => l.route === 'revealCard').map((l) => [l.status, l.code]),
        [[403, 'STEP_UP_REQUIRED'], [200, undefined]],
      );
      assert.deepEqual(await (await fetch(`${server.origin}/health`)).json(), { ok: true });
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it('counts each client under the address getConnInfo gives: one client limited, another not', async () => {
    const { proxy, errors } = proxyFor({ rateLimit: { windowMs: 60_000, max: 2 } });
    const app = new Hono();
    app.all('/api/*', (c) => proxy.fetch(c.req.raw, { clientAddress: getConnInfo(c).remote.address }));
    const server = await listen(app);
    const list = `${server.origin}/api/auth/credentials?accountId=${encodeURIComponent(sandbox().fixtures.accountId)}`;
    try {
      assert.deepEqual([await getFrom('127.0.0.1', list), await getFrom('127.0.0.1', list), await getFrom('127.0.0.1', list)], [200, 200, 429]);
      assert.equal(await getFrom('127.0.0.2', list), 200);
      assert.deepEqual(errors, []);
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it('takes the client address from the clientIp option when the route passes none', async () => {
    // A front server of the integrator's sets X-Client-Address; a client cannot.
    const { proxy, errors } = proxyFor({
      rateLimit: { windowMs: 60_000, max: 2 },
      clientIp: (request, address) => request.headers.get('x-client-address') ?? address,
    });
    const app = new Hono();
    app.all('/api/*', (c) => proxy.fetch(c.req.raw));
    const server = await listen(app);
    const path = `/api/auth/credentials?accountId=${encodeURIComponent(sandbox().fixtures.accountId)}`;
    const from = async (client: string) => (await raw(server.port, { path, headers: { 'x-client-address': client } })).status;
    try {
      assert.deepEqual([await from('203.0.113.7'), await from('203.0.113.7'), await from('203.0.113.7')], [200, 200, 429]);
      assert.equal(await from('198.51.100.20'), 200);
      assert.deepEqual(errors, []);
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it('under a base path: Hono\'s basePath(\'/shop\') and the proxy\'s basePath \'/shop/api\'', async () => {
    const { proxy, errors } = proxyFor({ basePath: '/shop/api' });
    const app = new Hono().basePath('/shop');
    app.all('/api/*', (c) => proxy.fetch(c.req.raw, { clientAddress: getConnInfo(c).remote.address }));
    const server = await listen(app);
    try {
      await loginAndReveal(sandbox(), `${server.origin}/shop/api`);
      assert.deepEqual(errors, []);
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it('refuses a body over maxBodyBytes with 413, and relays a large answer byte for byte', async () => {
    const f = sandbox().fixtures;
    const { proxy } = proxyFor({ maxBodyBytes: 16 * 1024 });
    const app = new Hono();
    app.all('/api/*', (c) => proxy.fetch(c.req.raw, { clientAddress: getConnInfo(c).remote.address }));
    const server = await listen(app);
    try {
      const tooLarge = await raw(server.port, {
        method: 'POST',
        path: '/api/auth/credentials',
        headers: { 'content-type': 'application/json' },
        body: Buffer.alloc(64 * 1024, 0x20),
        chunked: true,
      });
      assert.equal(tooLarge.status, 413, tooLarge.text);
      assert.equal(tooLarge.json.code, 'PAYLOAD_TOO_LARGE');

      const agent = { authorization: `Bearer ${f.agentToken}` };
      const relayed = await raw(server.port, { path: '/api/agents/me/actions?limit=100', headers: agent });
      const direct = Buffer.from(await (await fetch(`${f.baseUrl}/agents/me/actions?limit=100`, { headers: agent })).arrayBuffer());
      assert.equal(relayed.status, 200);
      assert.ok(relayed.body.equals(direct), 'the relayed answer differs from the service\'s');
    } finally {
      await server.close();
      await proxy.close();
    }
  });

  it('Hono\'s mount, which strips the path it is mounted at: a 404 that says so, and the whole request with replaceRequest: false', async () => {
    const { proxy, logs } = proxyFor();
    const app = new Hono();
    app.all('/stripped/*', mount(proxy.fetch));
    app.all('/api/*', mount(proxy.fetch, { replaceRequest: false, optionHandler: (c) => ({ clientAddress: getConnInfo(c).remote.address }) }));
    const server = await listen(app);
    try {
      const stripped = await raw(server.port, { path: `/stripped/auth/credentials?accountId=${encodeURIComponent(sandbox().fixtures.accountId)}` });
      assert.equal(stripped.status, 404);
      assert.equal(stripped.json.code, 'NOT_FOUND');
      assert.match(stripped.json.message, /outside basePath \/api/);
      assert.match(logs.at(-1)!.message!, /outside basePath \/api/);
      await loginAndReveal(sandbox(), `${server.origin}/api`);
    } finally {
      await server.close();
      await proxy.close();
    }
  });
});
