/**
 * <agent-actions>: an agent's own actions (api.md "GET {base_url}/agents/me/actions") with a status
 * filter and cursor paging ("load more"), kept up to date by polling for approval decisions with
 * backoff (core/agent.ts `pollAgentActions`), which stops when the element disconnects and waits while
 * the page is hidden.
 *
 * The poller watches the agent's PENDING_APPROVAL actions: a loaded pending action that leaves that
 * list has been decided, so it is read again (GET /agents/me/actions/{id}; many decided at once, from
 * a page or a few of the list: `readActions`) and shown with its new status, rejection reason or
 * resulting transaction, and `agent-action-changed` is dispatched.
 * An approved action whose transaction has not settled is read again at each poll, since its
 * execution may still fail.
 * A new action that matches the filter appears on top: a pending one, or one decided since the
 * last poll (under a filter such as "Approved"), even one submitted and decided between two polls:
 * under any filter but "Waiting for approval", each poll also reads the filter's first page (newest
 * first, as the list is; one request, page-size long) and takes the actions newer than any shown.
 *
 * The agent's Bearer token is the `agentToken` property, supplied by the integrator: it is passed to
 * core per call and never reflected to an attribute, stored, logged or put into an event.
 * The calls, the poller and the reading of their failures are agent-actions.flows.ts, loaded with
 * import() once the first screen (the heading, the filter, the loading state) is painted.
 * Deliberately not here: approving or rejecting (a platform-side call with Basic credentials).
 */
import { html, nothing } from 'lit/html.js';
import { TemplateElement } from '../shared/template.ts';
import { defineElement, type PropertyValues } from '../shared/reactive.ts';
import { Task } from '../shared/task.ts';
import { baseStyles, THEME } from '../shared/styles.ts';
import { API_BASE, API_BASE_HINT } from '../shared/config.ts';
import { listStyles } from '../shared/list-styles.ts';
import { errorDetail, formatDate, isAbort, onOnline, syncStates, mayFocus } from '../shared/list.ts';
import { asText, keyedRows } from '../shared/rows.ts';
import { isolate, LocaleController, localeChanges } from '../shared/i18n.ts';
import { SlowWatch } from '../shared/slow.ts';
import { onceAfterFirstPaint } from '../shared/idle.ts';
import { LoadFailed, loadFailureCode } from '../shared/load.ts';
import type { Send } from '../../core/signed-retry.ts';
import type { IterateAgentActionsOptions } from '../../core/client.ts';
import type { AGENT_ACTION_STATUSES, AGENT_ACTION_TYPES, AgentAction, AgentActionList, Currency } from '../../core/types.ts';
import { formatMinor } from '../delegated-keys/money.ts';
import { agentActionsStyles } from './agent-actions.styles.ts';
import './agent-actions.strings.ts';
import {
  decidedSince,
  executing,
  initialState,
  statusChanges,
  transition,
  type AgentActionsErrorCode,
  type AgentActionsEvent,
  type AgentActionsState,
  type StatusFilter,
} from './agent-actions.machine.ts';
import { AgentActionChangedEvent, AgentActionsErrorEvent } from './agent-actions.events.ts';
import { format } from '../shared/formats.ts';

export { AgentActionChangedEvent, AgentActionsErrorEvent } from './agent-actions.events.ts';

/** The calls to the service (the three agent endpoints, the poller), once the first screen is painted. */
const flows = onceAfterFirstPaint(() => import('./agent-actions.flows.ts'));
type Flows = Awaited<ReturnType<typeof flows>>;

// core/types.ts's statuses and types, written out (`satisfies` keeps them the same): an import of
// that module, which every element's calls load on demand, would make it a file of its own in the
// CDN build, one more for each element.
const TYPES = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] as const satisfies typeof AGENT_ACTION_TYPES;
const FILTERS: readonly StatusFilter[] = ['ALL', ...(['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const satisfies typeof AGENT_ACTION_STATUSES)];

function isFilter(v: unknown): v is StatusFilter {
  return typeof v === 'string' && (FILTERS as readonly string[]).includes(v);
}

/** `value` when it is a positive number of milliseconds, else `fallback`. */
const positiveOr = (value: number, fallback: number): number => (Number.isFinite(value) && value > 0 ? value : fallback);

/**
 * An agent's actions, with approval decisions arriving live.
 *
 * @summary Lists an agent's own actions with a status filter and "load more", and polls for approval decisions.
 *
 * @event agent-action-changed - An action's status changed while shown. `detail: { action, previousStatus }`.
 * @event agent-actions-error - Loading, "load more" or polling failed. `detail: { code, message, operation, status? }`. `load_failed`: the element's code, loaded on demand, did not arrive (asked for twice); `message` says to check the connection, then reload the page (offline it is not asked for: `network`, whose "Try again" works once online).
 *
 * @csspart base - The wrapper of everything.
 * @csspart header - Title and filter.
 * @csspart filter - The status `<select>`.
 * @csspart list - The list of actions.
 * @csspart action - One action.
 * @csspart status - An action's status badge.
 * @csspart footer - Count and "load more".
 * @csspart load-more-button - The "load more" button.
 * @csspart error - The alert region.
 *
 * @cssproperty --agent-actions-gap - Space between parts.
 * @cssproperty --agent-actions-item-background - Background of an action card.
 * @cssproperty --agent-actions-pending-color - Color of the "waiting for approval" badge.
 * @cssproperty --agent-actions-approved-color - Color of the "approved" badge.
 * @cssproperty --agent-actions-rejected-color - Color of the "rejected" and "failed" badges.
 *
 * @cssstate idle - Nothing is read: no agent token, or the element left the page.
 * @cssstate loading - The first page of actions is being read.
 * @cssstate ready - The actions are shown.
 * @cssstate failed - Reading the actions failed.
 * @cssstate polling - Polling for approval decisions.
 */
export class AgentActions extends TemplateElement {
  static override styles = [baseStyles, listStyles, agentActionsStyles];

  static override properties = {
    agentToken: { attribute: false },
    status: { reflect: true, useDefault: true },
    pageSize: { attribute: 'page-size', type: Number, useDefault: true, min: 1, max: 100, step: 1 },
    pollInterval: { attribute: 'poll-interval', type: Number, useDefault: true, min: 100 },
    pollMaxInterval: { attribute: 'poll-max-interval', type: Number, useDefault: true, min: 100 },
    apiBase: { attribute: 'api-base', match: API_BASE, hint: API_BASE_HINT },
    theme: { reflect: true, match: THEME },
    view: { state: true },
    pollTrouble: { state: true },
    recentlyChanged: { state: true },
    said: { state: true },
  };

  /**
   * The agent's access token (its Bearer token with the service). A property only: never an
   * attribute, never stored; set it to '' to stop.
   */
  agentToken = '';

  /** The status shown first (`ALL`, `PENDING_APPROVAL`, `APPROVED`, `REJECTED`, `FAILED`). */
  status: StatusFilter = 'ALL';

  /** Actions per page, 1 to 100 (the service's limit). */
  pageSize = 20;

  /** First delay between polls, and the delay after a change (ms). Changed while polling, it applies at once (the next poll still waits out a Retry-After the service gave). Nothing is read while the page is hidden; one check goes as soon as it is shown again. */
  pollInterval = 2000;

  /** The backoff's ceiling (ms). Changed while polling, it applies at once (the next poll still waits out a Retry-After the service gave). */
  pollMaxInterval = 60000;

  /** The proxy's base path for this element (overrides configureWallet's `apiBase`). Only this page's origin or that of configureWallet's `apiBase` is followed: another is refused (`misconfigured`) and sent nothing. One that is neither a path from `/`, `./` or `../` nor an http(s) address (a bare `wallet.example.com`, `api`) is said on the console, with what to write instead, and ignored. */
  apiBase: string | undefined;

  /** Light or dark regardless of the system setting (shared base styles). */
  theme: 'light' | 'dark' | undefined;

  private view: AgentActionsState = initialState;
  private pollTrouble = false;
  private recentlyChanged: ReadonlySet<string> = new Set();
  /**
   * What the polite status region says (the list itself is not live): the decisions and the new
   * pending actions of the last poll that brought any, or what a load brought when the filter changed
   * or "Loading actions…" was said. `n` counts what was said, so that each saying comes in new nodes.
   */
  private said: Said = { decisions: [], waiting: 0, loaded: false, n: 0 };
  /** "Loading actions…" only for a load that lasts (shared/slow.ts). */
  readonly #loading = new SlowWatch(this, () => this.view.status.kind === 'loading');
  /** The load under way is for another filter than the one shown before it: what it brings is said. */
  #refiltered = false;

  readonly #i18n = new LocaleController(this);
  readonly #internals = this.attachInternals?.();
  #poller: AbortController | undefined;
  /** What checkNow() calls wait on: the end of the next poll that runs to its end, or of polling. */
  #checks: (() => void)[] = [];
  /** The handling of the running poll's list (onPending), once the poller handed it over. */
  #handling: Promise<unknown> | undefined;
  #focusAfterMore: number | undefined;
  /**
   * The end of the service's last Retry-After for a page, a poll or a decision's read: every poll
   * and first page keeps to it, and "load more" waits it out, for another agent or api-base as well
   * (rate limits are not shown in api.md, and the proxy counts requests per client, not per token).
   */
  #notBefore = 0;
  #needsLoad = true;
  /** What the poller last saw pending, and decisions whose read failed: read again once decided, shown or not. */
  #wasPending: readonly string[] = [];
  /** The poll's first page when it is the unfiltered list's first 100 (else false): its reads of decisions start from it. */
  #hundred: AgentActionList | false | void = false;
  /** The latest handling of the poller's list (onPending): an earlier one still reading reports nothing. */
  #latestRead: object | undefined;
  /**
   * Back online, a first page that failed for want of a connection is read again. (Once it is shown,
   * the poller listens for the way back online itself, keeping to a Retry-After.)
   */
  readonly #online = onOnline(this, () => {
    const { status } = this.view;
    if (status.kind === 'failed' && status.code === 'network') this.reload();
  });

  /** One page: the first (cursor undefined) or the next. The generation drops stale pages. */
  readonly #pageTask = new Task(this, {
    task: async ([generation, cursor]: readonly [number, string | undefined], { signal }) => {
      const filter = this.view.filter;
      // (A run stopped while they load reports no failure of theirs: the element left, or another run began.)
      const { clampPageSize, listAgentActions, sendFor } = (this.#flows = await flows().finally(() => signal.throwIfAborted()));
      // A first page (a reload, Try again, another agent or filter) keeps to the service's last
      // Retry-After as a poller does: it is the same request. (A run replaced meanwhile sends nothing.)
      if (!cursor) await this.#held();
      const page: AgentActionList = await listAgentActions(sendFor(this.apiBase), {
        agentToken: this.agentToken,
        limit: clampPageSize(this.pageSize),
        ...(filter === 'ALL' ? {} : { status: filter }),
        ...(cursor ? { cursor } : {}),
        signal,
      });
      return { generation, page, append: cursor !== undefined };
    },
    onComplete: ({ generation, page, append }) => {
      this.#send({ type: 'page', generation, page, append });
      if (!append) this.#startPolling();
    },
    onError: (error) => {
      if (isAbort(error)) return;
      const append = this.view.loadingMore;
      const code = this.#codeOf(error);
      // A 401 on "load more" is one on a poll: polling stops at once and the list gives way to the message.
      if (append && (error as { status?: number }).status == 401) return this.#refused('load-more', code, error);
      this.#send({ type: 'failed', generation: this.view.generation, code, append });
      this.#reportError(append ? 'load-more' : 'load', code, error);
      // The service said how long to wait (Retry-After; after "load more", 5 s when it did not).
      if (code === 'rate_limited') this.#hold(error, append ? 5 : 0);
    },
  });

  /** Reloads the first page (keeps the filter). */
  reload(): void {
    this.#stopPolling();
    this.#wasPending = [];
    this.#send({ type: 'load', filter: isFilter(this.status) ? this.status : 'ALL' });
    if (this.agentToken) void this.#pageTask.run([this.view.generation, undefined]);
  }

  /**
   * Checks for decisions and new actions now instead of at the next (backed-off) poll: for pages
   * that know something changed, such as a back office that has just decided. While a wait the
   * service asked for (Retry-After) runs, the check is made as soon as it has passed (and while the
   * page is hidden, once it is shown). Resolves once that check is done and what it found is shown,
   * or its failure is (the list says so); at once when no list is shown to check; and when polling
   * stops first (the element left the page, another agent, filter or a reload). Two calls close
   * together make one check, which both wait for.
   */
  checkNow(): Promise<void> {
    if (!this.#poller || this.view.status.kind !== 'ready') return Promise.resolve();
    const done = new Promise<void>((resolve) => this.#checks.push(resolve));
    this.#startPolling();
    return done;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // First connected, or back after leaving: load in the next update, once every property set
    // before connecting is known. Moved in the page, it keeps its list and its poller.
    if (this.#needsLoad) this.requestUpdate();
    this.#syncStates();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Polling is for while someone watches; nothing runs once the element is gone. A framework that
    // moves it connects it again in the same task: then nothing stops, and nothing is read again.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.#stopPolling();
      this.#pageTask.abort();
      this.#send({ type: 'reset' });
      this.#needsLoad = true;
    });
  }

  protected override willUpdate(changed: PropertyValues): void {
    // The first new action of "load more" takes the focus from the element or from nowhere (a click
    // that focuses no button), not from another part of the page it went to meanwhile.
    if (!this.view.loadingMore && !mayFocus(this)) this.#focusAfterMore = undefined;
    if (changed.has('agentToken') || changed.has('status') || changed.has('apiBase') || changed.has('pageSize')) this.#needsLoad = true;
    if (!this.#needsLoad || !this.isConnected) {
      // A new poll interval or ceiling takes effect at once: a running poller starts over with it.
      if (changed.has('pollInterval') || changed.has('pollMaxInterval')) void this.checkNow();
      return;
    }
    this.#needsLoad = false;
    if (this.agentToken) {
      this.reload();
    } else {
      this.#stopPolling();
      this.#pageTask.abort();
      this.#send({ type: 'reset' });
    }
  }

  /** "Try again" goes while the list loads: the heading keeps the keyboard meanwhile. */
  #retry(): void {
    this.reload();
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#title')?.focus());
  }

  #loadMore(): void {
    const before = this.view;
    if (Date.now() < this.#notBefore) return;
    this.#send({ type: 'load-more' });
    if (this.view === before) return;
    this.#focusAfterMore = before.actions.length;
    void this.#pageTask.run([this.view.generation, this.view.nextCursor]);
  }

  #onFilter(e: Event): void {
    const value = (e.target as HTMLSelectElement).value;
    if (isFilter(value)) this.status = value;
  }

  #send(event: AgentActionsEvent): void {
    const before = this.view;
    const next = transition(before, event);
    if (next === before) return;
    this.view = next;
    if (event.type === 'updated') {
      const changes = statusChanges(before, next);
      for (const { action, previousStatus } of changes) this.dispatchEvent(new AgentActionChangedEvent(action, previousStatus));
      if (changes.length > 0) this.recentlyChanged = new Set(changes.map((c) => c.action.id));
      // Actions new to the list: pending ones are said as waiting, decided ones (under a filter
      // such as "Approved") with the decisions.
      const known = new Set(before.actions.map((a) => a.id));
      const arrived = next.actions.filter((a) => !known.has(a.id));
      const waiting = arrived.filter((a) => a.status === 'PENDING_APPROVAL').length;
      // Arrived on top while "load more" loads: its first action comes that much further down.
      if (this.#focusAfterMore !== undefined) this.#focusAfterMore += arrived.length;
      const decisions = [...changes.map((c) => c.action), ...arrived.filter((a) => a.status !== 'PENDING_APPROVAL')];
      if (decisions.length || waiting) this.#say({ decisions, waiting });
    } else if (event.type === 'load' || event.type === 'reset') {
      // The trouble of the poller before is not that of the next (another agent, filter or base).
      this.pollTrouble = false;
      this.#refiltered = before.status.kind !== 'idle' && next.filter !== before.filter;
      this.#say();
    } else if (event.type === 'page' && !event.append && (this.#refiltered || this.#loading.slow)) {
      this.#say({ loaded: true });
    }
    this.#syncStates();
  }

  /** Puts what is to be said in the polite status region, in new nodes even if its words are those said last. */
  #say(what: Partial<Said> = {}): void {
    this.said = { decisions: [], waiting: 0, loaded: false, ...what, n: this.said.n + 1 };
  }

  /** The flows once this element has them: until then, only their load can have failed. */
  #flows: Flows | undefined;

  /** What `error` means (flows.ts errorCodeOf); a load that failed (LoadFailed) is read without the flows, which may be what did not load. */
  #codeOf(error: unknown): AgentActionsErrorCode {
    return this.#flows && !(error instanceof LoadFailed) ? this.#flows.errorCodeOf(error) : loadFailureCode(error);
  }

  #reportError(operation: 'load' | 'load-more' | 'poll', code: AgentActionsErrorCode, error: unknown): void {
    this.dispatchEvent(new AgentActionsErrorEvent(errorDetail(error, { code, operation, message: this.#i18n.t(`agent-actions.error.${code}`) })));
  }

  #startPolling(): void {
    this.#stopPolling(true);
    const token = this.agentToken;
    // (Started once a first page came, with the flows that read it.)
    const f = this.#flows;
    if (!token || !this.isConnected || !f) return this.#checked();
    const controller = new AbortController();
    this.#poller = controller;
    const send = f.sendFor(this.apiBase);
    const signal = controller.signal;
    this.#syncStates();
    // Back online (a phone out of coverage): one poll now, not at the end of the delay its failed polls
    // backed off to; but, as any new poller, not before the end of a wait the service asked for.
    addEventListener('online', () => void this.checkNow(), { signal });
    // Nothing is read while the page is hidden (#held): no one is there to see it. Shown again, one
    // poll at once, not at the end of the delay the poller had backed off to.
    addEventListener('visibilitychange', () => void this.checkNow(), { signal });
    // An attribute that is no number ("2s") means the default, not a poller that cannot start.
    const min = Math.max(100, positiveOr(this.pollInterval, 2000));
    f.pollAgentActions({
      // Each poll keeps to the hold as it is when it goes, a later one from "load more" too.
      client: { iterateAgentActions: (options) => this.#polled(this.#afterHold(f, send, options), signal) },
      agentToken: token,
      status: 'PENDING_APPROVAL',
      signal,
      limit: 100,
      minDelayMs: min,
      maxDelayMs: Math.max(min, positiveOr(this.pollMaxInterval, 60000)),
      onChange: (pending) => (this.#handling = this.#onPending(f, pending, signal, send, token)),
      onError: (error) => {
        if (signal.aborted) return;
        this.#hold(error);
        if (!this.pollTrouble) this.#reportError('poll', f.errorCodeOf(error), error);
        this.pollTrouble = true;
      },
    }).catch((error: unknown) => {
      // Only a 401 ends the poller with an error: the token is no good any more.
      if (!signal.aborted && !isAbort(error)) this.#refused('poll', f.errorCodeOf(error), error);
    });
  }

  /** A 401 of a poll or "load more": polling stops, and the list fails with its message (and "Try again" when a sign-in can help). */
  #refused(operation: 'poll' | 'load-more', code: AgentActionsErrorCode, error: unknown): void {
    this.#stopPolling();
    this.#reportError(operation, code, error);
    this.#send({ type: 'load' });
    this.#send({ type: 'failed', generation: this.view.generation, code, append: false });
  }

  /**
   * The poller's list, asked for once the hold has passed: the pending actions, then (under another
   * filter than "Waiting for approval") the filter's first page, newest first, for an action
   * submitted and decided since the last poll, which was never pending here. Under "All" that page
   * is read first, and is the whole poll when it holds every action shown waiting for approval (or
   * whose read failed) and every action new since the last poll (it reaches one known, or is the
   * whole list): its copies carry the decisions, one request a poll. That page goes as deep as the
   * deepest of those shown (up to 100), so that one pushed off the first page by newer ones is still
   * on it at the next poll.
   */
  async *#afterHold({ clampPageSize, iterateAgentActions, listAgentActions }: Flows, send: Send, options: IterateAgentActionsOptions): AsyncGenerator<AgentAction, void, undefined> {
    await this.#held();
    const { filter, actions } = this.view;
    const watched = [...actions.filter((a) => a.status === 'PENDING_APPROVAL').map((a) => a.id), ...this.#wasPending];
    const deepest = Math.max(...watched.map((id) => actions.findIndex((a) => a.id === id)));
    // Its failure fails not the poll (whose decisions are read): the next poll reads it again. A 429
    // still does, for its Retry-After.
    const limit = Math.min(100, Math.max(clampPageSize(this.pageSize), filter === 'ALL' ? deepest + 1 : 0));
    const firstPage = () =>
      listAgentActions(send, { ...options, limit, status: filter === 'ALL' ? undefined : filter }).catch((e) => {
        if (isAbort(e) || (e as { status?: number }).status == 429) throw e;
      });
    // Only actions neither shown nor seen pending come from that page: decisions are read as before.
    const seen = new Set([...actions.map((a) => a.id), ...this.#wasPending]);
    let page = filter === 'ALL' ? await firstPage() : undefined;
    // The unfiltered list's first 100, as the reads of more than four decisions begin: not asked for again.
    // (Not after the poller stopped: a poller started since, another agent's maybe, sets its own.)
    this.#hundred = !options.signal?.aborted && limit == 100 && page;
    if (page) {
      const on = new Set<string>(page.data.map((a) => a.id));
      if ((!page.hasMore || page.data.some((a) => seen.has(a.id))) && watched.every((id) => on.has(id))) return yield* page.data;
    }
    if (page) await this.#held();
    for await (const a of iterateAgentActions(send, options)) yield (seen.add(a.id), a);
    if (filter === 'PENDING_APPROVAL') return;
    if (filter !== 'ALL') {
      await this.#held();
      page = await firstPage();
    }
    for (const a of page?.data ?? []) if (!seen.has(a.id)) yield a;
  }

  /** Resolves once the hold has passed, however long (one timer waits at most 24.8 days), and the page is shown. (Awaited once the flows are here.) */
  async #held(): Promise<void> {
    const { later } = this.#flows!;
    while (document.hidden || this.#notBefore > Date.now()) await new Promise<void>((r) => (document.hidden ? addEventListener('visibilitychange', r as () => void, { once: true }) : later(r, this.#notBefore - Date.now())));
  }

  /**
   * Holds every poll, first page and "load more" for `error`'s Retry-After (else `fallback` s), the
   * button showing it; returns `error`. (Only for a call's failure: the flows are here.)
   */
  #hold(error: unknown, fallback = 0): unknown {
    const { later } = this.#flows!;
    const ms = ((error as { retryAfter?: number }).retryAfter ?? fallback) * 1000;
    this.#notBefore = Math.max(this.#notBefore, Date.now() + ms);
    this.requestUpdate();
    // The button comes back when the clock says the hold is over: a timer can fire before Date.now()
    // gets there (the two are different clocks, and the wall clock may be set back), so it waits on.
    const over = () => (Date.now() < this.#notBefore ? later(over, this.#notBefore - Date.now()) : this.requestUpdate());
    later(over, ms);
    return error;
  }

  /** Polling stops; and, unless it starts again at once (`again`), the checks asked for end with it. */
  #stopPolling(again = false): void {
    this.#poller?.abort();
    this.#poller = undefined;
    this.#syncStates();
    if (!again) this.#checked();
  }

  /** The checks asked for (checkNow) are done. */
  #checked(): void {
    for (const resolve of this.#checks.splice(0)) resolve();
  }

  /**
   * One poll's list (`list`), as the poller reads it. Once it is read, or its read failed, and what
   * the poller then handed over (onPending) is handled, the checks asked for are done: each was asked
   * for before this poll began, since a check starts a new poller, which stops this one (`signal`).
   * (The poller hands the list over in the same task as the read ends: a task later, it has.)
   */
  async *#polled(list: AsyncGenerator<AgentAction, void, undefined>, signal: AbortSignal): AsyncGenerator<AgentAction, void, undefined> {
    this.#handling = undefined;
    try {
      yield* list;
    } finally {
      const done = () => signal.aborted || this.#checked();
      if (!signal.aborted) setTimeout(() => void Promise.resolve(this.#handling).then(done, done));
    }
  }

  /**
   * The poller's fresh list of pending actions (then the filter's first page): re-read the ones
   * that were decided, and the approved ones still executing. False when a read failed or an execution is still in progress:
   * the poller then delivers the list again at its next poll, so they are read again even though
   * the pending list no longer changes. Rejects with a read's 429, whose Retry-After the poller
   * then keeps to. The reads go with the poller's base and token, as the list did.
   */
  async #onPending({ readActions }: Flows, pending: AgentAction[], signal: AbortSignal, send: Send, token: string): Promise<boolean> {
    const read = (this.#latestRead = {});
    // Back after a failed poll: its message goes, and the decision said before it is not said again.
    if (this.pollTrouble) this.#say();
    this.pollTrouble = false;
    const decided = decidedSince(this.view, pending, this.#wasPending);
    const fresh: AgentAction[] = [];
    const next: string[] = pending.filter((a) => a.status === 'PENDING_APPROVAL').map((a) => a.id);
    let complete = true;
    let got: Map<string, AgentAction>;
    let limited: unknown;
    try {
      // (Set by this poll's list, just before: each poll sets it.)
      [got, limited] = await readActions(send, decided, token, signal, this.#hundred);
    } catch {
      return true;
    }
    for (const id of decided) {
      const a = got.get(id);
      if (a) fresh.push(a);
      else {
        // Read again at the next poll; the pending copy stays meanwhile.
        next.push(id);
        complete = false;
      }
    }
    // The poller does not wait for this: a later list may have come meanwhile, and its reads,
    // made after these, are the ones that count (an older copy would take a decision back).
    if (!signal.aborted && read === this.#latestRead) {
      this.#send({ type: 'updated', actions: [...pending, ...fresh] });
      // Under "All", an action pending but not shown is older than the list: its decision shows nowhere.
      const shown = new Set<string>(this.view.actions.map((a) => a.id));
      this.#wasPending = this.view.filter === 'ALL' ? next.filter((id) => shown.has(id)) : next;
      complete &&= !this.view.actions.some(executing);
    } else complete = true;
    if (limited) throw this.#hold(limited);
    return complete;
  }

  #syncStates(): void {
    const { kind } = this.view.status;
    syncStates(this.#internals, { idle: kind === 'idle', loading: kind === 'loading', ready: kind === 'ready', failed: kind === 'failed', polling: !!this.#poller });
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // Each action keeps its row: one arriving on top moves neither the focus nor a screen reader's
    // reading position to another action; nor does the list read again (a reload, a filter change).
    // A row is rendered again only when what it shows may differ: its action (as read, not which
    // object), the language or its strings, the heading level, its "changed" mark, or (pending)
    // whether the element polls.
    const { locale } = this.#i18n;
    keyedRows(this.renderRoot.querySelector('ul'), this.view.actions, (a) => a.id, (a, li) => this.#renderAction(a, li), { host: this }, (a) => [
      asText(a),
      locale,
      localeChanges,
      this.headingLevel,
      this.recentlyChanged.has(a.id),
      a.status === 'PENDING_APPROVAL' && !!this.#poller,
    ], this);
    if (this.#focusAfterMore !== undefined && !this.view.loadingMore) {
      // After "load more", move to the first new action so keyboard users continue where they were.
      const index = this.#focusAfterMore;
      this.#focusAfterMore = undefined;
      this.renderRoot.querySelectorAll<HTMLElement>('li.action')[index]?.focus();
    }
  }

  // ---- rendering

  override render() {
    const t = this.#i18n.t;
    const view = this.view;
    const { status, filter, actions, totalCount, loadingMore } = view;
    const failure = status.kind === 'failed' ? status.code : view.moreFailed;
    const held = !loadingMore && Date.now() < this.#notBefore;
    // Why "load more" is held: the alert says it after its own 429, else a note by the button.
    const heldSaid = failure === 'rate_limited' && status.kind !== 'failed';
    // Without the service's totalCount, the count is what is known: all of it once no page is left.
    const count =
      totalCount === undefined && view.hasMore
        ? t('agent-actions.count-more', { shown: actions.length })
        : t('agent-actions.count', { shown: actions.length, total: totalCount ?? actions.length });
    const { decisions, waiting, loaded, n } = this.said;
    const message = this.pollTrouble
      ? t('agent-actions.poll-trouble')
      : status.kind === 'loading'
        ? this.#loading.slow ? t('agent-actions.loading') : ''
        : [
            ...decisions.map((a) => t('agent-actions.decided', { action: this.#actionName(a), status: t(`agent-actions.status.${a.status}`) })),
            waiting ? t(waiting > 1 ? 'agent-actions.waiting-many' : 'agent-actions.waiting-one', { count: waiting }) : '',
            loaded ? (actions.length ? count : t('agent-actions.empty')) : '',
          ].filter(Boolean).join(' ');
    return html`
      <section part="base" class="base panel" aria-labelledby="title">
        <div part="header" class="bar">
          <h2 id="title" tabindex="-1" aria-level=${this.level()}>${t('agent-actions.title')}</h2>
          <label>
            ${t('agent-actions.filter')}
            <select part="filter" .value=${filter} @change=${this.#onFilter} ?disabled=${!this.agentToken}>
              ${FILTERS.map((f) => html`<option value=${f} ?selected=${f === filter}>${t(`agent-actions.filter.${f}`)}</option>`)}
            </select>
          </label>
        </div>
        <div part="error" id="error" class="alert" role="alert">${failure
            ? html`<p>${t(status.kind !== 'failed' && failure === 'rate_limited' ? 'agent-actions.error.more-rate-limited' : `agent-actions.error.${failure}`)}</p>
                ${status.kind !== 'failed' || failure === 'unauthorized' || failure === 'load_failed' ? nothing : html`<button type="button" @click=${this.#retry}>${t('agent-actions.retry')}</button>`}`
            : nothing}</div>
        <p class="muted live" role="status">${
          // Two templates alike, one for odd and one for even sayings: a new saying replaces the
          // nodes of the one before, so that words said again (two decisions alike) are read again.
          n % 2 ? html`${message}` : html`${message}`
        }</p>
        ${!this.agentToken
          ? html`<p class="muted">${t('agent-actions.no-token')}</p>`
          : status.kind !== 'ready'
            ? nothing
            : !actions.length
              ? html`<p class="muted">${t('agent-actions.empty')}</p>`
              : html`<ul part="list" class="list" aria-live="off" aria-labelledby="title"></ul>
                  <div part="footer" class="bar">
                    <span class="muted">${count}</span>
                    ${view.hasMore
                      ? html`<button part="load-more-button" type="button" aria-disabled=${loadingMore || held} aria-describedby=${held ? (heldSaid ? 'error' : 'held') : nothing} @click=${loadingMore || held ? undefined : this.#loadMore}>
                            ${t(loadingMore ? 'agent-actions.loading-more' : 'agent-actions.load-more')}
                          </button>
                          ${held && !heldSaid ? html`<span id="held" class="muted">${t('agent-actions.error.more-rate-limited')}</span>` : nothing}`
                      : nothing}
                  </div>`}
      </section>
    `;
  }

  /**
   * A service code (a transaction's status or failure reason; api.md leaves their values open) in
   * words: its string when the strings have one (`agent-actions.<kind>.<CODE>`), else a sentence in
   * the element's language that keeps the code, for support (English words made of it would be
   * another language on a translated screen), isolated so that it reads whole in Arabic too.
   */
  #words(kind: 'transaction-status' | 'failure', code: string): string {
    const key = `agent-actions.${kind}.${code}`;
    const text = this.#i18n.t(key);
    return text !== key ? text : this.#i18n.t(`agent-actions.unknown-${kind}`, { code: isolate(code) });
  }

  /** An action's kind in words. */
  #kind(a: AgentAction): string {
    return this.#i18n.t(`agent-actions.type.${(TYPES as readonly string[]).includes(a.type) ? a.type : 'other'}`);
  }

  /** An action's kind in words, with its amount when it has one ("Payment out of $12.50"). */
  #actionName(a: AgentAction): string {
    const { t, locale } = this.#i18n;
    const action = this.#kind(a);
    const d = a.transferDetails;
    return d ? t('agent-actions.with-amount', { action, amount: formatMinor(d.amount, d.currency, locale) }) : action;
  }

  /** An action's row: its `<li>`'s attributes, and its content. */
  #renderAction(a: AgentAction, li: HTMLLIElement) {
    const t = this.#i18n.t;
    const locale = this.#i18n.locale;
    const headingId = `action-${a.id.replace(/[^A-Za-z0-9-]/g, '-')}`;
    const submitted = formatDate(a.createdAt, locale);
    const { transferDetails: d, quote: q, transaction: x } = a;
    const who = (q?.counterpartyInformation as { FULL_NAME?: string } | undefined)?.FULL_NAME;
    const dest = (q?.destination as { accountId?: string } | undefined)?.accountId;
    // api.md leaves the unit of amounts unstated; the service's integer amounts are in the
    // currency's smallest unit, placed with the Currency object's own `decimals`.
    const money = (amount: number | undefined, c: Currency | undefined) => (typeof amount === 'number' && c ? formatMinor(amount, c.code, locale, c.decimals) : '');
    /** The facts shown, as [string key, value, class]; the ones without a value are left out. */
    const facts: Array<[string, unknown, string?]> = d
      ? [
          ['amount', formatMinor(d.amount, d.currency, locale), 'amount'],
          ['from', shortId(d.sourceAccountId), 'mono'],
          ['to', shortId(d.destinationAccountId), 'mono'],
        ]
      : q
        ? [
            ['send', money(q.totalSendingAmount, q.sendingCurrency), 'amount'],
            ['receive', money(q.totalReceivingAmount, q.receivingCurrency), 'amount'],
            // Who receives it: the name the service gives (its own direction, as a reason's), else the destination account.
            ['to', who ? html`<bdi>${who}</bdi>` : dest && shortId(dest), who ? '' : 'mono'],
            ['rate', typeof q.exchangeRate === 'number' ? format(Intl.NumberFormat, locale, { maximumSignificantDigits: 8 }).format(q.exchangeRate) : ''],
            ['fees', money(q.feesIncluded, q.sendingCurrency)],
            // Approved after this, the quote fails (api.md "AgentAction.status": FAILED, quote expired).
            ['expires', a.status === 'PENDING_APPROVAL' && formatDate(q.expiresAt, locale)],
          ]
        : [];
    // The approver's own words, in their own direction whatever the element's (bdi isolates them).
    if (a.status === 'REJECTED') facts.push(['rejection', a.rejectionReason && html`<bdi>${a.rejectionReason}</bdi>`]);
    if (x) {
      facts.push(
        ['transaction', html`<span class="mono">${shortId(x.id)}</span> · ${this.#words('transaction-status', x.status)}`],
        ['transaction-failed', x.failureReason && this.#words('failure', x.failureReason)],
      );
    }
    li.setAttribute('part', 'action');
    li.className = `item action${this.recentlyChanged.has(a.id) ? ' changed' : ''}`;
    li.tabIndex = -1;
    li.setAttribute('aria-labelledby', headingId);
    return html`
        <div class="item-head">
          <h3 id=${headingId} aria-level=${this.level(1)}>${this.#kind(a)}</h3>
          <span part="status" class="status ${a.status}">${t(`agent-actions.status.${a.status}`)}</span>
        </div>
        ${submitted ? html`<p class="muted">${t('agent-actions.submitted', { date: submitted })}</p>` : nothing}
        <dl>
          ${facts.map(([key, value, cls]) => (value ? html`<dt>${t(`agent-actions.${key}`)}</dt><dd class=${cls ?? ''}>${value}</dd>` : nothing))}
        </dl>
        ${a.status === 'PENDING_APPROVAL' && this.#poller ? html`<p class="muted">${t('agent-actions.waiting')}</p>` : nothing}
    `;
  }
}

/** What the polite status region says; see AgentActions `said`. */
interface Said {
  readonly decisions: readonly AgentAction[];
  /** New actions waiting for approval. */
  readonly waiting: number;
  /** What the load brought: "Showing N of M", or that there is nothing to show. */
  readonly loaded: boolean;
  readonly n: number;
}

/**
 * `InternalAccount:0b9c…41f2`: the type and enough of the uuid to tell ids apart, in a `<bdi>` (Latin
 * data: its own direction in right-to-left text).
 */
function shortId(id: string) {
  return html`<bdi>${id.replace(/[0-9a-f-]{13,}$/i, (uuid) => `${uuid.slice(0, 4)}…${uuid.slice(-4)}`)}</bdi>`;
}

defineElement('agent-actions', AgentActions);

declare global {
  interface HTMLElementTagNameMap {
    'agent-actions': AgentActions;
  }
}
