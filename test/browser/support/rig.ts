/**
 * The browser test rig's page side: typed handles on the server commands of wallet-rig.ts (real
 * sandbox, real proxy at `/api` on this page's origin, Chromium's virtual authenticator over CDP),
 * plus small helpers that every wallet test needs. See README.md next to this file.
 */
import { emulateMedia, executeServerCommand } from '@web/test-runner-commands';
import type { HostileRequest, RigAccount, RigFixtures } from './wallet-rig.ts';
import { createClient } from '../../../src/core/client.ts';
import { indexedDbKeyStore } from '../../../src/core/keystore.ts';
import { createWallet, type Wallet } from '../../../src/core/session.ts';
import type { AuthMethod } from '../../../src/core/types.ts';

export type { HostileRequest, RigAccount, RigFixtures };

let cachedFixtures: Promise<RigFixtures> | undefined;

/**
 * The test or hook now running, as Mocha runs them one at a time (its Runnable's `run`): a command
 * its browser cannot carry out skips it, as its own `this.skip()` would.
 */
let running: Mocha.Runnable | undefined;
const runnable = (globalThis as { Mocha?: { Runnable: { prototype: Mocha.Runnable } } }).Mocha?.Runnable.prototype;
if (runnable) {
  const run = runnable.run;
  runnable.run = function (this: Mocha.Runnable, fn) {
    running = this;
    return run.call(this, fn);
  };
}

/**
 * A command that only Chromium carries out (wallet-rig.ts CHROMIUM_ONLY: the virtual authenticator,
 * the accessibility tree, heap figures over CDP), or that needs a handle on the page that WebKit's
 * WebDriver classic lacks (PAGE_HANDLE_ONLY: offline mode, console capture, dialogs of a frame, time
 * zone, cache emptying): in a browser without it the server answers `{unsupported}` and the test that
 * asked is marked pending (skipRunning).
 */
async function chromiumCommand<T, P = undefined>(command: string, payload?: P): Promise<T> {
  const answer = await executeServerCommand<T | { unsupported: string }, P>(command, payload);
  if (answer !== null && typeof answer === 'object' && 'unsupported' in answer) skipRunning(`${command}: ${answer.unsupported}`);
  return answer as T;
}

/**
 * Marks the running test pending, as `this.skip()` there would: from its body or a beforeEach, that
 * test; from a `before` hook, its suite's.
 */
function skipRunning(reason: string): never {
  running?.skip();
  throw new Error(reason);
}

/**
 * Media emulation (emulateMedia) where the browser has it: Playwright's in Chromium; puppeteer's
 * goes over CDP, which Firefox lacks, and WebDriver classic (WebKit) has none. Answers whether it was done.
 */
async function emulated(media: Parameters<typeof emulateMedia>[0]): Promise<boolean> {
  return emulateMedia(media).then(
    () => true,
    (error: unknown) => {
      // puppeteer over WebDriver BiDi (Firefox) and WebDriver classic (WebKit) have none.
      if (/CDP support is required|not supported for browser type/.test(String(error))) return false;
      throw error;
    },
  );
}

/**
 * For a test that has passkeys offered: marks it pending in a browser without WebAuthn (WebKitGTK
 * has no PublicKeyCredential), where the elements rightly leave passkeys out.
 */
export function needsWebAuthn(): void {
  if (!('PublicKeyCredential' in globalThis)) skipRunning('no WebAuthn in this browser (PublicKeyCredential)');
}

/** Forced colours (Windows high contrast) on or off: where they cannot be emulated, on marks the test pending and off does nothing. */
export async function forcedColors(value: 'active' | 'none'): Promise<void> {
  if (!(await emulated({ forcedColors: value })) && value === 'active') skipRunning('forced colours: no media emulation in this browser (CDP)');
}

/** The system's colour scheme for the page: whether this browser could emulate it (not Firefox). */
export function colorScheme(value: 'dark' | 'light'): Promise<boolean> {
  return emulated({ colorScheme: value });
}

/** Ids of the seeded demo customer, account, card and agent, the signer key and the OIDC issuer. */
export function fixtures(): Promise<RigFixtures> {
  cachedFixtures ??= executeServerCommand<RigFixtures, undefined>('sandbox-fixtures');
  return cachedFixtures;
}

/**
 * A fresh customer with its own wallet (one EMAIL_OTP credential, or none with `emailCredential: false`),
 * card and agent (with `actions` seeded actions, 45 unless given, up to 10000), so tests do not interfere.
 * For long lists: `passkeys` more credentials, `sessions` live sessions (of its credentials in turn)
 * and `delegatedKeys` keys of its card (the newest ACTIVE, the others REVOKED), none unless given, up
 * to 10000 each (src/sandbox/seed-lists.ts).
 */
export function newAccount(
  options: { email?: string; phone?: string; name?: string; emailCredential?: boolean; actions?: number; passkeys?: number; sessions?: number; delegatedKeys?: number } = {},
): Promise<RigAccount> {
  return executeServerCommand<RigAccount, typeof options>('sandbox-new-account', options);
}

/** Moves the sandbox's clock forward (sessions, signed-retry windows, reveal URLs expire on it). */
export function advanceClock(ms: number): Promise<{ now: string }> {
  return executeServerCommand<{ now: string }, { ms: number }>('sandbox-advance-clock', { ms });
}

/** A new PENDING_APPROVAL action of an agent (type EXECUTE_QUOTE unless given). */
export function newAgentAction(agentId: string, type?: 'EXECUTE_QUOTE' | 'TRANSFER_OUT' | 'TRANSFER_IN'): Promise<{ id: string; status: string }> {
  return executeServerCommand('sandbox-new-action', { agentId, ...(type ? { type } : {}) });
}

/** Platform-side approval of an agent action (the proxy never relays this Basic-only call). */
export function approveAction(agentId: string, actionId: string): Promise<unknown> {
  return executeServerCommand('sandbox-approve-action', { agentId, actionId });
}

/**
 * An action's execution by hand (a sandbox control): `PENDING` approves it with the execution still
 * in progress (APPROVED, transaction PENDING); `COMPLETED` or `FAILED` then ends that execution.
 */
export function actionExecution(agentId: string, actionId: string, status: 'PENDING' | 'COMPLETED' | 'FAILED', failureReason?: string): Promise<unknown> {
  return executeServerCommand('sandbox-action-execution', { agentId, actionId, status, ...(failureReason ? { failureReason } : {}) });
}

export function rejectAction(agentId: string, actionId: string, reason?: string): Promise<unknown> {
  return executeServerCommand('sandbox-reject-action', { agentId, actionId, ...(reason ? { reason } : {}) });
}

/**
 * Moves the page to another time zone (an IANA id such as 'Asia/Tokyo'), as the operating system
 * would under a page left open (CDP Emulation.setTimezoneOverride); null puts the system's back.
 */
export function setTimeZone(id: string | null): Promise<{ timeZone: string | null }> {
  // Putting the system's back (an afterEach's) is nothing to skip where no override could be made.
  return id === null ? executeServerCommand('time-zone', { id }) : chromiumCommand('time-zone', { id });
}

/**
 * Playwright's fake clock for the whole browser context of this test file (it cannot be taken off;
 * Playwright only: elsewhere the test is marked pending):
 * `install` it once, then `setSystemTime(ms)` moves Date.now() without firing any timer (as a
 * system suspend does: timers run on a clock that stopped) and `runFor(ms)` lets time run on,
 * firing the timers due meanwhile. Mocha keeps the real timers it took at load. The test runner's
 * wait for a command's answer (20 s) is a page timer too: `runFor` runs in steps of 15 s, each a
 * command of its own, so that it never fires the wait of the command under way.
 */
export async function pageClock(call: 'install' | 'setSystemTime' | 'runFor', arg?: number): Promise<void> {
  for (let left = arg ?? 0; ; left -= 15_000) {
    await chromiumCommand('page-clock', { call, arg: call === 'runFor' ? Math.min(left, 15_000) : arg });
    if (call !== 'runFor' || left <= 15_000) return;
  }
}

/**
 * The page's JavaScript heap in bytes after a full garbage collection (CDP HeapProfiler.collectGarbage,
 * then Runtime.getHeapUsage): what the page still holds, for tests of growth over time.
 */
export function heapUsed(): Promise<number> {
  return chromiumCommand<number, undefined>('heap-used');
}

/** The page's headings as Chromium's accessibility tree has them (name and level), in document order. */
export function axHeadings(): Promise<Array<{ name: string; level: number }>> {
  return chromiumCommand<Array<{ name: string; level: number }>, undefined>('ax-headings');
}

/** A node of the page's accessibility tree as Chromium exposes it (ax-nodes). */
export interface AXNode {
  role: string;
  name: string;
  description: string;
  /** Depth among the nodes that are not ignored. */
  depth: number;
  /** The node's AX properties: invalid, live, atomic, busy, focusable, focused, level, ... */
  properties: Record<string, unknown>;
  /** The DOM node it stands for (CDP backendDOMNodeId): the same while that node stays, another once it is replaced. */
  domNodeId?: number;
}

/** The page's accessibility tree (nodes not ignored, in document order), from Chromium over CDP. */
export function axNodes(): Promise<AXNode[]> {
  return chromiumCommand<AXNode[], undefined>('ax-nodes');
}

/**
 * The roles (status, alert) of the page's live regions in Chromium's accessibility tree, in document
 * order: a screen reader announces a change only in a region it already knows.
 */
export async function axLiveRegions(): Promise<string[]> {
  return (await axNodes()).map((n) => n.role).filter((role) => role === 'status' || role === 'alert');
}

/**
 * The page's polite status regions in Chromium's accessibility tree, in document order: the DOM node
 * of each, its text, and the DOM nodes of that text (others once the text is put in anew, which a
 * screen reader reads as new even when the words are the same).
 */
export async function politeRegions(): Promise<Array<{ id?: number; text: string; textIds: Array<number | undefined> }>> {
  const nodes = await axNodes();
  return nodes.flatMap((n, i) => {
    if (n.role !== 'status' || n.properties['live'] !== 'polite') return [];
    const inside: AXNode[] = [];
    for (let j = i + 1; j < nodes.length && nodes[j]!.depth > n.depth; j++) if (nodes[j]!.role === 'StaticText') inside.push(nodes[j]!);
    return [{ id: n.domNodeId, text: inside.map((t) => t.name).join(' '), textIds: inside.map((t) => t.domNodeId) }];
  });
}

/** Adds a CTAP2 platform authenticator (resident keys, user verified, presence simulated) to this page. */
export function addVirtualAuthenticator(options: Record<string, unknown> = {}): Promise<{ authenticatorId: string }> {
  return chromiumCommand<{ authenticatorId: string }, { options: Record<string, unknown> }>('webauthn-add-virtual-authenticator', {
    options,
  });
}

export function removeVirtualAuthenticator(): Promise<boolean> {
  return executeServerCommand<boolean, undefined>('webauthn-remove-virtual-authenticator');
}

/** The credentials held by this page's virtual authenticator (ids, RP id, sign counters). */
export function authenticatorCredentials(): Promise<{
  credentials: Array<{ credentialId: string; rpId?: string; signCount: number; isResidentCredential: boolean }>;
}> {
  return chromiumCommand('webauthn-credentials');
}

/**
 * Takes a passkey (credentialId as authenticatorCredentials() gives it) out of this page's
 * authenticator, as if another device held it; the rig keeps it, private key included, out of the page.
 */
export function takeAuthenticatorCredential(credentialId: string): Promise<boolean> {
  return chromiumCommand('webauthn-take-credential', { credentialId });
}

/** Puts a passkey taken with takeAuthenticatorCredential into the authenticator this page has now. */
export function putAuthenticatorCredential(credentialId: string): Promise<boolean> {
  return chromiumCommand('webauthn-put-credential', { credentialId });
}

/**
 * Two passkeys for a logged-in wallet, the newer one made on another device: afterwards this page's
 * authenticator holds the older one only (as a laptop whose owner later added a phone's passkey).
 */
export async function olderPasskeyHere(wallet: Wallet, accountId: string): Promise<{ older: AuthMethod; newer: AuthMethod }> {
  const older = await wallet.registerPasskey({ accountId, nickname: 'This laptop' });
  const [here] = (await authenticatorCredentials()).credentials;
  await takeAuthenticatorCredential(here!.credentialId);
  const newer = await wallet.registerPasskey({ accountId, nickname: 'Phone' });
  const [there] = (await authenticatorCredentials()).credentials;
  await takeAuthenticatorCredential(there!.credentialId);
  await putAuthenticatorCredential(here!.credentialId);
  if (!(Date.parse(newer.createdAt) > Date.parse(older.createdAt))) throw new Error('the passkeys were created in the same millisecond');
  return { older, newer };
}

/** Whether the virtual authenticator reports the user as verified (false makes UV-required ceremonies fail). */
export function setUserVerified(isUserVerified: boolean): Promise<boolean> {
  return chromiumCommand('webauthn-set-user-verified', { isUserVerified });
}

/** With presence simulation off, ceremonies wait (as for a user who has not touched the key yet). */
export function setAutomaticPresence(enabled: boolean): Promise<boolean> {
  return chromiumCommand('webauthn-set-presence', { enabled });
}

/**
 * An ID token from the sandbox's test issuer (its `POST {issuer}/token`, over real HTTP).
 * For OAUTH verify pass `nonce` = sha256Hex(clientPublicKey hex) (DESIGN.md wire format 5); without
 * one a random nonce is sent (fine for POST /auth/credentials, which checks no nonce).
 */
export async function oidcToken(claims: { sub: string; aud?: string; email?: string; nonce?: string }): Promise<string> {
  const { oidcIssuer } = await fixtures();
  const res = await fetch(`${oidcIssuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // The issuer's token endpoint always wants a nonce; one that binds nothing suits credential creation.
    body: JSON.stringify({ ...claims, nonce: claims.nonce ?? [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('') }),
  });
  if (!res.ok) throw new Error(`the test issuer answered ${res.status}`);
  const body = (await res.json()) as { id_token?: string };
  if (typeof body.id_token !== 'string') throw new Error('the test issuer answered no id_token');
  return body.id_token;
}

/**
 * Another sandbox with its own options, behind its own proxy on this page's origin (answer's
 * `apiBase`): `revealLifetimeMs` for expiry tests, `cardIssuer: false` for 501, `credentials:
 * 'impersonation'` for a proxy relaying with the pair that has no attributable actor (403).
 */
export function sandboxVariant(options: {
  revealLifetimeMs?: number;
  cardIssuer?: boolean;
  sessionLifetimeMs?: number;
  signedRetryWindowMs?: number;
  /** How soon the service sends a credential's next code (default 30 s). */
  otpResendIntervalMs?: number;
  /** A session refresh answers a fresh key sealed to the client (encryptedSessionSigningKey). */
  refreshSealsKey?: boolean;
  credentials?: 'platform' | 'impersonation';
  /** The variant's proxy requires the card-reveal step-up (a relayed session refresh first). */
  stepUp?: boolean;
  /** Serve the variant's proxy on another origin of the same site, allowing this page's origin. */
  pageOrigin?: string;
  /** With `pageOrigin`: that proxy does not expose the `Date` header (CORS), so the page cannot read the service's clock. */
  hideDate?: boolean;
  /** The variant service's clock runs this far from the device's (negative: the device is ahead). */
  clockOffsetMs?: number;
  /** The variant's proxy limits each client to `max` requests per `windowMs` (its own 429). */
  rateLimit?: { max: number; windowMs: number };
  /** The variant's proxy refuses every route, the agent's too, while the page has no `site-user` cookie (its authorize's 401, details.reason AUTHORIZE). */
  siteLogin?: boolean;
}): Promise<RigFixtures> {
  return executeServerCommand<RigFixtures, typeof options>('sandbox-variant', options);
}

/**
 * A server on another origin standing for an attacker's (`apiBase` on http://127.0.0.1:<port>):
 * it answers every unsigned POST with a signed-retry challenge over `payload`, a payload of its
 * own choosing, and records what it receives (hostileRequests).
 */
export function hostileOrigin(): Promise<{ apiBase: string; payload: string }> {
  return executeServerCommand('hostile-origin');
}

/** What the hostile origin received since the last call (each stamp checked over its payload). */
export function hostileRequests(): Promise<HostileRequest[]> {
  return executeServerCommand('hostile-requests');
}

/** Origin, path and visible text of the page's child frames (read through Playwright; never the query). */
/**
 * Makes the test server answer the next `times` loads of `path` (a module of the page, e.g.
 * '/src/elements/card-reveal/reveal-request.ts') with 503, or with `dropped` close the connection
 * without an answer; without `times`, only reads the count. Resolves with how many loads of it failed so far.
 * What a test arms (in the test or its beforeEach) is disarmed when it ends, what a `before` hook
 * arms when the file ends, so that loads a test left armed cannot fail in a later one.
 */
export function failNextLoad(path: string, times?: number, dropped = false): Promise<{ failed: number }> {
  if (times !== undefined) (inTest ? armedInTest : armedInFile).add(path);
  return executeServerCommand('fail-next-load', { path, ...(times === undefined ? {} : { times, dropped }) });
}

/** The paths failNextLoad armed, by the test running (between the root hooks below), else for the file. */
const armedInTest = new Set<string>();
const armedInFile = new Set<string>();
let inTest = false;

async function disarm(paths: Set<string>): Promise<void> {
  for (const path of paths) await executeServerCommand('fail-next-load', { path, times: 0 });
  paths.clear();
}

// Root hooks of the file's mocha (a page without mocha, such as tab-frame.ts's, has none).
if (typeof beforeEach === 'function') {
  beforeEach(() => {
    inTest = true;
  });
  afterEach(async () => {
    inTest = false;
    await disarm(armedInTest);
  });
  after(() => disarm(armedInFile));
}

/**
 * The user signs in at the sandbox's test issuer: clicks "Sign in" in the sign-in window (at
 * `{oidcIssuer}/authorize`) that the page opened, once it is there (10 s at most); with `cancel`,
 * "Cancel" there instead (the user declines: the issuer answers `access_denied`).
 */
export function oidcSignIn(cancel?: 'cancel'): Promise<{ signedIn: true }> {
  return chromiumCommand('oidc-sign-in', { cancel: cancel === 'cancel' });
}

/**
 * Takes the browser offline for `ms` (navigator.onLine false, the page's requests fail), after which
 * the rig puts it back online: offline, the page's messages to the rig and its answers are held (in
 * Chromium's WebSocket) until it is online again. Returns once the page sees itself offline;
 * `online()` once it sees itself online again. With `listening` (an event type, such as `online`),
 * `listening()` gives how many listeners of that type the page's window and its frames' windows had
 * at the end of those `ms`, just before the rig put the page back online (Chromium: CDP).
 */
export async function goOffline(ms: number, listening?: string): Promise<{ online(): Promise<void>; listening(): Promise<number> }> {
  const until = async (online: boolean) => {
    while (navigator.onLine !== online) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  // Where the browser can go offline, its answer comes only once it is back online; where it
  // cannot (WebDriver classic), the answer `{unsupported}` comes at once and marks the test pending.
  const test = running;
  const never = new Promise<never>(() => undefined);
  const answer = chromiumCommand<{ listening: number }, { ms: number; listening?: string }>('go-offline', { ms, listening });
  const skipped = answer.then(
    () => never,
    (error: unknown) => {
      if (test?.isPending()) throw error;
      return never;
    },
  );
  await Promise.race([until(false), skipped]);
  return { online: () => until(true), listening: async () => (await answer).listening };
}

/**
 * Whether this browser loads a module again after a load of it failed (whatwg/html#10327: Safari
 * does; Chromium 156 does after a dropped connection, but keeps the failure for the page after an
 * error answer; Firefox 153 keeps it after either), probed with a module of its own (import-probe.ts) whose first load the
 * test server answers 503.
 */
export async function browserLoadsFailedModulesAgain(): Promise<boolean> {
  const probe = '/test/browser/support/import-probe.ts';
  await failNextLoad(probe, 1);
  await import(probe).catch(() => undefined);
  return import(probe).then(
    () => true,
    () => false,
  );
}

export function pageFrames(): Promise<{ frames: Array<{ origin: string; pathname: string; text: string }> }> {
  return chromiumCommand('page-frames');
}

/**
 * From inside each child frame of the page on `origin`: whether alert() opened a dialog (a frame
 * sandboxed without allow-modals opens none) and the referrer its document got.
 */
export function frameProbe(origin: string): Promise<{ frames: Array<{ pathname: string; referrer: string; modal: boolean }> }> {
  return chromiumCommand('frame-probe', { origin });
}

/**
 * A wallet of its own for one test: the rig's fixtures, a fresh sandbox account, and core session
 * flows over the proxy with keys in an IndexedDB database no other test uses.
 */
export async function freshWallet(): Promise<{ f: RigFixtures; acct: RigAccount; dbName: string; wallet: Wallet }> {
  const f = await fixtures();
  const acct = await newAccount();
  const dbName = `wallet-elements-test-${crypto.randomUUID()}`;
  const wallet = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName }), otpSigner: f.signerPublicKey });
  return { f, acct, dbName, wallet };
}

/** Another tab of this origin (tab-frame.ts): its own copy of core, with this page's storage, Web Locks and virtual authenticator. */
export interface OtherTab {
  core: typeof import('../../../src/core/index.ts');
  /** Configures that tab's elements, as configureWallet does this page's. */
  configureWallet: typeof import('../../../src/elements/shared/config.ts').configureWallet;
  /** That tab's session flows as its elements share them (configure it first): what they change, this tab hears of. */
  walletFor: typeof import('../../../src/elements/shared/wallet.ts').walletFor;
  window: Window;
  /** Closes the tab (removes its frame). */
  close(): void;
}

/** A same-origin frame of `name`.html in this folder, once its script posted `<name>-ready`: a realm of its own. */
function openFrame<W>(name: string): Promise<{ window: Window & W; close(): void }> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    const timer = setTimeout(() => reject(new Error(`${name} did not load`)), 10000);
    addEventListener('message', function onMessage(ev: MessageEvent) {
      if (ev.source !== frame.contentWindow || ev.data?.kind !== `${name}-ready`) return;
      removeEventListener('message', onMessage);
      clearTimeout(timer);
      resolve({ window: frame.contentWindow as Window & W, close: () => frame.remove() });
    });
    frame.src = `/test/browser/support/${name}.html`;
    document.body.append(frame);
  });
}

/**
 * Opens another tab of this origin, as a same-origin frame: a tab of its own has a virtual
 * authenticator of its own over CDP, where two tabs of one browser share the device's.
 */
export async function openOtherTab(): Promise<OtherTab> {
  const { window, close } = await openFrame<Pick<OtherTab, 'core' | 'configureWallet' | 'walletFor'>>('tab-frame');
  return { core: window.core, configureWallet: window.configureWallet, walletFor: window.walletFor, window, close };
}

/** A page of this origin that has asked for no element's on-demand code yet (load-frame.ts), with the elements defined. */
export interface FreshPage {
  /** Points that page's elements at the rig's proxy, pinned to the sandbox signer, over the key store of IndexedDB `dbName`. */
  useRig(apiBase: string, dbName: string): void;
  /** An import() of `path` in that page. */
  importAgain(path: string): Promise<unknown>;
  window: Window;
  /** Removes its frame. */
  close(): void;
}

/**
 * Opens a FreshPage, as a same-origin frame: its own module map, with this page's storage. The
 * browser's HTTP cache is emptied first (the test server serves modules cacheable for a year), so
 * that it asks the test server for each module again, as a page would after a deploy. WebDriver
 * classic (WebKit) cannot empty it: the test asking is pending there.
 */
export async function openFreshPage(): Promise<FreshPage> {
  await chromiumCommand('clear-browser-cache');
  const { window, close } = await openFrame<Pick<FreshPage, 'useRig' | 'importAgain'>>('load-frame');
  return { useRig: window.useRig, importAgain: window.importAgain, window, close };
}

/**
 * Closes the page's idle connections to the test server. Chromium sends a request again by itself
 * when a connection it reused closes without an answer, over each idle one it holds, and gives up
 * only when a fresh connection does: with none idle, one dropped connection is one failed load.
 */
export async function closeIdleConnections(): Promise<void> {
  const probe = '/test/browser/support/import-probe.ts';
  await failNextLoad(probe, 20, true);
  await import(`${probe}?drain`).catch(() => undefined);
  await failNextLoad(probe, 0);
}

/** The loads of `path` the test server has failed so far (over the whole run: compare before and after). */
export const failedLoads = async (path: string): Promise<number> => (await failNextLoad(path)).failed;

/** What `leak-scan` answers (wallet-rig.ts): where a secret was found, by name only. */
export interface LeakScan {
  /** `<secret> in <sink>`, one per pair. */
  found: string[];
  /** Sinks named as marked in which the marker was not found: sinks the scan does not see. */
  blind: string[];
  /** The browser's own sinks this browser's run cannot give, left out of the scan (WebKit: its console and uncaught errors). */
  unseen: string[];
  /** How many values of each secret were looked for. */
  counts: Record<string, number>;
  /** How many characters of each sink were looked at. */
  sizes: Record<string, number>;
}

/** Starts keeping the page's console and uncaught errors, the proxies' log, this run's output and the stamps sent. */
export function leakWatch(): Promise<boolean> {
  return chromiumCommand('leak-watch');
}

/**
 * Greps what was kept since `leakWatch`, with the page's `haystacks`, for the page's `secrets` and the
 * rig's own. `last`: the line the page wrote to its console last; the scan waits (up to 5 s) for the
 * browser console to hold it, and so all written before it (CDP delivers a page's console in order).
 */
export function leakScan(payload: { haystacks: Record<string, string>; secrets: Record<string, string[]>; marker: string; marked: string[]; last?: string }): Promise<LeakScan> {
  return executeServerCommand<LeakScan, typeof payload>('leak-scan', payload);
}

/** What `pageRoundTrip` reports of reveal-page.html before it was left and after coming back. */
export interface RoundTripReport {
  events: string[];
  frame: boolean;
  state?: string;
  /** The `persisted` of each pageshow: `[false, true]` when restored from the back/forward cache. */
  shows: boolean[];
}

/**
 * Opens `path` (reveal-page.html with its query) as a top-level page of its own, leaves it for
 * another document once its card is revealed and goes back (wallet-rig.ts `page-round-trip`):
 * its reports, its child frames after, and Chromium's reasons for not restoring it from the
 * back/forward cache (`null` when restored).
 */
export function pageRoundTrip(path: string): Promise<{ before: RoundTripReport; after: RoundTripReport; childFrames: number; notRestoredReasons: string; notUsed: string[] }> {
  return chromiumCommand('page-round-trip', { path });
}
