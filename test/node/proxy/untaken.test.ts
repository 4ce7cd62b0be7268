/**
 * Answers the proxy has written and its clients have not taken yet (upstream.ts, the 32 MiB
 * budget), over real HTTP on loopback: which connection is closed when their bytes are needed,
 * and that what they count is given back exactly.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { describe, it } from 'node:test';
import { STALLED_AFTER_MS } from '../../../src/proxy/upstream.ts';
import { CARD, raw, startProxy, startRecorder, waitFor } from './helpers.ts';

/** Answers of 4 MiB - 1: eight untaken fill the budget to 8 B short of 32 MiB. */
const SIZE = 4 * 1024 * 1024 - 1;
const BODY = Buffer.alloc(SIZE, 0x20);
const GET_PATH = '/api/auth/delegated-keys/DelegatedKey:66666666-6666-4666-8666-666666666666';
const POST_PATH = `/api/cards/${CARD}/reveal`;
/** Past the time without progress after which a connection counts as having stopped reading (STALLED_AFTER_MS). */
const PAST_STALL_MS = STALLED_AFTER_MS + 500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The start of the answer each `stalled` client got. */
const firstBytes = new WeakMap<net.Socket, string>();

/**
 * A client that sends `request`, reads the first bytes of the answer (the proxy has handed it
 * over), then stops reading: the rest waits in the proxy's memory.
 */
async function stalled(port: number, request = `GET ${GET_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, only200 = true): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(request);
  const first = await new Promise<Buffer>((r) => socket.once('data', r));
  socket.pause();
  firstBytes.set(socket, first.toString('latin1'));
  if (only200) assert.match(first.toString('latin1'), /^HTTP\/1.1 200 /);
  return socket;
}

/** Lets a client read what is left; 'taken' when it got the whole answer, 'cut' when its connection was closed before. */
function outcome(socket: net.Socket): Promise<'taken' | 'cut'> {
  return new Promise((resolve) => {
    socket.once('close', () => resolve(socket.bytesRead > SIZE ? 'taken' : 'cut'));
    socket.setTimeout(5000, () => socket.destroy());
    socket.resume();
    socket.end();
  });
}

/**
 * A client that asks for four answers on one connection and reads them steadily at
 * `bytesPerSecond` (a phone on a slow network) until `readFast`; `done` resolves with the bytes it
 * read once the connection ends. (Four, so that the proxy still holds some while the test runs:
 * loopback's buffers take the first and more at once.)
 */
function slowReader(port: number, bytesPerSecond: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET ${GET_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(3) + `GET ${GET_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  let fast = false;
  socket.on('data', (chunk: Buffer) => {
    if (fast) return;
    socket.pause();
    setTimeout(() => socket.resume(), (chunk.length / bytesPerSecond) * 1000);
  });
  const done = new Promise<number>((r) => socket.once('close', () => r(socket.bytesRead)));
  return {
    socket,
    done,
    readFast() {
      fast = true;
      socket.resume();
    },
  };
}

async function bigUpstream() {
  return startRecorder((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(SIZE) });
    res.end(BODY);
  });
}

describe('answers left untaken and the 32 MiB', () => {
  it('does not close a client that is taking its answers slowly (2 Mbit/s): those that stopped reading are closed instead', async () => {
    const big = await bigUpstream();
    const px = await startProxy({ upstream: big.url });
    const sockets: net.Socket[] = [];
    // Loopback's send buffer grows to 4 MiB, and the kernel takes more of the answers each time a
    // third of it is free again: at 256 KiB/s every 5 s or so (see STALLED_AFTER_MS).
    const phone = slowReader(px.port, 256 * 1024);
    try {
      await waitFor(() => phone.socket.bytesRead > 0, 'the slow client to get its first bytes');
      // Clients after it that stop reading, until the budget is full: the next is refused (503).
      for (let i = 0; i < 8; i++) {
        const socket = await stalled(px.port, undefined, false);
        sockets.push(socket);
        if (!/^HTTP\/1.1 200 /.test(firstBytes.get(socket)!)) break;
      }
      assert.match(firstBytes.get(sockets.at(-1)!)!, /^HTTP\/1.1 503 /, 'no client was refused: the proxy closed connections to make room, the slow client\'s among them');
      sockets.pop()!.destroy();
      await sleep(PAST_STALL_MS);
      // Two more clients' large reads need the bytes of one untaken answer or two.
      const reads = await Promise.all([raw(px.port, { path: GET_PATH }), raw(px.port, { path: GET_PATH })]);
      assert.deepEqual(reads.map((r) => [r.status, r.body.length]), [[200, SIZE], [200, SIZE]]);
      phone.readFast();
      assert.ok((await phone.done) > 4 * SIZE, 'the client taking its answers slowly was cut');
      const outcomes = await Promise.all(sockets.map(outcome));
      assert.ok(outcomes[0] === 'cut', `no client that stopped reading was closed: ${outcomes}`);
    } finally {
      phone.socket.destroy();
      for (const socket of sockets) socket.destroy();
      await px.close();
      await big.close();
    }
  });

  it('does not drop a state change\'s answer to make room for a read: a read\'s connection is closed, else the read gets 503', async () => {
    const big = await bigUpstream();
    const px = await startProxy({ upstream: big.url });
    const sockets: net.Socket[] = [];
    try {
      // The oldest untaken answer is a state change's.
      const change = await stalled(px.port, `POST ${POST_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n`);
      for (let i = 0; i < 7; i++) sockets.push(await stalled(px.port));
      await sleep(PAST_STALL_MS);
      const read = await raw(px.port, { path: GET_PATH });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(await Promise.all(sockets.map(outcome)), ['cut', 'taken', 'taken', 'taken', 'taken', 'taken', 'taken']);
      assert.equal(await outcome(change), 'taken', 'the state change\'s answer was dropped');
    } finally {
      for (const socket of sockets) socket.destroy();
      await px.close();
      await big.close();
    }
  });

  it('gives back exactly what it counted, over keep-alive reuse, pipelining, clients leaving mid-answer and half-closing', async () => {
    const big = await bigUpstream();
    const px = await startProxy({ upstream: big.url });
    try {
      // Three answers taken one after the other on one kept-alive connection.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; i < 3; i++) {
        const body = await new Promise<number>((resolve, reject) => {
          http.get({ port: px.port, host: '127.0.0.1', path: GET_PATH, agent }, (res) => {
            let n = 0;
            res.on('data', (c: Buffer) => (n += c.length));
            res.on('end', () => resolve(n));
          }).on('error', reject);
        });
        assert.equal(body, SIZE);
      }
      agent.destroy();
      // Three pipelined, the first partly read, then the client leaves.
      const pipelined = await stalled(px.port, `GET ${GET_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(3));
      // One that stops reading and leaves, one that half-closes and then reads it all.
      const leaving = await stalled(px.port);
      const halfClosing = await stalled(px.port);
      await waitFor(() => big.requests.length === 8, 'the answers upstream');
      await sleep(300);
      pipelined.destroy();
      leaving.destroy();
      assert.equal(await outcome(halfClosing), 'taken');
      await waitFor(() => px.logs.length === 8, `a log line for each request (${px.logs.length} of 8)`);
      // Nothing stays counted, nor is given back twice: of nine answers read at once (each held
      // before its last byte until all nine are in), eight fit in the 32 MiB and the ninth does not.
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let waiting = 0;
      big.setResponder(async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(SIZE) });
        res.write(BODY.subarray(0, SIZE - 1));
        waiting++;
        await released;
        res.end(BODY.subarray(SIZE - 1));
      });
      const answers = Array.from({ length: 9 }, () => raw(px.port, { path: GET_PATH }));
      await waitFor(() => waiting === 9, 'the nine answers upstream');
      await sleep(300);
      release();
      const statuses = (await Promise.all(answers)).map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 503]);
    } finally {
      await px.close();
      await big.close();
    }
  });
});
