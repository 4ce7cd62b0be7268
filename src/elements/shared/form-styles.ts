/**
 * Styles the elements with forms share, on top of the base styles (styles.ts): a labelled field, a
 * row of actions whose main button grows, and the `error` and `status` live regions. A module of
 * its own so that elements without forms (<card-reveal>) do not carry it: a css`` call is kept by
 * a bundler wherever its module is.
 */
import { css } from './styles.ts';

export const formStyles = css`
  .field {
    display: flex;
    flex-direction: column;
    gap: 0.35em;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) * 0.66);
  }
  .actions .primary {
    flex: 1 1 10rem;
  }
  [part='error'] {
    color: var(--_danger);
    font-weight: 500;
  }
  [part='status'] {
    color: var(--_muted);
  }
`;
