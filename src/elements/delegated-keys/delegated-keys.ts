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
 * Two tasks (shared/task.ts), the list and one change at a time, do the I/O with an AbortSignal;
 * their outcomes feed the pure machine (delegated-keys.machine.ts), which is what renders, because
 * create and revoke change the list the list task loaded.
 */
import { html, nothing } from 'lit/html.js';
import { TemplateElement } from '../shared/template.ts';
import { defineElement, type PropertyValues } from '../shared/reactive.ts';
import { Task, TaskStatus, initialState as taskInitial } from '../shared/task.ts';
import { baseStyles, THEME } from '../shared/styles.ts';
import { API_BASE, API_BASE_HINT, idMatch } from '../shared/config.ts';
import { listStyles } from '../shared/list-styles.ts';
import { errorDetail, formatDate, isAbort, onOnline, syncStates } from '../shared/list.ts';
import { isolate, LocaleController, localeChanges } from '../shared/i18n.ts';
import { asText, keyedRows } from '../shared/rows.ts';
import { SlowWatch } from '../shared/slow.ts';
import { onceAfterFirstPaint } from '../shared/idle.ts';
import { later } from '../../core/clock.ts';
import type { CreateDelegatedKeyRequest, DelegatedKey } from '../../core/types.ts';
import { delegatedKeysStyles } from './delegated-keys.styles.ts';
import './delegated-keys.strings.ts';
import { formatMinor } from './money.ts';

import {
  MAX_LIMIT_ROWS,
  NICKNAME_MAX,
  errorCodeOf,
  hasActiveKey,
  initialState,
  isRetryable,
  limitOf,
  transition,
  settledMeanwhile,
  validateKeyForm,
  worthRecheck,
  type Attempt,
  type DelegatedKeysErrorCode,
  type DelegatedKeysEvent,
  type DelegatedKeysState,
  type FieldError,
  type KeyForm,
  type LimitRow,
} from './delegated-keys.machine.ts';
import { DelegatedKeyCreatedEvent, DelegatedKeyRevokedEvent, DelegatedKeysErrorEvent } from './delegated-keys.events.ts';

/** The numbers of the form's rules, put in their sentences as every number is (written as Intl writes them in the element's language). */
const RULES = { chars: NICKNAME_MAX, from: 3, to: 16, max: 2 ** 53 - 1 };

export { DelegatedKeyCreatedEvent, DelegatedKeyRevokedEvent, DelegatedKeysErrorEvent } from './delegated-keys.events.ts';

/** The page's client and session flows (shared/wallet.ts and what it loads), once the first screen is painted. */
const services = onceAfterFirstPaint(() => import('../shared/wallet.ts'));

/** The id attributes: one given malformed (ignored, config.ts idMatch) and the element reads nothing, and says so. */
const IDS = ['card-id', 'account-id'];

const emptyForm = (): KeyForm => ({ nickname: '', limits: [] });

/** What a finished creation or revocation tells the machine. */
type Done = Extract<DelegatedKeysEvent, { type: 'created' | 'revoked' }>;

/**
 * The delegated signing keys of one card: list, create with limits, revoke.
 *
 * @summary Lists a card's delegated keys and creates or revokes them with the wallet's confirmation.
 *
 * @event delegated-key-created - A key was created and is active, also when `card-id` or `account-id` changed meanwhile (`key.cardId` names its card). `detail: { key }` (public metadata only).
 * @event delegated-key-revoked - A key was revoked, also when `card-id` or `account-id` changed meanwhile, and when the service
 *   refused the revocation because the key had been revoked elsewhere (another tab, the API): the list, read again, shows it revoked. `detail: { keyId }`.
 *   Removing the element aborts every change under way, for whichever card, and reports none:
 *   the service may have made it already; the list, read again when the element is back, shows it.
 * @event delegated-keys-error - Listing, creating or revoking failed. `detail: { code, message, operation, status? }`. `load_failed`: the element's code, loaded on demand, did not arrive (asked for twice); `message` says to check the connection, then reload the page (offline it is not asked for: `network`, whose "Try again" works once online). `misconfigured` too when `card-id` or `account-id` is malformed (`operation` `load`, once per value given; `message` is the sentence shown, naming the attribute; nothing is sent).
 *
 * @csspart base - The wrapper of everything.
 * @csspart header - Title and "New key" button.
 * @csspart new-button - The "New key" button (disabled while this device holds no session of the wallet).
 * @csspart hint - "Sign in to your wallet to create a key.", under the description while this device holds no session of the wallet.
 * @csspart list - The list of keys.
 * @csspart key - One key.
 * @csspart status - A key's status badge.
 * @csspart revoke-button - "Revoke" on an active key.
 * @csspart confirm - The inline revoke confirmation.
 * @csspart form - The creation form.
 * @csspart submit-button - "Create key".
 * @csspart notice - Polite messages: a key created or revoked, and "Loading keys…" when loading takes more than a second.
 * @csspart error - The alert region.
 *
 * @cssproperty --delegated-keys-gap - Space between parts.
 * @cssproperty --delegated-keys-item-background - Background of a key card.
 * @cssproperty --delegated-keys-active-color - Color of the "Active" badge.
 * @cssproperty --delegated-keys-revoked-color - Color of "Revoked" and "Not finished, can’t be used" (PENDING) badges.
 *
 * @cssstate loading - The keys are being read.
 * @cssstate ready - The keys are shown.
 * @cssstate failed - Reading the keys failed; also while an id attribute is malformed.
 * @cssstate editing - The creation form is open.
 * @cssstate busy - A key is being created or revoked.
 */
export class DelegatedKeys extends TemplateElement {
  static override styles = [baseStyles, listStyles, delegatedKeysStyles];

  static override properties = {
    cardId: { attribute: 'card-id', reflect: true, useDefault: true, match: idMatch('Card') },
    accountId: { attribute: 'account-id', reflect: true, useDefault: true, match: idMatch('InternalAccount') },
    apiBase: { attribute: 'api-base', match: API_BASE, hint: API_BASE_HINT },
    theme: { reflect: true, match: THEME },
    view: { state: true },
    form: { state: true },
  };

  /** The card (`Card:<uuid>`). Another (a malformed id) is said on the console and ignored: the element sends nothing, shows only that this attribute is not a valid id, and reports it once per value (`delegated-keys-error`, `misconfigured`). */
  cardId = '';

  /** The Embedded Wallet internal account funding the card (`InternalAccount:<uuid>`). Another (a malformed id) is said on the console and ignored: the element sends nothing, shows only that this attribute is not a valid id, and reports it once per value (`delegated-keys-error`, `misconfigured`). */
  accountId = '';

  /** The proxy's base path for this element (overrides configureWallet's `apiBase`). Only this page's origin or that of configureWallet's `apiBase` is followed: another is refused (`misconfigured`) and sent nothing. One that is neither a path from `/`, `./` or `../` nor an http(s) address (a bare `wallet.example.com`, `api`) is said on the console, with what to write instead, and ignored. */
  apiBase: string | undefined;

  /** Light or dark regardless of the system setting (shared base styles). */
  theme: 'light' | 'dark' | undefined;

  private view: DelegatedKeysState = initialState;
  private form: KeyForm = emptyForm();
  /**
   * A refused field's error, said in the form's alert when the focus could not move to say it (set
   * with a change of `view` or `form`, which renders it).
   */
  #refusal = '';

  readonly #i18n = new LocaleController(this);
  readonly #internals = this.attachInternals?.();
  /** "Loading keys…" only for a load that lasts (shared/slow.ts). */
  readonly #loading = new SlowWatch(this, () => !!(this.cardId && this.accountId) && this.view.list.kind === 'loading');
  /** How many keys a load brought after "Loading keys…" was said: said in turn, until the next change. */
  #loaded: number | undefined;
  /** The `data-focus` of what gets the focus after the next render. */
  #focusTarget: string | undefined;
  /** The create running or last failed, for telling from the list whether the service made it anyway. */
  #attempt: Attempt | undefined;
  /** After a 429: the service's Retry-After (seconds), said with it, and until when Try again waits. */
  #wait = 0;
  #waitUntil = 0;
  /**
   * The ids of the keys the list last showed: a create's "keys before", also when the list is being
   * read again or failed to be (a refresh() with the form open), so that an older key of the same
   * nickname is never taken for the one created.
   */
  #known: readonly string[] = [];
  /** Back online, a list that failed for want of a connection is read again (not during a 429's wait). */
  readonly #online = onOnline(this, () => {
    const { list } = this.view;
    if (list.kind === 'failed' && list.code === 'network' && !this.#held()) this.refresh();
  });

  /** A refresh() asked for: the next read of the list shares no read asked for before it (another element's). */
  #fresh?: boolean;

  /**
   * This device holds no session of the wallet (found so when read): a create (which the session
   * signs) cannot be made, so it is not offered and the panel says to sign in, as
   * <wallet-credentials> does. Read again at each login or logout, here or in another tab.
   */
  #signedOut = false;
  /** The session read last asked for: an earlier one's answer is not taken after it. */
  #sessionRead = 0;
  /** Stops listening for session changes (while on the page). */
  #unsubscribe?: () => void;

  /**
   * Reads whether this device holds a session of the wallet, and from then on (while on the page)
   * again at each login or logout of it, here or in another tab.
   */
  async #readSession(): Promise<void> {
    const { accountId } = this;
    const read = ++this.#sessionRead;
    // (Its code not loaded: the list's read, which needs it too, says so; nothing is left unhandled.)
    const loaded = await services().catch(() => undefined);
    if (!loaded) return;
    const { walletFor, onSessionChange } = loaded;
    if (this.isConnected) this.#unsubscribe ??= onSessionChange(this.apiBase, (change) => void (change.accountId === this.accountId && this.#readSession()));
    // (A key the browser lost signs nothing: no session either.)
    const out = !(accountId && (await walletFor(this.apiBase).current(accountId).catch(() => 0)));
    if (read === this.#sessionRead && out !== this.#signedOut) {
      this.#signedOut = out;
      this.requestUpdate();
    }
  }

  readonly #listTask = new Task(this, {
    args: () => [this.cardId, this.accountId] as const,
    task: async ([cardId, accountId], { signal }) => {
      if (!cardId || !accountId) return taskInitial;
      return this.#cardKeys(cardId, accountId, signal);
    },
    onComplete: (keys) => this.#send({ type: 'loaded', keys }),
    onError: (error) => this.#fail('load', error),
  });

  /**
   * Creating or revoking a key, one at a time as the machine allows; the outcome is the event that
   * updates the list. A change still under way when another card or account is shown (reload) runs
   * on in the task it started in, which then only tells the page: a change for the new card starts
   * in a task of its own, so that it neither aborts the one before nor takes its outcome.
   */
  #operation = this.#changes();
  /**
   * Changes for a card or account shown before, still under way: removing the element aborts them
   * as it aborts the current one, so that nothing goes on signing or reporting for a panel that
   * has left the page.
   */
  #earlier: Task<readonly [CreateDelegatedKeyRequest | string], Done>[] = [];
  /** It left the page (not moved in it): the list is read again when it is back. */
  #left = false;

  #changes() {
    const task: Task<readonly [CreateDelegatedKeyRequest | string], Done> = new Task(this, {
    task: async ([what]: readonly [CreateDelegatedKeyRequest | string], { signal }): Promise<Done> => {
      const { cardId, accountId } = this;
      const { clientFor, walletFor } = await services();
      const client = clientFor(this.apiBase);
      if (typeof what === 'string') {
        try {
          await client.revokeDelegatedKey(what, { signal });
        } catch (error) {
          // A failure the service may have revoked the key through (its answer lost, a 5xx, a 400 for
          // a key revoked meanwhile in another tab or through the API) is said only once the card's
          // list, read first, does not show it REVOKED: a key revoked is shown so, with no failure
          // said or dispatched on the way. Otherwise (or with the list unread) the failure is said.
          if (!worthRecheck(errorCodeOf(error, 'revoke'))) throw error;
          const keys = await this.#cardKeys(cardId, accountId, signal).catch((e) => {
            if (isAbort(e)) throw e;
          });
          const key = keys?.find((k) => k.id === what && k.status === 'REVOKED');
          if (key) return { type: 'revoked', keyId: what, at: key.updatedAt, keys: keys! };
          if (keys && task === this.#operation) this.#send({ type: 'rechecked', keys });
          throw error;
        }
        return { type: 'revoked', keyId: what, at: new Date().toISOString() };
      }
      // The stamper signs both 202 payloads; it is dropped when the call ends.
      const stamper = await walletFor(this.apiBase).stamper(what.internalAccountId);
      const attempt = this.#attempt;
      try {
        return { type: 'created', key: await client.createDelegatedKey(what, { stamper, signal }) };
      } catch (error) {
        // A failure the service may have made the key through (its answer lost, a 5xx, a 409 for the
        // key a try before made) is said only once the card's list, read first, does not show it:
        // a key made is created, with no failure said or dispatched on the way. Another key's 409
        // (or an unread list) is said as it is, with what the list showed.
        if (!attempt || !worthRecheck(errorCodeOf(error, 'create'))) throw error;
        const keys = await this.#cardKeys(cardId, accountId, signal).catch((e) => {
          if (isAbort(e)) throw e;
        });
        const key = keys && settledMeanwhile(attempt, keys);
        if (key) return { type: 'created', key };
        if (keys && task === this.#operation) this.#send({ type: 'rechecked', keys });
        throw error;
      }
    },
    onComplete: (done) => {
      // Made for a card or account shown before (reload): the page hears of it, the screen stays.
      // (The form is not emptied here: "New key" empties it when it opens.)
      if (task === this.#operation) {
        this.#send(done);
        this.#focusTarget = 'new';
        // A list asked for meanwhile (refresh()) may have been answered before the change: asked again.
        if (this.#listTask.status === TaskStatus.PENDING) void this.#listTask.run();
      }
      this.dispatchEvent(done.type === 'revoked' ? new DelegatedKeyRevokedEvent(done.keyId) : new DelegatedKeyCreatedEvent(done.key));
    },
    onError: (error) => {
      const { kind } = this.view.mode;
      // A failure of a change for a card or account shown before (reload) has no form or key left to show it on.
      if (task !== this.#operation || (kind !== 'submitting' && kind !== 'revoking')) return;
      // (A change the service may have carried out read the list before failing.)
      this.#fail(kind === 'revoking' ? 'revoke' : 'create', error);
    },
    });
    return task;
  }

  /** The card's keys (the service lists an account's keys). */
  async #cardKeys(cardId: string, accountId: string, signal?: AbortSignal): Promise<DelegatedKey[]> {
    const { clientFor, readsAnew } = await services();
    if (this.#fresh) readsAnew(), (this.#fresh = false);
    const keys = await clientFor(this.apiBase).listDelegatedKeys({ accountId }, { signal });
    return keys.filter((k) => k.cardId === cardId);
  }

  /**
   * Loads the list again. The list is hidden while it loads: the keyboard on it waits on the
   * heading, and goes back to where it was once the list is shown, if that is still there.
   */
  refresh(): void {
    const at = (this.renderRoot as ShadowRoot).activeElement?.getAttribute('data-focus');
    if (at) this.#focusTarget = 'title';
    this.#send({ type: 'load' });
    this.#fresh = true;
    void this.#listTask.run().then(() => at && this.view.list.kind === 'ready' && ((this.#focusTarget = at), this.requestUpdate()));
  }

  /**
   * Starts over: an open form or confirmation closes, and the list loads. A change under way goes
   * on in its own task, since the service may already be carrying it out: its event still tells
   * the page (until the element is removed), but it does not land in this list.
   */
  #reload(): void {
    if (this.#operation.status === TaskStatus.PENDING) {
      this.#earlier = [...this.#earlier.filter((task) => task.status === TaskStatus.PENDING), this.#operation];
      this.#operation = this.#changes();
    }
    this.#attempt = undefined;
    this.#send({ type: 'load', anew: true });
    void this.#listTask.run();
    void this.#readSession();
  }

  protected override willUpdate(changed: PropertyValues): void {
    // A new card, account or base: load its list, showing "loading" in the same update.
    if (changed.has('cardId') || changed.has('accountId') || changed.has('apiBase')) this.#reload();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Back on the page after it left: what was under way was aborted on the way out, and the service
    // may have carried it out, so the list is read again.
    if (this.#left && this.hasUpdated) {
      this.#reload();
      this.requestUpdate();
    }
    this.#left = false;
    this.#syncStates();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Moved in the page (a framework connects it again in the same task): nothing stops.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#left = true;
      this.#unsubscribe?.();
      this.#unsubscribe = undefined;
      this.#listTask.abort();
      // Every change under way, for whichever card: the service may have made it already, and the
      // list read when the element is back shows what the card holds.
      for (const task of [...this.#earlier, this.#operation]) task.abort();
      this.#earlier = [];
    });
  }

  protected override updated(): void {
    // A malformed id: reported once per value, as a misconfiguration (`:state(failed)`); nothing is read.
    this.badId(IDS, (attribute) => this.dispatchEvent(new DelegatedKeysErrorEvent({ code: 'misconfigured', operation: 'load', message: this.#i18n.t('delegated-keys.bad-id', { attribute }) })));
    this.#syncStates();
    // Each key keeps its row (shared/rows.ts), also while the list is read again, and a row is
    // rendered again only when what it shows may differ: its key, the language or its strings, the
    // heading level, its revoke confirmation, or (an ACTIVE key's) whether its Revoke may be pressed.
    const { list, mode } = this.view;
    const { locale } = this.#i18n;
    const held = this.#held();
    if (list.kind === 'ready') {
      keyedRows(this.renderRoot.querySelector('ul'), list.keys, (k) => k.id, (k, li) => this.#renderKey(k, li), { host: this }, (k) => [
        asText(k),
        locale,
        localeChanges,
        this.headingLevel,
        'keyId' in mode && mode.keyId === k.id && mode.kind,
        k.status === 'ACTIVE' && `${mode.kind}${held}`,
      ], this);
    }
    const target = this.#focusTarget;
    this.#focusTarget = undefined;
    if (target) this.renderRoot.querySelector<HTMLElement>(`[data-focus="${target}"]`)?.focus();
  }

  #send(event: DelegatedKeysEvent): void {
    const next = transition(this.view, event);
    if (next === this.view) return;
    this.#loaded = this.#loading.slow && next.list.kind === 'ready' ? next.list.keys.length : undefined;
    if (next.list.kind === 'ready') this.#known = next.list.keys.map((k) => k.id);
    this.view = next;
    this.#syncStates();
  }

  #fail(operation: 'load' | 'create' | 'revoke', error: unknown): void {
    if (isAbort(error)) return;
    const code = errorCodeOf(error, operation);
    const { mode } = this.view;
    // The service said how long to wait: Try again (and Revoke) do nothing until then, and come back
    // after. A failure of another kind meanwhile (the list read again) leaves that wait running.
    if (code === 'rate_limited') {
      const wait = (this.#wait = (error as { retryAfter?: number }).retryAfter ?? 0);
      this.#waitUntil = Math.max(this.#waitUntil, Date.now() + wait * 1000);
      // Redrawn once the wait is over (a wait beyond what one timer can wait takes more than one).
      const redraw = () => (this.#held() ? later(redraw, this.#waitUntil - Date.now()) : this.requestUpdate());
      redraw();
    }
    this.#send({ type: `${operation}-failed`, code });
    this.dispatchEvent(new DelegatedKeysErrorEvent(errorDetail(error, { code, operation, message: this.#say(code) })));
    // The alert says the failure; the focus does not go to it, or it would be read twice (its
    // change, then the focus). A failed create keeps the focus where it was (on "Try again" when
    // sent from the button); a failed revoke closes its confirmation, so its key's Revoke takes it.
    if (operation === 'revoke' && mode.kind === 'revoking') this.#focusTarget = `revoke-${mode.keyId}`;
  }

  /** A failure's sentence; a 429's names the service's wait. */
  #say(code: DelegatedKeysErrorCode): string {
    return code === 'rate_limited' && this.#wait ? this.#i18n.t('delegated-keys.error.rate_limited_wait', { seconds: this.#wait }) : this.#i18n.t(`delegated-keys.error.${code}`);
  }

  /** Whether a 429's wait is still running. */
  #held(): boolean {
    return Date.now() < this.#waitUntil;
  }

  #syncStates(): void {
    const { list, mode } = this.view;
    const editing = mode.kind === 'editing' || mode.kind === 'submitting';
    const bad = this.badId(IDS);
    syncStates(this.#internals, {
      loading: list.kind === 'loading' && !bad,
      ready: list.kind === 'ready' && !bad,
      failed: list.kind === 'failed' || !!bad,
      editing,
      busy: mode.kind === 'submitting' || mode.kind === 'revoking',
    });
  }

  // ---- user actions

  #openForm(): void {
    this.form = emptyForm();
    this.#refusal = '';
    this.#send({ type: 'open-form' });
    this.#focusTarget = 'nickname';
  }

  #cancel(): void {
    const { mode } = this.view;
    this.#send({ type: 'cancel' });
    // Back to what opened the form or the confirmation.
    this.#focusTarget = mode.kind === 'confirming-revoke' ? `revoke-${mode.keyId}` : 'new';
  }

  /** "Try again" goes while the list loads: the heading keeps the keyboard meanwhile. */
  #retry(): void {
    if (this.#held()) return;
    this.#focusTarget = 'title';
    this.refresh();
  }

  /** Escape closes the form or the confirmation, as its Cancel button does (not while it runs). */
  #onKeydown(e: KeyboardEvent): void {
    const { kind } = this.view.mode;
    if (e.key !== 'Escape' || (kind !== 'editing' && kind !== 'confirming-revoke')) return;
    e.preventDefault();
    this.#cancel();
  }

  #submit(e: Event): void {
    e.preventDefault();
    const { mode } = this.view;
    if (mode.kind !== 'editing' || this.#held() || this.#signedOut) return;
    const verdict = validateKeyForm(this.form, this);
    this.#send({ type: 'submit', verdict });
    if (!verdict.ok) {
      // The focus moves to the first refused field, whose description says its error. Sent with
      // Enter from that very field, the focus stays and nothing would be read: the form's alert
      // says the error, with its field's name.
      const { field, problem } = verdict.errors[0]!;
      const root = this.renderRoot as ShadowRoot;
      this.#refusal = root.activeElement?.id === field ? `${root.querySelector(`[for="${field}"]`)!.textContent}: ${this.#i18n.t(`delegated-keys.field.${problem}`, RULES)}` : '';
      return void (this.#focusTarget = field);
    }
    // Try again (the same nickname after a failure whose key may have been made) keeps the keys
    // before the first try: a key it made, listed since (a refresh()), is still its own, not another's 409.
    const { nickname, spendingLimits } = verdict.request;
    const last = this.#attempt;
    this.#attempt = { nickname, spendingLimits, before: last?.nickname === nickname && mode.failure && isRetryable(mode.failure) ? last.before : this.#known };
    void this.#operation.run([verdict.request]);
  }

  #askRevoke(keyId: string): void {
    if (this.#held()) return;
    this.#send({ type: 'ask-revoke', keyId });
    // The least destructive choice gets the focus.
    this.#focusTarget = 'confirm-cancel';
  }

  #confirmRevoke(): void {
    const { mode } = this.view;
    this.#send({ type: 'confirm-revoke' });
    if (mode.kind !== 'confirming-revoke') return;
    void this.#operation.run([mode.keyId]);
  }

  /** Sets one field of the form: `nickname`, or `<field>` of limit row `row`. */
  #edit(e: Event, row?: number): void {
    const { name, value } = e.target as HTMLInputElement;
    const { nickname, limits } = this.form;
    this.#check(row === undefined ? { nickname: value, limits } : { nickname, limits: limits.map((r, i) => (i === row ? { ...r, [name]: value } : r)) });
  }

  /** The form as edited: an error shown goes once its field is right; `removed`, the limit row taken out, takes its own. */
  #check(form: KeyForm, removed?: number): void {
    this.#refusal = '';
    this.form = form;
    this.#send({ type: 'edited', verdict: validateKeyForm(form, this), removed });
  }

  /** Adds a limit row (`remove` undefined) or removes row `remove`, and moves the focus to a row that stays. */
  #editRows(remove?: number): void {
    const { nickname, limits } = this.form;
    const rows: LimitRow[] = remove === undefined ? [...limits, { currencyCode: '', maxPerTransaction: '' }] : limits.filter((_, i) => i !== remove);
    this.#check({ nickname, limits: rows }, remove);
    const focusRow = remove === undefined ? rows.length - 1 : Math.max(0, remove - 1);
    this.#focusTarget = rows.length ? `limits.${focusRow}.currencyCode` : 'add-limit';
  }

  // ---- rendering

  override render() {
    const t = this.#i18n.t;
    const { list, mode, failure, notice } = this.view;
    // A malformed id is ignored (its property stays empty): said as not valid rather than as not selected.
    const bad = this.badId(IDS);
    const ready = this.cardId && this.accountId;
    const signedOut = this.#signedOut;
    const alert = list.kind === 'failed' ? list.code : failure;
    return html`
      <section part="base" class="base panel" aria-labelledby="title">
        <div part="header" class="bar">
          <h2 id="title" tabindex="-1" data-focus="title" aria-level=${this.level()}>${t('delegated-keys.title')}</h2>
          ${ready && mode.kind === 'browsing' && list.kind === 'ready'
            ? html`<button part="new-button" class="primary" type="button" data-focus="new" ?disabled=${signedOut} @click=${this.#openForm}>${t('delegated-keys.new')}</button>`
            : nothing}
        </div>
        <p class="muted">${t('delegated-keys.description')}</p>
        ${ready && signedOut && list.kind === 'ready' && mode.kind === 'browsing' ? html`<p part="hint">${t('delegated-keys.sign-in')}</p>` : nothing}
        ${mode.kind === 'editing' || mode.kind === 'submitting' ? this.#renderForm() : nothing}
        <div part="error" class="alert" role="alert">${alert
            ? html`<p>${this.#say(alert)}</p>
                ${list.kind === 'failed' && list.code !== 'load_failed' ? html`<button type="button" aria-disabled=${this.#held()} @click=${this.#retry}>${t('delegated-keys.retry')}</button>` : nothing}`
            : nothing}</div>
        <p part="notice" class="live ${notice ? 'success' : 'muted'}" role="status">${notice
            ? t(`delegated-keys.${notice.kind}`, { name: isolate(notice.nickname) })
            : list.kind === 'loading'
              ? this.#loading.slow ? t('delegated-keys.loading') : nothing
              : this.#loaded === undefined ? nothing : t('delegated-keys.loaded', { count: this.#loaded })}</p>
        ${!ready
          ? html`<p class="muted">${bad ? t('delegated-keys.bad-id', { attribute: bad }) : t('delegated-keys.missing-ids')}</p>`
          : list.kind !== 'ready'
            ? nothing
            : list.keys.length === 0
              ? html`<p class="muted">${t('delegated-keys.empty')}</p>`
              : html`<ul part="list" class="list" aria-labelledby="title"></ul>`}
      </section>
    `;
  }

  /** A key's row: its `<li>`'s attributes, and its content. */
  #renderKey(key: DelegatedKey, li: HTMLLIElement) {
    const t = this.#i18n.t;
    const locale = this.#i18n.locale;
    const { mode } = this.view;
    const headingId = `key-${key.id.replace(/[^A-Za-z0-9-]/g, '-')}`;
    const asked = 'keyId' in mode && mode.keyId === key.id;
    const revoking = asked && mode.kind === 'revoking';
    const active = key.status === 'ACTIVE';
    // The key this element's create is making, listed between its two signatures (the list read
    // meanwhile): PENDING there only until the second, so not "Not finished".
    const attempt = this.#attempt;
    const status = key.status === 'PENDING' && mode.kind === 'submitting' && attempt?.nickname === key.nickname && !attempt.before.includes(key.id) ? 'making' : key.status;
    const limits = key.spendingLimits ?? [];
    // (The same for as long as the row is its key's: set once.)
    if (!li.className) {
      li.setAttribute('part', 'key');
      li.className = 'item';
      li.setAttribute('aria-labelledby', headingId);
    }
    return html`
        <div class="item-head">
          <h3 id=${headingId} aria-level=${this.level(1)}><bdi>${key.nickname}</bdi></h3>
          <span part="status" class="status ${status}">${t(`delegated-keys.status.${status}`)}</span>
        </div>
        <div class="meta">
          <span>${t('delegated-keys.created-on', { date: formatDate(key.createdAt, locale) })}</span>
          <span>${t('delegated-keys.public-key')}: <bdi class="mono" title=${key.publicKey}>${key.publicKey.slice(0, 8)}…${key.publicKey.slice(-6)}</bdi></span>
        </div>
        <div>
          <span class="visually-hidden">${t('delegated-keys.limits')}: </span>
          ${limits.length
            ? html`<ul class="limits">
                ${limits.map((l) => html`<li>${t('delegated-keys.per-transaction', { amount: formatMinor(l.maxPerTransaction, l.currencyCode, locale) })}</li>`)}
              </ul>`
            : t('delegated-keys.no-limits')}
        </div>
        ${active ? html`<p class="muted">${t('delegated-keys.immutable')}</p>` : nothing}
        ${asked
          ? html`<div part="confirm" class="confirm" role="group" aria-label=${t('delegated-keys.revoke')} @keydown=${this.#onKeydown}>
              <p>${t('delegated-keys.revoke-confirm', { name: isolate(key.nickname) })}</p>
              <div class="actions">
                <button class="danger strong" type="button" aria-disabled=${revoking} @click=${revoking ? undefined : this.#confirmRevoke}>
                  ${t(revoking ? 'delegated-keys.revoking' : 'delegated-keys.revoke-yes')}
                </button>
                ${revoking ? nothing : html`<button type="button" data-focus="confirm-cancel" @click=${this.#cancel}>${t('delegated-keys.cancel')}</button>`}
              </div>
            </div>`
          : active
            ? html`<div class="actions">
                <button
                  part="revoke-button"
                  class="danger"
                  type="button"
                  data-focus="revoke-${key.id}"
                  ?disabled=${mode.kind !== 'browsing'}
                  aria-disabled=${this.#held()}
                  @click=${() => this.#askRevoke(key.id)}
                >
                  ${t('delegated-keys.revoke')}
                </button>
              </div>`
            : nothing}
    `;
  }

  #renderForm() {
    const t = this.#i18n.t;
    const locale = this.#i18n.locale;
    const { mode } = this.view;
    const submitting = mode.kind === 'submitting';
    const errors = mode.kind === 'editing' ? mode.errors : [];
    // Signed out with the form open: it says to sign in, and sends nothing that must fail.
    const signedOut = this.#signedOut && !submitting;
    const failure = signedOut ? 'session_required' : mode.kind === 'editing' ? mode.failure : undefined;
    const rows = this.form.limits;
    /** An input with its label and the message of its error, tied to it; `row` for a limit's fields. */
    const field = (name: string, label: string, value: string, describedBy: string, row?: number, numeric = false) => {
      const error = errors.find((e: FieldError) => e.field === name);
      return html`<div class="field">
        <label for=${name}>${t(`delegated-keys.${label}`)}</label>
        <input
          id=${name}
          name=${name.split('.').pop()!}
          data-focus=${name}
          autocomplete="off"
          spellcheck="false"
          maxlength=${numeric ? nothing : row === undefined ? NICKNAME_MAX : 16}
          inputmode=${numeric ? 'numeric' : nothing}
          ?required=${row === undefined}
          .value=${value}
          aria-invalid=${!!error}
          aria-describedby="${name}-error ${describedBy}"
          ?readonly=${submitting}
          @input=${(e: Event) => this.#edit(e, row)}
        />
        <span class="error" id="${name}-error">${error ? t(`delegated-keys.field.${error.problem}`, RULES) : ''}</span>
      </div>`;
    };
    return html`
      <form part="form" novalidate aria-labelledby="form-title" @submit=${this.#submit} @keydown=${this.#onKeydown}>
        <h3 id="form-title" aria-level=${this.level(1)}>${t('delegated-keys.form-title')}</h3>
        ${hasActiveKey(this.view) && failure !== 'conflict' ? html`<p class="muted">${t('delegated-keys.active-exists')}</p>` : nothing}
        ${field('nickname', 'nickname', this.form.nickname, 'nickname-hint')}
        <span class="muted" id="nickname-hint">${t('delegated-keys.nickname-hint', RULES)}</span>
        <fieldset>
          <legend>${t('delegated-keys.limits-legend')}</legend>
          <p class="muted" id="limits-hint">${t('delegated-keys.limits-hint')}</p>
          ${rows.map((row, i) => {
            // The remove button shows only "×": it is named by its row's place, so that each says which row it removes.
            const limit = limitOf(row);
            const amountField = `limits.${i}.maxPerTransaction`;
            return html`<div class="limit-row">
              ${field(`limits.${i}.currencyCode`, 'currency', row.currencyCode, 'limits-hint', i)}
              ${field(amountField, 'amount', row.maxPerTransaction, `${amountField}-preview limits-hint`, i, true)}
              <button
                type="button"
                aria-label=${t('delegated-keys.remove-limit', { n: i + 1 })}
                ?disabled=${submitting}
                @click=${() => this.#editRows(i)}
              >
                ×
              </button>
              <span class="muted" id="${amountField}-preview">${limit ? t('delegated-keys.amount-preview', { amount: formatMinor(limit.maxPerTransaction, limit.currencyCode, locale) }) : ''}</span>
            </div>`;
          })}
          <div>
            <button
              type="button"
              data-focus="add-limit"
              ?disabled=${submitting || rows.length >= MAX_LIMIT_ROWS}
              @click=${() => this.#editRows()}
            >
              ${t('delegated-keys.add-limit')}
            </button>
          </div>
        </fieldset>
        <div class="alert" role="alert">${failure || this.#refusal ? html`<p>${failure ? this.#say(failure) : this.#refusal}</p>` : nothing}</div>
        <div class="actions">
          <button part="submit-button" class="primary" type="submit" aria-disabled=${submitting || signedOut || this.#held()}>
            ${t(submitting ? 'delegated-keys.creating' : failure && isRetryable(failure) ? 'delegated-keys.retry' : 'delegated-keys.create')}
          </button>
          ${submitting ? nothing : html`<button type="button" @click=${this.#cancel}>${t('delegated-keys.cancel')}</button>`}
        </div>
      </form>
    `;
  }
}

defineElement('delegated-keys', DelegatedKeys);

declare global {
  interface HTMLElementTagNameMap {
    'delegated-keys': DelegatedKeys;
  }
}
