/**
 * The reveal request of <card-reveal> (core/cards.ts over the page's transport for the element's
 * base path) and the watch of the wallet session while the details are shown, in a module of its own that the element loads with import() when the cardholder moves
 * to it (pointer over it, keyboard focus in it) or, failing that, on the first reveal: the
 * transport, the shape checks and the endpoint are not needed to render the element, so a page does
 * not load them up front.
 */
import { revealCard } from '../../core/cards.ts';
import type { CardRevealResponse } from '../../core/types.ts';
import { sendFor } from '../shared/send.ts';
import { onSessionChange } from '../shared/wallet.ts';

// What the element makes of a failure (its code): loaded with what can fail so.
export { failureOf } from './reveal-failure.ts';

/** A fresh reveal URL and its expiry for `cardId`, through the proxy at `apiBase` (or the configured one). */
export function requestReveal(apiBase: string | undefined, cardId: string, signal: AbortSignal): Promise<CardRevealResponse> {
  return revealCard(sendFor(apiBase), cardId, { signal });
}

/**
 * Watches the wallet session until `signal` aborts: a logout or an end found in this page (any
 * element, through the shared Wallet) or in another tab (the session channel) of `accountId`'s
 * session, or of any without it, calls `onLogout`. Card details do not outlive the session they
 * were shown in, whether or not the reveal proved it (require-session): a cardholder who logs out
 * expects them to go with it.
 */
export function watchSession(apiBase: string | undefined, accountId: string | undefined, signal: AbortSignal, onLogout: () => void): void {
  const stop = onSessionChange(apiBase, ({ type, accountId: account }) => {
    // Logged out, or found ended (expired) by core: either way it proves nothing any more.
    if ((type === 'logged-out' || type === 'ended') && (!accountId || account === accountId)) onLogout();
  });
  signal.addEventListener('abort', stop, { once: true });
}
