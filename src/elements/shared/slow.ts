/**
 * Whether a wait has lasted long enough to be said: "Loading…" of the elements that list things
 * (<agent-actions>, <delegated-keys>) shows, and is said in their polite status region, only once
 * a load has taken more than a second. A brief load then neither flashes a message nor makes a
 * screen reader say one that is out of date by the time it is spoken; a long one is said once, in
 * a live region that was in the accessibility tree before (one that enters the tree with its text
 * is not reliably read).
 */
import type { ReactiveController, ReactiveControllerHost } from './reactive.ts';

export class SlowWatch implements ReactiveController {
  /** True once `waiting()` has held for a second after an update, until an update finds it no longer holds. */
  slow = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #host: ReactiveControllerHost;
  readonly #waiting: () => boolean;

  constructor(host: ReactiveControllerHost, waiting: () => boolean) {
    this.#host = host;
    this.#waiting = waiting;
    host.addController(this);
  }

  hostUpdated(): void {
    if (!this.#waiting()) {
      // Drawn as slow, it is drawn again without "Loading…".
      if (this.slow) this.#host.requestUpdate();
      return this.hostDisconnected();
    }
    this.#timer ??= setTimeout(() => {
      this.slow = true;
      this.#host.requestUpdate();
    }, 1000);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.slow = false;
  }
}
