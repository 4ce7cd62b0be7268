/**
 * The proxy's client of the service: one keep-alive connection pool, every exchange bounded in time
 * and size, answers buffered whole.
 *
 * DESIGN.md "Security rules": "upstream time bounded". The whole exchange (connect, headers, body)
 * must finish within `timeoutMs`, else it is aborted and reported as a timeout (the proxy answers
 * 504); a refused or reset connection is reported as unreachable (502). Answers are small JSON
 * documents, so they are read whole (at most MAX_RESPONSE_BYTES) and relayed with a Content-Length.
 *
 * Two transports with the same contract: node:http(s) with a keep-alive Agent (no dependency, the
 * default), or an undici Pool/Agent the integrator created and passes in (its `request` method is
 * all that is used; the integrator owns and closes it). bench/proxy.ts measures both.
 *
 * Deliberately does not: follow redirects, decompress (no Accept-Encoding is sent, so the service
 * answers identity), or retry anything but a GET whose reused keep-alive socket was closed by the
 * server before it could be read (the request never reached it; Node's http docs, "agent.reuse").
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import https from 'node:https';

export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The part of an undici Dispatcher (Pool, Agent, Client) the proxy uses. */
export interface UndiciLikeDispatcher {
  request(options: {
    origin?: string;
    method: string;
    path: string;
    headers: Record<string, string>;
    body: Buffer | null;
    /** undici accepts an AbortSignal or an EventEmitter that emits 'abort'. */
    signal: EventEmitter;
  }): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: AsyncIterable<Buffer> & { destroy(): unknown } }>;
}

export type UpstreamTransport = 'node' | UndiciLikeDispatcher;

export interface UpstreamRequest {
  method: string;
  /** Service path with its query, appended to the upstream base path. */
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array | undefined;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly kind: 'timeout' | 'unreachable' | 'too-large',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

export interface Upstream {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

export function createUpstream(base: string, options: { timeoutMs: number; transport?: UpstreamTransport; connections?: number }): Upstream {
  const url = new URL(base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('upstream must be an http: or https: URL');
  if (url.username || url.password || url.search || url.hash) throw new TypeError('upstream must not carry credentials, a query or a fragment');
  const basePath = url.pathname.replace(/\/+$/, '');
  const connections = options.connections ?? 64;
  const transport = options.transport ?? 'node';
  return transport === 'node' ? nodeUpstream(url, basePath, options.timeoutMs, connections) : undiciUpstream(transport, url, basePath, options.timeoutMs);
}

function nodeUpstream(url: URL, basePath: string, timeoutMs: number, connections: number): Upstream {
  const secure = url.protocol === 'https:';
  const mod = secure ? https : http;
  const agent = new mod.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, scheduling: 'lifo' });
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || (secure ? 443 : 80);

  function once(request: UpstreamRequest, deadline: number): Promise<UpstreamResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...request.headers };
      if (request.body) headers['content-length'] = String(request.body.byteLength);
      const req = mod.request({ hostname, port, method: request.method, path: basePath + request.path, headers, agent });
      let settled = false;
      const finish = (error: UpstreamError | undefined, response?: UpstreamResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          req.destroy();
          reject(error);
        } else resolve(response!);
      };
      const timer = setTimeout(() => finish(new UpstreamError('timeout', 'The service did not answer in time.')), Math.max(0, deadline - Date.now()));
      req.on('error', (cause: NodeJS.ErrnoException) => {
        if (settled) return;
        const retryable = request.method === 'GET' && req.reusedSocket && cause.code === 'ECONNRESET';
        if (retryable) {
          settled = true;
          clearTimeout(timer);
          reject(Object.assign(new UpstreamError('unreachable', 'retry', { cause }), { retryable: true }));
        } else finish(new UpstreamError('unreachable', 'The service could not be reached.', { cause }));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) finish(new UpstreamError('too-large', 'The service answered with too large a body.'));
          else chunks.push(chunk);
        });
        res.on('error', (cause) => finish(new UpstreamError('unreachable', 'The service connection failed.', { cause })));
        res.on('close', () => {
          if (!res.complete) finish(new UpstreamError('unreachable', 'The service connection was cut.'));
        });
        res.on('end', () => finish(undefined, { status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks, size) }));
      });
      req.end(request.body);
    });
  }

  return {
    async send(request) {
      const deadline = Date.now() + timeoutMs;
      try {
        return await once(request, deadline);
      } catch (e) {
        if ((e as { retryable?: boolean }).retryable) return once(request, deadline);
        throw e;
      }
    },
    async close() {
      agent.destroy();
    },
  };
}

function undiciUpstream(dispatcher: UndiciLikeDispatcher, url: URL, basePath: string, timeoutMs: number): Upstream {
  return {
    async send(request) {
      // undici takes an EventEmitter as its abort signal: far cheaper per call than an AbortController
      // (and AbortSignal.timeout, with its weak refs, costs more still).
      const signal = Object.assign(new EventEmitter(), { aborted: false });
      const timer = setTimeout(() => {
        signal.aborted = true;
        signal.emit('abort');
      }, timeoutMs);
      try {
        const res = await dispatcher.request({
          origin: url.origin,
          method: request.method,
          path: basePath + request.path,
          headers: request.body ? { ...request.headers, 'content-length': String(request.body.byteLength) } : request.headers,
          body: request.body ? Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength) : null,
          signal,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body) {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            res.body.destroy();
            throw new UpstreamError('too-large', 'The service answered with too large a body.');
          }
          chunks.push(chunk);
        }
        return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks, size) };
      } catch (cause) {
        if (cause instanceof UpstreamError) throw cause;
        if (signal.aborted) throw new UpstreamError('timeout', 'The service did not answer in time.', { cause });
        throw new UpstreamError('unreachable', 'The service could not be reached.', { cause });
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      // The dispatcher belongs to the integrator, who closes it.
    },
  };
}
