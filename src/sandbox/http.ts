/**
 * The sandbox's HTTP plumbing on node:http: a bounded body reader, JSON and error replies in the
 * service's error shape (api.md "Errors": `{status, code, message, details?}`), and a small
 * segment router with `:param` captures.
 *
 * Deliberately not here: any framework, content negotiation, compression, keep-alive tuning, or
 * logging of requests (a reveal URL's query is a bearer secret and must never reach a log).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorBody } from '../core/types.ts';

/** Request bodies larger than this are refused with 413 before they are read in full. */
export const MAX_BODY_BYTES = 64 * 1024;

/** One field error of a `400 INVALID_INPUT` (reference.md "Shared shapes"). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An error answer. Thrown anywhere inside a route; the server turns it into the service's error
 * body, so no handler writes error JSON by hand.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  body(): ErrorBody {
    return { status: this.status, code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export const badRequest = (message: string, errors?: FieldError[]): HttpError =>
  new HttpError(400, 'INVALID_INPUT', message, errors ? { errors } : undefined);
export const invalidField = (field: string, message: string): HttpError =>
  badRequest(`${field}: ${message}`, [{ field, message }]);
/** 404 NOT_FOUND unless the documents name a code for the resource (api.md "Errors": USER_NOT_FOUND, ...). */
export const notFound = (message = 'Not found', code = 'NOT_FOUND'): HttpError => new HttpError(404, code, message);
export const unauthorized = (message: string, code = 'UNAUTHORIZED', details?: Record<string, unknown>): HttpError =>
  new HttpError(401, code, message, details);

/** What a route handler receives. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** The path below the mount point (for service routes: below `/2025-10-13`). */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Exact request body bytes (a stamp and a body hash cover these). */
  rawBody: Uint8Array;
  header(name: string): string | undefined;
}

/** A handler's answer: a status and a JSON body (or none for 204), or a pre-built raw reply. */
export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { status: number; raw: string | Uint8Array; contentType: string; headers?: Record<string, string> };

export type Handler = (ctx: Ctx) => Promise<Reply> | Reply;

export const json = (status: number, body?: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });

/** Reads the body, refusing more than MAX_BODY_BYTES (declared or streamed) with 413. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        chunks.length = 0;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`);
}

/** Parses the body as a JSON object; an empty body is `{}` when `allowEmpty`. */
export function jsonObject(ctx: Ctx, allowEmpty = false): Record<string, unknown> {
  if (ctx.rawBody.length === 0) {
    if (allowEmpty) return {};
    throw badRequest('A JSON object body is required', [{ field: 'body', message: 'required' }]);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(ctx.rawBody).toString('utf8'));
  } catch {
    throw badRequest('The body is not valid JSON', [{ field: 'body', message: 'must be valid JSON' }]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('The body must be a JSON object', [{ field: 'body', message: 'must be a JSON object' }]);
  }
  return value as Record<string, unknown>;
}

const BASE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

export function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.writableEnded) return;
  const headers: Record<string, string> = { ...BASE_HEADERS, ...(reply.headers ?? {}) };
  if ('raw' in reply) {
    headers['Content-Type'] = reply.contentType;
    res.writeHead(reply.status, headers);
    res.end(reply.raw);
    return;
  }
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  headers['Content-Type'] = 'application/json; charset=utf-8';
  res.writeHead(reply.status, headers);
  res.end(JSON.stringify(reply.body));
}

export function sendError(res: ServerResponse, err: HttpError): void {
  send(res, { status: err.status, body: err.body(), headers: err.headers });
}

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

/**
 * Routes by path segments; `:name` captures one segment (percent-decoded). A path that matches
 * no route is 404 NOT_FOUND; a path that matches with another method is 405 METHOD_NOT_ALLOWED.
 */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  match(method: string, path: string): { handler: Handler; params: Record<string, string> } {
    const parts = path.split('/').filter(Boolean);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { handler: route.handler, params };
      allowed.push(route.method);
    }
    if (allowed.length > 0) {
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`, undefined, { Allow: allowed.join(', ') });
    }
    throw notFound(`No route for ${method} ${truncate(path)}`);
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    let part: string;
    try {
      part = decodeURIComponent(parts[i]!);
    } catch {
      return null;
    }
    if (p.startsWith(':')) params[p.slice(1)] = part;
    else if (p !== part) return null;
  }
  return params;
}

/** Keeps echoed input short in messages (the fuzz test throws very long paths). */
export function truncate(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max)}...` : s;
}
