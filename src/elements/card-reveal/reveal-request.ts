/**
 * The reveal request of <card-reveal> (core/cards.ts over the page's transport for the element's
 * base path), in a module of its own that the element loads with import() when the cardholder moves
 * to it (pointer over it, keyboard focus in it) or, failing that, on the first reveal: the
 * transport, the shape checks and the endpoint are not needed to render the element, so a page does
 * not load them up front.
 */
import { revealCard } from '../../core/cards.ts';
import type { CardRevealResponse } from '../../core/types.ts';
import { sendFor } from '../shared/send.ts';

// What the element makes of a failure (its code): loaded with what can fail so.
export { failureOf } from './reveal-failure.ts';

/** A fresh reveal URL and its expiry for `cardId`, through the proxy at `apiBase` (or the configured one). */
export function requestReveal(apiBase: string | undefined, cardId: string, signal: AbortSignal): Promise<CardRevealResponse> {
  return revealCard(sendFor(apiBase), cardId, { signal });
}
