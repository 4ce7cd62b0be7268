/**
 * <card-reveal> in real Chromium against the real sandbox through the real proxy (api.md "POST
 * /cards/{id}/reveal"; DESIGN.md "Security rules / The reveal URL"): the iframe's attributes, the
 * sandbox's test card inside it, removal at expiry (a sandbox with a 3-second reveal lifetime), on
 * hide, after hide-after and on disconnect, a fresh URL per reveal, no trace of the URL anywhere
 * the page can read afterwards, refusal of non-https URLs, and what a cardholder reads for 403
 * (a proxy relaying with the impersonation pair), 404, 501 (a sandbox without a card issuer) and a
 * network failure. axe-core runs on each state; Arabic lays out right to left.
 */
import { expect } from 'chai';
import '../../../../src/elements/card-reveal/index.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import { setLocale } from '../../../../src/elements/shared/i18n.ts';
import { configureWallet } from '../../../../src/elements/shared/config.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { createClient } from '../../../../src/core/client.ts';
import '../../../../src/locales/ar.ts';
import { axLiveRegions, axNodes, fixtures, frameProbe, newAccount, pageFrames, sandboxVariant, type AXNode, type RigFixtures } from '../../support/rig.ts';
import { axeViolations, focusIn, holdAnswer, lowContrastText, mount, nextEvent, part, resetPage, shadow, text, useRig, waitFor } from '../shared/helpers.ts';

const UNKNOWN_CARD = 'Card:00000000-0000-4000-8000-000000000000';

async function poll<T>(check: () => Promise<T | undefined>, what: string, ms = 10000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function frameOf(el: Element): HTMLIFrameElement | null {
  return shadow(el).querySelector('iframe');
}

function click(el: Element, name: string): void {
  const button = part(el, name) as HTMLButtonElement | null;
  if (!button) throw new Error(`no ${name} in ${el.tagName}`);
  button.click();
}

/** Everything the page can read that might keep a URL: DOM (light and shadow), storage, IndexedDB. */
async function pageTraces(): Promise<string> {
  const chunks: string[] = [];
  const walk = (root: Document | ShadowRoot | Element) => {
    for (const node of root.querySelectorAll('*')) {
      for (const attr of node.attributes) chunks.push(attr.value);
      if (node.shadowRoot) {
        chunks.push(node.shadowRoot.innerHTML);
        walk(node.shadowRoot);
      }
    }
  };
  chunks.push(document.documentElement.outerHTML);
  walk(document);
  for (const storage of [localStorage, sessionStorage]) {
    for (let i = 0; i < storage.length; i++) chunks.push(String(storage.key(i)), String(storage.getItem(storage.key(i)!)));
  }
  chunks.push(document.cookie, location.href, String(history.state ?? ''));
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(info.name!);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    for (const name of db.objectStoreNames) {
      const all = await new Promise<unknown[]>((resolve, reject) => {
        const r = db.transaction(name).objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      chunks.push(JSON.stringify(all));
    }
    db.close();
  }
  return chunks.join('\n');
}

/** Every own property value of the element, as JSON where possible. */
function elementProperties(el: Element): string {
  const out: string[] = [];
  for (const key of Object.getOwnPropertyNames(el)) {
    const value = (el as unknown as Record<string, unknown>)[key];
    try {
      out.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    } catch {
      out.push(`${key}=<unserialisable>`);
    }
  }
  return out.join('\n');
}

/** Records console output and every card-* event detail for the duration of a test. */
function recorder(target: EventTarget) {
  const lines: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const originals = methods.map((m) => console[m]);
  methods.forEach((m, i) => {
    console[m] = (...args: unknown[]) => {
      lines.push(args.map((a) => (a instanceof Error ? `${a.message} ${String(a.cause ?? '')}` : String(a))).join(' '));
      (originals[i] as (...a: unknown[]) => void).apply(console, args);
    };
  });
  const events: string[] = [];
  const names = ['card-revealed', 'card-hidden', 'card-reveal-error'];
  const onEvent = (e: Event) => events.push(`${e.type} ${JSON.stringify((e as CustomEvent).detail)}`);
  for (const n of names) target.addEventListener(n, onEvent);
  return {
    lines,
    events,
    stop() {
      methods.forEach((m, i) => (console[m] = originals[i] as never));
      for (const n of names) target.removeEventListener(n, onEvent);
    },
  };
}

/**
 * Reveals and returns the URL's token, read from the reveal answer as it reaches the page (the URL
 * is on no attribute, and the processor page drops the token from its own address once loaded).
 */
async function reveal(el: CardReveal): Promise<{ detail: { cardId: string; expiresAt: string }; token: string; url: string }> {
  const original = window.fetch;
  let answer: Promise<string | undefined> | undefined;
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await original(...args);
    if (new Request(...args).url.endsWith('/reveal')) answer = response.clone().json().then((b: { panEmbedUrl?: string }) => b.panEmbedUrl);
    return response;
  };
  try {
    const revealed = nextEvent<CustomEvent>(el, 'card-revealed');
    click(el, 'reveal-button');
    const { detail } = await revealed;
    if (!frameOf(el)) throw new Error('no iframe after card-revealed');
    const url = await answer;
    const token = url && new URL(url).searchParams.get('token');
    if (!url || !token) throw new Error('the reveal URL carried no token');
    return { detail, token, url };
  } finally {
    window.fetch = original;
  }
}

describe('<card-reveal>', () => {
  let f: RigFixtures;

  before(async () => {
    f = await fixtures();
    await useRig();
  });

  afterEach(resetPage);

  it('renders the processor iframe with the required attributes, and the sandbox page shows the test card', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    expect(el.matches(':state(idle)')).to.equal(true);
    expect(frameOf(el)).to.equal(null);
    // Empty live regions take no room (and draw no box).
    expect(part(el, 'error')!.getBoundingClientRect().height).to.equal(0);
    expect(part(el, 'message')!.getBoundingClientRect().height).to.equal(0);
    expect(await axeViolations(el)).to.deep.equal([]);

    const { detail } = await reveal(el);
    expect(detail.cardId).to.equal(f.cardId);
    expect(Date.parse(detail.expiresAt)).to.be.greaterThan(Date.now());
    expect(Object.keys(detail).sort()).to.deep.equal(['cardId', 'expiresAt']);
    expect(el.matches(':state(revealed)')).to.equal(true);

    const frame = frameOf(el)!;
    expect(frame.getAttribute('sandbox')).to.equal('allow-scripts allow-same-origin');
    expect(frame.getAttribute('allow')).to.equal('clipboard-write');
    expect(frame.getAttribute('referrerpolicy')).to.equal('no-referrer');
    expect(frame.title.length).to.be.greaterThan(5);
    // The URL went to the frame by a link inside it: on no attribute.
    expect(frame.hasAttribute('src')).to.equal(false);

    // The sandbox's processor page really rendered the test card inside the frame.
    const found = await poll(async () => {
      const { frames } = await pageFrames();
      return frames.find((x) => x.origin === f.processorOrigin && /\d{4} \d{4} \d{4} \d{4}/.test(x.text));
    }, 'the test card inside the processor frame');
    expect(found.pathname).to.equal('/processor/card');
    expect(found.text).to.match(/Sandbox test card/i);
    expect(found.text).to.match(/CVV/);

    expect(text(el, 'countdown')).to.match(/\d+:\d\d/);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('the processor page is sandboxed, gets no referrer and adds no entry to the session history (Back would reload it): reveal after reveal', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    const entries = history.length;
    for (let i = 0; i < 2; i++) {
      await reveal(el);
      const { frames } = await poll(async () => {
        const probe = await frameProbe(f.processorOrigin);
        return probe.frames.some((x) => x.pathname === '/processor/card') ? probe : undefined;
      }, 'the processor page in the frame');
      // The sandbox is set once the frame is on the page: it must hold for the processor's document
      // all the same (no allow-modals: alert() opens no dialog there), and the link it was reached
      // by sent no Referer.
      expect(frames).to.deep.equal([{ pathname: '/processor/card', referrer: '', modal: false }]);
      // A frame navigated after it was put on the page adds a joint session history entry, unless
      // it leaves its first, blank document: "Back" would then load the bearer URL again.
      expect(history.length).to.equal(entries);
      click(el, 'hide-button');
      await el.updateComplete;
    }
  });

  it('its live regions are in the accessibility tree before they have anything to say, taking no room, so that the first message is announced', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    // A screen reader announces a change in a live region it already knows; one that appears with
    // its text ("Card details shown. They hide automatically.") is not announced.
    expect(await axLiveRegions()).to.deep.equal(['status', 'alert']);
    const panel = part(el, 'base')!.getBoundingClientRect().height;
    for (const name of ['message', 'error']) {
      const { width, height } = part(el, name)!.getBoundingClientRect();
      expect([name, width, height]).to.deep.equal([name, 0, 0]);
    }
    // Shown, then an error: the regions take their room, the panel grows.
    el.cardId = UNKNOWN_CARD;
    const error = nextEvent(el, 'card-reveal-error');
    el.show();
    await error;
    await el.updateComplete;
    expect(part(el, 'error')!.getBoundingClientRect().height).to.be.greaterThan(20);
    expect(part(el, 'base')!.getBoundingClientRect().height).to.be.greaterThan(panel);
  });

  it('two on a page: each card area is named by its label, so that a screen reader tells them apart', async () => {
    const page = document.createElement('div');
    document.body.append(page);
    const virtual = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, label: 'Virtual card' });
    const physical = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, label: 'Physical card' });
    page.append(virtual, physical);
    expect([part(virtual, 'base')!.getAttribute('aria-label'), part(physical, 'base')!.getAttribute('aria-label')]).to.deep.equal(['Virtual card', 'Physical card']);
    expect(await axeViolations(page)).to.deep.equal([]);
    // Without one, the area keeps its name in the element's language.
    physical.label = undefined;
    await physical.updateComplete;
    expect(part(physical, 'base')!.getAttribute('aria-label')).to.equal('Card details');
    page.remove();
  });

  it('a device clock 10 minutes ahead of the service still shows the card, for the view\'s whole lifetime', async () => {
    // Expiry is on the service's clock (its Date header, core/clock.ts): read on the device's clock,
    // every view would have expired ten minutes before it was opened.
    const v = await sandboxVariant({ revealLifetimeMs: 3000, clockOffsetMs: -10 * 60_000 });
    const el = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin });
    const hidden = nextEvent<CustomEvent>(el, 'card-hidden', 8000);
    const started = performance.now();
    const { detail } = await reveal(el);
    expect(Date.parse(detail.expiresAt)).to.be.below(Date.now() - 9 * 60_000);
    expect((await hidden).detail).to.deep.equal({ reason: 'expired' });
    expect(performance.now() - started).to.be.at.least(1500);
  });

  it('removes the iframe at expiresAt (3-second lifetime) and leaves no trace of the URL in DOM, storage, properties, console or events', async () => {
    const v = await sandboxVariant({ revealLifetimeMs: 3000 });
    const rec = recorder(document);
    // An analytics script's observer, there before the reveal: it must receive no entry with the URL.
    const observed: string[] = [];
    const observer = new PerformanceObserver((list) => observed.push(...list.getEntries().map((e) => e.name)));
    observer.observe({ type: 'resource', buffered: true });
    try {
      const el = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin });
      const hidden = nextEvent<CustomEvent>(el, 'card-hidden', 8000);
      const started = Date.now();
      const { detail, token } = await reveal(el);
      const took = Date.now() - started;
      // The service's 3 s from when it answered, some time between the click and the event (however
      // long a busy machine took), give or take the second its Date header rounds to.
      const lifetime = Date.parse(detail.expiresAt) - started;
      expect(lifetime, 'from the click').to.be.at.least(1000);
      expect(lifetime, `from the click, the reveal taking ${took} ms`).to.be.at.most(took + 3500);
      expect((await hidden).detail).to.deep.equal({ reason: 'expired' });
      // Removed at expiry, give or take the timer's latency.
      expect(Date.now()).to.be.at.least(Date.parse(detail.expiresAt) - 50);
      expect(frameOf(el)).to.equal(null);
      expect(el.matches(':state(expired)')).to.equal(true);
      expect(text(el, 'message')).to.match(/expired/i);
      expect(text(el, 'reveal-button')).to.match(/again/i);

      const traces = await pageTraces();
      expect(traces.includes(token), 'token in DOM or storage').to.equal(false);
      expect(traces.includes('/processor/card'), 'processor path in DOM or storage').to.equal(false);
      expect(elementProperties(el).includes(token), 'token in an element property').to.equal(false);
      expect(rec.lines.join('\n').includes(token), 'token in the console').to.equal(false);
      expect(rec.events.join('\n').includes(token), 'token in an event').to.equal(false);
      expect(rec.events.join('\n').includes('processor'), 'URL in an event').to.equal(false);
      expect(rec.events.map((e) => e.split(' ')[0])).to.deep.equal(['card-revealed', 'card-hidden']);
      // The Resource Timing buffer would keep the frame's URL for any analytics script to read.
      const timings = performance.getEntriesByType('resource').map((e) => e.name).join('\n');
      expect(timings.includes(token), 'token in the Resource Timing buffer').to.equal(false);
      expect(observed.join('\n').includes(token), 'token given to a PerformanceObserver').to.equal(false);
      expect(observed.some((name) => name.includes('/reveal')), 'the observer saw the page’s own requests').to.equal(true);
      expect(await axeViolations(el)).to.deep.equal([]);
    } finally {
      rec.stop();
      observer.disconnect();
    }
  });

  it('gives no performance entry of any type, buffered or observed, the reveal URL, while shown or after; an iframe given a src is reported', async () => {
    // Chromium reports an iframe's navigation started from its src to the parent's Resource Timing
    // (initiatorType `iframe`, name the whole URL), where monitoring scripts collect it; the reveal's
    // frame must never be. Observers of every type the browser has, registered before the reveal;
    // each entry whole (a long task's or animation frame's attribution carries URLs too).
    const seen: string[] = [];
    const observers = PerformanceObserver.supportedEntryTypes.map((type) => {
      const observer = new PerformanceObserver((list) => seen.push(...list.getEntries().map((e) => JSON.stringify(e))));
      observer.observe({ type, buffered: true });
      return observer;
    });
    const entries = () => [...seen, ...performance.getEntries().map((e) => JSON.stringify(e))].join('\n');
    const control = document.createElement('iframe');
    try {
      const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
      // The processor's page loaded in full (the timing of a frame is reported once it has).
      let loaded!: Promise<unknown>;
      el.addEventListener('card-revealed', () => (loaded = new Promise((r) => frameOf(el)!.addEventListener('load', r, { once: true }))), { once: true });
      const { url, token } = await reveal(el);
      await loaded;
      // A frame of the same origin given a src after it: once its entry has come, the reveal's would have too.
      control.src = `${f.processorOrigin}/processor/card.css?control=${crypto.randomUUID()}`;
      document.body.append(control);
      await waitFor(() => seen.some((e) => e.includes(`"name":"${control.src}"`)), 'the entry of the frame given a src');
      for (const [what, secret] of [['URL', url], ['token', token]] as const) expect(entries().includes(secret), `the reveal ${what} in a performance entry`).to.equal(false);
      click(el, 'hide-button');
      expect(frameOf(el)).to.equal(null);
      expect(entries().includes(token), 'the reveal token in a performance entry after hide').to.equal(false);
    } finally {
      control.remove();
      for (const observer of observers) observer.disconnect();
    }
  });

  it('asks for a fresh URL on every reveal, and "Hide" removes the iframe at once', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    const first = await reveal(el);
    const hidden = nextEvent<CustomEvent>(el, 'card-hidden');
    click(el, 'hide-button');
    expect((await hidden).detail).to.deep.equal({ reason: 'user' });
    expect(frameOf(el)).to.equal(null);
    expect(el.matches(':state(idle)')).to.equal(true);
    const second = await reveal(el);
    expect(second.token).to.not.equal(first.token);
  });

  it('hides after hide-after seconds when that is shorter than the URL lifetime', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin, 'hide-after': '1' });
    const hidden = nextEvent<CustomEvent>(el, 'card-hidden', 5000);
    // Counted from when the details are shown, as hide-after is: the reveal's own round trip is
    // no part of it (a slow network or machine would add it).
    let shownAt = NaN;
    el.addEventListener('card-revealed', () => (shownAt = performance.now()), { once: true });
    await reveal(el);
    expect((await hidden).detail).to.deep.equal({ reason: 'timeout' });
    expect(performance.now() - shownAt).to.be.within(900, 3000);
    expect(frameOf(el)).to.equal(null);
  });

  describe('settings changed while the card is shown', () => {
    /** The card-* events from now on, type and detail. */
    function events(el: Element): string[] {
      const seen: string[] = [];
      for (const name of ['card-revealed', 'card-hidden', 'card-reveal-error']) el.addEventListener(name, (e) => seen.push(`${e.type} ${JSON.stringify((e as CustomEvent).detail)}`));
      return seen;
    }

    it('allowed-origins no longer listing the frame\'s origin hides the card at once (`blocked`, then `insecure_url`), by attribute or by property; a list that still has it keeps it shown', async () => {
      const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
      await reveal(el);
      const seen = events(el);
      // Still listed, among others (attribute, then property as text): still shown.
      el.setAttribute('allowed-origins', `https://other.example ${f.processorOrigin}`);
      (el as unknown as { allowedOrigins: string }).allowedOrigins = `${f.processorOrigin}, http://127.0.0.2:9`;
      await el.updateComplete;
      expect([seen, el.matches(':state(revealed)'), !!frameOf(el)]).to.deep.equal([[], true, true]);
      // No longer listed: hidden in the same task, before any update.
      el.setAttribute('allowed-origins', 'http://127.0.0.2:9');
      expect(!!frameOf(el), 'the frame').to.equal(false);
      expect(seen).to.deep.equal(['card-hidden {"reason":"blocked"}', `card-reveal-error {"code":"insecure_url","message":"Card details not shown: the secure view didn’t come from a trusted address."}`]);
      await el.updateComplete;
      expect(el.matches(':state(error)')).to.equal(true);
      expect(text(el, 'error')).to.contain('didn’t come from a trusted address');

      // The property, emptied.
      const again = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
      await reveal(again);
      const seenAgain = events(again);
      again.allowedOrigins = [];
      expect([!!frameOf(again), seenAgain.map((e) => e.split(' ')[0])]).to.deep.equal([false, ['card-hidden', 'card-reveal-error']]);
    });

    it('hide-after set or shortened counts from when the card was shown: it hides at that deadline, or at once when it has passed', async () => {
      const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
      let shownAt = NaN;
      el.addEventListener('card-revealed', () => (shownAt = performance.now()), { once: true });
      await reveal(el);
      // Set a second after: counted from then, it would hide at 4 s or later, not at 3 (the bounds
      // leave a busy machine most of a second either way).
      await new Promise((r) => setTimeout(r, 1000));
      const hidden = nextEvent<CustomEvent>(el, 'card-hidden', 6000);
      el.setAttribute('hide-after', '3');
      await el.updateComplete;
      expect(text(el, 'countdown')).to.equal('Hides in 0:02');
      expect((await hidden).detail).to.deep.equal({ reason: 'timeout' });
      expect(performance.now() - shownAt).to.be.within(2900, 3900);
      expect(frameOf(el)).to.equal(null);

      // Already past: at once, in the same task (the property this time, shortened from 60).
      const again = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin, 'hide-after': '60' });
      await reveal(again);
      await new Promise((r) => setTimeout(r, 1200));
      const seen = events(again);
      again.hideAfter = 1;
      expect([!!frameOf(again), seen]).to.deep.equal([false, ['card-hidden {"reason":"timeout"}']]);
    });

    it('hide-after lengthened while shown extends the deadline, counted from when the card was shown', async () => {
      const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin, 'hide-after': '1' });
      let shownAt = NaN;
      const hidden = nextEvent<CustomEvent>(el, 'card-hidden', 8000);
      // Lengthened as soon as the card is shown, before its first second is out (reveal() returns a
      // moment later, late on a busy machine).
      el.addEventListener('card-revealed', () => ((shownAt = performance.now()), (el.hideAfter = 3)), { once: true });
      await reveal(el);
      await new Promise((r) => setTimeout(r, 1500));
      expect([el.matches(':state(revealed)'), !!frameOf(el)]).to.deep.equal([true, true]);
      expect((await hidden).detail).to.deep.equal({ reason: 'timeout' });
      // Lengthened, not left at the URL's lifetime (3 minutes): a late timer on a busy machine is no failure.
      expect(performance.now() - shownAt).to.be.within(2900, 6000);
      // Removed: the URL's own lifetime (3 minutes) is the deadline again.
      const again = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin, 'hide-after': '1' });
      again.addEventListener('card-revealed', () => again.removeAttribute('hide-after'), { once: true });
      await reveal(again);
      await again.updateComplete;
      // The service's clock is known to about half a second when it is off (core/clock.ts): 3:01 too.
      expect(text(again, 'countdown')).to.match(/^Hides in (3:01|3:00|2:59)$/);
      await new Promise((r) => setTimeout(r, 1500));
      expect(again.matches(':state(revealed)')).to.equal(true);
    });
  });

  it('keeps the card shown for a view whose lifetime is longer than one timer can wait (30 days, above 2^31-1 ms)', async () => {
    const v = await sandboxVariant({ revealLifetimeMs: 30 * 86_400_000 });
    const el = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin });
    let hidden: unknown;
    el.addEventListener('card-hidden', (e) => (hidden = (e as CustomEvent).detail));
    const { detail } = await reveal(el);
    expect(Date.parse(detail.expiresAt)).to.be.above(Date.now() + 29 * 86_400_000);
    // A deadline timer that overflowed would fire at once, the card hidden as expired.
    await new Promise((r) => setTimeout(r, 1500));
    expect(hidden).to.equal(undefined);
    expect(el.matches(':state(revealed)')).to.equal(true);
    expect(frameOf(el)).to.not.equal(null);
  });

  it('removes the iframe when the element is disconnected and when the page is left', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    await reveal(el);
    const frame = frameOf(el)!;
    el.remove();
    expect(frame.isConnected).to.equal(false);
    expect(frame.hasAttribute('src')).to.equal(false);
    expect(frameOf(el)).to.equal(null);

    const again = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    await reveal(again);
    const hidden = nextEvent<CustomEvent>(again, 'card-hidden');
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    expect((await hidden).detail).to.deep.equal({ reason: 'page-hidden' });
    expect(frameOf(again)).to.equal(null);
  });

  it('with hide-on-page-hide, show() while the page is hidden starts no reveal and shows nothing; once visible it reveals', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin, 'hide-on-page-hide': '' });
    const events: string[] = [];
    for (const name of ['card-revealed', 'card-hidden', 'card-reveal-error']) el.addEventListener(name, (e) => events.push(e.type));
    // The tab hidden as a browser reports it (the test page itself stays visible).
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    try {
      el.show();
      await new Promise((r) => setTimeout(r, 300));
      expect(el.matches(':state(idle)'), 'idle').to.equal(true);
      expect(frameOf(el)).to.equal(null);
      expect(events).to.deep.equal([]);
    } finally {
      delete (document as { visibilityState?: unknown }).visibilityState;
      delete (document as { hidden?: unknown }).hidden;
    }
    await reveal(el);
    expect(frameOf(el)).to.not.equal(null);
  });

  it('show() on an element not on the page asks for no reveal URL and announces nothing, whether it was on the page before or never', async () => {
    const removed = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    removed.remove();
    const never = document.createElement('card-reveal');
    never.cardId = f.cardId;
    never.allowedOrigins = [f.processorOrigin];
    const events: string[] = [];
    for (const el of [removed, never]) {
      for (const name of ['card-revealed', 'card-hidden', 'card-reveal-error']) el.addEventListener(name, (e) => events.push(`${el === never ? 'never' : 'removed'} ${e.type}`));
    }
    const original = window.fetch;
    let reveals = 0;
    window.fetch = (...args: Parameters<typeof fetch>) => {
      if (new Request(...args).url.endsWith('/reveal')) reveals++;
      return original(...args);
    };
    try {
      removed.show();
      never.show();
      // A reveal on the page, started after them, goes the whole way: a request of theirs would
      // have been made and answered by then.
      const onPage = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
      await reveal(onPage);
      await new Promise((r) => setTimeout(r, 300));
      expect(events).to.deep.equal([]);
      expect(reveals, 'reveal requests').to.equal(1);
    } finally {
      window.fetch = original;
    }
    expect(removed.matches(':state(idle)')).to.equal(true);
    expect(never.matches(':state(loading)')).to.equal(false);
    expect(frameOf(removed)).to.equal(null);

    // Back on the page, it reveals as before; another card takes the details away.
    document.body.append(removed);
    await reveal(removed);
    expect(frameOf(removed)!.isConnected).to.equal(true);
    const hidden = nextEvent<CustomEvent>(removed, 'card-hidden');
    removed.cardId = UNKNOWN_CARD;
    expect((await hidden).detail).to.deep.equal({ reason: 'card-changed' });
    expect(frameOf(removed)).to.equal(null);
  });

  describe('another card while a reveal is on its way', () => {
    /** The cards of the reveal requests the page sends, in order (the URL's path only). */
    function revealRequests(): { cards: string[]; undo: () => void } {
      const original = window.fetch;
      const cards: string[] = [];
      window.fetch = (...args: Parameters<typeof fetch>) => {
        const match = /\/cards\/([^/]+)\/reveal$/.exec(new Request(...args).url);
        if (match) cards.push(decodeURIComponent(match[1]!));
        return original(...args);
      };
      return { cards, undo: () => void (window.fetch = original) };
    }

    /** Records the element's card-* events as `type cardId-or-code`. */
    function eventsOf(el: CardReveal): string[] {
      const events: string[] = [];
      for (const name of ['card-revealed', 'card-hidden', 'card-reveal-error']) {
        el.addEventListener(name, (e) => {
          const { detail } = e as CustomEvent<{ cardId?: string; code?: string; reason?: string }>;
          events.push(`${name} ${detail.cardId ?? detail.code ?? detail.reason}`);
        });
      }
      return events;
    }

    it('the answer for the card before, arriving after card-id changed, is never shown: neither its view nor its error', async () => {
      const other = await newAccount();
      for (const [before, after] of [
        [f.cardId, other.cardId],
        [UNKNOWN_CARD, f.cardId],
      ] as const) {
        const el = await mount<CardReveal>('card-reveal', { 'card-id': before, 'allowed-origins': f.processorOrigin });
        const events = eventsOf(el);
        const held = holdAnswer('POST', /\/reveal$/);
        try {
          click(el, 'reveal-button');
          await held.arrived;
          el.cardId = after;
          held.release();
          await held.read;
          await new Promise((r) => setTimeout(r, 200));
        } finally {
          held.undo();
        }
        await el.updateComplete;
        expect([events, frameOf(el), el.matches(':state(idle)'), text(el, 'error')]).to.deep.equal([[], null, true, '']);
        el.remove();
      }
    });

    it('card-id changed and show() at once reveal the new card, whether the card before was idle or on its way', async () => {
      const other = await newAccount();
      const requests = revealRequests();
      try {
        const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
        const events = eventsOf(el);
        let revealed = nextEvent<CustomEvent>(el, 'card-revealed');
        el.cardId = other.cardId;
        el.show();
        expect((await revealed).detail.cardId).to.equal(other.cardId);
        expect(requests.cards).to.deep.equal([other.cardId]);
        expect(frameOf(el)).to.not.equal(null);
        el.hide();

        // The reveal of the first card is on its way when another is selected and shown.
        const held = holdAnswer('POST', /\/reveal$/);
        try {
          el.cardId = f.cardId;
          await el.updateComplete;
          click(el, 'reveal-button');
          await held.arrived;
          revealed = nextEvent<CustomEvent>(el, 'card-revealed');
          el.cardId = other.cardId;
          el.show();
          held.release();
          expect((await revealed).detail.cardId).to.equal(other.cardId);
        } finally {
          held.undo();
        }
        expect(requests.cards).to.deep.equal([other.cardId, f.cardId, other.cardId]);
        expect(events).to.deep.equal([`card-revealed ${other.cardId}`, 'card-hidden user', `card-revealed ${other.cardId}`]);
      } finally {
        requests.undo();
      }
    });
  });

  it('properties set before the element is on the page work as when set after: states, attributes, and a click', async () => {
    const el = document.createElement('card-reveal');
    expect(el.matches(':state(idle)'), ':state(idle) before the element is on the page').to.equal(true);
    Object.assign(el, { cardId: f.cardId, allowedOrigins: [f.processorOrigin], hideAfter: 60, theme: 'dark' });
    document.body.append(el);
    await el.updateComplete;
    expect([el.getAttribute('card-id'), el.getAttribute('theme'), el.matches(':state(idle)'), text(el, 'reveal-button')]).to.deep.equal([f.cardId, 'dark', true, 'Show card details']);
    const { detail } = await reveal(el);
    expect(detail.cardId).to.equal(f.cardId);
    expect(text(el, 'countdown')).to.match(/^Hides in (1:00|0:[0-5]\d)$/);
  });

  it('a lang that is no language tag ("x", "en--US") reveals the card and counts down in English digits, as does a language with no strings registered (Persian, whose digits differ)', async () => {
    for (const lang of ['x', 'en--US', 'fa']) {
      const el = await mount<CardReveal>('card-reveal', { lang, 'card-id': f.cardId, 'allowed-origins': f.processorOrigin, 'hide-after': '60' });
      await reveal(el);
      await el.updateComplete;
      expect(part(el, 'base')!.lang, lang).to.equal('en');
      expect(text(el, 'countdown'), lang).to.match(/^Hides in (1:00|0:[0-5]\d)$/);
      el.remove();
    }
  });

  it('adds no attribute of its own to the host (a server-rendered page stays as written): direction and language go on its wrapper, a `dir` the page gives the host wins, and card-id is reflected once set', async () => {
    const el = await mount<CardReveal>('card-reveal', { lang: 'ar' });
    expect(el.getAttributeNames()).to.deep.equal(['lang']);
    expect([part(el, 'base')!.getAttribute('dir'), getComputedStyle(part(el, 'controls')!).direction]).to.deep.equal(['rtl', 'rtl']);
    el.cardId = f.cardId;
    await el.updateComplete;
    expect(el.getAttribute('card-id')).to.equal(f.cardId);
    // Removing the attribute puts the property back to its default: no card.
    el.removeAttribute('card-id');
    await el.updateComplete;
    expect([el.cardId, el.hasAttribute('card-id'), part(el, 'reveal-button')]).to.deep.equal(['', false, null]);
    const chosen = await mount<CardReveal>('card-reveal', { lang: 'ar', dir: 'ltr' });
    expect([part(chosen, 'base')!.hasAttribute('dir'), getComputedStyle(part(chosen, 'controls')!).direction]).to.deep.equal([false, 'ltr']);
  });

  it('names on its wrapper the language its text is in: a page language with no strings registered reads English, marked English and laid out left to right', async () => {
    const of = (el: CardReveal) => [part(el, 'base')!.lang, part(el, 'base')!.dir, text(el, 'reveal-button')];
    const hebrew = await mount<CardReveal>('card-reveal', { lang: 'he', 'card-id': f.cardId });
    const french = await mount<CardReveal>('card-reveal', { lang: 'fr-CA', 'card-id': f.cardId });
    const arabic = await mount<CardReveal>('card-reveal', { lang: 'ar-SA', 'card-id': f.cardId });
    expect([of(hebrew), of(french), of(arabic)]).to.deep.equal([
      ['en', 'ltr', 'Show card details'],
      ['en', 'ltr', 'Show card details'],
      ['ar-sa', 'rtl', text(arabic, 'reveal-button')],
    ]);
    expect(text(arabic, 'reveal-button')).to.not.equal('Show card details');
  });

  it('a `dir` the page gives the host after the element drew takes effect at once, and removing it gives the language\'s direction back', async () => {
    const el = await mount<CardReveal>('card-reveal', { lang: 'ar' });
    const direction = () => [part(el, 'base')!.getAttribute('dir'), getComputedStyle(part(el, 'controls')!).direction];
    expect(direction()).to.deep.equal(['rtl', 'rtl']);
    // Nothing else changes on the element: only the attribute can bring the wrapper to follow it.
    el.setAttribute('dir', 'ltr');
    await waitFor(() => direction()[1] === 'ltr', 'the page\'s direction', 1000);
    expect(direction()).to.deep.equal([null, 'ltr']);
    el.removeAttribute('dir');
    await waitFor(() => direction()[1] === 'rtl', 'the language\'s direction again', 1000);
    expect(direction()).to.deep.equal(['rtl', 'rtl']);
  });

  it('properties set before the definition upgraded the element are read as soon as it is on the page: show() at once reveals', async () => {
    // An element the page made before the element's module ran (here in a document without one, so
    // it stays a plain element until it joins this page and the definition upgrades it).
    const early = document.implementation.createHTMLDocument('').createElement('card-reveal') as CardReveal;
    Object.assign(early, { cardId: f.cardId, allowedOrigins: [f.processorOrigin] });
    document.body.append(early);
    expect(customElements.get('card-reveal') && early instanceof customElements.get('card-reveal')!).to.equal(true);
    expect([early.cardId, early.matches(':state(idle)')]).to.deep.equal([f.cardId, true]);
    const revealed = nextEvent<CustomEvent>(early, 'card-revealed');
    early.show();
    expect((await revealed).detail.cardId).to.equal(f.cardId);
    expect(frameOf(early)).to.not.equal(null);
  });

  it('refuses a URL that is not https on an origin the page did not allow-list, without ever creating an iframe', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId });
    const created: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) created.push(n.nodeName);
    });
    observer.observe(shadow(el), { childList: true, subtree: true });
    const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
    click(el, 'reveal-button');
    const { detail } = await error;
    observer.disconnect();
    expect(detail.code).to.equal('insecure_url');
    expect(JSON.stringify(detail)).to.not.match(/processor|token|http/);
    expect(created).to.not.include('IFRAME');
    expect(el.matches(':state(error)')).to.equal(true);
    expect(text(el, 'error')).to.match(/trusted address/);
  });

  describe('errors in words', () => {
    async function failWith(attributes: Record<string, string>): Promise<{ el: CardReveal; detail: { code: string; message: string; status?: number } }> {
      const el = await mount<CardReveal>('card-reveal', attributes);
      const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
      click(el, 'reveal-button');
      const { detail } = await error;
      expect(frameOf(el)).to.equal(null);
      expect(el.matches(':state(error)')).to.equal(true);
      expect(part(el, 'error')?.querySelector('p')?.textContent).to.equal(detail.message);
      return { el, detail };
    }

    it('403 (a proxy relaying with the impersonation pair): "can\'t be shown to this account", no retry', async () => {
      const v = await sandboxVariant({ credentials: 'impersonation' });
      const { el, detail } = await failWith({ 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin });
      expect(detail).to.include({ code: 'forbidden', status: 403 });
      expect(detail.message).to.match(/can’t be shown to this account/);
      expect(part(el, 'retry-button')).to.equal(null);
      expect(await axeViolations(el)).to.deep.equal([]);
    });

    it('404: the card is unknown', async () => {
      const { detail } = await failWith({ 'card-id': UNKNOWN_CARD, 'allowed-origins': f.processorOrigin });
      expect(detail).to.include({ code: 'not_found', status: 404 });
      expect(detail.message).to.match(/couldn’t find this card/);
    });

    it('501 (a sandbox without a card issuer): "not available in this environment"', async () => {
      const v = await sandboxVariant({ cardIssuer: false });
      const { el, detail } = await failWith({ 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin });
      expect(detail).to.include({ code: 'not_available', status: 501 });
      expect(detail.message).to.match(/aren’t available in this environment/);
      expect(part(el, 'retry-button')).to.equal(null);
    });

    it('another card-id takes away what was said about the card before: its error, or its expiry', async () => {
      const { el } = await failWith({ 'card-id': UNKNOWN_CARD, 'allowed-origins': f.processorOrigin });
      el.cardId = f.cardId;
      await el.updateComplete;
      expect([el.matches(':state(idle)'), text(el, 'error'), text(el, 'message'), text(el, 'controls')]).to.deep.equal([true, '', '', 'Show card details']);
      // Expired on one card, then another is selected: nothing says that card's view expired.
      const v = await sandboxVariant({ revealLifetimeMs: 1000 });
      Object.assign(el, { apiBase: v.apiBase, allowedOrigins: [v.processorOrigin], cardId: v.cardId });
      await el.updateComplete;
      const hidden = nextEvent<CustomEvent>(el, 'card-hidden', 5000);
      await reveal(el);
      expect((await hidden).detail).to.deep.equal({ reason: 'expired' });
      el.cardId = UNKNOWN_CARD;
      await el.updateComplete;
      expect([el.matches(':state(idle)'), text(el, 'message'), text(el, 'controls')]).to.deep.equal([true, '', 'Show card details']);
    });

    it('an api-base where no proxy is mounted (the page’s own 404, or its HTML page with 200) is a setup problem, not an unknown card; the console is told once', async () => {
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
      try {
        const { el, detail } = await failWith({ 'card-id': f.cardId, 'api-base': '/not-the-proxy', 'allowed-origins': f.processorOrigin });
        expect(detail).to.deep.equal({ code: 'misconfigured', message: 'A setup problem on our side stops card details from showing. Contact support.' });
        expect(part(el, 'retry-button')).to.equal(null);
        // The test page's server answers any request for "/" with its HTML page, as an app's fallback route does.
        const { detail: again } = await failWith({ 'card-id': f.cardId, 'api-base': '/?path=' });
        expect(again.code).to.equal('misconfigured');
        expect(warnings.filter((w) => !w.includes('Lit is in dev mode'))).to.have.length(1);
        expect(warnings.find((w) => w.includes('/not-the-proxy'))).to.match(/proxy is not at \/not-the-proxy \(apiBase\): POST \/cards\/Card:[\w-]+\/reveal .*404 /);
      } finally {
        console.warn = warn;
      }
    });

    it('a network failure offers "Try again", which asks again', async () => {
      // A proxy on another origin that is down: the page's script names it (an api-base alone is not followed there).
      configureWallet({ apiBase: 'http://127.0.0.1:9/api' });
      const { el, detail } = await failWith({ 'card-id': f.cardId });
      configureWallet({ apiBase: f.apiBase });
      expect(detail.code).to.equal('network');
      expect(detail.message).to.match(/couldn’t reach the server/);
      const retry = part(el, 'retry-button') as HTMLButtonElement;
      expect(retry).to.not.equal(null);
      // Retry against a reachable proxy now.
      el.apiBase = f.apiBase;
      el.allowedOrigins = [f.processorOrigin];
      const revealed = nextEvent(el, 'card-revealed');
      retry.click();
      await revealed;
      expect(frameOf(el)).to.not.equal(null);
    });
  });

  it('require-session: refused until the wallet session is proven by a refresh, which the proxy turns into an HttpOnly grant', async () => {
    const v = await sandboxVariant({ stepUp: true });
    const attrs = { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin, 'account-id': v.accountId };

    // Without the attribute, the step-up proxy refuses the reveal outright.
    const plain = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin });
    let error = nextEvent<CustomEvent>(plain, 'card-reveal-error');
    click(plain, 'reveal-button');
    expect((await error).detail).to.include({ code: 'session_required', status: 403 });
    plain.remove();

    // With it, but not logged in: the proof cannot be made; the cardholder is told to log in.
    const el = await mount<CardReveal>('card-reveal', { ...attrs, 'require-session': '' });
    error = nextEvent<CustomEvent>(el, 'card-reveal-error');
    click(el, 'reveal-button');
    const { detail } = await error;
    expect(detail.code).to.equal('session_required');
    expect(detail.message).to.match(/^Log in to your wallet first/);

    // Logged in: "Try again" refreshes the session (a signed retry), then the reveal passes.
    const wallet = walletFor(v.apiBase);
    const login = await wallet.startOtpLogin({ credentialId: v.emailCredentialId });
    const before = await login.submit('000000');
    const revealed = nextEvent(el, 'card-revealed');
    (part(el, 'retry-button') as HTMLButtonElement).click();
    await revealed;
    expect(frameOf(el)).to.not.equal(null);
    const after = await wallet.current(v.accountId);
    expect(after?.sessionId).to.not.equal(before.sessionId);
    // The grant is HttpOnly: no page script can read it.
    expect(document.cookie).to.not.match(/wallet_step_up/);

    // Details shown on the strength of the session hide when it ends: a logout in another tab (a
    // second channel object stands in for it; another account's logout changes nothing) ...
    const otherTab = new BroadcastChannel('wallet-elements-session');
    otherTab.postMessage({ type: 'logged-out', accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' });
    await new Promise((r) => setTimeout(r, 100));
    expect(frameOf(el)).to.not.equal(null);
    let hidden = nextEvent<CustomEvent>(el, 'card-hidden');
    otherTab.postMessage({ type: 'logged-out', accountId: v.accountId });
    expect((await hidden).detail).to.deep.equal({ reason: 'logged-out' });
    otherTab.close();
    expect(frameOf(el)).to.equal(null);
    expect(part(el, 'message')?.textContent).to.equal('Card details hidden: you logged out.');
    // ... the session found ended (expired) in another tab ...
    const reveal = async () => {
      const shown = Promise.race([nextEvent<CustomEvent>(el, 'card-revealed'), nextEvent<CustomEvent>(el, 'card-reveal-error')]);
      click(el, 'reveal-button');
      const event = await shown;
      expect(event.type, JSON.stringify(event.detail)).to.equal('card-revealed');
      expect(frameOf(el)).to.not.equal(null);
    };
    await reveal();
    const endedTab = new BroadcastChannel('wallet-elements-session');
    hidden = nextEvent<CustomEvent>(el, 'card-hidden');
    endedTab.postMessage({ type: 'ended', accountId: v.accountId });
    expect((await hidden).detail).to.deep.equal({ reason: 'logged-out' });
    endedTab.close();
    expect(frameOf(el)).to.equal(null);
    // ... account-id switched to another wallet (the proof was of the first one's session) ...
    await reveal();
    hidden = nextEvent<CustomEvent>(el, 'card-hidden');
    el.accountId = 'InternalAccount:00000000-0000-4000-8000-000000000000';
    expect((await hidden).detail).to.deep.equal({ reason: 'account-changed' });
    expect(frameOf(el)).to.equal(null);
    await el.updateComplete;
    expect(part(el, 'message')?.textContent).to.equal('Card details hidden: another wallet was selected.');
    el.accountId = v.accountId;
    await el.updateComplete;
    // ... and a logout in this page.
    const again = nextEvent(el, 'card-revealed');
    click(el, 'reveal-button');
    await again;
    hidden = nextEvent<CustomEvent>(el, 'card-hidden');
    await wallet.logout(v.accountId);
    expect((await hidden).detail).to.deep.equal({ reason: 'logged-out' });
    expect(frameOf(el)).to.equal(null);
  });

  it('require-session with the proxy on another origin of the site (allowedOrigins): the proof made there opens the reveal', async () => {
    const v = await sandboxVariant({ stepUp: true, pageOrigin: location.origin });
    expect(new URL(v.apiBase).origin).to.not.equal(location.origin);
    // The page's script names the proxy there, as a page whose proxy is on another origin does.
    configureWallet({ apiBase: v.apiBase });
    const wallet = walletFor(v.apiBase);
    await (await wallet.startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    const el = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin, 'account-id': v.accountId, 'require-session': '' });
    const outcome = Promise.race([nextEvent<CustomEvent>(el, 'card-revealed'), nextEvent<CustomEvent>(el, 'card-reveal-error')]);
    click(el, 'reveal-button');
    const event = await outcome;
    configureWallet({ apiBase: f.apiBase });
    expect(event.type, JSON.stringify(event.detail)).to.equal('card-revealed');
    expect(frameOf(el)).to.not.equal(null);
    await wallet.logout(v.accountId).catch(() => undefined);
  });

  it('require-session: a session this device still holds but the service ended asks the cardholder to log in again', async () => {
    const v = await sandboxVariant({ stepUp: true });
    const wallet = walletFor(v.apiBase);
    const login = await wallet.startOtpLogin({ credentialId: v.emailCredentialId });
    const session = await login.submit('000000');
    // Another device revokes this session upstream; this browser still holds its key and record.
    await createClient({ baseUrl: v.apiBase }).revokeSession(session.sessionId, { stamper: await wallet.stamper(v.accountId) });
    expect((await wallet.current(v.accountId))?.sessionId).to.equal(session.sessionId);

    const el = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin, 'account-id': v.accountId, 'require-session': '' });
    const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
    click(el, 'reveal-button');
    const { detail } = await error;
    expect(detail.code).to.equal('session_required');
    expect(detail.message).to.match(/^Log in to your wallet first/);
    expect(frameOf(el)).to.equal(null);
    await wallet.logout(v.accountId).catch(() => undefined);
  });

  it('keyboard: Enter on the button reveals, focus moves to "Hide", then back to the button', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    const button = part(el, 'reveal-button') as HTMLButtonElement;
    button.focus();
    expect(shadow(el).activeElement === button, `focus on the reveal button, not ${focusIn(el)}`).to.equal(true);
    const revealed = nextEvent(el, 'card-revealed');
    button.click();
    await revealed;
    await el.updateComplete;
    expect(shadow(el).activeElement === part(el, 'hide-button'), `focus on "Hide", not ${focusIn(el)}`).to.equal(true);
    const hidden = nextEvent(el, 'card-hidden');
    (part(el, 'hide-button') as HTMLButtonElement).click();
    await hidden;
    await el.updateComplete;
    expect(shadow(el).activeElement === part(el, 'reveal-button'), `focus back on the reveal button, not ${focusIn(el)}`).to.equal(true);
  });

  it('keyboard inside the card frame when the details hide by themselves: focus goes to the button, not the page', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin, 'hide-after': '1' });
    await reveal(el);
    frameOf(el)!.focus();
    expect(shadow(el).activeElement === frameOf(el), `focus in the card frame, not ${focusIn(el)}`).to.equal(true);
    const hidden = nextEvent<CustomEvent>(el, 'card-hidden', 5000);
    expect((await hidden).detail).to.deep.equal({ reason: 'timeout' });
    await el.updateComplete;
    expect(shadow(el).activeElement === part(el, 'reveal-button'), `focus on ${document.activeElement?.tagName}`).to.equal(true);
  });

  it('says "shown" and "hidden" in a polite status region that is in the accessibility tree, empty, before it speaks', async () => {
    // Assistive technology reads out changes in the live regions it already knows; one that enters
    // the tree together with its first message is not reliably read (the "shown" notice was lost).
    const politeRegions = (nodes: AXNode[]) => nodes.filter((n) => n.role === 'status' && n.properties['live'] === 'polite');
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    expect(politeRegions(await axNodes()), 'a polite status region while nothing has been said').to.have.length(1);
    await reveal(el);
    await el.updateComplete;
    expect(text(el, 'message')).to.equal('Card details shown. They hide automatically.');
    expect(politeRegions(await axNodes())).to.have.length(1);
    (part(el, 'hide-button') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(text(el, 'message')).to.equal('Card details hidden.');
  });

  it('the placeholder card face keeps its text at 4.5:1 or more over every colour of its gradient, in light and dark, left to right and right to left', async () => {
    for (const theme of ['light', 'dark']) {
      for (const lang of ['en', 'ar']) {
        const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, theme, lang });
        expect(lowContrastText(el), `${theme}, ${lang}`).to.deep.equal([]);
        el.remove();
      }
    }
  });

  it('the masked card number stays on one line, whole and left to right, from a 320 px page to the widest card, in English and Arabic, at 100 % and 200 % text size', async () => {
    // 272 px: the element in a 320 CSS px wide page with margins (WCAG 1.4.10, 400 % zoom); 312 px:
    // a 360 px phone; 380 px: the default widest. 30px: the shared text size (15px) doubled, as a
    // browser's text-only zoom does (WCAG 1.4.4).
    for (const lang of ['en', 'ar']) {
      const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, lang });
      const number = shadow(el).querySelector('code.number')!;
      const face = part(el, 'face')!;
      for (const width of [272, 312, 380]) {
        for (const textSize of ['15px', '30px']) {
          el.style.inlineSize = `${width}px`;
          el.style.setProperty('--wallet-font-size', textSize);
          const where = `${lang}, ${width}px, text ${textSize}`;
          const range = document.createRange();
          range.selectNodeContents(number);
          const glyphs = [...range.getClientRects()];
          const lines = new Set(glyphs.map((r) => Math.round(r.top)));
          expect(lines.size, `lines of the number, ${where}`).to.equal(1);
          // Whole: inside the face, which clips what overflows it.
          const box = face.getBoundingClientRect();
          for (const r of glyphs) {
            expect(r.left >= box.left && r.right <= box.right && r.bottom <= box.bottom, `inside the face, ${where}`).to.equal(true);
          }
          expect(getComputedStyle(number).direction, where).to.equal('ltr');
        }
      }
      el.remove();
    }
  });

  it('speaks Arabic right to left, with the strings shipped, on a page whose <html lang> is English', async () => {
    // A valid page names its language; setLocale still decides the elements' own.
    const root = document.documentElement;
    const pageLang = root.getAttribute('lang');
    root.lang = 'en';
    try {
      setLocale('ar');
      const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
      // The direction is the wrapper's: the host keeps only the page's attributes.
      expect([part(el, 'base')!.getAttribute('dir'), el.hasAttribute('dir')]).to.deep.equal(['rtl', false]);
      expect(text(el, 'reveal-button')).to.equal('إظهار تفاصيل البطاقة');
      const base = part(el, 'controls')!;
      expect(getComputedStyle(base).direction).to.equal('rtl');
      // Screen readers read the element in its language (WCAG 3.1.2), not the page's.
      expect(part(el, 'base')!.getAttribute('lang')).to.equal('ar');
      expect(el.hasAttribute('lang')).to.equal(false);
      await reveal(el);
      expect(text(el, 'hide-button')).to.equal('إخفاء');
      expect(frameOf(el)!.title).to.equal('رقم البطاقة وتاريخ انتهائها ورمز الأمان');
      expect(await axeViolations(el)).to.deep.equal([]);
      // The language changed while shown: the frame's title follows, with everything else.
      setLocale('en');
      await el.updateComplete;
      expect(frameOf(el)!.title).to.equal('Card number, expiry date and security code');
      expect(part(el, 'base')!.getAttribute('lang')).to.equal('en');
      // An element's own lang (or an ancestor's below the root) still wins over setLocale.
      const own = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, lang: 'ar' });
      expect(text(own, 'reveal-button')).to.equal('إظهار تفاصيل البطاقة');
    } finally {
      if (pageLang === null) root.removeAttribute('lang');
      else root.setAttribute('lang', pageLang);
    }
  });
});
