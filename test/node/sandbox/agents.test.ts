// Agent actions of the sandbox (api.md "GET {base_url}/agents/me/actions", "AgentActionList",
// "AgentAction.status"; reference.md "Agents").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Api, assertAgentAction, assertError, assertFieldError, idOf, withSandbox } from './helpers.ts';

let now = Date.parse('2030-01-01T00:00:00Z');
let api: Api;

before(async () => {
  api = await withSandbox({ now: () => now });
});
after(() => api.sandbox.close());

const agentCall = (path: string, token = api.fx.agentToken) => api.call('GET', path, { auth: { bearer: token } });

async function walk(query: string, token = api.fx.agentToken) {
  const seen: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let totalCount: number | undefined;
  do {
    const r = await agentCall(`/agents/me/actions?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    assert.equal(r.status, 200, r.text);
    assert.equal(typeof r.body.hasMore, 'boolean');
    if (r.body.hasMore) assert.equal(typeof r.body.nextCursor, 'string');
    else assert.equal('nextCursor' in r.body, false, 'nextCursor only when hasMore');
    totalCount ??= r.body.totalCount;
    assert.equal(r.body.totalCount, totalCount);
    seen.push(...r.body.data);
    cursor = r.body.nextCursor;
    pages++;
    assert.ok(pages < 100);
  } while (cursor);
  return { seen, pages, totalCount: totalCount! };
}

describe('agent actions list', () => {
  test('seeded: ~45 actions in every status and type, all well formed, newest first', async () => {
    const { seen, pages, totalCount } = await walk('limit=7');
    assert.equal(seen.length, totalCount);
    assert.ok(totalCount >= 40 && totalCount <= 50, `about 45, got ${totalCount}`);
    assert.equal(pages, Math.ceil(totalCount / 7));
    assert.equal(new Set(seen.map((a) => a.id)).size, seen.length, 'no duplicates across pages');
    seen.forEach(assertAgentAction);
    for (const a of seen) assert.equal(a.agentId, api.fx.agentId);
    for (const a of seen) assert.equal(a.customerId, api.fx.customerId);
    const pairs = new Set(seen.map((a) => `${a.status}/${a.type}`));
    for (const s of ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED']) for (const t of ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN']) assert.ok(pairs.has(`${s}/${t}`), `${s}/${t}`);
    for (let i = 1; i < seen.length; i++) assert.ok(Date.parse(seen[i - 1].createdAt) >= Date.parse(seen[i].createdAt));
  });

  test('default limit 20, limit 100, filter by status with totalCount of the filter', async () => {
    const first = await agentCall('/agents/me/actions');
    assert.equal(first.body.data.length, 20);
    assert.equal(first.body.hasMore, true);
    const all = await agentCall('/agents/me/actions?limit=100');
    assert.equal(all.body.data.length, all.body.totalCount);
    assert.equal(all.body.hasMore, false);
    const pending = await walk('status=PENDING_APPROVAL&limit=3');
    assert.ok(pending.totalCount > 0);
    for (const a of pending.seen) assert.equal(a.status, 'PENDING_APPROVAL');
    assert.equal(pending.totalCount, all.body.data.filter((a: { status: string }) => a.status === 'PENDING_APPROVAL').length);
  });

  test('limit out of range or not an integer, unknown status, bad cursor: 400 INVALID_INPUT', async () => {
    for (const l of ['0', '101', '-1', '1.5', 'ten', '', '1e1']) assertFieldError(await agentCall(`/agents/me/actions?limit=${l}`), 'limit');
    assert.equal((await agentCall('/agents/me/actions?limit=1')).body.data.length, 1);
    assertFieldError(await agentCall('/agents/me/actions?status=DONE'), 'status');
    for (const c of ['abc', 'djE6MTox', '%00']) assertFieldError(await agentCall(`/agents/me/actions?cursor=${c}`), 'cursor');
  });

  test('bearer auth only: 401 without, with a wrong token, or with Basic', async () => {
    assertError(await api.call('GET', '/agents/me/actions', { auth: 'none' }), 401, 'UNAUTHORIZED');
    assertError(await agentCall('/agents/me/actions', 'agent_wrong'), 401, 'UNAUTHORIZED');
    assertError(await api.call('GET', '/agents/me/actions', { auth: 'basic' }), 401, 'UNAUTHORIZED');
  });

  test('each agent sees only its own actions', async () => {
    const other = await api.newAccount();
    const mine = await agentCall('/agents/me/actions?limit=1');
    const theirs = await agentCall('/agents/me/actions?limit=100', other.agentToken);
    assert.ok(theirs.body.data.every((a: { agentId: string }) => a.agentId === other.agentId));
    assertError(await agentCall(`/agents/me/actions/${mine.body.data[0].id}`, other.agentToken), 404);
  });

  test('GET /agents/me/actions/{id}', async () => {
    const list = await agentCall('/agents/me/actions?limit=1');
    const one = await agentCall(`/agents/me/actions/${list.body.data[0].id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, list.body.data[0]);
    assertError(await agentCall('/agents/me/actions/AgentAction:00000000-0000-4000-8000-000000000000'), 404);
    assertFieldError(await agentCall('/agents/me/actions/42'), 'actionId');
  });
});

describe('platform approval', () => {
  test('approve moves a pending action to APPROVED with a transaction; deciding again is 409', async () => {
    const acct = await api.newAccount();
    const created = await api.call('POST', `/sandbox/agents/${acct.agentId}/actions`, { outside: true, body: { type: 'TRANSFER_OUT' } });
    assert.equal(created.status, 201);
    assertAgentAction(created.body);
    assert.equal(created.body.status, 'PENDING_APPROVAL');
    const path = `/agents/${acct.agentId}/actions/${created.body.id}`;
    assertError(await api.call('POST', `${path}/approve`, { auth: { bearer: acct.agentToken } }), 401);
    const r = await api.call('POST', `${path}/approve`);
    assert.equal(r.status, 200, r.text);
    assertAgentAction(r.body);
    assert.equal(r.body.status, 'APPROVED');
    assert.equal(r.body.transaction.status, 'COMPLETED');
    const seen = await agentCall(`/agents/me/actions/${created.body.id}`, acct.agentToken);
    assert.equal(seen.body.status, 'APPROVED', 'the agent sees the decision when polling');
    assertError(await api.call('POST', `${path}/approve`), 409);
    assertError(await api.call('POST', `${path}/reject`), 409);
  });

  test('reject with and without a reason', async () => {
    const acct = await api.newAccount();
    const a1 = (await api.call('POST', `/sandbox/agents/${acct.agentId}/actions`, { outside: true })).body;
    const r1 = await api.call('POST', `/agents/${acct.agentId}/actions/${a1.id}/reject`, { body: { reason: 'Too large' } });
    assert.equal(r1.status, 200);
    assertAgentAction(r1.body);
    assert.equal(r1.body.rejectionReason, 'Too large');
    const a2 = (await api.call('POST', `/sandbox/agents/${acct.agentId}/actions`, { outside: true })).body;
    const r2 = await api.call('POST', `/agents/${acct.agentId}/actions/${a2.id}/reject`);
    assert.equal(r2.body.status, 'REJECTED');
    assert.equal(typeof r2.body.rejectionReason, 'string');
    assertFieldError(await api.call('POST', `/agents/${acct.agentId}/actions/${a2.id}/reject`, { body: { reason: 5 } }), 'reason');
  });

  test('POST /transactions/{id}/approve approves the action behind the pending transaction', async () => {
    const acct = await api.newAccount();
    const a = (await api.call('POST', `/sandbox/agents/${acct.agentId}/actions`, { outside: true, body: { type: 'EXECUTE_QUOTE' } })).body;
    const txId = a.quote.transactionId;
    assert.match(txId, idOf('Transaction'));
    const r = await api.call('POST', `/transactions/${txId}/approve`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.id, txId);
    const after = await agentCall(`/agents/me/actions/${a.id}`, acct.agentToken);
    assert.equal(after.body.status, 'APPROVED');
    assert.equal(after.body.transaction.id, txId);
    assertError(await api.call('POST', `/transactions/${txId}/approve`), 409);
    assertError(await api.call('POST', '/transactions/Transaction:00000000-0000-4000-8000-000000000000/approve'), 404, 'TRANSACTION_NOT_FOUND');
  });

  test('approving after the quote expired: FAILED with failureReason', async () => {
    const acct = await api.newAccount();
    const a = (await api.call('POST', `/sandbox/agents/${acct.agentId}/actions`, { outside: true, body: { type: 'EXECUTE_QUOTE' } })).body;
    now = Date.parse(a.quote.expiresAt) + 1;
    const r = await api.call('POST', `/agents/${acct.agentId}/actions/${a.id}/approve`);
    assert.equal(r.status, 200);
    assertAgentAction(r.body);
    assert.equal(r.body.status, 'FAILED');
    assert.equal(r.body.transaction.failureReason, 'QUOTE_EXPIRED');
  });

  test('an execution left in progress by a test control: APPROVED with a PENDING transaction, then FAILED', async () => {
    const acct = await api.newAccount();
    const a = (await api.call('POST', `/sandbox/agents/${acct.agentId}/actions`, { outside: true, body: { type: 'TRANSFER_OUT' } })).body;
    const control = `/sandbox/agents/${acct.agentId}/actions/${a.id}/execution`;
    assertError(await api.call('POST', control, { outside: true, body: { status: 'FAILED' } }), 409);
    const started = await api.call('POST', control, { outside: true, body: { status: 'PENDING' } });
    assert.equal(started.status, 200, started.text);
    assertAgentAction(started.body);
    assert.equal(started.body.status, 'APPROVED');
    assert.equal(started.body.transaction.status, 'PENDING');
    assert.equal(started.body.transaction.settledAt, undefined);
    const failed = await api.call('POST', control, { outside: true, body: { status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' } });
    assertAgentAction(failed.body);
    assert.equal(failed.body.status, 'FAILED');
    assert.equal(failed.body.transaction.failureReason, 'INSUFFICIENT_FUNDS');
    assert.equal((await agentCall(`/agents/me/actions/${a.id}`, acct.agentToken)).body.status, 'FAILED');
    assertError(await api.call('POST', control, { outside: true, body: { status: 'COMPLETED' } }), 409);
  });

  test('unknown agent or action 404; action of another agent 404', async () => {
    const a = await api.newAccount();
    const b = await api.newAccount();
    const act = (await api.call('POST', `/sandbox/agents/${a.agentId}/actions`, { outside: true })).body;
    assertError(await api.call('POST', `/agents/${b.agentId}/actions/${act.id}/approve`), 404);
    assertError(await api.call('POST', `/agents/Agent:00000000-0000-4000-8000-000000000000/actions/${act.id}/approve`), 404);
    assertFieldError(await api.call('POST', `/agents/nope/actions/${act.id}/approve`), 'agentId');
  });
});
