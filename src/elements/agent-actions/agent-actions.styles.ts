/**
 * Styles of <agent-actions>: a header with the status filter, the list of actions as cards with a
 * status badge, and the "load more" row. Logical properties only, no inline styles (strict CSP),
 * states through custom states (`:state(loading)`, `:state(polling)`).
 */
import { css } from 'lit';

const darkPending = css`
  --_pending: var(--agent-actions-pending-color, #f2b662);
`;

export const agentActionsStyles = css`
  :host {
    --_gap: var(--agent-actions-gap, var(--_space));
    --_item-bg: var(--agent-actions-item-background, color-mix(in srgb, var(--_fg) 3%, var(--_bg)));
    --_pending: var(--agent-actions-pending-color, #9a5b00);
    --_approved: var(--agent-actions-approved-color, var(--_success));
    --_rejected: var(--agent-actions-rejected-color, var(--_danger));
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${darkPending}
    }
  }
  :host([theme='dark']) {
    ${darkPending}
  }
  label {
    display: flex;
    align-items: center;
    gap: 0.5em;
    font-weight: 500;
  }
  select {
    font: inherit;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
    padding-block: 0.5em;
    padding-inline: 0.7em;
    min-block-size: 44px;
  }
  .status.PENDING_APPROVAL {
    color: var(--_pending);
  }
  .status.APPROVED {
    color: var(--_approved);
  }
  .status.REJECTED,
  .status.FAILED {
    color: var(--_rejected);
  }
  dl {
    margin: 0;
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.2em 1em;
    font-size: 0.93em;
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .id {
    direction: ltr;
    unicode-bidi: isolate;
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 0.92em;
  }
  .amount {
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .footer {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: var(--_gap);
  }
  .notice:empty {
    display: none;
  }
  @media (prefers-reduced-motion: no-preference) {
    .action {
      transition: border-color 300ms ease;
    }
  }
  .action.changed {
    border-color: var(--_accent);
  }
`;
