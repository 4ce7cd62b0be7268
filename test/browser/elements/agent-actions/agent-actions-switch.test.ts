/**
 * <agent-actions> when the page switches it (another agent's token, another filter) or reloads it
 * while a step is in flight or a wait is running, in real Chromium against the real sandbox through
 * the real proxy: nothing of the agent before reaches the list of the one after, the trouble of its
 * polls is its own, "load more" moves the focus only when the keyboard is still in the element, and
 * a reload keeps to the service's Retry-After (reference.md: `429 RATE_LIMITED` carries it).
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/index.ts';
import { approveAction, newAccount, newAgentAction, type RigAccount } from '../../support/rig.ts';
import { failNext, failPolls, focusIn, holdAnswer, nextEvent, part, parts, pollStart, resetPage, shadow, text, useRig, waitFor } from '../shared/helpers.ts';

async function mountActions(token: string, attributes: Record<string, string> = {}): Promise<AgentActions> {
  const el = document.createElement('agent-actions') as AgentActions;
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  el.agentToken = token;
  document.body.append(el);
  await waitFor(() => el.matches(':state(ready)'), 'the first page');
  await el.updateComplete;
  return el;
}

/** When the page asks for the actions from now on (performance.now()), until `restore()`. */
function requestTimes(): { sent: number[]; restore: () => void } {
  const sent: number[] = [];
  const page = window.fetch;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    if (new Request(input, init).url.includes('/agents/me/actions')) sent.push(performance.now());
    return page(input, init);
  };
  return { sent, restore: () => void (window.fetch = page) };
}

/**
 * Starts a step whose answer `held` keeps (`start`), sets the agent `token` once the request is
 * at the service, waits for that agent's list, then lets the held answer through and gives it
 * `settle` ms to land (where it must not).
 */
async function switchWhileHeld(el: AgentActions, held: ReturnType<typeof holdAnswer>, start: () => unknown, token: string, settle: number): Promise<void> {
  try {
    await start();
    await held.arrived;
    el.agentToken = token;
    await waitFor(() => el.matches(':state(ready)'), 'the other agent\'s list');
    held.release();
    await held.read.catch(() => undefined);
    await new Promise((r) => setTimeout(r, settle));
    await el.updateComplete;
  } finally {
    held.undo();
  }
}

/** The ids the rows name. */
const shownIds = (el: AgentActions) => parts(el, 'action').map((li) => li.getAttribute('aria-labelledby')!.replace(/^action-/, ''));

/** The ids of an account's actions (of one status, if given), as the rows name them. */
const idsOf = async (acct: RigAccount, status?: string) => {
  const r = await fetch(`/api/agents/me/actions?${status ? `status=${status}&` : ''}limit=100`, { headers: { authorization: `Bearer ${acct.agentToken}` } });
  return ((await r.json()) as { data: Array<{ id: string }> }).data.map((a) => a.id.replace(/[^A-Za-z0-9-]/g, '-'));
};

describe('<agent-actions> switched or reloaded while a step is in flight', function () {
  this.timeout(60000);
  let a: RigAccount;
  let b: RigAccount;

  before(useRig);

  beforeEach(async () => {
    [a, b] = await Promise.all([newAccount({ actions: 12 }), newAccount({ actions: 4 })]);
  });

  afterEach(resetPage);

  it('another agent set while the polls fail starts without their trouble: nothing says it, and its own failed poll is reported', async () => {
    const el = await mountActions(a.agentToken, { 'page-size': '5', 'poll-interval': '150', 'poll-max-interval': '400' });
    const trouble = () => text(el, 'base').includes('Can’t check for updates');
    const undo = failPolls(el, 503);
    try {
      await waitFor(trouble, 'the trouble said');
      const polls: string[] = [];
      el.addEventListener('agent-actions-error', (e) => polls.push((e as CustomEvent<{ operation: string }>).detail.operation));
      el.agentToken = b.agentToken;
      await el.updateComplete;
      expect(trouble(), 'the trouble of the agent before, said while the next one loads').to.equal(false);
      await waitFor(() => el.matches(':state(ready)'), 'the other agent\'s list');
      // Its polls fail too: that is said and reported anew, once.
      await waitFor(() => polls.includes('poll'), 'the other agent\'s failed poll reported', 5000);
      await waitFor(trouble, 'the other agent\'s trouble said');
      expect(polls).to.deep.equal(['poll']);
    } finally {
      undo();
    }
  });

  it('a page of "load more" of the agent before, answered after another agent is set, is not added to the list', async () => {
    const el = await mountActions(a.agentToken, { 'page-size': '5', 'poll-interval': '60000' });
    await switchWhileHeld(el, holdAnswer('GET', /\/agents\/me\/actions\?.*cursor=/), () => part(el, 'load-more-button')!.click(), b.agentToken, 200);
    expect(shownIds(el)).to.deep.equal(await idsOf(b));
  });

  it('a decision of the agent before, read after another agent is set, is neither shown nor told', async () => {
    // Under "Waiting for approval" a poll is the pending list alone, and a decision is read by itself
    // (under "All" the poll's first page, holding the action, would carry it).
    const el = await mountActions(a.agentToken, { status: 'PENDING_APPROVAL', 'page-size': '5', 'poll-interval': '150', 'poll-max-interval': '400' });
    const created = await newAgentAction(a.agentId, 'TRANSFER_OUT');
    await waitFor(() => shownIds(el)[0] === created.id.replace(/[^A-Za-z0-9-]/g, '-'), 'the new action');
    const told: string[] = [];
    el.addEventListener('agent-action-changed', (e) => told.push((e as CustomEvent<{ action: { id: string } }>).detail.action.id));
    await switchWhileHeld(el, holdAnswer('GET', /\/agents\/me\/actions\/AgentAction:/), () => approveAction(a.agentId, created.id), b.agentToken, 500);
    expect(told).to.deep.equal([]);
    expect(shownIds(el)).to.deep.equal(await idsOf(b, 'PENDING_APPROVAL'));
  });

  it('an answer of "load more" that comes after the keyboard left the element leaves the focus where it went', async () => {
    const el = await mountActions(a.agentToken, { 'page-size': '5', 'poll-interval': '60000' });
    const outside = document.createElement('input');
    document.body.append(outside);
    const held = holdAnswer('GET', /\/agents\/me\/actions\?.*cursor=/);
    try {
      const more = part(el, 'load-more-button')!;
      more.focus();
      more.click();
      await held.arrived;
      outside.focus();
      held.release();
      await waitFor(() => parts(el, 'action').length === 10, '10 actions');
      await el.updateComplete;
    } finally {
      held.undo();
    }
    expect(document.activeElement === outside, `the focus in the page's own field, not ${focusIn(el) || document.activeElement?.tagName}`).to.equal(true);
    // Still there: the keyboard on the button sees the focus go to the first new action.
    part(el, 'load-more-button')!.focus();
    part(el, 'load-more-button')!.click();
    await waitFor(() => parts(el, 'action').length === 12, '12 actions');
    await el.updateComplete;
    expect(shadow(el).activeElement === parts(el, 'action')[10], `the focus on the first new action, not ${focusIn(el)}`).to.equal(true);
  });

  /** A 429 (Retry-After: 2) on the next poll, then `act`: ms from that poll to the next request of the actions. */
  async function nextAfterRefusedPoll(el: AgentActions, act: () => void): Promise<number> {
    const undo = failNext('GET', pollStart(), 429, 1, { 'Retry-After': '2' });
    const { sent, restore } = requestTimes();
    try {
      const refused = nextEvent<CustomEvent<{ code: string; operation: string }>>(el, 'agent-actions-error');
      el.checkNow();
      expect((await refused).detail).to.include({ code: 'rate_limited', operation: 'poll' });
      const at = sent.length;
      act();
      await waitFor(() => sent.length > at, 'a request after the 429', 10000);
      return sent[at]! - sent[at - 1]!;
    } finally {
      restore();
      undo();
    }
  }

  it('reload() while a poll\'s Retry-After runs loads once it has passed, not before', async () => {
    const el = await mountActions(a.agentToken, { 'page-size': '5', 'poll-interval': '60000' });
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    const waited = await nextAfterRefusedPoll(el, () => el.reload());
    expect(waited, `the first page asked for ${Math.round(waited)} ms after the 429`).to.be.at.least(2000);
    await waitFor(() => el.matches(':state(ready)'), 'the list loaded after the wait');
    expect(parts(el, 'action')).to.have.length(5);
  });

  it('"Try again" after a 429 on the first page waits out its Retry-After', async () => {
    const undo = failNext('GET', /\/agents\/me\/actions\?/, 429, 1, { 'Retry-After': '2' });
    const el = document.createElement('agent-actions') as AgentActions;
    el.agentToken = a.agentToken;
    document.body.append(el);
    let at = 0;
    try {
      await waitFor(() => el.matches(':state(failed)'), 'the refused first page');
      at = performance.now();
    } finally {
      undo();
    }
    await el.updateComplete;
    const { sent, restore } = requestTimes();
    try {
      [...shadow(el).querySelectorAll('button')].find((x) => /Try again/.test(x.textContent ?? ''))!.click();
      await waitFor(() => el.matches(':state(ready)'), 'the list loaded after the wait', 10000);
    } finally {
      restore();
    }
    expect(sent[0]! - at, `asked again ${Math.round(sent[0]! - at)} ms after the 429`).to.be.at.least(1900);
  });
});
