/**
 * What every element needs to reach the service: the proxy's base path, the environment whose
 * signer keys are pinned (or the keys themselves), and the key store. One shared configuration
 * per page, set once with `configureWallet()`; an element's `api-base` attribute overrides the
 * base for that element.
 *
 * The client, the session flows, the key store and the pinned keys are used in wallet.ts: an
 * element that needs one endpoint (<card-reveal>: `sendFor` and core/cards.ts) imports this module
 * and loads none of them.
 */
import { createHttp } from '../../core/http.ts';
import type { Send } from '../../core/signed-retry.ts';
import type { KeyStore } from '../../core/keystore.ts';

export type Environment = 'production' | 'sandbox';

export interface WalletConfig {
  /** Where the proxy is mounted, same origin by default. */
  apiBase: string;
  /** Selects the pinned signer keys: production (the default) or the local sandbox. */
  environment: Environment;
  /** Overrides the pinned OTP target-bundle signer (uncompressed hex). */
  otpSigner?: string;
  /** Where session keys live; IndexedDB by default. */
  store?: KeyStore;
}

let config: WalletConfig = { apiBase: '/api', environment: 'production' };
const senders = new Map<string, Send>();

/** Replaces parts of the configuration; transports, clients and wallets made before are not reused. */
export function configureWallet(options: Partial<WalletConfig>): void {
  // A new object each time: wallet.ts keys its clients and wallets by it, so they follow the change.
  config = { ...config, ...options };
  senders.clear();
}

export function walletConfig(): Readonly<WalletConfig> {
  return config;
}

/**
 * The bare transport for a base path, for an element that needs a few endpoint functions
 * (core/cards.ts, core/endpoints.ts) and not the whole client: the same requests, the same errors.
 */
export function sendFor(apiBase?: string | null): Send {
  const base = apiBase || config.apiBase;
  let send = senders.get(base);
  if (!send) {
    send = createHttp({ baseUrl: base });
    senders.set(base, send);
  }
  return send;
}

