/**
 * Intl formatters made once per kind, language and options: making one costs far more than using
 * it, and a long list formats with the same few thousands of times.
 */
const made = new Map<string, object>();

export function format<T extends object, O extends object>(Kind: new (locale: string, options?: O) => T, locale: string, options?: O): T {
  const key = `${Kind.name} ${locale} ${JSON.stringify(options)}`;
  let f = made.get(key) as T | undefined;
  if (!f) made.set(key, (f = new Kind(locale, options)));
  return f;
}
