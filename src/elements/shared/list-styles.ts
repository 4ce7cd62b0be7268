/**
 * Styles of the elements that show a list of items as cards with a status badge, <delegated-keys>
 * and <agent-actions>, on top of the base styles (styles.ts): header and footer rows (`.bar`), the
 * list, each item (`.item`, its `.item-head` and `.status` badge), rows of buttons (`.actions`)
 * and ids (`.mono`).
 * Each element maps `--_gap` and `--_item-bg` to its own prefixed custom properties. A module of
 * its own so that the other elements do not carry it.
 */
import { css } from './styles.ts';

export const listStyles = css`
  .base,
  .list,
  .item {
    display: grid;
    gap: var(--_gap);
  }
  .bar,
  .item-head,
  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5em;
  }
  .actions {
    justify-content: start;
  }
  h2 {
    font-size: 1.1em;
  }
  h3 {
    margin: 0;
    font-size: 1em;
  }
  .list {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .item {
    gap: 0.5em;
    padding: 0.9em 1em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_item-bg);
  }
  /* A name with no space in it (a key's, in its row and in the notice that it was made) breaks
     where it must, rather than widening the whole panel past its column. */
  .item,
  .live {
    overflow-wrap: anywhere;
  }
  .status {
    font-size: 0.8em;
    font-weight: 600;
    padding-inline: 0.6em;
    border-radius: 1em;
    border: 1px solid;
  }
  /* An empty alert takes no room and draws no box, but stays in the accessibility tree: a screen
     reader announces a change in a live region it already knows. */
  .alert:empty {
    display: block;
    position: absolute;
    padding: 0;
    border: 0;
  }
  .mono {
    direction: ltr;
    unicode-bidi: isolate;
    font-family: ui-monospace, Menlo, Consolas, monospace;
  }
`;
