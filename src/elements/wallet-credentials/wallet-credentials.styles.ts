/**
 * Styles of `<wallet-credentials>` on top of the shared base; its custom properties are
 * documented on the class. No inline style anywhere.
 */
import { css } from '../shared/styles.ts';

export const walletCredentialsStyles = css`
  :host {
    max-inline-size: var(--wallet-credentials-max-width, 36rem);
  }
  [part='base'] {
    padding: var(--wallet-credentials-padding, calc(var(--_space) * 1.5));
    border-radius: var(--wallet-credentials-radius, var(--_radius));
  }
  h3 {
    font-size: 1em;
    margin: 0;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  li {
    display: grid;
    grid-template-columns: 1fr auto;
    align-items: center;
    gap: 0.25em var(--_space);
    padding-block: calc(var(--_space) * 0.66);
    border-block-end: 1px solid var(--wallet-credentials-divider, var(--_border));
  }
  .name {
    display: grid;
  }
  [part='credential-name'],
  [part='hint'] {
    color: var(--_muted);
    overflow-wrap: anywhere;
  }
  [part='hint'] {
    font-size: 0.9em;
  }
  /* Under the row it belongs to: a hint, or the question before a removal. */
  [part='hint'],
  [part='row-error'],
  [part='confirm'] {
    grid-column: 1 / -1;
  }
  [part='row-error'] {
    overflow-wrap: anywhere;
  }
  /* A button that cannot be used stays focusable (aria-disabled, its hint says why): it looks disabled. */
  button[aria-describedby^='hint'] {
    opacity: 0.6;
    cursor: not-allowed;
  }
  [part='badge'] {
    display: inline-block;
    white-space: nowrap;
    margin-inline-start: 0.5em;
    padding-inline: 0.5em;
    border-radius: 1em;
    border: 1px solid;
    color: var(--_accent);
    font-size: 0.85em;
    font-weight: 600;
  }
  [part='confirm'] {
    /* Its question names the login: a long email or label wraps inside it at 320 px. */
    overflow-wrap: anywhere;
    border: 2px solid var(--_danger);
    border-radius: var(--_radius);
    padding: var(--_space);
  }
  [part='code-input'] {
    direction: ltr;
    letter-spacing: 0.3em;
    max-inline-size: 12em;
  }
`;
