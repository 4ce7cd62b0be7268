/**
 * Test helpers for the proxy: a recording upstream (a real HTTP server on loopback that keeps every
 * request it receives, headers and exact body bytes), a proxy server, a raw HTTP client that
 * sends paths and headers exactly as written (fetch would normalise `..`, `%2e` and friends), and a
 * fetch that keeps cookies as a browser does (the step-up grant).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before } from 'node:test';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createProxy, type ProxyHandler, type ProxyLogLine, type ProxyOptions } from '../../../src/proxy/index.ts';
import { boundedServer } from '../../../src/proxy/server.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createClient } from '../../../src/core/client.ts';
import { createWallet } from '../../../src/core/session.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

export const ACCOUNT = 'InternalAccount:11111111-1111-4111-8111-111111111111';
export const CUSTOMER = 'Customer:22222222-2222-4222-8222-222222222222';
export const CARD = 'Card:33333333-3333-4333-8333-333333333333';
export const AUTH_METHOD = 'AuthMethod:44444444-4444-4444-8444-444444444444';
export const SESSION = 'Session:55555555-5555-4555-8555-555555555555';
export const DELEGATED_KEY = 'DelegatedKey:66666666-6666-4666-8666-666666666666';
export const AGENT_ACTION = 'AgentAction:77777777-7777-4777-8777-777777777777';
export const TOKEN_ID = 'token-id-test';
export const CLIENT_SECRET = 'client-secret-VERY-SECRET-0123456789';

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

export type Responder = (req: Recorded, res: http.ServerResponse) => void | Promise<void>;

/** The Date header of okResponder's answers: the upstream's clock, not the proxy's. */
export const UPSTREAM_DATE = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toUTCString();

export const okResponder: Responder = (req, res) => {
  const body = JSON.stringify({ ok: true, method: req.method, url: req.url });
  res.writeHead(200, {
    'content-type': 'application/json',
    'request-id': 'Request:upstream-answer',
    // The service's clock, a minute behind this machine's.
    date: UPSTREAM_DATE,
    'set-cookie': 'upstream=1',
    server: 'upstream/1.0',
    'x-upstream-internal': 'yes',
  });
  res.end(body);
};

export async function startRecorder(responder: Responder = okResponder) {
  const requests: Recorded[] = [];
  let respond = responder;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = { method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) };
      requests.push(rec);
      void Promise.resolve(respond(rec, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/2025-10-13`,
    port,
    requests,
    setResponder(r: Responder) {
      respond = r;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type Recorder = Awaited<ReturnType<typeof startRecorder>>;

/**
 * A recording upstream and a proxy in front of it in boundedServer (the server of the command-line
 * proxy), listening on 127.0.0.1, for `run` (given the upstream and the server's port); all closed after it.
 */
export async function withBoundedProxy(run: (up: Recorder, port: number) => Promise<void>): Promise<void> {
  const up = await startRecorder();
  const proxy = createProxy({ upstream: up.url, tokenId: TOKEN_ID, clientSecret: CLIENT_SECRET, authorize: () => true, rateLimit: false });
  const server = boundedServer(proxy);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    await run(up, (server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    server.close();
    await proxy.close();
    await up.close();
  }
}

export async function startProxy(options: Partial<ProxyOptions> & { upstream: string }) {
  const logs: ProxyLogLine[] = [];
  const proxy: ProxyHandler = createProxy({
    tokenId: TOKEN_ID,
    clientSecret: CLIENT_SECRET,
    rateLimit: false,
    logger: (line) => logs.push(line),
    ...(options.authorize || options.demoAccount ? {} : { authorize: () => true }),
    ...options,
  } as ProxyOptions);
  const server = http.createServer(proxy);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    base: `http://127.0.0.1:${port}/api`,
    proxy,
    logs,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await proxy.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: any;
}

/** Sends exactly `path` and `headers` (no defaults added but Host and Content-Length). */
export function raw(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string | string[]>; body?: string | Buffer; chunked?: boolean },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { ...(opts.headers ?? {}) };
    if (opts.body !== undefined && !opts.chunked && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(Buffer.byteLength(opts.body));
    }
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, body, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.chunked && opts.body !== undefined) {
      const b = Buffer.from(opts.body);
      const step = 8192;
      for (let i = 0; i < b.length; i += step) req.write(b.subarray(i, i + step));
      req.end();
    } else req.end(opts.body);
  });
}

/** Writes `parts` on a new connection to `port`, then destroys it after `leaveAfterMs`, or once the server closed it; resolves to what came back. */
export function rawExchange(port: number, parts: string[], leaveAfterMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => socket.destroy(), leaveAfterMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    for (const part of parts) socket.write(part);
  });
}

/** Waits until `check()` holds, polling every 20 ms; fails after `ms` (default 5 s) naming `what`. */
export async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  for (const start = Date.now(); !check(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
  }
}

/** JSON headers for a state-changing call from the browser library. */
export const JSON_HEADERS = { 'content-type': 'application/json' };

export function assertErrorShape(r: RawResponse, status: number, code: string): void {
  if (r.status !== status || r.json?.status !== status || r.json?.code !== code || typeof r.json?.message !== 'string') {
    throw new Error(`expected ${status} ${code}, got ${r.status} ${r.text}`);
  }
}

/**
 * A fetch with a cookie jar, as a browser keeps one per origin (RFC 6265, name=value only), over
 * `send` (the network's fetch, or a handler that takes a Request such as proxy.fetch).
 */
export function jarFetch(send: typeof fetch = fetch): { fetch: typeof fetch; jar: Map<string, string>; setCookies: string[] } {
  const jar = new Map<string, string>();
  const setCookies: string[] = [];
  const f: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await send(input, { ...init, headers });
    for (const line of res.headers.getSetCookie()) {
      setCookies.push(line);
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      // Max-Age=0 removes the cookie (RFC 6265 section 5.2.2).
      if (/;\s*max-age=0(;|$)/i.test(line)) jar.delete(pair!.slice(0, eq));
      else jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  };
  return { fetch: f, jar, setCookies };
}

/** Serves `app` with @hono/node-server on 127.0.0.1 (a free port), as a framework serves `proxy.fetch`. */
export async function listen(app: Hono): Promise<{ origin: string; port: number; close(): Promise<void> }> {
  let server!: http.Server;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port)) as http.Server;
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * The real sandbox for the tests of the enclosing describe (a new code may be asked for at once):
 * started before them and closed after them. Call the function returned inside a test.
 */
export function useSandbox(): () => Sandbox {
  let sandbox: Sandbox | undefined;
  before(async () => {
    sandbox = await startSandbox({ otpResendIntervalMs: 1 });
  });
  after(async () => {
    await sandbox?.close();
  });
  return () => sandbox!;
}

/** The proxy options that bind it to `sandbox`: its URL, its Basic credentials and its demo account. */
export function sandboxBinding(sandbox: Sandbox) {
  const f = sandbox.fixtures;
  return { upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, demoAccount: { customerId: f.customerId, accountId: f.accountId, cardId: f.cardId } };
}

/**
 * Through a proxy for `sandbox`'s demo account with the step-up on, at `apiBase`, over HTTP: an
 * email-code login, the card refused until the session is refreshed (a stamped request), the
 * step-up grant's two Set-Cookie headers, the reveal, and a logout.
 */
export async function loginAndReveal(sandbox: Sandbox, apiBase: string): Promise<void> {
  const f = sandbox.fixtures;
  const page = jarFetch(fetch);
  const client = createClient({ baseUrl: apiBase, fetch: page.fetch });
  const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
  const login = await wallet.startOtpLogin({ credentialId: f.emailCredentialId });
  await login.submit('000000');
  await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
  const { sessionId } = await wallet.refresh(f.accountId);
  const path = new URL(apiBase).pathname;
  // Both Set-Cookie headers come through the framework: the refreshed session's grant goes, the new one's comes.
  assert.equal(page.setCookies.length, 2);
  assert.match(page.setCookies[0]!, new RegExp(`^wallet_step_up_[0-9a-f-]{36}=; Path=${path}/cards; Max-Age=0;`));
  assert.match(page.setCookies[1]!, new RegExp(`^wallet_step_up_${sessionId.slice(8)}=[A-Za-z0-9_.-]+; Path=${path}/cards;`));
  const reveal = await client.revealCard(f.cardId);
  assert.match(reveal.panEmbedUrl, /\/processor\/card\?token=/);
  await wallet.logout(f.accountId);
  assert.equal(page.jar.size, 0);
}

/** A GET from the local address `from` (a client of its own on loopback); resolves to the status. */
export function getFrom(from: string, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { localAddress: from, agent: false }, (res) => (res.resume(), resolve(res.statusCode!))).on('error', reject);
  });
}
