/**
 * The proxy's card-reveal step-up (src/proxy/step-up.ts) against the real sandbox over loopback:
 * without a grant the reveal is refused (403 STEP_UP_REQUIRED); a signed session refresh relayed by
 * the proxy (reference.md "Sessions") grants an HttpOnly, SameSite=Strict cookie for that account,
 * with which the reveal passes; a grant for another account, a forged one or an expired one does
 * not. The login, the refresh and its stamp are the real core flows.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createProxy, type ProxyHandler, type ProxyOptions } from '../../../src/proxy/index.ts';
import { STEP_UP_REQUIRED, checkGrant, deriveStepUpKey, mintGrant } from '../../../src/proxy/step-up.ts';
import { createClient } from '../../../src/core/client.ts';
import { createWallet } from '../../../src/core/session.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import type { SandboxFixtures } from '../../../src/core/types.ts';
import { createSandboxAccount } from '../../support/sandbox-account.ts';
import { ACCOUNT, CARD, SESSION, jarFetch, raw, startProxy, startRecorder } from './helpers.ts';

async function listen(handler: ProxyHandler, options: http.ServerOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(options, handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await handler.close();
    },
  };
}

/** When the step-up grant in `jar` ends (its signed payload's `e`, milliseconds on the proxy's clock). */
function grantEnd(jar: Map<string, string>): number {
  const grants = [...jar].filter(([name]) => name.startsWith('wallet_step_up_'));
  assert.equal(grants.length, 1, 'one grant');
  return (JSON.parse(Buffer.from(grants[0]![1].split('.')[0]!, 'base64url').toString('utf8')) as { e: number }).e;
}

/**
 * Runs `attempt`, which sets `state.end` to the end of the session or grant it then relies on (on
 * this process's clock, which the proxy in it shares). An attempt that fails while that is live
 * fails the test; one that fails after it ended was made late by the machine's load, not by the
 * proxy, and is made anew, five times at most.
 */
async function inTime(attempt: (state: { end: number }) => Promise<void>): Promise<void> {
  for (let tries = 1; ; tries++) {
    const state = { end: Infinity };
    try {
      return await attempt(state);
    } catch (error) {
      if (Date.now() < state.end || tries === 5) throw error;
    }
  }
}

describe('card reveal step-up', () => {
  let sandbox: Sandbox;
  let f: SandboxFixtures;
  let proxy: { url: string; close(): Promise<void> };
  const secret = 'step-up test secret';

  before(async () => {
    // Each test logs in anew with the same credential: no OTP resend interval.
    sandbox = await startSandbox({ otpResendIntervalMs: 1 });
    f = sandbox.fixtures;
    // Grants of two minutes: ample for a refresh, then a reveal, on a loaded machine. The test
    // about their end has a proxy of its own with grants of 2 seconds.
    proxy = await demoProxy({ stepUp: { secret, ttlSeconds: 120 } });
  });

  /** A proxy bound to the sandbox's demo account, with these options on top. */
  function demoProxy(options: Partial<ProxyOptions> = {}, server: http.ServerOptions = {}): ReturnType<typeof listen> {
    const demoAccount = { customerId: f.customerId, accountId: f.accountId, cardId: f.cardId };
    return listen(createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, demoAccount, rateLimit: false, ...options }), server);
  }

  after(async () => {
    await proxy.close();
    await sandbox.close();
  });

  async function loggedIn() {
    const http = jarFetch();
    const client = createClient({ baseUrl: proxy.url, fetch: http.fetch });
    const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
    const login = await wallet.startOtpLogin({ credentialId: f.emailCredentialId });
    await login.submit('000000');
    return { http, client, wallet };
  }

  it('refuses a reveal without a grant, even with a live session, with 403 STEP_UP_REQUIRED', async () => {
    const { client } = await loggedIn();
    await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.status === 403 && e.code === 'STEP_UP_REQUIRED');
  });

  it('a page of another site, whose browser never sends the grant, is told why and what to change', async () => {
    const other = await demoProxy({ stepUp: { secret }, allowedOrigins: ['http://localhost:5601'] });
    try {
      const { port } = new URL(other.url);
      const reveal = (site: string) =>
        raw(Number(port), { method: 'POST', path: `/api/cards/${f.cardId}/reveal`, headers: { origin: 'http://localhost:5601', 'sec-fetch-site': site, 'x-requested-with': 'test' } });
      const crossSite = await reveal('cross-site');
      assert.equal(crossSite.status, 403);
      assert.equal(crossSite.json.code, 'STEP_UP_REQUIRED');
      assert.match(crossSite.json.message, /same site as the proxy.*localhost and 127\.0\.0\.1 are two sites/);
      // From the same site, the usual sentence.
      assert.equal((await reveal('same-site')).json.message, 'Card details need a fresh proof of a wallet session: refresh the session, then ask again.');
    } finally {
      await other.close();
    }
  });

  it('a relayed session refresh grants an HttpOnly SameSite=Strict cookie scoped to the card routes, and the reveal passes', async () => {
    const { http: h, client, wallet } = await loggedIn();
    assert.equal(h.setCookies.length, 0, 'logging in grants nothing');
    const before = (await wallet.current(f.accountId))!.sessionId.slice(8);
    const { sessionId } = await wallet.refresh(f.accountId);
    // The refreshed session ended (a new id): its grant, had it one, goes; the new session's comes.
    assert.equal(h.setCookies.length, 2);
    assert.match(h.setCookies[0]!, new RegExp(`^wallet_step_up_${before}=; Path=/api/cards; Max-Age=0; `));
    const name = `wallet_step_up_${sessionId.slice(8)}`;
    const cookie = h.setCookies[1]!;
    assert.match(cookie, new RegExp(`^${name}=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+; `));
    assert.match(cookie, /; Path=\/api\/cards(;|$)/);
    assert.match(cookie, /; Max-Age=120(;|$)/);
    assert.match(cookie, /; HttpOnly(;|$)/);
    assert.match(cookie, /; SameSite=Strict(;|$)/);
    // Plain HTTP on loopback: no Secure attribute (it is added over TLS).
    assert.doesNotMatch(cookie, /Secure/);
    assert.deepEqual([...h.jar.keys()], [name]);
    const grant = checkGrant(deriveStepUpKey(secret), h.jar.get(name), Date.now());
    assert.deepEqual(grant, { ok: true, accountId: f.accountId });

    const reveal = await client.revealCard(f.cardId);
    assert.match(reveal.panEmbedUrl, /\/processor\/card\?token=/);
  });

  it('a logout through the proxy clears the grant: the next reveal needs a new proof', async () => {
    const { http: h, client, wallet } = await loggedIn();
    const { sessionId } = await wallet.refresh(f.accountId);
    await client.revealCard(f.cardId);
    await wallet.logout(f.accountId);
    const cleared = h.setCookies.at(-1)!;
    assert.equal(cleared, `wallet_step_up_${sessionId.slice(8)}=; Path=/api/cards; Max-Age=0; HttpOnly; SameSite=Strict`);
    assert.equal(h.jar.size, 0);
    await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
  });

  it('marks the grant Secure when TLS ends in front of the proxy (X-Forwarded-Proto https)', async () => {
    const h = jarFetch();
    const forwarded: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('x-forwarded-proto', 'https');
      return h.fetch(input, { ...init, headers });
    };
    const wallet = createWallet({ client: createClient({ baseUrl: proxy.url, fetch: forwarded }), store: memoryKeyStore(), otpSigner: f.signerPublicKey });
    await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
    await wallet.refresh(f.accountId);
    assert.equal(h.setCookies.length, 2);
    for (const line of h.setCookies) assert.match(line, /; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('an expired grant is refused (2-second lifetime)', async () => {
    const short = await demoProxy({ stepUp: { secret, ttlSeconds: 2 } });
    try {
      let client!: ReturnType<typeof createClient>;
      let end = 0;
      await inTime(async (state) => {
        const h = jarFetch();
        client = createClient({ baseUrl: short.url, fetch: h.fetch });
        const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
        await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
        const minted = Date.now();
        await wallet.refresh(f.accountId);
        end = state.end = grantEnd(h.jar);
        // Minted for 2 seconds, on the proxy's clock (this process's).
        assert.ok(end >= minted + 2000 && end <= Date.now() + 2000, `a grant ending ${end - minted} ms after the refresh began`);
        await client.revealCard(f.cardId);
      });
      // Past its end, the same grant (sent anyway: a jar that ignores Max-Age) opens nothing.
      await new Promise((r) => setTimeout(r, Math.max(0, end - Date.now()) + 100));
      await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
    } finally {
      await short.close();
    }
  });

  it('a forged grant, or a valid grant for another account, is refused', async () => {
    const key = deriveStepUpKey(secret);
    const other = mintGrant(key, 'InternalAccount:00000000-0000-4000-8000-000000000001', Date.now(), 60_000);
    const mine = mintGrant(key, f.accountId, Date.now(), 60_000);
    const [payload] = mine.split('.');
    const forged = `${payload}.${mintGrant(deriveStepUpKey('another secret'), f.accountId, Date.now(), 60_000).split('.')[1]}`;
    for (const [grant, expected] of [
      [other, 403],
      [forged, 403],
      ['garbage', 403],
      [mine, 200],
    ] as const) {
      const res = await fetch(`${proxy.url}/cards/${f.cardId}/reveal`, {
        method: 'POST',
        headers: { 'x-requested-with': 'test', cookie: `wallet_step_up_1=${grant}` },
      });
      assert.equal(res.status, expected, grant.slice(0, 20));
      const body = (await res.json()) as { code?: string };
      if (expected === 403) assert.equal(body.code, 'STEP_UP_REQUIRED');
    }
  });

  it('junk step-up cookies are no grant, never a 500 nor echoed, and push no valid grant out of those looked at', async () => {
    const key = deriveStepUpKey(secret);
    const mine = mintGrant(key, f.accountId, Date.now(), 60_000);
    const [payload, sig] = mine.split('.') as [string, string];
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const junk = [
      'garbage',
      '',
      `"${mine}"`,
      `${mine}.x`,
      `${'A'.repeat(6000)}.${sig}`,
      `${payload}.${sig.slice(0, 10)}`,
      `${b64({ a: f.accountId, e: Date.now() + 60_000, n: 'x' })}.${sig}`,
      `${b64(null)}.${sig}`,
      `${payload}.${sig}%3D`,
      'x.y',
    ];
    const reveal = (cookie: string) =>
      raw(Number(new URL(proxy.url).port), { method: 'POST', path: `/api/cards/${f.cardId}/reveal`, headers: { 'content-type': 'application/json', cookie } });
    for (const value of junk) {
      const r = await reveal(`wallet_step_up_1=${value}`);
      assert.equal(r.status, 403, `${value.slice(0, 40)}: ${r.text.slice(0, 200)}`);
      assert.deepEqual(r.json, { status: 403, code: 'STEP_UP_REQUIRED', message: STEP_UP_REQUIRED.message });
    }
    // A browser holding such cookies as well as a valid grant (duplicated names, a cookie per old
    // session, a value set by a sibling site) is still let through on the valid one.
    const many = [...junk, ...junk, ...Array.from({ length: 20 }, () => 'garbage')].map((v, i) => `wallet_step_up_${i % 3}=${v}`);
    const r = await reveal([...many, `wallet_step_up_1=${mine}`].join('; '));
    assert.equal(r.status, 200, r.text.slice(0, 200));
    assert.equal((await reveal([...many, 'wallet_step_up_1=garbage'].join('; '))).status, 403);
  });

  /**
   * `count` distinct cookies shaped as grants (a payload, a dot, a 43-character MAC) that are no
   * grant of this proxy, as a sibling subdomain can set for the parent domain: the shortest such
   * value, so that as many as possible fit in a Cookie header.
   */
  function forgeries(count: number): string[] {
    const mac = 'A'.repeat(43);
    return Array.from({ length: count }, (_, i) => `wallet_step_up_=${i.toString(36)}.${mac}`);
  }

  it('forged grant-shaped cookies ahead of a valid grant, as many as fit in a Cookie header Node takes (16 KiB), do not push it out', async () => {
    const key = deriveStepUpKey(secret);
    const mine = `wallet_step_up_1=${mintGrant(key, f.accountId, Date.now(), 60_000)}`;
    // Grants of the same account under another key, and minimal forgeries, before the valid one.
    const signed = Array.from({ length: 20 }, (_, i) => `wallet_step_up_f${i}=${mintGrant(deriveStepUpKey(`forger ${i}`), f.accountId, Date.now(), 60_000)}`);
    const port = Number(new URL(proxy.url).port);
    const reveal = (cookie: string) => raw(port, { method: 'POST', path: `/api/cards/${f.cardId}/reveal`, headers: { 'content-type': 'application/json', cookie } });
    const few = await reveal([...signed, mine].join('; '));
    assert.equal(few.status, 200, `20 forgeries first: ${few.text.slice(0, 200)}`);
    const minimal = forgeries(1000);
    let fill = 0;
    // As many as a 16 KiB request head holds, the valid grant and the other headers included.
    while ([...minimal.slice(0, fill + 1), mine].join('; ').length < 15_800) fill++;
    assert.ok(fill > 200, `${fill} forgeries fit`);
    const full = await reveal([...minimal.slice(0, fill), mine].join('; '));
    assert.equal(full.status, 200, `${fill} forgeries first: ${full.text.slice(0, 200)}`);
    // Without the valid grant, none of them is one.
    assert.equal((await reveal(minimal.slice(0, fill).join('; '))).status, 403);
  });

  it('at most 1024 distinct grant-shaped cookies are checked: a grant past them is not looked at, and a Cookie header of very many is answered at once', async () => {
    // A server that takes request heads of 4 MiB (Node's default is 16 KiB, which holds about 260).
    const big = await demoProxy({ stepUp: { secret } }, { maxHeaderSize: 4 * 1024 * 1024 });
    try {
      const port = Number(new URL(big.url).port);
      const mine = `wallet_step_up_1=${mintGrant(deriveStepUpKey(secret), f.accountId, Date.now(), 60_000)}`;
      const reveal = (cookie: string) => raw(port, { method: 'POST', path: `/api/cards/${f.cardId}/reveal`, headers: { 'content-type': 'application/json', cookie } });
      const many = forgeries(50_000);
      // The 1024th checked: accepted.
      assert.equal((await reveal([...many.slice(0, 1023), mine].join('; '))).status, 200);
      // Repeats are not counted: the same forgery a thousand times over, then the valid grant.
      assert.equal((await reveal([...Array.from({ length: 2000 }, () => many[0]!), mine].join('; '))).status, 200);
      // The 1025th: not looked at.
      const past = await reveal([...many.slice(0, 1024), mine].join('; '));
      assert.equal(past.status, 403);
      assert.equal(past.json.code, 'STEP_UP_REQUIRED');
      // 50,000 of them (3 MiB): refused like any request without a grant among those checked, at once:
      // the CPU time (this process's, so that other processes' load does not count) it costs over
      // the same cookies under a name no grant has, fastest of three each, is well under what
      // checking them all costs.
      const cpuMs = async (cookie: string, status: number) => {
        const start = process.cpuUsage();
        assert.equal((await reveal(cookie)).status, status);
        const { user, system } = process.cpuUsage(start);
        return (user + system) / 1000;
      };
      const flood = [...many, mine].join('; ');
      const plain = flood.replaceAll('wallet_step_up_', 'wallet_step_uq_');
      const floodMs: number[] = [];
      const plainMs: number[] = [];
      for (let i = 0; i < 3; i++) {
        floodMs.push(await cpuMs(flood, 403));
        plainMs.push(await cpuMs(plain, 403));
      }
      const extra = Math.min(...floodMs) - Math.min(...plainMs);
      const key = deriveStepUpKey('another secret');
      const start = process.cpuUsage();
      for (const cookie of many) checkGrant(key, cookie.slice(cookie.indexOf('=') + 1), Date.now());
      const { user, system } = process.cpuUsage(start);
      const checkingAll = (user + system) / 1000;
      assert.ok(extra < checkingAll / 2, `${Math.round(extra)} ms of CPU more than the same cookies under another name; checking all of them takes ${Math.round(checkingAll)} ms`);
    } finally {
      await big.close();
    }
  });

  it('the browser cookie never goes upstream (the service sees Basic only)', async () => {
    // The sandbox would answer 401 to anything but the platform pair; a 200 with the cookie present
    // shows the proxy relayed Basic and dropped the Cookie header (DESIGN.md security rules).
    const key = deriveStepUpKey(secret);
    const res = await fetch(`${proxy.url}/cards/${f.cardId}/reveal`, {
      method: 'POST',
      headers: { 'x-requested-with': 'test', cookie: `wallet_step_up_1=${mintGrant(key, f.accountId, Date.now(), 60_000)}; other=1` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('checkGrant: tampered payload, wrong key, expiry', () => {
    const key = deriveStepUpKey(secret);
    const now = Date.now();
    const grant = mintGrant(key, f.accountId, now, 1000);
    assert.deepEqual(checkGrant(key, grant, now), { ok: true, accountId: f.accountId });
    assert.deepEqual(checkGrant(key, grant, now + 1000), { ok: false, reason: 'expired' });
    assert.deepEqual(checkGrant(deriveStepUpKey('x'), grant, now), { ok: false, reason: 'forged' });
    const [payload, sig] = grant.split('.') as [string, string];
    const tampered = Buffer.from(JSON.stringify({ a: 'InternalAccount:00000000-0000-4000-8000-000000000002', e: now + 1000, n: 'x' })).toString('base64url');
    assert.deepEqual(checkGrant(key, `${tampered}.${sig}`, now), { ok: false, reason: 'forged' });
    assert.deepEqual(checkGrant(key, `${payload}`, now), { ok: false, reason: 'malformed' });
    assert.deepEqual(checkGrant(key, undefined, now), { ok: false, reason: 'malformed' });
  });

  it('with accountFor (the README set-up) the grant is checked against the caller\'s own card; no accountForCard needed', async () => {
    const own = { customerId: f.customerId, accountId: f.accountId, cardId: f.cardId };
    const asked: unknown[] = [];
    const mounted = await listen(
      createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, accountFor: (request) => (asked.push(request), own), stepUp: { secret }, rateLimit: false }),
    );
    try {
      const http = jarFetch();
      const client = createClient({ baseUrl: mounted.url, fetch: http.fetch });
      const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
      await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
      await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
      await wallet.refresh(f.accountId);
      const before = asked.length;
      assert.match((await client.revealCard(f.cardId)).panEmbedUrl, /\/processor\/card\?token=/);
      // The binding and the step-up share one answer of the integrator's resolver per request.
      assert.equal(asked.length - before, 1);
    } finally {
      await mounted.close();
    }
    assert.throws(
      () => createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, authorize: () => true, stepUp: {} }),
      /stepUp needs accountForCard/,
    );
  });

  it('two accounts in one browser: each refresh grants its own account, neither replaces nor authorizes the other, and a logout clears only its own', async () => {
    // A second wallet with its own card, and a proxy that knows which account owns each card.
    const res = await createSandboxAccount(sandbox);
    const b = (await res.json()) as { accountId: string; cardId: string; emailCredentialId: string };
    const owners = new Map([[f.cardId, f.accountId], [b.cardId, b.accountId]]);
    // No demo binding (it confines the page to one account): the integrator's authorize lets both through.
    const two = await listen(
      createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, authorize: () => true, stepUp: { secret, accountForCard: (id) => owners.get(id) }, rateLimit: false }),
    );
    try {
      const h = jarFetch();
      const client = createClient({ baseUrl: two.url, fetch: h.fetch });
      const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
      await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
      await (await wallet.startOtpLogin({ credentialId: b.emailCredentialId as never })).submit('000000');
      const refused = (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED';
      // Two <card-reveal require-session> of the page prove their sessions at once, then reveal.
      await Promise.all([wallet.refresh(f.accountId), wallet.refresh(b.accountId as never)]);
      assert.match((await client.revealCard(f.cardId)).panEmbedUrl, /\/processor\/card\?token=/);
      assert.match((await client.revealCard(b.cardId)).panEmbedUrl, /\/processor\/card\?token=/);
      // No grant opens the other account's card: each grant alone, against the other card.
      const grants = [...h.jar].filter(([name]) => name.startsWith('wallet_step_up'));
      assert.equal(grants.length, 2);
      for (const [name, value] of grants) {
        const { accountId } = checkGrant(deriveStepUpKey(secret), value, Date.now()) as { accountId: string };
        const otherCard = accountId === f.accountId ? b.cardId : f.cardId;
        const r = await fetch(`${two.url}/cards/${otherCard}/reveal`, { method: 'POST', headers: { 'x-requested-with': 'test', cookie: `${name}=${value}` } });
        assert.equal(r.status, 403);
      }
      // A second proof of one account replaces its own grant, not the other's.
      await wallet.refresh(f.accountId);
      assert.equal([...h.jar.keys()].filter((name) => name.startsWith('wallet_step_up')).length, 2);
      // Logging out of B leaves A's grant; A's card still opens, B's does not.
      await wallet.logout(b.accountId as never);
      assert.match((await client.revealCard(f.cardId)).panEmbedUrl, /\/processor\/card\?token=/);
      await assert.rejects(client.revealCard(b.cardId), refused);
      await wallet.logout(f.accountId);
      await assert.rejects(client.revealCard(f.cardId), refused);
      assert.deepEqual([...h.jar.keys()].filter((name) => name.startsWith('wallet_step_up')), []);
    } finally {
      await two.close();
    }
  });

  it('a grant of a session ended with its credential (removed from this browser) goes with the logout that follows', async () => {
    // A wallet of its own (its email login is removed below) with a second login, single sign-on.
    const res = await createSandboxAccount(sandbox);
    const c = (await res.json()) as { accountId: never; cardId: never; emailCredentialId: never };
    const own = await listen(
      createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, authorize: () => true, stepUp: { secret, accountForCard: (id) => (id === c.cardId ? c.accountId : undefined) }, rateLimit: false }),
    );
    try {
      const h = jarFetch();
      const client = createClient({ baseUrl: own.url, fetch: h.fetch });
      const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey });
      await (await wallet.startOtpLogin({ credentialId: c.emailCredentialId })).submit('000000');
      // The email session proves itself: its grant opens the card.
      await wallet.refresh(c.accountId);
      assert.match((await client.revealCard(c.cardId)).panEmbedUrl, /\/processor\/card\?token=/);
      const sub = `step-up-${crypto.randomUUID()}`;
      const oauth = await wallet.addCredential({ type: 'OAUTH', accountId: c.accountId, oidcToken: await sandbox.oidc.mintIdToken({ sub }) });
      await wallet.loginWithOAuth({ credentialId: oauth.id, getIdToken: (nonce) => sandbox.oidc.mintIdToken({ sub, nonce }) });
      // The single sign-on session removes the email login, which ends the email session (api.md).
      await wallet.revokeCredential(c.accountId, c.emailCredentialId);
      // Then the person logs out, leaving a shared device: no grant may be left for the next one.
      await wallet.logout(c.accountId);
      await assert.rejects(client.revealCard(c.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
      assert.deepEqual([...h.jar.keys()].filter((name) => name.startsWith('wallet_step_up')), []);
    } finally {
      await own.close();
    }
  });

  it('without stepUp the proxy relays reveals as before', async () => {
    const plain = await demoProxy();
    try {
      const res = await fetch(`${plain.url}/cards/${f.cardId}/reveal`, { method: 'POST', headers: { 'x-requested-with': 'test' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('set-cookie'), null);
    } finally {
      await plain.close();
    }
  });
});

describe('card reveal step-up: a grant outlives no session', () => {
  /** A cookie jar that also keeps the Date of each answer (the service's, relayed by the proxy). */
  function datedJar(): ReturnType<typeof jarFetch> & { dates: string[] } {
    const dates: string[] = [];
    const h = jarFetch(async (input, init) => {
      const res = await fetch(input, init);
      dates.push(res.headers.get('date') ?? '');
      return res;
    });
    return { ...h, dates };
  }

  it('a ttlSeconds longer than the session refreshed lasts only as long as that session', async () => {
    // Sessions of 4 seconds; grants asked for an hour.
    const sandbox = await startSandbox({ sessionLifetimeMs: 4000 });
    const f = sandbox.fixtures;
    const demoAccount = { customerId: f.customerId, accountId: f.accountId, cardId: f.cardId };
    const proxy = await listen(createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, demoAccount, rateLimit: false, stepUp: { ttlSeconds: 3600 } }));
    try {
      let client!: ReturnType<typeof createClient>;
      let session!: { expiresAt: string };
      let end = 0;
      await inTime(async (state) => {
        const h = datedJar();
        client = createClient({ baseUrl: proxy.url, fetch: h.fetch });
        // No expiry margin: the wallet may renew a session of 4 s.
        const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey, expiryMarginMs: 0 });
        // The session logged into ends no sooner.
        state.end = Date.now() + 4000;
        await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
        session = await wallet.refresh(f.accountId);
        const maxAge = Number(/; Max-Age=(\d+)/.exec(h.setCookies.at(-1)!)?.[1]);
        // What was left of the session when the service began its answer (its Date, whole seconds):
        // 4 s, and more by as long as the machine's load held that answer before the session was made.
        const left = Date.parse(session.expiresAt) - Date.parse(h.dates.at(-1)!);
        assert.ok(left < 60_000 && maxAge >= 1 && maxAge <= Math.floor(left / 1000), `Max-Age=${maxAge} for a session of 4 s, ${left} ms of it left at the answer's Date`);
        end = state.end = grantEnd(h.jar);
        assert.ok(end <= Date.now() + maxAge * 1000, 'the grant itself ends no later than its cookie');
        await client.revealCard(f.cardId);
      });
      // Past the session's end and its own, the grant (sent anyway: a jar that ignores Max-Age) opens nothing.
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(session.expiresAt) - Date.now(), end - Date.now()) + 100));
      await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  });
  it('reads the session\'s end on the service\'s clock (its Date), not the proxy\'s: a skew of minutes neither withholds the grant nor stretches it', async () => {
    for (const [skewMs, sessionLifetimeMs, ttlSeconds, maxAgeRange] of [
      // The service 20 minutes behind, sessions of 15: 60 s left of them on any clock.
      [-20 * 60_000, 15 * 60_000, 60, [59, 60]],
      // The service 20 minutes ahead, sessions of 4 s: a grant of an hour lasts 4 s, not 20 minutes.
      [20 * 60_000, 4000, 3600, [1, 4]],
    ] as const) {
      const sandbox = await startSandbox({ sessionLifetimeMs, now: () => Date.now() + skewMs });
      const f = sandbox.fixtures;
      const demoAccount = { customerId: f.customerId, accountId: f.accountId, cardId: f.cardId };
      const proxy = await listen(createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, demoAccount, rateLimit: false, stepUp: { ttlSeconds } }));
      try {
        await inTime(async (state) => {
          const h = datedJar();
          const client = createClient({ baseUrl: proxy.url, fetch: h.fetch });
          const wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: f.signerPublicKey, expiryMarginMs: 0 });
          // The session logged into ends no sooner, whatever the service's clock says.
          state.end = Date.now() + sessionLifetimeMs;
          await (await wallet.startOtpLogin({ credentialId: f.emailCredentialId })).submit('000000');
          const session = await wallet.refresh(f.accountId);
          const granted = h.setCookies.find((c) => /^wallet_step_up_[^=]+=[^;]+;/.test(c));
          const maxAge = Number(/; Max-Age=(\d+)/.exec(granted ?? '')?.[1]);
          // The upper bound grows by as long as the machine's load held the answer between its Date and the session's making.
          const late = Math.max(0, Math.floor((Date.parse(session.expiresAt) - Date.parse(h.dates.at(-1)!) - sessionLifetimeMs) / 1000));
          assert.ok(maxAge >= maxAgeRange[0] && maxAge <= Math.min(ttlSeconds, maxAgeRange[1] + late), `skew ${skewMs} ms: Max-Age=${maxAge} (${h.setCookies.join(' | ')})`);
          state.end = grantEnd(h.jar);
          await client.revealCard(f.cardId);
        });
      } finally {
        await proxy.close();
        await sandbox.close();
      }
    }
  });

  it('a refreshed session whose expiresAt is missing or no date grants nothing, and onError is told why', async () => {
    const next = 'Session:88888888-8888-4888-8888-888888888888';
    for (const expiresAt of [undefined, 'soon']) {
      const up = await startRecorder((_req, res) => void res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: next, accountId: ACCOUNT, expiresAt })));
      const errors: unknown[] = [];
      const px = await startProxy({ upstream: up.url, stepUp: { accountForCard: (id) => (id === CARD ? ACCOUNT : undefined) }, onError: (e) => errors.push(e) });
      try {
        const r = await raw(px.port, { method: 'POST', path: `/api/auth/sessions/${SESSION}/refresh`, headers: { 'content-type': 'application/json' }, body: '{}' });
        assert.equal(r.status, 201, r.text);
        const cookies = [r.headers['set-cookie'] ?? []].flat();
        // The refreshed session's grant goes; none comes for the new one.
        assert.deepEqual(cookies.map((c) => /^[^=]+=([^;]*);.*Max-Age=(\d+)/.exec(c)?.slice(1)), [['', '0']]);
        assert.equal(errors.length, 1, `expiresAt ${expiresAt}: onError was not told`);
        assert.match(String((errors[0] as Error).message), /expiresAt/);
      } finally {
        await px.close();
        await up.close();
      }
    }
  });
});
