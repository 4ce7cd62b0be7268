/**
 * Replaceable strings for every element: each element registers its English strings (and any
 * shipped translation) under its own keys; an integrator replaces any of them with
 * `setStrings(locale, { key: 'text' })` and picks the language with `setLocale()` or the `lang`
 * attribute of the element or an ancestor. Right-to-left follows from the language.
 *
 * Deliberately small: `{name}` placeholders only, no plural rules or ICU syntax; a missing key
 * falls back to English, then to the key itself.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type Strings = Record<string, string>;

const catalog = new Map<string, Strings>();
let documentLocale: string | undefined;
const LOCALE_EVENT = 'wallet-elements-locale';

/** Languages written right to left (BCP 47 primary subtags). */
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug']);

/** Adds or replaces strings of a language. Later calls win, so integrators override defaults. */
export function setStrings(locale: string, strings: Strings): void {
  const key = locale.toLowerCase();
  catalog.set(key, { ...catalog.get(key), ...strings });
  notify();
}

/** Registers an element's defaults without overriding what an integrator already set. */
export function registerDefaultStrings(byLocale: Record<string, Strings>): void {
  for (const [locale, strings] of Object.entries(byLocale)) {
    const key = locale.toLowerCase();
    catalog.set(key, { ...strings, ...catalog.get(key) });
  }
}

/** The language every element uses unless it (or an ancestor) carries a `lang` attribute. */
export function setLocale(locale: string | undefined): void {
  documentLocale = locale?.toLowerCase();
  notify();
}

function notify(): void {
  if (typeof globalThis.dispatchEvent === 'function' && typeof Event === 'function') {
    globalThis.dispatchEvent(new Event(LOCALE_EVENT));
  }
}

/** The language that applies to an element: its closest `lang`, else setLocale's, else the document's. */
export function localeOf(element: Element | undefined): string {
  const own = element?.closest?.('[lang]')?.getAttribute('lang');
  const fromDoc = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return (own || documentLocale || fromDoc || 'en').toLowerCase();
}

export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RTL.has(locale.split('-')[0]!) ? 'rtl' : 'ltr';
}

/** Looks a string up: exact locale, then its primary language, then English, then the key. */
export function translate(locale: string, key: string, params?: Record<string, string | number>): string {
  const primary = locale.split('-')[0]!;
  const text = catalog.get(locale)?.[key] ?? catalog.get(primary)?.[key] ?? catalog.get('en')?.[key] ?? key;
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m)) : text;
}

/**
 * A Lit controller giving an element `t(key)` in its language and re-rendering it when strings or
 * the language change. It also sets `dir` on the host so layouts follow the language.
 */
export class LocaleController implements ReactiveController {
  private readonly host: ReactiveControllerHost & HTMLElement;
  private readonly onChange = () => this.host.requestUpdate();

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.host = host;
    host.addController(this);
  }

  /** The language found when the current update began; a render asks for it once per string. */
  private rendering: string | undefined;

  get locale(): string {
    return this.rendering ?? localeOf(this.host);
  }

  get dir(): 'ltr' | 'rtl' {
    return directionOf(this.locale);
  }

  t = (key: string, params?: Record<string, string | number>): string => translate(this.locale, key, params);

  hostConnected(): void {
    globalThis.addEventListener?.(LOCALE_EVENT, this.onChange);
  }

  hostDisconnected(): void {
    globalThis.removeEventListener?.(LOCALE_EVENT, this.onChange);
  }

  hostUpdate(): void {
    // One look-up of the closest `lang` per update instead of one per string rendered.
    this.rendering = localeOf(this.host);
    // Only set `dir` when the page has not chosen one for this element itself.
    if (!this.host.hasAttribute('dir') || this.host.dataset['autoDir'] === '') {
      const dir = this.dir;
      if (this.host.getAttribute('dir') !== dir) this.host.setAttribute('dir', dir);
      this.host.dataset['autoDir'] = '';
    }
  }

  hostUpdated(): void {
    this.rendering = undefined;
  }
}
