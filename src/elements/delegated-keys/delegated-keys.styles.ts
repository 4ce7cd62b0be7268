/**
 * Styles of <delegated-keys>: a header with the "New key" button, the list of keys as cards, an
 * inline revoke confirmation and the creation form. Logical properties only (right-to-left holds),
 * no inline styles (strict CSP), states through custom states (`:state(loading)`, `:state(editing)`).
 */
import { css } from 'lit';

export const delegatedKeysStyles = css`
  :host {
    --_gap: var(--delegated-keys-gap, var(--_space));
    --_item-bg: var(--delegated-keys-item-background, color-mix(in srgb, var(--_fg) 3%, var(--_bg)));
    --_active: var(--delegated-keys-active-color, var(--_success));
    --_revoked: var(--delegated-keys-revoked-color, var(--_muted));
  }
  .nickname {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .status.ACTIVE {
    color: var(--_active);
  }
  .status.REVOKED,
  .status.PENDING {
    color: var(--_revoked);
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25em 1.5em;
    font-size: 0.9em;
    color: var(--_muted);
  }
  .pubkey {
    direction: ltr;
    unicode-bidi: isolate;
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    overflow-wrap: anywhere;
  }
  .limits {
    margin: 0;
    padding-inline-start: 1.2em;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
  }
  .confirm {
    display: grid;
    gap: 0.5em;
    padding: 0.75em;
    border-radius: var(--_radius);
    border: 1px solid color-mix(in srgb, var(--_danger) 45%, transparent);
  }
  button.danger.strong {
    background: var(--_danger);
    color: var(--_bg);
  }
  form {
    display: grid;
    gap: var(--_gap);
    padding: 1em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .field {
    display: grid;
    gap: 0.3em;
    align-content: start;
  }
  label {
    font-weight: 500;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    margin: 0;
    padding: 0.75em 1em 1em;
    display: grid;
    gap: 0.75em;
  }
  legend {
    padding-inline: 0.3em;
    font-weight: 500;
  }
  .hint {
    font-size: 0.88em;
    color: var(--_muted);
    font-weight: 400;
  }
  .limit-row {
    display: grid;
    grid-template-columns: minmax(5.5em, 8em) minmax(7em, 1fr) auto;
    gap: 0.3em 0.5em;
    align-items: end;
  }
  .row-notes {
    grid-column: 1 / -1;
    display: grid;
    gap: 0.15em;
  }
  .row-notes span:empty {
    display: none;
  }
  .limit-row input[name='currencyCode'] {
    text-transform: uppercase;
  }
  .field-error {
    color: var(--_danger);
    font-size: 0.88em;
    font-weight: 400;
  }
  .form-actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
  }
  .notice:empty {
    display: none;
  }
  .notice {
    color: var(--_success);
  }
  @media (max-width: 28em) {
    .limit-row {
      grid-template-columns: 1fr;
    }
  }
`;
