/**
 * <delegated-keys>: lists a card's delegated signing keys with their status and limits, creates one
 * (nickname and optional per-transaction limits, one per currency) through the signed retry with the
 * wallet's session (the service takes two signatures), and revokes an active one.
 *
 * Follows api.md "Delegated signing keys" / "POST {base_url}/auth/delegated-keys" and reference.md
 * "Delegated keys". Limits are immutable (api.md "States and transitions"): the list says so, and the
 * only way offered to change them is "revoke and create a new one".
 *
 * Deliberately does not: call fetch or IndexedDB (core's client and wallet do), hold key material
 * (the stamper comes from core/session.ts and lives only for the call), or edit a key. The client
 * and session flows (shared/wallet.ts) load with import() once the first screen is painted.
 * The three tasks (shared/task.ts) do the I/O with an AbortSignal; their outcomes feed the pure machine
 * (delegated-keys.machine.ts), which is what renders, because create and revoke change the list
 * the list task loaded.
 */
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { Task, initialState as taskInitial } from '../shared/task.ts';
import { baseStyles } from '../shared/styles.ts';
import { listStyles } from '../shared/list-styles.ts';
import { LocaleController } from '../shared/i18n.ts';
import { onceAfterFirstPaint } from '../shared/idle.ts';
import type { CreateDelegatedKeyRequest, DelegatedKey } from '../../core/types.ts';
import { delegatedKeysStyles } from './delegated-keys.styles.ts';
import './delegated-keys.strings.ts';

/** The page's client and session flows (shared/wallet.ts and what it loads), once the first screen is painted. */
const services = onceAfterFirstPaint(() => import('../shared/wallet.ts'));
import { formatMinor } from './money.ts';
import {
  CURRENCY_PATTERN,
  NICKNAME_MAX,
  MAX_LIMIT_ROWS,
  errorCodeOf,
  hasActiveKey,
  initialState,
  isRetryable,
  normalizeCurrency,
  transition,
  validateKeyForm,
  type DelegatedKeysErrorCode,
  type DelegatedKeysEvent,
  type DelegatedKeysState,
  type FieldError,
  type KeyForm,
} from './delegated-keys.machine.ts';
import { DelegatedKeyCreatedEvent, DelegatedKeyRevokedEvent, DelegatedKeysErrorEvent } from './delegated-keys.events.ts';

export { DelegatedKeyCreatedEvent, DelegatedKeyRevokedEvent, DelegatedKeysErrorEvent } from './delegated-keys.events.ts';

const emptyForm = (): KeyForm => ({ nickname: '', limits: [] });

/**
 * The delegated signing keys of one card: list, create with limits, revoke.
 *
 * @summary Lists a card's delegated keys and creates or revokes them with the wallet's confirmation.
 *
 * @event delegated-key-created - A key was created and is active. `detail: { key }` (public metadata only).
 * @event delegated-key-revoked - A key was revoked. `detail: { keyId }`.
 * @event delegated-keys-error - Listing, creating or revoking failed. `detail: { code, message, operation, status? }`.
 *
 * @csspart base - The wrapper of everything.
 * @csspart header - Title and "New key" button.
 * @csspart new-button - The "New key" button.
 * @csspart list - The list of keys.
 * @csspart key - One key.
 * @csspart status - A key's status badge.
 * @csspart revoke-button - "Revoke" on an active key.
 * @csspart confirm - The inline revoke confirmation.
 * @csspart form - The creation form.
 * @csspart submit-button - "Create key".
 * @csspart notice - Polite confirmation messages.
 * @csspart error - The alert region.
 *
 * @cssproperty --delegated-keys-gap - Space between parts.
 * @cssproperty --delegated-keys-item-background - Background of a key card.
 * @cssproperty --delegated-keys-active-color - Color of the "Active" badge.
 * @cssproperty --delegated-keys-revoked-color - Color of "Revoked" and "Pending" badges.
 *
 * Custom states: `:state(loading)`, `:state(ready)`, `:state(failed)`, `:state(editing)`, `:state(busy)`.
 */
@customElement('delegated-keys')
export class DelegatedKeys extends LitElement {
  static override styles = [baseStyles, listStyles, delegatedKeysStyles];

  /** The card (`Card:<uuid>`). */
  @property({ attribute: 'card-id', reflect: true }) cardId = '';

  /** The Embedded Wallet internal account funding the card (`InternalAccount:<uuid>`). */
  @property({ attribute: 'account-id', reflect: true }) accountId = '';

  /** The proxy's base path for this element (overrides configureWallet's `apiBase`). */
  @property({ attribute: 'api-base' }) apiBase: string | undefined;

  /** Light or dark regardless of the system setting (shared base styles). */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  @state() private view: DelegatedKeysState = initialState;
  @state() private form: KeyForm = emptyForm();

  private readonly i18n = new LocaleController(this);
  private readonly internals: ElementInternals | undefined;
  private focusTarget: string | undefined;

  private readonly listTask = new Task(this, {
    args: () => [this.cardId, this.accountId, this.apiBase] as const,
    task: async ([cardId, accountId, apiBase], { signal }) => {
      if (!cardId || !accountId) return taskInitial;
      const { clientFor } = await services();
      const keys = await clientFor(apiBase).listDelegatedKeys({ accountId }, { signal });
      return keys.filter((k) => k.cardId === cardId);
    },
    onComplete: (keys) => this.send({ type: 'loaded', keys }),
    onError: (error) => this.fail('load', error),
  });

  private readonly createTask = new Task(this, {
    task: async ([request]: readonly [CreateDelegatedKeyRequest], { signal }) => {
      // The stamper signs both 202 payloads; it is dropped when the call ends.
      const { clientFor, walletFor } = await services();
      const stamper = await walletFor(this.apiBase).stamper(request.internalAccountId);
      return clientFor(this.apiBase).createDelegatedKey(request, { stamper, signal });
    },
    onComplete: (key) => {
      this.send({ type: 'created', key });
      this.form = emptyForm();
      this.dispatchEvent(new DelegatedKeyCreatedEvent(key));
      this.focusTarget = 'new';
    },
    onError: (error) => this.fail('create', error),
  });

  private readonly revokeTask = new Task(this, {
    task: async ([keyId]: readonly [string], { signal }) => {
      const { clientFor } = await services();
      await clientFor(this.apiBase).revokeDelegatedKey(keyId, { signal });
      return keyId;
    },
    onComplete: (keyId) => {
      this.send({ type: 'revoked', keyId, at: new Date().toISOString() });
      this.dispatchEvent(new DelegatedKeyRevokedEvent(keyId));
      this.focusTarget = 'new';
    },
    onError: (error) => this.fail('revoke', error),
  });

  constructor() {
    super();
    this.internals = typeof this.attachInternals === 'function' ? this.attachInternals() : undefined;
  }

  /** Loads the list again. */
  refresh(): void {
    this.send({ type: 'load' });
    void this.listTask.run();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A new card, account or base: load its list, showing "loading" in the same update.
    if (changed.has('cardId') || changed.has('accountId') || changed.has('apiBase')) this.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.listTask.abort();
    this.createTask.abort();
    this.revokeTask.abort();
  }

  private send(event: DelegatedKeysEvent): void {
    const next = transition(this.view, event);
    if (next === this.view) return;
    this.view = next;
    this.syncStates();
  }

  private fail(operation: 'load' | 'create' | 'revoke', error: unknown): void {
    if (error instanceof Error && (error.name === 'AbortError' || (error as { code?: string }).code === 'aborted')) return;
    const code = errorCodeOf(error, operation);
    this.send(
      operation === 'load' ? { type: 'load-failed', code } : operation === 'create' ? { type: 'create-failed', code } : { type: 'revoke-failed', code },
    );
    const status = (error as { status?: unknown }).status;
    this.dispatchEvent(
      new DelegatedKeysErrorEvent({
        code,
        operation,
        message: this.i18n.t(`delegated-keys.error.${code}`),
        ...(typeof status === 'number' ? { status } : {}),
      }),
    );
    this.focusTarget = operation === 'create' ? 'form-error' : operation === 'revoke' ? 'alert' : undefined;
  }

  private syncStates(): void {
    const states = this.internals?.states;
    if (!states) return;
    const { list, mode } = this.view;
    const on = new Set<string>([list.kind]);
    if (mode.kind === 'editing' || mode.kind === 'submitting') on.add('editing');
    if (mode.kind === 'submitting' || mode.kind === 'revoking') on.add('busy');
    for (const name of ['loading', 'ready', 'failed', 'editing', 'busy']) {
      if (on.has(name)) states.add(name);
      else states.delete(name);
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.syncStates();
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const target = this.focusTarget;
    this.focusTarget = undefined;
    if (target) this.renderRoot.querySelector<HTMLElement>(`[data-focus="${target}"]`)?.focus();
  }

  // ---- user actions

  private openForm(): void {
    this.form = emptyForm();
    this.send({ type: 'open-form' });
    this.focusTarget = 'nickname';
  }

  private cancel(): void {
    const revoking = this.view.mode.kind === 'confirming-revoke' ? this.view.mode.keyId : undefined;
    this.send({ type: 'cancel' });
    this.focusTarget = revoking ? `revoke-${revoking}` : 'new';
  }

  private submit(e: Event): void {
    e.preventDefault();
    if (this.view.mode.kind !== 'editing') return;
    const verdict = validateKeyForm(this.form, { cardId: this.cardId, accountId: this.accountId });
    this.send({ type: 'submit', verdict });
    if (!verdict.ok) {
      this.focusTarget = verdict.errors[0]!.field;
      return;
    }
    void this.createTask.run([verdict.request]);
  }

  private askRevoke(keyId: string): void {
    this.send({ type: 'ask-revoke', keyId });
    // The least destructive choice gets the focus.
    this.focusTarget = 'confirm-cancel';
  }

  private confirmRevoke(): void {
    const mode = this.view.mode;
    if (mode.kind !== 'confirming-revoke') return;
    this.send({ type: 'confirm-revoke' });
    void this.revokeTask.run([mode.keyId]);
  }

  private setNickname(e: Event): void {
    this.form = { ...this.form, nickname: (e.target as HTMLInputElement).value };
  }

  private setLimit(index: number, field: 'currencyCode' | 'maxPerTransaction', e: Event): void {
    const value = (e.target as HTMLInputElement).value;
    const limits = this.form.limits.map((row, i) => (i === index ? { ...row, [field]: value } : row));
    this.form = { ...this.form, limits };
  }

  private addLimit(): void {
    if (this.form.limits.length >= MAX_LIMIT_ROWS) return;
    this.form = { ...this.form, limits: [...this.form.limits, { currencyCode: '', maxPerTransaction: '' }] };
    this.focusTarget = `limits.${this.form.limits.length - 1}.currencyCode`;
  }

  private removeLimit(index: number): void {
    this.form = { ...this.form, limits: this.form.limits.filter((_, i) => i !== index) };
    this.focusTarget = this.form.limits.length > 0 ? `limits.${Math.max(0, index - 1)}.currencyCode` : 'add-limit';
  }

  // ---- rendering

  override render() {
    const t = this.i18n.t;
    const { list, mode } = this.view;
    const ready = Boolean(this.cardId && this.accountId);
    return html`
      <section part="base" class="base panel" aria-labelledby="title">
        <div part="header" class="header">
          <h2 id="title">${t('delegated-keys.title')}</h2>
          ${ready && mode.kind === 'browsing' && list.kind === 'ready'
            ? html`<button part="new-button" class="primary" type="button" data-focus="new" @click=${this.openForm}>${t('delegated-keys.new')}</button>`
            : nothing}
        </div>
        <p class="muted">${t('delegated-keys.description')}</p>
        ${mode.kind === 'editing' || mode.kind === 'submitting' ? this.renderForm() : nothing}
        <div part="error" class="alert" role="alert" tabindex="-1" data-focus="alert">${this.renderAlert()}</div>
        <p part="notice" class="notice" role="status">${this.renderNotice()}</p>
        ${ready ? this.renderList() : html`<p class="muted">${t('delegated-keys.missing-ids')}</p>`}
      </section>
    `;
  }

  private renderNotice() {
    const notice = this.view.notice;
    if (!notice) return nothing;
    return this.i18n.t(`delegated-keys.${notice.kind}`, { name: notice.nickname });
  }

  private renderAlert() {
    const { list, failure } = this.view;
    const t = this.i18n.t;
    if (list.kind === 'failed') {
      return html`<p>${t(`delegated-keys.error.${list.code}`)}</p>
        <button type="button" @click=${this.refresh}>${t('delegated-keys.retry')}</button>`;
    }
    if (failure) return html`<p>${t(`delegated-keys.error.${failure}`)}</p>`;
    return nothing;
  }

  private renderList(): TemplateResult {
    const t = this.i18n.t;
    const { list } = this.view;
    if (list.kind === 'loading') return html`<p class="muted" role="status">${t('delegated-keys.loading')}</p>`;
    if (list.kind === 'failed') return html``;
    if (list.keys.length === 0) return html`<p class="muted">${t('delegated-keys.empty')}</p>`;
    return html`<ul part="list" class="list">
      ${repeat(
        list.keys,
        (k) => k.id,
        (k) => this.renderKey(k),
      )}
    </ul>`;
  }

  private renderKey(key: DelegatedKey) {
    const t = this.i18n.t;
    const locale = this.i18n.locale;
    const mode = this.view.mode;
    const created = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(key.createdAt));
    const headingId = `key-${key.id.replace(/[^A-Za-z0-9-]/g, '-')}`;
    const confirming = mode.kind === 'confirming-revoke' && mode.keyId === key.id;
    const revoking = mode.kind === 'revoking' && mode.keyId === key.id;
    return html`
      <li part="key" class="item" aria-labelledby=${headingId}>
        <div class="item-head">
          <h3 class="nickname" id=${headingId}>${key.nickname}</h3>
          <span part="status" class="status ${key.status}">${t(`delegated-keys.status.${key.status}`)}</span>
        </div>
        <div class="meta">
          <span>${t('delegated-keys.created-on', { date: created })}</span>
          <span>${t('delegated-keys.public-key')}: <span class="pubkey" title=${key.publicKey}>${shortKey(key.publicKey)}</span></span>
        </div>
        <div>
          <span class="visually-hidden">${t('delegated-keys.limits')}: </span>
          ${key.spendingLimits && key.spendingLimits.length > 0
            ? html`<ul class="limits">
                ${key.spendingLimits.map(
                  (l) => html`<li>${t('delegated-keys.per-transaction', { amount: formatMinor(l.maxPerTransaction, l.currencyCode, locale) })}</li>`,
                )}
              </ul>`
            : html`<span>${t('delegated-keys.no-limits')}</span>`}
        </div>
        ${key.status === 'ACTIVE' ? html`<p class="muted">${t('delegated-keys.immutable')}</p>` : nothing}
        ${key.status === 'ACTIVE' && !confirming && !revoking
          ? html`<div class="actions">
              <button
                part="revoke-button"
                class="danger"
                type="button"
                data-focus="revoke-${key.id}"
                ?disabled=${mode.kind !== 'browsing'}
                @click=${() => this.askRevoke(key.id)}
              >
                ${t('delegated-keys.revoke')}
              </button>
            </div>`
          : nothing}
        ${confirming || revoking
          ? html`<div part="confirm" class="confirm" role="group" aria-label=${t('delegated-keys.revoke')}>
              <p>${t('delegated-keys.revoke-confirm', { name: key.nickname })}</p>
              <div class="actions">
                <button
                  class="danger strong"
                  type="button"
                  aria-disabled=${revoking ? 'true' : 'false'}
                  @click=${revoking ? undefined : this.confirmRevoke}
                >
                  ${revoking ? t('delegated-keys.revoking') : t('delegated-keys.revoke-yes')}
                </button>
                ${revoking
                  ? nothing
                  : html`<button type="button" data-focus="confirm-cancel" @click=${this.cancel}>${t('delegated-keys.cancel')}</button>`}
              </div>
            </div>`
          : nothing}
      </li>
    `;
  }

  private fieldError(errors: readonly FieldError[], field: string) {
    const error = errors.find((e) => e.field === field);
    return error ? this.i18n.t(`delegated-keys.field.${error.problem}`) : '';
  }

  private renderForm() {
    const t = this.i18n.t;
    const locale = this.i18n.locale;
    const mode = this.view.mode;
    const submitting = mode.kind === 'submitting';
    const errors = mode.kind === 'editing' ? mode.errors : [];
    const failure: DelegatedKeysErrorCode | undefined = mode.kind === 'editing' ? mode.failure : undefined;
    const nicknameError = this.fieldError(errors, 'nickname');
    return html`
      <form part="form" novalidate aria-labelledby="form-title" @submit=${this.submit}>
        <h3 id="form-title">${t('delegated-keys.form-title')}</h3>
        ${hasActiveKey(this.view) ? html`<p class="muted">${t('delegated-keys.active-exists')}</p>` : nothing}
        <div class="field">
          <label for="nickname">${t('delegated-keys.nickname')}</label>
          <input
            id="nickname"
            name="nickname"
            data-focus="nickname"
            autocomplete="off"
            maxlength=${NICKNAME_MAX}
            required
            .value=${this.form.nickname}
            aria-invalid=${nicknameError ? 'true' : 'false'}
            aria-describedby="nickname-hint nickname-error"
            ?readonly=${submitting}
            @input=${this.setNickname}
          />
          <span class="hint" id="nickname-hint">${t('delegated-keys.nickname-hint')}</span>
          <span class="field-error" id="nickname-error">${nicknameError}</span>
        </div>
        <fieldset>
          <legend>${t('delegated-keys.limits-legend')}</legend>
          <p class="hint" id="limits-hint">${t('delegated-keys.limits-hint')}</p>
          ${this.form.limits.map((row, i) => this.renderLimitRow(row, i, errors, submitting, locale))}
          <div>
            <button type="button" data-focus="add-limit" ?disabled=${submitting || this.form.limits.length >= MAX_LIMIT_ROWS} @click=${this.addLimit}>
              ${t('delegated-keys.add-limit')}
            </button>
          </div>
        </fieldset>
        <div class="alert" role="alert" tabindex="-1" data-focus="form-error">${failure ? html`<p>${t(`delegated-keys.error.${failure}`)}</p>` : nothing}</div>
        <div class="form-actions">
          <button part="submit-button" class="primary" type="submit" aria-disabled=${submitting ? 'true' : 'false'}>
            ${submitting ? t('delegated-keys.creating') : failure && isRetryable(failure) ? t('delegated-keys.retry') : t('delegated-keys.create')}
          </button>
          ${submitting ? nothing : html`<button type="button" @click=${this.cancel}>${t('delegated-keys.cancel')}</button>`}
        </div>
      </form>
    `;
  }

  private renderLimitRow(row: KeyForm['limits'][number], i: number, errors: readonly FieldError[], submitting: boolean, locale: string) {
    const t = this.i18n.t;
    const currencyField = `limits.${i}.currencyCode`;
    const amountField = `limits.${i}.maxPerTransaction`;
    const currencyError = this.fieldError(errors, currencyField);
    const amountError = this.fieldError(errors, amountField);
    const code = normalizeCurrency(row.currencyCode);
    const amount = /^[0-9]{1,16}$/.test(row.maxPerTransaction.trim()) ? Number(row.maxPerTransaction.trim()) : NaN;
    const preview = CURRENCY_PATTERN.test(code) && Number.isSafeInteger(amount) && amount >= 1 ? formatMinor(amount, code, locale) : '';
    return html`
      <div class="limit-row">
        <div class="field">
          <label for="currency-${i}">${t('delegated-keys.currency')}</label>
          <input
            id="currency-${i}"
            name="currencyCode"
            data-focus=${currencyField}
            autocomplete="off"
            autocapitalize="characters"
            spellcheck="false"
            maxlength="16"
            .value=${row.currencyCode}
            aria-invalid=${currencyError ? 'true' : 'false'}
            aria-describedby="${currencyField}-error limits-hint"
            ?readonly=${submitting}
            @input=${(e: Event) => this.setLimit(i, 'currencyCode', e)}
          />
        </div>
        <div class="field">
          <label for="amount-${i}">${t('delegated-keys.amount')}</label>
          <input
            id="amount-${i}"
            name="maxPerTransaction"
            data-focus=${amountField}
            inputmode="numeric"
            autocomplete="off"
            .value=${row.maxPerTransaction}
            aria-invalid=${amountError ? 'true' : 'false'}
            aria-describedby="${amountField}-error ${amountField}-preview limits-hint"
            ?readonly=${submitting}
            @input=${(e: Event) => this.setLimit(i, 'maxPerTransaction', e)}
          />
        </div>
        <button type="button" class="remove" aria-label=${t('delegated-keys.remove-limit')} ?disabled=${submitting} @click=${() => this.removeLimit(i)}>
          ×
        </button>
        <div class="row-notes">
          <span class="hint" id="${amountField}-preview">${preview ? t('delegated-keys.amount-preview', { amount: preview }) : ''}</span>
          <span class="field-error" id="${currencyField}-error">${currencyError}</span>
          <span class="field-error" id="${amountField}-error">${amountError}</span>
        </div>
      </div>
    `;
  }
}

/** `02abcd…1234`: enough to tell keys apart; the full key is in the title. */
function shortKey(hex: string): string {
  return hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : hex;
}

declare global {
  interface HTMLElementTagNameMap {
    'delegated-keys': DelegatedKeys;
  }
}
