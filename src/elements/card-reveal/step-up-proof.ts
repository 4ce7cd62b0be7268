/**
 * The wallet-session proof <card-reveal require-session> gives before each reveal: a signed-retry
 * refresh of the account's live session (reference.md "Sessions": POST /auth/sessions/{id}/refresh,
 * stamped with the current session key). The service verifies the stamp; the proxy, seeing the
 * refresh succeed (201), grants a short-lived step-up for that account (src/proxy/step-up.ts), which
 * the reveal then needs. The element never sees the grant: it travels as an HttpOnly cookie.
 *
 * Deliberately not here: any key handling (core/session.ts refreshes and stores the new key).
 */
import { WalletError } from '../../core/errors.ts';
import { walletFor } from '../shared/wallet.ts';

export async function proveSession(options: { apiBase?: string | undefined; accountId?: string | undefined; signal?: AbortSignal }): Promise<void> {
  const { accountId, signal } = options;
  if (!accountId) {
    throw new WalletError('session_expired', 'card-reveal with require-session needs the account-id of the wallet to prove.');
  }
  await walletFor(options.apiBase).refresh(accountId, signal ? { signal } : {});
}
