/**
 * The reveal request of <card-reveal> (core/cards.ts over the page's transport for the element's
 * base path), the watch of the wallet session while the details are shown, and the card frame with
 * its CSP watch, in a module of its own that the element loads with import() when the cardholder
 * moves to it (pointer over it, keyboard focus in it) or, failing that, on the first reveal: the
 * transport, the shape checks, the endpoint and the frame are not needed to render the element, so
 * a page does not load them up front.
 */
import { revealCard } from '../../core/cards.ts';
import type { CardRevealResponse } from '../../core/types.ts';
import { sendFor } from '../shared/send.ts';
import { onSessionChange } from '../shared/wallet.ts';

// What the element makes of a failure (its code): loaded with what can fail so.
export { failureOf } from './reveal-failure.ts';

/** A fresh reveal URL and its expiry for `cardId`, through the proxy at `apiBase` (or the configured one). */
export function requestReveal(apiBase: string | undefined, cardId: string, signal: AbortSignal): Promise<CardRevealResponse> {
  return revealCard(sendFor(apiBase), cardId, { signal });
}

/**
 * Watches the wallet session until `signal` aborts: a logout or an end found in this page (any
 * element, through the shared Wallet) or in another tab (the session channel) of `accountId`'s
 * session, or of any without it, calls `onLogout`. Card details do not outlive the session they
 * were shown in, whether or not the reveal proved it (require-session): a cardholder who logs out
 * expects them to go with it.
 */
export function watchSession(apiBase: string | undefined, accountId: string | undefined, signal: AbortSignal, onLogout: () => void): void {
  const stop = onSessionChange(apiBase, ({ type, accountId: account }) => {
    // Logged out, or found ended (expired) by core: either way it proves nothing any more.
    if ((type === 'logged-out' || type === 'ended') && (!accountId || account === accountId)) onLogout();
  });
  signal.addEventListener('abort', stop, { once: true });
}

/**
 * The card frame of `url`, titled `title`, to put on the page (DESIGN.md "Security rules": exactly
 * these attributes, and a title for assistive technology), and the watch of the page's CSP for it
 * until `signal` aborts. A page whose CSP leaves the processor out gets an error page in the frame,
 * and the browser reports it to the document only (CSP 3: a frame's navigation is checked against
 * the effective directive `frame-src`, whichever directive supplied it): an enforced refusal of the
 * frame's origin calls `onBlocked`.
 */
export function cardFrame(url: string, title: string, signal: AbortSignal, onBlocked: () => void): HTMLIFrameElement {
  const origin = new URL(url).origin + '/';
  document.addEventListener(
    'securitypolicyviolation',
    (e) => {
      if (e.disposition === 'enforce' && e.effectiveDirective === 'frame-src' && (e.blockedURI + '/').startsWith(origin)) onBlocked();
    },
    { signal },
  );
  const frame = document.createElement('iframe');
  frame.allow = 'clipboard-write';
  frame.referrerPolicy = 'no-referrer';
  frame.title = title;
  // The URL reaches the frame as a link followed inside its first, blank document (whose load
  // event comes as the frame is put on the page), never as `src`: a navigation that `src` starts
  // is reported to this page's Resource Timing (W3C Resource Timing: iframe entries), where any
  // PerformanceObserver (analytics, monitoring) would receive the bearer URL whole; a navigation
  // from within the frame is not, and the URL is on no attribute. `rel=noreferrer` sends no
  // Referer; the page's CSP `frame-src` still applies. The sandbox is set here, so that it holds
  // for the processor's page, and not on the blank document (same-origin with this page: with
  // `allow-scripts allow-same-origin` the browser would warn that it could escape its sandbox).
  frame.onload = () => {
    frame.onload = null;
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    // WebKit reports a frame's first navigation to this page's Resource Timing however it starts,
    // unless the document it leaves is at another URL than `about:blank` (WebKit's FrameLoader):
    // there the blank document's URL takes a fragment first. Not elsewhere: Firefox 153 then no
    // longer takes that document for the frame's first one, and the link adds a history entry.
    if (navigator.vendor[0] == 'A') frame.contentWindow!.history.replaceState(null, '', 'about:blank#');
    const link = frame.contentDocument!.createElement('a');
    link.href = url;
    link.rel = 'noreferrer';
    link.click();
  };
  return frame;
}
