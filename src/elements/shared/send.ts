/**
 * The bare transport for a base path, for an element that needs a few endpoint functions
 * (core/cards.ts, core/endpoints.ts) and not the whole client (wallet.ts): the same requests, the
 * same errors. One per base path: the configuration is read at each request (transportFor).
 */
import { createHttp } from '../../core/http.ts';
import { WalletError } from '../../core/errors.ts';
import type { ClientOptions } from '../../core/client.ts';
import type { Send } from '../../core/signed-retry.ts';
import { walletConfig } from './config.ts';

const senders = new Map<string, Send>();

export function sendFor(apiBase?: string | null): Send {
  const base = apiBase || walletConfig().apiBase;
  let send = senders.get(base);
  if (!send) senders.set(base, (send = createHttp(transportFor(base))));
  return send;
}

/**
 * The transport options for a base: an element's `api-base`, or configureWallet's `apiBase`. An
 * `api-base` is markup, which a page may take from others (a CMS, a sanitizer that keeps custom
 * elements and their attributes) where it takes no script, and whoever answers at a base receives
 * the user's requests (OTP bundles, step-up proofs, an agent's token) and, in a signed retry,
 * chooses what the session key stamps (payloadToSign is opaque to the client). So a base is
 * followed only to the page's origin or to that of configureWallet's `apiBase` at the time, which
 * only the page's script sets; another, or an opaque origin, is refused at each request, before
 * anything is sent, as `misconfigured`.
 */
export function transportFor(base: string): ClientOptions {
  return {
    baseUrl: base,
    fetch: (input, init) => {
      // The request's own URL, resolved as fetch resolves it (a base of `\` is this page, but
      // `\/cards/…` is the host `cards`); the allowed origins against the page's address, not a
      // <base> that markup may have put in. The page's origin is the one its requests go out with
      // (self.origin): an about:srcdoc or about:blank page inherits it, while its address resolves
      // no path and its location.origin is "null". An opaque origin ("null": a data: or blob: URL)
      // is none: a page of one (a sandboxed iframe) would otherwise let a data: base answer for the proxy.
      const origin = (url: string, from: string) => new URL(url, from).origin;
      const page = self.origin;
      // Where the request would have gone (its origin only: the path may name a card), and whether a
      // <base> took a relative base there, which configureWallet's apiBase, so moved, cannot allow.
      let to = base;
      let moved;
      try {
        to = origin(String(input), document.baseURI);
        if (to !== 'null' && [page, origin(walletConfig().apiBase, page !== 'null' ? page : location.href)].includes(to)) return fetch(input, init);
        moved = origin(base, page) !== origin(base, document.baseURI);
      } catch {
        // A base that does not parse goes nowhere either.
      }
      // Told at each refusal: each is a user's step (a poll runs only after a first answer).
      const message = `Nothing was sent to ${to} (api-base ${base}): ${moved ? 'a <base> element moved it' : "not this page's origin nor configureWallet's apiBase"}. Set configureWallet({ apiBase${moved ? ": 'https://…/api'" : ''} }).`;
      console.warn(message);
      return Promise.reject(new WalletError('misconfigured', message));
    },
  };
}
