/**
 * The HTTP server the command-line proxy and the demo run the proxy in, with bounds on the client
 * side: slow headers or bodies do not hold a connection for long, and what Node refuses before the
 * proxy sees a request (a malformed request line, headers too large, headers too slow) is answered
 * in the service's error shape, the connection then closed.
 *
 * Node checks the header and request timeouts only every `connectionsCheckingInterval` (30 s by
 * default), so a 15-second bound held a slow client 30 to 45 seconds; the check runs every second
 * here (at most half the header timeout).
 *
 * Deliberately does not: terminate TLS or listen; an integrator mounting `createProxy` in its own
 * server sets its own bounds.
 */
import http from 'node:http';

export interface ServerBounds {
  /** Time for the request headers to arrive (default 15 s). */
  headersTimeoutMs?: number;
  /** Time for the whole request to arrive (default 30 s). */
  requestTimeoutMs?: number;
  /** How long an idle kept-alive connection stays open (default 5 s). */
  keepAliveTimeoutMs?: number;
}

export function boundedServer(handler: http.RequestListener, bounds: ServerBounds = {}): http.Server {
  const headersTimeout = bounds.headersTimeoutMs ?? 15_000;
  const server = http.createServer({ connectionsCheckingInterval: Math.max(10, Math.min(1000, headersTimeout / 2)) }, handler);
  server.headersTimeout = headersTimeout;
  server.requestTimeout = Math.max(bounds.requestTimeoutMs ?? 30_000, headersTimeout);
  server.keepAliveTimeout = bounds.keepAliveTimeoutMs ?? 5_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
    const [status, code, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'The request headers are too large.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time.']
          : [400, 'INVALID_INPUT', 'The request is not valid HTTP.'];
    const body = JSON.stringify({ status, code, message });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
