/**
 * What one poll of <agent-actions> asks the service, in real Chromium against the real sandbox
 * through the real proxy (api.md "GET {base_url}/agents/me/actions"). Under "All" the filter's first
 * page, read first, is the whole poll when it holds every action shown waiting for approval and
 * reaches an action already known (it goes as deep as the deepest action shown waiting, so that one
 * pushed off the first page by newer ones keeps the poll one request); under another filter the pending list and the filter's first
 * page are both needed. An action submitted and decided between two polls (never pending here)
 * still appears. The requests are counted, never timed (the machine is shared).
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/index.ts';
import { approveAction, newAccount, newAgentAction, rejectAction, type RigAccount } from '../../support/rig.ts';
import { parts, resetPage, useRig, waitFor } from '../shared/helpers.ts';

const rowId = (id: string) => `action-${id.replace(/[^A-Za-z0-9-]/g, '-')}`;
const shownIds = (el: AgentActions) => parts(el, 'action').map((li) => li.getAttribute('aria-labelledby') ?? '');
const statuses = (el: AgentActions) => parts(el, 'status').map((s) => s.className.replace('status', '').trim());

/** Every request of the page to the agent's actions (lists and reads of one), and those answered. */
function watchRequests() {
  const original = window.fetch;
  const w = { urls: [] as string[], answered: 0, restore: () => void (window.fetch = original) };
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new Request(input, init).url;
    if (!url.includes('/agents/me/actions')) return original(input, init);
    w.urls.push(url.slice(url.indexOf('/agents/me/actions')));
    return original(input, init).finally(() => w.answered++);
  };
  return w;
}

/** The requests of one poll started by checkNow(), which resolves once that poll is done and shown. */
async function onePoll(el: AgentActions): Promise<string[]> {
  const w = watchRequests();
  try {
    await el.checkNow();
    expect(w.urls, 'the poll').not.to.be.empty;
    // (Its answers were read: the body's end is counted as they are.)
    await waitFor(() => w.answered === w.urls.length, "the poll's requests", 10000);
    return w.urls;
  } finally {
    w.restore();
  }
}

describe('<agent-actions> requests of a poll', () => {
  let acct: RigAccount;
  before(useRig);
  beforeEach(async () => (acct = await newAccount({ actions: 23 } as Parameters<typeof newAccount>[0])));
  afterEach(resetPage);

  for (const filter of ['ALL', 'APPROVED'] as const) {
    it(`under "${filter}", a poll with nothing new sends ${filter === 'ALL' ? 'exactly one request' : 'the pending list and the first page'}, and an action submitted and decided between two polls still appears`, async () => {
      const el = document.createElement('agent-actions') as AgentActions;
      // Polls once a minute: only checkNow() polls within the test.
      for (const [k, v] of Object.entries({ status: filter, 'page-size': '4', 'poll-interval': '60000' })) el.setAttribute(k, v);
      el.agentToken = acct.agentToken;
      const first = watchRequests();
      try {
        document.body.append(el);
        await waitFor(() => el.matches(':state(ready)') && el.matches(':state(polling)'), 'the first page, polling');
        // The first poll done (or stopped by this check, which is then done), any read it made answered.
        await el.checkNow();
        await waitFor(() => first.answered === first.urls.length, 'the first poll');
      } finally {
        first.restore();
      }
      const before = shownIds(el);
      expect(before).to.have.length(4);
      if (filter === 'ALL') {
        // Under "All", one shown is waiting for approval; the last row of the first page, which the
        // new action pushes off it, is not: the first page still holds every one shown.
        expect(statuses(el).slice(0, 3)).to.include('PENDING_APPROVAL');
        expect(statuses(el)[3]).to.not.equal('PENDING_APPROVAL');
      }
      const quiet = filter === 'ALL' ? ['/agents/me/actions?limit=4'] : ['/agents/me/actions?status=PENDING_APPROVAL&limit=100', `/agents/me/actions?status=${filter}&limit=4`];
      for (let i = 0; i < 2; i++) expect(await onePoll(el), `quiet poll ${i + 1}`).to.deep.equal(quiet);
      expect(shownIds(el)).to.deep.equal(before);

      const created = await newAgentAction(acct.agentId, 'TRANSFER_OUT');
      await approveAction(acct.agentId, created.id);
      const urls = await onePoll(el);
      await waitFor(() => shownIds(el)[0] === rowId(created.id), 'the decided action on top', 8000);
      expect(statuses(el)[0]).to.equal('APPROVED');
      expect(shownIds(el).slice(1)).to.deep.equal(before);
      // Under "All" the first page reaches the actions known and holds every one shown waiting for
      // approval: that poll too was one request, its copy of the new action the decision.
      expect(urls, String(statuses(el))).to.deep.equal(quiet);
    });
  }

  it('under "All", a quiet poll stays one request once the action shown waiting for approval is pushed off the first page, and its decision elsewhere still shows at the next poll', async () => {
    const el = document.createElement('agent-actions') as AgentActions;
    for (const [k, v] of Object.entries({ 'page-size': '4', 'poll-interval': '60000' })) el.setAttribute(k, v);
    el.agentToken = acct.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(ready)') && el.matches(':state(polling)'), 'the first page, polling');
    await onePoll(el);
    const waiting = shownIds(el).filter((_, i) => statuses(el)[i] === 'PENDING_APPROVAL');
    expect(waiting, 'one shown waiting for approval').to.have.length(1);
    // Four new actions, decided at once: the one waiting leaves the first page (4 a page).
    const created: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await newAgentAction(acct.agentId, 'TRANSFER_OUT');
      await approveAction(acct.agentId, a.id);
      created.push(rowId(a.id));
    }
    await onePoll(el);
    await waitFor(() => shownIds(el)[0] === created[3], 'the new actions on top', 8000);
    const depth = shownIds(el).indexOf(waiting[0]!);
    expect(depth, 'pushed off the first page').to.be.greaterThan(3);
    // Nothing changes: each poll is one request, deep enough to hold the action waiting.
    for (let i = 0; i < 2; i++) expect(await onePoll(el), `quiet poll ${i + 1}`).to.deep.equal([`/agents/me/actions?limit=${depth + 1}`]);
    // Decided elsewhere: the next poll shows it, in that one request.
    const id = waiting[0]!.replace(/^action-AgentAction-/, 'AgentAction:');
    await rejectAction(acct.agentId, id, 'Not this one');
    expect(await onePoll(el), 'the poll after the decision').to.deep.equal([`/agents/me/actions?limit=${depth + 1}`]);
    await waitFor(() => statuses(el)[depth] === 'REJECTED', 'the decision shown', 8000);
    // None shown waits any more: a poll reads the first page alone.
    expect(await onePoll(el), 'a poll after').to.deep.equal(['/agents/me/actions?limit=4']);
  });

  it('under "All", a poll whose first page is already the unfiltered list\'s first 100 does not read it again for more than four decisions', async () => {
    const acct110 = await newAccount({ actions: 110 } as Parameters<typeof newAccount>[0]);
    const el = document.createElement('agent-actions') as AgentActions;
    for (const [k, v] of Object.entries({ 'page-size': '100', 'poll-interval': '60000' })) el.setAttribute(k, v);
    el.agentToken = acct110.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(ready)') && el.matches(':state(polling)'), 'the first page, polling');
    (parts(el, 'load-more-button')[0] as HTMLButtonElement).click();
    await waitFor(() => shownIds(el).length === 110, 'all 110 shown');
    // One waiting for approval beyond the first 100: the poll's first page (100) does not hold it,
    // so the pending list is read too.
    expect(statuses(el).slice(100)).to.include('PENDING_APPROVAL');
    await onePoll(el);
    const waiting = shownIds(el).filter((_, i) => i < 100 && statuses(el)[i] === 'PENDING_APPROVAL').slice(0, 5);
    expect(waiting).to.have.length(5);
    for (const row of waiting) await approveAction(acct110.agentId, row.replace(/^action-AgentAction-/, 'AgentAction:'));
    const urls = await onePoll(el);
    await waitFor(() => waiting.every((row) => statuses(el)[shownIds(el).indexOf(row)] !== 'PENDING_APPROVAL'), 'the five decisions shown', 8000);
    expect(urls.filter((u) => u === '/agents/me/actions?limit=100'), urls.join(' ')).to.have.length(1);
    expect(urls).to.include('/agents/me/actions?status=PENDING_APPROVAL&limit=100');
  });
});
