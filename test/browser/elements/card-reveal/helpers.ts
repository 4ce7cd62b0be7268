/**
 * For the `<card-reveal>` files that need a page that has not loaded its on-demand code yet (each a
 * file of its own, as a module once loaded, or failed, is the page's for the rest of it).
 */
import { expect } from 'chai';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import { fixtures } from '../../support/rig.ts';
import { mount, resetPage, useRig } from '../shared/helpers.ts';

/** The module the element loads on demand to send the reveal request (an import() of its own). */
export const REVEAL_REQUEST = '/src/elements/card-reveal/reveal-request.ts';

/** Whether the page has asked for a module yet (Resource Timing). */
export const requested = (path: string): boolean => performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === path);

export { failedLoads } from '../../support/rig.ts';

/** The suite's rig: the elements pointed at the rig's proxy before its tests, the page reset after each. */
export function useCardRig(): void {
  before(async () => {
    await useRig();
  });
  afterEach(resetPage);
}

/** A <card-reveal> of the rig's card, on a page that (checked first) has not asked for its reveal code yet. */
export async function mountBeforeRevealCode(): Promise<CardReveal> {
  expect(requested(REVEAL_REQUEST), 'loaded before the test').to.equal(false);
  const f = await fixtures();
  return mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
}
