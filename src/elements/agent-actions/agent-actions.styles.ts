/**
 * Styles of <agent-actions> on top of the list styles (shared/list-styles.ts): the status filter,
 * the badge colours and an action's facts. Logical properties only, no inline styles (strict CSP),
 * states through custom states (`:state(loading)`, `:state(polling)`).
 */
import { css } from '../shared/styles.ts';

export const agentActionsStyles = css`
  :host {
    --_gap: var(--agent-actions-gap, var(--_space));
    --_item-bg: var(--agent-actions-item-background, color-mix(in srgb, var(--_fg) 3%, var(--_bg)));
    /* Light and dark written once, as the shared colours are (shared/styles.ts). */
    --_pending: var(--agent-actions-pending-color, light-dark(#9a5b00, #f2b662));
  }
  label {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5em;
  }
  /* The header and the filter's label as narrow as the column, whatever the select's width (that of
     its longest option, wider with a reader's text spacing, WCAG 1.4.12): the select shrinks to fit,
     at 320 CSS px too (WCAG 1.4.10). */
  .bar,
  label {
    min-inline-size: 0;
  }
  select {
    max-inline-size: 100%;
    min-inline-size: 0;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
    padding-inline: 0.7em;
    min-block-size: 44px;
  }
  .PENDING_APPROVAL {
    color: var(--_pending);
  }
  .APPROVED {
    color: var(--agent-actions-approved-color, var(--_success));
  }
  .REJECTED,
  .FAILED {
    color: var(--agent-actions-rejected-color, var(--_danger));
  }
  dl {
    margin: 0;
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.2em 1em;
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
  }
  .amount {
    font-weight: 600;
  }
  .changed {
    border-color: var(--_accent);
  }
`;
