/**
 * Load page for our <wallet-login>: its per-element entry (what `import 'wallet-elements/wallet-login'`
 * gives an integrator). The harness (bench/pages/load.ts) configures it for the local sandbox behind
 * the proxy at `/api` on this origin and adds one element to the body, as it does with the CDN module.
 */
export { configureWallet } from '../../src/elements/wallet-login/index.ts';
