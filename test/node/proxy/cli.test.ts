/**
 * The proxy CLI (`npm run proxy`, src/proxy/cli.ts) as a child process against the real sandbox:
 * refuses to start without a binding or its credentials, prints `{"url": ...}` as its first stdout
 * line, relays, asks for a wallet-session proof before a card reveal unless told not to, logs one
 * JSON line per request on stderr (no secret), and stops on SIGTERM.
 */
import assert from 'node:assert/strict';
import { raw } from './helpers.ts';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createClient } from '../../../src/core/client.ts';
import { createWallet } from '../../../src/core/session.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { jarFetch } from './helpers.ts';

function run(env: Record<string, string>, args: string[] = []): ChildProcessWithoutNullStreams {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(SERVICE_|PROXY_|PORT$|HOST$)/.test(k))) as Record<string, string>;
  return spawn(process.execPath, ['--import', 'tsx', 'src/proxy/cli.ts', ...args], { env: { ...clean, ...env }, cwd: new URL('../../../', import.meta.url).pathname });
}

async function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr, stdout };
}

/** A port nothing listens on: listened on, then closed. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

const HTML_503 = { type: 'text/html', body: '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>' };

/**
 * A gateway in front of the service, as a load balancer or ingress is: until `ready()` it answers
 * 503 with an HTML page, or `page` (the service behind it still booting), then it relays to `origin`.
 */
function gateway(origin: string, ready: () => boolean, page: { status?: number; type: string; body: string } = HTML_503): Server {
  const target = new URL(origin);
  return createHttpServer((req, res) => {
    if (!ready()) {
      res.writeHead(page.status ?? 503, { 'content-type': page.type }).end(page.body);
      return;
    }
    const relayed = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    relayed.on('error', () => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>'));
    req.pipe(relayed);
  });
}

describe('proxy CLI', () => {
  let sandbox: Sandbox;
  let env: Record<string, string>;
  before(async () => {
    sandbox = await startSandbox();
    const f = sandbox.fixtures;
    env = {
      SERVICE_BASE_URL: f.baseUrl,
      SERVICE_TOKEN_ID: f.tokenId,
      SERVICE_CLIENT_SECRET: f.clientSecret,
      PORT: '0',
      PROXY_DEMO_ACCOUNT: JSON.stringify({ customerId: f.customerId, accountId: f.accountId, cardId: f.cardId }),
    };
  });
  after(async () => {
    await sandbox.close();
  });

  it('refuses to start without a binding, with a clear message', async () => {
    const { PROXY_DEMO_ACCOUNT: _, ...rest } = env;
    const r = await exitOf(run(rest));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /refusing to start without an account binding/);
    assert.match(r.stderr, /PROXY_DEMO_ACCOUNT/);
    assert.equal(r.stdout, '');
    assert.ok(!r.stderr.includes(sandbox.fixtures.clientSecret));
  });

  it('refuses a malformed binding and missing credentials', async () => {
    const bad = await exitOf(run({ ...env, PROXY_DEMO_ACCOUNT: '{"customerId":"x"' }));
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /PROXY_DEMO_ACCOUNT is not valid JSON/);
    const wrong = await exitOf(run({ ...env, PROXY_DEMO_ACCOUNT: '{"customerId":"x","accountId":"y","cardId":"z"}' }));
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /PROXY_DEMO_ACCOUNT needs/);
    // JSON that parses to no object at all is the binding's shape, not a missing authorize hook.
    for (const json of ['null', '42']) {
      const none = await exitOf(run({ ...env, PROXY_DEMO_ACCOUNT: json }));
      assert.equal(none.code, 1);
      assert.match(none.stderr, /^proxy: PROXY_DEMO_ACCOUNT needs \{"customerId"/, json);
    }
    // A relying party given as an origin fails every passkey ceremony in the browser: refused at start.
    const rp = await exitOf(run({ ...env, PROXY_RP_ID: 'https://wallet.example.com' }));
    assert.equal(rp.code, 1);
    assert.match(rp.stderr, /^proxy: PROXY_RP_ID must be a host name such as wallet.example.com, without scheme or port/);
    const limit = await exitOf(run({ ...env, PROXY_RATE_LIMIT: 'lots' }));
    assert.equal(limit.code, 1);
    assert.match(limit.stderr, /PROXY_RATE_LIMIT/);
    const { SERVICE_CLIENT_SECRET: _, ...noSecret } = env;
    const missing = await exitOf(run(noSecret));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /SERVICE_CLIENT_SECRET is not set/);
    // The settings are named as the environment names them, not as createProxy's options.
    for (const base of ['127.0.0.1:4000/2025-10-13', 'localhost:4000/2025-10-13']) {
      const url = await exitOf(run({ ...env, SERVICE_BASE_URL: base }));
      assert.equal(url.code, 1);
      assert.match(url.stderr, /^proxy: SERVICE_BASE_URL must be an/, base);
    }
    const header = await exitOf(run({ ...env, SERVICE_SIGNATURE_HEADER: 'Wallet Signature' }));
    assert.equal(header.code, 1);
    assert.match(header.stderr, /^proxy: SERVICE_SIGNATURE_HEADER must be a header name/);
    const token = await exitOf(run({ ...env, SERVICE_TOKEN_ID: 'token:with-colon' }));
    assert.equal(token.code, 1);
    assert.match(token.stderr, /^proxy: SERVICE_TOKEN_ID must be a non-empty string without ":"/);
    // A blank secret, or one with a line break, is named as the variable and never echoed.
    for (const [secret, said] of [['   ', /^proxy: SERVICE_CLIENT_SECRET is empty/], ['secret-from-a-file\n', /^proxy: SERVICE_CLIENT_SECRET must not contain a line break/]] as const) {
      const refused = await exitOf(run({ ...env, SERVICE_CLIENT_SECRET: secret }));
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, said);
      assert.ok(!refused.stderr.includes('secret-from-a-file'));
    }
  });

  it('asks the service once before it listens, and exits with what to fix when it is unreachable, refuses the credentials or is not the service', async () => {
    // A port nothing listens on: listened on, then closed.
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const closedPort = (probe.address() as AddressInfo).port;
    probe.close();
    await once(probe, 'close');
    // A web server that is not the service (a wrong host, a captive portal): it answers HTML.
    const web = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Welcome</title>'));
    web.listen(0, '127.0.0.1');
    await once(web, 'listening');
    const webPort = (web.address() as AddressInfo).port;
    const wrongSecret = `wrong-${Math.random().toString(36).slice(2)}`;
    try {
      for (const [setting, said] of [
        // PROXY_START_WAIT_SECONDS=0: no waiting for a service that is not up yet, the start stops at once.
        [{ SERVICE_BASE_URL: `http://127.0.0.1:${closedPort}/2025-10-13`, PROXY_START_WAIT_SECONDS: '0' }, new RegExp(`^proxy: the service at http://127\\.0\\.0\\.1:${closedPort}/2025-10-13 could not be reached \\(ECONNREFUSED\\)\\. Check SERVICE_BASE_URL`)],
        [{ SERVICE_CLIENT_SECRET: wrongSecret }, /^proxy: the service refused SERVICE_TOKEN_ID and SERVICE_CLIENT_SECRET: it answered 401 UNAUTHORIZED \("Valid API credentials \(HTTP Basic\) are required"\)\. Check the platform's API credentials/],
        [{ SERVICE_BASE_URL: new URL(sandbox.fixtures.baseUrl).origin }, /^proxy: the service answered 404 NOT_FOUND \("No route for GET \/auth\/credentials"\) to GET \/auth\/credentials\?accountId=<PROXY_DEMO_ACCOUNT's accountId>\. Check that SERVICE_BASE_URL ends with the version segment \(…\/2025-10-13\)/],
        [{ SERVICE_BASE_URL: `http://127.0.0.1:${webPort}/2025-10-13` }, /^proxy: http:\/\/127\.0\.0\.1:\d+\/2025-10-13 answered 200 with text\/html, not the service's JSON\. Check SERVICE_BASE_URL/],
      ] as const) {
        const child = run({ ...env, ...setting });
        // A proxy that does not check starts and keeps running: stop it, so that the assertions say why.
        const stop = setTimeout(() => child.kill('SIGTERM'), 10_000);
        const started = Date.now();
        const refused = await exitOf(child);
        clearTimeout(stop);
        const name = JSON.stringify(setting);
        // An answer that says the setting is wrong (401, 404, a web page that is not the service)
        // stops the start at once, without the wait for a service that is not up yet.
        assert.ok(Date.now() - started < 5000, `${name}: took ${Date.now() - started} ms`);
        assert.doesNotMatch(refused.stderr, /trying again/, name);
        assert.match(refused.stderr, said, name);
        assert.equal(refused.code, 1, name);
        assert.equal(refused.stdout, '', name);
        for (const secret of [wrongSecret, sandbox.fixtures.clientSecret]) assert.ok(!refused.stderr.includes(secret), `${name}: a secret in the log`);
      }
    } finally {
      web.close();
    }
  });

  it('waits for a service that is not up yet (refused, or a gateway answering 503 while it boots) for PROXY_START_WAIT_SECONDS, then starts, or exits with what to fix', async () => {
    const secrets = [sandbox.fixtures.clientSecret, sandbox.fixtures.tokenId];
    const startsThrough = async (setting: Record<string, string>, whileWaiting: RegExp, server: Server, port: number): Promise<void> => {
      const child = run({ ...env, ...setting });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      // The service (behind its gateway) comes up once the proxy said it waits for it, however
      // long the proxy took to start on a busy machine.
      let up = false;
      child.stderr.on('data', () => {
        if (up || !/trying again/.test(stderr)) return;
        up = true;
        server.listen(port, '127.0.0.1');
      });
      const stop = setTimeout(() => child.kill('SIGTERM'), 15_000);
      try {
        const lines = createInterface({ input: child.stdout });
        const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [`exited: ${stderr}`])])) as [string];
        assert.ok(!first.startsWith('exited: '), first);
        const { url } = JSON.parse(first) as { url: string };
        const list = await fetch(`${url}/auth/credentials?accountId=${sandbox.fixtures.accountId}`);
        assert.equal(list.status, 200);
        const waits = stderr.split('\n').filter((line) => line.startsWith('proxy: '));
        assert.ok(waits.length >= 1, stderr);
        for (const line of waits) assert.match(line, whileWaiting);
        for (const secret of secrets) assert.ok(!stderr.includes(secret), 'a secret in the log');
      } finally {
        clearTimeout(stop);
        child.kill('SIGTERM');
        if (child.exitCode === null) await once(child, 'exit');
        server.close();
        server.closeAllConnections();
      }
    };

    // Started together with the service (containers): nothing listens yet, then the service does.
    const latePort = await freePort();
    await startsThrough(
      { SERVICE_BASE_URL: `http://127.0.0.1:${latePort}/2025-10-13` },
      /^proxy: the service at http:\/\/127\.0\.0\.1:\d+\/2025-10-13 could not be reached \(ECONNREFUSED\); trying again in [\d.]+ s \(up to 60 s in all, PROXY_START_WAIT_SECONDS\)\.$/,
      gateway(sandbox.fixtures.baseUrl, () => true),
      latePort,
    );
    // A gateway that is up and answers 503 with its HTML page until the service behind it is.
    const gatewayPort = await freePort();
    let bootingUp = false;
    const booting = gateway(sandbox.fixtures.baseUrl, () => bootingUp);
    booting.listen(gatewayPort, '127.0.0.1');
    await once(booting, 'listening');
    await startsThrough(
      { SERVICE_BASE_URL: `http://127.0.0.1:${gatewayPort}/2025-10-13` },
      /^proxy: http:\/\/127\.0\.0\.1:\d+\/2025-10-13 answered 503 with text\/html, not the service's JSON yet; trying again in [\d.]+ s \(up to 60 s in all, PROXY_START_WAIT_SECONDS\)\.$/,
      { listen: () => (bootingUp = true), close: () => booting.close(), closeAllConnections: () => booting.closeAllConnections() } as unknown as Server,
      gatewayPort,
    );

    // One that never comes: the start stops after the wait, with the message it gives at once without one.
    const neverPort = await freePort();
    const down = gateway(sandbox.fixtures.baseUrl, () => false);
    down.listen(0, '127.0.0.1');
    await once(down, 'listening');
    try {
      for (const [base, said] of [
        [`http://127.0.0.1:${neverPort}/2025-10-13`, /^proxy: the service at http:\/\/127\.0\.0\.1:\d+\/2025-10-13 could not be reached \(ECONNREFUSED; tried for 2 s\)\. Check SERVICE_BASE_URL and that this machine reaches that host\.$/m],
        [`http://127.0.0.1:${(down.address() as AddressInfo).port}/2025-10-13`, /^proxy: http:\/\/127\.0\.0\.1:\d+\/2025-10-13 answered 503 with text\/html, not the service's JSON; tried for 2 s\. Check that the service behind that address is running, and SERVICE_BASE_URL/m],
      ] as const) {
        const child = run({ ...env, SERVICE_BASE_URL: base, PROXY_START_WAIT_SECONDS: '2' });
        const stop = setTimeout(() => child.kill('SIGTERM'), 15_000);
        const started = Date.now();
        const refused = await exitOf(child);
        clearTimeout(stop);
        const took = Date.now() - started;
        assert.equal(refused.code, 1, refused.stderr);
        assert.equal(refused.stdout, '');
        assert.match(refused.stderr, said);
        assert.match(refused.stderr, /trying again in [\d.]+ s \(up to 2 s in all/);
        assert.ok(took >= 2000 && took < 12_000, `took ${took} ms`);
        for (const secret of secrets) assert.ok(!refused.stderr.includes(secret), 'a secret in the log');
      }
    } finally {
      down.close();
      down.closeAllConnections();
    }

    // The setting is read as strictly as the others.
    for (const value of ['', 'soon', '1.5', '-1', ' 5', '3601']) {
      const bad = await exitOf(run({ ...env, PROXY_START_WAIT_SECONDS: value }));
      assert.equal(bad.code, 1, JSON.stringify(value));
      assert.match(bad.stderr, /^proxy: PROXY_START_WAIT_SECONDS must be the seconds to wait for the service at start \(0 to 3600; 0: do not wait\), it is ".*"\.\n$/, JSON.stringify(value));
    }
  });

  it('waits for a gateway answering 502, 503 or 504 in JSON of its own as for its HTML page; the service\'s own 503 is waited for, then the proxy starts with a warning', async () => {
    const secrets = [sandbox.fixtures.clientSecret, sandbox.fixtures.tokenId];
    /** Called once the proxy has said that it waits. */
    let waitingSaid = (): unknown => undefined;
    /**
     * Runs the CLI against `server` until it prints its URL (then lists the credentials through it:
     * `listed`, the status) or exits (`code`); with its stderr and how long the start took.
     */
    const startAgainst = async (server: Server, wait: string): Promise<{ listed?: number; code?: number | null; stderr: string; took: number }> => {
      if (!server.listening) {
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
      }
      const child = run({ ...env, SERVICE_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/2025-10-13`, PROXY_START_WAIT_SECONDS: wait });
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
        if (/trying again/.test(stderr)) waitingSaid();
      });
      const stop = setTimeout(() => child.kill('SIGTERM'), 15_000);
      const started = Date.now();
      try {
        const lines = createInterface({ input: child.stdout });
        const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [undefined])])) as [string | undefined];
        const took = Date.now() - started;
        if (first === undefined) return { code: child.exitCode, stderr, took };
        const { url } = JSON.parse(first) as { url: string };
        const list = await fetch(`${url}/auth/credentials?accountId=${sandbox.fixtures.accountId}`);
        await list.body?.cancel();
        return { listed: list.status, stderr, took };
      } finally {
        clearTimeout(stop);
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await once(child, 'exit');
        }
        for (const secret of secrets) assert.ok(!stderr.includes(secret), 'a secret in the log');
      }
    };
    const closeAll = (...servers: Server[]) => servers.forEach((s) => (s.close(), s.closeAllConnections()));

    // Gateways that answer in JSON of their own while the service behind them is down (an API
    // gateway's {"message":"Service Unavailable"}, Kong's "failure to get a peer"): not the
    // service's error body ({status, code, message}), so not the service.
    const pages = [
      { status: 503, type: 'application/json', body: '{"message":"Service Unavailable"}' },
      { status: 502, type: 'application/json; charset=utf-8', body: '{"message":"failure to get a peer from the ring-balancer"}' },
      { status: 504, type: 'application/json', body: '{"error":"upstream request timeout"}' },
    ];
    const booting: Server[] = [];
    const down = gateway(sandbox.fixtures.baseUrl, () => false, pages[0]);
    try {
      for (const [i, page] of pages.entries()) {
        // The service behind it comes up once the proxy said it waits for it.
        let saidWaiting = false;
        const server = gateway(sandbox.fixtures.baseUrl, () => saidWaiting, page);
        waitingSaid = () => (saidWaiting = true);
        booting.push(server);
        const started = await startAgainst(server, '60');
        assert.equal(started.listed, 200, started.stderr);
        const lines = started.stderr.split('\n').filter((line) => line.startsWith('proxy: '));
        assert.ok(lines.length >= 1, started.stderr);
        for (const line of lines) {
          assert.match(line, new RegExp(`^proxy: http://127\\.0\\.0\\.1:\\d+/2025-10-13 answered ${pages[i]!.status} with JSON that is not the service's error body \\(.+\\), not the service yet; trying again in [\\d.]+ s \\(up to 60 s in all, PROXY_START_WAIT_SECONDS\\)\\.$`));
        }
      }
      const refused = await startAgainst(down, '2');
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /trying again in [\d.]+ s \(up to 2 s in all/);
      assert.match(refused.stderr, /^proxy: http:\/\/127\.0\.0\.1:\d+\/2025-10-13 answered 503 with JSON that is not the service's error body \("Service Unavailable"\); tried for 2 s\. Check that the service behind that address is running, and SERVICE_BASE_URL/m);
      assert.ok(refused.took >= 2000, `took ${refused.took} ms`);
    } finally {
      closeAll(...booting, down);
    }

    // The service's own 503 (its error body): it is there but cannot answer yet. Waited for, then
    // the proxy starts anyway, as for its other 5xx answers, which are not waited for.
    const ownError = (status: number, code: string) => ({ status, type: 'application/json', body: JSON.stringify({ status, code, message: 'Try again later' }) });
    const unavailable = gateway(sandbox.fixtures.baseUrl, () => false, ownError(503, 'UNAVAILABLE'));
    const failing = gateway(sandbox.fixtures.baseUrl, () => false, ownError(500, 'INTERNAL_ERROR'));
    try {
      const waited = await startAgainst(unavailable, '2');
      assert.ok(waited.listed, waited.stderr);
      assert.ok(waited.took >= 2000, `took ${waited.took} ms`);
      assert.match(waited.stderr, /^proxy: the service answered 503 UNAVAILABLE \("Try again later"\) to GET \/auth\/credentials\?accountId=<PROXY_DEMO_ACCOUNT's accountId>; trying again in [\d.]+ s \(up to 2 s in all, PROXY_START_WAIT_SECONDS\)\.$/m);
      assert.match(waited.stderr, /^proxy: the service answered 503 UNAVAILABLE \("Try again later"\) to GET \/auth\/credentials\?accountId=<PROXY_DEMO_ACCOUNT's accountId>; tried for 2 s; starting anyway\.$/m);
      const atOnce = await startAgainst(failing, '60');
      assert.ok(atOnce.listed, atOnce.stderr);
      assert.equal(atOnce.stderr, 'proxy: the service answered 500 INTERNAL_ERROR ("Try again later") to GET /auth/credentials?accountId=<PROXY_DEMO_ACCOUNT\'s accountId>; starting anyway.\n');
    } finally {
      closeAll(unavailable, failing);
    }
  });

  it('gives up on a host that takes connections and never answers when the start wait is over, not 10 s later', async () => {
    // A host that accepts connections and says nothing (a hung service, a firewall that holds them).
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const base = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/2025-10-13`;
    try {
      for (const [wait, said] of [
        ['2', /^proxy: the service at http:\/\/127\.0\.0\.1:\d+\/2025-10-13 could not be reached \(no answer within 2 s; tried for 2 s\)\. Check SERVICE_BASE_URL/m],
        ['0', /^proxy: the service at http:\/\/127\.0\.0\.1:\d+\/2025-10-13 could not be reached \(no answer within 2 s\)\. Check SERVICE_BASE_URL/m],
      ] as const) {
        // The process's own start and exit, on this machine now: `--help` loads the same modules.
        const startCost = async () => {
          const from = Date.now();
          assert.equal((await exitOf(run(env, ['--help']))).code, 0);
          return Date.now() - from;
        };
        const before = await startCost();
        const child = run({ ...env, SERVICE_BASE_URL: base, PROXY_START_WAIT_SECONDS: wait });
        const stop = setTimeout(() => child.kill('SIGTERM'), 30_000);
        const started = Date.now();
        const refused = await exitOf(child);
        clearTimeout(stop);
        const took = Date.now() - started;
        const start = Math.max(before, await startCost());
        assert.equal(refused.code, 1, refused.stderr);
        assert.match(refused.stderr, said, wait);
        // The wait, the last ask's 2 s at most, and the process's own start (measured beside it, as
        // the machine's load makes it): well under the 10 s one ask is otherwise given.
        assert.ok(took < Number(wait) * 1000 + 2000 + start + 2000, `PROXY_START_WAIT_SECONDS=${wait}: took ${took} ms (a start ${start} ms)`);
      }
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });

  it('prints its URL first, relays, logs JSON lines without secrets, and stops on SIGTERM', async () => {
    const child = run({ ...env, PROXY_ALLOWED_ORIGINS: 'https://shop.example', PROXY_RATE_LIMIT: '3/60' });
    const lines = createInterface({ input: child.stdout });
    const [first] = (await once(lines, 'line')) as [string];
    const { url } = JSON.parse(first) as { url: string };
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));

    // Step-up is on by default: no reveal URL without a fresh wallet-session proof.
    const reveal = await fetch(`${url}/cards/${sandbox.fixtures.cardId}/reveal`, { method: 'POST', headers: { 'x-requested-with': 'test', origin: 'https://shop.example' } });
    assert.equal(reveal.status, 403);
    assert.equal(((await reveal.json()) as { code: string }).code, 'STEP_UP_REQUIRED');
    assert.equal(reveal.headers.get('access-control-allow-origin'), 'https://shop.example');
    const list = await fetch(`${url}/auth/credentials?accountId=${sandbox.fixtures.accountId}`);
    assert.equal(list.status, 200);
    const refused = await fetch(`${url}/cards/${sandbox.fixtures.cardId}/reveal`, { method: 'POST', headers: { 'x-requested-with': 'test', origin: 'https://evil.example' } });
    assert.equal(refused.status, 403);
    const limited = await fetch(`${url}/auth/credentials?accountId=${sandbox.fixtures.accountId}`);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);

    // What Node itself refuses (not HTTP, headers over its limit) is answered in the service's shape.
    const port = Number(new URL(url).port);
    const rawAnswer = async (request: string): Promise<string> => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => (answer += d));
      socket.on('error', () => undefined);
      socket.write(request);
      await once(socket, 'close');
      return answer;
    };
    for (const [request, status, code] of [
      ['NOT HTTP AT ALL\r\n\r\n', 400, 'INVALID_INPUT'],
      [`GET /api/x HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
    ] as const) {
      const answer = await rawAnswer(request);
      assert.match(answer, new RegExp(`^HTTP/1.1 ${status} `));
      assert.match(answer, /\r\nconnection: close\r\n/i);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { status: number; code: string; message: string };
      assert.deepEqual([body.status, body.code, typeof body.message], [status, code, 'string']);
    }

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
    const logLines = stderr.trim().split('\n').map((l) => JSON.parse(l) as { route: string; status: number });
    assert.deepEqual(
      logLines.map((l) => [l.route, l.status]),
      [
        ['revealCard', 403],
        ['listCredentials', 200],
        ['revealCard', 403],
        ['listCredentials', 429],
      ],
    );
    for (const s of [sandbox.fixtures.clientSecret, sandbox.fixtures.accountId]) assert.ok(!stderr.includes(s));
  });

  it('reveals a card after a relayed session refresh (the step-up proof), and logs neither the URL nor the grant', async () => {
    const child = run({ ...env, PROXY_RATE_LIMIT: 'off', PROXY_STEP_UP: '30' });
    const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const { url } = JSON.parse(first) as { url: string };
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    try {
      const { fetch: withCookies, jar, setCookies } = jarFetch();
      const f = sandbox.fixtures;
      const client = createClient({ baseUrl: url, fetch: withCookies });
      const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
      await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
      await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
      await wallet.refresh(f.accountId);
      assert.equal(setCookies.length, 2);
      assert.match(setCookies[1]!, /; Max-Age=30(;|$)/);
      const { panEmbedUrl } = await client.revealCard(f.cardId);
      assert.match(panEmbedUrl, /\/processor\/card\?token=/);
      for (const s of [panEmbedUrl, ...jar.values(), f.clientSecret]) assert.ok(!stderr.includes(s));
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('writes what failed, with its stack, for a request answered INTERNAL_ERROR: never a secret, the request\'s body or its cookies', async () => {
    const f = sandbox.fixtures;
    // A service whose credential list holds an entry that is not an object: the demo binding reads
    // it without checking, and fails (a failure of the CLI's own code, not of an integrator's).
    const relay = gateway(f.baseUrl, () => true);
    const odd = createHttpServer((req, res) => {
      if (req.method === 'GET' && /\/auth\/credentials\?/.test(req.url ?? '')) res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[null]}');
      else relay.emit('request', req, res);
    });
    odd.listen(0, '127.0.0.1');
    await once(odd, 'listening');
    const child = run({ ...env, SERVICE_BASE_URL: `http://127.0.0.1:${(odd.address() as AddressInfo).port}${new URL(f.baseUrl).pathname}`, PROXY_STEP_UP_SECRET: 'step-up-secret-of-this-test' });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    try {
      const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { url } = JSON.parse(first) as { url: string };
      const secretBody = JSON.stringify({ note: 'body-of-this-request' });
      const answer = await fetch(`${url}/auth/credentials/${f.emailCredentialId}/challenge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'test', cookie: 'wallet_step_up_1=cookie-of-this-request' },
        body: secretBody,
      });
        assert.deepEqual([answer.status, ((await answer.json()) as { code: string }).code], [500, 'INTERNAL_ERROR']);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
      odd.close();
    }
    const lines = stderr.trim().split('\n');
    const said = lines.findIndex((line) => line.startsWith('proxy: INTERNAL_ERROR for POST '));
    assert.ok(said !== -1, stderr);
    // The request, without its query; what was thrown, with the frames of the code that threw it.
    assert.equal(lines[said], `proxy: INTERNAL_ERROR for POST /api/auth/credentials/${f.emailCredentialId}/challenge: TypeError: Cannot read properties of null (reading 'id')`);
    assert.match(lines[said + 1]!, /^ {4}at .*src\/proxy\/authorize\.ts:\d+:\d+\)?$/);
    // The request's own log line still says INTERNAL_ERROR only.
    const logged = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { route: string; code?: string; message?: string });
    assert.deepEqual(logged.at(-1), { ...logged.at(-1), route: 'credentialChallenge', code: 'INTERNAL_ERROR', message: 'The proxy failed to handle the request.' });
    const basic = Buffer.from(`${f.tokenId}:${f.clientSecret}`).toString('base64');
    for (const secret of [f.clientSecret, basic, 'step-up-secret-of-this-test', 'body-of-this-request', 'cookie-of-this-request']) {
      assert.ok(!stderr.includes(secret), secret);
    }
  });

  it('PROXY_STEP_UP=off relays reveals without a proof; a bad value is refused; --help prints the settings', async () => {
    const child = run({ ...env, PROXY_STEP_UP: 'off' });
    const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const { url } = JSON.parse(first) as { url: string };
    try {
      const reveal = await fetch(`${url}/cards/${sandbox.fixtures.cardId}/reveal`, { method: 'POST', headers: { 'x-requested-with': 'test' } });
      assert.equal(reveal.status, 200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    const bad = await exitOf(run({ ...env, PROXY_STEP_UP: 'forever' }));
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /PROXY_STEP_UP must be on, off or the seconds a proof lasts/);
    const help = spawn(process.execPath, ['--import', 'tsx', 'src/proxy/cli.ts', '--help'], { cwd: new URL('../../../', import.meta.url).pathname, env: { PATH: process.env.PATH ?? '' } });
    const usage = await exitOf(help);
    assert.equal(usage.code, 0);
    for (const name of ['SERVICE_BASE_URL', 'SERVICE_TOKEN_ID', 'SERVICE_CLIENT_SECRET', 'PROXY_DEMO_ACCOUNT', 'PROXY_ALLOWED_ORIGINS', 'PROXY_STEP_UP', 'PROXY_START_WAIT_SECONDS']) {
      assert.match(usage.stdout, new RegExp(name));
    }
  });

  it('listens where --port and --host say (over PORT and HOST), and refuses any other argument, naming the variable to set', async () => {
    // A free port, found by listening on 0 and closing, so that the flag's port is one the test knows.
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const free = (probe.address() as AddressInfo).port;
    probe.close();
    await once(probe, 'close');
    for (const [args, url] of [
      [['--port', String(free)], `http://localhost:${free}/api`],
      [[`--port=${free}`, '--host=127.0.0.1'], `http://127.0.0.1:${free}/api`],
    ] as const) {
      const child = run({ ...env, PORT: '0', HOST: 'localhost' }, [...args]);
      const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      child.kill('SIGTERM');
      await once(child, 'exit');
      assert.equal((JSON.parse(first) as { url: string }).url, url, args.join(' '));
    }

    for (const [args, said] of [
      [['--rate-limit', '10/60'], /^proxy: unknown option --rate-limit; set PROXY_RATE_LIMIT in the environment instead\n/],
      [['--base-url=http://127.0.0.1:4000/2025-10-13'], /^proxy: unknown option --base-url; set SERVICE_BASE_URL in the environment instead\n/],
      [['--verbose'], /^proxy: unknown option --verbose; only --port, --host and --help are options, every other setting is an environment variable \(listed below\)\n/],
      [['8380'], /^proxy: unexpected argument 8380; only --port, --host and --help are options, every other setting is an environment variable \(listed below\)\n/],
      [['--port'], /^proxy: --port needs a value\n/],
      [['--port', 'http'], /^proxy: --port must be an integer from 0 to 65535\.\n/],
    ] as const) {
      const refused = await exitOf(run(env, [...args]));
      assert.equal(refused.code, 2, args.join(' '));
      assert.match(refused.stderr, said, args.join(' '));
      assert.match(refused.stderr, /Usage: wallet-elements-proxy/, args.join(' '));
      assert.equal(refused.stdout, '', args.join(' '));
    }
    // A secret given as a flag is refused without being written to the log (stderr).
    const secret = `s3cr3t-${Math.random().toString(36).slice(2)}`;
    const flagged = await exitOf(run(env, [`--client-secret=${secret}`]));
    assert.equal(flagged.code, 2);
    assert.match(flagged.stderr, /^proxy: unknown option --client-secret; set SERVICE_CLIENT_SECRET in the environment instead\n/);
    assert.ok(!flagged.stderr.includes(secret), 'the secret written to stderr');
  });

  it('refuses a PORT or HOST that --port or --host would refuse, naming the value, instead of listening elsewhere', async () => {
    for (const [setting, said] of [
      [{ PORT: '' }, /^proxy: PORT must be an integer from 0 to 65535 \(it is ""\)\.\n/],
      [{ PORT: '1e3' }, /^proxy: PORT must be an integer from 0 to 65535 \(it is "1e3"\)\.\n/],
      [{ PORT: '0x0' }, /^proxy: PORT must be an integer from 0 to 65535 \(it is "0x0"\)\.\n/],
      [{ PORT: ' 0' }, /^proxy: PORT must be an integer from 0 to 65535 \(it is " 0"\)\.\n/],
      [{ PORT: '65536' }, /^proxy: PORT must be an integer from 0 to 65535 \(it is "65536"\)\.\n/],
      [{ HOST: '' }, /^proxy: HOST is set but empty: /],
    ] as const) {
      const child = run({ ...env, ...setting });
      // A proxy that took the value starts: stop it, so that the assertion below says why (late
      // enough that a start slowed by a loaded machine still gets to refuse first).
      const stop = setTimeout(() => child.kill('SIGTERM'), 20_000);
      const refused = await exitOf(child);
      clearTimeout(stop);
      assert.equal(refused.stdout, '', JSON.stringify(setting));
      assert.match(refused.stderr, said, JSON.stringify(setting));
      assert.equal(refused.code, 1, JSON.stringify(setting));
    }
    // The flag wins over a PORT it replaces, as over a valid one.
    const child = run({ ...env, PORT: 'http' }, ['--port', '0']);
    const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    child.kill('SIGTERM');
    await once(child, 'exit');
    assert.match((JSON.parse(first) as { url: string }).url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
  });

  it('refuses a host it is not reached by (DNS rebinding) unless PROXY_ALLOWED_HOSTS lists it', async () => {
    const reveal = async (extra: Record<string, string>, host: string) => {
      const child = run({ ...env, PROXY_STEP_UP: 'off', ...extra });
      const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { port } = new URL((JSON.parse(first) as { url: string }).url);
      try {
        return await raw(Number(port), { method: 'POST', path: `/api/cards/${sandbox.fixtures.cardId}/reveal`, headers: { host, origin: `http://${host}`, 'x-requested-with': 'test' } });
      } finally {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    };
    const rebound = await reveal({}, 'evil.example:8080');
    assert.equal(rebound.status, 403);
    assert.ok(!rebound.text.includes('panEmbedUrl'));
    assert.equal((await reveal({ PROXY_ALLOWED_HOSTS: 'wallet.example, evil.example' }, 'evil.example:8080')).status, 200);
    const bad = await exitOf(run({ ...env, PROXY_ALLOWED_HOSTS: 'https://wallet.example' }));
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /PROXY_ALLOWED_HOSTS must be 'any' or host names/);
  });
});
