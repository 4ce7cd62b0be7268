/**
 * Rows kept by key: the rows of a list stay the same `<li>` elements for as long as their thing
 * (an action, a key) is listed, wherever it moves. Lit renders an array by position, so a thing
 * arriving on top would have every row's element show the thing below it: a screen reader's
 * reading position, or the keyboard, resting on a row would find itself on another thing.
 *
 * Lit's `repeat` directive does the same at about four times the size; this is its part that the
 * lists here need. Each row's content is still a Lit template, rendered into its `<li>`.
 */
import { render, type RenderOptions } from 'lit/html.js';

/** The row of each key, per list element (or `owner`). */
const rowsOf = new WeakMap<object, Map<string, HTMLLIElement>>();
/** What each row was last rendered from (`inputs`). */
const inputsOf = new WeakMap<HTMLLIElement, readonly unknown[]>();
const texts = new WeakMap<object, string>();

/**
 * An item as text (its JSON), made once per object: for `inputs`, so that an item read again from
 * the service, a new object equal to the one before, leaves its row as it is.
 */
export const asText = (item: object): string => texts.get(item) ?? (texts.set(item, JSON.stringify(item)), texts.get(item)!);

/**
 * Puts one `<li>` per item into `list` (a list the element's template renders empty), in the
 * items' order; `row` sets the `<li>`'s own attributes and returns its content. Keys are unique.
 * A row whose key stays is neither recreated nor taken out of the list when others arrive or go;
 * when the order changes, a row that moved further down is the one moved, not the rows it leaves.
 * `inputs` gives all that a row's rendering depends on (the item, the language...): a row whose
 * inputs are the same (===) as at its last rendering is not rendered again, so that an update costs
 * what changed, not what is listed. Without it every row is rendered again.
 * `owner` keeps the rows for a list element that the template may replace (a list hidden while it
 * loads again): its rows move into the new one as they are.
 */
export function keyedRows<T>(
  list: Element | null,
  items: readonly T[],
  key: (item: T) => string,
  row: (item: T, li: HTMLLIElement) => unknown,
  options: RenderOptions,
  inputs?: (item: T) => readonly unknown[],
  owner: object | null = list,
): void {
  if (!list) return;
  const rows = rowsOf.get(owner!) ?? new Map<string, HTMLLIElement>();
  rowsOf.set(owner!, rows);
  const keys = new Set(items.map(key));
  for (const [k, li] of rows) {
    if (!keys.has(k)) {
      li.remove();
      rows.delete(k);
    }
  }
  // `at`: where the next row belongs. Every row left in the list is listed, so one met out of
  // place is moved when its own turn comes.
  let at = list.firstElementChild;
  for (const item of items) {
    const k = key(item);
    let li = rows.get(k);
    if (!li) rows.set(k, (li = document.createElement('li')));
    const now = inputs?.(item);
    const was = inputsOf.get(li);
    if (!now || !was || now.some((v, i) => v !== was[i])) {
      render(row(item, li), li, options);
      if (now) inputsOf.set(li, now);
    }
    // The row in place is one too early (the row before it moved down): it waits for its turn.
    if (li === at?.nextElementSibling) at = li;
    if (li === at) at = li.nextElementSibling;
    else list.insertBefore(li, at);
  }
}
