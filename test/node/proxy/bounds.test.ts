/**
 * The proxy's bounds (DESIGN.md "Security rules": request body size bounded, upstream time bounded,
 * errors in the service's shape; reference.md: 429 RATE_LIMITED with Retry-After), over real HTTP:
 * a body too large (declared and streamed), a slow upstream, an upstream that is down, a slow client
 * body, and the per-client rate limit.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { STALLED_AFTER_MS } from '../../../src/proxy/upstream.ts';
import type { ProxyOptions } from '../../../src/proxy/index.ts';
import { CARD, JSON_HEADERS, assertErrorShape, raw, startProxy, startRecorder, waitFor } from './helpers.ts';

/** Runs `use` against a proxy (with these options) in front of `upstream`, then closes both, however it ended. */
async function throughProxy(upstream: Awaited<ReturnType<typeof startRecorder>>, options: Partial<ProxyOptions>, use: (px: Awaited<ReturnType<typeof startProxy>>) => Promise<void>): Promise<void> {
  const px = await startProxy({ upstream: upstream.url, ...options });
  try {
    await use(px);
  } finally {
    await px.close();
    await upstream.close();
  }
}

/**
 * A client that asks for `path`, reads the first bytes of the answer (so the proxy has handed it
 * over) and then stops reading: the rest stays in the proxy's memory, counted in its 32 MiB.
 */
async function unreadAnswer(port: number, path: string, requestId?: string): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${requestId ? `Request-Id: ${requestId}\r\n` : ''}\r\n`);
  const first = await new Promise<Buffer>((r) => socket.once('data', r));
  socket.pause();
  assert.match(first.toString('latin1'), /^HTTP\/1.1 200 /);
  return socket;
}

/**
 * A client that stops reading (`unreadAnswer`) whose answer the proxy still holds: the kernel's
 * buffers of a loopback connection grow to about 4 MiB and now and then take a whole answer of
 * 4 MiB - 1, which the proxy then no longer holds (its response closes and is logged). Such a
 * client is left to take its answer, and another takes its place. `extra` counts them (each has
 * its log line).
 */
async function heldAnswer(px: { port: number; logs: Array<{ requestId?: string }> }, path: string, size: number, extra: { count: number }): Promise<net.Socket> {
  for (let attempt = 0; ; attempt++) {
    const requestId = `Request:${randomUUID()}`;
    const socket = await unreadAnswer(px.port, path, requestId);
    // The kernel takes what it can at once: once it has, the answer is held or was handed over whole.
    await new Promise((r) => setTimeout(r, 250));
    if (!px.logs.some((l) => l.requestId === requestId)) return socket;
    assert.equal(await readToEnd(socket, size), 'taken');
    extra.count++;
    assert.ok(attempt < 5, 'the kernel took every answer whole');
  }
}

/** What an answer about a state change the service may have received must say. */
/** An upstream answering every request with 4 MiB - 1 of JSON white space, its length declared. */
async function fourMiBAnswers() {
  const size = 4 * 1024 * 1024 - 1;
  const body = Buffer.alloc(size, 0x20);
  const big = await startRecorder((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(size) });
    res.end(body);
  });
  return { size, big };
}

/**
 * An upstream whose GET answers (`size`, 4 MiB - 1 each) stop before their last byte until
 * `releaseGets`, and whose POST answer (a JSON of about 2 KiB, more than a read of 1 KiB) waits for
 * `releasePost`; a GET of /auth/credentials is answered at once with about 1 KiB.
 */
async function heldAnswers() {
  const size = 4 * 1024 * 1024 - 1;
  const piece = Buffer.alloc(64 * 1024, 0x20);
  const small = JSON.stringify({ data: [], pad: 'x'.repeat(1024) });
  let releaseGets!: () => void;
  const getsReleased = new Promise<void>((r) => (releaseGets = r));
  let releasePost!: () => void;
  const postReleased = new Promise<void>((r) => (releasePost = r));
  const big = await startRecorder(async (req, res) => {
    if (req.method === 'POST') {
      await postReleased;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: 'https://processor.example/reveal/' + 'x'.repeat(2048) }));
    } else if (req.url.includes('/auth/credentials')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(small);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(size + 1) });
      for (let sent = 0; sent < size; sent += piece.length) res.write(piece.subarray(0, Math.min(piece.length, size - sent)));
      await getsReleased;
      res.end(' ');
    }
  });
  return { big, size, releaseGets, releasePost };
}

/** Reads what is left of an answer of `size` bytes and ends the connection: 'taken' whole, or 'cut' by the proxy. */
function readToEnd(socket: net.Socket, size: number): Promise<'taken' | 'cut'> {
  return new Promise((resolve) => {
    socket.once('close', () => resolve(socket.bytesRead > size ? 'taken' : 'cut'));
    socket.setTimeout(5000, () => socket.destroy());
    socket.resume();
    socket.end();
  });
}

const MAY_HAVE_BEEN_CARRIED_OUT = /may have been carried out; check before sending it again\./;

describe('proxy bounds', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  before(async () => {
    up = await startRecorder();
  });
  after(async () => {
    await up.close();
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a declared or streamed body over maxBodyBytes', async () => {
    const px = await startProxy({ upstream: up.url, maxBodyBytes: 1024 });
    try {
      const count = up.requests.length;
      const big = JSON.stringify({ type: 'EMAIL_OTP', pad: 'x'.repeat(2000) });
      assertErrorShape(await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: big }), 413, 'PAYLOAD_TOO_LARGE');
      assertErrorShape(await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: big, chunked: true }), 413, 'PAYLOAD_TOO_LARGE');
      // Exactly at the bound passes.
      const exact = JSON.stringify({ pad: 'y'.repeat(1024 - 10) });
      assert.equal(Buffer.byteLength(exact), 1024);
      const ok = await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: exact });
      assert.equal(ok.status, 200);
      assert.equal(up.requests.length, count + 1);
      assert.equal(px.logs.filter((l) => l.code === 'PAYLOAD_TOO_LARGE').length, 2);
    } finally {
      await px.close();
    }
  });

  it('uses 64 KiB by default', async () => {
    const px = await startProxy({ upstream: up.url });
    try {
      const body = JSON.stringify({ pad: 'z'.repeat(64 * 1024) });
      assertErrorShape(await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body }), 413, 'PAYLOAD_TOO_LARGE');
      const fits = JSON.stringify({ pad: 'z'.repeat(60 * 1024) });
      assert.equal((await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: fits })).status, 200);
    } finally {
      await px.close();
    }
  });

  // The default transport (an undici Pool the proxy owns) and the node:http one keep the same bounds.
  for (const transport of ['undici', 'node'] as const) {
    describe(`upstream transport '${transport}'`, () => {
      it('answers 504 GATEWAY_TIMEOUT when the upstream is slower than upstreamTimeoutMs', async () => {
        const slow = await startRecorder((_req, res) => {
          setTimeout(() => {
            if (!res.destroyed) {
              res.writeHead(200, { 'content-type': 'application/json' });
              res.end('{}');
            }
          }, 1500);
        });
        await throughProxy(slow, { upstreamTimeoutMs: 200, transport }, async (px) => {
          const t0 = Date.now();
          const r = await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
          const elapsed = Date.now() - t0;
          assertErrorShape(r, 504, 'GATEWAY_TIMEOUT');
          assert.ok(elapsed >= 190 && elapsed < 1200, `answered after ${elapsed} ms`);
          assert.equal(px.logs.at(-1)!.status, 504);
          assert.equal(px.logs.at(-1)!.route, 'revealCard');
          // The service has the state change and may carry it out late: the answer must not read as "not done".
          assert.match(r.json.message, MAY_HAVE_BEEN_CARRIED_OUT);
          const read = await raw(px.port, { path: '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666' });
          assertErrorShape(read, 504, 'GATEWAY_TIMEOUT');
          assert.equal(read.json.message, 'The service did not answer in time.');
        });
      });

      it('drops a GET upstream when its client goes away, and sends nothing for a request whose client left during authorize', async () => {
        // An upstream that never answers: only the client's leaving can end these exchanges early.
        const upstreamClosed: Array<Promise<void>> = [];
        const hang = await startRecorder((_req, res) => {
          upstreamClosed.push(new Promise((r) => res.once('close', () => r())));
        });
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        let authorizing = false;
        const px = await startProxy({
          upstream: hang.url,
          upstreamTimeoutMs: 30_000,
          transport,
          authorize: async (ctx) => {
            if (ctx.route === 'createCredential') {
              authorizing = true;
              await gate;
            }
            return true;
          },
        });
        /** Sends a request and aborts it once `ready` says so; resolves when the client socket is closed. */
        const abandon = (opts: { method?: string; path: string; body?: string }, ready: () => Promise<unknown>) =>
          new Promise<void>((resolve) => {
            const req = http.request({ host: '127.0.0.1', port: px.port, method: opts.method ?? 'GET', path: opts.path, headers: JSON_HEADERS, agent: false });
            req.on('error', () => {});
            req.on('close', () => resolve());
            req.end(opts.body);
            void ready().then(() => req.destroy());
          });
        try {
          await abandon({ path: '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666' }, () => waitFor(() => hang.requests.length === 1, 'the GET upstream'));
          const t0 = Date.now();
          await upstreamClosed[0];
          assert.ok(Date.now() - t0 < 2000, `the upstream exchange stayed open ${Date.now() - t0} ms after its client left`);
          await waitFor(() => px.logs.length === 1, 'the log line');
          assert.equal(px.logs[0]!.status, 499);

          await abandon({ method: 'POST', path: '/api/auth/credentials', body: '{"type":"EMAIL_OTP","accountId":"x"}' }, () => waitFor(() => authorizing, 'the POST in authorize'));
          await waitFor(() => px.logs.length === 2, 'the abandoned POST');
          assert.equal(px.logs[1]!.status, 499);
          release();
          await new Promise((r) => setTimeout(r, 200));
          assert.equal(hang.requests.length, 1, 'a request whose client had gone was sent upstream');
        } finally {
          release();
          await px.close();
          await hang.close();
        }
      });

      it('times out an upstream that sends headers and then stalls its body', async () => {
        const stall = await startRecorder((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"partial":');
        });
        await throughProxy(stall, { upstreamTimeoutMs: 200, transport }, async (px) => {
          assertErrorShape(await raw(px.port, { path: `/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666` }), 504, 'GATEWAY_TIMEOUT');
        });
      });

      it('answers 502 BAD_GATEWAY when the upstream is down or cuts the connection', async () => {
        // A port that was just free: nothing listens there.
        const probe = net.createServer();
        await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
        const { port } = probe.address() as AddressInfo;
        await new Promise<void>((r) => probe.close(() => r()));
        const px = await startProxy({ upstream: `http://127.0.0.1:${port}/2025-10-13`, transport });
        try {
          // Never sent: it was not carried out.
          const refused = await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
          assertErrorShape(refused, 502, 'BAD_GATEWAY');
          assert.equal(refused.json.message, 'The service could not be reached.');
          // The log line names the runtime's cause, which the answer does not.
          await waitFor(() => px.logs.length === 1, 'the log line');
          assert.equal(px.logs[0]!.cause, 'ECONNREFUSED', JSON.stringify(px.logs[0]));
          assert.doesNotMatch(refused.text, /ECONNREFUSED/);
        } finally {
          await px.close();
        }
        // Cut after the whole request arrived, before any answer, and in the middle of the answer.
        const cut = await startRecorder((req, res) => {
          if (req.url.includes('/reveal')) return void res.socket?.destroy();
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"partial":', () => res.socket?.destroy());
        });
        await throughProxy(cut, { transport }, async (px2) => {
          for (const path of [`/api/cards/${CARD}/reveal`, '/api/auth/credentials']) {
            // The reveal takes no body.
            const r = await raw(px2.port, { method: 'POST', path, headers: JSON_HEADERS, body: path.endsWith('/reveal') ? undefined : '{}' });
            assertErrorShape(r, 502, 'BAD_GATEWAY');
            assert.match(r.json.message, MAY_HAVE_BEEN_CARRIED_OUT, path);
            assert.doesNotMatch(r.json.message, /could not be reached/, path);
          }
          const read = await raw(px2.port, { path: '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666' });
          assertErrorShape(read, 502, 'BAD_GATEWAY');
          assert.equal(read.json.message, 'The service could not be reached.');
        });
      });

      it('answers 502 BAD_GATEWAY when the upstream answers more than 4 MiB, and relays one just under', async () => {
        const limit = 4 * 1024 * 1024;
        const big = await startRecorder((req, res) => {
          const size = req.url.includes('/cards/') || req.url.includes('77777777') ? limit + 1 : limit;
          res.writeHead(200, { 'content-type': 'application/json' });
          // Written in pieces, as a real service streams a large answer.
          const piece = Buffer.alloc(64 * 1024, 0x20);
          for (let sent = 0; sent < size; sent += piece.length) res.write(piece.subarray(0, Math.min(piece.length, size - sent)));
          res.end();
        });
        await throughProxy(big, { transport }, async (px) => {
          const change = await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
          assertErrorShape(change, 502, 'BAD_GATEWAY');
          assert.match(change.json.message, /^The service answered with too large a body\. /);
          assert.match(change.json.message, MAY_HAVE_BEEN_CARRIED_OUT);
          const read = await raw(px.port, { path: '/api/auth/delegated-keys/DelegatedKey:77777777-7777-4777-8777-777777777777' });
          assertErrorShape(read, 502, 'BAD_GATEWAY');
          assert.equal(read.json.message, 'The service answered with too large a body.');
          const ok = await raw(px.port, { path: '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666' });
          assert.equal(ok.status, 200);
          assert.equal(ok.body.length, limit);
        });
      });

      it('answers 503 PROXY_BUSY with Retry-After when the answers being read at once would pass 32 MiB together, and gives the bytes back', async () => {
        // Nine answers of 4 MiB, each held before its last byte until the test lets them end:
        // eight fit in the budget, the ninth cannot.
        const size = 4 * 1024 * 1024;
        const piece = Buffer.alloc(64 * 1024, 0x20);
        let release!: () => void;
        const released = new Promise<void>((r) => (release = r));
        const big = await startRecorder(async (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(size) });
          for (let sent = 0; sent < size - 1; sent += piece.length) res.write(piece.subarray(0, Math.min(piece.length, size - 1 - sent)));
          await released;
          res.end(' ');
        });
        const px = await startProxy({ upstream: big.url, transport });
        const get = () => raw(px.port, { path: '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666' });
        try {
          const answers = Array.from({ length: 9 }, get);
          // The first refusal comes while the others are still held.
          const first = await Promise.race(answers);
          assertErrorShape(first, 503, 'PROXY_BUSY');
          assert.equal(first.headers['retry-after'], '1');
          release();
          const all = await Promise.all(answers);
          const ok = all.filter((r) => r.status === 200);
          assert.ok(ok.length >= 1 && ok.length <= 8, `${ok.length} answers relayed`);
          assert.ok(ok.every((r) => r.body.length === size));
          for (const r of all.filter((r) => r.status !== 200)) assertErrorShape(r, 503, 'PROXY_BUSY');
          assert.ok(px.logs.some((l) => l.code === 'PROXY_BUSY' && l.status === 503));
          // Every exchange gave its bytes back: eight more fit again at once.
          const again = await Promise.all(Array.from({ length: 8 }, get));
          assert.deepEqual(again.map((r) => r.status), Array(8).fill(200));
        } finally {
          release();
          await px.close();
          await big.close();
        }
      });

      it('does not let clients that stop reading starve others: when the 32 MiB is needed, the connection of the client that stopped reading longest ago is closed', async () => {
        // Answers of 4 MiB - 1: eight untaken fill the budget to 8 B short of 32 MiB.
        const size = 4 * 1024 * 1024 - 1;
        const body = Buffer.alloc(size, 0x20);
        const big = await startRecorder((req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(req.method === 'POST' ? JSON.stringify({ url: 'https://processor.example/reveal/' + 'x'.repeat(64) }) : body);
        });
        const px = await startProxy({ upstream: big.url, transport });
        const path = '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666';
        const sockets: net.Socket[] = [];
        const extra = { count: 0 };
        try {
          // Eight clients, one after the other, that read the first bytes of their answer, then stop reading.
          for (let i = 0; i < 8; i++) sockets.push(await heldAnswer(px, path, size, extra));
          // Once they have taken nothing for a while, they count as having stopped reading ...
          await new Promise((r) => setTimeout(r, STALLED_AFTER_MS + 500));
          // ... and another client's large read is relayed whole: the oldest untaken answer makes room for it.
          const read = await raw(px.port, { path });
          assert.equal(read.status, 200, read.status === 200 ? '' : read.text);
          assert.equal(read.body.length, size);
          // A ninth client that stops reading fills the budget again (seven untaken answers and its own) ...
          sockets.push(await heldAnswer(px, path, size, extra));
          // ... and another client's state change is sent and answered, with the room of the next oldest.
          const posts = big.requests.filter((r) => r.method === 'POST').length;
          const post = await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
          assert.equal(post.status, 200, post.text);
          assert.equal(big.requests.filter((r) => r.method === 'POST').length, posts + 1);
          // Those two connections were closed, and no other: the rest, reading again, get their whole answers.
          const outcomes = await Promise.all(sockets.map((socket) => readToEnd(socket, size)));
          assert.deepEqual(outcomes, ['cut', 'cut', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken']);
          await waitFor(() => px.logs.length === 11 + extra.count, 'a log line for each request');
        } finally {
          for (const socket of sockets) socket.destroy();
          await px.close();
          await big.close();
        }
      });

      // The transport's own path: its exchange drops the answer of a state change it already sent.
      it('answers 502 without Retry-After, saying it may have been carried out, when the answer of a state change already sent is dropped for the budget', async () => {
        // GET answers of 4 MiB - 1 that stop before their last byte until released: eight being
        // read fill the budget to 8 B short of 32 MiB, and nothing held by a client can be given up.
        const { big, size, releaseGets, releasePost } = await heldAnswers();
        const px = await startProxy({ upstream: big.url, transport });
        const path = '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666';
        const gets: Array<Promise<Awaited<ReturnType<typeof raw>>>> = [];
        const posts = () => big.requests.filter((r) => r.method === 'POST').length;
        /**
         * Until a read of 1 KiB has no room, which it finds only once the eight answers are all but
         * 1 KiB in the proxy's memory (more than the state change's answer leaves room for).
         */
        const budgetFull = async () => {
          for (const start = Date.now(); ; await new Promise((r) => setTimeout(r, 50))) {
            const probe = await raw(px.port, { path: `/api/auth/credentials?accountId=InternalAccount:11111111-1111-4111-8111-111111111111` });
            if (probe.status === 503) return assertErrorShape(probe, 503, 'PROXY_BUSY');
            assert.equal(probe.status, 200, probe.text);
            if (Date.now() - start > 10_000) throw new Error('timed out waiting for the eight answers in the proxy\'s memory');
          }
        };
        try {
          // Seven answers being read (28 MiB - 7 B): room for one more answer, so the state change is sent ...
          for (let i = 0; i < 7; i++) gets.push(raw(px.port, { path }));
          await waitFor(() => big.requests.filter((r) => r.url.includes('delegated-keys')).length === 7, 'the seven GETs upstream');
          const sent = raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
          await waitFor(() => posts() === 1, 'the POST upstream');
          // ... then an eighth read takes that room before the service answers it.
          gets.push(raw(px.port, { path }));
          await budgetFull();
          releasePost();
          const dropped = await sent;
          assertErrorShape(dropped, 502, 'BAD_GATEWAY');
          assert.equal(dropped.headers['retry-after'], undefined);
          assert.match(dropped.json.message, /reached the service and may have been carried out/);
          assert.equal(px.logs.find((l) => l.method === 'POST')!.status, 502);
          assert.equal(posts(), 1);
        } finally {
          releasePost();
          releaseGets();
          const answers = await Promise.all(gets);
          await px.close();
          await big.close();
          assert.deepEqual(answers.map((a) => [a.status, a.body.length]), Array(8).fill([200, size + 1]));
        }
      });

      it('gives an untaken answer\'s bytes back when its client takes it or leaves', async () => {
        // Answers of 4 MiB - 1: eight fill the budget to 8 B short of 32 MiB.
        const { size, big } = await fourMiBAnswers();
        const px = await startProxy({ upstream: big.url, transport });
        const path = '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666';
        const sockets: net.Socket[] = [];
        try {
          sockets.push(...(await Promise.all(Array.from({ length: 8 }, () => unreadAnswer(px.port, path)))));
          // One client takes its answer, another leaves: their bytes are given back ...
          const taken = new Promise<void>((r) => sockets[0]!.on('end', r));
          sockets[0]!.resume().end();
          await taken;
          sockets[1]!.destroy();
          await waitFor(() => px.logs.filter((l) => l.status === 200 || l.status === 499).length >= 2, 'the two answers to end');
          // ... so two more answers fit at once without closing any of the six clients still not reading.
          const again = await Promise.all([raw(px.port, { path }), raw(px.port, { path })]);
          assert.deepEqual(again.map((r) => r.status), [200, 200]);
          const outcomes = await Promise.all(sockets.slice(2).map((socket) => readToEnd(socket, size)));
          assert.deepEqual(outcomes, Array(6).fill('taken'));
        } finally {
          for (const socket of sockets) socket.destroy();
          await px.close();
          await big.close();
        }
      });

      it(`answers 502 BAD_GATEWAY to a status it does not relay (an unasked-for 101, one outside 100-599${transport === 'undici' ? ', a 100 undici cannot read past' : ''}), and reads past ${transport === 'node' ? 'a 100 and ' : ''}a 103`, async () => {
        // Raw status lines, one answer per connection; `next` is the answer to the next request.
        let next = '';
        const sockets = new Set<net.Socket>();
        const server = net.createServer((socket) => {
          sockets.add(socket);
          socket.on('error', () => {});
          socket.once('data', () => socket.end(next));
        });
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        const { port } = server.address() as AddressInfo;
        const px = await startProxy({ upstream: `http://127.0.0.1:${port}/2025-10-13`, upstreamTimeoutMs: 2000, transport });
        const ok = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}';
        const get = (answer: string) => {
          next = answer;
          return raw(px.port, { path: '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666' });
        };
        try {
          for (const answer of [
            ...(transport === 'undici' ? [`HTTP/1.1 100 Continue\r\n\r\n${ok}`] : []),
            'HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n',
            'HTTP/1.1 101 Switching Protocols\r\n\r\n',
            'HTTP/1.1 099 Odd\r\ncontent-length: 0\r\n\r\n',
            'HTTP/1.1 600 Odd\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
            'HTTP/1.1 999 Odd\r\ncontent-length: 0\r\n\r\n',
          ]) {
            const r = await get(answer);
            const line = answer.slice(0, answer.indexOf('\r\n'));
            assertErrorShape(r, 502, 'BAD_GATEWAY');
            assert.equal(r.json.message, 'The service answered with a status the proxy does not relay (a 1xx it did not ask for, or one outside 100-599).', line);
            assert.equal(px.logs.at(-1)!.status, 502, line);
          }
          // Answers no HTTP parser can read: the service was reached, and answered nonsense.
          for (const answer of ['HTTP/1.1 1000 Odd\r\ncontent-length: 0\r\n\r\n', 'HTTP/1.1 abc Odd\r\ncontent-length: 0\r\n\r\n', 'HTTP/1.1 200 OK\r\nbad header\r\ncontent-length: 0\r\n\r\n']) {
            const line = JSON.stringify(answer.slice(0, 24));
            const read = await get(answer);
            assertErrorShape(read, 502, 'BAD_GATEWAY');
            assert.equal(read.json.message, 'The service answered with something that is not valid HTTP.', line);
            next = answer;
            const change = await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
            assertErrorShape(change, 502, 'BAD_GATEWAY');
            assert.match(change.json.message, /^The service answered with something that is not valid HTTP\. /, line);
            assert.match(change.json.message, MAY_HAVE_BEEN_CARRIED_OUT, line);
          }
          const early = await get(`HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n${ok}`);
          assert.deepEqual([early.status, early.text], [200, '{}']);
          if (transport === 'node') {
            // RFC 9110 section 15.2: a 1xx nobody asked for is read past where the transport can.
            const cont = await get(`HTTP/1.1 100 Continue\r\n\r\n${ok}`);
            assert.deepEqual([cont.status, cont.text], [200, '{}']);
          }
        } finally {
          await px.close();
          for (const socket of sockets) socket.destroy();
          await new Promise<void>((r) => server.close(() => r()));
        }
      });
    });
  }

  it("an injected undici transport's own headers or body timeout, shorter than the proxy's, is 504 GATEWAY_TIMEOUT, not an unreachable service", async () => {
    // Answers its first request's head late; the next, its head and part of its body, then nothing.
    let asked = 0;
    const slow = await startRecorder((_req, res) => {
      if (asked++ === 0) return void setTimeout(() => res.destroyed || res.writeHead(200).end('{}'), 1500);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '20' });
      res.write('{"a"');
    });
    const pool = new Pool(new URL(slow.url).origin, { connections: 4, headersTimeout: 100, bodyTimeout: 100 });
    const px = await startProxy({ upstream: slow.url, upstreamTimeoutMs: 5000, transport: pool as never });
    try {
      for (const late of ['head', 'body']) {
        const t0 = Date.now();
        const r = await raw(px.port, { path: `/api/auth/delegated-keys/DelegatedKey:${crypto.randomUUID()}` });
        assertErrorShape(r, 504, 'GATEWAY_TIMEOUT');
        assert.ok(Date.now() - t0 < 4000, `late ${late}: answered at the transport's timeout, not the proxy's`);
      }
    } finally {
      await px.close();
      await pool.destroy();
      await slow.close().catch(() => {});
    }
  });

  it('bounds the injected undici transport the same way (relay, 504, 502)', async () => {
    const slow = await startRecorder((req, res) => {
      const delay = req.url.includes('/reveal') ? 1500 : 0;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'Request:u' });
        res.end(`{"echo":${JSON.stringify(req.body.toString())}}`);
      }, delay);
    });
    const pool = new Pool(new URL(slow.url).origin, { connections: 4 });
    const px = await startProxy({ upstream: slow.url, upstreamTimeoutMs: 200, transport: pool as never });
    try {
      const body = '{ "type":"EMAIL_OTP",  "accountId":"x" }';
      const ok = await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body });
      assert.equal(ok.status, 200);
      assert.equal(ok.json.echo, body);
      assert.equal(slow.requests.at(-1)!.headers['content-length'], String(body.length));
      assert.match(String(slow.requests.at(-1)!.headers.authorization), /^Basic /);
      const t0 = Date.now();
      assertErrorShape(await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS }), 504, 'GATEWAY_TIMEOUT');
      assert.ok(Date.now() - t0 < 1200);
      await slow.close();
      assertErrorShape(await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body }), 502, 'BAD_GATEWAY');
    } finally {
      await px.close();
      await pool.destroy();
      await slow.close().catch(() => {});
    }
  });

  // 503 with Retry-After tells a client "not done, send it again": true of a read, and of a state
  // change that was never sent, but not of one the service may already have carried out.
  describe('a state change and the 32 MiB of answers being read', () => {
    const GET_PATH = '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666';
    const POST_PATH = `/api/cards/${CARD}/reveal`;

    /**
     * The upstream of `heldAnswers`, and a proxy on a real undici Pool that counts the answer bytes
     * handed to the proxy, which are those its budget holds.
     */
    async function rig() {
      const { big, size, releaseGets, releasePost } = await heldAnswers();
      const pool = new Pool(new URL(big.url).origin, { connections: 16 });
      const counted = { bytes: 0 };
      const transport = {
        dispatch(opts: Parameters<Pool['dispatch']>[0], handler: Parameters<Pool['dispatch']>[1]) {
          return pool.dispatch(opts, {
            onRequestStart: (c, ctx) => handler.onRequestStart?.(c, ctx),
            onResponseStart: (c, status, headers, message) => handler.onResponseStart?.(c, status, headers, message),
            onResponseData: (c, chunk) => {
              counted.bytes += chunk.length;
              handler.onResponseData?.(c, chunk);
            },
            onResponseEnd: (c, trailers) => handler.onResponseEnd?.(c, trailers),
            onResponseError: (c, error) => handler.onResponseError?.(c, error),
          });
        },
      };
      const px = await startProxy({ upstream: big.url, transport });
      const gets: Array<Promise<Awaited<ReturnType<typeof raw>>>> = [];
      /** Sends `n` more GETs and waits until the proxy holds all but the last byte of each. */
      const holdGets = async (n: number) => {
        for (let i = 0; i < n; i++) gets.push(raw(px.port, { path: GET_PATH }));
        await waitFor(() => counted.bytes >= gets.length * size, `${gets.length} answers of 4 MiB held`, 10_000);
      };
      const post = () => raw(px.port, { method: 'POST', path: POST_PATH, headers: JSON_HEADERS });
      const posts = () => big.requests.filter((r) => r.method === 'POST').length;
      return {
        px,
        big,
        holdGets,
        post,
        posts,
        releasePost,
        async finish() {
          releaseGets();
          releasePost();
          const answers = await Promise.all(gets);
          await px.close();
          await pool.destroy();
          await big.close();
          return answers;
        },
      };
    }

    it('refuses a state change with 503 PROXY_BUSY and Retry-After before it is sent, while the budget has no room for an answer', async () => {
      const r = await rig();
      try {
        // 32 MiB - 8 B held: no answer of any size fits now.
        await r.holdGets(8);
        r.releasePost();
        const refused = await r.post();
        assertErrorShape(refused, 503, 'PROXY_BUSY');
        assert.equal(refused.headers['retry-after'], '1');
        assert.equal(r.posts(), 0, 'a state change answered "try again" was sent to the service');
      } finally {
        const answers = await r.finish();
        assert.deepEqual(answers.map((a) => a.status), Array(8).fill(200));
      }
    });

    it('answers 502 without Retry-After when the answer of a state change already sent is dropped for the budget', async () => {
      const r = await rig();
      try {
        // 28 MiB held: room for one more answer, so the state change is sent ...
        await r.holdGets(7);
        const sent = r.post();
        await waitFor(() => r.posts() === 1, 'the POST upstream');
        // ... then a read takes that room before the service answers it.
        await r.holdGets(1);
        r.releasePost();
        const dropped = await sent;
        assertErrorShape(dropped, 502, 'BAD_GATEWAY');
        assert.equal(dropped.headers['retry-after'], undefined);
        assert.match(dropped.json.message, /may have been carried out/);
        assert.equal(r.px.logs.at(-1)!.status, 502);
      } finally {
        const answers = await r.finish();
        assert.deepEqual(answers.map((a) => a.status), Array(8).fill(200));
      }
    });
  });

  // Node 20 emits no 'close' on a response still queued behind an earlier one of its connection
  // when that connection closes; what waits for it (the log line, the answer counted in the
  // budget) must end all the same.
  it('ends the requests a client pipelined and left unanswered: each is logged, and their answers leave the 32 MiB', async () => {
    const { size, big } = await fourMiBAnswers();
    const px = await startProxy({ upstream: big.url });
    const path = '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666';
    try {
      // Eight GETs in one write on one connection, none of their answers read; then the client leaves.
      const socket = net.connect(px.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(8));
      socket.pause();
      await waitFor(() => big.requests.length === 8, 'the eight GETs upstream');
      // The last answers are in (none is still being read) once the proxy has given each its response.
      await new Promise((r) => setTimeout(r, 300));
      socket.destroy();
      await waitFor(() => px.logs.length === 8, `a log line for each pipelined request (${px.logs.length} of 8)`);
      // Their bytes are given back: eight answers of 4 MiB fit again at once.
      const again = await Promise.all(Array.from({ length: 8 }, () => raw(px.port, { path })));
      assert.deepEqual(again.map((r) => r.status), Array(8).fill(200));
    } finally {
      await px.close();
      await big.close();
    }
  });

  it('answers 408 when the request body trickles in slower than the bound', async () => {
    const px = await startProxy({ upstream: up.url, upstreamTimeoutMs: 200 });
    try {
      const count = up.requests.length;
      const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: px.port, method: 'POST', path: '/api/auth/credentials', headers: { ...JSON_HEADERS, 'content-length': '10' } },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        req.write('{"a"');
        // Never finish the body.
      });
      assert.equal(r.status, 408);
      assert.equal(JSON.parse(r.body).code, 'REQUEST_TIMEOUT');
      assert.equal(up.requests.length, count);
    } finally {
      await px.close();
    }
  });

  // The client is still sending when the refusal goes out: without a lingering close the unread
  // bytes make the kernel reset the connection, and the client may lose the answer (seen under load).
  it('closes the connection after refusing a request whose body it did not read, so the body bound holds and the refusal arrives', async () => {
    const px = await startProxy({ upstream: up.url, maxBodyBytes: 1024 });
    try {
      // Refusals that come before the body is read: wrong content type, unknown route, bad path id.
      const refusals: Array<[string, string, number]> = [
        ['/api/auth/credentials', 'text/plain', 415],
        ['/api/no-such-route', 'application/json', 404],
        ['/api/cards/Card:x/reveal', 'application/json', 400],
      ];
      for (const [path, type, status] of refusals) {
        const socket = net.connect(px.port, '127.0.0.1');
        await new Promise<void>((r) => socket.once('connect', () => r()));
        let answer = '';
        socket.on('data', (d) => (answer += d));
        const closed = new Promise<void>((r) => socket.once('close', () => r()));
        socket.on('error', () => undefined);
        socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nX-Requested-With: test\r\nTransfer-Encoding: chunked\r\n\r\n`);
        // Stream body chunks until the proxy closes (bounded: at most 2 s, 1 MiB).
        let sent = 0;
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        const started = Date.now();
        let open = true;
        void closed.then(() => (open = false));
        while (open && sent < 1024 * 1024 && Date.now() - started < 2000) {
          socket.write(`${chunk.length.toString(16)}\r\n`);
          socket.write(chunk);
          socket.write('\r\n');
          sent += chunk.length;
          await new Promise((r) => setTimeout(r, 5));
        }
        socket.destroy();
        assert.match(answer, new RegExp(`^HTTP/1.1 ${status} `), path);
        assert.match(answer, /\r\nconnection: close\r\n/i, path);
        assert.equal(open, false, `${path}: the proxy closed the connection (sent ${sent} B)`);
        assert.ok(sent < 1024 * 1024, `${path}: closed before 1 MiB was sent (sent ${sent} B)`);
      }
      // A request whose body was read stays on a reusable connection.
      const ok = await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: { ...JSON_HEADERS, connection: 'keep-alive' }, body: '{}' });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.connection, 'keep-alive');
    } finally {
      await px.close();
    }
  });

  it('answers 504 when an authorize hook does not settle within upstreamTimeoutMs', async () => {
    const px = await startProxy({ upstream: up.url, upstreamTimeoutMs: 150, authorize: () => new Promise<boolean>(() => undefined) });
    try {
      const count = up.requests.length;
      const started = Date.now();
      const r = await raw(px.port, { path: `/api/cards/${CARD}/reveal`, method: 'POST', headers: JSON_HEADERS });
      assertErrorShape(r, 504, 'GATEWAY_TIMEOUT');
      assert.ok(Date.now() - started < 2000);
      assert.equal(up.requests.length, count);
      assert.equal(px.logs.at(-1)!.status, 504);
    } finally {
      await px.close();
    }
  });

  it('rate-limits each client with 429 RATE_LIMITED and Retry-After', async () => {
    // A window no run of the test outlasts, so that the counts cannot start over midway on a busy machine.
    const px = await startProxy({ upstream: up.url, rateLimit: { windowMs: 60_000, max: 5 } });
    const reveal = (port: number, client?: string) =>
      raw(port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: client === undefined ? JSON_HEADERS : { ...JSON_HEADERS, 'x-test-client': client } });
    try {
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<typeof raw>> | undefined;
      for (let i = 0; i < 8; i++) {
        const r = await reveal(px.port);
        statuses.push(r.status);
        if (r.status === 429) limited ??= r;
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
      assertErrorShape(limited!, 429, 'RATE_LIMITED');
      // Told apart from the service's own 429 RATE_LIMITED (a code sent recently), relayed as sent.
      assert.deepEqual(limited!.json?.details, { reason: 'PROXY_RATE_LIMIT' });
      const retryAfter = Number(limited!.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      // Another client (keyed by clientIp) is not affected.
      const other = await startProxy({ upstream: up.url, rateLimit: { windowMs: 60_000, max: 1 }, clientIp: (req) => String(req.headers['x-test-client']) });
      try {
        assert.equal((await reveal(other.port, 'a')).status, 200);
        assert.equal((await reveal(other.port, 'a')).status, 429);
        assert.equal((await reveal(other.port, 'b')).status, 200);
      } finally {
        await other.close();
      }
    } finally {
      await px.close();
    }
  });

  it('serves a rate-limited client again after the Retry-After it was given', async () => {
    const px = await startProxy({ upstream: up.url, rateLimit: { windowMs: 2000, max: 1 } });
    const reveal = () => raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
    try {
      assert.equal((await reveal()).status, 200);
      // Until one is limited: a busy machine may let a window pass between two requests.
      let limited: Awaited<ReturnType<typeof raw>> | undefined;
      for (let i = 0; i < 5 && !limited; i++) {
        const r = await reveal();
        if (r.status === 429) limited = r;
        else assert.equal(r.status, 200);
      }
      assertErrorShape(limited!, 429, 'RATE_LIMITED');
      const retryAfter = Number(limited!.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 2, `Retry-After ${retryAfter}`);
      // After the window the client is served again.
      await new Promise((r) => setTimeout(r, retryAfter * 1000 + 50));
      assert.equal((await reveal()).status, 200);
    } finally {
      await px.close();
    }
  });

  it('refuses to build without a binding, and with malformed options', async () => {
    const { createProxy } = await import('../../../src/proxy/index.ts');
    const base = { upstream: up.url, tokenId: 't', clientSecret: 's' };
    // (TypeScript refuses it too; a plain JavaScript caller gets the TypeError.)
    // @ts-expect-error no authorize, accountFor or demoAccount
    assert.throws(() => createProxy(base), /authorize|demoAccount/);
    assert.throws(() => createProxy({ ...base, demoAccount: { customerId: 'x', accountId: 'y', cardId: 'z' } }), /demoAccount/);
    assert.throws(() => createProxy({ ...base, authorize: () => true, allowedOrigins: ['https://a.example/'] }), /allowedOrigins/);
    assert.throws(() => createProxy({ ...base, authorize: () => true, upstream: 'ftp://x' }), /upstream/);
    assert.throws(() => createProxy({ ...base, authorize: () => true, tokenId: 'a:b' }), /tokenId/);
    // Past 2^31 - 1 ms Node's timers fire at once (TimeoutOverflowWarning): every request would time out.
    for (const ms of [Infinity, 2 ** 31, Number.NaN]) {
      assert.throws(() => createProxy({ ...base, authorize: () => true, upstreamTimeoutMs: ms }), /^TypeError: upstreamTimeoutMs must be/);
      assert.throws(() => createProxy({ ...base, authorize: () => true, rateLimit: { windowMs: ms, max: 10 } }), /^TypeError: rateLimit needs windowMs/);
    }
  });

  it('names an option it does not know, and a setting left unset, instead of ignoring them', async () => {
    const { createProxy } = await import('../../../src/proxy/index.ts');
    const base = { upstream: up.url, tokenId: 't', clientSecret: 's', authorize: () => true };
    // A misspelt option would otherwise drop what it asks for: here, the card step-up.
    assert.throws(() => createProxy({ ...base, stepup: {} } as never), { name: 'TypeError', message: 'createProxy has no option "stepup" (did you mean "stepUp"?)' });
    assert.throws(() => createProxy({ ...base, allowedOrigin: ['https://shop.example'] } as never), /no option "allowedOrigin" \(did you mean "allowedOrigins"\?\)/);
    assert.throws(() => createProxy({ ...base, cors: true } as never), /^TypeError: createProxy has no option "cors"$/);
    assert.throws(() => createProxy({ ...base, stepUp: { ttl: 30 } } as never), /stepUp has no option "ttl"/);
    assert.throws(() => createProxy({ ...base, rateLimit: { max: 5, window: 1000 } } as never), /rateLimit has no option "window"/);
    // `process.env.SERVICE_BASE_URL` and the credentials when the environment does not set them.
    assert.throws(() => createProxy({ ...base, upstream: undefined }), /^TypeError: upstream is not set: the service's base URL with its version segment/);
    assert.throws(() => createProxy({ ...base, tokenId: undefined }), /^TypeError: tokenId is not set/);
    assert.throws(() => createProxy({ ...base, clientSecret: undefined }), /^TypeError: clientSecret is not set/);
    // Set but empty or blank (`SERVICE_TOKEN_ID=` in a compose file, an unset variable substituted
    // as ""), or with a line break from a secret file: said as such, the value never echoed.
    for (const blank of ['', '   ', '\t']) {
      assert.throws(() => createProxy({ ...base, upstream: blank }), /^TypeError: upstream is empty: the service's base URL/);
      assert.throws(() => createProxy({ ...base, tokenId: blank }), /^TypeError: tokenId is empty: the platform's API token id$/);
      assert.throws(() => createProxy({ ...base, clientSecret: blank }), /^TypeError: clientSecret is empty: the platform's API client secret$/);
    }
    assert.throws(() => createProxy({ ...base, tokenId: 'token-id\n' }), /^TypeError: tokenId must not contain a line break or other control character \(RFC 7617\)$/);
    assert.throws(() => createProxy({ ...base, clientSecret: 'very-secret\r\n' }), /^TypeError: clientSecret must not contain a line break or other control character \(RFC 7617\)$/);
    // Every documented option is known.
    const all = { ...base, accountFor: () => undefined, basePath: '/api', signatureHeader: 'X-Sig', challengeSecret: 'c', rp: { name: 'n' }, allowedOrigins: [], allowedHosts: [], maxBodyBytes: 10, upstreamTimeoutMs: 10, rateLimit: { windowMs: 1000, max: 1 }, logger: () => undefined, clientIp: () => '', transport: 'node' as const, stepUp: { secret: 's', ttlSeconds: 5, accountForCard: () => undefined, cookieName: 'c' } };
    await createProxy(all).close();
  });

  it('names an option given a value of the wrong type, at createProxy rather than at the first request', async () => {
    const { createProxy } = await import('../../../src/proxy/index.ts');
    const base = { upstream: up.url, tokenId: 't', clientSecret: 's', authorize: () => true };
    const wallet = { customerId: 'Customer:x', accountId: 'InternalAccount:y', cardId: 'Card:z' };
    // The hooks: a wallet object given where a function of the request is asked for, a logger name.
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ authorize: true }, /^TypeError: authorize must be a function/],
      [{ accountFor: wallet }, /^TypeError: accountFor must be a function/],
      [{ logger: 'console' }, /^TypeError: logger must be a function/],
      [{ clientIp: 'x-forwarded-for' }, /^TypeError: clientIp must be a function/],
      [{ stepUp: { accountForCard: 'Card:z' } }, /^TypeError: stepUp.accountForCard must be a function/],
      // Strings given as something else, which failed with "….replace is not a function" and the like.
      [{ basePath: 123 }, /^TypeError: basePath must look like \/api/],
      [{ signatureHeader: 5 }, /^TypeError: signatureHeader must be a header name/],
      [{ challengeSecret: 5 }, /^TypeError: challengeSecret must be a non-empty string/],
      [{ stepUp: { secret: 5 } }, /^TypeError: stepUp.secret must be a non-empty string/],
      // One origin given as a string, not a list: it was read letter by letter ('got "h"').
      [{ allowedOrigins: 'https://shop.example' }, /^TypeError: allowedOrigins must be a list of exact origins/],
      // A number written as text (an environment variable passed as it is) was accepted.
      [{ upstreamTimeoutMs: '1000' }, /^TypeError: upstreamTimeoutMs must be a number of milliseconds/],
      [{ rp: null }, /^TypeError: rp must be an object/],
      [{ rp: { id: 'https://wallet.example.com', name: 'n' } }, /^TypeError: rp.id must be a host name such as wallet.example.com/],
      [{ rp: { id: 5, name: 'n' } }, /^TypeError: rp.id must be a host name/],
    ];
    for (const [patch, expected] of cases) {
      assert.throws(() => createProxy({ ...base, ...patch } as never), expected, JSON.stringify(patch));
    }
  });
});
