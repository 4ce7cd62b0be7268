/**
 * Load harness (runs in Chromium, loaded before the clock starts): `measure(url)` records the time
 * from `import(url)` to the first render of the element that module mounts, where "first render"
 * is the same observable event for every contender: the element's shadow root (or, without one,
 * the element) first holds an element node. The check runs on every macrotask turn (a
 * MessageChannel tick, which is not clamped like setTimeout), so the resolution is a few
 * microseconds and no contender is favoured by a framework's own scheduler.
 */
/** A load page that mounts its element, or an element's own entry (bundled, or its CDN module). */
interface Mountable {
  mount?(parent: HTMLElement, attributes: Record<string, string>): Promise<HTMLElement>;
  configureWallet?(config: { apiBase: string; environment: string }): void;
}

export interface LoadSample {
  /** import() resolved: fetched, parsed, evaluated. */
  importMs: number;
  /** mount() resolved (element created and attached). */
  mountMs: number;
  /** First rendered content in the element's shadow root. */
  firstRenderMs: number;
  /** The first rendered markup, truncated, so the report can say what was rendered. */
  firstMarkup: string;
}

const channel = new MessageChannel();
const tick = (): Promise<unknown> =>
  new Promise((resolve) => {
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(0);
  });

/**
 * `tag`: the module is an element's own entry: the page's script configures it and adds the
 * element, as a page's `<script type="module">` does once the import resolved. Without: its `mount`.
 */
async function measure(url: string, attributes: Record<string, string> = {}, tag?: string, timeoutMs = 5000): Promise<LoadSample> {
  const t0 = performance.now();
  const mod = (await import(url)) as Mountable;
  const importMs = performance.now() - t0;
  // Awaited alike: every contender is first looked for once the microtasks its mounting queued have
  // run (Lit renders in one, as a framework may), then on every macrotask turn. Looked for at once
  // and then only a macrotask later, an element that rendered in between is seen only after the
  // browser's next rendering step: <wallet-login> measured 16 ms more from create to first render.
  const el = await (tag ? mountTag(mod, tag, attributes) : mod.mount!(document.body, attributes));
  const mountMs = performance.now() - t0;
  for (;;) {
    const root: ParentNode = el.shadowRoot ?? el;
    const first = root.querySelector('*');
    if (first) {
      const firstRenderMs = performance.now() - t0;
      return { importMs, mountMs, firstRenderMs, firstMarkup: (el.shadowRoot ?? el).innerHTML.replace(/\s+/g, ' ').slice(0, 160) };
    }
    if (performance.now() - t0 > timeoutMs) throw new Error(`${url}: nothing rendered within ${timeoutMs} ms`);
    await tick();
  }
}

async function mountTag(mod: Mountable, tag: string, attributes: Record<string, string>): Promise<HTMLElement> {
  mod.configureWallet?.({ apiBase: '/api', environment: 'sandbox' });
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  document.body.append(el);
  return el;
}

Object.assign(globalThis, { bench: { measure } });
