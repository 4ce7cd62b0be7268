/**
 * What every element needs to reach the service: the proxy's base path, the environment whose
 * signer keys are pinned (or the keys themselves), and the key store. One shared configuration
 * per page, set once with `configureWallet()`; an element's `api-base` attribute overrides the
 * base for that element, on this page's origin or that of `apiBase` only (send.ts says why).
 *
 * It imports nothing, so that every element entry can export `configureWallet` at no cost. The
 * client, the session flows, the key store and the pinned keys are used in wallet.ts; an element
 * that needs a few endpoints (<card-reveal>, <agent-actions>) takes the bare transport from send.ts.
 */
import type { KeyStore } from '../../core/keystore.ts';

export type Environment = 'production' | 'sandbox';

export interface WalletConfig {
  /** Where the proxy is mounted, same origin by default; its origin is the only other one an element's `api-base` may name. */
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
 * What each option takes: a value outside it, or an option not here (a misspelt `apibase` would
 * leave the default in place), throws a TypeError naming it, before anything of it is kept.
 */
const OPTIONS: Record<keyof WalletConfig, readonly [(v: any) => unknown, string]> = {
  // A path (/api) or an http(s) address; `localhost:8080/api` reads as a URL of scheme "localhost:".
  apiBase: [(v) => typeof v === 'string' && v.trim() && URL.canParse(v, 'http://h') && /^https?:$/.test(new URL(v, 'http://h').protocol), "a path such as '/api' or an http(s) address such as 'https://wallet.example.com/api'"],
  environment: [(v) => v === 'production' || v === 'sandbox', "'production' or 'sandbox'"],
  otpSigner: [(v) => v === undefined || /^04[\da-f]{128}$/.test(v), 'the signer\'s uncompressed public key in lowercase hex (04…)'],
  store: [(v) => v === undefined || ['put', 'list', 'delete', 'clear', 'get'].every((m) => typeof v?.[m] === 'function'), 'a KeyStore (put, list, delete, clear and get)'],
};

/** Replaces parts of the configuration; clients and wallets made before are not reused. */
export function configureWallet(options: Partial<WalletConfig>): void {
  if (!options || typeof options !== 'object') throw new TypeError("configureWallet takes an object such as { apiBase: '/api' }");
  for (const [key, value] of Object.entries(options)) {
    const option = OPTIONS[key as keyof WalletConfig];
    if (!option) throw new TypeError(`configureWallet has no option "${key}" (it takes ${Object.keys(OPTIONS).join(', ')})`);
    if (!option[0](value)) throw new TypeError(`configureWallet's ${key} must be ${option[1]}`);
  }
  // A new object each time: wallet.ts keys its clients and wallets by it, so they follow the change.
  config = { ...config, ...options };
}

export function walletConfig(): Readonly<WalletConfig> {
  return config;
}
