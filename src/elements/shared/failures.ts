/**
 * Turns whatever a core call threw (a `ServiceError`, a `WalletError`, a WebAuthn `DOMException`,
 * an `AbortError`) into a short closed list of failure codes that an element can show as a sentence
 * and put on its `<tag>-error` event. The sentences live in i18n (`error.<code>`), so every one can
 * be replaced and translated (STYLE.md 6: "a user sees a sentence that says what to do next"); those
 * of the failures that only come from here are registered with this module (error-strings.ts).
 *
 * Pure: no DOM, no lit, so the machines and their node tests use it too. It deliberately copies
 * nothing from the thrown error into the result except the service's status, code and Retry-After:
 * messages from lower layers may name values a user should not see.
 */
import { asksLogin, ServiceError, WalletError } from '../../core/errors.ts';
import { LoadFailed } from './load.ts';
// The sentences of the failures classified here, loaded with what fails so (not up front).
import './error-strings.ts';

export const FAILURE_CODES = [
  /**
   * The code typed was not accepted (401 on OTP verify) and the service did not say it can no
   * longer be used: reference.md documents one 401 for a wrong code, so its sentence covers an
   * expired code too.
   */
  'wrong_code',
  /**
   * The code can no longer be used whatever is typed: the service has no open challenge for it (it
   * expired, too many wrong codes, or it was used already) or it was encrypted to another challenge.
   * A new code is needed (401 with `details.reason` OTP_CHALLENGE_MISSING or OTP_BUNDLE, which the
   * sandbox sends; the service documents no reason).
   */
  'code_expired',
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
  /** This browser's storage is blocked here (site data off, a private window): no login can be kept. */
  'storage_unavailable',
  /** The wallet signature was refused (401 WALLET_SIGNATURE_* / INVALID_SIGNATURE). */
  'signature_rejected',
  /** The last credential of a wallet cannot be removed (400 on revoke while the service lists no other). */
  'last_credential',
  /**
   * The credential exists already (EMAIL_OTP_, SMS_OTP_ CREDENTIAL_ALREADY_EXISTS; OAUTH_ for the
   * single sign-on identity the wallet has, which the sandbox refuses so).
   */
  'credential_exists',
  /** The input was refused by the service (400 INVALID_INPUT). */
  'invalid_input',
  /** The page is not allowed to do this (403). */
  'forbidden',
  /** The proxy or the service could not be reached; or, offline, the element's code was not asked for (load.ts). */
  'network',
  /**
   * Part of the element's code (loaded on demand) did not arrive, asked for twice: a reload of the
   * page is what loads it (a browser may keep a failed module failed for the page; load.ts).
   */
  'load_failed',
  /**
   * The page's settings do not fit the service it reaches: a bundle not signed by the pinned signer
   * key (`environment` of configureWallet: `sandbox` against the sandbox), or an `apiBase` where no
   * proxy is mounted (the page's own server answered; the console names the base), or the proxy's API
   * credentials refused (401 UNAUTHORIZED without details, in a step with no 401 of its own). Retrying cannot help.
   */
  'misconfigured',
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
  /**
   * A 429 of the proxy's own per-client limit, not of the service (`details.reason`
   * PROXY_RATE_LIMIT, src/proxy/rate-limit.ts): too many requests, whatever they were. Set where
   * it changes what is said (<wallet-login>: no code was sent), so the other elements carry no code for it.
   */
  byProxy?: true;
}

/** How a caller refines the mapping for its own step (a 401 on OTP verify means a wrong code). */
export interface FailureContext {
  /** What a plain 401 UNAUTHORIZED means in this step. */
  unauthorized?: FailureCode;
  /** What a 400 without a known code means in this step. */
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

/**
 * The failure a WebAuthn DOMException along the `cause` chain means, if there is one. Only a
 * ceremony's own error counts: a core error of another kind ends the walk, so a request core timed
 * out (a 'network' error whose cause is the fetch's AbortError) is not taken for a cancellation.
 */
function webauthnCode(e: unknown): FailureCode | undefined {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 5; depth++) {
    if (cur instanceof WalletError && cur.code !== 'webauthn') return undefined;
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
  storage_unavailable: 'storage_unavailable',
  network: 'network',
  aborted: 'cancelled',
  retry_exhausted: 'signature_rejected',
  bundle_invalid: 'misconfigured',
  misconfigured: 'misconfigured',
};

/**
 * The reasons a 401 on OTP verify gives when no code can pass any more, as the sandbox names them
 * (src/sandbox/routes/credentials.ts). The service promises no `details` (api.md "Errors"): without
 * one of these, a 401 is `wrong_code`, whose sentence covers a code that expired.
 */
const STALE_CODE_REASONS = new Set(['OTP_CHALLENGE_MISSING', 'OTP_BUNDLE']);

/** What the service's answer means in this step (api.md "Errors", reference.md "Shared shapes"). */
function serviceCode({ status, code, details }: ServiceError, context: FailureContext): FailureCode {
  if (status === 429 || code === 'RATE_LIMITED') return 'rate_limited';
  if (code === 'PASSKEY_CREDENTIAL_ALREADY_EXISTS') return 'passkey_exists';
  if (code.endsWith('_CREDENTIAL_ALREADY_EXISTS')) return 'credential_exists';
  if (asksLogin(code)) return 'signature_rejected';
  if (status === 401 && context.unauthorized === 'wrong_code' && STALE_CODE_REASONS.has(String(details?.['reason']))) return 'code_expired';
  // Unless the step gives a 401 a meaning of its own, the shared reading (core/errors.ts asksLogin):
  // with details a login to ask for, a plain UNAUTHORIZED the proxy's API credentials refused.
  if (status === 401) return context.unauthorized ?? (asksLogin(code, details) ? 'signature_rejected' : 'misconfigured');
  if (status === 403) return 'forbidden';
  if (status === 400) return context.badRequest ?? 'invalid_input';
  if (status === 404) return 'no_credential';
  if (status === 502 || status === 503 || status === 504) return 'network';
  return 'unexpected';
}

export function classifyError(e: unknown, context: FailureContext = {}): Failure {
  if (e instanceof LoadFailed) return { code: e.code };
  if (e instanceof ServiceError) {
    const failure: Failure = { code: serviceCode(e, context), status: e.status };
    if (failure.code === 'rate_limited' && e.retryAfter !== undefined) failure.retryAfter = e.retryAfter;
    return failure;
  }
  if (e instanceof WalletError) {
    // A WebAuthn failure without a browser reason: refused. (A passkey of another login picked,
    // passkey_mismatch, comes only from autofill, which <wallet-login> alone offers and says so.)
    if (e.code === 'webauthn') return { code: webauthnCode(e) ?? 'passkey_rejected' };
    return { code: WALLET_FAILURES[e.code] ?? 'unexpected' };
  }
  return { code: webauthnCode(e) ?? (e instanceof TypeError ? 'network' : 'unexpected') };
}

/** The i18n key of a failure's sentence. */
export function failureKey(failure: Failure): string {
  return `error.${failure.code}`;
}
