/**
 * `<wallet-login>`: an end user logs in to an Embedded Wallet by email code, text message code,
 * passkey or single sign-on (api.md "Verify by credential type"), and keeps a session whose
 * signing key never leaves the browser (DESIGN.md "Security rules").
 *
 * The flow is the machine in wallet-login.machine.ts; the core calls are in wallet-login.flows.ts.
 * This file renders one screen per state and wires browser facilities: timers for expiry, the
 * BroadcastChannel for other tabs, WebOTP and paste for codes, WebAuthn autofill for passkeys.
 * It never calls fetch or IndexedDB and never holds a key; a typed code stays in its input until
 * it is handed to core.
 *
 * The first screen renders before anything else happens: the client, the key store, the other-tab
 * channel and the session flows (shared/wallet.ts and what it loads) come with import() once that
 * screen is on the page, and only then is the stored session looked up.
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { Task, TaskStatus } from '../shared/task.ts';
import type { OtpLogin } from '../../core/session.ts';
import type { StoredSession } from '../../core/keystore.ts';
import { WalletError } from '../../core/errors.ts';
import type { Wallet } from '../../core/session.ts';
import { baseStyles } from '../shared/styles.ts';
import { formStyles } from '../shared/form-styles.ts';
import { LocaleController } from '../shared/i18n.ts';
import { failureMessage } from '../shared/strings.ts';
import { isCancellation, type Failure, type FailureContext } from '../shared/failures.ts';
import { beginCeremony } from '../shared/ceremony.ts';
import { afterFirstPaint, onceAfterFirstPaint } from '../shared/idle.ts';
import { onSessionBroadcast, type SessionMessage } from '../shared/session-channel.ts';
import {
  METHOD_CREDENTIAL,
  initialState,
  offeredMethods,
  parseMethods,
  resendSecondsLeft,
  transition,
  type LoginEvent,
  type LoginMethod,
  type LoginState,
  type SessionInfo,
} from './wallet-login.machine.ts';
import { endedSession, failureOf, findCredential, oauthLogin, passkeyLogin, restore, sendCode, sessionInfo, type FlowContext } from './wallet-login.flows.ts';
import { SessionExpiringEvent, WalletLoggedInEvent, WalletLoggedOutEvent, WalletLoginErrorEvent } from './wallet-login.events.ts';
import { walletLoginStyles } from './wallet-login.styles.ts';
import { codeInput } from '../shared/code-input.ts';
import './wallet-login.strings.ts';

/** One unit of work the machine asked for. */
type Step =
  | { kind: 'restore' }
  | { kind: 'send-code'; type: 'EMAIL_OTP' | 'SMS_OTP' }
  | { kind: 'verify-code'; code: string }
  | { kind: 'passkey' }
  | { kind: 'oauth' }
  | { kind: 'refresh' }
  | { kind: 'logout' };

/** What a 401 means in each step (api.md: 401 for a wrong code, a failed assertion, a stale token). */
const STEP_CONTEXT: Partial<Record<Step['kind'], FailureContext>> = {
  'verify-code': { unauthorized: 'wrong_code' },
  passkey: { unauthorized: 'passkey_rejected' },
  oauth: { unauthorized: 'oauth_rejected' },
};

/** The client, key store and session flows of the page, loaded once the first screen is painted. */
const services = onceAfterFirstPaint(() => import('../shared/wallet.ts'));

/** Browsers with WebOTP (WICG "WebOTP API") return an OTPCredential carrying `code`. */
interface OtpCredentialLike {
  code?: string;
}

/**
 * Logs a user in to their wallet and keeps the session alive.
 *
 * @summary Wallet login by email code, text message code, passkey or single sign-on.
 *
 * @event wallet-logged-in - A session began: `{accountId, sessionId, credentialType, expiresAt, source}`.
 * @event wallet-logged-out - The session ended: `{accountId, reason}` (logout, expired, elsewhere, key-missing).
 * @event session-expiring - With `no-auto-refresh`, shortly before expiry: `{accountId, sessionId, credentialType, expiresAt}`.
 * @event wallet-login-error - A step failed: `{code, message, status?}`; `message` is the sentence shown.
 *
 * @csspart base - The panel around every screen.
 * @csspart heading - The screen's title.
 * @csspart intro - The sentence under the title.
 * @csspart methods - The list of ways to log in.
 * @csspart method-button - One way to log in.
 * @csspart autofill - The saved-passkey field (WebAuthn autofill), when the browser offers it.
 * @csspart form - The code form.
 * @csspart code-input - The code field.
 * @csspart submit - The main button of a screen.
 * @csspart button - A secondary button.
 * @csspart session - The logged-in summary.
 * @csspart status - The polite live region (progress, confirmations).
 * @csspart error - The assertive live region (what went wrong and what to do).
 *
 * @cssproperty --wallet-login-max-width - Widest the element grows (default 26rem).
 * @cssproperty --wallet-login-padding - Padding of the panel.
 * @cssproperty --wallet-login-radius - Corner radius of the panel.
 * @cssproperty --wallet-login-code-font-size - Size of the code digits (default 1.6em).
 * @cssproperty --wallet-color-text - Text colour (shared by every wallet element; light and dark defaults).
 * @cssproperty --wallet-color-muted - Secondary text colour.
 * @cssproperty --wallet-color-surface - Panel background.
 * @cssproperty --wallet-color-border - Borders of panel, fields and buttons.
 * @cssproperty --wallet-color-accent - Main buttons, links and the focus ring.
 * @cssproperty --wallet-color-on-accent - Text on the accent colour.
 * @cssproperty --wallet-color-danger - Error text.
 * @cssproperty --wallet-radius - Corner radius.
 * @cssproperty --wallet-font - Font family.
 * @cssproperty --wallet-font-size - Base font size.
 * @cssproperty --wallet-space - Base spacing unit.
 * @cssproperty --wallet-focus-ring - Box shadow of the focus ring.
 *
 * Custom states: `:state(restoring)`, `:state(choosing)`, `:state(sending-code)`, `:state(code-entry)`,
 * `:state(verifying-code)`, `:state(authenticating)`, `:state(logged-in)`, `:state(refreshing)`,
 * `:state(logging-out)`, `:state(expiring)`, `:state(reauth)`, `:state(busy)`.
 */
@customElement('wallet-login')
export class WalletLogin extends LitElement {
  static override styles = [baseStyles, formStyles, walletLoginStyles];

  /** The Embedded Wallet internal account (`InternalAccount:<uuid>`). */
  @property({ attribute: 'account-id', reflect: true }) accountId = '';
  /** Space-separated ways to log in, in order: `email-otp sms-otp passkey oauth` (default: all). */
  @property() methods = '';
  /** Where the proxy is mounted, when not the page's configured base (configureWallet). */
  @property({ attribute: 'api-base' }) apiBase: string | null = null;
  /** Do not renew the session before it expires; emit `session-expiring` instead. */
  @property({ type: Boolean, attribute: 'no-auto-refresh' }) noAutoRefresh = false;
  /** Seconds before expiry at which to renew (or warn). */
  @property({ type: Number, attribute: 'refresh-before' }) refreshBefore = 60;
  /** Seconds before "send a new code" is offered again (a 429's Retry-After extends it). */
  @property({ type: Number, attribute: 'resend-after' }) resendAfter = 30;
  /** Digits in a code; a code of this length submits itself. */
  @property({ type: Number, attribute: 'code-length' }) codeLength = 6;
  /** Do not offer saved passkeys in the browser's autofill (WebAuthn conditional mediation). */
  @property({ type: Boolean, attribute: 'no-autofill' }) noAutofill = false;
  /** Light or dark regardless of the system setting. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /**
   * For single sign-on: returns a fresh OIDC ID token from the integrator's identity provider whose
   * `nonce` claim is the given nonce (DESIGN.md wire format 5 binds the token to the session key).
   */
  oidcTokenProvider: ((nonce: string) => Promise<string>) | undefined;

  @state() private machine: LoginState = initialState();
  @state() private notice = '';
  @state() private autofill = false;
  @query('#code') private codeInput?: HTMLInputElement;

  private readonly i18n = new LocaleController(this);
  private readonly internals: ElementInternals | undefined;
  private otp: OtpLogin | undefined;
  private step: Step | undefined;
  private focusPending = false;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private ticker: ReturnType<typeof setInterval> | undefined;
  private background: AbortController | undefined;
  private unsubscribe: Array<() => void> = [];
  /** Service clock minus this page's clock, learnt from a session just issued (0 until then). */
  private skew = 0;
  /** `accountId|apiBase` the element is bound to; '' while disconnected. */
  private bound = '';

  /** Runs the machine's steps one at a time; a new step aborts the running one, stale results are dropped. */
  private readonly flow = new Task<[Step], LoginEvent>(this, {
    task: ([step], { signal }) => this.run(step, signal),
    onComplete: (event) => this.send(event),
    onError: (e) => this.failed(e),
  });

  constructor() {
    super();
    this.internals = typeof this.attachInternals === 'function' ? this.attachInternals() : undefined;
  }

  /** The live session shown by the element, or null. Never a key. */
  get session(): SessionInfo | null {
    const s = this.machine;
    return s.kind === 'logged-in' || s.kind === 'refreshing' || s.kind === 'logging-out' ? s.session : null;
  }

  /** Revokes the session upstream and deletes its key (api.md "Signed-retry pattern": session revoke). */
  logout(): void {
    this.send({ type: 'LOGOUT' });
  }

  /** Renews the session now (with `no-auto-refresh`, in answer to `session-expiring`). */
  refresh(): void {
    this.send({ type: 'REFRESH' });
  }

  /** Stops a running step (a passkey prompt, a code being sent) and returns to a usable screen. */
  cancel(): void {
    this.flow.abort();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('paste', this.onPaste);
    this.bind();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('paste', this.onPaste);
    this.unbind();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('accountId') || changed.has('apiBase')) this.bind();
  }

  /** (Re)starts for the current account: the first screen, then listeners and the stored session. */
  private bind(): void {
    const key = `${this.accountId}|${this.apiBase ?? ''}`;
    if (!this.isConnected || key === this.bound) return;
    this.unbind();
    this.bound = key;
    this.machine = initialState();
    // The restoring screen needs none of what follows (code to load, IndexedDB to open, a channel),
    // so it goes on the page first.
    void this.updateComplete.then(afterFirstPaint).then(() => this.attach(key));
  }

  private async attach(key: string): Promise<void> {
    if (this.bound !== key) return;
    // The restore step loads what it needs (run()); a failure to load is that step's failure.
    if (this.accountId) this.start({ kind: 'restore' });
    // Other tabs (BroadcastChannel) and other elements of this page (a passkey activated).
    this.unsubscribe.push(onSessionBroadcast((m) => void this.onOtherTab(m)));
    const wallet = await this.wallet().catch(() => undefined);
    if (wallet && this.bound === key) this.unsubscribe.push(wallet.subscribe((change) => void this.onSamePage(change)));
  }

  private unbind(): void {
    this.bound = '';
    this.flow.abort();
    this.background?.abort();
    this.stopCodeHelpers();
    this.clearTimers();
    for (const u of this.unsubscribe.splice(0)) u();
  }

  protected override updated(): void {
    const s = this.machine;
    for (const name of ['restoring', 'choosing', 'sending-code', 'code-entry', 'verifying-code', 'authenticating', 'logged-in', 'refreshing', 'logging-out']) {
      this.setState(name, s.kind === name);
    }
    this.setState('expiring', s.kind === 'logged-in' && s.expiring);
    this.setState('reauth', s.kind === 'choosing' && !!s.reauth);
    this.setState('busy', this.flow.status === TaskStatus.PENDING);
    if (this.focusPending) {
      this.focusPending = false;
      this.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
  }

  private setState(name: string, on: boolean): void {
    const states = this.internals?.states;
    if (!states) return;
    try {
      if (on) states.add(name);
      else states.delete(name);
    } catch {
      // Browsers before custom-state support (CSS `:state()`) simply lack the states.
    }
  }

  // -------------------------------------------------------------------------------------------
  // Machine wiring

  private async context(signal: AbortSignal): Promise<FlowContext> {
    const { clientFor, keyStore, walletFor } = await services();
    return { accountId: this.accountId, wallet: walletFor(this.apiBase), client: clientFor(this.apiBase), store: keyStore(), signal };
  }

  private async wallet(): Promise<Wallet> {
    return (await services()).walletFor(this.apiBase);
  }

  private start(step: Step): void {
    this.step = step;
    void this.flow.run([step]);
  }

  private async run(step: Step, signal: AbortSignal): Promise<LoginEvent> {
    const wallet = await this.wallet();
    switch (step.kind) {
      case 'restore':
        return restore(await this.context(signal));
      case 'send-code': {
        this.otp = await sendCode(await this.context(signal), step.type);
        return { type: 'CODE_SENT', now: Date.now(), cooldownMs: Math.max(0, this.resendAfter) * 1000 };
      }
      case 'verify-code': {
        if (!this.otp) throw new WalletError('session_expired', 'No code was requested.');
        return { type: 'LOGGED_IN', session: sessionInfo(await this.otp.submit(step.code, { signal })) };
      }
      case 'passkey': {
        this.background?.abort();
        const ceremony = beginCeremony(signal);
        try {
          return { type: 'LOGGED_IN', session: sessionInfo(await passkeyLogin(await this.context(ceremony.signal))) };
        } finally {
          ceremony.end();
        }
      }
      case 'oauth':
        return { type: 'LOGGED_IN', session: sessionInfo(await oauthLogin(await this.context(signal), this.oidcTokenProvider)) };
      case 'refresh':
        return { type: 'REFRESHED', session: sessionInfo(await wallet.refresh(this.accountId, { signal })) };
      case 'logout':
        await wallet.logout(this.accountId, { signal });
        return { type: 'LOGGED_OUT' };
    }
  }

  private failed(e: unknown): void {
    const step = this.step;
    if (step?.kind === 'refresh' || step?.kind === 'restore') {
      const ended = endedSession(e);
      if (ended) {
        this.send(ended === 'expired' ? { type: 'EXPIRED' } : { type: 'KEY_MISSING' });
        return;
      }
    }
    if (step?.kind === 'restore') {
      // The session could not be checked (network): show the login screen with the reason.
      this.send({ type: 'RESTORED', session: null });
    }
    if (isCancellation(e)) {
      this.send({ type: 'CANCELLED' });
      return;
    }
    let failure = failureOf(e, step ? STEP_CONTEXT[step.kind] : {});
    if (step?.kind === 'oauth' && e instanceof WalletError && e.code === 'invalid_argument') failure = { code: 'oauth_unavailable' };
    this.send({ type: 'FAILED', failure, now: Date.now() });
  }

  private send(event: LoginEvent): void {
    const before = this.machine;
    const after = transition(before, event);
    if (after === before) return;
    this.machine = after;
    this.effects(before, after, event);
  }

  /** What entering a state starts, and what the page is told. */
  private effects(before: LoginState, after: LoginState, event: LoginEvent): void {
    const t = this.i18n.t;
    const remote = event.type === 'REMOTE_LOGGED_IN' || event.type === 'REMOTE_LOGGED_OUT' || event.type === 'REMOTE_REFRESHED';
    if (after.kind !== before.kind && before.kind !== 'restoring' && !remote) this.focusPending = true;
    if (after.kind !== 'choosing') this.background?.abort();
    if (after.kind !== 'code-entry' && after.kind !== 'verifying-code') this.stopCodeHelpers();

    switch (after.kind) {
      case 'sending-code':
        this.notice = t('login.sending');
        this.start({ kind: 'send-code', type: METHOD_CREDENTIAL[after.method] as 'EMAIL_OTP' | 'SMS_OTP' });
        break;
      case 'code-entry':
        if (before.kind === 'sending-code') {
          this.notice = t('login.notice.code-sent');
          this.startCodeHelpers(after.method === 'sms-otp');
        }
        if (after.failure) {
          this.focusPending = true;
          if (this.codeInput) this.codeInput.value = '';
        }
        break;
      case 'verifying-code':
        this.notice = t('login.code.verifying');
        this.start({ kind: 'verify-code', code: this.codeInput?.value.replace(/\s+/g, '') ?? '' });
        break;
      case 'authenticating':
        this.notice = t(after.method === 'passkey' ? 'login.passkey.waiting' : 'login.oauth.waiting');
        this.start({ kind: after.method });
        break;
      case 'refreshing':
        this.notice = t('login.session.refreshing');
        this.start({ kind: 'refresh' });
        break;
      case 'logging-out':
        this.notice = t('login.session.logging-out');
        this.start({ kind: 'logout' });
        break;
      case 'logged-in':
        if ((before.kind !== 'logged-in' && before.kind !== 'refreshing' && before.kind !== 'logging-out') || event.type === 'REMOTE_LOGGED_IN') {
          this.notice = t('login.notice.logged-in');
          const source = event.type === 'RESTORED' ? 'restored' : remote ? 'elsewhere' : 'login';
          const { sessionId, credentialType, expiresAt } = after.session;
          this.dispatchEvent(new WalletLoggedInEvent({ accountId: this.accountId, sessionId, credentialType, expiresAt, source }));
        } else if (before.kind === 'refreshing') {
          this.notice = after.failure ? '' : t('login.notice.refreshed');
        } else {
          this.notice = '';
        }
        if (before.kind !== 'logged-in' || before.session !== after.session) this.schedule(after.session, event.type !== 'RESTORED');
        break;
      case 'choosing':
        this.notice = before.kind === 'logging-out' && event.type === 'LOGGED_OUT' ? t('login.notice.logged-out') : '';
        if (before.kind === 'logged-in' || before.kind === 'refreshing' || before.kind === 'logging-out') {
          this.clearTimers();
          const reason =
            event.type === 'EXPIRED' ? 'expired' : event.type === 'KEY_MISSING' ? 'key-missing' : event.type === 'REMOTE_LOGGED_OUT' ? 'elsewhere' : 'logout';
          this.dispatchEvent(new WalletLoggedOutEvent({ accountId: this.accountId, reason }));
        }
        void this.startAutofill();
        break;
      default:
        break;
    }
    const failure = 'failure' in after ? after.failure : undefined;
    if (failure && failure !== ('failure' in before ? before.failure : undefined)) {
      this.notice = '';
      this.dispatchEvent(new WalletLoginErrorEvent({ code: failure.code, message: failureMessage(t, failure), ...(failure.status ? { status: failure.status } : {}) }));
    }
  }

  // -------------------------------------------------------------------------------------------
  // Session timers (reference.md: sessions last 15 minutes by default)

  private schedule(session: SessionInfo, fresh: boolean): void {
    this.clearTimers();
    // A session just issued tells how far the service's clock is from ours; expiry is on its clock.
    if (fresh && session.createdAt && !Number.isNaN(Date.parse(session.createdAt))) this.skew = Date.parse(session.createdAt) - Date.now();
    const left = Date.parse(session.expiresAt) - this.skew - Date.now();
    // At least a second between renewals, so a `refresh-before` longer than a session cannot spin.
    const warnIn = Math.max(1000, left - this.refreshBefore * 1000);
    const clamp = (ms: number) => Math.min(ms, 2 ** 31 - 1);
    this.timers.push(setTimeout(() => this.onExpiring(session), clamp(warnIn)));
    this.timers.push(setTimeout(() => void this.onExpired(session), clamp(Math.max(0, left))));
  }

  private clearTimers(): void {
    for (const t of this.timers.splice(0)) clearTimeout(t);
  }

  private onExpiring(session: SessionInfo): void {
    if (this.machine.kind !== 'logged-in' || this.machine.session !== session) return;
    if (this.noAutoRefresh) {
      // The user must act ("Stay logged in"), so focus moves there.
      this.focusPending = true;
      this.send({ type: 'EXPIRING' });
      const { sessionId, credentialType, expiresAt } = session;
      this.dispatchEvent(new SessionExpiringEvent({ accountId: this.accountId, sessionId, credentialType, expiresAt }));
    } else {
      this.send({ type: 'REFRESH' });
    }
  }

  private async onExpired(session: SessionInfo): Promise<void> {
    const s = this.machine;
    if ((s.kind !== 'logged-in' && s.kind !== 'refreshing') || s.session !== session) return;
    this.flow.abort();
    try {
      // Core deletes an expired session's key when asked for it (DESIGN.md: deleted on expiry).
      await (await this.wallet()).current(this.accountId);
    } catch {
      // A missing key is gone already.
    }
    this.send({ type: 'EXPIRED' });
  }

  // -------------------------------------------------------------------------------------------
  // Other tabs and other elements of this page

  private async onOtherTab(message: SessionMessage): Promise<void> {
    if (message.accountId !== this.accountId) return;
    if (message.type === 'logged-out') {
      this.send({ type: 'REMOTE_LOGGED_OUT' });
      return;
    }
    await this.adoptStoredSession(message.type === 'refreshed');
  }

  private async onSamePage(change: { type: string; accountId: string; session?: StoredSession }): Promise<void> {
    // Our own steps report through the Task; only other elements' changes matter here.
    if (change.accountId !== this.accountId || this.flow.status === TaskStatus.PENDING) return;
    if (change.type === 'logged-out') this.send({ type: 'REMOTE_LOGGED_OUT' });
    else if (change.session) this.send({ type: change.type === 'refreshed' ? 'REMOTE_REFRESHED' : 'REMOTE_LOGGED_IN', session: sessionInfo(change.session) });
  }

  private async adoptStoredSession(refreshed: boolean): Promise<void> {
    try {
      const live = await (await this.wallet()).current(this.accountId);
      if (live && live.sessionId !== this.session?.sessionId) {
        this.send({ type: refreshed ? 'REMOTE_REFRESHED' : 'REMOTE_LOGGED_IN', session: sessionInfo(live) });
      }
    } catch {
      // A key another tab stored but this one cannot read: the next step reports it.
    }
  }

  // -------------------------------------------------------------------------------------------
  // Code entry helpers: resend countdown, paste anywhere, WebOTP

  private startCodeHelpers(sms: boolean): void {
    this.stopCodeHelpers();
    this.ticker = setInterval(() => {
      this.requestUpdate();
      if (resendSecondsLeft(this.machine, Date.now()) === 0) clearInterval(this.ticker);
    }, 1000);
    if (sms && typeof window !== 'undefined' && 'OTPCredential' in window) {
      const controller = new AbortController();
      this.background = controller;
      navigator.credentials
        .get({ otp: { transport: ['sms'] }, signal: controller.signal } as CredentialRequestOptions)
        .then((cred) => {
          const code = (cred as OtpCredentialLike | null)?.code;
          if (code && !controller.signal.aborted) this.fillCode(code);
        })
        .catch(() => undefined);
    }
  }

  private stopCodeHelpers(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private readonly onPaste = (e: ClipboardEvent): void => {
    if (this.machine.kind !== 'code-entry') return;
    const digits = (e.clipboardData?.getData('text') ?? '').replace(/\D/g, '');
    if (digits.length !== this.codeLength) return;
    e.preventDefault();
    this.fillCode(digits);
  };

  private fillCode(code: string): void {
    if (this.machine.kind !== 'code-entry' || !this.codeInput) return;
    this.codeInput.value = code;
    this.send({ type: 'SUBMIT_CODE' });
  }

  private onCodeInput(e: InputEvent): void {
    const input = e.target as HTMLInputElement;
    const digits = input.value.replace(/\D/g, '').slice(0, this.codeLength);
    if (digits !== input.value) input.value = digits;
    if (digits.length === this.codeLength) this.send({ type: 'SUBMIT_CODE' });
  }

  private onCodeSubmit(e: SubmitEvent): void {
    e.preventDefault();
    if ((this.codeInput?.value.length ?? 0) > 0) this.send({ type: 'SUBMIT_CODE' });
    else this.codeInput?.focus();
  }

  // -------------------------------------------------------------------------------------------
  // Passkey autofill (WebAuthn conditional mediation), from inside the shadow root

  private async startAutofill(): Promise<void> {
    this.background?.abort();
    const s = this.machine;
    if (this.noAutofill || s.kind !== 'choosing' || !offeredMethods(s, parseMethods(this.methods)).includes('passkey')) {
      this.autofill = false;
      return;
    }
    const controller = new AbortController();
    this.background = controller;
    this.autofill = false;
    let supported = false;
    try {
      const { browserSupportsWebAuthnAutofill } = await import('../../core/webauthn.ts');
      supported = await browserSupportsWebAuthnAutofill();
    } catch {
      supported = false;
    }
    if (controller.signal.aborted || !supported) return;
    try {
      const ctx = await this.context(controller.signal);
      // Offered only when the wallet has a passkey to pick.
      const credential = await findCredential(ctx, 'PASSKEY');
      if (controller.signal.aborted) return;
      this.autofill = true;
      const session = await ctx.wallet.loginWithPasskey({ credentialId: credential.id, mediation: 'conditional', signal: controller.signal });
      if (!controller.signal.aborted) this.send({ type: 'LOGGED_IN', session: sessionInfo(session) });
    } catch (e) {
      // Autofill is an offer: a superseded or declined request is silent, a real refusal is shown.
      if (controller.signal.aborted || isCancellation(e)) return;
      const failure: Failure = failureOf(e, { unauthorized: 'passkey_rejected' });
      if (failure.code !== 'no_credential' && failure.code !== 'cancelled') this.send({ type: 'FAILED', failure, now: Date.now() });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Rendering: one screen per state

  protected override render(): TemplateResult {
    const t = this.i18n.t;
    const s = this.machine;
    const failure = 'failure' in s ? s.failure : undefined;
    return html`
      <section part="base" class="panel stack" aria-busy=${this.flow.status === TaskStatus.PENDING ? 'true' : 'false'} aria-labelledby="heading">
        ${this.accountId ? this.screen(s) : html`<p part="intro">${t('common.missing-account')}</p>`}
        <p part="error" class="live" role="alert">${failure ? failureMessage(t, failure) : ''}</p>
        <p part="status" class="live" role="status">${this.notice}</p>
      </section>
    `;
  }

  private screen(s: LoginState): TemplateResult {
    switch (s.kind) {
      case 'restoring':
        return this.heading('login.heading', 'login.restoring');
      case 'choosing':
        return this.choosing(s);
      case 'sending-code':
        return this.heading(`login.code.heading.${s.method}`, 'login.sending');
      case 'code-entry':
      case 'verifying-code':
        return this.codeEntry(s);
      case 'authenticating':
        return html`${this.heading('login.heading', s.method === 'passkey' ? 'login.passkey.waiting' : 'login.oauth.waiting')}
          <div class="actions">
            <button part="button" type="button" data-autofocus @click=${() => this.cancel()}>${this.i18n.t('common.cancel')}</button>
          </div>`;
      case 'logged-in':
      case 'refreshing':
      case 'logging-out':
        return this.loggedIn(s);
    }
  }

  private heading(title: string, intro?: string, params?: Record<string, string>): TemplateResult {
    const t = this.i18n.t;
    return html`<h2 part="heading" id="heading">${t(title)}</h2>
      ${intro ? html`<p part="intro" class="muted">${t(intro, params)}</p>` : nothing}`;
  }

  private choosing(s: Extract<LoginState, { kind: 'choosing' }>): TemplateResult {
    const t = this.i18n.t;
    const offered = offeredMethods(s, parseMethods(this.methods));
    const reauth = s.reauth;
    const intro = reauth
      ? html`<p part="intro">${t(`login.reauth.${reauth.why}`, { method: t(`credential.${reauth.credentialType}`) })}</p>`
      : html`<p part="intro" class="muted">${t('login.intro')}</p>`;
    return html`
      <h2 part="heading" id="heading">${t('login.heading')}</h2>
      ${intro}
      ${this.autofill && offered.includes('passkey')
        ? html`<div part="autofill">
            <label for="autofill">${t('login.autofill.label')}</label>
            <input id="autofill" name="passkey" type="text" autocomplete="username webauthn" aria-describedby="autofill-hint" />
            <span id="autofill-hint" class="muted">${t('login.autofill.hint')}</span>
          </div>`
        : nothing}
      <ul part="methods" aria-label=${t('login.methods')}>
        ${offered.map(
          (m: LoginMethod, i) => html`<li>
            <button part="method-button" type="button" data-method=${m} ?data-autofocus=${i === 0} @click=${() => this.send({ type: 'CHOOSE', method: m })}>
              ${t(`login.method.${m}`)}
            </button>
          </li>`,
        )}
      </ul>
      ${reauth ? html`<button part="button" class="link" type="button" @click=${() => this.send({ type: 'BACK' })}>${t('login.reauth.other')}</button>` : nothing}
    `;
  }

  private codeEntry(s: Extract<LoginState, { kind: 'code-entry' | 'verifying-code' }>): TemplateResult {
    const t = this.i18n.t;
    const wait = resendSecondsLeft(s, Date.now());
    const verifying = s.kind === 'verifying-code';
    const invalid = s.kind === 'code-entry' && s.failure?.code === 'wrong_code';
    return html`
      ${this.heading(`login.code.heading.${s.method}`, `login.code.sent.${s.method}`, { length: String(this.codeLength) })}
      <form part="form" class="stack" @submit=${this.onCodeSubmit} novalidate>
        <label for="code">${t('login.code.label')}</label>
        ${codeInput({ length: this.codeLength, invalid, readonly: verifying, describedBy: 'code-help', autofocus: true, onInput: this.onCodeInput })}
        <div class="actions">
          <button part="submit" class="primary" type="submit" ?disabled=${verifying}>${t(verifying ? 'login.code.verifying' : 'login.code.submit')}</button>
          <button part="button" type="button" ?disabled=${wait > 0 || verifying} @click=${() => this.send({ type: 'RESEND', now: Date.now() })}>
            ${wait > 0 ? t('login.code.resend-wait', { seconds: wait }) : t('login.code.resend')}
          </button>
        </div>
      </form>
      <span id="code-help" class="visually-hidden">${t(`login.code.sent.${s.method}`, { length: String(this.codeLength) })}</span>
      <button part="button" class="link" type="button" @click=${() => this.send({ type: 'BACK' })}>${t('login.code.back')}</button>
    `;
  }

  private loggedIn(s: Extract<LoginState, { kind: 'logged-in' | 'refreshing' | 'logging-out' }>): TemplateResult {
    const t = this.i18n.t;
    const busy = s.kind !== 'logged-in';
    const time = new Intl.DateTimeFormat(this.i18n.locale, { hour: 'numeric', minute: '2-digit' }).format(new Date(s.session.expiresAt));
    const expiring = s.kind === 'logged-in' && s.expiring;
    return html`
      <h2 part="heading" id="heading">${t('login.session.heading')}</h2>
      <p part="session">${t('login.session.detail', { method: t(`credential.${s.session.credentialType}`), time })}</p>
      ${expiring ? html`<p class="muted">${t('login.session.expiring')}</p>` : nothing}
      <div class="actions">
        ${expiring
          ? html`<button part="submit" class="primary" type="button" data-autofocus ?disabled=${busy} @click=${() => this.refresh()}>${t('login.session.stay')}</button>`
          : nothing}
        <button part="button" type="button" ?data-autofocus=${!expiring} ?disabled=${busy} @click=${() => this.logout()}>${t('login.session.logout')}</button>
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'wallet-login': WalletLogin;
  }
}
