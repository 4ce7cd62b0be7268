/**
 * Path, query, header and body abuse (DESIGN.md "Security rules": only the routes of this
 * interface, path ids validated as `<Type>:<uuid>`): every case is refused in the service's error
 * shape and none reaches the recording upstream.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT, AUTH_METHOD, CARD, JSON_HEADERS, assertErrorShape, raw, startProxy, startRecorder } from './helpers.ts';

describe('proxy refuses abusive requests before anything goes upstream', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  let px: Awaited<ReturnType<typeof startProxy>>;
  before(async () => {
    up = await startRecorder();
    px = await startProxy({ upstream: up.url, allowedOrigins: ['https://shop.example'], allowedHosts: ['shop.internal'] });
  });
  after(async () => {
    await px.close();
    await up.close();
  });

  const cases: Array<[string, { method?: string; path: string; headers?: Record<string, string | string[]>; body?: string }, number, string]> = [
    // Paths
    ['encoded slash', { method: 'POST', path: `/api/cards/${CARD}%2F..%2F..%2Fadmin/reveal`, headers: JSON_HEADERS }, 400, 'INVALID_INPUT'],
    ['encoded slash (lower case)', { path: `/api/auth/delegated-keys%2fDelegatedKey:1` }, 400, 'INVALID_INPUT'],
    ['dot segment', { method: 'POST', path: `/api/cards/../customers/${CARD}/reveal`, headers: JSON_HEADERS }, 400, 'INVALID_INPUT'],
    ['single dot segment', { path: '/api/./auth/credentials' }, 400, 'INVALID_INPUT'],
    ['encoded dot segment', { path: '/api/%2e%2e/auth/credentials' }, 400, 'INVALID_INPUT'],
    ['double slash', { path: `/api//auth/credentials?accountId=${ACCOUNT}` }, 400, 'INVALID_INPUT'],
    ['backslash', { path: '/api/auth\\credentials' }, 400, 'INVALID_INPUT'],
    ['encoded backslash', { path: '/api/auth%5Ccredentials' }, 400, 'INVALID_INPUT'],
    ['encoded NUL', { method: 'POST', path: `/api/cards/${CARD}%00/reveal`, headers: JSON_HEADERS }, 400, 'INVALID_INPUT'],
    ['trailing slash', { path: '/api/auth/credentials/' }, 400, 'INVALID_INPUT'],
    ['wrong id type', { method: 'POST', path: `/api/cards/${ACCOUNT}/reveal`, headers: JSON_HEADERS }, 400, 'INVALID_INPUT'],
    ['id without uuid', { method: 'POST', path: '/api/cards/Card:1234/reveal', headers: JSON_HEADERS }, 400, 'INVALID_INPUT'],
    ['id with extra text', { method: 'POST', path: `/api/cards/${CARD}x/reveal`, headers: JSON_HEADERS }, 400, 'INVALID_INPUT'],
    ['unknown route', { path: '/api/transactions' }, 404, 'NOT_FOUND'],
    ['unknown nested route', { method: 'POST', path: `/api/cards/${CARD}/freeze`, headers: JSON_HEADERS }, 404, 'NOT_FOUND'],
    ['platform approve route', { method: 'POST', path: '/api/agents/Agent:77777777-7777-4777-8777-777777777777/actions/x/approve', headers: JSON_HEADERS }, 404, 'NOT_FOUND'],
    ['base only', { path: '/api' }, 404, 'NOT_FOUND'],
    ['case-changed route', { path: `/api/AUTH/credentials?accountId=${ACCOUNT}` }, 404, 'NOT_FOUND'],
    ['wrong method', { method: 'PUT', path: '/api/auth/credentials', headers: JSON_HEADERS }, 405, 'METHOD_NOT_ALLOWED'],
    ['HEAD on a GET route', { method: 'HEAD', path: `/api/auth/credentials?accountId=${ACCOUNT}` }, 405, 'METHOD_NOT_ALLOWED'],
    ['GET on reveal', { path: `/api/cards/${CARD}/reveal` }, 405, 'METHOD_NOT_ALLOWED'],
    // Queries
    ['unexpected query key', { path: `/api/auth/credentials?accountId=${ACCOUNT}&admin=1` }, 400, 'INVALID_INPUT'],
    ['repeated query key', { path: `/api/auth/credentials?accountId=${ACCOUNT}&accountId=${ACCOUNT}` }, 400, 'INVALID_INPUT'],
    ['query smuggling an ampersand', { path: `/api/auth/credentials?accountId=${ACCOUNT}%26accountId%3Dx` }, 400, 'INVALID_INPUT'],
    ['query on a POST route', { method: 'POST', path: `/api/cards/${CARD}/reveal?cardId=${CARD}`, headers: JSON_HEADERS }, 400, 'INVALID_INPUT'],
    // reference.md "Cards": the reveal takes no body and no wallet signature; what it would carry
    // (a lifetime, an actor, styling) is nothing the interface documents.
    ['body on the reveal, which takes none', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS, body: '{"expiresInSeconds":86400}' }, 400, 'INVALID_INPUT'],
    ['empty object on the reveal', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS, body: '{}' }, 400, 'INVALID_INPUT'],
    ['wallet signature on the reveal', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, 'service-wallet-signature': 'stamp' } }, 400, 'INVALID_INPUT'],
    ['malformed escape', { path: '/api/agents/me/actions?cursor=%zz', headers: { authorization: 'Bearer t' } }, 400, 'INVALID_INPUT'],
    ['limit out of range', { path: '/api/agents/me/actions?limit=101', headers: { authorization: 'Bearer t' } }, 400, 'INVALID_INPUT'],
    ['limit not a number', { path: '/api/agents/me/actions?limit=1e2', headers: { authorization: 'Bearer t' } }, 400, 'INVALID_INPUT'],
    ['unknown status', { path: '/api/agents/me/actions?status=ALL', headers: { authorization: 'Bearer t' } }, 400, 'INVALID_INPUT'],
    ['key without value', { path: '/api/auth/credentials?accountId' }, 400, 'INVALID_INPUT'],
    ['malformed account id in query', { path: '/api/auth/sessions?accountId=InternalAccount:x' }, 400, 'INVALID_INPUT'],
    // Headers
    ['repeated Request-Id', { method: 'POST', path: '/api/auth/credentials', headers: { 'content-type': 'application/json', 'request-id': ['Request:a', 'Request:b'] }, body: '{}' }, 400, 'INVALID_INPUT'],
    ['repeated signature', { method: 'DELETE', path: `/api/auth/credentials/${AUTH_METHOD}`, headers: { 'service-wallet-signature': ['a', 'b'] } }, 400, 'INVALID_INPUT'],
    // Node keeps only the first Content-Type or Authorization in req.headers: the repeat must still be seen.
    ['repeated Content-Type', { method: 'POST', path: '/api/auth/credentials', headers: { 'content-type': ['application/json', 'text/plain'] }, body: '{}' }, 400, 'INVALID_INPUT'],
    ['repeated Content-Encoding', { method: 'POST', path: '/api/auth/credentials', headers: { ...JSON_HEADERS, 'content-encoding': ['identity', 'gzip'] }, body: '{}' }, 400, 'INVALID_INPUT'],
    ['repeated Origin', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, origin: ['https://shop.example', 'https://evil.example'] } }, 400, 'INVALID_INPUT'],
    ['repeated Sec-Fetch-Site', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, 'sec-fetch-site': ['same-origin', 'cross-site'] } }, 400, 'INVALID_INPUT'],
    ['repeated agent Authorization', { path: '/api/agents/me/actions', headers: { authorization: ['Bearer a', 'Bearer b'] } }, 400, 'INVALID_INPUT'],
    ['repeated preflight method', { method: 'OPTIONS', path: '/api/auth/credentials', headers: { origin: 'https://shop.example', 'access-control-request-method': ['POST', 'GET'] } }, 400, 'INVALID_INPUT'],
    ['text/plain body (CSRF-able)', { method: 'POST', path: '/api/auth/credentials', headers: { 'content-type': 'text/plain' }, body: `{"type":"EMAIL_OTP","accountId":"${ACCOUNT}"}` }, 403, 'FORBIDDEN'],
    ['form body', { method: 'POST', path: '/api/auth/credentials', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-requested-with': 'x' }, body: 'a=b' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['bodiless POST without CSRF header', { method: 'POST', path: `/api/cards/${CARD}/reveal` }, 403, 'FORBIDDEN'],
    ['DELETE without CSRF header', { method: 'DELETE', path: `/api/auth/credentials/${AUTH_METHOD}` }, 403, 'FORBIDDEN'],
    ['gzip body', { method: 'POST', path: '/api/auth/credentials', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{}' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['cross-site fetch', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } }, 403, 'FORBIDDEN'],
    ['same-site sibling', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, 'sec-fetch-site': 'same-site' } }, 403, 'FORBIDDEN'],
    ['foreign Origin without fetch metadata', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, origin: 'https://evil.example' } }, 403, 'FORBIDDEN'],
    ['null Origin', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, origin: 'null' } }, 403, 'FORBIDDEN'],
    ['cross-site GET', { path: `/api/auth/credentials?accountId=${ACCOUNT}`, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } }, 403, 'FORBIDDEN'],
    ['preflight from a foreign origin', { method: 'OPTIONS', path: '/api/auth/credentials', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } }, 403, 'FORBIDDEN'],
    // Bodies
    ['duplicate JSON names', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: `{"type":"EMAIL_OTP","accountId":"${ACCOUNT}","accountId":"InternalAccount:99999999-9999-4999-8999-999999999999"}` }, 400, 'INVALID_INPUT'],
    ['duplicate names through escapes', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: '{"a":{"cardId":1,"card\\u0049d":2}}' }, 400, 'INVALID_INPUT'],
    // A case-insensitive decoder upstream (Go's encoding/json) takes these for one field, the last one winning.
    ['names that differ only in case', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: `{"type":"EMAIL_OTP","accountId":"${ACCOUNT}","AccountID":"InternalAccount:99999999-9999-4999-8999-999999999999"}` }, 400, 'INVALID_INPUT'],
    ['names that fold together (long s, Kelvin sign)', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: '{"a":{"status":1,"\u017Ftatus":2},"b":{"key":1,"\u212Aey":2}}' }, 400, 'INVALID_INPUT'],
    ['invalid JSON', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: '{"type":' }, 400, 'INVALID_INPUT'],
    ['byte-order mark', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: '\ufeff{}' }, 400, 'INVALID_INPUT'],
    ['GET with a body', { path: `/api/auth/credentials?accountId=${ACCOUNT}`, headers: JSON_HEADERS, body: '{}' }, 400, 'INVALID_INPUT'],
    ['charset other than UTF-8', { method: 'POST', path: '/api/auth/credentials', headers: { 'content-type': 'application/json; charset=latin1' }, body: '{}' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ];

  for (const [name, request, status, code] of cases) {
    it(`${name} -> ${status} ${code}`, async () => {
      const count = up.requests.length;
      const r = await raw(px.port, request);
      if (request.method === 'HEAD') assert.equal(r.status, status);
      else assertErrorShape(r, status, code);
      assert.equal(up.requests.length, count, 'nothing may reach upstream');
      assert.equal(r.headers['cache-control'], 'no-store');
      if (status === 405) assert.ok(r.headers.allow, 'a 405 names the allowed methods');
    });
  }

  it('refuses invalid UTF-8 in a body', async () => {
    const count = up.requests.length;
    const r = await raw(px.port, { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) });
    assertErrorShape(r, 400, 'INVALID_INPUT');
    assert.equal(up.requests.length, count);
  });

  it('lets same-origin and listed origins through, with CORS only for the listed ones', async () => {
    const same = await raw(px.port, {
      method: 'POST',
      path: `/api/cards/${CARD}/reveal`,
      headers: { ...JSON_HEADERS, 'sec-fetch-site': 'same-origin', origin: px.origin },
    });
    assert.equal(same.status, 200);
    assert.equal(same.headers['access-control-allow-origin'], undefined);
    const sameNoFetchMetadata = await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, origin: px.origin } });
    assert.equal(sameNoFetchMetadata.status, 200);

    const listed = await raw(px.port, {
      method: 'POST',
      path: `/api/cards/${CARD}/reveal`,
      headers: { ...JSON_HEADERS, 'sec-fetch-site': 'cross-site', origin: 'https://shop.example' },
    });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers['access-control-allow-origin'], 'https://shop.example');
    assert.equal(listed.headers['access-control-allow-credentials'], 'true');
    // A page on another origin reads the service's clock (core/clock.ts) and the answer's ids.
    assert.equal(listed.headers['access-control-expose-headers'], 'Request-Id, Retry-After, Date');
    assert.match(String(listed.headers.vary), /Origin/);

    const logged = px.logs.length;
    const pre = await raw(px.port, {
      method: 'OPTIONS',
      path: `/api/auth/credentials/${AUTH_METHOD}`,
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'content-type,service-wallet-signature,request-id' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], 'https://shop.example');
    assert.equal(pre.headers['access-control-allow-methods'], 'DELETE');
    assert.match(String(pre.headers['access-control-allow-headers']), /Service-Wallet-Signature/);
    assert.match(String(pre.headers['access-control-allow-headers']), /Request-Id/);
    // A listed origin still cannot preflight a method the route does not have.
    const badPre = await raw(px.port, { method: 'OPTIONS', path: `/api/cards/${CARD}/reveal`, headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
    assert.equal(badPre.status, 405);
    // Each preflight's log line names the route it asked about, when there is one.
    assert.deepEqual(
      px.logs.slice(logged).map((l) => [l.method, l.route, l.status]),
      [
        ['OPTIONS', 'deleteCredential', 204],
        ['OPTIONS', 'unknown', 405],
      ],
    );
  });

  it('sees a header repeated under another spelling of its name (RFC 9110 section 5.1)', async () => {
    const count = up.requests.length;
    const body = '{}';
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(px.port, '127.0.0.1', () => {
        socket.end(
          `POST /api/auth/credentials HTTP/1.1\r\nHost: 127.0.0.1:${px.port}\r\nContent-Type: application/json\r\ncontent-TYPE: text/plain\r\n` +
            `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /"code":"INVALID_INPUT"/);
    assert.match(answer, /content-type header is repeated/);
    assert.equal(up.requests.length, count);
  });

  it('refuses a request with more than one Host line (RFC 9112 section 3.2), whichever hosts they name', async () => {
    // Node keeps the first Host only: a front server that reads another line would have checked
    // another host than the proxy did (its allowedHosts and same-origin checks).
    const count = up.requests.length;
    const send = (hosts: string[]) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(px.port, '127.0.0.1', () => {
          // Written, not ended: a client that half-closes has gone away as far as the proxy knows.
          socket.write(
            `POST /api/cards/${CARD}/reveal HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}` +
              'Content-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
          );
        });
        let text = '';
        socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    for (const hosts of [[`127.0.0.1:${px.port}`, 'evil.example'], [`127.0.0.1:${px.port}`, 'shop.internal'], ['localhost', 'HOST.localhost']]) {
      const answer = await send(hosts);
      assert.match(answer, /^HTTP\/1\.1 400 /, hosts.join(' + '));
      assert.match(answer, /"code":"INVALID_INPUT"/);
      assert.match(answer, /host header is repeated/);
    }
    assert.equal(up.requests.length, count, 'nothing may reach upstream');
    // One Host line still passes.
    assert.match(await send([`127.0.0.1:${px.port}`]), /^HTTP\/1\.1 200 /);
  });

  it('compares Origin with Host, or with X-Forwarded-Host from a front proxy, host for host', async () => {
    const post = (headers: Record<string, string>) => raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, ...headers } });
    assert.equal((await post({ origin: `http://127.0.0.1:${px.port}` })).status, 200);
    assert.equal((await post({ origin: `https://127.0.0.1:${px.port}` })).status, 200);
    assert.equal((await post({ origin: 'https://Shop.Internal', 'x-forwarded-host': 'shop.internal' })).status, 200);
    // Look-alikes of the proxy's own host are foreign.
    assertErrorShape(await post({ origin: `http://127.0.0.1:${px.port}.evil.example` }), 403, 'FORBIDDEN');
    assertErrorShape(await post({ origin: `http://127.0.0.1:${px.port}@evil.example` }), 403, 'FORBIDDEN');
    assertErrorShape(await post({ origin: `http://127.0.0.1:${px.port + 1}` }), 403, 'FORBIDDEN');
    assertErrorShape(await post({ origin: 'https://shop.internal.evil.example', 'x-forwarded-host': 'shop.internal' }), 403, 'FORBIDDEN');
  });

  it('answers only the hosts it is reached by: a site pointed at its address (DNS rebinding) is refused before anything is read', async () => {
    const get = (host: string, extra: Record<string, string> = {}) =>
      raw(px.port, { path: `/api/auth/credentials?accountId=${ACCOUNT}`, headers: { host, ...extra } });
    const before = up.requests.length;
    // What a browser sends once evil.example resolves to the proxy: its own name as Host and Origin, same-origin.
    const rebound = await get(`evil.example:${px.port}`, { origin: `http://evil.example:${px.port}`, 'sec-fetch-site': 'same-origin' });
    assertErrorShape(rebound, 403, 'FORBIDDEN');
    const refusal = JSON.parse(rebound.text) as { message: string; details: Record<string, string> };
    assert.match(refusal.message, /allowedHosts \(PROXY_ALLOWED_HOSTS.*DNS rebinding/);
    assert.deepEqual(refusal.details, { host: `evil.example:${px.port}` });
    // Passkey options would have named the attacker's host as the relying party.
    const options = await raw(px.port, { method: 'POST', path: '/api/auth/webauthn/registration-options', headers: { ...JSON_HEADERS, host: 'evil.example' }, body: JSON.stringify({ accountId: ACCOUNT }) });
    assertErrorShape(options, 403, 'FORBIDDEN');
    // X-Forwarded-Host cannot launder a foreign Host, nor name a foreign host behind an allowed one.
    assertErrorShape(await get('evil.example', { 'x-forwarded-host': 'localhost' }), 403, 'FORBIDDEN');
    assertErrorShape(await get('localhost', { 'x-forwarded-host': 'evil.example' }), 403, 'FORBIDDEN');
    // Look-alikes of an allowed name are foreign.
    for (const host of ['shop.internal.evil.example', 'evilshop.internal', 'localhost.evil.example', '127.0.0.1.nip.io']) {
      assertErrorShape(await get(host), 403, 'FORBIDDEN');
    }
    assert.equal(up.requests.length, before);
    // Answered: IP addresses, localhost and its subdomains, listed names (any case, trailing dot, any port).
    for (const host of [`127.0.0.1:${px.port}`, '[::1]:8080', 'localhost', 'app.localhost:5173', 'Shop.Internal', 'shop.internal.', 'shop.internal:443']) {
      assert.equal((await get(host)).status, 200, host);
    }
  });

  it('takes allowedHosts as names (a leading dot for subdomains) or any, and nothing else', async () => {
    for (const bad of [['https://shop.example'], ['shop.example:8080'], ['*.shop.example'], 'all', [''], [42]]) {
      // (Closed again should it start, so that a failing run still ends.)
      await assert.rejects(async () => (await startProxy({ upstream: up.url, allowedHosts: bad as never })).close(), /allowedHosts must be 'any' or host names/);
    }
    const sub = await startProxy({ upstream: up.url, allowedHosts: ['.shop.example'] });
    const any = await startProxy({ upstream: up.url, allowedHosts: 'any' });
    const rp = await startProxy({ upstream: up.url, rp: { id: 'wallet.example', name: 'Wallet' } });
    try {
      const status = (port: number, host: string) => raw(port, { path: `/api/auth/credentials?accountId=${ACCOUNT}`, headers: { host } }).then((r) => r.status);
      assert.deepEqual(await Promise.all(['shop.example', 'api.shop.example', 'evil.example'].map((h) => status(sub.port, h))), [200, 200, 403]);
      assert.equal(await status(any.port, 'evil.example'), 200);
      // The relying party's domain and its subdomains are the site's own.
      assert.deepEqual(await Promise.all(['wallet.example', 'api.wallet.example', 'evil.example'].map((h) => status(rp.port, h))), [200, 200, 403]);
    } finally {
      await Promise.all([sub.close(), any.close(), rp.close()]);
    }
  });

  it('says which origin check refused a request and what to change, with the values compared; the log line gets the sentence only', async () => {
    const post = (headers: Record<string, string>) => raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: { ...JSON_HEADERS, ...headers } });
    const logged = px.logs.length;
    // A development server that rewrote Host (Vite's changeOrigin) while the page thinks it is same-origin.
    const rewritten = await post({ 'sec-fetch-site': 'same-origin', origin: 'http://localhost:5173' });
    assertErrorShape(rewritten, 403, 'FORBIDDEN');
    const mismatch = JSON.parse(rewritten.body.toString()) as { message: string; details: Record<string, string> };
    assert.match(mismatch.message, /Origin is not the host it reached.*changeOrigin: false.*X-Forwarded-Host.*allowedOrigins/);
    assert.deepEqual(mismatch.details, { origin: 'http://localhost:5173', host: `127.0.0.1:${px.port}` });
    const foreign = await post({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
    const crossSite = JSON.parse(foreign.body.toString()) as { message: string; details: Record<string, string> };
    assert.match(crossSite.message, /another origin are refused.*allowedOrigins \(PROXY_ALLOWED_ORIGINS/);
    assert.deepEqual(crossSite.details, { origin: 'https://evil.example', secFetchSite: 'cross-site' });
    // What the request sent stays out of the log; the fixed sentence goes in.
    const lines = px.logs.slice(logged);
    assert.deepEqual(lines.map((l) => [l.status, l.code, l.message]), [
      [403, 'FORBIDDEN', mismatch.message],
      [403, 'FORBIDDEN', crossSite.message],
    ]);
    assert.ok(!JSON.stringify(lines).includes('localhost:5173') && !JSON.stringify(lines).includes('evil.example'));
    // A long header is cut short in the answer.
    const long = JSON.parse((await post({ origin: `https://${'a'.repeat(500)}.example` })).body.toString()) as { details: { origin: string } };
    assert.equal(long.details.origin.length, 200);
  });

  it('accepts the custom headers in place of Content-Type on bodiless state changes', async () => {
    const values: Record<string, string> = {
      'x-requested-with': 'XMLHttpRequest',
      'request-id': 'Request:0b9c2d4e-1f3a-4b5c-8d6e-7f8091a2b3c4',
      'service-wallet-signature': 'eyJwdWJsaWNLZXkiOiIwMiJ9',
    };
    for (const [h, v] of Object.entries(values)) {
      // A signed DELETE: the reveal takes no wallet signature (refused above).
      const r = await raw(px.port, { method: 'DELETE', path: `/api/auth/credentials/${AUTH_METHOD}`, headers: { [h]: v } });
      assert.equal(r.status, 200, h);
    }
  });

  it('calls next() for paths outside the base when mounted as middleware, and 404s them standalone', async () => {
    let nexted = 0;
    const req = { url: '/other/page', headersDistinct: {}, headers: {}, method: 'GET' } as never;
    px.proxy(req, {} as never, () => nexted++);
    assert.equal(nexted, 1);
    const r = await raw(px.port, { path: '/apix/auth/credentials' });
    assertErrorShape(r, 404, 'NOT_FOUND');
  });
});
