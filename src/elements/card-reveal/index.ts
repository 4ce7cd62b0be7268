/**
 * Entry of <card-reveal>: importing this module defines the element (and registers its strings).
 * Safe to import on a server: nothing here touches the DOM, storage or the network at import.
 */
export * from './card-reveal.ts';
export { checkRevealUrl, parseAllowedOrigins, HIDE_REASONS, REVEAL_ERROR_CODES } from './card-reveal.machine.ts';
