/**
 * The HTTP server the command-line proxy and the demo run the proxy in, with bounds on the client
 * side: slow headers or bodies do not hold a connection for long, nor does a client that does not
 * take its answer, and what Node refuses before the proxy sees a request (a malformed request
 * line, headers too large, headers too slow, an Expect other than 100-continue, a method it does
 * not know, CONNECT) is answered in the service's error shape, the connection then closed.
 *
 * Node's header and request timeouts end once the request has arrived, and its socket timeout is
 * off: a client that sends a request and then stops reading would keep its connection, and the
 * answer buffered for it (up to the proxy's 4 MiB), for as long as it likes. So while a request is
 * answered, a connection on which nothing moves for `responseTimeoutMs` is destroyed (the socket's
 * idle timer, which each write handed to the connection and each write it completes restarts).
 * The proxy writes a large answer 64 KiB at a time, so a client taking it slowly (a phone at
 * 1 Mbit/s takes 4 MiB in about 34 s) keeps its connection while it reads, and one that stops
 * reading loses it `responseTimeoutMs` later. An answer the kernel's buffers hold whole is taken
 * at once. The proxy's own waits (an `authorize` decision, the service) last at most 10 s each by
 * default, well within the 30 s.
 *
 * Node checks the header and request timeouts only every `connectionsCheckingInterval` (30 s by
 * default), so a 15-second bound held a slow client 30 to 45 seconds; the check runs every second
 * here (at most half the header timeout).
 *
 * Deliberately does not: terminate TLS or listen; an integrator mounting `createProxy` in its own
 * server sets its own bounds.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';

export interface ServerBounds {
  /** Time for the request headers to arrive (default 15 s). */
  headersTimeoutMs?: number;
  /** Time for the whole request to arrive (default 30 s). */
  requestTimeoutMs?: number;
  /** How long an idle kept-alive connection stays open (default 5 s). */
  keepAliveTimeoutMs?: number;
  /** How long nothing may move on a connection while its request is answered, such as a client not taking its answer (default 30 s). */
  responseTimeoutMs?: number;
}

export function boundedServer(handler: http.RequestListener, bounds: ServerBounds = {}): http.Server {
  const headersTimeout = bounds.headersTimeoutMs ?? 15_000;
  const responseTimeout = bounds.responseTimeoutMs ?? 30_000;
  const server = http.createServer({ connectionsCheckingInterval: Math.max(10, Math.min(1000, headersTimeout / 2)) }, (req, res) => {
    // Node set the connection's timeout to the server's (none) for this request and sets its
    // keep-alive timeout once the answer is out; a timeout no listener takes destroys the socket.
    req.socket.setTimeout(responseTimeout);
    handler(req, res);
  });
  server.headersTimeout = headersTimeout;
  server.requestTimeout = Math.max(bounds.requestTimeoutMs ?? 30_000, headersTimeout);
  server.keepAliveTimeout = bounds.keepAliveTimeoutMs ?? 5_000;
  // A client may half-close its side once its request is sent (RFC 9112 section 9.6); Node's
  // server would end the connection at once, the answer unwritten. This keeps it open until the
  // answer is out (no documented option in Node 20).
  (server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
    const [status, code, message] =
      // A request line with a method Node does not know (RFC 9110 section 9.1: 501); a line that
      // is not a request line at all stays a 400.
      err.code === 'HPE_INVALID_METHOD' && REQUEST_LINE.test(String((err as { rawPacket?: unknown }).rawPacket))
        ? NOT_IMPLEMENTED
        : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'The request headers are too large.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time.']
          : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
            ? [413, 'PAYLOAD_TOO_LARGE', 'The request body\'s chunk extensions are too large.']
            : [400, 'INVALID_INPUT', 'The request is not valid HTTP.'];
    refuse(socket, status, code, message);
  });
  // CONNECT never reaches a request listener; without this one Node closes its connection unanswered.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => refuse(socket, ...NOT_IMPLEMENTED));
  // An Expect other than 100-continue (RFC 9110 section 10.1.1), which Node would answer with an
  // empty 417 and a connection left open.
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = JSON.stringify({ status: 417, code: 'EXPECTATION_FAILED', message: 'The request\'s Expect header asks for what the proxy does not do.' });
    res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...SAFE, connection: 'close' }).end(body);
  });
  return server;
}

/** An HTTP/1.x request line (RFC 9112 section 3): a method token, a target, the version. */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [!-~]+ HTTP\/1\.[01]\r?\n/;
const NOT_IMPLEMENTED = [501, 'NOT_IMPLEMENTED', 'The proxy does not serve this method: it relays its routes only, and opens no tunnels (CONNECT).'] as const;

/** The headers every refusal of the proxy carries (proxy.ts send). */
const SAFE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };

/** Answers in the service's error shape, then closes the connection. */
function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ status, code, message });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n${Object.entries(SAFE).map(([k, v]) => `${k}: ${v}\r\n`).join('')}connection: close\r\n\r\n${body}`,
  );
}
