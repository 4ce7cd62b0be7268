/**
 * The public core API: framework-free protocol and crypto for the Embedded Wallet (DESIGN.md
 * "Parts and boundaries"), re-exported from one entry (`wallet-elements/core`).
 * Runs in browsers and Node >= 20; `indexedDbKeyStore` and the WebAuthn helpers need a browser.
 */
export * from './errors.ts';
export * from './types.ts';
export * from './encoding.ts';
export * from './p256.ts';
export * from './stamp.ts';
export * from './hpke.ts';
export * from './bundles.ts';
export * from './signed-retry.ts';
export * from './client.ts';
export * from './keystore.ts';
export * from './session.ts';
export * from './webauthn.ts';
export * from './agent.ts';
