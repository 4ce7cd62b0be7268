/**
 * The server the command-line proxy and the demo run in (src/proxy/server.ts): a client whose
 * headers trickle in is answered 408 in the service's shape once the header bound has passed, not
 * whenever Node's connection check (30 s by default) next comes round.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { it } from 'node:test';
import { boundedServer } from '../../../src/proxy/server.ts';

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
