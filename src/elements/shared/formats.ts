/**
 * Intl formatters made once per kind, language and options: making one costs far more than using
 * it, and a long list formats with the same few thousands of times.
 */
const made = new Map<string, object>();

export function format<T extends object, O extends object>(Kind: new (locale: string, options?: O) => T, locale: string, options?: O): T {
  const key = Kind.name + locale + JSON.stringify(options);
  if (!made.has(key)) made.set(key, new Kind(locale, options));
  return made.get(key) as T;
}
