/**
 * Intl formatters made once per kind, language, options and time zone: making one costs far more
 * than using it, and a long list formats with the same few thousands of times. A formatter keeps
 * the time zone of the page when it was made; a device moved to another zone (a page left open
 * while travelling) writes later dates in the new one, as a `new Date().toString()` does: the key
 * holds the zone's name and its offsets in winter and summer, as Date reads them at each call
 * (resolving the zone through Intl would cost as much as making the formatter).
 */
const made = new Map<string, object>();

export function format<T extends object, O extends object>(Kind: new (locale: string, options?: O) => T, locale: string, options?: O): T {
  const key = Kind.name + locale + JSON.stringify(options) + new Date(1.7e12) + new Date(1.72e12).getTimezoneOffset();
  if (!made.has(key)) made.set(key, new Kind(locale, options));
  return made.get(key) as T;
}
