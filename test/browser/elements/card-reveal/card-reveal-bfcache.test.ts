/**
 * <card-reveal> on a page left for another and come back to with the browser's Back, in real
 * Chromium with its back/forward cache (DESIGN.md "Security rules / The reveal URL": the iframe is
 * removed when the page is hidden). The page comes back from the cache as it was left, its scripts'
 * state included: what the element did at `pagehide` is all that keeps the card off the screen.
 * The test page cannot be the one left (the test server's client in it listens for `unload`, which
 * keeps a page out of the cache, and the run would not survive its leaving), so the
 * element is on a page of its own (support/reveal-page.html), which the rig opens, leaves and goes
 * back to (`pageRoundTrip`).
 */
import { expect } from 'chai';
import { fixtures, pageRoundTrip } from '../../support/rig.ts';

describe('<card-reveal> and the back/forward cache', () => {
  it('a card shown when the page is left is hidden (`page-hidden`), and not shown again when Back restores the page from the cache: no iframe, no frame left', async () => {
    const f = await fixtures();
    const query = new URLSearchParams({ 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    const { before, after, childFrames, notRestoredReasons, notUsed } = await pageRoundTrip(`/test/browser/support/reveal-page.html?${query}`);
    expect([before.state, before.frame, before.events.map((e) => e.split(' ')[0])]).to.deep.equal(['revealed', true, ['card-revealed']]);
    // Restored from the cache, not loaded again (a page loaded again would reveal anew).
    expect([after.shows, notRestoredReasons, notUsed]).to.deep.equal([[false, true], 'null', []]);
    expect(after.events.slice(1)).to.deep.equal(['card-hidden {"reason":"page-hidden"}']);
    expect([after.state, after.frame, childFrames]).to.deep.equal(['idle', false, 0]);
  });
});
