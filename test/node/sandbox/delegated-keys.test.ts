// Delegated signing keys of the sandbox (api.md "POST {base_url}/auth/delegated-keys",
// "DelegatedKey.status"; reference.md "Delegated keys").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createStamp, WALLET_SIGNATURE_HEADER } from '../../../src/core/stamp.ts';
import { REQUEST_ID_HEADER } from '../../../src/core/signed-retry.ts';
import { Api, assertDelegatedKey, assertError, assertFieldError, withSandbox } from './helpers.ts';

let api: Api;

before(async () => {
  api = await withSandbox();
});
after(() => api.sandbox.close());

async function setup() {
  const acct = await api.newAccount();
  const { key } = await api.otpLogin(acct.emailCredentialId);
  return { acct, key };
}

describe('delegated keys', () => {
  test('create takes two signatures: 202, retry, 202 with a new payload (the key PENDING meanwhile), retry, 201 ACTIVE', async () => {
    const { acct, key } = await setup();
    const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Card payments', spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 50_000 }, { currencyCode: 'USDB', maxPerTransaction: 1 }] };
    const first = await api.challenge('POST', '/auth/delegated-keys', body);
    const second = await api.retry('POST', '/auth/delegated-keys', body, first, key);
    assert.equal(second.status, 202, second.text);
    assert.notEqual(second.body.requestId, first.requestId);
    assert.notEqual(second.body.payloadToSign, first.payloadToSign);
    // The first request id cannot be used for the second signature.
    const replay = await api.retry('POST', '/auth/delegated-keys', body, first, key);
    assertError(replay, 401, 'UNAUTHORIZED');
    // After the first signature the key exists, PENDING: listed, fetched by id, not revocable.
    const listed = (await api.call('GET', `/auth/delegated-keys?accountId=${acct.accountId}`)).body.data;
    assert.deepEqual(listed.map((k: { status: string }) => k.status), ['PENDING']);
    assertDelegatedKey(listed[0]);
    assert.equal(listed[0].nickname, 'Card payments');
    assert.deepEqual(listed[0].spendingLimits, body.spendingLimits);
    assert.deepEqual((await api.call('GET', `/auth/delegated-keys/${listed[0].id}`)).body, listed[0]);
    assertFieldError(await api.call('DELETE', `/auth/delegated-keys/${listed[0].id}`), 'id');
    const done = await api.retry('POST', '/auth/delegated-keys', body, second.body, key);
    assert.equal(done.status, 201, done.text);
    assertDelegatedKey(done.body);
    assert.equal(done.body.status, 'ACTIVE');
    // The second signature makes that same key ACTIVE: one key, same id and public key.
    assert.equal(done.body.id, listed[0].id);
    assert.equal(done.body.publicKey, listed[0].publicKey);
    assert.equal(done.body.createdAt, listed[0].createdAt);
    assert.deepEqual((await api.call('GET', `/auth/delegated-keys?accountId=${acct.accountId}`)).body.data, [done.body]);
    assert.equal(done.body.cardId, acct.cardId);
    assert.equal(done.body.accountId, acct.accountId);
    assert.equal(done.body.fundingSourceId, acct.fundingSourceId);
    assert.equal(done.body.nickname, 'Card payments');
    assert.deepEqual(done.body.spendingLimits, body.spendingLimits);
  });

  test('no spendingLimits (or an empty list): the field is absent', async () => {
    const { acct, key } = await setup();
    const r = await api.signed('POST', '/auth/delegated-keys', { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'n', spendingLimits: [] }, key);
    assert.equal(r.status, 201, r.text);
    assert.equal('spendingLimits' in r.body, false);
  });

  test('409 when an ACTIVE key exists for the funding source; after DELETE a new one can be made', async () => {
    const { acct, key } = await setup();
    const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'k1' };
    const k1 = await api.signed('POST', '/auth/delegated-keys', body, key);
    assert.equal(k1.status, 201);
    assertError(await api.call('POST', '/auth/delegated-keys', { body }), 409);
    const del = await api.call('DELETE', `/auth/delegated-keys/${k1.body.id}`);
    assert.equal(del.status, 204);
    const got = await api.call('GET', `/auth/delegated-keys/${k1.body.id}`);
    assert.equal(got.body.status, 'REVOKED');
    assertDelegatedKey(got.body);
    assertError(await api.call('DELETE', `/auth/delegated-keys/${k1.body.id}`), 400);
    const k2 = await api.signed('POST', '/auth/delegated-keys', { ...body, nickname: 'k2' }, key);
    assert.equal(k2.status, 201, k2.text);
    assert.notEqual(k2.body.publicKey, k1.body.publicKey);
  });

  test('two creations for one funding source completed at once: one 201, the other 409', async () => {
    const { acct, key } = await setup();
    const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Twice' };
    // Both exchanges up to their last signature, then both last retries together.
    const seconds = [];
    for (let i = 0; i < 2; i++) {
      const first = await api.challenge('POST', '/auth/delegated-keys', body);
      const second = await api.retry('POST', '/auth/delegated-keys', body, first, key);
      assert.equal(second.status, 202, second.text);
      seconds.push(second.body);
    }
    const done = await Promise.all(seconds.map((ch) => api.retry('POST', '/auth/delegated-keys', body, ch, key)));
    assert.deepEqual(done.map((r) => r.status).sort(), [201, 409], done.map((r) => r.text).join('\n'));
    const keys = (await api.call('GET', `/auth/delegated-keys?accountId=${acct.accountId}`)).body.data;
    // The one answered 409 stays PENDING.
    assert.deepEqual(keys.map((k: { status: string }) => k.status).sort(), ['ACTIVE', 'PENDING']);
  });

  test('a create abandoned after its first signature leaves a PENDING key that stays, cannot be revoked and blocks no new create for the card', async () => {
    const { acct, key } = await setup();
    const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Abandoned' };
    const first = await api.challenge('POST', '/auth/delegated-keys', body);
    const second = await api.retry('POST', '/auth/delegated-keys', body, first, key);
    assert.equal(second.status, 202, second.text);
    const [pending] = (await api.call('GET', `/auth/delegated-keys?fundingSourceId=${acct.fundingSourceId}`)).body.data;
    assert.equal(pending.status, 'PENDING');
    const del = await api.call('DELETE', `/auth/delegated-keys/${pending.id}`);
    assertFieldError(del, 'id');
    assert.match(del.body.message, /PENDING/);
    // Coming back later: a new create for the same card (same body) goes through and makes a key of its own.
    const again = await api.signed('POST', '/auth/delegated-keys', body, key);
    assert.equal(again.status, 201, again.text);
    assert.notEqual(again.body.id, pending.id);
    assert.notEqual(again.body.publicKey, pending.publicKey);
    const keys = (await api.call('GET', `/auth/delegated-keys?accountId=${acct.accountId}`)).body.data;
    assert.deepEqual(keys.map((k: { id: string; status: string }) => [k.id, k.status]), [[pending.id, 'PENDING'], [again.body.id, 'ACTIVE']]);
    assert.deepEqual((await api.call('GET', `/auth/delegated-keys/${pending.id}`)).body, pending);
    // The abandoned flow's second signature, given now, is answered 409 and the key stays PENDING.
    assertError(await api.retry('POST', '/auth/delegated-keys', body, second.body, key), 409);
    assert.equal((await api.call('GET', `/auth/delegated-keys/${pending.id}`)).body.status, 'PENDING');
  });

  test('validation: nickname 1..256, currency pattern, integer >= 1, duplicate currency, all with details.errors', async () => {
    const { acct } = await setup();
    const base = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'n' };
    const post = (b: Record<string, unknown>) => api.call('POST', '/auth/delegated-keys', { body: { ...base, ...b } });
    assertFieldError(await post({ nickname: '' }), 'nickname');
    // Blank (whitespace only, as String.prototype.trim sees it): refused as <delegated-keys> refuses it.
    for (const nickname of [' ', '   ', '\t\n', '\u00a0\u3000']) assertFieldError(await post({ nickname }), 'nickname');
    assertFieldError(await post({ nickname: 'x'.repeat(257) }), 'nickname');
    assert.equal((await post({ nickname: 'x'.repeat(256) })).status, 202);
    assertFieldError(await post({ nickname: 7 }), 'nickname');
    assertFieldError(await post({ spendingLimits: [{ currencyCode: 'usd', maxPerTransaction: 1 }] }), 'spendingLimits[0].currencyCode');
    assertFieldError(await post({ spendingLimits: [{ currencyCode: 'US', maxPerTransaction: 1 }] }), 'spendingLimits[0].currencyCode');
    assertFieldError(await post({ spendingLimits: [{ currencyCode: 'A'.repeat(17), maxPerTransaction: 1 }] }), 'spendingLimits[0].currencyCode');
    assertFieldError(await post({ spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 0 }] }), 'spendingLimits[0].maxPerTransaction');
    assertFieldError(await post({ spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 1.5 }] }), 'spendingLimits[0].maxPerTransaction');
    assertFieldError(await post({ spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: '5' }] }), 'spendingLimits[0].maxPerTransaction');
    assertFieldError(await post({ spendingLimits: { USD: 5 } }), 'spendingLimits');
    const dup = await post({ spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 1 }, { currencyCode: 'EUR', maxPerTransaction: 2 }, { currencyCode: 'USD', maxPerTransaction: 3 }] });
    assertFieldError(dup, 'spendingLimits[2].currencyCode');
    assertFieldError(await post({ cardId: 'card_1' }), 'cardId');
    assertFieldError(await post({ internalAccountId: undefined }), 'internalAccountId');
  });

  test('404: unknown card, unknown account, or a card not bound to the account', async () => {
    const a = await setup();
    const b = await api.newAccount();
    const post = (cardId: string, internalAccountId: string) => api.call('POST', '/auth/delegated-keys', { body: { cardId, internalAccountId, nickname: 'n' } });
    assertError(await post('Card:00000000-0000-4000-8000-000000000000', a.acct.accountId), 404);
    assertError(await post(a.acct.cardId, 'InternalAccount:00000000-0000-4000-8000-000000000000'), 404);
    assertError(await post(b.cardId, a.acct.accountId), 404);
  });

  test('the retry headers are ignored on the first call (api.md): a call whose Request-Id was not issued for this operation gets the first 202', async () => {
    const { acct, key } = await setup();
    const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'n' };
    const stamp = await createStamp('{"stale": "payload"}', key);
    const never = 'Request:00000000-0000-4000-8000-000000000000';
    const elsewhere = await api.challenge('PATCH', `/internal-accounts/${acct.accountId}`, { privateEnabled: true });
    for (const headers of [
      { [WALLET_SIGNATURE_HEADER]: stamp, [REQUEST_ID_HEADER]: never },
      { [WALLET_SIGNATURE_HEADER]: stamp, [REQUEST_ID_HEADER]: elsewhere.requestId },
      { [WALLET_SIGNATURE_HEADER]: stamp },
      { [REQUEST_ID_HEADER]: never },
    ] as Array<Record<string, string>>) {
      const first = await api.call('POST', '/auth/delegated-keys', { body, headers });
      assert.equal(first.status, 202, `${Object.keys(headers).join(' + ')}: ${first.text}`);
      assert.notEqual(first.body.requestId, never);
      // That 202 starts the signed retry as any first call does.
      const second = await api.retry('POST', '/auth/delegated-keys', body, first.body, key);
      assert.equal(second.status, 202, second.text);
    }
    // A Request-Id issued for it makes a call the retry: both headers required, single use.
    const ch = await api.challenge('POST', '/auth/delegated-keys', body);
    assertError(await api.call('POST', '/auth/delegated-keys', { body, headers: { [REQUEST_ID_HEADER]: ch.requestId } }), 401, 'WALLET_SIGNATURE_MISSING');
    const second = await api.retry('POST', '/auth/delegated-keys', body, ch, key);
    assert.equal(second.status, 202, second.text);
    const replay = await api.retry('POST', '/auth/delegated-keys', body, ch, key);
    assertError(replay, 401, 'UNAUTHORIZED');
    assert.equal(replay.body.details.reason, 'REQUEST_ID_CONSUMED');
    const done = await api.retry('POST', '/auth/delegated-keys', body, second.body, key);
    assert.equal(done.status, 201, done.text);
  });

  test('the signatures must come from a session of the funding account', async () => {
    const { acct } = await setup();
    const other = await setup();
    const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'n' };
    const ch = await api.challenge('POST', '/auth/delegated-keys', body);
    assertError(await api.retry('POST', '/auth/delegated-keys', body, ch, other.key), 401, 'WALLET_SIGNATURE_INVALID');
    // A refused first signature makes no key, not even PENDING.
    assert.deepEqual((await api.call('GET', `/auth/delegated-keys?accountId=${acct.accountId}`)).body.data, []);
  });

  test('list needs accountId or fundingSourceId; filters; get and delete 404 for unknown ids', async () => {
    const { acct, key } = await setup();
    const created = await api.signed('POST', '/auth/delegated-keys', { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'n' }, key);
    assertFieldError(await api.call('GET', '/auth/delegated-keys'), 'accountId');
    assertFieldError(await api.call('GET', '/auth/delegated-keys?accountId=x'), 'accountId');
    const byAccount = await api.call('GET', `/auth/delegated-keys?accountId=${acct.accountId}`);
    assert.deepEqual(byAccount.body.data.map((k: { id: string }) => k.id), [created.body.id]);
    byAccount.body.data.forEach(assertDelegatedKey);
    const bySource = await api.call('GET', `/auth/delegated-keys?fundingSourceId=${acct.fundingSourceId}`);
    assert.deepEqual(bySource.body.data.map((k: { id: string }) => k.id), [created.body.id]);
    const other = await api.newAccount();
    assert.equal((await api.call('GET', `/auth/delegated-keys?accountId=${acct.accountId}&fundingSourceId=${other.fundingSourceId}`)).body.data.length, 0);
    assertError(await api.call('GET', '/auth/delegated-keys/DelegatedKey:00000000-0000-4000-8000-000000000000'), 404);
    assertError(await api.call('DELETE', '/auth/delegated-keys/DelegatedKey:00000000-0000-4000-8000-000000000000'), 404);
    assertFieldError(await api.call('GET', '/auth/delegated-keys/Card:00000000-0000-4000-8000-000000000000'), 'id');
  });
});
