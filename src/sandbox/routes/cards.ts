/**
 * Card reveal (api.md "POST {base_url}/cards/{id}/reveal"; "Condition rules"): a short-lived signed
 * URL of the sandbox's own processor page. 403 FORBIDDEN when the caller has no attributable actor
 * (the impersonated dashboard pair), 501 NOT_IMPLEMENTED when the sandbox runs without a card
 * issuer, 404 for an unknown card (a malformed id included: the operation lists no 400). Every
 * reveal is audit-logged with its actor (never the URL).
 *
 * Checks run in that order (actor, then issuer, then card) so an unattributable caller learns
 * nothing about which cards exist. Deliberately not here: card issuance or card management.
 */
import type { CardRevealResponse } from '../../core/types.ts';
import { requireBasic } from '../auth.ts';
import { HttpError, json, notFound, type Router } from '../http.ts';
import { createRevealToken } from '../processor.ts';
import { isId } from '../validate.ts';
import type { World } from '../world.ts';

export function registerCardRoutes(router: Router, world: World): void {
  router.on('POST', '/cards/:id/reveal', (ctx) => {
    const actor = requireBasic(world, ctx);
    if (actor.kind !== 'platform') {
      throw new HttpError(403, 'FORBIDDEN', 'Card reveal needs an attributable actor; impersonated sessions cannot reveal cards');
    }
    if (!world.options.cardIssuer) throw new HttpError(501, 'NOT_IMPLEMENTED', 'No card issuer is configured in this environment');
    // api.md lists no 400 for reveal: an id that is not a card id is an unknown card.
    const id = ctx.params.id!;
    if (!isId(id, 'Card') || !world.store.cards.has(id)) throw notFound('Card not found');
    const now = world.clock.now();
    const expiresAtMs = now + world.options.revealLifetimeMs;
    const token = createRevealToken(world, id, expiresAtMs);
    world.store.revealAudit.push({ cardId: id, actor: actor.tokenId, at: new Date(now).toISOString() });
    const body: CardRevealResponse = {
      panEmbedUrl: `${world.origin}/processor/card?token=${encodeURIComponent(token)}`,
      expiresAt: new Date(expiresAtMs).toISOString(),
    };
    return json(200, body, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  });
}
