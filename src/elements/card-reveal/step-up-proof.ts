/**
 * The wallet-session proof <card-reveal require-session> gives before each reveal: a signed-retry
 * refresh of the account's live session (reference.md "Sessions": POST /auth/sessions/{id}/refresh,
 * stamped with the current session key). The service verifies the stamp; the proxy, seeing the
 * refresh succeed (201), grants a short-lived step-up for that account (src/proxy/step-up.ts), which
 * the reveal then needs. The element never sees the grant: it travels as an HttpOnly cookie.
 *
 * The element then watches the session as it does for every reveal (reveal-request.ts, watchSession).
 *
 * Deliberately not here: any key handling (core/session.ts refreshes and stores the new key).
 */
import { ServiceError, WalletError } from '../../core/errors.ts';
import { walletFor } from '../shared/wallet.ts';

// What the element makes of a failure (its code): loaded with what can fail so.
export { failureOf } from './reveal-failure.ts';

/** Proves the session. */
export async function proveSession(options: { apiBase?: string | undefined; accountId?: string | undefined; signal: AbortSignal }): Promise<void> {
  const { accountId, signal } = options;
  if (!accountId) {
    throw new WalletError('session_expired', 'card-reveal with require-session needs the account-id of the wallet to prove.');
  }
  const wallet = walletFor(options.apiBase);
  try {
    await wallet.refresh(accountId, { signal });
  } catch (e) {
    // The service refused the stamp because the session ended there (reference.md: refresh answers
    // 401 once it expired; revoked elsewhere, it is gone): the cardholder logs in again. It is not
    // the proxy's credentials, which the reveal's own 401 would mean.
    if (e instanceof ServiceError && (e.status === 401 || e.status === 404)) throw new WalletError('session_expired', 'The wallet session ended upstream.', { cause: e });
    throw e;
  }
}
