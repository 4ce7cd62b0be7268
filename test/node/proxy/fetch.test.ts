/**
 * The proxy's fetch-style entry, `proxy.fetch(request, { clientAddress })`, called with WHATWG
 * Requests as Next.js, Hono, Bun or Deno hand them to route code: against a recording upstream on
 * loopback (exact bytes and headers), and against the real sandbox (the core's login, session
 * refresh, step-up grant and card reveal, all through proxy.fetch). Last, proxy.fetch behind a
 * real node:http server, with the few lines of conversion a framework does (test-only).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createProxy, type FetchProxyHandler, type ProxyLogLine, type ProxyOptions, type ProxyRequest } from '../../../src/proxy/index.ts';
import { createClient } from '../../../src/core/client.ts';
import { createWallet } from '../../../src/core/session.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { createSandboxAccount } from '../../support/sandbox-account.ts';
import { ACCOUNT, CLIENT_SECRET, SESSION, TOKEN_ID, jarFetch, rawExchange, sandboxBinding, startRecorder, useSandbox } from './helpers.ts';

type FetchProxy = FetchProxyHandler & { close(): Promise<void> };

const BASIC = 'Basic ' + Buffer.from(`${TOKEN_ID}:${CLIENT_SECRET}`).toString('base64');

/** A proxy.fetch in front of `upstream`, its log lines and onError calls kept. */
function fetchProxy(upstream: string, options: Partial<ProxyOptions<Request>> = {}) {
  const logs: ProxyLogLine[] = [];
  const errors: unknown[] = [];
  const proxy: FetchProxy = createProxy<Request>({
    upstream,
    tokenId: TOKEN_ID,
    clientSecret: CLIENT_SECRET,
    authorize: () => true,
    logger: (line) => logs.push(line),
    onError: (error) => errors.push(error),
    ...options,
  });
  return { proxy, logs, errors };
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string; details?: Record<string, unknown> }> {
  const body = (await response.json()) as { status: number; code: string; message: string };
  assert.equal(body.status, response.status, JSON.stringify(body));
  assert.equal(typeof body.message, 'string');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  return body;
}

/** A body stream that sends `chunk` for ever, counting what was taken from it. */
function endless(chunk: Uint8Array): { stream: ReadableStream<Uint8Array>; sent(): number } {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      sent += chunk.length;
      controller.enqueue(chunk.slice());
    },
  });
  return { stream, sent: () => sent };
}

describe('proxy.fetch against a recording upstream', () => {
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  before(async () => {
    recorder = await startRecorder();
  });
  after(async () => {
    await recorder.close();
  });

  it('relays a call: the exact body bytes, Basic upstream, the browser\'s Authorization and Cookie never; the answer no-store, its Set-Cookie dropped', async () => {
    const { proxy, logs } = fetchProxy(recorder.url, { rateLimit: false });
    try {
      // Spacing, key order and an escaped character a re-serialisation would change.
      const bytes = Buffer.from(`{ "type" : "EMAIL_OTP",\n  "accountId":"${ACCOUNT}", "note": "caf\\u00e9 é" }`, 'utf8');
      const response = await proxy.fetch(
        new Request('http://localhost:3000/api/auth/credentials', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            cookie: 'app_session=browser-cookie-secret',
            authorization: 'Bearer browser-token-secret',
            'request-id': 'Request:0b5e7f9e-8a1a-4c1e-9f00-2f5d2b9c1a11',
          },
          body: bytes,
        }),
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('set-cookie'), null, 'the service\'s Set-Cookie is not relayed');
      assert.equal(response.headers.get('server'), null);
      assert.equal(response.headers.get('connection'), null);
      assert.deepEqual(await response.json(), { ok: true, method: 'POST', url: '/2025-10-13/auth/credentials' });

      const seen = recorder.requests.at(-1)!;
      assert.ok(seen.body.equals(bytes), 'the body bytes changed on the way');
      assert.equal(seen.headers.authorization, BASIC);
      assert.equal(seen.headers.cookie, undefined);
      assert.equal(seen.headers['request-id'], 'Request:0b5e7f9e-8a1a-4c1e-9f00-2f5d2b9c1a11');
      assert.equal(seen.headers['content-type'], 'application/json');

      assert.equal(logs.length, 1);
      const [line] = logs;
      assert.deepEqual({ ...line, durationMs: 0 }, { route: 'createCredential', method: 'POST', status: 200, durationMs: 0, requestId: 'Request:0b5e7f9e-8a1a-4c1e-9f00-2f5d2b9c1a11' });
      assert.ok(line!.durationMs >= 0);
      const text = JSON.stringify(logs);
      for (const secret of ['browser-cookie-secret', 'browser-token-secret', CLIENT_SECRET, BASIC, 'EMAIL_OTP']) assert.ok(!text.includes(secret), `the log line holds ${secret}`);
    } finally {
      await proxy.close();
    }
  });

  it('a DELETE whose framework hands it an empty body stream, without a length, is relayed without a body', async () => {
    const { proxy } = fetchProxy(recorder.url, { rateLimit: false });
    try {
      const empty = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
      const request = new Request(`http://localhost/api/auth/sessions/${SESSION}`, {
        method: 'DELETE',
        headers: { 'x-requested-with': 'wallet-elements' },
        body: empty,
        duplex: 'half',
      } as RequestInit);
      const response = await proxy.fetch(request);
      assert.equal(response.status, 200, await response.clone().text());
      const seen = recorder.requests.at(-1)!;
      assert.equal(seen.method, 'DELETE');
      assert.equal(seen.body.length, 0);
      assert.equal(seen.headers['content-type'], undefined);
    } finally {
      await proxy.close();
    }
  });

  it('refuses what is not a route, or whose id is not <Type>:<uuid>, in the service\'s error shape, and relays nothing', async () => {
    const { proxy, logs } = fetchProxy(recorder.url, { rateLimit: false });
    const before = recorder.requests.length;
    try {
      const none = await proxy.fetch(new Request('http://localhost/api/admin/users'));
      assert.equal(none.status, 404);
      assert.equal((await errorOf(none)).code, 'NOT_FOUND');
      const badId = await proxy.fetch(new Request('http://localhost/api/auth/sessions/Session:nope/refresh', { method: 'POST', headers: { 'content-type': 'application/json' } }));
      assert.equal(badId.status, 400);
      assert.equal((await errorOf(badId)).code, 'INVALID_INPUT');
      const method = await proxy.fetch(new Request(`http://localhost/api/cards/Card:33333333-3333-4333-8333-333333333333/reveal`));
      assert.equal(method.status, 405);
      assert.equal(method.headers.get('allow'), 'POST');
      assert.equal(recorder.requests.length, before);
      assert.deepEqual(logs.map((l) => [l.status, l.code]), [[404, 'NOT_FOUND'], [400, 'INVALID_INPUT'], [405, 'METHOD_NOT_ALLOWED']]);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a body over maxBodyBytes while reading its stream, having taken at most a chunk or two past the bound', async () => {
    const { proxy } = fetchProxy(recorder.url, { rateLimit: false, maxBodyBytes: 4096 });
    const before = recorder.requests.length;
    try {
      // A client that would send for ever, with no declared length.
      const body = endless(new Uint8Array(1024).fill(0x20));
      const request = new Request('http://localhost/api/auth/credentials', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body.stream, duplex: 'half' } as RequestInit);
      const response = await proxy.fetch(request);
      assert.equal(response.status, 413);
      assert.equal((await errorOf(response)).code, 'PAYLOAD_TOO_LARGE');
      assert.equal(response.headers.get('connection'), null, 'the framework owns the connection');
      assert.ok(body.sent() <= 4096 + 2 * 1024, `${body.sent()} bytes were taken from the stream`);

      // A declared length over the bound is refused before anything is read.
      const declared = endless(new Uint8Array(1024));
      const refused = await proxy.fetch(
        new Request('http://localhost/api/auth/credentials', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(1024 * 1024) },
          body: declared.stream,
          duplex: 'half',
        } as RequestInit),
      );
      assert.equal(refused.status, 413);
      assert.ok(declared.sent() <= 1024, `${declared.sent()} bytes were taken from the stream`);
      assert.equal(recorder.requests.length, before);
    } finally {
      await proxy.close();
    }
  });

  it('stops waiting for a body that stops arriving (408), and sends nothing upstream for a client that went away', async () => {
    const { proxy, logs } = fetchProxy(recorder.url, { rateLimit: false, upstreamTimeoutMs: 300 });
    const before = recorder.requests.length;
    try {
      let cancelled = false;
      const stalled = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode('{"type":')),
        cancel: () => void (cancelled = true),
      });
      const request = new Request('http://localhost/api/auth/credentials', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stalled, duplex: 'half' } as RequestInit);
      const late = await proxy.fetch(request);
      assert.equal(late.status, 408);
      assert.equal((await errorOf(late)).code, 'REQUEST_TIMEOUT');
      assert.ok(cancelled, 'the stalled body stream was not cancelled');

      const gone = new AbortController();
      gone.abort();
      const list = `http://localhost/api/auth/sessions?accountId=${encodeURIComponent(ACCOUNT)}`;
      const unanswered = await proxy.fetch(new Request(list, { signal: gone.signal }));
      assert.equal(unanswered.status, 499);
      assert.equal(recorder.requests.length, before);
      assert.deepEqual(logs.map((l) => [l.route, l.status]), [['createCredential', 408], ['listSessions', 499]]);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a JSON body that repeats a name, and one that is not JSON, as the Node handler does', async () => {
    const { proxy } = fetchProxy(recorder.url, { rateLimit: false });
    const before = recorder.requests.length;
    try {
      const post = (body: string, type = 'application/json') =>
        proxy.fetch(new Request('http://localhost/api/auth/credentials', { method: 'POST', headers: { 'content-type': type, 'x-requested-with': 'test' }, body }));
      const twice = await post(`{"accountId":"${ACCOUNT}","AccountId":"InternalAccount:99999999-9999-4999-8999-999999999999"}`);
      assert.equal(twice.status, 400);
      assert.match((await errorOf(twice)).message, /repeats the name "accountid"/);
      const form = await post('a=1', 'application/x-www-form-urlencoded');
      assert.equal(form.status, 415);
      assert.equal(recorder.requests.length, before);
    } finally {
      await proxy.close();
    }
  });

  it('limits each client address on its own, and answers 500 with onError told why when no address is given', async () => {
    const { proxy, errors, logs } = fetchProxy(recorder.url, { rateLimit: { windowMs: 60_000, max: 2 } });
    try {
      const list = `http://localhost/api/auth/sessions?accountId=${encodeURIComponent(ACCOUNT)}`;
      const from = (clientAddress?: string) => proxy.fetch(new Request(list), { clientAddress });
      assert.equal((await from('203.0.113.7')).status, 200);
      assert.equal((await from('203.0.113.7')).status, 200);
      const limited = await from('203.0.113.7');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      const body = await errorOf(limited);
      assert.equal(body.code, 'RATE_LIMITED');
      assert.deepEqual(body.details, { reason: 'PROXY_RATE_LIMIT' });
      // Another client is not held up by the first.
      assert.equal((await from('198.51.100.20')).status, 200);

      const anonymous = await from(undefined);
      assert.equal(anonymous.status, 500);
      assert.equal((await errorOf(anonymous)).code, 'INTERNAL_ERROR');
      assert.equal(errors.length, 1);
      assert.match(String(errors[0]), /TypeError: proxy\.fetch\(request, \{ clientAddress \}\) was given no client address/);
      assert.deepEqual(logs.map((l) => l.status), [200, 200, 429, 200, 500]);
    } finally {
      await proxy.close();
    }
  });

  it('answers only the hosts it serves: the URL\'s host, a Host header, X-Forwarded-Host, and a repeated Host', async () => {
    const { proxy } = fetchProxy(recorder.url, { rateLimit: false, allowedHosts: ['.shop.example'] });
    const before = recorder.requests.length;
    const list = `/api/auth/sessions?accountId=${encodeURIComponent(ACCOUNT)}`;
    try {
      assert.equal((await proxy.fetch(new Request(`https://wallet.shop.example${list}`))).status, 200);
      const rebound = await proxy.fetch(new Request(`http://attacker.example${list}`));
      assert.equal(rebound.status, 403);
      assert.deepEqual((await errorOf(rebound)).details, { host: 'attacker.example' });
      const header = await proxy.fetch(new Request(`http://127.0.0.1${list}`, { headers: { host: 'attacker.example:8080' } }));
      assert.equal(header.status, 403);
      const forwarded = await proxy.fetch(new Request(`http://127.0.0.1${list}`, { headers: { 'x-forwarded-host': 'attacker.example' } }));
      assert.equal(forwarded.status, 403);
      // Headers joins a repeated Host into "a, b": the second name would go unchecked.
      const repeated = new Headers();
      repeated.append('host', 'localhost');
      repeated.append('host', 'attacker.example');
      const twice = await proxy.fetch(new Request(`http://localhost${list}`, { headers: repeated }));
      assert.equal(twice.status, 400);
      assert.match((await errorOf(twice)).message, /host header is repeated/);
      assert.equal(recorder.requests.length, before + 1);
    } finally {
      await proxy.close();
    }
  });

  it('keeps the same-origin and CSRF rules: another site\'s page and a state change without a JSON type or custom header are refused', async () => {
    const { proxy } = fetchProxy(recorder.url, { rateLimit: false });
    const before = recorder.requests.length;
    try {
      const crossSite = await proxy.fetch(
        new Request('http://localhost/api/auth/credentials', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
          body: '{}',
        }),
      );
      assert.equal(crossSite.status, 403);
      const form = await proxy.fetch(new Request(`http://localhost/api/auth/sessions/${SESSION}`, { method: 'DELETE' }));
      assert.equal(form.status, 403);
      assert.match((await errorOf(form)).message, /Content-Type: application\/json or an X-Requested-With/);
      assert.equal(recorder.requests.length, before);
    } finally {
      await proxy.close();
    }
  });
});

describe('proxy.fetch against the sandbox', () => {
  const sandbox = useSandbox();

  /** A proxy.fetch for the sandbox's demo account, with the step-up on. */
  function demoProxy() {
    const f = sandbox().fixtures;
    const seen: ProxyRequest[] = [];
    const proxy = createProxy<Request>({
      ...sandboxBinding(sandbox()),
      stepUp: { ttlSeconds: 30, accountForCard: (cardId, request) => (seen.push(request), cardId === f.cardId ? f.accountId : undefined) },
    });
    return { proxy, seen };
  }

  /** A browser's fetch into proxy.fetch: same origin, with a cookie jar. */
  const browser = (proxy: FetchProxy) => jarFetch((input, init) => proxy.fetch(new Request(input, init), { clientAddress: '127.0.0.1' }));

  it('logs in, refreshes, gets the step-up grant as a Set-Cookie on the Response, reveals the card, and a logout clears the grant', async () => {
    const f = sandbox().fixtures;
    const { proxy, seen } = demoProxy();
    try {
      const page = browser(proxy);
      const client = createClient({ baseUrl: 'http://localhost:3000/api', fetch: page.fetch });
      const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
      const login = await wallet.startOtpLogin({ credentialId: f.emailCredentialId });
      await login.submit('000000');
      await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');

      const before = (await wallet.current(f.accountId))!.sessionId.slice(8);
      const { sessionId } = await wallet.refresh(f.accountId);
      // Each Set-Cookie a header of its own: the refreshed session's grant goes, the new one's comes.
      assert.equal(page.setCookies.length, 2);
      assert.equal(page.setCookies[0], `wallet_step_up_${before}=; Path=/api/cards; Max-Age=0; HttpOnly; SameSite=Strict`);
      const grant = page.setCookies[1]!;
      assert.match(grant, new RegExp(`^wallet_step_up_${sessionId.slice(8)}=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+; Path=/api/cards; Max-Age=30; HttpOnly; SameSite=Strict$`));
      const reveal = await client.revealCard(f.cardId);
      assert.match(reveal.panEmbedUrl, /\/processor\/card\?token=/);
      // The hooks are handed the Request as it came.
      assert.ok(seen.at(-1) instanceof Request);

      await wallet.logout(f.accountId);
      assert.equal(page.setCookies.at(-1), `wallet_step_up_${sessionId.slice(8)}=; Path=/api/cards; Max-Age=0; HttpOnly; SameSite=Strict`);
      assert.equal(page.jar.size, 0);
    } finally {
      await proxy.close();
    }
  });

  it('marks the grant Secure when the framework\'s URL is https', async () => {
    const f = sandbox().fixtures;
    const { proxy } = demoProxy();
    try {
      const page = browser(proxy);
      const client = createClient({ baseUrl: 'https://localhost/api', fetch: page.fetch });
      const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
      await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
      await wallet.refresh(f.accountId);
      assert.match(page.setCookies.at(-1)!, /; SameSite=Strict; Secure$/);
      await wallet.logout(f.accountId);
    } finally {
      await proxy.close();
    }
  });

  it('the grant opens the card from any of several Cookie lines, joined with ", " as the Fetch standard\'s Headers does (Deno) or "; " as Node\'s; each Set-Cookie reaches the wire a line of its own', async () => {
    const f = sandbox().fixtures;
    const { proxy } = demoProxy();
    // As a framework builds its Request (test-only): each raw header line appended to a Headers.
    // Node's Headers joins repeated Cookie lines with "; "; the Fetch standard's, as in Deno (and
    // @hono/node-server run there), joins every repeated header with ", ", done here by hand.
    let standard = false;
    const server = http.createServer(async (req, res) => {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const [name, value] = [req.rawHeaders[i]!, req.rawHeaders[i + 1]!];
        const joined = standard ? headers.get(name) : null;
        if (joined !== null) headers.set(name, `${joined}, ${value}`);
        else headers.append(name, value);
      }
      const body = req.method === 'GET' || req.method === 'HEAD' ? null : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, duplex: 'half' } as RequestInit);
      const response = await proxy.fetch(request, { clientAddress: req.socket.remoteAddress });
      for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
      res.setHeader('set-cookie', response.headers.getSetCookie());
      res.writeHead(response.status).end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const page = jarFetch();
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}/api`, fetch: page.fetch });
      const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
      await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
      const before = (await wallet.current(f.accountId))!.sessionId.slice(8);
      const { sessionId } = await wallet.refresh(f.accountId);
      // Two Set-Cookie lines on the wire, neither folded into the other.
      assert.deepEqual(page.setCookies.map((c) => c.split('=')[0]), [`wallet_step_up_${before}`, `wallet_step_up_${sessionId.slice(8)}`]);
      const grant = `wallet_step_up_${sessionId.slice(8)}=${page.jar.get(`wallet_step_up_${sessionId.slice(8)}`)}`;

      // The reveal over a raw connection, the grant in a Cookie line of its own beside another.
      const reveal = async (...cookies: string[]) => {
        const lines = [`POST /api/cards/${f.cardId}/reveal HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'X-Requested-With: test', 'Content-Length: 0', 'Connection: close', ...cookies.map((c) => `Cookie: ${c}`)];
        const answer = await rawExchange(port, [`${lines.join('\r\n')}\r\n\r\n`]);
        return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) };
      };
      for (standard of [false, true]) {
        for (const cookies of [['app_session=1', grant], [grant, 'app_session=1'], ['app_session=1; theme=dark', grant, 'lang=en']]) {
          const r = await reveal(...cookies);
          assert.equal(r.status, 200, `${standard ? '", "' : '"; "'} ${cookies.join(' | ')}: ${r.body}`);
          assert.match(r.body, /\/processor\/card\?token=/);
        }
        // Without the grant in any line, still refused.
        const refused = await reveal('app_session=1', `wallet_step_up_${before}=x.y`);
        assert.equal(refused.status, 403);
        assert.match(refused.body, /STEP_UP_REQUIRED/);
      }
      await wallet.logout(f.accountId);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await proxy.close();
    }
  });

  it('runs behind a node:http server, converting as a framework does: relays a call, an answer byte for byte, the step-up grant\'s Set-Cookie lines there and back, and a 413 reaches the client', async () => {
    const f = sandbox().fixtures;
    const basic = 'Basic ' + Buffer.from(`${f.tokenId}:${f.clientSecret}`).toString('base64');
    // An account of its own, without a code credential yet.
    const made = await createSandboxAccount(sandbox(), { email: 'fetch@example.com', emailCredential: false, actions: 0 });
    assert.equal(made.status, 201);
    const set = (await made.json()) as { customerId: string; accountId: string; cardId: string };
    const proxy = createProxy<Request>({
      upstream: f.baseUrl,
      tokenId: f.tokenId,
      clientSecret: f.clientSecret,
      demoAccount: { customerId: set.customerId, accountId: set.accountId, cardId: set.cardId },
      maxBodyBytes: 16 * 1024,
      stepUp: { ttlSeconds: 30 },
    });
    // What a framework does on Node (test-only): a Request from the IncomingMessage (its raw
    // header lines, its body as a stream), and the Response written back: every header set before
    // writeHead sends them, each Set-Cookie a line of its own (Headers joins no Set-Cookie:
    // getSetCookie gives them apart).
    const server = http.createServer(async (req, res) => {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const body = req.method === 'GET' || req.method === 'HEAD' ? null : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, duplex: 'half' } as RequestInit);
      const response = await proxy.fetch(request, { clientAddress: req.socket.remoteAddress });
      for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
      const cookies = response.headers.getSetCookie();
      if (cookies.length) res.setHeader('set-cookie', cookies);
      res.writeHead(response.status).end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const created = await fetch(`${origin}/api/auth/credentials`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'EMAIL_OTP', accountId: set.accountId }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      const credential = (await created.json()) as { id: never; accountId?: string };
      assert.equal(credential.accountId, set.accountId);

      // The step-up through the server, as a browser keeps cookies: a refresh answers with two
      // Set-Cookie lines (the old session's grant cleared, the new one's), which the reveal sends back.
      const page = jarFetch();
      const client = createClient({ baseUrl: `${origin}/api`, fetch: page.fetch });
      const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
      await (await wallet.startOtpLogin({ credentialId: credential.id })).submit('000000');
      await assert.rejects(client.revealCard(set.cardId as never), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
      const ended = (await wallet.current(set.accountId as never))!.sessionId.slice(8);
      const { sessionId } = await wallet.refresh(set.accountId as never);
      assert.deepEqual(page.setCookies.map((c) => c.split('=')[0]), [`wallet_step_up_${ended}`, `wallet_step_up_${sessionId.slice(8)}`]);
      assert.match(page.setCookies[1]!, /^[^=]+=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; Path=\/api\/cards; Max-Age=30; HttpOnly; SameSite=Strict$/);
      assert.match((await client.revealCard(set.cardId as never)).panEmbedUrl, /\/processor\/card\?token=/);
      await wallet.logout(set.accountId as never);
      assert.equal(page.jar.size, 0, 'the logout\'s Set-Cookie cleared the grant');

      const listPath = `/auth/credentials?accountId=${encodeURIComponent(set.accountId)}`;
      const relayed = Buffer.from(await (await fetch(`${origin}/api${listPath}`)).arrayBuffer());
      const direct = Buffer.from(await (await fetch(`${f.baseUrl}${listPath}`, { headers: { authorization: basic } })).arrayBuffer());
      assert.ok(relayed.equals(direct), 'the relayed answer differs from the service\'s');

      // A client uploading more than the bound, with no declared length, gets the 413.
      const tooLarge = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${origin}/api/auth/credentials`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        const chunk = Buffer.alloc(8 * 1024, 0x20);
        for (let i = 0; i < 8; i++) req.write(chunk);
        req.end();
      });
      assert.equal(tooLarge, 413);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await proxy.close();
    }
  });
});
