/**
 * Styles of `<passkey-register>` on top of the shared base; its custom properties are documented
 * on the class. No inline style anywhere.
 */
import { css } from 'lit';

export const passkeyRegisterStyles = css`
  :host {
    max-inline-size: var(--passkey-register-max-width, 26rem);
  }
  [part='base'] {
    padding: var(--passkey-register-padding, calc(var(--_space) * 1.5));
    border-radius: var(--passkey-register-radius, var(--_radius));
  }
  [part='note'] {
    border-inline-start: 3px solid var(--_accent);
    padding-inline-start: 0.75em;
  }
  [part='error'] {
    color: var(--_danger);
    font-weight: 500;
  }
  [part='status'] {
    color: var(--_muted);
  }
  [part='done'] {
    color: var(--_success);
    font-weight: 600;
  }
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
`;
