/**
 * The state of <agent-actions> as a pure machine: the first page for a status filter, cursor pages
 * appended by "load more", and approval decisions merged in as the poller sees them.
 *
 * Follows api.md "GET {base_url}/agents/me/actions" (status filter, limit 1..100, cursor from
 * nextCursor, hasMore, totalCount) and "AgentAction.status" (PENDING_APPROVAL -> APPROVED | REJECTED,
 * APPROVED -> FAILED). Cursors are opaque (reference.md "Agents").
 *
 * Deliberately not here: the agent's token (a property of the element, passed per call and never
 * in this state), HTTP and timers (core/agent.ts polls with backoff), and the reading of the
 * service's errors (agent-actions.flows.ts `errorCodeOf`, loaded on demand with the calls).
 */
import type { AgentAction, AgentActionList, AgentActionStatus } from '../../core/types.ts';

export type StatusFilter = AgentActionStatus | 'ALL';

export const AGENT_ACTIONS_ERROR_CODES = [
  /** 401: the agent's token is missing, expired or revoked; polling stops. */
  'unauthorized',
  /**
   * 401 from the proxy's own `authorize` (details.reason AUTHORIZE): the site's user is not signed
   * in, which the agent's token does not change; polling stops, and "Try again" works once signed in.
   */
  'session_required',
  'rate_limited',
  'server',
  'network',
  /** Part of the element's code (loaded on demand) did not arrive, asked for twice: a reload of the page loads it (shared/load.ts). */
  'load_failed',
  /**
   * The page's settings do not fit the service: an `api-base` where no proxy is mounted (the page's
   * own server answered; the console names the base), or one refused for its origin (nothing sent).
   * Retrying cannot help.
   */
  'misconfigured',
  'unexpected',
] as const;
export type AgentActionsErrorCode = (typeof AGENT_ACTIONS_ERROR_CODES)[number];

export type ListStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly code: AgentActionsErrorCode };

export interface AgentActionsState {
  readonly filter: StatusFilter;
  readonly status: ListStatus;
  /** Loaded actions, in the service's order, each id once. */
  readonly actions: readonly AgentAction[];
  readonly hasMore: boolean;
  readonly nextCursor?: string;
  readonly totalCount?: number;
  readonly loadingMore: boolean;
  /** The last "load more" failed (the loaded list stays). */
  readonly moreFailed?: AgentActionsErrorCode;
  /** Bumped by every load/filter so that a page for an older request is dropped. */
  readonly generation: number;
}

export type AgentActionsEvent =
  | { readonly type: 'load'; readonly filter?: StatusFilter }
  | { readonly type: 'page'; readonly generation: number; readonly page: AgentActionList; readonly append: boolean }
  | { readonly type: 'failed'; readonly generation: number; readonly code: AgentActionsErrorCode; readonly append: boolean }
  | { readonly type: 'load-more' }
  /** Fresh copies of actions (from the poller or GET /agents/me/actions/{id}); new ones are prepended. */
  | { readonly type: 'updated'; readonly actions: readonly AgentAction[] }
  | { readonly type: 'reset' };

export const initialState: AgentActionsState = {
  filter: 'ALL',
  status: { kind: 'idle' },
  actions: [],
  hasMore: false,
  loadingMore: false,
  generation: 0,
};

export function matchesFilter(action: AgentAction, filter: StatusFilter): boolean {
  return filter === 'ALL' || action.status === filter;
}

export function transition(state: AgentActionsState, event: AgentActionsEvent): AgentActionsState {
  const { status, actions } = state;
  switch (event.type) {
    case 'reset':
    case 'load':
      return {
        ...initialState,
        filter: (event.type === 'load' && event.filter) || state.filter,
        status: { kind: event.type === 'load' ? 'loading' : 'idle' },
        generation: state.generation + 1,
      };
    case 'load-more':
      if (status.kind !== 'ready' || !state.nextCursor || state.loadingMore) return state;
      return { ...state, loadingMore: true, moreFailed: undefined };
    case 'page': {
      const { page, append } = event;
      if (event.generation !== state.generation || (append ? !state.loadingMore : status.kind !== 'loading')) return state;
      const base = append ? actions : [];
      const seen = new Set(base.map((a) => a.id));
      // A page may repeat an action that moved while paging; the first copy keeps its place.
      const added = page.data.filter((a) => !seen.has(a.id) && seen.add(a.id));
      // hasMore without a cursor cannot be followed: treated as the last page.
      const nextCursor = page.hasMore ? page.nextCursor : undefined;
      return {
        ...state,
        status: { kind: 'ready' },
        actions: [...base, ...added],
        hasMore: !!nextCursor,
        nextCursor,
        totalCount: page.totalCount ?? state.totalCount,
        loadingMore: false,
        moreFailed: undefined,
      };
    }
    case 'failed':
      if (event.generation !== state.generation) return state;
      if (event.append) return state.loadingMore ? { ...state, loadingMore: false, moreFailed: event.code } : state;
      return status.kind === 'loading' ? { ...state, status: { kind: 'failed', code: event.code } } : state;
    case 'updated': {
      if (status.kind !== 'ready') return state;
      const byId = new Map(event.actions.map((a) => [a.id, a]));
      let changed = false;
      const kept = actions.map((a) => {
        const fresh = byId.get(a.id);
        byId.delete(a.id);
        if (!fresh || sameVersion(a, fresh)) return a;
        changed = true;
        return fresh;
      });
      // The list is newest first (the service's order), so an action not loaded yet is a new
      // submission only when it is newer than everything loaded; older ones sit on later pages
      // and arrive with "load more".
      const newest = Math.max(...actions.map((a) => Date.parse(a.createdAt)).filter((t) => !isNaN(t)));
      const isNew = (a: AgentAction) => (actions.length ? isFinite(newest) && Date.parse(a.createdAt) > newest : !state.hasMore);
      const fresh = [...byId.values()]
        .filter((a) => matchesFilter(a, state.filter) && isNew(a))
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
      if (!changed && !fresh.length) return state;
      return { ...state, actions: [...fresh, ...kept], totalCount: state.totalCount === undefined ? undefined : state.totalCount + fresh.length };
    }
  }
}

/** Same id, status, update time, rejection and transaction status: nothing to show again. */
export function sameVersion(a: AgentAction, b: AgentAction): boolean {
  return (
    a.status === b.status &&
    a.updatedAt === b.updatedAt &&
    a.rejectionReason === b.rejectionReason &&
    a.transaction?.id === b.transaction?.id &&
    a.transaction?.status === b.transaction?.status
  );
}

export interface ActionChange {
  action: AgentAction;
  previousStatus: AgentActionStatus;
}

/** The status changes between two states (for `agent-action-changed` events). */
export function statusChanges(before: AgentActionsState, after: AgentActionsState): ActionChange[] {
  const old = new Map(before.actions.map((a) => [a.id, a.status]));
  const changes: ActionChange[] = [];
  for (const action of after.actions) {
    const previousStatus = old.get(action.id);
    if (previousStatus !== undefined && previousStatus !== action.status) changes.push({ action, previousStatus });
  }
  return changes;
}

/**
 * An approved action whose transaction has not settled: its execution is in progress and may still
 * fail (api.md "AgentAction.status": APPROVED is "execution in progress or complete", FAILED is
 * "Approved but execution failed").
 */
export const executing = (a: AgentAction): boolean => a.status === 'APPROVED' && !a.transaction?.settledAt && Date.now() - Date.parse(a.updatedAt) < EXECUTION_WATCH_MS;

/**
 * How long after its last change an unsettled approved action is still watched. api.md gives no
 * transaction statuses: should the service leave `settledAt` off completed transactions, a page
 * left open would otherwise read every approved action again at each poll, at the shortest delay.
 */
const EXECUTION_WATCH_MS = 15 * 60_000;

/**
 * Which actions to read again (GET /agents/me/actions/{id}): those missing from the poller's fresh
 * list of pending actions (their decision came in) among the loaded pending ones and `wasPending`
 * (pending at the poll before, perhaps not shown under the filter), and the executing ones.
 */
export function decidedSince(state: AgentActionsState, stillPending: readonly AgentAction[], wasPending: readonly string[] = []): string[] {
  const pending = new Set<string>(stillPending.map((a) => a.id));
  const watched = state.actions.filter((a) => a.status === 'PENDING_APPROVAL' || executing(a)).map((a) => a.id);
  return [...new Set([...watched, ...wasPending])].filter((id) => !pending.has(id));
}
