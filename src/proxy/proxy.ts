/**
 * The thin proxy between the browser library and the service: a Node request handler that holds
 * the platform's Basic credentials and relays exactly the routes of routes.ts.
 *
 * Follows DESIGN.md ("How a call travels", "Security rules") and spec/api.md + spec/reference.md:
 *  - the browser never sees the Basic credentials (an answer that quotes them, or the secret, is
 *    not relayed: 502); the proxy never sees a private key: it relays
 *    opaque strings and forwards request body BYTES unchanged, because a stamp covers exact bytes
 *    (a parsed copy is only read, by `authorize` and the passkey challenge check);
 *  - upstream headers are built from an allow-list: `Authorization: Basic` (or, on /agents/me, the
 *    agent's own Bearer token), Content-Type, Service-Wallet-Signature (renamed to
 *    `signatureHeader`), Request-Id, Accept, and its own `Accept-Encoding: identity` (an answer in
 *    a content coding is a 502). Cookie, the browser's Authorization, hop-by-hop and
 *    every other header never go upstream; nor does an allowed header the client named in its
 *    `Connection` header, which makes it hop-by-hop (RFC 9110 section 7.6.1), and likewise back;
 *  - errors are answered in the service's shape `{status, code, message}` (api.md "Errors"), the
 *    service's own included: an upstream error without that body (a load balancer's page, an empty
 *    503) gets one (`UPSTREAM_ERROR` / `UPSTREAM_REFUSED`, status kept), a redirect is a 502;
 *  - bounds: the body (`maxBodyBytes`; a request refused before its body was read has its
 *    connection closed after a lingering read of at most 256 KiB or 2 s, so the refusal reaches the
 *    client and the rest of that body is dropped, never buffered), the upstream call and every
 *    asynchronous `authorize` decision (`upstreamTimeoutMs`), each upstream answer (4 MiB, else 502)
 *    and all those being read at once (32 MiB together, else 503 PROXY_BUSY with Retry-After, which
 *    a state change gets only before it was sent; one whose answer is dropped after is a 502 that
 *    says it may have been carried out; an answer counts until its client has taken it, or until
 *    its bytes are needed and its client has stopped reading (a large answer is written 64 KiB at
 *    a time, each slice taken counting as reading), when its connection is closed; see
 *    upstream.ts); a Request-Id must be `Request:<uuid>`;
 *  - every answer carries `Cache-Control: no-store` (reveal URLs are bearer secrets) and
 *    `Referrer-Policy: no-referrer`;
 *  - one JSON log line per request: route name, method, status, duration, Request-Id; never a body,
 *    stamp, credential, token or reveal URL. The service's Request-Id is relayed and logged only in
 *    a safe shape (1 to 128 ASCII id characters), else dropped.
 *
 * Origin and CSRF policy (documented for integrators who authenticate their users with cookies):
 *  - a request whose `Host` or `X-Forwarded-Host` is not a host the proxy answers for
 *    (`allowedHosts`: by default localhost, IP addresses and `rp.id`) is refused with 403 first,
 *    so that DNS rebinding cannot make an attacker's site the proxy's "same origin"; a request
 *    target in absolute form (`GET http://host/api/...`, RFC 9112 section 3.2.2) is served by its
 *    path and query, its authority read in place of Host (it never names the upstream), and
 *    both it and Host must be hosts the proxy answers for (proxy.fetch: Host and the URL's host);
 *  - a request whose `Sec-Fetch-Site` is `cross-site` or `same-site`, or whose `Origin` is not the
 *    proxy's own host, is refused with 403 unless its Origin is listed in `allowedOrigins`, which
 *    then also get CORS answers (credentials allowed, preflight answered for the route's methods);
 *  - every POST, PATCH and DELETE must carry `Content-Type: application/json` (even without a body)
 *    or one of the headers `X-Requested-With`, `Request-Id`, `Service-Wallet-Signature`. None of
 *    them can be sent cross-origin without a CORS preflight (Fetch standard, "CORS-safelisted
 *    request-header"), which only `allowedOrigins` pass.
 *
 * Mounting: node:http `http.createServer(proxy)`, with `server.httpAllowHalfOpen = true` (else Node
 * closes the connection of a client that half-closes its side after its request, unanswered); Express `app.use(proxy)` or `app.use('/api', proxy)`
 * (the proxy reads `req.originalUrl`, so basePath is the whole browser path; paths outside
 * `basePath` call `next()`; mount it before any body parser, which would consume the bytes);
 * Fastify `fastify.addHook('onRequest', (rq, rp, done) => rq.url.startsWith('/api/') ?
 * (rp.hijack(), proxy(rq.raw, rp.raw)) : done())` (onRequest runs before Fastify reads the body).
 *
 * The fetch entry, `proxy.fetch(request, { clientAddress })`, for servers that hand route code a
 * WHATWG Request and take a Response (Next.js route handlers, Remix, SvelteKit, Hono, Astro, Bun,
 * Deno), runs the same steps on the same rules, reading the Request's Headers and its body stream
 * (counted as it arrives: refused past maxBodyBytes, never buffered whole first). What differs:
 *  - the rate limit counts requests under `info.clientAddress` (or what the `clientIp` option
 *    makes of the Request and it), which a Request does not carry: without it, while the limit is
 *    on, the request is answered 500 INTERNAL_ERROR (onError says why), since one shared count
 *    would let one client use up everyone's;
 *  - the Request's path is the browser's, basePath included: a framework mount that strips its
 *    path (Hono's `mount()`) is answered 404, saying so;
 *  - Headers joins a repeated header's copies, so a repeat is refused by the check that reads the
 *    joined value rather than as a repeat (see readWebHeaders); the Host is the URL's when the
 *    framework's Request has no Host header;
 *  - the framework owns the connection: the answer is a Response it writes (no Connection header,
 *    the length its body's), a body refused before it was read is left to the framework, and the
 *    accounting of answers a slow client has not taken (upstream.ts `hold`) does not apply, so
 *    bounding such clients is the framework's or its server's;
 *  - a read whose request's `signal` aborts (the client went away) is dropped upstream, and the
 *    log line is written when the Response is made: its status is the one the Response carries
 *    (499, with no body, when the client went away before the answer, as the Node handler logs it).
 *
 * Deliberately does not: re-serialise JSON, follow redirects, cache, retry non-GET calls,
 * authenticate the browser's user (that is `authorize`'s job) or trust X-Forwarded-For (see `clientIp`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { accountAuthorize, demoAccountAuthorize, oncePerRequest, type AccountAuthorizeHook, type AccountLists, type AccountResolver, type AuthorizeContext, type AuthorizeDecision, type AuthorizeHook, type AuthorizeRefusal, type DemoAccount } from './authorize.ts';
import { checkChallenge, deriveChallengeKey, mintChallenge, registrationOptions, userHandle } from './challenge.ts';
import { BodyParseError, parseStrictJson } from './json.ts';
import { PROXY_RATE_LIMIT, RateLimiter, type RateLimitOptions } from './rate-limit.ts';
import { isId, matchRoute, type RouteMatch, type RouteName } from './routes.ts';
import { createUpstream, UpstreamError, type ClientResponse, type UpstreamResponse, type UpstreamTransport } from './upstream.ts';
import type { ProxyRequest } from './request.ts';
import { createStepUp, type StepUpOptions } from './step-up.ts';

/**
 * `R` is the request the hooks (`authorize`, `accountFor`, `stepUp.accountForCard`, `onError`) are
 * handed: the Node handler's `IncomingMessage` (the default), the `Request` given to `proxy.fetch`
 * (`createProxy<Request>(...)`), or either (`createProxy<IncomingMessage | Request>(...)`).
 */
export type ProxyOptions<R extends ProxyRequest = IncomingMessage> = ProxyOptionFields<R> &
  // Who may touch which account: at least one of the three (createProxy throws without).
  ({ authorize: AuthorizeHook<R> } | { accountFor: AccountResolver<R> } | { demoAccount: DemoAccount });

/** ProxyOptions' fields; ProxyOptions requires `authorize`, `accountFor` or `demoAccount` among them. */
export interface ProxyOptionFields<R extends ProxyRequest = IncomingMessage> {
  /**
   * The service's base address including the version segment, e.g. `http://127.0.0.1:4000/2025-10-13`.
   * This and the two credentials take `process.env.X` as it is: the key is required, and a value
   * left undefined (a variable the environment does not set) makes createProxy throw a TypeError
   * that names the option.
   */
  upstream: string | undefined;
  /** Basic credentials `<api token id>:<api client secret>` (api.md "Authentication"). */
  tokenId: string | undefined;
  clientSecret: string | undefined;
  /** Decides per request which account, card and customer the caller may touch. */
  authorize?: AuthorizeHook<R>;
  /** Explicit demo binding to one customer, account and card (see authorize.ts). */
  demoAccount?: DemoAccount;
  /**
   * The same binding rules per caller: which customer, account and card this request's user owns
   * (from your own session), or undefined to answer 401. Ids the service lists for that account
   * (credentials, sessions, delegated keys) are checked upstream, as for `demoAccount`, against a
   * short cache that ids the request does not find in it read again, each list at most 5 times at
   * once and then once a second (authorize.ts).
   */
  accountFor?: AccountResolver<R>;
  /** Where the browser reaches the proxy; default `/api`. */
  basePath?: string;
  /** Upstream name of the wallet-signature header; default `Service-Wallet-Signature`. */
  signatureHeader?: string;
  /** HMAC key for stateless WebAuthn challenges; default derived from `clientSecret` (HKDF). */
  challengeSecret?: string;
  /** WebAuthn relying party; `id` defaults to the request's host name, `name` to "Wallet". */
  rp?: { id?: string; name: string };
  /** Cross-origin integrators allowed to call (exact origins, e.g. `https://shop.example`). */
  allowedOrigins?: string[];
  /**
   * Host names this proxy answers for (its defence against DNS rebinding: a site whose name was
   * pointed at the proxy's address would otherwise be its "same origin"). A request whose `Host`
   * or `X-Forwarded-Host` names another host is refused with 403 before anything else is read.
   * Always answered: `localhost`, names under `.localhost`, IP addresses, and `rp.id` with its
   * subdomains. An entry starting with a dot (`.shop.example`) allows the name and its subdomains.
   * `'any'` turns the check off (only behind a front server that checks `Host` itself).
   */
  allowedHosts?: string[] | 'any';
  /** Request body bound; default 64 KiB. */
  maxBodyBytes?: number;
  /**
   * Bound on each phase of a request: reading its body, an asynchronous `authorize` decision, and
   * the upstream exchange, each timed on its own; default 10 s. The phases run one after the other,
   * so one request can take up to three times this in all (a slow client, a slow hook, a slow service).
   */
  upstreamTimeoutMs?: number;
  /** Per-client fixed window; default 600 requests per minute; `false` turns it off. */
  rateLimit?: RateLimitOptions | false;
  /** Receives one object per request (see ProxyLogLine). */
  logger?: (line: ProxyLogLine) => void;
  /**
   * Receives what was thrown when the proxy answers 500 INTERNAL_ERROR: an `authorize`,
   * `accountFor`, `stepUp.accountForCard` or `clientIp` function that threw or rejected, or a
   * failure of the proxy itself; and, the answer relayed as it came, a session refresh whose
   * answer has no valid `expiresAt`, for which no step-up grant was issued. The log line and the answer say only INTERNAL_ERROR, since what
   * was thrown may carry a password or a user's data; this is where to see it (log it with your
   * own redaction, send it to your error tracker). `request` is the browser's request as it came,
   * its headers with the browser's cookies: never the Basic credentials, which the proxy adds only
   * upstream, nor the body, which the proxy has read. A throw or rejection of onError is ignored.
   */
  onError?: (error: unknown, request: R) => void;
  /**
   * The client's address, which the rate limit counts requests under, from the request of either
   * entry and `address`: the Node handler's socket's remote address, or `proxy.fetch`'s
   * `info.clientAddress` (the default for each, and what undefined stands for). For a front server
   * of yours that sets the client's address in a header a client cannot set, or a route that
   * cannot pass `info`.
   */
  clientIp?: (request: R, address: string | undefined) => string | undefined;
  /**
   * Upstream transport: `'undici'` (an undici Pool the proxy creates and closes; the default under
   * Node), `'node'` (a keep-alive node:http Agent; the default under Bun, whose `undici` is a
   * stand-in that cannot carry it, and Deno, where undici needs --allow-env for variables of its
   * own), or an undici Pool/Agent you created for the upstream origin (you close it). All are
   * bounded the same way; bench/proxy.ts compares them.
   */
  transport?: UpstreamTransport;
  /** Card reveal only after a fresh wallet-session proof (a relayed session refresh); see step-up.ts. */
  stepUp?: StepUpOptions<R>;
}

export interface ProxyLogLine {
  /** The route's name (never the raw path, which carries ids and queries). */
  route: RouteName | 'unknown';
  method: string;
  status: number;
  durationMs: number;
  /** The browser's Request-Id header, else the service's; only in a safe shape (SAFE_REQUEST_ID). */
  requestId?: string;
  /** The error code, when the proxy itself refused or failed the request. */
  code?: string;
  /**
   * Why, when the proxy itself refused or failed the request: the answer's sentence, the proxy's
   * own fixed text (the values it compared stay in the answer's `details`) or an `authorize` hook's.
   */
  message?: string;
  /**
   * Why the service could not be reached or its connection failed, as the runtime names it: an
   * error code (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`) or, without one, the error's name
   * (Deno's `NotCapable` for a permission it was not given). Never the error's message.
   */
  cause?: string;
}

/** What `proxy.fetch` needs besides the request. */
export interface FetchInfo {
  /**
   * The client's address, which the per-client rate limit counts requests under. A Web `Request`
   * does not carry it: pass the one your server or platform gives (Bun `server.requestIP(request)`,
   * Deno `info.remoteAddr.hostname`, Hono `getConnInfo(c).remote.address`, or a header your own
   * front server sets and a client cannot; or read that header in the `clientIp` option). Without
   * it, while `rateLimit` is on, the request is answered 500 INTERNAL_ERROR and `onError` says why.
   */
  clientAddress?: string | undefined;
}

/** The Node entry: `(req, res, next?)` for node:http, Express/connect and Fastify. */
export type NodeProxyHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;

/**
 * The fetch-style entry, for servers that hand route code a WHATWG `Request` and take a `Response`
 * (Next.js route handlers, Remix and React Router, SvelteKit, Hono, Astro, Bun, Deno). The same
 * rules as the Node handler; see proxy.ts's opening comment for what differs.
 */
export interface FetchProxyHandler {
  fetch(request: Request, info?: FetchInfo): Promise<Response>;
}

/**
 * What createProxy returns: the Node handler, with `fetch` beside it. Typed after the request the
 * hooks take (ProxyOptions): each entry is there when the hooks take its request.
 */
export type ProxyHandler<R extends ProxyRequest = IncomingMessage> = (IncomingMessage extends R ? NodeProxyHandler : unknown) &
  (Request extends R ? FetchProxyHandler : unknown) & {
    close(): Promise<void>;
  };

const DEFAULT_SIGNATURE_HEADER = 'Service-Wallet-Signature';
/** The longest delay Node's timers take (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** An absolute-form request target's scheme and authority (RFC 9112 section 3.2.2). */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)/i;
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;
const CORS_ALLOW_HEADERS = 'Content-Type, Service-Wallet-Signature, Request-Id, X-Requested-With, Authorization';
/**
 * Upstream answer headers the browser may see; everything else (Set-Cookie, Server, ...) is dropped.
 * `date` is the service's clock, on which every expiry it sends is written (core/clock.ts).
 */
const RELAYED_RESPONSE_HEADERS = ['content-type', 'request-id', 'retry-after', 'date'] as const;
/**
 * A Request-Id the proxy relays and logs: 1 to 128 letters, digits and `_ . : ~ + / = -`. Any other
 * (spaces, quotes, markup, non-ASCII, longer) is dropped, not relayed to the page nor put in a log line.
 */
const SAFE_REQUEST_ID = /^[\w.:~+/=-]{1,128}$/;
/** Connection values that name no other header: the common case is read without splitting it. */
const PLAIN_CONNECTION = new Set(['keep-alive', 'close', 'Keep-Alive', 'Close']);
/** `application/json`, or a `+json` type (`application/problem+json`), with any parameters. */
const JSON_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** A request header's value as an origin refusal's `details` echo it: at most 200 characters. */
const excerpt = (value: string | undefined): string => (value ?? '').slice(0, 200);

const CROSS_ORIGIN =
  'Requests from another origin are refused. To allow a page on another origin, list that origin in the proxy\'s allowedOrigins (PROXY_ALLOWED_ORIGINS for the command-line proxy).';
const HOST_NOT_ALLOWED =
  'This proxy does not answer for the host this request named (Host or X-Forwarded-Host). List the host names it is reached by in allowedHosts (PROXY_ALLOWED_HOSTS for the command-line proxy); without them it answers only localhost, IP addresses and rp.id, so that a site whose name was pointed at this machine (DNS rebinding) cannot use it.';
const HOST_MISMATCH =
  'The request\'s Origin is not the host it reached. A development server that forwards to the proxy must keep the Host header (Vite: changeOrigin: false) or set X-Forwarded-Host; a page on another origin must be listed in allowedOrigins (PROXY_ALLOWED_ORIGINS).';

/** An answer the proxy gives itself, in the service's error shape. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Per-request state shared by the steps and the log line. */
interface Exchange {
  /** The request as its entry got it: what the hooks and onError are handed. */
  request: ProxyRequest;
  /** The Node handler's request and response (undefined for proxy.fetch). */
  req: IncomingMessage | undefined;
  res: ServerResponse | undefined;
  /** proxy.fetch's request (undefined for the Node handler). */
  web: Request | undefined;
  /** proxy.fetch: the address the rate limit counts the request under, as given. */
  clientAddress: string | undefined;
  /** proxy.fetch: the answer, once made. */
  response: Response | undefined;
  method: string;
  /** The request headers the proxy reads, gathered in one pass (see readHeaders). */
  h: RequestHeaders;
  start: number;
  route: RouteName | 'unknown';
  requestId: string | undefined;
  code: string | undefined;
  message?: string;
  cause?: string;
  corsOrigin: string | undefined;
  /**
   * The other host the request names, checked as Host is: the Host header of an absolute-form
   * target (whose authority is the host), or a Request's URL host, which is the target's authority
   * when the framework kept it.
   */
  named?: string | undefined;
}

/**
 * The request headers the proxy reads, each with its one value; null when the request repeats it,
 * which is refused where the header is read (two readers, here and upstream, could pick different
 * copies). Node's `req.headers` silently keeps the first Content-Type or Authorization and joins
 * others, so repeats are counted on `req.rawHeaders`.
 */
interface RequestHeaders {
  host: string | null | undefined;
  'request-id': string | null | undefined;
  origin: string | null | undefined;
  'sec-fetch-site': string | null | undefined;
  'content-type': string | null | undefined;
  'content-encoding': string | null | undefined;
  authorization: string | null | undefined;
  'service-wallet-signature': string | null | undefined;
  'access-control-request-method': string | null | undefined;
}
type HeaderName = keyof RequestHeaders;

/** Lengths of the HeaderName strings: other header names are skipped without lower-casing them. */
const READ_HEADER_LENGTHS = new Set([4, 10, 6, 14, 12, 16, 13, 24, 29]);

export function createProxy<R extends ProxyRequest = IncomingMessage>(options: ProxyOptions<R>): ProxyHandler<R>;
// Last, so that `ReturnType<typeof createProxy>` is the Node handler's type, as before fetch was added.
export function createProxy(options: ProxyOptions): ProxyHandler;
export function createProxy(given: ProxyOptions<never>): ProxyHandler<ProxyRequest> {
  // The hooks are handed the request of the entry that got it; ProxyHandler<R> offers only the
  // entries whose request R includes.
  const options = given as ProxyOptions<ProxyRequest>;
  const o = validateOptions(options);
  const upstream = createUpstream(o.upstream, { timeoutMs: o.upstreamTimeoutMs, transport: options.transport });
  const basic = 'Basic ' + Buffer.from(`${o.tokenId}:${o.clientSecret}`, 'utf8').toString('base64');
  // The secret alone too, unless it is so short that it could be any answer's text.
  const carriesCredentials = (text: Buffer | string): boolean => text.includes(basic.slice(6)) || (o.clientSecret.length >= 8 && text.includes(o.clientSecret));
  const challengeKey = deriveChallengeKey(options.challengeSecret ?? o.clientSecret);
  const limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? { windowMs: 60_000, max: 600 });
  const allowedOrigins = new Set(o.allowedOrigins);
  const allowedHost = hostPolicy(o.allowedHosts, o.rp?.id);
  const signatureHeader = o.signatureHeader;
  const logger = options.logger;
  const onError = options.onError;

  /** Reads `{data: [...]}` from the service with the proxy's own credentials (demo binding, passkey list). */
  async function listUpstream(path: string): Promise<Array<Record<string, unknown>>> {
    const r = await upstream.send({ method: 'GET', path, headers: { authorization: basic, accept: 'application/json', 'accept-encoding': 'identity' } });
    if (r.status !== 200) throw new Refusal(502, 'BAD_GATEWAY', `The service refused a list the proxy needed (status ${r.status}).`);
    let data: unknown;
    try {
      data = (JSON.parse(r.body.toString('utf8')) as { data?: unknown } | null)?.data;
    } catch {
      data = undefined;
    }
    if (!Array.isArray(data)) throw new Refusal(502, 'BAD_GATEWAY', 'The service answered a list in an unexpected shape.');
    return data as Array<Record<string, unknown>>;
  }

  // A miss in an account's list waits at most this long for its read (authorize.ts), well within
  // the authorize deadline.
  const missReadMs = Math.min(1000, o.upstreamTimeoutMs / 4);
  /** The account bindings, told of each relayed answer (an id created through the proxy). */
  const bindings: AccountAuthorizeHook[] = [];
  // One account's lists, read once for both bindings when both are given.
  const lists: AccountLists = new Map();
  if (options.demoAccount) bindings.push(demoAccountAuthorize(options.demoAccount, listUpstream, undefined, missReadMs, lists));
  const accountFor = options.accountFor && oncePerRequest(options.accountFor);
  if (accountFor) bindings.push(accountAuthorize(accountFor, listUpstream, undefined, missReadMs, lists));
  const hooks: Array<AuthorizeHook<ProxyRequest>> = [...bindings];
  if (options.authorize) hooks.push(options.authorize);
  if (hooks.length === 0) {
    throw new TypeError('createProxy needs `authorize` or `accountFor` (who may touch which account) or an explicit `demoAccount` binding');
  }
  const stepUp = options.stepUp ? createStepUp(options.stepUp, { basePath: o.basePath, clientSecret: o.clientSecret, demoAccount: options.demoAccount, accountFor, onError: onError && ((e, r) => report(onError, e, r)) }) : undefined;
  if (stepUp) hooks.push(stepUp.authorize);

  const handler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void): void => {
    // Express rewrites req.url below a mount path and keeps the original; plain node:http has only url.
    const rawUrl = (req as { originalUrl?: unknown }).originalUrl;
    let target = typeof rawUrl === 'string' ? rawUrl : (req.url ?? '');
    // The absolute form (RFC 9112 section 3.2.2), `http://host/path`: its authority is the host.
    const authority = target.charCodeAt(0) === 47 ? undefined : ABSOLUTE_FORM.exec(target);
    if (authority) target = target.slice(authority[0].length).replace(/^(?!\/)/, '/');
    const q = target.indexOf('?');
    const rawPath = q === -1 ? target : target.slice(0, q);
    const rawQuery = q === -1 ? undefined : target.slice(q + 1);
    const underBase = o.basePath === '' ? rawPath.startsWith('/') : rawPath === o.basePath || rawPath.startsWith(o.basePath + '/');
    if (!underBase && next) {
      next();
      return;
    }
    const h = readHeaders(req.rawHeaders);
    // For the log and the upstream call; handle() refuses a repeated Request-Id (null here) first.
    const requestId = h['request-id'] ?? undefined;
    const x: Exchange = {
      request: req, req, res, web: undefined, clientAddress: undefined, response: undefined, method: req.method ?? 'GET',
      h, start: logger ? performance.now() : 0, route: 'unknown', requestId, code: undefined, corsOrigin: undefined,
    };
    // Pipelined behind an answer its connection is still writing.
    if (res.socket === null) closeWithConnection(req.socket, res);
    // 'close' fires after the answer or when the client went away, so both are logged.
    if (logger) {
      exchanges.set(res, x);
      res.once('close', logOnClose);
    }
    if (!underBase) {
      fail(x, outsideBase(x.method, rawPath, rawQuery));
      return;
    }
    if (authority) {
      // It, not Host, names the host the request was sent to, checked as Host is; it names no
      // other upstream: only the path and query are relayed.
      const host = authority[1]!;
      if (host === '' || host.includes('@')) return fail(x, invalidInput('The request target names no host, or a host with user information.'));
      // Host is checked too: a server in front that read it checked that host.
      if (h.host !== null) [x.named, h.host] = [h.host, host];
    }
    void handle(x, rawPath.slice(o.basePath.length), rawQuery);
  };

  /**
   * The 404 of a path outside basePath. When the path is a route's path as it would be below
   * basePath, the answer says so: what hands the proxy its requests took basePath off (Hono's
   * `mount()` does), and basePath is the path the browser sends, which the step-up cookie's Path
   * also names.
   */
  function outsideBase(method: string, path: string, query: string | undefined): Refusal {
    // A path that is no route's (`*`, `/x//y`) is refused as invalid with no field, which names it no route.
    const m = matchRoute(method, path, query);
    const stripped = m.kind !== 'not-found' && (m.kind !== 'invalid' || m.field !== undefined);
    return new Refusal(404, 'NOT_FOUND', stripped ? `No such route: the path is outside basePath ${o.basePath}. Hand the proxy the path the browser sent, basePath included (a mount that strips its path, such as Hono's mount(), does not).` : 'No such route.');
  }

  /** The exchange of each open response, for the shared 'close' listener (only with a logger). */
  const exchanges = new WeakMap<ServerResponse, Exchange>();
  function logOnClose(this: ServerResponse): void {
    const x = exchanges.get(this);
    if (x && logger) log(x, logger);
  }

  /**
   * The fetch-style entry: the same steps as the Node handler, reading the request's headers from
   * its Headers and its body from its stream, and answering with a Response (see the file header).
   */
  async function fetchEntry(request: Request, info?: FetchInfo): Promise<Response> {
    const start = logger ? performance.now() : 0;
    // A Request's URL is absolute; the framework parsed it (dot segments are resolved), and the
    // path is matched against the routes as it is, as the Node handler matches the request line.
    const url = new URL(request.url);
    const rawPath = url.pathname;
    const rawQuery = url.search === '' ? undefined : url.search.slice(1);
    const h = readWebHeaders(request.headers, url);
    const x: Exchange = {
      request, req: undefined, res: undefined, web: request, clientAddress: info?.clientAddress, response: undefined, method: request.method,
      h, start, route: 'unknown', requestId: h['request-id'] ?? undefined, code: undefined, corsOrigin: undefined, named: url.host,
    };
    const underBase = o.basePath === '' ? rawPath.startsWith('/') : rawPath === o.basePath || rawPath.startsWith(o.basePath + '/');
    if (underBase) await handle(x, rawPath.slice(o.basePath.length), rawQuery);
    else fail(x, outsideBase(x.method, rawPath, rawQuery));
    // Nothing was answered only when the client went away (its signal) before the answer.
    const response = x.response ?? new Response(null, { status: 499, headers: { 'cache-control': 'no-store' } });
    if (logger) log(x, logger);
    return response;
  }

  /**
   * An asynchronous authorize decision within the upstream time limit: a hook that never settles
   * (a hung lookup of the integrator's) must not hold the request unanswered.
   */
  function withDeadline(decision: Promise<AuthorizeDecision>): Promise<AuthorizeDecision> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Refusal(504, 'GATEWAY_TIMEOUT', 'The authorization check did not finish in time.')), o.upstreamTimeoutMs);
    });
    return Promise.race([decision, late]).finally(() => clearTimeout(timer));
  }

  /** Answers the request; never rejects (every error becomes an answer in the service's shape). */
  async function handle(x: Exchange, path: string, rawQuery: string | undefined): Promise<void> {
    try {
      await steps(x, path, rawQuery);
    } catch (error) {
      fail(x, error);
    }
  }

  async function steps(x: Exchange, path: string, rawQuery: string | undefined): Promise<void> {
    const { h, method } = x;
    // A Request-Id is the service's `Request:<uuid>` (reference.md SignedRequestChallenge); any
    // other value is refused here rather than relayed and logged.
    const requestId = single(h, 'request-id');
    if (requestId !== undefined && !isId(requestId, 'Request')) {
      x.requestId = undefined;
      throw invalidInput('The Request-Id header must be a Request:<uuid> from the service.', 'Request-Id');
    }
    // Before anything is read or relayed: the host must be one this proxy serves (DNS rebinding).
    // Two Host lines are refused (RFC 9112 section 3.2): Node keeps the first, and a front server
    // that read the other would have checked another host.
    for (const host of [single(h, 'host'), header(x, 'x-forwarded-host'), x.named]) {
      if (host !== undefined && !allowedHost(host)) throw new Refusal(403, 'FORBIDDEN', HOST_NOT_ALLOWED, {}, { host: excerpt(String(host)) });
    }
    // First, so that a listed origin can read every answer, refusals included.
    const origin = single(h, 'origin');
    if (origin !== undefined && allowedOrigins.has(origin)) x.corsOrigin = origin;

    // Matching is cheap and names the route in the log line even when the request is refused.
    const match = matchRoute(method, path, rawQuery);
    if (match.kind === 'route') x.route = match.route.name;

    if (limiter) {
      const verdict = limiter.hit(clientKey(x));
      if (verdict.limited) {
        throw new Refusal(429, 'RATE_LIMITED', 'Too many requests from this client; try again later.', { 'retry-after': String(verdict.retryAfterSeconds) }, { reason: PROXY_RATE_LIMIT });
      }
    }

    if (method === 'OPTIONS') return preflight(x, match, path, rawQuery);

    if (match.kind === 'not-found') throw new Refusal(404, 'NOT_FOUND', 'No such route.');
    if (match.kind === 'method-not-allowed') {
      throw new Refusal(405, 'METHOD_NOT_ALLOWED', 'This route does not accept that method.', { allow: match.allow.join(', ') });
    }
    if (match.kind === 'invalid') throw invalidInput(match.message, match.field);
    const { route } = match;

    checkOrigin(x, method);
    const bearer = route.auth === 'agent-bearer' ? agentBearer(h) : undefined;
    const contentType = single(h, 'content-type');
    const encoding = single(h, 'content-encoding');
    // Without a body (every GET, most DELETEs) nothing is awaited, allocated or parsed.
    const bytes = (x.req ? hasBody(x.req) : x.web!.body !== null && header(x, 'content-length') !== '0') ? await readBody(x, method, contentType, encoding) : NO_BODY;
    // A route that takes none relays no body or stamp: what they carried is nothing the service documents.
    if (route.bare && (bytes.length > 0 || h['service-wallet-signature'] !== undefined)) throw invalidInput('This route takes no body and no wallet signature.');
    let body: unknown;
    if (bytes.length > 0) {
      try {
        body = parseStrictJson(bytes);
      } catch (e) {
        if (e instanceof BodyParseError) throw invalidInput(e.message);
        throw e;
      }
    }

    const context: AuthorizeContext<ProxyRequest> = { request: x.request, route: route.name, params: match.params, query: match.query, body };
    for (const hook of hooks) {
      const decision = hook(context);
      // A synchronous decision is used as it is: awaiting it would only add a turn of the event loop.
      refuseUnlessAllowed(decision instanceof Promise ? await withDeadline(decision) : (decision as AuthorizeDecision));
    }

    if (route.auth === 'local') return sendRegistrationOptions(x, body);
    if (route.name === 'createCredential' && isObject(body) && body.type === 'PASSKEY') checkPasskeyChallenge(body);

    // Without Accept-Encoding any content coding is acceptable (RFC 9110 section 12.5.3), and the
    // proxy relays bytes without their Content-Encoding: it asks for none.
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity', authorization: bearer ?? basic };
    if (bytes.length > 0) headers['content-type'] = contentType!;
    const signature = single(h, 'service-wallet-signature');
    if (signature !== undefined) headers[signatureHeader] = signature;
    if (x.requestId !== undefined) headers['request-id'] = x.requestId;
    const connection = header(x, 'connection');
    if (connection !== undefined && !PLAIN_CONNECTION.has(connection)) {
      for (const name of connectionOptions(connection)) {
        // The browser's names; the signature goes upstream under its own, and a Basic route's
        // Authorization upstream is the proxy's own, not the browser's.
        if (name === 'service-wallet-signature') delete headers[signatureHeader];
        else if (name === 'content-type' || name === 'request-id' || (name === 'authorization' && bearer !== undefined)) delete headers[name];
      }
    }

    // The client went away while its request was read or authorized: nothing goes upstream.
    if (x.req ? x.req.socket.destroyed : x.web!.signal.aborted) return;
    // A read nobody waits for any more is dropped upstream too (`client`), freeing its connection.
    // A state change is not: cutting it would not undo it, and the service's answer ends it cleanly.
    const get = method === 'GET';
    const client = get ? (x.res ?? abortedWith(x.web!.signal)) : undefined;
    const answer = await upstream.send({ method, path: match.upstreamPath, headers, body: get ? undefined : bytes, client });
    relay(x, answer, match.params);
  }

  /** The key the rate limit counts the request under: the client's address. */
  function clientKey(x: Exchange): string {
    const address = x.req ? x.req.socket.remoteAddress : x.clientAddress;
    const key = options.clientIp ? options.clientIp(x.request, address) : address;
    if (x.req) return key ?? address ?? 'unknown';
    // One shared key would let one client use up every other's requests: no address is an error.
    if (typeof key === 'string' && key !== '') return key;
    throw new TypeError(
      'proxy.fetch(request, { clientAddress }) was given no client address (nor one from the clientIp option), which the rate limit counts requests under: pass the address your server or platform gives, or set rateLimit: false and limit requests in front of the proxy.',
    );
  }

  function preflight(x: Exchange, match: RouteMatch, path: string, rawQuery: string | undefined): void {
    if (match.kind === 'not-found') throw new Refusal(404, 'NOT_FOUND', 'No such route.');
    if (match.kind === 'invalid') throw invalidInput(match.message, match.field);
    const requested = single(x.h, 'access-control-request-method');
    // The log line names the route the preflight asks about (method OPTIONS tells it is one).
    const asked = requested === undefined ? undefined : matchRoute(requested, path, rawQuery);
    if (asked?.kind === 'route') x.route = asked.route.name;
    if (!x.corsOrigin) throw new Refusal(403, 'FORBIDDEN', CROSS_ORIGIN, {}, { origin: excerpt(single(x.h, 'origin')) });
    const allow = match.kind === 'method-not-allowed' ? match.allow : [];
    if (requested !== undefined && !allow.includes(requested as never)) {
      throw new Refusal(405, 'METHOD_NOT_ALLOWED', 'This route does not accept that method.', { allow: allow.join(', ') });
    }
    send(x, 204, undefined, {
      'access-control-allow-methods': allow.join(', '),
      'access-control-allow-headers': CORS_ALLOW_HEADERS,
      'access-control-max-age': '600',
    });
  }

  /** Same-origin by default; listed origins pass (see the file header for the policy). */
  function checkOrigin(x: Exchange, method: string): void {
    const { h } = x;
    if (!x.corsOrigin) {
      const site = single(h, 'sec-fetch-site');
      const origin = single(h, 'origin');
      // The answer says which check failed and what to change, with the values compared in
      // `details`; the log line gets the fixed message only.
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        throw new Refusal(403, 'FORBIDDEN', CROSS_ORIGIN, {}, { origin: excerpt(origin), secFetchSite: excerpt(site) });
      }
      const host = single(h, 'host');
      if (origin !== undefined && !sameHost(host, header(x, 'x-forwarded-host'), origin)) {
        throw new Refusal(403, 'FORBIDDEN', HOST_MISMATCH, {}, { origin: excerpt(origin), host: excerpt(host) });
      }
    }
    if (method !== 'GET') {
      // Any application/json (whatever its parameters) is a non-safelisted Content-Type, hence preflighted.
      const json = single(h, 'content-type')?.split(';')[0]!.trim().toLowerCase() === 'application/json';
      const custom = header(x, 'x-requested-with') !== undefined || h['request-id'] !== undefined || h['service-wallet-signature'] !== undefined;
      if (!json && !custom) {
        throw new Refusal(403, 'FORBIDDEN', 'State-changing requests must carry Content-Type: application/json or an X-Requested-With header.');
      }
    }
  }

  /** Refuses, from its headers, a body the proxy does not relay. */
  function checkBody(method: string, declared: number | undefined, contentType: string | undefined, encoding: string | undefined): void {
    if (method === 'GET') throw invalidInput('GET requests carry no body.');
    if (declared !== undefined && declared > o.maxBodyBytes) throw tooLarge();
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      throw new Refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request bodies must not be content-encoded.');
    }
    if (!isJsonMediaType(contentType)) throw new Refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be Content-Type: application/json.');
  }

  /** Reads the body of a request that has one (or, from proxy.fetch, may have one), within the size and time bounds. */
  async function readBody(x: Exchange, method: string, contentType: string | undefined, encoding: string | undefined): Promise<Buffer> {
    const length = header(x, 'content-length');
    const declared = length === undefined ? undefined : Number(length);
    const { web } = x;
    if (web) {
      // A framework hands every request but GET and HEAD a body stream, an empty one when nothing
      // was sent (a DELETE without a body declares no length): without a declared length, what the
      // stream holds says whether there is a body, and its headers are checked once it has bytes.
      if (declared !== undefined) checkBody(method, declared, contentType, encoding);
      if (web.bodyUsed) throw new Refusal(500, 'INTERNAL_ERROR', 'The request body was read before the proxy got the request, which cannot see its bytes.');
      const bytes = await readStream(web.body!, web.signal);
      if (declared === undefined && bytes.length > 0) checkBody(method, declared, contentType, encoding);
      return bytes;
    }
    checkBody(method, declared, contentType, encoding);
    const req = x.req!;
    if ((req as { body?: unknown }).body !== undefined || req.readableEnded) {
      throw new Refusal(500, 'INTERNAL_ERROR', 'The proxy is mounted after a body parser and cannot see the request bytes.');
    }
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const timer = setTimeout(() => done(new Refusal(408, 'REQUEST_TIMEOUT', 'The request body did not arrive in time.', { connection: 'close' })), o.upstreamTimeoutMs);
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > o.maxBodyBytes) done(tooLarge());
        else chunks.push(chunk);
      };
      const onEnd = () => done(undefined);
      // The client left mid-body, or sent one Node's parser refused (Node answered it): its fault,
      // not the proxy's, so not onError's (see bodyCut).
      const onError = () => done(bodyCut());
      const done = (error: unknown) => {
        clearTimeout(timer);
        req.off('data', onData).off('end', onEnd).off('error', onError);
        if (error) {
          // Keep reading (and dropping) what the client still sends, so it sees the answer rather than a reset.
          req.resume();
          reject(error);
        } else resolve(Buffer.concat(chunks, size));
      };
      req.on('data', onData).on('end', onEnd).on('error', onError);
    });
  }

  /**
   * Reads a Web request's body stream, counting its bytes as they arrive: past maxBodyBytes it
   * stops reading (413), and it stops waiting after upstreamTimeoutMs (408). A body refused for its
   * size is left unread, not cancelled: cancelling can make the framework close the connection
   * before the refusal is written, and what remains is the framework's to drop. A body that stops
   * arriving is cancelled: its client is not sending, and nothing it sends later is wanted.
   */
  async function readStream(body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<Buffer> {
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Refusal(408, 'REQUEST_TIMEOUT', 'The request body did not arrive in time.')), o.upstreamTimeoutMs);
    });
    try {
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), late]);
        if (done) break;
        size += value.byteLength;
        if (size > o.maxBodyBytes) throw tooLarge();
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof Refusal && error.status === 408) void reader.cancel().catch(() => undefined);
      else reader.releaseLock();
      // A stream that failed: the framework's client went away (nobody to answer, as the Node
      // handler's, whose log line says 499) or sent a broken body.
      throw error instanceof Refusal ? error : signal.aborted ? GONE : bodyCut();
    } finally {
      clearTimeout(timer);
    }
    return Buffer.concat(chunks, size);
  }

  function checkPasskeyChallenge(body: Record<string, unknown>): void {
    const accountId = typeof body.accountId === 'string' ? body.accountId : '';
    const check = checkChallenge(challengeKey, body.challenge, accountId);
    if (!check.ok) {
      throw invalidInput(
        check.reason === 'expired'
          ? 'The registration challenge has expired; request new registration options.'
          : 'The registration challenge was not issued by this proxy for this account.',
        'challenge',
      );
    }
  }

  async function sendRegistrationOptions(x: Exchange, body: unknown): Promise<void> {
    if (!isObject(body) || !isId(body.accountId, 'InternalAccount')) throw invalidInput('accountId must be an InternalAccount id.', 'accountId');
    const { accountId } = body;
    const userName = body.userName ?? accountId;
    if (typeof userName !== 'string' || userName.length < 1 || userName.length > 64) {
      throw invalidInput('userName must be a string of 1 to 64 characters.', 'userName');
    }
    const rpId = o.rp?.id ?? hostName(single(x.h, 'host'));
    if (!rpId) throw invalidInput('The Host header does not name a relying party.');
    const credentials = await listUpstream(`/auth/credentials?accountId=${encodeURIComponent(accountId)}`);
    const exclude = credentials.filter((c) => c.type === 'PASSKEY' && typeof c.credentialId === 'string').map((c) => c.credentialId as string);
    const json = registrationOptions({
      challenge: mintChallenge(challengeKey, accountId),
      rp: { id: rpId, name: o.rp?.name ?? 'Wallet' },
      userId: userHandle(challengeKey, accountId),
      userName,
      excludeCredentialIds: exclude,
    });
    send(x, 200, Buffer.from(JSON.stringify(json)), { 'content-type': 'application/json; charset=utf-8' });
  }

  function relay(x: Exchange, answer: UpstreamResponse, params: Record<string, string>): void {
    // What the service's Connection header names is of that connection only (RFC 9110 section 7.6.1).
    const connection = answer.headers.connection;
    if (connection !== undefined && !PLAIN_CONNECTION.has(String(connection))) {
      for (const name of connectionOptions(String(connection))) delete answer.headers[name];
    }
    // Bytes in a content coding (asked not to be) are unreadable without its Content-Encoding, which is not relayed.
    const coding = answer.headers['content-encoding'];
    if (coding !== undefined && String(coding).toLowerCase() !== 'identity') {
      throw new Refusal(502, 'BAD_GATEWAY', 'The service answered in a content coding, which the proxy asked it not to use.');
    }
    // reference.md "Errors": every 4xx/5xx body is {status, code, message, details?}. A redirect
    // (never followed) or an error page of something between proxy and service (a load balancer's
    // HTML, an empty 503) becomes an answer of that shape, so the browser reads one format only.
    if (answer.status >= 300 && answer.status < 400) {
      throw new Refusal(502, 'BAD_GATEWAY', `The service answered with a redirect (${answer.status}), which the proxy does not follow.`);
    }
    if (answer.status >= 400 && !isErrorBody(answer.body, answer.status)) {
      const headers = answer.headers['retry-after'] === undefined ? undefined : { 'retry-after': String(answer.headers['retry-after']) };
      throw new Refusal(answer.status, answer.status >= 500 ? 'UPSTREAM_ERROR' : 'UPSTREAM_REFUSED', `The service answered ${answer.status} without an error body.`, headers);
    }
    // What the proxy serves is served on the integrator's origin: only JSON, labelled as JSON. A
    // success that is not (a captive portal's or a filter's HTML page) is not relayed.
    const json = JSON_TYPE.test(String(answer.headers['content-type'] ?? ''));
    if (answer.body.length > 0 && answer.status < 400 && !json) {
      throw new Refusal(502, 'BAD_GATEWAY', `The service answered ${answer.status} with a body that is not JSON.`);
    }
    const headers: Record<string, string | string[]> = {};
    for (const name of RELAYED_RESPONSE_HEADERS) {
      const v = answer.headers[name];
      if (typeof v === 'string' && (name !== 'request-id' || SAFE_REQUEST_ID.test(v))) headers[name] = v;
    }
    // An error body in the service's shape (checked above) under another label is still JSON.
    if (answer.body.length > 0 && !json) headers['content-type'] = 'application/json; charset=utf-8';
    // The browser never sees the Basic credentials (DESIGN.md): not even quoted back by the service
    // or something in between (a gateway or a debug mode echoing the request it got).
    if (carriesCredentials(answer.body) || Object.values(headers).some((v) => carriesCredentials(String(v)))) {
      throw new Refusal(502, 'BAD_GATEWAY', 'The service\'s answer carried the proxy\'s credentials; it is not relayed.');
    }
    if (x.requestId === undefined && headers['request-id'] !== undefined) x.requestId = headers['request-id'] as string;
    if (stepUp) Object.assign(headers, stepUp.grantHeaders(x.route, answer.status, answer.body, x.request, params, answer.headers.date));
    for (const binding of bindings) binding.changed(x.request, x.route, answer.status);
    send(x, answer.status, answer.body, headers);
  }

  function send(x: Exchange, status: number, body: Buffer | undefined, headers: Record<string, string | string[]>): void {
    const { res, req } = x;
    if (res ? res.headersSent || res.destroyed : x.response !== undefined) return;
    // `headers` is always a fresh object of this request: add to it rather than copy it.
    headers['cache-control'] = 'no-store';
    headers['referrer-policy'] = 'no-referrer';
    headers['x-content-type-options'] = 'nosniff';
    headers.vary = 'Origin';
    if (x.corsOrigin) {
      headers['access-control-allow-origin'] = x.corsOrigin;
      headers['access-control-allow-credentials'] = 'true';
      headers['access-control-expose-headers'] = 'Request-Id, Retry-After, Date';
    }
    if (!res || !req) {
      // The framework owns the connection and writes the answer: how to use the connection is not
      // the proxy's to say (Connection is an error over HTTP/2), and the length is the body's.
      delete headers.connection;
      // Each Set-Cookie a header of its own (the step-up's may be two).
      const list = Object.entries(headers).flatMap(([name, v]) => [v].flat().map((value): [string, string] => [name, value]));
      x.response = new Response(status === 204 ? null : ((body ?? null) as Uint8Array<ArrayBuffer> | null), { status, headers: list });
      return;
    }
    // RFC 9110 section 8.6: a 204 carries no Content-Length.
    if (status !== 204) headers['content-length'] = String(body?.length ?? 0);
    res.writeHead(status, headers);
    // What the connection does not take at once waits in memory for a client that may never read
    // it: counted with the answers being read (upstream.ts) until the response closes, or until
    // those bytes are needed and its client has stopped reading, when its connection is closed.
    const change = x.method !== 'GET';
    if (body === undefined || body.length <= ANSWER_SLICE_BYTES) {
      res.end(body);
      if (body !== undefined && !res.writableFinished) upstream.hold(body.length, res, req.socket, change);
      return;
    }
    // A large answer is handed over a slice at a time, each once the connection took the one
    // before: how recently it took one tells a client reading slowly from one that stopped.
    upstream.hold(body.length, res, req.socket, change);
    writeInSlices(res, req.socket, body, () => upstream.taken(req.socket));
  }

  function fail(x: Exchange, error: unknown): void {
    // The client went away: nothing to answer (the log line says 499), whichever the entry.
    if (error === GONE || (error instanceof UpstreamError && error.kind === 'cancelled')) return;
    let r: Refusal;
    if (error instanceof Refusal) r = error;
    else if (error instanceof UpstreamError) {
      // The message says what failed, and of a state change that may have reached the service, that it may have been carried out.
      r = error.kind === 'timeout'
        ? new Refusal(504, 'GATEWAY_TIMEOUT', error.message)
        : error.kind === 'busy'
          ? new Refusal(503, 'PROXY_BUSY', error.message, { 'retry-after': '1' })
          : new Refusal(502, 'BAD_GATEWAY', error.message);
      x.cause = causeName(error.cause);
    } else {
      r = new Refusal(500, 'INTERNAL_ERROR', 'The proxy failed to handle the request.');
      if (onError) report(onError, error, x.request);
    }
    x.code = r.code;
    x.message = r.message;
    const body: Record<string, unknown> = { status: r.status, code: r.code, message: r.message };
    if (r.details) body.details = r.details;
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...r.headers };
    // Refused before its body was read (a bad route, origin or content type, a rate limit): Node
    // would otherwise keep the connection and read the rest of that body, however large, to
    // reuse it; closing it holds such a request to what arrived with its headers.
    if (x.req && hasBody(x.req) && !x.req.readableEnded) {
      headers.connection = 'close';
      lingerOnClose(x.req.socket);
    }
    send(x, r.status, Buffer.from(JSON.stringify(body)), headers);
  }

  function log(x: Exchange, logger: (line: ProxyLogLine) => void): void {
    const line: ProxyLogLine = {
      route: x.route,
      method: x.method,
      // 499: the client went away before an answer was written (a common convention in access logs).
      status: x.res ? (x.res.headersSent ? x.res.statusCode : 499) : (x.response?.status ?? 499),
      durationMs: Math.round((performance.now() - x.start) * 100) / 100,
    };
    // The browser's is checked only once the request is handled (not on a path outside basePath).
    if (x.requestId !== undefined && SAFE_REQUEST_ID.test(x.requestId)) line.requestId = x.requestId;
    if (x.code !== undefined) line.code = x.code;
    if (x.message !== undefined) line.message = x.message;
    if (x.cause !== undefined) line.cause = x.cause;
    try {
      logger(line);
    } catch {
      // A failing logger must not take the proxy down with it.
    }
  }

  /** Hands an unexpected failure to the integrator's onError, whose own failure must not take the proxy down. */
  function report(onError: (error: unknown, request: ProxyRequest) => void, error: unknown, req: ProxyRequest): void {
    try {
      const result: unknown = onError(error, req);
      // An async onError that rejects would otherwise be an unhandled rejection, which ends the process.
      if (result instanceof Promise) result.catch(() => undefined);
    } catch {
      // Ignored, as a failing logger is.
    }
  }

  return Object.assign(handler, {
    fetch: fetchEntry,
    async close() {
      limiter?.close();
      await upstream.close();
    },
  });
}

/**
 * An upstream failure's cause, as a log line may name it: the first error code along its chain of
 * causes, else the first name more telling than Error or TypeError, in an identifier's shape. A
 * message could carry anything (an address, a header), so none is taken.
 */
function causeName(cause: unknown): string | undefined {
  for (let c = cause, depth = 0; c !== null && typeof c === 'object' && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    const { code, name } = c as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && CAUSE_SHAPE.test(code)) return code;
    if (typeof name === 'string' && name !== 'Error' && name !== 'TypeError' && CAUSE_SHAPE.test(name)) return name;
  }
  return undefined;
}
const CAUSE_SHAPE = /^[A-Za-z][\w-]{0,63}$/;

/** Every option of ProxyOptions (the type keeps the list complete), for telling a misspelt one. */
const OPTION_NAMES: Record<keyof ProxyOptionFields, true> = {
  upstream: true, tokenId: true, clientSecret: true, authorize: true, demoAccount: true, accountFor: true, basePath: true,
  signatureHeader: true, challengeSecret: true, rp: true, allowedOrigins: true, allowedHosts: true, maxBodyBytes: true,
  upstreamTimeoutMs: true, rateLimit: true, logger: true, onError: true, clientIp: true, transport: true, stepUp: true,
};
const STEP_UP_OPTION_NAMES: Record<keyof StepUpOptions, true> = { secret: true, ttlSeconds: true, accountForCard: true, cookieName: true };
const RATE_LIMIT_OPTION_NAMES: Record<keyof RateLimitOptions, true> = { windowMs: true, max: true };

/**
 * Refuses a key `known` does not have: from plain JavaScript a misspelt option would otherwise be
 * ignored, and with it what it asks for (`stepup: {}` would leave card reveals without the step-up).
 */
function refuseUnknownKeys(what: string, options: object, known: Record<string, true>): void {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(known, key)) continue;
    // A differing letter case, or a letter or two more or fewer at the end (allowedOrigin).
    const near = Object.keys(known).find((name) => {
      const [a, b] = [name.toLowerCase(), key.toLowerCase()];
      return a === b || (Math.abs(a.length - b.length) <= 2 && (a.startsWith(b) || b.startsWith(a)) && Math.min(a.length, b.length) >= 4);
    });
    throw new TypeError(`${what} has no option ${JSON.stringify(key)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`);
  }
}

/** What a value is, for a message: its type, never its text (it may be a secret). */
function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function validateOptions(options: ProxyOptions) {
  if (!options || typeof options !== 'object') throw new TypeError('createProxy needs an options object');
  refuseUnknownKeys('createProxy', options, OPTION_NAMES);
  if (options.stepUp && typeof options.stepUp === 'object') refuseUnknownKeys('stepUp', options.stepUp, STEP_UP_OPTION_NAMES);
  if (options.rateLimit && typeof options.rateLimit === 'object') refuseUnknownKeys('rateLimit', options.rateLimit, RATE_LIMIT_OPTION_NAMES);
  // A value of another type fails here, naming the option, not at the first request with a TypeError
  // of the proxy's code (a wallet object given as accountFor, a string as logger).
  const stepUpOptions = (options.stepUp && typeof options.stepUp === 'object' ? options.stepUp : {}) as Partial<StepUpOptions>;
  for (const [name, value] of [['authorize', options.authorize], ['accountFor', options.accountFor], ['logger', options.logger], ['clientIp', options.clientIp], ['stepUp.accountForCard', stepUpOptions.accountForCard]] as const) {
    if (value !== undefined && typeof value !== 'function') throw new TypeError(`${name} must be a function (got ${typeName(value)})`);
  }
  for (const [name, value] of [['challengeSecret', options.challengeSecret], ['stepUp.secret', stepUpOptions.secret]] as const) {
    if (value !== undefined && (typeof value !== 'string' || !value)) throw new TypeError(`${name} must be a non-empty string (got ${typeName(value)})`);
  }
  const { upstream, tokenId, clientSecret } = options;
  // `process.env.X` of a variable the environment does not set is undefined: say which setting.
  if (upstream === undefined) throw new TypeError('upstream is not set: the service\'s base URL with its version segment, such as https://<host>/<path>/2025-10-13');
  if (tokenId === undefined) throw new TypeError('tokenId is not set: the platform\'s API token id');
  if (clientSecret === undefined) throw new TypeError('clientSecret is not set: the platform\'s API client secret');
  // Set but blank: a variable an orchestrator substituted as "" is as good as unset.
  if (typeof upstream === 'string' && !upstream.trim()) throw new TypeError('upstream is empty: the service\'s base URL with its version segment, such as https://<host>/<path>/2025-10-13');
  if (typeof tokenId === 'string' && !tokenId.trim()) throw new TypeError('tokenId is empty: the platform\'s API token id');
  if (typeof clientSecret === 'string' && !clientSecret.trim()) throw new TypeError('clientSecret is empty: the platform\'s API client secret');
  // RFC 7617 forbids control characters in both; a line break is what a secret read from a file
  // usually brings along. The value itself is never echoed.
  for (const [name, value] of [['tokenId', tokenId], ['clientSecret', clientSecret]] as const) {
    if (typeof value === 'string' && /[\x00-\x1f\x7f]/.test(value)) throw new TypeError(`${name} must not contain a line break or other control character (RFC 7617)`);
  }
  if (typeof upstream !== 'string' || !URL.canParse(upstream)) throw new TypeError('upstream must be an absolute http(s) URL');
  if (typeof tokenId !== 'string' || !tokenId || tokenId.includes(':')) throw new TypeError('tokenId must be a non-empty string without ":" (RFC 7617)');
  if (typeof clientSecret !== 'string' || !clientSecret) throw new TypeError('clientSecret must be a non-empty string');
  const basePath = String(options.basePath ?? '/api').replace(/\/+$/, '');
  if (typeof (options.basePath ?? '') !== 'string' || (basePath !== '' && !/^(\/[A-Za-z0-9\-._~]+)+$/.test(basePath))) throw new TypeError('basePath must look like /api');
  const signatureHeader = options.signatureHeader ?? DEFAULT_SIGNATURE_HEADER;
  if (typeof signatureHeader !== 'string' || !HEADER_TOKEN.test(signatureHeader)) throw new TypeError('signatureHeader must be a header name');
  const allowedOrigins = options.allowedOrigins ?? [];
  if (!Array.isArray(allowedOrigins)) throw new TypeError(`allowedOrigins must be a list of exact origins such as ['https://shop.example'] (got ${typeName(allowedOrigins)})`);
  for (const origin of allowedOrigins) {
    if (typeof origin !== 'string' || !URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new TypeError(`allowedOrigins entries must be exact origins such as https://shop.example (got ${JSON.stringify(origin)})`);
    }
  }
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 10_000;
  if (!(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0)) throw new TypeError('maxBodyBytes must be a positive integer');
  // Node's timers take at most 2^31 - 1 ms; past it they fire at once, and every request would time out.
  if (!(typeof upstreamTimeoutMs === 'number' && upstreamTimeoutMs > 0 && upstreamTimeoutMs <= MAX_TIMER_MS)) throw new TypeError(`upstreamTimeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}`);
  if (options.onError !== undefined && typeof options.onError !== 'function') throw new TypeError('onError must be a function (error, request) => void');
  if (options.rp !== undefined && (options.rp === null || typeof options.rp !== 'object')) throw new TypeError("rp must be an object such as { id: 'wallet.example.com', name: 'Example' }");
  if (options.rp !== undefined && (typeof options.rp.name !== 'string' || !options.rp.name)) throw new TypeError('rp.name must be a non-empty string');
  // WebAuthn's RP ID is a domain, not an origin: a scheme or a port makes every ceremony fail in the browser.
  if (options.rp?.id !== undefined && !(typeof options.rp.id === 'string' && /^[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(options.rp.id))) {
    throw new TypeError(`rp.id must be a host name such as wallet.example.com, without scheme or port (got ${typeof options.rp.id === 'string' ? JSON.stringify(options.rp.id) : typeName(options.rp.id)})`);
  }
  const allowedHosts = options.allowedHosts ?? [];
  if (allowedHosts !== 'any' && !(Array.isArray(allowedHosts) && allowedHosts.every((h) => typeof h === 'string' && /^\.?[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/i.test(h)))) {
    throw new TypeError(`allowedHosts must be 'any' or host names such as shop.example or .shop.example, without scheme or port (got ${JSON.stringify(allowedHosts)})`);
  }
  return { upstream, tokenId, clientSecret, basePath, signatureHeader: signatureHeader.toLowerCase(), allowedOrigins, allowedHosts, maxBodyBytes, upstreamTimeoutMs, rp: options.rp };
}

function refuseUnlessAllowed(decision: AuthorizeDecision): void {
  if (decision === true) return;
  if (decision === false || typeof decision !== 'object' || decision === null) {
    throw new Refusal(403, 'FORBIDDEN', 'This request is not allowed.');
  }
  const { status, code, message } = decision as AuthorizeRefusal;
  const valid = Number.isInteger(status) && status >= 400 && status <= 599 && typeof code === 'string' && typeof message === 'string';
  if (!valid) throw new Refusal(403, 'FORBIDDEN', 'This request is not allowed.');
  // A 401's reason tells the page the refusal is the site's (its user not signed in, say), not the
  // service's: a 401 without details is the proxy's API credentials refused upstream.
  throw new Refusal(status, code, message, {}, status === 401 ? { reason: 'AUTHORIZE' } : undefined);
}

function agentBearer(h: RequestHeaders): string {
  const value = single(h, 'authorization');
  if (value === undefined || !BEARER.test(value)) {
    throw new Refusal(401, 'UNAUTHORIZED', 'Agent routes need the agent\'s own "Authorization: Bearer <token>".', { 'www-authenticate': 'Bearer' });
  }
  return value;
}

function invalidInput(message: string, field?: string): Refusal {
  return new Refusal(400, 'INVALID_INPUT', message, {}, field ? { errors: [{ field, message }] } : undefined);
}

/**
 * A body that stopped before its end: its client went away (nothing is written to a closed
 * connection; the log line says 499) or sent what the server could not parse. Not a failure of the
 * proxy, so not handed to onError, which any client leaving mid-upload would otherwise fill.
 */
function bodyCut(): Refusal {
  return new Refusal(400, 'INVALID_INPUT', 'The request body did not arrive whole.', { connection: 'close' });
}

/** The fetch entry's client went away while its body was read: nothing is answered (fetchEntry's 499). */
const GONE = Symbol();

function tooLarge(): Refusal {
  return new Refusal(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.', { connection: 'close' });
}

/** One pass over the raw header lines (name, value, name, value, ...); see RequestHeaders. */
function readHeaders(raw: string[]): RequestHeaders {
  const h: RequestHeaders = {
    host: undefined,
    'request-id': undefined,
    origin: undefined,
    'sec-fetch-site': undefined,
    'content-type': undefined,
    'content-encoding': undefined,
    authorization: undefined,
    'service-wallet-signature': undefined,
    'access-control-request-method': undefined,
  };
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (!READ_HEADER_LENGTHS.has(name.length)) continue;
    // Header names are case-insensitive (RFC 9110 section 5.1).
    const key = name.toLowerCase();
    if (!Object.hasOwn(h, key)) continue;
    const k = key as HeaderName;
    h[k] = h[k] === undefined ? raw[i + 1]! : null;
  }
  return h;
}

/**
 * The RequestHeaders of a Web request. Headers joins a repeated header's copies with ", ", so a
 * repeat cannot be counted; a joined value fails every check that reads it (not a Request:<uuid>,
 * not application/json, not a Bearer token, not an origin, not same-origin), except Host, whose
 * first name a host check would read: a Host with a comma, which no host name has, counts as
 * repeated. A framework that builds its Request without a Host header built its URL from it.
 */
function readWebHeaders(headers: Headers, url: URL): RequestHeaders {
  const host = headers.get('host') ?? url.host;
  const get = (name: HeaderName): string | undefined => headers.get(name) ?? undefined;
  return {
    host: host.includes(',') ? null : host,
    'request-id': get('request-id'),
    origin: get('origin'),
    'sec-fetch-site': get('sec-fetch-site'),
    'content-type': get('content-type'),
    'content-encoding': get('content-encoding'),
    authorization: get('authorization'),
    'service-wallet-signature': get('service-wallet-signature'),
    'access-control-request-method': get('access-control-request-method'),
  };
}

/** A header the proxy reads with its copies joined (Node's req.headers, a Request's Headers). */
function header(x: Exchange, name: string): string | undefined {
  return x.req ? (x.req.headers[name] as string | undefined) : (x.web!.headers.get(name) ?? undefined);
}

/**
 * What upstream.ts needs to drop a read whose client went away (`client`), from a Web request's
 * signal, which frameworks abort when the client goes away.
 */
function abortedWith(signal: AbortSignal): ClientResponse {
  return {
    writableFinished: false,
    once(_event, listener) {
      signal.addEventListener('abort', listener, { once: true });
      return this;
    },
  };
}

/** The one value of a header; a repeated header is refused, since two readers could pick different copies. */
function single(h: RequestHeaders, name: HeaderName): string | undefined {
  const value = h[name];
  if (value === null) throw new Refusal(400, 'INVALID_INPUT', `The ${name} header is repeated.`);
  return value;
}

const NO_BODY = Buffer.alloc(0);

/** RFC 9112 section 6.3: a request has a body when it declares a non-zero length or a transfer coding. */
/** Whether an upstream error answer is in the service's error shape (reference.md "Errors"). */
function isErrorBody(body: Buffer | undefined, status: number): boolean {
  if (!body || body.length === 0 || body.length > 64 * 1024) return false;
  try {
    const e = JSON.parse(body.toString('utf8')) as unknown;
    return isObject(e) && e.status === status && typeof e.code === 'string' && typeof e.message === 'string';
  } catch {
    return false;
  }
}

/** How long, and how many bytes of the unread body, a refused connection keeps reading before it is destroyed. */
const LINGER_MS = 2000;
const LINGER_BYTES = 256 * 1024;

/**
 * A lingering close (RFC 9112 §9.6): the connection of a request refused before its body was read
 * is closed for writing once the answer is out, and what the client still sends is read and
 * dropped, up to LINGER_BYTES or LINGER_MS, before the socket goes. Closed at once instead, the
 * body bytes left unread make the kernel answer with a reset, which can discard the refusal
 * before the client reads it: a client still uploading would see a dropped connection instead of
 * 413 or 415. Node's server ends such a connection through `destroySoon()` after the answer.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    let read = 0;
    const drop = () => this.destroy();
    const timer = setTimeout(drop, LINGER_MS);
    timer.unref();
    this.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) drop();
    });
    this.once('end', drop);
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}

/** The slices a large answer is written in (see send). */
const ANSWER_SLICE_BYTES = 64 * 1024;

/**
 * Writes `body` a slice at a time, the next once the connection has taken the one before
 * (`taken`); the slices share the answer's memory. A client that half-closes its connection gets
 * the rest queued at once: Node's server ends the connection after what is queued when the
 * client's side ends. A response whose connection is gone stops here; its 'close' gives the
 * answer's bytes back.
 */
function writeInSlices(res: ServerResponse, connection: Socket, body: Buffer, taken: () => void): void {
  let from = 0;
  const rest = (): void => {
    if (res.destroyed || res.writableEnded) return;
    res.end(from === 0 ? body : body.subarray(from));
    from = body.length;
  };
  // Before Node's own 'end' listener, which ends the connection.
  connection.prependOnceListener('end', rest);
  res.once('close', () => connection.off('end', rest));
  const next = (): void => {
    if (res.destroyed || res.writableEnded) return;
    const to = from + ANSWER_SLICE_BYTES;
    if (to >= body.length) return rest();
    const slice = body.subarray(from, to);
    from = to;
    res.write(slice, (error) => {
      if (error) return;
      taken();
      next();
    });
  };
  next();
}

/** Per connection, its responses queued behind the one it is writing (see closeWithConnection). */
const queuedResponses = new WeakMap<Socket, Set<ServerResponse>>();

/**
 * Node 20 emits no 'close' on a response still queued behind an earlier one of its connection
 * (HTTP/1.1 pipelining) when that connection closes; later versions do. What waits for it (the
 * log line, a read's cancellation upstream, an answer counted in the budget until it is taken)
 * would wait for ever: such a response is destroyed and emits 'close' once the connection closed,
 * unless it did so itself meanwhile (a turn later, after Node's own handling of the close).
 */
function closeWithConnection(connection: Socket, res: ServerResponse): void {
  let queued = queuedResponses.get(connection);
  if (!queued) {
    const responses = (queued = new Set());
    queuedResponses.set(connection, responses);
    connection.once('close', () =>
      setImmediate(() => {
        for (const response of responses) {
          response.destroy();
          response.emit('close');
        }
      }),
    );
  }
  queued.add(res);
  res.once('close', () => queued.delete(res));
}

/** The lower-cased options of a Connection header value (RFC 9110 section 7.6.1: a list of tokens). */
function connectionOptions(value: string): string[] {
  return value.split(',').map((token) => token.trim().toLowerCase());
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && Number(length) > 0) || req.headers['transfer-encoding'] !== undefined;
}

function isJsonMediaType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const [type, ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  // RFC 8259 section 11: application/json has no parameters; a charset is tolerated when it is UTF-8.
  return type === 'application/json' && params.every((p) => p === 'charset=utf-8' || p === 'charset="utf-8"');
}

/** An Origin value (RFC 6454 section 7): scheme://host[:port] alone, no user information, path, query or fragment. */
const ORIGIN = /^(https?:)\/\/([^/?#@\\\s]+)$/i;

/** `host[:port]` as a URL with `scheme` has it (lower case, the scheme's default port left out), or undefined. */
function urlHost(scheme: string, authority: string): string | undefined {
  const value = `${scheme}//${authority}`;
  return /[/?#@\\\s]/.test(authority) || !URL.canParse(value) ? undefined : new URL(value).host;
}

/** True when the Origin names the host this request was sent to (Host, or X-Forwarded-Host set by a front proxy). */
function sameHost(direct: string | undefined, forwarded: string | undefined, origin: string): boolean {
  // A value a URL parser reads a host from is not yet an origin ("http://evil.example@host", "http://host/x").
  const m = ORIGIN.exec(origin);
  if (!m) return false;
  // What a browser sends for a same-host call: exactly scheme://Host (RFC 6454 section 6.1), with no parsing.
  if (direct !== undefined && (origin === 'https://' + direct || origin === 'http://' + direct)) return true;
  const host = urlHost(m[1]!, m[2]!);
  // Host and Origin compared as the Origin's scheme reads them: `localhost:80` is http://localhost.
  return host !== undefined && [direct, forwarded].some((h) => typeof h === 'string' && urlHost(m[1]!, h.split(',')[0]!.trim()) === host);
}

/**
 * Whether a Host (or X-Forwarded-Host) value names a host the proxy answers for (see
 * `allowedHosts`). A header value is one `host[:port]` (the first of a comma-separated list); the
 * verdicts are remembered, a few hundred at most, since a proxy sees few distinct values.
 */
function hostPolicy(allowedHosts: string[] | 'any', rpId: string | undefined): (value: string | string[]) => boolean {
  if (allowedHosts === 'any') return () => true;
  const names = [...allowedHosts, ...(rpId ? ['.' + rpId] : [])].map((h) => h.toLowerCase().replace(/\.$/, ''));
  const seen = new Map<string, boolean>();
  const decide = (value: string): boolean => {
    const first = value.split(',')[0]!.trim();
    if (!URL.canParse(`http://${first}`)) return false;
    const name = new URL(`http://${first}`).hostname.replace(/\.$/, '');
    // IPv6 literals keep their brackets in URL.hostname.
    if (isIP(name.replace(/^\[(.*)\]$/, '$1')) || name === 'localhost' || name.endsWith('.localhost')) return true;
    return names.some((h) => name === h || (h.startsWith('.') && (name === h.slice(1) || name.endsWith(h))));
  };
  return (value) => {
    const key = String(value);
    let verdict = seen.get(key);
    if (verdict === undefined) {
      verdict = decide(key);
      if (seen.size >= 256) seen.clear();
      seen.set(key, verdict);
    }
    return verdict;
  };
}

function hostName(host: string | undefined): string | undefined {
  if (typeof host !== 'string' || !URL.canParse(`http://${host}`)) return undefined;
  const name = new URL(`http://${host}`).hostname;
  return /^[a-z0-9.-]+$/i.test(name) ? name : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
