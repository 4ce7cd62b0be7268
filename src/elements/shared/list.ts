/**
 * What the elements that list a wallet's things (<delegated-keys>, <agent-actions>,
 * <wallet-credentials>) do alike, once: their custom states, dates for people, the quiet
 * return of an aborted call, and a list read again once back online. No lit: importing this
 * module touches nothing.
 */
import type { ErrorDetail } from './events.ts';
import type { ReactiveController, ReactiveControllerHost } from './reactive.ts';
import { format } from './formats.ts';

/**
 * Turns the element's custom states (`:state(name)`) on and off. Browsers without custom states,
 * or with the older `--name` only form, keep none: the states are a styling aid, not the behaviour.
 */
export function syncStates(internals: ElementInternals | undefined, states: Record<string, boolean>): void {
  try {
    for (const [name, on] of Object.entries(states)) {
      if (on) internals?.states.add(name);
      else internals?.states.delete(name);
    }
  } catch {
    // No custom states in this browser.
  }
}

/** True when a call ended because the element aborted it (it disconnected, or a newer call replaced it). */
export function isAbort(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return name === 'AbortError' || code === 'aborted';
}

/**
 * Calls `retry` at each `online` event of the window while `host` is on the page (listening ends as
 * it leaves, and starts again if it is moved or put back): `retry` reads again a list that failed
 * for want of a connection, if it still shows that failure. Just back online, the connection may
 * not carry yet (a network coming up): `retry` is called again 2, 4 and 6 s after the event while
 * the browser reads online, so a read that failed so is made again with no new `online` event (as
 * shared/load.ts `whenOnline` does for the elements' code and <wallet-login>'s start-up check).
 */
export function onOnline(host: ReactiveControllerHost, retry: () => void): ReactiveController {
  let listening: AbortController | undefined;
  let tries: ReturnType<typeof setTimeout>[] = [];
  const stop = () => tries.forEach(clearTimeout);
  const online = () => {
    stop();
    retry();
    tries = [1, 2, 3].map((n) => setTimeout(() => navigator.onLine && retry(), n * 2000));
  };
  const controller: ReactiveController = {
    hostConnected: () => addEventListener('online', online, { signal: (listening = new AbortController()).signal }),
    hostDisconnected: () => (listening?.abort(), stop()),
  };
  host.addController(controller);
  return controller;
}

/** An ISO date in the reader's language, date and time; '' when the service sent none that parses. */
export function formatDate(iso: string | undefined, locale: string): string {
  const date = new Date(iso ?? '');
  return isNaN(+date) ? '' : format(Intl.DateTimeFormat, locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** An error event's detail with the service's HTTP status, when the service answered. */
export function errorDetail<T extends ErrorDetail>(error: unknown, detail: T): T {
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? { ...detail, status } : detail;
}

/** The keyboard is in `host` (on it, or in its shadow root: focus inside a shadow root shows as its host). */
export const keyboardIn = (host: Element): boolean => (host.getRootNode() as Document).activeElement === host;

/**
 * The elements' focus rule: whether a change of `host` may move the keyboard's focus (to its
 * heading, a field, the next row). It may from inside `host` (also while another window, a sign-in
 * or passkey prompt, has the system's focus: `:focus-within` no longer matches then), and, for a
 * change not made `outside` it (by another element or tab), from nowhere on the page or from `from`,
 * the control the change was asked from: never from where the user went meanwhile.
 */
export const mayFocus = (host: Element, outside?: boolean, from?: Element | null): boolean =>
  keyboardIn(host) || (!outside && [null, document.body, from].includes(document.activeElement));
