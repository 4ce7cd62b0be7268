/**
 * Another tab of the test origin, as far as the wallet can tell: a document of its own (its own
 * realm, so its own copy of every module: its own ceremony, its own wallet objects), sharing with
 * the test page what two tabs of one browser share: the origin's storage and Web Locks, and the
 * page's virtual authenticator (an authenticator of the browser, not of a page). It puts the core
 * API on its window as `core`, with `configureWallet` for its elements (`<passkey-register>` and
 * `<wallet-credentials>` are defined) and `walletFor`, the session flows its elements share (whose changes the other tabs
 * hear), and then posts `tab-frame-ready` to its parent.
 */
import * as core from '../../../src/core/index.ts';
import { configureWallet } from '../../../src/elements/shared/config.ts';
import { walletFor } from '../../../src/elements/shared/wallet.ts';
import '../../../src/elements/passkey-register/passkey-register.ts';
import '../../../src/elements/wallet-credentials/wallet-credentials.ts';

Object.assign(window, { core, configureWallet, walletFor });
parent.postMessage({ kind: 'tab-frame-ready' }, location.origin);
