/**
 * Entry of <passkey-register>: importing this module defines the element and registers its strings.
 * Safe to import on a server: nothing here touches the DOM, storage or the network at import.
 */
export * from './passkey-register.ts';
export * from './passkey-register.events.ts';
export { defaultNickname, validNickname } from './passkey-register.machine.ts';
export { passkeyRegisterStrings } from './passkey-register.strings.ts';
