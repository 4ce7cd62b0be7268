/**
 * Styles of <card-reveal>: a card-shaped area holding either a placeholder face (idle, loading,
 * expired, error) or the processor's iframe (revealed), then the controls and the messages.
 * States are styled through custom states (`:host(:state(revealed))`), never through attributes,
 * so the page styles them the same way: `card-reveal:state(loading) { ... }`.
 * Logical properties only, so right-to-left holds; no inline styles (strict CSP). Dark colours come
 * from `light-dark()` and the host's `color-scheme` (shared/styles.ts).
 * Forced colours (Windows high contrast) drop every gradient and paint the face in the page's
 * Canvas colour, which leaves the card no edge; they also paint every outline in the system's text
 * colour, so the face and the chip carry an outline that is transparent otherwise (the shortest
 * rule that gives them an edge there: these styles are part of the element's up-front budget, and
 * an application's bundler keeps the comments inside them).
 */
import { css } from '../shared/styles.ts';

export const cardRevealStyles = css`
  :host {
    --_card-fg: var(--card-reveal-card-color, #f5f6ff);
    --_gap: var(--card-reveal-gap, var(--_space));
    max-inline-size: var(--card-reveal-max-width, 380px);
  }
  .panel {
    display: grid;
    gap: var(--_gap);
  }
  /* At least that high: a face whose text is made larger (WCAG 1.4.4) grows to hold it. */
  .face,
  .frame {
    min-block-size: var(--card-reveal-frame-height, 220px);
    border-radius: var(--card-reveal-card-radius, 14px);
    overflow: hidden;
  }
  /* The number's size follows the card's width (cqi below), which no text size changes. Not the
     face's: its padding grows with its text, and Firefox (153) keeps a face's cqi from before
     (text at 200 %), making the number too large for it. */
  [part=card] {
    container-type: inline-size;
  }
  .face {
    display: grid;
    align-content: space-between;
    padding: 1.25em 1.4em;
    /* Every stop keeps the face's text at 4.5:1 or more (WCAG 1.4.3): the text may sit over any of them. */
    /* prettier-ignore */
    background: var(--card-reveal-card-background, linear-gradient(135deg, light-dark(#27336f, #1b2150), light-dark(#3b4fd8, #2c3aa6) 55%, light-dark(#4f60e0, #4856c9)));
    color: var(--_card-fg);
    /* Its edge in forced colours (see above), as the chip's. */
    outline: 1px solid transparent;
  }
  .chip {
    inline-size: 2.4em;
    block-size: 1.8em;
    border-radius: 0.35em;
    background: linear-gradient(135deg, #e9d48a, #b9963c);
    outline: 1px solid transparent;
  }
  .row {
    display: flex;
    gap: 2em;
  }
  small,
  code {
    display: block;
  }
  small {
    font-size: 0.72em;
    text-transform: uppercase;
    /* Not less than the reader's text spacing (0.12em, WCAG 1.4.12) that the host passes on. */
    letter-spacing: 0.12em;
  }
  /* Card numbers read left to right in every language: dir="ltr" in the markup makes each mask a
     left-to-right block. Its no-break spaces keep it on one line; its 19 characters take about
     13.7em, so at 7% of the face's inner width (the card's, 100cqi, less the face's padding,
     2.8em) or less that line fits a face of any width, at any text size. Every browser with
     :state() has container units. */
  .number {
    font-size: min(1.25em, 7cqi - .2em);
    letter-spacing: 0.12em;
  }
  /* A grid, so that the frame's height is its own and the iframe fills it. */
  .frame {
    display: grid;
    background: var(--card-reveal-frame-background, var(--_bg));
  }
  iframe {
    /* The processor page follows the system's light or dark; the frame's own scheme must match it,
       or the browser paints an opaque canvas behind it (CSS Color Adjustment 1, "color-scheme"). */
    color-scheme: light dark;
    display: block;
    inline-size: 100%;
    block-size: 100%;
    border: 0;
  }
  /* The card area holds either the placeholder face or the frame. */
  :host(:not(:state(revealed))) .frame,
  :host(:state(revealed)) .face {
    display: none;
  }
  :host(:state(loading)) code {
    color: transparent;
    border-radius: 0.3em;
    background: color-mix(in srgb, var(--_card-fg) 22%, transparent);
  }
  @media (prefers-reduced-motion: no-preference) {
    :host(:state(loading)) .face {
      animation: pulse 1.2s infinite;
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
  .message {
    color: var(--_muted);
  }
  /* An empty live region takes no room and draws no box, but stays in the accessibility tree: a
     screen reader announces a change only in a region it already knows. */
  .message:empty,
  .alert:empty {
    display: block;
    position: absolute;
    padding: 0;
    border: 0;
  }
`;
