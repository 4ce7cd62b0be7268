/**
 * The request the proxy's hooks are handed: the node:http `IncomingMessage` of the Node handler,
 * or the WHATWG `Request` given to `proxy.fetch`. The proxy reads both through the few functions
 * here, so that its rules (step-up cookie, TLS) are the same whichever entry a request came by.
 */
import type { IncomingMessage } from 'node:http';

export type ProxyRequest = IncomingMessage | Request;

/** True for a WHATWG Request (its headers are a Headers object, read with `get`), from any realm. */
export function isWebRequest(request: ProxyRequest): request is Request {
  return typeof (request.headers as Partial<Headers>).get === 'function';
}

/**
 * One request header's value, or undefined. A header sent more than once is one value, its
 * copies joined with ", " (Node's `req.headers` and the Fetch standard's Headers both join most).
 */
export function requestHeader(request: ProxyRequest, name: string): string | undefined {
  if (isWebRequest(request)) return request.headers.get(name) ?? undefined;
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Whether the browser reached the proxy over TLS: a TLS socket of the Node handler, an `https:`
 * URL of a Web request (the framework builds it from its own TLS or its front server's), or TLS
 * ended in front (the page's Origin, or X-Forwarded-Proto, says https). A client that claims https
 * falsely only loses what is marked Secure for it.
 */
export function isSecure(request: ProxyRequest): boolean {
  const tls = isWebRequest(request) ? request.url.startsWith('https:') : (request.socket as { encrypted?: boolean }).encrypted === true;
  return tls || /^https:/i.test(String(requestHeader(request, 'origin'))) || /^https\b/i.test(String(requestHeader(request, 'x-forwarded-proto')));
}
