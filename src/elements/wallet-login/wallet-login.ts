/**
 * `<wallet-login>`: an end user logs in to an Embedded Wallet by email code, text message code,
 * passkey or single sign-on (api.md "Verify by credential type"), and keeps a session whose
 * signing key never leaves the browser (DESIGN.md "Security rules").
 *
 * This file is the element: its attributes, properties and public calls, and the screens that need
 * nothing else: the first one (looking for a session, or what is wrong with `account-id`) and the
 * methods. The flow is the machine in wallet-login.machine.ts, wired, with every other screen, in
 * wallet-login.view.ts, which comes with import() once the first screen is on the page, together
 * with the session flows (wallet-login.flows.ts, shared/wallet.ts and what they load); only then is
 * the stored session looked up. Every screen after the first needs them, so the first screen waits
 * for nothing. A call made before they arrive waits for them; when they fail to load, the methods
 * show with the failure, and a method chosen asks for them again.
 */
import { html, nothing, type TemplateResult } from 'lit/html.js';
import { TemplateElement } from '../shared/template.ts';
import { defineElement, type PropertyValues } from '../shared/reactive.ts';
import { baseStyles, THEME } from '../shared/styles.ts';
import { API_BASE, API_BASE_HINT, idMatch } from '../shared/config.ts';
import { formStyles } from '../shared/form-styles.ts';
import { LocaleController } from '../shared/i18n.ts';
import { failureMessage } from '../shared/strings.ts';
import { onceAfterFirstPaint } from '../shared/idle.ts';
import { loadFailureCode, stopWaiting, whenOnline } from '../shared/load.ts';
import { keyboardIn, mayFocus, syncStates } from '../shared/list.ts';
import { offeredMethods, parseMethods, type LoginMethod } from './wallet-login.methods.ts';
import type { LoginFailure, LoginState, SessionInfo } from './wallet-login.machine.ts';
import type { LoginView } from './wallet-login.view.ts';
import { WalletLoginErrorEvent } from './wallet-login.events.ts';
import { walletLoginStyles } from './wallet-login.styles.ts';
import './wallet-login.strings.ts';

// Its events (and their GlobalEventHandlersEventMap entries) come with the element's declarations,
// so typings that reach the element alone (the React wrappers) see the event types too.
export * from './wallet-login.events.ts';

/** The machine, its wiring and every other screen, with the flows, loaded once the first screen is painted. */
const rest = onceAfterFirstPaint(() => import('./wallet-login.view.ts'));
/** logout() on the loaded element, as a call made before it loaded (told apart from the others). */
const logoutCall = (view: LoginView) => view.logout();

/**
 * Logs a user in to their wallet and keeps the session alive. A code asked for survives a reload
 * of the tab: the element comes back to the code screen without sending another, and to a code left
 * with "Use another way" when that way is chosen again (the tab's sessionStorage keeps the
 * service's public challenge answer for 15 minutes, never the code). The newest code sent is also
 * kept in the browser's localStorage, the same way: a tab whose new code is refused as too soon
 * offers the newer one another tab got since, which replaced its own upstream. For
 * a wallet with several passkeys, the browser's localStorage keeps the id of the one this device
 * last logged in with (public, no secret), so that its prompt comes first and comes once. Taken off
 * the page while its code is being checked, the element lets the check end (the service spends the
 * code all the same): the session is kept, and the element put back shows it; a code refused (a
 * wrong one) still waits, and the element put back shows its screen, saying why.
 *
 * @summary Wallet login by email code, text message code, passkey or single sign-on.
 *
 * @event wallet-logged-in - A session began: `{accountId, sessionId, credentialType, expiresAt, source}`: `source` is `login` (here), `restored` (a session restored from storage) or `elsewhere` (a login by another tab of this browser or another element of this page).
 * @event wallet-logged-out - The session ended: `{accountId, reason}`: `logout` (here), `expired`, `revoked` (the service ended it before its time: revoked from another device or by the platform, found when a call it signed was refused), `elsewhere` (a logout by another tab of this browser or another element of this page), `key-missing` (the browser lost its key).
 * @event session-expiring - With `no-auto-refresh`, shortly before expiry: `{accountId, sessionId, credentialType, expiresAt}`.
 * @event wallet-login-error - A step failed: `{code, message, status?}`; `message` is the sentence shown. `code_sent_recently`: the first code asked for here was refused as too soon (429): one was sent a moment ago (from another tab, or before a reload in a tab that could keep nothing); `rate_limited` is kept for a new code asked for too soon after this element's own, and for the proxy's own limit on requests (no code was sent). `passkey_other_wallet`: the passkey picked from autofill (which offers every passkey of the site) is another wallet's; nothing was sent. After any failure that follows a pick from autofill (that one, `passkey_rejected`, a lost or 5xx answer to its check), and after the prompt that asks again for an older passkey of the wallet is closed (no error then), autofill is offered again in the same field. `load_failed`: the element's code, loaded on demand, did not arrive (asked for twice); `message` says to check the connection, then reload the page (offline it is not asked for: `network`; back online, the element asks for it by itself and starts as on a page just loaded, showing a session stored on this device; a way chosen on the methods shown with the failure asks for it again, and once it is there, a session stored on this device shows in place of that way). `misconfigured` too when `account-id` is malformed (once per value given; `message` is the sentence shown, naming the attribute; nothing is sent).
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
 * @csspart wait - How long until another try is allowed (a rate limit's countdown; not a live region).
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
 * @cssproperty --wallet-font-size - Base font size (default 15px, larger when the reader's browser sets a larger default font size).
 * @cssproperty --wallet-space - Base spacing unit.
 * @cssproperty --wallet-focus-ring - Box shadow of the focus ring.
 *
 * @cssstate restoring - Looking for a session this device holds.
 * @cssstate choosing - Offering the ways to log in.
 * @cssstate sending-code - A code is being sent.
 * @cssstate code-entry - Waiting for the code.
 * @cssstate verifying-code - The code is being checked.
 * @cssstate authenticating - A passkey or single sign-on login is under way.
 * @cssstate logged-in - A session is active.
 * @cssstate refreshing - The session is being refreshed.
 * @cssstate logging-out - The session is being ended.
 * @cssstate expiring - Logged in, with the session near its end: `no-auto-refresh` shortly before expiry, or a refresh that failed.
 * @cssstate reauth - Choosing, narrowed to the way of a session that ended.
 * @cssstate busy - A step is under way (from the first screen on, while the element's code loaded on demand arrives).
 * @cssstate failed - Alone, while `account-id` is malformed.
 */
export class WalletLogin extends TemplateElement {
  static override styles = [baseStyles, formStyles, walletLoginStyles];

  static override properties = {
    accountId: { attribute: 'account-id', reflect: true, useDefault: true, match: idMatch('InternalAccount') },
    methods: {},
    apiBase: { attribute: 'api-base', match: API_BASE, hint: API_BASE_HINT },
    noAutoRefresh: { type: Boolean, attribute: 'no-auto-refresh' },
    refreshBefore: { type: Number, attribute: 'refresh-before', useDefault: true, min: 0 },
    resendAfter: { type: Number, attribute: 'resend-after', useDefault: true, min: 0 },
    codeLength: { type: Number, attribute: 'code-length', useDefault: true, min: 1, step: 1 },
    noAutofill: { type: Boolean, attribute: 'no-autofill' },
    oidcTokenProvider: { attribute: false },
    theme: { reflect: true, match: THEME },
  };

  /** The Embedded Wallet internal account (`InternalAccount:<uuid>`). Another (a malformed id) is said on the console and ignored: the element sends nothing, shows only that this attribute is not a valid id, and reports it once per value (`wallet-login-error`, `misconfigured`). */
  accountId = '';
  /**
   * Space-separated ways to log in, in order: `email-otp sms-otp passkey oauth` (default: all; an
   * unknown name is said on the console and ignored). After a session ended, its own way is asked
   * for again if it is one of these; otherwise these are offered.
   */
  methods = '';
  /** Where the proxy is mounted, when not the page's configured base (configureWallet). Only this page's origin or that of configureWallet's `apiBase` is followed: another is refused (`misconfigured`) and sent nothing. One that is neither a path from `/`, `./` or `../` nor an http(s) address (a bare `wallet.example.com`, `api`) is said on the console, with what to write instead, and ignored. */
  apiBase: string | null = null;
  /** Do not renew the session before it expires; emit `session-expiring` instead. */
  noAutoRefresh = false;
  /** Seconds before expiry at which to renew (or warn); at or above the session's lifetime, halfway through it instead. */
  refreshBefore = 60;
  /** Seconds before "send a new code" is offered again (a 429's Retry-After extends it). */
  resendAfter = 30;
  /** Digits in a code; a code of this length submits itself. */
  codeLength = 6;
  /** Do not offer saved passkeys in the browser's autofill (WebAuthn conditional mediation). */
  noAutofill = false;
  /** Light or dark regardless of the system setting. */
  theme: 'light' | 'dark' | undefined;

  /**
   * For single sign-on: returns a fresh OIDC ID token from the integrator's identity provider whose
   * `nonce` claim is the given nonce (the nonce binds the token to this device's session key).
   * `signal` aborts when the user cancels here (close your sign-in window then); reject with an
   * `AbortError` when the user closed it, and the element returns to its methods without an error.
   */
  oidcTokenProvider: ((nonce: string, options: { signal: AbortSignal }) => Promise<string>) | undefined;

  readonly #i18n = new LocaleController(this);
  readonly #internals = this.attachInternals?.();
  /** The screen state last set as a custom state, turned off when the screen changes. */
  #shown = 'restoring';
  /** The rest of the element, once loaded (`rest`). */
  #view: LoginView | undefined;
  /** Its load, while under way. */
  #loading: Promise<void> | undefined;
  /** Why it did not load: the methods show, with this failure, until a method chosen loads it. */
  #failure: LoginFailure | undefined;
  /** The way to log in chosen on the methods shown after a failed load: while that load is under way, its first step shows (until a cancel), and goes ahead once loaded. */
  #chosen: LoginMethod | undefined;
  /** Focus goes to the screen's `data-autofocus` after the next render (the pressed method button is gone, or back). */
  #focus = false;
  /** Calls made before it loaded (logout(), refresh(), cancel()), made on it once it is there. */
  #calls: ((view: LoginView) => void)[] = [];

  /** The live session shown by the element, or null. Never a key. */
  get session(): SessionInfo | null {
    return this.#view?.session ?? null;
  }

  /**
   * Revokes the session upstream (a request signed with its key) and deletes its key. Called while
   * a login is under way, it stops the login (a passkey prompt or one picked from autofill, single
   * sign-on, a code being sent) or, for a code being checked, logs out the session the code leads
   * to; during the start-up check it removes the stored session, and a code kept for a reload, from
   * this device even when the service cannot be told. `wallet-logged-out` follows only when a
   * session ended. After the element's code failed to load (`load_failed`, `network`), it asks for
   * that code again (or waits for the load a way chosen there started, then cancelled), as the
   * start-up check never ran: a stored session may be on this device; a second failure is told
   * again (`wallet-login-error`), and the session stays until a later call.
   */
  logout(): void {
    this.#call(logoutCall, true);
  }

  /** Renews the session now (with `no-auto-refresh`, in answer to `session-expiring`). */
  refresh(): void {
    this.#call((view) => view.refresh());
  }

  /**
   * Stops a running step (a passkey prompt, single sign-on) and returns to a usable screen; a code
   * being checked returns to the methods (the service may have used it up). A code being sent
   * returns to the methods at once while its request runs on (the service sends the code all the
   * same): that way chosen again goes to the code's screen, as after "Use another way", rather than
   * being refused as too soon; another way, or a logout, stops it. A logout or a
   * renewal runs to its end: cut off, it could leave a session upstream whose key nobody holds.
   * The first step of a way chosen after the element's code failed to load, shown while that code
   * loads again, returns to the methods at once, as it does loaded (the failure no longer shown);
   * the code, once there, goes no further, unless a session is stored on this device: the
   * start-up check the failed load kept from running then runs, and shows it.
   */
  cancel(): void {
    // (Calls made meanwhile were for that step; the keyboard goes to the first method, as loaded.)
    if (this.#step) (this.#chosen = undefined), (this.#calls = []), (this.#focus = mayFocus(this)), this.requestUpdate();
    else this.#call((view) => view.cancel());
  }

  /**
   * Makes `call` on the rest of the element, now or once loaded. On the methods shown after a failed
   * load, where the machine would do nothing either, none, unless it `loads` that code again first.
   */
  #call(call: (view: LoginView) => void, loads = false): void {
    if (this.#view) call(this.#view);
    else if (!this.#failure || this.#loading || loads) {
      this.#calls.push(call);
      this.#load();
    }
  }

  /**
   * What the screen shows: the machine's state, or, before it loaded, the first screen, the methods
   * after a failed load, or the first step of a way chosen there (as the machine would go), while it loads.
   */
  get #state(): LoginState {
    const m = this.#step;
    return this.#view?.machine ?? (m ? ({ kind: m.endsWith('otp') ? 'sending-code' : 'authenticating', method: m } as LoginState) : this.#failure ? { kind: 'choosing', failure: this.#failure } : { kind: 'restoring' });
  }

  /** A way chosen on the methods after a failed load, while its code loads. */
  get #step(): LoginMethod | undefined {
    return this.#loading && this.#chosen;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.#view) this.#view.connected();
    else this.#load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // (Its code not loaded, it waits no more for the way back online: connectedCallback loads
    // again. Loaded, the rest of it decides: moved in the page, it goes on waiting.)
    if (this.#view) this.#view.disconnected();
    else stopWaiting(this);
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('methods')) {
      const unknown: string[] = [];
      parseMethods(this.methods, unknown);
      if (unknown[0]) console.warn(`<wallet-login methods="${unknown.join(' ')}"> ignored`);
    }
    if (changed.has('accountId') || changed.has('apiBase')) {
      if (this.#view) this.#view.bind();
      else this.#load();
    }
  }

  /**
   * Loads the rest of the element once the first screen is painted, for an account on the page;
   * `method`: chosen on the methods shown after a failed load (again after a cancel, while that load
   * is still under way), and made once it is there. Failed,
   * it reports why, as a step that failed does (`load_failed`, or `network` offline), and the
   * methods show with that failure. `refocus`: loaded again once back online with the keyboard in
   * the element, which then goes to the screen the start-up check ends on.
   */
  #load(method?: LoginMethod, refocus?: boolean): void {
    if (!this.accountId || !this.isConnected || (this.#loading && !method)) return;
    const failure = method && this.#failure;
    // (The pressed button goes: focus moves to the heading of the step shown instead.)
    this.#focus = !!(this.#chosen = method) && mayFocus(this);
    // (Another account: its first screen, until the load ends.)
    if (!failure) this.#failure = undefined;
    this.requestUpdate();
    this.#loading ??= rest().then(
      async ({ LoginView }) => {
        const view = new LoginView(this, this.#i18n, () => this.level());
        // A way chosen after a failed load: a session stored on this device, which the start-up
        // check the failure kept from running would have shown, comes first, and shows instead
        // (the way's first step shows while it is looked up; the lookup never fails).
        const stored = !!failure && !!this.#chosen && (await view.stored());
        this.#loading = undefined;
        this.#failure = undefined;
        this.#view = view;
        // (Off the page meanwhile, it starts once the element is back: connectedCallback.)
        // (The methods, after a cancel: nothing goes ahead. But a logout() asked for since then
        // starts it as on a page just loaded, the logout in place of the start-up check: a session
        // stored on this device, never looked up, ends too.)
        const again = !this.#chosen && this.#calls.includes(logoutCall);
        if (this.isConnected && failure && !again && !stored) view.resume(this.#chosen);
        else if (this.isConnected) view.connected(true, refocus || ((again || stored) && keyboardIn(this)));
        for (const call of this.#calls.splice(0)) call(view);
        this.requestUpdate();
      },
      (e: unknown) => {
        this.#loading = undefined;
        this.#calls = [];
        if (!this.isConnected) return;
        // (Back on the methods from a way chosen there, as from its step that failed: on the first;
        // after a cancel, the methods stay as they are.)
        this.#focus = !!this.#chosen && mayFocus(this);
        const failed: LoginFailure = (this.#failure = { code: loadFailureCode(e) });
        // Offline, nothing was asked for: back online, it starts as on a page just loaded (a
        // session stored here shows), unless a method chosen meanwhile asked for the code already.
        // (The keyboard on the methods then stays in the element.) Just back online, a load the
        // connection did not carry yet runs again a moment later; otherwise at the next `online`.
        whenOnline(this, () => this.#failure === failed && this.#load(undefined, keyboardIn(this)));
        this.requestUpdate();
        this.dispatchEvent(new WalletLoginErrorEvent({ code: failed.code, message: failureMessage(this.#i18n.t, failed) }));
      },
    );
  }

  protected override updated(): void {
    const kind = this.#state.kind;
    // A malformed account-id: reported once per value, as a misconfiguration; nothing runs.
    const bad = this.badId(['account-id'], (attribute) => this.dispatchEvent(new WalletLoginErrorEvent({ code: 'misconfigured', message: this.#i18n.t('common.bad-id', { attribute }) })));
    // (Busy too while the rest of the element loads: the start-up check, or the method chosen, waits for it.)
    syncStates(this.#internals, { [this.#shown]: false, [kind]: !bad, failed: !!bad, busy: !!this.#loading, ...this.#view?.states() });
    this.#shown = kind;
    if (this.#focus) {
      this.#focus = false;
      this.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    this.#view?.updated();
  }

  // -------------------------------------------------------------------------------------------
  // Rendering: the first screen and the methods here, every other screen by the view

  protected override render(): TemplateResult {
    const t = this.#i18n.t;
    const s = this.#state;
    // (The failure goes while its code is asked for again: a second one is then read out again.)
    // A way chosen on the methods after a failed load, while it loads: its first step, as the rest of
    // the element shows it (a code being sent, a passkey prompt or the identity provider awaited),
    // said as it says it.
    const m = this.#step;
    const code = m && m.endsWith('otp');
    const step = m ? t(code ? 'login.sending' : `login.${m}.waiting`) : '';
    const lines = this.#view?.lines() ?? { error: this.#failure && !this.#loading ? failureMessage(t, this.#failure) : '', wait: '', notice: step, quiet: false };
    return html`
      <section part="base" class="panel stack" aria-labelledby="heading">
        ${this.accountId
          ? s.kind === 'restoring' || m
            ? // The first screen is one template of its own: Lit prepares one template before the first
              // paint instead of three (measured 0.5-1.4 ms sooner on the page).
              // Cancel as the rest of the element shows it on the passkey prompt (the keyboard on the title).
              html`<h2 part="heading" id="heading" tabindex="-1" aria-level=${this.level()} ?data-autofocus=${!!m}>${t(code ? `login.code.heading.${m}` : 'login.heading')}</h2>
                <p part="intro" class="muted" id="intro">${step || t('login.restoring')}</p>
                ${m ? html`<div class="actions"><button part="button" type="button" @click=${() => this.cancel()}>${t('common.cancel')}</button></div>` : nothing}`
            : s.kind === 'choosing'
              ? this.#choosing(s)
              : this.#view!.screen()
          : html`<p part="intro">${t(this.badId(['account-id']) ? 'common.bad-id' : 'common.missing-account', { attribute: 'account-id' })}</p>`}
        <p part="error" id="error" class="live" role="alert">${lines.error}</p>
        <p part="wait" class="live">${lines.wait}</p>
        <p part="status" class="live ${lines.quiet ? 'visually-hidden' : ''}" role="status">${lines.notice}</p>
      </section>
    `;
  }

  /** The methods: a way to log in chosen before the rest of the element is there loads it. */
  #choosing(s: Extract<LoginState, { kind: 'choosing' }>): TemplateResult {
    const t = this.#i18n.t;
    const view = this.#view;
    const offered = offeredMethods(s, parseMethods(this.methods), 'PublicKeyCredential' in globalThis);
    const reauth = s.reauth;
    return html`<h2 part="heading" id="heading" tabindex="-1" aria-level=${this.level()}>${t('login.heading')}</h2>
      ${reauth ? html`<p part="intro">${t(`login.reauth.${reauth.why}`, { method: t(`credential.${reauth.credentialType}`) })}</p>` : html`<p part="intro" class="muted" id="intro">${t('login.intro')}</p>`}
      ${view?.autofill && offered.includes('passkey')
        ? html`<div part="autofill" class="field">
            <label for="autofill">${t('login.autofill.label')}</label>
            <input id="autofill" name="passkey" type="text" autocomplete="username webauthn" aria-describedby="autofill-hint" />
            <span id="autofill-hint" class="muted">${t('login.autofill.hint')}</span>
          </div>`
        : nothing}
      <ul part="methods" aria-label=${t('login.methods')}>
        ${offered.map(
          (m, i) => html`<li>
            <button part="method-button" type="button" data-method=${m} ?data-autofocus=${i === 0} @click=${() => (view ? view.choose(m) : this.#load(m))}>
              ${t(`login.method.${m}`)}
            </button>
          </li>`,
        )}
      </ul>
      ${reauth ? html`<button part="button" class="link" type="button" @click=${() => view!.back()}>${t('login.reauth.other')}</button>` : nothing}`;
  }
}

defineElement('wallet-login', WalletLogin);

declare global {
  interface HTMLElementTagNameMap {
    'wallet-login': WalletLogin;
  }
}
