/**
 * The typed client of the service, as the browser reaches it through the proxy (DESIGN.md "How a call
 * travels"): one method per endpoint of spec/api.md and spec/reference.md that the library uses,
 * plus the proxy's own `POST {base}/webauthn/registration-options`.
 *
 * Every method takes an options object with an optional AbortSignal. Failures are typed:
 * - a non-2xx answer: ServiceError with the service's status, code, message, details, and
 *   `retryAfter` (seconds) from a Retry-After header;
 * - the network or proxy unreachable: WalletError('network'); aborted: WalletError('aborted');
 * - a 2xx body not of the documented shape: WalletError('unexpected_response').
 * Calls that use the signed retry go through `sendSigned` (signed-retry.ts).
 *
 * Deliberately not here: key handling (session.ts), storage (keystore.ts), logging of any kind.
 * Errors never carry request or response bodies, stamps, tokens or reveal URLs.
 */
import { ServiceError, WalletError } from './errors.ts';
import { sendSigned, type HttpRequest, type HttpResponse, type Send } from './signed-retry.ts';
import { REQUEST_ID_HEADER, type Stamper } from './stamp.ts';
import {
  AGENT_ACTION_STATUSES,
  CREDENTIAL_TYPES,
  DELEGATED_KEY_STATUSES,
  type AgentAction,
  type AgentActionList,
  type AgentActionStatus,
  type AuthMethod,
  type AuthMethodResponse,
  type AuthSession,
  type CardRevealResponse,
  type CreateCredentialRequest,
  type CreateDelegatedKeyRequest,
  type Customer,
  type DelegatedKey,
  type ErrorBody,
  type ExportResponse,
  type InternalAccount,
  type PasskeyAssertion,
  type PasskeyChallenge,
} from './types.ts';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';

export type { HttpRequest, HttpResponse, Send } from './signed-retry.ts';

export interface ClientOptions {
  /** Base of the service's paths: the proxy mount (`/api`, or an absolute URL in Node). */
  baseUrl: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers on every request (e.g. an integrator's CSRF header). */
  headers?: Record<string, string>;
  /** fetch's credentials mode: 'same-origin' (default) or 'include' for a proxy on another origin. */
  credentials?: RequestCredentials;
  /** Bound on each HTTP exchange, answer body included; WalletError('network') past it. Default 30000 ms. */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** Calls that always take the signed retry need a Stamper (a session key of the same account). */
export interface SignedCallOptions extends CallOptions {
  stamper: Stamper;
}

/** Calls whose 202 depends on server state (credential create, customer email) take it optionally. */
export interface MaybeSignedCallOptions extends CallOptions {
  stamper?: Stamper;
}

export interface AgentCallOptions extends CallOptions {
  /** The agent's access token (reference.md "Agents": Bearer auth), passed per call, never stored. */
  agentToken: string;
}

export interface ListAgentActionsOptions extends AgentCallOptions {
  status?: AgentActionStatus;
  /** 1 to 100, default 20 (api.md "Limits"). */
  limit?: number;
  cursor?: string;
}

export interface IterateAgentActionsOptions extends AgentCallOptions {
  status?: AgentActionStatus;
  limit?: number;
  /** Bound on pages followed, against a service that never ends its cursor chain. Default 1000. */
  maxPages?: number;
}

export interface ListDelegatedKeysQuery {
  accountId?: string;
  fundingSourceId?: string;
}

/** One typed method per endpoint the browser uses. */
export interface WalletClient {
  /** The low-level sender, for calls this interface does not name. */
  readonly send: Send;

  /** POST /auth/credentials: 201, or 202 then a signed retry with `stamper` (another credential's session). */
  createCredential(body: CreateCredentialRequest, options?: MaybeSignedCallOptions): Promise<AuthMethodResponse>;
  /** GET /auth/credentials?accountId= */
  listCredentials(accountId: string, options?: CallOptions): Promise<AuthMethod[]>;
  /** DELETE /auth/credentials/{id}: signed by a session of a different credential; 204. */
  revokeCredential(credentialId: string, options: SignedCallOptions): Promise<void>;
  /** POST /auth/credentials/{id}/challenge for EMAIL_OTP / SMS_OTP: a fresh target bundle (a new code is sent). */
  requestOtpChallenge(credentialId: string, options?: CallOptions): Promise<AuthMethodResponse & { otpEncryptionTargetBundle: string }>;
  /** POST /auth/credentials/{id}/challenge for PASSKEY with the ECDH receiver key (uncompressed hex). */
  requestPasskeyChallenge(credentialId: string, clientPublicKey: string, options?: CallOptions): Promise<PasskeyChallenge>;
  /** POST /auth/credentials/{id}/verify, OTP: leg 1 answers 202 (a JWT to sign), leg 2 signed with the new key. */
  verifyOtp(
    credentialId: string,
    body: { type: 'EMAIL_OTP' | 'SMS_OTP'; encryptedOtpBundle: string },
    options: SignedCallOptions,
  ): Promise<AuthSession>;
  /** POST /auth/credentials/{id}/verify, OAUTH: one call; the answer carries encryptedSessionSigningKey. */
  verifyOAuth(
    credentialId: string,
    body: { oidcToken: string; clientPublicKey: string },
    options?: CallOptions,
  ): Promise<AuthSession & { encryptedSessionSigningKey: string }>;
  /** POST /auth/credentials/{id}/verify, PASSKEY: the assertion plus the Request-Id from /challenge. */
  verifyPasskey(
    credentialId: string,
    body: { assertion: PasskeyAssertion; requestId: string },
    options?: CallOptions,
  ): Promise<AuthSession & { encryptedSessionSigningKey: string }>;

  /** GET /auth/sessions?accountId= (active only, never a signing key). */
  listSessions(accountId: string, options?: CallOptions): Promise<AuthSession[]>;
  /** POST /auth/sessions/{id}/refresh {clientPublicKey}, signed with the current session key; 201. */
  refreshSession(sessionId: string, clientPublicKey: string, options: SignedCallOptions): Promise<AuthSession>;
  /** DELETE /auth/sessions/{id}, signed by any active session of the account; 204 (404: already gone). */
  revokeSession(sessionId: string, options: SignedCallOptions): Promise<void>;

  /** POST /auth/delegated-keys: signed retry that may answer 202 twice; 201 DelegatedKey (ACTIVE). */
  createDelegatedKey(body: CreateDelegatedKeyRequest, options: SignedCallOptions): Promise<DelegatedKey>;
  /** GET /auth/delegated-keys?accountId=&fundingSourceId= (at least one). */
  listDelegatedKeys(query: ListDelegatedKeysQuery, options?: CallOptions): Promise<DelegatedKey[]>;
  /** GET /auth/delegated-keys/{id} */
  getDelegatedKey(id: string, options?: CallOptions): Promise<DelegatedKey>;
  /** DELETE /auth/delegated-keys/{id} (no signed retry); 204. */
  revokeDelegatedKey(id: string, options?: CallOptions): Promise<void>;

  /** POST /cards/{id}/reveal: the URL is a bearer secret; render at once, never store or log. */
  revealCard(cardId: string, options?: CallOptions): Promise<CardRevealResponse>;

  /** GET /agents/me/actions: one page. */
  listAgentActions(options: ListAgentActionsOptions): Promise<AgentActionList>;
  /** Every action over all cursor pages, page by page. */
  iterateAgentActions(options: IterateAgentActionsOptions): AsyncGenerator<AgentAction, void, undefined>;
  /** GET /agents/me/actions/{actionId} */
  getAgentAction(actionId: string, options: AgentCallOptions): Promise<AgentAction>;

  /** POST /internal-accounts/{id}/export {clientPublicKey}: the encrypted recovery phrase envelope. */
  exportWallet(accountId: string, clientPublicKey: string, options: SignedCallOptions): Promise<ExportResponse>;
  /** PATCH /internal-accounts/{id} {privateEnabled}. */
  setWalletPrivacy(accountId: string, privateEnabled: boolean, options: SignedCallOptions): Promise<InternalAccount>;
  /** PATCH /customers/{customerId} {email}: signed only when tied OTP credentials exist. */
  updateCustomerEmail(customerId: string, email: string, options?: MaybeSignedCallOptions): Promise<Customer>;

  /** The proxy's POST {base}/webauthn/registration-options {accountId}. */
  webauthnRegistrationOptions(accountId: string, options?: CallOptions): Promise<PublicKeyCredentialCreationOptionsJSON>;
}

// ---------------------------------------------------------------------------------------------
// Transport

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // RFC 9110 section 10.2.3: either delay-seconds or an HTTP-date.
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function isErrorBody(v: unknown): v is ErrorBody {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return (
    typeof b.code === 'string' &&
    typeof b.message === 'string' &&
    (b.details === undefined || (typeof b.details === 'object' && b.details !== null && !Array.isArray(b.details)))
  );
}

function abortError(signal: AbortSignal): WalletError {
  return new WalletError('aborted', 'The request was aborted.', { cause: signal.reason });
}

/**
 * The HTTP layer under every method: JSON in, JSON out, errors typed as described in the header.
 * Exported for the signed-retry tests and for calls this client does not name.
 */
export function createHttp(options: ClientOptions): Send {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const fixedHeaders = options.headers ?? {};
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(timeoutMs > 0)) throw new WalletError('invalid_argument', 'timeoutMs must be a positive number of milliseconds.');

  return async (request: HttpRequest): Promise<HttpResponse> => {
    const { signal } = request;
    if (signal?.aborted) throw abortError(signal);
    const headers: Record<string, string> = { Accept: 'application/json', ...fixedHeaders, ...request.headers };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    // A bodyless POST/PATCH/DELETE still says it is an API call: a header a cross-site form cannot
    // send, which the proxy's CSRF check looks for (src/proxy/proxy.ts "Origin and CSRF policy").
    else if (request.method !== 'GET') headers['X-Requested-With'] = 'wallet-elements';

    // One controller for the caller's signal and the time bound, so that either stops fetch and body.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const failure = (e: unknown, what: string): WalletError => {
      if (signal?.aborted) return abortError(signal);
      if (timedOut) return new WalletError('network', `The wallet service did not answer within ${Math.round(timeoutMs / 1000)} s. Try again.`, { cause: e });
      return new WalletError('network', what, { cause: e });
    };

    const init: RequestInit = {
      method: request.method,
      headers,
      credentials: options.credentials ?? 'same-origin',
      cache: 'no-store',
      signal: controller.signal,
    };
    if (request.body !== undefined) init.body = request.body;

    let response: Response;
    let text: string;
    try {
      try {
        response = await doFetch(base + request.path, init);
      } catch (e) {
        // The cause is kept for debugging; a fetch TypeError names no body, header or token.
        throw failure(e, 'The wallet service could not be reached. Check the connection and try again.');
      }
      try {
        text = await response.text();
      } catch (e) {
        throw failure(e, 'The connection broke while reading the answer. Try again.');
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }

    let body: unknown = undefined;
    let parsed = true;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        parsed = false;
      }
    }

    if (response.status < 200 || response.status > 299) {
      const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
      const errorBody: ErrorBody =
        parsed && isErrorBody(body)
          ? {
              status: response.status,
              code: body.code,
              message: body.message,
              ...(body.details ? { details: body.details } : {}),
            }
          : {
              status: response.status,
              code: response.status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN_ERROR',
              message: `The service answered ${response.status} without an error body.`,
            };
      throw new ServiceError(errorBody, retryAfter === undefined ? {} : { retryAfter });
    }
    if (!parsed) {
      throw new WalletError('unexpected_response', `The answer to ${request.method} was not JSON.`);
    }
    return { status: response.status, headers: response.headers, body };
  };
}

// ---------------------------------------------------------------------------------------------
// Shape checks: what the library relies on is required; other documented fields are type-checked
// when present, and unknown fields pass through untouched.

type FieldKind = 'string' | 'boolean' | 'number' | 'array' | 'object';
type FieldSpec = Record<string, FieldKind | `${FieldKind}?`>;

function kindOf(v: unknown): FieldKind | 'null' | 'undefined' | 'other' {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'boolean' || t === 'number' || t === 'object' ? t : 'other';
}

function check<T>(value: unknown, spec: FieldSpec, what: string): T {
  if (kindOf(value) !== 'object') {
    throw new WalletError('unexpected_response', `The service's ${what} was not an object.`);
  }
  const obj = value as Record<string, unknown>;
  for (const [field, rule] of Object.entries(spec)) {
    const optional = rule.endsWith('?');
    const kind = (optional ? rule.slice(0, -1) : rule) as FieldKind;
    const actual = kindOf(obj[field]);
    if (actual === 'undefined' && optional) continue;
    if (actual !== kind) {
      throw new WalletError('unexpected_response', `The service's ${what} has no valid "${field}".`);
    }
  }
  return value as T;
}

function checkOneOf(value: unknown, allowed: readonly string[], field: string, what: string): void {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw new WalletError('unexpected_response', `The service's ${what} has an unknown "${field}".`);
  }
}

function checkIdPrefix(value: unknown, type: string, field: string, what: string): void {
  if (typeof value !== 'string' || !value.startsWith(`${type}:`)) {
    throw new WalletError('unexpected_response', `The service's ${what} has no valid "${field}" (${type}:<uuid>).`);
  }
}

const AUTH_METHOD: FieldSpec = {
  id: 'string',
  accountId: 'string',
  type: 'string',
  credentialId: 'string?',
  nickname: 'string?',
  createdAt: 'string?',
  updatedAt: 'string?',
};

function asAuthMethod(v: unknown, what = 'credential'): AuthMethodResponse {
  const m = check<AuthMethodResponse>(v, { ...AUTH_METHOD, otpEncryptionTargetBundle: 'string?' }, what);
  checkIdPrefix(m.id, 'AuthMethod', 'id', what);
  checkOneOf(m.type, CREDENTIAL_TYPES, 'type', what);
  return m;
}

function asSession(v: unknown, what = 'session'): AuthSession {
  const s = check<AuthSession>(v, { ...AUTH_METHOD, expiresAt: 'string', encryptedSessionSigningKey: 'string?' }, what);
  checkIdPrefix(s.id, 'Session', 'id', what);
  checkOneOf(s.type, CREDENTIAL_TYPES, 'type', what);
  if (Number.isNaN(Date.parse(s.expiresAt))) {
    throw new WalletError('unexpected_response', `The service's ${what} has no valid "expiresAt".`);
  }
  return s;
}

function withSigningKey(s: AuthSession, what: string): AuthSession & { encryptedSessionSigningKey: string } {
  if (typeof s.encryptedSessionSigningKey !== 'string' || s.encryptedSessionSigningKey.length === 0) {
    throw new WalletError('unexpected_response', `The service's ${what} carried no encryptedSessionSigningKey.`);
  }
  return s as AuthSession & { encryptedSessionSigningKey: string };
}

function asDelegatedKey(v: unknown): DelegatedKey {
  const k = check<DelegatedKey>(
    v,
    {
      id: 'string',
      cardId: 'string',
      fundingSourceId: 'string',
      accountId: 'string',
      publicKey: 'string',
      nickname: 'string',
      status: 'string',
      spendingLimits: 'array?',
      createdAt: 'string?',
      updatedAt: 'string?',
    },
    'delegated key',
  );
  checkIdPrefix(k.id, 'DelegatedKey', 'id', 'delegated key');
  checkOneOf(k.status, DELEGATED_KEY_STATUSES, 'status', 'delegated key');
  return k;
}

function asAgentAction(v: unknown): AgentAction {
  const a = check<AgentAction>(
    v,
    {
      id: 'string',
      agentId: 'string?',
      customerId: 'string?',
      status: 'string',
      type: 'string',
      createdAt: 'string?',
      updatedAt: 'string?',
      quote: 'object?',
      transferDetails: 'object?',
      transaction: 'object?',
      rejectionReason: 'string?',
    },
    'agent action',
  );
  checkIdPrefix(a.id, 'AgentAction', 'id', 'agent action');
  checkOneOf(a.status, AGENT_ACTION_STATUSES, 'status', 'agent action');
  return a;
}

function asList<T>(v: unknown, item: (x: unknown) => T, what: string): T[] {
  const l = check<{ data: unknown[] }>(v, { data: 'array' }, `${what} list`);
  return l.data.map(item);
}

// ---------------------------------------------------------------------------------------------
// Paths

/** A path segment from an id: `<Type>:<uuid>` ids keep their colon (RFC 3986 allows it in a segment). */
function seg(id: string, name: string): string {
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
    throw new WalletError('invalid_argument', `${name} must be a non-empty id.`);
  }
  return encodeURIComponent(id).replace(/%3A/gi, ':');
}

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

function sig(options: CallOptions | undefined): { signal?: AbortSignal } {
  return options?.signal ? { signal: options.signal } : {};
}

const HEX_UNCOMPRESSED = /^04[0-9a-f]{128}$/;

function checkClientPublicKey(hex: string): void {
  if (typeof hex !== 'string' || !HEX_UNCOMPRESSED.test(hex)) {
    throw new WalletError('invalid_argument', 'clientPublicKey must be an uncompressed P-256 public key in lowercase hex (04 + 128 hex).');
  }
}

function bearer(token: string): Record<string, string> {
  if (typeof token !== 'string' || token.length === 0 || /[\s,]/.test(token)) {
    throw new WalletError('invalid_argument', 'agentToken must be a non-empty token.');
  }
  return { Authorization: `Bearer ${token}` };
}

// ---------------------------------------------------------------------------------------------

export function createClient(options: ClientOptions): WalletClient {
  if (typeof options?.baseUrl !== 'string' || options.baseUrl.length === 0) {
    throw new WalletError('invalid_argument', 'baseUrl must be the base of the proxy (for example "/api").');
  }
  const send = createHttp(options);

  const json = (method: HttpRequest['method'], path: string, body: unknown, callOptions?: CallOptions, headers?: Record<string, string>) =>
    send({
      method,
      path,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(headers ? { headers } : {}),
      ...sig(callOptions),
    });

  const expectStatus = (res: HttpResponse, allowed: number[], what: string): HttpResponse => {
    if (!allowed.includes(res.status)) {
      throw new WalletError('unexpected_response', `The service answered ${res.status} to ${what}.`);
    }
    return res;
  };

  const client: WalletClient = {
    send,

    async createCredential(body, opts) {
      const res = await sendSigned({
        send,
        method: 'POST',
        path: '/auth/credentials',
        body,
        ...(opts?.stamper ? { stamper: opts.stamper } : {}),
        ...sig(opts),
        missingStamperMessage:
          'This wallet already has a credential: adding another needs a signature from an active session. Log in first.',
      });
      expectStatus(res, [200, 201], 'credential creation');
      return asAuthMethod(res.body);
    },

    async listCredentials(accountId, opts) {
      const res = await json('GET', `/auth/credentials${query({ accountId })}`, undefined, opts);
      return asList(res.body, (x) => asAuthMethod(x), 'credential');
    },

    async revokeCredential(credentialId, opts) {
      const res = await sendSigned({ send, method: 'DELETE', path: `/auth/credentials/${seg(credentialId, 'credentialId')}`, stamper: opts.stamper, ...sig(opts) });
      expectStatus(res, [200, 204], 'credential revocation');
    },

    async requestOtpChallenge(credentialId, opts) {
      const res = await json('POST', `/auth/credentials/${seg(credentialId, 'credentialId')}/challenge`, {}, opts);
      const m = asAuthMethod(res.body, 'OTP challenge');
      if (m.type !== 'EMAIL_OTP' && m.type !== 'SMS_OTP') {
        throw new WalletError('unexpected_response', 'The OTP challenge was answered for a credential that is not an OTP credential.');
      }
      if (typeof m.otpEncryptionTargetBundle !== 'string' || m.otpEncryptionTargetBundle.length === 0) {
        throw new WalletError('unexpected_response', "The OTP challenge carried no otpEncryptionTargetBundle.");
      }
      return m as AuthMethodResponse & { otpEncryptionTargetBundle: string };
    },

    async requestPasskeyChallenge(credentialId, clientPublicKey, opts) {
      checkClientPublicKey(clientPublicKey);
      const res = await json('POST', `/auth/credentials/${seg(credentialId, 'credentialId')}/challenge`, { clientPublicKey }, opts);
      const c = check<PasskeyChallenge>(
        res.body,
        { ...AUTH_METHOD, credentialId: 'string', challenge: 'string', requestId: 'string', expiresAt: 'string' },
        'passkey challenge',
      );
      checkIdPrefix(c.requestId, 'Request', 'requestId', 'passkey challenge');
      if (!/^[0-9a-f]+$/.test(c.challenge)) {
        throw new WalletError('unexpected_response', "The passkey challenge was not a lowercase hex string.");
      }
      return c;
    },

    async verifyOtp(credentialId, body, opts) {
      const res = await sendSigned({
        send,
        method: 'POST',
        path: `/auth/credentials/${seg(credentialId, 'credentialId')}/verify`,
        body: { type: body.type, encryptedOtpBundle: body.encryptedOtpBundle },
        stamper: opts.stamper,
        ...sig(opts),
      });
      expectStatus(res, [200, 201], 'OTP verification');
      const s = asSession(res.body);
      // reference.md: never on OTP sessions. The key that signed leg 2 IS the session key.
      if (s.encryptedSessionSigningKey !== undefined) {
        throw new WalletError('unexpected_response', 'The OTP session unexpectedly carried a session signing key.');
      }
      return s;
    },

    async verifyOAuth(credentialId, body, opts) {
      checkClientPublicKey(body.clientPublicKey);
      const res = await json(
        'POST',
        `/auth/credentials/${seg(credentialId, 'credentialId')}/verify`,
        { type: 'OAUTH', oidcToken: body.oidcToken, clientPublicKey: body.clientPublicKey },
        opts,
      );
      expectStatus(res, [200, 201], 'OAuth verification');
      return withSigningKey(asSession(res.body), 'OAuth session');
    },

    async verifyPasskey(credentialId, body, opts) {
      checkIdPrefix(body.requestId, 'Request', 'requestId', 'passkey challenge');
      const res = await json(
        'POST',
        `/auth/credentials/${seg(credentialId, 'credentialId')}/verify`,
        { type: 'PASSKEY', assertion: body.assertion },
        opts,
        { [REQUEST_ID_HEADER]: body.requestId },
      );
      expectStatus(res, [200, 201], 'passkey verification');
      return withSigningKey(asSession(res.body), 'passkey session');
    },

    async listSessions(accountId, opts) {
      const res = await json('GET', `/auth/sessions${query({ accountId })}`, undefined, opts);
      return asList(res.body, (x) => asSession(x), 'session');
    },

    async refreshSession(sessionId, clientPublicKey, opts) {
      checkClientPublicKey(clientPublicKey);
      const res = await sendSigned({
        send,
        method: 'POST',
        path: `/auth/sessions/${seg(sessionId, 'sessionId')}/refresh`,
        body: { clientPublicKey },
        stamper: opts.stamper,
        ...sig(opts),
      });
      expectStatus(res, [200, 201], 'session refresh');
      return asSession(res.body, 'refreshed session');
    },

    async revokeSession(sessionId, opts) {
      const res = await sendSigned({ send, method: 'DELETE', path: `/auth/sessions/${seg(sessionId, 'sessionId')}`, stamper: opts.stamper, ...sig(opts) });
      expectStatus(res, [200, 204], 'session revocation');
    },

    async createDelegatedKey(body, opts) {
      const res = await sendSigned({ send, method: 'POST', path: '/auth/delegated-keys', body, stamper: opts.stamper, ...sig(opts) });
      expectStatus(res, [200, 201], 'delegated key creation');
      return asDelegatedKey(res.body);
    },

    async listDelegatedKeys(q, opts) {
      if (!q?.accountId && !q?.fundingSourceId) {
        throw new WalletError('invalid_argument', 'listDelegatedKeys needs accountId or fundingSourceId.');
      }
      const res = await json('GET', `/auth/delegated-keys${query({ accountId: q.accountId, fundingSourceId: q.fundingSourceId })}`, undefined, opts);
      return asList(res.body, asDelegatedKey, 'delegated key');
    },

    async getDelegatedKey(id, opts) {
      const res = await json('GET', `/auth/delegated-keys/${seg(id, 'id')}`, undefined, opts);
      return asDelegatedKey(res.body);
    },

    async revokeDelegatedKey(id, opts) {
      const res = await json('DELETE', `/auth/delegated-keys/${seg(id, 'id')}`, undefined, opts);
      expectStatus(res, [200, 204], 'delegated key revocation');
    },

    async revealCard(cardId, opts) {
      const res = await json('POST', `/cards/${seg(cardId, 'cardId')}/reveal`, undefined, opts);
      const r = check<CardRevealResponse>(res.body, { panEmbedUrl: 'string', expiresAt: 'string' }, 'card reveal');
      // Only the shape is checked; the element decides which origins it renders (DESIGN.md security rules).
      try {
        new URL(r.panEmbedUrl);
      } catch {
        throw new WalletError('unexpected_response', "The card reveal carried no valid URL.");
      }
      if (Number.isNaN(Date.parse(r.expiresAt))) {
        throw new WalletError('unexpected_response', "The card reveal has no valid expiresAt.");
      }
      return { panEmbedUrl: r.panEmbedUrl, expiresAt: r.expiresAt };
    },

    async listAgentActions(opts) {
      if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 1 || opts.limit > 100)) {
        throw new WalletError('invalid_argument', 'limit must be an integer from 1 to 100.');
      }
      if (opts.status !== undefined && !AGENT_ACTION_STATUSES.includes(opts.status)) {
        throw new WalletError('invalid_argument', 'status must be one of ' + AGENT_ACTION_STATUSES.join(', ') + '.');
      }
      const res = await json(
        'GET',
        `/agents/me/actions${query({ status: opts.status, limit: opts.limit, cursor: opts.cursor })}`,
        undefined,
        opts,
        bearer(opts.agentToken),
      );
      const l = check<AgentActionList>(res.body, { data: 'array', hasMore: 'boolean', nextCursor: 'string?', totalCount: 'number?' }, 'agent action list');
      if (l.hasMore && (typeof l.nextCursor !== 'string' || l.nextCursor.length === 0)) {
        throw new WalletError('unexpected_response', 'The agent action list says hasMore but has no nextCursor.');
      }
      const page: AgentActionList = { data: l.data.map(asAgentAction), hasMore: l.hasMore };
      if (l.hasMore && l.nextCursor) page.nextCursor = l.nextCursor;
      if (typeof l.totalCount === 'number') page.totalCount = l.totalCount;
      return page;
    },

    async *iterateAgentActions(opts) {
      const maxPages = opts.maxPages ?? 1000;
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const res = await client.listAgentActions({
          agentToken: opts.agentToken,
          ...(opts.status ? { status: opts.status } : {}),
          ...(opts.limit ? { limit: opts.limit } : {}),
          ...(cursor ? { cursor } : {}),
          ...sig(opts),
        });
        for (const action of res.data) yield action;
        if (!res.hasMore || !res.nextCursor) return;
        // A cursor that comes back is a loop, not progress.
        if (seen.has(res.nextCursor)) {
          throw new WalletError('unexpected_response', 'The agent action list returned a cursor it had already returned.');
        }
        seen.add(res.nextCursor);
        cursor = res.nextCursor;
      }
      throw new WalletError('unexpected_response', `The agent action list did not end within ${maxPages} pages.`);
    },

    async getAgentAction(actionId, opts) {
      const res = await json('GET', `/agents/me/actions/${seg(actionId, 'actionId')}`, undefined, opts, bearer(opts.agentToken));
      return asAgentAction(res.body);
    },

    async exportWallet(accountId, clientPublicKey, opts) {
      checkClientPublicKey(clientPublicKey);
      const res = await sendSigned({
        send,
        method: 'POST',
        path: `/internal-accounts/${seg(accountId, 'accountId')}/export`,
        body: { clientPublicKey },
        stamper: opts.stamper,
        ...sig(opts),
      });
      expectStatus(res, [200, 201], 'wallet export');
      return check<ExportResponse>(res.body, { id: 'string', encryptedWalletCredentials: 'string' }, 'wallet export');
    },

    async setWalletPrivacy(accountId, privateEnabled, opts) {
      if (typeof privateEnabled !== 'boolean') throw new WalletError('invalid_argument', 'privateEnabled must be a boolean.');
      const res = await sendSigned({
        send,
        method: 'PATCH',
        path: `/internal-accounts/${seg(accountId, 'accountId')}`,
        body: { privateEnabled },
        stamper: opts.stamper,
        ...sig(opts),
      });
      expectStatus(res, [200], 'wallet privacy update');
      const a = check<InternalAccount>(res.body, { id: 'string', privateEnabled: 'boolean?' }, 'internal account');
      checkIdPrefix(a.id, 'InternalAccount', 'id', 'internal account');
      return a;
    },

    async updateCustomerEmail(customerId, email, opts) {
      if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)) {
        throw new WalletError('invalid_argument', 'email must be an email address.');
      }
      const res = await sendSigned({
        send,
        method: 'PATCH',
        path: `/customers/${seg(customerId, 'customerId')}`,
        body: { email },
        ...(opts?.stamper ? { stamper: opts.stamper } : {}),
        ...sig(opts),
        missingStamperMessage: 'This email is tied to an email login: changing it needs a signature from an active session. Log in first.',
      });
      expectStatus(res, [200], 'customer email update');
      const c = check<Customer>(res.body, { id: 'string', email: 'string?' }, 'customer');
      checkIdPrefix(c.id, 'Customer', 'id', 'customer');
      return c;
    },

    async webauthnRegistrationOptions(accountId, opts) {
      const res = await json('POST', '/webauthn/registration-options', { accountId }, opts);
      const o = check<PublicKeyCredentialCreationOptionsJSON>(
        res.body,
        { challenge: 'string', rp: 'object', user: 'object', pubKeyCredParams: 'array', excludeCredentials: 'array?' },
        'passkey registration options',
      );
      if (!/^[A-Za-z0-9_-]+$/.test(o.challenge)) {
        throw new WalletError('unexpected_response', 'The passkey registration challenge was not base64url.');
      }
      return o;
    },
  };
  return client;
}
