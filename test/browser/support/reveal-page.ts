/**
 * A top-level page of the test origin with one <card-reveal> (`card-id`, `allowed-origins` from the
 * query; the proxy at /api), for `pageRoundTrip()` (wallet-rig.ts `page-round-trip`): the test page
 * itself cannot be left and come back to, and never enters the back/forward cache (the test
 * server's client, injected into it, listens for `unload`; see reveal-page.html). It reveals the card at once and puts on its window `report()`: the
 * element's card-* events so far, whether its shadow root holds an iframe, its state, and the
 * `persisted` of every pageshow (true: restored from the back/forward cache, not loaded again).
 */
import '../../../src/elements/card-reveal/index.ts';

const query = new URLSearchParams(location.search);
const el = document.createElement('card-reveal');
el.setAttribute('api-base', '/api');
el.setAttribute('card-id', query.get('card-id')!);
el.setAttribute('allowed-origins', query.get('allowed-origins')!);
const events: string[] = [];
for (const name of ['card-revealed', 'card-hidden', 'card-reveal-error']) el.addEventListener(name, (e) => events.push(`${e.type} ${JSON.stringify((e as CustomEvent).detail)}`));
const shows: boolean[] = [];
addEventListener('pageshow', (e) => shows.push(e.persisted));
document.body.append(el);
el.show();

Object.assign(window, {
  report: () => ({
    events,
    frame: !!el.shadowRoot!.querySelector('iframe'),
    state: ['idle', 'loading', 'revealed', 'expired', 'error'].find((s) => el.matches(`:state(${s})`)),
    shows,
  }),
});
