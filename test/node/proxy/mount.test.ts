/**
 * Mounting the handler in a framework (proxy.ts header, "Mounting"): in Fastify through an
 * `onRequest` hook that hijacks the reply before Fastify reads the body, the body bytes still
 * arrive upstream unchanged and other routes stay Fastify's; mounted after a body parser (a route
 * handler, where Fastify has already consumed the stream) the proxy says so instead of relaying
 * an empty body. Also the connect/Express convention: `next()` for paths outside the base, and
 * `originalUrl` read when a mount point rewrote `url`.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { createProxy, type ProxyHandler } from '../../../src/proxy/index.ts';
import { CARD, CLIENT_SECRET, JSON_HEADERS, TOKEN_ID, raw, startRecorder } from './helpers.ts';

describe('mounting the proxy', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  let proxy: ProxyHandler;
  let fastify: FastifyInstance;
  let port: number;

  before(async () => {
    up = await startRecorder();
    proxy = createProxy({ upstream: up.url, tokenId: TOKEN_ID, clientSecret: CLIENT_SECRET, authorize: () => true });
    fastify = Fastify();
    fastify.addHook('onRequest', (request, reply, done) => {
      if (request.url.startsWith('/api/')) {
        reply.hijack();
        proxy(request.raw, reply.raw);
      } else done();
    });
    fastify.get('/health', async () => ({ ok: true }));
    // The mistake the proxy detects: mounted inside a route, after Fastify parsed the JSON body.
    fastify.post('/late/*', (request, reply) => {
      reply.hijack();
      request.raw.url = `/api/${(request.params as Record<string, string>)['*']}`;
      proxy(request.raw, reply.raw);
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (fastify.server.address() as AddressInfo).port;
  });
  after(async () => {
    await fastify.close();
    await proxy.close();
    await up.close();
  });

  it('relays exact body bytes through a Fastify onRequest hook and leaves other routes to Fastify', async () => {
    const body = '{"type": "EMAIL_OTP",   "accountId":"InternalAccount:11111111-1111-4111-8111-111111111111"}';
    const r = await raw(port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body });
    assert.equal(r.status, 200);
    assert.deepEqual(up.requests.at(-1)!.body, Buffer.from(body));
    assert.equal(r.headers['cache-control'], 'no-store');
    const health = await raw(port, { path: '/health' });
    assert.deepEqual(health.json, { ok: true });
  });

  it('refuses to relay when a body parser already consumed the request', async () => {
    const count = up.requests.length;
    const r = await raw(port, { method: 'POST', path: '/late/auth/credentials', headers: JSON_HEADERS, body: '{"type":"EMAIL_OTP"}' });
    assert.equal(r.status, 500);
    assert.equal(r.json.code, 'INTERNAL_ERROR');
    assert.match(r.json.message, /body parser/);
    assert.equal(up.requests.length, count);
  });

  it('follows the connect/Express conventions: next() outside the base, originalUrl under a mount point', async () => {
    // What `app.use('/wallet', proxy)` does: url loses the mount point, originalUrl keeps the whole
    // path, so basePath names the whole browser path.
    const mounted = createProxy({ upstream: up.url, tokenId: TOKEN_ID, clientSecret: CLIENT_SECRET, authorize: () => true, basePath: '/wallet/api' });
    const server = http.createServer((req, res) => {
      const fallback = () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('fallback');
      };
      if (req.url!.startsWith('/wallet/')) {
        Object.assign(req, { originalUrl: req.url, url: req.url!.slice('/wallet'.length) });
        mounted(req, res, fallback);
      } else proxy(req, res, fallback);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const p = (server.address() as AddressInfo).port;
    try {
      assert.equal((await raw(p, { path: '/index.html' })).text, 'fallback');
      assert.equal((await raw(p, { path: '/wallet/index.html' })).text, 'fallback');
      const r = await raw(p, { method: 'POST', path: `/wallet/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
      assert.equal(r.status, 200);
      assert.equal(up.requests.at(-1)!.url, `/2025-10-13/cards/${CARD}/reveal`);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await mounted.close();
    }
  });
});
