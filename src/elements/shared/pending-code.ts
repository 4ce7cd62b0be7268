/**
 * A code waiting to be entered, kept in the tab's sessionStorage so that a reload (a phone's
 * browser dropping the page while the user reads the text message) comes back to the code screen
 * instead of sending a new code. Used by <wallet-login> (a login code) and <wallet-credentials> (the
 * activation code of an added SMS credential).
 *
 * Kept: the service's public challenge answer (credential id, account, type, signed target bundle)
 * and when the code was sent, never the code. A code just sent is also put in the origin's
 * localStorage (`shared`), per way (`<key>:<type>`), where the tabs find the newest: a new code
 * replaces the one before it upstream, and a tab whose own request is refused as too soon (429)
 * offers that newest one; it goes once a session came or went. Before use the bundle is verified
 * again against the pinned signer, as a fresh one is (core `startOtpLogin({ registered })`), which
 * refuses one not of the credential's OTP type and sends no code for it. Forgotten after 15
 * minutes, when the code is used or abandoned, and when the storage cannot be read or holds what
 * core refuses (another script of the origin, an older version may have written it). Nothing kept
 * is key material: the session key stays in the key store (IndexedDB).
 */
import type { OtpLogin, OtpTarget, Wallet } from '../../core/session.ts';

/** How long after sending a code a reload still returns to its screen. */
const PENDING_CODE_MS = 15 * 60_000;

/** What the tab keeps of a code waiting to be entered. */
export interface PendingCode extends OtpTarget {
  sentAt: number;
  /** When a new code may be asked for (ms since the epoch; 0 when the screen offers none). */
  resendAt: number;
  /**
   * The user left its screen for another way to log in: a reload shows the methods, and the code
   * comes back only when that way is chosen again (<wallet-login>).
   */
  left?: true;
  /** What the element adds of its own (<wallet-login>: the session's end that the code logs in again after). */
  reauth?: unknown;
}

/** The web-storage key of what an element keeps (a pending code, a remembered passkey id): per kind, base path and account. */
export function storageKey(kind: string, apiBase: string | null | undefined, accountId: string): string {
  return `wallet-elements:${kind}:${apiBase ?? ''}:${accountId}`;
}

/** The tab's own storage, or (`shared`) the origin's, which the tabs share. */
const storage = (shared?: boolean): Storage => (shared ? localStorage : sessionStorage);

export function forgetPendingCode(key: string, shared?: boolean): void {
  try {
    storage(shared).removeItem(key);
  } catch {
    // No storage here (an opaque origin throws): nothing was kept.
  }
}

export function keepPendingCode(key: string, otp: OtpLogin, sentAt: number, resendAt = 0, left?: true, shared?: boolean, reauth?: unknown): void {
  const { credentialId: id, accountId, type, otpEncryptionTargetBundle } = otp;
  try {
    const kept = JSON.stringify({ id, accountId, type, otpEncryptionTargetBundle, sentAt, resendAt, left, reauth } satisfies PendingCode);
    sessionStorage.setItem(key, kept);
    if (shared) localStorage.setItem(`${key}:${type}`, kept);
  } catch {
    // No storage (or full): a reload starts over.
  }
}

/**
 * The code this tab was waiting for before a reload (`shared`: the newest any tab sent), for
 * `accountId`, with its target verified again; undefined when there is none. A stale, unreadable,
 * malformed or no longer verifying one is forgotten (an aborted check keeps it for the next).
 */
export async function resumePendingCode(
  key: string,
  accountId: string,
  wallet: Pick<Wallet, 'startOtpLogin'>,
  signal: AbortSignal,
  shared?: boolean,
): Promise<{ otp: OtpLogin; saved: PendingCode } | undefined> {
  try {
    const saved = JSON.parse(storage(shared).getItem(key)!) as PendingCode | null;
    if (!saved) return;
    // Its id is given as both the credential and the answer's id, which core then finds alike: checked
    // here, a string not blank (trim() throws on anything else, which goes the same way).
    if (saved.accountId !== accountId || !(Date.now() - saved.sentAt < PENDING_CODE_MS) || !saved.id.trim()) throw new Error('stale');
    return { otp: await wallet.startOtpLogin({ credentialId: saved.id, registered: saved, signal }), saved };
  } catch {
    if (!signal.aborted) forgetPendingCode(key, shared);
  }
}
