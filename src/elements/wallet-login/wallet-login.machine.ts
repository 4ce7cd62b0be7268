/**
 * The login flow of `<wallet-login>` as a pure state machine: one state per screen, a `transition`
 * function from (state, event) to the next state. The element runs the side effects (core calls)
 * that a state asks for and feeds their outcome back as events; nothing here touches the DOM, the
 * network or a key, so it is tested under node (test/node/elements/wallet-login.machine.test.ts).
 *
 * Follows api.md "Verify by credential type" and "Re-authentication after session expiry": after
 * expiry only the credential type of the session that ended is asked for again. Time is passed in
 * by the caller (`now`, epoch milliseconds) so that cooldowns are deterministic in tests.
 *
 * Deliberately does not know about codes, tokens or keys: a typed code stays in the element's
 * input until it is handed to core, and never enters a state.
 */
import type { CredentialType } from '../../core/types.ts';
import type { Failure } from '../shared/failures.ts';

export const LOGIN_METHODS = ['email-otp', 'sms-otp', 'passkey', 'oauth'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];
export type OtpMethod = Extract<LoginMethod, 'email-otp' | 'sms-otp'>;

export const METHOD_CREDENTIAL: Readonly<Record<LoginMethod, CredentialType>> = {
  'email-otp': 'EMAIL_OTP',
  'sms-otp': 'SMS_OTP',
  passkey: 'PASSKEY',
  oauth: 'OAUTH',
};

export function methodOf(type: CredentialType): LoginMethod {
  return (Object.keys(METHOD_CREDENTIAL) as LoginMethod[]).find((m) => METHOD_CREDENTIAL[m] === type)!;
}

export function isOtpMethod(method: LoginMethod): method is OtpMethod {
  return method === 'email-otp' || method === 'sms-otp';
}

/**
 * The `methods` attribute: space-separated method names in the order to offer them. Unknown names
 * are ignored, duplicates keep their first place; an empty or missing attribute offers all four.
 */
export function parseMethods(attribute: string | null | undefined): LoginMethod[] {
  const seen = new Set<LoginMethod>();
  for (const word of (attribute ?? '').toLowerCase().split(/[\s,]+/)) {
    if ((LOGIN_METHODS as readonly string[]).includes(word)) seen.add(word as LoginMethod);
  }
  return seen.size ? [...seen] : [...LOGIN_METHODS];
}

/** What the element shows about a live session; never the key. */
export interface SessionInfo {
  sessionId: string;
  credentialType: CredentialType;
  /** ISO 8601, as the service sent it. */
  expiresAt: string;
  /** ISO 8601 on the service's clock; with expiresAt it gives the lifetime whatever the local clock says. */
  createdAt?: string;
}

/** Default code-resend cooldown when the service sends no Retry-After. */
export const RESEND_COOLDOWN_MS = 30_000;

export type LoginState =
  /** Looking for a stored session at start-up. */
  | { kind: 'restoring' }
  /** Offering the methods. `reauth` narrows them to the type of a session that ended. */
  | { kind: 'choosing'; failure?: Failure; reauth?: ReauthReason }
  /**
   * Asking the service for a code (api.md: EMAIL_OTP re-auth needs /challenge first). `resendAt`
   * is present on a resend: a failure then returns to the code already sent, which still works.
   */
  | { kind: 'sending-code'; method: OtpMethod; reauth?: ReauthReason; resendAt?: number }
  /** Waiting for the user's code. `resendAt` is when "send again" becomes available. */
  | { kind: 'code-entry'; method: OtpMethod; resendAt: number; failure?: Failure; reauth?: ReauthReason }
  /** Verifying the code with the signed retry. */
  | { kind: 'verifying-code'; method: OtpMethod; resendAt: number; reauth?: ReauthReason }
  /** A passkey ceremony (modal) or an OIDC token round is in progress. */
  | { kind: 'authenticating'; method: 'passkey' | 'oauth'; reauth?: ReauthReason }
  | { kind: 'logged-in'; session: SessionInfo; expiring: boolean; failure?: Failure }
  | { kind: 'refreshing'; session: SessionInfo }
  | { kind: 'logging-out'; session: SessionInfo };

/** Why the user is asked to log in again, so the screen can say so. */
export type ReauthReason = { why: 'expired' | 'key-missing'; credentialType: CredentialType };

export type LoginEvent =
  | { type: 'RESTORED'; session: SessionInfo | null; missingKey?: CredentialType; expired?: CredentialType }
  | { type: 'CHOOSE'; method: LoginMethod }
  /** `cooldownMs`: the page's resend cooldown (default RESEND_COOLDOWN_MS). */
  | { type: 'CODE_SENT'; now: number; cooldownMs?: number }
  | { type: 'SUBMIT_CODE' }
  | { type: 'RESEND'; now: number }
  | { type: 'BACK' }
  | { type: 'LOGGED_IN'; session: SessionInfo }
  | { type: 'FAILED'; failure: Failure; now: number }
  /** The user cancelled a ceremony, or a newer one replaced it: return to a usable screen. */
  | { type: 'CANCELLED' }
  | { type: 'EXPIRING' }
  | { type: 'REFRESH' }
  | { type: 'REFRESHED'; session: SessionInfo }
  | { type: 'EXPIRED' }
  | { type: 'KEY_MISSING' }
  | { type: 'LOGOUT' }
  | { type: 'LOGGED_OUT' }
  /** Another tab logged in or out for the same account (BroadcastChannel). */
  | { type: 'REMOTE_LOGGED_IN'; session: SessionInfo }
  /** Another tab renewed the session: same login, new session id and expiry. */
  | { type: 'REMOTE_REFRESHED'; session: SessionInfo }
  | { type: 'REMOTE_LOGGED_OUT' };

export function initialState(): LoginState {
  return { kind: 'restoring' };
}

function choosing(extra: { failure?: Failure; reauth?: ReauthReason } = {}): LoginState {
  const state: LoginState = { kind: 'choosing' };
  if (extra.failure) state.failure = extra.failure;
  if (extra.reauth) state.reauth = extra.reauth;
  return state;
}

/**
 * The methods to offer on the choosing screen: the configured ones in their order, or on re-auth
 * only the ended session's type (api.md: re-authentication repeats that type's verify flow).
 */
export function offeredMethods(state: LoginState, configured: readonly LoginMethod[]): LoginMethod[] {
  if (state.kind !== 'choosing') return [];
  if (!state.reauth) return [...configured];
  return [methodOf(state.reauth.credentialType)];
}

/** Seconds left before "send again" is allowed, rounded up; 0 when allowed. */
export function resendSecondsLeft(state: LoginState, now: number): number {
  if (state.kind !== 'code-entry' && state.kind !== 'verifying-code') return 0;
  return Math.max(0, Math.ceil((state.resendAt - now) / 1000));
}

/** A 429 pushes the resend cooldown out to what the service asked (reference.md: Retry-After). */
function cooldownAfter(resendAt: number, event: { failure: Failure; now: number }): number {
  const { failure } = event;
  return failure.code === 'rate_limited' && failure.retryAfter !== undefined ? Math.max(resendAt, event.now + failure.retryAfter * 1000) : resendAt;
}

function reauthOf(state: LoginState): { reauth?: ReauthReason } {
  return 'reauth' in state && state.reauth ? { reauth: state.reauth } : {};
}

function reauthFor(session: SessionInfo, why: ReauthReason['why']): ReauthReason {
  return { why, credentialType: session.credentialType };
}

export function transition(state: LoginState, event: LoginEvent): LoginState {
  // Events that apply whatever the screen.
  switch (event.type) {
    case 'REMOTE_LOGGED_IN':
      if (state.kind === 'logging-out') return state;
      return { kind: 'logged-in', session: event.session, expiring: false };
    case 'REMOTE_REFRESHED':
      if (state.kind !== 'logged-in' && state.kind !== 'refreshing') return state;
      return { kind: 'logged-in', session: event.session, expiring: false };
    default:
      break;
  }

  switch (state.kind) {
    case 'restoring':
      if (event.type === 'RESTORED') {
        if (event.session) return { kind: 'logged-in', session: event.session, expiring: false };
        if (event.missingKey) return choosing({ reauth: { why: 'key-missing', credentialType: event.missingKey } });
        if (event.expired) return choosing({ reauth: { why: 'expired', credentialType: event.expired } });
        return choosing();
      }
      return state;

    case 'choosing':
      if (event.type === 'CHOOSE') {
        // On re-auth only the ended session's type is accepted.
        if (state.reauth && METHOD_CREDENTIAL[event.method] !== state.reauth.credentialType) return state;
        const common = reauthOf(state);
        if (isOtpMethod(event.method)) return { kind: 'sending-code', method: event.method, ...common };
        return { kind: 'authenticating', method: event.method, ...common };
      }
      if (event.type === 'LOGGED_IN') return { kind: 'logged-in', session: event.session, expiring: false };
      // A background step (passkey autofill, a failed start-up check) reports here.
      if (event.type === 'FAILED') return choosing({ failure: event.failure, ...reauthOf(state) });
      // "Use another method" on a re-auth screen offers every configured method again.
      if (event.type === 'BACK' && state.reauth) return choosing();
      return state;

    case 'sending-code':
      if (event.type === 'CODE_SENT') {
        return { kind: 'code-entry', method: state.method, resendAt: event.now + (event.cooldownMs ?? RESEND_COOLDOWN_MS), ...reauthOf(state) };
      }
      if (event.type === 'FAILED' && state.resendAt !== undefined) {
        return { kind: 'code-entry', method: state.method, resendAt: cooldownAfter(state.resendAt, event), failure: event.failure, ...reauthOf(state) };
      }
      if (event.type === 'FAILED') return choosing({ failure: event.failure, ...reauthOf(state) });
      if (event.type === 'CANCELLED' || event.type === 'BACK') return choosing(reauthOf(state));
      return state;

    case 'code-entry':
      if (event.type === 'SUBMIT_CODE') {
        return { kind: 'verifying-code', method: state.method, resendAt: state.resendAt, ...reauthOf(state) };
      }
      if (event.type === 'RESEND') {
        if (event.now < state.resendAt) return state;
        return { kind: 'sending-code', method: state.method, resendAt: state.resendAt, ...reauthOf(state) };
      }
      if (event.type === 'BACK' || event.type === 'CANCELLED') return choosing(reauthOf(state));
      if (event.type === 'LOGGED_IN') return { kind: 'logged-in', session: event.session, expiring: false };
      return state;

    case 'verifying-code':
      if (event.type === 'LOGGED_IN') return { kind: 'logged-in', session: event.session, expiring: false };
      if (event.type === 'FAILED') {
        return { kind: 'code-entry', method: state.method, resendAt: cooldownAfter(state.resendAt, event), failure: event.failure, ...reauthOf(state) };
      }
      if (event.type === 'CANCELLED') {
        return { kind: 'code-entry', method: state.method, resendAt: state.resendAt, ...reauthOf(state) };
      }
      return state;

    case 'authenticating':
      if (event.type === 'LOGGED_IN') return { kind: 'logged-in', session: event.session, expiring: false };
      if (event.type === 'FAILED') return choosing({ failure: event.failure, ...reauthOf(state) });
      if (event.type === 'CANCELLED' || event.type === 'BACK') return choosing(reauthOf(state));
      return state;

    case 'logged-in':
      if (event.type === 'EXPIRING') return { ...state, expiring: true };
      if (event.type === 'REFRESH') return { kind: 'refreshing', session: state.session };
      if (event.type === 'EXPIRED') return choosing({ reauth: reauthFor(state.session, 'expired') });
      if (event.type === 'KEY_MISSING') return choosing({ reauth: reauthFor(state.session, 'key-missing') });
      if (event.type === 'LOGOUT') return { kind: 'logging-out', session: state.session };
      if (event.type === 'REMOTE_LOGGED_OUT') return choosing();
      if (event.type === 'FAILED') return { ...state, failure: event.failure };
      return state;

    case 'refreshing':
      if (event.type === 'REFRESHED') return { kind: 'logged-in', session: event.session, expiring: false };
      if (event.type === 'EXPIRED') return choosing({ reauth: reauthFor(state.session, 'expired') });
      if (event.type === 'KEY_MISSING') return choosing({ reauth: reauthFor(state.session, 'key-missing') });
      if (event.type === 'FAILED') {
        // A refresh that failed while the session still lives leaves the user logged in, told why.
        return { kind: 'logged-in', session: state.session, expiring: true, failure: event.failure };
      }
      if (event.type === 'REMOTE_LOGGED_OUT') return choosing();
      return state;

    case 'logging-out':
      if (event.type === 'LOGGED_OUT' || event.type === 'REMOTE_LOGGED_OUT') return choosing();
      if (event.type === 'FAILED') return { kind: 'logged-in', session: state.session, expiring: false, failure: event.failure };
      return state;
  }
}
