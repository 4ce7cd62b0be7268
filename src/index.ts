/**
 * The browser entry (`wallet-elements`): importing it defines every element of the library and
 * re-exports the public core API, the page-wide configuration and the string/locale functions.
 *
 *   <wallet-login>, <passkey-register>, <wallet-credentials>   log in, add passkeys, manage logins
 *   <card-reveal>, <delegated-keys>, <agent-actions>          card details, delegated keys, agent actions
 *
 * Each element also has its own entry (`src/elements/<tag>/index.ts`) for pages that want one
 * element only. Safe to import on a server: defining elements touches no DOM, storage or network
 * (with no registry there, an element is not defined; its class still carries its property
 * accessors, which @lit/react's server render reads), and every event class falls back cleanly.
 * Deliberately not here: the proxy and the sandbox (Node only, entries `./proxy` and `./sandbox`).
 */
// In the order that compresses best in one bundle (each element defines itself alone, so the order
// has no other effect): gzip finds again only what it saw in its last 32 KB, and in this order each
// element comes next to the ones whose templates and code it resembles most (measured with
// bench/size.ts: 739 B gzip less than the order of the list above). For the same reason the
// elements' style sheets come first, all together (they only build their text at import): 192 B
// less; and Lit's templates before them, which five of the six elements use: 69 B less.
import 'lit/html.js';
import './elements/card-reveal/card-reveal.styles.ts';
import './elements/agent-actions/agent-actions.styles.ts';
import './elements/delegated-keys/delegated-keys.styles.ts';
import './elements/wallet-credentials/wallet-credentials.styles.ts';
import './elements/passkey-register/passkey-register.styles.ts';
import './elements/wallet-login/wallet-login.styles.ts';
export * from './elements/card-reveal/index.ts';
export * from './elements/agent-actions/index.ts';
export * from './elements/delegated-keys/index.ts';
export * from './elements/wallet-credentials/index.ts';
export * from './elements/passkey-register/index.ts';
export * from './elements/wallet-login/index.ts';

export { configureWallet, walletConfig, type WalletConfig, type Environment } from './elements/shared/config.ts';
export { clientFor, walletFor } from './elements/shared/wallet.ts';
export { setStrings, setLocale, type Strings } from './elements/shared/i18n.ts';
export type { ErrorDetail } from './elements/shared/events.ts';

export * from './core/index.ts';
