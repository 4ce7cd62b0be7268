/**
 * Helpers the element tests share: mounting an element against the rig (real proxy at /api, real
 * sandbox), waiting for events and screens, reading the shadow DOM, running axe-core on an
 * element (axe traverses open shadow roots) and measuring its text's colour contrast. No mock of
 * anything that runs for real.
 */
import { expect, util } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import { configureWallet, walletConfig } from '../../../../src/elements/shared/config.ts';
import { setLocale } from '../../../../src/elements/shared/i18n.ts';
import { indexedDbKeyStore, type KeyStore } from '../../../../src/core/keystore.ts';
import { observeServiceDate } from '../../../../src/core/clock.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { colorScheme, fixtures, newAccount, openFreshPage, removeVirtualAuthenticator, type FreshPage, type RigAccount } from '../../support/rig.ts';

/** The page's own fetch, before any test wrapped it. */
const pageFetch = window.fetch;

/** The release of every request or answer held now (holdNext, holdAnswer). */
const heldNow = new Set<() => void>();

/** Points the elements at the rig's proxy, pinned to the sandbox signer, with a fresh key store. */
export async function useRig(): Promise<{ store: KeyStore; dbName: string }> {
  const f = await fixtures();
  const dbName = `wallet-elements-test-${crypto.randomUUID()}`;
  const store = indexedDbKeyStore({ dbName });
  configureWallet({ apiBase: f.apiBase, environment: 'sandbox', store });
  return { store, dbName };
}

/** useRig, then a new account of the sandbox: a test's own wallet, with a fresh key store. */
export async function useRigAccount(): Promise<{ acct: RigAccount; store: KeyStore; dbName: string }> {
  const rig = await useRig();
  return { ...rig, acct: await newAccount() };
}

export async function mount<T extends HTMLElement>(tag: string, attributes: Record<string, string> = {}, setup?: (el: T) => void): Promise<T> {
  const el = document.createElement(tag) as T;
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  setup?.(el);
  document.body.append(el);
  await (el as unknown as { updateComplete?: Promise<unknown> }).updateComplete;
  return el;
}

/** The pages freshPage opened (resetPage closes them). */
const freshPages = new Set<FreshPage>();

/**
 * A page that has asked for no element's on-demand code yet (rig.ts openFreshPage), its elements
 * pointed at the rig's proxy over IndexedDB `dbName` (useRig's: this page's sessions); resetPage
 * closes it.
 */
export async function freshPage(dbName: string): Promise<FreshPage> {
  const page = await openFreshPage();
  freshPages.add(page);
  page.useRig((await fixtures()).apiBase, dbName);
  return page;
}

/** A `tag` with these attributes (and what `setup` sets, such as a property) on that page, once updated. */
export async function mountIn<T extends HTMLElement>(page: FreshPage, tag: string, attributes: Record<string, string>, setup?: (el: T) => void): Promise<T> {
  const el = page.window.document.createElement(tag) as T;
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  setup?.(el);
  page.window.document.body.append(el);
  await (el as unknown as { updateComplete?: Promise<unknown> }).updateComplete;
  return el;
}

/** The element's update done and two frames drawn (its layout and styles applied). */
export async function settle(el: Element): Promise<void> {
  await (el as unknown as { updateComplete?: Promise<unknown> }).updateComplete;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}

/** A `tag` with these attributes (and `setup` run on it) appended to `parent`, once drawn. */
export async function mountDrawn<T extends HTMLElement>(parent: Element, tag: string, attributes: Record<string, string> = {}, setup?: (el: T) => void): Promise<T> {
  const el = document.createElement(tag) as T;
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  setup?.(el);
  parent.append(el);
  await settle(el);
  return el;
}

/** The rig account logged in by its email code through the page's wallet, without an element. */
export async function loginByEmail(acct: RigAccount): Promise<void> {
  await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
}

export function cleanup(): void {
  for (const el of [...document.body.children]) if (el.tagName.includes('-')) el.remove();
}

/**
 * Every browser test file's `afterEach(resetPage)`: the page as the next test expects it, however
 * this one ended (a test that fails partway skips its own undo). It removes the elements, lets held
 * requests and answers go and puts the page's fetch back (faults, counters), forgets the codes kept
 * for a reload and anything else of ours in sessionStorage and localStorage, empties the configured
 * key store, forgets the service clock read from answers (a variant sandbox's, or one moved on),
 * goes back to the document's locale and removes the virtual authenticator with its passkeys.
 */
export async function resetPage(this: Mocha.Context | void): Promise<void> {
  describeNodes(this?.currentTest?.err);
  cleanup();
  for (const page of freshPages) page.close();
  freshPages.clear();
  for (const release of heldNow) release();
  heldNow.clear();
  window.fetch = pageFetch;
  for (const storage of [sessionStorage, localStorage]) {
    for (const key of Object.keys(storage)) if (key.startsWith('wallet-elements')) storage.removeItem(key);
  }
  // A test may have configured a store that refuses every call (refusingKeyStoreDb): nothing to empty.
  await walletConfig().store?.clear().catch(() => undefined);
  // A Date equal to this device's: the offset of a page that has read no service's clock yet.
  observeServiceDate(new Date().toUTCString());
  setLocale(undefined);
  await removeVirtualAuthenticator().catch(() => undefined);
}

/**
 * A failed assertion keeps what it compared as `actual` and `expected`. When that holds a DOM node
 * the test runner, sending the results, walks the whole document from it and the page stalls until
 * the runner's timeout for the file, losing every result of the file. Put as chai describes them
 * (the message already does): the failure reads the same and is reported at once.
 */
function describeNodes(err: unknown): void {
  if (!err || typeof err !== 'object') return;
  const failure = err as { actual?: unknown; expected?: unknown };
  for (const side of ['actual', 'expected'] as const) {
    if (holdsNode(failure[side])) failure[side] = util.inspect(failure[side]);
  }
}

function holdsNode(value: unknown, depth = 0): boolean {
  if (value instanceof Node) return true;
  if (!value || typeof value !== 'object' || depth > 3) return false;
  return Object.values(value).some((v) => holdsNode(v, depth + 1));
}

/** What `p` rejects with; fails if it fulfils. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
}

/** Resolves with the next event of that name (rejects after `ms`). */
export function nextEvent<E extends Event = CustomEvent>(target: EventTarget, name: string, ms = 15000): Promise<E> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} event within ${ms} ms`)), ms);
    target.addEventListener(
      name,
      (e) => {
        clearTimeout(timer);
        resolve(e as E);
      },
      { once: true },
    );
  });
}

/** Polls until `check` returns a truthy value (rejects with `what` after `ms`). */
export async function waitFor<T>(check: () => T | undefined | null | false, what: string, ms = 15000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function shadow(el: Element): ShadowRoot {
  if (!el.shadowRoot) throw new Error(`${el.tagName} has no open shadow root`);
  return el.shadowRoot;
}

export function part(el: Element, name: string): HTMLElement | null {
  return shadow(el).querySelector<HTMLElement>(`[part~='${name}']`);
}

export function parts(el: Element, name: string): HTMLElement[] {
  return [...shadow(el).querySelectorAll<HTMLElement>(`[part~='${name}']`)];
}

export function text(el: Element, name: string): string {
  return part(el, name)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

/**
 * What holds the focus inside the element's shadow root, for a failure's message: focus checks
 * compare elements with `===` and assert the boolean, as an element compared by chai stalls the
 * report (see describeNodes).
 */
export function focusIn(el: Element): string {
  const active = shadow(el).activeElement;
  if (!active) return 'nothing inside the element';
  const p = active.getAttribute('part');
  return `<${active.tagName.toLowerCase()}${p ? ` part="${p}"` : ''}${active.id ? ` id="${active.id}"` : ''}> "${active.textContent?.replace(/\s+/g, ' ').trim().slice(0, 40) ?? ''}"`;
}

/** Whether the element currently matches `:state(name)`. */
export function inState(el: Element, name: string): boolean {
  return el.matches(`:state(${name})`);
}

export async function waitForState(el: Element, name: string, ms = 15000): Promise<void> {
  try {
    await waitFor(() => inState(el, name), `:state(${name}) on ${el.tagName.toLowerCase()}`, ms);
  } catch (e) {
    // What the element shows instead, so that a timeout says where it stopped.
    const shown = el.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim().slice(0, 300);
    throw new Error(`${(e as Error).message}; it shows: "${shown}"`);
  }
}

/**
 * A login by email code through a `<wallet-login>` (the sandbox's code, 000000), from its methods:
 * its `wallet-logged-in` event.
 */
export async function logInByEmail(el: Element): Promise<CustomEvent<{ sessionId: string }>> {
  await waitForState(el, 'choosing');
  const loggedIn = nextEvent<CustomEvent<{ sessionId: string }>>(el, 'wallet-logged-in');
  shadow(el).querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
  await waitForState(el, 'code-entry');
  type(part(el, 'code-input') as HTMLInputElement, '000000');
  return loggedIn;
}

/** Types into an input as a user would (value, then an input event). */
export function type(input: HTMLInputElement, value: string): void {
  input.focus();
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }));
}

/**
 * Pastes text onto a target inside the element (a real ClipboardEvent with a DataTransfer). Firefox's
 * constructor does not keep the `clipboardData` given: it fills one of its own from `dataType` and
 * `data`, which Chromium ignores.
 */
export function paste(target: EventTarget, value: string): void {
  const data = new DataTransfer();
  data.setData('text/plain', value);
  const init = { clipboardData: data, dataType: 'text/plain', data: value, bubbles: true, composed: true, cancelable: true };
  target.dispatchEvent(new ClipboardEvent('paste', init));
}

/**
 * Pastes text into an input as a user does: copied from a text area and pasted with the keyboard,
 * so the paste event is trusted and its default (the insertion, cut by the field's maxlength) runs.
 */
export async function pasteForReal(input: HTMLInputElement, value: string): Promise<void> {
  const source = document.createElement('textarea');
  source.value = value;
  document.body.append(source);
  source.select();
  await pressWith('Control', 'c');
  source.remove();
  input.focus();
  await pressWith('Control', 'v');
}

/**
 * A key pressed with a modifier held (Ctrl+C, Shift+Tab): Playwright (Chromium) and WebDriver
 * (WebKit) take 'Shift+Tab' in one press, and WebDriver takes only presses; puppeteer (Firefox) takes
 * the chord as separate key actions only.
 */
export async function pressWith(modifier: 'Control' | 'Shift', key: string): Promise<void> {
  if (!navigator.userAgent.includes('Firefox/')) return sendKeys({ press: `${modifier}+${key}` });
  await sendKeys({ down: modifier });
  try {
    await sendKeys({ press: key });
  } finally {
    await sendKeys({ up: modifier });
  }
}

interface AxeResults {
  violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown; failureSummary?: string }> }>;
}
interface Axe {
  run(context: Element, options?: Record<string, unknown>): Promise<AxeResults>;
}

let axeLoaded: Promise<void> | undefined;

/** axe-core, loaded into the page from node_modules by a script import. */
async function axe(): Promise<Axe> {
  axeLoaded ??= import('axe-core/axe.min.js' as string).then(() => undefined);
  await axeLoaded;
  const found = (globalThis as unknown as { axe?: Axe }).axe;
  if (!found) throw new Error('axe-core did not load');
  return found;
}

/** One axe run on the element: readable violations, each led by `pass` when one is named. */
async function axeRun(el: Element, pass = ''): Promise<string[]> {
  const results = await (await axe()).run(el, { resultTypes: ['violations'] });
  return results.violations.map(
    (v) => `${pass}${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target) + ' ' + (n.failureSummary ?? '')).join('; ')}`,
  );
}

/** Lets the colour transitions a change of theme started end, so that axe reads the theme's own colours. */
async function settled(hosts: Element[]): Promise<void> {
  // A layout of the page computes the new styles, which starts the transitions.
  void document.body.offsetHeight;
  const transitions = hosts.flatMap((host) => host.shadowRoot?.getAnimations() ?? []).filter((a) => a instanceof CSSTransition);
  await Promise.all(transitions.map((a) => a.finished.catch(() => undefined)));
}

/**
 * Runs axe on the element (or on every wallet element inside it) in each theme: as it is (the
 * light theme of the system the tests run on, unless the test chose one), with `theme="dark"`, and
 * with no theme on a system set to dark (prefers-color-scheme emulated in the browser), the page
 * behind dark in both, as a page that shows the dark theme has it. Resolves with readable
 * violations, those of a dark run led by its name (empty when all three are clean). The element's
 * theme, the system setting and the page are as they were after.
 */
export async function axeViolations(el: Element): Promise<string[]> {
  const hosts = [el, ...el.querySelectorAll('*')].filter((x) => x.localName.includes('-') && x.shadowRoot);
  const themes = hosts.map((host) => host.getAttribute('theme'));
  const setTheme = async (theme: (host: number) => string | null) => {
    hosts.forEach((host, i) => (theme(i) === null ? host.removeAttribute('theme') : host.setAttribute('theme', theme(i)!)));
    await Promise.all(hosts.map((host) => (host as Partial<{ updateComplete: Promise<unknown> }>).updateComplete));
    await settled(hosts);
  };
  const found = await axeRun(el);
  const page = document.documentElement.style;
  const background = page.background;
  try {
    page.background = '#0b0c10';
    await setTheme(() => 'dark');
    found.push(...(await axeRun(el, '[theme="dark"] ')));
    // The system's dark scheme, where the browser can emulate it (Chromium; not Firefox).
    if (await colorScheme('dark')) {
      await setTheme(() => null);
      found.push(...(await axeRun(el, '[system dark] ')));
    }
  } finally {
    page.background = background;
    await colorScheme('light');
    await setTheme((i) => themes[i] ?? null);
  }
  return found;
}

/**
 * Wraps the page's fetch: while uses are left, each request whose method and URL match goes to
 * `fault` with the real fetch; the fault answers a Response, or an Error the page's fetch rejects
 * with, or undefined to let the real answer through (no use spent). Every other request goes out as
 * it is. A fault that answers at once (not a promise) spends its use before the page's fetch
 * returns, so of requests sent together exactly `times` are faulted. Returns the undo (call it in
 * a `finally`).
 */
function faultFetch(
  method: string,
  url: RegExp,
  times: number,
  fault: (send: () => Promise<Response>, signal?: AbortSignal) => Response | Promise<Response | Error | undefined>,
): () => void {
  const original = window.fetch;
  let left = times;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const send = () => original(input, init);
    if (left <= 0 || (init?.method ?? 'GET') !== method || !url.test(href)) return send();
    let sent: Promise<Response> | undefined;
    const answer = fault(() => (sent ??= send()), init?.signal ?? undefined);
    // Awaited only when it is a promise: an await here would let other requests by before the use is counted.
    const faulted = answer instanceof Promise ? await answer : answer;
    if (faulted === undefined) return sent ?? send();
    left--;
    if (faulted instanceof Error) throw faulted;
    return faulted;
  };
  return () => {
    window.fetch = original;
  };
}

/**
 * A fault on the page's side of the wire: the next `times` requests whose method and URL match are
 * answered `status` (with `headers`) and an empty body, or `body` as JSON (an error body of the
 * service's shape), without reaching the proxy; every other request goes out. Returns the undo
 * (call it in a `finally`).
 */
export function failNext(method: string, url: RegExp, status: number, times = 1, headers: Record<string, string> = {}, body?: object): () => void {
  const content = body === undefined ? '' : JSON.stringify(body);
  return faultFetch(method, url, times, () => new Response(content, { status, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }));
}

/**
 * Loses the page's next `times` answers to `method url` for which `lost(response)` holds: the
 * request reaches the service, which carries it out, but the page sees a network failure (a dropped
 * connection after the service answered). Returns the undo.
 */
export function loseAnswer(method: string, url: RegExp, lost: (r: Response) => boolean = () => true, times = 1): () => void {
  return faultFetch(method, url, times, async (send) => (lost(await send()) ? new TypeError('Failed to fetch') : undefined));
}

/**
 * Reshapes the page's next `times` JSON answers to `method url` whose status is `status`: the request
 * reaches the service, which carries it out, and the page reads `reshape(body)` instead of its
 * body (a service answering in another documented shape). Returns the undo.
 */
export function reshapeAnswer(method: string, url: RegExp, status: number, reshape: (body: Record<string, unknown>) => unknown, times = 1): () => void {
  return faultFetch(method, url, times, async (send) => {
    const response = await send();
    if (response.status !== status) return undefined;
    const body = reshape((await response.clone().json()) as Record<string, unknown>);
    return new Response(JSON.stringify(body), { status, headers: response.headers });
  });
}

/**
 * Holds the page's next answer to `method url` for which `held(response)` holds: the request reaches
 * the service, which carries it out, and the page gets the answer at `release()`, as if it were slow
 * to come. An abort meanwhile fails the page's fetch at once, as it does a fetch still waiting for
 * its answer. `read` resolves once the page has read that answer's body, or failed to, or its fetch
 * was aborted (what it does with the answer then runs without a wait on the network). Call `undo`
 * in a `finally`.
 */
export function holdAnswer(
  method: string,
  url: RegExp,
  held: (r: Response) => boolean = () => true,
): { arrived: Promise<void>; release: () => void; read: Promise<void>; undo: () => void } {
  const { arrived, arrive, release, released } = gate();
  let done!: () => void;
  const read = new Promise<void>((r) => (done = r));
  const undo = faultFetch(method, url, 1, async (send, signal) => {
    const response = await send();
    if (!held(response)) return undefined;
    arrive();
    const stopped = signal ? new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true })) : new Promise<void>(() => undefined);
    await Promise.race([released, stopped]);
    if (signal?.aborted) {
      done();
      throw signal.reason;
    }
    const text = response.text.bind(response);
    response.text = () => text().finally(done);
    return response;
  });
  return { arrived, release, read, undo };
}

/** A pair of one-shot signals: `arrive()` resolves `arrived`, `release()` resolves `released`. */
function gate(): { arrived: Promise<void>; arrive: () => void; released: Promise<void>; release: () => void } {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  const released = new Promise<void>((r) => (release = r));
  heldNow.add(release);
  return {
    arrived,
    arrive,
    released,
    release: () => {
      heldNow.delete(release);
      release();
    },
  };
}

/**
 * Holds the page's next request to `method url` before it leaves: `arrived` resolves when the page
 * has made it, `release()` lets it go out as it is (or fail, if its signal was aborted meanwhile).
 * Call `undo` in a `finally`.
 */
export function holdNext(method: string, url: RegExp): { arrived: Promise<void>; release: () => void; undo: () => void } {
  const { arrived, arrive, release, released } = gate();
  const undo = faultFetch(method, url, 1, async () => {
    arrive();
    await released;
    return undefined;
  });
  return { arrived, release, undo };
}

/**
 * The name of an IndexedDB database that refuses the key store for real: made by someone else,
 * without the key store's object store, so every read and write fails (NotFoundError). Blocked
 * site data or a private window fail the same calls with InvalidStateError or SecurityError.
 */
export async function refusingKeyStoreDb(): Promise<string> {
  const dbName = `wallet-elements-test-${crypto.randomUUID()}`;
  await new Promise<void>((resolve, reject) => {
    const open = indexedDB.open(dbName, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('something-else');
    open.onsuccess = () => (open.result.close(), resolve());
    open.onerror = () => reject(open.error);
  });
  return dbName;
}

/** A colour as sRGB bytes and alpha, read back from a canvas (any CSS colour syntax the browser computes). */
function rgba(color: string): [number, number, number, number] {
  const context = (rgbaCanvas ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true })!);
  context.clearRect(0, 0, 1, 1);
  context.fillStyle = color;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
  return [r!, g!, b!, a! / 255];
}
let rgbaCanvas: CanvasRenderingContext2D | undefined;

/** `top` painted over the opaque `bottom`. */
function over(top: number[], bottom: number[]): number[] {
  const a = top[3]!;
  return [0, 1, 2].map((i) => top[i]! * a + bottom[i]! * (1 - a)).concat(1);
}

/** WCAG 2.2 relative luminance, and the contrast ratio of two opaque colours. */
function luminance([r, g, b]: number[]): number {
  const linear = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
}
function contrast(a: number[], b: number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The parent of a node across shadow boundaries (a shadow root's host). */
function composedParent(e: Element): Element | null {
  return e.parentElement ?? ((e.getRootNode() as ShadowRoot).host || null);
}

/**
 * The opaque colours that can be behind an element: its ancestors' backgrounds painted over white
 * (the page's), one per colour stop where a gradient paints one, since text may sit over any part.
 */
function backgroundsBehind(e: Element): number[][] {
  const layers: number[][][] = [];
  for (let x: Element | null = e; x; x = composedParent(x)) {
    const style = getComputedStyle(x);
    const stops = [...style.backgroundImage.matchAll(/rgba?\([^)]*\)|color\([^)]*\)/g)].map((m) => rgba(m[0]));
    if (stops.length) layers.push(stops);
    const color = rgba(style.backgroundColor);
    if (color[3] > 0) layers.push([color]);
    if (color[3] === 1 && !stops.length) break;
  }
  let behind = [[255, 255, 255, 1]];
  for (const layer of layers.reverse()) behind = layer.flatMap((top) => behind.map((bottom) => over(top, bottom)));
  return behind;
}

/**
 * The text of an element's shadow root whose colour contrast is under WCAG 1.4.3's minimum (4.5:1,
 * or 3:1 for large text) against any background it may sit on, computed from the computed styles
 * (colour, opacity of the text and its ancestors, backgrounds and gradient stops). Text of disabled
 * controls, which 1.4.3 exempts, is left out. Empty when every text passes.
 */
export function lowContrastText(el: Element): string[] {
  const failures: string[] = [];
  const walker = document.createTreeWalker(shadow(el), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = node.textContent!.trim();
    const parent = node.parentElement;
    if (!words || !parent || !parent.getClientRects().length || parent.closest(':disabled, [aria-disabled="true"]')) continue;
    const style = getComputedStyle(parent);
    if (style.visibility !== 'visible') continue;
    let opacity = 1;
    for (let x: Element | null = parent; x; x = composedParent(x)) opacity *= Number(getComputedStyle(x).opacity);
    const [r, g, b, a] = rgba(style.color);
    const size = parseFloat(style.fontSize);
    const minimum = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700) ? 3 : 4.5;
    const worst = Math.min(...backgroundsBehind(parent).map((behind) => contrast(over([r, g, b, a * opacity], behind), behind)));
    if (worst < minimum) failures.push(`"${words.slice(0, 30)}" (${parent.tagName.toLowerCase()}): ${worst.toFixed(2)}:1, under ${minimum}:1`);
  }
  return failures;
}

/**
 * The contrast of an element's drawn border (its top side) against the colours on either side of
 * it (WCAG 1.4.11 non-text contrast): the element's own background inside, the one behind the
 * element outside. The lower of the two, from the computed styles.
 */
export function borderContrast(e: Element): number {
  const border = rgba(getComputedStyle(e).borderTopColor);
  const sides = [...backgroundsBehind(e), ...backgroundsBehind(composedParent(e)!)];
  return Math.min(...sides.map((behind) => contrast(over(border, behind), behind)));
}

/**
 * What of an element's shadow root reaches past the element's own edges (a layout wider than the
 * room the page gave it), or scrolls sideways inside it. Empty when everything fits.
 */
export function overflowing(el: Element): string[] {
  const box = el.getBoundingClientRect();
  const out: string[] = [];
  for (const node of shadow(el).querySelectorAll<HTMLElement>('*')) {
    const r = node.getBoundingClientRect();
    if (!r.width) continue;
    const name = `<${node.tagName.toLowerCase()}${node.id ? ` id="${node.id}"` : ''}${node.className ? ` class="${node.className}"` : ''}>`;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(`${name} spans ${Math.round(r.left)}..${Math.round(r.right)}, the element ${Math.round(box.left)}..${Math.round(box.right)}`);
    else if (node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== 'visible') out.push(`${name} scrolls sideways`);
  }
  return out;
}

/**
 * The lines of text a sighted user sees in an element's shadow root: each element that holds text
 * of its own and is drawn larger than 1 px (what `.visually-hidden` leaves for screen readers).
 */
export function shownTexts(el: Element): string[] {
  const out: string[] = [];
  for (const node of shadow(el).querySelectorAll<HTMLElement>('*')) {
    const own = [...node.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.textContent).join('').replace(/\s+/g, ' ').trim();
    const { width, height } = node.getBoundingClientRect();
    if (own && width > 1 && height > 1 && node.checkVisibility()) out.push(own);
  }
  return out;
}

/**
 * How `words` look on screen inside an element's shadow root (or inside a node of it), read from left to right: its
 * characters sorted by where the browser drew them (each one's box from a Range), spaces and
 * invisible marks left out. Left-to-right data inside right-to-left text (an email, a `+1` phone, a
 * name that ends in punctuation) is shown in its own order only when it is isolated (bdi,
 * dir=auto, Unicode isolates): unisolated, the Unicode bidirectional algorithm moves its
 * punctuation and numbers, and this returns them moved. Throws when no text node holds `words`.
 */
export function drawnLeftToRight(el: Element, words: string): string {
  const walker = document.createTreeWalker(el.shadowRoot ?? el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent!.indexOf(words);
    if (at < 0 || !node.parentElement?.getClientRects().length) continue;
    const drawn: Array<[number, string]> = [];
    for (let i = at; i < at + words.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      // The character's own box: WebKit adds an empty box at the edge of a bidi isolate (FSI, <bdi>)
      // to the range of the character beside it, which its bounding box would take in.
      const box = [...range.getClientRects()].reduce((a, b) => (b.width > a.width ? b : a), new DOMRect());
      const char = node.textContent![i]!;
      if (box.width > 0 && char.trim()) drawn.push([box.left + box.width / 2, char]);
    }
    return drawn.sort((a, b) => a[0] - b[0]).map(([, char]) => char).join('');
  }
  throw new Error(`no shown text holds "${words}"`);
}

/**
 * Opens the new key form of a <delegated-keys> and types `nickname` and a limit per [currency,
 * amount] (its "add a limit" button found by its data-focus, in any language); returns the form's
 * inputs by name (and place).
 */
export async function fillKeyForm(el: Element, nickname: string, limits: Array<[string, string]>): Promise<(name: string, i?: number) => HTMLInputElement> {
  const input = (name: string, i = 0) => shadow(el).querySelectorAll<HTMLInputElement>(`input[name='${name}']`)[i]!;
  (part(el, 'new-button') as HTMLButtonElement).click();
  await settle(el);
  type(input('nickname'), nickname);
  for (const [i, [currency, amount]] of limits.entries()) {
    shadow(el).querySelector<HTMLButtonElement>("[data-focus='add-limit']")!.click();
    await settle(el);
    type(input('currencyCode', i), currency);
    type(input('maxPerTransaction', i), amount);
  }
  await settle(el);
  return input;
}

/** Chooses `status` in the filter of `el` (an <agent-actions>) as a user does: the select's value, then its change event. */
export function chooseFilter(el: Element, status: string): void {
  const select = part(el, 'filter') as HTMLSelectElement;
  select.value = status;
  select.dispatchEvent(new Event('change'));
}

/**
 * The request each poll of <agent-actions> starts with, whatever else that poll sends: under "All"
 * the filter's first page (no status, no cursor; once the element's own first page has loaded, only
 * a poll sends it, or a reload), under another filter the pending list's first page (limit=100).
 */
export function pollStart(filter = 'ALL'): RegExp {
  return filter === 'ALL' ? /\/agents\/me\/actions\?limit=\d+$/ : /\/agents\/me\/actions\?status=PENDING_APPROVAL&limit=100$/;
}

/**
 * Fails every poll of `el` (an <agent-actions>) until the undo, whatever its filter: each request of
 * the list without a cursor that the page sends while the element shows its list (`:state(ready)`)
 * is answered `status` (with `headers`) and an empty body, without reaching the proxy. Its loads
 * (first page, reload, "try again", sent while it loads) and "load more" pages (with a cursor) go
 * out. (Under "All" a poll whose first page fails otherwise than 429 goes on to the pending list:
 * that fails too, and the poll with it.)
 */
export function failPolls(el: Element, status: number, headers: Record<string, string> = {}): () => void {
  const original = window.fetch;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if ((init?.method ?? 'GET') !== 'GET' || !/\/agents\/me\/actions\?(?!.*cursor=)/.test(href) || !el.matches(':state(ready)')) return original(input, init);
    return Promise.resolve(new Response('', { status, headers }));
  };
  return () => {
    window.fetch = original;
  };
}
