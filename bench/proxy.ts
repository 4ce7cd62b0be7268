/**
 * Throughput and latency of the proxy on loopback, against the same upstream reached directly and
 * through two reference relays, all in one run:
 *
 *   direct                 autocannon -> upstream
 *   ours                   autocannon -> createProxy (its default transport, an undici Pool) -> upstream
 *   ours (node:http Agent) autocannon -> createProxy (transport: 'node', a keep-alive http.Agent) -> upstream
 *   bare undici relay      autocannon -> node:http server doing undici.request + pipe -> upstream
 *   fastify + reply-from   autocannon -> fastify + @fastify/reply-from -> upstream
 *
 * The route is `GET {base}/auth/delegated-keys/{id}` answered by a minimal upstream with a small
 * DelegatedKey JSON, so that the relays' own cost shows. Every relay adds a Basic header. The
 * upstream and each relay run in their own child process, autocannon in this one (the machine has
 * 2 cores: absolute figures are modest; the ratios are the point). Each case is bounded:
 * a 1 s warm-up, then 5 interleaved rounds of 2 s (every other one in reverse order); the median round
 * is reported, and the throughput ratios are also taken round by round (their median).
 *
 * Run: `node --import tsx bench/proxy.ts` (writes bench/results/proxy.json), or import runProxyBench.
 * Profiling: `PROXY_BENCH_CPU_PROF=<dir>` runs every relay under `node --cpu-prof` and writes its
 * profiles to `<dir>/<relay>/` when the bench ends (the largest is the main thread's);
 * `PROXY_BENCH_CASES=ours,bare` runs only those relays (and then writes no results file).
 * Deliberately does not: benchmark the sandbox's own crypto, or pipeline requests (browsers do not).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fork, type ChildProcess } from 'node:child_process';

const ROUTE_ID = 'DelegatedKey:66666666-6666-4666-8666-666666666666';
const SERVICE_PATH = `/auth/delegated-keys/${ROUTE_ID}`;
const VERSION = '/2025-10-13';
const BASIC = 'Basic ' + Buffer.from('bench-token:bench-secret').toString('base64');

export interface ProxyBenchOptions {
  /** Measured seconds per case, split over the rounds (default 10). */
  durationSec?: number;
  /** Interleaved rounds; each case reports its median round (default 5). */
  rounds?: number;
  /** Seconds of warm-up per case, not measured (default 1). */
  warmupSec?: number;
  /** Concurrent connections (default 16). */
  connections?: number;
  /** Write bench/results/proxy.json (default true; never when `only` is given). */
  write?: boolean;
  /** Relays to run (default all): 'ours', 'oursNode', 'bare', 'fastify'; direct always runs. */
  only?: RelayName[];
  /** Directory for a `--cpu-prof` profile of each relay (default none). */
  cpuProfDir?: string;
}

export interface ProxyBenchCase {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Median CPU time (user + system) the serving process spent per request, in microseconds. */
  cpuMicrosPerRequest: number;
  requests: number;
  errors: number;
  non2xx: number;
  /** req/s of each round, for judging the noise. */
  roundsRequestsPerSec: number[];
}

export interface ProxyBenchResult {
  date: string;
  node: string;
  cpus: number;
  cpuModel: string;
  durationSec: number;
  rounds: number;
  connections: number;
  route: string;
  cases: ProxyBenchCase[];
  /**
   * Throughput ratios of each case's median round (higher is better for ours), the same ratios taken
   * round by round and then their median (`...ByRound`: both cases of a round share its load), and
   * CPU-per-request ratios (lower is better for ours).
   */
  ratios: {
    oursOverBareRelayByRound: number;
    oursOverFastifyByRound: number;
    oursOverBareRelay: number;
    oursOverFastify: number;
    oursNodeOverBareRelay: number;
    oursOverDirect: number;
    cpuOursOverBareRelay: number;
    cpuOursOverFastify: number;
  };
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; pipelining: number; headers?: Record<string, string> }) => Promise<AutocannonResult>;

// ---------------------------------------------------------------------------------------------
// Child side: the upstream, or one relay.

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

async function startUpstream(): Promise<Record<string, number>> {
  const body = JSON.stringify({
    id: ROUTE_ID,
    cardId: 'Card:33333333-3333-4333-8333-333333333333',
    fundingSourceId: 'CardFundingSource:12121212-1212-4212-8212-121212121212',
    accountId: 'InternalAccount:11111111-1111-4111-8111-111111111111',
    publicKey: '02' + 'ab'.repeat(32),
    nickname: 'Bench key',
    status: 'ACTIVE',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const server = http.createServer((req, res) => {
    if (req.url !== VERSION + SERVICE_PATH || req.headers.authorization !== BASIC) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"status":401,"code":"UNAUTHORIZED","message":"bad credentials"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'Request:bench' });
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  return { upstream: await listen(server) };
}

export type RelayName = 'ours' | 'oursNode' | 'bare' | 'fastify';

async function startRelay(name: RelayName, upstreamPort: number): Promise<Record<string, number>> {
  const upstreamOrigin = `http://127.0.0.1:${upstreamPort}`;
  const common = {
    upstream: upstreamOrigin + VERSION,
    tokenId: 'bench-token',
    clientSecret: 'bench-secret',
    authorize: () => true,
    rateLimit: false as const,
  };
  if (name === 'ours' || name === 'oursNode') {
    const { createProxy } = await import('../src/proxy/index.ts');
    // 'ours' is the proxy as integrators get it: no transport option, so its own undici Pool.
    const options = name === 'ours' ? common : { ...common, transport: 'node' as const };
    return { [name]: await listen(http.createServer(createProxy(options))) };
  }
  if (name === 'bare') {
    // What an integrator would write by hand with undici: nothing checked, nothing bounded.
    const { Pool } = await import('undici');
    const pool = new Pool(upstreamOrigin, { connections: 64 });
    const bare = http.createServer((req, res) => {
      const url = req.url ?? '/';
      pool
        .request({ method: 'GET', path: VERSION + url.slice('/api'.length), headers: { authorization: BASIC, accept: 'application/json' } })
        .then(async (r) => {
          res.writeHead(r.statusCode, { 'content-type': String(r.headers['content-type'] ?? 'application/json') });
          for await (const chunk of r.body) res.write(chunk);
          res.end();
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
    return { bare: await listen(bare) };
  }
  const { default: Fastify } = await import('fastify');
  const { default: replyFrom } = await import('@fastify/reply-from');
  const fastify = Fastify({ logger: false });
  await fastify.register(replyFrom, { base: upstreamOrigin });
  fastify.get('/api/*', (request, reply) => {
    void reply.from(VERSION + request.url.slice('/api'.length), {
      rewriteRequestHeaders: (_req, headers) => ({ ...headers, authorization: BASIC, host: `127.0.0.1:${upstreamPort}` }),
    });
  });
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { fastify: (fastify.server.address() as AddressInfo).port };
}

const ROLE_FLAG = '--proxy-bench-role=';
const role = process.argv.find((a) => a.startsWith(ROLE_FLAG))?.slice(ROLE_FLAG.length);
if (role && process.send) {
  const ports = role === 'upstream' ? await startUpstream() : await startRelay(role as RelayName, Number(process.env.PROXY_BENCH_UPSTREAM_PORT));
  // The parent asks for this process's CPU time around each measured round.
  process.on('message', (m) => {
    if (m === 'cpu') {
      const u = process.cpuUsage();
      process.send!({ cpuMicros: u.user + u.system });
    }
    // A normal exit, so that --cpu-prof writes its profile (a signal would lose it).
    if (m === 'exit') process.exit(0);
  });
  process.send({ ports });
}

// ---------------------------------------------------------------------------------------------
// Main side.

interface Child {
  proc: ChildProcess;
  port: number;
  cpu(): Promise<number>;
}

function startChild(roleName: string, env: Record<string, string> = {}, cpuProfDir?: string): Promise<Child> {
  return new Promise((resolve, reject) => {
    // One directory per role: tsx's loader thread writes a profile of its own next to the main one.
    const prof = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(cpuProfDir, roleName)}`] : [];
    const proc = fork(fileURLToPath(import.meta.url), [ROLE_FLAG + roleName], {
      execArgv: ['--import', 'tsx', ...prof],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`bench ${roleName} exited with ${code}`)));
    proc.once('message', (m: { ports: Record<string, number> }) => {
      const port = Object.values(m.ports)[0]!;
      resolve({
        proc,
        port,
        cpu: () =>
          new Promise((res) => {
            proc.once('message', (r: { cpuMicros: number }) => res(r.cpuMicros));
            proc.send('cpu');
          }),
      });
    });
  });
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export async function runProxyBench(opts: ProxyBenchOptions = {}): Promise<ProxyBenchResult> {
  const durationSec = opts.durationSec ?? 10;
  const roundCount = Math.max(1, opts.rounds ?? 5);
  const roundSec = Math.max(1, Math.round(durationSec / roundCount));
  const warmupSec = opts.warmupSec ?? 1;
  const connections = opts.connections ?? 16;
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

  const up = await startChild('upstream');
  const children: Child[] = [up];
  const targets: Array<{ name: string; url: string; headers: Record<string, string>; child: Child }> = [];
  try {
    targets.push({ name: 'direct', url: `http://127.0.0.1:${up.port}${VERSION}${SERVICE_PATH}`, headers: { authorization: BASIC }, child: up });
    for (const [name, relay] of [
      ['ours', 'ours'],
      ['ours (node:http Agent)', 'oursNode'],
      ['bare undici relay', 'bare'],
      ['fastify + reply-from', 'fastify'],
    ] as const) {
      if (opts.only && !opts.only.includes(relay)) continue;
      const child = await startChild(relay, { PROXY_BENCH_UPSTREAM_PORT: String(up.port) }, opts.cpuProfDir);
      children.push(child);
      targets.push({ name, url: `http://127.0.0.1:${child.port}/api${SERVICE_PATH}`, headers: {}, child });
    }
  } catch (e) {
    for (const c of children) c.proc.kill();
    throw e;
  }

  // Cases run interleaved, round after round, and each reports its median round: the machine is
  // shared, and a load spike then hurts every case in that round instead of one case. The relay's
  // own CPU time per request (its process only, upstream excluded) is far less sensitive to other
  // load than req/s, so it is reported too.
  const rounds: Array<Array<{ r: AutocannonResult; cpuMicrosPerRequest: number }>> = targets.map(() => []);
  try {
    for (const t of targets) {
      if (warmupSec > 0) await autocannon({ url: t.url, connections, duration: warmupSec, pipelining: 1, headers: t.headers });
    }
    for (let n = 0; n < roundCount; n++) {
      // Every other round runs the cases in reverse, so that no case always follows the same one.
      const order = [...targets.entries()];
      if (n % 2 === 1) order.reverse();
      for (const [i, t] of order) {
        const cpu0 = await t.child.cpu();
        const r = await autocannon({ url: t.url, connections, duration: roundSec, pipelining: 1, headers: t.headers });
        const cpu1 = await t.child.cpu();
        rounds[i]!.push({ r, cpuMicrosPerRequest: (cpu1 - cpu0) / Math.max(1, r.requests.total) });
      }
    }
  } finally {
    for (const c of children) {
      c.proc.removeAllListeners('exit');
      if (opts.cpuProfDir && c !== up) {
        const exited = new Promise((r) => c.proc.once('exit', r));
        c.proc.send('exit');
        await exited;
      } else c.proc.kill();
    }
  }
  const cases: ProxyBenchCase[] = targets.map(({ name }, i) => {
    const all = rounds[i]!;
    const byRps = [...all].sort((a, b) => a.r.requests.average - b.r.requests.average);
    const median = byRps[Math.floor(byRps.length / 2)]!.r;
    const cpus = all.map((x) => x.cpuMicrosPerRequest).sort((a, b) => a - b);
    return {
      name,
      requestsPerSec: round(median.requests.average, 0),
      p50Ms: median.latency.p50,
      p99Ms: median.latency.p99,
      cpuMicrosPerRequest: round(cpus[Math.floor(cpus.length / 2)]!, 1),
      requests: all.reduce((s, x) => s + x.r.requests.total, 0),
      errors: all.reduce((s, x) => s + x.r.errors + x.r.timeouts, 0),
      non2xx: all.reduce((s, x) => s + x.r.non2xx, 0),
      roundsRequestsPerSec: all.map((x) => round(x.r.requests.average, 0)),
    };
  });

  // NaN (JSON null) for a case left out by `only`.
  const rps = (name: string) => cases.find((c) => c.name === name)?.requestsPerSec ?? NaN;
  const cpu = (name: string) => cases.find((c) => c.name === name)?.cpuMicrosPerRequest ?? NaN;
  const byRound = (a: string, b: string) => {
    const ra = cases.find((c) => c.name === a)?.roundsRequestsPerSec;
    const rb = cases.find((c) => c.name === b)?.roundsRequestsPerSec;
    if (!ra || !rb) return NaN;
    const each = ra.map((v, n) => v / rb[n]!).sort((x, y) => x - y);
    return each[Math.floor(each.length / 2)]!;
  };
  const result: ProxyBenchResult = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    durationSec,
    rounds: roundCount,
    connections,
    route: `GET /api${SERVICE_PATH.replace(ROUTE_ID, '{DelegatedKey id}')}`,
    cases,
    ratios: {
      oursOverBareRelayByRound: round(byRound('ours', 'bare undici relay')),
      oursOverFastifyByRound: round(byRound('ours', 'fastify + reply-from')),
      oursOverBareRelay: round(rps('ours') / rps('bare undici relay')),
      oursOverFastify: round(rps('ours') / rps('fastify + reply-from')),
      oursNodeOverBareRelay: round(rps('ours (node:http Agent)') / rps('bare undici relay')),
      oursOverDirect: round(rps('ours') / rps('direct')),
      cpuOursOverBareRelay: round(cpu('ours') / cpu('bare undici relay')),
      cpuOursOverFastify: round(cpu('ours') / cpu('fastify + reply-from')),
    },
  };
  if (opts.write !== false && !opts.only) {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'proxy.json'), JSON.stringify(result, null, 2) + '\n');
  }
  return result;
}

export function formatProxyBench(r: ProxyBenchResult): string {
  const rows = r.cases.map((c) =>
    `| ${c.name.padEnd(22)} | ${String(c.requestsPerSec).padStart(7)} | ${String(c.p50Ms).padStart(6)} | ${String(c.p99Ms).padStart(6)} | ${String(c.cpuMicrosPerRequest).padStart(9)} | ${String(c.errors + c.non2xx).padStart(6)} | ${c.roundsRequestsPerSec.join(' / ')}`,
  );
  return [
    `Proxy bench: ${r.route}, ${r.connections} connections, median of ${r.rounds} rounds (${r.durationSec} s per case), Node ${r.node}, ${r.cpus} x ${r.cpuModel}`,
    '| case                   |   req/s | p50 ms | p99 ms | CPU us/req | failed | rounds req/s',
    '|------------------------|---------|--------|--------|-----------|--------|-------------',
    ...rows,
    `req/s, median round by round: ours/bare relay ${r.ratios.oursOverBareRelayByRound}, ours/fastify ${r.ratios.oursOverFastifyByRound}`,
    `req/s of the median rounds: ours/bare relay ${r.ratios.oursOverBareRelay}, ours/fastify ${r.ratios.oursOverFastify}, ours(node:http)/bare relay ${r.ratios.oursNodeOverBareRelay}, ours/direct ${r.ratios.oursOverDirect}`,
    `CPU per request: ours/bare relay ${r.ratios.cpuOursOverBareRelay}, ours/fastify ${r.ratios.cpuOursOverFastify}`,
  ].join('\n');
}

if (!role && process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const only = process.env.PROXY_BENCH_CASES?.split(',').filter(Boolean) as RelayName[] | undefined;
  const cpuProfDir = process.env.PROXY_BENCH_CPU_PROF || undefined;
  const result = await runProxyBench({ ...(only?.length ? { only } : {}), ...(cpuProfDir ? { cpuProfDir: path.resolve(cpuProfDir) } : {}) });
  console.log(formatProxyBench(result));
}
