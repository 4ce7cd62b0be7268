/**
 * A document of its own (its own realm, so its own module map) with the elements whose code loads
 * on demand defined and none of that code asked for yet: the test page itself has loaded
 * shared/wallet.ts and core/session.ts (the rig's helpers import them), and a module loaded, or
 * failed, stays so for the rest of a page. It puts `useRig` and `importAgain` (an import() of this
 * realm) on its window (rig.ts openFreshPage), then posts `load-frame-ready` to its parent.
 */
import { configureWallet } from '../../../src/elements/shared/config.ts';
import { indexedDbKeyStore } from '../../../src/core/keystore.ts';
import '../../../src/elements/wallet-login/wallet-login.ts';
import '../../../src/elements/passkey-register/passkey-register.ts';
import '../../../src/elements/wallet-credentials/wallet-credentials.ts';
import '../../../src/elements/delegated-keys/delegated-keys.ts';
import '../../../src/elements/agent-actions/agent-actions.ts';

const useRig = (apiBase: string, dbName: string) => configureWallet({ apiBase, environment: 'sandbox', store: indexedDbKeyStore({ dbName }) });
Object.assign(window, { useRig, importAgain: (path: string) => import(path) });
parent.postMessage({ kind: 'load-frame-ready' }, location.origin);
