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
 * `load`, run once the first screen is painted, its promise shared by every caller; a load that
 * failed (the code could not be fetched) runs again on the next call.
 */
export function onceAfterFirstPaint<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= afterFirstPaint()
      .then(load)
      .catch((e: unknown) => {
        pending = undefined;
        throw e;
      }));
}
