/**
 * OIDC for the sandbox: the checks an OAUTH credential's token must pass (reference.md "Sandbox
 * behaviour": signature not checked; supported `iss`; `aud` and `sub` non-empty and equal to the
 * credential's; `iat` at most 60 s old and at most 5 s ahead (skew); `exp` in the future, no skew; on verify, `nonce` =
 * lowercase hex SHA-256 of the `clientPublicKey` hex string, DESIGN.md wire format 5), and a test
 * issuer at `{origin}/oidc` (OpenID Connect Discovery 1.0 metadata, a JWKS with one ES256 key, and
 * the authorization code flow with PKCE of RFC 6749 §4.1 and RFC 7636, S256 only, as the OAuth 2.0
 * Security Best Current Practice (RFC 9700 §2.1.1) asks of browser apps). The implicit flow
 * (`response_type=id_token`) is not offered: RFC 9700 §2.1.2 says clients should not use it.
 *
 * The authorize page's "Cancel" (the user declines) answers `error=access_denied` with the `state`
 * (RFC 6749 §4.1.2.1), as a real provider's does. An authorize request must ask `scope` with `openid` (OpenID Connect Core 1.0 §3.1.2.2), else it
 * is refused with `invalid_scope` (RFC 6749 §3.3). The authorize page has no script at all: a form
 * posts back and the answer is a 303 to the `redirect_uri` with `?code=...&state=...&iss=...` (RFC
 * 6749 §4.1.2, RFC 9207). The code is good once, for 60 s, at the token endpoint, for the client
 * and the exact `redirect_uri` it was issued to, with the `code_verifier` whose S256 hash,
 * base64url-encoded, is the `code_challenge` string (RFC 7636 §4.6). The `nonce` is optional in
 * this flow and, when sent, is the ID token's (OpenID Connect Core 1.0 §3.1.2.1). The answer
 * carries an access token because OpenID Connect Core 1.0 §3.1.3.3 requires one; it is random and
 * nothing accepts it. The same token endpoint also takes a JSON body for scripts and tests
 * (`{nonce, sub?, email?, aud?}`: no flow at all), answered with the same token response.
 * Deliberately not here: users, consent, client registration, refresh tokens, a userinfo endpoint,
 * signature checks of incoming tokens.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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

/** How long an authorization code can be exchanged (RFC 6749 §4.1.2: short-lived, 10 minutes at most). */
export const AUTHORIZATION_CODE_LIFETIME_MS = 60_000;
/** Codes held at once; the oldest goes first beyond this (a client that never exchanges its codes). */
const MAX_PENDING_CODES = 10_000;
/** A S256 challenge: base64url of a SHA-256 digest, no padding (RFC 7636 §4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A code_verifier: 43 to 128 unreserved characters (RFC 7636 §4.1). */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

interface AuthorizeRequest {
  clientId: string;
  /** Exactly as the client sent it: the token request must repeat it character for character. */
  redirectUri: string;
  nonce: string | undefined;
  state: string;
  codeChallenge: string;
  /** As sent; it holds `openid`. */
  scope: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  nonce: string | undefined;
  codeChallenge: string;
  issuedAt: number;
}

/**
 * An authorize request read, or why not. Without a usable `redirect_uri` or `client_id` the answer
 * is a page, never a redirect (RFC 6749 §4.1.2.1: no open redirector); any other fault goes back
 * to the client's `redirect_uri` as an error response.
 */
type AuthorizeOutcome =
  | { request: AuthorizeRequest }
  | { page: string }
  | { redirectUri: string; state: string; error: AuthorizeError; description: string };

type AuthorizeError = 'invalid_request' | 'unsupported_response_type' | 'invalid_scope';

function readAuthorizeRequest(world: World, params: URLSearchParams): AuthorizeOutcome {
  // RFC 6749 §3.1: a parameter must not be included more than once.
  const one = (name: string): string | undefined | null => {
    const all = params.getAll(name);
    return all.length > 1 ? null : all[0];
  };
  const redirectUri = one('redirect_uri');
  if (redirectUri === null) return { page: 'redirect_uri must appear once' };
  if (!redirectUri) return { page: 'redirect_uri is required' };
  let target: URL;
  try {
    target = new URL(redirectUri);
  } catch {
    return { page: 'redirect_uri must be an absolute URL' };
  }
  if (target.hash !== '' || redirectUri.includes('#')) return { page: 'redirect_uri must not carry a fragment' };
  if (!world.options.originAllowed(target.origin)) return { page: 'redirect_uri is not on an allowed origin' };
  const clientId = one('client_id');
  if (!clientId || clientId.length > 256) return { page: 'client_id is required, once, at most 256 characters' };

  const stateParam = one('state');
  const state = typeof stateParam === 'string' && stateParam.length <= 1024 ? stateParam : '';
  const refuse = (error: AuthorizeError, description: string): AuthorizeOutcome => ({ redirectUri, state, error, description });
  if (stateParam === null || (stateParam?.length ?? 0) > 1024) return refuse('invalid_request', 'state must appear once, at most 1024 characters');
  const responseType = one('response_type');
  if (!responseType) return refuse('invalid_request', 'response_type is required, once');
  if (responseType !== 'code') return refuse('unsupported_response_type', 'response_type must be code (the implicit flow is not offered)');
  // OpenID Connect Core 1.0 §3.1.2.2: the request must carry a scope holding `openid`; without it
  // it is no OpenID request, and an ID token is all this issuer gives. RFC 6749 §3.3: a missing
  // scope is refused as an invalid scope (§4.1.2.1) when no default is taken.
  const scope = one('scope');
  if (!scope || scope.length > 512 || !scope.split(' ').includes('openid')) return refuse('invalid_scope', 'scope must appear once and include openid');
  // RFC 7636 §4.3: a missing method means plain, which RFC 9700 §2.1.1 has authorization servers refuse.
  if (one('code_challenge_method') !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256');
  const codeChallenge = one('code_challenge');
  if (!codeChallenge || !S256_CHALLENGE.test(codeChallenge)) return refuse('invalid_request', 'code_challenge is required: the base64url SHA-256 of the code_verifier (43 characters)');
  // OpenID Connect Core 1.0 §3.1.2.1: optional in the code flow; an empty one is none.
  const nonce = one('nonce');
  if (nonce === null || (nonce?.length ?? 0) > 512) return refuse('invalid_request', 'nonce must appear at most once, at most 512 characters');
  return { request: { clientId, redirectUri, nonce: nonce || undefined, state, codeChallenge, scope } };
}

/** `redirect_uri` with the response added to its query (RFC 6749 §3.1.2 keeps a query it has). */
function redirectWith(redirectUri: string, response: Record<string, string>): Reply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(response)) if (value !== '') url.searchParams.append(name, value);
  return { status: 303, raw: '', contentType: 'text/plain; charset=utf-8', headers: { Location: url.href, 'Referrer-Policy': 'no-referrer' } };
}

function refusedPage(reason: string): Reply {
  return page(400, 'Sign-in request refused', `<h1>Sign-in request refused</h1><p>${escapeHtml(reason)}.</p>`, PLAIN_CSP);
}

/** A token endpoint error (RFC 6749 §5.2), never cached (§5.1), readable cross-origin. */
function oauthError(error: 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type', description: string): Reply {
  return json(400, { error, error_description: description }, { ...CORS, Pragma: 'no-cache' });
}

/**
 * A successful token response (RFC 6749 §5.1), of the code exchange and of the JSON request alike:
 * `token_type` goes with the `access_token` it types, which OpenID Connect Core 1.0 §3.1.3.3 also
 * requires; never cached (Cache-Control: no-store comes with every reply, and Pragma: no-cache).
 */
function tokenResponse(id_token: string): Reply {
  const access_token = randomBytes(32).toString('base64url');
  return json(200, { access_token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, id_token }, { ...CORS, Pragma: 'no-cache' });
}

/** RFC 7636 §4.6: BASE64URL-ENCODE(SHA256(ASCII(code_verifier))), compared with the challenge as a string. */
function s256(verifier: string): Buffer {
  return Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
}

export function registerOidcRoutes(router: Router, world: World): void {
  /** Codes issued and not yet exchanged, oldest first. */
  const codes = new Map<string, IssuedCode>();

  router.on('GET', '/oidc/.well-known/openid-configuration', () => {
    const issuer = issuerUrl(world);
    return json(200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
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

  const mint = (claims: { sub?: string | undefined; email?: string | undefined; aud: string; nonce: string | undefined }) =>
    mintIdToken(
      { iss: issuerUrl(world), sub: claims.sub ?? SANDBOX_OIDC_DEMO_SUB, aud: claims.aud, email: claims.email ?? demoEmail(world), nonce: claims.nonce },
      { key: world.oidcKey, kid: world.oidcKid, now: world.clock.now() },
    );

  /** RFC 6749 §4.1.3 and RFC 7636 §4.5-4.6: a code (once, in time) for an ID token. */
  async function exchangeCode(ctx: Ctx): Promise<Reply> {
    const form = new URLSearchParams(Buffer.from(ctx.rawBody).toString('utf8'));
    const fields: Record<string, string> = {};
    for (const name of ['grant_type', 'code', 'redirect_uri', 'client_id', 'code_verifier']) {
      const all = form.getAll(name);
      if (all.length > 1) return oauthError('invalid_request', `${name} must appear once`);
      fields[name] = all[0] ?? '';
    }
    if (!fields.grant_type) return oauthError('invalid_request', 'grant_type is required');
    if (fields.grant_type !== 'authorization_code') return oauthError('unsupported_grant_type', 'grant_type must be authorization_code');
    for (const name of ['code', 'redirect_uri', 'client_id', 'code_verifier']) {
      if (!fields[name]) return oauthError('invalid_request', `${name} is required`);
    }
    if (!CODE_VERIFIER.test(fields.code_verifier!)) return oauthError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
    // Any attempt uses the code up, a refused one too: a code is never tried twice (RFC 6749 §4.1.2).
    const issued = codes.get(fields.code!);
    codes.delete(fields.code!);
    if (!issued || world.clock.now() - issued.issuedAt > AUTHORIZATION_CODE_LIFETIME_MS) {
      return oauthError('invalid_grant', 'The code is unknown, already used or expired');
    }
    if (issued.clientId !== fields.client_id) return oauthError('invalid_grant', 'The code was issued to another client');
    if (issued.redirectUri !== fields.redirect_uri) return oauthError('invalid_grant', 'redirect_uri is not the one of the authorization request');
    // Both are 43 characters (S256_CHALLENGE, and a SHA-256 digest encoded), as timingSafeEqual needs.
    if (!timingSafeEqual(s256(fields.code_verifier!), Buffer.from(issued.codeChallenge))) {
      return oauthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    return tokenResponse(await mint({ aud: issued.clientId, nonce: issued.nonce }));
  }

  // The code exchange (form-encoded, RFC 6749 §4.1.3), or a direct token for scripts and test
  // pages (JSON: {sub?, email?, aud?, nonce} -> the token response, its id_token the one wanted).
  router.on('POST', '/oidc/token', async (ctx: Ctx) => {
    if (/^application\/x-www-form-urlencoded\b/i.test(ctx.header('content-type') ?? '')) return exchangeCode(ctx);
    try {
      const body = jsonObject(ctx);
      const f = new Fields(body);
      const sub = f.string('sub', { optional: true, max: 255 });
      const email = f.string('email', { optional: true, max: 320 });
      const aud = f.string('aud', { optional: true, max: 256 });
      const nonce = f.string('nonce', { max: 512 });
      f.check();
      // f.check() has refused a body without a nonce.
      return tokenResponse(await mint({ sub, email, aud: aud ?? SANDBOX_OIDC_CLIENT_ID, nonce: nonce as string }));
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(err.status, err.code, err.message, err.details, CORS);
      throw err;
    }
  });

  router.on('GET', '/oidc/authorize', (ctx: Ctx) => {
    const outcome = readAuthorizeRequest(world, ctx.query);
    if ('page' in outcome) return refusedPage(outcome.page);
    if ('error' in outcome) return redirectWith(outcome.redirectUri, { error: outcome.error, error_description: outcome.description, state: outcome.state, iss: issuerUrl(world) });
    const { request } = outcome;
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    const form =
      `<h1>Sandbox sign-in</h1><p>This test issuer signs in one user. No password is asked.</p>` +
      `<form method="post" action="/oidc/authorize">` +
      hidden('response_type', 'code') +
      hidden('client_id', request.clientId) +
      hidden('redirect_uri', request.redirectUri) +
      hidden('scope', request.scope) +
      (request.nonce ? hidden('nonce', request.nonce) : '') +
      hidden('state', request.state) +
      hidden('code_challenge', request.codeChallenge) +
      hidden('code_challenge_method', 'S256') +
      `<button type="submit">Sign in as the demo user</button> <button type="submit" name="deny" value="1">Cancel</button></form>`;
    // form-action must also allow the redirect target: browsers apply it to the form's redirect.
    const target = new URL(request.redirectUri).origin;
    const csp = `default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self' ${target}; frame-ancestors 'none'`;
    return page(200, 'Sandbox sign-in', form, csp);
  });

  router.on('POST', '/oidc/authorize', (ctx: Ctx) => {
    const form = new URLSearchParams(Buffer.from(ctx.rawBody).toString('utf8'));
    const outcome = readAuthorizeRequest(world, form);
    if ('page' in outcome) return refusedPage(outcome.page);
    if ('error' in outcome) return redirectWith(outcome.redirectUri, { error: outcome.error, error_description: outcome.description, state: outcome.state, iss: issuerUrl(world) });
    const { request } = outcome;
    // "Cancel": the user declines, as at a real provider (RFC 6749 §4.1.2.1 access_denied); no code.
    if (form.has('deny')) return redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The user declined the sign-in', state: request.state, iss: issuerUrl(world) });
    const now = world.clock.now();
    for (const [code, issued] of codes) {
      if (codes.size < MAX_PENDING_CODES && now - issued.issuedAt <= AUTHORIZATION_CODE_LIFETIME_MS) break;
      codes.delete(code);
    }
    const code = randomBytes(32).toString('base64url');
    codes.set(code, { clientId: request.clientId, redirectUri: request.redirectUri, nonce: request.nonce, codeChallenge: request.codeChallenge, issuedAt: now });
    return redirectWith(request.redirectUri, { code, state: request.state, iss: issuerUrl(world) });
  });
}

/** The email of the first seeded customer: the demo user of the test issuer. */
function demoEmail(world: World): string | undefined {
  const first = world.store.customers.values().next().value;
  return first?.email;
}
