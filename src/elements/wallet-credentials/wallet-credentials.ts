/**
 * `<wallet-credentials>`: the wallet's ways to log in and its active sessions, with the changes
 * api.md allows from the browser: add an SMS_OTP or OAUTH credential (signed retry, then
 * activation), remove a credential (stamped by a session of another credential; never the last),
 * end sessions, and change the customer's email (signed retry when an OTP login is tied to it).
 *
 * The rules are wallet-credentials.machine.ts, the calls wallet-credentials.flows.ts; this file
 * renders and wires them. It never calls fetch or IndexedDB and never holds a key. The client and
 * session flows (shared/wallet.ts) load with import() when the lists are first fetched.
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { Task, TaskStatus, initialState as taskInitial } from '../shared/task.ts';
import type { OtpLogin } from '../../core/session.ts';
import type { AuthMethod, AuthSession } from '../../core/types.ts';
import { baseStyles } from '../shared/styles.ts';
import { formStyles } from '../shared/form-styles.ts';
import { LocaleController } from '../shared/i18n.ts';
import { failureMessage } from '../shared/strings.ts';
import { afterFirstPaint, onceAfterFirstPaint } from '../shared/idle.ts';
import { onSessionBroadcast } from '../shared/session-channel.ts';
import {
  allowed,
  canAdd,
  initialState,
  isCurrentSession,
  revokeBlock,
  transition,
  type CredentialsEvent,
  type CredentialsState,
  type CredentialsView,
  type Notice,
  type Operation,
} from './wallet-credentials.machine.ts';
import {
  addCredential,
  failureOf,
  loadView,
  revokeCredential,
  revokeSession,
  sendActivationCode,
  updateEmail,
  type Services,
} from './wallet-credentials.flows.ts';
import { CredentialAddedEvent, CredentialRevokedEvent, SessionRevokedEvent, WalletCredentialsErrorEvent } from './wallet-credentials.events.ts';
import { walletCredentialsStyles } from './wallet-credentials.styles.ts';
import { codeInput } from '../shared/code-input.ts';
import './wallet-credentials.strings.ts';

/** The page's client and session flows (shared/wallet.ts and what it loads), once the first screen is painted. */
const services = onceAfterFirstPaint(() => import('../shared/wallet.ts'));

type Ready = Extract<CredentialsState, { kind: 'ready' }>;

/** Unicode isolates (FSI ... PDI) keep an email or a `+1...` phone whole inside right-to-left text. */
const isolate = (s: string) => `\u2068${s}\u2069`;

/**
 * Lists and manages a wallet's credentials and sessions.
 *
 * @summary Credentials and sessions of an Embedded Wallet: add, remove, end, change email.
 *
 * @event credential-added - `{accountId, credentialId, type}` after the signed retry created it.
 * @event credential-revoked - `{accountId, credentialId, type}` after the service removed it (204).
 * @event session-revoked - `{accountId, sessionId, current}`; `current` when it was this device's (a logout).
 * @event wallet-credentials-error - `{code, message, status?}`; `message` is the sentence shown.
 *
 * @csspart base - The panel.
 * @csspart heading - The title.
 * @csspart credentials - The list of credentials.
 * @csspart credential - One credential row.
 * @csspart credential-type - The kind of credential.
 * @csspart credential-name - Its email, phone or label.
 * @csspart badge - "This device" next to the session this browser holds.
 * @csspart revoke-button - Remove a credential / end a session.
 * @csspart hint - Why a credential cannot be removed right now.
 * @csspart add-button - Add a credential.
 * @csspart code-form - The activation code form of an added SMS credential.
 * @csspart code-input - Its code field.
 * @csspart sessions - The list of active sessions.
 * @csspart session - One session row.
 * @csspart email-form - The customer email form.
 * @csspart input - The email field.
 * @csspart submit - A form's main button.
 * @csspart confirm - The confirmation before a removal.
 * @csspart button - A secondary button.
 * @csspart status - The polite live region.
 * @csspart error - The assertive live region.
 *
 * @cssproperty --wallet-credentials-max-width - Widest the element grows (default 36rem).
 * @cssproperty --wallet-credentials-padding - Padding of the panel.
 * @cssproperty --wallet-credentials-radius - Corner radius of the panel.
 * @cssproperty --wallet-credentials-divider - Colour of the lines between rows.
 * @cssproperty --wallet-color-text - Text colour (shared theme; see wallet-login for the full list).
 * @cssproperty --wallet-color-accent - Buttons, badge and focus ring.
 * @cssproperty --wallet-color-danger - Removal confirmation and errors.
 *
 * Custom states: `:state(loading)`, `:state(load-failed)`, `:state(ready)`, `:state(confirming)`,
 * `:state(busy)`, `:state(code-entry)`, `:state(signed-in)` (this device holds a session).
 */
@customElement('wallet-credentials')
export class WalletCredentials extends LitElement {
  static override styles = [baseStyles, formStyles, walletCredentialsStyles];

  /** The Embedded Wallet internal account (`InternalAccount:<uuid>`). */
  @property({ attribute: 'account-id', reflect: true }) accountId = '';
  /** The customer (`Customer:<uuid>`) whose email the email form changes; without it the form is hidden. */
  @property({ attribute: 'customer-id', reflect: true }) customerId = '';
  /** Where the proxy is mounted, when not the page's configured base. */
  @property({ attribute: 'api-base' }) apiBase: string | null = null;
  /** Light or dark regardless of the system setting. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** For adding single sign-on: a fresh OIDC ID token from the integrator's identity provider. */
  oidcTokenProvider: ((nonce: string) => Promise<string>) | undefined;

  @state() private machine: CredentialsState = initialState();
  @state() private emailInvalid = false;
  @query('#email') private emailInput?: HTMLInputElement;
  @query('#code') private codeInput?: HTMLInputElement;

  private readonly i18n = new LocaleController(this);
  private readonly internals: ElementInternals | undefined;
  private otp: OtpLogin | undefined;
  private focusTarget: string | undefined;
  private unsubscribe: Array<() => void> = [];
  /** A token per connection, so that listeners set up after a render belong to the live one. */
  private connection: object | undefined;

  /** The lists, reloaded when the account changes or after a change; stale answers are dropped. */
  private readonly loader = new Task(this, {
    args: () => [] as const,
    task: async (_: readonly [], { signal }) => (this.accountId ? loadView(await this.services(signal)) : taskInitial),
    onComplete: (view) => this.send({ type: 'LOADED', view }),
    onError: (e) => this.send({ type: 'LOAD_FAILED', failure: failureOf(e, 'load') }),
  });

  /** One change at a time; its outcome carries the reloaded lists. */
  private readonly operation = new Task<[Operation, string], CredentialsEvent>(this, {
    task: ([op, input], { signal }) => this.perform(op, input, signal),
    onComplete: (event) => this.send(event),
    onError: (e) => {
      const running = this.machine.kind === 'ready' ? this.machine.running : undefined;
      const op = running?.op === 'add' && running.type === 'OAUTH' ? 'add-oauth' : (running?.op ?? '');
      this.send({ type: 'FAILED', failure: failureOf(e, op) });
    },
  });

  constructor() {
    super();
    this.internals = typeof this.attachInternals === 'function' ? this.attachInternals() : undefined;
  }

  /** Loads the lists again (after a login elsewhere on the page, say). */
  reload(): void {
    this.send({ type: 'LOAD' });
    void this.loader.run();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The lists follow the account and the base path.
    if (changed.has('accountId') || changed.has('apiBase')) void this.loader.run();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const onSession = (change: { accountId: string }) => {
      if (change.accountId === this.accountId && this.operation.status !== TaskStatus.PENDING) void this.loader.run();
    };
    // After the first render: the lists' screen needs neither the channel nor the flows' code.
    const connection = (this.connection = {});
    void this.updateComplete.then(afterFirstPaint).then(async () => {
      if (this.connection !== connection) return;
      this.unsubscribe.push(onSessionBroadcast(onSession));
      const wallet = await services().then((m) => m.walletFor(this.apiBase), () => undefined);
      if (wallet && this.connection === connection) this.unsubscribe.push(wallet.subscribe(onSession));
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.connection = undefined;
    this.operation.abort();
    for (const u of this.unsubscribe.splice(0)) u();
  }

  protected override updated(): void {
    const s = this.machine;
    const ready = s.kind === 'ready' ? s : undefined;
    this.setState('loading', s.kind === 'loading');
    this.setState('load-failed', s.kind === 'load-failed');
    this.setState('ready', !!ready);
    this.setState('confirming', !!ready?.confirming);
    this.setState('busy', !!ready?.running || this.loader.status === TaskStatus.PENDING);
    this.setState('code-entry', !!ready?.codeFor);
    this.setState('signed-in', !!ready?.view.current);
    if (this.focusTarget) {
      const target = this.renderRoot.querySelector<HTMLElement>(this.focusTarget);
      if (target) {
        this.focusTarget = undefined;
        target.focus();
      }
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

  private async services(signal: AbortSignal): Promise<Services> {
    const { clientFor, walletFor } = await services();
    return { accountId: this.accountId, customerId: this.customerId, client: clientFor(this.apiBase), wallet: walletFor(this.apiBase), signal };
  }

  private request(operation: Operation, input = ''): void {
    const before = this.machine;
    this.send({ type: 'REQUEST', operation });
    const after = this.machine;
    if (after === before || after.kind !== 'ready') return;
    if (after.confirming) this.focusTarget = '[part~="confirm"] button.danger';
    if (after.running) void this.operation.run([after.running, input]);
  }

  private confirm(): void {
    this.send({ type: 'CONFIRM' });
    const s = this.machine;
    if (s.kind === 'ready' && s.running) void this.operation.run([s.running, '']);
  }

  private async perform(op: Operation, input: string, signal: AbortSignal): Promise<CredentialsEvent> {
    const svc = await this.services(signal);
    const view = () => loadView(svc);
    const before = this.machine.kind === 'ready' ? this.machine.view : undefined;
    switch (op.op) {
      case 'add': {
        const method = await addCredential(svc, op.type, this.oidcTokenProvider);
        this.dispatchEvent(new CredentialAddedEvent({ accountId: this.accountId, credentialId: method.id, type: method.type }));
        if (method.type === 'SMS_OTP') {
          // api.md step (4): activate it through its own verify flow, starting with a code.
          this.otp = await sendActivationCode(svc, method.id);
          return { type: 'SUCCEEDED', view: await view(), notice: { kind: 'added', type: method.type }, codeFor: method.id };
        }
        return { type: 'SUCCEEDED', view: await view(), notice: { kind: 'added', type: method.type } };
      }
      case 'send-code':
        this.otp = await sendActivationCode(svc, op.id);
        return { type: 'SUCCEEDED', view: await view(), notice: { kind: 'code-sent' }, codeFor: op.id };
      case 'verify-code': {
        if (!this.otp) throw new Error('No code was sent.');
        const session = await this.otp.submit(input, { signal });
        this.otp = undefined;
        return { type: 'SUCCEEDED', view: await view(), notice: { kind: 'activated', type: session.credentialType } };
      }
      case 'revoke-credential': {
        const method = before?.credentials.find((c) => c.id === op.id);
        await revokeCredential(svc, op.id);
        if (method) this.dispatchEvent(new CredentialRevokedEvent({ accountId: this.accountId, credentialId: method.id, type: method.type }));
        return { type: 'SUCCEEDED', view: await view(), notice: { kind: 'credential-revoked' } };
      }
      case 'revoke-session': {
        const own = !!before && isCurrentSession(before, op.id);
        await revokeSession(svc, op.id, own);
        this.dispatchEvent(new SessionRevokedEvent({ accountId: this.accountId, sessionId: op.id, current: own }));
        return { type: 'SUCCEEDED', view: await view(), notice: { kind: 'session-revoked', own } };
      }
      case 'update-email':
        await updateEmail(svc, input);
        return { type: 'SUCCEEDED', view: await view(), notice: { kind: 'email-updated' } };
    }
  }

  private send(event: CredentialsEvent): void {
    const before = this.machine;
    const after = transition(before, event);
    if (after === before) return;
    this.machine = after;
    if (after.kind === 'ready' && after.failure && after.failure !== (before.kind === 'ready' ? before.failure : undefined)) {
      const f = after.failure;
      this.dispatchEvent(new WalletCredentialsErrorEvent({ code: f.code, message: failureMessage(this.i18n.t, f), ...(f.status ? { status: f.status } : {}) }));
      if (after.codeFor) {
        this.focusTarget = '#code';
        if (this.codeInput) this.codeInput.value = '';
      }
    }
    if (after.kind === 'ready' && after.codeFor && !(before.kind === 'ready' && before.codeFor)) this.focusTarget = '#code';
    if (event.type === 'SUCCEEDED' && after.kind === 'ready' && !after.codeFor) this.focusTarget = '#heading';
    if (event.type === 'CANCEL') this.focusTarget = '#heading';
  }

  // -------------------------------------------------------------------------------------------
  // Rendering

  protected override render(): TemplateResult {
    const t = this.i18n.t;
    const s = this.machine;
    const failure = s.kind === 'ready' ? s.failure : s.kind === 'load-failed' ? s.failure : undefined;
    const error = failure ? failureMessage(t, failure) : this.emailInvalid ? t('credentials.email.invalid') : '';
    return html`
      <section part="base" class="panel stack" aria-labelledby="heading" aria-busy=${s.kind === 'loading' || (s.kind === 'ready' && !!s.running) ? 'true' : 'false'}>
        <h2 part="heading" id="heading" tabindex="-1">${t('credentials.heading')}</h2>
        ${!this.accountId
          ? html`<p>${t('common.missing-account')}</p>`
          : s.kind === 'loading'
            ? html`<p class="muted">${t('credentials.loading')}</p>`
            : s.kind === 'load-failed'
              ? html`<p>${t('credentials.load-failed')}</p>
                  <div class="row"><button part="button" type="button" @click=${() => this.reload()}>${t('credentials.reload')}</button></div>`
              : this.ready(s)}
        <p part="error" class="live" role="alert">${error}</p>
        <p part="status" class="live" role="status">${s.kind === 'ready' && s.notice ? this.noticeText(s.notice) : ''}</p>
      </section>
    `;
  }

  private noticeText(n: Notice): string {
    const t = this.i18n.t;
    switch (n.kind) {
      case 'added':
        return t('credentials.notice.added', { type: t(`credential.${n.type}`) });
      case 'activated':
        return t('credentials.notice.activated', { type: t(`credential.${n.type}`) });
      case 'code-sent':
        return t('credentials.notice.code-sent');
      case 'credential-revoked':
        return t('credentials.notice.credential-revoked');
      case 'session-revoked':
        return t(n.own ? 'credentials.notice.own-session-revoked' : 'credentials.notice.session-revoked');
      case 'email-updated':
        return t('credentials.notice.email-updated');
    }
  }

  private ready(s: Ready): TemplateResult {
    const t = this.i18n.t;
    const { view } = s;
    return html`
      <ul part="credentials">
        ${view.credentials.map((c) => this.credentialRow(s, c))}
      </ul>
      ${s.confirming ? this.confirmation(s, s.confirming) : nothing}
      ${s.codeFor ? this.codeForm(s) : nothing}
      <h3>${t('credentials.add.heading')}</h3>
      <div class="stack">
        ${(['SMS_OTP', 'OAUTH'] as const).map((type) => {
          const possible = canAdd(view, type) && (type !== 'OAUTH' || !!this.oidcTokenProvider);
          const hint = !canAdd(view, type) ? t(`credentials.add.${type}.exists`) : type === 'OAUTH' && !this.oidcTokenProvider ? t('credentials.add.OAUTH.missing') : '';
          return html`<div class="row"><button
              part="add-button"
              type="button"
              data-type=${type}
              aria-describedby=${hint ? `add-hint-${type}` : nothing}
              ?disabled=${!possible || !view.current || !!s.running}
              @click=${() => this.request({ op: 'add', type })}
            >
              ${t(`credentials.add.${type}`)}
            </button>
            ${hint ? html`<span part="hint" id="add-hint-${type}">${hint}</span>` : nothing}</div>`;
        })}
      </div>
      ${view.current ? nothing : html`<p part="hint">${t('credentials.block.login')}</p>`}
      <h3>${t('credentials.sessions.heading')}</h3>
      ${view.sessions.length
        ? html`<ul part="sessions">
            ${view.sessions.map((x) => this.sessionRow(s, x))}
          </ul>`
        : html`<p class="muted">${t('credentials.sessions.none')}</p>`}
      ${this.customerId ? this.emailForm(s) : nothing}
    `;
  }

  private credentialRow(s: Ready, c: AuthMethod): TemplateResult {
    const t = this.i18n.t;
    const block = revokeBlock(s.view, c.id);
    const name = `${t(`credential.${c.type}`)}${c.nickname ? ` (${isolate(c.nickname)})` : ''}`;
    const hintId = `hint-${c.id.replace(/[^a-zA-Z0-9-]/g, '')}`;
    const current = s.view.current?.credentialId === c.id;
    return html`<li part="credential" data-id=${c.id} data-type=${c.type}>
      <span class="name">
        <span part="credential-type">${t(`credential.${c.type}`)}${current ? html`<span part="badge">${t('credentials.this-device')}</span>` : nothing}</span>
        <span part="credential-name"><bdi>${c.nickname}</bdi></span>
      </span>
      <button
        part="revoke-button"
        type="button"
        aria-label=${t('credentials.remove-label', { name })}
        aria-describedby=${block && block !== 'login' ? hintId : nothing}
        ?disabled=${!!block || !!s.running}
        @click=${() => this.request({ op: 'revoke-credential', id: c.id })}
      >
        ${t('credentials.remove')}
      </button>
      ${block && block !== 'login' ? html`<span part="hint" id=${hintId}>${t(`credentials.block.${block}`)}</span>` : nothing}
    </li>`;
  }

  private sessionRow(s: Ready, x: AuthSession): TemplateResult {
    const t = this.i18n.t;
    const own = isCurrentSession(s.view, x.id);
    const time = new Intl.DateTimeFormat(this.i18n.locale, { hour: 'numeric', minute: '2-digit' }).format(new Date(x.expiresAt));
    const name = t(`credential.${x.type}`);
    return html`<li part="session" data-id=${x.id}>
      <span class="name">
        <span part="credential-type">${name}${own ? html`<span part="badge">${t('credentials.this-device')}</span>` : nothing}</span>
        <span part="credential-name">${t('credentials.sessions.until', { time })}</span>
      </span>
      <button
        part="revoke-button"
        type="button"
        aria-label=${own ? t('credentials.sessions.logout') : t('credentials.sessions.end-label', { name })}
        ?disabled=${!allowed({ ...s, running: undefined }, { op: 'revoke-session', id: x.id }) || !!s.running}
        @click=${() => this.request({ op: 'revoke-session', id: x.id })}
      >
        ${own ? t('credentials.sessions.logout') : t('credentials.sessions.end')}
      </button>
    </li>`;
  }

  private confirmation(s: Ready, op: Operation): TemplateResult {
    const t = this.i18n.t;
    let question = '';
    if (op.op === 'revoke-credential') {
      const c = s.view.credentials.find((x) => x.id === op.id);
      question = t('credentials.confirm.credential', { name: c ? `${t(`credential.${c.type}`)}${c.nickname ? ` (${isolate(c.nickname)})` : ''}` : '' });
    } else if (op.op === 'revoke-session') {
      question = t(isCurrentSession(s.view, op.id) ? 'credentials.confirm.own-session' : 'credentials.confirm.session');
    }
    return html`<div part="confirm" class="stack" role="group" aria-labelledby="confirm-question">
      <p id="confirm-question">${question}</p>
      <div class="row">
        <button part="button" class="danger" type="button" @click=${() => this.confirm()}>${t('credentials.confirm.yes')}</button>
        <button part="button" type="button" @click=${() => this.send({ type: 'CANCEL' })}>${t('common.cancel')}</button>
      </div>
    </div>`;
  }

  private codeForm(s: Ready): TemplateResult {
    const t = this.i18n.t;
    const busy = !!s.running;
    const submit = (e: SubmitEvent) => {
      e.preventDefault();
      const code = this.codeInput?.value.replace(/\D/g, '') ?? '';
      if (code && s.codeFor) this.request({ op: 'verify-code', id: s.codeFor }, code);
    };
    return html`<form part="code-form" class="stack" novalidate @submit=${submit}>
      <div class="field">
        <label for="code">${t('credentials.code.label')}</label>
        ${codeInput({ length: 6, invalid: s.failure?.code === 'wrong_code', readonly: busy, describedBy: 'code-help' })}
        <span id="code-help" class="muted">${t('credentials.code.help')}</span>
      </div>
      <div class="row">
        <button part="submit" class="primary" type="submit" ?disabled=${busy}>${t('credentials.code.submit')}</button>
        <button part="button" type="button" ?disabled=${busy} @click=${() => this.send({ type: 'CANCEL' })}>${t('common.cancel')}</button>
      </div>
    </form>`;
  }

  private emailForm(s: Ready): TemplateResult {
    const t = this.i18n.t;
    const submit = (e: SubmitEvent) => {
      e.preventDefault();
      const email = this.emailInput?.value.trim() ?? '';
      this.emailInvalid = !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
      if (this.emailInvalid) {
        this.emailInput?.focus();
        return;
      }
      this.request({ op: 'update-email' }, email);
    };
    return html`<h3>${t('credentials.email.heading')}</h3>
      <form part="email-form" class="stack" novalidate @submit=${submit}>
        <div class="field">
          <label for="email">${t('credentials.email.label')}</label>
          <input part="input" id="email" name="email" type="email" autocomplete="email" aria-invalid=${this.emailInvalid ? 'true' : 'false'} />
        </div>
        <div class="row">
          <button part="submit" class="primary" type="submit" ?disabled=${!!s.running}>${t('credentials.email.submit')}</button>
        </div>
      </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'wallet-credentials': WalletCredentials;
  }
}
