/**
 * The steps of <card-reveal> as a pure state machine: idle -> loading -> revealed -> (hidden | expired),
 * with error from loading. No DOM, no timers, no network: the element feeds it events and renders
 * the state it returns, so every rule below is tested in Node.
 *
 * Follows DESIGN.md "Security rules / The reveal URL" and api.md "POST /cards/{id}/reveal":
 * the URL is requested right before rendering, rendered only when it is https (or on an origin the
 * integrator allow-lists) and not yet expired, and hidden at expiresAt, on hide, after an optional
 * shorter `hide-after`, when the page is hidden (opt-in) and on disconnect.
 *
 * Deliberately NOT here: the URL itself. The state carries times and codes only, so that no state
 * snapshot, event detail or error can ever leak the bearer URL; `checkRevealUrl` looks at the URL
 * and answers with a verdict, keeping nothing.
 */
/** Why the card details stopped being shown (the `reason` of `card-hidden`). */
export const HIDE_REASONS = ['user', 'expired', 'timeout', 'page-hidden', 'disconnected', 'card-changed', 'logged-out', 'account-changed', 'blocked'] as const;
export type HideReason = (typeof HIDE_REASONS)[number];
/** What `idle` remembers: hiding at expiry leads to `expired` instead, and `blocked` to the `frame_blocked` error. */
export type IdleReason = Exclude<HideReason, 'expired' | 'blocked'>;

/** The `code` of `card-reveal-error`: a closed list, each with a sentence in the element's strings. */
export const REVEAL_ERROR_CODES = [
  /** 401 without details: the proxy's credentials were refused (an integrator problem, not the cardholder's). */
  'unauthorized',
  /** 403: no attributable actor, or the proxy refused this session (api.md, "Card reveal"). */
  'forbidden',
  /**
   * 403 with the step-up token missing or stale: prove the wallet session again; or a 401 of the
   * site's own (the proxy's, `details.reason` AUTHORIZE: no user of the site signed in): log in.
   */
  'session_required',
  /** 404: the card is unknown (or its id is not a `Card:<uuid>`, so no card can have it). */
  'not_found',
  /** 501 NOT_IMPLEMENTED: no card issuer in this environment. */
  'not_available',
  /** 429: too many reveals; try again later. */
  'rate_limited',
  /** 500 and other 5xx. */
  'server',
  /**
   * The proxy could not be reached, or the browser is offline (the reveal code, when not loaded yet,
   * is then not asked for, so that "Try again" loads it once the connection is back).
   */
  'network',
  /** The URL arrived already past its expiresAt (clock skew or a slow network). */
  'expired_url',
  /** The URL is not https and its origin is not allow-listed: refused, never rendered. */
  'insecure_url',
  /** The answer was not a CardRevealResponse. */
  'unexpected',
  /**
   * Something other than the proxy answered at the base path (the page's own 404 or HTML page):
   * `api-base` or configureWallet's `apiBase` is not where the proxy is mounted; the console names it.
   */
  'misconfigured',
  /**
   * The page's Content-Security-Policy refused the processor's frame (`frame-src`): an integrator
   * problem, reported after `card-revealed` when the browser reports the violation.
   */
  'frame_blocked',
  /**
   * The element's reveal code (loaded on demand, on the first reveal) did not load, asked for twice
   * (the second time at once, unseen, which a dropped connection's load recovers by): a module answered
   * with an error status stays failed for the page in Chromium and Firefox 153 (Safari loads it
   * again, whatwg/html#10327; Chromium does after a dropped connection, which the page cannot tell
   * apart; Firefox resends a dropped request itself, then keeps the failure),
   * so only a reload of the page surely loads it again.
   */
  'load_failed',
] as const;
export type RevealErrorCode = (typeof REVEAL_ERROR_CODES)[number];

/** The codes not worth a "try again" button: only a change of setup, card or page (a reload) fixes them. */
const FINAL: readonly RevealErrorCode[] = ['unauthorized', 'forbidden', 'not_found', 'not_available', 'insecure_url', 'frame_blocked', 'misconfigured', 'load_failed'];

export type CardRevealState =
  | { readonly kind: 'idle'; readonly lastHidden?: IdleReason }
  | { readonly kind: 'loading' }
  /** `hideAt` is the earlier of expiresAt and the `hide-after` deadline (from `shownAt`), all epoch milliseconds. */
  | { readonly kind: 'revealed'; readonly expiresAt: number; readonly hideAt: number; readonly now: number; readonly shownAt: number }
  | { readonly kind: 'expired' }
  | { readonly kind: 'error'; readonly code: RevealErrorCode; readonly retryable: boolean };

export type CardRevealEvent =
  | { readonly type: 'reveal' }
  /** The URL passed `checkRevealUrl` and the iframe is being attached. */
  | { readonly type: 'revealed'; readonly expiresAt: number; readonly now: number; readonly hideAfterMs?: number }
  /** `status`: the service's, when it answered (for the error event; the machine ignores it). */
  | { readonly type: 'failed'; readonly code: RevealErrorCode; readonly status?: number }
  | { readonly type: 'tick'; readonly now: number }
  /** `hide-after` changed while shown: the deadline is counted again from when the details were shown. */
  | { readonly type: 'hide-after'; readonly ms: number; readonly now: number }
  /** `blocked` is not asked for: it is how leaving `revealed` for the `frame_blocked` error is reported. */
  | { readonly type: 'hide'; readonly reason: Exclude<HideReason, 'blocked'> };

export const initialState: CardRevealState = { kind: 'idle' };

/** The earlier of expiresAt and `hide-after` (none when 0) from `shownAt`. */
const deadline = (expiresAt: number, shownAt: number, ms = 0): number => Math.min(expiresAt, ms > 0 ? shownAt + ms : Infinity);

const hidden = (reason: Exclude<HideReason, 'blocked'>): CardRevealState => (reason === 'expired' ? { kind: 'expired' } : { kind: 'idle', lastHidden: reason });

/**
 * The next state. Events that make no sense in a state leave it unchanged (same object), so the
 * element can tell "nothing happened" by identity.
 */
export function transition(state: CardRevealState, event: CardRevealEvent): CardRevealState {
  const { kind } = state;
  switch (event.type) {
    case 'reveal':
      // A re-reveal always asks for a fresh URL (DESIGN.md): from every state but loading/revealed.
      return kind === 'loading' || kind === 'revealed' ? state : { kind: 'loading' };
    case 'revealed': {
      if (kind !== 'loading') return state;
      const { expiresAt, now, hideAfterMs } = event;
      if (!(expiresAt > now)) return { kind: 'error', code: 'expired_url', retryable: true };
      return { kind: 'revealed', expiresAt, hideAt: deadline(expiresAt, now, hideAfterMs), now, shownAt: now };
    }
    case 'hide-after':
      // Shortened past its deadline: hidden at once, as by the tick that finds it passed.
      return kind === 'revealed' ? transition({ ...state, hideAt: deadline(state.expiresAt, state.shownAt, event.ms) }, { type: 'tick', now: event.now }) : state;
    case 'failed':
      // From `revealed` only the frame's own failure comes (the request has ended by then).
      return kind === 'loading' || kind === 'revealed' ? { kind: 'error', code: event.code, retryable: !FINAL.includes(event.code) } : state;
    case 'tick':
      if (kind !== 'revealed') return state;
      // At the deadline: expired when it was expiresAt itself, else the shorter hide-after ran out.
      if (event.now >= state.hideAt) return hidden(state.hideAt < state.expiresAt ? 'timeout' : 'expired');
      return { ...state, now: event.now };
    case 'hide':
      if (kind === 'revealed' || kind === 'loading') return hidden(event.reason);
      // Another card or wallet: an error or expiry said of the one before is not left for it.
      return event.reason.endsWith('changed') ? initialState : state;
  }
}

/** The reason to report when leaving `revealed` for `next` (undefined when still shown). */
export function hideReasonOf(next: CardRevealState): HideReason | undefined {
  return next.kind === 'expired' ? 'expired' : next.kind === 'idle' ? next.lastHidden : next.kind === 'error' ? 'blocked' : undefined;
}

/** Whole seconds left on the countdown (never negative). */
export function secondsLeft(state: CardRevealState): number {
  return state.kind === 'revealed' ? Math.max(0, Math.ceil((state.hideAt - state.now) / 1000)) : 0;
}

/** Parses an `allowed-origins` attribute: space- or comma-separated origins; invalid entries dropped. */
export function parseAllowedOrigins(value: string | null | undefined): string[] {
  const origins: string[] = [];
  for (const item of value?.split(/[\s,]+/) ?? []) {
    try {
      const { origin } = new URL(item);
      if (origin !== 'null') origins.push(origin);
    } catch {
      // Not a URL: ignored rather than widening the allow-list by accident.
    }
  }
  return origins;
}

export type UrlVerdict =
  | { readonly ok: true; readonly expiresAt: number }
  | { readonly ok: false; readonly code: 'insecure_url' | 'expired_url' | 'unexpected' };

/**
 * May this reveal answer be rendered? Only `https:` URLs, or `http:` URLs on an origin the
 * integrator allow-listed (such as the sandbox's processor page on http://127.0.0.1), without
 * credentials, not on the page's own origin `page`, and only before expiresAt. The verdict never
 * contains the URL.
 */
export function checkRevealUrl(answer: { panEmbedUrl?: unknown; expiresAt?: unknown }, allowedOrigins: readonly string[] | string, now: number, page?: string): UrlVerdict {
  // A string set on the property (a framework binding it as the attribute's text) is read as the
  // attribute is: whole origins, never a substring of the text.
  const allowed = Array.isArray(allowedOrigins) ? allowedOrigins : parseAllowedOrigins(String(allowedOrigins));
  const { panEmbedUrl, expiresAt } = answer;
  const expires = typeof expiresAt === 'string' ? Date.parse(expiresAt) : NaN;
  let url: URL | undefined;
  try {
    if (typeof panEmbedUrl === 'string') url = new URL(panEmbedUrl);
  } catch {
    // Not a URL: `unexpected` below.
  }
  if (!url || Number.isNaN(expires)) return { ok: false, code: 'unexpected' };
  // Any other scheme (data:, javascript:, blob:, file:) is refused whatever the allow-list says.
  // Credentials in the URL would be sent to the frame's origin: never a reveal URL's shape. Nor
  // the page's own origin (`page`), never the processor's: there `allow-same-origin` lifts the
  // frame's sandbox, and every script of the page reads the frame's address, the bearer URL.
  const trusted = url.protocol === 'https:' || (url.protocol === 'http:' && allowed.includes(url.origin));
  if (!trusted || url.username || url.password || url.origin === page) return { ok: false, code: 'insecure_url' };
  return expires > now ? { ok: true, expiresAt: expires } : { ok: false, code: 'expired_url' };
}
