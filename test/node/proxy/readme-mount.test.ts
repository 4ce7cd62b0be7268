/**
 * The proxy mounted the ways the README ("Mount the proxy in your Node server") says, on loopback
 * in front of the real sandbox: Fastify through the README's own `onRequest` hook (its text, read
 * from the README and run as written), a connect-style chain (`app.use(proxy)` before a JSON body
 * parser; Express is not installed here, so the chain is the few lines of connect's `use`/`next`
 * convention), and node:http as the README's snippet does. Through each: a POST whose body the
 * service reads, an answer of some 150 KB (a hundred agent actions) read slowly by its client,
 * byte for byte what the service sent, and the application's own routes left to it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { createProxy, type ProxyHandler } from '../../../src/proxy/index.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
/** The README's clientIp option for the Node handler, as written (one inline code span). */
const NODE_CLIENT_IP = /`(clientIp: [^`]*)` for the Node handler/.exec(README.replace(/\s+/g, ' '))?.[1];
/** The README's setting for clients that half-close their side after the request, as written in its node:http snippet. */
const HALF_OPEN = /^(Object\.assign\(server, \{ httpAllowHalfOpen: true \}\);)/m.exec(README)?.[1];
/** The README's Fastify mount, as written (one inline code span, across a line break). */
const FASTIFY_HOOK = /`(app\.addHook\('onRequest'[^`]*)`/.exec(README)?.[1];

interface CustomerSet {
  customerId: string;
  accountId: string;
  cardId: string;
  agentToken: string;
}

/** GETs `url` and reads its answer slowly: 10 ms between chunks, so the answer waits on the client. */
function slowGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          res.pause();
          setTimeout(() => res.resume(), 10);
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('the proxy mounted as the README says, in front of the sandbox', () => {
  let sandbox: Sandbox;
  let basic: string;

  before(async () => {
    sandbox = await startSandbox();
    const f = sandbox.fixtures;
    basic = 'Basic ' + Buffer.from(`${f.tokenId}:${f.clientSecret}`).toString('base64');
  });
  after(async () => {
    await sandbox.close();
  });

  /** A customer set of its own with an email and no credential yet, and 200 agent actions. */
  async function customerSet(): Promise<CustomerSet> {
    const r = await fetch(`${sandbox.url}/sandbox/accounts`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'mount@example.com', emailCredential: false, actions: 200 }),
    });
    assert.equal(r.status, 201);
    return (await r.json()) as CustomerSet;
  }

  /** The README's options, the settings given as the environment would give them. */
  function readmeProxy(set: CustomerSet, basePath?: string): ProxyHandler {
    const env: Record<string, string | undefined> = {
      SERVICE_BASE_URL: sandbox.fixtures.baseUrl,
      SERVICE_TOKEN_ID: sandbox.fixtures.tokenId,
      SERVICE_CLIENT_SECRET: sandbox.fixtures.clientSecret,
    };
    return createProxy({
      upstream: env.SERVICE_BASE_URL,
      tokenId: env.SERVICE_TOKEN_ID,
      clientSecret: env.SERVICE_CLIENT_SECRET,
      rp: { id: 'wallet.example.com', name: 'Example' },
      accountFor: async () => ({ customerId: set.customerId, accountId: set.accountId, cardId: set.cardId }),
      stepUp: {},
      ...(basePath ? { basePath } : {}),
    });
  }

  /** A POST with a body, a large answer read slowly, and the application's own route, through `base`. */
  async function relaysThrough(origin: string, apiPath: string, set: CustomerSet): Promise<void> {
    const created = await fetch(`${origin}${apiPath}/auth/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'EMAIL_OTP', accountId: set.accountId }),
    });
    const credential = (await created.json()) as { id?: string; type?: string; accountId?: string; otpEncryptionTargetBundle?: string };
    assert.equal(created.status, 201, JSON.stringify(credential));
    assert.equal(credential.type, 'EMAIL_OTP');
    assert.equal(credential.accountId, set.accountId);
    assert.equal(typeof credential.otpEncryptionTargetBundle, 'string');

    const agent = { authorization: `Bearer ${set.agentToken}` };
    const relayed = await slowGet(`${origin}${apiPath}/agents/me/actions?limit=100`, agent);
    const direct = Buffer.from(await (await fetch(`${sandbox.fixtures.baseUrl}/agents/me/actions?limit=100`, { headers: agent })).arrayBuffer());
    assert.equal(relayed.status, 200);
    assert.ok(relayed.body.length > 128 * 1024, `${relayed.body.length} bytes`);
    assert.equal((JSON.parse(relayed.body.toString('utf8')) as { data: unknown[] }).data.length, 100);
    assert.ok(relayed.body.equals(direct), 'the relayed answer differs from the service\'s');

    const own = await fetch(`${origin}/health`);
    assert.deepEqual(await own.json(), { ok: true });
  }

  it('in Fastify, through the README\'s onRequest hook', async () => {
    assert.ok(FASTIFY_HOOK, 'the README has no Fastify mount');
    const set = await customerSet();
    const proxy = readmeProxy(set);
    const app = Fastify();
    // The README's text, run as written with `app` and `proxy` in scope.
    new Function('app', 'proxy', FASTIFY_HOOK)(app, proxy);
    app.get('/health', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      await relaysThrough(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, '/api', set);
    } finally {
      await app.close();
      await proxy.close();
    }
  });

  it('in a connect-style chain, app.use(proxy) before a JSON body parser, at the root and under a prefix', async () => {
    assert.match(README, /Express\/connect: `app\.use\(proxy\)` before any body parser/);
    assert.match(README, /mounted under a prefix,\s+pass `basePath: '\/prefix\/api'`/);
    for (const [prefix, basePath] of [['', undefined], ['/prefix', '/prefix/api']] as const) {
      const set = await customerSet();
      const proxy = readmeProxy(set, basePath);
      const app = connectLike();
      if (prefix) app.use(prefix, proxy);
      else app.use(proxy);
      // What express.json() does: it consumes the body, so it must come after the proxy.
      app.use((req, _res, next) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          (req as { body?: unknown }).body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
          next();
        });
      });
      app.use((req, res, next) => {
        if (req.url !== '/health') return next();
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      });
      const server = http.createServer(app.handle);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        await relaysThrough(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, `${prefix}/api`, set);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
        await proxy.close();
      }
    }
  });

  it('in node:http, as the README\'s snippet does', async () => {
    assert.ok(README.includes('http.createServer((req, res) => proxy(req, res, () => myApp(req, res)))'));
    const set = await customerSet();
    const proxy = readmeProxy(set);
    const myApp = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    };
    const server = http.createServer((req, res) => proxy(req, res, () => myApp(req, res)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await relaysThrough(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/api', set);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await proxy.close();
    }
  });

  it('in node:http, a client that half-closes its side once its request is sent is answered with the README\'s httpAllowHalfOpen line, and dropped without it', async () => {
    assert.ok(HALF_OPEN, 'the README\'s node:http snippet does not set httpAllowHalfOpen');
    const set = await customerSet();
    const proxy = readmeProxy(set);
    /** Writes a read on a new connection, ends its side at once, and resolves to all that came back. */
    const halfClosed = (port: number) =>
      new Promise<string>((resolve) => {
        const path = `/api/auth/credentials?accountId=${encodeURIComponent(set.accountId)}`;
        const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
        let text = '';
        socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
        socket.on('error', () => undefined);
        const timer = setTimeout(() => socket.destroy(), 5000);
        socket.on('close', () => (clearTimeout(timer), resolve(text)));
      });
    try {
      for (const readme of [false, true]) {
        const server = http.createServer((req, res) => proxy(req, res));
        if (readme) new Function('server', HALF_OPEN)(server);
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        try {
          const answer = await halfClosed((server.address() as AddressInfo).port);
          // Node's default ends the connection when the client's side ends, the answer unwritten.
          if (readme) assert.match(answer, /^HTTP\/1\.1 200 [^]*\r\n\r\n\{"data":\[/, `with the README's line: ${JSON.stringify(answer.slice(0, 200))}`);
          else assert.equal(answer, '', 'Node\'s default now answers a half-closed client: the README\'s line is no longer needed');
        } finally {
          server.closeAllConnections();
          await new Promise<void>((r) => server.close(() => r()));
        }
      }
    } finally {
      await proxy.close();
    }
  });

  it('in node:http behind a front server that sets X-Real-IP: the README\'s clientIp counts each client on its own', async () => {
    assert.ok(NODE_CLIENT_IP, 'the README has no clientIp for the Node handler');
    const { clientIp } = new Function(`return { ${NODE_CLIENT_IP} };`)() as { clientIp: (request: http.IncomingMessage, address: string | undefined) => string | undefined };
    const f = sandbox.fixtures;
    const proxy = createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, demoAccount: f, rateLimit: { windowMs: 60_000, max: 2 }, clientIp, logger: () => {} });
    const server = http.createServer((req, res) => proxy(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/auth/credentials?accountId=${encodeURIComponent(f.accountId)}`;
    const from = async (client: string) => (await fetch(url, { headers: { 'x-real-ip': client } })).status;
    try {
      // All from 127.0.0.1: only the header tells the clients apart.
      assert.deepEqual([await from('203.0.113.7'), await from('203.0.113.7'), await from('203.0.113.7')], [200, 200, 429]);
      assert.equal(await from('198.51.100.20'), 200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await proxy.close();
    }
  });
});

type Middleware = (req: http.IncomingMessage & { originalUrl?: string }, res: http.ServerResponse, next: (err?: unknown) => void) => void;

/**
 * connect's `use` and `next` (its documented convention, which Express keeps): middleware run in
 * order; one mounted under a path sees `req.url` without it and `req.originalUrl` whole.
 */
function connectLike() {
  const stack: Array<{ path: string; fn: Middleware }> = [];
  return {
    use(pathOrFn: string | Middleware, fn?: Middleware) {
      stack.push(typeof pathOrFn === 'string' ? { path: pathOrFn, fn: fn! } : { path: '', fn: pathOrFn });
    },
    handle(req: http.IncomingMessage & { originalUrl?: string }, res: http.ServerResponse) {
      req.originalUrl ??= req.url;
      const whole = req.url!;
      let i = 0;
      const next = (err?: unknown) => {
        req.url = whole;
        if (err) {
          res.statusCode = 500;
          return void res.end();
        }
        const layer = stack[i++];
        if (!layer) {
          res.statusCode = 404;
          return void res.end();
        }
        if (layer.path && !(whole === layer.path || whole.startsWith(layer.path + '/') || whole.startsWith(layer.path + '?'))) return next();
        if (layer.path) req.url = whole.slice(layer.path.length) || '/';
        layer.fn(req, res, next);
      };
      next();
    },
  };
}
