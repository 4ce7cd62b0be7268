/**
 * For the packaging tests that load built files in Chromium (the CDN builds, the literal
 * minifier): a loopback server that answers from a route function, with a strict Content Security
 * Policy on every answer (`default-src 'self'`, no 'unsafe-inline', no 'unsafe-eval'; DESIGN.md
 * "Strict CSP") and the service's 404 error body for anything else, plus one Chromium.
 *
 * `bundleApp` builds a page's script the way an application would.
 * `open(path)` loads a page whose last module script reports through the title ("done " + JSON)
 * and answers that JSON with the page errors and CSP complaints seen on the way.
 */
import { build, type Plugin } from 'esbuild';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright';
import { launchChromium } from '../../../bench/browser.ts';
import { PRODUCTION_BUILD, ROOT } from '../../../bench/size.ts';

/**
 * Trusted Types enforced too, with Lit's policy (`lit-html`) the only one allowed (README
 * "Content-Security-Policy"): a string written into an HTML or script sink, by the elements or by
 * the code a build added around them, is refused and reported.
 */
export const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types lit-html";

/** `csp`: a policy of the page's own in place of STRICT_CSP (a page that needs another `base-uri`). */
export type Answer = { type: 'html' | 'js'; body: string | Uint8Array; csp?: string };

const TYPES = { html: 'text/html; charset=utf-8', js: 'text/javascript' };

export interface PageRig {
  origin: string;
  browser: Browser;
  /**
   * Paths the page of the last `open` asked for. A request that a page closed before reaches the
   * server late is not counted: each page marks its requests with its own header.
   */
  requested: string[];
  /**
   * `strictConsole`: every console error and warning is a problem too (except the browser's own
   * line for a failed resource, which the 404s of an absent service produce).
   */
  open<T = Record<string, unknown>>(path: string, options?: { strictConsole?: boolean }): Promise<{ result: T; problems: string[] }>;
  close(): Promise<void>;
}

/** A page: the given body, in English, with a title the check script replaces. */
export const htmlPage = (body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>test</title></head><body>${body}</body></html>`;

/**
 * One ES module for a page, bundled as an application's build would (bench/size.ts
 * PRODUCTION_BUILD, but one file and not minified, so that a failure reads): `source` is
 * TypeScript whose imports resolve from the repository root.
 */
export async function bundleApp(source: string, options: { nodeEnv: 'production' | 'development'; plugins?: Plugin[] }): Promise<string> {
  const result = await build({
    ...PRODUCTION_BUILD,
    minify: false,
    splitting: false,
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts', sourcefile: 'app.ts' },
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify(options.nodeEnv) },
    plugins: options.plugins ?? [],
  });
  return result.outputFiles[0]!.text;
}

/** `route` may answer later (a promise): to hold a file back while the page goes on asking for others. */
export async function startPageRig(route: (path: string) => Answer | undefined | Promise<Answer | undefined>): Promise<PageRig> {
  const requested: string[] = [];
  let current = '';
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.headers['x-rig-page'] === current) requested.push(path);
    const answer = await route(path);
    const headers = { 'content-security-policy': answer?.csp ?? STRICT_CSP, 'cache-control': 'no-store' };
    // The elements may ask the proxy for data on connect; there is none here.
    if (!answer) res.writeHead(404, { ...headers, 'content-type': 'application/json' }).end('{"status":404,"code":"NOT_FOUND","message":"none"}');
    else res.writeHead(200, { ...headers, 'content-type': TYPES[answer.type] }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  let opened = 0;
  return {
    origin,
    browser,
    requested,
    async open<T>(path: string, options: { strictConsole?: boolean } = {}) {
      requested.length = 0;
      current = String(++opened);
      const page = await browser.newPage({ extraHTTPHeaders: { 'x-rig-page': current } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        const loud = options.strictConsole && (m.type() === 'error' || m.type() === 'warning') && !/^Failed to load resource/.test(m.text());
        if (loud || /Content Security Policy|Refused to|Trusted ?(HTML|Script|Types?)/i.test(m.text())) problems.push(`console: ${m.text()}`);
      });
      try {
        await page.goto(`${origin}${path}`);
        await page.waitForFunction(() => document.title.startsWith('done '), undefined, { timeout: 15000 });
        return { result: JSON.parse((await page.title()).slice(5)) as T, problems };
      } finally {
        await page.close();
      }
    },
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
