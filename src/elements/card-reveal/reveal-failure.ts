/**
 * What a failed reveal request or session proof means to <card-reveal>: the code of its
 * `card-reveal-error` (and the service's status), and the sentences of those codes. Used by the
 * modules the element loads on demand (reveal-request.ts, step-up-proof.ts), which are the only ones
 * that can fail so: before one of them is loaded, only a load can fail (`load_failed`, or `network`
 * offline; shared/load.ts `loaded`). So a page does not load the mapping up front.
 */
import { asksLogin, ServiceError, WalletError } from '../../core/errors.ts';
import type { RevealErrorCode } from './card-reveal.machine.ts';
// The sentences of these codes, registered before any of them can be said.
import './card-reveal.error-strings.ts';

/** The service's statuses with a sentence of their own (api.md "Errors / Condition rules"). */
const BY_STATUS: Partial<Record<number, RevealErrorCode>> = {
  403: 'forbidden',
  404: 'not_found',
  429: 'rate_limited',
  501: 'not_available',
};

/**
 * Maps what core threw to a code. A 403 whose code names the step-up (see src/proxy/step-up.ts),
 * and a session that cannot be proven here, ask for a fresh session proof.
 */
export function errorCodeOf(error: unknown): RevealErrorCode {
  if (error instanceof ServiceError) {
    if (error.code === 'STEP_UP_REQUIRED') return 'session_required';
    // The shared reading of a 401 (core/errors.ts asksLogin): the site's own refusal (AUTHORIZE) asks
    // for a login; a plain UNAUTHORIZED is the proxy's credentials refused (a set-up problem).
    if (error.status === 401) return asksLogin(error.code, error.details) ? 'session_required' : 'unauthorized';
    return BY_STATUS[error.status] ?? (error.status >= 500 ? 'server' : 'unexpected');
  }
  return (error instanceof WalletError && BY_WALLET_CODE[error.code]) || 'unexpected';
}

/** What the library's own failures mean here (an id that is not a `Card:<uuid>` names no card). */
const BY_WALLET_CODE: Partial<Record<string, RevealErrorCode>> = {
  network: 'network',
  session_expired: 'session_required',
  key_missing: 'session_required',
  invalid_argument: 'not_found',
  misconfigured: 'misconfigured',
};

/** The code and the service's status (when it answered) of what a reveal request or proof threw. */
export function failureOf(error: unknown): { code: RevealErrorCode; status: number | undefined } {
  return { code: errorCodeOf(error), status: error instanceof ServiceError ? error.status : undefined };
}
