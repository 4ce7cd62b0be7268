/**
 * <card-reveal> when its on-demand modules (the reveal request, the step-up proof) fail to load: in
 * real Chromium, with the modules served by the test server, whose failures the rig makes real
 * (503). A file of its own: the page must not have loaded those modules yet, and a failed load
 * stays failed for the rest of this page in browsers that keep failed modules (Chromium, after an
 * error answer).
 */
import { expect } from 'chai';
import '../../../../src/elements/card-reveal/index.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import { browserLoadsFailedModulesAgain, failNextLoad, fixtures } from '../../support/rig.ts';
import { mount, nextEvent, part, text } from '../shared/helpers.ts';
import { REVEAL_REQUEST, failedLoads, mountBeforeRevealCode, requested, useCardRig } from './helpers.ts';

const STEP_UP = '/src/elements/card-reveal/step-up-proof.ts';

describe('<card-reveal> when its reveal code fails to load', () => {
  /** Whether this browser loads a module again after a failed load (not Chromium after a 5xx). */
  let retried: boolean;

  useCardRig();
  before(async () => {
    retried = await browserLoadsFailedModulesAgain();
  });

  it('a click whose reveal request module fails to load says to reload the page, and offers no "Try again" that cannot work', async () => {
    const el = await mountBeforeRevealCode();
    const failedBefore = await failedLoads(REVEAL_REQUEST);
    // More failures armed than loads asked for: the element asks for a failed load once more, at
    // once (a dropped connection recovers so, card-reveal-load-dropped.test.ts), which Chromium
    // answers without a request after a 5xx, and a browser that loads it again with one; no more.
    await failNextLoad(REVEAL_REQUEST, 5);
    try {
      // A click with no pointer over the element or keyboard in it first: the load starts here.
      const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
      (part(el, 'reveal-button') as HTMLButtonElement).click();
      const { detail } = await error;
      expect((await failedLoads(REVEAL_REQUEST)) - failedBefore).to.equal(retried ? 2 : 1);
      expect(detail.code).to.equal('load_failed');
      expect(detail).to.not.have.property('status');
      expect(text(el, 'error')).to.equal('Card details couldn’t load. Check your connection, then reload the page.');
      expect(detail.message).to.equal(text(el, 'error'));
      // Reloading is what works in every browser: no "Try again" beside it.
      expect(part(el, 'retry-button')).to.equal(null);
      expect(el.matches(':state(error)')).to.equal(true);
    } finally {
      await failNextLoad(REVEAL_REQUEST, 0);
    }
    if (!retried) {
      // Why: the test server serves the module again now, yet this page's import() of it still
      // fails (the browser does not ask the server again), so a "Try again" could never show the card.
      const again = await import(REVEAL_REQUEST).then(
        () => 'loaded',
        () => 'failed',
      );
      expect(again).to.equal('failed');
    }
  });

  it('why a reload and no "Try again": this browser does not load a module again after an error answer (Firefox nor after a dropped connection), and import() tells the two apart no further', async function () {
    // Chromium's and Firefox's module maps: a browser that loads a failed module again (WebKit) has no such case.
    if (retried) this.skip();
    const probe = '/test/browser/support/import-probe.ts';
    // Each URL of the probe is a module of its own; the test server fails loads of the path whatever the query.
    const loadTwice = async (url: string, dropped: boolean) => {
      // Enough failures armed for the browser's own retries of a dropped connection (over its reused ones).
      await failNextLoad(probe, 20, dropped);
      const first = await import(url).then(() => 'loaded', (e: unknown) => String(e));
      await failNextLoad(probe, 0);
      // The server now serves it.
      const second = await import(url).then(() => 'loaded', (e: unknown) => String(e));
      return [first, second];
    };
    // Each browser's own words, the same for both failures.
    const firefox = navigator.userAgent.includes('Firefox/');
    const failed = (url: string) => `TypeError: ${firefox ? 'error loading' : 'Failed to fetch'} dynamically imported module: ${new URL(url, location.href).href}`;
    // An answer of 5xx stays failed for the page: the second import() rejects without asking the server again.
    expect(await loadTwice(`${probe}?answered`, false)).to.deep.equal([failed(`${probe}?answered`), failed(`${probe}?answered`)]);
    // A connection that dropped is asked for again, and loads, in Chromium; Firefox (153) keeps it failed too.
    expect(await loadTwice(`${probe}?dropped`, true)).to.deep.equal([failed(`${probe}?dropped`), firefox ? failed(`${probe}?dropped`) : 'loaded']);
  });

  it('a failed load of the step-up proof (require-session) says the same', async () => {
    expect(requested(STEP_UP), 'loaded before the test').to.equal(false);
    const failedBefore = await failedLoads(STEP_UP);
    const el = await mount<CardReveal>('card-reveal', { 'card-id': (await fixtures()).cardId, 'require-session': '', 'account-id': 'InternalAccount:00000000-0000-4000-8000-000000000000' });
    await failNextLoad(STEP_UP, 5);
    try {
      const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
      el.show();
      expect((await error).detail.code).to.equal('load_failed');
      expect((await failedLoads(STEP_UP)) - failedBefore).to.equal(retried ? 2 : 1);
      expect(part(el, 'retry-button')).to.equal(null);
    } finally {
      await failNextLoad(STEP_UP, 0);
    }
  });
});
