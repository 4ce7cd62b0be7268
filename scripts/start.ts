/**
 * `npm start`: the demo on one machine, with no account and no network.
 *
 *  1. starts the sandbox (src/sandbox) on a free loopback port: the service, its processor iframe
 *     page and its test OIDC issuer, on an origin of their own (as the processor is in production);
 *  2. builds the demo page with vite (vite.config.ts: files only, nothing inline);
 *  3. serves, on ONE origin (http://localhost:PORT, listening on 127.0.0.1; PORT defaults to 5173):
 *     the page under a strict Content-Security-Policy, the proxy at /api (createProxy with the
 *     explicit demo binding to the sandbox's demo customer, account and card, and the card-reveal
 *     step-up), and the demo-only routes under /demo/ (configuration, and a stand-in for the
 *     platform's back office that lists, creates, approves and rejects the agent's requests with
 *     the platform's credentials, which stay in this process);
 *  4. prints the page's address on a line of its own.
 *
 * `localhost`, not 127.0.0.1, is the printed host: WebAuthn refuses IP addresses as relying-party
 * ids, and Chromium resolves localhost to loopback itself. Deliberately not here: TLS, hot reload
 * (a dev server cannot run under this CSP), anything an integrator would keep.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { startSandbox, SANDBOX_OIDC_CLIENT_ID } from '../src/sandbox/index.ts';
import { createProxy } from '../src/proxy/index.ts';
import { boundedServer } from '../src/proxy/server.ts';
import type { SandboxFixtures } from '../src/core/types.ts';
import { DEMO_OUT_DIR } from '../vite.config.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, DEMO_OUT_DIR);
const port = Number(process.env.PORT ?? '5173');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('start: PORT must be an integer from 0 to 65535');
  process.exit(1);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

function csp(processorOrigin: string, issuerOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    // The page exchanges its single sign-on code at the issuer's token endpoint (demo/oidc.ts).
    `connect-src 'self' ${issuerOrigin}`,
    `frame-src ${processorOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Trusted Types: no string reaches an HTML or script sink unchecked; Lit's own policy
    // (`lit-html`, which turns its template literals into <template> elements) is the only one.
    "require-trusted-types-for 'script'",
    'trusted-types lit-html',
  ].join('; ');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 4096) throw new Error('body too large');
    chunks.push(chunk);
  }
  if (size === 0) return {};
  const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({});
  const f: SandboxFixtures = sandbox.fixtures;
  const basic = 'Basic ' + Buffer.from(`${f.tokenId}:${f.clientSecret}`).toString('base64');
  const sandboxOrigin = new URL(f.baseUrl).origin;

  /** A call to the sandbox as the platform's back office would make it (Basic, or the agent's token). */
  async function upstream(method: string, url: string, auth: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(url, {
      method,
      headers: { authorization: auth, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  const proxy = createProxy({
    upstream: f.baseUrl,
    tokenId: f.tokenId,
    clientSecret: f.clientSecret,
    demoAccount: { customerId: f.customerId, accountId: f.accountId, cardId: f.cardId },
    basePath: '/api',
    // Card details only after a fresh proof of the wallet session (src/proxy/step-up.ts).
    stepUp: {},
    logger: (line) => process.stderr.write(JSON.stringify(line) + '\n'),
  });

  process.stderr.write('[start] building the demo page with vite\n');
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  const pageCsp = csp(f.processorOrigin, new URL(f.oidcIssuer).origin);
  const ACTION_PATH = /^\/demo\/agent\/actions\/(AgentAction:[0-9a-fA-F-]{36})\/(approve|reject)$/;

  /** Demo routes change state: same-origin JSON only (a cross-site form cannot send this). */
  function sameOriginJson(req: IncomingMessage): boolean {
    const site = req.headers['sec-fetch-site'];
    return req.headers['x-requested-with'] === 'demo' && (site === undefined || site === 'same-origin');
  }

  async function demoRoute(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    if (req.method === 'GET' && path === '/demo/config.json') {
      sendJson(res, 200, {
        apiBase: '/api',
        accountId: f.accountId,
        customerId: f.customerId,
        cardId: f.cardId,
        processorOrigin: f.processorOrigin,
        oidcIssuer: f.oidcIssuer,
        oidcClientId: SANDBOX_OIDC_CLIENT_ID,
        // Demo only: the agent's own token, so that the page can show the agent's panel.
        agentToken: f.agentToken,
      });
      return true;
    }
    if (!path.startsWith('/demo/agent/')) return false;
    if (!sameOriginJson(req)) {
      sendJson(res, 403, { status: 403, code: 'FORBIDDEN', message: 'Demo routes answer same-origin requests of the demo page only.' });
      return true;
    }
    if (req.method === 'GET' && path === '/demo/agent/pending') {
      const r = await upstream('GET', `${f.baseUrl}/agents/me/actions?status=PENDING_APPROVAL&limit=20`, `Bearer ${f.agentToken}`);
      sendJson(res, r.status, r.body);
      return true;
    }
    if (req.method === 'POST' && path === '/demo/agent/requests') {
      await readJson(req);
      const r = await upstream('POST', `${sandboxOrigin}/sandbox/agents/${f.agentId}/actions`, basic, { type: 'TRANSFER_OUT' });
      sendJson(res, r.status, r.body);
      return true;
    }
    // Ids keep their colon; a client that percent-encodes it is understood too.
    const m = req.method === 'POST' ? ACTION_PATH.exec(path.replace(/%3A/gi, ':')) : null;
    if (m) {
      const body = await readJson(req);
      const reason = typeof body.reason === 'string' ? body.reason.slice(0, 200) : undefined;
      const r = await upstream('POST', `${f.baseUrl}/agents/${f.agentId}/actions/${m[1]}/${m[2]}`, basic, m[2] === 'reject' && reason ? { reason } : {});
      sendJson(res, r.status, r.body ?? {});
      return true;
    }
    sendJson(res, 404, { status: 404, code: 'NOT_FOUND', message: 'No such demo route.' });
    return true;
  }

  async function staticFile(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    const relative = path === '/' ? 'index.html' : decodeURIComponent(path).replace(/^\/+/, '');
    const file = normalize(join(outDir, relative));
    let body: Buffer | undefined;
    if (file.startsWith(outDir + sep) && !relative.includes('\0')) {
      try {
        if ((await stat(file)).isFile()) body = await readFile(file);
      } catch {
        body = undefined;
      }
    }
    const headers: Record<string, string> = {
      'content-security-policy': pageCsp,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'permissions-policy': 'camera=(), microphone=(), geolocation=()',
    };
    if (!body) {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found');
      return;
    }
    const hashed = relative.startsWith('assets/');
    res.writeHead(200, {
      ...headers,
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'content-length': String(body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const server = boundedServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    if (path === '/api' || path.startsWith('/api/')) {
      proxy(req, res);
      return;
    }
    (async () => {
      if (path === '/favicon.ico') {
        res.writeHead(301, { location: '/demo/favicon.svg' }).end();
        return;
      }
      if (path.startsWith('/demo/') && (await demoRoute(req, res, path))) return;
      await staticFile(req, res, path);
    })().catch(() => {
      if (!res.headersSent) sendJson(res, 500, { status: 500, code: 'INTERNAL_ERROR', message: 'The demo server failed.' });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: actual } = server.address() as AddressInfo;
  process.stderr.write(`[start] sandbox at ${sandboxOrigin}; proxy at /api; email code 000000\n`);
  console.log(`http://localhost:${actual}/`);

  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await proxy.close();
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  console.error(`start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
