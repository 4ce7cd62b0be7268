/**
 * What every element needs to reach the service: the proxy's base path, the environment whose
 * signer keys are pinned (or the keys themselves), and the key store. One shared configuration
 * per page, set once with `configureWallet()`; an element's `api-base` attribute overrides the
 * base for that element, on this page's origin or that of `apiBase` only (send.ts says why).
 *
 * It imports nothing of its own, so that every element entry can export `configureWallet` at no
 * cost. The client, the session flows, the key store and the pinned keys are used in wallet.ts; an
 * element that needs a few endpoints (<card-reveal>, <agent-actions>) takes the bare transport from send.ts.
 *
 * It does import load.ts and events.ts, which every element has up front anyway, for where a split
 * build puts them: a bundler makes one chunk of the modules the same entries and import()s reach, and
 * through these imports whatever reaches this module reaches those two, so the three are one file
 * (in the per-element CDN modules, one request up front instead of three).
 */
import type { KeyStore } from '../../core/keystore.ts';
import './load.ts';
import './events.ts';

export type Environment = 'production' | 'sandbox';

export interface WalletConfig {
  /** Where the proxy is mounted (a path from `/`, `./` or `../`, or an http(s) address), same origin by default; its origin is the only other one an element's `api-base` may name. */
  apiBase: string;
  /** Selects the pinned signer keys: production (the default) or the local sandbox. */
  environment: Environment;
  /** Overrides the pinned OTP target-bundle signer (uncompressed hex). */
  otpSigner?: string;
  /** Where session keys live; IndexedDB by default. */
  store?: KeyStore;
}

let config: WalletConfig = { apiBase: '/api', environment: 'production' };

/**
 * What a base may be, configureWallet's `apiBase` and an element's `api-base` alike: an http(s)
 * address, or a path from `/`, `./` or `../`, with no space. Not a bare `wallet.example.com` or
 * `api`, which a URL resolves as a path below the page's (where no proxy is), nor
 * `localhost:8080/api` (scheme "localhost:"): each is refused, saying API_BASE_HINT. An element's
 * is trimmed first (a declaration's `match`, reactive.ts) and may be empty (the configured base);
 * where one that fits may send is send.ts's to decide, at each request.
 */
export const API_BASE = /^((https?:\/\/\S|\.{0,2}\/)\S*)?$/i;

/** What a refused base says to write instead. */
export const API_BASE_HINT = ': write a path (/api, ./api) or an http(s):// address';

/**
 * The `match` of an element's id attribute (reactive.ts): a `<Type>:<uuid>` id of that type, the
 * type exactly, the uuid in either case (api.md "Identifiers"; core/shapes.ts isId, which refuses
 * any other before a request), or empty (none yet). Another is said on the console and ignored,
 * and the element says that attribute is not a valid id instead of what it shows without one,
 * sends nothing and reports it in its error event as `misconfigured` (reactive.ts badId).
 */
export const idMatch = (type: string): RegExp => RegExp(`^(${type}:[\\da-fA-F]{8}(-[\\da-fA-F]{4}){3}-[\\da-fA-F]{12})?$`);

/**
 * The options and what each takes, tested on the value as text, trimmed as an element's attribute
 * is (both are written by hand) and kept so. Another value, or an option not here (a misspelt
 * `apibase` would leave the default in place), throws a TypeError naming the option (an `apiBase`
 * or an `environment` with what to write instead) before anything is kept.
 */
const OPTIONS: Record<keyof WalletConfig, RegExp> = {
  // API_BASE, not empty.
  apiBase: /^(https?:\/\/\S|\.{0,2}\/)\S*$/i,
  environment: /^(production|sandbox)$/,
  // Any: core/session.ts refuses an otpSigner that is no key, naming it, and the type checker a store.
  otpSigner: /^/,
  store: /^/,
};

/** Replaces parts of the configuration; clients and wallets made before are not reused. */
export function configureWallet(options: Partial<WalletConfig>): void {
  // A new object each time: wallet.ts keys its clients and wallets by it, so they follow the change.
  const next: Record<string, unknown> = { ...config };
  for (const key in options) {
    let value = options[key as keyof WalletConfig];
    if (typeof value == 'string') value = value.trim();
    if (!OPTIONS[key as keyof WalletConfig]?.test(value as string)) throw new TypeError(`configureWallet: bad ${key}${key == 'apiBase' ? API_BASE_HINT : key == 'environment' ? ': write production or sandbox' : ''}`);
    next[key] = value;
  }
  config = next as unknown as WalletConfig;
}

export function walletConfig(): Readonly<WalletConfig> {
  return config;
}
