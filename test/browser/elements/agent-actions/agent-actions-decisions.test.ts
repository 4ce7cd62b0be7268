/**
 * <agent-actions> reading many decisions at once, in real Chromium against the real sandbox through
 * the real proxy: the platform decides several pending actions between two polls, and the element
 * reads their decisions (api.md "GET {base_url}/agents/me/actions": status filter, limit 1..100,
 * cursor, totalCount; reference.md "GET /agents/me/actions/{actionId}"). The requests of that poll
 * are counted, never timed (the machine is shared); the wall time is only logged. Under the "All"
 * filter each poll also reads the filter's first page, page-size long (PAGE) or, when an action
 * shown waiting for approval lies deeper, as deep as the deepest of them (up to 100). That page is
 * read first, and is the whole poll when it holds every action shown waiting for approval (its
 * copies then carry the decisions); else the pending list is read after it, and then the list pages
 * the decisions are read from (limit=100, told apart from that first page by coming after the
 * pending list).
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/index.ts';
import { createClient } from '../../../../src/core/client.ts';
import type { AgentAction } from '../../../../src/core/types.ts';
import { approveAction, fixtures, newAccount, newAgentAction, type RigAccount, type RigFixtures } from '../../support/rig.ts';
import { failNext, parts, resetPage, shadow, useRig, waitFor } from '../shared/helpers.ts';

const rowId = (id: string) => `action-${id.replace(/[^A-Za-z0-9-]/g, '-')}`;

/** The element's page size: not 100, the size of the pages the decisions are read from. */
const PAGE = 75;
/** A first page of the filter ("All"): the element's own, or the one each poll reads (sent before its pending list). */
const firstPage = (url: string) => /\/agents\/me\/actions\?limit=\d+$/.test(url);

/**
 * Counts the page's requests of the agent's actions (a pass-through wrapper: every call still goes
 * out): the pending list's pages (and those answered), the filter's first pages (and those
 * answered; a page of the unfiltered list without cursor sent after a pending list is a list page
 * the decisions are read from), other list pages, reads of one action, and the most reads of one
 * action in flight at once.
 */
function countReads() {
  const original = window.fetch;
  const c = { pending: 0, answered: 0, firsts: 0, firstsAnswered: 0, lists: 0, ones: 0, inFlight: 0, maxInFlight: 0, restore: () => void (window.fetch = original) };
  let afterPending = false;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (/\/agents\/me\/actions\/AgentAction/.test(url)) {
      c.ones++;
      c.maxInFlight = Math.max(c.maxInFlight, ++c.inFlight);
      return original(input, init).finally(() => c.inFlight--);
    }
    if (url.includes('status=PENDING_APPROVAL')) {
      c.pending++;
      afterPending = true;
      return original(input, init).then((r) => (c.answered++, r));
    }
    if (firstPage(url) && !afterPending) {
      c.firsts++;
      return original(input, init).then((r) => (c.firstsAnswered++, r));
    }
    if (/\/agents\/me\/actions\?/.test(url)) c.lists++;
    return original(input, init);
  };
  return c;
}

/**
 * The element polling once a minute (checkNow polls at once), with its first page loaded, then
 * `loadPages` run, then its first poll answered.
 */
async function startPolling(acct: RigAccount, pendingPages = 1, loadPages?: (el: AgentActions) => Promise<void>): Promise<AgentActions> {
  const el = document.createElement('agent-actions') as AgentActions;
  el.setAttribute('page-size', String(PAGE));
  el.setAttribute('poll-interval', '60000');
  const first = countReads();
  try {
    el.agentToken = acct.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(ready)') && el.matches(':state(polling)'), 'the first page');
    await loadPages?.(el);
    // The first poll answered, every request of it: read before any decision below, it finds none
    // to read, however late it is handled. It starts with the filter's first page (the element's
    // own first page was the first such request), then reads the pending list, every page of it,
    // unless that page held every action shown waiting for approval: none is left to count below.
    await waitFor(() => first.firstsAnswered >= 2, 'the first poll');
    await new Promise((r) => setTimeout(r, 500));
    await waitFor(() => first.pending === 0 || first.answered >= pendingPages, "the first poll's pending list");
  } finally {
    first.restore();
  }
  return el;
}

/** Every page loaded with "load more", so that each decision is shown (and told with agent-action-changed). */
async function loadEveryPage(el: AgentActions): Promise<void> {
  for (let more; (more = shadow(el).querySelector<HTMLButtonElement>('[part=load-more-button]')); ) {
    const shown = parts(el, 'action').length;
    more.click();
    await waitFor(() => parts(el, 'action').length > shown, 'the next page');
    await el.updateComplete;
  }
}

describe('<agent-actions> with many decisions at once', function () {
  this.timeout(120000);
  let f: RigFixtures;

  before(async () => {
    f = await fixtures();
    await useRig();
  });

  afterEach(resetPage);

  /** The element with every action loaded, polling once a minute (checkNow polls at once). */
  const polling = (acct: RigAccount, pendingPages = 1) => startPolling(acct, pendingPages, loadEveryPage);

  /** The platform decides `ids` at once; one poll then reads them. Resolves with that poll's requests. */
  async function decideAndPoll(el: AgentActions, acct: RigAccount, ids: string[], label: string) {
    const changed: string[] = [];
    el.addEventListener('agent-action-changed', (e) => changed.push((e as CustomEvent<{ action: AgentAction }>).detail.action.id));
    await Promise.all(ids.map((id) => approveAction(acct.agentId, id)));
    const reads = countReads();
    try {
      const t0 = performance.now();
      el.checkNow();
      await waitFor(() => changed.length === ids.length, `${ids.length} decisions shown`, 60000);
      const ms = Math.round(performance.now() - t0);
      // Measurement only (a shared machine's timings are no test).
      console.log(`[decisions] ${label}: ${ids.length} decided, requests ${reads.pending} pending page(s) + ${reads.firsts} first page(s) + ${reads.lists} list page(s) + ${reads.ones} single reads (at most ${reads.maxInFlight} at once), ${ms} ms`);
      // One poll: one read of the filter's first page (read first), besides its pending list if any.
      expect(reads.firsts, "the filter's first page").to.equal(1);
      return { ...reads, changed };
    } finally {
      reads.restore();
    }
  }

  for (const n of [1, 10, 100]) {
    it(`${n} new action(s) decided at once are read in one request${n === 1 ? '' : ', not one each'}`, async () => {
      const acct = await newAccount({ actions: 0 });
      const created: string[] = [];
      for (let i = 0; i < n; i++) created.push((await newAgentAction(acct.agentId, 'TRANSFER_OUT')).id);
      const el = await polling(acct);
      expect(parts(el, 'action')).to.have.length(n);
      const reads = await decideAndPoll(el, acct, created, `${n} new`);
      // The poll's first page goes as deep as the deepest of them (up to 100; PAGE at least) and
      // holds them all: it is the one request, its copies the decisions.
      expect(reads.pending, 'pending list pages').to.equal(0);
      expect(reads.lists + reads.ones, 'reads of the decisions besides the first page').to.equal(0);
      expect([...reads.changed].sort()).to.deep.equal([...created].sort());
      // Told in the list's order.
      const shown = parts(el, 'action').map((li) => li.getAttribute('aria-labelledby'));
      expect(reads.changed.map(rowId)).to.deep.equal(shown.filter((id) => reads.changed.map(rowId).includes(id!)));
      expect(el.matches(':state(polling)')).to.equal(true);
    });
  }

  /** The ids of the account's pending actions, in the service's order. */
  async function pendingIds(acct: RigAccount): Promise<string[]> {
    const ids: string[] = [];
    const client = createClient({ baseUrl: f.apiBase });
    for await (const a of client.iterateAgentActions({ agentToken: acct.agentToken, status: 'PENDING_APPROVAL', limit: 100 })) ids.push(a.id);
    return ids;
  }

  it('decisions deep in a long history are read one by one, four at a time, after at most one list page', async () => {
    // 800 actions, 200 of them pending over the whole history; the six oldest pending are decided.
    const acct = await newAccount({ actions: 800 });
    const pending = await pendingIds(acct);
    expect(pending).to.have.length(200);
    const el = await polling(acct, 2);
    const decided = pending.slice(-6);
    const reads = await decideAndPoll(el, acct, decided, '6 of 800, oldest');
    expect(reads.pending).to.equal(2);
    // The list would take 7 more pages to reach them: each is read by itself instead, 4 at once.
    expect(reads.lists, 'list pages').to.be.at.most(1);
    expect(reads.ones, 'single reads').to.equal(6);
    expect(reads.maxInFlight, 'single reads at once').to.equal(4);
  });

  it('a bulk decision over a long history is read in list pages, far fewer than one request each', async () => {
    const acct = await newAccount({ actions: 800 });
    const pending = await pendingIds(acct);
    const el = await polling(acct, 2);
    const decided = pending.slice(0, 100);
    const reads = await decideAndPoll(el, acct, decided, '100 of 800, newest');
    // The newest 100 pending actions lie within the newest 400 actions: four pages.
    expect(reads.lists + reads.ones, 'reads of the decisions').to.be.at.most(5);
  });

  it('a 429 on a decision\'s read starts no further read in that poll; the rest are read at the next', async () => {
    const acct = await newAccount({ actions: 800 });
    const pending = await pendingIds(acct);
    const el = await polling(acct, 2);
    const decided = pending.slice(-8);
    const changed: string[] = [];
    el.addEventListener('agent-action-changed', (e) => changed.push((e as CustomEvent<{ action: AgentAction }>).detail.action.id));
    await Promise.all(decided.map((id) => approveAction(acct.agentId, id)));
    // The first read of one action is refused (429) without reaching the proxy; those sent with it
    // go out. (failNext decides after an await, so it would refuse all the reads sent together.)
    const page = window.fetch;
    let refused = 0;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (refused || !/\/agents\/me\/actions\/AgentAction/.test(url)) return page(input, init);
      refused++;
      return Promise.resolve(new Response('', { status: 429, headers: { 'Retry-After': '1' } }));
    };
    const undo = () => void (window.fetch = page);
    const reads = countReads();
    try {
      el.checkNow();
      // The three reads in flight with the refused one are shown, once all four readers are done
      // (the decisions are shown after the last): no other read went out.
      await waitFor(() => changed.length >= 3, 'the reads in flight shown', 20000);
      expect(changed).to.have.length(3);
      expect(reads.ones, 'single reads in the poll that met the 429').to.equal(4);
      el.checkNow();
      await waitFor(() => changed.length === 8, 'the rest read at the next poll', 20000);
      expect([...changed].sort()).to.deep.equal([...decided].sort());
    } finally {
      reads.restore();
      undo();
    }
  });

  it('disconnected while it reads decisions, it starts no further read and reports nothing', async () => {
    const acct = await newAccount({ actions: 800 });
    const pending = await pendingIds(acct);
    const el = await polling(acct, 2);
    const decided = pending.slice(-8);
    const errors: unknown[] = [];
    el.addEventListener('agent-actions-error', (e) => errors.push((e as CustomEvent).detail));
    await Promise.all(decided.map((id) => approveAction(acct.agentId, id)));
    // The element leaves the page as the first read of one decision goes out.
    const page = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (/\/agents\/me\/actions\/AgentAction/.test(url)) el.remove();
      return page(input, init);
    };
    const reads = countReads();
    try {
      el.checkNow();
      await waitFor(() => !el.isConnected, 'the element gone', 20000);
      await waitFor(() => reads.inFlight === 0, 'the reads cut off', 5000);
      // None started after them (a while to show one that would be).
      await new Promise((r) => setTimeout(r, 300));
      // Only the reads begun with the first (at most four at once); none after. (The test server
      // lists those cut off among its "404 network requests": the proxy never answered them.)
      expect(reads.ones).to.be.within(1, 4);
      expect(reads.inFlight).to.equal(0);
      expect(errors).to.deep.equal([]);
      expect(el.matches(':state(polling)')).to.equal(false);
    } finally {
      reads.restore();
      window.fetch = page;
    }
  });
});

describe('<agent-actions> reading decisions from a list that misbehaves', function () {
  this.timeout(120000);

  before(async () => {
    await useRig();
  });

  afterEach(resetPage);

  const unfiltered = (url: string) => /\/agents\/me\/actions\?/.test(url) && !url.includes('status=');
  const urlOf = (input: RequestInfo | URL) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

  it('a list whose cursor comes back is read no further than its totalCount: the decisions are read one by one', async () => {
    // 150 actions, one in four pending: the six oldest pending lie past the first page of 100.
    const acct = await newAccount({ actions: 150 });
    const el = await startPolling(acct);
    expect(parts(el, 'action')).to.have.length(PAGE);
    const ids: string[] = [];
    const client = createClient({ baseUrl: (await fixtures()).apiBase });
    for await (const a of client.iterateAgentActions({ agentToken: acct.agentToken, status: 'PENDING_APPROVAL', limit: 100 })) ids.push(a.id);
    const decided = ids.slice(-6);
    // Loaded with "load more", so that each decision is shown.
    shadow(el).querySelector<HTMLButtonElement>('[part=load-more-button]')!.click();
    await waitFor(() => parts(el, 'action').length === 150, 'the second page');
    const changed: string[] = [];
    el.addEventListener('agent-action-changed', (e) => changed.push((e as CustomEvent<{ action: AgentAction }>).detail.action.id));
    await Promise.all(decided.map((id) => approveAction(acct.agentId, id)));
    // The service answers the page after the first with the first again, and the same cursor.
    const page = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = urlOf(input);
      return page(unfiltered(url) ? url.replace(/&?cursor=[^&]*/, '') : input, init);
    };
    const reads = countReads();
    try {
      el.checkNow();
      await waitFor(() => changed.length === 6 || reads.lists > 20, 'the decisions shown', 20000);
      expect(reads.lists, 'list pages').to.be.at.most(2);
      expect(reads.firsts, "the filter's first page, read once by the poll").to.be.at.most(1);
      expect([...changed].sort()).to.deep.equal([...decided].sort());
    } finally {
      reads.restore();
      window.fetch = page;
    }
  });

  it("a poll whose read of the filter's first page fails (503) still shows the decisions it read, not at the next poll", async () => {
    const acct = await newAccount({ actions: 0 });
    const created: string[] = [];
    for (let i = 0; i < 3; i++) created.push((await newAgentAction(acct.agentId, 'TRANSFER_OUT')).id);
    const el = await startPolling(acct);
    const changed: string[] = [];
    el.addEventListener('agent-action-changed', (e) => changed.push((e as CustomEvent<{ action: AgentAction }>).detail.action.id));
    await Promise.all(created.map((id) => approveAction(acct.agentId, id)));
    // Only the poll's read of the filter's first page fails; the next poll is a minute away.
    const undo = failNext('GET', new RegExp(`/agents/me/actions\\?limit=${PAGE}$`), 503, 1);
    try {
      el.checkNow();
      await waitFor(() => changed.length === 3, 'the decisions shown', 10000);
      expect([...changed].sort()).to.deep.equal([...created].sort());
    } finally {
      undo();
    }
  });

  it('a list page that fails (503) leaves the decisions to be read one by one in the same poll', async () => {
    const acct = await newAccount({ actions: 0 });
    const created: string[] = [];
    for (let i = 0; i < 6; i++) created.push((await newAgentAction(acct.agentId, 'TRANSFER_OUT')).id);
    const el = await startPolling(acct);
    expect(parts(el, 'action')).to.have.length(6);
    const changed: string[] = [];
    el.addEventListener('agent-action-changed', (e) => changed.push((e as CustomEvent<{ action: AgentAction }>).detail.action.id));
    await Promise.all(created.map((id) => approveAction(acct.agentId, id)));
    // Every page of the unfiltered list the decisions are read from (limit=100) fails; the pending
    // list and the reads of one action go through. The poll's read of the filter's first page
    // (limit=PAGE) fails too, once: its copies would carry the decisions, none left to read.
    const undoFirst = failNext('GET', new RegExp(`/agents/me/actions\\?limit=${PAGE}$`), 503, 1);
    const undo = failNext('GET', /\/agents\/me\/actions\?limit=100(&|$)/, 503, 1000);
    const reads = countReads();
    try {
      el.checkNow();
      await waitFor(() => changed.length === 6, 'the decisions shown', 20000);
      expect(reads.ones, 'single reads').to.equal(6);
      expect(reads.firsts, "the filter's first page, read once by the poll").to.be.at.most(1);
      expect([...changed].sort()).to.deep.equal([...created].sort());
    } finally {
      reads.restore();
      undo();
      undoFirst();
    }
  });
});
