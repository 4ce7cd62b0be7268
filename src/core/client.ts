/**
 * The typed client of the service, as the browser reaches it through the proxy (DESIGN.md "How a call
 * travels"): one method per endpoint of spec/api.md and spec/reference.md that the library uses,
 * plus the proxy's own `POST {base}/webauthn/registration-options`: the table of endpoints.ts over
 * the transport of http.ts (`createHttp`, re-exported here).
 *
 * Every method takes an options object with an optional AbortSignal. Failures are typed:
 * - a non-2xx answer: ServiceError with the service's status, code, message, details, and
 *   `retryAfter` (seconds) from a Retry-After header;
 * - the network or proxy unreachable: WalletError('network'); aborted: WalletError('aborted');
 * - an answer that is not the service's JSON (the page's own server answered where the base URL
 *   points): WalletError('misconfigured') (http.ts);
 * - a 2xx body not of the documented shape: WalletError('unexpected_response') (endpoints.ts).
 * Every call goes through `sendSigned` (signed-retry.ts), which signs a 202 with the `stamper` option.
 *
 * Deliberately not here: key handling (session.ts), storage (keystore.ts), logging of any kind.
 * Errors never carry request or response bodies, stamps, tokens or reveal URLs.
 */
import { WalletError } from './errors.ts';
import { createHttp } from './http.ts';
import type { Send } from './signed-retry.ts';
import type { Stamper } from './stamp.ts';
import { walletMethods } from './endpoints.ts';
import type {
  AgentAction,
  AgentActionList,
  AgentActionStatus,
  AuthMethod,
  AuthMethodResponse,
  AuthSession,
  CardRevealResponse,
  CreateCredentialRequest,
  CreateDelegatedKeyRequest,
  Customer,
  DelegatedKey,
  ExportResponse,
  InternalAccount,
  PasskeyAssertion,
  PasskeyChallenge,
} from './types.ts';
import type { PublicKeyCredentialCreationOptionsJSON } from './webauthn.ts';

export type { HttpRequest, HttpResponse, Send } from './signed-retry.ts';
export { createHttp } from './http.ts';

export interface ClientOptions {
  /** Base of the service's paths: the proxy mount (`/api`, or an absolute URL in Node). */
  baseUrl: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers on every request (e.g. an integrator's CSRF header). */
  headers?: Record<string, string>;
  /**
   * fetch's credentials mode; default 'include': the proxy's own cookies go with every call, also
   * to a proxy on another origin (which then answers with Access-Control-Allow-Credentials, as
   * createProxy does for its allowedOrigins). The proxy needs them there as on the page's origin:
   * the card-reveal step-up grant, and the integrator's session cookie that `accountFor` reads.
   * 'same-origin' for a cross-origin endpoint that does not allow credentials.
   */
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

export interface CreateCredentialOptions extends MaybeSignedCallOptions {
  /** The body when the signed retry starts over (signed-retry.ts): OAUTH with a fresh token. */
  restartBody?: () => Promise<CreateCredentialRequest>;
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
  /** The low-level sender, for calls this interface does not name; a write through it starts list reads anew, as the methods' do. */
  readonly send: Send;

  /** POST /auth/credentials: 201, or 202 then a signed retry with `stamper` (another credential's session). */
  createCredential(body: CreateCredentialRequest, options?: CreateCredentialOptions): Promise<AuthMethodResponse>;
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

  /** GET /auth/sessions?accountId= (active only, never a signing key); reads on their way at once share one request, as for the other lists. */
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

export function createClient(options: ClientOptions): WalletClient {
  if (typeof options?.baseUrl !== 'string' || !options.baseUrl) {
    throw new WalletError('invalid_argument', 'baseUrl must be the base of the proxy (for example "/api").');
  }
  return walletMethods(createHttp(options));
}
