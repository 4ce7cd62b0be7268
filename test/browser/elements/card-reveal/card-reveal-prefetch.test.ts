/**
 * <card-reveal> loads its reveal request (./reveal-request.ts, an import() of its own) on the
 * cardholder's way to the button, not after the click: in real Chromium, with the module served by
 * the test server, whose failure the rig can make real (a 503). A file of its own: the page must
 * not have loaded that module yet.
 */
import { expect } from 'chai';
import '../../../../src/elements/card-reveal/index.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import { browserLoadsFailedModulesAgain, failNextLoad, fixtures, type RigFixtures } from '../../support/rig.ts';
import { mount, nextEvent, part, resetPage, text, useRig, waitFor } from '../shared/helpers.ts';

const MODULE = '/src/elements/card-reveal/reveal-request.ts';

/**
 * The page's loads of the reveal request's module so far (Resource Timing), with their statuses. A
 * failed load is asked for twice (the element asks once more at once), and Chromium reports the
 * second 503 too, though it keeps the first for the page and asks the server nothing (Firefox,
 * which keeps it too, reports the first alone).
 */
function moduleLoads(): number[] {
  return performance
    .getEntriesByType('resource')
    .filter((e) => new URL(e.name).pathname === MODULE)
    .map((e) => (e as PerformanceResourceTiming).responseStatus);
}

describe('<card-reveal> loads its reveal request ahead of the click', () => {
  let f: RigFixtures;

  before(async () => {
    f = await fixtures();
    await useRig();
  });

  afterEach(resetPage);

  it('a pointer over the element or the keyboard in it starts loading the module before any click; a failed load shows nothing, and the click asks for it again', async () => {
    expect(moduleLoads(), 'loaded before the test').to.deep.equal([]);
    const retried = await browserLoadsFailedModulesAgain();
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    const button = part(el, 'reveal-button') as HTMLButtonElement;
    const errors: string[] = [];
    el.addEventListener('card-reveal-error', (e) => errors.push(e.detail.code));
    // The test server's count of failed loads is over the whole run (other files fail this module too).
    const failedBefore = (await failNextLoad(MODULE)).failed;
    // Each time asked for, a failed load is asked for once more at once (a dropped connection recovers so).
    await failNextLoad(MODULE, retried ? 4 : 1);
    try {
      // A pointer moving over the card (a touch brings the same event): the load starts, and fails.
      part(el, 'face')!.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
      await waitFor(() => moduleLoads().length === (navigator.userAgent.includes('Firefox/') ? 1 : 2), 'the module load on pointerover', 5000);
      // The keyboard reaching the button: asked for again (and failed again where the browser loads it again).
      button.focus();
      // Where it loads it again, twice more (the element asks once more at once), however long that takes; then nothing more.
      if (retried) await waitFor(() => moduleLoads().length === 4, 'the module loads on focus', 5000);
      await new Promise((r) => setTimeout(r, 300));
      expect((await failNextLoad(MODULE)).failed - failedBefore).to.equal(retried ? 4 : 1);
      expect([el.matches(':state(idle)'), text(el, 'error'), errors]).to.deep.equal([true, '', []]);
    } finally {
      await failNextLoad(MODULE, 0);
    }
    const outcome = Promise.race([nextEvent<CustomEvent>(el, 'card-revealed'), nextEvent<CustomEvent>(el, 'card-reveal-error')]);
    button.click();
    const event = await outcome;
    if (retried) {
      // The click loads it once more, now served, and the card shows.
      expect(event.type, JSON.stringify(event.detail)).to.equal('card-revealed');
      // Where Resource Timing has no responseStatus (WebKit), the server's count above says which failed.
      const loads = moduleLoads();
      expect(loads.length).to.equal(5);
      if (loads[0] !== undefined) expect(loads).to.deep.equal([503, 503, 503, 503, 200]);
    } else {
      // A browser that keeps a failed module failed for the page: the click's own load would have
      // failed the same way; only then is an error shown, asking for a reload of the page (a "Try
      // again" could not work; card-reveal-load.test.ts).
      expect([event.type, (event.detail as { code: string }).code]).to.deep.equal(['card-reveal-error', 'load_failed']);
      expect(part(el, 'retry-button')).to.equal(null);
    }
  });
});
