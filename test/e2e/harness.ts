/**
 * End-to-end harness: runs the real `npm start` program (scripts/start.ts) on a free port as a
 * child process, launches Debian's Chromium through playwright-core with the flags of
 * scripts/chromium.mjs, and records everything a page reports that a user must never cause:
 * console errors and warnings, uncaught exceptions, CSP violations (from the
 * `securitypolicyviolation` event and from the console), and failed requests.
 *
 * Deliberately not here: any step of the walk (demo.test.ts) and any mock: the sandbox, the
 * proxy, vite's build and the browser are the real ones.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
// @ts-expect-error - a plain .mjs module without declarations
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';
import { addVirtualAuthenticator } from '../support/virtual-authenticator.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export interface Demo {
  url: string;
  /** Everything the start script wrote to stderr (proxy log lines, build messages). */
  stderr: string[];
  stop(): Promise<void>;
}

/** Starts scripts/start.ts as `npm start` does (after ensure.mjs) and waits for its address line. */
export async function startDemo(port: number, timeoutMs = 120_000): Promise<Demo> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(...chunk.split('\n').filter(Boolean)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`start printed no address within ${timeoutMs} ms:\n${stderr.join('\n')}`)), timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((l) => /^http:\/\/localhost:\d+\/$/.test(l.trim()));
      if (line) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start exited with ${code}:\n${stderr.join('\n')}`));
    });
  });
  return {
    url,
    stderr,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      // Only the process this harness started, by its id.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium() as string, args: chromiumArgs as string[] });
}

export interface Problems {
  console: string[];
  pageErrors: string[];
  csp: string[];
  failedRequests: string[];
}

/** Records problems on every page of the context (popups included). */
export async function watch(context: BrowserContext): Promise<Problems> {
  const problems: Problems = { console: [], pageErrors: [], csp: [], failedRequests: [] };
  await context.exposeBinding('__reportCsp', (_source, line: string) => {
    problems.csp.push(line);
  });
  // Runs before any page script, outside the page's CSP.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCsp(line: string): void }).__reportCsp(`${location.origin}: ${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
  const attach = (page: Page) => {
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.console.push(`${m.type()}: ${m.text()} (${page.url().split('?')[0]})`);
      if (/Content Security Policy/i.test(m.text())) problems.csp.push(m.text());
    });
    page.on('pageerror', (e) => problems.pageErrors.push(e.message));
    page.on('crash', () => problems.pageErrors.push(`the page crashed: ${page.url().split('?')[0]}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.failedRequests.push(`${r.request().method()} ${r.url().split('?')[0]}: ${r.status()}`);
    });
    page.on('requestfailed', (r) => {
      // A navigation the page itself cancels (an iframe removed at expiry) is not a failure.
      if (r.failure()?.errorText === 'net::ERR_ABORTED') return;
      problems.failedRequests.push(`${r.method()} ${r.url().split('?')[0]}: ${r.failure()?.errorText}`);
    });
  };
  context.on('page', attach);
  for (const p of context.pages()) attach(p);
  return problems;
}

/** Waits until the element matches `:state(name)`. */
export async function waitForState(page: Page, selector: string, state: string, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    ([sel, st]) => document.querySelector(sel!)?.matches(`:state(${st})`) === true,
    [selector, state],
    { timeout },
  );
}

/** A WebAuthn platform authenticator for the page (Chromium's virtual authenticator over CDP). */
export interface Authenticator {
  /** How many credentials the authenticator holds. */
  count(): Promise<number>;
  /** Whether the authenticator answers at once, as if the user touched it (on by default). */
  setPresence(enabled: boolean): Promise<void>;
}

export async function virtualAuthenticator(page: Page): Promise<Authenticator> {
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  return {
    count: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length,
    setPresence: async (enabled) => {
      await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled });
    },
  };
}

/** Resolves with `pick(detail)` of the next event of that name on the document (rejects after `timeout`). */
export function nextEvent<T>(page: Page, name: string, pick: string, timeout = 30_000): Promise<T> {
  return page.evaluate(
    ([eventName, path, ms]) =>
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${eventName} event within ${ms} ms`)), ms as number);
        document.addEventListener(
          eventName as string,
          (e) => {
            clearTimeout(timer);
            let value: unknown = (e as CustomEvent).detail;
            for (const key of (path as string).split('.')) value = (value as Record<string, unknown>)[key];
            resolve(value as T);
          },
          { once: true },
        );
      }),
    [name, pick, timeout] as const,
  );
}
