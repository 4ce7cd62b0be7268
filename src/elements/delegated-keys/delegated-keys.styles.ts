/**
 * Styles of <delegated-keys> on top of the list styles (shared/list-styles.ts): the key's details,
 * the inline revoke confirmation and the creation form. Logical properties only (right-to-left
 * holds), no inline styles (strict CSP), states through custom states (`:state(editing)`).
 */
import { css } from '../shared/styles.ts';

export const delegatedKeysStyles = css`
  :host {
    --_gap: var(--delegated-keys-gap, var(--_space));
    --_item-bg: var(--delegated-keys-item-background, color-mix(in srgb, var(--_fg) 3%, var(--_bg)));
  }
  .ACTIVE {
    color: var(--delegated-keys-active-color, var(--_success));
  }
  .REVOKED,
  .PENDING {
    color: var(--delegated-keys-revoked-color, var(--_muted));
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    gap: 0 1.5em;
    font-size: 0.9em;
    color: var(--_muted);
  }
  .limits {
    margin: 0;
    padding-inline-start: 1.2em;
  }
  .confirm,
  form,
  fieldset,
  .field {
    display: grid;
    gap: var(--_gap);
    margin: 0;
    padding: 1em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .confirm {
    border-color: var(--_danger);
  }
  button.danger.strong {
    background: var(--_danger);
    color: var(--_bg);
  }
  form {
    container-type: inline-size;
  }
  .field {
    gap: 0.3em;
    padding: 0;
    border: 0;
  }
  /* Label, input and error of both fields share the row's lines (subgrid), so an error under one
     field does not move the other's input; the remove button sits on the inputs' line. */
  .limit-row {
    display: grid;
    grid-template-columns: minmax(5.5em, 8em) minmax(7em, 1fr) auto;
    gap: 0.3em 0.5em;
  }
  .limit-row > .field {
    grid-row: span 3;
    grid-template-rows: subgrid;
  }
  .limit-row > button {
    grid-row: 2;
    grid-column: 3;
  }
  .limit-row > span {
    grid-column: 1 / -1;
  }
  span:empty {
    display: none;
  }
  [name='currencyCode'] {
    text-transform: uppercase;
  }
  /* One column when the form is narrow, whatever the window's width: the element may sit in a
     narrow column of a wide page. */
  @container (max-width: 19em) {
    .limit-row {
      grid-template-columns: 1fr;
    }
    .limit-row > button {
      grid-row: auto;
      grid-column: auto;
    }
  }
`;
