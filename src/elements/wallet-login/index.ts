/**
 * Entry of <wallet-login>: importing this module defines the element and registers its strings.
 * Safe to import on a server: nothing here touches the DOM, storage or the network at import.
 */
export * from './wallet-login.ts';
export { LOGIN_METHODS, parseMethods, type LoginMethod } from './wallet-login.methods.ts';
export type { SessionInfo } from './wallet-login.machine.ts';
export { walletLoginStrings } from './wallet-login.strings.ts';
// The page-wide settings, so that a page importing this element alone can configure it.
export { configureWallet, type WalletConfig, type Environment } from '../shared/config.ts';
export { setStrings, setLocale, type Strings } from '../shared/i18n.ts';
