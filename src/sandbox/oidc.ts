/**
 * OIDC for the sandbox: the checks an OAUTH credential's token must pass (reference.md "Sandbox
 * behaviour": signature not checked; supported `iss`; `aud` and `sub` non-empty and equal to the
 * credential's; `iat` at most 60 s old and at most 5 s ahead (skew); `exp` in the future, no skew; on verify, `nonce` =
 * lowercase hex SHA-256 of the `clientPublicKey` hex string, DESIGN.md wire format 5), and a test
 * issuer at `{origin}/oidc` (OpenID Connect Discovery 1.0 metadata, a JWKS with one ES256 key, a
 * token endpoint for scripts and an implicit-flow `authorize` page, `response_type=id_token`,
 * OpenID Connect Core 1.0 §3.2).
 *
 * The authorize page has no script at all: a form posts back and the answer is a 303 to the
 * `redirect_uri` with `#id_token=...&state=...` (Core §3.2.2.5). Deliberately not here: users,
 * consent, code flow, refresh tokens, signature checks of incoming tokens.
 */
import { sha256Hex, base64urlEncode } from '../core/encoding.ts';
import { generateSigningKey, type KeyPair } from '../core/p256.ts';
import { HttpError, invalidField, json, jsonObject, Router, unauthorized, type Ctx, type Reply } from './http.ts';
import { decodeJwtClaims, signJwt } from './jwt.ts';
import { Fields } from './validate.ts';
import type { World } from './world.ts';

/** `aud` of tokens minted by the test issuer unless another is asked for. */
export const SANDBOX_OIDC_CLIENT_ID = 'wallet-elements-sandbox';
/** `sub` of the demo user at the test issuer. */
export const SANDBOX_OIDC_DEMO_SUB = 'sandbox-demo-user';

export const MAX_TOKEN_AGE_S = 60;
export const CLOCK_SKEW_S = 5;
const TOKEN_LIFETIME_S = 600;

/** Issuers accepted besides the sandbox's own; bare host forms are the same issuer (Google issues both). */
const KNOWN_ISSUERS = new Map<string, string>([
  ['https://accounts.google.com', 'https://accounts.google.com'],
  ['accounts.google.com', 'https://accounts.google.com'],
  ['https://appleid.apple.com', 'https://appleid.apple.com'],
]);

export function issuerUrl(world: World): string {
  return `${world.origin}/oidc`;
}

/** The canonical form of a supported issuer, or undefined. */
export function normalizeIssuer(world: World, iss: unknown): string | undefined {
  if (typeof iss !== 'string') return undefined;
  if (iss === issuerUrl(world)) return iss;
  return KNOWN_ISSUERS.get(iss);
}

export interface OidcIdentity {
  iss: string;
  sub: string;
  aud: string;
  email?: string;
}

/**
 * Checks a token as the service's sandbox does. `identity`: the credential's, which the token must
 * match. `clientPublicKey`: on verify, the key whose hash the nonce must be. The iat/exp window
 * applies to every call, each leg of a signed retry included.
 */
export async function checkOidcToken(
  world: World,
  token: string,
  opts: { identity?: OidcIdentity; clientPublicKey?: string },
): Promise<OidcIdentity> {
  const claims = decodeJwtClaims(token);
  if (!claims) throw invalidField('oidcToken', 'must be a JWT (three base64url parts with a JSON payload)');
  const iss = normalizeIssuer(world, claims.iss);
  if (!iss) throw unauthorized('The token issuer is not supported', 'UNAUTHORIZED', { reason: 'OIDC_ISSUER' });
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '') throw unauthorized('The token has no subject', 'UNAUTHORIZED', { reason: 'OIDC_SUB' });
  const aud = audienceOf(claims.aud, opts.identity?.aud);
  if (!aud) throw unauthorized('The token has no usable audience', 'UNAUTHORIZED', { reason: 'OIDC_AUD' });
  const nowS = world.clock.now() / 1000;
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw unauthorized('The token has no iat', 'UNAUTHORIZED', { reason: 'OIDC_IAT' });
  // api.md: iat "no more than 60 seconds older than the request" (no allowance on the age); the
  // skew of reference.md only lets an issuer whose clock runs ahead stamp an iat a little ahead.
  if (iat > nowS + CLOCK_SKEW_S || nowS - iat > MAX_TOKEN_AGE_S) {
    throw unauthorized(`The token must be issued at most ${MAX_TOKEN_AGE_S} seconds before the request`, 'UNAUTHORIZED', { reason: 'OIDC_STALE' });
  }
  // reference.md: "`exp` in the future", with no skew.
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= nowS) {
    throw unauthorized('The token has expired', 'UNAUTHORIZED', { reason: 'OIDC_EXPIRED' });
  }
  if (opts.identity && (opts.identity.iss !== iss || opts.identity.sub !== sub || opts.identity.aud !== aud)) {
    throw unauthorized('The token identity does not match the credential', 'UNAUTHORIZED', { reason: 'OIDC_IDENTITY' });
  }
  if (opts.clientPublicKey !== undefined) {
    const expected = await sha256Hex(opts.clientPublicKey);
    if (claims.nonce !== expected) {
      throw unauthorized('The token nonce is not the SHA-256 of clientPublicKey', 'UNAUTHORIZED', { reason: 'OIDC_NONCE' });
    }
  }
  const email = typeof claims.email === 'string' && claims.email !== '' ? claims.email : undefined;
  return { iss, sub, aud, ...(email ? { email } : {}) };
}

/** `aud` is a string or an array of strings (OIDC Core §2); with an expected value it must contain it. */
function audienceOf(aud: unknown, expected: string | undefined): string | undefined {
  if (typeof aud === 'string') return aud === '' ? undefined : aud;
  if (Array.isArray(aud) && aud.length > 0 && aud.every((a) => typeof a === 'string' && a !== '')) {
    if (expected !== undefined && aud.includes(expected)) return expected;
    return aud[0] as string;
  }
  return undefined;
}

export interface IdTokenClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  email?: string;
  nonce?: string;
  /** Seconds since the epoch; default: now. */
  iat?: number;
  /** Seconds since the epoch; default: iat + 600. */
  exp?: number;
  [claim: string]: unknown;
}

let defaultKey: Promise<KeyPair> | undefined;

/**
 * Mints an ES256 ID token for tests. Defaults: `iss` Google's issuer, `sub` the demo user,
 * `aud` SANDBOX_OIDC_CLIENT_ID, `iat` now (`options.now` in ms, else Date.now()), `exp` iat + 600.
 * The key is a process-wide throwaway unless one is given (the sandbox does not check signatures).
 * For a token the OAUTH verify accepts, pass `nonce: await sha256Hex(clientPublicKeyHex)`.
 */
export async function mintIdToken(claims: IdTokenClaims = {}, options: { key?: KeyPair; kid?: string; now?: number } = {}): Promise<string> {
  const key = options.key ?? (await (defaultKey ??= generateSigningKey()));
  const iat = claims.iat ?? Math.floor((options.now ?? Date.now()) / 1000);
  const full: Record<string, unknown> = {
    iss: 'https://accounts.google.com',
    sub: SANDBOX_OIDC_DEMO_SUB,
    aud: SANDBOX_OIDC_CLIENT_ID,
    ...claims,
    iat,
    exp: claims.exp ?? iat + TOKEN_LIFETIME_S,
  };
  for (const k of Object.keys(full)) if (full[k] === undefined) delete full[k];
  return signJwt(full, key, options.kid);
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
};

function page(status: number, title: string, bodyHtml: string, csp: string): Reply {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><link rel="stylesheet" href="/sandbox-assets/page.css"></head>` +
    `<body><main class="panel">${bodyHtml}</main></body></html>`;
  return {
    status,
    raw: html,
    contentType: 'text/html; charset=utf-8',
    headers: { 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' },
  };
}

const PLAIN_CSP = "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface AuthorizeParams {
  redirectUri: string;
  nonce: string;
  state: string;
  clientId: string;
}

/** Validates authorize parameters; the redirect target must be an allowed origin (no open redirect). */
function authorizeParams(world: World, get: (k: string) => string | null): AuthorizeParams | string {
  if (get('response_type') !== 'id_token') return 'response_type must be id_token';
  const redirectUri = get('redirect_uri') ?? '';
  let origin: string;
  try {
    const u = new URL(redirectUri);
    origin = u.origin;
    if (u.hash !== '') return 'redirect_uri must not carry a fragment';
  } catch {
    return 'redirect_uri must be an absolute URL';
  }
  if (!world.options.originAllowed(origin)) return 'redirect_uri is not on an allowed origin';
  const nonce = get('nonce') ?? '';
  if (nonce === '' || nonce.length > 512) return 'nonce is required (at most 512 characters)';
  const state = get('state') ?? '';
  if (state.length > 1024) return 'state is too long';
  const clientId = get('client_id') || SANDBOX_OIDC_CLIENT_ID;
  if (clientId.length > 256) return 'client_id is too long';
  return { redirectUri, nonce, state, clientId };
}

export function registerOidcRoutes(router: Router, world: World): void {
  router.on('GET', '/oidc/.well-known/openid-configuration', () => {
    const issuer = issuerUrl(world);
    return json(200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['id_token'],
      response_modes_supported: ['fragment'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      scopes_supported: ['openid', 'email'],
      claims_supported: ['iss', 'sub', 'aud', 'iat', 'exp', 'nonce', 'email'],
    }, { 'Access-Control-Allow-Origin': '*' });
  });

  router.on('GET', '/oidc/jwks', () => {
    const pub = world.oidcKey.publicKey;
    return json(200, {
      keys: [{ kty: 'EC', crv: 'P-256', x: base64urlEncode(pub.subarray(1, 33)), y: base64urlEncode(pub.subarray(33)), kid: world.oidcKid, alg: 'ES256', use: 'sig' }],
    }, { 'Access-Control-Allow-Origin': '*' });
  });

  router.on('OPTIONS', '/oidc/token', () => ({ status: 204, headers: CORS }));

  // A direct token for scripts and test pages: {sub?, email?, aud?, nonce} -> {id_token}.
  router.on('POST', '/oidc/token', async (ctx: Ctx) => {
    try {
      const body = jsonObject(ctx);
      const f = new Fields(body);
      const sub = f.string('sub', { optional: true, max: 255 });
      const email = f.string('email', { optional: true, max: 320 });
      const aud = f.string('aud', { optional: true, max: 256 });
      const nonce = f.string('nonce', { max: 512 });
      f.check();
      const id_token = await mintIdToken(
        { iss: issuerUrl(world), sub: sub ?? SANDBOX_OIDC_DEMO_SUB, aud: aud ?? SANDBOX_OIDC_CLIENT_ID, email: email ?? demoEmail(world), nonce },
        { key: world.oidcKey, kid: world.oidcKid, now: world.clock.now() },
      );
      return json(200, { id_token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S }, CORS);
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(err.status, err.code, err.message, err.details, CORS);
      throw err;
    }
  });

  router.on('GET', '/oidc/authorize', (ctx: Ctx) => {
    const params = authorizeParams(world, (k) => ctx.query.get(k));
    if (typeof params === 'string') return page(400, 'Sign-in request refused', `<h1>Sign-in request refused</h1><p>${escapeHtml(params)}.</p>`, PLAIN_CSP);
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    const form =
      `<h1>Sandbox sign-in</h1><p>This test issuer signs in one user. No password is asked.</p>` +
      `<form method="post" action="/oidc/authorize">` +
      hidden('response_type', 'id_token') +
      hidden('redirect_uri', params.redirectUri) +
      hidden('nonce', params.nonce) +
      hidden('state', params.state) +
      hidden('client_id', params.clientId) +
      `<button type="submit">Sign in as the demo user</button></form>`;
    // form-action must also allow the redirect target: browsers apply it to the form's redirect.
    const target = new URL(params.redirectUri).origin;
    const csp = `default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self' ${target}; frame-ancestors 'none'`;
    return page(200, 'Sandbox sign-in', form, csp);
  });

  router.on('POST', '/oidc/authorize', async (ctx: Ctx) => {
    const form = new URLSearchParams(Buffer.from(ctx.rawBody).toString('utf8'));
    const params = authorizeParams(world, (k) => form.get(k));
    if (typeof params === 'string') return page(400, 'Sign-in request refused', `<h1>Sign-in request refused</h1><p>${escapeHtml(params)}.</p>`, PLAIN_CSP);
    const idToken = await mintIdToken(
      { iss: issuerUrl(world), sub: SANDBOX_OIDC_DEMO_SUB, aud: params.clientId, email: demoEmail(world), nonce: params.nonce },
      { key: world.oidcKey, kid: world.oidcKid, now: world.clock.now() },
    );
    const fragment = new URLSearchParams({ id_token: idToken, ...(params.state ? { state: params.state } : {}) }).toString();
    return { status: 303, raw: '', contentType: 'text/plain; charset=utf-8', headers: { Location: `${params.redirectUri}#${fragment}`, 'Referrer-Policy': 'no-referrer' } };
  });
}

/** The email of the first seeded customer: the demo user of the test issuer. */
function demoEmail(world: World): string | undefined {
  const first = world.store.customers.values().next().value;
  return first?.email;
}
