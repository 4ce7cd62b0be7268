/**
 * <card-reveal> asked to reveal while the browser is offline (Playwright's offline emulation:
 * navigator.onLine false, every request of the page fails), before its on-demand reveal code has
 * loaded. A file of its own: the page must not have loaded that module yet, and a failed load of it
 * would stay failed for the rest of this page in Chromium.
 */
import { expect } from 'chai';
import '../../../../src/elements/card-reveal/index.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import { fixtures, goOffline } from '../../support/rig.ts';
import { mount, nextEvent, part, shadow, text } from '../shared/helpers.ts';
import { REVEAL_REQUEST, mountBeforeRevealCode, requested, useCardRig } from './helpers.ts';

describe('<card-reveal> offline', () => {
  useCardRig();

  it('says to check the connection and try again, and "Try again" shows the card once back online, with no reload', async () => {
    const el = await mountBeforeRevealCode();
    // Long enough for what is checked offline, which asks nothing of the network or the rig.
    const offline = await goOffline(1500);
    // The cardholder's way to the button (the pointer over it), then the click.
    const button = part(el, 'reveal-button')!;
    button.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
    const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
    (button as HTMLButtonElement).click();
    const { detail } = await error;
    expect(detail.code).to.equal('network');
    expect(detail.message).to.equal('We couldn’t reach the server. Check your connection and try again.');
    const retry = part(el, 'retry-button') as HTMLButtonElement | null;
    expect(retry, 'a "Try again" button').to.not.equal(null);
    expect(text(el, 'error')).to.equal(`${detail.message}Try again`);

    await offline.online();
    const revealed = nextEvent<CustomEvent>(el, 'card-revealed');
    retry!.click();
    expect((await revealed).detail.cardId).to.equal((await fixtures()).cardId);
    expect(shadow(el).querySelector('iframe')).to.not.equal(null);
    expect(el.matches(':state(revealed)')).to.equal(true);
    expect(requested(REVEAL_REQUEST)).to.equal(true);
  });
  it('once its reveal code is loaded, reveals where the browser says it is offline but the proxy is still reached (loopback, a local network)', async () => {
    const f = await fixtures();
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    let revealed = nextEvent<CustomEvent>(el, 'card-revealed');
    (part(el, 'reveal-button') as HTMLButtonElement).click();
    await revealed;
    const hidden = nextEvent(el, 'card-hidden');
    (part(el, 'hide-button') as HTMLButtonElement).click();
    await hidden;
    // What the browser reports of the network, not the network: requests to the proxy still go through.
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      revealed = nextEvent<CustomEvent>(el, 'card-revealed');
      const error = nextEvent<CustomEvent>(el, 'card-reveal-error').then((e) => e.detail.code);
      (part(el, 'reveal-button') as HTMLButtonElement).click();
      expect(await Promise.race([revealed.then(() => 'revealed'), error])).to.equal('revealed');
    } finally {
      delete (navigator as { onLine?: boolean }).onLine;
    }
    expect(navigator.onLine).to.equal(true);
  });
});
