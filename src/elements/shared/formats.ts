/**
 * Intl formatters made once per kind, language, options and time zone: making one costs far more
 * than using it, and a long list formats with the same few thousands of times. A formatter keeps
 * the time zone the page had when it was made; a device moved to another zone (a page left open
 * while travelling) writes later dates in the new one, as Date does: the key holds the zone as
 * Date writes it at each call, its offset and name ("GMT+0100 (Central European Standard Time)",
 * which tell apart zones of one offset and other rules). Asking Intl for the zone would cost as
 * much as making the formatter.
 */
const made = new Map<string, object>();

export function format<T extends object, O extends object>(Kind: new (locale: string, options?: O) => T, locale: string, options?: O): T {
  const key = Kind.name + locale + JSON.stringify(options) + new Date(17e11);
  return (made.get(key) ?? made.set(key, new Kind(locale, options)).get(key)) as T;
}
