/**
 * The signed-retry pattern (api.md "Signed-retry pattern (shared)", DESIGN.md wire format 7), in one
 * place for every call that uses it: credential create/revoke, OTP verify, session refresh/revoke,
 * wallet export, wallet privacy, customer email, delegated-key creation.
 *
 * 1. send the body without signature headers; 2xx other than 202 is the answer;
 * 2. a 202 carries {payloadToSign, requestId, expiresAt}: stamp payloadToSign exactly as received;
 * 3. send the SAME body bytes again with `Service-Wallet-Signature` and `Request-Id`;
 * 4. another 202 (delegated-key creation takes two signatures, reference.md) loops, at most
 *    `maxRounds` signatures in all;
 * 5. a challenge already past its `expiresAt` before signing, or a retry refused with 401 because the
 *    challenge expired, starts the whole exchange over once from the first leg.
 *
 * The body is serialized once and the same string is sent on every leg: a stamp covers exact bytes
 * (api.md: "byte for byte, with no re-parsing"). A consumed requestId is never sent again.
 * This module does not do HTTP itself (it takes a `send` function, see client.ts) and never logs:
 * payloads, stamps and request ids never leave it except as the headers they are meant for.
 */
import { WalletError, ServiceError } from './errors.ts';
import type { SignedRequestChallenge } from './types.ts';
import type { Stamper } from './stamp.ts';

/** The header naming the challenge a signed retry answers (api.md "Signed-retry pattern"). */
export const REQUEST_ID_HEADER = 'Request-Id';

/** One HTTP exchange as the client's transport sees it. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path under the client's base, starting with `/`, query included. */
  path: string;
  /** The exact body text (already serialized), or none. */
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body; undefined for an empty body (204). */
  body: unknown;
}

/**
 * Sends one request. Resolves with any 2xx; rejects with ServiceError for other statuses,
 * WalletError('network' | 'aborted' | 'unexpected_response') otherwise (client.ts `createHttp`).
 */
export type Send = (request: HttpRequest) => Promise<HttpResponse>;

export interface SignedRequestOptions {
  send: Send;
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** Serialized once with JSON.stringify; the same string goes out on every leg. */
  body?: unknown;
  /** Signs payloadToSign. Optional for calls whose 202 depends on server state (credential create, email). */
  stamper?: Stamper;
  signal?: AbortSignal;
  /** Extra headers on every leg (e.g. Request-Id of a passkey challenge is NOT one of these). */
  headers?: Record<string, string>;
  /** Most signatures one exchange may take (reference.md: delegated keys take two). Default 3. */
  maxRounds?: number;
  /** Clock for expiry checks; defaults to Date.now. */
  now?: () => number;
  /** Message of the `session_expired` error raised when a 202 arrives and no stamper was given. */
  missingStamperMessage?: string;
}

const REQUEST_ID_PATTERN = /^Request:[0-9A-Za-z-]{1,64}$/;

/** Validates a 202 body as a SignedRequestChallenge (reference.md "Shared shapes"). */
export function parseChallenge(body: unknown): SignedRequestChallenge {
  if (typeof body !== 'object' || body === null) {
    throw new WalletError('unexpected_response', 'The 202 answer of a signed request carried no challenge object.');
  }
  const b = body as Record<string, unknown>;
  if (typeof b.payloadToSign !== 'string' || b.payloadToSign.length === 0) {
    throw new WalletError('unexpected_response', 'The signed-request challenge has no payloadToSign.');
  }
  if (typeof b.requestId !== 'string' || !REQUEST_ID_PATTERN.test(b.requestId)) {
    throw new WalletError('unexpected_response', 'The signed-request challenge has no valid requestId (Request:<uuid>).');
  }
  if (typeof b.expiresAt !== 'string' || Number.isNaN(Date.parse(b.expiresAt))) {
    throw new WalletError('unexpected_response', 'The signed-request challenge has no valid expiresAt.');
  }
  const challenge: SignedRequestChallenge = {
    payloadToSign: b.payloadToSign,
    requestId: b.requestId as SignedRequestChallenge['requestId'],
    expiresAt: b.expiresAt,
  };
  if (typeof b.type === 'string') challenge.type = b.type as SignedRequestChallenge['type'];
  return challenge;
}

/**
 * Whether a failed retry was refused because its challenge had expired. The service answers a late
 * retry with 401 (api.md "Limits": signed-retry window until expiresAt); its code is not documented,
 * so an explicit expiry code, or our own clock being past expiresAt, both count.
 */
function isExpiredRetry(e: unknown, challenge: SignedRequestChallenge, now: number): boolean {
  if (!(e instanceof ServiceError) || e.status !== 401) return false;
  // A session that expired is not a challenge that expired: starting over would not help.
  if (/^(REQUEST|REQUEST_ID|CHALLENGE|SIGNED_REQUEST)_EXPIRED$/.test(e.code)) return true;
  if (e.details && typeof e.details === 'object' && /expired/i.test(String((e.details as Record<string, unknown>).reason ?? ''))) {
    return true;
  }
  return now >= Date.parse(challenge.expiresAt);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new WalletError('aborted', 'The request was aborted.', { cause: signal.reason });
}

/**
 * Runs one signed-retry exchange and returns the final 2xx answer that is not a 202.
 * Errors: ServiceError as answered; WalletError 'session_expired' (202 without a stamper),
 * 'retry_exhausted' (expired twice, or more than maxRounds challenges), 'unexpected_response'
 * (a malformed challenge, or one re-issuing a consumed requestId), 'aborted', 'network'.
 */
export async function sendSigned(options: SignedRequestOptions): Promise<HttpResponse> {
  const { send, method, path, stamper, signal } = options;
  const maxRounds = options.maxRounds ?? 3;
  const now = options.now ?? Date.now;
  // Serialize once: every leg sends these exact characters.
  const bodyText = options.body === undefined ? undefined : JSON.stringify(options.body);
  const baseHeaders = options.headers ?? {};
  const consumed = new Set<string>();
  let restarts = 0;

  const leg = (extra: Record<string, string>): Promise<HttpResponse> =>
    send({
      method,
      path,
      ...(bodyText === undefined ? {} : { body: bodyText }),
      headers: { ...baseHeaders, ...extra },
      ...(signal ? { signal } : {}),
    });

  for (;;) {
    let response = await leg({});
    let rounds = 0;
    let restart = false;
    while (response.status === 202) {
      const challenge = parseChallenge(response.body);
      if (!stamper) {
        throw new WalletError(
          'session_expired',
          options.missingStamperMessage ?? 'This request needs a signature from an active session of the wallet: log in first.',
        );
      }
      if (consumed.has(challenge.requestId)) {
        throw new WalletError('unexpected_response', 'The service issued a request id that was already used.');
      }
      if (rounds >= maxRounds) {
        throw new WalletError('retry_exhausted', `The service asked for more than ${maxRounds} signatures for one request.`);
      }
      if (now() >= Date.parse(challenge.expiresAt)) {
        restart = true;
        break;
      }
      throwIfAborted(signal);
      const { headerName, headerValue } = await stamper.stamp(challenge.payloadToSign);
      throwIfAborted(signal);
      consumed.add(challenge.requestId);
      rounds += 1;
      try {
        response = await leg({ [headerName]: headerValue, [REQUEST_ID_HEADER]: challenge.requestId });
      } catch (e) {
        // Start over once; a second expiry surfaces the service's own error.
        if (restarts < 1 && isExpiredRetry(e, challenge, now())) {
          restart = true;
          break;
        }
        throw e;
      }
    }
    if (!restart) return response;
    if (restarts >= 1) {
      throw new WalletError('retry_exhausted', 'The signed request expired twice before it could be completed; try again.');
    }
    restarts += 1;
  }
}
