/**
 * The login flow of `<wallet-login>` as a pure state machine: one state per screen, a `transition`
 * function from (state, event) to the next state. The element runs the side effects (core calls)
 * that a state asks for and feeds their outcome back as events; nothing here touches the DOM, the
 * network or a key, so it is tested under node (test/node/elements/wallet-login.machine.test.ts).
 *
 * Follows api.md "Verify by credential type" and "Re-authentication after session expiry": after
 * expiry only the credential type of the session that ended is asked for again (when the page offers
 * that type; otherwise the methods it offers). Time is passed in
 * by the caller (`now`, epoch milliseconds) so that cooldowns are deterministic in tests.
 *
 * Deliberately does not know about codes, tokens or keys: a typed code stays in the element's
 * input until it is handed to core, and never enters a state.
 */
import type { CredentialType } from '../../core/types.ts';
import type { Failure } from '../shared/failures.ts';
import { LOGIN_METHODS, credentialOf, methodOf, type LoginMethod, type OtpMethod } from './wallet-login.methods.ts';

export { LOGIN_METHODS, credentialOf, offeredMethods, parseMethods, type LoginMethod, type OtpMethod } from './wallet-login.methods.ts';

/** What the element shows about a live session; never the key. */
export interface SessionInfo {
  sessionId: string;
  credentialType: CredentialType;
  /** ISO 8601, as the service sent it. */
  expiresAt: string;
  /** ISO 8601, as the service sent it: when the session began. */
  createdAt?: string;
  /** When the session ends, in ms on this device's clock (core/session.ts isLive). */
  endsAt: number;
}

/**
 * What went wrong, as the screen says it: a shared failure, or `code_sent_recently`: the first code
 * this element asked for was refused by the service with 429 (not by the proxy's own limit,
 * Failure.byProxy; reference.md: /challenge answers `429 RATE_LIMITED`
 * with Retry-After; the sandbox sends one code per credential per 30 s). This element asked for
 * none before, so it is no repeated attempt: a code went out a moment ago (from another tab; a
 * code this tab kept over a reload comes back instead, wallet-login.flows.ts), and a new one can be asked for once the wait is over.
 * Or `passkey_other_wallet`: the passkey picked (from autofill, which offers any passkey of the
 * site) is another wallet's; nothing was sent.
 */
export type LoginFailure = Failure | (Omit<Failure, 'code'> & { code: 'code_sent_recently' | 'passkey_other_wallet' | 'code_short' });

/** Default code-resend cooldown when the service sends no Retry-After. */
export const RESEND_COOLDOWN_MS = 30_000;

export type LoginState =
  /** Looking for a stored session at start-up. `logout`: asked for meanwhile (see `transition`). */
  | { kind: 'restoring'; logout?: true }
  /** Offering the methods. `reauth` narrows them to the type of a session that ended. */
  | { kind: 'choosing'; failure?: LoginFailure; reauth?: ReauthReason }
  /**
   * Asking the service for a code (api.md: EMAIL_OTP re-auth needs /challenge first). `resendAt`
   * is present on a resend: a failure then returns to the code already sent, which still works.
   */
  | { kind: 'sending-code'; method: OtpMethod; reauth?: ReauthReason; resendAt?: number; logout?: true }
  /** Waiting for the user's code. `resendAt` is when "send again" becomes available. */
  | { kind: 'code-entry'; method: OtpMethod; resendAt: number; failure?: LoginFailure; reauth?: ReauthReason }
  /** Verifying the code with the signed retry. */
  | { kind: 'verifying-code'; method: OtpMethod; resendAt: number; reauth?: ReauthReason; logout?: true }
  /** A passkey ceremony (modal) or an OIDC token round is in progress. */
  | { kind: 'authenticating'; method: 'passkey' | 'oauth'; reauth?: ReauthReason; logout?: true }
  | { kind: 'logged-in'; session: SessionInfo; expiring: boolean; failure?: LoginFailure }
  | { kind: 'refreshing'; session: SessionInfo; logout?: true }
  | { kind: 'logging-out'; session: SessionInfo };

/**
 * Why the user is asked to log in again, so the screen can say so. `revoked`: the service ended
 * the session before its time (revoked from another device), found when a call it signed was refused.
 */
export type ReauthReason = { why: 'expired' | 'key-missing' | 'revoked'; credentialType: CredentialType };

export type LoginEvent =
  /**
   * `code`: a code this tab asked for before a reload, still waiting to be entered; `failure`: why
   * it was refused when last checked (the element was off the page then).
   */
  | { type: 'RESTORED'; session: SessionInfo | null; missingKey?: CredentialType; expired?: CredentialType; revoked?: boolean; code?: { type: CredentialType; resendAt: number }; reauth?: ReauthReason; failure?: LoginFailure }
  | { type: 'CHOOSE'; method: LoginMethod }
  /** `cooldownMs`: the page's resend cooldown (default RESEND_COOLDOWN_MS). */
  | { type: 'CODE_SENT'; now: number; cooldownMs?: number }
  | { type: 'SUBMIT_CODE' }
  | { type: 'RESEND'; now: number }
  | { type: 'BACK' }
  /** `logout`: a logout asked meanwhile stopped this login too late (passkey autofill): its session is logged out. */
  | { type: 'LOGGED_IN'; session: SessionInfo; logout?: true }
  | { type: 'FAILED'; failure: LoginFailure; now: number; again?: boolean }
  /** The user cancelled a ceremony, or a newer one replaced it: return to a usable screen. */
  | { type: 'CANCELLED' }
  | { type: 'EXPIRING' }
  | { type: 'REFRESH' }
  | { type: 'REFRESHED'; session: SessionInfo }
  | { type: 'EXPIRED' }
  | { type: 'KEY_MISSING' }
  /** The service ended the session before its time (revoked from another device). */
  | { type: 'REVOKED' }
  | { type: 'LOGOUT' }
  /** `noSession`: there was no live session here to end (nothing stored, or it had expired). */
  | { type: 'LOGGED_OUT'; noSession?: true }
  /** Another tab logged in or out for the same account (BroadcastChannel). */
  | { type: 'REMOTE_LOGGED_IN'; session: SessionInfo }
  /** Another tab renewed the session: same login, new session id and expiry. */
  | { type: 'REMOTE_REFRESHED'; session: SessionInfo }
  | { type: 'REMOTE_LOGGED_OUT' };

export function initialState(): LoginState {
  return { kind: 'restoring' };
}

function choosing(extra: { failure?: LoginFailure; reauth?: ReauthReason } = {}): LoginState {
  return { kind: 'choosing', ...extra };
}

function loggedIn(session: SessionInfo): LoginState {
  return { kind: 'logged-in', session, expiring: false };
}

/** Seconds left before "send again" is allowed, rounded up; 0 when allowed. */
export function resendSecondsLeft(state: LoginState, now: number): number {
  return state.kind === 'code-entry' || state.kind === 'verifying-code' ? Math.max(0, Math.ceil((state.resendAt - now) / 1000)) : 0;
}

/** A 429 pushes the resend cooldown out to what the service asked (reference.md: Retry-After). */
function cooldownAfter(resendAt: number, { failure, now }: { failure: LoginFailure; now: number }): number {
  return failure.code === 'rate_limited' && failure.retryAfter !== undefined ? Math.max(resendAt, now + failure.retryAfter * 1000) : resendAt;
}

function reauthOf(state: LoginState): { reauth?: ReauthReason } {
  return 'reauth' in state && state.reauth ? { reauth: state.reauth } : {};
}

/**
 * `methods`: the methods the page offers (the `methods` attribute); a session that ended is asked
 * for again by its type only when that type is among them, otherwise by the methods offered.
 */
export function transition(state: LoginState, event: LoginEvent, methods: readonly LoginMethod[] = LOGIN_METHODS): LoginState {
  // A logout asked for while a step runs is kept until the step ends (the element stops the steps
  // that can be stopped, wallet-login.view.ts); whatever the step led to is then undone: a session it
  // led to is logged out, a code screen is left. Asked again, it is the same logout (a second one
  // would cut the first off mid-revocation after its keys went: the session live upstream).
  if (event.type === 'LOGOUT' && RUNNING.has(state.kind)) return 'logout' in state ? state : ({ ...state, logout: true } as LoginState);
  let next = step(state, event);
  if (('logout' in state || 'logout' in event) && next !== state) next = next.kind === 'logged-in' ? { kind: 'logging-out', session: next.session } : choosing(reauthOf(next));
  // A re-auth the page's methods leave out: the methods it offers.
  if (next.kind === 'choosing' && next.reauth && !methods.includes(methodOf(next.reauth.credentialType))) {
    const { reauth, ...offered } = next;
    return offered;
  }
  return next;
}

/** Why a session shown ended, by the event that told it. */
export const ENDS: Partial<Record<LoginEvent['type'], ReauthReason['why']>> = { EXPIRED: 'expired', KEY_MISSING: 'key-missing', REVOKED: 'revoked' };

/** The states whose step is under way: a logout asked for waits for the step's end. */
const RUNNING = new Set<LoginState['kind']>(['restoring', 'sending-code', 'verifying-code', 'authenticating', 'refreshing']);

function step(state: LoginState, event: LoginEvent): LoginState {
  const kind = state.kind;
  const type = event.type;
  // Events that apply whatever the screen.
  if (type === 'REMOTE_LOGGED_IN' && kind !== 'logging-out') return loggedIn(event.session);
  if (type === 'REMOTE_REFRESHED' && (kind === 'logged-in' || kind === 'refreshing')) return loggedIn(event.session);
  if (type === 'LOGGED_IN' && kind !== 'restoring' && kind !== 'sending-code' && !('session' in state)) return loggedIn(event.session);

  switch (kind) {
    case 'restoring':
      if (type === 'RESTORED') {
        if (event.session) return loggedIn(event.session);
        const ended = event.missingKey ?? event.expired;
        // (Or, with the code kept, the end it was sent to log in again after: read back from the
        // tab's storage, taken only when it is one of the ends and of the code's type.)
        const reauth = ended
          ? { reauth: { why: event.missingKey ? 'key-missing' : event.revoked ? 'revoked' : 'expired', credentialType: ended } as const }
          : Object.values(ENDS).includes(event.reauth?.why!) && event.reauth!.credentialType === event.code?.type
            ? { reauth: event.reauth! }
            : {};
        // The code screen the page was on before a reload (its code still works).
        if (event.code) return { kind: 'code-entry', method: methodOf(event.code.type) as OtpMethod, resendAt: event.code.resendAt, ...(event.failure && { failure: event.failure }), ...reauth };
        return choosing(reauth);
      }
      // The stored session could not be checked (network): the login screen, with the reason.
      if (type === 'FAILED') return choosing({ failure: event.failure });
      // (A logout asked for meanwhile runs instead of the check.)
      if (type === 'CANCELLED' || (type === 'LOGGED_OUT' && state.logout)) return choosing();
      return state;

    case 'choosing':
      if (type === 'CHOOSE') {
        // On re-auth only the ended session's type is accepted.
        if (state.reauth && credentialOf(event.method) !== state.reauth.credentialType) return state;
        const method = event.method;
        return method === 'passkey' || method === 'oauth'
          ? { kind: 'authenticating', method, ...reauthOf(state) }
          : { kind: 'sending-code', method, ...reauthOf(state) };
      }
      // A background step (passkey autofill) reports here.
      if (type === 'FAILED') return choosing({ failure: event.failure, ...reauthOf(state) });
      // "Use another method" on a re-auth screen offers every configured method again.
      if (type === 'BACK' && state.reauth) return choosing();
      return state;

    case 'sending-code':
      if (type === 'CODE_SENT') {
        return { kind: 'code-entry', method: state.method, resendAt: event.now + (event.cooldownMs ?? RESEND_COOLDOWN_MS), ...reauthOf(state) };
      }
      if (type === 'FAILED' && state.resendAt !== undefined) {
        return { kind: 'code-entry', method: state.method, resendAt: cooldownAfter(state.resendAt, event), failure: event.failure, ...reauthOf(state) };
      }
      // The first code asked for here, refused as too soon by the service: one was sent a moment ago
      // (LoginFailure). The proxy's own limit says nothing of codes: too many requests, wait.
      if (type === 'FAILED') {
        const failure = event.failure;
        return choosing({ failure: failure.code === 'rate_limited' && !failure.byProxy ? { ...failure, code: 'code_sent_recently' } : failure, ...reauthOf(state) });
      }
      if (type === 'CANCELLED' || type === 'BACK') return choosing(reauthOf(state));
      return state;

    case 'code-entry':
      if (type === 'SUBMIT_CODE') return { kind: 'verifying-code', method: state.method, resendAt: state.resendAt, ...reauthOf(state) };
      if (type === 'RESEND' && event.now >= state.resendAt) return { kind: 'sending-code', method: state.method, resendAt: state.resendAt, ...reauthOf(state) };
      if (type === 'BACK' || type === 'CANCELLED' || type === 'LOGOUT') return choosing(reauthOf(state));
      return state;

    case 'verifying-code':
      // Stopped, the check still reaches the service, which spends a good code on a session then
      // ended (core session.ts loggedIn): its screen would only refuse it again.
      if (type === 'CANCELLED') return choosing(reauthOf(state));
      if (type === 'FAILED') {
        // A code the service can no longer take (expired, too many tries) leaves the wait between
        // two codes as it was: within it, the service would refuse a new one (reference.md: 429).
        return { kind: 'code-entry', method: state.method, resendAt: cooldownAfter(state.resendAt, event), failure: event.failure, ...reauthOf(state) };
      }
      return state;

    case 'authenticating':
      if (type === 'FAILED') return choosing({ failure: event.failure, ...reauthOf(state) });
      if (type === 'CANCELLED' || type === 'BACK') return choosing(reauthOf(state));
      return state;

    case 'logged-in':
    case 'refreshing':
      const why = ENDS[type];
      if (why) return choosing({ reauth: { why, credentialType: state.session.credentialType } });
      if (type === 'REMOTE_LOGGED_OUT') return choosing();
      if (kind === 'refreshing') {
        if (type === 'REFRESHED') return loggedIn(event.session);
        // A refresh that failed while the session still lives leaves the user logged in, told why.
        if (type === 'FAILED') return { kind: 'logged-in', session: state.session, expiring: true, failure: event.failure };
        return state;
      }
      if (type === 'EXPIRING') return { ...state, expiring: true };
      if (type === 'REFRESH') return { kind: 'refreshing', session: state.session };
      if (type === 'LOGOUT') return { kind: 'logging-out', session: state.session };
      if (type === 'FAILED') return { ...state, failure: event.failure };
      return state;

    case 'logging-out':
      // A logout the service was not told of still ends the session here: core deletes this
      // device's keys whatever the answer (session.ts logout), so nothing could sign with it. One in
      // another tab that ended first is not: the user asked here, and this one ends as theirs.
      if (type === 'LOGGED_OUT' || type === 'FAILED') return choosing();
      return state;
  }
}
