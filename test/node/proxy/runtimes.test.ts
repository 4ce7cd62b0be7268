/**
 * The proxy's fetch entry under real Bun and real Deno (their linux-x64 packages, fetched on
 * demand: runtimes.ts), mounted by the README's own lines ("In a server that hands you a
 * `Request`": `Bun.serve`, `Deno.serve`, read from the README and run as written but for the port)
 * in a child process, importing `wallet-elements/proxy` as an application does (the package's Node
 * build, installed in a temporary application directory), in front of the real sandbox, which
 * Node runs. From Node, over loopback: a read route relayed with the Basic credentials added; a
 * login, a stamped session refresh (the service checks the signed bytes), the step-up grant's two
 * Set-Cookie headers and the card reveal; a body relayed as written (the service compares a signed
 * retry's bytes with its first leg's); the rate limit counting each client under the address the
 * runtime gives; a route and a host refused in the service's shape, no-store; and the child's
 * output free of the credentials. Deno runs with --allow-net=127.0.0.1 and the README's
 * --allow-env (the three settings) only. Under Bun, the undici transport is refused at once.
 * The same tests run again with the proxy mounted in Hono by the README's Hono line, the client's
 * address from `getConnInfo` of `hono/bun` and `hono/deno`, as the README says.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildNode } from '../../../scripts/build.ts';
import { ROOT } from '../../../bench/size.ts';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { STAMP_SCHEME, WALLET_SIGNATURE_HEADER } from '../../../src/core/stamp.ts';
import { REQUEST_ID_HEADER } from '../../../src/core/signed-retry.ts';
import { CACHE, ensureRuntime, unsupported, type RuntimeName } from './runtimes.ts';
import { assertErrorShape, getFrom, loginAndReveal, raw, useSandbox } from './helpers.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README's mounts, as written (one inline code span each). */
const LINES: Record<RuntimeName, string | undefined> = {
  bun: /^- Bun: `(Bun\.serve\([^`]*)`/m.exec(README)?.[1],
  deno: /^- Deno: `(Deno\.serve\([^`]*)`/m.exec(README)?.[1],
};
/** The environment Deno may read, as the README says; it listens on and reaches only 127.0.0.1 here. */
const DENO_ENV = /`(--allow-env=[^`]*)`/.exec(README)?.[1];
/** The README's Hono mount (an `app.all` line), and how each runtime serves a Hono app (Hono's own documentation). */
const HONO = /^- Hono: `(app\.all\([^`]*\))`/m.exec(README)?.[1];
const HONO_SERVE: Record<RuntimeName, string> = {
  bun: "Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch })",
  deno: "Deno.serve({ hostname: '127.0.0.1', port: 0 }, app.fetch)",
};
const DENO_FLAGS = ['--allow-net=127.0.0.1', DENO_ENV!, '--no-prompt', '--no-lock'];
/** Requests per client per minute: the rate-limit test sends one more from one address. */
const LIMIT = 20;
const skip = unsupported();

/** An application directory whose node_modules holds this package as built for npm (and undici beside it). */
async function installPackage(): Promise<string> {
  const app = mkdtempSync(join(tmpdir(), 'wallet-elements-app-'));
  const pkg = join(app, 'node_modules/wallet-elements');
  mkdirSync(pkg, { recursive: true });
  await buildNode(join(pkg, 'dist'));
  writeFileSync(join(pkg, 'package.json'), readFileSync(join(ROOT, 'package.json')));
  for (const dependency of ['undici', 'hono']) symlinkSync(join(ROOT, 'node_modules', dependency), join(app, 'node_modules', dependency), 'dir');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { 'wallet-elements': '*', hono: '*' } }));
  return app;
}

/**
 * The server a reader writes: the README's createProxy options for the sandbox's demo account, then
 * the README's line for the runtime; or, `hono`, a Hono app with the README's Hono line, served as
 * the runtime serves one.
 */
function serverSource(name: RuntimeName, sandbox: Sandbox, hono: boolean): string {
  const line = LINES[name];
  assert.ok(line, `the README has no ${name} mount`);
  assert.ok(HONO, 'the README has no Hono mount');
  assert.ok(DENO_ENV, 'the README names no --allow-env for Deno');
  assert.match(line, /port: 3000/);
  const f = sandbox.fixtures;
  return `import { createProxy } from 'wallet-elements/proxy';
${hono ? `import { Hono } from 'hono';\nimport { getConnInfo } from 'hono/${name}';\n` : ''}
const proxy = createProxy<Request>({
  upstream: process.env.SERVICE_BASE_URL,
  tokenId: process.env.SERVICE_TOKEN_ID,
  clientSecret: process.env.SERVICE_CLIENT_SECRET,
  demoAccount: ${JSON.stringify({ customerId: f.customerId, accountId: f.accountId, cardId: f.cardId })},
  stepUp: {},
  rateLimit: { windowMs: 60_000, max: ${LIMIT} },
  logger: (line) => console.log(JSON.stringify({ log: line })),
});

${hono ? `const app = new Hono();\n${HONO};\n` : ''}const server = ${hono ? HONO_SERVE[name] : line.replace('port: 3000', "hostname: '127.0.0.1', port: 0")};
console.log(JSON.stringify({ port: server.port ?? server.addr.port }));
`;
}

interface Child {
  origin: string;
  port: number;
  /** Everything the child wrote, stdout and stderr. */
  output(): string;
  /** The proxy's log lines, as the child's logger printed them. */
  logs(): Array<{ route: string; status: number; code?: string }>;
  stop(): Promise<void>;
}

/** Starts `name` on the server source with the sandbox's settings in its environment (and nothing else of ours); resolves once it printed its port. */
async function startServer(name: RuntimeName, sandbox: Sandbox, hono: boolean): Promise<Child> {
  const bin = ensureRuntime(name);
  const file = join(APP, `${name}-${hono ? 'hono' : 'server'}.ts`);
  writeFileSync(file, serverSource(name, sandbox, hono));
  const f = sandbox.fixtures;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DENO_DIR: join(CACHE, 'deno-dir'),
    DENO_NO_UPDATE_CHECK: '1',
    SERVICE_BASE_URL: f.baseUrl,
    SERVICE_TOKEN_ID: f.tokenId,
    SERVICE_CLIENT_SECRET: f.clientSecret,
  };
  const args = name === 'deno' ? ['run', ...DENO_FLAGS, file] : ['run', file];
  const child: ChildProcess = spawn(bin, args, { cwd: APP, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = () => out.split('\n').flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as { port?: number; log?: { route: string; status: number; code?: string } }] : []));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} printed no port in 30 s:\n${out}`)), 30_000);
      child.stdout!.on('data', () => {
        const port = lines().find((l) => l.port)?.port;
        if (port) (clearTimeout(timer), resolve(port));
      });
      child.once('exit', (code, signal) => (clearTimeout(timer), reject(new Error(`${name} exited (${code ?? signal}) before listening:\n${out}`))));
    });
    return {
      origin: `http://127.0.0.1:${port}`,
      port,
      output: () => out,
      logs: () => lines().flatMap((l) => (l.log ? [l.log] : [])),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

let APP: string;
before(async () => {
  if (skip) return;
  // Fetched here, outside the suites' time bound: the first run downloads some 95 MB.
  for (const name of ['bun', 'deno'] as const) ensureRuntime(name);
  APP = await installPackage();
});
after(() => {
  if (APP) rmSync(APP, { recursive: true, force: true });
});

for (const [name, hono] of [['bun', false], ['bun', true], ['deno', false], ['deno', true]] as const) {
  describe(`proxy.fetch under ${name}, mounted as the README says${hono ? ' in Hono' : ''}, in front of the sandbox`, { skip, timeout: 120_000 }, () => {
    const sandbox = useSandbox();
    let server: Child;
    before(async () => {
      server = await startServer(name, sandbox(), hono);
    });
    after(async () => {
      await server?.stop();
    });

    it('relays a read route with the Basic credentials added: the service\'s answer, no-store', async () => {
      const f = sandbox().fixtures;
      const path = `/auth/credentials?accountId=${encodeURIComponent(f.accountId)}`;
      const relayed = await fetch(`${server.origin}/api${path}`);
      const text = await relayed.text();
      assert.equal(relayed.status, 200, text);
      assert.equal(relayed.headers.get('cache-control'), 'no-store');
      const basic = 'Basic ' + Buffer.from(`${f.tokenId}:${f.clientSecret}`).toString('base64');
      assert.equal((await fetch(`${f.baseUrl}${path}`)).status, 401, 'the service answers without Basic credentials');
      assert.equal(text, await (await fetch(`${f.baseUrl}${path}`, { headers: { authorization: basic } })).text());
    });

    it('carries a login, a stamped session refresh, the step-up grant\'s cookies and the card reveal', async () => {
      await loginAndReveal(sandbox(), `${server.origin}/api`);
    });

    it('forwards a body as written: the service finds a signed retry\'s bytes the same as its first leg\'s, and respaced ones not', async () => {
      const f = sandbox().fixtures;
      // A second credential of an account that has one is a signed retry; the first leg needs no session.
      const written = `{ "type" : "SMS_OTP",\n  "accountId":"${f.accountId}" }`;
      const respaced = JSON.stringify(JSON.parse(written));
      // Well-formed (a key on the curve, a DER signature), so the service gets past it to the body; signed by no one.
      const publicKey = createECDH('prime256v1').generateKeys('hex', 'compressed');
      const stamp = Buffer.from(JSON.stringify({ publicKey, scheme: STAMP_SCHEME, signature: '3006020101020101' })).toString('base64url');
      const post = (body: string, headers: Record<string, string> = {}) => raw(server.port, { method: 'POST', path: '/api/auth/credentials', headers: { 'content-type': 'application/json', ...headers }, body });
      const codes: string[] = [];
      for (const retried of [written, respaced]) {
        const first = await post(written);
        assert.equal(first.status, 202, first.text);
        const retry = await post(retried, { [WALLET_SIGNATURE_HEADER]: stamp, [REQUEST_ID_HEADER]: first.json.requestId });
        assert.equal(retry.status, 401, retry.text);
        codes.push(retry.json.code);
      }
      assert.deepEqual(codes, ['WALLET_SIGNATURE_INVALID', 'WALLET_SIGNATURE_BODY_MISMATCH']);
    });

    it('counts each client under the address the runtime gives: one client limited, another not', async () => {
      const list = `${server.origin}/api/auth/credentials?accountId=${encodeURIComponent(sandbox().fixtures.accountId)}`;
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i++) statuses.push(await getFrom('127.0.0.2', list));
      assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429]);
      assert.equal(await getFrom('127.0.0.3', list), 200);
      assert.deepEqual(server.logs().filter((l) => l.status === 429).map((l) => [l.route, l.code]), [['listCredentials', 'RATE_LIMITED']]);
    });

    it('refuses a route and a host in the service\'s error shape, no-store', async () => {
      const none = await raw(server.port, { path: '/api/admin/users' });
      assertErrorShape(none, 404, 'NOT_FOUND');
      assert.equal(none.headers['cache-control'], 'no-store');
      const rebound = await raw(server.port, { path: '/api/auth/credentials', headers: { host: `wallet.attacker.example:${server.port}` } });
      assertErrorShape(rebound, 403, 'FORBIDDEN');
      assert.match(rebound.json.message, /does not answer for the host/);
      assert.equal(rebound.headers['cache-control'], 'no-store');
    });

    // Deno's undici runs, given --allow-env for its own variables.
    if (name === 'bun' && !hono) it('refuses at createProxy the undici transport, which Bun cannot carry, saying which it can', () => {
      const file = join(APP, 'bun-undici.ts');
      writeFileSync(file, `import { createProxy } from 'wallet-elements/proxy';
try {
  createProxy({ upstream: 'http://127.0.0.1:9/v1', tokenId: 't', clientSecret: 's', authorize: () => true, transport: 'undici' });
  console.log('created');
} catch (error) {
  console.log(String(error));
}
`);
      const run = spawnSync(ensureRuntime(name), ['run', file], { cwd: APP, encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
      assert.match(run.stdout, /^TypeError: transport 'undici' cannot run here: .*'node'/, run.stdout + run.stderr);
    });

    // With undici asked for, Deno's undici reads variables of its own, which the README's
    // --allow-env does not grant: each exchange fails, and the log line says why.
    if (name === 'deno' && !hono) it('names, in the log line of a request the undici transport could not carry under the README\'s permissions, the runtime\'s refusal', () => {
      const f = sandbox().fixtures;
      const file = join(APP, 'deno-undici.ts');
      writeFileSync(file, `import { createProxy } from 'wallet-elements/proxy';
const proxy = createProxy<Request>({
  upstream: ${JSON.stringify(f.baseUrl)}, tokenId: 't', clientSecret: 's', authorize: () => true, rateLimit: false, transport: 'undici',
  logger: (line) => console.log(JSON.stringify(line)),
});
const answer = await proxy.fetch(new Request('http://127.0.0.1/api/auth/credentials?accountId=${encodeURIComponent(f.accountId)}'));
console.log(JSON.stringify({ status: answer.status }));
await proxy.close();
`);
      const run = spawnSync(ensureRuntime(name), ['run', ...DENO_FLAGS, file], { cwd: APP, encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, HOME: process.env.HOME, DENO_DIR: join(CACHE, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1' } });
      const lines = run.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { status: number; code?: string; cause?: string });
      assert.deepEqual(lines.map((l) => [l.status, l.code, l.cause]), [[502, 'BAD_GATEWAY', 'NotCapable'], [502, undefined, undefined]], run.stdout + run.stderr);
    });

    it('writes neither the client secret nor the Basic credentials anywhere', () => {
      const f = sandbox().fixtures;
      const basic = Buffer.from(`${f.tokenId}:${f.clientSecret}`).toString('base64');
      assert.ok(server.logs().length > 0, 'the proxy logged nothing');
      for (const secret of [f.clientSecret, basic]) assert.ok(!server.output().includes(secret), `the ${name} server wrote a secret`);
    });
  });
}
