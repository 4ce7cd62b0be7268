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
 * 5. a retry refused with 401 because the challenge expired starts the whole exchange over once from
 *    the first leg (with `restartBody` when the caller gives one: an OIDC token must be fresh on
 *    every first leg); so does one refused with 401 whose stamper's `refused` answers another
 *    stamper, which signs from then on (core: the session that signed ended, another one signs).
 *    A challenge is signed whatever this page's clock says of its `expiresAt`: the service judges
 *    its own window. A device clock that is minutes off, where the service's Date
 *    header cannot be read (a proxy on another origin that does not expose it, clock.ts), would
 *    otherwise take every fresh challenge for expired and no signed call could succeed.
 *
 * The body is serialized once per exchange and the same string is sent on each of its legs: a stamp covers exact bytes
 * (api.md: "byte for byte, with no re-parsing"). A consumed requestId is never sent again.
 * This module does not do HTTP itself (it takes a `send` function, see client.ts) and never logs:
 * payloads, stamps and request ids never leave it except as the headers they are meant for.
 */
import { WalletError, ServiceError } from './errors.ts';
import { check } from './shapes.ts';
import { serviceNow } from './clock.ts';
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
 * WalletError('network' | 'aborted' | 'misconfigured') otherwise (client.ts `createHttp`).
 */
export type Send = (request: HttpRequest) => Promise<HttpResponse>;

export interface SignedRequestOptions {
  send: Send;
  method: HttpRequest['method'];
  path: string;
  /** Serialized once with JSON.stringify; the same string goes out on every leg. */
  body?: unknown;
  /**
   * The body of the exchange when it starts over (its challenge expired), for a body that must be
   * fresh on each first leg: an OIDC token is taken at most 60 s after it was issued (api.md
   * "Limits"), and a restart comes only after the challenge's window (minutes). Default: `body`.
   */
  restartBody?: () => unknown;
  /** Signs payloadToSign. Optional for calls whose 202 depends on server state (credential create, email). */
  stamper?: Stamper;
  signal?: AbortSignal;
  /** Extra headers on every leg (e.g. Request-Id of a passkey challenge is NOT one of these). */
  headers?: Record<string, string>;
  /** Most signatures one exchange may take (reference.md: delegated keys take two). Default 3. */
  maxRounds?: number;
  /** Clock for expiry checks; defaults to the service's clock as last seen (clock.ts). */
  now?: () => number;
}

/** Validates a 202 body as a SignedRequestChallenge (reference.md "Shared shapes"), keeping its fields only. */
export function parseChallenge(body: unknown): SignedRequestChallenge {
  const { payloadToSign, requestId, expiresAt, type } = check<SignedRequestChallenge>(
    body,
    { payloadToSign: /./s, requestId: /^Request:[0-9A-Za-z-]{1,64}$/, expiresAt: 'date' },
    'signed-request challenge',
  );
  return { payloadToSign, requestId, expiresAt, ...(typeof type === 'string' && { type }) };
}

/**
 * Whether a failed retry was refused because its challenge had expired. The service answers a late
 * retry with 401 (api.md "Limits": signed-retry window until expiresAt); its code is not documented,
 * so an explicit expiry of the request as code or details.reason counts (the sandbox: UNAUTHORIZED,
 * reason REQUEST_ID_EXPIRED), and so does `lapsed`: this page's clock, which took the
 * challenge for live when it came, now being past its expiresAt.
 */
function isExpiredRetry(e: unknown, lapsed: boolean): boolean {
  if (!(e instanceof ServiceError) || e.status !== 401) return false;
  // A session that expired (reason SESSION_EXPIRED) is not a challenge that expired: starting over would not help.
  const expired = /^(REQUEST|REQUEST_ID|CHALLENGE|SIGNED_REQUEST)_EXPIRED$/;
  return expired.test(e.code) || expired.test(String(e.details?.reason)) || lapsed;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new WalletError('aborted', 'The request was aborted.', { cause: signal.reason });
}

/**
 * Runs one signed-retry exchange and returns the final 2xx answer that is not a 202.
 * Errors: ServiceError as answered; WalletError 'session_expired' (202 without a stamper),
 * 'retry_exhausted' (a retry refused as expired twice, the refusal its cause; or more than
 * maxRounds challenges), 'unexpected_response'
 * (a malformed challenge, or one re-issuing a consumed requestId), 'aborted', 'network'.
 */
export async function sendSigned(options: SignedRequestOptions): Promise<HttpResponse> {
  const { send, method, path, signal } = options;
  let stamper = options.stamper;
  const maxRounds = options.maxRounds ?? 3;
  const now = options.now ?? serviceNow;
  // Serialize once per exchange: every leg sends these exact characters.
  let bodyText = options.body === undefined ? undefined : JSON.stringify(options.body);
  const consumed = new Set<string>();

  const leg = (extra?: Record<string, string>): Promise<HttpResponse> =>
    send({ method, path, body: bodyText, headers: { ...options.headers, ...extra }, signal });

  // A second attempt only when the first one's challenge expired.
  for (let attempt = 0; ; attempt++) {
    if (attempt && options.restartBody) bodyText = JSON.stringify(await options.restartBody());
    let response = await leg();
    for (let rounds = 0; response.status === 202; rounds++) {
      const challenge = parseChallenge(response.body);
      if (!stamper) throw new WalletError('session_expired', 'This request needs a signature from an active session of the wallet: log in first.');
      if (consumed.has(challenge.requestId)) throw new WalletError('unexpected_response', 'The service reused a request id.');
      if (rounds >= maxRounds) throw new WalletError('retry_exhausted', `The service asked for more than ${maxRounds} signatures for one request.`);
      // A challenge this clock takes for expired as it comes says the clock is off, not the
      // challenge (the service has just issued it): then only the service's answer tells.
      const expiresAt = Date.parse(challenge.expiresAt);
      const clockFits = now() < expiresAt;
      throwIfAborted(signal);
      const { headerName, headerValue } = await stamper.stamp(challenge.payloadToSign);
      throwIfAborted(signal);
      consumed.add(challenge.requestId);
      try {
        response = await leg({ [headerName]: headerValue, [REQUEST_ID_HEADER]: challenge.requestId });
      } catch (e) {
        if (!isExpiredRetry(e, clockFits && now() >= expiresAt)) {
          // A signature refused: the session that made it may have ended upstream (revoked elsewhere,
          // or renewed by another tab into a session this device holds, which then signs it anew, once).
          const next = (e as ServiceError).status === 401 && (await stamper.refused?.(e));
          if (!next || attempt) throw e;
          stamper = next;
        } else if (attempt) {
          // Start over once; a second expiry ends it, said as such (the service's 401 would read as a refused signature).
          throw new WalletError('retry_exhausted', 'The signed request expired twice before it could be completed; try again.', { cause: e });
        }
        break;
      }
    }
    // Still a 202 here: its retry was refused as expired, on the first attempt.
    if (response.status !== 202) return response;
  }
}
