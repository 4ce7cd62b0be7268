/**
 * Base styles shared by every element: the theme's custom properties with their light and dark
 * defaults, a visible focus ring, reduced motion, and logical properties so right-to-left layouts
 * hold. Each element maps these to its own prefixed properties (`--wallet-login-*`, `--card-reveal-*`).
 *
 * Light and dark follow `prefers-color-scheme`; a page may force one with `theme="light"` or
 * `theme="dark"` on the element. Each colour is written once as `light-dark(light, dark)` (CSS
 * Color 5), so a theme is only a `color-scheme`: the same browsers that have custom states
 * (`:state()`, which every element uses) have it.
 *
 * Two sheets: `themeStyles` (colours, type, buttons, focus, `.panel`, `.alert`) is all that
 * <card-reveal> needs; `baseStyles` adds the shared layout classes (`.stack`, `.row`, `.muted`,
 * `.error`, ...) and form controls of the other elements. form-styles.ts adds fields, action rows
 * and the `error`/`status` live regions for the login elements, list-styles.ts the lists of cards
 * of <delegated-keys> and <agent-actions>.
 *
 * No inline styles anywhere: everything is in constructable stylesheets, so the elements run under
 * a CSP without 'unsafe-inline' (the elements' base adopts these sheets, reactive.ts; no
 * <style> attribute is ever injected).
 */
/**
 * One sheet of an element's styles: its text, and the constructable stylesheet made from it the
 * first time a shadow root adopts it (never at import, so a server without CSSStyleSheet can import
 * the elements). The part of Lit's CSSResult these elements use.
 */
export class Styles {
  #sheet: CSSStyleSheet | undefined;
  constructor(readonly cssText: string) {}
  get styleSheet(): CSSStyleSheet {
    if (!this.#sheet) (this.#sheet = new CSSStyleSheet()).replaceSync(this.cssText);
    return this.#sheet;
  }
}

/** What `static styles` holds: sheets, in nested arrays if need be (Lit's CSSResultGroup). */
export type StylesGroup = Styles | readonly StylesGroup[];

/**
 * The `css` tag of this library's style files (Lit's name, so the build's literal minifier and
 * editors' CSS support know it): literals written here that interpolate only other sheets. Lit's
 * own `css` checks every interpolated value at run time, with error sentences every element would
 * ship; no value from outside the library reaches these templates.
 */
export const css = (strings: TemplateStringsArray, ...values: Styles[]): Styles =>
  new Styles(strings.reduce((text, part, i) => text + values[i - 1]!.cssText + part));

/** An element's `theme` (a declaration's `match`, reactive.ts): another is said and ignored. */
export const THEME = /^(light|dark)$/;

export const themeStyles = css`
  :host {
    --_fg: var(--wallet-color-text, light-dark(#14161a, #eceef2));
    --_muted: var(--wallet-color-muted, light-dark(#535a68, #a3aab8));
    --_bg: var(--wallet-color-surface, light-dark(#fff, #17191e));
    --_border: var(--wallet-color-border, light-dark(#878fa0, #6b7283));
    --_accent: var(--wallet-color-accent, light-dark(#3b4fd8, #8c9bff));
    --_accent-fg: var(--wallet-color-on-accent, light-dark(#fff, #0d0f14));
    --_danger: var(--wallet-color-danger, light-dark(#b3261e, #ff8a80));
    --_radius: var(--wallet-radius, 10px);
    --_space: var(--wallet-space, 12px);
    /* Both: light-dark() then follows the reader's system setting; theme="…" picks one. */
    color-scheme: light dark;
    display: block;
    box-sizing: border-box;
    color: var(--_fg);
    /* Every browser with :state() has system-ui, so the older fallbacks (-apple-system, …) never apply. */
    font-family: var(--wallet-font, system-ui, 'Noto Sans Arabic', sans-serif);
    /* 15 px at the browser's default size, larger for a reader who set a larger one (the root's rem), never smaller. */
    font-size: var(--wallet-font-size, max(15px, 0.9375rem));
    line-height: 1.45;
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  ::before,
  ::after {
    box-sizing: inherit;
  }
  /* The browser's own style sheet gives controls their own spacing: inherited, a reader's letter and
     word spacing (WCAG 1.4.12) reach their text too, as a page's style sheet cannot reach into a
     shadow root. */
  button,
  input,
  select {
    font: inherit;
    color: inherit;
    letter-spacing: inherit;
    word-spacing: inherit;
  }
  button {
    cursor: pointer;
    border-radius: calc(var(--_radius) * 0.8);
    border: 1px solid var(--_border);
    background: transparent;
    padding: 0.55em 1em;
    min-block-size: 44px;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-fg);
    font-weight: 600;
  }
  /* Busy, yet focused: aria-disabled keeps the keyboard on the button while its work runs. Forced
     colours (high contrast) may not show the opacity: GrayText, as a natively disabled button. */
  button[aria-disabled='true'] {
    opacity: 0.7;
    cursor: progress;
  }
  @media (forced-colors: active) {
    button[aria-disabled='true'] {
      color: GrayText;
      border-color: GrayText;
    }
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
    box-shadow: var(--wallet-focus-ring, 0 0 0 3px color-mix(in srgb, var(--_accent) 45%, transparent));
  }
  p {
    margin: 0;
  }
  .panel {
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 1.5);
  }
  /* What went wrong and what to do, boxed. Each element that shows one keeps it, empty, in the
     accessibility tree, taking no room (card-reveal.styles.ts, list-styles.ts). */
  .alert {
    display: grid;
    gap: 0.5em;
    justify-items: start;
    padding: 0.75em 1em;
    border-radius: var(--_radius);
    border: 1px solid color-mix(in srgb, var(--_danger) 40%, transparent);
    background: color-mix(in srgb, var(--_danger) 8%, transparent);
    color: var(--_danger);
  }
  @media (prefers-reduced-motion: no-preference) {
    button {
      transition: background-color 120ms, border-color 120ms;
    }
  }
`;

/**
 * A tagged template counts as a side effect for bundlers, so the call is wrapped in a function
 * marked pure: a page that imports only `themeStyles` (<card-reveal>) does not carry this sheet.
 */
export const baseStyles = /* @__PURE__ */ (() => css`
  ${themeStyles}
  :host {
    --_success: var(--wallet-color-success, light-dark(#1b7a3d, #7bd88f));
  }
  button.link {
    align-self: flex-start;
    border-color: transparent;
    color: var(--_accent);
    text-decoration: underline;
    text-underline-offset: 0.2em;
    padding-inline: 0.25em;
  }
  button.danger {
    border-color: var(--_danger);
    color: var(--_danger);
  }
  button:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
  input {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_bg);
    padding: 0.55em 0.8em;
    min-block-size: 44px;
    inline-size: 100%;
  }
  input[aria-invalid='true'] {
    border-color: var(--_danger);
  }
  label {
    font-weight: 600;
  }
  /* The host's line height, not one of its own: a reader's (WCAG 1.4.12) reaches it only by inheritance. */
  h2 {
    font-size: 1.25em;
    margin: 0;
  }
  .stack {
    display: flex;
    flex-direction: column;
    gap: var(--_space);
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) * 0.75);
  }
  .muted {
    color: var(--_muted);
  }
  /* An empty live region stays in the accessibility tree but takes no room in a flex layout. */
  .live:empty {
    position: absolute;
  }
  .error {
    color: var(--_danger);
    font-weight: 500;
  }
  .success {
    color: var(--_success);
  }
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`)();
