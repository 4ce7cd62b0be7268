/**
 * `<wallet-credentials>`: the wallet's ways to log in and its active sessions, with the changes
 * api.md allows from the browser: add an SMS_OTP or OAUTH credential (signed retry; SMS is then
 * activated here with its code, single sign-on by its first login, whose verify needs a fresh
 * token from the provider), remove a credential (stamped by a session of another credential;
 * never the last), end sessions, and change the customer's email (signed retry when an OTP login
 * is tied to it).
 *
 * The rules are wallet-credentials.machine.ts, the calls wallet-credentials.flows.ts; this file
 * renders and wires them. It never calls fetch or IndexedDB and never holds a key. The flows, and
 * the client and session flows (shared/wallet.ts) they pass on, load with import() once the first
 * screen is painted.
 */
import { html, nothing, type TemplateResult } from 'lit/html.js';
import { TemplateElement } from '../shared/template.ts';
import { defineElement, type PropertyValues } from '../shared/reactive.ts';
import { Task, TaskStatus, initialState as taskInitial } from '../shared/task.ts';
import type { OtpLogin } from '../../core/session.ts';
import type { AuthMethod, AuthSession } from '../../core/types.ts';
import { baseStyles, THEME } from '../shared/styles.ts';
import { API_BASE, API_BASE_HINT, idMatch } from '../shared/config.ts';
import { formStyles } from '../shared/form-styles.ts';
import { LocaleController, localeChanges } from '../shared/i18n.ts';
import { asText, keyedRows } from '../shared/rows.ts';
import { format } from '../shared/formats.ts';
import type { Failure } from '../shared/failures.ts';
import { failureMessage, isCodeProblem } from '../shared/strings.ts';
import { onceAfterFirstPaint } from '../shared/idle.ts';
import { LoadFailed, loadFailureCode } from '../shared/load.ts';
import { isAbort, onOnline, syncStates, mayFocus } from '../shared/list.ts';
import { codeInput } from '../shared/code-input.ts';
import { forgetPendingCode, keepPendingCode, storageKey, resumePendingCode } from '../shared/pending-code.ts';
import {
  afterChange,
  allowed,
  canAdd,
  initialState,
  revokeBlock,
  transition,
  type CredentialsEvent,
  type CredentialsFailure,
  type CredentialsState,
  type Operation,
} from './wallet-credentials.machine.ts';
import type { Services } from './wallet-credentials.flows.ts';
import { CredentialAddedEvent, CredentialRevokedEvent, SessionRevokedEvent, WalletCredentialsErrorEvent } from './wallet-credentials.events.ts';
import { walletCredentialsStyles } from './wallet-credentials.styles.ts';
import './wallet-credentials.strings.ts';

// Its events (and their GlobalEventHandlersEventMap entries) come with the element's declarations,
// so typings that reach the element alone (the React wrappers) see the event types too.
export * from './wallet-credentials.events.ts';

/** The flows, with the page's client and session flows (shared/wallet.ts) they pass on: one load, once the first screen is painted. */
const flows = onceAfterFirstPaint(() => import('./wallet-credentials.flows.ts'));
type Flows = Awaited<ReturnType<typeof flows>>;

/**
 * A button that cannot be used and has a hint of its own (a Remove of the only login, or of the one
 * this device is logged in with; an add of SMS already there, or of single sign-on not set up): it
 * stays in the Tab order, aria-disabled and described by its hint, so the keyboard and screen readers
 * reach why.
 */
const BLOCKED = '[aria-describedby^=hint]';
/** The (first) button of the row of that id. */
const rowButton = (id: string) => `li[data-id="${CSS.escape(id)}"] button`;

/** (What only a ready state has reads undefined in the others: `(s as Ready).running`.) */
type Ready = Extract<CredentialsState, { kind: 'ready' }>;

/**
 * Lists and manages a wallet's credentials and sessions. An added SMS credential's activation code
 * survives a reload of the tab: the element comes back to its code form without sending another
 * (the tab's sessionStorage keeps the service's public challenge answer for 15 minutes, never the code).
 *
 * @summary Credentials and sessions of an Embedded Wallet: add, remove, end, change email.
 *
 * @event credential-added - `{accountId, credentialId, type}` after the signed retry created it.
 * @event credential-revoked - `{accountId, credentialId, type}` after the service removed it (204), or found it removed already (404).
 * @event session-revoked - `{accountId, sessionId, current}`; `current` when it was this device's (a logout, which ends every session this device holds: one event each).
 * @event wallet-credentials-error - `{code, message, operation, status?}`; `message` is the sentence shown. `operation` is what failed: `load` for reading the lists (once per failed read: the first, Reload, or a read again over the lists shown, after a change here or in another tab; none for a read cut off by the element leaving the page or another `account-id`), else the change asked for (`add`, `verify-code`, `resend-code`, `revoke-credential`, `revoke-session`, `update-email`). `logout_incomplete`: "Log out here" logged this device out, but the service did not end every session it held (those it did are in session-revoked). `load_failed`: the element's code, loaded on demand, did not arrive (asked for twice); `message` says to check the connection, then reload the page (offline it is not asked for: `network`, whose "Try again" works once online). `misconfigured` too when `account-id` or `customer-id` is malformed (`operation` `load`, once per value given; `message` is the sentence shown, naming the attribute; nothing is sent).
 *
 * @csspart base - The panel.
 * @csspart heading - The title.
 * @csspart credentials - The list of credentials.
 * @csspart credential - One credential row.
 * @csspart credential-type - The kind of credential.
 * @csspart credential-name - Its email, phone or label.
 * @csspart badge - "This device" next to each session this browser holds, and next to the credentials they were made with.
 * @csspart revoke-button - Remove a credential / end a session.
 * @csspart hint - Why a credential cannot be removed, or added, right now.
 * @csspart row-error - Why the removal of that credential, the end of that session, or that add failed.
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
 * @cssstate loading - The credentials and sessions are being read.
 * @cssstate load-failed - Reading them failed; also while an id attribute is malformed.
 * @cssstate ready - The lists are shown.
 * @cssstate confirming - A removal waits for its confirmation.
 * @cssstate busy - A change or a read is under way.
 * @cssstate code-entry - An added SMS credential waits for its activation code.
 * @cssstate signed-in - This device holds a session.
 */
export class WalletCredentials extends TemplateElement {
  static override styles = [baseStyles, formStyles, walletCredentialsStyles];

  static override properties = {
    oidcTokenProvider: { attribute: false },
    accountId: { attribute: 'account-id', reflect: true, useDefault: true, match: idMatch('InternalAccount') },
    customerId: { attribute: 'customer-id', reflect: true, useDefault: true, match: idMatch('Customer') },
    apiBase: { attribute: 'api-base', match: API_BASE, hint: API_BASE_HINT },
    theme: { reflect: true, match: THEME },
    machine: { state: true },
    emailInvalid: { state: true },
  };

  /** The Embedded Wallet internal account (`InternalAccount:<uuid>`). Another (a malformed id) is said on the console and ignored: the element sends nothing, shows only that this attribute is not a valid id, and reports it once per value (`wallet-credentials-error`, `misconfigured`). */
  accountId = '';
  /** The customer (`Customer:<uuid>`) whose email the email form changes; without it the form is hidden. Another (a malformed id) is said on the console and ignored: the element sends nothing, shows only that this attribute is not a valid id, and reports it once per value (`wallet-credentials-error`, `misconfigured`). */
  customerId = '';
  /** Where the proxy is mounted, when not the page's configured base. Only this page's origin or that of configureWallet's `apiBase` is followed: another is refused (`misconfigured`) and sent nothing. One that is neither a path from `/`, `./` or `../` nor an http(s) address (a bare `wallet.example.com`, `api`) is said on the console, with what to write instead, and ignored. */
  apiBase: string | null = null;
  /** Light or dark regardless of the system setting. */
  theme: 'light' | 'dark' | undefined;

  /**
   * For adding single sign-on: a fresh OIDC ID token from the integrator's identity provider.
   * `signal` aborts when the element drops the step (another wallet, removed from the page): close
   * your sign-in window then.
   */
  oidcTokenProvider: ((nonce: string, options: { signal: AbortSignal }) => Promise<string>) | undefined;

  private machine: CredentialsState = initialState();
  private emailInvalid = false;

  get #emailInput(): HTMLInputElement | null {
    return this.renderRoot?.querySelector('#email') ?? null;
  }

  get #codeInput(): HTMLInputElement | null {
    return this.renderRoot?.querySelector('#code') ?? null;
  }

  readonly #i18n = new LocaleController(this);
  readonly #internals = this.attachInternals?.();
  #otp: OtpLogin | undefined;
  /** A selector of what gets the focus after the next render. */
  #focusTarget: string | undefined;
  #had?: Element | null;
  /** Where the keyboard was as the last change was asked for (the page's view: this element when inside it). */
  #focusFrom?: Element | null;
  /** Whether that control was a button that cannot be used (it keeps the focus: its hint says why). */
  #hadBlocked?: boolean;
  /** That control's row, and the rows after and before it, when it was the row's button (not its question's). */
  #near!: (HTMLElement | null | undefined)[];
  /** Back online, lists that failed for want of a connection are read again: a first load, or a reload over the lists shown. */
  readonly #online = onOnline(this, () => {
    const s = this.machine;
    if ((s.kind === 'load-failed' || (s.kind === 'ready' && s.reloadFailed)) && s.failure?.code === 'network') this.reload();
  });
  /** Ends the session listening of the live connection; a token per connection, so a late setup knows it is stale. */
  #connection: { unsubscribe?: () => void; asked?: boolean } | undefined;

  /** Where this tab keeps the activation code it waits for, across reloads (shared/pending-code.ts). */
  get #codeKey(): string {
    return storageKey('activation', this.apiBase, this.accountId);
  }

  /** A reload() asked for: the next read of the lists shares no read asked for before it (another element's). */
  #fresh?: boolean;

  /**
   * The lists, reloaded when the account changes or after a change; stale answers are dropped.
   * With them, the activation code this tab was waiting for before a reload, if it still waits.
   */
  readonly #loader = new Task(this, {
    args: () => [] as const,
    task: async (_: readonly [], { signal }) => {
      // Nothing is read while an id is malformed (the account's is then empty), the customer's too.
      if (!this.accountId || this.ignored.has('customer-id')) return taskInitial;
      const [svc, { loadView }] = await this.#services(signal);
      const view = await loadView(svc);
      const kept = this.#otp?.accountId === this.accountId ? this.#otp : undefined;
      return { view, otp: kept ?? (await resumePendingCode(this.#codeKey, this.accountId, svc.wallet, signal))?.otp };
    },
    onComplete: ({ view, otp }) => {
      // (The flows are here now: the watch starts if they had failed to load when it was asked for.)
      this.#watch();
      this.#send({ type: 'LOADED', view });
      if (!otp) return;
      this.#otp = otp;
      this.#send({ type: 'RESUMED', codeFor: otp.credentialId });
    },
    // (Stopped because the element left the page: it reads them again when it is back.)
    onError: (e) => isAbort(e) || this.#send({ type: 'LOAD_FAILED', failure: this.#failureOf(e, 'load') }),
  });

  /**
   * The run of `operation` whose outcome counts. A new wallet or base path, or the element leaving
   * the page, ends it: what it brings back then is dropped (the lists are read again instead).
   */
  #run: object | undefined;

  /** One change at a time; its outcome carries the reloaded lists. */
  readonly #operation = new Task<[Operation, string], CredentialsEvent | undefined>(this, {
    task: async ([op, input], { signal }) => {
      const run = this.#run;
      try {
        const event = await this.#perform(op, input, signal);
        return run === this.#run ? event : undefined;
      } catch (e) {
        if (run === this.#run) throw e;
        return undefined;
      }
    },
    onComplete: (event) => event && this.#send(event),
    onError: (e) => {
      const running = (this.machine as Ready).running;
      const op = running?.op === 'add' && running.type === 'OAUTH' ? 'add-oauth' : (running?.op ?? '');
      this.#send({ type: 'FAILED', failure: this.#failureOf(e, op) });
      // The service may have made the change all the same (its answer lost, a 5xx), or another
      // device made one (a 409): the lists show what it holds, the failure stays said.
      void this.#loader.run();
    },
  });

  /** Loads the lists again (after a login elsewhere on the page, say); what the user has open or typed stays. */
  reload(): void {
    this.#send({ type: 'LOAD' });
    this.#fresh = true;
    void this.#loader.run();
  }

  /** Starts over on the lists: what was open, asked or running is dropped. */
  #restart(): void {
    this.#run = undefined;
    this.#operation.abort();
    this.#send({ type: 'LOAD', anew: true });
    void this.#loader.run();
  }

  protected override willUpdate(changed: PropertyValues): void {
    // What has the keyboard before the render (updated() sees whether it still may).
    this.#had = (this.renderRoot as ShadowRoot).activeElement;
    this.#hadBlocked = this.#had?.matches(BLOCKED);
    const row = this.#had?.closest('li');
    this.#near = row?.querySelector('button') == this.#had ? [row, row?.nextElementSibling as HTMLElement, row?.previousElementSibling as HTMLElement] : [];
    // The lists follow the account and the base path. Another wallet's code form, confirmation or
    // change in progress must not carry over: a code typed there would log into the previous one.
    // Another customer's neither: an address typed for the previous one, or its change's outcome.
    // (A customer id taken after a malformed one: the lists were not read.)
    if (!(changed.has('accountId') || changed.has('apiBase') || changed.has('customerId'))) return;
    if (!this.hasUpdated) return void this.#loader.run();
    this.#otp = undefined;
    this.#restart();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the page (a framework connects it again in the same task): it never left.
    if (this.#connection) return;
    // Back on the page after it left: the lists are read again. A change cut off on the way out may
    // have been made, so its screen starts over (a code this tab waits for comes back).
    if (this.hasUpdated) {
      if ((this.machine as Ready).running) this.#restart();
      else void this.#loader.run();
    }
    this.#connection = {};
    // After the first render: the lists' screen needs neither the channel nor the flows' code.
    void this.updateComplete.then(() => this.#watch());
  }

  /**
   * Listens, once the flows are there, for logins and logouts of the wallet while connected: asked
   * for at connection, and again when the lists load, in case the flows had failed to load then
   * (offline, say); once per connection.
   */
  #watch(): void {
    const connection = this.#connection;
    if (!connection || connection.asked) return;
    connection.asked = true;
    flows().then(
      ({ onSessionChange }) => {
        if (this.#connection !== connection) return;
        // A login or logout here or in another tab: the lists change, unless it is this element's own
        // step (not one of the previous wallet, which a provider not listening to its signal holds up).
        connection.unsubscribe = onSessionChange(this.apiBase, ({ accountId }) => {
          if (accountId === this.accountId && !(this.machine as Ready).running) void this.#loader.run();
        });
      },
      () => (connection.asked = false),
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Off the page at the end of this task (not moved in it), nothing goes on: the lists being read
    // and a change under way stop.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#connection?.unsubscribe?.();
      this.#connection = undefined;
      this.#run = undefined;
      this.#operation.abort();
      this.#loader.abort();
    });
  }

  protected override updated(): void {
    const s = this.machine;
    // A malformed id: reported once per value, as a misconfiguration; the lists are not read.
    const bad = this.badId(['account-id', 'customer-id'], (attribute) =>
      this.dispatchEvent(new WalletCredentialsErrorEvent({ code: 'misconfigured', operation: 'load', message: this.#i18n.t('common.bad-id', { attribute }) })),
    );
    const ready = s.kind === 'ready' && !bad ? s : undefined;
    // Each credential and session keeps its row (shared/rows.ts), rendered again only when what it
    // shows may differ: its item, the language or its strings, and what the lists' state makes of it.
    if (ready) for (const [name, items] of [['credentials', ready.view.credentials], ['sessions', ready.view.sessions]] as const) {
      keyedRows(this.renderRoot.querySelector(`ul[part=${name}]`), items as readonly (AuthMethod | AuthSession)[], (x) => x.id, (x, li) => this.#row(ready, x, li), { host: this }, (x) => [
        asText(x),
        this.#i18n.locale,
        // (The time zone, as formats.ts keys it: a session's end time follows the page's zone.)
        '' + new Date(17e11),
        localeChanges,
        ...this.#facts(ready, x),
        (ready.confirming as { id?: string } | undefined)?.id === x.id && ready.confirming,
        ready.about === x.id && ready.failure,
      ]);
    }
    syncStates(this.#internals, {
      loading: s.kind === 'loading' && !bad,
      'load-failed': s.kind === 'load-failed' || !!bad,
      ready: !!ready,
      confirming: !!ready?.confirming,
      busy: !!ready?.running || this.#loader.status === TaskStatus.PENDING,
      'code-entry': !!ready?.codeFor,
      'signed-in': !!ready?.view.current,
    });
    // The control the keyboard was on left with its row or became disabled (the lists read again
    // under it: another tab's or element's change, a refusal): the heading takes the focus, not the
    // page. So does a button that could be used and now cannot (BLOCKED: it stays focusable,
    // aria-disabled). A row gone under its button, as after a removal here, the same button of the
    // next row takes it, else of the previous one (none logged out: they are disabled); a question
    // gone with its row leaves it to the heading. (Only from inside: from elsewhere on the page, or
    // from nowhere, nothing of this element had the keyboard.)
    if (this.#had?.matches(':not(:focus),:disabled') || (!this.#hadBlocked && this.#had?.matches(BLOCKED))) {
      const [row, ...near] = this.#near;
      const to = row && !row.isConnected && ready?.view.current && near.find((r) => r?.isConnected);
      this.#focusTarget ??= to ? rowButton(to.dataset.id!) : '#heading';
    }
    const target = this.#focusTarget && this.renderRoot.querySelector<HTMLElement>(this.#focusTarget);
    if (target) {
      this.#focusTarget = undefined;
      target.focus();
    }
  }

  /** The flows once this element has them: until then, only their load can have failed. */
  #flows: Flows | undefined;

  /** The flows (loaded on demand), and what they are given for this element's wallet. */
  async #services(signal: AbortSignal): Promise<[Services, Flows]> {
    const f = (this.#flows = await flows());
    if (this.#fresh) f.readsAnew(), (this.#fresh = false);
    return [{ accountId: this.accountId, customerId: this.customerId, client: f.clientFor(this.apiBase), wallet: f.walletFor(this.apiBase), store: f.keyStore(), signal }, f];
  }

  /** What `e` means for `op` (flows.ts failureOf); a load that failed (LoadFailed) is read without the flows, which may be what did not load. */
  #failureOf(e: unknown, op: string): Failure {
    return this.#flows && !(e instanceof LoadFailed) ? this.#flows.failureOf(e, op) : { code: loadFailureCode(e) };
  }

  #request(operation: Operation, input = ''): void {
    // Busy buttons, and one that cannot be used (BLOCKED), stay focusable (aria-disabled): their press is ignored here.
    if (!allowed(this.machine, operation)) return;
    // A new request: the email field's error belongs to the last submit of that form only.
    this.emailInvalid = false;
    this.#focusFrom = document.activeElement;
    this.#send({ type: 'REQUEST', operation });
    this.#start(input);
  }

  /** Runs the operation the machine moved to, if any; one that needs a confirmation asks for it first. */
  #start(input = ''): void {
    const s = this.machine;
    if (s.kind !== 'ready') return;
    // The least destructive choice gets the focus: Enter twice must not remove a way to log in.
    if (s.confirming) this.#focusTarget = '[part~="confirm"] button:not(.danger)';
    // (A run still pending without a run token is the previous wallet's, dropped: it holds nothing up.)
    if (s.running && (this.#operation.status !== TaskStatus.PENDING || !this.#run)) {
      this.#run = {};
      void this.#operation.run([s.running, input]);
    }
  }

  async #perform(op: Operation, input: string, signal: AbortSignal): Promise<CredentialsEvent> {
    const [svc, { addCredential, failureOf, loadView, revokeCredential, revokeSession, sendActivationCode, updateEmail }] = await this.#services(signal);
    const { accountId } = this;
    const codeKey = this.#codeKey;
    const run = this.#run;
    // A code sent for this run's wallet; the element keeps it only while that run counts.
    const awaitCode = (otp: OtpLogin) => {
      keepPendingCode(codeKey, otp, Date.now());
      if (run === this.#run) this.#otp = otp;
    };
    const before = (this.machine as Ready).view as Ready['view'] | undefined;
    let codeFor: string | undefined;
    let changed: AuthMethod | undefined;
    let notice: Extract<CredentialsEvent, { type: 'SUCCEEDED' }>['notice'];
    let failure: CredentialsFailure | undefined;
    let ended: string[] | undefined;
    switch (op.op) {
      case 'add': {
        // Found in the list after its answer was lost, an SMS credential gets its code from a challenge.
        const method = await addCredential(svc, op.type, this.oidcTokenProvider, before?.credentials.map((c) => c.id) ?? []);
        changed = method;
        this.dispatchEvent(new CredentialAddedEvent({ accountId, credentialId: method.id, type: method.type }));
        // api.md step (4): an OTP credential is activated through its own verify flow, starting with
        // a code. Until that code is entered it logs nobody in, so it is not called added yet.
        if (method.type === 'SMS_OTP') {
          codeFor = method.id;
          awaitCode(await sendActivationCode(svc, method));
          notice = { kind: 'activation-sent' };
        } else notice = { kind: 'added', type: method.type };
        break;
      }
      case 'resend-code': {
        // A new challenge on the credential sends a new code (reference.md: a fresh target bundle).
        codeFor = op.id;
        awaitCode(await svc.wallet.startOtpLogin({ credentialId: op.id, signal }));
        notice = { kind: 'code-sent' };
        break;
      }
      case 'verify-code': {
        if (!this.#otp) throw new Error('No code was sent.');
        const session = await this.#otp.submit(input, { signal });
        notice = { kind: 'activated', type: session.credentialType };
        break;
      }
      case 'revoke-credential': {
        const method = (changed = before?.credentials.find((c) => c.id === op.id));
        await revokeCredential(svc, op.id);
        if (method) this.dispatchEvent(new CredentialRevokedEvent({ accountId, credentialId: method.id, type: method.type }));
        notice = { kind: 'credential-revoked' };
        break;
      }
      case 'revoke-session': {
        const own = before?.current?.sessionId === op.id;
        // A logout ends every session this device holds: each one is named. Cut off partway, it
        // logged this device out all the same (core deletes its keys); the sessions it had ended
        // are named, and the failure says the others could not be (they stay listed).
        ended = await revokeSession(svc, op.id, own).catch((e: { ended?: string[] }) => {
          if (!e?.ended) throw e;
          failure = { ...failureOf(e, op.op), code: 'logout_incomplete' };
          return e.ended;
        });
        for (const sessionId of ended) this.dispatchEvent(new SessionRevokedEvent({ accountId, sessionId, current: own }));
        notice = { kind: 'session-revoked', own };
        break;
      }
      case 'update-email':
        await updateEmail(svc, input);
        notice = { kind: 'email-updated' };
    }
    // Done upstream: a failed reload of the lists must not turn it into a failure (nor lose the
    // activation code). The lists then show the change as made here, and load again.
    let view;
    try {
      view = await loadView(svc);
    } catch (e) {
      if (signal.aborted || !before) throw e;
      view = afterChange(before, op, changed, ended);
      setTimeout(() => void this.#loader.run());
    }
    return { type: 'SUCCEEDED', view, notice, codeFor, failure };
  }

  #send(event: CredentialsEvent): void {
    const before = this.machine;
    const after = transition(before, event);
    const ran = (before as Ready).running?.op;
    // Every failed load is told (the first, or one over the lists shown, even during a change), and
    // a new failure of a change.
    const load = event.type === 'LOAD_FAILED';
    const f = load ? event.failure : (after as Ready).failure !== (before as Ready).failure && (after as Ready).failure;
    // (The same state again is no change for Lit.)
    this.machine = after;
    if (f) this.dispatchEvent(new WalletCredentialsErrorEvent({ code: f.code, message: failureMessage(this.#i18n.t, f), operation: load ? 'load' : ran!, ...(f.status ? { status: f.status } : {}) }));
    if (after === before || after.kind !== 'ready') return;
    // (A failed load that is shown ran over no change.)
    if (f) {
      // Only a code's own step (verify, send again) speaks to the code form.
      if (after.codeFor && ran?.endsWith('-code')) {
        // A used-up code: the way on is a new one, so "Send a new code" takes the focus.
        this.#focusTarget = f.code === 'code_expired' ? '#resend' : '#code';
        // Only a wrong or used-up code is cleared: after a server or network failure it may still be good.
        if (this.#codeInput && isCodeProblem(f)) this.#codeInput.value = '';
      }
    }
    const waited = (before as Ready).codeFor;
    // The code was used or abandoned (a reload, LOAD, keeps it).
    if (waited && !after.codeFor) {
      this.#otp = undefined;
      forgetPendingCode(this.#codeKey);
    }
    // A code form that opens takes the focus, except one resumed after a reload (the page decides).
    if (after.codeFor && !waited && event.type !== 'RESUMED') this.#focusTarget = '#code';
    // (A code form's Cancel goes with its form: updated() hands its focus to the heading.)
    // A change done, the heading takes the focus. A removal's only when the keyboard is still on the
    // row that went, where updated() hands it to the row taking its place, as for a row gone by a
    // change from elsewhere. The keyboard is moved only from inside, from nowhere, or from where it
    // was as the change was asked for, not from where the user went meanwhile (the page's other controls).
    const ours = event.type === 'SUCCEEDED' && mayFocus(this, false, this.#focusFrom);
    const row = (this.renderRoot as ShadowRoot).activeElement?.closest('li');
    if (ours && !after.codeFor && !row && !ran?.startsWith('revoke')) this.#focusTarget = '#heading';
    // Another change made while a code is awaited: the row whose button had the focus may be gone,
    // and the code is what the user was doing, so the keyboard goes back to it (by the same rule).
    if (ours && after.codeFor && waited && !ran?.endsWith('-code')) this.#focusTarget = '#code';
    // A confirmation answered or dismissed hands the focus back to the button that opened it, which
    // stays (aria-disabled) while the removal runs; its row goes only once the removal succeeded.
    const asked = (before as Ready).confirming;
    if (asked && 'id' in asked && (event.type === 'CONFIRM' || event.type === 'CANCEL')) this.#focusTarget = rowButton(asked.id);
  }

  // -------------------------------------------------------------------------------------------
  // Rendering

  protected override render(): TemplateResult {
    const t = this.#i18n.t;
    const s = this.machine;
    // A wrong or used-up code is said under the code field (codeForm), not in the panel's alert at the bottom.
    const failure = s.kind === 'loading' || (s.kind === 'ready' && s.codeFor && isCodeProblem(s.failure)) ? undefined : s.failure;
    const n = (s as Ready).notice;
    const bad = this.badId(['account-id', 'customer-id']);
    // A failure said in its row (still listed) is only announced here, not drawn a second time.
    const inRow = s.kind === 'ready' && s.about && [...s.view.credentials, ...s.view.sessions, { id: 'SMS_OTP' }, { id: 'OAUTH' }].some((x) => x.id === s.about);
    return html`
      <section part="base" class="panel stack" aria-labelledby="heading">
        <h2 part="heading" id="heading" tabindex="-1" aria-level=${this.level()}>${t('credentials.heading')}</h2>
        ${bad || !this.accountId
          ? html`<p>${t(bad ? 'common.bad-id' : 'common.missing-account', { attribute: bad! })}</p>`
          : s.kind === 'loading'
            ? html`<p class="muted">${t('credentials.loading')}</p>`
            : s.kind === 'load-failed'
              ? html`<p>${t('credentials.load-failed')}</p>
                  ${s.failure.code === 'load_failed'
                    ? nothing
                    : html`<div class="row"><button part="button" type="button" @click=${() => ((this.#focusTarget = '#heading'), this.reload())}>${t('credentials.reload')}</button></div>`}`
              : this.#ready(s)}
        <p part="error" id="error" class="live ${inRow ? 'visually-hidden' : ''}" role="alert">${failure ? failureMessage(t, failure) : this.emailInvalid ? t('credentials.email.invalid') : ''}</p>
        <p part="status" class="live" role="status">${n
            ? t(`credentials.notice.${n.kind === 'session-revoked' && n.own ? 'own-session-revoked' : n.kind}`, { type: 'type' in n ? t(`credential.${n.type}`) : '' })
            : ''}</p>
      </section>
    `;
  }

  #ready(s: Ready): TemplateResult {
    const t = this.#i18n.t;
    const { view, running } = s;
    return html`
      <ul part="credentials" aria-labelledby="heading"></ul>
      ${s.codeFor ? this.#codeForm(s) : nothing}
      <h3 aria-level=${this.level(1)}>${t('credentials.add.heading')}</h3>
      <div class="stack">
        ${(['SMS_OTP', 'OAUTH'] as const).map((type) => {
          const hint = !canAdd(view, type) ? t(`credentials.add.${type}.exists`) : type === 'OAUTH' && !this.oidcTokenProvider ? t('credentials.add.OAUTH.missing') : '';
          const [describedBy, said] = this.#said(s, type, type, hint);
          return html`<div class="row">
            <button
              part="add-button"
              type="button"
              data-type=${type}
              aria-describedby=${describedBy}
              ?disabled=${!hint && !view.current}
              aria-disabled=${hint || running ? 'true' : nothing}
              @click=${() => hint || this.#request({ op: 'add', type })}
            >
              ${t(`credentials.add.${type}`)}
            </button>
            ${said}
          </div>`;
        })}
      </div>
      ${view.current ? nothing : html`<p part="hint">${t('credentials.block.login')}</p>`}
      <h3 id="sessions-heading" aria-level=${this.level(1)}>${t('credentials.sessions.heading')}</h3>
      ${view.sessions.length
        ? html`<ul part="sessions" aria-labelledby="sessions-heading"></ul>`
        : html`<p class="muted">${t('credentials.sessions.none')}</p>`}
      ${this.customerId ? this.#emailForm(s) : nothing}
    `;
  }

  /**
   * What is said under a button (`key`: its row's id, or the type it adds; `x`: that key as an id):
   * why it cannot be used (`hint-x`), and why its change just failed (`error-x`, beside the button
   * the keyboard is still on). Returns its aria-describedby and the two.
   */
  #said(s: Ready, key: string, x: string, hint: string) {
    const error = s.about === key && s.failure ? failureMessage(this.#i18n.t, s.failure) : '';
    return [
      [hint && `hint-${x}`, error && `error-${x}`].filter(Boolean).join(' ') || nothing,
      html`${hint ? html`<span part="hint" id="hint-${x}">${hint}</span>` : nothing}${error ? html`<span part="row-error" class="error" id="error-${x}">${error}</span>` : nothing}`,
    ] as const;
  }

  /** The name a screen reader hears for a credential: its kind, and its email, phone or label. */
  #credentialName(c: AuthMethod): string {
    // Unicode isolates (FSI ... PDI) keep an email or a `+1...` phone whole inside right-to-left text.
    return `${this.#i18n.t(`credential.${c.type}`)}${c.nickname ? ` (\u2068${c.nickname}\u2069)` : ''}`;
  }

  /**
   * What the lists' state makes of a row: "This device" on every session it holds, and on their
   * credentials (not on one whose key the browser lost: this device can sign nothing with it any
   * more); "Log out here" on the one it signs with; why it cannot be removed; whether it may be, and
   * whether a change runs.
   */
  #facts({ view, running }: Ready, item: AuthMethod | AuthSession) {
    const session = 'expiresAt' in item;
    const block = session ? null : revokeBlock(view, item.id);
    return [
      view.held.some((s) => !s.keyMissing && (session ? s.sessionId : s.credentialId) === item.id),
      session && view.current?.sessionId === item.id,
      block,
      // (A session row is one the service lists: allowed() asks no more of it than a session here.)
      session ? !!view.current : !block,
      !!running,
    ] as const;
  }

  /** A credential row, or a session row (a session has `expiresAt`): its `<li>`'s attributes, and its kind, "This device", and its removal button. */
  #row(s: Ready, item: AuthMethod | AuthSession, li: HTMLLIElement): TemplateResult {
    const t = this.#i18n.t;
    const session = 'expiresAt' in item;
    const [here, own, block, enabled] = this.#facts(s, item);
    // "Log in to make changes" is said once, under the add buttons.
    const hint = block && block !== 'login' ? t(`credentials.block.${block}`) : '';
    const [describedBy, said] = this.#said(s, item.id, item.id.replace(/[^a-zA-Z0-9-]/g, ''), hint);
    const operation: Operation = { op: session ? 'revoke-session' : 'revoke-credential', id: item.id };
    const name = t(`credential.${item.type}`);
    const until = session ? t('credentials.sessions.until', { time: format(Intl.DateTimeFormat, this.#i18n.locale, { hour: 'numeric', minute: '2-digit' }).format(new Date(item.expiresAt)) }) : '';
    // Names start with the button's visible words (WCAG 2.5.3) and tell rows of one type apart.
    const label = session ? (own ? t('credentials.sessions.logout') : t('credentials.sessions.end-label', { name, until })) : t('credentials.remove-label', { name: this.#credentialName(item) });
    if (!li.dataset.id) {
      li.setAttribute('part', session ? 'session' : 'credential');
      li.dataset.id = item.id;
      li.dataset.type = item.type;
    }
    return html`<span class="name">
        <span part="credential-type">${name}${here ? html`<span part="badge">${t('credentials.this-device')}</span>` : nothing}</span>
        <span part="credential-name"
          >${session ? until : html`<bdi>${item.nickname}</bdi>`}</span
        >
      </span>
      <button
        part="revoke-button"
        type="button"
        aria-label=${label}
        aria-describedby=${describedBy}
        ?disabled=${!enabled && !hint}
        aria-disabled=${hint || s.running ? 'true' : nothing}
        @click=${() => this.#request(operation)}
      >
        ${session ? t(own ? 'credentials.sessions.logout' : 'credentials.sessions.end') : t('credentials.remove')}
      </button>
      ${said}
      ${
        // The question opens under the row it is about: "End this session?" says which one by its place.
        (s.confirming as { id?: string } | undefined)?.id === item.id ? this.#confirmation(s, s.confirming!) : nothing
      }`;
  }

  #confirmation(s: Ready, op: Operation): TemplateResult {
    const t = this.#i18n.t;
    const credential = op.op === 'revoke-credential' ? s.view.credentials.find((c) => c.id === op.id) : undefined;
    // A session this device holds: the one it signs with (a logout), or another (of any credential: this device stays logged in with the first).
    const holder = op.op === 'revoke-session' && (op.id === s.view.current?.sessionId ? 'own-' : s.view.held.some((h) => h.sessionId === op.id) ? 'other-' : '');
    const question = holder !== false ? t(`credentials.confirm.${holder}session`) : t('credentials.confirm.credential', { name: credential ? this.#credentialName(credential) : '' });
    // Escape answers "no", as the Cancel button does.
    const escape = (e: KeyboardEvent) => e.key === 'Escape' && (e.preventDefault(), this.#send({ type: 'CANCEL' }));
    return html`<div part="confirm" class="stack" role="group" aria-labelledby="confirm-question" @keydown=${escape}>
      <p id="confirm-question">${question}</p>
      <div class="row">
        <button part="button" class="danger" type="button" @click=${() => (this.#send({ type: 'CONFIRM' }), this.#start())}>${t('credentials.confirm.yes')}</button>
        <button part="button" type="button" @click=${() => this.#send({ type: 'CANCEL' })}>${t('common.cancel')}</button>
      </div>
    </div>`;
  }

  #codeForm(s: Ready): TemplateResult {
    const t = this.#i18n.t;
    const busy = !!s.running;
    const wrong = isCodeProblem(s.failure);
    const resend: Operation | undefined = s.codeFor ? { op: 'resend-code', id: s.codeFor } : undefined;
    const submit = (e: SubmitEvent) => {
      e.preventDefault();
      // (The field keeps its digits only: codeInput.)
      const code = this.#codeInput!.value;
      // A code short of digits is not sent: the service would count it as one of its tries.
      if (code.length === 6 && s.codeFor) this.#request({ op: 'verify-code', id: s.codeFor }, code);
      else {
        if (code && this.machine === s) this.machine = { ...s, failure: { code: 'code_short' }, about: undefined };
        this.#codeInput?.focus();
      }
    };
    return html`<form part="code-form" class="stack" novalidate @submit=${submit}>
      <div class="field">
        <label for="code">${t('credentials.code.label')}</label>
        ${codeInput({ length: 6, invalid: wrong, readonly: busy, describedBy: 'code-error code-help' })}
        <span id="code-error" class="error" role="alert">${wrong ? failureMessage(t, s.failure!) : ''}</span>
        <span id="code-help" class="muted">${t('credentials.code.help')}</span>
      </div>
      <div class="row">
        <button part="submit" class="primary" type="submit" aria-disabled=${busy ? 'true' : nothing}>${t('credentials.code.submit')}</button>
        <button part="button" id="resend" type="button" aria-disabled=${busy ? 'true' : nothing} @click=${() => resend && this.#request(resend)}>${t('credentials.code.resend')}</button>
        <button part="button" type="button" ?disabled=${busy} @click=${() => this.#send({ type: 'CANCEL', code: true })}>${t('common.cancel')}</button>
      </div>
    </form>`;
  }

  #emailForm(s: Ready): TemplateResult {
    const t = this.#i18n.t;
    // The email login follows the customer's email (api.md "PATCH /customers"): a typo here sends its codes astray.
    const tied = s.view.credentials.some((c) => c.type === 'EMAIL_OTP');
    const describedBy = [tied && 'email-help', this.emailInvalid && 'error'].filter(Boolean).join(' ');
    const submit = (e: SubmitEvent) => {
      e.preventDefault();
      const email = this.#emailInput!.value.trim();
      this.emailInvalid = !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
      if (s.running) return;
      if (this.emailInvalid) this.#emailInput!.focus();
      else this.#request({ op: 'update-email' }, email);
    };
    return html`<h3 aria-level=${this.level(1)}>${t('credentials.email.heading')}</h3>
      <form part="email-form" class="stack" novalidate @submit=${submit}>
        <div class="field">
          <label for="email">${t('credentials.email.label')}</label>
          <input
            part="input"
            id="email"
            name="email"
            type="email"
            dir="ltr"
            autocomplete="email"
            aria-invalid=${this.emailInvalid}
            aria-describedby=${describedBy || nothing}
            @input=${() => (this.emailInvalid = false)}
          />
          ${tied ? html`<span id="email-help" class="muted">${t('credentials.email.help')}</span>` : nothing}
        </div>
        <div class="row">
          <button part="submit" class="primary" type="submit" ?disabled=${!s.view.current} aria-disabled=${s.running ? 'true' : nothing}>${t('credentials.email.submit')}</button>
        </div>
      </form>`;
  }
}

defineElement('wallet-credentials', WalletCredentials);

declare global {
  interface HTMLElementTagNameMap {
    'wallet-credentials': WalletCredentials;
  }
}
