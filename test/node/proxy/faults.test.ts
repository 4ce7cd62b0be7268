/**
 * Faults injected on either side of the proxy, over real sockets on 127.0.0.1: a client that
 * leaves in the middle of its body or sends one Node cannot parse, odd requests Node refuses before
 * the proxy sees them (in boundedServer), and a hand-written upstream (node:net) that misbehaves as
 * the sandbox cannot: resets, stalls, trickles its answer a byte at a time, floods 1xx answers or
 * sends bytes past its answer. Each case is bounded to a few seconds.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import { createProxy, type ProxyLogLine } from '../../../src/proxy/index.ts';
import { CARD, CLIENT_SECRET, TOKEN_ID, assertErrorShape, raw, rawExchange, startProxy, startRecorder, listen, waitFor, withBoundedProxy } from './helpers.ts';

const REVEAL = `/api/cards/${CARD}/reveal`;
const READ = '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666';
const HOST = 'Host: 127.0.0.1\r\n';

/** The JSON body of a raw HTTP/1.1 answer. */
function bodyOf(answer: string): { status: number; code: string; message: string } {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { status: number; code: string; message: string };
}

describe('a client whose body does not arrive whole', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  before(async () => {
    up = await startRecorder();
  });
  after(async () => {
    await up.close();
  });

  // onError is for what failed in the proxy or the integrator's hooks (the CLI prints it with its
  // stack): a client that hangs up mid-upload is neither, and any client could fill that log.
  it('is not reported to onError as a failure of the proxy, and nothing goes upstream (Node handler)', async () => {
    const errors: unknown[] = [];
    const px = await startProxy({ upstream: up.url, upstreamTimeoutMs: 2000, onError: (e) => errors.push(e) });
    try {
      const head = (framing: string) => `POST ${REVEAL} HTTP/1.1\r\n${HOST}Content-Type: application/json\r\n${framing}\r\n\r\n`;
      // Leaves after part of a declared body; after part of a chunked one; a chunk size Node's parser refuses.
      await rawExchange(px.port, [head('Content-Length: 10'), '{"a"'], 150);
      await rawExchange(px.port, [head('Transfer-Encoding: chunked'), '2\r\n{"'], 150);
      const refused = await rawExchange(px.port, [head('Transfer-Encoding: chunked'), 'zz\r\n{}\r\n0\r\n\r\n']);
      assert.match(refused, /^HTTP\/1.1 400 /);
      await waitFor(() => px.logs.length === 3, 'a log line for each request');
      // A turn for the body reader to settle after the connection closed.
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(errors.map(String), [], 'onError was told of a client leaving');
      assert.deepEqual(px.logs.map((l) => [l.route, l.status, l.code]), Array(3).fill(['revealCard', 499, undefined]));
      assert.equal(up.requests.length, 0);
    } finally {
      await px.close();
    }
  });

  it('is not reported to onError, nor answered 500, through proxy.fetch in Hono or from a body stream that fails', async () => {
    const logs: ProxyLogLine[] = [];
    const errors: unknown[] = [];
    const proxy = createProxy<Request>({
      upstream: up.url,
      tokenId: TOKEN_ID,
      clientSecret: CLIENT_SECRET,
      authorize: () => true,
      rateLimit: false,
      upstreamTimeoutMs: 2000,
      logger: (line) => logs.push(line),
      onError: (error) => errors.push(error),
    });
    const app = new Hono();
    app.all('/api/*', (c) => proxy.fetch(c.req.raw));
    const { port, close } = await listen(app);
    try {
      await rawExchange(port, [`POST ${REVEAL} HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 10\r\n\r\n`, '{"a"'], 150);
      await waitFor(() => logs.length === 1, 'the log line');
      // As the Node handler's: the client went away before an answer (499), which is not refused as incomplete.
      assert.deepEqual([logs[0]!.status, logs[0]!.code], [499, undefined], JSON.stringify(logs[0]));
      assert.deepEqual(errors.map(String), [], 'onError was told of a client leaving');

      // A framework's body stream that fails, its client still there: the body is refused as incomplete.
      const failing = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"a"'));
          controller.error(new Error('aborted'));
        },
      });
      const request = new Request(`http://127.0.0.1${REVEAL}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: failing, duplex: 'half' } as RequestInit);
      const answer = await proxy.fetch(request);
      assert.equal(answer.status, 400);
      const body = (await answer.json()) as { code: string; message: string };
      assert.deepEqual([body.code, body.message], ['INVALID_INPUT', 'The request body did not arrive whole.']);
      assert.deepEqual(errors.map(String), []);
      assert.equal(up.requests.length, 0);
    } finally {
      await close();
      await proxy.close();
    }
  });
});

// boundedServer answers what Node refuses before the proxy sees a request in the service's shape.
describe('boundedServer, before the proxy sees a request', () => {
  it('answers an Expect it cannot meet with 417, chunk extensions too large with 413, in the service\'s shape, and closes the connection', async () => {
    await withBoundedProxy(async (up, port) => {
      const post = (headers: string, body: string) => rawExchange(port, [`POST ${REVEAL} HTTP/1.1\r\n${HOST}Content-Type: application/json\r\n${headers}\r\n\r\n${body}`]);
      const cases: Array<[string, string, number, string]> = [
        ['Content-Length: 2\r\nExpect: something-else', '{}', 417, 'EXPECTATION_FAILED'],
        ['Transfer-Encoding: chunked', `2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`, 413, 'PAYLOAD_TOO_LARGE'],
      ];
      for (const [headers, body, status, code] of cases) {
        const started = Date.now();
        const answer = await post(headers, body);
        assert.match(answer, new RegExp(`^HTTP/1.1 ${status} `), headers);
        assert.match(answer, /\r\ncontent-type: application\/json/i, headers);
        assert.match(answer, /\r\ncache-control: no-store\r\n/i, headers);
        assert.deepEqual([bodyOf(answer).status, bodyOf(answer).code], [status, code], headers);
        // Closed by the server, not left open until the client gives up.
        assert.ok(Date.now() - started < 2000, `${headers}: the connection stayed open`);
      }
      // Expect: 100-continue is met: the body is asked for, read and relayed (on a route that takes one).
      const continued = await rawExchange(port, [`POST /api/auth/credentials HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`, '{}']);
      assert.match(continued, /^HTTP\/1.1 100 Continue\r\n\r\nHTTP\/1.1 200 /);
      assert.equal(up.requests.length, 1);
      assert.equal(up.requests[0]!.body.toString(), '{}');
    });
  });
});

/**
 * A hand-written upstream: each connection's first request is answered by `behave`, later ones
 * with a small JSON answer. It keeps its connections, and which of them were sent a request.
 */
async function misbehaving(behave: (socket: net.Socket) => void) {
  const asked = new Set<net.Socket>();
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (d) => {
      head += d;
      if (!head.includes('\r\n\r\n')) return;
      head = '';
      if (asked.has(socket)) return void socket.write(okAnswer('{"second":true}'));
      asked.add(socket);
      behave(socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/2025-10-13`,
    /** Connections that were sent a request and are still open. */
    stillOpen: () => [...asked].filter((s) => open.has(s)).length,
    close() {
      for (const s of open) s.destroy();
      server.close();
    },
  };
}

const okAnswer = (body: string) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;

/** Writes `text` a byte every `ms` while the connection lasts. */
function trickle(socket: net.Socket, text: string, ms: number): void {
  let i = 0;
  const timer = setInterval(() => (socket.destroyed || i >= text.length ? clearInterval(timer) : socket.write(text[i++]!)), ms);
}

describe('an upstream that misbehaves', () => {
  const TIMEOUT_MS = 600;
  const faults: Array<[string, (s: net.Socket) => void, number, string]> = [
    ['resets before answering', (s) => s.resetAndDestroy(), 502, 'BAD_GATEWAY'],
    ['resets in the middle of its body', (s) => s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n{"a"', () => setTimeout(() => s.resetAndDestroy(), 20)), 502, 'BAD_GATEWAY'],
    ['answers a byte at a time, slower than the bound', (s) => trickle(s, okAnswer('{"slow":"0123456789"}'), 40), 504, 'GATEWAY_TIMEOUT'],
    ['sends 103 answers without end', (s) => trickle(s, 'HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n'.repeat(1000), 1), 504, 'GATEWAY_TIMEOUT'],
    ['sends a chunked body without end', (s) => (s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n'), trickle(s, '1\r\n \r\n'.repeat(1000), 5)), 504, 'GATEWAY_TIMEOUT'],
  ];
  for (const transport of ['undici', 'node'] as const) {
    for (const [name, behave, status, code] of faults) {
      it(`${name}: ${status} ${code} within the bound, its connection closed (${transport})`, async () => {
        const up = await misbehaving(behave);
        const px = await startProxy({ upstream: up.url, upstreamTimeoutMs: TIMEOUT_MS, transport });
        try {
          const started = Date.now();
          const r = await raw(px.port, { path: READ });
          const elapsed = Date.now() - started;
          assertErrorShape(r, status, code);
          assert.ok(elapsed < TIMEOUT_MS + 1000, `answered after ${elapsed} ms`);
          assert.doesNotMatch(r.text, new RegExp(`${CLIENT_SECRET}|Basic|127\\.0\\.0\\.1|ECONNRESET|undici`));
          await waitFor(() => up.stillOpen() === 0, 'the upstream connection to close', 2000);
        } finally {
          await px.close();
          up.close();
        }
      });
    }

    it(`does not hand the next request bytes the upstream sent past an answer (${transport})`, async () => {
      // A whole second answer right behind the first, on a kept-alive connection.
      const up = await misbehaving((s) => s.write(okAnswer('{"first":true}') + okAnswer('{"smuggled":true}')));
      const px = await startProxy({ upstream: up.url, transport });
      try {
        assert.equal((await raw(px.port, { path: READ })).text, '{"first":true}');
        const next = await raw(px.port, { path: READ });
        assert.equal(next.status, 200);
        assert.equal(next.text, '{"first":true}', 'the next request got the bytes sent past the first answer');
        await waitFor(() => up.stillOpen() <= 1, 'the poisoned connection to close', 2000);
      } finally {
        await px.close();
        up.close();
      }
    });
  }

  it('through proxy.fetch: 504 for an answer trickling past the bound, and a read whose client left is dropped upstream', async () => {
    const up = await misbehaving((s) => trickle(s, okAnswer('{"slow":"0123456789"}'), 100));
    const proxy = createProxy<Request>({ upstream: up.url, tokenId: TOKEN_ID, clientSecret: CLIENT_SECRET, authorize: () => true, rateLimit: false, upstreamTimeoutMs: TIMEOUT_MS });
    try {
      const started = Date.now();
      const late = await proxy.fetch(new Request(`http://127.0.0.1${READ}`));
      assert.equal(late.status, 504);
      assert.equal(((await late.json()) as { code: string }).code, 'GATEWAY_TIMEOUT');
      assert.ok(Date.now() - started < TIMEOUT_MS + 1000);
      await waitFor(() => up.stillOpen() === 0, 'the timed-out connection to close', 2000);

      const leaving = new AbortController();
      const pending = proxy.fetch(new Request(`http://127.0.0.1${READ}`, { signal: leaving.signal }));
      await waitFor(() => up.stillOpen() === 1, 'the read upstream');
      leaving.abort();
      await pending;
      await waitFor(() => up.stillOpen() === 0, 'the abandoned read to be dropped upstream', 300);
    } finally {
      await proxy.close();
      up.close();
    }
  });
});
