/**
 * Every relayed route, end to end over real HTTP on loopback: the core client -> the proxy (demo
 * binding) -> the real sandbox, with real stamps (signed retries completed with the core stamp
 * functions), real HPKE OTP bundles, a real WebAuthn registration and login (software
 * authenticator, challenge minted by the proxy) and the agent's own Bearer token. Every answer
 * and every log line is captured: the client secret, the Basic value, stamps, the agent token
 * and the reveal URL never appear where they must not.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { encryptOtpBundle, importSessionKeyBundle, decryptExportEnvelope, verifyTargetBundle } from '../../../src/core/bundles.ts';
import { createClient, type WalletClient } from '../../../src/core/client.ts';
import { bytesToHex } from '../../../src/core/encoding.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { generateEncryptionKey, generateSigningKey, type KeyPair } from '../../../src/core/p256.ts';
import { keyStamper, type Stamper } from '../../../src/core/stamp.ts';
import type { SandboxFixtures } from '../../../src/core/types.ts';
import { ROUTE_NAMES, createProxy, type ProxyHandler, type ProxyLogLine } from '../../../src/proxy/index.ts';
import { SANDBOX_SIGNER_PUBLIC_KEY, SANDBOX_WALLET_PHRASE, startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { SoftAuthenticator } from './authenticator.ts';

interface CustomerSet {
  customerId: string;
  accountId: string;
  emailCredentialId: string;
  cardId: string;
  fundingSourceId: string;
  agentToken: string;
}

describe('proxy relays every route to the sandbox', () => {
  let sandbox: Sandbox;
  let fx: SandboxFixtures;
  let set: CustomerSet;
  let proxy: ProxyHandler;
  let server: http.Server;
  let base: string;
  let origin: string;
  let client: WalletClient;
  const logs: ProxyLogLine[] = [];
  const answers: string[] = [];
  const stamps: string[] = [];
  const secretsSeen: string[] = [];
  let session: { id: string; key: KeyPair };

  /** A stamper that remembers what it signed, to prove stamps never reach a log line. */
  const recording = (key: KeyPair): Stamper => {
    const inner = keyStamper(key);
    return {
      publicKey: inner.publicKey!,
      async stamp(payload) {
        const s = await inner.stamp(payload);
        stamps.push(s.headerValue);
        return s;
      },
    };
  };

  before(async () => {
    sandbox = await startSandbox();
    fx = sandbox.fixtures;
    const basic = 'Basic ' + Buffer.from(`${fx.tokenId}:${fx.clientSecret}`).toString('base64');
    // A customer set of its own, so that other suites using the seeded demo user do not interfere.
    const r = await fetch(`${sandbox.url}/sandbox/accounts`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(r.status, 201);
    set = (await r.json()) as CustomerSet;
    proxy = createProxy({
      upstream: fx.baseUrl,
      tokenId: fx.tokenId,
      clientSecret: fx.clientSecret,
      demoAccount: { customerId: set.customerId, accountId: set.accountId, cardId: set.cardId },
      rp: { id: 'localhost', name: 'Proxy test' },
      logger: (line) => logs.push(line),
    });
    server = http.createServer(proxy);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    origin = `http://localhost:${port}`;
    base = `http://127.0.0.1:${port}/api`;
    const capturingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const text = await res.clone().text();
      answers.push(JSON.stringify([...res.headers]) + text);
      return res;
    };
    client = createClient({ baseUrl: base, fetch: capturingFetch });
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await proxy.close();
    await sandbox.close();
  });

  async function otpLogin(): Promise<{ id: string; key: KeyPair }> {
    const challenge = await client.requestOtpChallenge(set.emailCredentialId);
    const targetPublic = await verifyTargetBundle(challenge.otpEncryptionTargetBundle, SANDBOX_SIGNER_PUBLIC_KEY);
    const key = await generateSigningKey();
    const encryptedOtpBundle = await encryptOtpBundle({ otpCode: '000000', targetPublic, clientPublicKey: key.publicKey });
    const s = await client.verifyOtp(set.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle }, { stamper: recording(key) });
    assert.match(s.id, /^Session:/);
    assert.equal(s.accountId, set.accountId);
    return { id: s.id, key };
  }

  it('logs in with EMAIL_OTP (challenge, verify 202, signed verify) and lists credentials and sessions', async () => {
    session = await otpLogin();
    const creds = await client.listCredentials(set.accountId);
    assert.deepEqual(creds.map((c) => c.id), [set.emailCredentialId]);
    const sessions = await client.listSessions(set.accountId);
    assert.ok(sessions.some((s) => s.id === session.id));
    assert.ok(sessions.every((s) => s.encryptedSessionSigningKey === undefined));
  });

  it('refreshes a session with a stamp of the current key', async () => {
    const next = await generateSigningKey();
    const s = await client.refreshSession(session.id, bytesToHex(next.publicKey), { stamper: recording(session.key) });
    assert.notEqual(s.id, session.id);
    session = { id: s.id, key: next };
    assert.ok((await client.listSessions(set.accountId)).some((x) => x.id === session.id));
  });

  let passkey: SoftAuthenticator;
  let passkeyCredentialId: string;
  let usedChallenge: string;

  it('registers a passkey with a proxy-minted challenge (signed retry) and logs in with it', async () => {
    const options = await client.webauthnRegistrationOptions(set.accountId);
    assert.equal(options.rp.id, 'localhost');
    assert.deepEqual(options.excludeCredentials, []);
    passkey = new SoftAuthenticator('localhost', origin);
    usedChallenge = options.challenge;
    const created = await client.createCredential(
      { type: 'PASSKEY', accountId: set.accountId, nickname: 'Test key', challenge: options.challenge, attestation: passkey.register(options.challenge) },
      { stamper: recording(session.key) },
    );
    assert.equal(created.type, 'PASSKEY');
    assert.equal(created.credentialId, passkey.credentialIdB64);
    passkeyCredentialId = created.id;

    // Next options exclude it.
    const again = await client.webauthnRegistrationOptions(set.accountId);
    assert.deepEqual(again.excludeCredentials?.map((c) => c.id), [passkey.credentialIdB64]);

    // PASSKEY login: /challenge with an ECDH receiver, assertion, verify with Request-Id.
    const receiver = await generateEncryptionKey();
    const ch = await client.requestPasskeyChallenge(passkeyCredentialId, bytesToHex(receiver.publicKey));
    const s = await client.verifyPasskey(passkeyCredentialId, { assertion: passkey.assert(ch.challenge), requestId: ch.requestId });
    const key = await importSessionKeyBundle(s.encryptedSessionSigningKey, receiver);
    assert.match(s.id, /^Session:/);
    // The decrypted key signs for the account: use it for the next signed call.
    const privacy = await client.setWalletPrivacy(set.accountId, true, { stamper: recording(key) });
    assert.equal(privacy.privateEnabled, true);
  });

  it('lets the sandbox refuse a reused registration challenge the proxy accepts as authentic', async () => {
    const other = new SoftAuthenticator('localhost', origin);
    await assert.rejects(
      client.createCredential(
        { type: 'PASSKEY', accountId: set.accountId, nickname: 'Second', challenge: usedChallenge, attestation: other.register(usedChallenge) },
        { stamper: recording(session.key) },
      ),
      (e: unknown) => e instanceof ServiceError && e.status === 400 && /already used/.test(e.message),
    );
    // A forged one never reaches the sandbox: the proxy refuses it first.
    const forged = Buffer.from(usedChallenge, 'base64url');
    forged[30]! ^= 1;
    const f = forged.toString('base64url');
    await assert.rejects(
      client.createCredential({ type: 'PASSKEY', accountId: set.accountId, nickname: 'Forged', challenge: f, attestation: other.register(f) }, { stamper: recording(session.key) }),
      (e: unknown) => e instanceof ServiceError && e.status === 400 && e.code === 'INVALID_INPUT' && /not issued by this proxy/.test(e.message),
    );
  });

  it('revokes the passkey credential with a stamp from the other credential\'s session', async () => {
    await client.revokeCredential(passkeyCredentialId, { stamper: recording(session.key) });
    assert.deepEqual((await client.listCredentials(set.accountId)).map((c) => c.id), [set.emailCredentialId]);
    // Now unknown to the account: the demo binding answers 404 without relaying.
    await assert.rejects(client.revokeCredential(passkeyCredentialId, { stamper: recording(session.key) }), (e: unknown) => e instanceof ServiceError && e.status === 404);
  });

  it('creates (two signatures), lists, reads and revokes a delegated key', async () => {
    const key = await client.createDelegatedKey(
      { cardId: set.cardId, internalAccountId: set.accountId, nickname: 'Agent key', spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 5000 }] },
      { stamper: recording(session.key) },
    );
    assert.equal(key.status, 'ACTIVE');
    assert.equal(key.cardId, set.cardId);
    const listed = await client.listDelegatedKeys({ accountId: set.accountId });
    assert.ok(listed.some((k) => k.id === key.id));
    const byFunding = await client.listDelegatedKeys({ fundingSourceId: key.fundingSourceId });
    assert.ok(byFunding.some((k) => k.id === key.id));
    assert.equal((await client.getDelegatedKey(key.id)).id, key.id);
    await client.revokeDelegatedKey(key.id);
    assert.equal((await client.getDelegatedKey(key.id)).status, 'REVOKED');
  });

  it('reveals the bound card, and no other', async () => {
    const r = await client.revealCard(set.cardId);
    assert.match(r.panEmbedUrl, /^http:\/\/127\.0\.0\.1:\d+\//);
    secretsSeen.push(r.panEmbedUrl, new URL(r.panEmbedUrl).search);
    await assert.rejects(client.revealCard(fx.cardId), (e: unknown) => e instanceof ServiceError && e.status === 403);
  });

  it('exports the wallet (signed) and decrypts the envelope against the pinned sandbox signer', async () => {
    const receiver = await generateEncryptionKey();
    const exported = await client.exportWallet(set.accountId, bytesToHex(receiver.publicKey), { stamper: recording(session.key) });
    const phrase = await decryptExportEnvelope(exported.encryptedWalletCredentials, receiver, { trustedSigner: SANDBOX_SIGNER_PUBLIC_KEY });
    assert.equal(phrase, SANDBOX_WALLET_PHRASE);
  });

  it('updates privacy and the customer email with signed retries', async () => {
    const acct = await client.setWalletPrivacy(set.accountId, false, { stamper: recording(session.key) });
    assert.equal(acct.privateEnabled, false);
    const customer = await client.updateCustomerEmail(set.customerId, 'new-address@example.com', { stamper: recording(session.key) });
    assert.equal(customer.email, 'new-address@example.com');
    await assert.rejects(client.updateCustomerEmail(fx.customerId, 'x@example.com', { stamper: recording(session.key) }), (e: unknown) => e instanceof ServiceError && e.status === 403);
  });

  it('relays the agent routes with the agent\'s own Bearer token', async () => {
    const page = await client.listAgentActions({ agentToken: set.agentToken, limit: 5 });
    assert.ok(page.data.length > 0 && page.data.length <= 5);
    const one = await client.getAgentAction(page.data[0]!.id, { agentToken: set.agentToken });
    assert.equal(one.id, page.data[0]!.id);
    if (page.hasMore) {
      const next = await client.listAgentActions({ agentToken: set.agentToken, limit: 5, cursor: page.nextCursor! });
      assert.notEqual(next.data[0]!.id, page.data[0]!.id);
    }
    await assert.rejects(client.listAgentActions({ agentToken: 'not-a-token' }), (e: unknown) => e instanceof ServiceError && e.status === 401);
    secretsSeen.push(set.agentToken);
  });

  it('logs out (DELETE session, signed by itself)', async () => {
    await client.revokeSession(session.id, { stamper: recording(session.key) });
    assert.ok(!(await client.listSessions(set.accountId)).some((s) => s.id === session.id));
  });

  it('every route was relayed and logged by name; no secret in any answer or log line', () => {
    const routes = new Set(logs.map((l) => l.route));
    // Every route of the proxy's table, so that a route added later must be exercised here too.
    for (const name of ROUTE_NAMES) {
      assert.ok(routes.has(name), `route ${name} was exercised`);
    }
    assert.ok(logs.every((l) => l.durationMs >= 0 && typeof l.status === 'number' && typeof l.method === 'string'));
    assert.ok(logs.filter((l) => l.status === 202).length >= 8, 'signed retries were relayed');
    assert.ok(logs.some((l) => l.requestId?.startsWith('Request:')));

    const basicValue = Buffer.from(`${fx.tokenId}:${fx.clientSecret}`).toString('base64');
    for (const a of answers) {
      assert.ok(!a.includes(fx.clientSecret) && !a.includes(basicValue), 'the secret never reaches the browser');
    }
    const logText = logs.map((l) => JSON.stringify(l)).join('\n');
    assert.ok(stamps.length >= 10);
    for (const s of [fx.clientSecret, basicValue, ...stamps, ...secretsSeen]) {
      assert.ok(!logText.includes(s), 'no credential, stamp, token or reveal URL in the log');
    }
    assert.ok(!/panEmbedUrl|payloadToSign|encryptedOtpBundle|Basic /.test(logText));
  });
});
