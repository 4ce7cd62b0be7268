/**
 * One piece of asynchronous work of an element at a time: the part of @lit/task's `Task` the
 * elements use (manual `run`, `abort`, `status`, `onComplete`/`onError`), in a fraction of its bytes.
 *
 * - `run(args)` aborts the run in flight (its AbortSignal fires) and starts a new one with a fresh
 *   signal; only the latest run's outcome is reported, so a stale answer never lands.
 * - The host re-renders when a run starts and when it ends.
 * - `status` is set before `onComplete`/`onError` is called, so a callback that starts the next run
 *   leaves the status PENDING (with @lit/task the finished run would overwrite it with COMPLETE).
 * - A run that returns `initialState` goes back to INITIAL and calls neither callback.
 * - An exception thrown by a callback is not swallowed: it rejects the promise `run` returned.
 *
 * Deliberately not here: running on property changes (autoRun), `render()` helpers, `value`.
 */
import type { ReactiveControllerHost } from './reactive.ts';

/**
 * Same values as @lit/task's TaskStatus. An enum, which a bundler (esbuild) writes as the number
 * wherever a member is used, and then leaves out.
 */
export enum TaskStatus {
  INITIAL,
  PENDING,
  COMPLETE,
  ERROR,
}

/** Returned by a run to mean "nothing was done": the status goes back to INITIAL. */
export const initialState: unique symbol = Symbol();

export interface TaskOptions<A extends readonly unknown[], R> {
  task: (args: A, options: { signal: AbortSignal }) => R | typeof initialState | PromiseLike<R | typeof initialState>;
  /** Arguments of a `run()` called without any. */
  args?: () => A;
  onComplete?: (value: R) => void;
  onError?: (error: unknown) => void;
}

export class Task<A extends readonly unknown[] = readonly unknown[], R = unknown> {
  status: TaskStatus = TaskStatus.INITIAL;
  /** The controller of the latest run: a run whose controller was replaced reports nothing. */
  #controller: AbortController | undefined;

  readonly #host: ReactiveControllerHost;
  readonly #options: TaskOptions<A, R>;

  constructor(host: ReactiveControllerHost, options: TaskOptions<A, R>) {
    this.#host = host;
    this.#options = options;
  }

  async run(args?: A): Promise<void> {
    this.abort();
    const controller = (this.#controller = new AbortController());
    const options = this.#options;
    this.#set(TaskStatus.PENDING);
    let result: R | typeof initialState;
    try {
      result = await options.task(args ?? options.args!(), { signal: controller.signal });
    } catch (error) {
      if (controller !== this.#controller) return;
      this.#set(TaskStatus.ERROR);
      return options.onError?.(error);
    }
    if (controller !== this.#controller) return;
    if (result === initialState) return this.#set(TaskStatus.INITIAL);
    this.#set(TaskStatus.COMPLETE);
    options.onComplete?.(result);
  }

  /** Aborts the run in flight, if any; its outcome is still reported (usually an AbortError). */
  abort(reason?: unknown): void {
    if (this.status === TaskStatus.PENDING) this.#controller?.abort(reason);
  }

  #set(status: TaskStatus): void {
    this.status = status;
    this.#host.requestUpdate();
  }
}
