/**
 * An email code login whose verify answer is lost (core session.ts, submit), in real Chromium
 * against the real sandbox through the real proxy at /api: the session the service made all the
 * same is found back by renewing it with the login's key, while the account's other sessions of
 * that way (other devices, other tabs) cost no more than a few refused renewals and stay as they were.
 */
import { expect } from 'chai';
import { createClient } from '../../../src/core/client.ts';
import { indexedDbKeyStore } from '../../../src/core/keystore.ts';
import { createWallet, type Wallet } from '../../../src/core/session.ts';
import { holdAnswer, loseAnswer, resetPage } from '../elements/shared/helpers.ts';
import { freshWallet, advanceClock, type RigAccount, type RigFixtures } from '../support/rig.ts';

/** Counts the page's requests whose URL matches `url` until `restore()`; they go out unchanged. */
function countRequests(url: RegExp): { readonly urls: string[]; restore(): void } {
  const original = window.fetch;
  const urls: string[] = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.test(href)) urls.push(href);
    return original(input, init);
  };
  return { urls, restore: () => void (window.fetch = original) };
}

describe('an OTP login whose verify answer was lost', function () {
  this.timeout(60000);
  let f: RigFixtures;
  let acct: RigAccount;
  let wallet: Wallet;

  beforeEach(async () => {
    ({ f, acct, wallet } = await freshWallet());
  });
  afterEach(resetPage);

  /** `n` other devices log in by the account's email code, one after another (the sandbox sends one code per 30 s). */
  async function otherDevices(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const elsewhere = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName: `other-${crypto.randomUUID()}` }), otpSigner: f.signerPublicKey });
      ids.push((await (await elsewhere.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000')).sessionId);
      await advanceClock(31_000);
    }
    return ids;
  }

  it('renews only its own session, the newest, however many other sessions of that way the account has: one renewal, theirs left alone', async () => {
    const others = await otherDevices(4);
    const login = await wallet.startOtpLogin({ credentialId: acct.emailCredentialId });
    const renewals = countRequests(/\/auth\/sessions\/[^/]+\/refresh$/);
    // The verify retry makes the session upstream; the connection drops before its answer comes.
    const undo = loseAnswer('POST', /\/verify$/, (r) => r.status === 200);
    let sessionId: string;
    try {
      ({ sessionId } = await login.submit('000000'));
    } finally {
      undo();
      renewals.restore();
    }
    // Its two legs (202, then 201): no signed renewal sent for another device's session.
    expect(renewals.urls.length, 'renewal requests').to.equal(2);
    const listed = (await createClient({ baseUrl: f.apiBase }).listSessions(acct.accountId)).map((s) => s.id);
    expect(listed.sort()).to.deep.equal([...others, sessionId].sort());
  });

  it('made no session (its first leg lost): a few refused renewals at most, whatever the account holds, and the failure stands', async () => {
    const others = await otherDevices(5);
    const login = await wallet.startOtpLogin({ credentialId: acct.emailCredentialId });
    const renewals = countRequests(/\/auth\/sessions\/[^/]+\/refresh$/);
    // The first leg's 202 is lost: the retry that would make the session is never sent.
    const undo = loseAnswer('POST', /\/verify$/, (r) => r.status === 202);
    let failed: unknown;
    try {
      await login.submit('000000').catch((e: unknown) => (failed = e));
    } finally {
      undo();
      renewals.restore();
    }
    expect(failed, 'the login failed').to.be.instanceOf(Error);
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
    // At most three sessions tried, two requests each.
    expect(renewals.urls.length, 'renewal requests').to.be.at.most(6);
    const listed = (await createClient({ baseUrl: f.apiBase }).listSessions(acct.accountId)).map((s) => s.id);
    expect(listed.sort()).to.deep.equal([...others].sort());
  });

  it('stopped while it reads the sessions back: rejects at once as aborted, keeps nothing, tells nothing, and the session it finds is ended upstream', async () => {
    const others = await otherDevices(1);
    const changes: string[] = [];
    wallet.subscribe((c) => changes.push(c.type));
    const login = await wallet.startOtpLogin({ credentialId: acct.emailCredentialId });
    const stop = new AbortController();
    const held = holdAnswer('GET', /\/auth\/sessions\?/);
    const undo = loseAnswer('POST', /\/verify$/, (r) => r.status === 200);
    let failed: unknown;
    try {
      const done = login.submit('000000', { signal: stop.signal }).catch((e: unknown) => (failed = e));
      await held.arrived;
      stop.abort();
      await done;
      held.release();
    } finally {
      undo();
      held.undo();
    }
    expect((failed as { code?: string })?.code).to.equal('aborted');
    const client = createClient({ baseUrl: f.apiBase });
    let listed = (await client.listSessions(acct.accountId)).map((s) => s.id);
    for (let tries = 0; tries < 50 && listed.length > others.length; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await client.listSessions(acct.accountId)).map((s) => s.id);
    }
    expect(listed).to.deep.equal(others);
    expect([await wallet.current(acct.accountId), changes]).to.deep.equal([undefined, []]);
  });
});
