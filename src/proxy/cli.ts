/**
 * `npm run proxy` (in this repository) or `npx wallet-elements-proxy` (installed): runs the proxy as a
 * small server configured from the environment.
 *
 *   SERVICE_BASE_URL        upstream, including the version segment (e.g. http://127.0.0.1:4000/2025-10-13)
 *   SERVICE_TOKEN_ID        Basic credentials (api.md "Authentication")
 *   SERVICE_CLIENT_SECRET
 *   PROXY_DEMO_ACCOUNT      JSON {"customerId","accountId","cardId"}: the explicit demo binding (required;
 *                           an integrator with real users mounts createProxy with its own `authorize`)
 *   PROXY_ALLOWED_ORIGINS   comma-separated exact origins allowed cross-origin (default: same origin only)
 *   PROXY_ALLOWED_HOSTS     comma-separated host names the proxy is reached by, besides localhost, IP
 *                           addresses and PROXY_RP_ID (DNS-rebinding defence; `any` turns it off)
 *   SERVICE_SIGNATURE_HEADER upstream name of the wallet-signature header (default Service-Wallet-Signature)
 *   PROXY_CHALLENGE_SECRET  HMAC key for WebAuthn challenges shared by several instances (default: from the secret)
 *   PROXY_RP_ID, PROXY_RP_NAME  WebAuthn relying party (default: the request's host name, "Wallet")
 *   PROXY_RATE_LIMIT        `<max>/<seconds>` per client address (default 600/60), or `off`
 *   PROXY_STEP_UP           card reveal only after a fresh wallet-session proof (step-up.ts): `on`
 *                           (default), `<seconds>` a grant lasts (1-3600, default 60), or `off` (only when
 *                           something in front of the proxy already authenticates the cardholder)
 *   PROXY_STEP_UP_SECRET    HMAC key for step-up grants shared by several instances (default: from the secret)
 *   PROXY_START_WAIT_SECONDS how long to wait at start for a service not up yet (default 60, 0 to 3600;
 *                           0: do not wait)
 *   PORT (0 = a free port), HOST (default 127.0.0.1); the flags --port and --host win over them,
 *                           as in the sandbox's CLI. Any other argument is refused (exit 2), never ignored.
 *
 * Its first stdout line is `{"url": "http://HOST:PORT/api"}` so that a parent process can find it;
 * one JSON log line per request goes to stderr, and for a request answered 500 INTERNAL_ERROR also
 * a line with what failed and its stack (onError; no secret, no request body, no card URL). Its
 * server (server.ts) bounds slow clients: headers within 15 s, the whole request within 30 s, an
 * idle kept-alive connection 5 s, and a connection on which nothing moves for 30 s while a request
 * is answered (a client that stopped taking its answer) is closed.
 *
 * Before listening it reads the bound account's credential list (checkService): a service that
 * refuses the credentials or is not the service stops the start, with what to fix. One not up yet
 * (refused or failed connection, unknown name, no answer, a gateway's 502/503/504 as its page or
 * its own JSON) is asked again for up to PROXY_START_WAIT_SECONDS, one line on stderr per pause,
 * then stops the start; the service's own 502/503/504 (its error body) is asked again the same
 * way, then the proxy starts with a warning, as after the service's other 5xx answers. An ask
 * without an answer is given up after 10 s, or when the wait is over (2 s at least), so that the
 * start lasts the wait and 2 s at most.
 *
 * Deliberately does not: read a config file, terminate TLS, or start without a binding.
 */
import type { AddressInfo } from 'node:net';
import { createProxy, type DemoAccount, type ProxyOptions } from './index.ts';
import { boundedServer } from './server.ts';

const USAGE = `Usage: wallet-elements-proxy [--port N] [--host H]   (everything else from the environment)

  --port N                 listen port (default 0: a free port); wins over PORT
  --host H                 listen address (default 127.0.0.1); wins over HOST
  --help                   this text

Required:
  SERVICE_BASE_URL         the service, with its version segment (https://<host>/<path>/2025-10-13)
  SERVICE_TOKEN_ID         the platform's API token id        } Basic credentials, never sent
  SERVICE_CLIENT_SECRET    the platform's API client secret   } to the browser
  PROXY_DEMO_ACCOUNT       {"customerId","accountId","cardId"}: the one account this proxy serves

Optional:
  PROXY_ALLOWED_ORIGINS    comma-separated page origins allowed cross-origin (default: same origin)
  PROXY_ALLOWED_HOSTS      comma-separated host names the proxy is reached by (default: localhost,
                           IP addresses and PROXY_RP_ID; others are refused, against DNS rebinding)
  PROXY_STEP_UP            on (default): card reveal needs a fresh wallet-session proof;
                           <seconds>: how long a proof lasts (1-3600, default 60); off: none asked
  PROXY_STEP_UP_SECRET     HMAC key for step-up proofs shared by several instances
  PROXY_CHALLENGE_SECRET   HMAC key for WebAuthn challenges shared by several instances
  PROXY_RP_ID, PROXY_RP_NAME  WebAuthn relying party (default: the request's host name, "Wallet")
  PROXY_RATE_LIMIT         <max>/<seconds> per client address (default 600/60), or off
  SERVICE_SIGNATURE_HEADER upstream wallet-signature header (default Service-Wallet-Signature)
  PROXY_START_WAIT_SECONDS how long to wait at start for a service not up yet (default 60, up to
                           3600; 0: do not wait)
  PORT, HOST               listen port and address when --port and --host are not given

Before it listens it reads PROXY_DEMO_ACCOUNT's credential list from the service, and exits (1)
with what to fix when the service refuses the credentials or is not the service. A service not up
yet (connection refused or failed, name not found, no answer, a gateway answering 502, 503 or 504)
is asked again, one line per pause, for up to PROXY_START_WAIT_SECONDS, then it exits the same way
(a 503 in the service's own error body: it starts with a warning instead).
First stdout line: {"url":"http://HOST:PORT/api"}; one JSON log line per request on stderr, and
for a request answered 500 INTERNAL_ERROR, a line with what failed and its stack (no secret).
With real users, mount createProxy() from "wallet-elements/proxy" in your server instead.
`;

function fatal(message: string): never {
  process.stderr.write(`proxy: ${message}\n`);
  process.exit(1);
}

/** A wrong command line: exits 2 with the usage, as the sandbox's CLI does. */
function usageError(message: string): never {
  process.stderr.write(`proxy: ${message}\n\n${USAGE}`);
  process.exit(2);
}

// Where it listens may be given as flags, as the sandbox's CLI takes them (they win over PORT and
// HOST); every other setting comes from the environment. Any other argument is refused rather than
// ignored, so that no one believes the proxy took a setting it never read.
const SETTINGS = [
  'SERVICE_BASE_URL', 'SERVICE_TOKEN_ID', 'SERVICE_CLIENT_SECRET', 'SERVICE_SIGNATURE_HEADER', 'PROXY_DEMO_ACCOUNT',
  'PROXY_ALLOWED_ORIGINS', 'PROXY_ALLOWED_HOSTS', 'PROXY_STEP_UP', 'PROXY_STEP_UP_SECRET', 'PROXY_CHALLENGE_SECRET',
  'PROXY_RP_ID', 'PROXY_RP_NAME', 'PROXY_RATE_LIMIT', 'PROXY_START_WAIT_SECONDS',
];
let portFlag: string | undefined;
let hostFlag: string | undefined;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  const eq = arg.indexOf('=');
  const name = arg.startsWith('--') ? arg.slice(2, eq === -1 ? undefined : eq) : '';
  const value = (): string => {
    const given = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (!given) usageError(`--${name} needs a value`);
    return given;
  };
  if (name === 'help' || arg === '-h') {
    process.stdout.write(USAGE);
    process.exit(0);
  } else if (name === 'port') portFlag = value();
  else if (name === 'host') hostFlag = value();
  else {
    // `--rate-limit` is PROXY_RATE_LIMIT, `--base-url` SERVICE_BASE_URL: name the variable meant.
    const upper = name.replace(/-/g, '_').toUpperCase();
    const meant = name ? SETTINGS.find((setting) => setting === upper || setting.endsWith(`_${upper}`)) : undefined;
    // An option is named without its value: `--client-secret=...` must not put a secret in the log.
    usageError(
      `${name ? `unknown option --${name}` : `unexpected argument ${arg}`}; ` +
        (meant ? `set ${meant} in the environment instead` : 'only --port, --host and --help are options, every other setting is an environment variable (listed below)'),
    );
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) fatal(`${name} is not set (see "Point it at the real service" in the package README).`);
  return value;
}

const upstream = required('SERVICE_BASE_URL');
const tokenId = required('SERVICE_TOKEN_ID');
const clientSecret = required('SERVICE_CLIENT_SECRET');
const bindingJson = process.env.PROXY_DEMO_ACCOUNT;
if (!bindingJson) {
  fatal(
    'refusing to start without an account binding. Set PROXY_DEMO_ACCOUNT=\'{"customerId":"Customer:<uuid>","accountId":"InternalAccount:<uuid>","cardId":"Card:<uuid>"}\' ' +
      'to serve one demo account, or mount createProxy() from "wallet-elements/proxy" with your own authorize hook.',
  );
}
let demoAccount: DemoAccount;
try {
  demoAccount = JSON.parse(bindingJson) as DemoAccount;
} catch {
  fatal('PROXY_DEMO_ACCOUNT is not valid JSON.');
}
// JSON's null (or a number) is no binding at all: said as the binding's shape, not as a missing hook.
if (typeof demoAccount !== 'object' || !demoAccount) fatal('PROXY_DEMO_ACCOUNT needs {"customerId":"Customer:<uuid>","accountId":"InternalAccount:<uuid>","cardId":"Card:<uuid>"}.');

// PORT and HOST are held to what the flags take: Number() reads "" as 0 (a free port) and "1e3" or
// "0x50" as other ports, and an empty HOST would quietly mean the default.
const isPort = (value: string): boolean => /^\d+$/.test(value) && Number(value) <= 65535;
if (portFlag !== undefined && !isPort(portFlag)) usageError('--port must be an integer from 0 to 65535.');
const portSetting = portFlag ?? process.env.PORT;
if (portSetting !== undefined && !isPort(portSetting)) fatal(`PORT must be an integer from 0 to 65535 (it is ${JSON.stringify(portSetting)}).`);
const port = Number(portSetting ?? '0');
const host = hostFlag ?? process.env.HOST ?? '127.0.0.1';
if (!host) fatal('HOST is set but empty: set it to the address to listen on (127.0.0.1 when it is not set).');

const options: ProxyOptions = {
  upstream,
  tokenId,
  clientSecret,
  demoAccount,
  allowedOrigins: (process.env.PROXY_ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  allowedHosts: process.env.PROXY_ALLOWED_HOSTS?.trim() === 'any' ? 'any' : (process.env.PROXY_ALLOWED_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  logger: (line) => process.stderr.write(JSON.stringify(line) + '\n'),
};

// What the proxy answered 500 INTERNAL_ERROR for (here a failure of the demo binding, the step-up
// or the proxy itself: the CLI runs no code of an integrator) is written to stderr with its stack,
// so that it can be found and fixed: the request's log line says only INTERNAL_ERROR. Never the
// request's query, headers, cookies or body; the settings' secrets and the path and query of every
// URL in the text (a card's reveal URL is a bearer secret) are taken out of it.
const secrets = [clientSecret, Buffer.from(`${tokenId}:${clientSecret}`, 'utf8').toString('base64'), process.env.PROXY_STEP_UP_SECRET, process.env.PROXY_CHALLENGE_SECRET];
function redact(text: string): string {
  for (const secret of secrets) if (secret) text = text.split(secret).join('<secret>');
  return text.replace(/\b(https?:\/\/[^/\s"'<>]+)[^\s"'<>]*/gi, '$1/<redacted>');
}
options.onError = (error, request) => {
  // A thrown value that is not an Error has no stack, and its text could be anything: only its type.
  const what = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : `a thrown ${typeof error}, not an Error`;
  const path = (request.url ?? '').split('?')[0];
  process.stderr.write(`proxy: INTERNAL_ERROR for ${request.method} ${redact(path!)}: ${redact(what)}\n`);
};
if (process.env.SERVICE_SIGNATURE_HEADER) options.signatureHeader = process.env.SERVICE_SIGNATURE_HEADER;
if (process.env.PROXY_CHALLENGE_SECRET) options.challengeSecret = process.env.PROXY_CHALLENGE_SECRET;
if (process.env.PROXY_RP_NAME || process.env.PROXY_RP_ID) {
  options.rp = { name: process.env.PROXY_RP_NAME || 'Wallet', ...(process.env.PROXY_RP_ID ? { id: process.env.PROXY_RP_ID } : {}) };
}

const rateLimit = process.env.PROXY_RATE_LIMIT?.trim();
if (rateLimit === 'off') options.rateLimit = false;
else if (rateLimit) {
  const m = /^(\d+)\/(\d+)$/.exec(rateLimit);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) fatal('PROXY_RATE_LIMIT must be <max>/<seconds> (for example 600/60) or off.');
  options.rateLimit = { max: Number(m[1]), windowMs: Number(m[2]) * 1000 };
}

// The standalone proxy serves one account's card to whoever reaches it: without the step-up, any
// client that can reach the port gets the card's reveal URL. So it is on unless turned off.
const stepUp = (process.env.PROXY_STEP_UP ?? 'on').trim().toLowerCase();
if (stepUp !== 'off') {
  if (stepUp !== 'on' && !(/^\d+$/.test(stepUp) && Number(stepUp) >= 1 && Number(stepUp) <= 3600)) {
    fatal('PROXY_STEP_UP must be on, off or the seconds a proof lasts (1 to 3600).');
  }
  options.stepUp = {
    ...(stepUp === 'on' ? {} : { ttlSeconds: Number(stepUp) }),
    ...(process.env.PROXY_STEP_UP_SECRET ? { secret: process.env.PROXY_STEP_UP_SECRET } : {}),
  };
}

let proxy: ReturnType<typeof createProxy>;
try {
  proxy = createProxy(options);
} catch (e) {
  // The options' names are the library's; the settings here are environment variables.
  const names: Record<string, string> = {
    upstream: 'SERVICE_BASE_URL',
    tokenId: 'SERVICE_TOKEN_ID',
    clientSecret: 'SERVICE_CLIENT_SECRET',
    signatureHeader: 'SERVICE_SIGNATURE_HEADER',
    demoAccount: 'PROXY_DEMO_ACCOUNT',
    allowedHosts: 'PROXY_ALLOWED_HOSTS',
    allowedOrigins: 'PROXY_ALLOWED_ORIGINS',
    challengeSecret: 'PROXY_CHALLENGE_SECRET',
    'rp.id': 'PROXY_RP_ID',
    'stepUp.secret': 'PROXY_STEP_UP_SECRET',
  };
  fatal((e as Error).message.replace(/^[A-Za-z.]+\b/, (option) => names[option] ?? option));
}

// Containers started together: the service (or the gateway in front of it) may not answer yet when
// the proxy starts. Exiting at once would make a crash loop or a failed start of a right setting.
const startWait = process.env.PROXY_START_WAIT_SECONDS;
if (startWait !== undefined && !(/^\d+$/.test(startWait) && Number(startWait) <= 3600)) {
  fatal(`PROXY_START_WAIT_SECONDS must be the seconds to wait for the service at start (0 to 3600; 0: do not wait), it is ${JSON.stringify(startWait)}.`);
}
const startWaitSeconds = Number(startWait ?? '60');

// What a service that is not up yet looks like from here: nothing listens, its name is not in the DNS
// yet, the connection drops or nothing answers. A TLS failure or anything else is a setting to fix.
const NOT_UP_YET = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
]);
// A gateway says its service is not answering with these, in its own page or JSON (reference.md
// "Errors" lists none of them as the service's); the service's own 503 says it cannot answer yet.
const GATEWAY_WAITING = new Set([502, 503, 504]);

/**
 * Why the service is not up yet: a line while it is waited for, and the message when the wait is
 * over, which stops the start, or only warns when the service itself answered (`startAnyway`).
 */
interface NotUpYet {
  waiting: string;
  final: (tried: string) => string;
  startAnyway?: boolean;
}

/**
 * One read with the platform's credentials: the bound account's credential list (reference.md
 * "Credentials": GET /auth/credentials?accountId=, Basic, changes nothing). A service that refuses
 * the credentials, lacks the version segment or is not the service at all would otherwise surface
 * only as errors in the browser, one request at a time; here it stops the start with what to fix.
 * A service that answers but is in trouble (429, 5xx in its JSON) is said and the proxy starts: it
 * may recover. One not up yet is returned, to be asked again.
 */
async function askService(base: string, timeoutMs: number): Promise<NotUpYet | undefined> {
  const path = `/auth/credentials?accountId=${encodeURIComponent(demoAccount.accountId)}`;
  // The account id is the deployment's, not a secret, but the line names the setting instead.
  const asked = `GET /auth/credentials?accountId=<PROXY_DEMO_ACCOUNT's accountId>`;
  let res: Response;
  try {
    res = await fetch(base + path, {
      headers: { authorization: 'Basic ' + Buffer.from(`${tokenId}:${clientSecret}`, 'utf8').toString('base64'), accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const timedOut = (e as Error).name === 'TimeoutError';
    const why = timedOut ? `no answer within ${Number((timeoutMs / 1000).toFixed(1))} s` : (cause?.code ?? cause?.message ?? (e as Error).message);
    const unreachable = (tried: string): string =>
      `the service at ${base} could not be reached (${why}${tried}). Check SERVICE_BASE_URL and that this machine reaches that host.`;
    if (timedOut || NOT_UP_YET.has(cause?.code ?? '')) return { waiting: `the service at ${base} could not be reached (${why})`, final: unreachable };
    fatal(unreachable(''));
  }
  const type = res.headers.get('content-type') ?? 'no content type';
  const body = /\bjson\b/i.test(type) ? ((await res.json().catch(() => undefined)) as { status?: unknown; code?: unknown; message?: unknown } | undefined) : undefined;
  await res.body?.cancel().catch(() => undefined);
  if (res.ok && body) return undefined;
  // The service's error body (reference.md "Errors"): its status repeated, a code and a message.
  const serviceError = body?.status === res.status && typeof body.code === 'string' && typeof body.message === 'string';
  if (!serviceError && GATEWAY_WAITING.has(res.status)) {
    // A gateway's JSON says why in its own words ({"message": "no healthy upstream"}): quoted, briefly.
    const words = body && JSON.stringify(body).slice(0, 200);
    const answered = body
      ? `${base} answered ${res.status} with JSON that is not the service's error body (${typeof body.message === 'string' ? JSON.stringify(body.message.slice(0, 200)) : words})`
      : `${base} answered ${res.status} with ${type}, not the service's JSON`;
    return {
      waiting: body ? `${answered}, not the service yet` : `${answered} yet`,
      final: (tried) =>
        `${answered}${tried}. Check that the service behind that address is running, and SERVICE_BASE_URL: the service's address with its version segment (…/2025-10-13), over https.`,
    };
  }
  if (!body) {
    fatal(`${base} answered ${res.status} with ${type}, not the service's JSON. Check SERVICE_BASE_URL: the service's address with its version segment (…/2025-10-13), over https.`);
  }
  const said = `${res.status} ${typeof body.code === 'string' ? body.code : ''}`.trim() + (typeof body.message === 'string' ? ` (${JSON.stringify(body.message)})` : '');
  if (GATEWAY_WAITING.has(res.status)) {
    const answered = `the service answered ${said} to ${asked}`;
    return { waiting: answered, final: (tried) => `${answered}${tried}; starting anyway.`, startAnyway: true };
  }
  if (res.status === 429 || res.status >= 500) {
    process.stderr.write(`proxy: the service answered ${said} to ${asked}; starting anyway.\n`);
    return undefined;
  }
  if (res.status === 401) fatal(`the service refused SERVICE_TOKEN_ID and SERVICE_CLIENT_SECRET: it answered ${said}. Check the platform's API credentials for this SERVICE_BASE_URL.`);
  if (res.status === 404) {
    fatal(`the service answered ${said} to ${asked}. Check that SERVICE_BASE_URL ends with the version segment (…/2025-10-13) and that PROXY_DEMO_ACCOUNT's accountId is an account of these credentials.`);
  }
  fatal(`the service answered ${said} to ${asked}. Check PROXY_DEMO_ACCOUNT: its accountId must be an account these credentials may use.`);
}

/** How long one ask waits for an answer: ASK_TIMEOUT_MS, and no longer than the wait lasts, but ASK_TIMEOUT_FLOOR_MS at least. */
const ASK_TIMEOUT_MS = 10_000;
const ASK_TIMEOUT_FLOOR_MS = 2_000;

/**
 * Asks the service before listening; one not up yet is asked again with a growing pause (0.5 s
 * doubling to 5 s) for up to PROXY_START_WAIT_SECONDS, one line on stderr per pause. An ask ends
 * with the wait (a host that takes the connection and never answers would otherwise hold the
 * start 10 s past it), but is given 2 s at least, the last one too.
 */
async function checkService(): Promise<void> {
  const base = upstream.replace(/\/+$/, '');
  const deadline = Date.now() + startWaitSeconds * 1000;
  for (let attempt = 0; ; attempt++) {
    const notUp = await askService(base, Math.min(ASK_TIMEOUT_MS, Math.max(ASK_TIMEOUT_FLOOR_MS, deadline - Date.now())));
    if (!notUp) return;
    const pause = Math.min(500 * 2 ** attempt, 5000, deadline - Date.now());
    // A pause under 0.1 s is not worth one more line: the wait is over.
    if (pause < 100) {
      const final = notUp.final(startWaitSeconds ? `; tried for ${startWaitSeconds} s` : '');
      if (!notUp.startAnyway) fatal(final);
      process.stderr.write(`proxy: ${final}\n`);
      return;
    }
    process.stderr.write(`proxy: ${notUp.waiting}; trying again in ${Number((pause / 1000).toFixed(1))} s (up to ${startWaitSeconds} s in all, PROXY_START_WAIT_SECONDS).\n`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

await checkService();
const server = boundedServer(proxy);
server.on('error', (e) => fatal(e.message));
server.listen(port, host, () => {
  const { port: bound } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  process.stdout.write(JSON.stringify({ url: `http://${shown}:${bound}/api` }) + '\n');
});

let closing = false;
function shutdown(): void {
  if (closing) return;
  closing = true;
  server.close(() => void proxy.close().then(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
