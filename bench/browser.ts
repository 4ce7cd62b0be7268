/**
 * The browser side of the benchmarks: page bundles built by esbuild into bench/.tmp/, a small
 * node:http static server on 127.0.0.1 (port 0) that can also mount a request handler (the proxy)
 * under a path so that pages talk to it same-origin, and Debian's Chromium launched through
 * Playwright with the flags of scripts/chromium.mjs.
 *
 * Deliberately not a test rig: no assertions here, only timing plumbing.
 */
import { build } from 'esbuild';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright';
import { PRODUCTION_BUILD, ROOT } from './size.ts';

export const TMP = join(ROOT, 'bench/.tmp');

// scripts/chromium.mjs is plain JavaScript shared with the test rig; typed here at the import.
const chromiumPath = '../scripts/chromium.mjs';
const { chromiumArgs, findChromium } = (await import(chromiumPath)) as {
  chromiumArgs: string[];
  findChromium(): string | undefined;
};

/**
 * Bundles page scripts for production (minified, `NODE_ENV=production`), as an integrator's
 * build would, so that timings are not those of development builds of lit.
 */
export async function bundlePages(entries: Record<string, string>, options: { splitting?: boolean } = {}): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  await build({
    ...PRODUCTION_BUILD,
    entryPoints: Object.entries(entries).map(([out, input]) => ({ out, in: join(ROOT, input) })),
    outdir: TMP,
    splitting: options.splitting ?? false,
    external: ['viem', 'viem/*'],
    logLevel: 'warning',
  });
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css',
};

export type Mount = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface StaticServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** http://localhost:PORT, the same server (WebAuthn needs a domain as RP id, not an IP). */
  localhostOrigin: string;
  close(): Promise<void>;
}

/**
 * Serves bench/.tmp/ and `/<name>.html` pages that load `/<name>.js` as a module; `mounts` maps a
 * path prefix (e.g. `/api`) to a handler that receives the request unchanged.
 */
export async function startStaticServer(mounts: Record<string, Mount> = {}): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    for (const [prefix, handler] of Object.entries(mounts)) {
      if (url.pathname === prefix || url.pathname.startsWith(prefix + '/')) {
        Promise.resolve(handler(req, res)).catch((err) => {
          if (!res.headersSent) res.writeHead(500);
          res.end(String(err));
        });
        return;
      }
    }
    const html = /^\/([a-z0-9-]+)\.html$/.exec(url.pathname);
    if (html) {
      res.writeHead(200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-store' });
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${html[1]}</title></head><body></body></html>`);
      return;
    }
    const file = normalize(join(TMP, url.pathname));
    if (!file.startsWith(TMP + '/') || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    localhostOrigin: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium not found: install Debian chromium or set CHROMIUM_PATH');
  return chromium.launch({ executablePath, args: chromiumArgs, headless: true });
}

/** Median of a non-empty list. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The value at quantile q (0..1) by nearest rank. */
export function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}
