/**
 * Step-up for card reveal: the proxy relays `POST /cards/{id}/reveal` only after a fresh proof that
 * the caller holds a live wallet session of the account that owns the card.
 *
 * Why this proof: api.md "Card reveal" authenticates with the platform's Basic credentials only, so
 * anyone who can reach the proxy could ask for a reveal URL. The service itself verifies wallet
 * stamps; the cheapest signed call that proves a live session without side effects on other
 * devices is the session refresh (reference.md "Sessions": `POST /auth/sessions/{id}/refresh`,
 * stamped with the current session key, answered `201 AuthSession`). The proxy already relays it;
 * when the service answers 201, the proxy grants a step-up for the session's `accountId`.
 *
 * The grant is stateless (any instance holding the key can check it, like challenge.ts):
 *
 *   payload = base64url(JSON {a: accountId, e: expiry ms, n: 12 random bytes})
 *   grant   = payload "." base64url(HMAC-SHA256(key, "wallet-elements step-up v1\0" || payload))
 *
 * It travels as a cookie of the session the refresh made, `{cookieName}_{session uuid}` (a page or
 * browser holds sessions of several accounts: one account's grant neither replaces another's nor is
 * cleared with it), `HttpOnly; SameSite=Strict; Path={base}/cards; Max-Age=ttl` (ttl, and the
 * grant's own expiry, at most until the session's `expiresAt`, read against the answer's `Date`,
 * the service's clock: a grant outlives no session) (plus
 * `Secure` over TLS, also when TLS ends at a server in front: an https Origin or X-Forwarded-Proto): page scripts cannot read it (an injected script cannot carry it elsewhere)
 * and a cross-site page cannot send it. The reveal route then needs a grant whose account owns
 * the card (`accountForCard`, the integrator's knowledge; by default the card `accountFor` gives
 * the caller, or the demo binding's one card),
 * else 403 `STEP_UP_REQUIRED`. The key is `secret`, or else derived from the API client secret with
 * HKDF-SHA256 (RFC 5869) under a label of its own.
 *
 * The refresh also clears the refreshed session's cookie (that session ended: a new id), so an
 * account has one grant at a time. A session deleted through the proxy (a logout: `DELETE
 * /auth/sessions/{id}`, answered 204, or 404 when already gone) clears that session's cookie
 * (`Max-Age=0`), so a shared device's next user finds no grant left by the one who logged out,
 * and the other accounts keep theirs. The reveal passes with any valid grant of the card's owner;
 * a grant names its account, so it opens no other's card. Each distinct cookie value shaped as a
 * grant has its MAC checked (a few microseconds), so cookies no grant of this proxy, such as a
 * sibling subdomain can set for the parent domain, push no valid grant out; the first
 * GRANTS_CHECKED of them at most, a bound on the work of one request that no browser's Cookie
 * header reaches (browsers keep about 180 cookies per site, and Node takes 16 KiB of request
 * headers, about 260 of the shortest such values): a grant after 1024 distinct others so shaped is
 * not looked at.
 * A credential deleted ends its sessions upstream, which this answer cannot name (nor does the
 * request carry the grants, outside their Path): the wallet (core/session.ts revokeCredential)
 * logs out those of them it held, each answered 404, which clears their grants as above.
 *
 * Deliberately does not: remember grants (one is reusable until it expires, 60 s by default, or
 * until a logout in that browser; a stateless design cannot make it single use), replace `authorize` (it only adds a condition), or
 * read the session's key: it trusts the service's 201, which is what a stamp check upstream means.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AccountResolver, AuthorizeHook, AuthorizeRefusal } from './authorize.ts';
import { isSecure, requestHeader, type ProxyRequest } from './request.ts';
import { isId, type RouteName } from './routes.ts';

/** `R`: the request the hooks are handed (see ProxyOptions): IncomingMessage, Request or both. */
export interface StepUpOptions<R extends ProxyRequest = IncomingMessage> {
  /** HMAC key for grants shared by several instances; default derived from the client secret. */
  secret?: string;
  /** How long a grant lasts, 1 to 3600 seconds; default 60. Never past the refreshed session's end. */
  ttlSeconds?: number;
  /**
   * The Embedded Wallet account that owns a card (`InternalAccount:<uuid>`), or undefined when
   * unknown (refused). Default: the demo binding's card maps to its account, nothing else.
   */
  accountForCard?: (cardId: string, request: R) => string | undefined | Promise<string | undefined>;
  /** Cookie name prefix, `{cookieName}_{session uuid}`; default `wallet_step_up`. */
  cookieName?: string;
}

export interface StepUp {
  /** An authorize hook: refuses `revealCard` without a valid grant for the card's account. */
  authorize: AuthorizeHook<ProxyRequest>;
  /** The headers to add to an answer: a `Set-Cookie` grant after a successful session refresh, its removal after a logout. */
  grantHeaders(route: RouteName | 'unknown', status: number, body: Buffer | undefined, request: ProxyRequest, params: Record<string, string>, date?: unknown): { 'set-cookie'?: string[] };
}

export const STEP_UP_REQUIRED: AuthorizeRefusal = {
  status: 403,
  code: 'STEP_UP_REQUIRED',
  message: 'Card details need a fresh proof of a wallet session: refresh the session, then ask again.',
};

/** The same refusal for a page on another site, whose browser never sends the grant (SameSite=Strict). */
export const STEP_UP_CROSS_SITE: AuthorizeRefusal = {
  ...STEP_UP_REQUIRED,
  message:
    'Card details need a fresh proof of a wallet session, whose cookie (SameSite=Strict) a browser sends only from a page of the same site as the proxy. Serve the page and the proxy on one site (localhost and 127.0.0.1 are two sites), for example by forwarding /api through your development server.',
};

const LABEL = 'wallet-elements step-up v1\u0000';
const COOKIE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** A grant's shape: a payload, a dot and a 32-byte MAC, both base64url, 512 characters at most. */
const GRANT = /^[A-Za-z0-9_-]{1,468}\.[A-Za-z0-9_-]{43}$/;
/** How many distinct grant-shaped cookie values one request has checked at most (see above). */
export const GRANTS_CHECKED = 1024;

export function deriveStepUpKey(secret: string): Buffer {
  if (!secret) throw new TypeError('stepUp.secret (or clientSecret) must be a non-empty string');
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('wallet-elements proxy'), Buffer.from('step-up grant key v1'), 32));
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(LABEL).update(payload, 'utf8').digest();
}

/** Mints a grant for `accountId` valid until `now + ttlMs`. */
export function mintGrant(key: Buffer, accountId: string, now: number, ttlMs: number): string {
  const payload = Buffer.from(JSON.stringify({ a: accountId, e: now + ttlMs, n: randomBytes(12).toString('base64url') })).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

export type GrantCheck = { ok: true; accountId: string } | { ok: false; reason: 'malformed' | 'forged' | 'expired' };

/** Checks a grant's MAC first, then its expiry. */
export function checkGrant(key: Buffer, grant: unknown, now: number): GrantCheck {
  if (typeof grant !== 'string' || grant.length > 512 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(grant)) return { ok: false, reason: 'malformed' };
  const [payload, sig] = grant.split('.') as [string, string];
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const c = claims as { a?: unknown; e?: unknown };
  if (typeof c !== 'object' || c === null || typeof c.a !== 'string' || typeof c.e !== 'number') return { ok: false, reason: 'malformed' };
  if (!(c.e > now)) return { ok: false, reason: 'expired' };
  return { ok: true, accountId: c.a };
}

/**
 * The values of the cookies named `{name}_…` (one per session) from the Cookie header(s) (RFC 6265
 * section 5.4). Several Cookie lines come joined with "; " (Node) or ", " (the Fetch standard's
 * Headers, as in Deno): a grant holds no comma, so both part the pairs.
 */
export function readGrants(request: ProxyRequest, name: string): string[] {
  const header = requestHeader(request, 'cookie');
  if (typeof header !== 'string') return [];
  return header.split(/[;,]/).flatMap((pair) => {
    const eq = pair.indexOf('=');
    return eq !== -1 && pair.slice(0, eq).trim().startsWith(`${name}_`) ? [pair.slice(eq + 1).trim()] : [];
  });
}

export function createStepUp(
  options: StepUpOptions<ProxyRequest>,
  context: {
    basePath: string;
    clientSecret: string;
    demoAccount?: { accountId: string; cardId: string } | undefined;
    /** The proxy's `accountFor`: the caller's own card and account answer for its card. */
    accountFor?: AccountResolver<ProxyRequest> | undefined;
    now?: () => number;
    /** Told of a refreshed session that granted nothing for want of an expiresAt (the proxy's onError). */
    onError?: ((error: unknown, request: ProxyRequest) => void) | undefined;
  },
): StepUp {
  const key = deriveStepUpKey(options.secret ?? context.clientSecret);
  const ttlSeconds = options.ttlSeconds ?? 60;
  if (!(Number.isInteger(ttlSeconds) && ttlSeconds >= 1 && ttlSeconds <= 3600)) throw new TypeError('stepUp.ttlSeconds must be an integer from 1 to 3600');
  const cookieName = options.cookieName ?? 'wallet_step_up';
  if (!COOKIE_NAME.test(cookieName)) throw new TypeError('stepUp.cookieName must be a cookie token of letters, digits, "_" or "-"');
  const now = context.now ?? Date.now;
  const { demoAccount: demo, accountFor } = context;
  const accountForCard: NonNullable<StepUpOptions<ProxyRequest>['accountForCard']> =
    options.accountForCard ??
    (accountFor
      ? async (cardId, request) => {
          const own = await accountFor(request);
          return own && own.cardId === cardId ? own.accountId : undefined;
        }
      : (cardId) => (demo && cardId === demo.cardId ? demo.accountId : undefined));
  if (!options.accountForCard && !accountFor && !demo) {
    throw new TypeError('stepUp needs accountForCard (which account owns a card), or the proxy\'s accountFor or demoAccount binding');
  }
  const cookiePath = `${context.basePath}/cards`;

  return {
    async authorize({ route, params, request }) {
      if (route !== 'revealCard') return true;
      const grants = readGrants(request, cookieName);
      // No grant from a page of another site: a SameSite=Strict cookie never travels there.
      if (!grants.length && requestHeader(request, 'sec-fetch-site') === 'cross-site') return STEP_UP_CROSS_SITE;
      const t = now();
      // The accounts proven in this browser (a handful at most: one grant per live session).
      // Every distinct value shaped as a grant is checked, up to GRANTS_CHECKED: malformed,
      // oversized, repeated or forged cookies push no valid grant out.
      const proven = [...new Set(grants.filter((g) => GRANT.test(g)))].slice(0, GRANTS_CHECKED).flatMap((g) => {
        const check = checkGrant(key, g, t);
        return check.ok ? [check.accountId] : [];
      });
      if (!proven.length) return STEP_UP_REQUIRED;
      const cardId = params.id;
      const owner = cardId ? await accountForCard(cardId, request) : undefined;
      return owner !== undefined && proven.includes(owner) ? true : STEP_UP_REQUIRED;
    },

    grantHeaders(route, status, body, request, params, date) {
      // Secure whenever the browser is on https (request.ts): a client that claims it falsely
      // only loses its own grant, since a browser keeps no Secure cookie from a plain-http answer.
      const secure = isSecure(request);
      // One cookie per session, named after it: the grant of one account neither replaces nor
      // is cleared with another's.
      const cookie = (session: unknown, value: string, maxAge: number) =>
        `${cookieName}_${String(session).slice(8)}=${value}; ${[`Path=${cookiePath}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])].join('; ')}`;
      const sessionId = params.id;
      // A session ended through this browser (a logout; 404: already gone): its grant goes with
      // it, so card details cannot be had on the strength of a logout's leftovers.
      if (route === 'deleteSession' && (status === 204 || status === 404)) return { 'set-cookie': [cookie(sessionId, '', 0)] };
      if (route !== 'refreshSession' || status !== 201 || !body) return {};
      let next: { id?: unknown; accountId?: unknown; expiresAt?: unknown };
      try {
        next = JSON.parse(body.toString('utf8')) as typeof next;
      } catch {
        return {};
      }
      if (!isId(next.accountId, 'InternalAccount') || !isId(next.id, 'Session')) return {};
      // The refreshed session ended (reference.md: a new id): its grant goes, the new one's comes,
      // lasting no longer than that session (whole seconds; none for a session about to end).
      // Its expiresAt is on the service's clock, read against the answer's Date (the proxy's
      // clock when it has none), so that a skew between the two neither withholds nor stretches it.
      const t = now();
      const served = Date.parse(String(date));
      const ttl = Math.min(ttlSeconds, Math.floor((Date.parse(String(next.expiresAt)) - (served || t)) / 1000) || 0);
      const ended = cookie(sessionId, '', 0);
      // Not the service's AuthSession (reference.md): the reveal would ask for a refresh forever.
      if (Number.isNaN(Date.parse(String(next.expiresAt)))) context.onError?.(new TypeError('The service refreshed a session without a valid expiresAt, so no step-up grant was issued for it.'), request);
      return { 'set-cookie': ttl > 0 ? [ended, cookie(next.id, mintGrant(key, next.accountId, t, ttl * 1000), ttl)] : [ended] };
    },
  };
}
