/**
 * Entry of <wallet-credentials>: importing this module defines the element and registers its strings.
 * Safe to import on a server: nothing here touches the DOM, storage or the network at import.
 */
export * from './wallet-credentials.ts';
export { revokeBlock, canAdd, type RevokeBlock, type CredentialsView } from './wallet-credentials.machine.ts';
export { walletCredentialsStrings } from './wallet-credentials.strings.ts';
// The page-wide settings, so that a page importing this element alone can configure it.
export { configureWallet, type WalletConfig, type Environment } from '../shared/config.ts';
export { setStrings, setLocale, type Strings } from '../shared/i18n.ts';
