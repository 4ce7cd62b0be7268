/**
 * The typed client from a real page through the proxy at /api to the sandbox: the calls the other
 * elements build on (delegated keys with their two-signature retry, card reveal, agent actions with
 * cursor pages and the poller, wallet export, customer email), and typed errors.
 */
import { expect } from 'chai';
import { createClient } from '../../../src/core/client.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { createWallet, type Wallet } from '../../../src/core/session.ts';
import { pollAgentActions } from '../../../src/core/agent.ts';
import { PRODUCTION_EXPORT_SIGNER } from '../../../src/core/bundles.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import type { AgentAction } from '../../../src/core/types.ts';
import { fixtures, newAccount, approveAction, type RigAccount, type RigFixtures } from '../support/rig.ts';
import { rejection, resetPage } from '../elements/shared/helpers.ts';

describe('client through the proxy', () => {
  let f: RigFixtures;
  let acct: RigAccount;
  let wallet: Wallet;
  const client = () => createClient({ baseUrl: f.apiBase });

  beforeEach(async () => {
    f = await fixtures();
    acct = await newAccount();
    wallet = createWallet({ client: client(), store: memoryKeyStore(), otpSigner: f.signerPublicKey });
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
  });
  afterEach(resetPage);

  it('creates a delegated key (signed twice), lists, gets and revokes it', async () => {
    const c = client();
    const signed: string[] = [];
    const inner = await wallet.stamper(acct.accountId);
    const key = await c.createDelegatedKey(
      { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Groceries', spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 5000 }] },
      {
        stamper: {
          stamp(p) {
            signed.push(p);
            return inner.stamp(p);
          },
        },
      },
    );
    expect(key.status).to.equal('ACTIVE');
    expect(key.cardId).to.equal(acct.cardId);
    expect(key.publicKey).to.match(/^0[23][0-9a-f]{64}$/);
    expect(signed.length, 'the service asks for two signatures').to.equal(2);
    expect(signed[0]).not.to.equal(signed[1]);

    expect((await c.listDelegatedKeys({ accountId: acct.accountId })).map((k) => k.id)).to.include(key.id);
    expect((await c.getDelegatedKey(key.id)).nickname).to.equal('Groceries');
    const conflict = await rejection(c.createDelegatedKey({ cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Second' }, { stamper: inner }));
    expect((conflict as ServiceError).status).to.equal(409);
    await c.revokeDelegatedKey(key.id);
    expect((await c.getDelegatedKey(key.id)).status).to.equal('REVOKED');
  });

  it('reveals a card: a URL of the processor page and an expiry, nothing stored', async () => {
    const r = await client().revealCard(acct.cardId);
    expect(new URL(r.panEmbedUrl).origin).to.equal(f.processorOrigin);
    expect(Date.parse(r.expiresAt)).to.be.greaterThan(0);
    const missing = await rejection(client().revealCard('Card:00000000-0000-4000-8000-000000000000'));
    expect(missing).to.be.instanceOf(ServiceError);
    expect((missing as ServiceError).status).to.equal(404);
    expect(JSON.stringify(missing)).not.to.contain(r.panEmbedUrl);
  });

  it('iterates agent actions over cursor pages with the agent token, and gets one', async () => {
    const c = client();
    const first = await c.listAgentActions({ agentToken: acct.agentToken, limit: 10 });
    expect(first.data.length).to.be.at.most(10);
    const all: AgentAction[] = [];
    for await (const a of c.iterateAgentActions({ agentToken: acct.agentToken, limit: 7 })) all.push(a);
    if (first.totalCount !== undefined) expect(all.length).to.equal(first.totalCount);
    expect(new Set(all.map((a) => a.id)).size).to.equal(all.length);
    const one = await c.getAgentAction(all[0]!.id, { agentToken: acct.agentToken });
    expect(one.id).to.equal(all[0]!.id);
    const bad = await rejection(c.listAgentActions({ agentToken: 'not-a-token' }));
    expect((bad as ServiceError).status).to.equal(401);
  });

  it('polls agent actions and reports an approval', async () => {
    const c = client();
    const pending: AgentAction[] = [];
    for await (const a of c.iterateAgentActions({ agentToken: acct.agentToken, status: 'PENDING_APPROVAL' })) pending.push(a);
    expect(pending.length).to.be.greaterThan(0);
    const target = pending[0]!;
    const controller = new AbortController();
    const seen: AgentAction[][] = [];
    const done = pollAgentActions({
      client: c,
      agentToken: acct.agentToken,
      signal: controller.signal,
      minDelayMs: 50,
      maxDelayMs: 200,
      onChange: (actions) => {
        seen.push(actions);
        if (seen.length === 1) void approveAction(acct.agentId, target.id);
        const now = actions.find((a) => a.id === target.id);
        if (now && now.status !== 'PENDING_APPROVAL') controller.abort();
      },
    });
    const timeout = setTimeout(() => controller.abort(), 10000);
    await done;
    clearTimeout(timeout);
    const last = seen.at(-1)!.find((a) => a.id === target.id);
    expect(last?.status).to.be.oneOf(['APPROVED', 'FAILED']);
  });

  it('exports the recovery phrase through a fresh receiver key, checked against the pinned signer', async () => {
    const phrase = await wallet.exportRecoveryPhrase(acct.accountId, { trustedSigner: f.signerPublicKey });
    expect(phrase.split(' ').length).to.be.oneOf([12, 15, 18, 21, 24]);
    const e = await rejection(
      wallet.exportRecoveryPhrase(acct.accountId, { trustedSigner: PRODUCTION_EXPORT_SIGNER }),
    );
    expect((e as WalletError).code).to.equal('bundle_invalid');
  });

  it('updates the customer email with a signature when an email login is tied to it', async () => {
    const email = `changed-${crypto.randomUUID()}@sandbox.test`;
    const noSession = await rejection(client().updateCustomerEmail(acct.customerId, email));
    expect((noSession as WalletError).code).to.equal('session_expired');
    const customer = await client().updateCustomerEmail(acct.customerId, email, { stamper: await wallet.stamper(acct.accountId) });
    expect(customer.email).to.equal(email);
    const creds = await client().listCredentials(acct.accountId);
    expect(creds.find((c) => c.type === 'EMAIL_OTP')?.nickname).to.equal(email);
  });
});
