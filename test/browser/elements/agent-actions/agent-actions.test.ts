/**
 * <agent-actions> in real Chromium against the real sandbox through the real proxy (api.md "GET
 * {base_url}/agents/me/actions", "AgentAction.status"): cursor paging with "load more" until the
 * last page, the status filter, a new pending action and its approval or rejection arriving while
 * the element polls (core/agent.ts backoff poller), polling stopping on disconnect, a bad token
 * in words, and the token never reflected or carried by an event. Each test uses a fresh account.
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/index.ts';
import { setLocale } from '../../../../src/elements/shared/i18n.ts';
import '../../../../src/locales/ar.ts';
import { createClient } from '../../../../src/core/client.ts';
import type { AgentAction } from '../../../../src/core/types.ts';
import type { AgentActionChangedEvent } from '../../../../src/elements/agent-actions/agent-actions.events.ts';
import { actionExecution, approveAction, axLiveRegions, fixtures, goOffline, newAccount, newAgentAction, politeRegions, rejectAction, type RigAccount, type RigFixtures } from '../../support/rig.ts';
import { axeViolations, chooseFilter, borderContrast, drawnLeftToRight, failNext, failPolls, focusIn, holdNext, nextEvent, part, parts, pollStart, reshapeAnswer, resetPage, shadow, text, useRig, waitFor } from '../shared/helpers.ts';
import { watchLists } from '../shared/scale.ts';

async function mountActions(token: string, attributes: Record<string, string> = {}): Promise<AgentActions> {
  const el = document.createElement('agent-actions') as AgentActions;
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  el.agentToken = token;
  document.body.append(el);
  await el.updateComplete;
  return el;
}

/** Runs `upstream` (the platform changing an action) and waits, within `ms`, for the element to tell it: the `agent-action-changed` detail. */
async function toldAfter(el: AgentActions, upstream: () => Promise<unknown>, ms = 10000): Promise<AgentActionChangedEvent['detail']> {
  const changed = nextEvent<AgentActionChangedEvent>(el, 'agent-action-changed', ms);
  await upstream();
  return (await changed).detail;
}

async function ready(el: AgentActions): Promise<void> {
  await waitFor(() => el.matches(':state(ready)') || el.matches(':state(failed)'), 'the first page');
  await el.updateComplete;
}

function shownIds(el: AgentActions): string[] {
  return parts(el, 'action').map((li) => li.getAttribute('aria-labelledby') ?? '');
}

function statuses(el: AgentActions): string[] {
  return parts(el, 'status').map((s) => s.className.replace('status', '').trim());
}

/** Counts requests to a path fragment (or matching a pattern), and their answers (a pass-through wrapper: every call still goes out). */
function countRequests(fragment: string | RegExp) {
  const original = window.fetch;
  let count = 0;
  let answered = 0;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (typeof fragment === 'string' ? !url.includes(fragment) : !fragment.test(url)) return original(input, init);
    count++;
    return original(input, init).then((r) => (answered++, r));
  };
  return {
    get count() {
      return count;
    },
    /** Requests the service has answered (their status and headers are in). */
    get answered() {
      return answered;
    },
    restore() {
      window.fetch = original;
    },
  };
}

/**
 * What a screen reader hears from the element's polite status region: its text each time the
 * region's content changes, in order. Chromium reports a change of a live region it knows when its
 * text changes or new nodes come into it; the same words left in the same nodes are no change.
 */
function listen(el: AgentActions): { said: string[]; stop: () => void } {
  const region = shadow(el).querySelector('[role=status].live')!;
  const said: string[] = [];
  const watch = new MutationObserver(() => {
    const now = region.textContent!.trim();
    if (now) said.push(now);
  });
  watch.observe(region, { childList: true, subtree: true, characterData: true });
  return { said, stop: () => watch.disconnect() };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `n` more polls (under `filter`) have been answered, however slow the machine. */
async function morePolls(n: number, filter = 'ALL'): Promise<void> {
  const polls = countRequests(pollStart(filter));
  try {
    await waitFor(() => polls.answered >= n, `${n} more polls`, 10000);
  } finally {
    polls.restore();
  }
}

describe('<agent-actions>', () => {
  let f: RigFixtures, acct: RigAccount;
  before(async () => {
    f = await fixtures();
    await useRig();
  });
  beforeEach(async () => (acct = await newAccount({ actions: 23 } as Parameters<typeof newAccount>[0])));

  afterEach(resetPage);

  /** The element on a page of 5, polling fast (150 ms, backing off to 400 ms), its first page loaded. */
  async function pollingActions(attributes: Record<string, string> = {}): Promise<AgentActions> {
    const el = await mountActions(acct.agentToken, { ...attributes, 'page-size': '5', 'poll-interval': '150', 'poll-max-interval': '400' });
    await ready(el);
    return el;
  }

  /** The agent submits a new action; resolves once the element shows it on top. */
  async function shownNewAction(el: AgentActions, type: 'EXECUTE_QUOTE' | 'TRANSFER_OUT'): Promise<{ id: string; status: string }> {
    const created = await newAgentAction(acct.agentId, type);
    await waitFor(() => shownIds(el)[0] === `action-${created.id.replace(/[^A-Za-z0-9-]/g, '-')}`, 'the new action', 8000);
    return created;
  }

  it('draws each action\'s border at 3:1 or more against its background and the panel\'s, in the light and the dark theme (WCAG 1.4.11), axe finding nothing', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await mountActions(acct.agentToken, { theme, 'page-size': '5', 'poll-interval': '60000' });
      await ready(el);
      const items = parts(el, 'action');
      expect(items).to.have.length(5);
      for (const item of items) expect(borderContrast(item), `${theme}: ${borderContrast(item).toFixed(2)}:1`).to.be.at.least(3);
      expect(await axeViolations(el), theme).to.deep.equal([]);
      el.remove();
    }
  });

  it('pages with "load more" until the last page, in the service\'s order, each action once', async () => {
    const el = await mountActions(acct.agentToken, { 'page-size': '10', 'poll-interval': '60000' });
    await ready(el);
    expect(parts(el, 'action')).to.have.length(10);
    expect(text(el, 'footer')).to.match(/Showing 10 of 23/);
    expect(await axeViolations(el)).to.deep.equal([]);

    for (const expected of [20, 23]) {
      const more = part(el, 'load-more-button') as HTMLButtonElement;
      more.click();
      await waitFor(() => parts(el, 'action').length === expected, `${expected} actions`);
      await el.updateComplete;
      // Keyboard users continue at the first new action.
      const first = parts(el, 'action')[expected === 20 ? 10 : 20];
      expect(shadow(el).activeElement === first, `focus on the first new action (${first?.id}), not ${focusIn(el)}`).to.equal(true);
    }
    expect(part(el, 'load-more-button')).to.equal(null);
    expect(text(el, 'footer')).to.match(/Showing 23 of 23/);

    const all: AgentAction[] = [];
    for await (const a of createClient({ baseUrl: f.apiBase }).iterateAgentActions({ agentToken: acct.agentToken, limit: 100 })) all.push(a);
    expect(shownIds(el)).to.deep.equal(all.map((a) => `action-${a.id.replace(/[^A-Za-z0-9-]/g, '-')}`));
  });

  it('an action arriving on top while "load more" loads: the focus still goes to the first action of the new page', async () => {
    const el = await pollingActions();
    expect(parts(el, 'action')).to.have.length(5);
    const lastBefore = parts(el, 'action')[4]!.getAttribute('aria-labelledby');
    const hold = holdNext('GET', /cursor=/);
    try {
      (part(el, 'load-more-button') as HTMLButtonElement).click();
      await hold.arrived;
      await shownNewAction(el, 'TRANSFER_OUT');
      hold.release();
      await waitFor(() => parts(el, 'action').length === 11, '11 actions');
      await el.updateComplete;
      const rows = parts(el, 'action');
      // The new page follows the action that was last before it.
      expect(rows[5]!.getAttribute('aria-labelledby')).to.equal(lastBefore);
      expect(shadow(el).activeElement === rows[6], `focus on the first new action (${rows[6]!.getAttribute('aria-labelledby')}), not ${focusIn(el)}`).to.equal(true);
    } finally {
      hold.undo();
    }
  });

  /**
   * The next request matching `refused` is answered 429 with Retry-After: 2, on `act`: the
   * agent-actions-error of `operation` comes, then `held` checks the element; "load more" is held
   * (pressed meanwhile, it sends nothing) until the Retry-After has passed, then loads the next page.
   */
  async function loadMoreHeld(refused: RegExp, operation: 'load-more' | 'poll', act: (el: AgentActions) => void, held: (el: AgentActions) => void = () => {}): Promise<AgentActions> {
    const el = await mountActions(acct.agentToken, { 'page-size': '10', 'poll-interval': '60000' });
    await ready(el);
    if (operation === 'poll') await waitFor(() => el.matches(':state(polling)'), 'polling');
    const more = () => part(el, 'load-more-button') as HTMLButtonElement;
    const undo = failNext('GET', refused, 429, 1, { 'Retry-After': '2' });
    const spy = countRequests('cursor=');
    try {
      const failed = nextEvent<CustomEvent<{ code: string; operation: string }>>(el, 'agent-actions-error');
      act(el);
      expect((await failed).detail).to.include({ code: 'rate_limited', operation });
      await el.updateComplete;
      held(el);
      expect(more().getAttribute('aria-disabled')).to.equal('true');
      // Pressed during the service's wait: nothing is sent.
      const sent = spy.count;
      more().click();
      await new Promise((r) => setTimeout(r, 300));
      expect(spy.count).to.equal(sent);
      expect(parts(el, 'action')).to.have.length(10);
      await waitFor(() => more().getAttribute('aria-disabled') === 'false', 'the button back after Retry-After', 8000);
    } finally {
      spy.restore();
      undo();
    }
    more().click();
    await waitFor(() => parts(el, 'action').length === 20, '20 actions');
    return el;
  }

  it('a 429 on "load more" holds the button for the service\'s Retry-After, then the next page loads', async () => {
    const el = await loadMoreHeld(/\/agents\/me\/actions\?.*cursor=/, 'load-more', (el) => (part(el, 'load-more-button') as HTMLButtonElement).click(), (el) => {
      expect(text(el, 'error')).to.match(/“Load more” works again in a moment/);
      // The alert that says it describes the button: the words are not said twice.
      expect(part(el, 'load-more-button')!.getAttribute('aria-describedby')).to.equal(part(el, 'error')!.id);
      expect(text(el, 'footer')).to.not.match(/works again/);
    });
    expect(text(el, 'error')).to.equal('');
  });

  it('a poll\'s Retry-After holds "load more" too: the button waits, nothing is sent, then the next page loads', async () => {
    await loadMoreHeld(pollStart(), 'poll', (el) => el.checkNow());
  });

  it('"load more" held by a Retry-After comes back when the page\'s clock says the wait is over, when timers run ahead of that clock', async () => {
    const now = Date.now;
    try {
      // The wall clock set back by 300 ms once the hold began: the timer of its end fires first.
      await loadMoreHeld(/\/agents\/me\/actions\?.*cursor=/, 'load-more', (el) => (part(el, 'load-more-button') as HTMLButtonElement).click(), () => (Date.now = () => now.call(Date) - 300));
    } finally {
      Date.now = now;
    }
  });

  it('"load more" held by a poll\'s Retry-After says why, by the button and as its description, in the page\'s language; then no more', async () => {
    let why: Element | null = null;
    const el = await loadMoreHeld(pollStart(), 'poll', (el) => el.checkNow(), (el) => {
      const more = part(el, 'load-more-button')!;
      why = shadow(el).getElementById(more.getAttribute('aria-describedby') ?? '');
      expect(why, 'the description of the held button').to.not.equal(null);
      expect(why!.textContent).to.match(/^\s*Too many requests\. “Load more” works again in a moment\.\s*$/);
      expect(why!.getBoundingClientRect().height, 'shown').to.be.above(0);
      // Nothing in the alert: the poll's trouble is said in the status region.
      expect(text(el, 'error')).to.equal('');
    });
    // The wait over, the button is no longer described as held, and the words are gone.
    expect(part(el, 'load-more-button')!.hasAttribute('aria-describedby')).to.equal(false);
    expect(why!.isConnected).to.equal(false);
  });

  it('"load more" held by a poll\'s Retry-After says why in Arabic', async () => {
    await loadMoreHeld(pollStart(), 'poll', (el) => (el.setAttribute('lang', 'ar'), el.checkNow()), (el) => {
      const more = part(el, 'load-more-button')!;
      expect(shadow(el).getElementById(more.getAttribute('aria-describedby') ?? '')?.textContent?.trim()).to.equal('طلبات كثيرة جدًا. سيعمل «تحميل المزيد» مجددًا بعد لحظات.');
    });
  });

  it('a 429 on "load more" holds the poller too: no poll before its Retry-After has passed', async () => {
    const el = await pollingActions();
    const undo = failNext('GET', /\/agents\/me\/actions\?.*cursor=/, 429, 1, { 'Retry-After': '2' });
    const polls: number[] = [];
    const faulted = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (pollStart().test(new Request(input, init).url)) polls.push(performance.now());
      return faulted(input, init);
    };
    try {
      const failed = nextEvent<CustomEvent<{ code: string; operation: string }>>(el, 'agent-actions-error');
      (part(el, 'load-more-button') as HTMLButtonElement).click();
      expect((await failed).detail).to.include({ code: 'rate_limited', operation: 'load-more' });
      const at = performance.now();
      const before = polls.length;
      await waitFor(() => polls.length > before, 'a poll after the 429', 10000);
      const waited = polls[before]! - at;
      expect(waited, `the next poll ${Math.round(waited)} ms after the 429`).to.be.at.least(1900);
    } finally {
      window.fetch = faulted;
      undo();
    }
  });

  it('its live regions are in the accessibility tree before they have anything to say, taking no room, so that the first message is announced', async () => {
    const el = await mountActions(acct.agentToken, { 'page-size': '10', 'poll-interval': '60000' });
    await ready(el);
    // The alert and the polite status of decisions, both empty.
    expect(await axLiveRegions()).to.deep.equal(['alert', 'status']);
    const { width, height } = part(el, 'error')!.getBoundingClientRect();
    expect([width, height]).to.deep.equal([0, 0]);
    const panel = part(el, 'base')!.getBoundingClientRect().height;
    const undo = failNext('GET', /\/agents\/me\/actions\?.*cursor=/, 503);
    try {
      const failed = nextEvent(el, 'agent-actions-error');
      (part(el, 'load-more-button') as HTMLButtonElement).click();
      await failed;
    } finally {
      undo();
    }
    await el.updateComplete;
    expect(part(el, 'error')!.getBoundingClientRect().height).to.be.greaterThan(20);
    expect(part(el, 'base')!.getBoundingClientRect().height).to.be.greaterThan(panel);
  });

  it('a filter change says what the list shows then, once, in the polite region already in the tree', async () => {
    const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '60000' });
    await ready(el);
    const [region, ...others] = await politeRegions();
    expect(others).to.deep.equal([]);
    const heard = listen(el);
    try {
      chooseFilter(el, 'REJECTED');
      await el.updateComplete;
      await ready(el);
      await pause(300);
      // 23 actions, a quarter of them rejected: 6, on pages of 5.
      expect(text(el, 'footer')).to.match(/Showing 5 of 6/);
      expect(heard.said).to.deep.equal(['Showing 5 of 6']);
      expect((await politeRegions()).map((r) => [r.id, r.text])).to.deep.equal([[region!.id, 'Showing 5 of 6']]);
    } finally {
      heard.stop();
    }
    el.remove();
    // A filter with nothing to show says so.
    const few = await newAccount({ actions: 3 } as Parameters<typeof newAccount>[0]);
    const other = await mountActions(few.agentToken, { 'poll-interval': '60000' });
    await ready(other);
    chooseFilter(other, 'FAILED');
    await other.updateComplete;
    await ready(other);
    expect((await politeRegions()).map((r) => r.text)).to.deep.equal(['No actions to show.']);
  });

  it('with no count from the service, a filter change still says what the list shows: how many, and that more can load', async () => {
    const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '60000' });
    await ready(el);
    const heard = listen(el);
    // The service may leave totalCount out (api.md "AgentActionList"; reference.md: `totalCount?`).
    const withoutCount = ({ totalCount, ...page }: Record<string, unknown>) => page;
    const select = part(el, 'filter') as HTMLSelectElement;
    const showOnly = async (status: string) => {
      const undo = reshapeAnswer('GET', new RegExp(`/agents/me/actions\\?.*status=${status}`), 200, withoutCount);
      try {
        select.value = status;
        select.dispatchEvent(new Event('change'));
        await el.updateComplete;
        await ready(el);
        await pause(300);
      } finally {
        undo();
      }
    };
    try {
      // 6 rejected actions on pages of 5: a next page, the total unknown.
      await showOnly('REJECTED');
      expect(heard.said).to.deep.equal(['Showing 5; more can be loaded']);
      expect(text(el, 'footer')).to.match(/^Showing 5; more can be loaded/);
      // 5 failed ones: all of them on the one page.
      await showOnly('FAILED');
      expect(heard.said).to.deep.equal(['Showing 5; more can be loaded', 'Showing 5 of 5']);
      expect(text(el, 'footer')).to.equal('Showing 5 of 5');
      setLocale('ar');
      await showOnly('REJECTED');
      expect((await politeRegions()).map((r) => r.text)).to.deep.equal(['يُعرض 5، ويمكن تحميل المزيد']);
    } finally {
      heard.stop();
    }
  });

  it('"Loading actions…" is said once loading has lasted a second, in the polite region already in the tree, and then what it loaded', async () => {
    const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '60000' });
    await ready(el);
    const [region] = await politeRegions();
    const heard = listen(el);
    const held = holdNext('GET', /\/agents\/me\/actions\?.*status=APPROVED/);
    try {
      const select = part(el, 'filter') as HTMLSelectElement;
      select.value = 'APPROVED';
      const changed = performance.now();
      select.dispatchEvent(new Event('change'));
      await held.arrived;
      await el.updateComplete;
      const early = (await politeRegions()).map((r) => [r.id, r.text]);
      // Nothing said in the first second (checked when the machine got here within it).
      if (performance.now() - changed < 900) expect(early).to.deep.equal([[region!.id, '']]);
      await pause(1000);
      for (const until = performance.now() + 5000; ; await pause(100)) {
        const regions = (await politeRegions()).map((r) => [r.id, r.text]);
        if (regions[0]?.[1] || performance.now() > until) {
          expect(regions).to.deep.equal([[region!.id, 'Loading actions…']]);
          break;
        }
      }
      expect(text(el, 'base')).to.contain('Loading actions…');
      held.release();
      await ready(el);
      await waitFor(() => heard.said.length >= 2, 'what it loaded said', 5000);
      await pause(300);
      expect(heard.said).to.deep.equal(['Loading actions…', 'Showing 5 of 6']);
      expect(text(el, 'base').match(/Loading actions/g)).to.equal(null);
    } finally {
      held.release();
      held.undo();
      heard.stop();
    }
  });

  it('a new action waiting for approval is said once as it arrives, not at each poll; two arriving together are said together', async () => {
    const el = await pollingActions();
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    const heard = listen(el);
    try {
      await shownNewAction(el, 'TRANSFER_OUT');
      // A few more polls with nothing new.
      await morePolls(3);
      expect(heard.said).to.deep.equal(['A new action is waiting for approval.']);
      expect((await politeRegions()).map((r) => r.text)).to.deep.equal(['A new action is waiting for approval.']);
      // Two submitted while a poll waits to leave: that poll brings both.
      const poll = holdNext('GET', pollStart());
      try {
        await poll.arrived;
        await newAgentAction(acct.agentId, 'EXECUTE_QUOTE');
        await newAgentAction(acct.agentId, 'TRANSFER_OUT');
      } finally {
        poll.release();
        poll.undo();
      }
      await waitFor(() => heard.said.length === 2, 'the two new actions said', 8000);
      await morePolls(3);
      expect(heard.said).to.deep.equal(['A new action is waiting for approval.', '2 new actions are waiting for approval.']);
    } finally {
      heard.stop();
    }
  });

  it('two decisions in the same words, one after the other, are both said: the second comes into the region as new nodes', async () => {
    const el = await pollingActions();
    const first = await shownNewAction(el, 'EXECUTE_QUOTE');
    const second = await shownNewAction(el, 'EXECUTE_QUOTE');
    const heard = listen(el);
    try {
      await toldAfter(el, () => rejectAction(acct.agentId, first.id, 'Not today'));
      await el.updateComplete;
      const [before] = await politeRegions();
      expect(before!.text).to.equal('Decision: Currency exchange, Rejected.');
      expect((await toldAfter(el, () => rejectAction(acct.agentId, second.id, 'Not today'))).action.id).to.equal(second.id);
      await el.updateComplete;
      const [after] = await politeRegions();
      expect([after!.id, after!.text]).to.deep.equal([before!.id, before!.text]);
      expect(after!.textIds, 'the words of the second decision in other nodes than the first').to.not.deep.equal(before!.textIds);
      expect(heard.said).to.deep.equal(['Decision: Currency exchange, Rejected.', 'Decision: Currency exchange, Rejected.']);
    } finally {
      heard.stop();
    }
  });

  it('filters by status, with the count of the filtered set', async () => {
    const el = await mountActions(acct.agentToken, { 'page-size': '100', 'poll-interval': '60000' });
    await ready(el);
    const everything = statuses(el);
    const select = part(el, 'filter') as HTMLSelectElement;
    // In a 320 CSS px wide page (WCAG 1.4.10, 400 % zoom; the element as wide as a page with margins
    // leaves it): the filter wraps, nothing scrolls sideways.
    el.style.inlineSize = '272px';
    const base = part(el, 'base')!;
    expect(base.scrollWidth).to.be.at.most(base.clientWidth);
    expect(select.getBoundingClientRect().right).to.be.at.most(base.getBoundingClientRect().right);
    el.style.inlineSize = '';
    for (const status of ['REJECTED', 'APPROVED', 'PENDING_APPROVAL', 'FAILED']) {
      select.value = status;
      select.dispatchEvent(new Event('change'));
      await el.updateComplete;
      await ready(el);
      const shown = statuses(el);
      expect(shown.every((s) => s === status)).to.equal(true);
      expect(shown.length).to.equal(everything.filter((s) => s === status).length);
      expect(el.getAttribute('status')).to.equal(status);
      if (status === 'FAILED') {
        expect(shown.length).to.be.greaterThan(0, 'the seeded actions include failed ones');
        // A transaction's status and failure reason in words, never the service's codes.
        const words = parts(el, 'action').map((a) => a.textContent ?? '').join(' ');
        expect(words).to.match(/· failed/);
        expect(words).to.match(/quote expired|Not enough funds|recipient could not be reached/);
        expect(words).to.not.match(/[A-Z]{3,}_[A-Z]+|COMPLETED|\bFAILED\b/);
      }
    }
  });

  it('shows a new pending action and its approval while polling, and dispatches agent-action-changed', async () => {
    const el = await pollingActions();
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    const created = await newAgentAction(acct.agentId, 'TRANSFER_OUT');
    const headingId = `action-${created.id.replace(/[^A-Za-z0-9-]/g, '-')}`;
    await waitFor(() => shownIds(el)[0] === headingId, 'the new pending action on top', 8000);
    await el.updateComplete;
    expect(statuses(el)[0]).to.equal('PENDING_APPROVAL');
    expect(parts(el, 'action')[0]!.textContent).to.match(/Payment out/);
    expect(parts(el, 'action')[0]!.textContent).to.match(/Checking for a decision/);

    const detail = await toldAfter(el, () => approveAction(acct.agentId, created.id));
    expect(detail.action.id).to.equal(created.id);
    expect(detail.previousStatus).to.equal('PENDING_APPROVAL');
    expect(['APPROVED', 'FAILED']).to.include(detail.action.status);
    expect(JSON.stringify(detail)).to.not.include(acct.agentToken);
    await el.updateComplete;
    const item = parts(el, 'action')[0]!;
    expect(item.textContent).to.match(/Transaction/);
    expect(item.textContent).to.not.match(/Checking for a decision/);
    // The decision is said in the polite status region (the list itself is not live).
    const said = shadow(el).querySelector('[role=status].live')!.textContent!.trim();
    expect(said).to.match(/^Decision: Payment out of \S+, (Approved|Failed)\.$/);
    expect(said).to.contain(detail.action.status === 'APPROVED' ? 'Approved' : 'Failed');
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('polling recovers in full: a failed poll\'s message goes, and a decision whose read failed is read again', async () => {
    // A poll interval that is no number ("2s") is the default, not a poller refused as a bad token.
    const odd = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '2s', 'poll-max-interval': 'soon' });
    await ready(odd);
    await waitFor(() => odd.matches(':state(polling)'), 'polling with the default interval');
    expect(odd.matches(':state(failed)')).to.equal(false);
    odd.remove();

    // Under "Waiting for approval" a poll is the pending list alone, and a decision is read by itself
    // (under "All" the poll's first page, holding the action, would carry it).
    const el = await pollingActions({ status: 'PENDING_APPROVAL' });
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    const trouble = () => shadow(el).querySelector('[role=status].live')?.textContent?.includes('Can’t check for updates');
    // The polls fail (their lists) until the trouble is said; it goes at the next good poll although nothing changed.
    const undoPoll = failPolls(el, 503);
    try {
      await waitFor(() => trouble(), 'the trouble said', 5000);
    } finally {
      undoPoll();
    }
    await waitFor(() => !trouble(), 'the trouble gone after a good poll', 5000);

    // A decision whose own read fails once is read again at a later poll.
    const created = await shownNewAction(el, 'TRANSFER_OUT');
    const undoRead = failNext('GET', /\/agents\/me\/actions\/AgentAction:/, 503);
    try {
      expect((await toldAfter(el, () => approveAction(acct.agentId, created.id))).action.id).to.equal(created.id);
    } finally {
      undoRead();
    }
    await el.updateComplete;
    expect(statuses(el)[0]).to.not.equal('PENDING_APPROVAL');
  });

  it('a 429 on the read of a decision holds the next poll for its Retry-After; the decision is read after it', async () => {
    // Under "Waiting for approval" a poll is the pending list alone, and a decision is read by itself
    // (under "All" the poll's first page, holding the action, would carry it).
    const el = await pollingActions({ status: 'PENDING_APPROVAL' });
    const created = await shownNewAction(el, 'TRANSFER_OUT');
    // The read of the decision is refused (429, Retry-After: 2) without reaching the proxy.
    const undo = failNext('GET', /\/agents\/me\/actions\/AgentAction:/, 429, 1, { 'Retry-After': '2' });
    // When each request of the actions goes out, the refused read included.
    const sent: Array<[string, number]> = [];
    const faulted = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new Request(input, init).url;
      if (url.includes('/agents/me/actions')) sent.push([url, performance.now()]);
      return faulted(input, init);
    };
    try {
      expect((await toldAfter(el, () => approveAction(acct.agentId, created.id), 15000)).action.id).to.equal(created.id);
    } finally {
      window.fetch = faulted;
      undo();
    }
    const refused = sent.findIndex(([url]) => url.includes('/AgentAction:'));
    expect(refused, 'the read refused').to.be.at.least(0);
    // The poller (150 ms apart) asks nothing more before the service's wait is over.
    const waited = sent[refused + 1]![1] - sent[refused]![1];
    expect(waited, `the next request ${Math.round(waited)} ms after the 429`).to.be.at.least(2000);
  });

  /**
   * A 429 with Retry-After: 2 on the next request to `refuse` (a poll, or the read of a decision the
   * agent's new action gets), then `act` once the element has it: ms from that refused request to
   * the next request of the actions.
   */
  async function nextAfter429(el: AgentActions, refuse: 'poll' | 'read', act: () => unknown): Promise<number> {
    const created = refuse === 'read' ? await shownNewAction(el, 'TRANSFER_OUT') : undefined;
    const target = refuse === 'read' ? /\/agents\/me\/actions\/AgentAction:/ : /\/agents\/me\/actions\?(?!.*cursor=)/;
    const undo = failNext('GET', target, 429, 1, { 'Retry-After': '2' });
    // When each request of the actions goes out, and whether the refused one has been answered. By
    // Date.now(), the clock the element keeps a Retry-After by: performance.now() is another clock,
    // which Firefox rounds apart from it (a wait of 2000 ms by one read 1999 by the other).
    const sent: Array<[string, number]> = [];
    let refusedAnswered = false;
    const faulted = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new Request(input, init).url;
      if (!url.includes('/agents/me/actions')) return faulted(input, init);
      sent.push([url, Date.now()]);
      return faulted(input, init).then((r) => (r.status === 429 && (refusedAnswered = true), r));
    };
    try {
      if (created) await approveAction(acct.agentId, created.id);
      await waitFor(() => refusedAnswered, 'the 429', 10000);
      // The element handles the answer (a poll's error, or its read's rejection) before acting.
      await pause(100);
      await act();
      const refused = sent.findIndex(([url]) => target.test(url));
      await waitFor(() => sent.length > refused + 1, 'a request after the 429', 10000);
      return sent[refused + 1]![1] - sent[refused]![1];
    } finally {
      window.fetch = faulted;
      undo();
    }
  }

  describe('checkNow() resolves', () => {
    /** The element polling once a minute (only checkNow() polls within the test), its first poll done. */
    async function quietActions(): Promise<AgentActions> {
      const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '60000' });
      await ready(el);
      await el.checkNow();
      return el;
    }

    /** Whether `promise` settled within `ms`. */
    const settledWithin = (promise: Promise<unknown>, ms: number) => Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

    it('once what the check found is shown: a new action, then its decision', async () => {
      const el = await quietActions();
      const created = await newAgentAction(acct.agentId, 'TRANSFER_OUT');
      await el.checkNow();
      expect(shownIds(el)[0]).to.equal(`action-${created.id.replace(/[^A-Za-z0-9-]/g, '-')}`);
      expect(statuses(el)[0]).to.equal('PENDING_APPROVAL');
      await approveAction(acct.agentId, created.id);
      await el.checkNow();
      expect(statuses(el)[0]).to.equal('APPROVED');
    });

    it('both, for two calls close together, once the second one\'s check is shown', async () => {
      const el = await quietActions();
      const first = el.checkNow();
      const created = await newAgentAction(acct.agentId, 'TRANSFER_OUT');
      const second = el.checkNow();
      await Promise.all([first, second]);
      expect(shownIds(el)[0]).to.equal(`action-${created.id.replace(/[^A-Za-z0-9-]/g, '-')}`);
    });

    it('once a failed check shows its failure', async () => {
      const el = await quietActions();
      const told = nextEvent(el, 'agent-actions-error');
      const undo = failPolls(el, 503);
      try {
        await el.checkNow();
        expect(shadow(el).querySelector('[role=status].live')?.textContent).to.include('Can’t check for updates');
        expect(await settledWithin(told, 0)).to.equal(true);
      } finally {
        undo();
      }
    });

    it('at once when no list is shown to check: no agent token, or not on the page', async () => {
      const bare = document.createElement('agent-actions') as AgentActions;
      expect(await settledWithin(bare.checkNow(), 100)).to.equal(true);
      document.body.append(bare);
      await bare.updateComplete;
      expect(await settledWithin(bare.checkNow(), 100)).to.equal(true);
    });

    it('when the element leaves the page while its check waits for an answer', async () => {
      const el = await quietActions();
      const held = holdNext('GET', pollStart());
      try {
        const check = el.checkNow();
        await held.arrived;
        el.remove();
        expect(await settledWithin(check, 2000)).to.equal(true);
      } finally {
        held.release();
        held.undo();
      }
    });
  });

  it('checkNow() while a poll\'s Retry-After runs polls once it has passed, not before', async () => {
    const el = await pollingActions();
    const waited = await nextAfter429(el, 'poll', () => el.checkNow());
    expect(waited, `the next request ${Math.round(waited)} ms after the 429`).to.be.at.least(2000);
    expect(el.matches(':state(polling)')).to.equal(true);
  });

  it('checkNow() while the Retry-After of a decision\'s read runs polls once it has passed, not before', async () => {
    // Under "Waiting for approval" a poll is the pending list alone, and a decision is read by itself
    // (under "All" the poll's first page, holding the action, would carry it).
    const el = await pollingActions({ status: 'PENDING_APPROVAL' });
    const waited = await nextAfter429(el, 'read', () => el.checkNow());
    expect(waited, `the next request ${Math.round(waited)} ms after the 429`).to.be.at.least(2000);
  });

  it('a poll-interval changed while a Retry-After runs keeps to it: the new poller waits it out', async () => {
    const el = await pollingActions();
    const waited = await nextAfter429(el, 'poll', () => el.setAttribute('poll-interval', '200'));
    expect(waited, `the next request ${Math.round(waited)} ms after the 429`).to.be.at.least(2000);
  });

  it('back online while the Retry-After of a decision\'s read runs, it keeps to the service\'s wait', async () => {
    // Under "Waiting for approval" a poll is the pending list alone, and a decision is read by itself
    // (under "All" the poll's first page, holding the action, would carry it).
    const el = await pollingActions({ status: 'PENDING_APPROVAL' });
    const waited = await nextAfter429(el, 'read', async () => (await goOffline(200)).online());
    expect(waited, `the next request ${Math.round(waited)} ms after the 429`).to.be.at.least(2000);
  });

  it('back online after its polls failed offline, it checks at once with one poll, not at the end of the backed-off delay', async () => {
    // No ceiling to speak of: offline, the delay doubles from 100 ms at each failed poll.
    const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '100', 'poll-max-interval': '600000' });
    await ready(el);
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    const trouble = () => shadow(el).querySelector('[role=status].live')?.textContent?.includes('Can’t check for updates');
    // Polls at about 0.1, 0.3, 0.7, 1.5, 3.1 and 6.3 s fail: the next one is due 6.4 s after the last.
    // Counted from now: none of the polls made offline is answered.
    const polls = countRequests(pollStart());
    try {
      const offline = await goOffline(6500);
      await waitFor(() => trouble(), 'the trouble said');
      // The polls answered when the trouble goes (its message goes as the poll that ends it is handled).
      let answered = -1;
      const region = shadow(el).querySelector('[role=status].live')!;
      const watch = new MutationObserver(() => answered < 0 && !trouble() && (answered = polls.answered));
      watch.observe(region, { childList: true, subtree: true, characterData: true });
      await offline.online();
      // Well before that next poll was due, the first poll made back online says the trouble is over.
      await waitFor(() => !trouble(), 'the trouble gone after a poll made back online', 3000);
      watch.disconnect();
      expect(answered, 'polls answered when the trouble went').to.equal(1);
      expect(el.matches(':state(polling)')).to.equal(true);
    } finally {
      polls.restore();
    }
  });

  /**
   * The next poll of `el` (or its "load more", which this presses) answered 429 with `retryAfter`;
   * once the element has said so, `then` runs with the requests to `counted` counted from there.
   */
  async function afterRefused(
    el: AgentActions,
    operation: 'poll' | 'load-more',
    retryAfter: string,
    counted: string,
    then: (sent: ReturnType<typeof countRequests>) => Promise<void>,
  ): Promise<void> {
    const target = operation === 'poll' ? /\/agents\/me\/actions\?(?!.*cursor=)/ : /\/agents\/me\/actions\?.*cursor=/;
    const undo = failNext('GET', target, 429, 1, { 'Retry-After': retryAfter });
    const refused = nextEvent<CustomEvent<{ code: string; operation: string }>>(el, 'agent-actions-error');
    let sent: ReturnType<typeof countRequests> | undefined;
    const original = window.setTimeout;
    try {
      if (operation === 'load-more') (part(el, 'load-more-button') as HTMLButtonElement).click();
      expect((await refused).detail).to.include({ code: 'rate_limited', operation });
      sent = countRequests(counted);
      // Timers set beyond what one can wait (each fires at once, so a wait made of them spins).
      overflowed = 0;
      window.setTimeout = ((fn: TimerHandler, ms?: number, ...rest: unknown[]) => {
        if ((ms ?? 0) > 2 ** 31 - 1) overflowed++;
        return original(fn, ms, ...rest);
      }) as typeof window.setTimeout;
      await then(sent);
    } finally {
      window.setTimeout = original;
      sent?.restore();
      undo();
    }
  }
  let overflowed = 0;

  it('back online while a poll\'s Retry-After runs, it keeps to the service\'s wait: no poll at once', async () => {
    const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '100', 'poll-max-interval': '600000' });
    await ready(el);
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    await afterRefused(el, 'poll', '60', '/agents/me/actions?', async (polls) => {
      const offline = await goOffline(200);
      await offline.online();
      // A poll made on the way back online goes out at once; none is due for a minute.
      await pause(1000);
      expect(polls.count).to.equal(0);
      expect(el.matches(':state(polling)')).to.equal(true);
    });
  });

  it('a poll\'s Retry-After longer than one timer can wait (2^31-1 ms, 24.8 days) holds polls and "load more": none goes at once', async () => {
    const el = await pollingActions();
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    await afterRefused(el, 'poll', '3000000', '/agents/me/actions', async (polls) => {
      (part(el, 'load-more-button') as HTMLButtonElement).click();
      // Polling every 150 ms to 400 ms, a wait that overflowed would poll again at once.
      await pause(1000);
      expect(polls.count).to.equal(0);
      expect(overflowed, 'timers beyond 2^31-1 ms').to.equal(0);
      await el.updateComplete;
      expect(part(el, 'load-more-button')!.getAttribute('aria-disabled')).to.equal('true');
    });
  });

  it('a "load more" Retry-After longer than one timer can wait holds the poller and a reload: nothing goes at once', async () => {
    const el = await pollingActions();
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    await afterRefused(el, 'load-more', '3000000', '/agents/me/actions', async (sent) => {
      await pause(1000);
      expect(sent.count, 'polls').to.equal(0);
      // A first page is the same request: it waits too.
      el.reload();
      await pause(1000);
      expect(sent.count, 'first pages').to.equal(0);
      expect(overflowed, 'timers beyond 2^31-1 ms').to.equal(0);
    });
  });

  it('a decision is said once: after a failed poll\'s message goes, the decision said before it is not said again', async () => {
    const el = await pollingActions();
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    const created = await shownNewAction(el, 'TRANSFER_OUT');
    // Everything the polite status region says from here on, in order.
    const heard = listen(el);
    try {
      await toldAfter(el, () => rejectAction(acct.agentId, created.id, 'Not today'));
      await el.updateComplete;
      const undo = failPolls(el, 503);
      try {
        await waitFor(() => heard.said.length === 2, 'the trouble said', 5000);
      } finally {
        undo();
      }
      await waitFor(() => !text(el, 'base').includes('Can’t check'), 'the trouble gone after a good poll', 5000);
      await morePolls(3);
      expect(heard.said).to.have.length(2);
      expect(heard.said[0]).to.match(/^Decision: Payment out of \S+, Rejected\.$/);
      expect(heard.said[1]).to.match(/Can’t check for updates/);
    } finally {
      heard.stop();
    }
  });

  it('a new action arriving while the keyboard is on an action leaves the focus on that same action', async () => {
    const el = await pollingActions();
    (part(el, 'load-more-button') as HTMLButtonElement).click();
    await waitFor(() => parts(el, 'action').length === 10, '10 actions');
    await el.updateComplete;
    const focusedAction = () => (shadow(el).activeElement as HTMLElement | null)?.getAttribute('aria-labelledby');
    const reading = focusedAction();
    expect(reading).to.equal(shownIds(el)[5]);
    // The agent submits another action: it appears on top, above the one the keyboard is on.
    await shownNewAction(el, 'TRANSFER_OUT');
    await el.updateComplete;
    expect(shownIds(el).indexOf(reading!)).to.equal(6);
    expect(focusedAction(), 'the focus stays on the action it was on').to.equal(reading);
  });

  it('a new action arriving on top leaves each row showing its own action, so a screen reader\'s reading position and the focus stay on it', async () => {
    const el = await pollingActions();
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    // The rows as they are: a screen reader's virtual cursor rests on a DOM node, the keyboard on one too.
    const rows = parts(el, 'action');
    const ids = shownIds(el);
    const words = rows.map((row) => row.textContent);
    rows[2]!.focus();
    let taken = 0;
    const watch = new MutationObserver((records) => records.forEach((r) => (taken += r.removedNodes.length)));
    watch.observe(part(el, 'list')!, { childList: true });
    try {
      await shownNewAction(el, 'TRANSFER_OUT');
      await el.updateComplete;
    } finally {
      watch.disconnect();
    }
    expect(shownIds(el).slice(1)).to.deep.equal(ids);
    expect(rows.map((row) => row.getAttribute('aria-labelledby')), 'each row still names the action it named').to.deep.equal(ids);
    expect(rows.map((row) => row.textContent), 'each row still shows the action it showed').to.deep.equal(words);
    expect(rows.every((row) => row.isConnected && row.parentElement === part(el, 'list'))).to.equal(true);
    expect(taken, 'no row taken out of the list and put back').to.equal(0);
    expect(shadow(el).activeElement === rows[2], `the focus on the same row, not ${focusIn(el)}`).to.equal(true);
  });

  it('a list read again (reload, a filter change, a poll) keeps the rows of unchanged actions as they were: the same nodes, untouched, the focus on its row', async () => {
    const el = await pollingActions();
    // A pending action on top, shown under both filters below.
    await shownNewAction(el, 'TRANSFER_OUT');
    await el.updateComplete;
    const rows = parts(el, 'action');
    // Every change in the rows themselves: attributes, content, text.
    const touched = watchLists(...rows);
    /** Reads the list again with `change`: each action shown before and after keeps its row, the top one at least. */
    const readAgain = async (what: string, change: () => void) => {
      const before = parts(el, 'action');
      change();
      await el.updateComplete;
      expect(el.matches(':state(loading)'), `${what} reads the list again`).to.equal(true);
      await waitFor(() => el.matches(':state(ready)') && el.matches(':state(polling)'), what);
      await el.updateComplete;
      const now = parts(el, 'action');
      const id = (li: Element) => li.getAttribute('aria-labelledby');
      expect(now[0] === before[0] && now.every((li) => before.every((b) => b === li || id(b) !== id(li))), `the same row elements after ${what}`).to.equal(true);
    };
    try {
      await readAgain('reload()', () => el.reload());
      // A page of 5: the sixth row, the oldest, went.
      expect(parts(el, 'action')).to.deep.equal(rows.slice(0, 5));
      const select = part(el, 'filter') as HTMLSelectElement;
      for (const status of ['PENDING_APPROVAL', 'ALL']) {
        await readAgain(`the filter set to ${status}`, () => {
          select.value = status;
          select.dispatchEvent(new Event('change'));
        });
      }
      expect(touched.records, 'mutation records in the rows kept').to.equal(0);
      // A poll brings the pending actions as new objects, and one new action: the row with the
      // keyboard on it stays, untouched and focused.
      rows[0]!.focus();
      await shownNewAction(el, 'TRANSFER_OUT');
      await el.updateComplete;
      expect(parts(el, 'action')[1] === rows[0], 'the same row after a poll').to.equal(true);
      expect(shadow(el).activeElement === rows[0], `the focus on the same row, not ${focusIn(el)}`).to.equal(true);
      expect(touched.records, 'mutation records in the rows kept after a poll').to.equal(0);
    } finally {
      touched.stop();
    }
  });

  it('an approved action whose execution stays in progress is read again at a backed-off pace, not at every shortest poll', async () => {
    // Under "Waiting for approval" a poll is the pending list alone, and an action executing is read by itself
    // (under "All" the poll's first page, holding the action, would carry it).
    const el = await mountActions(acct.agentToken, { status: 'PENDING_APPROVAL', 'page-size': '5', 'poll-interval': '100', 'poll-max-interval': '800' });
    await ready(el);
    const created = await shownNewAction(el, 'TRANSFER_OUT');
    expect((await toldAfter(el, () => actionExecution(acct.agentId, created.id, 'PENDING'))).action.status).to.equal('APPROVED');
    const reads = countRequests(`/agents/me/actions/${created.id}`);
    try {
      await pause(2500);
      // Backing off from 100 ms to 800 ms: about six reads in 2.5 s; at the shortest delay, twenty or more.
      expect(reads.count).to.be.within(2, 8);
      // Still watched: its execution failing later is shown.
      expect((await toldAfter(el, () => actionExecution(acct.agentId, created.id, 'FAILED', 'INSUFFICIENT_FUNDS'), 5000)).action.status).to.equal('FAILED');
    } finally {
      reads.restore();
    }
  });

  it('an approved action whose execution then fails is shown failed, with agent-action-changed', async () => {
    const el = await pollingActions();
    const created = await shownNewAction(el, 'TRANSFER_OUT');
    // Approved with the execution still in progress (api.md: "execution in progress or complete").
    expect((await toldAfter(el, () => actionExecution(acct.agentId, created.id, 'PENDING'))).action.status).to.equal('APPROVED');
    await el.updateComplete;
    expect(statuses(el)[0]).to.equal('APPROVED');
    // Then the execution fails (api.md: FAILED is "Approved but execution failed").
    const detail = await toldAfter(el, () => actionExecution(acct.agentId, created.id, 'FAILED', 'INSUFFICIENT_FUNDS'), 5000);
    expect(detail.action.id).to.equal(created.id);
    expect(detail).to.deep.include({ previousStatus: 'APPROVED' });
    expect(detail.action.status).to.equal('FAILED');
    await el.updateComplete;
    expect(statuses(el)[0]).to.equal('FAILED');
    expect(parts(el, 'action')[0]!.textContent).to.match(/Not enough funds/);
    expect(shadow(el).querySelector('[role=status].live')!.textContent!.trim()).to.match(/^Decision: Payment out of \S+, Failed\.$/);
  });

  it('in Arabic, a failure reason without a sentence of its own is said in Arabic with its code kept for support; a known one in its sentence', async () => {
    setLocale('ar');
    const el = await pollingActions();
    /** The words that say why the newest action's execution failed (its last fact). */
    const failedWith = async (reason: string) => {
      const created = await shownNewAction(el, 'TRANSFER_OUT');
      await actionExecution(acct.agentId, created.id, 'PENDING');
      await waitFor(() => statuses(el)[0] === 'APPROVED', 'the approval', 5000);
      await actionExecution(acct.agentId, created.id, 'FAILED', reason);
      await waitFor(() => statuses(el)[0] === 'FAILED', 'the failure', 5000);
      await el.updateComplete;
      return [...parts(el, 'action')[0]!.querySelectorAll('dd')].at(-1)!.textContent!.trim();
    };
    // api.md leaves failureReason's values open ("not shown"): a code the strings have no sentence for.
    const unknown = await failedWith('CARD_DECLINED');
    expect(unknown).to.equal('سبب غير معروف. أعطِ فريق الدعم هذا الرمز: \u2068CARD_DECLINED\u2069');
    expect(unknown).not.to.match(/Card declined/i);
    expect(await failedWith('COUNTERPARTY_UNREACHABLE')).to.equal('تعذّر الوصول إلى المستلم.');
    setLocale('en');
    await el.updateComplete;
    expect([...parts(el, 'action')[1]!.querySelectorAll('dd')].at(-1)!.textContent!.trim()).to.equal(
      'Unknown reason. Give support this code: \u2068CARD_DECLINED\u2069',
    );
  });

  it('a decision read before a newer one but answered after it does not take the action back to the older status', async () => {
    // Under "Waiting for approval" a poll is the pending list alone, and a decision is read by itself
    // (under "All" the poll's first page, holding the action, would carry it).
    const el = await pollingActions({ status: 'PENDING_APPROVAL' });
    const created = await shownNewAction(el, 'TRANSFER_OUT');
    const changes: string[][] = [];
    el.addEventListener('agent-action-changed', (e) => {
      const { action, previousStatus } = (e as CustomEvent<{ action: AgentAction; previousStatus: string }>).detail;
      if (action.id === created.id) changes.push([previousStatus, action.status]);
    });
    // The read of the approval (its execution in progress) reaches the service; its answer is slow.
    // (Only that first read: the ones after it go through.)
    const page = window.fetch;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let arrive!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    let heldAnswer: Promise<Response> | undefined;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (heldAnswer || !String(input).includes('/agents/me/actions/AgentAction:')) return page(input, init);
      heldAnswer = page(input, init).then(async (response) => {
        arrive();
        await released;
        return response;
      });
      return heldAnswer;
    };
    try {
      await actionExecution(acct.agentId, created.id, 'PENDING');
      await arrived;
      // Meanwhile the execution fails, and a new request makes the poller read the action again.
      await actionExecution(acct.agentId, created.id, 'FAILED', 'INSUFFICIENT_FUNDS');
      await shownNewAction(el, 'EXECUTE_QUOTE');
      await waitFor(() => changes.length === 1, 'the failure read by the later poll', 5000);
      release();
      await heldAnswer;
      // Its copy handled (the reads of a poll after it are made after it), and a few polls after it.
      await morePolls(3, 'PENDING_APPROVAL');
    } finally {
      release();
      window.fetch = page;
    }
    await el.updateComplete;
    expect(changes).to.deep.equal([['PENDING_APPROVAL', 'FAILED']]);
    expect(statuses(el)[1]).to.equal('FAILED');
  });

  it('under the "Approved" filter, an action approved while polling appears on top', async () => {
    const created = await newAgentAction(acct.agentId, 'TRANSFER_OUT');
    const el = await pollingActions({ status: 'APPROVED' });
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    const before = shownIds(el);
    expect(statuses(el).every((s) => s === 'APPROVED')).to.equal(true);
    // Let the poller see it pending (it is not shown under this filter), then approve it.
    await new Promise((r) => setTimeout(r, 500));
    await approveAction(acct.agentId, created.id);
    const id = `action-${created.id.replace(/[^A-Za-z0-9-]/g, '-')}`;
    await waitFor(() => shownIds(el)[0] === id, 'the approved action on top', 5000);
    expect(shownIds(el).slice(1)).to.deep.equal(before);
    expect(statuses(el)[0]).to.equal('APPROVED');
    // Said as the decision it is, although the action was not shown pending.
    await el.updateComplete;
    const [said] = (await politeRegions()).map((r) => r.text);
    expect(said).to.match(/^Decision: Payment out of \S+, Approved\.$/);
  });

  for (const [filter, decide] of [['ALL', 'approved'], ['APPROVED', 'approved'], ['REJECTED', 'rejected']] as const) {
    it(`under the "${filter}" filter, an action submitted and ${decide} between two polls (never seen pending) appears on top at the next poll`, async () => {
      const polls = countRequests(pollStart(filter));
      const lists = countRequests('/agents/me/actions');
      let el: AgentActions;
      try {
        // Polls once a minute: only checkNow() polls again within the test.
        el = await mountActions(acct.agentToken, { status: filter, 'page-size': '5', 'poll-interval': '60000' });
        await ready(el);
        // (Under "All" the element's own first page is the request a poll starts with: one more.)
        await waitFor(() => el.matches(':state(polling)') && polls.answered >= (filter === 'ALL' ? 2 : 1), 'the first poll');
        // Every read of that poll answered: none of them sees the action below pending.
        await pause(300);
        await waitFor(() => lists.answered === lists.count, 'the first poll\'s reads');
      } finally {
        lists.restore();
        polls.restore();
      }
      const before = shownIds(el);
      expect(before).to.have.length(5);
      const created = await newAgentAction(acct.agentId, 'TRANSFER_OUT');
      if (decide === 'approved') await approveAction(acct.agentId, created.id);
      else await rejectAction(acct.agentId, created.id, 'Not this one');
      const id = `action-${created.id.replace(/[^A-Za-z0-9-]/g, '-')}`;
      // checkNow() resolves once what the check found is shown: no wait after it.
      await el.checkNow();
      expect(shownIds(el)[0]).to.equal(id);
      expect(shownIds(el).slice(1)).to.deep.equal(before);
      expect(statuses(el)[0]).to.equal(decide === 'approved' ? 'APPROVED' : 'REJECTED');
      await el.updateComplete;
      const [said] = (await politeRegions()).map((r) => r.text);
      expect(said).to.match(decide === 'approved' ? /^Decision: Payment out of \S+, Approved\.$/ : /^Decision: Payment out of \S+, Rejected\.$/);
    });
  }

  it('shows the rejection reason of a rejected action', async () => {
    const el = await pollingActions();
    const created = await shownNewAction(el, 'EXECUTE_QUOTE');
    expect((await toldAfter(el, () => rejectAction(acct.agentId, created.id, 'Over the daily budget (USD).'))).action.status).to.equal('REJECTED');
    await el.updateComplete;
    const item = parts(el, 'action')[0]!;
    expect(item.textContent).to.match(/Rejected/);
    expect(item.textContent).to.match(/Over the daily budget \(USD\)\./);
    expect(item.textContent).to.match(/Currency exchange/);
    expect(shadow(el).querySelector('[role=status].live')!.textContent!.trim()).to.equal('Decision: Currency exchange, Rejected.');
    // The reason is the approver's own words, in their own direction: in Arabic, unisolated, its
    // final "." would be drawn at its left (".Overthedailybudget(USD)").
    setLocale('ar');
    await el.updateComplete;
    expect(drawnLeftToRight(parts(el, 'action')[0]!, 'Over the daily budget (USD).')).to.equal('Overthedailybudget(USD).');
  });

  it('a currency exchange waiting for approval says who receives it and when its quote expires, in English and in Arabic', async () => {
    const el = await pollingActions();
    const created = (await shownNewAction(el, 'EXECUTE_QUOTE')) as unknown as AgentAction;
    const quote = created.quote!;
    const name = (quote.counterpartyInformation as { FULL_NAME: string }).FULL_NAME;
    expect(name, 'the service names the recipient').to.be.a('string').and.not.equal('');
    const facts = () => [...parts(el, 'action')[0]!.querySelectorAll('dt')].map((dt) => `${dt.textContent!.trim()}: ${dt.nextElementSibling!.textContent!.trim()}`);
    const expires = (locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(quote.expiresAt));
    await el.updateComplete;
    expect(facts()).to.include.members([`To: ${name}`, `Quote expires: ${expires('en')}`]);
    setLocale('ar');
    await el.updateComplete;
    expect(facts()).to.include.members([`إلى: ${name}`, `ينتهي عرض السعر: ${expires('ar')}`]);
    // A decided action's quote no longer waits on its expiry: only the recipient stays.
    setLocale('en');
    await approveAction(acct.agentId, created.id);
    await waitFor(() => statuses(el)[0] !== 'PENDING_APPROVAL', 'the decision');
    await el.updateComplete;
    expect(facts()).to.include(`To: ${name}`);
    expect(facts().some((f) => f.startsWith('Quote expires'))).to.equal(false);
  });

  it('a poll-interval changed while polling takes effect at once, without waiting out the old delay', async () => {
    const polls = countRequests(pollStart());
    try {
      const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '60000' });
      await ready(el);
      // The poller's first poll is answered (after the element's own first page, the same request):
      // at 60 s its next one would come long after this test's bound.
      await waitFor(() => polls.answered >= 2, 'the first poll answered');
      el.setAttribute('poll-interval', '150');
      el.setAttribute('poll-max-interval', '400');
      await shownNewAction(el, 'TRANSFER_OUT');
      expect(el.matches(':state(polling)')).to.equal(true);
    } finally {
      polls.restore();
    }
  });

  it('stops polling when disconnected', async () => {
    const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '100', 'poll-max-interval': '100' });
    await ready(el);
    await waitFor(() => el.matches(':state(polling)'), 'polling');
    const spy = countRequests('/agents/me/actions');
    try {
      await waitFor(() => spy.count > 1, 'a poll after the first');
      el.remove();
      const atRemoval = spy.count;
      await new Promise((r) => setTimeout(r, 600));
      // At most one request that was already in flight.
      expect(spy.count - atRemoval).to.be.at.most(1);
      expect(el.matches(':state(polling)')).to.equal(false);
    } finally {
      spy.restore();
    }
  });

  /** The page as the browser has it when its tab is in the background (`hidden`) or in front again. */
  function pageHidden(hidden: boolean): void {
    if (hidden) {
      Object.defineProperty(document, 'hidden', { value: true, configurable: true });
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    } else {
      delete (document as { hidden?: unknown }).hidden;
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    // As the browser fires it: at the document, bubbling to the window.
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }

  it('polls nothing while the page is hidden, and checks at once when it is shown again, not at the end of its delay', async () => {
    const polls = countRequests('/agents/me/actions');
    try {
      const el = await mountActions(acct.agentToken, { 'page-size': '5', 'poll-interval': '100', 'poll-max-interval': '100' });
      await ready(el);
      await waitFor(() => polls.answered > 2, 'a few polls');
      const created = await shownNewAction(el, 'TRANSFER_OUT');
      pageHidden(true);
      const atHiding = polls.count;
      await pause(800);
      // At most the one that was in flight: a hidden page has no one to show decisions to.
      expect(polls.count - atHiding, 'requests while hidden').to.be.at.most(1);
      // A decision made meanwhile; shown again, the page checks at once, though its delay is long now.
      el.setAttribute('poll-interval', '20000');
      el.setAttribute('poll-max-interval', '20000');
      await approveAction(acct.agentId, created.id);
      await pause(300);
      expect(polls.count - atHiding, 'requests while hidden').to.be.at.most(1);
      pageHidden(false);
      await waitFor(() => statuses(el)[0] !== 'PENDING_APPROVAL', 'the decision, shown at once', 3000);
      expect(el.matches(':state(polling)')).to.equal(true);
    } finally {
      pageHidden(false);
      polls.restore();
    }
  });

  it('a bad token is refused in words; the token never appears in an attribute or the DOM', async () => {
    const errors: string[] = [];
    document.addEventListener('agent-actions-error', (e) => errors.push(JSON.stringify((e as CustomEvent).detail)));
    const el = await mountActions('not-a-valid-token');
    await ready(el);
    expect(el.matches(':state(failed)')).to.equal(true);
    expect(text(el, 'error')).to.match(/access has expired or was revoked/);
    expect(errors.some((e) => e.includes('"code":"unauthorized"'))).to.equal(true);
    expect(errors.join('').includes('not-a-valid-token')).to.equal(false);

    const good = await mountActions(acct.agentToken);
    await ready(good);
    const markup = document.documentElement.outerHTML + [...document.querySelectorAll('agent-actions')].map((x) => x.shadowRoot!.innerHTML).join('');
    expect(markup.includes(acct.agentToken)).to.equal(false);
    expect([...good.attributes].some((a) => a.value.includes(acct.agentToken))).to.equal(false);
  });

  it('a failed first page offers Try again, and the keyboard stays in the panel while it loads again', async () => {
    const undo = failNext('GET', /\/agents\/me\/actions/, 503);
    let el: AgentActions;
    try {
      el = await mountActions(acct.agentToken, { 'page-size': '3', 'poll-interval': '60000' });
      await waitFor(() => el.matches(':state(failed)'), 'the failed page');
    } finally {
      undo();
    }
    await el.updateComplete;
    const retry = [...shadow(el).querySelectorAll('button')].find((b) => /Try again/.test(b.textContent ?? ''))!;
    retry.focus();
    retry.click();
    await ready(el);
    expect(el.matches(':state(ready)')).to.equal(true);
    expect(shadow(el).activeElement === shadow(el).getElementById('title'), `focus on the title, not ${focusIn(el)}`).to.equal(true);
  });

  it('a lang that is no language tag ("x", "en--US"), or a language with no strings registered ("fr"), shows every action as English does: dates and amounts as English writes them', async () => {
    /** Each row's text, and the footer's. */
    const shown = async (lang: string) => {
      const el = await mountActions(acct.agentToken, { lang, 'page-size': '23', 'poll-interval': '60000' });
      await ready(el);
      const rows = [part(el, 'base')!.lang, ...parts(el, 'action').map((li) => li.textContent!.replace(/\s+/g, ' ').trim()), text(el, 'footer')];
      el.remove();
      return rows;
    };
    const english = await shown('en');
    // The rows hold dates ("Submitted …"), amounts and exchange rates, all written by Intl.
    expect(english.join()).to.match(/Submitted [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(english.join()).to.match(/Rate\s?\d/);
    for (const lang of ['x', 'en--US', 'fr']) expect(await shown(lang), lang).to.deep.equal(english);
  });

  it('a transaction status the strings have no word for is said in a sentence of the element\'s language, its code isolated', async () => {
    // Every answer of the list says so, the first page's and the polls' (the first poll goes as
    // soon as the first page is shown): a service that says it once and then "completed" is a
    // transaction that moved on, which the element shows.
    const listed = /\/agents\/me\/actions\?/;
    const withStatus = (body: Record<string, unknown>) => {
      const data = body['data'] as AgentAction[];
      const first = data.find((a) => a.transaction)!;
      (first.transaction as { status: string }).status = 'IN_REVIEW';
      return body;
    };
    /** Mounts the list and waits for its first page and its first poll to be answered, and shown. */
    const mounted = async (attributes: Record<string, string>) => {
      const lists = countRequests(pollStart());
      try {
        const el = await mountActions(acct.agentToken, { ...attributes, 'page-size': '23', 'poll-interval': '60000' });
        await ready(el);
        await waitFor(() => lists.answered >= 2, 'the first poll');
        await pause(50);
        return el;
      } finally {
        lists.restore();
      }
    };
    /** The transaction fact of the first action that has one. */
    const transaction = (el: AgentActions) => [...shadow(el).querySelectorAll('dd')].find((dd) => dd.querySelector('.mono') && dd.textContent!.includes('·'))!.textContent!.replace(/\s+/g, ' ').trim();
    const undo = reshapeAnswer('GET', listed, 200, withStatus, Infinity);
    try {
      const el = await mounted({});
      expect(transaction(el)).to.match(/ · status: \u2068IN_REVIEW\u2069$/);
      el.remove();
    } finally {
      undo();
    }
    const undoAr = reshapeAnswer('GET', listed, 200, withStatus, Infinity);
    try {
      const ar = await mounted({ lang: 'ar' });
      expect(transaction(ar)).to.match(/ · الحالة: \u2068IN_REVIEW\u2069$/);
    } finally {
      undoAr();
    }
  });

  it('speaks Arabic right to left', async () => {
    setLocale('ar');
    const el = await mountActions(acct.agentToken, { 'page-size': '3', 'poll-interval': '60000' });
    await ready(el);
    expect(part(el, 'base')!.getAttribute('dir')).to.equal('rtl');
    expect(shadow(el).querySelector('h2')?.textContent).to.equal('نشاط الوكيل');
    expect(getComputedStyle(part(el, 'list')!).direction).to.equal('rtl');
    expect(await axeViolations(el)).to.deep.equal([]);
  });
});
