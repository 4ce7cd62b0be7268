/**
 * Entry of <delegated-keys>: importing this module defines the element (and registers its strings).
 * Safe to import on a server: nothing here touches the DOM, storage or the network at import.
 */
export * from './delegated-keys.ts';
export { validateKeyForm, DELEGATED_KEYS_ERROR_CODES, type KeyForm, type LimitRow, type FieldError } from './delegated-keys.machine.ts';
export { formatMinor } from './money.ts';
