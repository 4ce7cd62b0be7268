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
import { checkGrant, deriveStepUpKey, mintGrant } from '../../../src/proxy/step-up.ts';
import { createClient } from '../../../src/core/client.ts';
import { createWallet } from '../../../src/core/session.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import type { SandboxFixtures } from '../../../src/core/types.ts';
import { jarFetch, raw } from './helpers.ts';

async function listen(handler: ProxyHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
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

describe('card reveal step-up', () => {
  let sandbox: Sandbox;
  let f: SandboxFixtures;
  let proxy: { url: string; close(): Promise<void> };
  const secret = 'step-up test secret';

  before(async () => {
    // Each test logs in anew with the same credential: no OTP resend interval.
    sandbox = await startSandbox({ otpResendIntervalMs: 1 });
    f = sandbox.fixtures;
    proxy = await demoProxy({ stepUp: { secret, ttlSeconds: 2 } });
  });

  /** A proxy bound to the sandbox's demo account, with these options on top. */
  function demoProxy(options: Partial<ProxyOptions> = {}): ReturnType<typeof listen> {
    const demoAccount = { customerId: f.customerId, accountId: f.accountId, cardId: f.cardId };
    return listen(createProxy({ upstream: f.baseUrl, tokenId: f.tokenId, clientSecret: f.clientSecret, demoAccount, rateLimit: false, ...options }));
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
    await wallet.refresh(f.accountId);
    assert.equal(h.setCookies.length, 1);
    const cookie = h.setCookies[0]!;
    assert.match(cookie, /^wallet_step_up=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; /);
    assert.match(cookie, /; Path=\/api\/cards(;|$)/);
    assert.match(cookie, /; Max-Age=2(;|$)/);
    assert.match(cookie, /; HttpOnly(;|$)/);
    assert.match(cookie, /; SameSite=Strict(;|$)/);
    // Plain HTTP on loopback: no Secure attribute (it is added over TLS).
    assert.doesNotMatch(cookie, /Secure/);
    const grant = checkGrant(deriveStepUpKey(secret), h.jar.get('wallet_step_up'), Date.now());
    assert.deepEqual(grant, { ok: true, accountId: f.accountId });

    const reveal = await client.revealCard(f.cardId);
    assert.match(reveal.panEmbedUrl, /\/processor\/card\?token=/);
  });

  it('a logout through the proxy clears the grant: the next reveal needs a new proof', async () => {
    const { http: h, client, wallet } = await loggedIn();
    await wallet.refresh(f.accountId);
    await client.revealCard(f.cardId);
    await wallet.logout(f.accountId);
    const cleared = h.setCookies.at(-1)!;
    assert.match(cleared, /^wallet_step_up=; Path=\/api\/cards; Max-Age=0; HttpOnly; SameSite=Strict$/);
    assert.equal(h.jar.has('wallet_step_up'), false);
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
    assert.equal(h.setCookies.length, 1);
    assert.match(h.setCookies[0]!, /; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('an expired grant is refused (2-second lifetime)', async () => {
    const { client, wallet } = await loggedIn();
    await wallet.refresh(f.accountId);
    await client.revealCard(f.cardId);
    await new Promise((r) => setTimeout(r, 2100));
    await assert.rejects(client.revealCard(f.cardId), (e: unknown) => e instanceof ServiceError && e.code === 'STEP_UP_REQUIRED');
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
        headers: { 'x-requested-with': 'test', cookie: `wallet_step_up=${grant}` },
      });
      assert.equal(res.status, expected, grant.slice(0, 20));
      const body = (await res.json()) as { code?: string };
      if (expected === 403) assert.equal(body.code, 'STEP_UP_REQUIRED');
    }
  });

  it('the browser cookie never goes upstream (the service sees Basic only)', async () => {
    // The sandbox would answer 401 to anything but the platform pair; a 200 with the cookie present
    // shows the proxy relayed Basic and dropped the Cookie header (DESIGN.md security rules).
    const key = deriveStepUpKey(secret);
    const res = await fetch(`${proxy.url}/cards/${f.cardId}/reveal`, {
      method: 'POST',
      headers: { 'x-requested-with': 'test', cookie: `wallet_step_up=${mintGrant(key, f.accountId, Date.now(), 60_000)}; other=1` },
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
