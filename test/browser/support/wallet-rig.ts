/**
 * The browser test rig's server side: a @web/test-runner plugin that starts the real sandbox and
 * the real proxy in the test runner's own process, mounts the proxy at `/api` on the test server's
 * origin (same origin, as in production; the page is http://localhost:PORT so that the WebAuthn
 * RP id is `localhost`), and answers the server commands that tests send with
 * `executeServerCommand` (see README.md next to this file for the list).
 *
 * The Basic credentials stay in this process: `sandbox-fixtures` hands tests ids (and the agent's
 * own token, which is the agent's credential, not the platform's), never the client secret.
 * Deliberately not here: any test logic; the commands are thin handles on real parts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, Next } from 'koa';
import type { TestRunnerPlugin } from '@web/test-runner-core';
import { startSandbox } from '../../../src/sandbox/index.ts';
import { verifyStamp } from '../../../src/sandbox/service-stamps.ts';
import type { ProxyHandler } from '../../../src/proxy/index.ts';
import type { SandboxFixtures } from '../../../src/core/types.ts';
import { addVirtualAuthenticator } from '../../support/virtual-authenticator.ts';
import { testProxy } from '../../support/test-proxy.ts';
import type { SandboxAccount } from '../../support/sandbox-account.ts';
import { childFrames, clickInWindow, webDriverCookies, type WebDriverClassic } from './webdriver-classic.ts';

export interface WalletRigOptions {
  /** Where the proxy is mounted on the test server. Default '/api'. */
  basePath?: string;
  /** Options passed to startSandbox (lifetimes etc.); the test clock is always enabled. */
  sandbox?: Record<string, unknown>;
}

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** The CDP session holding each page's time zone override ('time-zone'). */
const timeZones = new Map<string, { detach(): Promise<void> }>();

interface VirtualAuthenticator {
  cdp: { send(method: string, params?: Record<string, unknown>): Promise<unknown>; detach(): Promise<void> };
  authenticatorId: string;
}

/**
 * Commands that only Chromium can carry out (over CDP, through Playwright), with the reason. In
 * another browser (Firefox through puppeteer-core over WebDriver BiDi, web-test-runner.firefox.config.mjs)
 * they answer `{unsupported: reason}` and rig.ts marks the test that asked pending.
 */
const CHROMIUM_ONLY: Record<string, string> = {
  'webauthn-add-virtual-authenticator': 'no virtual WebAuthn authenticator (CDP WebAuthn domain)',
  'webauthn-credentials': 'no virtual WebAuthn authenticator (CDP WebAuthn domain)',
  'webauthn-take-credential': 'no virtual WebAuthn authenticator (CDP WebAuthn domain)',
  'webauthn-put-credential': 'no virtual WebAuthn authenticator (CDP WebAuthn domain)',
  'webauthn-set-user-verified': 'no virtual WebAuthn authenticator (CDP WebAuthn domain)',
  'webauthn-set-presence': 'no virtual WebAuthn authenticator (CDP WebAuthn domain)',
  'ax-nodes': 'no accessibility tree (CDP Accessibility.getFullAXTree)',
  'ax-headings': 'no accessibility tree (CDP Accessibility.getFullAXTree)',
  'heap-used': 'no heap figures (CDP HeapProfiler and Runtime.getHeapUsage)',
  'page-clock': "no fake page clock (Playwright's page.clock)",
  'page-round-trip': "no back/forward cache reasons (CDP Page.backForwardCacheNotUsed, Chromium's notRestoredReasons)",
};

/**
 * Commands that need a handle on the test page: Playwright's (Chromium) or puppeteer's (Firefox, over
 * WebDriver BiDi). WebKit's launcher (scripts/webkit.mjs) drives its browser over WebDriver classic,
 * which has none of these: there they answer `{unsupported: reason}` too, and the test is pending.
 * (`page-frames` and `oidc-sign-in` it can do, through the launcher's session: webdriver-classic.ts;
 * `leak-watch` all but the page's console and uncaught errors, which `leak-scan` then names unseen.)
 */
const PAGE_HANDLE_ONLY: Record<string, string> = {
  'go-offline': 'no offline mode over WebDriver classic',
  'frame-probe': 'no dialogs of a child frame over WebDriver classic',
  'time-zone': 'no time zone override over WebDriver classic',
  'clear-browser-cache': "no emptying of the browser's HTTP cache over WebDriver classic",
};

/**
 * Why this session's browser cannot carry out `command`, or undefined when it can: CHROMIUM_ONLY's
 * reason outside Playwright, PAGE_HANDLE_ONLY's under WebDriver classic.
 */
function unsupported(command: string, browser: { type: string }): string | undefined {
  if (browser.type !== 'playwright' && CHROMIUM_ONLY[command]) return CHROMIUM_ONLY[command];
  if (browser.type === 'webdriver') return PAGE_HANDLE_ONLY[command];
  return undefined;
}

/**
 * A test page of either launcher: Playwright's (Chromium) or puppeteer-core's (Firefox). The
 * commands below use what both have (frames, evaluate, console, dialogs); where they differ,
 * `inContext` gives the browser context's pages and cookies of either.
 */
type AnyPage = import('playwright').Page;

function pageOf(session: { id: string; browser: unknown }): AnyPage {
  return (session.browser as { getPage(id: string): AnyPage }).getPage(session.id);
}

/** The pages and cookies of the page's browser context, in either launcher's terms. */
function inContext(page: AnyPage): { pages(): Promise<AnyPage[]>; cookies(): Promise<Array<{ name: string; value: string; path: string; httpOnly: boolean }>> } {
  if (typeof page.context === 'function') return { pages: async () => page.context().pages(), cookies: () => page.context().cookies() };
  const context = (page as unknown as { browserContext(): { pages(): Promise<AnyPage[]>; cookies(): Promise<Array<{ name: string; value: string; path: string; httpOnly: boolean }>> } }).browserContext();
  return { pages: () => context.pages(), cookies: () => context.cookies() };
}

/** What `sandbox-fixtures` answers: ids and public values only. */
export interface RigFixtures {
  /** The proxy's base on the test page's origin, e.g. '/api'. */
  apiBase: string;
  signerPublicKey: string;
  processorOrigin: string;
  oidcIssuer: string;
  customerId: string;
  accountId: string;
  emailCredentialId: string;
  cardId: string;
  agentId: string;
  agentToken: string;
}

/** The ids a page may see (never the Basic pair), with the base its proxy is mounted at. */
function rigFixtures(f: SandboxFixtures, apiBase: string): RigFixtures {
  const { signerPublicKey, processorOrigin, oidcIssuer, customerId, accountId, emailCredentialId, cardId, agentId, agentToken } = f;
  return { apiBase, signerPublicKey, processorOrigin, oidcIssuer, customerId, accountId, emailCredentialId, cardId, agentId, agentToken };
}

/** What `sandbox-new-account` answers: a fresh customer set of its own (the sandbox's answer but its platform customer id). */
export type RigAccount = Omit<SandboxAccount, 'platformCustomerId'>;

export function walletRig(options: WalletRigOptions = {}): {
  plugin: TestRunnerPlugin;
  middleware: (ctx: Context, next: Next) => Promise<void>;
} {
  const basePath = options.basePath ?? '/api';
  let sandbox: Sandbox | undefined;
  let proxy: ProxyHandler | undefined;
  let fixtures: SandboxFixtures | undefined;
  const authenticators = new Map<string, VirtualAuthenticator>();
  /**
   * Passkeys taken out of a page's authenticator by `webauthn-take-credential` (private key and
   * all, as CDP gives them), keyed by page and credential id, until `webauthn-put-credential`.
   */
  const takenCredentials = new Map<string, Record<string, unknown>>();
  /** Extra sandboxes started by `sandbox-variant`, each behind its own proxy at `/variant-<n>/api`. */
  const variants = new Map<string, { sandbox: Sandbox; proxy: ProxyHandler; server?: Server }>();
  /**
   * `hostile-origin`: a server of another origin (http://127.0.0.1:<port>) standing for an
   * attacker's, with what it received (`hostile-requests`).
   */
  let hostile: { server: Server; apiBase: string; received: HostileRequest[] } | undefined;
  /**
   * Paths of the test server whose next loads `fail-next-load` makes fail (503), with the loads
   * failed so far and the test session (page) that armed them. The page disarms what a test armed
   * when it ends (rig.ts); a page that never got to (it hung or crashed) has its arms dropped when
   * the next test page starts, since files run one at a time (web-test-runner.config.mjs).
   */
  const failingLoads = new Map<string, { left: number; failed: number; dropped?: boolean; session?: string }>();
  /** `leak-watch` .. `leak-scan`: what this process and the page wrote meanwhile (leak-scan greps it). */
  let watch: LeakWatch | undefined;
  /** The proxies' log lines and onError reports, kept while a watch is on (the proxies log nothing otherwise). */
  const proxyLog = { logger: (line: unknown) => void watch?.proxyLog.push(JSON.stringify(line)), onError: (error: unknown) => void watch?.proxyLog.push(error instanceof Error ? `${error.stack}` : String(error)) };
  /** This process's stdout and stderr writes (the sandbox's and the proxies' console, the runner's own), kept while a watch is on. */
  const outputs: Array<[NodeJS.WriteStream, NodeJS.WriteStream['write']]> = [];

  /** A platform-side call to the sandbox with the Basic credentials (never relayed to tests). */
  async function platform(method: string, path: string, body?: unknown): Promise<unknown> {
    if (!fixtures) throw new Error('the sandbox is not started');
    const basic = 'Basic ' + Buffer.from(`${fixtures.tokenId}:${fixtures.clientSecret}`).toString('base64');
    const res = await fetch(fixtures.baseUrl + path, {
      method,
      headers: { authorization: basic, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) {
      const b = parsed as { code?: string; message?: string } | undefined;
      throw new Error(`sandbox ${method} ${path.replace(/\?.*/, '')} answered ${res.status} ${b?.code ?? ''} ${b?.message ?? ''}`);
    }
    return parsed;
  }

  /** The sandbox's own test routes live at its origin, not under the versioned base. */
  function sandboxOrigin(): string {
    if (!fixtures) throw new Error('the sandbox is not started');
    return new URL(fixtures.baseUrl).origin;
  }

  async function sandboxRoute(method: string, path: string, body?: unknown): Promise<unknown> {
    if (!fixtures) throw new Error('the sandbox is not started');
    const basic = 'Basic ' + Buffer.from(`${fixtures.tokenId}:${fixtures.clientSecret}`).toString('base64');
    const res = await fetch(sandboxOrigin() + path, {
      method,
      headers: { authorization: basic, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  }

  const middleware = async (ctx: Context, next: Next): Promise<void> => {
    const path = ctx.path;
    const page = ctx.URL.searchParams.get('wtr-session-id');
    if (page !== null) {
      for (const armed of failingLoads.values()) if (armed.session !== page) armed.left = 0;
    }
    const failing = failingLoads.get(path);
    if (failing && failing.left > 0) {
      // A module of the page that does not arrive (a server or connection failing, a deploy that replaced it).
      failing.left--;
      failing.failed++;
      // The connection closed before any answer (the browser's net::ERR_EMPTY_RESPONSE).
      if (failing.dropped) {
        ctx.respond = false;
        ctx.req.socket.destroy();
        return;
      }
      ctx.status = 503;
      ctx.set('cache-control', 'no-store');
      ctx.body = 'unavailable';
      return;
    }
    const variant = /^(\/variant-\d+)\/api(\/|$)/.exec(path);
    const target = variant ? variants.get(variant[1]!)?.proxy : path === basePath || path.startsWith(basePath + '/') ? proxy : undefined;
    if (!target) {
      // The page's modules for a page of an opaque origin (a sandboxed iframe of a test), which
      // fetches them with CORS as `Origin: null`.
      if (ctx.get('origin') === 'null') ctx.set('access-control-allow-origin', 'null');
      await next();
      return;
    }
    if (watch) {
      // What the page sent the proxy that must stay on the wire: wallet signatures (stamps).
      const stamp = ctx.get('service-wallet-signature');
      if (stamp) watch.stamps.add(stamp);
    }
    // Hand the raw request to the proxy (it reads the body bytes itself) and keep koa out of the answer.
    ctx.respond = false;
    const handler = target;
    await new Promise<void>((resolve) => {
      const res: ServerResponse = ctx.res;
      if (watch) {
        // The HttpOnly cookies the proxy sets (the step-up grant): their values, as the page's
        // cookie jar may not give them (WebDriver classic gives the test page's path's only).
        const kept = watch.httpOnlySet;
        const writeHead = res.writeHead;
        res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
          const headers = args.find((a) => a && typeof a === 'object' && !Array.isArray(a)) as Record<string, unknown> | undefined;
          for (const line of [headers?.['set-cookie'] ?? []].flat()) {
            const [pair = '', ...attrs] = String(line).split(';');
            const value = pair.slice(pair.indexOf('=') + 1);
            // A cleared cookie (an empty value) is no secret.
            if (value && attrs.some((a) => a.trim().toLowerCase() === 'httponly')) kept.add(value);
          }
          return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
        } as ServerResponse['writeHead'];
      }
      res.once('finish', () => resolve());
      res.once('close', () => resolve());
      handler(ctx.req as IncomingMessage, res, (err?: unknown) => {
        if (!res.headersSent) {
          res.writeHead(err ? 500 : 404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ status: err ? 500 : 404, code: err ? 'INTERNAL_ERROR' : 'NOT_FOUND', message: 'Not handled by the proxy.' }));
        }
        resolve();
      });
    });
  };

  const plugin: TestRunnerPlugin = {
    name: 'wallet-rig',

    async serverStart() {
      sandbox = await startSandbox({ testClock: true, ...(options.sandbox ?? {}) } as Parameters<typeof startSandbox>[0]);
      fixtures = sandbox.fixtures as SandboxFixtures;
      // Tests create fresh accounts (sandbox-new-account), so every account of the sandbox may be touched.
      proxy = testProxy(fixtures, { basePath, ...proxyLog });
      for (const stream of [process.stdout, process.stderr]) {
        const write = stream.write;
        outputs.push([stream, write]);
        stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
          watch?.output.push(String(chunk));
          return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
        } as NodeJS.WriteStream['write'];
      }
    },

    async serverStop() {
      for (const [stream, write] of outputs.splice(0)) stream.write = write;
      for (const a of authenticators.values()) await a.cdp.detach().catch(() => undefined);
      for (const cdp of timeZones.values()) await cdp.detach().catch(() => undefined);
      timeZones.clear();
      authenticators.clear();
      for (const v of variants.values()) {
        if (v.server) {
          v.server.closeAllConnections();
          await new Promise((r) => v.server!.close(r));
        }
        await v.proxy.close();
        await v.sandbox.close();
      }
      variants.clear();
      if (hostile) {
        hostile.server.closeAllConnections();
        await new Promise((r) => hostile!.server.close(r));
      }
      await proxy?.close();
      await sandbox?.close();
    },

    async executeCommand({ command, payload, session }) {
      const p = (payload ?? {}) as Record<string, unknown>;
      const lacking = unsupported(command, session.browser);
      if (lacking) return { unsupported: `${session.browser.name}: ${lacking}` };
      switch (command) {
        case 'sandbox-fixtures': {
          if (!fixtures) throw new Error('the sandbox is not started');
          return rigFixtures(fixtures, basePath);
        }
        case 'sandbox-variant': {
          // Another sandbox with its own options (a short reveal lifetime, no card issuer), relayed
          // by its own proxy with the platform pair or the impersonation pair (no attributable actor).
          const allowed = ['revealLifetimeMs', 'cardIssuer', 'sessionLifetimeMs', 'signedRetryWindowMs', 'refreshSealsKey', 'otpResendIntervalMs'];
          const sandboxOptions = Object.fromEntries(Object.entries(p).filter(([k]) => allowed.includes(k)));
          // `clockOffsetMs`: the service's clock that far from this machine's (a device clock that is off).
          const offset = typeof p.clockOffsetMs === 'number' ? p.clockOffsetMs : 0;
          const v = await startSandbox({ testClock: true, ...sandboxOptions, ...(offset ? { now: () => Date.now() + offset } : {}) } as Parameters<typeof startSandbox>[0]);
          const f = v.fixtures as SandboxFixtures;
          const pair = p.credentials === 'impersonation' ? f.impersonation : { tokenId: f.tokenId, clientSecret: f.clientSecret };
          const mount = `/variant-${variants.size + 1}`;
          // `pageOrigin`: the proxy is served on a port of its own, another origin of the same site
          // (http://localhost:<port>), and allows the page's origin (allowedOrigins).
          const pageOrigin = typeof p.pageOrigin === 'string' ? p.pageOrigin : undefined;
          const variantProxy = testProxy(f, {
            ...proxyLog,
            tokenId: pair.tokenId,
            clientSecret: pair.clientSecret,
            basePath: pageOrigin ? '/api' : `${mount}/api`,
            ...(pageOrigin ? { allowedOrigins: [pageOrigin] } : {}),
            // Reveal only after a relayed session refresh (src/proxy/step-up.ts); the card is the seeded one's.
            ...(p.stepUp === true ? { stepUp: { accountForCard: (cardId: string) => (cardId === f.cardId ? f.accountId : undefined) } } : {}),
            // `siteLogin`: the integrator's own authorize asks for its site's sign-in (a `site-user`
            // cookie) on every route, the agent's too: without it, the proxy's 401 (details.reason AUTHORIZE).
            ...(p.siteLogin === true
              ? { authorize: ({ request }: { request: { headers: Record<string, unknown> } }) => /(^|;\s*)site-user=/.test(String(request.headers.cookie ?? '')) || { status: 401, code: 'UNAUTHORIZED', message: 'Sign in to your account first.' } }
              : {}),
            // `rateLimit`: the proxy's own per-client limit, `{max, windowMs}` (off in the others).
            ...(p.rateLimit ? { rateLimit: p.rateLimit as { max: number; windowMs: number } } : {}),
          });
          if (!pageOrigin) {
            variants.set(mount, { sandbox: v, proxy: variantProxy });
            return rigFixtures(f, `${mount}/api`);
          }
          // `hideDate`: that proxy does not expose the Date header to the page (CORS), as a proxy of
          // the integrator's may not: the page cannot read the service's clock.
          const hideDate = p.hideDate === true;
          const server = createServer((req, res) => {
            if (hideDate) {
              const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string>) => typeof res;
              (res as { writeHead: unknown }).writeHead = (status: number, headers?: Record<string, string>) => {
                const exposed = headers?.['access-control-expose-headers'];
                if (exposed) headers!['access-control-expose-headers'] = exposed.replace(/,\s*Date\b/i, '');
                return writeHead(status, headers);
              };
            }
            variantProxy(req, res);
          });
          await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
          variants.set(mount, { sandbox: v, proxy: variantProxy, server });
          return rigFixtures(f, `http://localhost:${(server.address() as AddressInfo).port}/api`);
        }
        case 'hostile-origin': {
          // Answers any page's calls (CORS with credentials, as a proxy allowing it would): every
          // POST without a wallet signature with a signed-retry challenge over HOSTILE_PAYLOAD,
          // anything else 404 in the service's shape. It records each request as it came, with
          // whether its stamp verifies over that payload and the key that made it.
          if (!hostile) {
            const received: HostileRequest[] = [];
            const server = createServer((req, res) => {
              const chunks: Buffer[] = [];
              req.on('data', (c: Buffer) => chunks.push(c));
              req.on('end', () => void answerHostile(req, res, Buffer.concat(chunks).toString('utf8'), received));
            });
            await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
            hostile = { server, apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, received };
          }
          return { apiBase: hostile.apiBase, payload: HOSTILE_PAYLOAD };
        }
        case 'hostile-requests': {
          return hostile?.received.splice(0) ?? [];
        }
        case 'fail-next-load': {
          // The next `times` loads of `path` on the test server answer 503 (or, `dropped`, close the
          // connection without an answer); answers the loads failed so far.
          const path = String(p.path);
          if (p.times !== undefined) failingLoads.set(path, { left: Number(p.times), failed: failingLoads.get(path)?.failed ?? 0, dropped: p.dropped === true, session: session.id });
          return { failed: failingLoads.get(path)?.failed ?? 0 };
        }
        case 'oidc-sign-in': {
          // A user's click on "Sign in" in the sandbox issuer's sign-in window, which the page opened
          // (a window of another origin, which the page's script cannot reach).
          const authorize = `${sandbox!.fixtures.oidcIssuer}/authorize`;
          const button = p.cancel ? 'button[name=deny]' : 'button[type=submit]:not([name=deny])';
          if (session.browser.type === 'webdriver') {
            // WebKit: the session switches to that window, clicks there and comes back.
            await clickInWindow(session.browser as unknown as WebDriverClassic, authorize, button, 10_000);
            return { signedIn: true };
          }
          const page = pageOf(session);
          for (const end = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 50))) {
            // The newest such window still open: an earlier test's, closing, may still be listed.
            const popup = (await inContext(page).pages()).filter((w) => !w.isClosed() && w.url().startsWith(authorize)).at(-1);
            if (popup) {
              // Within 8 s, so that a click that cannot land says so before the test's own timeout.
              let timer: NodeJS.Timeout | undefined;
              const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the click on ${button} at ${authorize} did not land within 8 s`)), 8000)));
              await Promise.race([popup.locator(button).click(), late]).finally(() => clearTimeout(timer));
              return { signedIn: true };
            }
            if (Date.now() > end) throw new Error(`no window at ${authorize}`);
          }
        }
        case 'go-offline': {
          // The browser offline for `ms` (Playwright, or puppeteer's WebDriver BiDi offline mode in
          // Firefox: navigator.onLine false, every request of the page fails), then back online by
          // the rig itself: offline, the page's WebSocket to the rig holds every message both ways,
          // so the page could not ask for it.
          // With `listening` (an event type), the answer waits for the end of those `ms` and counts
          // the listeners of that type on the page's window and on each of its frames' (CDP
          // DOMDebugger.getEventListeners) just before it goes back online: what is listening then.
          const page = pageOf(session);
          const setOffline = (offline: boolean) =>
            typeof page.context === 'function' ? page.context().setOffline(offline) : (page as unknown as { setOfflineMode(on: boolean): Promise<void> }).setOfflineMode(offline);
          if (p.listening && session.browser.type !== 'playwright') return { unsupported: 'no event listeners of the page (CDP DOMDebugger)' };
          await setOffline(true);
          if (!p.listening) {
            setTimeout(() => void setOffline(false).catch(() => undefined), Number(p.ms));
            return { ms: Number(p.ms) };
          }
          await new Promise((r) => setTimeout(r, Number(p.ms)));
          const cdp = await page.context().newCDPSession(page);
          try {
            // (Each frame's own realm: Runtime.enable names them all at once.)
            const realms: number[] = [];
            cdp.on('Runtime.executionContextCreated', ({ context }: { context: { id: number; auxData?: { isDefault?: boolean } } }) => void (context.auxData?.isDefault && realms.push(context.id)));
            await cdp.send('Runtime.enable');
            let listening = 0;
            for (const contextId of realms) {
              const { result } = (await cdp.send('Runtime.evaluate', { expression: 'window', contextId })) as { result: { objectId: string } };
              const { listeners } = (await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId })) as { listeners: Array<{ type: string }> };
              listening += listeners.filter((l) => l.type === p.listening).length;
            }
            return { ms: Number(p.ms), listening };
          } finally {
            await cdp.detach().catch(() => undefined);
            await setOffline(false).catch(() => undefined);
          }
        }
        case 'sandbox-advance-clock': {
          const ms = Number(p.ms);
          if (!Number.isFinite(ms) || ms < 0) throw new Error('sandbox-advance-clock needs {ms >= 0}');
          sandbox!.clock.advance(ms);
          return { now: new Date(sandbox!.clock.now()).toISOString() };
        }
        case 'sandbox-new-account': {
          const set = (await sandboxRoute('POST', '/sandbox/accounts', p)) as RigAccount;
          return {
            customerId: set.customerId,
            accountId: set.accountId,
            emailCredentialId: set.emailCredentialId,
            cardId: set.cardId,
            fundingSourceId: set.fundingSourceId,
            agentId: set.agentId,
            agentToken: set.agentToken,
          } satisfies RigAccount;
        }
        case 'sandbox-new-action': {
          const { agentId, type } = p as { agentId?: string; type?: string };
          if (typeof agentId !== 'string') throw new Error('sandbox-new-action needs {agentId}');
          return sandboxRoute('POST', `/sandbox/agents/${agentId}/actions`, type ? { type } : {});
        }
        case 'sandbox-action-execution': {
          const { agentId, actionId, ...body } = p as { agentId?: string; actionId?: string; status?: string; failureReason?: string };
          if (typeof agentId !== 'string' || typeof actionId !== 'string') throw new Error(`${command} needs {agentId, actionId, status}`);
          return sandboxRoute('POST', `/sandbox/agents/${agentId}/actions/${actionId}/execution`, body);
        }
        case 'sandbox-approve-action':
        case 'sandbox-reject-action': {
          const { agentId, actionId, reason } = p as { agentId?: string; actionId?: string; reason?: string };
          if (typeof agentId !== 'string' || typeof actionId !== 'string') throw new Error(`${command} needs {agentId, actionId}`);
          const verb = command === 'sandbox-approve-action' ? 'approve' : 'reject';
          return platform('POST', `/agents/${agentId}/actions/${actionId}/${verb}`, verb === 'reject' ? { ...(reason ? { reason } : {}) } : {});
        }
        case 'leak-watch': {
          // From now on: the page's console and uncaught errors (as Chromium reports them over CDP),
          // this process's output, the proxies' log lines and the stamps the page sends.
          watch?.stop();
          if (session.browser.type === 'webdriver') {
            // WebKit: no console capture over WebDriver classic, and MiniBrowser's console-to-stdout
            // setting writes nothing for its automation session (ephemeral): the two sinks are
            // not kept, and leak-scan names them `unseen` (README.md, In WebKit).
            watch = { output: [], proxyLog: [], stamps: new Set(), httpOnlySet: new Set(), stop: () => {} };
            return true;
          }
          const page = pageOf(session);
          const lines: string[] = [];
          const errors: string[] = [];
          const onConsole = (m: import('playwright').ConsoleMessage) => void lines.push(`${m.type()}: ${m.text()}`);
          const onError = (e: Error) => void errors.push(`${e.stack ?? e.message}`);
          page.on('console', onConsole);
          page.on('pageerror', onError);
          watch = {
            console: lines,
            errors,
            output: [],
            proxyLog: [],
            stamps: new Set(),
            httpOnlySet: new Set(),
            stop: () => {
              page.off('console', onConsole);
              page.off('pageerror', onError);
            },
          };
          return true;
        }
        case 'leak-scan': {
          // Greps everything that could keep a secret for the secrets of the flow: the page's own
          // traces (`haystacks`, which the page collected) and what only this process sees, against
          // the page's secrets (`secrets`) and those only this process knows. Answers where each was
          // found, by name, never with the secret itself.
          const w = watch;
          if (!w) throw new Error('leak-scan needs a leak-watch first');
          const given = p as { haystacks?: Record<string, string>; secrets?: Record<string, string[]>; marker?: string; marked?: string[]; last?: string };
          // The console over CDP comes on its own, later than the page's command may: what the page
          // wrote last is waited for (and with it all it wrote before), or the scan would miss it.
          for (const end = Date.now() + 5000; w.console && given.last && !w.console.some((l) => l.includes(given.last!)) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
          watch = undefined;
          w.stop();
          const cookies =
            session.browser.type === 'webdriver'
              ? await webDriverCookies(session.browser as unknown as WebDriverClassic)
              : await inContext(pageOf(session)).cookies();
          const audits: string[] = [];
          for (const s of [sandbox!, ...[...variants.values()].map((v) => v.sandbox)]) {
            const f = s.fixtures as SandboxFixtures;
            const res = await fetch(`${s.url}/sandbox/audit/reveals`, { headers: { authorization: 'Basic ' + Buffer.from(`${f.tokenId}:${f.clientSecret}`).toString('base64') } });
            audits.push(await res.text());
          }
          const a = authenticators.get(session.id);
          const passkeys = a ? ((await a.cdp.send('WebAuthn.getCredentials', { authenticatorId: a.authenticatorId })) as { credentials: Array<{ privateKey: string }> }).credentials : [];
          const basic = [sandbox!, ...[...variants.values()].map((v) => v.sandbox)].flatMap((s) => {
            const f = s.fixtures as SandboxFixtures;
            return [f.clientSecret, f.impersonation.clientSecret].flatMap((secret, i) => {
              const id = i ? f.impersonation.tokenId : f.tokenId;
              return [secret, Buffer.from(`${id}:${secret}`).toString('base64')];
            });
          });
          const secrets: Record<string, string[]> = {
            ...(given.secrets ?? {}),
            'the platform\'s Basic credentials': basic,
            'a wallet signature (stamp)': [...w.stamps],
            'a passkey\'s private key': passkeys.flatMap((c) => privateKeyForms(c.privateKey)),
            'the step-up grant (HttpOnly cookie)': [...cookies.filter((c) => c.httpOnly).map((c) => c.value), ...w.httpOnlySet],
          };
          // The browser's own sinks, where this browser's run has them (WebKit's has not).
          const browserSinks = { 'the browser console (CDP)': w.console, 'uncaught page errors (CDP)': w.errors };
          const unseen = Object.keys(browserSinks).filter((sink) => !browserSinks[sink as keyof typeof browserSinks]);
          const haystacks: Record<string, string> = {
            ...(given.haystacks ?? {}),
            ...Object.fromEntries(Object.entries(browserSinks).flatMap(([sink, lines]) => (lines ? [[sink, lines.join('\n')]] : []))),
            'the proxy log and onError': w.proxyLog.join('\n'),
            'stdout/stderr of the sandbox, proxy and runner': w.output.join(''),
            'the sandbox reveal audit': audits.join('\n'),
            // The grant lives in the cookie jar: its value there is where it belongs.
            'cookies (all, HttpOnly included)': cookies.map((c) => `${c.name}=${c.httpOnly ? '<HttpOnly value>' : c.value}; path=${c.path}`).join('\n'),
          };
          const found: string[] = [];
          for (const [name, values] of Object.entries(secrets)) {
            for (const value of new Set(values)) {
              if (value.length < 6) continue;
              const forms = [...new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])];
              for (const [sink, text] of Object.entries(haystacks)) {
                if (forms.some((form) => text.includes(form))) found.push(`${name} in ${sink}`);
              }
            }
          }
          // The marker, which the page put into the sinks it names `marked` (a console line, a
          // Request-Id the proxy logs, a cookie, each storage...): one where it is missing is a sink
          // the scan does not see.
          const blind = (given.marked ?? []).filter((sink) => !given.marker || !haystacks[sink]?.includes(given.marker));
          return {
            found: [...new Set(found)],
            blind,
            unseen,
            counts: Object.fromEntries(Object.entries(secrets).map(([name, values]) => [name, values.length])),
            sizes: Object.fromEntries(Object.entries(haystacks).map(([sink, text]) => [sink, text.length])),
          };
        }
        case 'frame-probe': {
          // What the page's child frames on `origin` may do and were given, from inside each (the
          // processor iframe is cross-origin to the test page): whether alert() opened a dialog (a
          // frame sandboxed without allow-modals opens none) and the referrer its document got.
          // Origin and path only, never the query.
          const page = pageOf(session);
          let dialogs = 0;
          const onDialog = (dialog: import('playwright').Dialog) => {
            dialogs++;
            void dialog.dismiss().catch(() => undefined);
          };
          page.on('dialog', onDialog);
          const frames: Array<{ pathname: string; referrer: string; modal: boolean }> = [];
          try {
            for (const frame of page.frames()) {
              // A frame not yet navigated has the URL '' (left out, as one still navigating).
              if (frame === page.mainFrame() || !URL.canParse(frame.url()) || new URL(frame.url()).origin !== p.origin) continue;
              const before = dialogs;
              // A frame still navigating is left out (the caller asks again).
              const referrer = await frame
                .evaluate(() => {
                  alert('probe');
                  return document.referrer;
                })
                .catch(() => undefined);
              if (referrer === undefined) continue;
              frames.push({ pathname: new URL(frame.url()).pathname, referrer, modal: dialogs > before });
            }
          } finally {
            page.off('dialog', onDialog);
          }
          return { frames };
        }
        case 'page-round-trip': {
          // `path` (of this origin) as a top-level page of its own, in the test page's browser
          // context and with no opener (either would keep it out of the back/forward cache): once
          // its `report()` says `revealed`, it is left for another document and gone back to, as
          // the browser's Back does. Its reports before and after, how many child frames it has
          // after, and Chromium's reasons for not restoring it from the cache (null when restored).
          const page = pageOf(session);
          type Report = { events: string[]; frame: boolean; state?: string; shows: boolean[] };
          const report = () => (window as unknown as { report(): Report }).report();
          const other = await page.context().newPage();
          // Chromium's own reasons, unmasked (CDP Page.backForwardCacheNotUsed), for the report.
          const cdp = await other.context().newCDPSession(other);
          const notUsed: string[] = [];
          cdp.on('Page.backForwardCacheNotUsed', (e) => notUsed.push(...e.notRestoredExplanations.map((x) => `${x.type} ${x.reason}`)));
          await cdp.send('Page.enable');
          try {
            await other.goto(new URL(String(p.path), page.url()).href);
            await other.waitForFunction(() => (window as unknown as { report?(): Report }).report?.().state === 'revealed', null, { timeout: 15000 });
            const before = await other.evaluate(report);
            // Another document of the origin (about:blank would stay in the same browsing instance, which keeps the page out of the cache).
            await other.goto(new URL('/test/browser/support/away.html', page.url()).href);
            // A page restored from the cache has no load event: the navigation's commit is waited
            // for, then its pageshow with `persisted` (a page loaded again has only its first,
            // false: then after 5 s it is reported as it is).
            await other.goBack({ waitUntil: 'commit' });
            await other.waitForFunction(() => (window as unknown as { report?(): Report }).report?.().shows.includes(true), null, { timeout: 5000 }).catch(() => undefined);
            const after = await other.evaluate(report);
            const notRestoredReasons = await other.evaluate(() => JSON.stringify((performance.getEntriesByType('navigation')[0] as unknown as { notRestoredReasons?: unknown }).notRestoredReasons ?? null));
            return { before, after, childFrames: other.frames().length - 1, notRestoredReasons, notUsed };
          } finally {
            await other.close();
          }
        }
        case 'page-frames': {
          // The text of the page's child frames (the processor iframe is cross-origin to the test
          // page): origin and path only, never the query, which may carry a reveal token.
          if (session.browser.type === 'webdriver') return { frames: await childFrames(session.browser as unknown as WebDriverClassic) };
          const page = pageOf(session);
          const frames: Array<{ origin: string; pathname: string; text: string }> = [];
          for (const frame of page.frames()) {
            if (frame === page.mainFrame() || frame.parentFrame() === null) continue;
            let url: URL;
            try {
              url = new URL(frame.url());
            } catch {
              continue;
            }
            const text = await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '');
            // A frame the page has removed, which puppeteer (Firefox) may list until WebDriver BiDi
            // says its context is gone: by the failed evaluation, it has said so.
            if ((frame as unknown as { detached?: boolean }).detached === true || frame.isDetached?.() === true) continue;
            frames.push({ origin: url.origin, pathname: url.pathname, text });
          }
          return { frames };
        }
        case 'ax-headings': {
          // The headings of the page as Chromium's accessibility tree exposes them to screen
          // readers (CDP Accessibility.getFullAXTree): name and level, in document order.
          const page = pageOf(session);
          const cdp = await page.context().newCDPSession(page);
          try {
            type AXValue = { value?: unknown };
            const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as unknown as {
              nodes: Array<{ ignored?: boolean; role?: AXValue; name?: AXValue; properties?: Array<{ name: string; value: AXValue }> }>;
            };
            return nodes
              .filter((n) => !n.ignored && n.role?.value === 'heading')
              .map((n) => ({ name: String(n.name?.value ?? ''), level: Number(n.properties?.find((x) => x.name === 'level')?.value.value) }));
          } finally {
            await cdp.detach().catch(() => undefined);
          }
        }
        case 'ax-nodes': {
          // The page's accessibility tree as Chromium gives it to assistive technology (CDP
          // Accessibility.getFullAXTree), in document order: each node's role, name, description,
          // depth, its properties (invalid, live, focused, ...) and the DOM node it stands for
          // (so that a test can tell a node replaced from one kept); ignored nodes are left out.
          const page = pageOf(session);
          const cdp = await page.context().newCDPSession(page);
          try {
            type AXValue = { value?: unknown };
            type AXNode = { nodeId: string; backendDOMNodeId?: number; ignored?: boolean; role?: AXValue; name?: AXValue; description?: AXValue; properties?: Array<{ name: string; value: AXValue }>; childIds?: string[] };
            const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as unknown as { nodes: AXNode[] };
            const byId = new Map(nodes.map((n) => [n.nodeId, n]));
            const out: Array<{ role: string; name: string; description: string; depth: number; properties: Record<string, unknown>; domNodeId?: number }> = [];
            const walk = (n: AXNode, depth: number) => {
              const shown = !n.ignored;
              if (shown) {
                const properties = Object.fromEntries((n.properties ?? []).map((x) => [x.name, x.value.value]));
                out.push({ role: String(n.role?.value ?? ''), name: String(n.name?.value ?? ''), description: String(n.description?.value ?? ''), depth, properties, domNodeId: n.backendDOMNodeId });
              }
              for (const id of n.childIds ?? []) {
                const child = byId.get(id);
                if (child) walk(child, shown ? depth + 1 : depth);
              }
            };
            if (nodes[0]) walk(nodes[0], 0);
            return out;
          } finally {
            await cdp.detach().catch(() => undefined);
          }
        }
        case 'time-zone': {
          // The page's time zone as the operating system's would change under it (CDP
          // Emulation.setTimezoneOverride, a live page's Date and Intl follow at once): held by a
          // CDP session of its own until `id` null puts the system's back.
          const page = pageOf(session);
          if (typeof page.context !== 'function') {
            // Firefox: WebDriver BiDi's emulation.setTimezoneOverride, through puppeteer.
            await (page as unknown as { emulateTimezone(id?: string): Promise<void> }).emulateTimezone(p.id == null ? undefined : String(p.id));
            return { timeZone: p.id ?? null };
          }
          const held = timeZones.get(session.id);
          timeZones.delete(session.id);
          await held?.detach().catch(() => undefined);
          if (p.id == null) return { timeZone: null };
          const cdp = await page.context().newCDPSession(page);
          timeZones.set(session.id, cdp);
          await cdp.send('Emulation.setTimezoneOverride', { timezoneId: String(p.id) });
          return { timeZone: p.id };
        }
        case 'page-clock': {
          // Playwright's fake clock for this test's browser context (page.clock): `install` once
          // (timers then run in real time), `setSystemTime` (Date jumps, no timer fires: what a
          // system suspend does to a page), `runFor` (time runs on, firing the timers due).
          const page = pageOf(session);
          const call = String(p.call);
          if (!['install', 'setSystemTime', 'runFor'].includes(call)) throw new Error(`page-clock: no ${call}`);
          await (page.clock as unknown as Record<string, (arg?: number) => Promise<void>>)[call]!(p.arg as number | undefined);
          return { call };
        }
        case 'clear-browser-cache': {
          // The browser's HTTP cache emptied (CDP Network.clearBrowserCache), so that a page opened
          // next asks the test server for every module: it serves them cacheable for a year. Firefox
          // runs with no HTTP cache (web-test-runner.firefox.config.mjs): nothing to do there.
          if (session.browser.type !== 'playwright') return { cleared: false };
          const page = pageOf(session);
          const cdp = await page.context().newCDPSession(page);
          try {
            await cdp.send('Network.clearBrowserCache');
            return { cleared: true };
          } finally {
            await cdp.detach().catch(() => undefined);
          }
        }
        case 'heap-used': {
          // What the page's heap holds after a full collection (CDP), for tests of growth over time.
          const page = pageOf(session);
          const cdp = await page.context().newCDPSession(page);
          try {
            await cdp.send('HeapProfiler.collectGarbage');
            return ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
          } finally {
            await cdp.detach().catch(() => undefined);
          }
        }
        case 'webauthn-add-virtual-authenticator': {
          const existing = authenticators.get(session.id);
          if (existing) return { authenticatorId: existing.authenticatorId };
          const page = pageOf(session);
          const { cdp, authenticatorId } = await addVirtualAuthenticator(page, (p.options as Record<string, unknown> | undefined) ?? {});
          authenticators.set(session.id, { cdp, authenticatorId });
          return { authenticatorId };
        }
        case 'webauthn-credentials': {
          const a = authenticators.get(session.id);
          if (!a) return { credentials: [] };
          const { credentials } = (await a.cdp.send('WebAuthn.getCredentials', { authenticatorId: a.authenticatorId })) as {
            credentials: Array<{ credentialId: string; rpId?: string; signCount: number; isResidentCredential: boolean }>;
          };
          // Ids, RP and counters only; the private keys stay in the authenticator.
          return { credentials: credentials.map(({ credentialId, rpId, signCount, isResidentCredential }) => ({ credentialId, rpId, signCount, isResidentCredential })) };
        }
        case 'webauthn-take-credential':
        case 'webauthn-put-credential': {
          // A passkey moved between devices: taken out of this page's authenticator (another device
          // holds it meanwhile), then put into the authenticator the page has then, perhaps a new one.
          const a = authenticators.get(session.id);
          if (!a) throw new Error('no virtual authenticator on this page');
          const credentialId = String(p.credentialId);
          const key = `${session.id}|${credentialId}`;
          if (command === 'webauthn-take-credential') {
            const { credential } = (await a.cdp.send('WebAuthn.getCredential', { authenticatorId: a.authenticatorId, credentialId })) as { credential: Record<string, unknown> };
            await a.cdp.send('WebAuthn.removeCredential', { authenticatorId: a.authenticatorId, credentialId });
            takenCredentials.set(key, credential);
            return true;
          }
          const credential = takenCredentials.get(key);
          if (!credential) throw new Error(`no passkey ${credentialId} was taken from this page's authenticator`);
          takenCredentials.delete(key);
          await a.cdp.send('WebAuthn.addCredential', { authenticatorId: a.authenticatorId, credential });
          return true;
        }
        case 'webauthn-set-user-verified': {
          const a = authenticators.get(session.id);
          if (!a) throw new Error('no virtual authenticator on this page');
          await a.cdp.send('WebAuthn.setUserVerified', { authenticatorId: a.authenticatorId, isUserVerified: p.isUserVerified !== false });
          return true;
        }
        case 'webauthn-set-presence': {
          const a = authenticators.get(session.id);
          if (!a) throw new Error('no virtual authenticator on this page');
          await a.cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: a.authenticatorId, enabled: p.enabled !== false });
          return true;
        }
        case 'webauthn-remove-virtual-authenticator': {
          const a = authenticators.get(session.id);
          if (!a) return false;
          authenticators.delete(session.id);
          await a.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: a.authenticatorId });
          await a.cdp.detach().catch(() => undefined);
          return true;
        }
        default:
          return undefined;
      }
    },
  };
  return { plugin, middleware };
}

/** What `leak-watch` keeps until `leak-scan`. */
interface LeakWatch {
  /** Undefined where the browser's run cannot keep them (WebKit). */
  console?: string[];
  errors?: string[];
  output: string[];
  proxyLog: string[];
  stamps: Set<string>;
  /** The values of the HttpOnly cookies the proxies set (the step-up grant). */
  httpOnlySet: Set<string>;
  stop(): void;
}

/** A P-256 private key (PKCS#8, base64, as CDP gives a passkey's) and its 32-byte scalar, in the encodings a leak would use. */
function privateKeyForms(pkcs8Base64: string): string[] {
  const der = Buffer.from(pkcs8Base64, 'base64');
  // ECPrivateKey: version 1 (02 01 01), then the scalar as an OCTET STRING of 32 bytes (04 20).
  const at = der.indexOf(Buffer.from([0x02, 0x01, 0x01, 0x04, 0x20]));
  const d = at < 0 ? undefined : der.subarray(at + 5, at + 37);
  return [pkcs8Base64, der.toString('base64url'), der.toString('hex'), ...(d ? [d.toString('hex'), d.toString('base64url'), d.toString('base64')] : [])];
}

/** What the hostile origin asks a wallet's session key to stamp: a payload of its own choosing. */
const HOSTILE_PAYLOAD = JSON.stringify({ type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS', note: 'chosen by the hostile origin' });

/** One request the hostile origin received (`hostile-requests`). */
export interface HostileRequest {
  method: string;
  url: string;
  body: string;
  /** Whether it carried a Bearer token (an agent's). */
  bearer: boolean;
  /** Its Service-Wallet-Signature, when it had one: the stamp's key, and whether it verifies over HOSTILE_PAYLOAD. */
  stamp?: { publicKey: string; overHostilePayload: boolean };
}

async function answerHostile(req: IncomingMessage, res: ServerResponse, body: string, received: HostileRequest[]): Promise<void> {
  const cors = {
    'access-control-allow-origin': String(req.headers.origin ?? '*'),
    'access-control-allow-credentials': 'true',
    'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? '*'),
    'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
  };
  if (req.method === 'OPTIONS') {
    res.writeHead(204, cors).end();
    return;
  }
  const signature = req.headers['service-wallet-signature'];
  const record: HostileRequest = { method: String(req.method), url: String(req.url), body, bearer: /^Bearer /i.test(req.headers.authorization ?? '') };
  if (typeof signature === 'string') {
    const verified = await verifyStamp(signature, HOSTILE_PAYLOAD).catch(() => null);
    const publicKey = (JSON.parse(Buffer.from(signature, 'base64url').toString('utf8')) as { publicKey: string }).publicKey;
    record.stamp = { publicKey, overHostilePayload: verified !== null };
  }
  received.push(record);
  const json = { ...cors, 'content-type': 'application/json' };
  if (req.method === 'POST' && signature === undefined) {
    const challenge = { payloadToSign: HOSTILE_PAYLOAD, requestId: `Request:hostile-${received.length}`, expiresAt: new Date(Date.now() + 300_000).toISOString() };
    res.writeHead(202, json).end(JSON.stringify(challenge));
    return;
  }
  res.writeHead(404, json).end(JSON.stringify({ status: 404, code: 'NOT_FOUND', message: 'Nothing here.' }));
}
