/**
 * `loaded`: how every element asks for its on-demand code (import()), and `LoadFailed`, what it
 * rejects with when that code did not arrive. No imports: `<card-reveal>`'s up-front bundle has it.
 */

/** An on-demand module that did not load (`load_failed`), or was not asked for offline (`network`; see `loaded`). */
export class LoadFailed extends Error {
  constructor(readonly code: 'load_failed' | 'network') {
    super();
  }
}

/** The code an element reports for what its on-demand code's load rejected with: LoadFailed's own, or `network`. */
export const loadFailureCode = (e: unknown): LoadFailed['code'] => (e instanceof LoadFailed ? e.code : 'network');

/**
 * An on-demand module (import()). A failed load is asked for once more at once, unseen: Chromium
 * (156) loads a module whose connection dropped again, so a dropped load recovers with nothing
 * asked of the user. A second failure rejects with `load_failed`, which asks for a reload of the
 * page rather than offering "Try again": Chromium keeps a module whose load was answered with an
 * error status (a 5xx) failed for the page (the second import() rejects without a request; Firefox
 * 153 too, and after a dropped connection, which it resends itself first; Safari loads it again,
 * whatwg/html#10327), a module whose evaluation threw stays failed in every browser, and import()
 * rejects all of these alike with a TypeError, so a "Try again" could not tell whether it can work
 * (card-reveal-load.test.ts shows both). The next call asks again all the same (a browser that loads
 * failed modules again may get it).
 * So it is not asked for while the browser knows it is offline, where the load could only fail: it
 * rejects with `network` instead ("Check your connection and try again"), and a "Try again" loads
 * the module once the connection is back, in every browser, with no reload.
 */
export const loaded = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  // Once loaded, a module is the page's: what the browser says of the network no longer matters
  // (its `onLine` can be false where the proxy is still reached, on loopback or a local network).
  let module: Promise<T> | undefined;
  return () =>
    module ??
    (navigator.onLine
      ? (module = load().catch(load).catch(() => {
          module = undefined;
          // What failed is not kept: the element reports `load_failed` alone (a file that did not
          // arrive is in the browser's console and network panel).
          throw new LoadFailed('load_failed');
        }))
      : Promise.reject(new LoadFailed('network')));
};

/** Per owner (an element): the checks left that may run again soon after coming back online, and its wait. */
const tries = new WeakMap<object, number>();
const waits = new WeakMap<object, AbortController>();

/**
 * Runs `again` once the browser is back online, in place of what `owner` waited for before, until
 * `stopWaiting(owner)`. Just back online, the connection may not carry yet (a network coming up):
 * what then fails again for want of it, while the browser reads online, runs again 2 s later,
 * three times at most from that `online` event. The count is `owner`'s, shared by what it runs in
 * turn (<wallet-login>: its code's load, then its start-up check); `gotThrough(owner)` spends it.
 */
export function whenOnline(owner: object, again: () => void): void {
  stopWaiting(owner);
  const { signal } = waits.set(owner, new AbortController()).get(owner)!;
  const left = tries.get(owner);
  if (navigator.onLine && left) {
    tries.set(owner, left - 1);
    const timer = setTimeout(again, 2000);
    signal.addEventListener('abort', () => clearTimeout(timer));
  } else addEventListener('online', () => (tries.set(owner, 3), again()), { once: true, signal });
}

/** `owner` waits no more (taken off the page, or bound to another wallet). */
export const stopWaiting = (owner: object): void => waits.get(owner)?.abort();

/** What `owner` ran got through: no run again of a later failure without a new `online` event. */
export const gotThrough = (owner: object): void => void tries.delete(owner);
