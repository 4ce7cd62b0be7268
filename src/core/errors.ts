/**
 * The core's errors: one class for what the service (or the proxy, in the service's shape) answered,
 * one for what went wrong on the client, each with a short closed list of codes. `cause` is kept.
 * Neither ever carries a secret: no payload, stamp, key, OTP or reveal URL goes into a message.
 */
import type { ErrorBody } from './types.ts';

/** An error answer of the service, with its `status`, `code`, `message` and `details` kept as sent. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** Seconds from a `Retry-After` header (429, 503), when one came. */
  readonly retryAfter: number | undefined;

  constructor(body: ErrorBody, options: { retryAfter?: number | undefined; cause?: unknown } = {}) {
    super(body.message, options);
    this.status = body.status;
    this.code = body.code;
    this.details = body.details;
    this.retryAfter = options.retryAfter;
  }
}

/**
 * True when a refusal asks for a login, not a set-up fix (api.md "Errors"), from its `code` and, for
 * a 401, its `details`: the wallet signature refused (WALLET_SIGNATURE_*, INVALID_SIGNATURE,
 * REQUEST_ID_MISSING), or a 401 with details (the proxy's `authorize`/`accountFor` refusal,
 * `details.reason` AUTHORIZE: the site's user not signed in; the sandbox's REQUEST_ID_* reasons on a
 * signed leg). A plain 401 UNAUTHORIZED, the only other one the service documents, is the proxy's
 * API credentials refused. The elements read a 401 by it, each into a code of its own.
 */
export const asksLogin = (code: string, details?: unknown): boolean => !!details || /^(WALLET_SIGNATURE|INVALID_SIGNATURE$|REQUEST_ID_MISSING$)/.test(code);

/** What went wrong on the client side. */
export type WalletErrorCode =
  /** An argument was missing or malformed; the message names it. */
  | 'invalid_argument'
  /** A target bundle, session-key bundle or export envelope failed to parse, verify or decrypt. */
  | 'bundle_invalid'
  /** The session key is not in the key store (storage was evicted or cleared): log in again. */
  | 'key_missing'
  /** There is no live session to sign with, or it expired. */
  | 'session_expired'
  /**
   * The browser's storage refused to open, read or write the key store (site data blocked, some
   * private windows, a sandboxed frame): no session can be kept here.
   */
  | 'storage_unavailable'
  /** A signed retry could not complete within its bounds (expired twice, or too many 202s). */
  | 'retry_exhausted'
  /** The network or the proxy could not be reached. */
  | 'network'
  /**
   * Something other than the proxy or the service answered (an HTML page, a 404 or 405 without the
   * service's error body): the base URL is not where the proxy is mounted. The message names it.
   */
  | 'misconfigured'
  /** A WebAuthn ceremony failed or was cancelled (see `cause`). */
  | 'webauthn'
  /**
   * The passkey picked is none of those asked for: another login's of the same site (autofill
   * allows any). Nothing was sent.
   */
  | 'passkey_mismatch'
  /** The caller aborted through its AbortSignal. */
  | 'aborted'
  /** The answer was not what the interface describes. */
  | 'unexpected_response';

/** Something went wrong on the client side; `code` is one of WalletErrorCode. */
export class WalletError extends Error {
  override readonly name = 'WalletError';
  readonly code: WalletErrorCode;

  constructor(code: WalletErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.code = code;
  }
}

export function isServiceError(e: unknown, code?: string): e is ServiceError {
  return e instanceof ServiceError && (code === undefined || e.code === code);
}
