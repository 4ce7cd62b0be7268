/**
 * `<passkey-register>`: the user adds a passkey to their wallet and ends logged in with it
 * (api.md "Registration of a passkey", "Adding a credential when another exists").
 *
 * Options come from the integrator's backend (the proxy), the browser's create excludes the
 * wallet's passkeys, the credential is saved with the signed retry when the wallet already has a
 * login (the current session key signs it), then activated by a passkey login. The flow is
 * passkey-register.machine.ts; the calls are passkey-register.flows.ts. This file renders.
 * It never calls fetch or IndexedDB and never sees a key or an attestation. The session flows
 * (shared/wallet.ts) and the other-tab channel come after the first render.
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { Task } from '../shared/task.ts';
import { baseStyles } from '../shared/styles.ts';
import { formStyles } from '../shared/form-styles.ts';
import { LocaleController } from '../shared/i18n.ts';
import type { Wallet } from '../../core/session.ts';
import { failureMessage } from '../shared/strings.ts';
import { isCancellation } from '../shared/failures.ts';
import { beginCeremony, cancelCeremony } from '../shared/ceremony.ts';
import { afterFirstPaint, onceAfterFirstPaint } from '../shared/idle.ts';
import { onSessionBroadcast } from '../shared/session-channel.ts';
import { defaultNickname, initialState, isBusy, transition, validNickname, type RegisterEvent, type RegisterState } from './passkey-register.machine.ts';
import { activate, detectSupport, failureOf, platformName, register } from './passkey-register.flows.ts';
import { PasskeyRegisterErrorEvent, PasskeyRegisteredEvent } from './passkey-register.events.ts';
import { passkeyRegisterStyles } from './passkey-register.styles.ts';
import './passkey-register.strings.ts';

/** The page's session flows (shared/wallet.ts and what it loads), once the first screen is painted. */
const services = onceAfterFirstPaint(() => import('../shared/wallet.ts'));
const walletFor = async (apiBase: string | null | undefined): Promise<Wallet> => (await services()).walletFor(apiBase);

type Step = { kind: 'register'; nickname: string } | { kind: 'activate'; credentialId: string };

/**
 * Adds a passkey to a wallet, then logs in with it.
 *
 * @summary Passkey registration with the signed retry and activation.
 *
 * @event passkey-registered - The passkey was saved: `{accountId, credentialId, nickname, sessionId?}`
 *   (`sessionId` once the activation login finished).
 * @event passkey-register-error - A step failed: `{code, message, status?}`; `message` is the sentence shown.
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
 * Custom states: `:state(checking)`, `:state(unsupported)`, `:state(ready)`, `:state(creating)`,
 * `:state(login-required)`, `:state(activating)`, `:state(registered)`, `:state(done)`, `:state(busy)`.
 */
@customElement('passkey-register')
export class PasskeyRegister extends LitElement {
  static override styles = [baseStyles, formStyles, passkeyRegisterStyles];

  /** The Embedded Wallet internal account (`InternalAccount:<uuid>`). */
  @property({ attribute: 'account-id', reflect: true }) accountId = '';
  /** Where the proxy is mounted, when not the page's configured base. */
  @property({ attribute: 'api-base' }) apiBase: string | null = null;
  /** The label offered in the nickname field; by default the platform and today's date. */
  @property() nickname = '';
  /** Light or dark regardless of the system setting. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  @state() private machine: RegisterState = initialState();
  @state() private notice = '';
  @state() private nicknameInvalid = false;
  @query('#nickname') private nicknameInput?: HTMLInputElement;

  private readonly i18n = new LocaleController(this);
  private readonly internals: ElementInternals | undefined;
  private focusPending = false;
  private unsubscribe: Array<() => void> = [];
  /** A token per connection, so that listeners set up after a render belong to the live one. */
  private connection: object | undefined;

  private readonly flow = new Task<[Step], RegisterEvent>(this, {
    task: ([step], { signal }) => this.run(step, signal),
    onComplete: (event) => this.send(event),
    onError: (e) => this.send(isCancellation(e) ? { type: 'CANCELLED' } : { type: 'FAILED', failure: failureOf(e) }),
  });

  constructor() {
    super();
    this.internals = typeof this.attachInternals === 'function' ? this.attachInternals() : undefined;
  }

  /** Stops a running prompt; the form is usable again. */
  cancel(): void {
    cancelCeremony();
    this.flow.abort();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A login elsewhere on the page or in another tab makes a "log in first" screen usable again.
    const onSession = (change: { type: string; accountId: string }) => {
      if (change.accountId === this.accountId && change.type !== 'logged-out') this.send({ type: 'SESSION_AVAILABLE' });
    };
    // After the first render: the form needs neither the channel nor the flows' code to show.
    const connection = (this.connection = {});
    void this.updateComplete.then(afterFirstPaint).then(async () => {
      if (this.connection !== connection) return;
      this.unsubscribe.push(onSessionBroadcast(onSession));
      const wallet = await walletFor(this.apiBase).catch(() => undefined);
      if (wallet && this.connection === connection) this.unsubscribe.push(wallet.subscribe(onSession));
    });
    if (this.machine.kind === 'checking') void detectSupport().then((support) => this.send({ type: 'SUPPORT', support }));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.connection = undefined;
    this.flow.abort();
    for (const u of this.unsubscribe.splice(0)) u();
  }

  protected override updated(_changed: PropertyValues<this>): void {
    const kind = this.machine.kind;
    for (const name of ['checking', 'unsupported', 'ready', 'creating', 'login-required', 'activating', 'registered', 'done']) {
      this.setState(name, kind === name);
    }
    this.setState('busy', isBusy(this.machine));
    if (this.focusPending) {
      this.focusPending = false;
      this.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
  }

  private setState(name: string, on: boolean): void {
    try {
      if (on) this.internals?.states.add(name);
      else this.internals?.states.delete(name);
    } catch {
      // No custom states in this browser.
    }
  }

  private async run(step: Step, signal: AbortSignal): Promise<RegisterEvent> {
    const wallet = await walletFor(this.apiBase);
    // One ceremony at a time on the page (shared/ceremony.ts).
    const ceremony = beginCeremony(signal);
    try {
      return step.kind === 'register'
        ? await register(wallet, this.accountId, step.nickname, ceremony.signal)
        : await activate(wallet, step.credentialId, ceremony.signal);
    } finally {
      ceremony.end();
    }
  }

  private start(step: Step): void {
    void this.flow.run([step]);
  }

  private send(event: RegisterEvent): void {
    const before = this.machine;
    const after = transition(before, event);
    if (after === before) return;
    this.machine = after;
    const t = this.i18n.t;
    if (after.kind !== before.kind && before.kind !== 'checking') this.focusPending = true;
    this.notice = '';
    switch (after.kind) {
      case 'creating':
        this.notice = t('passkey.creating');
        break;
      case 'activating':
        this.notice = t('passkey.activating');
        if (before.kind === 'creating') {
          this.dispatchEvent(new PasskeyRegisteredEvent({ accountId: this.accountId, ...after.passkey }));
        }
        this.start({ kind: 'activate', credentialId: after.passkey.credentialId });
        break;
      case 'done':
        this.dispatchEvent(new PasskeyRegisteredEvent({ accountId: this.accountId, ...after.passkey, sessionId: after.sessionId }));
        break;
      default:
        break;
    }
    const failure = 'failure' in after ? after.failure : undefined;
    if (failure) {
      this.dispatchEvent(new PasskeyRegisterErrorEvent({ code: failure.code, message: failureMessage(t, failure), ...(failure.status ? { status: failure.status } : {}) }));
    }
    if (after.kind === 'login-required') {
      this.dispatchEvent(new PasskeyRegisterErrorEvent({ code: 'login_required', message: t('passkey.login-required') }));
    }
  }

  private onSubmit(e: SubmitEvent): void {
    e.preventDefault();
    const nickname = this.nicknameInput?.value ?? '';
    if (!validNickname(nickname)) {
      this.nicknameInvalid = true;
      this.nicknameInput?.focus();
      return;
    }
    this.nicknameInvalid = false;
    this.send({ type: 'START' });
    if (this.machine.kind === 'creating') this.start({ kind: 'register', nickname: nickname.trim() });
  }

  // -------------------------------------------------------------------------------------------
  // Rendering

  protected override render(): TemplateResult {
    const t = this.i18n.t;
    const s = this.machine;
    const failure = 'failure' in s ? s.failure : undefined;
    const error = failure ? failureMessage(t, failure) : this.nicknameInvalid ? t('passkey.nickname.invalid') : '';
    return html`
      <section part="base" class="panel stack" aria-labelledby="heading" aria-busy=${isBusy(s) ? 'true' : 'false'}>
        <h2 part="heading" id="heading">${t('passkey.heading')}</h2>
        ${this.accountId ? this.screen(s) : html`<p part="intro">${t('common.missing-account')}</p>`}
        <p part="error" class="live" role="alert">${error}</p>
        <p part="status" class="live" role="status">${this.notice}</p>
      </section>
    `;
  }

  private screen(s: RegisterState): TemplateResult {
    const t = this.i18n.t;
    switch (s.kind) {
      case 'checking':
        return html`<p part="intro" class="muted">${t('passkey.checking')}</p>`;
      case 'unsupported':
        return html`<p part="note">${t('passkey.unsupported')}</p>`;
      case 'ready':
      case 'creating':
        return this.form(s);
      case 'login-required':
        return html`<p part="note" data-autofocus tabindex="-1">${t('passkey.login-required')}</p>`;
      case 'activating':
        return html`<p part="intro">${t('passkey.activating')}</p>
          <div class="actions"><button part="button" type="button" data-autofocus @click=${() => this.cancel()}>${t('common.cancel')}</button></div>`;
      case 'registered':
        return html`<p part="intro">${t('passkey.registered', { nickname: s.passkey.nickname })}</p>
          <div class="actions">
            <button part="submit" class="primary" type="button" data-autofocus @click=${() => this.send({ type: 'ACTIVATE' })}>${t('passkey.activate')}</button>
          </div>`;
      case 'done':
        return html`<p part="done" data-autofocus tabindex="-1">${t('passkey.done', { nickname: s.passkey.nickname })}</p>
          <div class="actions"><button part="button" type="button" @click=${() => this.send({ type: 'RESET' })}>${t('passkey.another')}</button></div>`;
    }
  }

  private form(s: Extract<RegisterState, { kind: 'ready' | 'creating' }>): TemplateResult {
    const t = this.i18n.t;
    const creating = s.kind === 'creating';
    const value = this.nickname || defaultNickname(platformName(), new Date(), this.i18n.locale);
    return html`
      <p part="intro" class="muted">${t('passkey.intro')}</p>
      ${s.support === 'roaming-only' ? html`<p part="note">${t('passkey.roaming-only')}</p>` : nothing}
      <form part="form" class="stack" novalidate @submit=${this.onSubmit}>
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
            .defaultValue=${value}
            aria-describedby="nickname-help"
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

declare global {
  interface HTMLElementTagNameMap {
    'passkey-register': PasskeyRegister;
  }
}
