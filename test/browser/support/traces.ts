/**
 * The leak canary's page side: everything of this page that could keep a secret once a flow has
 * run, collected so that the rig (`leak-scan`, wallet-rig.ts) greps it together with what only the
 * test runner's process sees (the browser console and uncaught errors over CDP, the proxies' log and
 * onError, the sandbox's and proxy's stdout/stderr, the sandbox's reveal audit, the cookie jar).
 *
 * Page sinks: every CustomEvent's detail (any element, any shadow root), every BroadcastChannel
 * message (any channel), uncaught errors and rejections, the page's console calls (their
 * arguments), Resource Timing and every other performance entry (buffer and observer), the URL,
 * history and referrer, DOM attributes and text of the
 * document and of every open shadow root (no exception: the reveal URL reaches the processor's
 * iframe as a navigation inside it, on no attribute), the elements' properties (the integrator's inputs
 * left out), localStorage, sessionStorage, IndexedDB (every database, store, key and value), Cache
 * Storage (requests and bodies), script-readable cookies and Web Lock names. Private keys found in
 * IndexedDB must be non-extractable CryptoKeys.
 *
 * A marker (a UUID) is put into each sink first; a sink where the scan does not find it is blind,
 * and the test says so. Nothing here changes what the elements do: dispatchEvent and postMessage
 * are observed (the originals called), and every plant is removed at the end.
 */
import { leakScan, leakWatch, type LeakScan } from './rig.ts';
import { SESSION_CHANNEL_NAME } from '../../../src/elements/shared/session-channel.ts';

const MARK = 'leak-canary';

/** The console's writing methods, each wrapped while a watch is on. */
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'dirxml', 'table', 'assert', 'group', 'groupCollapsed', 'count', 'timeLog'] as const;

/** Inputs the integrator gives an element (a credential of its own, a callback): where they belong. */
const INTEGRATOR_INPUTS = new Set(['agentToken', 'oidcTokenProvider']);

export interface Trail {
  marker: string;
  /** A secret of the flow, under a name the report uses. */
  secret(name: string, value: string | null | undefined): void;
  /** Adds the page's sinks as they are now (call while something is shown, and after). */
  snapshot(label: string): Promise<void>;
  /** A last snapshot, the plants removed, then the scan. */
  scan(): Promise<LeakScan & { problems: string[] }>;
  /** Removes the plants and observers (after a failed test too). */
  stop(): Promise<void>;
}

function describe(value: unknown, depth = 0): string {
  if (depth > 8) return '…';
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'function') return `function ${value.name}`;
  if (typeof value !== 'object') return String(value);
  if (value instanceof CryptoKey) return `CryptoKey(${value.type}, ${value.algorithm.name}, extractable ${value.extractable})`;
  if (value instanceof Error) return `${value.name}: ${value.message} ${describe((value as { cause?: unknown }).cause, depth + 1)} ${value.stack ?? ''}`;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  if (value instanceof Node) return `<${value.nodeName}>`;
  if (Array.isArray(value)) return `[${value.map((v) => describe(v, depth + 1)).join(', ')}]`;
  if (value instanceof Map) return `Map{${[...value].map(([k, v]) => `${describe(k, depth + 1)}: ${describe(v, depth + 1)}`).join(', ')}}`;
  const out: string[] = [];
  for (const key of Object.keys(value)) {
    let v: unknown;
    try {
      v = (value as Record<string, unknown>)[key];
    } catch {
      v = '<throws>';
    }
    out.push(`${key}: ${describe(v, depth + 1)}`);
  }
  return `{${out.join(', ')}}`;
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** Every database, store, key and value of this origin's IndexedDB; private keys that are extractable go to `problems`. */
async function indexedDbText(problems: string[]): Promise<string> {
  const out: string[] = [];
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue;
    const db = await request(indexedDB.open(info.name));
    try {
      for (const name of db.objectStoreNames) {
        const store = db.transaction(name).objectStore(name);
        const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
        out.push(`${info.name}/${name}: ${describe(keys)} => ${describe(values)}`);
        const keysIn = (v: unknown, depth = 0): CryptoKey[] =>
          v instanceof CryptoKey ? [v] : v && typeof v === 'object' && depth < 6 ? Object.values(v).flatMap((x) => keysIn(x, depth + 1)) : [];
        for (const key of keysIn(values)) {
          if (key.type === 'private' && key.extractable) problems.push(`an extractable private key in IndexedDB ${info.name}/${name}`);
        }
      }
    } finally {
      db.close();
    }
  }
  return out.join('\n');
}

async function cacheStorageText(): Promise<string> {
  const out: string[] = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const req of await cache.keys()) {
      const res = await cache.match(req);
      out.push(`${name}: ${req.url} => ${res ? await res.text() : ''}`);
    }
  }
  return out.join('\n');
}

/** Attributes and text of the document and every open shadow root. */
function domText(): string {
  const out: string[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const node of root.querySelectorAll('*')) {
      for (const attr of node.attributes) {
        out.push(`${node.localName}[${attr.name}=${attr.value}]`);
      }
      if (node.shadowRoot) walk(node.shadowRoot);
    }
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = texts.nextNode(); t; t = texts.nextNode()) if (t.textContent?.trim()) out.push(t.textContent.trim());
  };
  walk(document);
  return out.join('\n');
}

/** The wallet elements' properties (own and reactive), the integrator's inputs left out. */
function propertiesText(): string {
  const out: string[] = [];
  const each = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName.includes('-')) {
        const reactive = [...((el.constructor as { elementProperties?: Map<string, unknown> }).elementProperties?.keys() ?? [])].map(String);
        for (const key of new Set([...Object.getOwnPropertyNames(el), ...reactive])) {
          if (INTEGRATOR_INPUTS.has(key)) continue;
          let v: unknown;
          try {
            v = (el as unknown as Record<string, unknown>)[key];
          } catch {
            continue;
          }
          out.push(`${el.localName}.${key} = ${describe(v)}`);
        }
      }
      if (el.shadowRoot) each(el.shadowRoot);
    }
  };
  each(document);
  return out.join('\n');
}

function storageText(storage: Storage): string {
  return Object.keys(storage).map((k) => `${k} = ${storage.getItem(k)}`).join('\n');
}

/** Starts watching: the rig's side (leak-watch), this page's observers, and the marker in every sink. */
export async function watchForLeaks(options: { apiBase: string }): Promise<Trail> {
  await leakWatch();
  const marker = crypto.randomUUID();
  const secrets: Record<string, string[]> = {};
  const sinks: Record<string, string[]> = {};
  const add = (sink: string, text: string) => (sinks[sink] ??= []).push(text);
  const problems: string[] = [];

  // Observed, not changed: every event any element dispatches, every message any channel posts.
  const dispatch = EventTarget.prototype.dispatchEvent;
  EventTarget.prototype.dispatchEvent = function (this: EventTarget, event: Event) {
    if (event instanceof CustomEvent || event instanceof ErrorEvent) add('event details', `${event.type} ${describe(event instanceof CustomEvent ? event.detail : event.message)}`);
    return dispatch.call(this, event);
  };
  const post = BroadcastChannel.prototype.postMessage;
  BroadcastChannel.prototype.postMessage = function (this: BroadcastChannel, message: unknown) {
    add('BroadcastChannel messages', `${this.name} (sent) ${describe(message)}`);
    return post.call(this, message);
  };
  // Another tab's ear on the elements' own channel.
  const ear = new BroadcastChannel(SESSION_CHANNEL_NAME);
  ear.onmessage = (e) => add('BroadcastChannel messages', `${SESSION_CHANNEL_NAME} (heard) ${describe(e.data)}`);
  const onError = (e: ErrorEvent) => add('uncaught errors (page)', `${e.message} ${describe(e.error)}`);
  const onRejection = (e: PromiseRejectionEvent) => add('uncaught errors (page)', describe(e.reason));
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  // What the page's scripts write to the console, as they write it: the only console WebKit's run
  // can read (the browser's own reports there are unseen: README.md, In WebKit).
  const consoleCalls = CONSOLE_METHODS.map((name) => [name, console[name]] as const);
  for (const [name, write] of consoleCalls) {
    console[name] = (...args: unknown[]) => {
      add('console calls (page)', `${name}: ${args.map((a) => describe(a)).join(' ')}`);
      (write as (...a: unknown[]) => void).apply(console, args);
    };
  }
  // An analytics script's observer, there before the flow.
  // Every entry type the browser has, each entry whole (a long task's attribution carries URLs too).
  const observer = new PerformanceObserver((list) => add('performance entries (observer)', list.getEntries().map((e) => JSON.stringify(e)).join('\n')));
  observer.observe({ entryTypes: [...PerformanceObserver.supportedEntryTypes] });

  // The marker in each sink.
  const markerUrl = `/test/browser/support/import-probe.ts?${MARK}=${marker}`;
  console.info(`${MARK} ${marker}`);
  localStorage.setItem(MARK, marker);
  sessionStorage.setItem(MARK, marker);
  document.cookie = `${MARK}=${marker}; path=/; SameSite=Strict`;
  const markDb = `${MARK}-${marker}`;
  const db = await request(
    (() => {
      const open = indexedDB.open(markDb);
      open.onupgradeneeded = () => open.result.createObjectStore('marker');
      return open;
    })(),
  );
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction('marker', 'readwrite');
    tx.objectStore('marker').put(marker, MARK);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
  await (await caches.open(MARK)).put(markerUrl, new Response(marker));
  const historyState: unknown = history.state;
  history.replaceState({ [MARK]: marker }, '');
  document.body.dataset['leakCanary'] = marker;
  document.body.dispatchEvent(new CustomEvent(MARK, { detail: { marker } }));
  const other = new BroadcastChannel(SESSION_CHANNEL_NAME);
  other.postMessage({ type: MARK, marker });
  other.close();
  await fetch(markerUrl);
  // A Request-Id the proxy logs (any valid one is; an id is no secret).
  await fetch(`${options.apiBase}/agents/actions?limit=1`, { headers: { 'request-id': `Request:${marker}` } });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    EventTarget.prototype.dispatchEvent = dispatch;
    BroadcastChannel.prototype.postMessage = post;
    ear.close();
    removeEventListener('error', onError);
    removeEventListener('unhandledrejection', onRejection);
    for (const [name, write] of consoleCalls) (console as unknown as Record<string, unknown>)[name] = write;
    observer.disconnect();
    localStorage.removeItem(MARK);
    sessionStorage.removeItem(MARK);
    document.cookie = `${MARK}=; path=/; max-age=0`;
    indexedDB.deleteDatabase(markDb);
    await caches.delete(MARK);
    history.replaceState(historyState, '');
    delete document.body.dataset['leakCanary'];
  };

  const snapshot = async (label: string) => {
    const at = `-- ${label}`;
    add('localStorage', `${at}\n${storageText(localStorage)}`);
    add('sessionStorage', `${at}\n${storageText(sessionStorage)}`);
    add('IndexedDB', `${at}\n${await indexedDbText(problems)}`);
    add('Cache Storage', `${at}\n${await cacheStorageText()}`);
    add('cookies (document.cookie)', `${at}\n${document.cookie}`);
    add('Resource Timing and other performance entries', `${at}\n${performance.getEntries().map((e) => JSON.stringify(e)).join('\n')}`);
    add('URL and history', `${at}\n${location.href}\n${describe(history.state)}\n${history.length}\n${document.referrer}\n${document.title}`);
    add('DOM attributes and text (shadow roots included)', `${at}\n${domText()}`);
    add('element properties', `${at}\n${propertiesText()}`);
    const locks = await navigator.locks.query();
    add('Web Lock names', `${at}\n${[...(locks.held ?? []), ...(locks.pending ?? [])].map((l) => l.name).join('\n')}`);
  };

  return {
    marker,
    secret(name, value) {
      if (value) (secrets[name] ??= []).push(value);
    },
    snapshot,
    async scan() {
      await snapshot('at the end');
      const haystacks = Object.fromEntries(Object.entries(sinks).map(([sink, texts]) => [sink, texts.join('\n')]));
      const marked = [
        'localStorage',
        'sessionStorage',
        'IndexedDB',
        'Cache Storage',
        'cookies (document.cookie)',
        'Resource Timing and other performance entries',
        'performance entries (observer)',
        'URL and history',
        'DOM attributes and text (shadow roots included)',
        'event details',
        'BroadcastChannel messages',
        'console calls (page)',
        'the browser console (CDP)',
        'the proxy log and onError',
        'cookies (all, HttpOnly included)',
      ];
      // The plants stay until the rig has read the cookie jar. The line written last is the one the
      // rig waits for in the browser console before it reads it.
      const last = `${MARK} ${marker} end`;
      console.info(last);
      const scan = await leakScan({ haystacks, secrets, marker, marked, last });
      await stop();
      return { ...scan, problems };
    },
    stop,
  };
}
