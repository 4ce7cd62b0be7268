/**
 * What `<wallet-login>` does beyond showing its first screen, loaded with wallet-login.view.ts (which
 * imports it) once that screen is painted: each step of its machine as one core call (core/session.ts through shared/wallet.ts)
 * turned into the machine event it leads to, failures included; passkey autofill; codes read from
 * text messages; and session changes made in other tabs or by other elements of the page. The view renders.
 *
 * Follows api.md "Verify by credential type" through core; finds the credential of the chosen type
 * with GET /auth/credentials (reference.md). Holds nothing between calls except the OtpLogin
 * handle core returns (a verified target, no secret), which is also kept in the tab's
 * sessionStorage while its code waits (shared/pending-code.ts), so that a reload comes back to the
 * code screen instead of sending a new code.
 */
import { ServiceError, WalletError } from '../../core/errors.ts';
import { serviceNow, sessionEnd } from '../../core/clock.ts';
import type { StoredSession } from '../../core/keystore.ts';
import type { OtpLogin } from '../../core/session.ts';
import type { AuthMethod, CredentialType } from '../../core/types.ts';
import { beginCeremony } from '../shared/ceremony.ts';
import { classifyError, isCancellation, type FailureCode } from '../shared/failures.ts';
import { loaded } from '../shared/load.ts';
import { clientFor, keyStore, onSessionChange, readsAnew, sessionCode, walletFor } from '../shared/wallet.ts';
import { forgetPendingCode, keepPendingCode, storageKey, resumePendingCode } from '../shared/pending-code.ts';
import type { LoginEvent, LoginFailure, ReauthReason, SessionInfo } from './wallet-login.machine.ts';
import type { WalletLogin } from './wallet-login.ts';

/** One unit of work the machine asked for. */
export type Step = { kind: 'restore' | 'passkey' | 'oauth' | 'refresh' | 'logout' } | { kind: 'send-code'; type: CredentialType; reauth?: ReauthReason } | { kind: 'verify-code'; code: string };

/** What a 401 means in each step (api.md: 401 for a wrong code, a failed assertion, a stale token). */
const UNAUTHORIZED: Partial<Record<Step['kind'], FailureCode>> = {
  'verify-code': 'wrong_code',
  passkey: 'passkey_rejected',
  oauth: 'oauth_rejected',
};

/** The wallet has no credential of the asked type (the screen says "choose another way"). */
class NoCredentialError extends Error {}

interface SentCode {
  otp: OtpLogin;
  /** Its wallet and service (storageKey). */
  key: string;
  sentAt: number;
  resendAt: number;
  /** Sent to log in again after a session ended: the screen says so, back from a reload too. */
  reauth?: ReauthReason;
}

/** The code each element sent, between sending and verifying. */
const sentCodes = new WeakMap<WalletLogin, SentCode>();

const codeKey = (element: WalletLogin) => storageKey('code', element.apiBase, element.accountId);

/** Where the tab keeps a code left with "Use another way": one per way, so that leaving the other way's code too keeps both. */
const leftKey = (key: string, type: string) => key.replace(':code:', `:code:${type}:`);

/**
 * Forgets the code that waited (entered, abandoned, or a session came another way). `back`: the
 * user chose "Use another way"; the tab keeps the code as left: a reload shows the methods, and
 * choosing that way again comes back to it (see `send-code`). (A tab whose storage cannot keep
 * it cannot keep a session key either.) `spent`: the code being checked, or replaced by a new one
 * being sent, of the wallet it was sent for (the element may have another one now).
 */
export function forgetCode(element: WalletLogin, back?: boolean, spent?: boolean): void {
  const sent = sentCodes.get(element);
  sentCodes.delete(element);
  const key = (spent && sent?.key) || codeKey(element);
  forgetPendingCode(key);
  if (back && sent) return keepPendingCode(leftKey(sent.key, sent.otp.type), sent.otp, sent.sentAt, sent.resendAt, true);
  // The newest codes the tabs share go too: spent, or of no use once a session came or went; and the codes left.
  for (const type of ['EMAIL_OTP', 'SMS_OTP']) {
    forgetPendingCode(`${key}:${type}`, true);
    forgetPendingCode(leftKey(key, type));
  }
}

/** `shared`: a code just sent, which the other tabs may then offer (shared/pending-code.ts). */
function keepCode(element: WalletLogin, code: SentCode, shared?: boolean): void {
  sentCodes.set(element, code);
  keepPendingCode(code.key, code.otp, code.sentAt, code.resendAt, undefined, shared, code.reauth);
}

/**
 * The code this tab kept before a reload, its target verified again; or undefined. `left`: the one
 * of that way left with "Use another way" (else the one whose screen was showing).
 * `shared`: the newest code of that way any tab sent.
 */
async function resumeCode(element: WalletLogin, signal: AbortSignal, left?: CredentialType, shared?: CredentialType): Promise<SentCode | undefined> {
  const key = codeKey(element);
  const found = await resumePendingCode(shared ? `${key}:${shared}` : left ? leftKey(key, left) : key, element.accountId, walletFor(element.apiBase), signal, !!shared);
  if (!found || !found.saved.left !== !left) return;
  return { otp: found.otp, key, sentAt: found.saved.sentAt, resendAt: Number(found.saved.resendAt) || 0, reauth: found.saved.reauth as ReauthReason | undefined };
}

function sessionInfo(s: StoredSession): SessionInfo {
  // As core times it (session.ts isLive).
  const endsAt = sessionEnd(s);
  return { sessionId: s.sessionId, credentialType: s.credentialType, expiresAt: s.expiresAt, createdAt: s.createdAt, endsAt };
}

/**
 * A session the service no longer lists was revoked only while its expiresAt is still ahead on the
 * service's clock (the list's answer just read it, clock.ts): one past it ended at its time, however
 * much this device's own clock says is left.
 */
const endsLater = (s: { expiresAt: string }): boolean => Date.parse(s.expiresAt) > serviceNow();

function loggedIn(s: StoredSession): LoginEvent {
  return { type: 'LOGGED_IN', session: sessionInfo(s) };
}

function walletError(e: unknown, code: string): boolean {
  return e instanceof WalletError && e.code === code;
}

/**
 * The credentials of a type, the newest first. Several passkeys: the prompt offers every one, over
 * the challenge of the one this device last logged in with, else the newest's (a challenge names
 * one credential, reference.md "PASSKEY challenge"); core asks again, over its own challenge, for
 * another one the device holds instead (session.ts loginWithPasskey).
 */
async function credentials(element: WalletLogin, type: CredentialType, signal: AbortSignal): Promise<[AuthMethod, ...AuthMethod[]]> {
  const all = await clientFor(element.apiBase).listCredentials(element.accountId, { signal });
  const found = all.filter((c) => c.type === type).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  if (!found[0]) throw new NoCredentialError(`No ${type} credential.`);
  return found as [AuthMethod, ...AuthMethod[]];
}

/** Their ids, in that order. */
const credentialIds = async (element: WalletLogin, type: CredentialType, signal: AbortSignal) => (await credentials(element, type, signal)).map((c) => c.id);

/**
 * A passkey login offering each of the wallet's passkeys. The one this device last logged in with
 * (its AuthMethod id, per service and wallet) is remembered in localStorage: it is public (the
 * service lists it to anyone the proxy lets ask), not key material, which DESIGN.md keeps out of
 * localStorage; and it must outlive the tab and the logout, since it serves the next login. Asked
 * for first, a device with an older passkey of the wallet is prompted once rather than twice.
 */
async function passkeyLogin(element: WalletLogin, signal: AbortSignal, mediation?: 'conditional', offer?: () => void): Promise<LoginEvent> {
  // A page without WebAuthn (plain http, not localhost) can open no prompt, whatever the wallet holds.
  if (!('PublicKeyCredential' in globalThis)) throw new DOMException('No WebAuthn on this page.', 'NotSupportedError');
  const passkeys = await credentials(element, 'PASSKEY', signal);
  const key = storageKey('passkey', element.apiBase, element.accountId);
  const last = passkeys.find((p) => p.id === remembered(key)) ?? passkeys[0];
  // Autofill is offered only for a request that still stands.
  signal.throwIfAborted();
  offer?.();
  const session = await walletFor(element.apiBase).loginWithPasskey({ credentialId: last.id, passkeys, mediation, signal });
  remembered(key, session.credentialId);
  return loggedIn(session);
}

/** Reads (or, given `value`, writes) a remembered id; none where the page has no storage (an opaque origin throws). */
function remembered(key: string, value?: string): string | null | void {
  try {
    return value ? localStorage.setItem(key, value) : localStorage.getItem(key);
  } catch {
    // Nothing remembered: the newest passkey is asked for first.
  }
}

/** The element's stored live session, or undefined (core deletes an expired one's key when asked). */
export function currentSession(element: WalletLogin): Promise<StoredSession | undefined> {
  return walletFor(element.apiBase)
    .current(element.accountId)
    .catch(() => undefined);
}

/** Logs out a wallet the element no longer shows (a session its autofill led to after logout()); never throws. */
export const logoutOf = (apiBase: string | null, accountId: string): Promise<unknown> => walletFor(apiBase).logout(accountId).catch(() => undefined);

/** Runs a step; never throws: a failure is the FAILED (or CANCELLED, EXPIRED, KEY_MISSING) event. */
export async function runStep(element: WalletLogin, step: Step, signal: AbortSignal): Promise<LoginEvent> {
  const { accountId } = element;
  const wallet = walletFor(element.apiBase);
  try {
    switch (step.kind) {
      case 'restore':
        return await restore(element, signal);
      case 'send-code': {
        // A code left with "Use another way" (before a reload too): it still stands, so its screen
        // comes back, with the wait left, while a new one may not be asked for.
        const same = await resumeCode(element, signal, step.type);
        let now = Date.now();
        let code = same && now < same.resendAt ? same : undefined;
        let fresh: true | undefined;
        if (!code) {
          try {
            // (The wallet's: the element, taken off the page meanwhile, lets this step run to its end, and may show another by then.)
            const key = codeKey(element);
            const otp = await wallet.startOtpLogin({ credentialId: (await credentialIds(element, step.type, signal))[0]!, signal });
            // Stopped while its answer was checked (a session came from another tab): nothing to keep.
            signal.throwIfAborted();
            now = Date.now();
            code = { otp, key, sentAt: now, resendAt: now + Math.max(0, element.resendAfter) * 1000 };
            fresh = true;
          } catch (e) {
            if (!(e instanceof ServiceError && e.status === 429)) throw e;
            // A new one refused as too soon (the service waits longer than `resend-after`): the
            // code left (or on the screen), its new code offered once the service's wait is over;
            // or, when another tab sent a newer one since (which replaced it upstream), or this element
            // has none (it started before another one's code was kept), that one.
            const mine = (same ?? sentCodes.get(element))?.sentAt ?? 0;
            const newest = await resumeCode(element, signal, undefined, step.type);
            const kept = newest && newest.otp.type === step.type && newest.sentAt > mine ? newest : same;
            if (!kept) throw e;
            code = { ...kept, resendAt: now + (e.retryAfter ?? 0) * 1000 };
          }
        }
        keepCode(element, { ...code, reauth: step.reauth }, fresh);
        // (A wait already over is a cooldown below 0: none.)
        return { type: 'CODE_SENT', now, cooldownMs: code.resendAt - now };
      }
      case 'verify-code': {
        const otp = sentCodes.get(element)?.otp;
        if (!otp) throw new WalletError('session_expired', 'No code was requested.');
        return loggedIn(await otp.submit(step.code, { signal }));
      }
      case 'passkey': {
        // One ceremony at a time on the page (shared/ceremony.ts).
        const ceremony = beginCeremony(signal);
        try {
          return await passkeyLogin(element, ceremony.signal);
        } finally {
          ceremony.end();
        }
      }
      case 'oauth': {
        // The provider is called at once, while the wallet's identities (the newest first: core
        // tries the token on each in turn) are read: its sign-in window opens only within the
        // click's user activation (Safari's lasts about 1 s), which the list's answer may outlast.
        // None found (or no answer) while it is open: the provider is told to stop (`stop`), and
        // the screen says why.
        const stop = new AbortController();
        const ids = credentialIds(element, 'OAUTH', signal);
        ids.catch(() => stop.abort());
        signal.addEventListener('abort', () => stop.abort());
        const getIdToken = async (nonce: string) => {
          try {
            // No window once the list ruled it out (answered before the key was made) or the user
            // cancelled: the stop below would never come for a signal already aborted.
            stop.signal.throwIfAborted();
            // Cancel does not wait for the provider (a sign-in window the user left open).
            return await Promise.race([element.oidcTokenProvider!(nonce, { signal: stop.signal }), new Promise<never>((_, reject) => stop.signal.addEventListener('abort', reject))]);
          } catch (e) {
            // The user closed the sign-in window: a cancellation, which says nothing.
            if ((e as Error)?.name === 'AbortError') throw e;
            // No provider, or it failed: the page's part, not the service's refusal.
            throw new WalletError('invalid_argument', 'The page’s oidcTokenProvider gave no token.', { cause: e });
          }
        };
        // The list's failure first: it is why the provider was stopped.
        return loggedIn(
          await wallet.loginWithOAuth({ credentialId: ids, signal, getIdToken }).catch(async (e) => {
            throw (await ids, e);
          }),
        );
      }
      case 'refresh':
        return { type: 'REFRESHED', session: sessionInfo(await wallet.refresh(accountId, { signal })) };
      case 'logout': {
        // A code kept for a reload goes too (a logout during the start-up check, which may have
        // found one): a later reload must not show its screen.
        forgetCode(element);
        const ended = await wallet.logout(accountId, { signal });
        return ended[0] ? { type: 'LOGGED_OUT' } : { type: 'LOGGED_OUT', noSession: true };
      }
    }
  } catch (e) {
    if (step.kind === 'refresh') {
      if (walletError(e, 'key_missing')) return { type: 'KEY_MISSING' };
      // Ended on this device's clock, or (the service's refusal as its cause, core session.ts) ended
      // by the service: before its time on the service's clock, revoked from another device.
      if (walletError(e, 'session_expired')) return { type: (e as Error).cause && endsLater(element.session!) ? 'REVOKED' : 'EXPIRED' };
      // A refresh refused because the session already ended counts as expiry (reference.md: 401 if expired).
      if (e instanceof ServiceError && e.status === 401) return { type: 'EXPIRED' };
    }
    // A step stopped (Cancel, a newer step) ends as cancelled, whatever it was doing when it stopped.
    if (signal.aborted || isCancellation(e)) return { type: 'CANCELLED' };
    const failure: LoginFailure =
      e instanceof NoCredentialError
        ? { code: 'no_credential' }
        : walletError(e, 'passkey_mismatch')
          ? { code: 'passkey_other_wallet' }
        : step.kind === 'oauth' && walletError(e, 'invalid_argument')
          ? { code: 'oauth_unavailable' as const }
          : classifyError(e, { unauthorized: UNAUTHORIZED[step.kind] });
    // The proxy's own limit marks its 429 (src/proxy/rate-limit.ts): a first code refused by it was not sent.
    if (e instanceof ServiceError && e.details?.['reason'] === 'PROXY_RATE_LIMIT') failure.byProxy = true;
    const now = Date.now();
    // On the code screen, the wait a 429 asks for (only a rate limit carries one) pushes "Send a new
    // code" out, as the machine's cooldownAfter does: the tab keeps it too, so that a reload does
    // not offer what the service would refuse.
    const sent = sentCodes.get(element);
    if (sent && failure.retryAfter) keepCode(element, { ...sent, resendAt: Math.max(sent.resendAt, now + failure.retryAfter * 1000) });
    return { type: 'FAILED', failure, now };
  }
}

/**
 * Start-up: the stored session if it is live here and upstream; otherwise what ended it, so the
 * screen asks for that type again (api.md "Re-authentication after session expiry").
 */
async function restore(element: WalletLogin, signal: AbortSignal): Promise<LoginEvent> {
  const ended = await storedSession(element, signal);
  if (ended.session) return ended;
  // The methods come next: core's flows load now, not at the click, whose user activation a single
  // sign-on's provider needs for its window (Safari's lasts about 1 s). Asked for as the wallet asks
  // (twice at most, shared/load.ts); failed, the click asks again.
  void sessionCode().catch(() => undefined);
  const code = await resumeCode(element, signal);
  if (!code) return ended;
  sentCodes.set(element, code);
  return { ...ended, code: { type: code.otp.type, resendAt: code.resendAt }, reauth: code.reauth };
}

async function storedSession(element: WalletLogin, _signal: AbortSignal): Promise<LoginEvent & { type: 'RESTORED' }> {
  const { accountId } = element;
  const found = await keyStore().get(accountId);
  if (!found) return { type: 'RESTORED', session: null };
  const type = found.session.credentialType;
  let live: StoredSession | undefined;
  try {
    live = await walletFor(element.apiBase).current(accountId);
  } catch (e) {
    if (walletError(e, 'key_missing')) return { type: 'RESTORED', session: null, missingKey: type };
    throw e;
  }
  if (!live) return { type: 'RESTORED', session: null, expired: type };
  // The local clock may trust a session the service already ended: the active list (reference.md
  // "GET /auth/sessions") is the truth. A session with time left on the service's clock that the
  // service no longer lists was ended before its time (revoked from another device), as core judges
  // a refused signature.
  // The page's elements starting at once share one read of the list (core endpoints.ts); one asked
  // for before this session was stored here (another tab's login, whose news is still on its way)
  // may not hold it: then it is asked for anew, once.
  const client = clientFor(element.apiBase);
  const listed = async () => (await client.listSessions(accountId)).some((s) => s.id === live.sessionId);
  // (Not listed as its key is gone, it was logged out here or in another tab: below.)
  if (!(await listed()) && !(readsAnew(), await listed()) && (await keyStore().get(accountId))) {
    await keyStore().delete(live.sessionId);
    return { type: 'RESTORED', session: null, expired: live.credentialType, revoked: endsLater(live) };
  }
  // Its key gone meanwhile (a logout by another element or tab while the list was read, which the
  // list may then no longer hold): the page is told neither a login nor a logout of it, nor an end
  // elsewhere (watchSessions' late logout then changes nothing).
  if (!(await keyStore().get(accountId))) return { type: 'RESTORED', session: null };
  return { type: 'RESTORED', session: sessionInfo(live) };
}

/** WebAuthn's helpers (core/webauthn.ts), asked for as every on-demand module is (load.ts `loaded`). */
const webauthnCode = loaded(() => import('../../core/webauthn.ts'));

/** The page's autofill turn: one conditional request may wait at a time; the elements queue for it. */
let turn: Promise<unknown> = Promise.resolve();

/**
 * Passkey autofill (WebAuthn conditional mediation): when the browser supports it and the wallet
 * has a passkey, calls `offer(true)` (the element shows the saved-passkey field), then waits for the
 * user's pick. Autofill is an offer: a superseded or declined request ends with nothing to send.
 * A page holds one conditional request, so the elements of a page take turns, in the order they
 * asked, each once no passkey prompt runs; one cut off by a prompt (`offer(false)`) asks again.
 */
export async function autofill(element: WalletLogin, signal: AbortSignal, offer: (shown: boolean) => void): Promise<LoginEvent | undefined> {
  const webauthn = await webauthnCode();
  const supported = await webauthn.browserSupportsWebAuthnAutofill();
  for (;;) {
    if (!supported || signal.aborted) return;
    const picks = webauthn.picked;
    const previous = turn;
    let release!: (value?: unknown) => void;
    turn = Promise.all([previous, new Promise((r) => (release = r))]);
    try {
      await Promise.race([previous.then(webauthn.passkeyIdle), new Promise((r) => signal.addEventListener('abort', r))]);
      if (signal.aborted) return;
      return await passkeyLogin(element, signal, 'conditional', () => offer(true));
    } catch (e) {
      // A cancellation is classified 'cancelled' below.
      if (signal.aborted || e instanceof NoCredentialError) return;
      // Cut off by another passkey request of the page: offered again once that one ended.
      if ((e as { cause?: Error }).cause?.name === 'AbortError') {
        offer(false);
        continue;
      }
      // A passkey of another wallet of the site, which autofill offers too, is said so. A failure
      // after the user's pick (that, a refused assertion, a lost answer) is offered again (`again`);
      // one before it (the list or challenge refused) is not: it would fail the same way at once.
      const failure: LoginFailure = walletError(e, 'passkey_mismatch') ? { code: 'passkey_other_wallet' } : classifyError(e, { unauthorized: 'passkey_rejected' });
      const again = webauthn.picked > picks;
      if (failure.code !== 'cancelled') return { type: 'FAILED', failure, now: Date.now(), again };
      // A prompt after the pick closed (core asks for an older passkey of the wallet in a prompt of
      // its own): nothing to say, and autofill is offered again in the same field.
      if (!again) return;
    } finally {
      release();
    }
  }
}

/** A code the browser read from a text message (WICG "WebOTP API"), where it can. */
export async function smsCode(signal: AbortSignal): Promise<string | undefined> {
  if (!('OTPCredential' in globalThis)) return;
  const credential = await navigator.credentials.get({ otp: { transport: ['sms'] }, signal } as CredentialRequestOptions).catch(() => null);
  // An OTPCredential carries `code`.
  return (credential as { code?: string } | null)?.code;
}

/**
 * Session changes of the element's account made elsewhere: in other tabs (BroadcastChannel, whose
 * message says only "look again") and by other elements of this page (Wallet.subscribe). The
 * element's own steps report through its task, so a change of the page heard while one runs
 * (`running()`, its run) is its own; but for a logout, which may be another element's that the
 * step's outcome would undo (a session its start-up check found, logged out meanwhile): that one is
 * heard once the element's steps are done, as the key store then has it. Returns the unsubscribe.
 */
export function watchSessions(element: WalletLogin, send: (event: LoginEvent, otherTab: boolean) => void, running: () => Promise<unknown> | undefined): () => void {
  return onSessionChange(element.apiBase, async ({ type, accountId, session, revoked }, otherTab) => {
    if (accountId !== element.accountId) return;
    let late: Promise<unknown> | undefined;
    for (let run; !otherTab && (run = running()); ) await (late = run).catch(() => undefined);
    // Heard late, only a logout counts. A logout counts only when this device holds no session of
    // the wallet now: one there then was found or made after it (a login stored during the logout).
    if (type === 'logged-out') return void ((await keyStore().get(accountId).catch(() => undefined)) || send({ type: 'REMOTE_LOGGED_OUT' }, otherTab));
    if (late) return;
    const live = session ?? (await currentSession(element));
    // Found ended elsewhere (expired, key lost, revoked upstream): this element's session is gone too.
    if (type === 'ended') return void (live || send({ type: revoked ? 'REVOKED' : 'EXPIRED' }, otherTab));
    if (live && live.sessionId !== element.session?.sessionId) send({ type: type === 'refreshed' ? 'REMOTE_REFRESHED' : 'REMOTE_LOGGED_IN', session: sessionInfo(live) }, otherTab);
  });
}
