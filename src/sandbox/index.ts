/**
 * A local stand-in for the payments service (spec/api.md, spec/reference.md "Sandbox behaviour")
 * on node:http: every endpoint the library uses under `{origin}/2025-10-13`, with the real rules
 * (signed retries with real stamps, HPKE bundles, WebAuthn, OIDC checks, cursors, expiry), plus,
 * outside the versioned base, its processor iframe page (`/processor/card`), a test OIDC issuer
 * (`/oidc`) and test controls (`/sandbox/*`).
 *
 * `startSandbox()` listens on 127.0.0.1 (port 0: a free port) and resolves once seeded; the
 * `handler` can also be mounted in another server. Nothing is logged per request: reveal URLs and
 * stamps must not reach logs. Deliberately not here: persistence, TLS, other areas of the service.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxFixtures } from '../core/types.ts';
import { HttpError, Router, readBody, send, sendError, type Ctx } from './http.ts';
import { mintIdToken, issuerUrl, registerOidcRoutes, type IdTokenClaims } from './oidc.ts';
import { registerProcessorRoutes } from './processor.ts';
import { registerAgentRoutes } from './routes/agents.ts';
import { registerCardRoutes } from './routes/cards.ts';
import { fixturesOf, registerControlRoutes } from './routes/controls.ts';
import { registerCredentialRoutes } from './routes/credentials.ts';
import { registerDelegatedKeyRoutes } from './routes/delegated-keys.ts';
import { registerSessionRoutes } from './routes/sessions.ts';
import { registerWalletRoutes } from './routes/wallet.ts';
import { createCustomerSet, createWorld, defaultOriginAllowed, makeClock, type Clock, type ResolvedOptions, type World } from './world.ts';

export { SANDBOX_SIGNER_PUBLIC_KEY, SANDBOX_SIGNER_SCALAR_HEX } from './signer.ts';
export { SANDBOX_OTP_CODE } from './routes/credentials.ts';
export { SANDBOX_WALLET_PHRASE } from './routes/wallet.ts';
export { mintIdToken, SANDBOX_OIDC_CLIENT_ID, SANDBOX_OIDC_DEMO_SUB, type IdTokenClaims } from './oidc.ts';

/** The interface version: the last path segment of the base URL (api.md "Versioning"). */
export const API_VERSION = '2025-10-13';

export interface SandboxOptions {
  /** 0 (default): a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Session lifetime; default 15 min (reference.md "Sessions last 15 minutes by default"). */
  sessionLifetimeMs?: number;
  /** How long a signed-retry request id stays usable; default 5 min (api.md "typically 5 minutes"). */
  signedRetryWindowMs?: number;
  /** Reveal URL lifetime; default 3 min (api.md "within minutes"). */
  revealLifetimeMs?: number;
  /** Minimum time between OTP /challenge calls of one credential; default 30 s. */
  otpResendIntervalMs?: number;
  /** How long one OTP challenge's code is accepted; default 5 min. */
  otpLifetimeMs?: number;
  /** false: card reveal answers 501 NOT_IMPLEMENTED. Default true. */
  cardIssuer?: boolean;
  /**
   * true: a session refresh answers with a fresh key of the service's, sealed to the
   * `clientPublicKey` sent (`encryptedSessionSigningKey`, as OAUTH and PASSKEY logins do), which
   * reference.md allows; default false: the key sent becomes the new session's key.
   */
  refreshSealsKey?: boolean;
  /** Whether `POST /sandbox/clock` may move the clock. Default true (the CLI defaults to false, see --test-clock). */
  testClock?: boolean;
  webauthn?: {
    /** Default 'localhost'. */
    rpId?: string;
    /** Allowed origins of WebAuthn ceremonies, OIDC redirects and processor-page framing; default any http://localhost:* or http://127.0.0.1:*. */
    origins?: string[] | ((origin: string) => boolean);
  };
  /** Injectable clock (ms since the epoch); `clock.advance` adds to it. */
  now?: () => number;
  /** Seed of the generated demo data (ids, cards, actions). Default 0x5eed. */
  seed?: number;
}

export interface Sandbox {
  fixtures: SandboxFixtures;
  /** The server's origin, `http://127.0.0.1:PORT` (the service base is `fixtures.baseUrl`). */
  url: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  clock: Clock;
  /** The test issuer's URL and a minter of tokens signed by its key at the sandbox's clock. */
  oidc: { issuer: string; mintIdToken(claims?: IdTokenClaims): Promise<string> };
  close(): Promise<void>;
}

function duration(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer of milliseconds`);
  }
  return value;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const origins = options.webauthn?.origins;
  let originAllowed: (o: string) => boolean = defaultOriginAllowed;
  let frameAncestors = 'http://localhost:* http://127.0.0.1:*';
  if (Array.isArray(origins)) {
    if (origins.some((o) => typeof o !== 'string' || !/^https?:\/\/[^/\s;,']+$/.test(o))) {
      throw new RangeError('webauthn.origins must be origins like http://localhost:8080');
    }
    const set = new Set(origins);
    originAllowed = (o) => set.has(o);
    frameAncestors = origins.length > 0 ? origins.join(' ') : "'none'";
  } else if (typeof origins === 'function') {
    originAllowed = origins;
    // A predicate cannot be written as CSP sources: allow framing by local pages and https origins.
    frameAncestors = 'http://localhost:* http://127.0.0.1:* https:';
  }
  return {
    sessionLifetimeMs: duration('sessionLifetimeMs', options.sessionLifetimeMs, 15 * 60_000),
    signedRetryWindowMs: duration('signedRetryWindowMs', options.signedRetryWindowMs, 5 * 60_000),
    revealLifetimeMs: duration('revealLifetimeMs', options.revealLifetimeMs, 3 * 60_000),
    otpResendIntervalMs: duration('otpResendIntervalMs', options.otpResendIntervalMs, 30_000),
    otpLifetimeMs: duration('otpLifetimeMs', options.otpLifetimeMs, 5 * 60_000),
    cardIssuer: options.cardIssuer ?? true,
    refreshSealsKey: options.refreshSealsKey ?? false,
    testClock: options.testClock ?? true,
    rpId: options.webauthn?.rpId ?? 'localhost',
    originAllowed,
    frameAncestors,
  };
}

const PAGE_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; display: grid; place-items: center; min-height: 100vh; }
.panel { max-width: 28rem; padding: 24px; border: 1px solid #8886; border-radius: 12px; }
button { font: inherit; padding: 8px 16px; border-radius: 8px; border: 1px solid currentColor; background: transparent; color: inherit; cursor: pointer; }
button:focus-visible { outline: 3px solid #8ab4ff; outline-offset: 2px; }
`;

/** Builds the request handler of a world (service routes under the versioned base, the rest outside). */
export function createHandler(world: World, fixtures: () => SandboxFixtures): (req: IncomingMessage, res: ServerResponse) => void {
  const service = new Router();
  registerCredentialRoutes(service, world);
  registerSessionRoutes(service, world);
  registerDelegatedKeyRoutes(service, world);
  registerCardRoutes(service, world);
  registerAgentRoutes(service, world);
  registerWalletRoutes(service, world);

  const outside = new Router();
  registerOidcRoutes(outside, world);
  registerProcessorRoutes(outside, world);
  registerControlRoutes(outside, world, fixtures);
  outside.on('GET', '/sandbox-assets/page.css', () => ({ status: 200, raw: PAGE_CSS, contentType: 'text/css; charset=utf-8' }));

  const base = `/${API_VERSION}`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The service's clock, on which its expiry times are written (a test clock moves it too).
    res.setHeader('Date', new Date(world.clock.now()).toUTCString());
    const target = req.url ?? '/';
    // Parse by hand: `new URL('//host/x', base)` would read an authority out of the path.
    const q = target.indexOf('?');
    const pathname = q === -1 ? target : target.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
    if (!pathname.startsWith('/')) throw new HttpError(400, 'INVALID_INPUT', 'The request target must be a path');
    const method = (req.method ?? 'GET').toUpperCase();
    const underBase = pathname === base || pathname.startsWith(`${base}/`);
    const router = underBase ? service : outside;
    const path = underBase ? pathname.slice(base.length) || '/' : pathname;
    const { handler, params } = router.match(method, path);
    const rawBody = await readBody(req);
    const ctx: Ctx = {
      req,
      res,
      method,
      path,
      params,
      query,
      rawBody,
      header: (name) => {
        const v = req.headers[name.toLowerCase()];
        return Array.isArray(v) ? v[0] : v;
      },
    };
    send(res, await handler(ctx));
  }

  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) {
        // A 413 is answered before the body is read: close instead of draining a large upload.
        if (err.status === 413) res.setHeader('Connection', 'close');
        sendError(res, err);
        return;
      }
      // Only the message: never a body, header or URL (they may carry stamps or reveal tokens).
      console.error(`sandbox: internal error: ${err instanceof Error ? err.message : String(err)}`);
      sendError(res, new HttpError(500, 'INTERNAL_ERROR', 'Internal error of the sandbox'));
    });
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  const clock = makeClock(options.now ?? Date.now);
  const world = await createWorld(resolved, clock, options.seed ?? 0x5eed);
  let fixtures: SandboxFixtures | undefined;
  const handler = createHandler(world, () => fixtures!);
  const server = createServer(handler);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  world.origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const seeded = createCustomerSet(world, {});
  fixtures = fixturesOf(world, seeded);
  return {
    fixtures,
    url: world.origin,
    handler,
    clock,
    oidc: {
      issuer: issuerUrl(world),
      mintIdToken: (claims: IdTokenClaims = {}) =>
        mintIdToken({ iss: issuerUrl(world), email: world.store.customers.get(seeded.customerId)?.email, ...claims }, {
          key: world.oidcKey,
          kid: world.oidcKid,
          now: clock.now(),
        }),
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
