/**
 * POST /cards/{id}/reveal (api.md "POST /cards/{id}/reveal"; reference.md "Cards"), in a module of
 * its own so that <card-reveal> loads this endpoint and the transport without the rest of the
 * client. The client (endpoints.ts) binds it like every other endpoint.
 *
 * The URL is a bearer secret: only its shape is checked here, and it goes nowhere but the return
 * value; the element decides which origins it renders (DESIGN.md "Security rules").
 */
import { check, seg } from './shapes.ts';
import type { Send } from './signed-retry.ts';
import type { CallOptions } from './client.ts';
import type { CardRevealResponse } from './types.ts';

/** A fresh reveal URL and its expiry; only these two fields are returned. */
export async function revealCard(send: Send, cardId: string, o?: CallOptions): Promise<CardRevealResponse> {
  const { body } = await send({ method: 'POST', path: `/cards/${seg(cardId, 'cardId', 'Card')}/reveal`, signal: o?.signal });
  const { panEmbedUrl, expiresAt } = check<CardRevealResponse>(body, { panEmbedUrl: 'url', expiresAt: 'date' }, 'card reveal');
  return { panEmbedUrl, expiresAt };
}
