/**
 * The rig's commands that WebDriver classic can carry out (WebKit: scripts/webkit.mjs holds the
 * session), for wallet-rig.ts: the text of the page's child frames, cross-origin ones included,
 * by switching into each; and the user's click in the sign-in window the page opened, by switching
 * to that window. Each leaves the session where the test page is: its window, its top frame.
 */

/** What the rig uses of the launcher (scripts/webkit.mjs): its session's commands, queued one at a time. */
export interface WebDriverClassic {
  type: 'webdriver';
  /** A command of the session (`path` after `/session/{id}`); its `value`, or an Error naming the WebDriver error. */
  command(method: string, path: string, body?: unknown): Promise<unknown>;
  /** `fn` once the commands queued before it (the page's load, sendKeys, sendMouse) are done, and before any queued after. */
  enqueue<T>(fn: () => Promise<T>): Promise<T>;
}

/** A WebDriver element reference (W3C WebDriver §12.1). */
type ElementRef = Record<'element-6066-11e4-a52e-4f735466cecf', string>;

/** The frames of the document the script runs in, shadow trees included (where <card-reveal> puts its iframe), in tree order. */
const FRAMES_HERE = `const found = [];
const walk = (root) => {
  for (const el of root.querySelectorAll('*')) {
    if (el.localName === 'iframe' || el.localName === 'frame') found.push(el);
    if (el.shadowRoot) walk(el.shadowRoot);
  }
};
walk(document);
return found;`;

/** Origin and path of the document the script runs in (as Chromium's frame URL gives them: `null` for about:blank), never its query; its text. */
const FRAME_TEXT = `const url = new URL(location.href);
return { origin: url.origin, pathname: url.pathname, text: document.body ? document.body.innerText : '' };`;

export interface FrameText {
  origin: string;
  pathname: string;
  text: string;
}

/**
 * The page's frames at every depth (the top document, the test page, left out), as `page-frames`
 * answers in Chromium: each reached from the top through the frame elements above it. A frame gone
 * or navigating meanwhile is left out (the caller asks again).
 */
export function childFrames(wd: WebDriverClassic): Promise<FrameText[]> {
  return wd.enqueue(async () => {
    const found: FrameText[] = [];
    const enter = async (path: ElementRef[]) => {
      await wd.command('POST', '/frame', { id: null });
      for (const id of path) await wd.command('POST', '/frame', { id });
    };
    try {
      const queue: ElementRef[][] = [[]];
      for (let path = queue.shift(); path; path = queue.shift()) {
        const read = await enter(path)
          .then(async () => ({
            here: path.length ? ((await wd.command('POST', '/execute/sync', { script: FRAME_TEXT, args: [] })) as FrameText) : undefined,
            frames: (await wd.command('POST', '/execute/sync', { script: FRAMES_HERE, args: [] })) as ElementRef[],
          }))
          .catch(() => undefined);
        if (!read) continue;
        if (read.here) found.push(read.here);
        for (const frame of read.frames) queue.push([...path, frame]);
      }
    } finally {
      await wd.command('POST', '/frame', { id: null });
    }
    return found;
  });
}

/**
 * The user's click on the element `selector` in the window whose URL starts with `url` (one the
 * page opened), once there (within `ms`); then back to the test page's window.
 */
export function clickInWindow(wd: WebDriverClassic, url: string, selector: string, ms: number): Promise<void> {
  return wd.enqueue(async () => {
    const home = (await wd.command('GET', '/window')) as string;
    try {
      for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 50))) {
        for (const handle of (await wd.command('GET', '/window/handles')) as string[]) {
          if (handle === home) continue;
          const button = await wd
            .command('POST', '/window', { handle })
            .then(async () => (String(await wd.command('GET', '/url')).startsWith(url) ? ((await wd.command('POST', '/element', { using: 'css selector', value: selector })) as ElementRef) : undefined))
            // A window closed meanwhile, or its page not yet there.
            .catch(() => undefined);
          if (!button) continue;
          await wd.command('POST', `/element/${button['element-6066-11e4-a52e-4f735466cecf']}/click`, {});
          return;
        }
        if (Date.now() > end) throw new Error(`no window at ${url}`);
      }
    } finally {
      await wd.command('POST', '/window', { handle: home });
    }
  });
}

/** A cookie as WebDriver's Get All Cookies gives it (W3C WebDriver §14.1). */
interface WebDriverCookie {
  name: string;
  value: string;
  path: string;
  httpOnly: boolean;
}

/** The cookies WebDriver gives for the test page (its window, its top frame), HttpOnly ones included. */
export function webDriverCookies(wd: WebDriverClassic): Promise<WebDriverCookie[]> {
  return wd.enqueue(async () => ((await wd.command('GET', '/cookie')) as WebDriverCookie[]).map(({ name, value, path, httpOnly }) => ({ name, value, path, httpOnly })));
}
