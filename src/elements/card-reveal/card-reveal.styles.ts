/**
 * Styles of <card-reveal>: a card-shaped area holding either a placeholder face (idle, loading,
 * expired, error) or the processor's iframe (revealed), then the controls and the messages.
 * States are styled through custom states (`:host(:state(revealed))`), never through attributes,
 * so the page styles them the same way: `card-reveal:state(loading) { ... }`.
 * Logical properties only, so right-to-left holds; no inline styles (strict CSP).
 */
import { css } from 'lit';

const darkCard = css`
  --_card-bg: var(--card-reveal-card-background, linear-gradient(135deg, #1b2150 0%, #2c3aa6 60%, #4856c9 100%));
`;

export const cardRevealStyles = css`
  :host {
    --_card-bg: var(--card-reveal-card-background, linear-gradient(135deg, #27336f 0%, #3b4fd8 55%, #6f7ff0 100%));
    --_card-fg: var(--card-reveal-card-color, #f5f6ff);
    --_card-radius: var(--card-reveal-card-radius, 14px);
    --_frame-height: var(--card-reveal-frame-height, 220px);
    --_frame-bg: var(--card-reveal-frame-background, var(--_bg));
    --_gap: var(--card-reveal-gap, var(--_space));
    max-inline-size: var(--card-reveal-max-width, 380px);
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${darkCard}
    }
  }
  :host([theme='dark']) {
    ${darkCard}
  }
  .base {
    display: grid;
    gap: var(--_gap);
  }
  .card {
    position: relative;
    border-radius: var(--_card-radius);
    min-block-size: var(--_frame-height);
    overflow: hidden;
  }
  .face {
    display: grid;
    align-content: space-between;
    gap: 0.75em;
    block-size: var(--_frame-height);
    padding: 1.25em 1.4em;
    background: var(--_card-bg);
    color: var(--_card-fg);
    border-radius: var(--_card-radius);
  }
  .chip {
    inline-size: 2.4em;
    block-size: 1.8em;
    border-radius: 0.35em;
    background: linear-gradient(135deg, #e9d48a, #b9963c);
  }
  .number {
    /* Card numbers read left to right in every language. */
    direction: ltr;
    unicode-bidi: isolate;
    text-align: start;
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 1.25em;
    letter-spacing: 0.12em;
  }
  .row {
    display: flex;
    gap: 2em;
  }
  .field {
    display: grid;
    gap: 0.1em;
  }
  .field-label {
    font-size: 0.72em;
    text-transform: uppercase;
    letter-spacing: 0.08em;
    opacity: 0.8;
  }
  .mask {
    direction: ltr;
    unicode-bidi: isolate;
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
  }
  .frame {
    display: none;
  }
  .frame iframe {
    /* The processor page follows the system's light or dark; the frame's own scheme must match it,
       or the browser paints an opaque canvas behind it (CSS Color Adjustment 1, "color-scheme"). */
    color-scheme: light dark;
    display: block;
    inline-size: 100%;
    block-size: var(--_frame-height);
    border: 0;
    border-radius: var(--_card-radius);
    background: var(--_frame-bg);
  }
  :host(:state(revealed)) .frame {
    display: block;
  }
  :host(:state(revealed)) .face {
    display: none;
  }
  :host(:state(loading)) .face .number,
  :host(:state(loading)) .face .mask {
    color: transparent;
    border-radius: 0.3em;
    background: color-mix(in srgb, var(--_card-fg) 22%, transparent);
  }
  @media (prefers-reduced-motion: no-preference) {
    :host(:state(loading)) .face {
      animation: pulse 1.2s ease-in-out infinite;
    }
  }
  @keyframes pulse {
    50% {
      opacity: 0.72;
    }
  }
  :host(:state(expired)) .face,
  :host(:state(error)) .face {
    filter: saturate(0.4);
  }
  .controls {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: var(--_gap);
  }
  .countdown {
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  .message:empty {
    display: none;
  }
  .message {
    margin: 0;
    color: var(--_muted);
  }
`;
