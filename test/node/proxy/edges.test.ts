/**
 * HTTP edges of the proxy over real sockets on 127.0.0.1: request targets in absolute form
 * (RFC 9112 section 3.2.2), methods it does not serve (CONNECT, one Node does not know), and the
 * 502 a reset gives, alike on both upstream transports and through both entries.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import { createProxy, type ProxyLogLine } from '../../../src/proxy/index.ts';
import { ACCOUNT, CARD, CLIENT_SECRET, DELEGATED_KEY, TOKEN_ID, raw, rawExchange, startProxy, startRecorder, listen as listenHono, waitFor, withBoundedProxy } from './helpers.ts';

const READ = `/api/auth/delegated-keys/${DELEGATED_KEY}`;
const LIST = `/api/auth/credentials?accountId=${encodeURIComponent(ACCOUNT)}`;

/** Writes `text` on a new connection; resolves to what came back once the server closed it (or after 3 s). */
const exchange = (port: number, text: string): Promise<string> => rawExchange(port, [text]);

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
const bodyOf = (answer: string): any => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

async function listen(server: http.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** A recording upstream and a proxy in front of it, for `run`; both closed after it. */
async function withProxy(run: (up: Awaited<ReturnType<typeof startRecorder>>, px: Awaited<ReturnType<typeof startProxy>>) => Promise<void>): Promise<void> {
  const up = await startRecorder();
  const px = await startProxy({ upstream: up.url });
  try {
    await run(up, px);
  } finally {
    await px.close();
    await up.close();
  }
}

describe('a request target in absolute form', () => {
  it('is served by its path and query, its authority taken as the host, never as another upstream (Node handler)', async () => {
    await withProxy(async (up, px) => {
      const get = (target: string, host: string) => exchange(px.port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      const here = `127.0.0.1:${px.port}`;
      const answer = await get(`http://${here}${LIST}`, here);
      assert.equal(statusOf(answer), 200, answer);
      assert.equal(up.requests.at(-1)!.url, `/2025-10-13/auth/credentials?accountId=${encodeURIComponent(ACCOUNT)}`);
      // The scheme is case-insensitive; a path alone is the same as before.
      assert.equal(statusOf(await get(`HTTP://${here}${READ}`, here)), 200);
      assert.equal(up.requests.at(-1)!.url, `/2025-10-13/auth/delegated-keys/${DELEGATED_KEY}`);

      // Another authority, even the upstream's own, names no other upstream: the path goes to the one configured.
      const upHost = `127.0.0.1:${up.port}`;
      assert.equal(statusOf(await get(`http://127.0.0.2:9${READ}`, here)), 200);
      assert.equal(up.requests.length, 3);
      assert.equal(statusOf(await get(`http://${upHost}/2025-10-13/auth/delegated-keys/${DELEGATED_KEY}`, here)), 404);
      assert.equal(up.requests.length, 3);

      // The target's authority is the host (RFC 9112 section 3.2.2): one the proxy does not
      // answer for is refused, whatever Host says; and so is a Host it does not answer for.
      const rebound = await get(`http://attacker.example${READ}`, here);
      assert.equal(statusOf(rebound), 403, rebound);
      assert.equal(bodyOf(rebound).code, 'FORBIDDEN');
      assert.equal(bodyOf(rebound).details.host, 'attacker.example');
      assert.equal(statusOf(await get(`http://${here}${READ}`, 'attacker.example')), 403);
      assert.equal(statusOf(await get(`http://localhost:${px.port}${READ}`, here)), 200);
      assert.equal(up.requests.length, 4);
      // Two Host lines stay refused, as with a target in origin form.
      assert.equal(statusOf(await get(`http://${here}${READ}`, `${here}\r\nHost: ${here}`)), 400);
      assert.equal(up.requests.length, 4);

      // An authority with user information, or none, is not a target.
      for (const target of [`http://user@${here}${READ}`, `http://${READ}`]) {
        const refused = await get(target, here);
        assert.equal(statusOf(refused), 400, `${target}: ${refused}`);
        assert.equal(bodyOf(refused).code, 'INVALID_INPUT');
      }
      assert.equal(up.requests.length, 4);
    });
  });

  it('OPTIONS * and other targets that are no path are not taken for a route below a stripped basePath', async () => {
    await withProxy(async (up, px) => {
      for (const request of ['OPTIONS *', 'GET *', 'GET /x//y', `GET http://127.0.0.1:${px.port}*`]) {
        const answer = await exchange(px.port, `${request} HTTP/1.1\r\nHost: 127.0.0.1:${px.port}\r\nConnection: close\r\n\r\n`);
        assert.equal(statusOf(answer), 404, `${request}: ${answer}`);
        assert.equal(bodyOf(answer).message, 'No such route.', request);
      }
      // A route's path without basePath still says so.
      const stripped = await exchange(px.port, `GET /auth/delegated-keys/${DELEGATED_KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.match(bodyOf(stripped).message, /outside basePath \/api/);
      assert.equal(up.requests.length, 0);
    });
  });

  it('is served through proxy.fetch in a framework over HTTP', async () => {
    const up = await startRecorder();
    const { port, close } = await behindHono(up.url);
    try {
      const here = `127.0.0.1:${port}`;
      const answer = await exchange(port, `GET http://${here}${LIST} HTTP/1.1\r\nHost: ${here}\r\nConnection: close\r\n\r\n`);
      assert.equal(statusOf(answer), 200, answer);
      assert.equal(up.requests.at(-1)!.url, `/2025-10-13/auth/credentials?accountId=${encodeURIComponent(ACCOUNT)}`);
      // The hosts are checked as the Node handler checks them: the target's authority and Host both.
      for (const [target, host] of [[`http://attacker.example${READ}`, here], [`http://${here}${READ}`, 'attacker.example']]) {
        const refused = await exchange(port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        assert.equal(statusOf(refused), 403, `${target} Host: ${host}: ${refused}`);
        assert.equal(bodyOf(refused).details.host, 'attacker.example');
      }
      assert.equal(up.requests.length, 1);
    } finally {
      await close();
      await up.close();
    }
  });
});

/** A proxy of `upstream` that lets every account through, served through `proxy.fetch` by Hono over HTTP on loopback. */
async function behindHono(upstream: string): Promise<{ port: number; close: () => Promise<void> }> {
  const proxy = createProxy<Request>({ upstream, tokenId: TOKEN_ID, clientSecret: CLIENT_SECRET, authorize: () => true, rateLimit: false });
  const app = new Hono();
  app.all('*', (c) => proxy.fetch(c.req.raw));
  const { port, close } = await listenHono(app);
  return { port, close: () => close().then(() => proxy.close()) };
}

describe('the Origin of a state change', () => {
  it('is an origin, scheme://host[:port] alone, naming the host reached, default ports as the scheme has them, through both entries over HTTP', async () => {
    const up = await startRecorder();
    const { port: fetchPort, close } = await behindHono(up.url);
    const px = await startProxy({ upstream: up.url });
    try {
      for (const [entry, port] of [['proxy.fetch', fetchPort], ['Node handler', px.port]] as const) {
        const post = (host: string, origin: string) =>
          exchange(port, `POST /api/cards/${CARD}/reveal HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
        const here = `127.0.0.1:${port}`;
        // Not origins, though a URL parser finds the host in them: user information, a path, a query, an opaque origin.
        for (const origin of [`http://evil.example@${here}`, `http://x:y@${here}`, `http://${here}/`, `http://${here}/api`, `http://${here}?x`, `http://${here}#x`, 'null', `http://${here}\\evil.example`]) {
          const answer = await post(here, origin);
          assert.equal(statusOf(answer), 403, `${entry}, Origin ${origin}: ${answer}`);
          assert.equal(bodyOf(answer).code, 'FORBIDDEN');
        }
        // The same origin, written with the scheme's default port or another letter case.
        for (const [host, origin] of [['localhost:80', 'http://localhost'], ['localhost', 'http://localhost'], ['127.0.0.1:443', 'https://127.0.0.1'], [`LocalHost:${port}`, `http://localhost:${port}`], [here, `http://${here}`]] as const) {
          const answer = await post(host, origin);
          assert.equal(statusOf(answer), 200, `${entry}, Host ${host}, Origin ${origin}: ${answer}`);
        }
        // A default port of the other scheme is another port.
        assert.equal(statusOf(await post('localhost:443', 'http://localhost')), 403, entry);
      }
    } finally {
      await close();
      await px.close();
      await up.close();
    }
  });
});

describe('a method the proxy does not serve', () => {
  it('CONNECT and a method Node does not know are answered 501 in the service\'s shape, the connection closed (boundedServer)', async () => {
    await withBoundedProxy(async (up, port) => {
      for (const request of [`CONNECT 127.0.0.1:${up.port} HTTP/1.1\r\nHost: 127.0.0.1:${up.port}\r\n\r\n`, `BREW ${READ} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`]) {
        const started = Date.now();
        const answer = await exchange(port, request);
        assert.equal(statusOf(answer), 501, `${request.split(' ')[0]}: ${JSON.stringify(answer)}`);
        assert.match(answer, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
        assert.match(answer, /\r\ncache-control: no-store\r\n/i);
        assert.match(answer, /\r\nconnection: close\r\n/i);
        assert.deepEqual([bodyOf(answer).status, bodyOf(answer).code], [501, 'NOT_IMPLEMENTED']);
        assert.ok(Date.now() - started < 2000, 'the connection stayed open');
      }
      // A method Node knows but no route takes stays a 405 with Allow.
      const trace = await exchange(port, `TRACE ${READ} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.equal(statusOf(trace), 405);
      assert.match(trace, /\r\nallow: GET, DELETE\r\n/i);
      assert.equal(up.requests.length, 0);
    });
  });

  it('what boundedServer answers before the proxy sees a request carries the security headers of the proxy\'s own refusals', async () => {
    await withBoundedProxy(async (up, port) => {
      const requests = [
        `CONNECT 127.0.0.1:${up.port} HTTP/1.1\r\nHost: 127.0.0.1:${up.port}\r\n\r\n`,
        `BREW ${READ} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
        'NOT HTTP AT ALL\r\n\r\n',
        `GET ${READ} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\nConnection: close\r\n\r\n`,
        // The proxy's own refusal, for comparison.
        `TRACE ${READ} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      ];
      for (const request of requests) {
        const answer = await exchange(port, request);
        assert.ok(statusOf(answer) >= 400, answer);
        assert.match(answer, /\r\nx-content-type-options: nosniff\r\n/i, `${request.split(' ')[0]}: ${answer}`);
        assert.match(answer, /\r\nreferrer-policy: no-referrer\r\n/i, `${request.split(' ')[0]}: ${answer}`);
        assert.match(answer, /\r\ncache-control: no-store\r\n/i, `${request.split(' ')[0]}: ${answer}`);
      }
      assert.equal(up.requests.length, 0);
    });
  });
});

describe('a 502 for an upstream that resets', () => {
  /** An upstream that reads nothing and resets each connection `ms` after it opened. */
  async function resetting(ms: number) {
    const server = net.createServer((socket) => {
      socket.pause();
      socket.on('error', () => undefined);
      setTimeout(() => socket.resetAndDestroy(), ms);
    });
    const port = await listen(server as unknown as http.Server);
    return { url: `http://127.0.0.1:${port}/2025-10-13`, close: () => server.close() };
  }

  it('says the same of a state change cut while it was sent, on both transports: it may have been carried out', async () => {
    const up = await resetting(200);
    // Larger than what loopback's buffers take at once, so the reset comes while it is being sent.
    const body = JSON.stringify({ pad: 'x'.repeat(24 * 1024 * 1024) });
    const messages: string[] = [];
    try {
      for (const transport of ['undici', 'node'] as const) {
        const px = await startProxy({ upstream: up.url, transport, maxBodyBytes: 32 * 1024 * 1024, upstreamTimeoutMs: 5000 });
        try {
          const r = await raw(px.port, { method: 'POST', path: '/api/auth/delegated-keys', headers: { 'content-type': 'application/json' }, body });
          assert.equal(r.status, 502, `${transport}: ${r.text}`);
          assert.equal(r.json.code, 'BAD_GATEWAY');
          messages.push(r.json.message);
        } finally {
          await px.close();
        }
      }
    } finally {
      up.close();
    }
    assert.equal(messages[1], messages[0], 'the two transports word it differently');
    assert.match(messages[0]!, /may have been carried out/);
  });

  it('of a read whose client went away is not a 502 through proxy.fetch either: 499 with no body, logged as the Node handler logs it', async () => {
    const up = await startRecorder((_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 300));
    const logs: ProxyLogLine[] = [];
    const proxy = createProxy<Request>({ upstream: up.url, tokenId: TOKEN_ID, clientSecret: CLIENT_SECRET, authorize: () => true, rateLimit: false, logger: (l) => logs.push(l) });
    const px = await startProxy({ upstream: up.url });
    try {
      const leaving = new AbortController();
      const pending = proxy.fetch(new Request(`http://127.0.0.1${READ}`, { signal: leaving.signal }));
      await waitFor(() => up.requests.length === 1, 'the read upstream');
      leaving.abort();
      const answer = await pending;
      assert.equal(answer.status, 499);
      assert.equal(await answer.text(), '');

      // The Node handler's client leaving (its connection reset).
      const socket = net.connect(px.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`GET ${READ} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await waitFor(() => up.requests.length === 2, 'the read upstream');
      socket.resetAndDestroy();
      await waitFor(() => px.logs.length === 1, 'the log line');
      const strip = ({ durationMs: _, ...line }: ProxyLogLine) => line;
      assert.deepEqual(logs.map(strip), px.logs.map(strip));
      assert.deepEqual(strip(logs[0]!), { route: 'getDelegatedKey', method: 'GET', status: 499 });
    } finally {
      await px.close();
      await proxy.close();
      await up.close();
    }
  });
});
