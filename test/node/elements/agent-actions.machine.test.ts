// The <agent-actions> machine without a DOM: api.md "GET /agents/me/actions" paging (hasMore,
// nextCursor, totalCount), the status filter, and approval decisions merged from the poller
// (api.md "AgentAction.status": PENDING_APPROVAL -> APPROVED | REJECTED).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decidedSince,
  initialState,
  statusChanges,
  transition,
  type AgentActionsState,
} from '../../../src/elements/agent-actions/agent-actions.machine.ts';
import { errorCodeOf } from '../../../src/elements/agent-actions/agent-actions.flows.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import type { AgentAction, AgentActionStatus } from '../../../src/core/types.ts';

function action(n: number, status: AgentActionStatus = 'PENDING_APPROVAL', extra: Partial<AgentAction> = {}): AgentAction {
  const id = `AgentAction:00000000-0000-4000-8000-${String(n).padStart(12, '0')}` as AgentAction['id'];
  return {
    id,
    agentId: 'Agent:00000000-0000-4000-8000-0000000000aa',
    customerId: 'Customer:00000000-0000-4000-8000-0000000000bb',
    platformCustomerId: 'p-1',
    status,
    type: 'TRANSFER_OUT',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...extra,
  };
}

function loaded(actions: AgentAction[], more?: string, totalCount?: number): AgentActionsState {
  const s = transition(initialState, { type: 'load' });
  return transition(s, {
    type: 'page',
    generation: s.generation,
    append: false,
    page: { data: actions, hasMore: Boolean(more), ...(more ? { nextCursor: more } : {}), ...(totalCount !== undefined ? { totalCount } : {}) },
  });
}

test('first page, then load more appends the next page and keeps the total', () => {
  let s = loaded([action(1), action(2)], 'c1', 3);
  assert.deepEqual({ kind: s.status.kind, n: s.actions.length, hasMore: s.hasMore, cursor: s.nextCursor, total: s.totalCount }, {
    kind: 'ready',
    n: 2,
    hasMore: true,
    cursor: 'c1',
    total: 3,
  });
  s = transition(s, { type: 'load-more' });
  assert.equal(s.loadingMore, true);
  assert.equal(transition(s, { type: 'load-more' }), s, 'a second click while loading does nothing');
  s = transition(s, { type: 'page', generation: s.generation, append: true, page: { data: [action(2), action(3)], hasMore: false } });
  assert.deepEqual(s.actions.map((a) => a.id.slice(-1)), ['1', '2', '3'], 'an action repeated across pages is shown once');
  assert.equal(s.hasMore, false);
  assert.equal(s.nextCursor, undefined);
  assert.equal(s.totalCount, 3);
  assert.equal(transition(s, { type: 'load-more' }), s, 'nothing more to load');
});

test('a page for an older filter is dropped', () => {
  const first = transition(initialState, { type: 'load', filter: 'ALL' });
  const second = transition(first, { type: 'load', filter: 'REJECTED' });
  const stale = transition(second, { type: 'page', generation: first.generation, append: false, page: { data: [action(1)], hasMore: false } });
  assert.equal(stale, second);
  assert.equal(second.filter, 'REJECTED');
  assert.equal(second.actions.length, 0);
});

test('a failed first page shows the error; a failed "load more" keeps the list', () => {
  const s = transition(initialState, { type: 'load' });
  assert.deepEqual(transition(s, { type: 'failed', generation: s.generation, code: 'network', append: false }).status, { kind: 'failed', code: 'network' });
  let r = transition(loaded([action(1)], 'c1'), { type: 'load-more' });
  r = transition(r, { type: 'failed', generation: r.generation, code: 'server', append: true });
  assert.equal(r.status.kind, 'ready');
  assert.equal(r.actions.length, 1);
  assert.equal(r.moreFailed, 'server');
  assert.equal(r.loadingMore, false);
});

test('a decision from the poller replaces the action in place and is reported as a status change', () => {
  const before = loaded([action(1), action(2)]);
  // The poller's fresh pending list no longer has action 1: it was decided.
  assert.deepEqual(decidedSince(before, [action(2)]), [action(1).id]);
  // Approved a minute ago.
  const approved = action(1, 'APPROVED', {
    updatedAt: new Date(Date.now() - 60_000).toISOString(),
    transaction: { id: 'Transaction:00000000-0000-4000-8000-000000000777', status: 'PENDING' },
  });
  const after = transition(before, { type: 'updated', actions: [action(2), approved] });
  assert.equal(after.actions[0], approved);
  assert.deepEqual(statusChanges(before, after), [{ action: approved, previousStatus: 'PENDING_APPROVAL' }]);
  // The same copy again changes nothing.
  assert.equal(transition(after, { type: 'updated', actions: [approved] }), after);
  // Approved but not settled: its execution may still fail (api.md "AgentAction.status"), so it is read again.
  assert.deepEqual(decidedSince(after, [action(2)]), [approved.id]);
  const settled = { ...approved, transaction: { ...approved.transaction!, status: 'COMPLETED', settledAt: '2026-01-01T00:02:00Z' } };
  assert.deepEqual(decidedSince(transition(after, { type: 'updated', actions: [settled] }), [action(2)]), []);
  // Unsettled but approved 16 minutes ago: no longer watched (a service that never sets settledAt
  // must not have every old approved action read at each poll).
  const old = { ...approved, updatedAt: new Date(Date.now() - 16 * 60_000).toISOString() };
  assert.deepEqual(decidedSince(transition(after, { type: 'updated', actions: [old] }), [action(2)]), []);
  // Pending at the poll before though not loaded (another filter): read once it leaves the pending list.
  assert.deepEqual(decidedSince(before, [action(1), action(2)], [action(7).id, action(2).id]), [action(7).id]);
});

test('a new pending action appears on top when it matches the filter, and counts in the total', () => {
  const s = loaded([action(1, 'APPROVED')], undefined, 1);
  const next = transition(s, { type: 'updated', actions: [action(9, 'PENDING_APPROVAL', { createdAt: '2026-01-01T00:05:00Z' })] });
  assert.deepEqual(next.actions.map((a) => a.id.slice(-1)), ['9', '1']);
  assert.equal(next.totalCount, 2);
  assert.deepEqual(statusChanges(s, next), []);
  const rejectedOnly = transition(transition(initialState, { type: 'load', filter: 'REJECTED' }), {
    type: 'page',
    generation: 1,
    append: false,
    page: { data: [], hasMore: false },
  });
  assert.equal(transition(rejectedOnly, { type: 'updated', actions: [action(9)] }), rejectedOnly);
});

test('a pending action older than the loaded ones is on a later page, not new: it waits for "load more"', () => {
  const s = loaded([action(1, 'APPROVED', { createdAt: '2026-01-02T00:00:00Z' })], 'c1', 3);
  const older = action(7, 'PENDING_APPROVAL', { createdAt: '2026-01-01T00:00:00Z' });
  assert.equal(transition(s, { type: 'updated', actions: [older] }), s);
  const newer = action(8, 'PENDING_APPROVAL', { createdAt: '2026-01-03T00:00:00Z' });
  assert.deepEqual(transition(s, { type: 'updated', actions: [older, newer] }).actions.map((a) => a.id.slice(-1)), ['8', '1']);
});

test('updates before the first page are ignored (the poller starts after it)', () => {
  const s = transition(initialState, { type: 'load' });
  assert.equal(transition(s, { type: 'updated', actions: [action(1)] }), s);
});

test('errorCodeOf: 401 stops (unauthorized), transient failures are named', () => {
  assert.equal(errorCodeOf(new ServiceError({ status: 401, code: 'UNAUTHORIZED', message: 'x' })), 'unauthorized');
  assert.equal(errorCodeOf(new ServiceError({ status: 401, code: 'UNAUTHORIZED', message: 'x', details: { reason: 'AUTHORIZE' } })), 'session_required');
  assert.equal(errorCodeOf(new ServiceError({ status: 429, code: 'RATE_LIMITED', message: 'x' })), 'rate_limited');
  assert.equal(errorCodeOf(new ServiceError({ status: 500, code: 'INTERNAL_ERROR', message: 'x' })), 'server');
  assert.equal(errorCodeOf(new WalletError('network', 'x')), 'network');
  assert.equal(errorCodeOf(new WalletError('invalid_argument', 'x')), 'unauthorized');
  // No proxy at the base, or a base refused for its origin (shared/send.ts): a setup error, not an unknown one.
  assert.equal(errorCodeOf(new WalletError('misconfigured', 'x')), 'misconfigured');
  assert.equal(errorCodeOf(new Error('x')), 'unexpected');
});
