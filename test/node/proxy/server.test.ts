/**
 * The server the command-line proxy and the demo run in (src/proxy/server.ts): a client whose
 * headers trickle in is answered 408 in the service's shape once the header bound has passed, not
 * whenever Node's connection check (30 s by default) next comes round; a client that does not read
 * its answer loses its connection once the answer bound has passed.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { it } from 'node:test';
import { createProxy } from '../../../src/proxy/index.ts';
import { boundedServer } from '../../../src/proxy/server.ts';
import { CLIENT_SECRET, DELEGATED_KEY, TOKEN_ID, raw, startRecorder, waitFor, withBoundedProxy } from './helpers.ts';

/**
 * The proxy in boundedServer (responseTimeoutMs 1000), listening on 127.0.0.1, in front of an
 * upstream whose every answer is `size` bytes (about 4 MiB: more than the sockets' buffers hold).
 */
async function bigAnswers() {
  const size = 4 * 1024 * 1024 - 100;
  const up = await startRecorder((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(Buffer.alloc(size, 0x20));
  });
  const proxy = createProxy({ upstream: up.url, tokenId: TOKEN_ID, clientSecret: CLIENT_SECRET, authorize: () => true, rateLimit: false });
  const server = boundedServer(proxy, { responseTimeoutMs: 1000 });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const close = async () => {
    server.closeAllConnections();
    server.close();
    await proxy.close();
    await up.close();
  };
  return { size, server, port, close };
}

it('answers 408 REQUEST_TIMEOUT to headers slower than the bound, within about the bound', async () => {
  const server = boundedServer((_req, res) => res.end('{}'), { headersTimeoutMs: 1500 });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  try {
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('error', () => undefined);
    const started = Date.now();
    socket.write('GET /api/x HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One header line every 300 ms: the connection stays busy, the headers never end.
    const drip = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`), 300);
    // Bounded: the old 30-second check interval would answer only after this test's wait.
    const closed = await Promise.race([once(socket, 'close').then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 8000))]);
    clearInterval(drip);
    const elapsed = Date.now() - started;
    assert.ok(closed, `no answer after ${elapsed} ms`);
    assert.ok(elapsed >= 1400 && elapsed < 4000, `closed after ${elapsed} ms for a 1500 ms bound`);
    assert.match(answer, /^HTTP\/1.1 408 /);
    assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code, 'REQUEST_TIMEOUT');
  } finally {
    socket.destroy();
    server.closeAllConnections();
    server.close();
  }
});

// Node's header and request timeouts end once the request has arrived: without a bound of its
// own, a client that stops reading keeps its connection and the answer buffered for it.
it('closes a connection whose answer the client does not take within responseTimeoutMs, and serves one that reads', async () => {
  const { size, server, port, close } = await bigAnswers();
  const held: Array<Promise<unknown>> = [];
  server.on('connection', (s: Socket) => held.push(once(s, 'close')));
  const socket = connect(port, '127.0.0.1');
  try {
    // Sends a request, then reads nothing: its answer stays in the proxy's buffers.
    socket.pause();
    socket.on('error', () => undefined);
    const started = Date.now();
    socket.write(`GET /api/auth/delegated-keys/${DELEGATED_KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await waitFor(() => held.length === 1, 'the connection');
    const closed = await Promise.race([held[0]!.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 6000))]);
    const elapsed = Date.now() - started;
    assert.ok(closed, `the proxy still held the connection of a client that does not read after ${elapsed} ms`);
    assert.ok(elapsed >= 900 && elapsed < 4000, `closed after ${elapsed} ms for a 1000 ms bound`);
    // A client that reads takes the same answer whole.
    const ok = await raw(port, { path: `/api/auth/delegated-keys/${DELEGATED_KEY}` });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.length, size);
  } finally {
    socket.destroy();
    await close();
  }
});

it('keeps the connection of a client that takes a large answer slowly, for longer than responseTimeoutMs in all', async () => {
  const { size, port, close } = await bigAnswers();
  const socket = connect(port, '127.0.0.1');
  try {
    socket.on('error', () => undefined);
    // Reads at 1 MiB/s, never pausing a whole second: the answer takes about 4 s.
    const rate = 1024 * 1024;
    socket.on('data', (chunk: Buffer) => {
      socket.pause();
      setTimeout(() => socket.resume(), (chunk.length / rate) * 1000);
    });
    const started = Date.now();
    socket.write(`GET /api/auth/delegated-keys/${DELEGATED_KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    await once(socket, 'close');
    const elapsed = Date.now() - started;
    assert.ok(socket.bytesRead > size, `cut after ${socket.bytesRead} of ${size} bytes, ${elapsed} ms`);
    assert.ok(elapsed > 2000, `read in ${elapsed} ms: not slowly enough to test the bound`);
  } finally {
    socket.destroy();
    await close();
  }
});

/**
 * Writes `text` on a new connection and half-closes it at once (the client's FIN after its whole
 * request, which HTTP/1.1 allows); resolves to all that came back once the server closed its side.
 */
function sendAndHalfClose(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

it('answers a client that half-closes its side once its whole request is sent: a read, a state change, a refusal, a large answer', async () => {
  await withBoundedProxy(async (up, port) => {
    const read = await sendAndHalfClose(port, `GET /api/auth/delegated-keys/${DELEGATED_KEY} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    assert.match(read, /^HTTP\/1\.1 200 /, `a read: ${JSON.stringify(read)}`);
    assert.match(read, /"ok":true/);
    const body = '{}';
    const change = await sendAndHalfClose(
      port,
      `POST /api/auth/credentials HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    assert.match(change, /^HTTP\/1\.1 200 /, `a state change: ${JSON.stringify(change)}`);
    const refused = await sendAndHalfClose(port, `GET /api/nowhere HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    assert.match(refused, /^HTTP\/1\.1 404 /, `a refusal: ${JSON.stringify(refused)}`);
    assert.match(refused, /"code":"NOT_FOUND"/);
    assert.equal(up.requests.length, 2);
  });
  const { size, port, close } = await bigAnswers();
  try {
    const answer = await sendAndHalfClose(port, `GET /api/auth/delegated-keys/${DELEGATED_KEY} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.equal(answer.length - answer.indexOf('\r\n\r\n') - 4, size, 'the large answer came whole');
  } finally {
    await close();
  }
});
