/**
 * What every endpoint function (endpoints.ts, cards.ts) shares: the plain exchange over the
 * transport, ids as path segments, and the checks of answers against a shape table. What the
 * library relies on is required, other documented fields are type-checked when present, unknown
 * fields pass through untouched; a 2xx of another shape is WalletError('unexpected_response'), a
 * malformed argument WalletError('invalid_argument').
 *
 * Deliberately not here: the signed retry (signed-retry.ts) and the shapes of particular resources.
 */
import { WalletError } from './errors.ts';
import type { HttpRequest, HttpResponse, Send } from './signed-retry.ts';

type Kind = 'string' | 'boolean' | 'number' | 'array' | 'object';
/**
 * A field's rule: a JSON kind (`?` when optional); `date`: a string Date.parse reads; `url`: a
 * string URL parses; `Prefix:`: a `<Type>:<uuid>` id of that type (api.md "Identifiers"); a list:
 * one of those strings; a RegExp: a string it matches.
 */
type Rule = Kind | `${Kind}?` | 'date' | 'url' | `${string}:` | readonly string[] | RegExp;
export type Shape = Record<string, Rule>;

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function parses(v: string): boolean {
  try {
    return !!new URL(v);
  } catch {
    return false;
  }
}

export function valid(v: unknown, rule: Rule): boolean {
  if (typeof rule !== 'string') return typeof v === 'string' && ('test' in rule ? rule.test(v) : rule.includes(v));
  if (rule.endsWith('?')) return v === undefined || kindOf(v) === rule.slice(0, -1);
  if (rule.endsWith(':')) return typeof v === 'string' && v.startsWith(rule);
  if (rule === 'date') return typeof v === 'string' && !Number.isNaN(Date.parse(v));
  if (rule === 'url') return typeof v === 'string' && parses(v);
  return kindOf(v) === rule;
}

/** The value as T once every rule of `shape` holds; `what` names the resource in the error. */
export function check<T>(value: unknown, shape: Shape, what: string): T {
  if (kindOf(value) !== 'object') throw new WalletError('unexpected_response', `The service's ${what} was not an object.`);
  for (const [field, rule] of Object.entries(shape)) {
    if (!valid((value as Record<string, unknown>)[field], rule)) {
      throw new WalletError('unexpected_response', `The service's ${what} has no valid "${field}".`);
    }
  }
  return value as T;
}

export function invalid(message: string): never {
  throw new WalletError('invalid_argument', message);
}

/** A path segment from an id: `<Type>:<uuid>` ids keep their colon (RFC 3986 allows it in a segment). */
export function seg(id: string, name: string): string {
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) invalid(`${name} must be a non-empty id.`);
  return encodeURIComponent(id).replace(/%3A/gi, ':');
}

export interface Exchange {
  signal?: AbortSignal | undefined;
  /** Serialized with JSON.stringify. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The statuses the operation documents; any 2xx when absent. */
  ok?: number[];
}

/** The body of an answer whose status is one the operation documents (`what` names it in the error). */
export function answer(res: HttpResponse, what: string, ok?: number[]): unknown {
  if (ok && !ok.includes(res.status)) throw new WalletError('unexpected_response', `The service answered ${res.status} to ${what}.`);
  return res.body;
}

/** One plain exchange (no signature); answers the parsed body. */
export async function request(send: Send, method: HttpRequest['method'], path: string, what: string, x: Exchange = {}): Promise<unknown> {
  const { body } = x;
  return answer(await send({ method, path, body: body === undefined ? undefined : JSON.stringify(body), headers: x.headers, signal: x.signal }), what, x.ok);
}
