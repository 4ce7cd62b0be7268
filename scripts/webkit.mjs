// WebKit for the browser tests: Debian's WebKitGTK MiniBrowser driven over WebDriver (classic) by
// WebKitWebDriver (package webkit2gtk-driver), on a virtual X display (package xvfb). Playwright's
// own WebKit build cannot be downloaded here. A launcher of @web/test-runner of type 'webdriver',
// so that sendKeys and sendMouse of @web/test-runner-commands drive it through WebDriver actions;
// the rig reaches its WebDriver session through `command` and `enqueue` for the commands it can carry
// out over WebDriver classic (test/browser/support/webdriver-classic.ts); those that need Playwright
// or CDP are not available (test/browser/support/README.md).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

const triplets = ['x86_64-linux-gnu', 'aarch64-linux-gnu'];

/** The programs the WebKit run needs, or undefined for each one not found. */
export function findWebKit() {
  const first = (...paths) => paths.find((p) => p && existsSync(p));
  return {
    miniBrowser: first(
      process.env.WEBKIT_MINIBROWSER_PATH,
      ...triplets.map((t) => `/usr/lib/${t}/webkit2gtk-4.1/MiniBrowser`),
      ...triplets.map((t) => `/usr/lib/${t}/webkit2gtk-4.0/MiniBrowser`),
    ),
    driver: first(process.env.WEBKIT_WEBDRIVER_PATH, '/usr/bin/WebKitWebDriver'),
    xvfb: first('/usr/bin/Xvfb'),
  };
}

// WebDriver key codes of the names sendKeys({ press }) takes (Playwright's names).
const KEYS = {
  Backspace: '\uE003', Tab: '\uE004', Enter: '\uE007', Shift: '\uE008', Control: '\uE009',
  Alt: '\uE00A', Escape: '\uE00C', Space: ' ', PageUp: '\uE00E', PageDown: '\uE00F', End: '\uE010',
  Home: '\uE011', ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015',
  Delete: '\uE017', Meta: '\uE03D',
};
const keyOf = (name) => {
  if (KEYS[name]) return KEYS[name];
  if ([...name].length === 1) return name;
  throw new Error(`webkit launcher: no WebDriver code for key "${name}"`);
};
const BUTTONS = { left: 0, middle: 1, right: 2 };

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Starts Xvfb on a display it picks itself; resolves with the child and its display (":N"). */
function startXvfb(xvfb) {
  const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ child, display: `:${out.trim()}` });
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${err.trim()}`)));
  });
}

class WebKitLauncher {
  name = 'WebKit';
  type = 'webdriver';
  urls = new Map();
  children = [];
  driverUrl = undefined;
  miniBrowser = undefined;
  /** The WebDriver session of the test file running now (one at a time: concurrency 1). */
  base = undefined;
  queue = Promise.resolve();

  async initialize() {
    const found = findWebKit();
    const missing = Object.entries(found).filter(([, p]) => !p).map(([k]) => k);
    if (missing.length) {
      throw new Error(`WebKit not found (${missing.join(', ')}): run \`node scripts/ensure.mjs --webkit\` as root`);
    }
    const xvfb = await startXvfb(found.xvfb);
    this.children.push(xvfb.child);
    const port = await freePort();
    const driver = spawn(found.driver, [`--port=${port}`], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.children.push(driver);
    const driverUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ready = await fetch(`${driverUrl}/status`).then((r) => r.ok, () => false);
      if (ready) break;
      if (i === 100 || driver.exitCode !== null) throw new Error(`WebKitWebDriver did not start on port ${port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    this.driverUrl = driverUrl;
    this.miniBrowser = found.miniBrowser;
    this.name = `WebKitGTK ${(await this.open()).browserVersion}`;
    await this.close();
  }

  /**
   * A browser of its own (MiniBrowser in automation mode: its storage ends with it), as Playwright
   * gives each test file a new browser context.
   */
  async open() {
    const capabilities = {
      // Windows opened by a script without a click (window.open), as Playwright's Chromium
      // (--disable-popup-blocking) and the Firefox run allow them.
      alwaysMatch: { 'webkitgtk:browserOptions': { binary: this.miniBrowser, args: ['--automation', '--javascript-can-open-windows-automatically=true'] } },
    };
    // A browser that did not start (MiniBrowser now and then says "cannot open display" on a
    // display it used a file before, and the session never comes) is started again, twice at most,
    // well within the runner's minute for a test page.
    let session;
    for (let attempt = 1; !session; attempt++) {
      session = await this.call('POST', `${this.driverUrl}/session`, { capabilities }, AbortSignal.timeout(15_000)).catch((e) => {
        if (attempt === 3) throw e;
        console.error(`webkit launcher: no browser session (${e.message}); starting another`);
      });
    }
    const { sessionId, capabilities: given } = session;
    this.base = `${this.driverUrl}/session/${sessionId}`;
    // The viewport Playwright gives Chromium's pages.
    await this.command('POST', '/window/rect', { width: 800, height: 600 });
    return given;
  }

  async close() {
    const base = this.base;
    this.base = undefined;
    if (base) await this.call('DELETE', base);
  }

  async call(method, url, body, signal) {
    const res = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    const { value } = await res.json();
    if (!res.ok) throw new Error(`WebDriver ${method} ${url}: ${value?.error}: ${value?.message}`);
    return value;
  }

  command(method, path, body) {
    return this.call(method, `${this.base}${path}`, body);
  }

  // One page at a time (concurrency 1): commands are queued in order.
  enqueue(fn) {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => {});
    return next;
  }

  async startSession(id, url) {
    this.urls.set(id, url);
    await this.enqueue(() => this.open());
    // As @web/test-runner-webdriver does: the navigation is not awaited (it ends at the page's load
    // event); the page reports to the runner itself.
    this.enqueue(() => this.command('POST', '/url', { url })).catch((e) => console.error(e.message));
  }

  isActive(id) {
    return this.urls.has(id);
  }

  getBrowserUrl(id) {
    return this.urls.get(id);
  }

  async stopSession(id) {
    await this.enqueue(() => this.close());
    this.urls.delete(id);
    return {};
  }

  async startDebugSession() {
    throw new Error('webkit launcher: no debug session (the browser runs on a virtual display)');
  }

  actions(list) {
    return this.enqueue(async () => {
      await this.command('POST', '/actions', { actions: list });
      await this.command('DELETE', '/actions');
    });
  }

  sendKeys(_id, keys) {
    const ticks = [];
    for (const item of keys) {
      const parts = item.length > 1 ? item.split('+').map(keyOf) : [item];
      for (const value of parts) ticks.push({ type: 'keyDown', value });
      for (const value of parts.reverse()) ticks.push({ type: 'keyUp', value });
    }
    return this.actions([{ type: 'key', id: 'keyboard', actions: ticks }]);
  }

  pointer(actions) {
    return this.actions([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }]);
  }

  sendMouseMove(_id, x, y) {
    return this.pointer([{ type: 'pointerMove', duration: 0, x, y }]);
  }

  sendMouseClick(_id, x, y, button = 'left') {
    const b = BUTTONS[button];
    return this.pointer([
      { type: 'pointerMove', duration: 0, x, y },
      { type: 'pointerDown', button: b },
      { type: 'pointerUp', button: b },
    ]);
  }

  sendMouseDown(_id, button = 'left') {
    return this.pointer([{ type: 'pointerDown', button: BUTTONS[button] }]);
  }

  sendMouseUp(_id, button = 'left') {
    return this.pointer([{ type: 'pointerUp', button: BUTTONS[button] }]);
  }

  resetMouse() {
    return this.pointer([{ type: 'pointerMove', duration: 0, x: 0, y: 0 }]);
  }

  async stop() {
    await this.close().catch(() => {});
    // The driver first (it ends its browsers), then the display; each waited for, so that none is left behind.
    for (const child of this.children.splice(0).reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
  }
}

export function webkitLauncher() {
  return new WebKitLauncher();
}
