/**
 * Styles of `<wallet-login>` on top of the shared base (theme colours, focus ring, RTL-safe logical
 * properties). Its own custom properties are documented on the class; no inline style anywhere.
 */
import { css } from '../shared/styles.ts';

export const walletLoginStyles = css`
  :host {
    max-inline-size: var(--wallet-login-max-width, 26rem);
  }
  /* Focused by script only (after logging in), to be read out: no ring on a non-control. */
  [part='heading']:focus {
    outline: none;
  }
  [part='base'] {
    padding: var(--wallet-login-padding, calc(var(--_space) * 1.5));
    border-radius: var(--wallet-login-radius, var(--_radius));
  }
  [part='methods'] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: calc(var(--_space) * 0.66);
  }
  [part='methods'] button {
    inline-size: 100%;
    text-align: start;
  }
  [part='methods'] li:first-child button {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-fg);
    font-weight: 600;
  }
  [part='code-input'] {
    font-size: var(--wallet-login-code-font-size, 1.6em);
    letter-spacing: 0.35em;
    font-variant-numeric: tabular-nums;
    text-align: center;
    /* Digits read left to right in Arabic too. */
    direction: ltr;
  }
  .actions {
    justify-content: space-between;
  }
`;
