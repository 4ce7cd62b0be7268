/**
 * Throughput and latency of the proxy on loopback, against the same upstream reached directly and
 * through two reference relays, all in one run:
 *
 *   direct            autocannon -> upstream
 *   ours (node:http)  autocannon -> createProxy (keep-alive http.Agent) -> upstream
 *   ours (undici)     autocannon -> createProxy (transport: 'undici', an undici Pool) -> upstream
 *   bare undici relay autocannon -> node:http server doing undici.request + pipe -> upstream
 *   fastify           autocannon -> fastify + @fastify/reply-from -> upstream
 *
 * The route is `GET {base}/auth/delegated-keys/{id}` answered by a minimal upstream with a small
 * DelegatedKey JSON, so that the relays' own cost shows. Every relay adds a Basic header. The
 * upstream runs in one worker thread, the relays in another, autocannon in the main thread (the
 * machine has 2 cores: absolute figures are modest; the ratios are the point). Each case is bounded
 * (`durationSec`, default 3 s, after a 1 s warm-up).
 *
 * Run: `node --import tsx bench/proxy.ts` (writes bench/results/proxy.json), or import runProxyBench.
 * Deliberately does not: benchmark the sandbox's own crypto, or pipeline requests (browsers do not).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const ROUTE_ID = 'DelegatedKey:66666666-6666-4666-8666-666666666666';
const SERVICE_PATH = `/auth/delegated-keys/${ROUTE_ID}`;
const VERSION = '/2025-10-13';
const BASIC = 'Basic ' + Buffer.from('bench-token:bench-secret').toString('base64');

export interface ProxyBenchOptions {
  /** Seconds per case (default 3). */
  durationSec?: number;
  /** Seconds of warm-up per case, not measured (default 1). */
  warmupSec?: number;
  /** Concurrent connections (default 16). */
  connections?: number;
  /** Write bench/results/proxy.json (default true). */
  write?: boolean;
}

export interface ProxyBenchCase {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export interface ProxyBenchResult {
  date: string;
  node: string;
  cpus: number;
  cpuModel: string;
  durationSec: number;
  connections: number;
  route: string;
  cases: ProxyBenchCase[];
  ratios: { oursOverBareRelay: number; oursOverFastify: number; oursUndiciOverBareRelay: number; oursOverDirect: number };
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
// Worker side: the upstream, and the relays.

/**
 * undici 8 (the top-level devDependency) needs Node >= 22.19 and throws on import under Node 20;
 * @fastify/reply-from carries undici 7, which runs here. Use whichever loads.
 */
function loadUndici(): typeof import('undici') {
  const require = createRequire(import.meta.url);
  try {
    return require('undici') as typeof import('undici');
  } catch {
    return createRequire(require.resolve('@fastify/reply-from'))('undici') as typeof import('undici');
  }
}

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

async function startRelays(upstreamPort: number): Promise<Record<string, number>> {
  const upstreamOrigin = `http://127.0.0.1:${upstreamPort}`;
  const { createProxy } = await import('../src/proxy/index.ts');
  const common = {
    upstream: upstreamOrigin + VERSION,
    tokenId: 'bench-token',
    clientSecret: 'bench-secret',
    authorize: () => true,
    rateLimit: false as const,
  };
  const ours = http.createServer(createProxy(common));
  const { Pool } = loadUndici();
  const oursUndici = http.createServer(createProxy({ ...common, transport: new Pool(upstreamOrigin, { connections: 64 }) as never }));

  // The bare relay: what an integrator would write by hand with undici, nothing checked.
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
  const fastifyPort = (fastify.server.address() as AddressInfo).port;

  return { ours: await listen(ours), oursUndici: await listen(oursUndici), bare: await listen(bare), fastify: fastifyPort };
}

if (!isMainThread && (workerData as { benchRole?: string })?.benchRole) {
  const { benchRole, upstreamPort } = workerData as { benchRole: 'upstream' | 'relays'; upstreamPort?: number };
  const ports = benchRole === 'upstream' ? await startUpstream() : await startRelays(upstreamPort!);
  parentPort!.postMessage(ports);
}

// ---------------------------------------------------------------------------------------------
// Main side.

function startWorker(data: Record<string, unknown>): Promise<{ worker: Worker; ports: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    // Worker threads do not inherit tsx's loader hooks on Node 20: register them, then load this file.
    const bootstrap = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(bootstrap, { eval: true, workerData: data });
    worker.once('message', (ports: Record<string, number>) => resolve({ worker, ports }));
    worker.once('error', reject);
  });
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export async function runProxyBench(opts: ProxyBenchOptions = {}): Promise<ProxyBenchResult> {
  const durationSec = opts.durationSec ?? 3;
  const warmupSec = opts.warmupSec ?? 1;
  const connections = opts.connections ?? 16;
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

  const up = await startWorker({ benchRole: 'upstream' });
  const relays = await startWorker({ benchRole: 'relays', upstreamPort: up.ports.upstream });
  const targets: Array<[string, string, Record<string, string>]> = [
    ['direct', `http://127.0.0.1:${up.ports.upstream}${VERSION}${SERVICE_PATH}`, { authorization: BASIC }],
    ['ours (node:http Agent)', `http://127.0.0.1:${relays.ports.ours}/api${SERVICE_PATH}`, {}],
    ['ours (undici Pool)', `http://127.0.0.1:${relays.ports.oursUndici}/api${SERVICE_PATH}`, {}],
    ['bare undici relay', `http://127.0.0.1:${relays.ports.bare}/api${SERVICE_PATH}`, {}],
    ['fastify + reply-from', `http://127.0.0.1:${relays.ports.fastify}/api${SERVICE_PATH}`, {}],
  ];

  const cases: ProxyBenchCase[] = [];
  try {
    for (const [name, url, headers] of targets) {
      if (warmupSec > 0) await autocannon({ url, connections, duration: warmupSec, pipelining: 1, headers });
      const r = await autocannon({ url, connections, duration: durationSec, pipelining: 1, headers });
      cases.push({
        name,
        requestsPerSec: round(r.requests.average, 0),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        requests: r.requests.total,
        errors: r.errors + r.timeouts,
        non2xx: r.non2xx,
      });
    }
  } finally {
    await Promise.all([up.worker.terminate(), relays.worker.terminate()]);
  }

  const rps = (name: string) => cases.find((c) => c.name === name)!.requestsPerSec;
  const result: ProxyBenchResult = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    durationSec,
    connections,
    route: `GET /api${SERVICE_PATH.replace(ROUTE_ID, '{DelegatedKey id}')}`,
    cases,
    ratios: {
      oursOverBareRelay: round(rps('ours (node:http Agent)') / rps('bare undici relay')),
      oursOverFastify: round(rps('ours (node:http Agent)') / rps('fastify + reply-from')),
      oursUndiciOverBareRelay: round(rps('ours (undici Pool)') / rps('bare undici relay')),
      oursOverDirect: round(rps('ours (node:http Agent)') / rps('direct')),
    },
  };
  if (opts.write !== false) {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'proxy.json'), JSON.stringify(result, null, 2) + '\n');
  }
  return result;
}

export function formatProxyBench(r: ProxyBenchResult): string {
  const rows = r.cases.map((c) =>
    `| ${c.name.padEnd(22)} | ${String(c.requestsPerSec).padStart(7)} | ${String(c.p50Ms).padStart(6)} | ${String(c.p99Ms).padStart(6)} | ${String(c.errors + c.non2xx).padStart(6)} |`,
  );
  return [
    `Proxy bench: ${r.route}, ${r.connections} connections, ${r.durationSec} s per case, Node ${r.node}, ${r.cpus} x ${r.cpuModel}`,
    '| case                   |   req/s | p50 ms | p99 ms | failed |',
    '|------------------------|---------|--------|--------|--------|',
    ...rows,
    `ours/bare relay ${r.ratios.oursOverBareRelay}, ours/fastify ${r.ratios.oursOverFastify}, ours(undici)/bare relay ${r.ratios.oursUndiciOverBareRelay}, ours/direct ${r.ratios.oursOverDirect}`,
  ].join('\n');
}

if (isMainThread && process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await runProxyBench();
  console.log(formatProxyBench(result));
}
