/**
 * The service client and the session flows of the page, per base path (`clientFor`, `walletFor`),
 * and the shared key store. One of each per base and configuration (config.ts), so that every
 * element of the page sees the same session changes through `subscribe`; other tabs hear of them
 * through session-channel.ts.
 *
 * The flows (core/session.ts, with WebAuthn, HPKE and the bundle formats) are not imported here:
 * `walletFor` answers at once with a Wallet whose methods load them with import() on first use, so
 * that an element renders before they arrive. Importing this module touches no storage either: the
 * IndexedDB store opens on its first read (idb-keyval opens lazily).
 */
import { createClient, type WalletClient } from '../../core/client.ts';
import { sessionEnd } from '../../core/clock.ts';
import { indexedDbKeyStore, type KeyStore } from '../../core/keystore.ts';
import type { SessionChange, Wallet, WalletOptions } from '../../core/session.ts';
import { PRODUCTION_OTP_SIGNER, SANDBOX_SIGNER_PUBLIC_KEY } from '../../core/signers.ts';
import { walletConfig, type WalletConfig } from './config.ts';
import { broadcastSessionChange, onSessionBroadcast } from './session-channel.ts';
import { transportFor } from './send.ts';
import { loaded } from './load.ts';

/** Before a read the page or the user asked to be fresh: it takes no answer of a read asked for before. */
export { readsAnew } from '../../core/endpoints.ts';

/** Clients and wallets per configuration object (configureWallet makes a new one), then per base. */
const made = new WeakMap<Readonly<WalletConfig>, Map<string, { client: WalletClient; wallet?: Wallet }>>();
let defaultStore: KeyStore | undefined;

function slot(apiBase: string | null | undefined): { client: WalletClient; wallet?: Wallet } {
  const config = walletConfig();
  const base = apiBase || config.apiBase;
  let byBase = made.get(config);
  if (!byBase) made.set(config, (byBase = new Map()));
  let found = byBase.get(base);
  if (!found) byBase.set(base, (found = { client: createClient(transportFor(base)) }));
  return found;
}

/** The client for a base path (the element's `api-base`, or the configured one; send.ts says which are followed). */
export function clientFor(apiBase?: string | null): WalletClient {
  return slot(apiBase).client;
}

/**
 * The session flows (core/session.ts) for a base path (the element's `api-base`, or the configured
 * one), over the shared key store and the OTP signer key. That key is pinned here, in the page's
 * code, and never fetched from the proxy: a compromised relay must not be able to swap the key it
 * is checked against (DESIGN.md, "Target bundles are verified against a pinned signer key").
 */
export function walletFor(apiBase?: string | null): Wallet {
  const found = slot(apiBase);
  const config = walletConfig();
  const otpSigner = config.otpSigner ?? (config.environment === 'sandbox' ? SANDBOX_SIGNER_PUBLIC_KEY : PRODUCTION_OTP_SIGNER);
  found.wallet ??= deferredWallet({ client: found.client, store: keyStore(), otpSigner });
  return found.wallet;
}

/** The configured key store, else one IndexedDB store for the page, created on first use. */
export function keyStore(): KeyStore {
  return walletConfig().store ?? (defaultStore ??= indexedDbKeyStore());
}

/**
 * Session changes made outside the caller's own steps: by another tab (`otherTab`; its message
 * carries no session, the key store has it) or through a wallet of this page, of any base (another
 * element, or the caller itself: a caller tells its own steps apart). Returns the unsubscribe.
 */
export function onSessionChange(apiBase: string | null | undefined, listener: (change: SessionChange, otherTab: boolean) => void): () => void {
  // (A message names the change; the session itself is read from the key store, never taken from it.)
  const offTabs = onSessionBroadcast((message) => listener({ ...message, session: undefined }, true));
  const offPage = walletFor(apiBase).subscribe((change) => listener(change, false));
  // The first watcher of the page times the sessions' ends, again at each change (page or tab) and
  // when the page is shown again (a tab brought back, a page restored or woken: timers did not run
  // while the system slept); the last one's end clears the timers (timeEnds stays subscribed, and
  // then sets none).
  if (!watchers++) (listeners.add(timeEnds), onSessionBroadcast(timeEnds), addEventListener('visibilitychange', wake), addEventListener('pageshow', wake), timeEnds());
  return () => {
    offTabs();
    offPage();
    if (!--watchers) timeEnds();
  };
}

/** How many session watchers (onSessionChange) the page has. */
let watchers = 0;
/** One timer per stored session, a step at most before its end, while the page has a watcher. */
let ends: Array<ReturnType<typeof setTimeout>> = [];

/**
 * The longest a session's end timer waits before it looks at the wall clock again (<wallet-login>
 * times its session the same way). In Chromium on Linux and macOS timers run on a clock that stops
 * while the system sleeps, and a page shown all along (the lid closed on an external display) hears
 * no visibilitychange on waking: a timer set for the end would fire as late as the sleep was long,
 * an ended session shown live meanwhile. A minute bounds that lag at little cost: a timer a minute
 * for each stored session, with no request and no key store read until its end is due (and a page
 * hidden for long has its timers held to once a minute by Chromium anyway).
 */
const STEP = 60_000;

/**
 * Times the end of each stored session (none while nothing watches): at its end, the look-up of its
 * account finds it ended, core tells `ended` to this page and the other tabs, and every element
 * takes it as a logout, whether or not a <wallet-login> is on the page. A session that ended before
 * it was timed (while the page slept, or before the watch began) is looked up at once. A session is
 * looked up once at or after its end, not at every later run: an older record of an account whose
 * newer session lives stays until that one ends, and is not read again meanwhile. Each timer waits
 * a minute at most (STEP: it stops while the system sleeps, the wall clock does not), then waits
 * again from the wall clock unless the end is due. A look-up before its end (the clock was set
 * back) finds it live, and it is timed again.
 */
function timeEnds(): void {
  void (watchers ? keyStore().list() : Promise.resolve([])).then((sessions) => {
    ends.forEach(clearTimeout);
    ends = (watchers ? sessions : []).map((s, i) => {
      const again = () => (sessionEnd(s) > Date.now() ? timeEnds() : lookedUp.add(s.sessionId));
      // (The first lands in the new array through `map`, the next ones in its place.)
      const wait = (): ReturnType<typeof setTimeout> => (ends[i] = setTimeout(() => (sessionEnd(s) > Date.now() ? wait() : lookedUp.has(s.sessionId) || void walletFor().current(s.accountId).then(again, again)), Math.min(sessionEnd(s) - Date.now(), STEP)));
      return wait();
    });
  }, () => undefined);
}

/** The ids of the stored sessions looked up at or after their end (timeEnds). */
const lookedUp = new Set<string>();

/** The page shown again (visibilitychange, pageshow): its sessions' ends timed anew from the clock. */
const wake = (): void => void (document.hidden || timeEnds());

/**
 * Who hears the session changes of every wallet of the page: the key store is one per page whatever
 * the base or configuration, so an element hears those of its account made through another base (an
 * `api-base` naming the same proxy otherwise) or a wallet made before a configureWallet().
 */
const listeners = new Set<(change: SessionChange) => void>();

/** The session flows' code, asked for as every on-demand module is (load.ts `loaded`), for every wallet of the page (and `<wallet-login>`'s early ask). */
export const sessionCode = loaded(() => import('../../core/session.ts'));

/**
 * A Wallet whose flows load on the first call (a failed load rejects with LoadFailed). The options are taken now, so that a later
 * configureWallet() does not change a wallet already handed out (it gets a new one instead).
 */
function deferredWallet(options: WalletOptions): Wallet {
  let loading: Promise<Wallet> | undefined;
  const load = (): Promise<Wallet> =>
    (loading ??= sessionCode().then(
      ({ createWallet }) => {
        const wallet = createWallet(options);
        wallet.subscribe((change) => {
          broadcastSessionChange(change);
          for (const listener of [...listeners]) {
            try {
              listener(change);
            } catch {
              // A listener's failure is its own; the flow already succeeded (as in createWallet).
            }
          }
        });
        return wallet;
      },
      (e: unknown) => {
        // The code did not arrive (LoadFailed: offline, a deploy replaced it): the next call asks again.
        loading = undefined;
        throw e;
      },
    ));
  const wallet: Partial<Wallet> = {
    // The one method that answers without loading.
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  // Every other method loads the code on its first call and forwards its arguments as they are.
  for (const name of Object.keys(DEFERRED) as Array<keyof typeof DEFERRED>) {
    wallet[name] = (async (...args: unknown[]) => {
      const loaded = await load();
      return (loaded[name] as (...a: unknown[]) => unknown).apply(loaded, args);
    }) as never;
  }
  return wallet as Wallet;
}

/** The Wallet methods that load the session code (a Record, so that the type checker sees every one listed). */
const DEFERRED: Record<Exclude<keyof Wallet, 'subscribe'>, true> = {
  startOtpLogin: true,
  loginWithOAuth: true,
  loginWithPasskey: true,
  registerPasskey: true,
  updateEmail: true,
  addCredential: true,
  refresh: true,
  logout: true,
  revokeSession: true,
  revokeCredential: true,
  current: true,
  stamper: true,
  exportRecoveryPhrase: true,
};
