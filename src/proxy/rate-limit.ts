/**
 * A per-client fixed-window request counter for the proxy.
 *
 * reference.md ("Shared shapes"): `429 RATE_LIMITED` carries a `Retry-After` header in seconds
 * (RFC 9110 section 10.2.3); the proxy answers the same way when one client sends more than `max`
 * requests within `windowMs`, with `details.reason` PROXY_RATE_LIMIT (the error shape's free-form
 * `details`, which the proxy controls in its own answers), so that a browser tells it from the
 * service's own 429, such as "a code was sent recently" (src/elements/shared/failures.ts reads it).
 * Memory is bounded: windows that ended are swept on a timer, and when
 * the table is full the oldest clients are dropped first (they lose their count, never gain a refusal).
 *
 * Deliberately does not: share counts between proxy instances (each instance limits on its own;
 * put a shared limiter in front when that matters) or trust X-Forwarded-For (the integrator passes
 * `clientIp` when the proxy sits behind a trusted reverse proxy).
 */

export interface RateLimitOptions {
  windowMs: number;
  max: number;
}

/** `details.reason` of the proxy's own 429 (not the service's). */
export const PROXY_RATE_LIMIT = 'PROXY_RATE_LIMIT';

const MAX_CLIENTS = 100_000;
/** The common answer, shared rather than allocated per request. */
const NOT_LIMITED = Object.freeze({ limited: false as const });

export class RateLimiter {
  readonly #windowMs: number;
  readonly #max: number;
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: RateLimitOptions) {
    // Node's timers take at most 2^31 - 1 ms; past it the sweep would run every millisecond.
    if (!(options.windowMs > 0 && options.windowMs <= 2 ** 31 - 1) || !Number.isInteger(options.max) || options.max < 1) {
      throw new TypeError('rateLimit needs windowMs from 1 to 2147483647 (milliseconds) and an integer max >= 1');
    }
    this.#windowMs = options.windowMs;
    this.#max = options.max;
    this.#sweeper = setInterval(() => this.#sweep(Date.now()), Math.max(1000, this.#windowMs)).unref();
  }

  /** Counts one request of `client`; returns the seconds to wait when it is over the limit. */
  hit(client: string, now = Date.now()): { limited: false } | { limited: true; retryAfterSeconds: number } {
    let w = this.#windows.get(client);
    if (!w || w.resetAt <= now) {
      if (w) this.#windows.delete(client);
      if (this.#windows.size >= MAX_CLIENTS) this.#evict(now);
      w = { count: 0, resetAt: now + this.#windowMs };
      this.#windows.set(client, w);
    }
    w.count++;
    if (w.count <= this.#max) return NOT_LIMITED;
    return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((w.resetAt - now) / 1000)) };
  }

  close(): void {
    clearInterval(this.#sweeper);
    this.#windows.clear();
  }

  #sweep(now: number): void {
    for (const [client, w] of this.#windows) if (w.resetAt <= now) this.#windows.delete(client);
  }

  #evict(now: number): void {
    // Map iteration follows insertion order, and a window is (re)inserted when it starts, so the
    // first entries end first: the walk stops at the first live window, then drops the oldest.
    // (A full sweep here made every new client of a full table walk all 100,000 entries.)
    for (const [client, w] of this.#windows) {
      if (w.resetAt > now && this.#windows.size < MAX_CLIENTS) break;
      this.#windows.delete(client);
    }
  }
}
