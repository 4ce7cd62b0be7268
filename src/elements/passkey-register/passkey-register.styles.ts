/**
 * Styles of `<passkey-register>` on top of the shared base; its custom properties are documented
 * on the class. No inline style anywhere.
 */
import { css } from '../shared/styles.ts';

export const passkeyRegisterStyles = css`
  :host {
    max-inline-size: var(--passkey-register-max-width, 26rem);
  }
  [part='base'] {
    padding: var(--passkey-register-padding, calc(var(--_space) * 1.5));
    border-radius: var(--passkey-register-radius, var(--_radius));
    /* A passkey's name with no space in it (an address, a host name), said back once it is saved,
       breaks where it must rather than widening the panel past its column. */
    overflow-wrap: anywhere;
  }
  [part='note'] {
    border-inline-start: 3px solid var(--_accent);
    padding-inline-start: 0.75em;
  }
  [part='done'] {
    color: var(--_success);
    font-weight: 600;
  }
`;
