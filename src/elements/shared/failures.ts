/**
 * Turns whatever a core call threw (a `ServiceError`, a `WalletError`, a WebAuthn `DOMException`,
 * an `AbortError`) into a short closed list of failure codes that an element can show as a sentence
 * and put on its `<tag>-error` event. The sentences live in i18n (`error.<code>`), so every one can
 * be replaced and translated (STYLE.md 6: "a user sees a sentence that says what to do next").
 *
 * Pure: no DOM, no lit, so the machines and their node tests use it too. It deliberately copies
 * nothing from the thrown error into the result except the service's status, code and Retry-After:
 * messages from lower layers may name values a user should not see.
 */
import { ServiceError, WalletError } from '../../core/errors.ts';

export const FAILURE_CODES = [
  /** The code typed was not accepted (401 on OTP verify). */
  'wrong_code',
  /** Too many attempts; `retryAfter` says how long to wait (429 RATE_LIMITED, Retry-After). */
  'rate_limited',
  /** The user closed or cancelled the passkey / browser prompt, or another ceremony replaced it. */
  'cancelled',
  /** This browser cannot use passkeys (no WebAuthn, or the ceremony is not allowed here). */
  'passkey_unsupported',
  /** The authenticator already holds a passkey for this wallet (InvalidStateError, PASSKEY_CREDENTIAL_ALREADY_EXISTS). */
  'passkey_exists',
  /** The passkey answer was refused by the service (401 on passkey verify). */
  'passkey_rejected',
  /** The wallet has no credential of the chosen kind. */
  'no_credential',
  /** The page gave no OIDC token provider, or it failed to produce a token. */
  'oauth_unavailable',
  /** The identity provider's token was refused (stale, wrong identity). */
  'oauth_rejected',
  /** A sensitive change needs a logged-in session and there is none on this device. */
  'login_required',
  /** The session ended; log in again. */
  'session_expired',
  /** The session key is gone from this browser's storage; log in again. */
  'key_missing',
  /** The wallet signature was refused (401 WALLET_SIGNATURE_* / INVALID_SIGNATURE). */
  'signature_rejected',
  /** The last credential of a wallet cannot be removed (400 on revoke). */
  'last_credential',
  /** The credential kind exists already (EMAIL_OTP / SMS_OTP _CREDENTIAL_ALREADY_EXISTS). */
  'credential_exists',
  /** The input was refused by the service (400 INVALID_INPUT). */
  'invalid_input',
  /** The page is not allowed to do this (403). */
  'forbidden',
  /** The proxy or the service could not be reached. */
  'network',
  /** Anything else. */
  'unexpected',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

export interface Failure {
  code: FailureCode;
  /** The service's HTTP status, when the service answered. */
  status?: number;
  /** Seconds to wait before trying again (429 Retry-After). */
  retryAfter?: number;
}

/** How a caller refines the mapping for its own step (a 401 on OTP verify means a wrong code). */
export interface FailureContext {
  /** What a plain 401 UNAUTHORIZED means in this step. */
  unauthorized?: FailureCode;
  /** What a 400 without a known code means in this step (revoking the only credential). */
  badRequest?: FailureCode;
}

/**
 * What each DOMException name a WebAuthn ceremony rejects with means (WebAuthn L3 §5.1.3, §5.1.4):
 * NotAllowedError is a closed prompt or a timeout, AbortError a cancel or a newer ceremony,
 * InvalidStateError an authenticator already registered (excludeCredentials matched).
 */
const WEBAUTHN_FAILURES = new Map<string, FailureCode>([
  ['AbortError', 'cancelled'],
  ['NotAllowedError', 'cancelled'],
  ['InvalidStateError', 'passkey_exists'],
  ['NotSupportedError', 'passkey_unsupported'],
  ['SecurityError', 'passkey_unsupported'],
  ['ConstraintError', 'passkey_unsupported'],
  // No browser reason worth a sentence of its own: refused, try again.
  ['UnknownError', 'passkey_rejected'],
]);

/** The failure a WebAuthn DOMException along the `cause` chain means, if there is one. */
function webauthnCode(e: unknown): FailureCode | undefined {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 5; depth++) {
    const code = WEBAUTHN_FAILURES.get(String((cur as { name?: unknown }).name));
    if (code) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when the error means "the user or the page cancelled", which an element treats as a quiet return. */
export function isCancellation(e: unknown): boolean {
  return (e instanceof WalletError && e.code === 'aborted') || webauthnCode(e) === 'cancelled';
}

/** What a WalletError's code means to a person; 'webauthn' is decided by its DOMException. */
const WALLET_FAILURES: Partial<Record<string, FailureCode>> = {
  key_missing: 'key_missing',
  session_expired: 'session_expired',
  network: 'network',
  aborted: 'cancelled',
  retry_exhausted: 'signature_rejected',
};

export function classifyError(e: unknown, context: FailureContext = {}): Failure {
  if (e instanceof ServiceError) {
    const status = e.status;
    const base = { status } as const;
    if (status === 429 || e.code === 'RATE_LIMITED') return { code: 'rate_limited', status, ...(e.retryAfter !== undefined ? { retryAfter: e.retryAfter } : {}) };
    if (e.code === 'PASSKEY_CREDENTIAL_ALREADY_EXISTS') return { code: 'passkey_exists', ...base };
    if (e.code === 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS' || e.code === 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS') return { code: 'credential_exists', ...base };
    if (e.code.startsWith('WALLET_SIGNATURE') || e.code === 'INVALID_SIGNATURE' || e.code === 'REQUEST_ID_MISSING') return { code: 'signature_rejected', ...base };
    if (status === 401) return { code: context.unauthorized ?? 'signature_rejected', ...base };
    if (status === 403) return { code: 'forbidden', ...base };
    if (status === 400) return { code: context.badRequest ?? 'invalid_input', ...base };
    if (status === 404) return { code: 'no_credential', ...base };
    if (status === 502 || status === 503 || status === 504) return { code: 'network', ...base };
    return { code: 'unexpected', ...base };
  }
  if (e instanceof WalletError) {
    // A WebAuthn failure without a browser reason (a passkey of another wallet was picked): refused.
    if (e.code === 'webauthn') return { code: webauthnCode(e) ?? 'passkey_rejected' };
    return { code: WALLET_FAILURES[e.code] ?? 'unexpected' };
  }
  const code = webauthnCode(e) ?? (e instanceof TypeError ? 'network' : 'unexpected');
  return { code };
}

/** The i18n key of a failure's sentence. */
export function failureKey(failure: Failure): string {
  return `error.${failure.code}`;
}
