/**
 * `authorize` decisions (DESIGN.md "How a call travels": which account, card and customer the
 * browser's user may touch is the integrator's decision) and the explicit demo binding, over real
 * HTTP with a recording upstream that lists the bound account's credentials, sessions and keys.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createProxy, type AuthorizeContext } from '../../../src/proxy/index.ts';
import { accountAuthorize } from '../../../src/proxy/authorize.ts';
import {
  ACCOUNT,
  AGENT_ACTION,
  AUTH_METHOD,
  CARD,
  CUSTOMER,
  DELEGATED_KEY,
  JSON_HEADERS,
  SESSION,
  assertErrorShape,
  raw,
  startProxy,
  startRecorder,
  type Recorded,
} from './helpers.ts';

const OTHER_ACCOUNT = 'InternalAccount:99999999-9999-4999-8999-999999999999';
const OTHER_CARD = 'Card:99999999-9999-4999-8999-999999999999';
const OTHER_CUSTOMER = 'Customer:99999999-9999-4999-8999-999999999999';
const OTHER_AUTH_METHOD = 'AuthMethod:99999999-9999-4999-8999-999999999999';
const OTHER_SESSION = 'Session:99999999-9999-4999-8999-999999999999';
const OTHER_KEY = 'DelegatedKey:99999999-9999-4999-8999-999999999999';
const NEW_AUTH_METHOD = 'AuthMethod:88888888-8888-4888-8888-888888888888';
const FUNDING = 'CardFundingSource:12121212-1212-4212-8212-121212121212';
const OTHER_FUNDING = 'CardFundingSource:99999999-9999-4999-8999-999999999999';

describe('custom authorize hook', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  let px: Awaited<ReturnType<typeof startProxy>>;
  const seen: AuthorizeContext[] = [];
  let decide: (ctx: AuthorizeContext) => unknown = () => true;

  before(async () => {
    up = await startRecorder();
    px = await startProxy({
      upstream: up.url,
      authorize: async (ctx) => {
        seen.push(ctx);
        return decide(ctx) as boolean;
      },
    });
  });
  after(async () => {
    await px.close();
    await up.close();
  });

  it('receives the route name, path id, query and parsed body', async () => {
    await raw(px.port, { method: 'PATCH', path: `/api/internal-accounts/${ACCOUNT}`, headers: JSON_HEADERS, body: '{"privateEnabled":true}' });
    const ctx = seen.at(-1)!;
    assert.equal(ctx.route, 'updateInternalAccount');
    assert.deepEqual(ctx.params, { id: ACCOUNT });
    assert.deepEqual(ctx.body, { privateEnabled: true });
    assert.equal(ctx.request.method, 'PATCH');
    await raw(px.port, { path: `/api/auth/delegated-keys?fundingSourceId=${FUNDING}&accountId=${ACCOUNT}` });
    assert.deepEqual(seen.at(-1)!.query, { fundingSourceId: FUNDING, accountId: ACCOUNT });
    assert.equal(seen.at(-1)!.body, undefined);
  });

  it('false answers 403 FORBIDDEN, a refusal object answers as given, a throw answers 500', async () => {
    const count = up.requests.length;
    decide = () => false;
    assertErrorShape(await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS }), 403, 'FORBIDDEN');
    decide = () => ({ status: 401, code: 'LOGIN_REQUIRED', message: 'Log in first.' });
    const r = await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
    assertErrorShape(r, 401, 'LOGIN_REQUIRED');
    assert.equal(r.json.message, 'Log in first.');
    decide = () => ({ status: 200, code: 'OK', message: 'not a refusal' });
    assertErrorShape(await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS }), 403, 'FORBIDDEN');
    decide = () => 'yes';
    assertErrorShape(await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS }), 403, 'FORBIDDEN');
    decide = () => {
      throw new Error('database is down: password=hunter2');
    };
    const e = await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS });
    assertErrorShape(e, 500, 'INTERNAL_ERROR');
    assert.ok(!e.text.includes('hunter2'), 'internal error details stay inside');
    assert.equal(up.requests.length, count, 'a refused request never goes upstream');
    decide = () => true;
    assert.equal((await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS })).status, 200);
  });

  it('is not asked when the request is refused earlier', async () => {
    const n = seen.length;
    await raw(px.port, { path: '/api/auth/credentials?admin=1' });
    await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal` });
    assert.equal(seen.length, n);
  });
});

describe('a hook that throws', () => {
  const SECRET_WORD = 'password=hunter2';
  const failure = new Error(`database is down: ${SECRET_WORD}`);

  it('is answered 500 INTERNAL_ERROR and logged without what it threw, which onError(error, request) receives', async () => {
    const up = await startRecorder();
    const reported: Array<[unknown, IncomingMessage]> = [];
    let report: (error: unknown, request: IncomingMessage) => unknown = (error, request) => reported.push([error, request]);
    let decide: () => boolean | Promise<boolean> = () => {
      throw failure;
    };
    // Without onError, as the CLI runs: only the fixed code and message.
    const silent = await startProxy({ upstream: up.url, authorize: () => decide() });
    const px = await startProxy({ upstream: up.url, authorize: () => decide(), onError: (error, request) => report(error, request) }).catch(async (e: unknown) => {
      await silent.close();
      await up.close();
      throw e;
    });
    const body = JSON.stringify({ privateEnabled: true });
    const patch = (port: number) => raw(port, { method: 'PATCH', path: `/api/internal-accounts/${ACCOUNT}`, headers: { ...JSON_HEADERS, cookie: 'session=abc' }, body });
    try {
      for (const [hook, thrown] of [
        [() => { throw failure; }, failure],
        [() => Promise.reject(failure), failure],
      ] as const) {
        decide = hook as typeof decide;
        reported.length = 0;
        const answer = await patch(px.port);
        assertErrorShape(answer, 500, 'INTERNAL_ERROR');
        assert.ok(!answer.text.includes(SECRET_WORD));
        assert.equal(reported.length, 1);
        const [error, request] = reported[0]!;
        assert.equal(error, thrown);
        assert.equal(request.method, 'PATCH');
        assert.equal(request.url, `/api/internal-accounts/${ACCOUNT}`);
        // The browser's request as it came: never the Basic credentials added upstream, nor its body.
        assert.ok(!JSON.stringify(request.headers).includes('Basic'));
        assert.equal((request as { body?: unknown }).body, undefined);
        assert.equal(px.logs.at(-1)!.code, 'INTERNAL_ERROR');
        assert.ok(!JSON.stringify(px.logs).includes(SECRET_WORD));
      }
      // The per-caller binding's resolver, the integrator's too.
      const bound = await startProxy({ upstream: up.url, accountFor: () => Promise.reject(failure), onError: (error, request) => report(error, request) });
      reported.length = 0;
      try {
        assertErrorShape(await patch(bound.port), 500, 'INTERNAL_ERROR');
      } finally {
        await bound.close();
      }
      assert.equal(reported[0]?.[0], failure);
      assertErrorShape(await patch(silent.port), 500, 'INTERNAL_ERROR');
      assert.deepEqual([silent.logs.at(-1)!.code, silent.logs.at(-1)!.message], ['INTERNAL_ERROR', 'The proxy failed to handle the request.']);

      // Not called for an answer that says why: a refusal, or a service that cannot be reached.
      reported.length = 0;
      decide = () => false;
      assertErrorShape(await patch(px.port), 403, 'FORBIDDEN');
      decide = () => true;
      await up.close();
      assertErrorShape(await patch(px.port), 502, 'BAD_GATEWAY');
      assert.equal(reported.length, 0);

      // An onError that throws or rejects changes nothing of the answer, and does not take the process down.
      decide = () => Promise.reject(failure);
      for (const failing of [() => { throw new Error('reporter down'); }, () => Promise.reject(new Error('reporter down'))]) {
        report = failing;
        assertErrorShape(await patch(px.port), 500, 'INTERNAL_ERROR');
      }
      await new Promise((resolve) => setImmediate(resolve));
      assert.throws(() => createProxy({ upstream: up.url, tokenId: 't', clientSecret: 's', authorize: () => true, onError: 'console' as never }), /^TypeError: onError must be a function/);
    } finally {
      await px.close();
      await silent.close();
      await up.close().catch(() => undefined);
    }
  });
});

describe('demo binding', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  let px: Awaited<ReturnType<typeof startProxy>>;
  const listed = { credentials: [AUTH_METHOD], sessions: [SESSION], 'delegated-keys': [DELEGATED_KEY] } as Record<string, string[]>;
  // The proxy's own ownership reads: the bound account's lists (a relayed list of another account, or
  // without an account, is not one of them).
  const ownListUrl = (r: Recorded) => new RegExp(`^/2025-10-13/auth/(credentials|sessions|delegated-keys)\\?accountId=${encodeURIComponent(ACCOUNT)}$`).test(r.url);
  const lists = () => up.requests.filter((r) => r.method === 'GET' && ownListUrl(r));
  const others = () => up.requests.filter((r) => !(r.method === 'GET' && ownListUrl(r))).length;
  /** When the service was asked for each of the bound account's lists, by list. */
  const readTimes: Record<string, number[]> = { credentials: [], sessions: [], 'delegated-keys': [] };

  const respond = (req: Recorded, res: ServerResponse) => {
    const m = /^\/2025-10-13\/auth\/(credentials|sessions|delegated-keys)\?accountId=(.*)$/.exec(req.url);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (m && req.method === 'GET') {
      const accountId = decodeURIComponent(m[2]!);
      if (accountId === ACCOUNT) readTimes[m[1]!]!.push(Date.now());
      const rows = accountId === ACCOUNT ? listed[m[1]!]!.map((id) => ({ id, accountId, fundingSourceId: FUNDING })) : [];
      res.end(JSON.stringify({ data: rows }));
    } else res.end('{"relayed":true}');
  };

  before(async () => {
    up = await startRecorder(respond);
    px = await startProxy({ upstream: up.url, demoAccount: { customerId: CUSTOMER, accountId: ACCOUNT, cardId: CARD } });
  });
  after(async () => {
    await px.close();
    await up.close();
  });

  const allowed: Array<[string, Parameters<typeof raw>[1]]> = [
    ['createCredential', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: JSON.stringify({ type: 'EMAIL_OTP', accountId: ACCOUNT }) }],
    ['listCredentials', { path: `/api/auth/credentials?accountId=${ACCOUNT}` }],
    ['deleteCredential', { method: 'DELETE', path: `/api/auth/credentials/${AUTH_METHOD}`, headers: JSON_HEADERS }],
    ['credentialChallenge', { method: 'POST', path: `/api/auth/credentials/${AUTH_METHOD}/challenge`, headers: JSON_HEADERS }],
    ['verifyCredential', { method: 'POST', path: `/api/auth/credentials/${AUTH_METHOD}/verify`, headers: JSON_HEADERS, body: '{"type":"EMAIL_OTP","encryptedOtpBundle":"x"}' }],
    ['listSessions', { path: `/api/auth/sessions?accountId=${ACCOUNT}` }],
    ['refreshSession', { method: 'POST', path: `/api/auth/sessions/${SESSION}/refresh`, headers: JSON_HEADERS, body: '{"clientPublicKey":"04ab"}' }],
    ['deleteSession', { method: 'DELETE', path: `/api/auth/sessions/${SESSION}`, headers: JSON_HEADERS }],
    ['createDelegatedKey', { method: 'POST', path: '/api/auth/delegated-keys', headers: JSON_HEADERS, body: JSON.stringify({ cardId: CARD, internalAccountId: ACCOUNT, nickname: 'k' }) }],
    ['listDelegatedKeys', { path: `/api/auth/delegated-keys?accountId=${ACCOUNT}` }],
    ['listDelegatedKeys by funding source', { path: `/api/auth/delegated-keys?fundingSourceId=${FUNDING}` }],
    ['getDelegatedKey', { path: `/api/auth/delegated-keys/${DELEGATED_KEY}` }],
    ['deleteDelegatedKey', { method: 'DELETE', path: `/api/auth/delegated-keys/${DELEGATED_KEY}`, headers: JSON_HEADERS }],
    ['revealCard', { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS }],
    ['exportWallet', { method: 'POST', path: `/api/internal-accounts/${ACCOUNT}/export`, headers: JSON_HEADERS, body: '{"clientPublicKey":"04ab"}' }],
    ['updateInternalAccount', { method: 'PATCH', path: `/api/internal-accounts/${ACCOUNT}`, headers: JSON_HEADERS, body: '{"privateEnabled":true}' }],
    ['updateCustomer', { method: 'PATCH', path: `/api/customers/${CUSTOMER}`, headers: JSON_HEADERS, body: '{"email":"a@b.example"}' }],
    ['listAgentActions', { path: '/api/agents/me/actions', headers: { authorization: 'Bearer agent' } }],
    ['getAgentAction', { path: `/api/agents/me/actions/${AGENT_ACTION}`, headers: { authorization: 'Bearer agent' } }],
  ];
  for (const [name, request] of allowed) {
    it(`allows its own ${name}`, async () => {
      const r = await raw(px.port, request);
      assert.equal(r.status, 200, r.text);
      // The bound account's own lists come back as the recorder lists them; everything else as relayed.
      if (name.startsWith('list') && name !== 'listAgentActions' && !name.includes('funding')) assert.ok(Array.isArray(r.json.data));
      else assert.deepEqual(r.json, { relayed: true });
    });
  }

  const refused: Array<[string, Parameters<typeof raw>[1], number]> = [
    ['credential on another account', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: JSON.stringify({ type: 'EMAIL_OTP', accountId: OTHER_ACCOUNT }) }, 403],
    ['credential without account', { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: '{"type":"EMAIL_OTP"}' }, 403],
    ['credentials of another account', { path: `/api/auth/credentials?accountId=${OTHER_ACCOUNT}` }, 403],
    ['credentials without account', { path: '/api/auth/credentials' }, 403],
    ['sessions of another account', { path: `/api/auth/sessions?accountId=${OTHER_ACCOUNT}` }, 403],
    ['someone else\'s credential', { method: 'DELETE', path: `/api/auth/credentials/${OTHER_AUTH_METHOD}`, headers: JSON_HEADERS }, 404],
    ['someone else\'s challenge', { method: 'POST', path: `/api/auth/credentials/${OTHER_AUTH_METHOD}/challenge`, headers: JSON_HEADERS }, 404],
    ['someone else\'s verify', { method: 'POST', path: `/api/auth/credentials/${OTHER_AUTH_METHOD}/verify`, headers: JSON_HEADERS, body: '{}' }, 404],
    ['someone else\'s session', { method: 'DELETE', path: `/api/auth/sessions/${OTHER_SESSION}`, headers: JSON_HEADERS }, 404],
    ['someone else\'s refresh', { method: 'POST', path: `/api/auth/sessions/${OTHER_SESSION}/refresh`, headers: JSON_HEADERS, body: '{}' }, 404],
    ['someone else\'s delegated key', { path: `/api/auth/delegated-keys/${OTHER_KEY}` }, 404],
    ['revoking someone else\'s delegated key', { method: 'DELETE', path: `/api/auth/delegated-keys/${OTHER_KEY}`, headers: JSON_HEADERS }, 404],
    ['delegated key on another card', { method: 'POST', path: '/api/auth/delegated-keys', headers: JSON_HEADERS, body: JSON.stringify({ cardId: OTHER_CARD, internalAccountId: ACCOUNT, nickname: 'k' }) }, 403],
    ['delegated key on another account', { method: 'POST', path: '/api/auth/delegated-keys', headers: JSON_HEADERS, body: JSON.stringify({ cardId: CARD, internalAccountId: OTHER_ACCOUNT, nickname: 'k' }) }, 403],
    ['delegated keys of another account', { path: `/api/auth/delegated-keys?accountId=${OTHER_ACCOUNT}` }, 403],
    ['delegated keys of a foreign funding source', { path: `/api/auth/delegated-keys?fundingSourceId=${OTHER_FUNDING}` }, 403],
    ['delegated keys with a foreign account and own funding source', { path: `/api/auth/delegated-keys?accountId=${OTHER_ACCOUNT}&fundingSourceId=${FUNDING}` }, 403],
    ['another card\'s reveal', { method: 'POST', path: `/api/cards/${OTHER_CARD}/reveal`, headers: JSON_HEADERS }, 403],
    ['another wallet\'s export', { method: 'POST', path: `/api/internal-accounts/${OTHER_ACCOUNT}/export`, headers: JSON_HEADERS, body: '{}' }, 403],
    ['another wallet\'s privacy', { method: 'PATCH', path: `/api/internal-accounts/${OTHER_ACCOUNT}`, headers: JSON_HEADERS, body: '{"privateEnabled":false}' }, 403],
    ['another customer\'s email', { method: 'PATCH', path: `/api/customers/${OTHER_CUSTOMER}`, headers: JSON_HEADERS, body: '{"email":"x@y.example"}' }, 403],
    ['a foreign account id hidden in a body', { method: 'POST', path: `/api/internal-accounts/${ACCOUNT}/export`, headers: JSON_HEADERS, body: JSON.stringify({ clientPublicKey: '04', accountId: OTHER_ACCOUNT }) }, 403],
    ['a foreign customer id hidden in a body', { method: 'PATCH', path: `/api/customers/${CUSTOMER}`, headers: JSON_HEADERS, body: JSON.stringify({ email: 'a@b.example', customerId: OTHER_CUSTOMER }) }, 403],
    // Spellings a case-insensitive decoder upstream would read as the bound fields.
    ['a foreign account id under another letter case', { method: 'POST', path: `/api/internal-accounts/${ACCOUNT}/export`, headers: JSON_HEADERS, body: JSON.stringify({ clientPublicKey: '04', AccountID: OTHER_ACCOUNT }) }, 403],
    ['a foreign card id under another letter case', { method: 'PATCH', path: `/api/internal-accounts/${ACCOUNT}`, headers: JSON_HEADERS, body: JSON.stringify({ privateEnabled: true, CardId: OTHER_CARD }) }, 403],
    ['registration options for another account', { method: 'POST', path: '/api/webauthn/registration-options', headers: JSON_HEADERS, body: JSON.stringify({ accountId: OTHER_ACCOUNT }) }, 403],
  ];
  for (const [name, request, status] of refused) {
    it(`refuses ${name} (${status})`, async () => {
      const before = others();
      const r = await raw(px.port, request);
      assertErrorShape(r, status, status === 403 ? 'FORBIDDEN' : 'NOT_FOUND');
      assert.equal(others(), before, 'nothing relayed');
    });
  }

  it('reads the account lists with a short cache and reads again on a miss', async () => {
    const n = lists().length;
    await raw(px.port, { path: `/api/auth/delegated-keys/${DELEGATED_KEY}` });
    await raw(px.port, { path: `/api/auth/delegated-keys/${DELEGATED_KEY}` });
    assert.equal(lists().length, n, 'hits are served from the cache');
    // A credential created a moment ago is not in the cached list: a miss reads the list again.
    listed.credentials!.push(NEW_AUTH_METHOD);
    const r = await raw(px.port, { method: 'POST', path: `/api/auth/credentials/${NEW_AUTH_METHOD}/challenge`, headers: JSON_HEADERS });
    assert.equal(r.status, 200);
    assert.equal(lists().length, n + 1);
    const list = lists().at(-1)!;
    assert.equal(list.url, `/2025-10-13/auth/credentials?accountId=${encodeURIComponent(ACCOUNT)}`);
    assert.match(String(list.headers.authorization), /^Basic /);
  });

  // Each made-up id would otherwise have the proxy read, and parse, a whole list from the service.
  it('reads a list at most 5 times at once, then once a second, for ids it does not know, however many a client makes up', async () => {
    const madeUp = () => ({ method: 'DELETE', path: `/api/auth/sessions/Session:${randomUUID()}`, headers: JSON_HEADERS });
    const from = readTimes.sessions!.length;
    const started = Date.now();
    // Many at once share a read; one after the other, for 1.5 s.
    for (const r of await Promise.all(Array.from({ length: 20 }, () => raw(px.port, madeUp())))) assertErrorShape(r, 404, 'NOT_FOUND');
    let sent = 20;
    while (Date.now() - started < 1500) {
      assertErrorShape(await raw(px.port, madeUp()), 404, 'NOT_FOUND');
      sent++;
    }
    const reads = readTimes.sessions!.length - from;
    const elapsed = Date.now() - started;
    assert.ok(reads >= 1 && reads <= 5 + Math.ceil(elapsed / 1000), `${reads} reads of the list in ${elapsed} ms for ${sent} made-up ids`);
    // An id listed meanwhile, not through this proxy, is found all the same: a miss waits for the next read, never refused on a cached one.
    const added = `Session:${randomUUID()}`;
    listed.sessions!.push(added);
    assert.equal((await raw(px.port, { method: 'DELETE', path: `/api/auth/sessions/${added}`, headers: JSON_HEADERS })).status, 200);
  });

  it('reads a list again at once after the account created an id in it through the proxy, not after a signed retry\'s 202', async () => {
    const miss = () => raw(px.port, { method: 'DELETE', path: `/api/auth/credentials/${OTHER_AUTH_METHOD}`, headers: JSON_HEADERS });
    const create = { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: JSON.stringify({ type: 'SMS_OTP', accountId: ACCOUNT }) };
    // Told without a clock: the first read of the list that reaches the service is held there until
    // the end. A miss made while it is under way shares it, unless the account created an id since
    // it started: then the miss reads again at once, by a read of its own. A 202 (a signed retry's
    // challenge) creates nothing yet: a miss after it still shares the held read, and so has no answer
    // and no read of its own until the read is let go, however slow the machine.
    let created202 = true;
    let release = () => undefined as void;
    let arrived!: () => void;
    const heldRead = new Promise<void>((r) => (arrived = r));
    let holding = true;
    up.setResponder((req, res) => {
      if (holding && req.method === 'GET' && ownListUrl(req) && req.url.includes('/auth/credentials?')) {
        holding = false;
        release = () => respond(req, res);
        arrived();
      } else if (created202 && req.method === 'POST') {
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ payloadToSign: 'p', requestId: `Request:${randomUUID()}`, expiresAt: new Date(Date.now() + 60_000).toISOString() }));
      } else respond(req, res);
    });
    const n = lists().length;
    const earlier = miss();
    // Awaited at the end; a failed assertion meanwhile leaves them to the closing servers.
    earlier.catch(() => undefined);
    let afterChallenge: Promise<Awaited<ReturnType<typeof raw>>> | undefined;
    try {
      await heldRead;
      assert.equal((await raw(px.port, create)).status, 202);
      afterChallenge = miss();
      afterChallenge.catch(() => undefined);
      // Load can only make it later; a miss that read on its own answers within a round trip.
      const first = await Promise.race([afterChallenge.then(() => 'answered'), new Promise((r) => setTimeout(r, 1500, 'held'))]);
      assert.equal(first, 'held', 'a miss after a 202 read the list on its own instead of sharing the read under way');
      assert.equal(lists().length, n + 1, 'a miss after a 202 read the list on its own');
      // The relayed create succeeds and the service lists a new credential: the next miss reads at once.
      created202 = false;
      assert.equal((await raw(px.port, create)).status, 200);
      const created = `AuthMethod:${randomUUID()}`;
      listed.credentials!.push(created);
      // One that waited for the held read, or shared it, gets no answer before the proxy's authorize deadline (504).
      const r = await raw(px.port, { method: 'POST', path: `/api/auth/credentials/${created}/challenge`, headers: JSON_HEADERS });
      assert.equal(r.status, 200, `the new credential was not found while an earlier read was under way: ${r.status}`);
      assert.equal(lists().length, n + 2, 'the held read and one read of its own, no other');
    } finally {
      up.setResponder(respond);
      release();
    }
    assertErrorShape(await earlier, 404, 'NOT_FOUND');
    assertErrorShape(await afterChallenge!, 404, 'NOT_FOUND');
  });

  it('answers 502 when the ownership list cannot be read', async () => {
    up.setResponder((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"status":500,"code":"INTERNAL_ERROR","message":"x"}');
    });
    try {
      assertErrorShape(await raw(px.port, { method: 'DELETE', path: `/api/auth/sessions/${OTHER_SESSION}`, headers: JSON_HEADERS }), 502, 'BAD_GATEWAY');
    } finally {
      up.setResponder((_req, res) => void res.end('{}'));
    }
  });
});

describe('per-caller binding (accountFor)', () => {
  let up: Awaited<ReturnType<typeof startRecorder>>;
  let px: Awaited<ReturnType<typeof startProxy>>;
  // Two users of the integrator, told apart by a header standing in for its own session cookie.
  const users: Record<string, { customerId: string; accountId: string; cardId: string }> = {
    alice: { customerId: CUSTOMER, accountId: ACCOUNT, cardId: CARD },
    bob: { customerId: OTHER_CUSTOMER, accountId: OTHER_ACCOUNT, cardId: OTHER_CARD },
  };
  const as = (user: string, init: Parameters<typeof raw>[1]) => ({ ...init, headers: { ...JSON_HEADERS, ...init.headers, 'x-test-user': user } });

  before(async () => {
    up = await startRecorder((req: Recorded, res) => {
      const m = /^\/2025-10-13\/auth\/(credentials|sessions|delegated-keys)\?accountId=(.*)$/.exec(req.url);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (m && req.method === 'GET') {
        const accountId = decodeURIComponent(m[2]!);
        const id = accountId === ACCOUNT ? AUTH_METHOD : OTHER_AUTH_METHOD;
        res.end(JSON.stringify({ data: m[1] === 'credentials' ? [{ id, accountId }] : [] }));
      } else res.end('{"relayed":true}');
    });
    px = await startProxy({ upstream: up.url, accountFor: (request) => users[String(request.headers['x-test-user'])] });
  });
  after(async () => {
    await px.close();
    await up.close();
  });

  it('lets each caller touch only its own account, card, customer and listed ids', async () => {
    assert.equal((await raw(px.port, as('alice', { method: 'POST', path: `/api/cards/${CARD}/reveal` }))).status, 200);
    assert.equal((await raw(px.port, as('bob', { method: 'POST', path: `/api/cards/${OTHER_CARD}/reveal` }))).status, 200);
    assertErrorShape(await raw(px.port, as('bob', { method: 'POST', path: `/api/cards/${CARD}/reveal` })), 403, 'FORBIDDEN');
    assert.equal((await raw(px.port, as('alice', { path: `/api/auth/credentials?accountId=${ACCOUNT}` }))).status, 200);
    assertErrorShape(await raw(px.port, as('alice', { path: `/api/auth/credentials?accountId=${OTHER_ACCOUNT}` })), 403, 'FORBIDDEN');
    assertErrorShape(await raw(px.port, as('bob', { method: 'PATCH', path: `/api/customers/${CUSTOMER}`, body: '{"email":"a@b.test"}' })), 403, 'FORBIDDEN');
    // Credential ids are checked against the caller's own account's list.
    assert.equal((await raw(px.port, as('bob', { method: 'POST', path: `/api/auth/credentials/${OTHER_AUTH_METHOD}/challenge` }))).status, 200);
    assertErrorShape(await raw(px.port, as('bob', { method: 'POST', path: `/api/auth/credentials/${AUTH_METHOD}/challenge` })), 404, 'NOT_FOUND');
  });

  it('answers 401 when the integrator knows no user for the request', async () => {
    const count = up.requests.length;
    const noUser = await raw(px.port, as('mallory', { method: 'POST', path: `/api/cards/${CARD}/reveal` }));
    assertErrorShape(noUser, 401, 'UNAUTHORIZED');
    // The site's 401, told apart from the service refusing the proxy's credentials (no details).
    assert.deepEqual(noUser.json?.details, { reason: 'AUTHORIZE' });
    assertErrorShape(await raw(px.port, { method: 'POST', path: `/api/cards/${CARD}/reveal`, headers: JSON_HEADERS }), 401, 'UNAUTHORIZED');
    assert.equal(up.requests.length, count, 'nothing reached the service');
  });
});

// A proxy given both a demoAccount and an accountFor asks both; when they bind the same account,
// the service is asked for that account's list once, not once per binding.
describe('demoAccount and accountFor together', () => {
  it('read the account\'s list once for an id neither has cached, also one the account just created', async () => {
    const listed = [AUTH_METHOD];
    const up = await startRecorder((req: Recorded, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.method === 'GET') res.end(JSON.stringify({ data: listed.map((id) => ({ id, accountId: ACCOUNT })) }));
      else res.end('{"relayed":true}');
    });
    const binding = { customerId: CUSTOMER, accountId: ACCOUNT, cardId: CARD };
    const px = await startProxy({ upstream: up.url, demoAccount: binding, accountFor: () => binding });
    const reads = () => up.requests.filter((r) => r.method === 'GET').length;
    const challenge = (id: string) => raw(px.port, { method: 'POST', path: `/api/auth/credentials/${id}/challenge`, headers: JSON_HEADERS });
    try {
      assert.equal((await challenge(AUTH_METHOD)).status, 200);
      assert.equal(reads(), 1);
      assert.equal((await challenge(AUTH_METHOD)).status, 200);
      assert.equal(reads(), 1, 'a cached id was read again');
      const create = { method: 'POST', path: '/api/auth/credentials', headers: JSON_HEADERS, body: JSON.stringify({ type: 'SMS_OTP', accountId: ACCOUNT }) };
      assert.equal((await raw(px.port, create)).status, 200);
      listed.push(NEW_AUTH_METHOD);
      assert.equal((await challenge(NEW_AUTH_METHOD)).status, 200);
      assert.equal(reads(), 2);
      // An id that is not the account's is refused after one read, by the first binding.
      assertErrorShape(await challenge(OTHER_AUTH_METHOD), 404, 'NOT_FOUND');
    } finally {
      await px.close();
      await up.close();
    }
  });
});

describe('the account binding\'s reads after a creation', () => {
  // Told by the order of events, never by a clock: reads come one per missReadMs once the first five
  // are spent, and missReadMs here is about 24 days, so a miss that waited for the bucket would
  // never be answered within the test. The list is read over HTTP from a recording upstream.
  it('a miss right after a creation starts the read waiting for its turn at once, and the miss that queued it shares it', { timeout: 20_000 }, async () => {
    const sessions = [SESSION];
    const up = await startRecorder((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: sessions.map((id) => ({ id, accountId: ACCOUNT })) }));
    });
    const events: string[] = [];
    const list = async (path: string) => {
      events.push('read');
      const res = await fetch(up.url + path);
      return ((await res.json()) as { data: Array<Record<string, unknown>> }).data;
    };
    const hook = accountAuthorize(() => ({ customerId: CUSTOMER, accountId: ACCOUNT, cardId: CARD }), list, 5000, 2 ** 31 - 1);
    const request = {} as IncomingMessage;
    const miss = (id: string, name: string) =>
      Promise.resolve(hook({ request, route: 'deleteSession', params: { id }, query: {}, body: undefined })).then((d) => {
        events.push(`${name} ${d === true ? 'allowed' : 'refused'}`);
        return d;
      });
    try {
      // The five reads a made-up id may start at once, one after the other.
      for (let i = 0; i < 5; i++) await miss(`Session:${randomUUID()}`, `miss ${i + 1}`);
      // The sixth waits for the bucket; meanwhile a session is created through the proxy.
      const sixth = miss(`Session:${randomUUID()}`, 'miss 6');
      await new Promise((r) => setImmediate(r));
      assert.equal(events.filter((e) => e === 'read').length, 5, 'the sixth miss read without waiting for the bucket');
      const created = `Session:${randomUUID()}`;
      sessions.push(created);
      hook.changed(request, 'verifyCredential', 200);
      const found = await miss(created, 'new session');
      await sixth;
      assert.equal(found, true);
      // One read more, shared by the sixth miss and the one after the creation.
      assert.equal(events[10], 'read');
      assert.deepEqual(events.slice(11).sort(), ['miss 6 refused', 'new session allowed']);
    } finally {
      await up.close();
    }
  });
});
