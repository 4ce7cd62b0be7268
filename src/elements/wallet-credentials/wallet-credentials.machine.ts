/**
 * The rules and screens of `<wallet-credentials>` as pure functions (tested under node, no DOM).
 *
 * Rules from api.md "Credential endpoints" and reference.md "Credentials" / "Sessions":
 * - at most one EMAIL_OTP and one SMS_OTP per wallet, any number of PASSKEY and OAUTH;
 * - at least one credential must remain ("If only one credential exists, the call returns 400");
 * - revoking a credential is signed by a session of a *different* credential, and ends every
 *   session of the revoked one;
 * - any active session may sign the revocation of a session, its own included (that is a logout).
 *
 * The element runs each operation through core and feeds back the outcome; this module decides
 * what may be offered, what needs a confirmation, and what the screen shows next.
 */
import type { AuthMethod, AuthSession, CredentialType } from '../../core/types.ts';
import type { Failure } from '../shared/failures.ts';

/** The session this browser holds for the account (from the key store), if any. */
export interface CurrentSession {
  sessionId: string;
  credentialId: string;
  credentialType: CredentialType;
  /** Its key is gone from this browser (the key store says so): this device can no longer use it. */
  keyMissing?: true;
}

export interface CredentialsView {
  credentials: AuthMethod[];
  sessions: AuthSession[];
  /** The session this browser signs with (the freshest it holds). */
  current: CurrentSession | null;
  /**
   * A session this browser also holds, of another credential than `current`'s (logged in with one,
   * then with another added later): it signs the removal of `current`'s credential.
   */
  other?: CurrentSession;
  /**
   * Every session this browser holds that the service lists (`current`, `other`, and any more: two
   * logins with one credential make two): "This device" is said on each and on its credential, but
   * for one whose key is gone (`keyMissing`), and ending one that is not `current` leaves this
   * device logged in.
   */
  held: CurrentSession[];
}

export type Operation =
  /** Adding an OTP credential sends it a code (api.md step (4): activation through its own verify flow) ... */
  | { op: 'add'; type: 'SMS_OTP' | 'OAUTH' }
  /** ... and the code is verified (a session of the new credential). */
  | { op: 'verify-code'; id: string }
  /** A new code for the credential awaiting activation (the last one expired, or never came). */
  | { op: 'resend-code'; id: string }
  | { op: 'revoke-credential'; id: string }
  | { op: 'revoke-session'; id: string }
  | { op: 'update-email' };

/** What the last operation achieved, announced politely in the live region. */
export type Notice =
  | { kind: 'added'; type: CredentialType }
  /** An added SMS credential's activation code was sent: it is not usable until that code is entered. */
  | { kind: 'activation-sent' }
  | { kind: 'activated'; type: CredentialType }
  | { kind: 'code-sent' }
  | { kind: 'credential-revoked' }
  | { kind: 'session-revoked'; own: boolean }
  | { kind: 'email-updated' };

/**
 * What went wrong, as the screen says it: a shared failure, or `logout_incomplete`: "Log out here"
 * logged this device out (core deletes its keys whatever the service answers) but the service did
 * not end every session it held; those stay listed until they expire.
 */
export type CredentialsFailure = Failure | (Omit<Failure, 'code'> & { code: 'logout_incomplete' | 'code_short' });

export type CredentialsState =
  | { kind: 'loading' }
  | { kind: 'load-failed'; failure: Failure }
  /** No account-id yet, or no session on this device: the lists need nothing signed, the changes do. */
  | {
      kind: 'ready';
      view: CredentialsView;
      confirming?: Operation;
      running?: Operation;
      failure?: CredentialsFailure;
      /** The row whose change failed (a credential or session id; the type of an add): the failure is said there. */
      about?: string;
      notice?: Notice;
      /** An added OTP credential whose activation code is awaited. */
      codeFor?: string;
      /** The failure is a reload's: the next lists read takes it away. */
      reloadFailed?: true;
    };

export type CredentialsEvent =
  /** `anew`: another wallet, or the element back on the page; what was open or running is dropped. */
  | { type: 'LOAD'; anew?: boolean }
  | { type: 'LOADED'; view: CredentialsView }
  | { type: 'LOAD_FAILED'; failure: Failure }
  /** The user asked for an operation; destructive ones wait for CONFIRM. */
  | { type: 'REQUEST'; operation: Operation }
  | { type: 'CONFIRM' }
  /** Dismisses the open confirmation, back to what was under it; `code`: the code form's Cancel, which abandons the code. */
  | { type: 'CANCEL'; code?: boolean }
  /**
   * `codeFor`: the operation sent an activation code for that credential; the code form opens.
   * `failure`: what it could not do besides (a logout the service did not complete).
   */
  | { type: 'SUCCEEDED'; view: CredentialsView; notice: Notice; codeFor?: string; failure?: CredentialsFailure }
  | { type: 'FAILED'; failure: CredentialsFailure }
  /** After a reload: the activation code this tab was waiting for (shared/pending-code.ts) still waits. */
  | { type: 'RESUMED'; codeFor: string };

/** Why a credential cannot be removed right now; the screen says it next to the button. */
export type RevokeBlock = 'last' | 'current' | 'login';

/**
 * Whether the credential may be revoked from this browser, and if not, why:
 * - `last`: it is the wallet's only credential (api.md: at least one must remain);
 * - `login`: no session on this device to sign with;
 * - `current`: every session this device holds belongs to that credential; the stamp must come
 *   from a session of a different credential (api.md "Revoking a credential").
 */
export function revokeBlock(view: CredentialsView, credentialId: string): RevokeBlock | null {
  return view.credentials.length <= 1 ? 'last' : !view.current ? 'login' : view.current.credentialId === credentialId && !view.other ? 'current' : null;
}

/** api.md: at most one EMAIL_OTP and one SMS_OTP; OAUTH per provider identity (any number here). */
export function canAdd(view: CredentialsView, type: 'SMS_OTP' | 'OAUTH'): boolean {
  return type === 'OAUTH' || !view.credentials.some((c) => c.type === type);
}

/** Whether an operation may start: not while another runs, and not against the rules above. */
export function allowed(state: CredentialsState, operation: Operation): boolean {
  if (state.kind !== 'ready' || state.running) return false;
  const { view } = state;
  switch (operation.op) {
    case 'add':
      return canAdd(view, operation.type);
    case 'revoke-credential':
      return !revokeBlock(view, operation.id);
    case 'revoke-session':
      return !!view.current && view.sessions.some((s) => s.id === operation.id);
    case 'update-email':
      return true;
    case 'verify-code':
    case 'resend-code':
      return state.codeFor === operation.id;
  }
}

/**
 * The lists after an operation the service has done, as this device knows them: for when reloading
 * them fails. The change stands (it happened upstream); the next load brings the service's lists.
 * `changed`: the credential added or removed. A removed credential's sessions end with it (api.md
 * "Revoking a credential"): those that carry its type, nickname and credentialId (reference.md
 * AuthSession) go. `ended`: the sessions a session's end ended (a logout, every one this device held).
 */
export function afterChange(view: CredentialsView, operation: Operation, changed?: AuthMethod, ended?: string[]): CredentialsView {
  switch (operation.op) {
    case 'add':
      return changed ? { ...view, credentials: [...view.credentials, changed] } : view;
    case 'revoke-credential': {
      // This device's sessions of it ended too: the other one it holds, if any, is the one it signs with.
      const [current = null, other] = [view.current, view.other].filter((s) => s && s.credentialId !== operation.id);
      return {
        credentials: view.credentials.filter((c) => c.id !== operation.id),
        sessions: view.sessions.filter((s) => s.type !== changed?.type || s.nickname !== changed.nickname || s.credentialId !== changed.credentialId),
        current,
        ...(other && { other }),
        held: view.held.filter((s) => s.credentialId !== operation.id),
      };
    }
    case 'revoke-session': {
      // Ending the session it signs with is a logout: this device then holds none.
      const out = view.current?.sessionId === operation.id;
      const other = !out && view.other?.sessionId !== operation.id && view.other;
      return {
        credentials: view.credentials,
        sessions: view.sessions.filter((s) => !ended?.includes(s.id)),
        current: out ? null : view.current,
        ...(other && { other }),
        held: out ? [] : view.held.filter((s) => s.sessionId !== operation.id),
      };
    }
    default:
      return view;
  }
}

export function initialState(): CredentialsState {
  return { kind: 'loading' };
}

export function transition(state: CredentialsState, event: CredentialsEvent): CredentialsState {
  // A reload reads the lists under the open screen (a code or an email being typed, a confirmation,
  // a running change); only a load anew, or one after a failed load, starts from "Loading".
  if (event.type === 'LOAD') return state.kind === 'ready' && !event.anew ? state : { kind: 'loading' };
  // Lists that failed to load follow a read made without LOAD too (another tab's change).
  if (state.kind !== 'ready') {
    if (event.type === 'LOADED') return { kind: 'ready', view: event.view };
    if (event.type === 'LOAD_FAILED') return { kind: 'load-failed', failure: event.failure };
  }
  if (state.kind !== 'ready') return state;
  const { view, codeFor } = state;
  switch (event.type) {
    case 'LOADED': {
      // A reload (another tab logged in, say) keeps a running operation's place; a "log in first"
      // failure goes once there is a session to act with.
      const { failure, reloadFailed, ...rest } = state;
      const stale = reloadFailed || (failure && event.view.current && ['login_required', 'session_expired', 'key_missing'].includes(failure.code));
      const next: CredentialsState = { ...(stale ? rest : state), view: event.view };
      // The question is about a row another tab or device removed meanwhile: it goes, and the
      // notice says what became of that row.
      const asked = state.confirming as { op: string; id: string } | undefined;
      if (asked && ![...event.view.credentials, ...event.view.sessions].some((x) => x.id === asked.id)) {
        delete next.confirming;
        next.notice = asked.op === 'revoke-session' ? { kind: 'session-revoked', own: asked.id === view.current?.sessionId } : { kind: 'credential-revoked' };
      }
      return next;
    }
    case 'LOAD_FAILED': {
      // A reload that fails is said over what is open (the lists shown stay), not in a row; during
      // a change, the change's own outcome speaks.
      const { about: _, ...open } = state;
      return state.running ? state : { ...open, failure: event.failure, reloadFailed: true };
    }
    case 'REQUEST': {
      const operation = event.operation;
      if (!allowed(state, operation)) return state;
      // A code being awaited stays open, with what was typed, through any other operation and its
      // confirmation: it is sent to the user's phone and cannot be had again without a new one.
      const awaited = codeFor ? { codeFor } : {};
      // Operations that delete something wait for an explicit confirmation.
      if (operation.op === 'revoke-credential' || operation.op === 'revoke-session') return { kind: 'ready', view, confirming: operation, ...awaited };
      return { kind: 'ready', view, running: operation, ...awaited };
    }
    case 'CONFIRM':
      return state.confirming ? { kind: 'ready', view, running: state.confirming, ...(codeFor ? { codeFor } : {}) } : state;
    case 'CANCEL':
      // The code form's Cancel abandons the code (a confirmation open beside it stays); a
      // confirmation's Cancel goes back to what was under it, a code form with what was typed in it.
      if (event.code) return { kind: 'ready', view, ...(state.confirming ? { confirming: state.confirming } : {}) };
      return { kind: 'ready', view, ...(codeFor ? { codeFor } : {}) };
    case 'SUCCEEDED': {
      if (!state.running) return state;
      // The lists, the notice, and a code form or a failure when the event brings one. A code
      // awaited before stays awaited unless it was just used, or its credential is gone.
      const { type, ...outcome } = event;
      const kept = !event.codeFor && state.running.op !== 'verify-code' && codeFor && event.view.credentials.some((c) => c.id === codeFor);
      return { kind: 'ready', ...outcome, ...(kept ? { codeFor } : {}) };
    }
    case 'FAILED': {
      // A removal, an end of a session or an add that failed is said in the row it is about.
      const r = state.running;
      const about = r?.op === 'add' ? r.type : (r?.op === 'revoke-credential' || r?.op === 'revoke-session') && r.id;
      return { kind: 'ready', view, failure: event.failure, ...(about ? { about } : {}), ...(codeFor ? { codeFor } : {}) };
    }
    case 'RESUMED':
      // Only onto a quiet screen, and only for a credential the list still has.
      return state.running || state.confirming || codeFor || !view.credentials.some((c) => c.id === event.codeFor) ? state : { kind: 'ready', view, codeFor: event.codeFor };
  }
  return state;
}
