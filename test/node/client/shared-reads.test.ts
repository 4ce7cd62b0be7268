/**
 * Identical list reads of one client on their way at once share one request (endpoints.ts `read`),
 * against a scripted loopback server that counts what reaches it: each caller gets its own copy of
 * the answer, or the failure; nothing is kept once the answer is in; a read asked for after a write
 * takes no answer asked for before it; a caller stopped stops waiting alone.
 */
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../../src/core/client.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import { startScriptedServer, type ScriptedServer } from './scripted-server.ts';

const ACCOUNT = 'InternalAccount:00000000-0000-4000-8000-000000000001';
const OTHER = 'InternalAccount:00000000-0000-4000-8000-000000000002';
const credential = (n: number) => ({ id: `AuthMethod:00000000-0000-4000-8000-00000000000${n}`, type: 'EMAIL_OTP', accountId: ACCOUNT, nickname: `n${n}` });

describe('list reads shared while on their way', () => {
  let server: ScriptedServer;
  /** The credentials the server lists now; each answer waits `delayMs`. */
  let listed = [credential(1)];
  before(async () => {
    server = await startScriptedServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    listed = [credential(1)];
    server.setScript(({ method, path }) => {
      if (method === 'POST') return { status: 201, body: (listed = [...listed, credential(listed.length + 1)]).at(-1) };
      if (path.startsWith('/auth/credentials?')) return { status: 200, body: { data: listed }, delayMs: 150 };
      return { status: 200, body: { data: [] }, delayMs: 150 };
    });
  });
  const gets = () => server.requests.filter((r) => r.method === 'GET').map((r) => r.path);

  it('five reads asked for at once make one request, and each caller gets its own copy of the answer', async () => {
    const client = createClient({ baseUrl: server.url });
    const lists = await Promise.all(Array.from({ length: 5 }, () => client.listCredentials(ACCOUNT)));
    assert.deepEqual(gets(), [`/auth/credentials?accountId=${encodeURIComponent(ACCOUNT)}`]);
    for (const l of lists) assert.deepEqual(l, [credential(1)]);
    lists[0]!.pop();
    lists[1]![0]!.nickname = 'changed';
    assert.deepEqual(lists.slice(2), [[credential(1)], [credential(1)], [credential(1)]]);
  });

  it('nothing is kept once the answer is in: the next read goes upstream', async () => {
    const client = createClient({ baseUrl: server.url });
    await client.listCredentials(ACCOUNT);
    await client.listCredentials(ACCOUNT);
    assert.equal(gets().length, 2);
  });

  it('reads of another list, or through another client, are their own', async () => {
    const one = createClient({ baseUrl: server.url });
    await Promise.all([one.listCredentials(ACCOUNT), one.listCredentials(OTHER), one.listDelegatedKeys({ accountId: ACCOUNT }), createClient({ baseUrl: server.url }).listCredentials(ACCOUNT)]);
    assert.equal(gets().length, 4);
  });

  it('a failure reaches every caller that waited on it', async () => {
    server.setScript(() => ({ status: 503, body: { code: 'UNAVAILABLE', message: 'Down.' }, delayMs: 100 }));
    const client = createClient({ baseUrl: server.url });
    const results = await Promise.allSettled(Array.from({ length: 3 }, () => client.listCredentials(ACCOUNT)));
    assert.equal(gets().length, 1);
    for (const r of results) assert.ok(r.status === 'rejected' && r.reason instanceof ServiceError && r.reason.status === 503);
  });

  it('a read asked for after a write, while one asked for before it is on its way, sends its own request and sees the write', async () => {
    const client = createClient({ baseUrl: server.url });
    const before = client.listCredentials(ACCOUNT);
    await new Promise((r) => setTimeout(r, 30));
    const made = await client.createCredential({ type: 'EMAIL_OTP', accountId: ACCOUNT, nickname: 'x' } as never);
    const after = await client.listCredentials(ACCOUNT);
    assert.equal(gets().length, 2);
    assert.deepEqual(
      after.map((c) => c.id),
      [credential(1).id, made.id],
    );
    assert.deepEqual(
      (await before).map((c) => c.id),
      [credential(1).id],
    );
  });

  it('a write through another client of the page also starts reads anew', async () => {
    const client = createClient({ baseUrl: server.url });
    const before = client.listCredentials(ACCOUNT);
    await new Promise((r) => setTimeout(r, 30));
    await createClient({ baseUrl: server.url }).createCredential({ type: 'EMAIL_OTP', accountId: ACCOUNT, nickname: 'x' } as never);
    assert.equal((await client.listCredentials(ACCOUNT)).length, 2);
    assert.equal((await before).length, 1);
  });

  it("a write sent through the client's low-level send also starts reads anew", async () => {
    const client = createClient({ baseUrl: server.url });
    const before = client.listCredentials(ACCOUNT);
    await new Promise((r) => setTimeout(r, 30));
    await client.send({ method: 'POST', path: '/auth/credentials', body: JSON.stringify({ type: 'EMAIL_OTP', accountId: ACCOUNT }) });
    assert.equal((await client.listCredentials(ACCOUNT)).length, 2);
    assert.equal((await before).length, 1);
    assert.equal(gets().length, 2);
  });

  it('a caller stopped stops waiting alone; a read asked for after it goes upstream anew', async () => {
    const client = createClient({ baseUrl: server.url });
    const stopped = new AbortController();
    const first = client.listCredentials(ACCOUNT);
    const leaving = client.listCredentials(ACCOUNT, { signal: stopped.signal });
    stopped.abort();
    await assert.rejects(leaving, (e: unknown) => e instanceof WalletError && e.code === 'aborted');
    const later = client.listCredentials(ACCOUNT);
    assert.deepEqual(await first, [credential(1)]);
    assert.deepEqual(await later, [credential(1)]);
    assert.equal(gets().length, 2);
    // Stopped before it asks: no request at all.
    await assert.rejects(client.listCredentials(ACCOUNT, { signal: AbortSignal.abort() }), (e: unknown) => e instanceof WalletError && e.code === 'aborted');
    assert.equal(gets().length, 2);
  });
});
