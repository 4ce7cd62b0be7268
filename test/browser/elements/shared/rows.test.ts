/**
 * Rows kept by key (src/elements/shared/rows.ts) in real Chromium: each thing keeps its `<li>` while
 * others arrive, go or move, so that the focus and a screen reader's reading position on a row stay
 * on its thing; the order is always the items' order; a row's content is a Lit template.
 */
import { expect } from 'chai';
import { html } from 'lit/html.js';
import { asText, keyedRows } from '../../../../src/elements/shared/rows.ts';
import { resetPage } from './helpers.ts';

interface Thing {
  id: string;
  label: string;
}

describe('keyedRows', () => {
  let list: HTMLUListElement;
  /** How many times a row was taken out of the list (a move takes it out, then puts it back). */
  let taken: number;
  let watch: MutationObserver;

  beforeEach(() => {
    list = document.createElement('ul');
    document.body.append(list);
    taken = 0;
    watch = new MutationObserver((records) => records.forEach((r) => (taken += r.removedNodes.length)));
    watch.observe(list, { childList: true });
  });

  afterEach(async () => {
    watch.disconnect();
    list.remove();
    await resetPage();
  });

  const things = (ids: string) => [...ids].map((id) => ({ id, label: `Thing ${id}` }));

  function show(items: Thing[]): void {
    keyedRows(
      list,
      items,
      (t) => t.id,
      (t, li) => {
        li.tabIndex = -1;
        li.dataset.id = t.id;
        return html`<span>${t.label}</span>`;
      },
      { host: list },
    );
    // Records of this change are counted now, before the next one.
    for (const r of watch.takeRecords()) taken += r.removedNodes.length;
  }

  /** The row of each id, as the list holds them now. */
  const rowsById = () => new Map([...list.children].map((li) => [(li as HTMLElement).dataset.id!, li]));
  const shown = () => [...list.children].map((li) => li.textContent);

  it('keeps each row while things arrive on top and at the end, taking none out', () => {
    show(things('cde'));
    const before = rowsById();
    (before.get('d') as HTMLElement).focus();
    show(things('abcdef'));
    expect(shown()).to.deep.equal(['Thing a', 'Thing b', 'Thing c', 'Thing d', 'Thing e', 'Thing f']);
    const after = rowsById();
    expect([...before].every(([id, li]) => after.get(id) === li), 'c, d and e keep their rows').to.equal(true);
    expect(taken).to.equal(0);
    expect(document.activeElement === before.get('d'), 'the focus stays on d').to.equal(true);
  });

  it('takes out only the rows of things that went', () => {
    show(things('abcde'));
    const before = rowsById();
    show(things('bde'));
    expect(shown()).to.deep.equal(['Thing b', 'Thing d', 'Thing e']);
    expect(['b', 'd', 'e'].every((id) => rowsById().get(id) === before.get(id))).to.equal(true);
    expect(taken, 'a and c only').to.equal(2);
  });

  it('moves the one row that moved down, not the rows it leaves, and updates a row in place', () => {
    show(things('abcd'));
    const before = rowsById();
    (before.get('c') as HTMLElement).focus();
    // a goes below c (as a revoked key goes below the active ones), and b's words change.
    show([{ id: 'b', label: 'Thing b, again' }, ...things('ca'), ...things('d')]);
    expect(shown()).to.deep.equal(['Thing b, again', 'Thing c', 'Thing a', 'Thing d']);
    expect(['a', 'b', 'c', 'd'].every((id) => rowsById().get(id) === before.get(id))).to.equal(true);
    expect(taken, 'a only').to.equal(1);
    expect(document.activeElement === before.get('c'), 'the focus stays on c').to.equal(true);
  });

  it('puts any order in place', () => {
    show(things('abcdef'));
    for (const order of ['fedcba', 'bafedc', 'cfadbe', 'a', '', 'dcab', 'abcd']) {
      show(things(order));
      expect(shown().join(''), order).to.equal([...order].map((id) => `Thing ${id}`).join(''));
    }
  });

  it('with an owner, moves the rows as they are into the list element that replaced the one before, rendering again only those whose inputs differ', () => {
    const owner = {};
    let rendered: string[] = [];
    const showIn = (ul: HTMLUListElement, items: Thing[]) =>
      keyedRows(ul, items, (t) => t.id, (t, li) => (rendered.push(t.id), (li.dataset.id = t.id), html`<span>${t.label}</span>`), { host: ul }, (t) => [asText(t)], owner);
    showIn(list, things('abc'));
    const before = rowsById();
    // The list read again: equal things as new objects, one changed; the template made a new <ul>.
    const next = document.createElement('ul');
    list.replaceWith(next);
    rendered = [];
    showIn(next, [{ id: 'b', label: 'Thing b, again' }, ...things('ca')]);
    expect([...next.children].map((li) => li.textContent)).to.deep.equal(['Thing b, again', 'Thing c', 'Thing a']);
    expect([...next.children].every((li) => before.get((li as HTMLElement).dataset.id!) === li)).to.equal(true);
    expect(rendered).to.deep.equal(['b']);
    next.replaceWith(list);
  });
});
