/**
 * What `<wallet-login>` does beyond showing its first screen, loaded with import() once that screen
 * is painted (wallet-login.ts), together with the session flows it imports (wallet-login.flows.ts):
 * the machine of wallet-login.machine.ts and its wiring, one screen per state after the first, and
 * the browser facilities the screens use: timers for expiry, paste and text messages for codes,
 * passkey autofill. It never calls fetch or IndexedDB and never holds a key; a typed code stays in
 * its input until it is handed to core.
 *
 * A `LoginView` belongs to one element, which calls it once loaded: it reads the element's
 * properties, dispatches the element's events on the element and asks it to render again.
 */
import { html, nothing, type TemplateResult } from 'lit/html.js';
import { Task, TaskStatus, initialState as nothingDone } from '../shared/task.ts';
import type { LocaleController } from '../shared/i18n.ts';
import { failureMessage, isCodeProblem } from '../shared/strings.ts';
import { afterFirstPaint } from '../shared/idle.ts';
import { gotThrough, loadFailureCode, stopWaiting, whenOnline } from '../shared/load.ts';
import { keyboardIn, mayFocus } from '../shared/list.ts';
import { codeDigits, codeInput } from '../shared/code-input.ts';
import { ENDS, credentialOf, initialState, offeredMethods, parseMethods, resendSecondsLeft, transition, type LoginEvent, type LoginFailure, type LoginMethod, type LoginState, type SessionInfo } from './wallet-login.machine.ts';
import { autofill, currentSession, forgetCode, logoutOf, runStep, smsCode, watchSessions, type Step } from './wallet-login.flows.ts';
import { SessionExpiringEvent, WalletLoggedInEvent, WalletLoggedOutEvent, WalletLoginErrorEvent, type LoggedOutDetail } from './wallet-login.events.ts';
import type { WalletLogin } from './wallet-login.ts';
import type { CredentialType } from '../../core/types.ts';
// The strings only this code shows (the methods' autofill field and a session's end too, drawn by
// wallet-login.ts once this is loaded): registered with it, not up front.
import './wallet-login.view-strings.ts';

/**
 * The flows, which came with this module; their calls stay asynchronous, as when they loaded on their
 * own. (A plain object, not the module's namespace, which a bundler builds with a helper of its own:
 * in the CDN build a file that every element would fetch up front.)
 */
const loadedFlows = { autofill, currentSession, forgetCode, logoutOf, runStep, smsCode, watchSessions };
const flows = async (): Promise<typeof loadedFlows> => loadedFlows;

/** The screens of a code asked for and not yet used. */
const CODE_STATES = new Set<LoginState['kind']>(['sending-code', 'code-entry', 'verifying-code']);

/** The abort reason of a passkey autofill stopped by logout(). */
const LOGOUT = 'logout';

/** The polite announcement on entering a state. */
const NOTICES: Partial<Record<LoginState['kind'], string>> = {
  'sending-code': 'login.sending',
  'verifying-code': 'login.code.verifying',
  refreshing: 'login.session.refreshing',
  'logging-out': 'login.session.logging-out',
};

/** Why a session ended, by the event that left the logged-in screens. */
const LOGOUT_REASONS: Partial<Record<LoginEvent['type'], LoggedOutDetail['reason']>> = { ...ENDS, REMOTE_LOGGED_OUT: 'elsewhere' };

/** What the element shows around the screen: the failure's sentence, the wait, the polite notice. */
export interface Lines {
  error: string;
  wait: string;
  notice: string;
  /** The notice is said to a screen reader only. */
  quiet: boolean;
}

export class LoginView {
  readonly #host: WalletLogin;
  readonly #i18n: LocaleController;
  /** The `aria-level` of the element's heading (TemplateElement `level`). */
  readonly #level: () => number | typeof nothing;

  #machine: LoginState = initialState();
  #notice = '';
  #autofill = false;

  constructor(host: WalletLogin, i18n: LocaleController, level: () => number | typeof nothing) {
    this.#host = host;
    this.#i18n = i18n;
    this.#level = level;
    this.#flow = this.#steps();
  }

  /** The state of the machine, its screen; setting another renders the element again. */
  get machine(): LoginState {
    return this.#machine;
  }

  private set machine(state: LoginState) {
    this.#set(state, this.#notice, this.#autofill);
  }

  private get notice(): string {
    return this.#notice;
  }

  private set notice(notice: string) {
    this.#set(this.#machine, notice, this.#autofill);
  }

  /** Whether the saved-passkey field shows (the browser offers passkey autofill). */
  get autofill(): boolean {
    return this.#autofill;
  }

  private set autofill(shown: boolean) {
    this.#set(this.#machine, this.#notice, shown);
  }

  #set(machine: LoginState, notice: string, autofill: boolean): void {
    if (machine === this.#machine && notice === this.#notice && autofill === this.#autofill) return;
    [this.#machine, this.#notice, this.#autofill] = [machine, notice, autofill];
    this.#host.requestUpdate();
  }

  #focusPending = false;
  /** The keyboard was in the element when its start-up check began again (back online). */
  #refocus = false;
  #timers: ReturnType<typeof setTimeout>[] = [];
  /** The session's renewal and end (set again by `schedule`, which leaves the other timers be). */
  #sessionTimers: ReturnType<typeof setTimeout>[] = [];
  #ticker: ReturnType<typeof setInterval> | undefined;
  /** When the failure shown appeared (its rate-limit wait counts from there). */
  #failureAt = 0;
  /** Passkey autofill or WebOTP: a request that waits in the background while a screen is shown. */
  #background: AbortController | undefined;
  /** The passkey autofill's request while it runs (its answer is this element's own login). */
  #autofillRun: Promise<void> | undefined;
  #unwatch: (() => void) | undefined;
  /**
   * The element's binding to `accountId|apiBase`: a new object each time it (re)binds, undefined
   * while disconnected. A step started under an earlier binding reports nothing, even one of the
   * same account (the element was moved in the page while it ran).
   */
  #bound: { key: string } | undefined;
  /** The run of the latest step. */
  #run: Promise<void> | undefined;
  /** The run of the latest step when it is a logout or a renewal, or a code sent or checked as the element went: it runs to its end (see `#unbind`). */
  #uncut: Promise<void> | undefined;
  /**
   * The way of a code still being sent when Cancel was pressed: the send runs on, uncut (the service
   * sends the code all the same), its code kept as left with "Use another way", so that the way
   * chosen again comes back to it (at once, or when it arrives) rather than being refused as too soon.
   */
  #setAside: CredentialType | undefined;
  /** A code refused when it was checked off the page, and its wallet (`#bound`'s key). */
  #refused: { key: string; failure: LoginFailure } | undefined;

  /** The machine's steps (`#steps`). */
  readonly #flow: Task<[Step], LoginEvent>;

  /**
   * Runs the machine's steps one at a time; a new step aborts the running one, stale results are
   * dropped, and so is the result of a step started for another account. Steps report failures as
   * events; only the code they load on demand failing to arrive is an error here.
   */
  #steps(): Task<[Step], LoginEvent> {
    return new Task<[Step], LoginEvent>(this.#host, {
      task: async ([step], { signal }) => {
        const bound = this.#bound;
        const event = await (await flows()).runStep(this.#host, step, signal);
        const refused = this.#refused;
        if (step.kind === 'restore') this.#refused = undefined;
        if (this.#bound === bound) return event.type === 'RESTORED' && event.code && refused?.key === bound?.key ? { ...event, failure: refused!.failure } : event;
        // A code checked as the element went, and refused: it still waits upstream, and the element
        // put back for its wallet shows its screen with the failure.
        if (bound && step.kind === 'verify-code' && event.type === 'FAILED') this.#refused = { key: bound.key, failure: event.failure };
        return nothingDone;
      },
      onComplete: (event) => {
        if (!this.#setAside) return this.#send(event);
        // A code sent after Cancel waits as left (see `#setAside`), while the methods show (else a
        // session came meanwhile: it goes); what else ends it says nothing: the user left that screen.
        this.#setAside = undefined;
        if (event.type === 'CODE_SENT') void flows().then((f) => f.forgetCode(this.#host, this.machine.kind === 'choosing'), () => undefined);
      },
      onError: (e) => this.#send({ type: 'FAILED', failure: { code: loadFailureCode(e) }, now: Date.now() }),
    });
  }

  /** The live session shown, or null (WalletLogin `session`). */
  get session(): SessionInfo | null {
    return 'session' in this.machine ? this.machine.session : null;
  }

  /** WalletLogin `logout()`. */
  logout(): void {
    // On the methods screen a passkey picked from autofill may be being checked: it stops, as a
    // passkey login does (a session it still led to is logged out), and autofill is offered again.
    // So does a code still being sent after Cancel: a logout keeps no code.
    if (this.machine.kind === 'choosing') {
      this.#background?.abort(LOGOUT);
      if (this.#setAside) this.#flow.abort();
    }
    this.#send({ type: 'LOGOUT' });
  }

  /** WalletLogin `refresh()`. */
  refresh(): void {
    this.#send({ type: 'REFRESH' });
  }

  /** WalletLogin `cancel()`. */
  cancel(): void {
    const m = this.machine;
    if (this.#uncut) return;
    if (m.kind === 'sending-code' && this.busy) {
      this.#setAside = credentialOf(m.method);
      this.#send({ type: 'CANCELLED' });
    } else this.#flow.abort();
  }

  /** The code field, while the code screen shows. */
  get #codeInput(): HTMLInputElement | null {
    return this.#host.renderRoot.querySelector('#code');
  }

  /** A step is under way (not a code being sent after Cancel, whose screen is gone). */
  get busy(): boolean {
    return this.#flow.status === TaskStatus.PENDING && !this.#setAside;
  }

  /**
   * The element is on the page. `painted`: its first screen is on it already, the check starts at
   * once; `refocus`: the keyboard was in the element, and goes to the screen the check ends on.
   */
  connected(painted?: boolean, refocus?: boolean): void {
    this.#refocus = !!refocus;
    this.#listen();
    this.bind(painted);
  }

  #listen(): void {
    this.#host.addEventListener('paste', this.#onPaste);
    document.addEventListener('visibilitychange', this.#onWake);
    window.addEventListener('pageshow', this.#onWake);
  }

  disconnected(): void {
    this.#host.removeEventListener('paste', this.#onPaste);
    document.removeEventListener('visibilitychange', this.#onWake);
    window.removeEventListener('pageshow', this.#onWake);
    // Taken off the page, it stops; moved in it (a framework connects it again in the same task),
    // it goes on as it was: still bound, `bind` then keeps the screen and what runs.
    queueMicrotask(() => this.#host.isConnected || this.#unbind());
  }

  /**
   * (Re)starts for the current account: the first screen, then the stored session and the
   * listeners. `painted`: the first screen is on the page already (the element waited for it).
   */
  bind(painted?: boolean, again?: boolean): void {
    const key = this.#key;
    if (!this.#host.isConnected || (!again && key === this.#bound?.key)) return;
    this.#unbind();
    const bound = (this.#bound = { key });
    this.machine = initialState();
    // The restoring screen needs none of what follows (code to load, IndexedDB to open, a channel),
    // so it goes on the page first. A logout or renewal left running when the element went (and
    // came back) ends first: the check would cut it off, with a session live upstream and no key here;
    // so does a code being checked, whose session the check then finds.
    const uncut = this.#uncut;
    void (painted ? Promise.resolve() : this.#host.updateComplete.then(() => uncut).then(afterFirstPaint)).then(async () => {
      if (this.#bound !== bound) return;
      // (A logout asked for before the check began runs instead of it.)
      if (this.#host.accountId && !('logout' in this.machine)) this.#start({ kind: 'restore' });
      await this.#watch(bound);
    });
  }

  /** Follows the wallet's logins and logouts here and in other tabs while `bound`. */
  async #watch(bound: object): Promise<void> {
    const loaded = await flows().catch(() => undefined);
    // A change whose session was still being looked up when the page set another wallet was the previous one's.
    if (loaded && this.#bound === bound) this.#unwatch = loaded.watchSessions(this.#host, (e, otherTab) => this.#bound === bound && this.#sendRemote(e, otherTab), () => (this.busy ? this.#run : undefined));
  }

  /** The wallet the element is for: its account and where it calls. */
  get #key(): string {
    return `${this.#host.accountId}|${this.#host.apiBase ?? ''}`;
  }

  #unbind(): void {
    const bound = this.#bound;
    this.#bound = undefined;
    const m = this.machine;
    // A logout runs to its end (a page that logs out, then changes route): cut off, it would leave
    // live upstream the session the user ended here; so does a renewal, which the service may have
    // made already (the old session ended there): its new session and key are then kept here. The
    // element reports nothing of either. So does a code being sent, which the service sends all
    // the same: kept for a reload, its screen comes back with the element (`bind` waits for it);
    // and, off the page (not another wallet set, nor a logout asked for), a code being checked, which
    // the service spends all the same: its session is kept here, and shown by the element put back.
    const checked = bound && m.kind === 'verifying-code' && !m.logout && !this.#host.isConnected;
    if (bound && (m.kind === 'sending-code' || checked)) this.#uncut = this.#run;
    if (!this.#uncut) this.#flow.abort();
    // A code being checked is spent (stopped, the session it made is ended upstream; or, checked to
    // its end, on a session, unless refused), and a new code being sent may have replaced the old
    // one upstream: forgotten (once: not the new one, kept by the time the element is back), so
    // that the element, back, never shows a code the service refuses.
    if (bound && (m.kind === 'verifying-code' || (m.kind === 'sending-code' && m.resendAt !== undefined)))
      void Promise.resolve(checked && this.#uncut)
        .then(flows)
        .then((f) => this.#refused?.key === bound.key || f.forgetCode(this.#host, false, true), () => undefined);
    this.#background?.abort();
    stopWaiting(this.#host);
    clearInterval(this.#ticker);
    this.#clearTimers();
    this.#unwatch?.();
    this.#unwatch = undefined;
  }

  /**
   * After its code failed to load (the element showed the methods and the failure, as the machine
   * would have), it arrived at the user's choice of `method`, with no session stored on this
   * device (the element looked first: one there is shown through `connected`, the start-up check):
   * the methods, bound, then the choice (whose step replaces the failure); with none (cancelled
   * meanwhile), the methods, as after a cancel. From now on, the wallet's sessions are followed, as
   * after the start-up check; and, on the methods, a session stored on this device (the start-up
   * check, which the failed load kept from running, would have shown it) is looked up on the device:
   * one there runs that check, as on a page just loaded, keeping the keyboard in the element; with
   * none, the methods stay as they are.
   */
  resume(method?: LoginMethod): void {
    this.#listen();
    const bound = (this.#bound = { key: this.#key });
    const methods = (this.#machine = { kind: 'choosing' });
    if (method) this.#send({ type: 'CHOOSE', method });
    else
      void flows()
        .then((f) => f.currentSession(this.#host))
        .then((stored) => {
          if (!stored || this.#bound !== bound || this.machine !== methods) return;
          this.#refocus = keyboardIn(this.#host);
          this.bind(true, true);
        });
    void this.#watch(bound);
  }

  /** Whether a session of the element's wallet is stored on this device (looked up there only; never fails). */
  stored(): Promise<boolean> {
    return flows()
      .then((f) => f.currentSession(this.#host))
      .then((session) => !!session);
  }

  /** The custom states of the screen beside its own. */
  states(): Record<string, boolean> {
    const s = this.machine;
    return { expiring: s.kind === 'logged-in' && s.expiring, reauth: s.kind === 'choosing' && !!s.reauth, busy: this.busy };
  }

  /** After each render: focus moves where the screen asks. */
  updated(): void {
    if (this.#focusPending) {
      this.#focusPending = false;
      this.#host.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Machine wiring

  #start(step: Step): void {
    this.#setAside = undefined;
    const run = (this.#run = this.#flow.run([step]));
    this.#uncut = step.kind === 'logout' || step.kind === 'refresh' ? run : undefined;
  }

  /** `outside`: a session change made elsewhere (another tab or element). */
  #send(event: LoginEvent, outside?: boolean): void {
    const before = this.machine;
    const after = transition(before, event, parseMethods(this.#host.methods));
    if (after === before) return;
    this.machine = after;
    this.#effects(before, after, event, outside);
  }

  /**
   * A session change from elsewhere. A passkey picked from autofill logs in through core, which
   * tells the page's listeners before the autofill's own answer comes back: a passkey login of
   * this page heard while autofill runs waits for that answer, which reports it as this element's
   * (`source: 'login'`, focus moved). It counts as one from elsewhere only if the autofill ends
   * without it (another passkey request of the page ends a pending autofill).
   */
  #sendRemote(event: LoginEvent, otherTab: boolean): void {
    const run = !otherTab && event.type === 'REMOTE_LOGGED_IN' && event.session.credentialType === 'PASSKEY' && this.#autofillRun;
    if (!run) return this.#send(event, true);
    // (Only to the wallet it was heard for: the page may set another one meanwhile.)
    const bound = this.#bound;
    void run.then(() => {
      if (this.#bound === bound && this.session?.sessionId !== event.session.sessionId) this.#send(event, true);
    });
  }

  /** What entering a state starts, and what the page is told. */
  #effects(before: LoginState, after: LoginState, event: LoginEvent, outside?: boolean): void {
    const t = this.#i18n.t;
    // A logout asked for while a step runs (the machine keeps it for the step's end): the start-up
    // check, which only reads, gives way to the logout at once; a login waiting on the user (a
    // passkey prompt, the identity provider) or a code being sent stops. A code being checked and
    // a renewal run to their end: cut off, they could leave a session upstream whose key nobody
    // holds; the session they lead to is logged out.
    if (event.type === 'LOGOUT') {
      // (After a logout or renewal left running when the element went: it would be cut off.)
      const bound = this.#bound;
      if (after.kind === 'restoring') void Promise.resolve(this.#uncut).then(() => this.#bound === bound && this.#start({ kind: 'logout' }));
      if (after.kind === 'authenticating' || after.kind === 'sending-code') this.#flow.abort();
      if (after.kind === before.kind) return;
    }
    const remote = event.type.startsWith('REMOTE_');
    // A code being sent after Cancel stops once the methods give way to anything but that way's
    // screen (a login another way, here or elsewhere): its code would be of no use.
    if (this.#setAside && after.kind !== 'choosing' && after.kind !== 'sending-code') this.#flow.abort();
    // Another tab logged in or out meanwhile: the step under way (a code being sent, a passkey
    // prompt, a renewal) belongs to a screen that is gone, and stops before it keeps a code or a key.
    if (remote) this.#flow.abort();
    // A change from elsewhere (a session ended there too) moves focus only from inside this element,
    // where the screen it was on is gone (otherwise the keyboard would fall back to the page's start);
    // one of its own never from a field of the page (a renewal or an end on its timers).
    if (after.kind !== before.kind && before.kind !== 'restoring' && mayFocus(this.#host, outside)) this.#focusPending = true;
    // (A check run again once online, the keyboard was on the methods: it stays in the element.)
    if (before.kind === 'restoring' && this.#refocus) [this.#focusPending, this.#refocus] = [true, false];
    // The stored session could not be checked for want of a connection: back online, the check
    // runs again, as at the start, unless the screen changed meanwhile. Unbound (taken off the page,
    // or another wallet set), the element waits no more.
    if (before.kind === 'restoring' && after.kind === 'choosing' && after.failure?.code === 'network') {
      const again = () => {
        if (this.machine !== after) return;
        this.#refocus = keyboardIn(this.#host);
        this.bind(true, true);
      };
      // (Just back online, a check that fails so runs again a moment later: whenOnline; the count
      // is the element's, so a check after a load made at `online` has it too.)
      whenOnline(this.#host, again);
    } else if (before.kind === 'restoring') gotThrough(this.#host);
    if (after.kind !== 'choosing') this.#background?.abort();
    if (after.kind !== 'code-entry' && after.kind !== 'verifying-code') clearInterval(this.#ticker);
    // The code that waited is done with (entered, abandoned, or a session came another way), and so
    // is one left with "Use another way" once a session came: after it ends, that screen must not
    // come back with a code the service replaced or closed meanwhile.
    if (after.kind === 'logged-in' || (CODE_STATES.has(before.kind) && !CODE_STATES.has(after.kind))) void flows().then((f) => f.forgetCode(this.#host, event.type === 'BACK'), () => undefined);
    let notice = NOTICES[after.kind];
    let params: Record<string, string> | undefined;

    switch (after.kind) {
      case 'sending-code':
        // The way whose code is still being sent after Cancel: that send is this screen's again.
        if (this.#setAside === credentialOf(after.method)) this.#setAside = undefined;
        else this.#start({ kind: 'send-code', type: credentialOf(after.method), reauth: after.reauth });
        break;
      case 'code-entry':
        // A code just sent, kept over a reload, or refused: the text message, stopped while the
        // code was checked, is asked for again for the next try.
        if (before.kind === 'sending-code') notice = 'login.notice.code-sent';
        this.#startCodeHelpers(after.method === 'sms-otp');
        if (after.failure) {
          // (Shown by the element put back: only where focus may go.)
          this.#focusPending = before.kind !== 'restoring' || mayFocus(this.#host);
          // Only a wrong or used-up code is cleared for the next try: after a server or network
          // failure the code may still be good, and the user sends it again as it is.
          if (this.#codeInput && isCodeProblem(after.failure)) this.#codeInput.value = '';
        }
        break;
      case 'verifying-code':
        this.#start({ kind: 'verify-code', code: this.#codeInput?.value.replace(/\s+/g, '') ?? '' });
        break;
      case 'authenticating':
        notice = `login.${after.method}.waiting`;
        this.#start({ kind: after.method });
        break;
      case 'refreshing':
        this.#start({ kind: 'refresh' });
        break;
      case 'logging-out':
        this.#start({ kind: 'logout' });
        break;
      case 'logged-in':
        if (!('session' in before) || event.type === 'REMOTE_LOGGED_IN') {
          // When focus moves to the heading "You're logged in", the heading says it; the status
          // line says it to a screen reader (out of sight, render) when it happened without the
          // user here (another tab, a restore). A session that replaced one (a passkey registered
          // on the page or in another tab) leaves the screen logged in: nothing to say, and the
          // element that logged in says it.
          if (!this.#focusPending && !('session' in before)) notice = 'login.notice.logged-in';
          const { sessionId, credentialType, expiresAt } = after.session;
          const source = event.type === 'RESTORED' ? 'restored' : remote ? 'elsewhere' : 'login';
          this.#host.dispatchEvent(new WalletLoggedInEvent({ accountId: this.#host.accountId, sessionId, credentialType, expiresAt, source }));
        } else if (before.kind === 'refreshing' && !after.failure) {
          notice = 'login.notice.refreshed';
        }
        // Said, as the focus may stay where the user is on the page.
        if (event.type === 'EXPIRING') notice = 'login.session.expiring';
        if (before.kind !== 'logged-in' || before.session !== after.session) this.#schedule(after.session, before.kind === 'refreshing' && !!after.failure);
        break;
      case 'choosing':
        if (event.type === 'LOGGED_OUT') notice = 'login.notice.logged-out';
        // A session that ended by itself: why, said as the screen shows it.
        if (after.reauth && 'session' in before) {
          notice = `login.reauth.${after.reauth.why}`;
          params = { method: t(`credential.${after.reauth.credentialType}`) };
        }
        // (From the start-up check, a logout asked for ran instead of it; the page hears of it
        // when it ended a session.)
        const loggedOut = before.kind === 'restoring' && before.logout && !(event.type === 'LOGGED_OUT' && event.noSession);
        if (event.type === 'FAILED' && (before.kind === 'logging-out' || loggedOut)) notice = 'login.notice.logged-out-here';
        if ('session' in before || loggedOut) {
          this.#clearTimers();
          this.#host.dispatchEvent(new WalletLoggedOutEvent({ accountId: this.#host.accountId, reason: LOGOUT_REASONS[event.type] ?? 'logout' }));
        }
        // A failed autofill (the credential list or challenge refused or unreachable) reports once and
        // is not started again at once: it would fail the same way, hundreds of times a second. The
        // passkey button still works; autofill is offered again when the login screen is next
        // entered. One that failed after the user's pick (a passkey of another wallet, an assertion
        // refused, its check's answer lost), which takes a pick each time, is offered again at once,
        // in the field kept (the keyboard may be in it).
        if (event.type !== 'FAILED' || before.kind !== 'choosing') void this.#startAutofill();
        else if (event.again) void this.#startAutofill(true);
        break;
    }
    this.notice = notice ? t(notice, params) : '';
    const failure = 'failure' in after ? after.failure : undefined;
    if (failure && failure !== ('failure' in before ? before.failure : undefined)) {
      this.notice = '';
      this.#failureAt = Date.now();
      // "Wait N seconds" counts down (one render a second) and goes when the wait is over.
      const wait = failure.retryAfter;
      if (wait) {
        const tick = setInterval(() => {
          this.#host.requestUpdate();
          if (Date.now() - this.#failureAt >= wait * 1000) clearInterval(tick);
        }, 1000);
        this.#timers.push(tick);
      }
      this.#host.dispatchEvent(new WalletLoginErrorEvent({ code: failure.code, message: failureMessage(t, failure), ...(failure.status ? { status: failure.status } : {}) }));
    }
  }

  /** Seconds left of a rate limit's wait (0 when over or none; only a 429 carries one). */
  #waitLeft(failure: LoginFailure | undefined): number {
    return failure?.retryAfter ? Math.max(0, failure.retryAfter - Math.floor((Date.now() - this.#failureAt) / 1000)) : 0;
  }

  /**
   * The failure's sentence, for the alert. A rate limit's is said once without the seconds (an
   * alert whose text changed every second would be read out every second) and goes when the wait
   * is over; the seconds count down on a line of their own, outside the live regions.
   */
  #failureText(failure: LoginFailure): string {
    if (!failure.retryAfter) return failureMessage(this.#i18n.t, failure);
    return this.#waitLeft(failure) ? this.#i18n.t(`error.${failure.code}`) : '';
  }

  // -------------------------------------------------------------------------------------------
  // Session timers (reference.md: sessions last 15 minutes by default)

  /**
   * Renewal `refresh-before` seconds ahead of expiry, and the end at expiry, both timed by the
   * session's lifetime from its arrival (core/session.ts isLive: a device clock minutes off
   * neither renews too late nor ends too early).
   * After a failed renewal (`retry`), the next try comes at half the time left, 15 s at most.
   */
  #schedule(session: SessionInfo, retry: boolean): void {
    for (const t of this.#sessionTimers.splice(0)) clearTimeout(t);
    const left = session.endsAt - Date.now();
    // A `refresh-before` at or above the session's lifetime would leave no time between renewals (a
    // new session upstream each second): halfway through the lifetime instead. At least a second.
    const lifetime = Date.parse(session.expiresAt) - Date.parse(session.createdAt!);
    const before = this.#host.refreshBefore * 1000;
    // A timer waits a minute at most (as shared/wallet.ts STEP says: it stops while the system
    // sleeps, the wall clock does not): one due later waits that long, then both are set again.
    const at = (ms: number, then: () => void) => this.#sessionTimers.push(setTimeout(ms > 6e4 ? () => this.#schedule(session, retry) : then, Math.min(ms, 6e4)));
    at(Math.max(1000, retry ? Math.min(left / 2, 15_000) : left - (before >= lifetime ? lifetime / 2 : before)), () => this.#onExpiring(session));
    at(Math.max(0, left), () => void this.#onExpired(session));
  }

  /**
   * The page is shown again (a tab brought back, a page restored from the back/forward cache, a
   * device woken): timers did not run while the system slept, so they are set again from the clock,
   * which renews or ends a session whose time came meanwhile at once.
   */
  readonly #onWake = (): void => {
    const m = this.machine;
    if (m.kind === 'logged-in' && !document.hidden) this.#schedule(m.session, !!m.failure);
  };

  #clearTimers(): void {
    for (const t of [...this.#timers.splice(0), ...this.#sessionTimers.splice(0)]) clearTimeout(t);
  }

  #onExpiring(session: SessionInfo): void {
    if (this.machine.kind !== 'logged-in' || this.machine.session !== session) return;
    if (this.#host.noAutoRefresh) {
      // Said once per session, however often the timers are set again.
      if (this.machine.expiring) return;
      // The user must act ("Stay logged in"), so focus moves there (unless the user is elsewhere on the page).
      this.#focusPending = mayFocus(this.#host);
      this.#send({ type: 'EXPIRING' });
      const { sessionId, credentialType, expiresAt } = session;
      this.#host.dispatchEvent(new SessionExpiringEvent({ accountId: this.#host.accountId, sessionId, credentialType, expiresAt }));
    } else {
      this.#send({ type: 'REFRESH' });
    }
  }

  async #onExpired(session: SessionInfo): Promise<void> {
    // Only on the logged-in screen: a logout or a renewal under way runs to its end, as it does
    // otherwise (a renewal cut off, the session the service made would be lost here). Renewed, its
    // session is shown; failed, the timers set again on the old one end it at once.
    if (this.session !== session || this.machine.kind !== 'logged-in') return;
    this.#flow.abort();
    // Core deletes an expired session's key when asked for it (DESIGN.md: deleted on expiry).
    await flows().then((f) => f.currentSession(this.#host), () => undefined);
    this.#send({ type: 'EXPIRED' });
  }

  // -------------------------------------------------------------------------------------------
  // Code entry helpers: resend countdown, paste anywhere, WebOTP

  #startCodeHelpers(sms: boolean): void {
    clearInterval(this.#ticker);
    this.#ticker = setInterval(() => {
      this.#host.requestUpdate();
      if (resendSecondsLeft(this.machine, Date.now()) === 0) clearInterval(this.#ticker);
    }, 1000);
    if (sms) {
      const { signal } = (this.#background = new AbortController());
      void flows()
        .then((f) => f.smsCode(signal))
        .then((code) => code && !signal.aborted && this.#fillCode(code), () => undefined);
    }
  }

  readonly #onPaste = (e: ClipboardEvent): void => {
    const digits = codeDigits(e.clipboardData?.getData('text') ?? '');
    if (this.machine.kind !== 'code-entry' || digits.length !== this.#host.codeLength) return;
    e.preventDefault();
    this.#fillCode(digits);
  };

  #fillCode(code: string): void {
    if (this.machine.kind !== 'code-entry' || !this.#codeInput) return;
    this.#codeInput.value = code;
    this.#send({ type: 'SUBMIT_CODE' });
  }

  #onCodeInput(e: InputEvent): void {
    // (On the form: the field, codeInput, has kept its digits only.)
    if ((e.target as HTMLInputElement).value.length === this.#host.codeLength) this.#send({ type: 'SUBMIT_CODE' });
  }

  #onCodeSubmit(e: SubmitEvent): void {
    e.preventDefault();
    const s = this.machine;
    const typed = this.#codeInput?.value.length;
    // A code short of digits is not sent: the service would count it as one of its tries.
    if (typed === this.#host.codeLength) this.#send({ type: 'SUBMIT_CODE' });
    else {
      if (typed && s.kind === 'code-entry') this.machine = { ...s, failure: { code: 'code_short' } };
      this.#codeInput?.focus();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Passkey autofill (WebAuthn conditional mediation), from inside the shadow root

  #offered(s: LoginState) {
    return offeredMethods(s, parseMethods(this.#host.methods), 'PublicKeyCredential' in globalThis);
  }

  /** `keep`: the field stays shown while the new request is being made. */
  async #startAutofill(keep?: boolean): Promise<void> {
    this.#background?.abort();
    this.autofill &&= !!keep;
    if (this.#host.noAutofill || !this.#offered(this.machine).includes('passkey')) return;
    const { signal } = (this.#background = new AbortController());
    const bound = this.#bound;
    const { accountId, apiBase } = this.#host;
    const run = flows()
      .then((f) => f.autofill(this.#host, signal, (shown) => (this.autofill = shown)))
      .then((event) => {
        if (event && !signal.aborted) this.#send(event);
        // Stopped by logout() after its session was stored here: that session is logged out; its
        // own wallet's, when the page set another one meanwhile (the screen is the new wallet's).
        else if (event?.type === 'LOGGED_IN' && signal.reason === LOGOUT) {
          if (this.#bound === bound) this.#send({ ...event, logout: true });
          else void flows().then((f) => f.logoutOf(apiBase, accountId));
        }
      }, () => undefined);
    this.#autofillRun = run;
    await run;
    if (this.#autofillRun !== run) return;
    this.#autofillRun = undefined;
    // Stopped by logout() and still on the methods: offered again.
    if (signal.reason === LOGOUT && this.machine.kind === 'choosing') void this.#startAutofill();
  }

  // -------------------------------------------------------------------------------------------
  // Rendering: one screen per state but the first and the methods (the element's own)

  /** The lines under the screen (the element renders them). */
  lines(): Lines {
    const t = this.#i18n.t;
    const s = this.machine;
    const failure = 'failure' in s ? s.failure : undefined;
    const wait = this.#waitLeft(failure);
    return { error: failure ? this.#failureText(failure) : '', wait: wait ? t('error.wait', { seconds: wait }) : '', notice: this.notice, quiet: this.notice === t('login.notice.logged-in') };
  }

  /** The methods screen's choice of a way to log in. */
  choose(method: LoginMethod): void {
    this.#send({ type: 'CHOOSE', method });
  }

  /** The methods screen's "Use another way to log in". */
  back(): void {
    this.#send({ type: 'BACK' });
  }

  /**
   * A screen: its title, the sentence under it, and what follows. `focusTitle`: focus goes to the
   * title (a screen whose first control should not take a stray Enter, such as "Log out" right
   * after a code was typed).
   */
  #page(title: string, intro: unknown, body: unknown = nothing, focusTitle = false): TemplateResult {
    return html`<h2 part="heading" id="heading" tabindex="-1" aria-level=${this.#level()} ?data-autofocus=${focusTitle}>${this.#i18n.t(title)}</h2>
      ${intro}${body}`;
  }

  #intro(key: string, params?: Record<string, string | number>): TemplateResult {
    return html`<p part="intro" class="muted" id="intro">${this.#i18n.t(key, params)}</p>`;
  }

  /** The screen of a state after the first, but the methods. */
  screen(): TemplateResult {
    const t = this.#i18n.t;
    const s = this.machine as Exclude<LoginState, { kind: 'restoring' | 'choosing' }>;
    switch (s.kind) {
      case 'sending-code':
        // The pressed method button is gone: the heading takes the focus until the code field shows.
        // Cancel returns to the methods at once (an answer that is slow to come, up to core's 30 s),
        // as on the screen the element shows while this code loads; a code the service sent all the
        // same is not kept, and that way again within its wait says a code was just sent.
        return this.#page(
          `login.code.heading.${s.method}`,
          this.#intro('login.sending'),
          html`<div class="actions"><button part="button" type="button" @click=${() => this.cancel()}>${t('common.cancel')}</button></div>`,
          true,
        );
      case 'code-entry':
      case 'verifying-code':
        return this.#codeEntry(s);
      case 'authenticating':
        return this.#page(
          'login.heading',
          this.#intro(`login.${s.method}.waiting`),
          html`<div class="actions">
            <button part="button" type="button" data-autofocus @click=${() => this.cancel()}>${t('common.cancel')}</button>
          </div>`,
        );
      default:
        return this.#loggedIn(s);
    }
  }

  #codeEntry(s: Extract<LoginState, { kind: 'code-entry' | 'verifying-code' }>): TemplateResult {
    const t = this.#i18n.t;
    const wait = resendSecondsLeft(s, Date.now());
    const verifying = s.kind === 'verifying-code';
    // A used-up code: the way on is a new one, so "Send a new code" takes the focus, not the field.
    const renew = !verifying && s.failure?.code === 'code_expired' && wait === 0;
    return this.#page(
      `login.code.heading.${s.method}`,
      this.#intro(`login.code.sent.${s.method}`, { length: this.#host.codeLength }),
      html`<form part="form" class="stack" @submit=${(e: SubmitEvent) => this.#onCodeSubmit(e)} @input=${(e: InputEvent) => this.#onCodeInput(e)} novalidate>
          <label for="code">${t('login.code.label')}</label>
          ${codeInput({ length: this.#host.codeLength, invalid: !verifying && isCodeProblem(s.failure), readonly: verifying, describedBy: 'failure' in s && s.failure ? 'intro error' : 'intro', autofocus: !renew })}
          <div class="actions">
            <button part="submit" class="primary" type="submit" aria-disabled=${verifying ? 'true' : nothing}>${t(verifying ? 'login.code.verifying' : 'login.code.submit')}</button>
            <button part="button" type="button" ?disabled=${wait > 0 || verifying} ?data-autofocus=${renew} @click=${() => this.#send({ type: 'RESEND', now: Date.now() })}>
              ${wait > 0 ? t('login.code.resend-wait', { seconds: wait }) : t('login.code.resend')}
            </button>
          </div>
        </form>
        <button part="button" class="link" type="button" aria-disabled=${verifying ? 'true' : nothing} @click=${() => this.#send({ type: 'BACK' })}>${t('login.code.back')}</button>`,
    );
  }

  #loggedIn(s: Extract<LoginState, { kind: 'logged-in' | 'refreshing' | 'logging-out' }>): TemplateResult {
    const t = this.#i18n.t;
    const busy = s.kind !== 'logged-in';
    const time = new Intl.DateTimeFormat(this.#i18n.locale, { hour: 'numeric', minute: '2-digit' }).format(s.session.endsAt);
    const expiring = !busy && s.expiring;
    return this.#page(
      'login.session.heading',
      html`<p part="session">${t('login.session.detail', { method: t(`credential.${s.session.credentialType}`), time })}</p>`,
      html`${expiring ? html`<p class="muted">${t('login.session.expiring')}</p>` : nothing}
        <div class="actions">
          ${expiring
            ? html`<button part="submit" class="primary" type="button" data-autofocus @click=${() => this.refresh()}>${t('login.session.stay')}</button>`
            : nothing}
          <button part="button" type="button" aria-disabled=${busy ? 'true' : nothing} @click=${() => busy || this.logout()}>${t('login.session.logout')}</button>
        </div>`,
      !expiring,
    );
  }
}

