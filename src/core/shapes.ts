/**
 * What every endpoint (endpoints.ts, cards.ts) shares: ids as path segments, and the checks of
 * answers against a shape table. The fields the library relies on are checked, unknown fields pass
 * through untouched; a 2xx of another shape is WalletError('unexpected_response'), a malformed
 * argument WalletError('invalid_argument').
 *
 * Deliberately not here: the exchange itself (endpoints.ts, cards.ts) and the shapes of resources.
 */
import { WalletError } from './errors.ts';

type Kind = 'string' | 'boolean' | 'number' | 'array' | 'object';
/**
 * A field's rule: a JSON kind (`?` when optional); `date`: a string Date.parse reads; `url`: a
 * string URL parses; `Prefix:`: a `<Type>:<uuid>` id of that type (api.md "Identifiers"); a list:
 * one of those strings; a RegExp: a string it matches.
 */
type Rule = Kind | `${Kind}?` | 'date' | 'url' | `${string}:` | readonly string[] | RegExp;
export type Shape = Record<string, Rule>;

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export function valid(v: unknown, rule: Rule): boolean {
  if (typeof rule !== 'string') return typeof v === 'string' && ('test' in rule ? rule.test(v) : rule.includes(v));
  if (rule.endsWith('?')) return v === undefined || kindOf(v) === rule.slice(0, -1);
  if (rule.endsWith(':')) return isId(v, rule.slice(0, -1));
  if (rule === 'date') return typeof v === 'string' && !Number.isNaN(Date.parse(v));
  return rule === 'url' ? typeof v === 'string' && URL.canParse(v) : kindOf(v) === rule;
}

/** The value as T once every rule of `shape` holds; `what` names the resource in the error. */
export function check<T>(value: unknown, shape: Shape, what: string): T {
  for (const field in shape) {
    if (kindOf(value) !== 'object' || !valid((value as Record<string, unknown>)[field], shape[field]!)) {
      throw new WalletError('unexpected_response', `The service's ${what} has no valid "${field}".`);
    }
  }
  return value as T;
}

export function invalid(message: string): never {
  throw new WalletError('invalid_argument', message);
}

/**
 * A path segment from an id, which must be a `<Type>:<uuid>` of the given type (api.md
 * "Identifiers"): anything else (`..`, a slash, another type's id) would name another route or
 * resource, so it is refused before any request. Such an id needs no escaping (RFC 3986 allows
 * the colon in a segment).
 */
export function seg(id: string, name: string, type: string): string {
  return isId(id, type) ? id : invalid(`${name} must be a ${type}:<uuid> id.`);
}

const UUID = /^[\da-f]{8}(-[\da-f]{4}){3}-[\da-f]{12}$/i;

/**
 * Whether `v` is a `<type>:<uuid>` id (api.md "Identifiers"): the type exactly, the uuid in either
 * case. The proxy (path ids, bindings) and the sandbox (its validation) use this same check.
 */
export const isId = (v: unknown, type: string): v is string => typeof v === 'string' && v.startsWith(type + ':') && UUID.test(v.slice(type.length + 1));
