/**
 * Entry of <agent-actions>: importing this module defines the element (and registers its strings).
 * Safe to import on a server: nothing here touches the DOM, storage or the network at import.
 */
export * from './agent-actions.ts';
export { AGENT_ACTIONS_ERROR_CODES, type StatusFilter } from './agent-actions.machine.ts';
// The page-wide settings, so that a page importing this element alone can configure it.
export { configureWallet, type WalletConfig, type Environment } from '../shared/config.ts';
export { setStrings, setLocale, type Strings } from '../shared/i18n.ts';
