/**
 * The client, the signed retry and the Node-capable session flows against the real sandbox behind
 * the real proxy, both on loopback (reference.md "Credentials", "Sessions", "Delegated keys";
 * api.md "Signed-retry pattern"). The sandbox's own clock is moved to expire things.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createProxy, type ProxyHandler } from '../../../src/proxy/index.ts';
import { createClient, type WalletClient } from '../../../src/core/client.ts';
import { sendSigned } from '../../../src/core/signed-retry.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { createWallet, type Wallet } from '../../../src/core/session.ts';
import { keyStamper, type Stamper } from '../../../src/core/stamp.ts';
import { generateSigningKey } from '../../../src/core/p256.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import { createSandboxAccount, type SandboxAccount } from '../../support/sandbox-account.ts';

type Account = SandboxAccount;

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
}

describe('client and signed retry against the sandbox through the proxy', () => {
  let sandbox: Sandbox;
  let proxy: ProxyHandler;
  let server: Server;
  let client: WalletClient;
  const requests: Array<{ route: string; status: number }> = [];

  async function newAccount(): Promise<Account> {
    const res = await createSandboxAccount(sandbox);
    assert.equal(res.status, 201);
    return (await res.json()) as Account;
  }

  async function loggedIn(): Promise<{ acct: Account; wallet: Wallet; store: ReturnType<typeof memoryKeyStore> }> {
    const acct = await newAccount();
    const store = memoryKeyStore();
    const wallet = createWallet({ client, store, otpSigner: sandbox.fixtures.signerPublicKey });
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    return { acct, wallet, store };
  }

  /** Another device (a login of its own) ends `sessionId` of this device's. */
  async function endedElsewhere(acct: Account, sessionId: string): Promise<void> {
    const elsewhere = createWallet({ client, store: memoryKeyStore(), otpSigner: sandbox.fixtures.signerPublicKey });
    sandbox.clock.advance(31_000);
    await (await elsewhere.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await client.revokeSession(sessionId, { stamper: await elsewhere.stamper(acct.accountId) });
  }

  before(async () => {
    sandbox = await startSandbox({});
    const f = sandbox.fixtures;
    proxy = createProxy({
      upstream: f.baseUrl,
      tokenId: f.tokenId,
      clientSecret: f.clientSecret,
      authorize: () => true,
      basePath: '/api',
      rateLimit: false,
      logger: (line) => requests.push({ route: line.route, status: line.status }),
    });
    server = createServer((req, res) => proxy(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await proxy.close();
    await sandbox.close();
  });

  it('logs in with OTP in Node: the session key is a non-extractable CryptoKey in the store', async () => {
    const { acct, store } = await loggedIn();
    const got = await store.get(acct.accountId);
    assert.equal(got?.session.credentialType, 'EMAIL_OTP');
    assert.equal(got?.key?.privateKey.extractable, false);
    await assert.rejects(crypto.subtle.exportKey('pkcs8', got!.key!.privateKey));
    const sessions = await client.listSessions(acct.accountId);
    assert.ok(sessions.some((s) => s.id === got!.session.sessionId));
    assert.ok(sessions.every((s) => s.encryptedSessionSigningKey === undefined));
  });

  it('starts over once when the retry comes after the request id expired (401 REQUEST_ID_EXPIRED)', async () => {
    const { acct, wallet } = await loggedIn();
    const inner = await wallet.stamper(acct.accountId);
    const payloads: string[] = [];
    // The first signature takes "6 minutes" on the sandbox's clock: past the 5-minute window.
    const slow: Stamper = {
      async stamp(p) {
        payloads.push(p);
        if (payloads.length === 1) sandbox.clock.advance(6 * 60_000);
        return inner.stamp(p);
      },
    };
    requests.length = 0;
    const account = await client.setWalletPrivacy(acct.accountId, true, { stamper: slow });
    assert.equal(account.privateEnabled, true);
    assert.equal(payloads.length, 2);
    assert.deepEqual(
      requests.map((r) => r.status),
      [202, 401, 202, 200],
    );
  });

  it('does not start over when the retry is refused because the signing session ended (401 SESSION_EXPIRED): only its own request id expiring does', async () => {
    const { acct, wallet, store } = await loggedIn();
    const { sessionId } = (await store.get(acct.accountId))!.session;
    const inner = await wallet.stamper(acct.accountId);
    // The session (15 minutes) ends while the first signature is made; the request (5 minutes) does not.
    sandbox.clock.advance(14.5 * 60_000);
    let stamps = 0;
    const slow: Stamper = {
      stamp(p) {
        if (stamps++ === 0) sandbox.clock.advance(60_000);
        return inner.stamp(p);
      },
    };
    requests.length = 0;
    const next = await generateSigningKey();
    const e = await rejection(client.refreshSession(sessionId, Buffer.from(next.publicKey).toString('hex'), { stamper: slow }));
    assert.ok(e instanceof ServiceError && e.status === 401);
    assert.equal((e.details as { reason?: string }).reason, 'SESSION_EXPIRED');
    assert.equal(stamps, 1);
    assert.deepEqual(
      requests.map((r) => r.status),
      [202, 401],
    );
  });

  it('the service refuses a replayed request id and a retry with other bytes: why the client never does either', async () => {
    const { acct, wallet } = await loggedIn();
    const stamper = await wallet.stamper(acct.accountId);
    const path = `/internal-accounts/${acct.accountId}`;
    const body = JSON.stringify({ privateEnabled: true });
    const first = await client.send({ method: 'PATCH', path, body });
    assert.equal(first.status, 202);
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
    const { headerName, headerValue } = await stamper.stamp(payloadToSign);
    const headers = { [headerName]: headerValue, 'Request-Id': requestId };

    const other = await rejection(client.send({ method: 'PATCH', path, body: JSON.stringify({ privateEnabled: true }, null, 1), headers }));
    assert.ok(other instanceof ServiceError);
    assert.equal(other.status, 401);

    const again = await client.send({ method: 'PATCH', path, body });
    const c2 = again.body as { payloadToSign: string; requestId: string };
    const s2 = await stamper.stamp(c2.payloadToSign);
    const h2 = { [s2.headerName]: s2.headerValue, 'Request-Id': c2.requestId };
    assert.equal((await client.send({ method: 'PATCH', path, body, headers: h2 })).status, 200);
    const replay = await rejection(client.send({ method: 'PATCH', path, body, headers: h2 }));
    assert.ok(replay instanceof ServiceError);
    assert.equal(replay.status, 401);
  });

  it('creates a delegated key through two signatures and refuses a second active one with 409', async () => {
    const { acct, wallet } = await loggedIn();
    const inner = await wallet.stamper(acct.accountId);
    let signatures = 0;
    const counting: Stamper = { stamp: (p) => ((signatures += 1), inner.stamp(p)) };
    const key = await client.createDelegatedKey({ cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Card key' }, { stamper: counting });
    assert.equal(key.status, 'ACTIVE');
    assert.equal(signatures, 2);
    const e = await rejection(client.createDelegatedKey({ cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Again' }, { stamper: inner }));
    assert.ok(e instanceof ServiceError && e.status === 409);
    // A signature from a key the account does not know is refused.
    const stranger = keyStamper(await generateSigningKey());
    await client.revokeDelegatedKey(key.id);
    const refused = await rejection(client.createDelegatedKey({ cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Stranger' }, { stamper: stranger }));
    assert.ok(refused instanceof ServiceError && refused.status === 401, String(refused));
  });

  it('credentials: create needs a session once one exists, OAuth login in Node, revoke signed by another credential, the last one stays', async () => {
    const acct = await newAccount();
    const store = memoryKeyStore();
    const wallet = createWallet({ client, store, otpSigner: sandbox.fixtures.signerPublicKey });
    const sub = `node-${crypto.randomUUID()}`;
    const token = await sandbox.oidc.mintIdToken({ sub, email: `${sub}@sandbox.test` });
    const noSession = await rejection(client.createCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: token }));
    assert.ok(noSession instanceof WalletError && noSession.code === 'session_expired');

    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const oauth = await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: token });
    assert.equal(oauth.type, 'OAUTH');

    const session = await wallet.loginWithOAuth({
      credentialId: oauth.id,
      getIdToken: (nonce) => sandbox.oidc.mintIdToken({ sub, email: `${sub}@sandbox.test`, nonce }),
    });
    assert.equal(session.credentialType, 'OAUTH');
    // The nonce the wallet asked for is the hash of a 130-character key hex (wire format 5).
    let asked = '';
    await wallet.loginWithOAuth({
      credentialId: oauth.id,
      getIdToken: (nonce) => ((asked = nonce), sandbox.oidc.mintIdToken({ sub, nonce })),
    });
    assert.match(asked, /^[0-9a-f]{64}$/);

    // The OAuth session (now the freshest) revokes the EMAIL_OTP credential; then OAUTH is the last one.
    await client.revokeCredential(acct.emailCredentialId, { stamper: await wallet.stamper(acct.accountId) });
    const left = await client.listCredentials(acct.accountId);
    assert.deepEqual(left.map((c) => c.id), [oauth.id]);
    const last = await rejection(client.revokeCredential(oauth.id, { stamper: await wallet.stamper(acct.accountId) }));
    assert.ok(last instanceof ServiceError && last.status === 400);
  });

  it('revoking a session or a credential deletes this device\'s records and keys of it; a login drops the account\'s ended records', async () => {
    const acct = await newAccount();
    const store = memoryKeyStore();
    const wallet = createWallet({ client, store, otpSigner: sandbox.fixtures.signerPublicKey });
    const sub = `node-${crypto.randomUUID()}`;
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const oauth = await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await sandbox.oidc.mintIdToken({ sub }) });
    const login = () => wallet.loginWithOAuth({ credentialId: oauth.id, getIdToken: (nonce) => sandbox.oidc.mintIdToken({ sub, nonce }) });
    const first = await login();
    const second = await login();
    const stored = async () => (await store.list()).map((s) => s.sessionId).sort();
    assert.equal((await stored()).length, 3, 'email, and two single sign-on sessions');

    // Another session of this device: revoked upstream, and its record and key go here too.
    await wallet.revokeSession(acct.accountId, first.sessionId);
    assert.ok(!(await stored()).includes(first.sessionId));
    assert.ok(!(await client.listSessions(acct.accountId)).some((x) => x.id === first.sessionId));
    // Already gone upstream (404): done, and nothing stays.
    await wallet.revokeSession(acct.accountId, first.sessionId);

    // The email credential, removed with the live single sign-on session: its session goes here too.
    const email = (await store.list()).find((x) => x.credentialType === 'EMAIL_OTP')!;
    await wallet.revokeCredential(acct.accountId, acct.emailCredentialId);
    assert.deepEqual(await stored(), [second.sessionId]);
    assert.ok(!(await client.listSessions(acct.accountId)).some((x) => x.id === email.sessionId));

    // Revoking the live session is a logout.
    await wallet.revokeSession(acct.accountId, second.sessionId);
    assert.deepEqual(await stored(), []);

    // A login on a clock past an old record's expiry deletes that record and its key.
    let clock = Date.now();
    const later = createWallet({ client, store, otpSigner: sandbox.fixtures.signerPublicKey, now: () => clock });
    const old = await later.loginWithOAuth({ credentialId: oauth.id, getIdToken: (nonce) => sandbox.oidc.mintIdToken({ sub, nonce }) });
    clock = Date.parse(old.expiresAt) + 1;
    const fresh = await later.loginWithOAuth({ credentialId: oauth.id, getIdToken: (nonce) => sandbox.oidc.mintIdToken({ sub, nonce }) });
    assert.deepEqual(await stored(), [fresh.sessionId]);
  });

  it('logout treats an already revoked session (404) as done and deletes the key', async () => {
    const { acct, wallet, store } = await loggedIn();
    const current = (await store.get(acct.accountId))!;
    await client.revokeSession(current.session.sessionId, { stamper: keyStamper(current.key!) });
    await wallet.logout(acct.accountId);
    assert.deepEqual(await store.list(), []);
  });

  it('logout with its newest session revoked elsewhere still ends the older session it holds upstream, and resolves', async () => {
    const { acct, wallet, store } = await loggedIn();
    const older = (await store.get(acct.accountId))!.session;
    // A code is sent at most every 30 s (the sandbox's clock moves past it).
    sandbox.clock.advance(31_000);
    const newest = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // Another device (its own login) ends this device's newest session.
    await endedElsewhere(acct, newest.sessionId);

    const from = requests.length;
    const ended = await wallet.logout(acct.accountId);
    // One answer of the session list says which signer the service still takes.
    const lists = requests.slice(from).filter((r) => r.route === 'listSessions').length;
    assert.equal(lists, 1, `the session list was read ${lists} times`);
    assert.deepEqual(await store.list(), []);
    // No session of this device is left live upstream with its key deleted here.
    const live = (await client.listSessions(acct.accountId)).map((s) => s.id);
    assert.ok(!live.includes(older.sessionId as (typeof live)[number]), 'the older session was ended upstream');
    assert.ok(ended.includes(older.sessionId));
  });

  it('logout with the newest session\'s key lost here ends that session and the older one upstream, signed by the older one, and forgets both', async () => {
    const { acct, wallet, store } = await loggedIn();
    const older = (await store.get(acct.accountId))!.session;
    sandbox.clock.advance(31_000);
    const newest = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // The newest session's key record goes (storage cleared in part, another tab's clean-up).
    store.dropKey(newest.sessionId);

    const ended = await wallet.logout(acct.accountId);
    assert.deepEqual(await store.list(), []);
    const live = (await client.listSessions(acct.accountId)).map((s) => s.id as string);
    assert.ok(!live.includes(older.sessionId), 'the older session was ended upstream');
    assert.ok(!live.includes(newest.sessionId), 'the session whose key was lost was ended upstream, signed by the older one');
    assert.deepEqual([...ended].sort(), [older.sessionId, newest.sessionId].sort());
  });

  it('logout with no key left here to sign forgets the sessions and rejects, naming those that stay live upstream until they expire', async () => {
    const { acct, wallet, store } = await loggedIn();
    const only = (await store.get(acct.accountId))!.session;
    store.dropKey(only.sessionId);
    const e = (await rejection(wallet.logout(acct.accountId))) as WalletError & { ended?: string[]; remaining?: string[] };
    assert.ok(e instanceof WalletError && e.code === 'key_missing', String(e));
    assert.deepEqual(e.ended, []);
    assert.deepEqual(e.remaining, [only.sessionId]);
    assert.deepEqual(await store.list(), []);
    // Indeed still live upstream: nothing here could sign its end.
    assert.ok((await client.listSessions(acct.accountId)).some((s) => s.id === only.sessionId));
  });

  it('logout with its newest session revoked elsewhere and the next one\'s key lost ends every session of this device upstream, reading the session list once', async () => {
    const { acct, wallet, store } = await loggedIn();
    const oldest = (await store.get(acct.accountId))!.session;
    const login = async () => (sandbox.clock.advance(31_000), (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000'));
    const keyless = await login();
    const newest = await login();
    store.dropKey(keyless.sessionId);
    await endedElsewhere(acct, newest.sessionId);

    const from = requests.length;
    const ended = await wallet.logout(acct.accountId);
    const lists = requests.slice(from).filter((r) => r.route === 'listSessions').length;
    assert.deepEqual(await store.list(), []);
    const live = (await client.listSessions(acct.accountId)).map((s) => s.id as string);
    assert.ok(!live.includes(oldest.sessionId), 'the oldest session was ended upstream');
    assert.ok(!live.includes(keyless.sessionId), 'the session whose key was lost was ended upstream');
    assert.deepEqual([...ended].sort(), [oldest.sessionId, keyless.sessionId, newest.sessionId].sort());
    assert.ok(lists <= 1, `the session list was read ${lists} times`);
  });

  it('a vanished key is key_missing; an expired session is session_expired; refresh after expiry is refused upstream', async () => {
    const { acct, wallet, store } = await loggedIn();
    const s = (await store.get(acct.accountId))!.session;
    store.dropKey(s.sessionId);
    const missing = await rejection(wallet.stamper(acct.accountId));
    assert.ok(missing instanceof WalletError && missing.code === 'key_missing');

    // A wallet whose clock is the sandbox's sees expiry locally, before any request.
    const second = await loggedIn();
    const local = createWallet({ client, store: second.store, otpSigner: sandbox.fixtures.signerPublicKey, now: () => sandbox.clock.now() });
    sandbox.clock.advance(16 * 60_000);
    assert.equal(await local.current(second.acct.accountId), undefined);
    const expired = await rejection(local.refresh(second.acct.accountId));
    assert.ok(expired instanceof WalletError && expired.code === 'session_expired');

    // With the real clock the record still looks live here; the service says 401, its active list
    // no longer has the session, and the record goes.
    const third = await loggedIn();
    sandbox.clock.advance(16 * 60_000);
    const refused = await rejection(third.wallet.refresh(third.acct.accountId));
    assert.ok(refused instanceof WalletError && refused.code === 'session_expired');
    assert.ok(refused.cause instanceof ServiceError && refused.cause.status === 401);
    assert.equal(await third.store.get(third.acct.accountId), undefined);
  });

  it('lists agent actions over all pages with the agent token', async () => {
    const acct = await newAccount();
    const page = await client.listAgentActions({ agentToken: acct.agentToken, limit: 10 });
    const ids: string[] = [];
    for await (const a of client.iterateAgentActions({ agentToken: acct.agentToken, limit: 10 })) ids.push(a.id);
    assert.equal(new Set(ids).size, ids.length);
    if (page.totalCount !== undefined) assert.equal(ids.length, page.totalCount);
    assert.ok(ids.length > 10, 'more than one page');
  });

  it('maps service errors with their status and code', async () => {
    const e = await rejection(client.getDelegatedKey('DelegatedKey:00000000-0000-4000-8000-000000000000'));
    assert.ok(e instanceof ServiceError);
    assert.equal(e.status, 404);
    assert.equal(typeof e.code, 'string');
    // sendSigned on a route that answers 2xx directly returns it untouched.
    const direct = await sendSigned({ send: client.send, method: 'POST', path: `/cards/${sandbox.fixtures.cardId}/reveal` });
    assert.equal(direct.status, 200);
  });
});
