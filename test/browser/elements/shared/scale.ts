/**
 * What the tests of long lists measure (agent-actions, delegated-keys and wallet-credentials scale
 * tests): the DOM mutation records of a list, the time an element's updates take, and the Intl
 * work of its rows. Pass-through wrappers only: the element runs as it would.
 */

/** Mutation records in `lists` (rows added, moved, removed, their attributes and content). */
export function watchLists(...lists: Element[]) {
  let records = 0;
  const watch = new MutationObserver((r) => (records += r.length));
  for (const list of lists) watch.observe(list, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    get records() {
      return (records += watch.takeRecords().length);
    },
    reset: () => void ((records = 0), watch.takeRecords()),
    stop: () => watch.disconnect(),
  };
}

/**
 * The time each update of `el` takes (render, commit and `updated()`, where rows kept by key are
 * rendered), in milliseconds, as they happen.
 */
export function timeUpdates(el: HTMLElement) {
  const host = el as unknown as { performUpdate(): void };
  const own = Object.getOwnPropertyDescriptor(host, 'performUpdate');
  const original = host.performUpdate;
  const times: number[] = [];
  host.performUpdate = function (this: unknown) {
    const start = performance.now();
    try {
      original.call(this);
    } finally {
      times.push(performance.now() - start);
    }
  };
  return {
    times,
    /** The longest update since the last reset. */
    get longest() {
      return Math.max(0, ...times);
    },
    reset: () => void times.splice(0),
    stop: () => (own ? Object.defineProperty(host, 'performUpdate', own) : delete (host as { performUpdate?: unknown }).performUpdate),
  };
}

/**
 * Counts the Intl formatters made and the dates and numbers formatted (a pass-through: each is the
 * real one). A row rendered again formats its dates and amounts again: the count says how many rows
 * an update rendered; making a formatter costs far more than formatting with it.
 */
export function countIntl() {
  const kinds = ['NumberFormat', 'DateTimeFormat'] as const;
  const originals = kinds.map((k) => Intl[k]);
  const getters = kinds.map((k) => Object.getOwnPropertyDescriptor(Intl[k].prototype, 'format')!);
  let made = 0;
  let formatted = 0;
  kinds.forEach((k, i) => {
    (Intl as unknown as Record<string, unknown>)[k] = new Proxy(originals[i]!, {
      construct(target, args, newTarget) {
        made++;
        return Reflect.construct(target, args, newTarget === Intl[k] ? target : newTarget);
      },
    });
    const get = getters[i]!.get!;
    Object.defineProperty(originals[i]!.prototype, 'format', {
      ...getters[i],
      get(this: object) {
        const f = get.call(this) as (v: unknown) => string;
        return (v: unknown) => (formatted++, f(v));
      },
    });
  });
  return {
    get made() {
      return made;
    },
    get formatted() {
      return formatted;
    },
    reset: () => void ((made = 0), (formatted = 0)),
    restore: () =>
      kinds.forEach((k, i) => {
        (Intl as unknown as Record<string, unknown>)[k] = originals[i];
        Object.defineProperty(originals[i]!.prototype, 'format', getters[i]!);
      }),
  };
}

/**
 * watchLists, timeUpdates and countIntl at once, for a test that measures all three of `el`'s
 * updates; `stop()` undoes the three.
 */
export function measure(el: HTMLElement, ...lists: Element[]) {
  const list = watchLists(...lists);
  const updates = timeUpdates(el);
  const intl = countIntl();
  return { list, updates, intl, stop: () => (intl.restore(), updates.stop(), list.stop()) };
}

/** The middle value of `values` (the typical one, away from a garbage collection's pause). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
