/**
 * What every element needs to reach the service: the proxy's base path, the pinned signer keys
 * of the environment, and the key store. One shared configuration per page, set once with
 * `configureWallet()`; an element's `api-base` attribute overrides the base for that element.
 *
 * The signer keys are pinned here, in the page's code, and never fetched from the proxy: a
 * compromised relay must not be able to swap the key it is checked against (DESIGN.md,
 * "Target bundles are verified against a pinned signer key").
 */
import { createClient, type WalletClient } from '../../core/client.ts';
import { indexedDbKeyStore, type KeyStore } from '../../core/keystore.ts';
import { createWallet, type Wallet } from '../../core/session.ts';
import { broadcastSessionChange } from './session-channel.ts';
import { PRODUCTION_EXPORT_SIGNER, PRODUCTION_OTP_SIGNER, SANDBOX_SIGNER_PUBLIC_KEY } from '../../core/bundles.ts';

export type Environment = 'production' | 'sandbox';

export interface WalletConfig {
  /** Where the proxy is mounted, same origin by default. */
  apiBase: string;
  /** Selects the pinned signer keys: production (the default) or the local sandbox. */
  environment: Environment;
  /** Overrides the pinned OTP target-bundle signer (uncompressed hex). */
  otpSigner?: string;
  /** Overrides the pinned export-envelope signer (uncompressed hex). */
  exportSigner?: string;
  /** Where session keys live; IndexedDB by default. */
  store?: KeyStore;
}

let config: WalletConfig = { apiBase: '/api', environment: 'production' };
let store: KeyStore | undefined;
const clients = new Map<string, WalletClient>();
const wallets = new Map<string, Wallet>();

export function configureWallet(options: Partial<WalletConfig>): void {
  config = { ...config, ...options };
  if (options.store) store = options.store;
  clients.clear();
  wallets.clear();
}

export function walletConfig(): Readonly<WalletConfig> {
  return config;
}

export function signerKeys(): { otpSigner: string; exportSigner: string } {
  const sandbox = config.environment === 'sandbox';
  return {
    otpSigner: config.otpSigner ?? (sandbox ? SANDBOX_SIGNER_PUBLIC_KEY : PRODUCTION_OTP_SIGNER),
    exportSigner: config.exportSigner ?? (sandbox ? SANDBOX_SIGNER_PUBLIC_KEY : PRODUCTION_EXPORT_SIGNER),
  };
}

/** The client for a base path (the element's `api-base`, or the configured one). */
export function clientFor(apiBase?: string | null): WalletClient {
  const base = apiBase || config.apiBase;
  let client = clients.get(base);
  if (!client) {
    client = createClient({ baseUrl: base });
    clients.set(base, client);
  }
  return client;
}

/**
 * The session flows (core/session.ts) for a base path, over the shared key store and the pinned
 * OTP signer. One object per base, so that every element of the page sees the same session
 * changes through `subscribe`.
 */
export function walletFor(apiBase?: string | null): Wallet {
  const base = apiBase || config.apiBase;
  let wallet = wallets.get(base);
  if (!wallet) {
    wallet = createWallet({ client: clientFor(base), store: keyStore(), otpSigner: signerKeys().otpSigner });
    // Other tabs learn of this page's logins and logouts (session-channel.ts).
    wallet.subscribe(broadcastSessionChange);
    wallets.set(base, wallet);
  }
  return wallet;
}

/** The shared key store, created on first use so that importing never touches IndexedDB. */
export function keyStore(): KeyStore {
  store ??= config.store ?? indexedDbKeyStore();
  return store;
}
