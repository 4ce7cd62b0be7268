/**
 * Input checks of the sandbox: `<Type>:<uuid>` identifiers (api.md "Identifiers"), P-256 public
 * keys in hex (DESIGN.md "Key encodings"), and a collector that gathers every field error of a body
 * into one `400 INVALID_INPUT` with `details.errors` (reference.md "Shared shapes").
 *
 * Deliberately not here: coercion. A number sent as a string is a wrong type, not a number.
 */
import { hexToBytes } from '../core/encoding.ts';
import { compressPublicKey } from '../core/p256.ts';
import { isId } from '../core/shapes.ts';
import { badRequest, invalidField, type FieldError } from './http.ts';

/** The core's own `<Type>:<uuid>` check (one pattern for client, proxy and sandbox). */
export { isId };

/** A path or query id: 400 INVALID_INPUT naming the field when malformed. */
export function requireId<T extends string>(type: T, value: unknown, field: string): `${T}:${string}` {
  if (!isId(value, type)) throw invalidField(field, `must be an id of the form ${type}:<uuid>`);
  return value as `${T}:${string}`;
}

/** Uncompressed P-256 key hex (`04` + 128 hex digits) that is a point on the curve. */
export function isUncompressedKeyHex(value: unknown): value is string {
  if (typeof value !== 'string' || !/^04[0-9a-fA-F]{128}$/.test(value)) return false;
  try {
    compressPublicKey(hexToBytes(value));
    return true;
  } catch {
    return false;
  }
}

/** Gathers field errors, then throws them together. */
export class Fields {
  readonly errors: FieldError[] = [];
  constructor(private readonly body: Record<string, unknown>) {}

  fail(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  string(field: string, opts: { min?: number; max?: number; optional?: boolean; pattern?: RegExp } = {}): string | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) {
      if (!opts.optional) this.fail(field, 'is required');
      return undefined;
    }
    if (typeof v !== 'string') {
      this.fail(field, 'must be a string');
      return undefined;
    }
    const min = opts.min ?? 1;
    if (v.length < min) {
      this.fail(field, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
      return undefined;
    }
    if (opts.max !== undefined && v.length > opts.max) {
      this.fail(field, `must be at most ${opts.max} characters`);
      return undefined;
    }
    if (opts.pattern && !opts.pattern.test(v)) {
      this.fail(field, `must match ${opts.pattern.source}`);
      return undefined;
    }
    return v;
  }

  id<T extends string>(field: string, type: T, optional = false): `${T}:${string}` | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) {
      if (!optional) this.fail(field, 'is required');
      return undefined;
    }
    if (!isId(v, type)) {
      this.fail(field, `must be an id of the form ${type}:<uuid>`);
      return undefined;
    }
    return v as `${T}:${string}`;
  }

  enumOf<T extends string>(field: string, values: readonly T[]): T | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) {
      this.fail(field, 'is required');
      return undefined;
    }
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      this.fail(field, `must be one of ${values.join(', ')}`);
      return undefined;
    }
    return v as T;
  }

  boolean(field: string): boolean | undefined {
    const v = this.body[field];
    if (typeof v !== 'boolean') {
      this.fail(field, v === undefined || v === null ? 'is required' : 'must be a boolean');
      return undefined;
    }
    return v;
  }

  uncompressedKey(field: string): string | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) {
      this.fail(field, 'is required');
      return undefined;
    }
    if (!isUncompressedKeyHex(v)) {
      this.fail(field, 'must be an uncompressed P-256 public key in hex (04 followed by 128 hex digits)');
      return undefined;
    }
    return v;
  }

  /** Throws 400 INVALID_INPUT with every collected error, if any. */
  check(): void {
    if (this.errors.length > 0) {
      const first = this.errors[0]!;
      throw badRequest(`${first.field}: ${first.message}`, this.errors);
    }
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const BASE64URL = /^[A-Za-z0-9_-]+$/;
export const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
export const E164 = /^\+[1-9][0-9]{6,14}$/;
