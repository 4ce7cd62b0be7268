/**
 * The wallet-session proof <card-reveal require-session> gives before each reveal: a signed-retry
 * refresh of the account's live session (reference.md "Sessions": POST /auth/sessions/{id}/refresh,
 * stamped with the current session key). The service verifies the stamp; the proxy, seeing the
 * refresh succeed (201), grants a short-lived step-up for that account (src/proxy/step-up.ts), which
 * the reveal then needs. The element never sees the grant: it travels as an HttpOnly cookie.
 *
 * Once proven, it watches that account's session until `signal` aborts: a logout or an end found in
 * this page (any element, through the shared Wallet) or in another tab (the session channel) calls `onLogout`, so
 * details shown on the strength of a session do not outlive it.
 *
 * Deliberately not here: any key handling (core/session.ts refreshes and stores the new key).
 */
import { ServiceError, WalletError } from '../../core/errors.ts';
import { onSessionBroadcast } from '../shared/session-channel.ts';
import { walletFor } from '../shared/wallet.ts';

// What the element makes of a failure (its code): loaded with what can fail so.
export { failureOf } from './reveal-failure.ts';

/** Proves the session, then watches it for a logout until `signal` aborts. */
export async function proveSession(options: {
  apiBase?: string | undefined;
  accountId?: string | undefined;
  signal: AbortSignal;
  onLogout: () => void;
}): Promise<void> {
  const { accountId, signal, onLogout } = options;
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
  signal.throwIfAborted();
  const ended = (change: { type: string; accountId: string }): void => {
    // Logged out, or found ended (expired) by core: either way it proves nothing any more.
    if ((change.type === 'logged-out' || change.type === 'ended') && change.accountId === accountId) onLogout();
  };
  const stops = [wallet.subscribe(ended), onSessionBroadcast(ended)];
  signal.addEventListener('abort', () => stops.forEach((stop) => stop()), { once: true });
}
