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
import { ServiceError, WalletError } from '../../core/errors.ts';

/** Why the card details stopped being shown (the `reason` of `card-hidden`). */
export const HIDE_REASONS = ['user', 'expired', 'timeout', 'page-hidden', 'disconnected', 'card-changed'] as const;
export type HideReason = (typeof HIDE_REASONS)[number];

/** The `code` of `card-reveal-error`: a closed list, each with a sentence in the element's strings. */
export const REVEAL_ERROR_CODES = [
  /** 401: the proxy's credentials were refused (an integrator problem, not the cardholder's). */
  'unauthorized',
  /** 403: no attributable actor, or the proxy refused this session (api.md, "Card reveal"). */
  'forbidden',
  /** 403 with the step-up token missing or stale: prove the wallet session again. */
  'session_required',
  /** 404: the card is unknown. */
  'not_found',
  /** 501 NOT_IMPLEMENTED: no card issuer in this environment. */
  'not_available',
  /** 429: too many reveals; try again later. */
  'rate_limited',
  /** 500 and other 5xx. */
  'server',
  /** The proxy could not be reached. */
  'network',
  /** The URL arrived already past its expiresAt (clock skew or a slow network). */
  'expired_url',
  /** The URL is not https and its origin is not allow-listed: refused, never rendered. */
  'insecure_url',
  /** The answer was not a CardRevealResponse. */
  'unexpected',
] as const;
export type RevealErrorCode = (typeof REVEAL_ERROR_CODES)[number];

/** Which codes are worth a "try again" button: transient ones, and ones a fresh URL fixes. */
const RETRYABLE: ReadonlySet<RevealErrorCode> = new Set([
  'session_required',
  'rate_limited',
  'server',
  'network',
  'expired_url',
  'unexpected',
]);

export type CardRevealState =
  | { readonly kind: 'idle'; readonly lastHidden?: HideReason }
  | { readonly kind: 'loading' }
  /** `hideAt` is the earlier of expiresAt and the `hide-after` deadline, both epoch milliseconds. */
  | { readonly kind: 'revealed'; readonly expiresAt: number; readonly hideAt: number; readonly now: number }
  | { readonly kind: 'expired' }
  | { readonly kind: 'error'; readonly code: RevealErrorCode; readonly retryable: boolean };

export type CardRevealEvent =
  | { readonly type: 'reveal' }
  /** The URL passed `checkRevealUrl` and the iframe is being attached. */
  | { readonly type: 'revealed'; readonly expiresAt: number; readonly now: number; readonly hideAfterMs?: number }
  | { readonly type: 'failed'; readonly code: RevealErrorCode }
  | { readonly type: 'tick'; readonly now: number }
  | { readonly type: 'hide'; readonly reason: HideReason };

export const initialState: CardRevealState = { kind: 'idle' };

/**
 * The next state. Events that make no sense in a state leave it unchanged (same object), so the
 * element can tell "nothing happened" by identity.
 */
export function transition(state: CardRevealState, event: CardRevealEvent): CardRevealState {
  switch (event.type) {
    case 'reveal':
      // A re-reveal always asks for a fresh URL (DESIGN.md): from every state but loading/revealed.
      return state.kind === 'loading' || state.kind === 'revealed' ? state : { kind: 'loading' };
    case 'revealed': {
      if (state.kind !== 'loading') return state;
      if (!(event.expiresAt > event.now)) return { kind: 'error', code: 'expired_url', retryable: true };
      const limit = event.hideAfterMs !== undefined && event.hideAfterMs > 0 ? event.now + event.hideAfterMs : Infinity;
      return { kind: 'revealed', expiresAt: event.expiresAt, hideAt: Math.min(event.expiresAt, limit), now: event.now };
    }
    case 'failed':
      return state.kind === 'loading' ? { kind: 'error', code: event.code, retryable: RETRYABLE.has(event.code) } : state;
    case 'tick':
      if (state.kind !== 'revealed') return state;
      if (event.now >= state.hideAt) {
        return state.hideAt >= state.expiresAt ? { kind: 'expired' } : { kind: 'idle', lastHidden: 'timeout' };
      }
      return { ...state, now: event.now };
    case 'hide':
      if (state.kind === 'revealed' || state.kind === 'loading') {
        return event.reason === 'expired' ? { kind: 'expired' } : { kind: 'idle', lastHidden: event.reason };
      }
      return state;
  }
}

/** The reason to report when leaving `revealed` for `next` (undefined when still shown). */
export function hideReasonOf(next: CardRevealState): HideReason | undefined {
  if (next.kind === 'expired') return 'expired';
  if (next.kind === 'idle') return next.lastHidden;
  return undefined;
}

/** Whole seconds left on the countdown (never negative). */
export function secondsLeft(state: CardRevealState): number {
  return state.kind === 'revealed' ? Math.max(0, Math.ceil((state.hideAt - state.now) / 1000)) : 0;
}

/** Parses an `allowed-origins` attribute: space- or comma-separated origins; invalid entries dropped. */
export function parseAllowedOrigins(value: string | null | undefined): string[] {
  if (!value) return [];
  const origins: string[] = [];
  for (const item of value.split(/[\s,]+/)) {
    if (!item) continue;
    try {
      const origin = new URL(item).origin;
      if (origin !== 'null') origins.push(origin);
    } catch {
      // Not a URL: ignored rather than widening the allow-list by accident.
    }
  }
  return origins;
}

export type UrlVerdict = { readonly ok: true } | { readonly ok: false; readonly code: 'insecure_url' | 'expired_url' | 'unexpected' };

/**
 * May this reveal answer be rendered? Only `https:` URLs, or URLs on an origin the integrator
 * allow-listed (such as the sandbox's processor page on http://127.0.0.1), and only before
 * expiresAt. The verdict never contains the URL.
 */
export function checkRevealUrl(
  answer: { panEmbedUrl?: unknown; expiresAt?: unknown },
  allowedOrigins: readonly string[],
  now: number,
): UrlVerdict & { expiresAt?: number } {
  if (typeof answer.panEmbedUrl !== 'string' || typeof answer.expiresAt !== 'string') return { ok: false, code: 'unexpected' };
  const expiresAt = Date.parse(answer.expiresAt);
  if (Number.isNaN(expiresAt)) return { ok: false, code: 'unexpected' };
  let url: URL;
  try {
    url = new URL(answer.panEmbedUrl);
  } catch {
    return { ok: false, code: 'unexpected' };
  }
  // Only web URLs with a real origin: an opaque origin ('null': data:, javascript:, file:) never
  // matches, even if 'null' slipped into the allow-list.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, code: 'insecure_url' };
  const allowed = url.origin !== 'null' && allowedOrigins.includes(url.origin);
  // Credentials in the URL would be sent to the frame's origin: never a reveal URL's shape.
  if (url.username || url.password) return { ok: false, code: 'insecure_url' };
  if (!allowed && url.protocol !== 'https:') return { ok: false, code: 'insecure_url' };
  if (!(expiresAt > now)) return { ok: false, code: 'expired_url' };
  return { ok: true, expiresAt };
}

/**
 * Maps what core threw to a code. Statuses come from api.md "Errors / Condition rules"; a 403
 * whose code names the step-up (see src/proxy/step-up.ts) asks for a fresh session proof.
 */
export function errorCodeOf(error: unknown): RevealErrorCode {
  if (error instanceof ServiceError) {
    if (error.status === 401) return 'unauthorized';
    if (error.status === 403) return error.code === 'STEP_UP_REQUIRED' ? 'session_required' : 'forbidden';
    if (error.status === 404) return 'not_found';
    if (error.status === 501) return 'not_available';
    if (error.status === 429) return 'rate_limited';
    if (error.status >= 500) return 'server';
    return 'unexpected';
  }
  if (error instanceof WalletError) {
    if (error.code === 'network') return 'network';
    if (error.code === 'session_expired' || error.code === 'key_missing') return 'session_required';
    return 'unexpected';
  }
  return 'unexpected';
}
