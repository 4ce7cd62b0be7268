/**
 * Entry of <delegated-keys>: importing this module defines the element (and registers its strings).
 * Safe to import on a server: nothing here touches the DOM, storage or the network at import.
 */
export * from './delegated-keys.ts';
export { validateKeyForm, DELEGATED_KEYS_ERROR_CODES, type KeyForm, type LimitRow, type FieldError } from './delegated-keys.machine.ts';
export { formatMinor } from './money.ts';
// The page-wide settings, so that a page importing this element alone can configure it.
export { configureWallet, type WalletConfig, type Environment } from '../shared/config.ts';
export { setStrings, setLocale, type Strings } from '../shared/i18n.ts';
