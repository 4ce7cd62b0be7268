/**
 * One abort service for the page: a WebAuthn ceremony (or any flow that must not overlap another,
 * such as a code being verified while a passkey prompt opens) claims the page, which aborts the
 * ceremony that held it. core/webauthn.ts does the same for the browser's own prompt; this one also
 * covers our HTTP steps around the prompt, so a cancelled flow stops as a whole and its element
 * returns to a usable screen.
 *
 * Not here: any notion of which element should win; the latest claim always does.
 */

let current: AbortController | undefined;

const abortError = (message: string) => new DOMException(message, 'AbortError');

export interface Ceremony {
  /** Aborted when a newer ceremony claims the page, on cancelCeremony(), or by the caller's signal. */
  signal: AbortSignal;
  /** Releases the page, unless a newer ceremony already holds it. */
  end(): void;
}

/**
 * Claims the page for a new ceremony, aborting the one that held it. The returned signal is
 * combined with the caller's own (a @lit/task signal, say) so that either aborts the ceremony.
 */
export function beginCeremony(signal?: AbortSignal): Ceremony {
  current?.abort(abortError('Another ceremony started.'));
  const controller = new AbortController();
  current = controller;
  const combined = signal && typeof AbortSignal.any === 'function' ? AbortSignal.any([controller.signal, signal]) : controller.signal;
  return {
    signal: combined,
    end() {
      if (current === controller) current = undefined;
    },
  };
}

/** Aborts the running ceremony, if any (a "Cancel" button). */
export function cancelCeremony(): void {
  current?.abort(abortError('The ceremony was cancelled.'));
  current = undefined;
}
