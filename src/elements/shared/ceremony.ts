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
  /** Aborted when a newer ceremony claims the page, or by the caller's signal. */
  signal: AbortSignal;
  /** Releases the page, unless a newer ceremony already holds it. */
  end(): void;
}

/**
 * Claims the page for a new ceremony, aborting the one that held it. The returned signal is
 * aborted by the caller's own too (a @lit/task signal, say): an element's Cancel aborts its own
 * ceremony through it, never another element's.
 */
export function beginCeremony(signal?: AbortSignal): Ceremony {
  current?.abort(abortError('Another ceremony started.'));
  const controller = (current = new AbortController());
  const abort = () => controller.abort(signal!.reason);
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort);
  return {
    signal: controller.signal,
    end() {
      signal?.removeEventListener('abort', abort);
      if (current === controller) current = undefined;
    },
  };
}
