/**
 * What the elements say (src/elements/shared/failures.ts) of the 401s the real sandbox gives behind
 * the real proxy: the proxy's API credentials refused (api.md "Errors": UNAUTHORIZED is an issue
 * with API credentials) is the set-up, not a wallet login to ask for; a signed leg refused keeps its
 * meaning, and so do a login step's own 401s (a wrong code: reference.md documents no code for it).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { createClient } from '../../../src/core/client.ts';
import { createWallet } from '../../../src/core/session.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { classifyError } from '../../../src/elements/shared/failures.ts';
import { errorCodeOf as keysErrorCodeOf } from '../../../src/elements/delegated-keys/delegated-keys.machine.ts';
import { errorCodeOf as revealErrorCodeOf } from '../../../src/elements/card-reveal/reveal-failure.ts';
import { errorCodeOf as agentErrorCodeOf } from '../../../src/elements/agent-actions/agent-actions.flows.ts';
import { createSandboxAccount } from '../../support/sandbox-account.ts';
import { startProxy } from '../proxy/helpers.ts';

let sandbox: Sandbox;
let good: Awaited<ReturnType<typeof startProxy>>;
let wrong: Awaited<ReturnType<typeof startProxy>>;
let signedOut: Awaited<ReturnType<typeof startProxy>>;
let siteOut: Awaited<ReturnType<typeof startProxy>>;
before(async () => {
  sandbox = await startSandbox({ otpResendIntervalMs: 1 });
  const { baseUrl, tokenId, clientSecret } = sandbox.fixtures;
  good = await startProxy({ upstream: baseUrl, tokenId, clientSecret });
  wrong = await startProxy({ upstream: baseUrl, tokenId, clientSecret: `${clientSecret}-not` });
  // The integrator's hook: no user of its own site signed in, so no account (the proxy's 401).
  signedOut = await startProxy({ upstream: baseUrl, tokenId, clientSecret, accountFor: () => undefined });
  // The integrator's own authorize, asked on every route (the agent's too): no user of its site signed in.
  siteOut = await startProxy({ upstream: baseUrl, tokenId, clientSecret, authorize: () => ({ status: 401, code: 'UNAUTHORIZED', message: 'Sign in first.' }) });
});
after(async () => {
  await good.close();
  await wrong.close();
  await signedOut.close();
  await siteOut.close();
  await sandbox.close();
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => {
      assert.ok(e instanceof ServiceError && e.status === 401, String(e));
      return e;
    },
  );

test('a proxy whose API credentials the service refuses is a set-up to fix, not a wallet login; a signed leg or a wrong code refused keeps its meaning', async () => {
  const acct = (await (await createSandboxAccount(sandbox)).json()) as { accountId: string; emailCredentialId: string };
  const wallet = createWallet({ client: createClient({ baseUrl: good.base }), store: memoryKeyStore(), otpSigner: sandbox.fixtures.signerPublicKey });
  const stamper = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000').then(() => wallet.stamper(acct.accountId));

  // The page's signed change (no login step) through the proxy with the wrong credentials.
  const badCredentials = await refusal(createClient({ baseUrl: wrong.base }).setWalletPrivacy(acct.accountId, true, { stamper }));
  assert.equal(badCredentials.code, 'UNAUTHORIZED');
  assert.deepEqual(classifyError(badCredentials), { code: 'misconfigured', status: 401 });

  // The proxy's own 401 (its hook found no signed-in user of the site) is a login to ask for, not a set-up to fix.
  const noUser = await refusal(createClient({ baseUrl: signedOut.base }).setWalletPrivacy(acct.accountId, true, { stamper }));
  assert.equal(noUser.code, 'UNAUTHORIZED');
  assert.equal(classifyError(noUser).code, 'signature_rejected');

  // A signed leg whose Request-Id the service does not know: the change could not be confirmed.
  const client = createClient({ baseUrl: good.base });
  const { headerName, headerValue } = await stamper.stamp('x');
  const body = JSON.stringify({ privateEnabled: true });
  const unknown = await refusal(
    client.send({ method: 'PATCH', path: `/internal-accounts/${acct.accountId}`, body, headers: { [headerName]: headerValue, 'Request-Id': 'Request:00000000-0000-4000-8000-000000000000' } }),
  );
  assert.equal(classifyError(unknown).code, 'signature_rejected');

  // A wrong code is a wrong code, as the step says.
  const wrongCode = await refusal((await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('123456'));
  assert.equal(classifyError(wrongCode, { unauthorized: 'wrong_code' }).code, 'wrong_code');
});

test('<delegated-keys> and <card-reveal> read a 401 as the shared rule does: the site\'s own refusal or a signed leg\'s is a login to ask for, the API credentials refused a set-up to fix', async () => {
  const acct = (await (await createSandboxAccount(sandbox)).json()) as { accountId: string; emailCredentialId: string; cardId: string };
  const wallet = createWallet({ client: createClient({ baseUrl: good.base }), store: memoryKeyStore(), otpSigner: sandbox.fixtures.signerPublicKey });
  await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
  const stamper = await wallet.stamper(acct.accountId);
  const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'groceries' };
  const keyId = 'DelegatedKey:00000000-0000-4000-8000-000000000000';

  // The integrator's hook knows no signed-in user of its site (the proxy's 401, details.reason AUTHORIZE).
  // The delegated-key calls through that client, named as the element names what it was doing.
  const keyCalls = (client: ReturnType<typeof createClient>) =>
    [
      ['load', () => client.listDelegatedKeys({ accountId: acct.accountId })],
      ['create', () => client.createDelegatedKey(body, { stamper })],
      ['revoke', () => client.revokeDelegatedKey(keyId)],
    ] as const;
  const site = createClient({ baseUrl: signedOut.base });
  for (const [during, call] of keyCalls(site)) {
    const noUser = await refusal(call());
    assert.deepEqual(noUser.details, { reason: 'AUTHORIZE' });
    assert.equal(classifyError(noUser).code, 'signature_rejected');
    assert.equal(keysErrorCodeOf(noUser, during), 'session_required', during);
  }
  const noUserReveal = await refusal(site.revealCard(acct.cardId));
  assert.equal(revealErrorCodeOf(noUserReveal), 'session_required');

  // The service refuses the proxy's API credentials (401 UNAUTHORIZED, no details): the page's set-up.
  const off = createClient({ baseUrl: wrong.base });
  for (const [during, call] of keyCalls(off)) {
    const badCredentials = await refusal(call());
    assert.equal(badCredentials.details, undefined);
    assert.equal(classifyError(badCredentials).code, 'misconfigured');
    assert.equal(keysErrorCodeOf(badCredentials, during), 'unauthorized', during);
  }
  assert.equal(revealErrorCodeOf(await refusal(off.revealCard(acct.cardId))), 'unauthorized');

  // A create's signed leg sent after its Request-Id expired (a prompt left open): the sandbox refuses
  // it (401 UNAUTHORIZED, details.reason REQUEST_ID_EXPIRED), a confirmation to give again.
  const client = createClient({ baseUrl: good.base });
  const request = { method: 'POST', path: '/auth/delegated-keys', body: JSON.stringify(body) } as const;
  const { payloadToSign, requestId } = (await client.send(request)).body as { payloadToSign: string; requestId: string };
  const { headerName, headerValue } = await stamper.stamp(payloadToSign);
  sandbox.clock.advance(5 * 60_000 + 1000);
  const expired = await refusal(client.send({ ...request, headers: { [headerName]: headerValue, 'Request-Id': requestId } }));
  assert.deepEqual(expired.details, { reason: 'REQUEST_ID_EXPIRED' });
  assert.equal(classifyError(expired).code, 'signature_rejected');
  assert.equal(keysErrorCodeOf(expired, 'create'), 'session_required');
});


test("<agent-actions> reads an agent route's 401 as the shared rule does: the proxy's authorize refusing the page is a sign-in to ask for, the agent's token refused its access gone", async () => {
  const acct = (await (await createSandboxAccount(sandbox, { actions: 3 })).json()) as { agentToken: string };
  const agentToken = acct.agentToken;
  // Agent routes carry the agent's Bearer token, not the proxy's credentials, and no account binding
  // holds them: neither the wrong API credentials nor an account binding without a user refuses them.
  for (const p of [good, wrong, signedOut]) assert.equal((await createClient({ baseUrl: p.base }).listAgentActions({ agentToken })).data.length, 3);

  // The integrator's authorize refuses the page (the proxy's 401, details.reason AUTHORIZE): a sign-in.
  const site = createClient({ baseUrl: siteOut.base });
  for (const call of [() => site.listAgentActions({ agentToken }), () => site.getAgentAction('AgentAction:00000000-0000-4000-8000-000000000000', { agentToken })]) {
    const noUser = await refusal(call());
    assert.deepEqual(noUser.details, { reason: 'AUTHORIZE' });
    assert.equal(agentErrorCodeOf(noUser), 'session_required');
  }

  // The service refuses the agent's token, or the proxy finds none (401 UNAUTHORIZED, no details): its access is gone.
  const client = createClient({ baseUrl: good.base });
  const unknownToken = await refusal(client.listAgentActions({ agentToken: 'agent_not-a-token-of-this-service' }));
  assert.equal(unknownToken.details, undefined);
  assert.equal(agentErrorCodeOf(unknownToken), 'unauthorized');
  const noToken = await refusal(client.send({ method: 'GET', path: '/agents/me/actions' }));
  assert.equal(noToken.details, undefined);
  assert.equal(agentErrorCodeOf(noToken), 'unauthorized');
});
