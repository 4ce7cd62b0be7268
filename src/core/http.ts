/**
 * The HTTP transport under every call of the client (client.ts): JSON in, JSON out, one exchange
 * per call, bounded in time, with failures typed:
 * - a non-2xx answer: ServiceError with the service's status, code, message, details, and
 *   `retryAfter` (seconds) from a Retry-After header (RFC 9110 section 10.2.3);
 * - the network or proxy unreachable, or no answer in time: WalletError('network');
 *   aborted: WalletError('aborted'); a 2xx that is not JSON: WalletError('unexpected_response').
 *
 * A module of its own so that a page needing one endpoint (<card-reveal>) loads it without the
 * whole client. Deliberately not here: shapes of answers (endpoints.ts), retries of any kind,
 * logging. Errors never carry request or response bodies.
 */
import { ServiceError, WalletError } from './errors.ts';
import type { HttpRequest, HttpResponse, Send } from './signed-retry.ts';
import type { ClientOptions } from './client.ts';
import type { ErrorBody } from './types.ts';

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // RFC 9110 section 10.2.3: either delay-seconds or an HTTP-date.
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function isErrorBody(v: unknown): v is ErrorBody {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return (
    typeof b.code === 'string' &&
    typeof b.message === 'string' &&
    (b.details === undefined || (typeof b.details === 'object' && b.details !== null && !Array.isArray(b.details)))
  );
}

function abortError(signal: AbortSignal): WalletError {
  return new WalletError('aborted', 'The request was aborted.', { cause: signal.reason });
}

/**
 * The HTTP layer under every method of the client. Exported (from client.ts too) for the
 * signed-retry tests and for calls the client does not name.
 */
export function createHttp(options: ClientOptions): Send {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const fixedHeaders = options.headers ?? {};
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(timeoutMs > 0)) throw new WalletError('invalid_argument', 'timeoutMs must be a positive number of milliseconds.');

  return async (request: HttpRequest): Promise<HttpResponse> => {
    const { signal } = request;
    if (signal?.aborted) throw abortError(signal);
    const headers: Record<string, string> = { Accept: 'application/json', ...fixedHeaders, ...request.headers };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    // A bodyless POST/PATCH/DELETE still says it is an API call: a header a cross-site form cannot
    // send, which the proxy's CSRF check looks for (src/proxy/proxy.ts "Origin and CSRF policy").
    else if (request.method !== 'GET') headers['X-Requested-With'] = 'wallet-elements';

    // One controller for the caller's signal and the time bound, so that either stops fetch and body.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const failure = (e: unknown, what: string): WalletError => {
      if (signal?.aborted) return abortError(signal);
      if (timedOut) return new WalletError('network', `The wallet service did not answer within ${Math.round(timeoutMs / 1000)} s. Try again.`, { cause: e });
      return new WalletError('network', what, { cause: e });
    };

    const init: RequestInit = {
      method: request.method,
      headers,
      credentials: options.credentials ?? 'same-origin',
      cache: 'no-store',
      signal: controller.signal,
    };
    if (request.body !== undefined) init.body = request.body;

    let response: Response;
    let text: string;
    try {
      try {
        response = await doFetch(base + request.path, init);
      } catch (e) {
        // The cause is kept for debugging; a fetch TypeError names no body, header or token.
        throw failure(e, 'The wallet service could not be reached. Check the connection and try again.');
      }
      try {
        text = await response.text();
      } catch (e) {
        throw failure(e, 'The connection broke while reading the answer. Try again.');
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }

    let body: unknown = undefined;
    let parsed = true;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        parsed = false;
      }
    }

    if (response.status < 200 || response.status > 299) {
      const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
      const errorBody: ErrorBody =
        parsed && isErrorBody(body)
          ? {
              status: response.status,
              code: body.code,
              message: body.message,
              ...(body.details ? { details: body.details } : {}),
            }
          : {
              status: response.status,
              code: response.status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN_ERROR',
              message: `The service answered ${response.status} without an error body.`,
            };
      throw new ServiceError(errorBody, retryAfter === undefined ? {} : { retryAfter });
    }
    if (!parsed) {
      throw new WalletError('unexpected_response', `The answer to ${request.method} was not JSON.`);
    }
    return { status: response.status, headers: response.headers, body };
  };
}
