/**
 * Agent actions (api.md "GET {base_url}/agents/me/actions", "AgentActionList"; reference.md
 * "Agents"): the agent's own list with status filter, `limit` 1..100 (default 20), opaque cursors,
 * `hasMore`, `nextCursor` only when `hasMore`, and `totalCount`; one action by id; and the platform
 * side (Basic) that approves or rejects pending actions, directly or through their transaction.
 *
 * Order: newest `createdAt` first, ties by id. A cursor is the position after the last item sent
 * (`base64url("v1:" createdAtMs ":" id)`), so pages stay stable while actions change status.
 * Choices where the documents are silent (api.md "Errors" names no 409 code; reference.md gives no
 * responses for approve and reject): deciding an action that is not PENDING_APPROVAL is
 * `409 ACTION_NOT_PENDING`; an action id of another agent is 404 (NOT_FOUND: of the documented 404
 * codes only TRANSACTION_NOT_FOUND names a resource here).
 */
import { base64urlDecode, base64urlEncode, utf8Decode, utf8Encode } from '../../core/encoding.ts';
import { AGENT_ACTION_STATUSES, type AgentActionList, type AgentActionStatus } from '../../core/types.ts';
import { approveAction, rejectAction } from '../agent-actions.ts';
import { requireAgent, requireBasic } from '../auth.ts';
import { HttpError, badRequest, invalidField, json, jsonObject, notFound, type Router } from '../http.ts';
import type { ActionRecord } from '../state.ts';
import { Fields, isId, requireId } from '../validate.ts';
import { actionsOf, type World } from '../world.ts';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function sortKey(r: ActionRecord): [number, string] {
  return [Date.parse(r.action.createdAt), r.action.id];
}

/** Newest first; ties by id descending. */
function compare(a: ActionRecord, b: ActionRecord): number {
  const [ta, ia] = sortKey(a);
  const [tb, ib] = sortKey(b);
  if (ta !== tb) return tb - ta;
  return ia < ib ? 1 : ia > ib ? -1 : 0;
}

function encodeCursor(r: ActionRecord): string {
  const [t, id] = sortKey(r);
  return base64urlEncode(utf8Encode(`v1:${t}:${id}`));
}

function decodeCursor(cursor: string): [number, string] {
  try {
    if (cursor.length > 512) throw new Error('long');
    const m = /^v1:(\d{1,16}):(AgentAction:[0-9a-fA-F-]{36})$/.exec(utf8Decode(base64urlDecode(cursor)));
    if (!m) throw new Error('shape');
    return [Number(m[1]), m[2]!];
  } catch {
    throw invalidField('cursor', 'is not a cursor from a previous response');
  }
}

/** True when `r` comes strictly after the cursor position in list order. */
function after(r: ActionRecord, [t, id]: [number, string]): boolean {
  const [rt, rid] = sortKey(r);
  return rt < t || (rt === t && rid < id);
}

export function registerAgentRoutes(router: Router, world: World): void {
  const { store } = world;

  router.on('GET', '/agents/me/actions', (ctx) => {
    const agent = requireAgent(world, ctx);
    const statusParam = ctx.query.get('status');
    const limitParam = ctx.query.get('limit');
    const cursorParam = ctx.query.get('cursor');
    let status: AgentActionStatus | undefined;
    if (statusParam !== null) {
      if (!(AGENT_ACTION_STATUSES as readonly string[]).includes(statusParam)) {
        throw invalidField('status', `must be one of ${AGENT_ACTION_STATUSES.join(', ')}`);
      }
      status = statusParam as AgentActionStatus;
    }
    let limit = DEFAULT_LIMIT;
    if (limitParam !== null) {
      if (!/^\d{1,4}$/.test(limitParam) || Number(limitParam) < 1 || Number(limitParam) > MAX_LIMIT) {
        throw invalidField('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
      }
      limit = Number(limitParam);
    }
    const position = cursorParam !== null ? decodeCursor(cursorParam) : undefined;

    const matching = actionsOf(world, agent.id)
      .filter((r) => status === undefined || r.action.status === status)
      .sort(compare);
    const rest = position ? matching.filter((r) => after(r, position)) : matching;
    const page = rest.slice(0, limit);
    const hasMore = rest.length > page.length;
    const body: AgentActionList = {
      data: page.map((r) => r.action),
      hasMore,
      ...(hasMore ? { nextCursor: encodeCursor(page[page.length - 1]!) } : {}),
      totalCount: matching.length,
    };
    return json(200, body);
  });

  router.on('GET', '/agents/me/actions/:actionId', (ctx) => {
    const agent = requireAgent(world, ctx);
    const id = requireId('AgentAction', ctx.params.actionId, 'actionId');
    const record = store.actions.get(id);
    if (!record || record.action.agentId !== agent.id) throw notFound('Action not found');
    return json(200, record.action);
  });

  function pendingAction(agentId: string, actionId: string): ActionRecord {
    const aid = requireId('Agent', agentId, 'agentId');
    const id = requireId('AgentAction', actionId, 'actionId');
    if (!store.agents.has(aid)) throw notFound('Agent not found');
    const record = store.actions.get(id);
    if (!record || record.action.agentId !== aid) throw notFound('Action not found');
    return record;
  }

  function mustBePending(record: ActionRecord): void {
    if (record.action.status !== 'PENDING_APPROVAL') {
      throw new HttpError(409, 'ACTION_NOT_PENDING', `The action is ${record.action.status}, not PENDING_APPROVAL`);
    }
  }

  router.on('POST', '/agents/:agentId/actions/:actionId/approve', (ctx) => {
    requireBasic(world, ctx);
    jsonObject(ctx, true);
    const record = pendingAction(ctx.params.agentId!, ctx.params.actionId!);
    mustBePending(record);
    approveAction(record, world.clock.now());
    return json(200, record.action);
  });

  router.on('POST', '/agents/:agentId/actions/:actionId/reject', (ctx) => {
    requireBasic(world, ctx);
    const f = new Fields(jsonObject(ctx, true));
    const reason = f.string('reason', { optional: true, max: 1000 });
    f.check();
    const record = pendingAction(ctx.params.agentId!, ctx.params.actionId!);
    mustBePending(record);
    rejectAction(record, reason ?? 'Rejected by the platform', world.clock.now());
    return json(200, record.action);
  });

  // api.md: "The platform approves a transaction through POST /transactions/{transactionId}/approve."
  router.on('POST', '/transactions/:id/approve', (ctx) => {
    requireBasic(world, ctx);
    jsonObject(ctx, true);
    const id = ctx.params.id!;
    if (!isId(id, 'Transaction')) throw badRequest('id: must be an id of the form Transaction:<uuid>', [{ field: 'id', message: 'must be Transaction:<uuid>' }]);
    const record = [...store.actions.values()].find((r) => r.pendingTransactionId === id);
    if (!record) throw notFound('Transaction not found', 'TRANSACTION_NOT_FOUND');
    mustBePending(record);
    approveAction(record, world.clock.now());
    return json(200, record.action.transaction);
  });
}
