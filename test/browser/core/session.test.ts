/**
 * Session flows in real Chromium against the real sandbox through the real proxy at /api
 * (reference.md "Credentials", "Sessions"; DESIGN.md wire formats 2-5, 7): OTP login, OAuth login
 * with a token from the sandbox's test issuer, refresh, logout, and what a page sees when a key
 * vanished or a session expired. Each test uses a fresh sandbox account.
 */
import { expect } from 'chai';
import { createClient } from '../../../src/core/client.ts';
import { indexedDbKeyStore, type KeyStore } from '../../../src/core/keystore.ts';
import { createWallet, type Wallet } from '../../../src/core/session.ts';
import { PRODUCTION_OTP_SIGNER } from '../../../src/core/bundles.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import { observeServiceDate, serviceNow } from '../../../src/core/clock.ts';
import { keyStamper } from '../../../src/core/stamp.ts';
import { verifyStamp } from '../../../src/sandbox/service-stamps.ts';
import { createStore, del, get, set } from 'idb-keyval';
import { failNext, holdAnswer, refusingKeyStoreDb, rejection, resetPage } from '../elements/shared/helpers.ts';
import { freshWallet, newAccount, oidcToken, advanceClock, sandboxVariant, type RigAccount, type RigFixtures } from '../support/rig.ts';
import type { AuthMethod } from '../../../src/core/types.ts';

describe('session flows against the sandbox through the proxy', () => {
  let f: RigFixtures, acct: RigAccount, wallet: Wallet, dbName: string;
  const client = () => createClient({ baseUrl: f.apiBase });
  beforeEach(async () => ({ f, acct, dbName, wallet } = await freshWallet()));
  afterEach(resetPage);

  it('logs in with email OTP: pinned target, non-extractable key, session live upstream and usable for a signed call', async () => {
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    const login = await wallet.startOtpLogin({ credentialId: acct.emailCredentialId });
    expect(login.accountId).to.equal(acct.accountId);
    expect(login.type).to.equal('EMAIL_OTP');
    const session = await login.submit('000000');
    expect(session.sessionId).to.match(/^Session:/);
    expect(session.accountId).to.equal(acct.accountId);
    expect(session.credentialType).to.equal('EMAIL_OTP');
    expect(session.publicKey).to.match(/^0[23][0-9a-f]{64}$/);
    expect(changes).to.deep.equal(['logged-in']);

    const stored = await indexedDbKeyStore({ dbName }).get(acct.accountId);
    expect(stored?.key?.privateKey.extractable).to.equal(false);

    const upstream = await client().listSessions(acct.accountId);
    expect(upstream.map((s) => s.id)).to.include(session.sessionId);

    // The session key authorizes a signed retry (wallet privacy) and its stamps name that key.
    const stamper = await wallet.stamper(acct.accountId);
    expect(stamper.publicKey).to.equal(session.publicKey);
    const account = await client().setWalletPrivacy(acct.accountId, true, { stamper });
    expect(account.privateEnabled).to.equal(true);
    const stamp = await stamper.stamp('payload');
    expect((await verifyStamp(stamp.headerValue, 'payload'))?.publicKey).to.equal(session.publicKey);
  });

  it('refuses a wrong code with 401 and accepts the right one afterwards', async () => {
    const login = await wallet.startOtpLogin({ credentialId: acct.emailCredentialId });
    const e = await rejection(login.submit('123456'));
    expect(e).to.be.instanceOf(ServiceError);
    expect((e as ServiceError).status).to.equal(401);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    const session = await login.submit('000000');
    expect(session.accountId).to.equal(acct.accountId);
  });

  it('refuses a target bundle not signed by the pinned signer, before encrypting anything', async () => {
    const pinnedElsewhere = createWallet({ client: client(), store: indexedDbKeyStore({ dbName }), otpSigner: PRODUCTION_OTP_SIGNER });
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      const e = await rejection(pinnedElsewhere.startOtpLogin({ credentialId: acct.emailCredentialId }));
      expect(e).to.be.instanceOf(WalletError);
      expect((e as WalletError).code).to.equal('bundle_invalid');
      await advanceClock(31_000); // past the wait between two codes: the second bundle is checked too
      const again = await rejection(pinnedElsewhere.startOtpLogin({ credentialId: acct.emailCredentialId }));
      expect((again as WalletError).code).to.equal('bundle_invalid');
    } finally {
      console.warn = warn;
    }
    // The sandbox's bundle met the production pin: the developer is told the setting, once a page.
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain("configureWallet({ environment: 'sandbox' })");
  });

  it('logs in with OAuth: token bound to the receiver key by its nonce, session key decrypted and stored', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const sub = `user-${crypto.randomUUID()}`;
    const email = `${sub}@sandbox.test`;
    const credential = await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub, email }) });
    expect(credential.type).to.equal('OAUTH');
    expect(credential.nickname).to.equal(email);

    const nonces: string[] = [];
    const session = await wallet.loginWithOAuth({
      credentialId: credential.id,
      getIdToken: async (nonce) => {
        nonces.push(nonce);
        return oidcToken({ sub, email, nonce });
      },
    });
    expect(nonces).to.have.length(1);
    expect(nonces[0]).to.match(/^[0-9a-f]{64}$/);
    expect(session.credentialType).to.equal('OAUTH');
    expect(session.credentialId).to.equal(credential.id);
    const stored = await indexedDbKeyStore({ dbName }).get(acct.accountId);
    expect(stored?.session.sessionId).to.equal(session.sessionId);
    expect(stored?.key?.privateKey.extractable).to.equal(false);
    // The decrypted key is the session's: the service accepts its signature.
    const account = await client().setWalletPrivacy(acct.accountId, true, { stamper: await wallet.stamper(acct.accountId) });
    expect(account.privateEnabled).to.equal(true);
  });

  it('refuses an OAuth token whose nonce is bound to another key', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const sub = `user-${crypto.randomUUID()}`;
    const credential = await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub }) });
    const e = await rejection(
      wallet.loginWithOAuth({ credentialId: credential.id, getIdToken: () => oidcToken({ sub, nonce: 'f'.repeat(64) }) }),
    );
    expect(e).to.be.instanceOf(ServiceError);
    expect((e as ServiceError).status).to.equal(401);
  });

  for (const kind of ['code', 'OAuth'] as const) {
    it(`${kind} login stopped while its verify is answered rejects at once with aborted, not when the service answers; that session is ended once it does, nothing kept or told`, async () => {
      let login: (signal: AbortSignal) => Promise<unknown>;
      if (kind === 'code') {
        const code = await wallet.startOtpLogin({ credentialId: acct.emailCredentialId });
        login = (signal) => code.submit('000000', { signal });
      } else {
        await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
        const sub = `user-${crypto.randomUUID()}`;
        const credential = await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub }) });
        await wallet.logout(acct.accountId);
        login = (signal) => wallet.loginWithOAuth({ credentialId: credential.id, signal, getIdToken: (nonce) => oidcToken({ sub, nonce }) });
      }
      const changes: string[] = [];
      wallet.subscribe((c) => changes.push(c.type));
      const stop = new AbortController();
      // The answer (the session, made upstream) is held for as long as the service could take.
      const held = holdAnswer('POST', /\/auth\/credentials\/[^/]+\/verify$/, (r) => r.status === 200);
      try {
        const running = login(stop.signal);
        await held.arrived;
        stop.abort();
        // Settled while its answer is still held: it did not wait for the service (which would never come).
        const outcome = await rejection(running);
        expect(outcome instanceof WalletError ? outcome.code : outcome).to.equal('aborted');
      } finally {
        held.release();
        held.undo();
      }
      const upstream = () => client().listSessions(acct.accountId);
      for (let tries = 0; tries < 50 && (await upstream()).length; tries++) await new Promise((r) => setTimeout(r, 100));
      expect(await upstream(), 'no session left upstream').to.deep.equal([]);
      expect(await indexedDbKeyStore({ dbName }).list()).to.deep.equal([]);
      expect(changes).to.deep.equal([]);
    });
  }

  it('a login done is not undone by a later abort of its signal (one signal for a whole page, say)', async () => {
    const stop = new AbortController();
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000', { signal: stop.signal });
    stop.abort();
    await new Promise((r) => setTimeout(r, 500));
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([session.sessionId]);
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(session.sessionId);
  });

  it('refreshes: a new session with a new key, signed by the old; the old record is gone', async () => {
    const first = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const next = await wallet.refresh(acct.accountId);
    expect(next.sessionId).not.to.equal(first.sessionId);
    expect(next.publicKey).not.to.equal(first.publicKey);
    expect(next.credentialId).to.equal(first.credentialId);
    const list = await indexedDbKeyStore({ dbName }).list();
    expect(list.map((s) => s.sessionId)).to.deep.equal([next.sessionId]);
    const stamper = await wallet.stamper(acct.accountId);
    expect(stamper.publicKey).to.equal(next.publicKey);
    const account = await client().setWalletPrivacy(acct.accountId, false, { stamper });
    expect(account.privateEnabled).to.equal(false);
  });

  it('two wallets on the same keys (two tabs) renewing one session at once both succeed, one after the other', async () => {
    // Each tab has its own core; their renewals would both send the same old session, and the
    // service refuses the second (the first revoked it). The origin-wide lock makes them take turns.
    const first = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const otherTab = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName }), otpSigner: f.signerPublicKey });
    const [a, b] = await Promise.all([wallet.refresh(acct.accountId), otherTab.refresh(acct.accountId)]);
    expect(new Set([first.sessionId, a.sessionId, b.sessionId]).size).to.equal(3);
    const live = await wallet.current(acct.accountId);
    expect([a.sessionId, b.sessionId]).to.include(live?.sessionId);
    expect((await otherTab.current(acct.accountId))?.sessionId).to.equal(live?.sessionId);
    expect((await createClient({ baseUrl: f.apiBase }).listSessions(acct.accountId)).map((s) => s.id)).to.include(live?.sessionId);
  });

  it('a call signed with a session another tab renewed meanwhile is signed again with the renewed one: it succeeds, and nothing is told ended', async () => {
    const first = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    // This tab takes its stamper; another tab renews the session before the call is signed.
    const stamper = await wallet.stamper(acct.accountId);
    const otherTab = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName }), otpSigner: f.signerPublicKey });
    const renewed = await otherTab.refresh(acct.accountId);
    const account = await client().setWalletPrivacy(acct.accountId, true, { stamper });
    expect(account.privateEnabled).to.equal(true);
    expect(changes).to.deep.equal([]);
    expect((await indexedDbKeyStore({ dbName }).list()).map((s) => s.sessionId)).to.deep.equal([renewed.sessionId]);
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([renewed.sessionId]);
    expect(first.sessionId).not.to.equal(renewed.sessionId);
  });

  it('refreshes where the service seals a key of its own: that key, imported non-extractable, becomes the session key', async () => {
    // reference.md "Sessions": a refresh may answer encryptedSessionSigningKey; a sandbox that does.
    const v = await sandboxVariant({ refreshSealsKey: true });
    const vDb = `wallet-elements-test-${crypto.randomUUID()}`;
    const vClient = createClient({ baseUrl: v.apiBase });
    const vWallet = createWallet({ client: vClient, store: indexedDbKeyStore({ dbName: vDb }), otpSigner: v.signerPublicKey });
    const first = await (await vWallet.startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    const next = await vWallet.refresh(v.accountId);
    expect(next.sessionId).not.to.equal(first.sessionId);
    const stored = await indexedDbKeyStore({ dbName: vDb }).get(v.accountId);
    expect(stored?.session.sessionId).to.equal(next.sessionId);
    expect(stored?.key?.privateKey.extractable).to.equal(false);
    expect(stored?.key?.privateKey.algorithm.name).to.equal('ECDSA');
    // The sandbox knows the new session by the sealed key only: a signed call goes through with it
    // (with the key the refresh sent, it would be refused with 401).
    const stamper = await vWallet.stamper(v.accountId);
    expect(stamper.publicKey).to.equal(next.publicKey);
    expect((await vClient.setWalletPrivacy(v.accountId, true, { stamper })).privateEnabled).to.equal(true);
  });

  it('a device clock 10 minutes fast, behind a proxy on another origin that hides Date: code login, signed calls and logout work', async () => {
    // The service's clock runs 10 minutes behind this device's and its proxy does not expose Date
    // (CORS), so every signed retry's expiresAt (5 minutes on) is past by the device's clock.
    const v = await sandboxVariant({ clockOffsetMs: -10 * 60_000, pageOrigin: location.origin, hideDate: true });
    // This page has read no Date of that service: its clock is the device's (other sandboxes of
    // this run, whose Date the page did read, were moved on).
    observeServiceDate(new Date().toUTCString());
    const vClient = createClient({ baseUrl: v.apiBase });
    const vWallet = createWallet({ client: vClient, store: indexedDbKeyStore({ dbName: `wallet-elements-test-${crypto.randomUUID()}` }), otpSigner: v.signerPublicKey });
    const session = await (await vWallet.startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    expect(Math.abs(serviceNow() - Date.now()), 'the service clock unread').to.be.below(1000);
    const stamper = await vWallet.stamper(v.accountId);
    expect((await vClient.setWalletPrivacy(v.accountId, true, { stamper })).privateEnabled).to.equal(true);
    expect(await vWallet.logout(v.accountId)).to.deep.equal([session.sessionId]);
    expect(await vClient.listSessions(v.accountId), 'revoked upstream').to.deep.equal([]);
  });

  it('a device clock 20 minutes fast, behind a proxy that hides Date: a new session is live on arrival, also in a new page, signs, renews and logs out', async () => {
    // The session's 15 minutes end 5 minutes before this device's now: its lifetime (createdAt to
    // expiresAt, both on the service's clock) from its arrival is what is left of it.
    const v = await sandboxVariant({ clockOffsetMs: -20 * 60_000, pageOrigin: location.origin, hideDate: true });
    observeServiceDate(new Date().toUTCString()); // this page has read no Date of that service
    const vClient = createClient({ baseUrl: v.apiBase });
    const vDb = `wallet-elements-test-${crypto.randomUUID()}`;
    const vWallet = createWallet({ client: vClient, store: indexedDbKeyStore({ dbName: vDb }), otpSigner: v.signerPublicKey });
    const session = await (await vWallet.startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    expect(Date.parse(session.expiresAt), 'past on the device clock').to.be.below(Date.now());
    expect((await vWallet.current(v.accountId))?.sessionId, 'live on arrival').to.equal(session.sessionId);
    // Another page (a reload) with the same store sees it live too.
    const reloaded = createWallet({ client: vClient, store: indexedDbKeyStore({ dbName: vDb }), otpSigner: v.signerPublicKey });
    expect((await reloaded.current(v.accountId))?.sessionId).to.equal(session.sessionId);
    const stamper = await reloaded.stamper(v.accountId);
    expect((await vClient.setWalletPrivacy(v.accountId, true, { stamper })).privateEnabled).to.equal(true);
    const next = await reloaded.refresh(v.accountId);
    expect((await reloaded.current(v.accountId))?.sessionId, 'the renewed session is live').to.equal(next.sessionId);
    expect(await reloaded.logout(v.accountId)).to.deep.equal([next.sessionId]);
    expect(await vClient.listSessions(v.accountId), 'revoked upstream').to.deep.equal([]);
  });

  it('a device clock 20 minutes slow, behind a proxy that hides Date: a session ends here when its lifetime is over', async () => {
    // A 60-second session: live for its first 55 seconds (5 s of margin), then ended, although its
    // expiresAt is 20 minutes ahead on this device's clock. The device's clock (the wallet's `now`)
    // moves on by the lifetime once the session is in: no slow moment of the machine can end it
    // before it is seen live.
    const v = await sandboxVariant({ clockOffsetMs: 20 * 60_000, pageOrigin: location.origin, hideDate: true, sessionLifetimeMs: 60_000 });
    observeServiceDate(new Date().toUTCString());
    let later = 0;
    const now = () => Date.now() + later;
    const vWallet = createWallet({ client: createClient({ baseUrl: v.apiBase }), store: indexedDbKeyStore({ dbName: `wallet-elements-test-${crypto.randomUUID()}` }), otpSigner: v.signerPublicKey, now });
    const changes: string[] = [];
    vWallet.subscribe((c) => changes.push(c.revoked ? `${c.type}, revoked` : c.type));
    const session = await (await vWallet.startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    expect((await vWallet.current(v.accountId))?.sessionId).to.equal(session.sessionId);
    later = 60_000;
    expect(Date.parse(session.expiresAt), 'ahead on the device clock').to.be.above(now() + 19 * 60_000);
    expect(await vWallet.current(v.accountId), 'ended').to.equal(undefined);
    expect(changes).to.deep.equal(['logged-in', 'ended']);
  });

  it('changes the customer email, signed by the live session: the email login follows it, and `changed` is told', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const changes: unknown[] = [];
    wallet.subscribe((c) => changes.push(c));
    const email = `moved-${crypto.randomUUID()}@example.com`;
    expect((await wallet.updateEmail(acct.accountId, acct.customerId, email)).email).to.equal(email);
    expect(changes).to.deep.equal([{ type: 'changed', accountId: acct.accountId }]);
    expect((await client().listCredentials(acct.accountId)).find((c) => c.type === 'EMAIL_OTP')?.nickname).to.equal(email);
  });

  it('logs out: revoked upstream, key deleted, no stamper any more', async () => {
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    await wallet.logout(acct.accountId);
    expect(changes).to.deep.equal(['logged-out']);
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).not.to.include(session.sessionId);
    expect(await indexedDbKeyStore({ dbName }).list()).to.deep.equal([]);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    const e = await rejection(wallet.stamper(acct.accountId));
    expect((e as WalletError).code).to.equal('session_expired');
    // Logging out again is harmless.
    await wallet.logout(acct.accountId);
  });

  it('a logout cut off partway deletes the keys all the same and names, on its error, the sessions it had ended', async () => {
    const first = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    const live = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(live.sessionId);
    // The live session signs the other's end, then its own, which never reaches the service.
    const undo = failNext('DELETE', new RegExp(`/auth/sessions/[^/]*${live.sessionId.slice('Session:'.length)}$`), 503);
    let e: unknown;
    try {
      e = await rejection(wallet.logout(acct.accountId));
    } finally {
      undo();
    }
    expect((e as ServiceError).status).to.equal(503);
    expect((e as { ended?: string[] }).ended).to.deep.equal([first.sessionId]);
    expect(await indexedDbKeyStore({ dbName }).list()).to.deep.equal([]);
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([live.sessionId]);
  });

  it('a login that stores its session while a logout of the account is under way keeps it: its key record survives and signs, its session is live', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    // Another tab's core on the same key store, and this page's own: each logs in during the logout.
    const otherTab = createWallet({ client: client(), store: indexedDbKeyStore({ dbName }), otpSigner: f.signerPublicKey });
    for (const other of [otherTab, wallet]) {
      const code = await other.startOtpLogin({ credentialId: acct.emailCredentialId });
      const signer = (await wallet.current(acct.accountId))!;
      // The revocation reaches the service; its answer is held until the other login is stored.
      const held = holdAnswer('DELETE', /\/auth\/sessions\//);
      let second: { sessionId: string } | undefined;
      try {
        const out = wallet.logout(acct.accountId);
        await held.arrived;
        second = await code.submit('000000');
        held.release();
        expect(await out).to.deep.equal([signer.sessionId]);
      } finally {
        held.undo();
      }
      const stored = await indexedDbKeyStore({ dbName }).get(acct.accountId);
      expect(stored?.session.sessionId).to.equal(second!.sessionId);
      expect(stored?.key).not.to.equal(undefined);
      expect((await client().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([second!.sessionId]);
      const account = await client().setWalletPrivacy(acct.accountId, other === wallet, { stamper: await other.stamper(acct.accountId) });
      expect(account.privateEnabled).to.equal(other === wallet);
      await advanceClock(31_000);
    }
  });

  it('a logout whose newest session lost its key record in IndexedDB ends both sessions upstream, signed by the older one, and forgets both', async () => {
    const first = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    const newest = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await del(`key:${newest.sessionId}`, createStore(dbName, 'sessions'));
    const ended = await wallet.logout(acct.accountId);
    expect([...ended].sort()).to.deep.equal([first.sessionId, newest.sessionId].sort());
    expect(await indexedDbKeyStore({ dbName }).list()).to.deep.equal([]);
    const live = (await client().listSessions(acct.accountId)).map((s) => s.id as string);
    expect(live).not.to.include(first.sessionId);
    expect(live).not.to.include(newest.sessionId);
  });

  it('reports a vanished key as key_missing (and then as logged out)', async () => {
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await del(`key:${session.sessionId}`, createStore(dbName, 'sessions'));
    const e = await rejection(wallet.current(acct.accountId));
    expect(e).to.be.instanceOf(WalletError);
    expect((e as WalletError).code).to.equal('key_missing');
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
  });

  it('unreadable records in the key store (another version, a broken write) are passed over: no crash, and a login is seen', async () => {
    const db = createStore(dbName, 'sessions');
    // A record that is not an object, and one of this account without the fields of a session.
    await set(`session:Session:${crypto.randomUUID()}`, null, db);
    await set(`session:Session:${crypto.randomUUID()}`, { accountId: acct.accountId, sessionId: 42 }, db);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(session.sessionId);
    expect(await wallet.logout(acct.accountId)).to.deep.equal([session.sessionId]);
    expect(await indexedDbKeyStore({ dbName }).list()).to.deep.equal([]);
  });

  it('a key record that holds no CryptoKey is a vanished key: key_missing, then logged out, never a signature attempt', async () => {
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await set(`key:${session.sessionId}`, { privateKey: { type: 'private' }, publicKey: new Uint8Array(65) }, createStore(dbName, 'sessions'));
    const e = await rejection(wallet.stamper(acct.accountId));
    expect((e as WalletError).code).to.equal('key_missing');
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
  });

  it('a key store that refuses the new session ends it upstream: no session is left live with no key to sign for it', async () => {
    // A real IndexedDB refusal (see refusingKeyStoreDb).
    const broken = createWallet({ client: client(), store: indexedDbKeyStore({ dbName: await refusingKeyStoreDb() }), otpSigner: f.signerPublicKey });
    const e = await rejection((await broken.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000'));
    expect((e as WalletError).code).to.equal('storage_unavailable');
    expect(await client().listSessions(acct.accountId)).to.deep.equal([]);
  });

  it('refresh of a session the service has expired: session_expired, the record deleted and `ended` told', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    // Past the sandbox's 15-minute session lifetime (its clock only; this page's clock is real).
    await advanceClock(16 * 60_000);
    const e = await rejection(wallet.refresh(acct.accountId));
    expect(e).to.be.instanceOf(WalletError);
    expect((e as WalletError).code).to.equal('session_expired');
    expect(((e as WalletError).cause as ServiceError).status).to.equal(401);
    // Nothing new kept, and the dead session is not offered for signing any more.
    expect(await indexedDbKeyStore({ dbName }).list()).to.deep.equal([]);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    expect(changes).to.deep.equal(['ended']);
  });

  /** Another device logs in to the same wallet by email and ends `sessionId` there; that device's wallet. */
  async function endedByAnotherDevice(sessionId: string): Promise<Wallet> {
    const other = createWallet({ client: client(), store: indexedDbKeyStore({ dbName: `${dbName}-other` }), otpSigner: f.signerPublicKey });
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    await (await other.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await other.revokeSession(acct.accountId, sessionId);
    return other;
  }

  it('refresh of a session revoked from another device ends it here too', async () => {
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // Another device's session of the same wallet revokes this one (reference.md: any active session may sign).
    const other = await endedByAnotherDevice(session.sessionId);
    const e = await rejection(wallet.refresh(acct.accountId));
    expect((e as WalletError).code).to.equal('session_expired');
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    await other.logout(acct.accountId);
  });

  /** Logged in by email, then with an SMS login added later: this device holds a session of each, the SMS one the freshest. */
  async function sessionsOfTwoCredentials(w: Wallet): Promise<{ email: string; sms: AuthMethod; smsSession: string }> {
    const email = (await (await w.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000')).sessionId;
    const sms = await w.addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const smsSession = (await (await w.startOtpLogin({ credentialId: sms.id, registered: sms })).submit('000000')).sessionId;
    expect((await w.current(acct.accountId))?.sessionId).to.equal(smsSession);
    return { email, sms, smsSession };
  }

  it('a signed call refused because another device ended the session: session_expired, its record and key deleted and `ended` told, as revoked', async () => {
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const other = await endedByAnotherDevice(session.sessionId);
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.revoked ? `${c.type}, revoked` : c.type));
    // This device still takes it for live: its stamper signs, and the service refuses the signature.
    const stamper = await wallet.stamper(acct.accountId);
    const e = await rejection(client().setWalletPrivacy(acct.accountId, true, { stamper }));
    expect(e).to.be.instanceOf(WalletError);
    expect((e as WalletError).code).to.equal('session_expired');
    expect(((e as WalletError).cause as ServiceError).code).to.equal('WALLET_SIGNATURE_INVALID');
    expect(await indexedDbKeyStore({ dbName }).list()).to.deep.equal([]);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    expect(changes, 'told as ended by the service before its time').to.deep.equal(['ended, revoked']);
    // The wallet's own signed flows conclude the same (here with nothing left to sign: none).
    const again = await rejection(wallet.addCredential({ type: 'SMS_OTP', accountId: acct.accountId }));
    expect((again as WalletError).code).to.equal('session_expired');
    await other.logout(acct.accountId);
  });

  it('two signed calls refused at once because the session ended upstream: `ended` is told once', async () => {
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // Ended upstream (as another device's revocation would), while this device takes it for live.
    const { key } = (await indexedDbKeyStore({ dbName }).get(acct.accountId))!;
    await client().revokeSession(session.sessionId, { stamper: keyStamper(key!) });
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    const stamper = await wallet.stamper(acct.accountId);
    const outcomes = await Promise.all(
      [true, false].map((on) => client().setWalletPrivacy(acct.accountId, on, { stamper }).then(() => 'done', (e: WalletError) => e.code)),
    );
    expect(outcomes).to.deep.equal(['session_expired', 'session_expired']);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    expect(changes).to.deep.equal(['ended']);
  });

  it('a session ended upstream while an older, expired one is still stored: `ended` is told once, not again when that one is found expired', async () => {
    const store = indexedDbKeyStore({ dbName });
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const older = (await store.get(acct.accountId))!;
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    const newer = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // The older login has since expired on this device (its record is kept until it is next looked at).
    await store.put({ ...older.session, endsAt: Date.now() - 60_000 }, older.key!);
    const { key } = (await store.get(acct.accountId))!;
    await client().revokeSession(newer.sessionId, { stamper: keyStamper(key!) });
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    const e = await rejection(client().setWalletPrivacy(acct.accountId, true, { stamper: await wallet.stamper(acct.accountId) }));
    expect((e as WalletError).code).to.equal('session_expired');
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    expect(await store.list()).to.deep.equal([]);
    expect(changes).to.deep.equal(['ended']);
  });

  it('two logins of the account both expired here: `ended` is told once, not again when the older record is found', async () => {
    const store = indexedDbKeyStore({ dbName });
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const older = (await store.get(acct.accountId))!;
    await advanceClock(31_000);
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const newer = (await store.get(acct.accountId))!;
    // Both have expired on this device since (a sleep, say): their records are kept until looked at.
    await store.put({ ...older.session, endsAt: Date.now() - 120_000 }, older.key!);
    await store.put({ ...newer.session, endsAt: Date.now() - 60_000 }, newer.key!);
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    expect(await store.list()).to.deep.equal([]);
    expect(changes).to.deep.equal(['ended']);
  });

  it('ending another session with one that another device ended: the other live session this device holds signs it instead, and the account is not told ended', async () => {
    const older = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await advanceClock(31_000);
    const newer = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // Another device ends the newer one, which this device signs with.
    await endedByAnotherDevice(newer.sessionId);
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    const others = (await client().listSessions(acct.accountId)).map((s) => s.id).filter((id) => id !== older.sessionId);
    expect(await wallet.revokeSession(acct.accountId, others[0]!)).to.deep.equal([others[0]]);
    // The ended one is gone from here; the older one, still live, signed and signs from now on, and nobody is told the account
    // ended: only that its lists changed.
    expect((await indexedDbKeyStore({ dbName }).list()).map((s) => s.sessionId)).to.deep.equal([older.sessionId]);
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(older.sessionId);
    expect(changes).to.deep.equal(['changed']);
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([older.sessionId]);
  });

  it('ending the other session this device holds, with the one it signs with ended elsewhere: signed by that other session itself, and `ended` told', async () => {
    const older = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await advanceClock(31_000);
    const newer = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const other = await endedByAnotherDevice(newer.sessionId);
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    expect(await wallet.revokeSession(acct.accountId, older.sessionId)).to.deep.equal([older.sessionId]);
    expect(await indexedDbKeyStore({ dbName }).list()).to.deep.equal([]);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    expect(changes).to.deep.equal(['ended', 'changed']);
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).not.to.include(older.sessionId);
    await other.logout(acct.accountId);
  });

  it("a credential's removal is signed by a session of another credential; one that is expired, keyless or another account's is none, and the account's live session is not told ended", async () => {
    const { email, sms, smsSession } = await sessionsOfTwoCredentials(wallet);
    // Another account's session on this device, of another credential, never signs for this one.
    const other = await newAccount();
    await (await wallet.startOtpLogin({ credentialId: other.emailCredentialId })).submit('000000');
    expect((await wallet.current(acct.accountId, sms.id))?.sessionId).to.equal(email);
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(`${c.type} ${c.accountId}`));
    const db = createStore(dbName, 'sessions');

    // The email session's key vanished: no session of another credential, and the SMS session lives on.
    await del(`key:${email}`, db);
    expect(((await rejection(wallet.current(acct.accountId, sms.id))) as WalletError).code).to.equal('key_missing');
    expect(await wallet.current(acct.accountId, sms.id)).to.equal(undefined);
    expect(changes).to.deep.equal([]);
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(smsSession);

    // An email session past its end (on this device's clock): none either, deleted, nothing told.
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    const again = (await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000')).sessionId;
    changes.length = 0;
    const record = (await get(`session:${again}`, db)) as { endsAt: number };
    await set(`session:${again}`, { ...record, endsAt: Date.now() - 60_000 }, db);
    expect(await wallet.current(acct.accountId, sms.id)).to.equal(undefined);
    expect(await get(`session:${again}`, db)).to.equal(undefined);
    expect(changes).to.deep.equal([]);
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(smsSession);
    const e = await rejection(wallet.revokeCredential(acct.accountId, sms.id));
    expect((e as WalletError).code).to.equal('session_expired');
    expect((await client().listCredentials(acct.accountId)).map((c) => c.id)).to.include(sms.id);
  });

  it('a key store of the earlier interface (get(accountId) alone) still serves: it signs as before, and never signs the removal of its own credential', async () => {
    const inner = indexedDbKeyStore({ dbName });
    // As written against KeyStore before get() took the credential to leave out.
    const earlier: KeyStore = {
      put: (session, key) => inner.put(session, key),
      get: (accountId: string) => inner.get(accountId),
      list: () => inner.list(),
      delete: (sessionId) => inner.delete(sessionId),
      clear: (accountId) => inner.clear(accountId),
    };
    const w = createWallet({ client: client(), store: earlier, otpSigner: f.signerPublicKey });
    const { email, sms, smsSession } = await sessionsOfTwoCredentials(w);
    expect((await w.current(acct.accountId))?.sessionId).to.equal(smsSession);
    expect((await w.current(acct.accountId, acct.emailCredentialId))?.sessionId).to.equal(smsSession);
    // Such a store answers the SMS session whatever is left out: it cannot sign the SMS login's removal.
    expect(await w.current(acct.accountId, sms.id)).to.equal(undefined);
    const e = await rejection(w.revokeCredential(acct.accountId, sms.id));
    expect(e).to.be.instanceOf(WalletError);
    expect((e as WalletError).code).to.equal('session_expired');
    expect((await client().listCredentials(acct.accountId)).map((c) => c.id)).to.include(sms.id);
    // The email login's removal, signed by the SMS session, goes through; its session goes with it.
    await w.revokeCredential(acct.accountId, acct.emailCredentialId);
    expect((await client().listCredentials(acct.accountId)).map((c) => c.id)).to.deep.equal([sms.id]);
    expect((await inner.list()).map((s) => s.sessionId)).to.deep.equal([smsSession]);
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).not.to.include(email);
  });

  it('a 401 from the proxy itself (its credentials refused: the active list fails too) keeps the session', async () => {
    const session = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // As the proxy relays it: the service's error body (an answer without one is the page's own server's).
    const refused = { status: 401, code: 'UNAUTHORIZED', message: 'Invalid API credentials.' };
    const undo = [failNext('POST', /\/auth\/sessions\/[^/]+\/refresh$/, 401, 1, {}, refused), failNext('GET', /\/auth\/sessions\?/, 401, 1, {}, refused)];
    try {
      const e = await rejection(wallet.refresh(acct.accountId));
      expect(e).to.be.instanceOf(ServiceError);
      expect((e as ServiceError).status).to.equal(401);
    } finally {
      undo.forEach((u) => u());
    }
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(session.sessionId);
    // The session still works once the proxy does.
    expect((await wallet.refresh(acct.accountId)).sessionId).to.not.equal(session.sessionId);
  });
});
