/**
 * The calls `<agent-actions>` makes to the service, over the bare transport (shared/send.ts): the
 * three agent endpoints (core/endpoints.ts), the poller with its backoff (core/agent.ts), the reads
 * of many decisions at once (`readActions`), and how their failures read (`errorCodeOf`). The
 * element loads them with import() once its first screen (the heading, the filter, the loading
 * state) is painted: that screen calls nothing.
 */
import { asksLogin, ServiceError, WalletError } from '../../core/errors.ts';
import { getAgentAction, listAgentActions } from '../../core/endpoints.ts';
import type { Send } from '../../core/signed-retry.ts';
import type { AgentAction, AgentActionList } from '../../core/types.ts';
import type { AgentActionsErrorCode } from './agent-actions.machine.ts';

export { pollAgentActions } from '../../core/agent.ts';
export { later } from '../../core/clock.ts';
export { iterateAgentActions, listAgentActions } from '../../core/endpoints.ts';
export { sendFor } from '../shared/send.ts';

/** What a failed call means for the element (its `code`; a load of this module that failed is read by the element). */
export function errorCodeOf(error: unknown): AgentActionsErrorCode {
  if (error instanceof ServiceError) {
    const { status } = error;
    // The shared reading of a 401 (core/errors.ts asksLogin): one with details is the proxy's authorize.
    return status === 401 ? (asksLogin(error.code, error.details) ? 'session_required' : 'unauthorized') : status === 429 ? 'rate_limited' : status >= 500 ? 'server' : 'unexpected';
  }
  // invalid_argument: an empty or malformed token never reaches the service.
  if (error instanceof WalletError && error.code === 'invalid_argument') return 'unauthorized';
  return error instanceof WalletError && (error.code === 'network' || error.code === 'misconfigured') ? error.code : 'unexpected';
}

/**
 * Fresh copies of the actions `ids`, by id (one whose read failed is missing). More than four are
 * looked for first in the unfiltered list, 100 a page (api.md "Limits"): api.md gives the list no
 * order and no "updated since", so it is read on only while the pages left (by the first page's
 * totalCount) are at most half the ids still missing; an empty page, or as many actions as that
 * totalCount (a cursor that comes back), ends it. The rest are read one by one, four at a time. A
 * 429, on a list page or a read of one, starts no further read: what is missing is read at the next
 * poll, and the 429 comes back with them (for its Retry-After); another failed list page leaves them
 * all to be read one by one. `first`, the poll's own first page of that list when it had one, is
 * that list's first page (not asked for again). Throws only when `signal` aborts.
 */
export async function readActions(send: Send, ids: readonly string[], agentToken: string, signal: AbortSignal, first?: AgentActionList | false | void): Promise<[Map<string, AgentAction>, unknown]> {
  const got = new Map<string, AgentAction>();
  // Written out: the manifest's analyzer takes a shorthand `signal` here for a module variable.
  const o = { agentToken: agentToken, signal: signal };
  const fail = (error: unknown) => {
    // An abort as shared/list.ts isAbort reads it, read here: that module, loaded up front, would be
    // split from Lit into a file of its own, one more for every element of the CDN build.
    const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
    if (signal.aborted || name === 'AbortError' || code === 'aborted') throw error;
    return errorCodeOf(error) === 'rate_limited' && error;
  };
  let stop: unknown;
  if (ids.length > 4) {
    const wanted = new Set(ids);
    let cursor: string | undefined;
    let seen = 0;
    let total = 0;
    try {
      do {
        const page = first || (await listAgentActions(send, { ...o, limit: 100, cursor }));
        first = false;
        // A copy still waiting for approval is older than the pending list that had it decided (a first page given, read before it).
        for (const a of page.data) if (wanted.has(a.id) && a.status !== 'PENDING_APPROVAL') got.set(a.id, a);
        seen += page.data.length || Infinity;
        total ||= page.totalCount ?? Infinity;
        cursor = page.nextCursor;
      } while (cursor && got.size < ids.length && seen < total && Math.ceil((total - seen) / 100) * 2 <= ids.length - got.size);
    } catch (error) {
      stop = fail(error);
    }
  }
  const rest = ids.filter((id) => !got.has(id));
  const reader = async () => {
    for (let id; !stop && (id = rest.shift()); ) {
      try {
        got.set(id, await getAgentAction(send, id, o));
      } catch (error) {
        stop ||= fail(error);
      }
    }
  };
  await Promise.all([reader(), reader(), reader(), reader()]);
  return [got, stop];
}

/** Actions per page: 1 to 100 (api.md "Limits"), 20 for anything that is not an integer. */
export function clampPageSize(n: number): number {
  return Number.isInteger(n) ? Math.min(100, Math.max(1, n)) : 20;
}

