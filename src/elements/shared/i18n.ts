/**
 * Replaceable strings for every element: each element registers its English strings (and any
 * shipped translation) under its own keys; an integrator replaces any of them with
 * `setStrings(locale, { key: 'text' })` and picks the language with `setLocale()` or the `lang`
 * attribute of the element or an ancestor. Right-to-left follows from the language.
 *
 * Deliberately small: `{name}` placeholders, no ICU syntax; a missing key falls back to English,
 * then to the key itself. A sentence with a count may have a form per plural category of its
 * language (Intl.PluralRules: `key_zero`, `key_one`, `key_two`, `key_few`, `key_many`; `key` is the
 * rest), as Arabic needs for the noun after a number ("رقمين", "6 أرقام", "11 رقمًا").
 */
import type { ReactiveController, ReactiveControllerHost } from './reactive.ts';

export type Strings = Record<string, string>;

/** The forms by plural category a table may add to its sentences with a count (`key_one`, ...). */
export type PluralForms<K extends string> = Partial<Record<`${K}_${Intl.LDMLPluralRule}`, string>>;

const catalog = new Map<string, Strings>();
let documentLocale: string | undefined;
const LOCALE_EVENT = 'wallet-elements-locale';
let langObserver: MutationObserver | undefined;

/** Languages written right to left (BCP 47 primary subtags). */
const RTL = /^(ar|he|fa|ur|ps|yi|dv|ckb|sd|ug)\b/;

/** Adds strings of a language; `under` decides who wins on a key both have. */
function merge(locale: string, strings: Strings, under: boolean): void {
  // Under the tag localeOf gives: an integrator's "pt_BR" is found for a page's lang="pt-BR".
  const key = locale.replace(/_/g, '-').toLowerCase();
  const old = catalog.get(key);
  catalog.set(key, under ? { ...strings, ...old } : { ...old, ...strings });
}

/** Adds or replaces strings of a language. Later calls win, so integrators override defaults. */
export function setStrings(locale: string, strings: Strings): void {
  merge(locale, strings, false);
  notify();
}

/** Registers an element's defaults without overriding what an integrator already set. */
export function registerDefaultStrings(byLocale: Record<string, Strings>): void {
  for (const locale in byLocale) merge(locale, byLocale[locale]!, true);
}

/** The language every element uses unless it (or an ancestor) carries a `lang` attribute. */
export function setLocale(locale: string | undefined): void {
  documentLocale = locale?.toLowerCase();
  notify();
}

/** Counts the changes of language or strings: what was rendered before one may read otherwise now. */
export let localeChanges = 0;

function notify(): void {
  localeChanges++;
  // Absent on a server (module import must not throw there); the argument is then not built.
  globalThis.dispatchEvent?.(new Event(LOCALE_EVENT));
}

/** The `lang`s said to be no language tag (localeOf). */
const said = new Set<string>();

/**
 * The language an element's text is in. The one that applies to it is its closest `lang` below the
 * document's root, else setLocale's, else the root's (`<html lang>`, which a valid page always has,
 * so it must not outrank setLocale); a server's locale written with "_" (en_US, ar_SA, as many
 * templates print it) is read as the language tag it means ("ar_sa" would not be found as Arabic).
 * The text is in that language where its strings are registered (exactly or by its primary
 * language), else in English, which is what shows (a French page without French strings reads
 * English). A `lang` that is no valid language tag ("en-", "ar-", "123", " ") is read as its
 * primary language where that one is valid and registered, else as English, and then said on the
 * console once (`<section lang="123"> ignored`). Every date and number of an element is written in
 * this language: the same as the words around it, and never by an Intl that throws a RangeError on
 * the page's tag.
 */
export function localeOf(element: Element | undefined): string {
  const root = globalThis.document?.documentElement;
  const near = element?.closest?.('[lang]');
  const own = near !== root && near?.getAttribute('lang');
  const given = own || documentLocale || root?.lang || 'en';
  const locale = given.replace(/_/g, '-').toLowerCase();
  const primary = locale.split('-')[0]!;
  for (const tag of catalog.has(locale) || catalog.has(primary) ? [locale, primary] : []) {
    try {
      return Intl.getCanonicalLocales(tag) && tag;
    } catch {}
  }
  // English for lack of strings, or because the `lang` is no language tag: that is said on the
  // console as an attribute ignored (reactive.ts), of the element carrying it, once per text (this
  // runs at each update of each element). A setLocale() of no tag is said as the root's. A BCP 47
  // tag that Intl refuses is tried as Intl takes it, and not said: an extended language as itself
  // (zh-yue as yue, en-GB-oed as oed), a private use or grandfathered one (x-klingon, i-klingon) as
  // a private use of "und".
  try {
    Intl.getCanonicalLocales(locale.replace(/^[xi]-/, 'und-x-').replace(/^([a-z]{2,3}-)+(?=[a-z]{3}\b)/, ''));
  } catch {
    if (!said.has(given)) console.warn(`<${own ? near!.localName : 'html'} lang="${said.add(given) && given}"> ignored`);
  }
  return 'en';
}

export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RTL.test(locale) ? 'rtl' : 'ltr';
}

/** Whether the last string looked up (translate) is not in the language asked for: English, or the key. */
let english = false;

/**
 * Looks a string up: exact locale, then its primary language, then English, then the key. The
 * first number put in picks the form of its plural category in the table the sentence comes from
 * (never another language's), and every number is written as Intl writes numbers in that language
 * (in ar-SA "٦", as its dates and amounts are). `locale` is a valid tag (localeOf's): Intl throws
 * a RangeError on any other.
 */
export function translate(locale: string, key: string, params?: Record<string, string | number>): string {
  const primary = locale.split('-')[0]!;
  const tag = [locale, primary, 'en'].find((l) => catalog.get(l)?.[key] != null);
  english = tag != primary && tag != locale;
  const strings = catalog.get(tag!) ?? {};
  // Without a number the category is "other", whose form is the sentence itself.
  const count = params && Object.values(params).find((v) => v === +v);
  const text = (params && strings[`${key}_${new Intl.PluralRules(tag).select(count as number)}`]) || (strings[key] ?? key);
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => (params[name] ?? m).toLocaleString(locale)) : text;
}

/**
 * A name the user or the service gave (a key's or a passkey's nickname, a rejection reason), put
 * inside a sentence: between Unicode isolates (FSI ... PDI), so that its own direction holds inside
 * text of the other direction ("Travel (2024)!" in Arabic, an Arabic name in English) and its
 * punctuation and numbers are not moved by the words around it.
 */
export const isolate = (name: string): string => `\u2068${name}\u2069`;

/**
 * A controller (Lit's ReactiveController shape) giving an element `t(key)` in its language and re-rendering it when strings or
 * the language change. It also sets `dir` and `lang` on the element's `base` part (not on the host,
 * which keeps only the attributes the page gave it), so that layouts follow the language and screen
 * readers speak it in that language; an English sentence shown for lack of a translation is marked
 * `lang="en" dir="ltr"` on the element holding it.
 */
export class LocaleController implements ReactiveController {
  readonly #onChange = () => this.#host.requestUpdate();
  /** The language found when the current update began; a render asks for it once per string. */
  #rendering: string | undefined;

  readonly #host: ReactiveControllerHost & HTMLElement;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.#host = host;
    host.addController(this);
  }

  /** The language of the element's text (localeOf), which its dates and numbers follow too. */
  get locale(): string {
    return this.#rendering ?? localeOf(this.#host);
  }


  /** The sentences of the current update that its language lacks, shown in English (hostUpdated marks them). */
  readonly #english = new Set<string>();

  t = (key: string, params?: Record<string, string | number>): string => {
    const text = translate(this.locale, key, params);
    if (english) this.#english.add(text);
    return text;
  };

  hostConnected(): void {
    globalThis.addEventListener?.(LOCALE_EVENT, this.#onChange);
    // A page switching language sets `lang` on <html> or a container after the elements drew: one
    // observer for all of them (it cannot see into shadow roots, where each element sets its own).
    if (!langObserver && globalThis.MutationObserver) {
      langObserver = new MutationObserver(notify);
      langObserver.observe(document, { attributeFilter: ['lang'], subtree: true });
    }
  }

  hostDisconnected(): void {
    globalThis.removeEventListener?.(LOCALE_EVENT, this.#onChange);
  }

  hostUpdate(): void {
    // One look-up of the closest `lang` per update instead of one per string rendered.
    this.#rendering = localeOf(this.#host);
    this.#english.clear();
  }

  hostUpdated(): void {
    // The language of the text, for assistive technology (WCAG 3.1.2), and its direction, on the
    // element's own wrapper (everything it shows is inside it), never on the host: there `lang`
    // would be read back as a page's choice by `localeOf`, and either would be an attribute the
    // server did not write, which a framework hydrating the page reports as a mismatch (React 19).
    // A `dir` the page put on the host is its choice for this element: the wrapper then follows it.
    const host = this.#host;
    const base = (host as { renderRoot?: ParentNode }).renderRoot?.querySelector?.<HTMLElement>('[part~=base]');
    if (base) {
      // The language the text is in (localeOf): a French page without French strings reads
      // English, not English spoken as French; a Hebrew one is not laid out right to left.
      const shown = this.locale;
      base.lang = shown;
      if (host.hasAttribute('dir')) base.removeAttribute('dir');
      else base.dir = directionOf(shown);
      // A sentence in English for lack of a translation is said so (WCAG 3.1.2 Language of Parts) on
      // the element holding its text, left to right: not read aloud with this language's voice.
      for (const marked of base.querySelectorAll('[lang]')) marked.removeAttribute('lang'), marked.removeAttribute('dir');
      const texts = document.createTreeWalker(base, 4 /* NodeFilter.SHOW_TEXT */);
      for (let text; this.#english.size && (text = texts.nextNode() as Text | null); ) {
        if (this.#english.has(text.data)) (text.parentElement!.lang = 'en'), (text.parentElement!.dir = 'ltr');
      }
    }
    this.#rendering = undefined;
  }
}
