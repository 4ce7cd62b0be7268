/**
 * <card-reveal> when the connection of its reveal code's load drops (the test server closes it
 * without an answer): in real Chromium, which loads such a module again when asked (unlike one
 * answered with a 5xx, card-reveal-load.test.ts). A file of its own: the page must not have loaded
 * the module yet, and loaded here, it is the page's for the rest of it.
 */
import { expect } from 'chai';
import '../../../../src/elements/card-reveal/index.ts';
import { closeIdleConnections, failNextLoad } from '../../support/rig.ts';
import { part, shadow } from '../shared/helpers.ts';
import { REVEAL_REQUEST, failedLoads, mountBeforeRevealCode, useCardRig } from './helpers.ts';

describe('<card-reveal> when the connection of its reveal code drops', () => {
  useCardRig();

  it('loads it again at once, unseen, and shows the card', async () => {
    const el = await mountBeforeRevealCode();
    await closeIdleConnections();
    const failedBefore = await failedLoads(REVEAL_REQUEST);
    await failNextLoad(REVEAL_REQUEST, 1, true);
    try {
      const ended = new Promise<Event>((resolve) => {
        for (const name of ['card-revealed', 'card-reveal-error']) el.addEventListener(name, resolve, { once: true });
      });
      // A click with no pointer over the element or keyboard in it first: the load starts here.
      (part(el, 'reveal-button') as HTMLButtonElement).click();
      const event = (await ended) as CustomEvent;
      // The first load's connection did drop (not a load the browser's own resending saved).
      expect((await failedLoads(REVEAL_REQUEST)) - failedBefore).to.equal(1);
      expect([event.type, event.detail.code]).to.deep.equal(['card-revealed', undefined]);
      expect(shadow(el).querySelector('iframe'), 'the processor frame').to.not.equal(null);
      expect(part(el, 'error')?.textContent ?? '').to.equal('');
    } finally {
      await failNextLoad(REVEAL_REQUEST, 0);
    }
  });
});
