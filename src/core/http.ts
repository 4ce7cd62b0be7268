/**
 * The HTTP transport under every call of the client (client.ts): JSON in, JSON out, one exchange
 * per call, bounded in time, with failures typed:
 * - a non-2xx answer: ServiceError with the service's status, code, message, details, and
 *   `retryAfter` (seconds) from a Retry-After header (RFC 9110 section 10.2.3);
 * - an answer below 500 (but 429) that is not the service's JSON (a 2xx that is not JSON, an error
 *   without an error body): WalletError('misconfigured'), whose message names the base URL, with
 *   one console warning per page. The proxy and the service answer JSON only, every error in the
 *   service's shape (src/proxy/proxy.ts makes anything else from upstream one), so such an answer
 *   comes from the page's own server: the base is a path where no proxy is mounted (its 404 or 405
 *   page, or an app's index.html with 200). Read as the service's, it would say "not found";
 * - the network or proxy unreachable, or no answer in time: WalletError('network');
 *   aborted: WalletError('aborted').
 *
 * A module of its own so that a page needing one endpoint (<card-reveal>) loads it without the
 * whole client. Deliberately not here: shapes of answers (endpoints.ts), retries of any kind,
 * logging but that warning. Errors never carry request or response bodies.
 */
import { ServiceError, WalletError } from './errors.ts';
import type { HttpRequest, HttpResponse, Send } from './signed-retry.ts';
import type { ClientOptions } from './client.ts';
import type { ErrorBody } from './types.ts';
import { valid } from './shapes.ts';
import { observeServiceDate, serviceNow } from './clock.ts';

/** Whether this page was warned of a base URL where the proxy is not (see below): once is enough. */
let warned = false;

/** Retry-After as seconds from now: delay-seconds or an HTTP-date (RFC 9110 section 10.2.3). */
function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - serviceNow()) / 1000));
}

/**
 * The HTTP layer under every method of the client. Exported (from client.ts too) for the
 * signed-retry tests and for calls the client does not name.
 */
export function createHttp(options: ClientOptions): Send {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(timeoutMs > 0)) throw new WalletError('invalid_argument', 'timeoutMs must be positive.');

  return async ({ method, path, body, headers, signal }: HttpRequest): Promise<HttpResponse> => {
    // One controller for the caller's signal and the time bound, so that either stops fetch and body.
    const controller = new AbortController();
    const abort = () => controller.abort();
    const timer = setTimeout(abort, timeoutMs);
    signal?.addEventListener('abort', abort);
    let response: Response;
    let text: string;
    try {
      signal?.throwIfAborted();
      response = await doFetch(base + path, {
        method,
        headers: {
          Accept: 'application/json',
          ...options.headers,
          ...headers,
          // A bodyless POST/PATCH/DELETE still says it is an API call: a header a cross-site form
          // cannot send, which the proxy's CSRF check looks for (src/proxy/proxy.ts "Origin and CSRF policy").
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : method !== 'GET' && { 'X-Requested-With': 'wallet-elements' }),
        },
        body,
        credentials: options.credentials ?? 'include',
        cache: 'no-store',
        signal: controller.signal,
      });
      observeServiceDate(response.headers.get('Date'));
      text = await response.text();
    } catch (cause) {
      // The cause is kept for debugging; a fetch TypeError names no body, header or token.
      if (signal?.aborted) throw new WalletError('aborted', 'The request was aborted.', { cause: signal.reason });
      // A caller's fetch that refused the request says why itself (the elements' api-base check).
      if (cause instanceof WalletError) throw cause;
      const message = controller.signal.aborted
        ? `The wallet service did not answer within ${Math.round(timeoutMs / 1000)} s. Try again.`
        : 'The wallet service could not be reached. Check the connection and try again.';
      throw new WalletError('network', message, { cause });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }

    let parsed: unknown;
    let isJson = true;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      isJson = false;
    }
    const { status } = response;
    const failed = status < 200 || status > 299;
    const b = Object(parsed) as ErrorBody;
    const isErrorBody = valid(b.code, 'string') && valid(b.message, 'string') && valid(b.details, 'object?');
    // A 5xx or a 429 without an error body may come from something between the page and the proxy
    // (a load balancer with the proxy down, a rate limit): its status says enough.
    if (status < 500 && status !== 429 && !(failed ? isErrorBody : isJson)) {
      const message = `The wallet proxy is not at ${base} (apiBase): ${method} ${path} was answered ${status} without the service's JSON.`;
      // An element shows its user a sentence only, so the integrator learns the base here, once.
      warned ||= (console.warn(message), true);
      throw new WalletError('misconfigured', message);
    }
    if (failed) {
      throw new ServiceError(
        isErrorBody
          ? { status, code: b.code, message: b.message, details: b.details }
          : { status, code: status >= 500 ? 'INTERNAL_ERROR' : 'UNKNOWN_ERROR', message: `The service answered ${status} without an error body.` },
        { retryAfter: retryAfterSeconds(response.headers.get('Retry-After')) },
      );
    }
    return { status, headers: response.headers, body: parsed };
  };
}
