/**
 * A client that half-closes its side once its request is sent (RFC 9112 section 9.6 lets it), in a
 * plain node:http server whose `httpAllowHalfOpen` is left at Node's default (false), with the real
 * sandbox upstream over loopback: the proxy's own answers still reach it, and the server's setting is
 * left as it was for every other connection.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createProxy, type ProxyHandler } from '../../../src/proxy/index.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';

/** Writes `text` on a new connection and ends the client's side at once; resolves to all that came back. */
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

describe('a client that half-closes its side after its request, in a node:http server left at its defaults', () => {
  let sandbox: Sandbox;
  let proxy: ProxyHandler;
  let server: http.Server;
  let port: number;

  before(async () => {
    sandbox = await startSandbox();
    const f = sandbox.fixtures;
    proxy = createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, demoAccount: f, rateLimit: false });
    // Another route of the integrator's beside the proxy: Node's default holds for it.
    server = http.createServer((req, res) => (req.url!.startsWith('/api/') ? proxy(req, res) : setTimeout(() => res.end('late'), 100)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await proxy.close();
    await sandbox.close();
  });

  it('is answered by the proxy: a read, a state change with a body, a refusal; the server\'s setting stays as it was', async () => {
    const f = sandbox.fixtures;
    const host = `Host: 127.0.0.1:${port}\r\n`;
    const read = await sendAndHalfClose(port, `GET /api/auth/credentials?accountId=${encodeURIComponent(f.accountId)} HTTP/1.1\r\n${host}\r\n`);
    assert.match(read, /^HTTP\/1\.1 200 [^]*\r\n\r\n\{"data":\[/, `a read: ${JSON.stringify(read.slice(0, 200))}`);
    const body = JSON.stringify({ accountId: f.accountId, userName: 'demo' });
    const change = await sendAndHalfClose(
      port,
      `POST /api/webauthn/registration-options HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    assert.match(change, /^HTTP\/1\.1 200 [^]*"challenge":"/, `a request with a body: ${JSON.stringify(change.slice(0, 200))}`);
    const refused = await sendAndHalfClose(port, `GET /api/nowhere HTTP/1.1\r\n${host}\r\n`);
    assert.match(refused, /^HTTP\/1\.1 404 [^]*"code":"NOT_FOUND"/, `a refusal: ${JSON.stringify(refused.slice(0, 200))}`);
    assert.equal((server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen, false, 'the server\'s own setting is changed');
    // The integrator's other route keeps Node's default: its connection ends when the client's does.
    assert.equal(await sendAndHalfClose(port, `GET /other HTTP/1.1\r\n${host}\r\n`), '');
  });
});
