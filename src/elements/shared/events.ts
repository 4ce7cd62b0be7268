/**
 * The shape every element event shares: `bubbles` and `composed` so a page hears it from outside
 * the shadow root, a typed `detail`, and a safe constructor where `CustomEvent` is missing (module
 * import on a server must not throw). Details never carry secrets: no key, stamp, OTP, token or URL.
 */

const Base: typeof CustomEvent =
  typeof CustomEvent === 'function'
    ? CustomEvent
    : (class {
        constructor() {
          throw new Error('Events can only be created in a browser');
        }
      } as unknown as typeof CustomEvent);

/** A composed, bubbling CustomEvent with a typed detail. */
export class WalletEvent<T> extends Base<T> {
  constructor(type: string, detail: T) {
    super(type, { detail, bubbles: true, composed: true });
  }
}

/** The detail of every `<tag>-error` event: a closed code and a sentence for the user. */
export interface ErrorDetail {
  code: string;
  message: string;
  /** The service's HTTP status, when the service answered. */
  status?: number;
}
