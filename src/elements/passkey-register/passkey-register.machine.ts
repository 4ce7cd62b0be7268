/**
 * The flow of `<passkey-register>` as a pure state machine (tested under node, no DOM).
 *
 * api.md "Adding a credential when another exists" and "Registration of a passkey": options from
 * the integrator's backend (the proxy), a WebAuthn create that excludes the wallet's passkeys,
 * POST /auth/credentials (201 on a fresh wallet; 202 then a signed retry with the current session
 * key), then step (4) "activate the new credential through its own verify flow": a passkey login,
 * so the user ends with a passkey session.
 *
 * The element runs the work each state asks for; the machine only decides what comes next. It does
 * not hold the attestation, the challenge or any key: those live inside one core call.
 */
import type { Failure } from '../shared/failures.ts';

/** What the browser offers, from PublicKeyCredential and getClientCapabilities() where it exists. */
export type Support = 'checking' | 'none' | 'roaming-only' | 'platform';

/**
 * What went wrong, as the screen says it: a shared failure, or `passkey_kept`: cancelled while the
 * service saved the passkey, whose removal then failed (network, 5xx), so it may still be on the wallet.
 */
export type RegisterFailure = Failure | (Omit<Failure, 'code'> & { code: 'passkey_kept' });

export interface RegisteredPasskey {
  /** The AuthMethod id (`AuthMethod:<uuid>`). */
  credentialId: string;
  nickname: string;
}

export type RegisterState =
  /** Finding out whether this browser can create passkeys at all. */
  | { kind: 'checking' }
  /** No WebAuthn here: say so, offer nothing that would fail. */
  | { kind: 'unsupported' }
  /** The nickname form. `support` tells the screen whether to mention security keys. */
  | { kind: 'ready'; support: Exclude<Support, 'checking' | 'none'>; failure?: RegisterFailure }
  /**
   * One core call: registration options, the browser's passkey prompt, then POST /auth/credentials
   * (with the signed retry when the wallet already has a credential). `waiting`: another tab or
   * window of the site is adding a passkey to this wallet, and this one's turn (its prompt) comes
   * after (`true`; `'here'`: one of this page, such as a cancelled one whose passkey is being
   * removed), or its turn came (`false`); not yet known until core tells (a moment).
   */
  | { kind: 'creating'; support: Exclude<Support, 'checking' | 'none'>; waiting?: boolean | 'here' }
  /**
   * The wallet has credentials and this device has no session to sign with: log in first. Found so
   * by a registration, or told: the session ended while the form or the success showed.
   * `ended`: there was one as the registration began, and it ended before the passkey was saved.
   */
  | { kind: 'login-required'; support: Exclude<Support, 'checking' | 'none'>; ended?: boolean }
  /** Registered; the passkey login that activates it is running (a second prompt). */
  | { kind: 'activating'; support: Exclude<Support, 'checking' | 'none'>; passkey: RegisteredPasskey }
  /** Registered and activated: the user holds a passkey session. */
  | { kind: 'done'; support: Exclude<Support, 'checking' | 'none'>; passkey: RegisteredPasskey; sessionId: string }
  /** Registered, but the activation login did not finish: the passkey exists, offer to try it again. */
  | { kind: 'registered'; support: Exclude<Support, 'checking' | 'none'>; passkey: RegisteredPasskey; failure?: Failure };

export type RegisterEvent =
  | { type: 'SUPPORT'; support: Exclude<Support, 'checking'> }
  | { type: 'START' }
  /** The registration waits for another tab's (`true`) or this page's (`'here'`), or its turn came (`false`). */
  | { type: 'WAITING'; waiting: boolean | 'here' }
  /** `kept`: the user stopped the registration, but the passkey was saved and stays (a wallet's first). */
  | { type: 'SAVED'; passkey: RegisteredPasskey; kept?: boolean }
  | { type: 'ACTIVATED'; sessionId: string }
  | { type: 'LOGIN_REQUIRED'; ended?: boolean }
  /** A session appeared (the user logged in elsewhere on the page): the form is usable again. */
  | { type: 'SESSION_AVAILABLE' }
  /**
   * This device's session of the wallet ended (a logout here or in another tab, a revocation, its
   * time): "log in first" instead of a form that would fail; a registration under way ends as one
   * whose session ended (the element stops it).
   */
  | { type: 'SESSION_ENDED' }
  | { type: 'ACTIVATE' }
  | { type: 'FAILED'; failure: Failure }
  | { type: 'CANCELLED' }
  /** After CANCELLED: the passkey saved meanwhile could not be removed again (core's registerPasskey, `onKept`). */
  | { type: 'KEPT' }
  | { type: 'RESET' };

export function initialState(): RegisterState {
  return { kind: 'checking' };
}

/**
 * The default nickname: the platform's name and the date, so a list of passkeys tells them apart.
 * `unnamed`: the name when the browser names no platform, in the language of `locale`.
 */
export function defaultNickname(platform: string, date: Date, locale = 'en', unnamed = 'Passkey'): string {
  const day = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' }).format(date);
  const name = platform.trim() || unnamed;
  return `${name} · ${day}`.slice(0, 100);
}

/** reference.md: PASSKEY nickname length 1..100 (after trimming, so a blank label is refused). */
export function validNickname(nickname: string): boolean {
  const n = nickname.trim();
  return n.length >= 1 && n.length <= 100;
}

export function transition(state: RegisterState, event: RegisterEvent): RegisterState {
  const type = event.type;
  if (state.kind === 'checking') {
    if (type !== 'SUPPORT') return state;
    return event.support === 'none' ? { kind: 'unsupported' } : { kind: 'ready', support: event.support };
  }
  if (state.kind === 'unsupported') return state;
  // Every later state keeps what the browser supports, for the form it may return to.
  const { support } = state;
  switch (state.kind) {
    case 'ready':
    case 'creating':
      // Another wallet (RESET): what runs was for the previous one and is dropped.
      if (type === 'RESET') return state.kind === 'ready' && !state.failure ? state : { kind: 'ready', support };
      if (type === 'SESSION_ENDED') return { kind: 'login-required', support, ended: state.kind === 'creating' };
      // A step's outcome counts only while it runs: one that ends after a RESET was the previous wallet's.
      if (state.kind === 'ready') return type === 'START' ? { kind: 'creating', support } : type === 'KEPT' ? { kind: 'ready', support, failure: { code: 'passkey_kept' } } : state;
      if (type === 'LOGIN_REQUIRED') return event.ended ? { kind: 'login-required', support, ended: true } : { kind: 'login-required', support };
      if (type === 'WAITING') return event.waiting === state.waiting ? state : { kind: 'creating', support, waiting: event.waiting };
      if (type === 'SAVED') return { kind: event.kept ? 'registered' : 'activating', support, passkey: event.passkey };
      if (type === 'CANCELLED') return { kind: 'ready', support };
      if (type === 'FAILED') return { kind: 'ready', support, failure: event.failure };
      return state;

    case 'activating':
      if (type === 'RESET') return { kind: 'ready', support };
      if (type === 'ACTIVATED') return { kind: 'done', support, passkey: state.passkey, sessionId: event.sessionId };
      if (type === 'FAILED') return { kind: 'registered', support, passkey: state.passkey, failure: event.failure };
      if (type === 'CANCELLED') return { kind: 'registered', support, passkey: state.passkey };
      return state;

    case 'registered':
      if (type === 'ACTIVATE') return { kind: 'activating', support, passkey: state.passkey };
      return type === 'RESET' ? { kind: 'ready', support } : state;

    case 'login-required':
      return type === 'SESSION_AVAILABLE' || type === 'RESET' ? { kind: 'ready', support } : state;

    case 'done':
      return type === 'RESET' ? { kind: 'ready', support } : type === 'SESSION_ENDED' ? { kind: 'login-required', support } : state;
  }
}

/** Whether a ceremony or a call is running (buttons disabled, `:state(busy)`). */
export function isBusy(state: RegisterState): boolean {
  return state.kind === 'checking' || state.kind === 'creating' || state.kind === 'activating';
}
