/**
 * `<passkey-register>`: the user adds a passkey to their wallet and ends logged in with it
 * (api.md "Registration of a passkey", "Adding a credential when another exists").
 *
 * Options come from the integrator's backend (the proxy), the browser's create excludes the
 * wallet's passkeys, the credential is saved with the signed retry when the wallet already has a
 * login (the current session key signs it), then activated by a passkey login. The flow is
 * passkey-register.machine.ts; the calls are passkey-register.flows.ts, which loads with the
 * session flows (shared/wallet.ts) and the other-tab channel after the first render. This file
 * renders and asks the browser what it supports. It never calls fetch or IndexedDB and never sees
 * a key or an attestation.
 */
import { html, nothing, type TemplateResult } from 'lit/html.js';
import { TemplateElement } from '../shared/template.ts';
import { defineElement, type PropertyValues } from '../shared/reactive.ts';
import { Task } from '../shared/task.ts';
import { baseStyles, THEME } from '../shared/styles.ts';
import { API_BASE, API_BASE_HINT, idMatch } from '../shared/config.ts';
import { formStyles } from '../shared/form-styles.ts';
import { isolate, LocaleController } from '../shared/i18n.ts';
import { failureMessage } from '../shared/strings.ts';
import { afterFirstPaint, onceAfterFirstPaint } from '../shared/idle.ts';
import { loadFailureCode } from '../shared/load.ts';
import { syncStates, mayFocus } from '../shared/list.ts';
import { defaultNickname, initialState, isBusy, transition, validNickname, type RegisterEvent, type RegisterFailure, type RegisterState, type Support } from './passkey-register.machine.ts';
import type { Step } from './passkey-register.flows.ts';
import { PasskeyRegisterErrorEvent, PasskeyRegisteredEvent } from './passkey-register.events.ts';
import { passkeyRegisterStyles } from './passkey-register.styles.ts';
import './passkey-register.strings.ts';

// Its events (and their GlobalEventHandlersEventMap entries) come with the element's declarations,
// so typings that reach the element alone (the React wrappers) see the event types too.
export * from './passkey-register.events.ts';

/** Registration, activation and session watching, loaded once the first screen is painted. */
const flows = onceAfterFirstPaint(() => import('./passkey-register.flows.ts'));

interface PublicKeyCredentialStatics {
  getClientCapabilities?: () => Promise<Record<string, boolean | undefined>>;
  isUserVerifyingPlatformAuthenticatorAvailable?: () => Promise<boolean>;
}

/**
 * What this browser can create (WebAuthn Level 3, sections 5.1.7 and 5.1.8):
 * `PublicKeyCredential.getClientCapabilities()` where it exists (its `passkeyPlatformAuthenticator`
 * / `userVerifyingPlatformAuthenticator`), else `isUserVerifyingPlatformAuthenticatorAvailable()`.
 */
async function detectSupport(): Promise<Exclude<Support, 'checking'>> {
  const pkc = (globalThis as { PublicKeyCredential?: PublicKeyCredentialStatics }).PublicKeyCredential;
  if (!pkc || typeof navigator.credentials?.create !== 'function') return 'none';
  try {
    const caps = await pkc.getClientCapabilities?.();
    if (caps?.['passkeyPlatformAuthenticator'] || caps?.['userVerifyingPlatformAuthenticator']) return 'platform';
    // Capabilities may leave the platform question open; then the older probe answers.
    if (caps?.['passkeyPlatformAuthenticator'] === false && caps['userVerifyingPlatformAuthenticator'] === false) return 'roaming-only';
    if (await pkc.isUserVerifyingPlatformAuthenticatorAvailable?.()) return 'platform';
  } catch {
    // A probe that throws says nothing about create() itself.
  }
  return 'roaming-only';
}

/**
 * Adds a passkey to a wallet, then logs in with it.
 *
 * @summary Passkey registration with the signed retry and activation.
 *
 * @event passkey-registered - Fires twice for one passkey: when it is saved, `{accountId, credentialId,
 *   nickname}`, and again when the activation login finished, with `sessionId` too. A handler that
 *   should run once checks `sessionId` (present: activated) or `credentialId` (seen already).
 * @event passkey-register-error - A step failed: `{code, message, status?}`; `message` is the sentence shown. `passkey_kept`: cancelled, the passkey saved meanwhile could not be removed again and may still be on the wallet (`<wallet-credentials>` lists it, to remove it there). `load_failed`: the element's code, loaded on demand, did not arrive (asked for twice); `message` says to check the connection, then reload the page (offline it is not asked for: `network`, whose "Try again" works once online). `misconfigured` too when `account-id` is malformed (once per value given; `message` is the sentence shown, naming the attribute; nothing is sent).
 *   `cancelled`: the browser's prompt ended without a passkey (closed, timed out, the user not verified).
 *
 * @csspart base - The panel.
 * @csspart heading - The title.
 * @csspart intro - The sentence under the title.
 * @csspart note - A note about this device (no built-in passkeys, log in first).
 * @csspart form - The nickname form.
 * @csspart label - The nickname label.
 * @csspart input - The nickname field.
 * @csspart submit - The main button.
 * @csspart button - A secondary button (cancel, add another).
 * @csspart done - The success sentence.
 * @csspart status - The polite live region.
 * @csspart error - The assertive live region.
 *
 * @cssproperty --passkey-register-max-width - Widest the element grows (default 26rem).
 * @cssproperty --passkey-register-padding - Padding of the panel.
 * @cssproperty --passkey-register-radius - Corner radius of the panel.
 * @cssproperty --wallet-color-text - Text colour (shared theme; see wallet-login for the full list).
 * @cssproperty --wallet-color-accent - Main button and focus ring.
 * @cssproperty --wallet-color-success - The success sentence.
 * @cssproperty --wallet-color-danger - Error text.
 *
 * @cssstate checking - Finding out whether this browser can make a passkey.
 * @cssstate unsupported - This browser cannot make a passkey.
 * @cssstate ready - Waiting for the nickname and the main button.
 * @cssstate creating - The passkey is being made and saved.
 * @cssstate login-required - A login is needed first (also as soon as this device's session of the wallet ends, logged out here or in another tab or timed out, or when the element is put back on the page after it ended: the form goes).
 * @cssstate activating - The passkey is saved; the activation login is under way.
 * @cssstate registered - The passkey is saved, but the activation login failed or was cancelled.
 * @cssstate done - The passkey is saved and activated.
 * @cssstate busy - A step is under way (checking, creating, activating).
 * @cssstate failed - Alone, while `account-id` is malformed.
 */
export class PasskeyRegister extends TemplateElement {
  static override styles = [baseStyles, formStyles, passkeyRegisterStyles];

  static override properties = {
    accountId: { attribute: 'account-id', reflect: true, useDefault: true, match: idMatch('InternalAccount') },
    apiBase: { attribute: 'api-base', match: API_BASE, hint: API_BASE_HINT },
    nickname: {},
    theme: { reflect: true, match: THEME },
    machine: { state: true },
    notice: { state: true },
    nicknameInvalid: { state: true },
  };

  /** The Embedded Wallet internal account (`InternalAccount:<uuid>`). Another (a malformed id) is said on the console and ignored: the element sends nothing, shows only that this attribute is not a valid id, and reports it once per value (`passkey-register-error`, `misconfigured`). */
  accountId = '';
  /** Where the proxy is mounted, when not the page's configured base. Only this page's origin or that of configureWallet's `apiBase` is followed: another is refused (`misconfigured`) and sent nothing. One that is neither a path from `/`, `./` or `../` nor an http(s) address (a bare `wallet.example.com`, `api`) is said on the console, with what to write instead, and ignored. */
  apiBase: string | null = null;
  /** The label offered in the nickname field; by default the platform (or the word for a passkey in the element's language, `credential.PASSKEY`, when the browser names none) and today's date. */
  nickname = '';
  /** Light or dark regardless of the system setting. */
  theme: 'light' | 'dark' | undefined;

  private machine: RegisterState = initialState();
  private notice = '';
  private nicknameInvalid = false;

  readonly #i18n = new LocaleController(this);
  readonly #internals = this.attachInternals?.();
  /** The screen state last set as a custom state, turned off when the screen changes. */
  #shown = 'checking';
  #focusPending = false;
  /** Where the focus was as the user began the running step. */
  #focusFrom?: Element | null;
  /** The name last sent, or in the field as the session ended, offered again when the form is drawn anew ("log in first", then a login); forgotten on RESET (another wallet, "Add another passkey"). */
  #typed = '';
  /**
   * A passkey kept after a cancel (its removal failed) that became known while another registration
   * ran: said in the alert beside what that one shows, until the user starts something else.
   */
  #kept = false;
  /** Whether the wallet had a session here when last heard of (on the page), so that its end while off the page is noticed. */
  #live = false;
  /** Look-ups asked and session changes heard: an answer to an older look-up than the last of these is stale. */
  #heard = 0;
  /** The session watching of the live connection (undefined while disconnected). */
  #connection: { unwatch?: () => void } | undefined;

  /** Steps report failures as events; only the flows' code failing to load is an error here. */
  readonly #flow = new Task<[Step], RegisterEvent>(this, {
    task: async ([step], { signal }) => (await flows()).runStep(this, step, signal, (event) => this.#send(event)),
    onComplete: (event) => this.#send(event),
    onError: (e) => this.#send({ type: 'FAILED', failure: { code: loadFailureCode(e) } }),
  });

  /** The nickname field, while the form shows. */
  get #nicknameInput(): HTMLInputElement | null {
    return this.renderRoot.querySelector('#nickname');
  }

  /** Stops this element's running prompt or step, never another element's; the form is usable again (a wallet's first passkey already being saved is kept: it offers the login with it). Idle, it does nothing. */
  cancel(): void {
    this.#flow.abort();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the page (a framework connects it again in the same task): it never left.
    if (this.#connection) return;
    this.#connection = {};
    this.#lookUp();
    if (this.machine.kind === 'checking') void detectSupport().then((support) => this.#send({ type: 'SUPPORT', support }));
  }

  /**
   * After the first render (the form needs neither the channel nor the flows' code to show): whether
   * the wallet has a session now, asked on every connection and for every other wallet, and answered
   * even if the element left the page meanwhile, so that put back it notices one that ended while it
   * was away. Then, while it is on the page: a login elsewhere on the page or in another tab makes
   * a "log in first" screen usable again; a logout or the session's end there says "log in first"
   * instead of a form that would fail.
   */
  #lookUp(): void {
    const asked = ++this.#heard;
    void this.updateComplete
      .then(afterFirstPaint)
      .then(flows)
      .then((f) =>
        // Back on the page, a login or a logout made while it was off the page counts too; none at
        // all (a wallet with no login may register) takes the form away only where it had one.
        f.watchSessions(
          this,
          (live, now) => {
            // Only the latest look-up's answer counts, and none asked for before a change heard since.
            if (!now) this.#heard++;
            else if (asked !== this.#heard) return;
            if (live || !now || this.#live) this.#send({ type: live ? 'SESSION_AVAILABLE' : 'SESSION_ENDED' }, true);
            this.#live = live;
          },
          this.#connection,
        ),
      )
      .catch(() => undefined);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Off the page at the end of this task (not moved in it): a prompt or a save under way stops.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#connection?.unwatch?.();
      this.#connection = undefined;
      this.#flow.abort();
    });
  }

  protected override willUpdate(changed: PropertyValues): void {
    // Another wallet, or another service (api-base): what was said or done was of the previous one
    // ("log in first", "added"), and a running step is stopped (a passkey it saved there is removed
    // as on Cancel). The form is offered again, and the new wallet's session looked up; registering
    // checks for a session first.
    if (changed.get('accountId') !== undefined || changed.get('apiBase') !== undefined) {
      this.#flow.abort();
      this.#live = false;
      this.#send({ type: 'RESET' }, true);
      this.#lookUp();
    }
  }

  protected override updated(): void {
    const kind = this.machine.kind;
    // A malformed account-id: reported once per value, as a misconfiguration; nothing runs.
    const bad = this.badId(['account-id'], (attribute) => this.dispatchEvent(new PasskeyRegisterErrorEvent({ code: 'misconfigured', message: this.#i18n.t('common.bad-id', { attribute }) })));
    syncStates(this.#internals, { [this.#shown]: false, [kind]: !bad, failed: !!bad, busy: isBusy(this.machine) });
    this.#shown = kind;
    if (this.#focusPending) {
      this.#focusPending = false;
      this.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
  }

  #send(event: RegisterEvent, outside?: boolean): void {
    const before = this.machine;
    const after = transition(before, event);
    const t = this.#i18n.t;
    const error = (code: string, message: string, status?: number) =>
      this.dispatchEvent(new PasskeyRegisterErrorEvent({ code, message, ...(status ? { status } : {}) }));
    const { type } = event;
    if (type === 'START' || type === 'RESET' || type === 'ACTIVATE') {
      this.#kept = false;
      this.#typed = '';
      this.nicknameInvalid = false;
      // Another wallet: the field shows the name offered, not what was typed for the last one.
      if (type === 'RESET') this.renderRoot.querySelector('form')?.reset();
    }
    // Known while the next registration runs (the form busy): said without touching that one.
    if (type === 'KEPT' && after === before) {
      this.#kept = true;
      this.requestUpdate();
      error('passkey_kept', t('error.passkey_kept'));
    }
    if (after === before) return;
    this.machine = after;
    // The session ended: the name in the field is offered again after the next login, and a
    // registration under way stops (its end said as its own step's), its prompt not left open.
    if (type === 'SESSION_ENDED') (this.#typed = this.#nicknameInput?.value ?? ''), this.#flow.abort();
    // A change moves focus only from inside, or (a step of its own) from nowhere or where it was as
    // the step began: not from where the user went meanwhile, nor for a change from elsewhere (a
    // login, another wallet set by the page).
    if (type === 'START' || type === 'ACTIVATE') this.#focusFrom = document.activeElement;
    if (after.kind !== before.kind && before.kind !== 'checking' && mayFocus(this, outside, this.#focusFrom)) this.#focusPending = true;
    // Registering, the status says nothing until core tells whether another registration (another
    // tab's, or this page's: a cancelled one whose passkey is being removed) runs first (no prompt
    // is open then): the waiting text, then the prompt's once its turn comes. Each is said once,
    // never a prompt's text that the waiting text replaces a moment later.
    const creating = after.kind === 'creating' && after.waiting !== undefined && (after.waiting === 'here' ? 'waiting-here' : after.waiting ? 'waiting' : 'creating');
    // Done while the focus is elsewhere (it does not go to the sentence): said politely instead.
    this.notice = creating ? t(`passkey.${creating}`) : after.kind === 'done' && !this.#focusPending ? t('passkey.done', { nickname: isolate(after.passkey.nickname) }) : '';
    // Saved: told, and activated unless the user stopped it (then kept: 'registered' offers the login).
    if (before.kind === 'creating' && 'passkey' in after) this.dispatchEvent(new PasskeyRegisteredEvent({ accountId: this.accountId, ...after.passkey }));
    if (after.kind === 'activating') void this.#flow.run([{ kind: 'activate', credentialId: after.passkey.credentialId }]);
    if (after.kind === 'done') this.dispatchEvent(new PasskeyRegisteredEvent({ accountId: this.accountId, ...after.passkey, sessionId: after.sessionId }));
    if ('failure' in after && after.failure) error(after.failure.code, this.#sentence(after.failure), after.failure.status);
    // (A step's outcome; not a session ended elsewhere while nothing ran.)
    if (after.kind === 'login-required' && before.kind === 'creating') error(after.ended ? 'session_expired' : 'login_required', t(`passkey.${after.ended ? 'session-ended' : 'login-required'}`));
  }

  /**
   * What a failure says; a prompt that ended without a passkey says that nothing was created, and a
   * passkey refused as it was made (back on the form) that nothing was added, not to log in another way.
   */
  #sentence(failure: RegisterFailure): string {
    const t = this.#i18n.t;
    return failure.code === 'cancelled' ? t('passkey.not-created') : failure.code === 'passkey_rejected' && this.machine.kind === 'ready' ? t('passkey.rejected') : failureMessage(t, failure);
  }

  #onSubmit(e: SubmitEvent): void {
    e.preventDefault();
    // Submitted again while the passkey is made (the page's requestSubmit(), Enter): the step runs on.
    if (isBusy(this.machine)) return;
    const nickname = this.#nicknameInput?.value ?? '';
    this.nicknameInvalid = !validNickname(nickname);
    if (this.nicknameInvalid) {
      this.#nicknameInput?.focus();
      return;
    }
    // (From the form, START is always the creating step.)
    this.#send({ type: 'START' });
    this.#typed = nickname;
    void this.#flow.run([{ kind: 'register', nickname: nickname.trim() }]);
  }

  // -------------------------------------------------------------------------------------------
  // Rendering

  protected override render(): TemplateResult {
    const t = this.#i18n.t;
    const s = this.machine;
    const failure = 'failure' in s ? s.failure : undefined;
    const error = `${failure ? this.#sentence(failure) : this.nicknameInvalid ? t('passkey.nickname.invalid', { max: 100 }) : ''} ${this.#kept ? t('error.passkey_kept') : ''}`.trim();
    return html`
      <section part="base" class="panel stack" aria-labelledby="heading">
        <h2 part="heading" id="heading" aria-level=${this.level()}>${t('passkey.heading')}</h2>
        ${this.accountId ? this.#screen(s) : html`<p part="intro">${t(this.badId(['account-id']) ? 'common.bad-id' : 'common.missing-account', { attribute: 'account-id' })}</p>`}
        <p part="error" id="error" class="live" role="alert">${error}</p>
        <p part="status" class="live" role="status">${this.notice}</p>
      </section>
    `;
  }

  #screen(s: RegisterState): TemplateResult {
    const t = this.#i18n.t;
    switch (s.kind) {
      case 'checking':
        return html`<p part="intro" class="muted">${t('passkey.checking')}</p>`;
      case 'unsupported':
        return html`<p part="note">${t('passkey.unsupported')}</p>`;
      case 'login-required':
        return html`<p part="note" data-autofocus tabindex="-1">${t(`passkey.${s.ended ? 'session-ended' : 'login-required'}`)}</p>`;
      case 'activating':
      case 'registered': {
        // While the login runs its button stays where it was, disabled, and Cancel comes beside it:
        // the second click of a double click must not land on a Cancel drawn under the pointer.
        // The sentence is said once, as the description of the button the focus lands on.
        const activating = s.kind === 'activating';
        return html`<p part="intro" id="intro">${activating ? t('passkey.activating') : t('passkey.registered', { nickname: isolate(s.passkey.nickname) })}</p>
          <div class="actions">
            <button part="submit" class="primary" type="button" aria-describedby="intro" ?disabled=${activating} ?data-autofocus=${!activating} @click=${() => this.#send({ type: 'ACTIVATE' })}>${t('passkey.activate')}</button>
            ${activating ? html`<button part="button" type="button" aria-describedby="intro" data-autofocus @click=${() => this.cancel()}>${t('common.cancel')}</button>` : nothing}
          </div>`;
      }
      case 'done':
        return html`<p part="done" data-autofocus tabindex="-1">${t('passkey.done', { nickname: isolate(s.passkey.nickname) })}</p>
          <div class="actions"><button part="button" type="button" @click=${() => this.#send({ type: 'RESET' })}>${t('passkey.another')}</button></div>`;
      default:
        return this.#form(s);
    }
  }

  #form(s: Extract<RegisterState, { kind: 'ready' | 'creating' }>): TemplateResult {
    const t = this.#i18n.t;
    const creating = s.kind === 'creating';
    const platform = (navigator as { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform;
    return html`
      <p part="intro" class="muted">${t('passkey.intro')}</p>
      ${s.support === 'roaming-only' ? html`<p part="note">${t('passkey.roaming-only')}</p>` : nothing}
      <form part="form" class="stack" novalidate @submit=${this.#onSubmit}>
        <div class="field">
          <label part="label" for="nickname">${t('passkey.nickname.label')}</label>
          <input
            part="input"
            id="nickname"
            name="nickname"
            type="text"
            autocomplete="off"
            maxlength="100"
            required
            .defaultValue=${this.#typed || this.nickname || defaultNickname(platform, new Date(), this.#i18n.locale, t('credential.PASSKEY'))}
            aria-describedby=${this.nicknameInvalid ? 'nickname-help error' : 'nickname-help'}
            aria-invalid=${this.nicknameInvalid ? 'true' : 'false'}
            ?readonly=${creating}
            ?data-autofocus=${!creating}
          />
          <span id="nickname-help" class="muted">${t('passkey.nickname.help')}</span>
        </div>
        <div class="actions">
          <button part="submit" class="primary" type="submit" ?disabled=${creating}>${t('passkey.submit')}</button>
          ${creating ? html`<button part="button" type="button" data-autofocus @click=${() => this.cancel()}>${t('common.cancel')}</button>` : nothing}
        </div>
      </form>
    `;
  }
}

defineElement('passkey-register', PasskeyRegister);

declare global {
  interface HTMLElementTagNameMap {
    'passkey-register': PasskeyRegister;
  }
}
