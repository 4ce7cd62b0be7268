/**
 * <agent-actions> with a long list, in real Chromium against the real sandbox through the real
 * proxy: hundreds of actions loaded with "load more" while the element polls. What a poll or a page
 * changes in the DOM is counted (MutationObserver records in the list): it must follow what changed,
 * not how many rows are loaded, or a list of thousands takes seconds per poll and quadratic time to
 * page through. Counts, not timings: the machine is shared.
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/index.ts';
import { setStrings } from '../../../../src/elements/shared/i18n.ts';
import '../../../../src/locales/ar.ts';
import { fixtures, newAccount, newAgentAction, type RigAccount } from '../../support/rig.ts';
import { part, parts, resetPage, shadow, useRig, waitFor } from '../shared/helpers.ts';
import { countIntl, watchLists } from '../shared/scale.ts';

const rowId = (id: string) => `action-${id.replace(/[^A-Za-z0-9-]/g, '-')}`;

/** Counts the requests of the action list (a pass-through wrapper: every call still goes out). */
function countLists() {
  const original = window.fetch;
  const urls: string[] = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (/\/agents\/me\/actions\?/.test(url)) urls.push(url);
    return original(input, init);
  };
  return { urls, restore: () => (window.fetch = original) };
}

/** Mutation records in the element's list (rows added, moved, their attributes and content). */
const watchList = (el: AgentActions) => watchLists(shadow(el).querySelector('ul')!);

describe('<agent-actions> with a long list', function () {
  this.timeout(120000);
  let acct: RigAccount;
  const TOTAL = 300;
  const PAGE = 100;

  before(async () => {
    await fixtures();
    await useRig();
    acct = await newAccount({ actions: TOTAL });
  });

  afterEach(resetPage);

  /** The element polling fast, with every page loaded through "load more"; `onPage` after each. */
  async function allLoaded(onPage: (el: AgentActions, shown: number) => void = () => undefined): Promise<AgentActions> {
    const el = document.createElement('agent-actions') as AgentActions;
    el.setAttribute('page-size', String(PAGE));
    el.setAttribute('poll-interval', '150');
    el.setAttribute('poll-max-interval', '300');
    el.agentToken = acct.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(ready)'), 'the first page');
    await el.updateComplete;
    while (part(el, 'load-more-button')) {
      const shown = parts(el, 'action').length;
      onPage(el, shown);
      (part(el, 'load-more-button') as HTMLButtonElement).click();
      await waitFor(() => parts(el, 'action').length > shown, 'the next page', 30000);
      await el.updateComplete;
    }
    return el;
  }

  it('"load more" puts in the new page\'s rows and leaves the rows loaded before untouched', async () => {
    let list: ReturnType<typeof watchList> | undefined;
    const perPage: number[] = [];
    const el = await allLoaded((el) => {
      if (list) perPage.push(list.records);
      list ??= watchList(el);
      list.reset();
    });
    perPage.push(list!.records);
    list!.stop();
    expect(parts(el, 'action')).to.have.length(TOTAL);
    // Pages two and three: one record per row put in (a Lit render into a row not yet in the list
    // is not seen), a few for the footer's button. Re-rendering the rows loaded before costs several
    // records each: hundreds by the third page.
    expect(perPage).to.have.length(2);
    for (const n of perPage) expect(n, `records of one page: ${perPage.join(', ')}`).to.be.at.most(PAGE + 10);
  });

  it('showing a page of rows makes a few Intl formatters, not several per row', async () => {
    let formatters: ReturnType<typeof countIntl> | undefined;
    const perPage: number[] = [];
    try {
      await allLoaded(() => {
        if (formatters) perPage.push(formatters.made);
        formatters?.restore();
        formatters = countIntl();
      });
      perPage.push(formatters!.made);
    } finally {
      formatters?.restore();
    }
    expect(perPage).to.have.length(2);
    for (const n of perPage) expect(n, `formatters made for a page of ${PAGE}: ${perPage.join(', ')}`).to.be.below(PAGE / 4);
  });

  it('rows not rendered again for want of change still follow new strings and a new language', async () => {
    const el = await allLoaded();
    const approved = () => parts(el, 'status').filter((s) => s.classList.contains('APPROVED'));
    expect(approved().length).to.be.greaterThan(50);
    setStrings('en', { 'agent-actions.status.APPROVED': 'Approved (scale test)' });
    try {
      await el.updateComplete;
      expect(approved().filter((s) => s.textContent!.trim() !== 'Approved (scale test)')).to.have.length(0);
    } finally {
      setStrings('en', { 'agent-actions.status.APPROVED': 'Approved' });
    }
    el.lang = 'ar';
    await el.updateComplete;
    expect(approved().filter((s) => /Approved/.test(s.textContent!))).to.have.length(0);
  });

  it('a poll that brings a new action puts in its row alone, keeps every page loaded, and reads only the pending list and the first page', async () => {
    const el = await allLoaded();
    const list = watchList(el);
    const lists = countLists();
    try {
      const created = await newAgentAction(acct.agentId);
      await waitFor(() => parts(el, 'action')[0]?.getAttribute('aria-labelledby') === rowId(created.id), 'the new action on top', 10000);
      await el.updateComplete;
      expect(parts(el, 'action')).to.have.length(TOTAL + 1);
      expect(list.records, 'mutation records for one new action').to.be.at.most(5);
      // The poller reads the pending list and (under "All") the filter's first page, never the pages
      // "load more" brought: p for a pending list's page, f for the first page, anything else as is.
      const kinds = lists.urls.map((u) => (u.includes('status=PENDING_APPROVAL') ? 'p' : /\/agents\/me\/actions\?limit=100$/.test(u) ? 'f' : ` ${u} `));
      // Each poll: the first page, then (when that page does not hold every action shown waiting for
      // approval) its pending list's pages (the first poll counted may have read its first page
      // before the count began).
      expect(kinds.join(''), 'list requests of the polls').to.match(/^p*(fp*)*$/);
    } finally {
      list.stop();
      lists.restore();
    }
  });
});
