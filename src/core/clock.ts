/**
 * The service's clock, as this page last saw it. Expiry times (sessions, signed-retry windows,
 * card views) are written on the service's clock; a device whose clock is minutes off would take a
 * live session for expired (its key deleted, every renewal too late) or the reverse, and would
 * refuse every card view as already expired. Every answer's `Date` header (RFC 9110 section 6.6.1)
 * updates the offset (http.ts); an offset under 5 s counts as none, since the header has whole
 * seconds only. Where no Date header is readable (a proxy on another origin that does not expose
 * it), the device's clock is used as it is; the signed retry then leaves a challenge's expiry to
 * the service (signed-retry.ts), and a session is timed by its lifetime instead (session.ts isLive).
 */
let offset = 0;

/** Now, in ms since the epoch, on the service's clock. */
export const serviceNow = (): number => Date.now() + offset;

/** Takes the service's clock from an answer's `Date` header (null or unreadable: no change). */
export function observeServiceDate(header: string | null): void {
  const date = Date.parse(header ?? '');
  if (Number.isNaN(date)) return;
  // The header is truncated to the second: the middle of that second is the best guess.
  const seen = date + 500 - Date.now();
  offset = Math.abs(seen) < 5000 ? 0 : seen;
}

/**
 * setTimeout for a delay of any length: one above 2^31-1 ms (24.8 days; a far Retry-After or
 * expiry) would fire at once, so it fires at that limit instead, and the caller checks again then.
 */
export const later = (then: () => void, ms: number): ReturnType<typeof setTimeout> => setTimeout(then, Math.min(ms, 2 ** 31 - 1));

/**
 * When a session ends, in ms since the epoch on this device's clock: its `endsAt` (set on its
 * arrival, in createWallet's `save`), else (a record of an earlier version, or of a key store that
 * drops the field) its expiresAt on the service's clock as last seen.
 */
export const sessionEnd = (s: { expiresAt: string; endsAt?: number }): number => s.endsAt ?? Date.parse(s.expiresAt) - serviceNow() + Date.now();
