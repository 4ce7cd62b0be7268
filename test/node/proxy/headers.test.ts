/**
 * What the proxy sends upstream and back (DESIGN.md "Security rules", "How a call travels"), checked
 * on a recording upstream over real HTTP: the Basic credentials are added, the browser's
 * Authorization and Cookie and hop-by-hop headers never pass, the wallet signature and Request-Id
 * pass untouched (the signature renamed when asked), body bytes pass unchanged, and answers carry
 * no-store / no-referrer and none of the upstream's private headers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  ACCOUNT,
  AGENT_ACTION,
  AUTH_METHOD,
  CARD,
  CLIENT_SECRET,
  DELEGATED_KEY,
  TOKEN_ID,
  okResponder,
  JSON_HEADERS,
  raw,
  startProxy,
  startRecorder,
  UPSTREAM_DATE,
  type RawResponse,
} from './helpers.ts';

const BASIC = 'Basic ' + Buffer.from(`${TOKEN_ID}:${CLIENT_SECRET}`).toString('base64');
const STAMP = 'eyJwdWJsaWNLZXkiOiIwMmFi' + 'x'.repeat(40);
const REQ1 = 'Request:0b9c2d4e-1f3a-4b5c-8d6e-7f8091a2b3c4';
const REQ2 = 'Request:1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5';

describe('proxy headers and bytes', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  let px: Awaited<ReturnType<typeof startProxy>>;
  let renamed: Awaited<ReturnType<typeof startProxy>>;
  const responses: RawResponse[] = [];
  const call = async (...a: Parameters<typeof raw>) => {
    const r = await raw(...a);
    responses.push(r);
    return r;
  };

  before(async () => {
    up = await startRecorder();
    px = await startProxy({ upstream: up.url });
    renamed = await startProxy({ upstream: up.url, signatureHeader: 'X-Grid-Wallet-Signature' });
  });
  after(async () => {
    await px.close();
    await renamed.close();
    await up.close();
  });

  it('adds Basic upstream and strips the browser Authorization, Cookie, hop-by-hop and unknown headers', async () => {
    const before = up.requests.length;
    const r = await call(px.port, {
      method: 'POST',
      path: `/api/cards/${CARD}/reveal`,
      headers: {
        'content-type': 'application/json',
        authorization: 'Basic ZXZpbDpldmls',
        cookie: 'session=browser-session',
        connection: 'keep-alive, x-hop',
        'x-hop': 'should-not-pass',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        upgrade: 'websocket',
        'proxy-authorization': 'Basic abc',
        'x-forwarded-for': '203.0.113.9',
        'x-custom': 'nope',
        'accept-encoding': 'gzip',
      },
    });
    assert.equal(r.status, 200);
    assert.equal(up.requests.length, before + 1);
    const seen = up.requests.at(-1)!;
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, `/2025-10-13/cards/${CARD}/reveal`);
    assert.equal(seen.headers.authorization, BASIC);
    for (const h of ['cookie', 'x-hop', 'keep-alive', 'te', 'upgrade', 'proxy-authorization', 'x-forwarded-for', 'x-custom']) {
      assert.equal(seen.headers[h], undefined, `${h} must not reach upstream`);
    }
    // The proxy's own, not the browser's gzip: it relays bytes it can read.
    assert.equal(seen.headers['accept-encoding'], 'identity');
    // A bodiless POST: no content-type upstream, an explicit zero length.
    assert.equal(seen.headers['content-type'], undefined);
    assert.equal(seen.headers['content-length'], '0');
    assert.equal(seen.body.length, 0);
  });

  it('forwards no header the client named in Connection, and relays none the service named there (RFC 9110 section 7.6.1)', async () => {
    const verify = `/api/auth/credentials/${AUTH_METHOD}/verify`;
    const signed = { 'content-type': 'application/json', 'service-wallet-signature': STAMP, 'request-id': REQ1 };
    await call(px.port, { method: 'POST', path: verify, headers: { ...signed, connection: 'keep-alive, Service-Wallet-Signature,request-id' }, body: '{}' });
    let seen = up.requests.at(-1)!;
    assert.equal(seen.headers['service-wallet-signature'], undefined);
    assert.equal(seen.headers['request-id'], undefined);
    assert.equal(seen.headers['content-type'], 'application/json');
    // Named under the browser's name, dropped under the upstream's.
    await call(renamed.port, { method: 'POST', path: verify, headers: { ...signed, connection: 'Service-Wallet-Signature' }, body: '{}' });
    seen = up.requests.at(-1)!;
    assert.equal(seen.headers['x-grid-wallet-signature'], undefined);
    assert.equal(seen.headers['request-id'], REQ1);
    // Repeated Connection headers count together; the agent's Bearer token is the browser's own header.
    await call(px.port, { path: '/api/agents/me/actions', headers: { authorization: 'Bearer agent-token.ABC_123', connection: ['keep-alive', 'Authorization'] } });
    assert.equal(up.requests.at(-1)!.headers.authorization, undefined);
    // On a Basic route the Authorization upstream is the proxy's own, whatever the browser names.
    await call(px.port, { method: 'POST', path: verify, headers: { ...signed, connection: 'authorization, content-type' }, body: '{}' });
    seen = up.requests.at(-1)!;
    assert.equal(seen.headers.authorization, BASIC);
    assert.equal(seen.headers['content-type'], undefined);
    assert.equal(seen.headers['service-wallet-signature'], STAMP);

    const date = new Date(Date.now() - 3_600_000).toUTCString();
    try {
      up.setResponder((_req, res) => {
        res.writeHead(429, { 'content-type': 'application/json', connection: 'Request-Id, retry-after', 'request-id': 'Request:hop', 'retry-after': '7', date });
        res.end('{"status":429,"code":"RATE_LIMITED","message":"slow down"}');
      });
      let r = await call(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
      assert.deepEqual([r.status, r.headers['request-id'], r.headers['retry-after'], r.headers.date], [429, undefined, undefined, date]);
      // The same for an error the proxy puts in the service's shape.
      up.setResponder((_req, res) => {
        res.writeHead(503, { connection: 'keep-alive, Retry-After, Date', 'retry-after': '30', date });
        res.end();
      });
      r = await call(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
      assert.deepEqual([r.status, r.json.code, r.headers['retry-after']], [503, 'UPSTREAM_ERROR', undefined]);
      assert.notEqual(r.headers.date, date);
    } finally {
      up.setResponder(okResponder);
    }
  });

  it('forwards Service-Wallet-Signature and Request-Id untouched, and the body bytes exactly', async () => {
    // Odd whitespace, escaped characters and key order: any re-serialisation would change them.
    const body = '{ "type":"EMAIL_OTP" ,\n\t"encryptedOtpBundle" : "{\\"a\\":1}", "x":"\\u00e9t\u00e9 \ud83d\ude00", "n": 1.50 }';
    const r = await call(px.port, {
      method: 'POST',
      path: `/api/auth/credentials/${AUTH_METHOD}/verify`,
      headers: { 'content-type': 'application/json; charset=utf-8', 'service-wallet-signature': STAMP, 'request-id': REQ1 },
      body,
    });
    assert.equal(r.status, 200);
    const seen = up.requests.at(-1)!;
    assert.deepEqual(seen.body, Buffer.from(body, 'utf8'));
    assert.equal(seen.headers['service-wallet-signature'], STAMP);
    assert.equal(seen.headers['request-id'], REQ1);
    assert.equal(seen.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(seen.headers['content-length'], String(Buffer.byteLength(body)));
    // The log carries the browser's Request-Id and the route name, not the path.
    const line = px.logs.at(-1)!;
    assert.equal(line.route, 'verifyCredential');
    assert.equal(line.requestId, REQ1);
    assert.equal(line.status, 200);
    assert.equal(line.method, 'POST');
    assert.equal(typeof line.durationMs, 'number');
  });

  it('renames the signature header upstream when signatureHeader is set', async () => {
    await call(renamed.port, {
      method: 'DELETE',
      path: `/api/auth/credentials/${AUTH_METHOD}`,
      headers: { 'service-wallet-signature': STAMP, 'request-id': REQ2 },
    });
    const seen = up.requests.at(-1)!;
    assert.equal(seen.method, 'DELETE');
    assert.equal(seen.headers['x-grid-wallet-signature'], STAMP);
    assert.equal(seen.headers['service-wallet-signature'], undefined);
    assert.equal(seen.headers['request-id'], REQ2);
  });

  it('passes the agent Bearer token through on /agents/me and never adds Basic there', async () => {
    const r = await call(px.port, {
      path: '/api/agents/me/actions?status=PENDING_APPROVAL&limit=5&cursor=abc%2Bdef',
      headers: { authorization: 'Bearer agent-token.ABC_123', cookie: 'a=b' },
    });
    assert.equal(r.status, 200);
    const seen = up.requests.at(-1)!;
    assert.equal(seen.headers.authorization, 'Bearer agent-token.ABC_123');
    assert.equal(seen.headers.cookie, undefined);
    assert.equal(seen.url, '/2025-10-13/agents/me/actions?status=PENDING_APPROVAL&limit=5&cursor=abc%2Bdef');

    const one = await call(px.port, { path: `/api/agents/me/actions/${AGENT_ACTION}`, headers: { authorization: 'Bearer t0k3n' } });
    assert.equal(one.status, 200);
    assert.equal(up.requests.at(-1)!.headers.authorization, 'Bearer t0k3n');
  });

  it('refuses agent routes without a Bearer token (never falls back to Basic)', async () => {
    const count = up.requests.length;
    for (const headers of [{}, { authorization: BASIC }, { authorization: 'Bearer ' }, { authorization: 'Bearer a b' }] as Array<Record<string, string>>) {
      const r = await call(px.port, { path: '/api/agents/me/actions', headers });
      assert.equal(r.status, 401);
      assert.equal(r.json.code, 'UNAUTHORIZED');
    }
    assert.equal(up.requests.length, count);
  });

  it('re-encodes the documented query and forwards nothing else', async () => {
    await call(px.port, { path: `/api/auth/credentials?accountId=${encodeURIComponent(ACCOUNT)}` });
    assert.equal(up.requests.at(-1)!.url, `/2025-10-13/auth/credentials?accountId=${encodeURIComponent(ACCOUNT)}`);
    await call(px.port, { path: `/api/auth/sessions?accountId=${ACCOUNT}` });
    assert.equal(up.requests.at(-1)!.url, `/2025-10-13/auth/sessions?accountId=${encodeURIComponent(ACCOUNT)}`);
    // %3A in a path id is the one escape undone (clients using encodeURIComponent on ids).
    await call(px.port, { method: 'POST', path: `/api/cards/${encodeURIComponent(CARD)}/reveal`, headers: JSON_HEADERS });
    assert.equal(up.requests.at(-1)!.url, `/2025-10-13/cards/${CARD}/reveal`);
  });

  it('answers with no-store and no-referrer, and drops the upstream private headers', async () => {
    const r = await call(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers['referrer-policy'], 'no-referrer');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['set-cookie'], undefined);
    assert.equal(r.headers['x-upstream-internal'], undefined);
    assert.equal(r.headers.server, undefined);
    assert.equal(r.headers['request-id'], 'Request:upstream-answer');
    assert.equal(r.headers['content-type'], 'application/json');
    // The service's Date, on whose clock its expiry times are written (core/clock.ts), not the proxy's.
    assert.equal(r.headers.date, UPSTREAM_DATE);
    // Errors too.
    const e = await call(px.port, { path: '/api/nope' });
    assert.equal(e.status, 404);
    assert.equal(e.headers['cache-control'], 'no-store');
    assert.equal(e.headers['referrer-policy'], 'no-referrer');
    // The upstream's Request-Id is logged when the browser sent none.
    assert.equal(px.logs.filter((l) => l.route === 'revealCard').at(-1)!.requestId, 'Request:upstream-answer');
  });

  it('relays upstream statuses and error bodies as they are', async () => {
    up.setResponder((_req, res) => {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end('{"payloadToSign":"{\\"x\\":1}","requestId":"Request:9","expiresAt":"2030-01-01T00:00:00Z"}');
    });
    const r = await call(px.port, { method: 'POST', path: '/api/auth/delegated-keys', headers: JSON_HEADERS, body: '{}' });
    assert.equal(r.status, 202);
    assert.equal(r.text, '{"payloadToSign":"{\\"x\\":1}","requestId":"Request:9","expiresAt":"2030-01-01T00:00:00Z"}');
    up.setResponder((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end('{"status":429,"code":"RATE_LIMITED","message":"slow down"}');
    });
    const l = await call(px.port, { method: 'POST', path: `/api/auth/credentials/${AUTH_METHOD}/challenge`, headers: JSON_HEADERS });
    assert.equal(l.status, 429);
    assert.equal(l.headers['retry-after'], '7');
    assert.equal(l.json.code, 'RATE_LIMITED');
    up.setResponder((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const d = await call(px.port, { method: 'DELETE', path: `/api/auth/credentials/${AUTH_METHOD}`, headers: JSON_HEADERS });
    assert.equal(d.status, 204);
    assert.equal(d.body.length, 0);
  });

  it('sends no Content-Length with a 204, relayed or its own answer to a preflight (RFC 9110 section 8.6)', async () => {
    up.setResponder((_req, res) => {
      res.writeHead(204, { 'request-id': 'Request:upstream-answer' });
      res.end();
    });
    const relayed = await call(px.port, { method: 'DELETE', path: `/api/auth/credentials/${AUTH_METHOD}`, headers: JSON_HEADERS });
    assert.equal(relayed.status, 204);
    assert.equal(relayed.headers['content-length'], undefined);
    assert.equal(relayed.headers['cache-control'], 'no-store');
    const cors = await startProxy({ upstream: up.url, allowedOrigins: ['https://shop.example'] });
    try {
      const preflight = await raw(cors.port, { method: 'OPTIONS', path: `/api/auth/credentials/${AUTH_METHOD}`, headers: { origin: 'https://shop.example', 'access-control-request-method': 'DELETE' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers['content-length'], undefined);
      assert.equal(preflight.headers['access-control-allow-methods'], 'DELETE');
    } finally {
      await cors.close();
    }
  });

  it('refuses a Request-Id that is not Request:<uuid>, before anything goes upstream', async () => {
    const before = up.requests.length;
    for (const bad of ['Request:abc', 'Request:a\tb', `${REQ1} x`, 'Session:0b9c2d4e-1f3a-4b5c-8d6e-7f8091a2b3c4']) {
      const r = await call(px.port, { method: 'POST', path: `/api/auth/credentials/${AUTH_METHOD}/verify`, headers: { ...JSON_HEADERS, 'request-id': bad }, body: '{}' });
      assert.equal(r.status, 400, bad);
      assert.equal(r.json.code, 'INVALID_INPUT');
      assert.deepEqual(r.json.details, { errors: [{ field: 'Request-Id', message: r.json.message }] });
      assert.equal(px.logs.at(-1)!.requestId, undefined, 'a refused Request-Id is not logged');
    }
    assert.equal(up.requests.length, before);
  });

  /** The recording upstream answers the next calls with this status, headers and body. */
  const answer = (status: number, headers: Record<string, string>, body: string) =>
    up.setResponder((_req, res) => {
      res.writeHead(status, headers);
      res.end(body);
    });
  const getDelegatedKey = () => call(px.port, { path: `/api/auth/delegated-keys/${DELEGATED_KEY}` });

  it("relays and logs the service's Request-Id only in a safe shape (visible ASCII id characters, at most 128)", async () => {
    const id = (value: string) => answer(200, { 'content-type': 'application/json', 'request-id': value }, '{}');
    const longest = 'Request:' + 'a'.repeat(120);
    for (const safe of [REQ1, 'req_01HZX-9.abc~d/e+f=', longest]) {
      id(safe);
      const r = await getDelegatedKey();
      assert.equal(r.headers['request-id'], safe);
      assert.equal(px.logs.at(-1)!.requestId, safe);
    }
    const hostile = ['Request:a b', 'Request:a\tb', 'Request:"x"', "Request:'x'", '<script>alert(1)</script>', 'Request:a;b,c', 'Request:\\x', longest + 'a', 'Request:\u00e9', 'Request:\u00c3\u00a9'];
    for (const bad of hostile) {
      id(bad);
      const r = await getDelegatedKey();
      assert.equal(r.status, 200, bad);
      assert.equal(r.headers['request-id'], undefined, `relayed: ${bad}`);
      assert.equal(px.logs.at(-1)!.route, 'getDelegatedKey');
      assert.equal(px.logs.at(-1)!.requestId, undefined, `logged: ${bad}`);
    }
    up.setResponder(okResponder);
    // Nor the browser's, on a request refused before its Request-Id is checked (a path outside basePath).
    for (const bad of hostile) {
      const r = await call(px.port, { path: '/elsewhere', headers: { 'request-id': bad } });
      assert.equal(r.status, 404);
      assert.equal(px.logs.at(-1)!.requestId, undefined, `logged: ${bad}`);
    }
  });

  it('answers upstream errors in the service shape only: an error page or an empty error becomes one, a redirect a 502', async () => {
    answer(502, { 'content-type': 'text/html' }, '<html><body>Bad gateway from the load balancer</body></html>');
    let r = await getDelegatedKey();
    assert.equal(r.status, 502);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.deepEqual(r.json, { status: 502, code: 'UPSTREAM_ERROR', message: 'The service answered 502 without an error body.' });
    answer(503, { 'retry-after': '30' }, '');
    r = await getDelegatedKey();
    assert.deepEqual([r.status, r.json.code, r.headers['retry-after']], [503, 'UPSTREAM_ERROR', '30']);
    answer(404, { 'content-type': 'application/json' }, '{"error":"not found"}');
    r = await getDelegatedKey();
    assert.deepEqual([r.status, r.json.code], [404, 'UPSTREAM_REFUSED']);
    // A body whose status is not the HTTP status is not the service's error either.
    answer(400, { 'content-type': 'application/json' }, '{"status":500,"code":"X","message":"m"}');
    r = await getDelegatedKey();
    assert.deepEqual([r.status, r.json.code], [400, 'UPSTREAM_REFUSED']);
    answer(302, { location: 'https://elsewhere.example/login', 'content-type': 'text/plain' }, 'moved');
    r = await getDelegatedKey();
    assert.deepEqual([r.status, r.json.code], [502, 'BAD_GATEWAY']);
    assert.equal(r.headers.location, undefined);
    // The service's own error body passes byte for byte.
    const own = '{"status":404,"code":"NOT_FOUND","message":"Delegated key not found","details":{"x":1}}';
    answer(404, { 'content-type': 'application/json' }, own);
    r = await getDelegatedKey();
    assert.deepEqual([r.status, r.text], [404, own]);
    up.setResponder(okResponder);
  });

  it('never relays an answer that carries its credentials: an echo of the Basic value or the secret, in a body or a relayed header, is a 502', async () => {
    const encoded = BASIC.slice('Basic '.length);
    const echoes: Array<[number, (auth: string) => Record<string, string>, (auth: string) => string]> = [
      // Something between proxy and service (or a service in debug mode) quoting the request it got.
      [400, () => ({ 'content-type': 'application/json' }), (auth) => JSON.stringify({ status: 400, code: 'BAD_HEADER', message: `Unexpected Authorization: ${auth}` })],
      [200, () => ({ 'content-type': 'application/json' }), (auth) => JSON.stringify({ data: [], headers: { authorization: auth } })],
      [200, () => ({ 'content-type': 'application/json' }), () => JSON.stringify({ data: [], clientSecret: CLIENT_SECRET })],
      [503, () => ({ 'content-type': 'text/html' }), (auth) => `<pre>${auth}</pre>`],
      [200, (auth) => ({ 'content-type': 'application/json', 'request-id': auth.slice('Basic '.length) }), () => '{}'],
    ];
    try {
      for (const [status, head, body] of echoes) {
        up.setResponder((req, res) => {
          const auth = String(req.headers.authorization);
          res.writeHead(status, head(auth));
          res.end(body(auth));
        });
        const logged = px.logs.length;
        const r = await getDelegatedKey();
        const all = JSON.stringify(r.headers) + r.text;
        assert.ok(!all.includes(encoded) && !all.includes(CLIENT_SECRET), `an answer ${status} carried the credentials: ${all.slice(0, 300)}`);
        // An error page is replaced whole (UPSTREAM_ERROR); what would be relayed is refused.
        assert.deepEqual([r.status, r.json.code], status === 503 ? [503, 'UPSTREAM_ERROR'] : [502, 'BAD_GATEWAY'], r.text);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const lines = JSON.stringify(px.logs.slice(logged));
        assert.ok(!lines.includes(encoded) && !lines.includes(CLIENT_SECRET), 'a log line carries the credentials');
      }
    } finally {
      up.setResponder(okResponder);
    }
  });

  it('asks the service for answers without a content coding, and does not relay one it codes anyway (RFC 9110 section 12.5.3)', async () => {
    const answer = { data: [{ id: DELEGATED_KEY }] };
    // A request without Accept-Encoding accepts any coding (RFC 9110 section 12.5.3): a service or a
    // CDN in front of it may gzip; one that ignores the request's wish gzips whatever it says.
    const gzipping = (always: boolean) =>
      up.setResponder((req, res) => {
        const accepted = req.headers['accept-encoding'];
        const gzip = always || accepted === undefined || /\bgzip\b|\*/.test(String(accepted));
        res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
        res.end(gzip ? gzipSync(JSON.stringify(answer)) : JSON.stringify(answer));
      });
    try {
      gzipping(false);
      let r = await getDelegatedKey();
      assert.equal(up.requests.at(-1)!.headers['accept-encoding'], 'identity');
      assert.deepEqual([r.status, r.headers['content-encoding'], r.json], [200, undefined, answer], `relayed: ${r.text.slice(0, 80)}`);
      gzipping(true);
      r = await getDelegatedKey();
      assert.deepEqual([r.status, r.json.code], [502, 'BAD_GATEWAY'], r.text.slice(0, 80));
    } finally {
      up.setResponder(okResponder);
    }
  });

  it('serves only JSON on the integrator\'s origin: a success that is not JSON is a 502, an error body is labelled JSON', async () => {
    try {
      // A captive portal's or a filter's page, answered 200.
      for (const [type, body] of [
        ['text/html', '<html><script>alert(document.cookie)</script></html>'],
        ['text/plain', 'OK'],
        ['', '{"id":"x"}'],
      ] as const) {
        answer(200, type ? { 'content-type': type } : {}, body);
        const r = await getDelegatedKey();
        assert.deepEqual([r.status, r.json?.code, String(r.headers['content-type']).split(';')[0]], [502, 'BAD_GATEWAY', 'application/json'], `${type}: ${r.text}`);
      }
      // The service's error shape under another label is served as JSON.
      const own = '{"status":404,"code":"NOT_FOUND","message":"<img src=x onerror=alert(1)>"}';
      answer(404, { 'content-type': 'text/html' }, own);
      let r = await getDelegatedKey();
      assert.deepEqual([r.status, r.text, String(r.headers['content-type']).split(';')[0]], [404, own, 'application/json']);
      // JSON types with parameters or a +json suffix pass as they are; so does an empty success.
      for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/problem+json']) {
        answer(200, { 'content-type': type }, '{"id":"x"}');
        r = await getDelegatedKey();
        assert.deepEqual([r.status, r.headers['content-type']], [200, type]);
      }
      answer(204, {}, '');
      assert.equal((await getDelegatedKey()).status, 204);
    } finally {
      up.setResponder(okResponder);
    }
  });

  it('never shows the client secret or the Basic value in any answer or log line', () => {
    assert.ok(responses.length > 10);
    const encoded = Buffer.from(`${TOKEN_ID}:${CLIENT_SECRET}`).toString('base64');
    for (const r of responses) {
      const all = JSON.stringify(r.headers) + r.text;
      assert.ok(!all.includes(CLIENT_SECRET) && !all.includes(encoded), 'secret leaked in a response');
    }
    const logs = JSON.stringify([...px.logs, ...renamed.logs]);
    for (const secret of [CLIENT_SECRET, encoded, STAMP, 'agent-token.ABC_123', ACCOUNT, CARD]) {
      assert.ok(!logs.includes(secret), `log lines must not carry ${secret.slice(0, 12)}...`);
    }
    assert.ok(px.logs.every((l) => Object.keys(l).every((k) => ['route', 'method', 'status', 'durationMs', 'requestId', 'code', 'message'].includes(k))));
  });
});
