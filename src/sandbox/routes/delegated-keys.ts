/**
 * Delegated signing keys (api.md "Delegated signing keys", "DelegatedKey.status"; reference.md
 * "Delegated keys"): create through a signed retry that takes two signatures, then 201 with an
 * ACTIVE key whose pair the sandbox generates and keeps (the private key is never returned); list
 * by account and/or funding source; get; revoke (no signed retry).
 *
 * The first signature makes the key (the delegated user, its pair) with status PENDING, listed and
 * fetched as any other; the second grants its policy and makes that same key (same id) ACTIVE.
 * A flow abandoned between the two (or whose second signature is refused, or answered 409) leaves
 * it PENDING: api.md line 106, "The delegated user exists but policy creation never completed. The
 * key cannot sign." What becomes of it after is not written (api.md line 114: "Transitions from
 * PENDING and into REVOKED: not shown"), so the sandbox takes the reading of a service that never
 * tidies up: a PENDING key stays PENDING for good, cannot be revoked (reference.md line 67, DELETE
 * `400` when the key is not ACTIVE), and blocks nothing: a new create for the same card goes
 * through (reference.md line 63 gives `409` only "when an ACTIVE key already exists for that card
 * funding source") and makes a key of its own, the abandoned one staying listed beside it.
 *
 * Choices where the documents are silent (api.md: "Error responses of the delegated key endpoints: not
 * shown"; reference.md gives the statuses, no codes, and api.md "Errors" names no 409 code and no 404
 * code for these resources): a whitespace-only nickname (length 1..256 is all they say) is
 * `400 INVALID_INPUT`, as `<delegated-keys>` refuses it; an ACTIVE key already bound to the funding
 * source is `409 DELEGATED_KEY_ALREADY_EXISTS`; revoking a key that is not ACTIVE is
 * `400 INVALID_INPUT`; unknown card, account or binding are `404 NOT_FOUND` with a message saying
 * which. Deliberately not here: spending-limit enforcement (no card authorizations run in the sandbox).
 */
import { randomUUID } from 'node:crypto';
import { bytesToHex } from '../../core/encoding.ts';
import { compressPublicKey, generateSigningKey } from '../../core/p256.ts';
import type { DelegatedKey, SpendingLimit } from '../../core/types.ts';
import { requireBasic } from '../auth.ts';
import { HttpError, badRequest, json, jsonObject, notFound, type Router } from '../http.ts';
import type { FundingSourceRecord } from '../state.ts';
import { Fields, isPlainObject, requireId } from '../validate.ts';
import type { World } from '../world.ts';

const CURRENCY = /^[A-Z0-9]{3,16}$/;
const MAX_LIMITS = 64;

function parseLimits(f: Fields, value: unknown): SpendingLimit[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    f.fail('spendingLimits', 'must be an array');
    return undefined;
  }
  if (value.length > MAX_LIMITS) {
    f.fail('spendingLimits', `must have at most ${MAX_LIMITS} entries`);
    return undefined;
  }
  const out: SpendingLimit[] = [];
  const seen = new Set<string>();
  value.forEach((entry, i) => {
    const at = `spendingLimits[${i}]`;
    if (!isPlainObject(entry)) {
      f.fail(at, 'must be an object');
      return;
    }
    const { currencyCode, maxPerTransaction } = entry;
    let ok = true;
    if (typeof currencyCode !== 'string' || !CURRENCY.test(currencyCode)) {
      f.fail(`${at}.currencyCode`, 'must match ^[A-Z0-9]{3,16}$');
      ok = false;
    }
    if (typeof maxPerTransaction !== 'number' || !Number.isSafeInteger(maxPerTransaction) || maxPerTransaction < 1) {
      f.fail(`${at}.maxPerTransaction`, 'must be an integer >= 1 (smallest currency unit)');
      ok = false;
    }
    if (!ok) return;
    if (seen.has(currencyCode as string)) {
      // api.md: "A request with duplicate currency entries is rejected."
      f.fail(`${at}.currencyCode`, `duplicate entry for ${currencyCode as string}`);
      return;
    }
    seen.add(currencyCode as string);
    out.push({ currencyCode: currencyCode as string, maxPerTransaction: maxPerTransaction as number });
  });
  return out;
}

export function registerDelegatedKeyRoutes(router: Router, world: World): void {
  const { store } = world;

  function bindingOf(cardId: string, accountId: string): FundingSourceRecord {
    if (!store.cards.has(cardId)) throw notFound('Card not found');
    if (!store.accounts.has(accountId)) throw notFound('Internal account not found');
    const binding = [...store.fundingSources.values()].find((fs) => fs.cardId === cardId && fs.accountId === accountId && fs.status === 'ACTIVE');
    if (!binding) throw notFound('No active card funding source binds this card to this internal account');
    return binding;
  }

  function noActiveKey(fundingSourceId: string): void {
    for (const k of store.delegatedKeys.values()) {
      if (k.key.fundingSourceId === fundingSourceId && k.key.status === 'ACTIVE') {
        throw new HttpError(409, 'DELEGATED_KEY_ALREADY_EXISTS', 'An ACTIVE delegated key already exists for this card funding source; revoke it first', { delegatedKeyId: k.key.id });
      }
    }
  }

  router.on('POST', '/auth/delegated-keys', async (ctx) => {
    requireBasic(world, ctx);
    const body = jsonObject(ctx);
    const f = new Fields(body);
    const cardId = f.id('cardId', 'Card');
    const accountId = f.id('internalAccountId', 'InternalAccount');
    const nickname = f.string('nickname', { max: 256 });
    if (nickname?.trim() === '') f.fail('nickname', 'must not be blank');
    const spendingLimits = parseLimits(f, body.spendingLimits);
    f.check();
    const binding = bindingOf(cardId!, accountId!);
    noActiveKey(binding.id);

    const gate = await world.retry.gate(ctx, {
      activity: 'ACTIVITY_TYPE_CREATE_DELEGATED_KEY',
      accountIds: [accountId!],
      parameters: { cardId: cardId!, fundingSourceId: binding.id, nickname: nickname!, spendingLimits: spendingLimits ?? [] },
      // reference.md: "the service takes two signatures" (user creation, then policy grant).
      signatures: 2,
      // api.md: the headers are "only on the signed retry, ignored on the first call".
      firstCallIgnoresHeaders: true,
    });
    if (!gate.done && !gate.flow) return gate.reply;
    // The key of this flow, made PENDING by its first signature (see the header).
    const ofFlow = () => [...store.delegatedKeys.values()].find((r) => r.flow === gate.flow);
    let record = ofFlow();
    if (!record) {
      const pair = await generateSigningKey();
      record = ofFlow();
      if (!record) {
        const t = new Date(world.clock.now()).toISOString();
        const key: DelegatedKey = {
          id: `DelegatedKey:${randomUUID()}`,
          cardId: cardId!,
          fundingSourceId: binding.id as DelegatedKey['fundingSourceId'],
          accountId: accountId!,
          publicKey: bytesToHex(compressPublicKey(pair.publicKey)),
          nickname: nickname!,
          status: 'PENDING',
          ...(spendingLimits && spendingLimits.length > 0 ? { spendingLimits } : {}),
          createdAt: t,
          updatedAt: t,
        };
        record = { key, privateKey: pair.privateKey, flow: gate.flow };
        store.delegatedKeys.set(key.id, record);
      }
    }
    if (!gate.done) return gate.reply;
    // Checked after the last await, with nothing awaited before the key turns ACTIVE: another
    // creation for the same funding source may have completed meanwhile (409, this key staying PENDING).
    bindingOf(cardId!, accountId!);
    noActiveKey(binding.id);
    const { key } = record;
    key.status = 'ACTIVE';
    key.updatedAt = new Date(world.clock.now()).toISOString();
    delete record.flow;
    return json(201, key);
  });

  router.on('GET', '/auth/delegated-keys', (ctx) => {
    requireBasic(world, ctx);
    const accountParam = ctx.query.get('accountId');
    const fundingParam = ctx.query.get('fundingSourceId');
    if (accountParam === null && fundingParam === null) {
      throw badRequest('accountId or fundingSourceId is required', [{ field: 'accountId', message: 'accountId or fundingSourceId is required' }]);
    }
    const accountId = accountParam === null ? undefined : requireId('InternalAccount', accountParam, 'accountId');
    const fundingSourceId = fundingParam === null ? undefined : requireId('CardFundingSource', fundingParam, 'fundingSourceId');
    const data = [...store.delegatedKeys.values()]
      .map((r) => r.key)
      .filter((k) => (accountId === undefined || k.accountId === accountId) && (fundingSourceId === undefined || k.fundingSourceId === fundingSourceId));
    return json(200, { data });
  });

  router.on('GET', '/auth/delegated-keys/:id', (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('DelegatedKey', ctx.params.id, 'id');
    const record = store.delegatedKeys.get(id);
    if (!record) throw notFound('Delegated key not found');
    return json(200, record.key);
  });

  router.on('DELETE', '/auth/delegated-keys/:id', (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('DelegatedKey', ctx.params.id, 'id');
    const record = store.delegatedKeys.get(id);
    if (!record) throw notFound('Delegated key not found');
    if (record.key.status !== 'ACTIVE') {
      throw badRequest(`Only an ACTIVE key can be revoked (this one is ${record.key.status})`, [{ field: 'id', message: `key is ${record.key.status}` }]);
    }
    record.key.status = 'REVOKED';
    record.key.updatedAt = new Date(world.clock.now()).toISOString();
    return { status: 204 };
  });
}
