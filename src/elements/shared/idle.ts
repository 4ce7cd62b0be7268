import { loaded } from './load.ts';

/**
 * `afterFirstPaint()`: resolves once the browser has had the chance to paint what is on the page,
 * at its next idle period (requestIdleCallback, HTML "Cooperative scheduling of background tasks"),
 * or after one task where that API is missing (Safari, a server). Elements put what their first
 * screen does not need behind it: loading the session flows, opening IndexedDB, the other-tab
 * BroadcastChannel. Work in the same task as the first render would delay that render's paint.
 *
 * Deliberately no cancellation: callers check that what they started for is still current.
 */
export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 50 });
    else setTimeout(resolve, 0);
  });
}

/**
 * `load` (an import()), run once the first screen is painted, its promise shared by every caller,
 * as load.ts `loaded` runs it: a failed load is asked for once more at once, then rejects with
 * LoadFailed (`load_failed`; `network` offline, unasked); the next call runs it again.
 */
export function onceAfterFirstPaint<T>(load: () => Promise<T>): () => Promise<T> {
  const module = loaded(load);
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= afterFirstPaint()
      .then(module)
      .catch((e: unknown) => {
        pending = undefined;
        throw e;
      }));
}
