// The <delegated-keys> machine and form rules without a DOM: api.md "POST /auth/delegated-keys"
// (nickname 1..256, one limit per currency, duplicates rejected) and reference.md "Delegated keys"
// (currencyCode /^[A-Z0-9]{3,16}$/, maxPerTransaction integer >= 1, 409 on an ACTIVE key, DELETE 400).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  errorCodeOf,
  hasActiveKey,
  initialState,
  settledMeanwhile,
  sortKeys,
  transition,
  validateKeyForm,
  worthRecheck,
  type DelegatedKeysState,
} from '../../../src/elements/delegated-keys/delegated-keys.machine.ts';
import { formatMinor } from '../../../src/elements/delegated-keys/money.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import type { DelegatedKey } from '../../../src/core/types.ts';

const target = { cardId: 'Card:00000000-0000-4000-8000-000000000001', accountId: 'InternalAccount:00000000-0000-4000-8000-000000000002' };

function key(n: number, status: DelegatedKey['status'], createdAt: string): DelegatedKey {
  return {
    id: `DelegatedKey:00000000-0000-4000-8000-00000000000${n}`,
    cardId: target.cardId as DelegatedKey['cardId'],
    fundingSourceId: 'CardFundingSource:00000000-0000-4000-8000-000000000009',
    accountId: target.accountId as DelegatedKey['accountId'],
    publicKey: '02' + 'ab'.repeat(32),
    nickname: `key ${n}`,
    status,
    createdAt,
    updatedAt: createdAt,
  };
}

test('a valid form becomes the request body: trimmed nickname, upper-cased codes, integer amounts', () => {
  const v = validateKeyForm(
    { nickname: '  Groceries  ', limits: [{ currencyCode: ' usd', maxPerTransaction: '5000 ' }, { currencyCode: 'USDC', maxPerTransaction: '1' }] },
    target,
  );
  assert.deepEqual(v, {
    ok: true,
    request: {
      cardId: target.cardId,
      internalAccountId: target.accountId,
      nickname: 'Groceries',
      spendingLimits: [
        { currencyCode: 'USD', maxPerTransaction: 5000 },
        { currencyCode: 'USDC', maxPerTransaction: 1 },
      ],
    },
  });
});

test('no limits (or only blank rows) sends no spendingLimits field at all', () => {
  const v = validateKeyForm({ nickname: 'x', limits: [{ currencyCode: '', maxPerTransaction: ' ' }] }, target);
  assert.ok(v.ok);
  assert.equal('spendingLimits' in v.request, false);
});

test('nickname: 1 to 256 characters after trimming', () => {
  assert.deepEqual(validateKeyForm({ nickname: '   ', limits: [] }, target), { ok: false, errors: [{ field: 'nickname', problem: 'required' }] });
  assert.equal(validateKeyForm({ nickname: 'a'.repeat(256), limits: [] }, target).ok, true);
  assert.deepEqual(validateKeyForm({ nickname: 'a'.repeat(257), limits: [] }, target), { ok: false, errors: [{ field: 'nickname', problem: 'too_long' }] });
});

test('duplicate currencies are refused before sending, whatever their case or spacing', () => {
  const v = validateKeyForm(
    { nickname: 'x', limits: [{ currencyCode: 'USD', maxPerTransaction: '100' }, { currencyCode: ' usd ', maxPerTransaction: '200' }] },
    target,
  );
  assert.deepEqual(v, { ok: false, errors: [{ field: 'limits.1.currencyCode', problem: 'duplicate_currency' }] });
});

test('currency codes and amounts follow reference.md', () => {
  const bad = (currencyCode: string, maxPerTransaction: string) => validateKeyForm({ nickname: 'x', limits: [{ currencyCode, maxPerTransaction }] }, target);
  assert.deepEqual((bad('US', '1') as { errors: unknown }).errors, [{ field: 'limits.0.currencyCode', problem: 'invalid_currency' }]);
  assert.deepEqual((bad('U$D', '1') as { errors: unknown }).errors, [{ field: 'limits.0.currencyCode', problem: 'invalid_currency' }]);
  assert.deepEqual((bad('A'.repeat(17), '1') as { errors: unknown }).errors, [{ field: 'limits.0.currencyCode', problem: 'invalid_currency' }]);
  assert.equal(bad('A'.repeat(16), '1').ok, true);
  for (const amount of ['0', '-5', '1.5', '1e3', '12a', '00']) {
    assert.deepEqual((bad('USD', amount) as { errors: unknown }).errors, [{ field: 'limits.0.maxPerTransaction', problem: 'invalid_amount' }], amount);
  }
  // Beyond 2^53 - 1 (what JSON carries exactly; the service refuses more): too large, whatever its length.
  for (const amount of ['9007199254740992', '99999999999999999', '1' + '0'.repeat(30)]) {
    assert.deepEqual((bad('USD', amount) as { errors: unknown }).errors, [{ field: 'limits.0.maxPerTransaction', problem: 'too_large' }], amount);
  }
  assert.equal(bad('USD', '9007199254740991').ok, true);
  assert.equal(bad('USD', '0'.repeat(20) + '1').ok, true);
  assert.deepEqual((bad('', '5') as { errors: unknown }).errors, [{ field: 'limits.0.currencyCode', problem: 'required' }]);
  assert.deepEqual((bad('EUR', '') as { errors: unknown }).errors, [{ field: 'limits.0.maxPerTransaction', problem: 'required' }]);
});

test('an amount typed in Arabic-Indic, Persian or full-width digits is that integer; their separators stay refused', () => {
  const limits = (maxPerTransaction: string) => validateKeyForm({ nickname: 'x', limits: [{ currencyCode: 'USD', maxPerTransaction }] }, target);
  for (const amount of ['٥٠٠٠', '۵۰۰۰', '５０００', ' ٥0۰０ ']) assert.deepEqual(limits(amount), limits('5000'), amount);
  assert.deepEqual((limits('٥٠٠٠') as { request: { spendingLimits: unknown } }).request.spendingLimits, [{ currencyCode: 'USD', maxPerTransaction: 5000 }]);
  for (const amount of ['٥٫٠٠', '٥٬٠٠٠', '٠']) assert.equal(limits(amount).ok, false, amount);
  // A code in full-width letters or digits (an East Asian keyboard) is that code.
  const code = validateKeyForm({ nickname: 'x', limits: [{ currencyCode: 'ｕｓｄ', maxPerTransaction: '1' }, { currencyCode: 'ＵＳＤＣ２', maxPerTransaction: '1' }] }, target);
  assert.deepEqual(code.ok && code.request.spendingLimits!.map((l) => l.currencyCode), ['USD', 'USDC2']);
});

test('an amount copied from Arabic text ignores its bidi marks (RLM, LRM, ALM, isolates), not its separators', () => {
  const limits = (maxPerTransaction: string) => validateKeyForm({ nickname: 'x', limits: [{ currencyCode: 'USD', maxPerTransaction }] }, target);
  for (const amount of ['\u200f٥٠٠٠', '٥٠٠٠\u200e', '\u061c٥٠\u061c٠٠', '\u2067٥٠٠٠\u2069', '\u20665000\u2069', '\u2068\u200f5\u200e000']) assert.deepEqual(limits(amount), limits('5000'), JSON.stringify(amount));
  for (const amount of ['\u200f٥٬٠٠٠', '\u20665,000\u2069', '5\u200b000', '\u200f']) assert.equal(limits(amount).ok, false, JSON.stringify(amount));
});

test('list: active keys first, then newest first', () => {
  const keys = sortKeys([key(1, 'REVOKED', '2026-01-03T00:00:00Z'), key(2, 'ACTIVE', '2026-01-01T00:00:00Z'), key(3, 'REVOKED', '2026-01-05T00:00:00Z')]);
  assert.deepEqual(keys.map((k) => k.nickname), ['key 2', 'key 3', 'key 1']);
});

test('create: editing -> invalid stays editing with errors -> valid submits -> created adds the key on top', () => {
  let s: DelegatedKeysState = transition(initialState, { type: 'loaded', keys: [key(1, 'REVOKED', '2026-01-01T00:00:00Z')] });
  s = transition(s, { type: 'open-form' });
  assert.equal(s.mode.kind, 'editing');
  const invalid = validateKeyForm({ nickname: '', limits: [] }, target);
  s = transition(s, { type: 'submit', verdict: invalid });
  assert.deepEqual(s.mode, { kind: 'editing', errors: [{ field: 'nickname', problem: 'required' }] });
  s = transition(s, { type: 'submit', verdict: validateKeyForm({ nickname: 'new', limits: [] }, target) });
  assert.equal(s.mode.kind, 'submitting');
  // A second submit while one is in flight does nothing.
  assert.equal(transition(s, { type: 'submit', verdict: validateKeyForm({ nickname: 'new', limits: [] }, target) }), s);
  s = transition(s, { type: 'created', key: { ...key(2, 'ACTIVE', '2026-01-02T00:00:00Z'), nickname: 'new' } });
  assert.equal(s.mode.kind, 'browsing');
  assert.deepEqual(s.notice, { kind: 'created', nickname: 'new' });
  assert.equal(s.list.kind === 'ready' && s.list.keys[0]!.nickname, 'new');
  assert.equal(hasActiveKey(s), true);
});

test('a 409 on create returns to the form with the conflict, the form kept', () => {
  let s = transition(transition(initialState, { type: 'loaded', keys: [] }), { type: 'open-form' });
  s = transition(s, { type: 'submit', verdict: validateKeyForm({ nickname: 'n', limits: [] }, target) });
  s = transition(s, { type: 'create-failed', code: errorCodeOf(new ServiceError({ status: 409, code: 'CONFLICT', message: 'x' }), 'create') });
  assert.deepEqual(s.mode, { kind: 'editing', errors: [], failure: 'conflict' });
});

test('revoke: only an ACTIVE key, confirm first, then REVOKED in place', () => {
  const active = key(1, 'ACTIVE', '2026-01-01T00:00:00Z');
  const revoked = key(2, 'REVOKED', '2026-01-02T00:00:00Z');
  let s = transition(initialState, { type: 'loaded', keys: [active, revoked] });
  assert.equal(transition(s, { type: 'ask-revoke', keyId: revoked.id }), s);
  s = transition(s, { type: 'ask-revoke', keyId: active.id });
  assert.deepEqual(s.mode, { kind: 'confirming-revoke', keyId: active.id, nickname: 'key 1' });
  assert.equal(transition(s, { type: 'cancel' }).mode.kind, 'browsing');
  s = transition(s, { type: 'confirm-revoke' });
  assert.deepEqual(s.mode, { kind: 'revoking', keyId: active.id, nickname: 'key 1' });
  s = transition(s, { type: 'revoked', keyId: active.id, at: '2026-01-03T00:00:00Z' });
  assert.equal(s.list.kind === 'ready' && s.list.keys.every((k) => k.status === 'REVOKED'), true);
  assert.deepEqual(s.notice, { kind: 'revoked', nickname: 'key 1' });
  assert.equal(hasActiveKey(s), false);
});

test('a create or a revoke done while the list loads again (or failed to) leaves the list as it is, and names the key', () => {
  const active = key(1, 'ACTIVE', '2026-01-01T00:00:00Z');
  const made = { ...key(2, 'ACTIVE', '2026-01-02T00:00:00Z'), nickname: 'Mine' };
  const ready = transition(initialState, { type: 'loaded', keys: [active] });
  let s = transition(transition(ready, { type: 'ask-revoke', keyId: active.id }), { type: 'confirm-revoke' });
  for (const list of [{ kind: 'loading' }, { kind: 'failed', code: 'network' }] as const) {
    const revoked = transition({ ...s, list }, { type: 'revoked', keyId: active.id, at: '2026-01-03T00:00:00Z' });
    assert.deepEqual(revoked, { list, mode: { kind: 'browsing' }, notice: { kind: 'revoked', nickname: 'key 1' } });
  }
  s = transition(transition(transition(initialState, { type: 'loaded', keys: [] }), { type: 'open-form' }), { type: 'submit', verdict: validateKeyForm({ nickname: 'Mine', limits: [] }, target) });
  for (const list of [{ kind: 'loading' }, { kind: 'failed', code: 'network' }] as const) {
    assert.deepEqual(transition({ ...s, list }, { type: 'created', key: made }), { list, mode: { kind: 'browsing' }, notice: { kind: 'created', nickname: 'Mine' } });
  }
});

test('a failed revoke returns to browsing with the failure for the alert', () => {
  let s = transition(initialState, { type: 'loaded', keys: [key(1, 'ACTIVE', '2026-01-01T00:00:00Z')] });
  s = transition(transition(s, { type: 'ask-revoke', keyId: key(1, 'ACTIVE', '').id }), { type: 'confirm-revoke' });
  s = transition(s, { type: 'revoke-failed', code: errorCodeOf(new ServiceError({ status: 400, code: 'INVALID_INPUT', message: 'x' }), 'revoke') });
  assert.deepEqual({ mode: s.mode, failure: s.failure }, { mode: { kind: 'browsing' }, failure: 'not_active' });
});

test('settledMeanwhile: a new ACTIVE key with the nickname sent is the create', () => {
  const old = key(1, 'REVOKED', '2026-01-01T00:00:00Z');
  const made = { ...key(2, 'ACTIVE', '2026-01-02T00:00:00Z'), nickname: 'Mine' };
  const create = { nickname: 'Mine', before: [old.id] };
  assert.deepEqual(settledMeanwhile(create, [old, made]), made);
  // Another nickname, or a key listed before the create, is not this create.
  assert.equal(settledMeanwhile({ ...create, nickname: 'Other' }, [old, made]), undefined);
  assert.equal(settledMeanwhile({ ...create, before: [old.id, made.id] }, [old, made]), undefined);
  assert.equal(settledMeanwhile(create, [old, { ...made, status: 'REVOKED' }]), undefined);
  // Limits must be those sent, as a set: another tab's key of the same nickname with its own is not this create.
  const usd = { currencyCode: 'USD', maxPerTransaction: 100 };
  const eur = { currencyCode: 'EUR', maxPerTransaction: 50 };
  const limited = { ...made, spendingLimits: [usd, eur] };
  assert.deepEqual(settledMeanwhile({ ...create, spendingLimits: [eur, usd] }, [old, limited]), limited);
  assert.equal(settledMeanwhile(create, [old, limited]), undefined);
  assert.equal(settledMeanwhile({ ...create, spendingLimits: [usd] }, [old, limited]), undefined);
  assert.equal(settledMeanwhile({ ...create, spendingLimits: [usd, { ...eur, maxPerTransaction: 51 }] }, [old, limited]), undefined);
  assert.equal(settledMeanwhile({ ...create, spendingLimits: [usd] }, [old, made]), undefined);
  // Only failures after which the service may have acted lead to a recheck.
  assert.deepEqual(
    ['conflict', 'network', 'server', 'not_active', 'invalid', 'session_required', 'rate_limited', 'forbidden', 'retry_exhausted'].filter((c) => worthRecheck(c as never)),
    ['conflict', 'network', 'server', 'not_active'],
  );
});

test('rechecked: the list read before a failure is said replaces the list; the change under way stays', () => {
  const made = { ...key(2, 'ACTIVE', '2026-01-02T00:00:00Z'), nickname: 'Mine' };
  let s = transition(transition(initialState, { type: 'loaded', keys: [] }), { type: 'open-form' });
  s = transition(s, { type: 'submit', verdict: validateKeyForm({ nickname: 'Mine', limits: [] }, target) });
  // A 409 for a key made elsewhere: the list shows that key, the create is still submitting until its failure is said.
  const kept = transition(s, { type: 'rechecked', keys: [made] });
  assert.deepEqual(kept, { list: { kind: 'ready', keys: [made] }, mode: { kind: 'submitting' } });
  assert.deepEqual(transition(kept, { type: 'create-failed', code: 'conflict' }).mode, { kind: 'editing', errors: [], failure: 'conflict' });
  // A revoke the list shows not done: the key, read again, is listed while the revoke's failure is yet to be said.
  let r = transition(initialState, { type: 'loaded', keys: [made] });
  r = transition(transition(r, { type: 'ask-revoke', keyId: made.id }), { type: 'confirm-revoke' });
  const fresh = { ...made, updatedAt: '2026-01-03T00:00:00Z' };
  assert.deepEqual(transition(r, { type: 'rechecked', keys: [fresh] }), { list: { kind: 'ready', keys: [fresh] }, mode: r.mode });
});

test('errorCodeOf: statuses and client failures', () => {
  const se = (status: number) => new ServiceError({ status, code: 'X', message: 'x' });
  assert.equal(errorCodeOf(se(409), 'create'), 'conflict');
  assert.equal(errorCodeOf(se(404), 'create'), 'not_found');
  assert.equal(errorCodeOf(se(400), 'create'), 'invalid');
  assert.equal(errorCodeOf(se(400), 'revoke'), 'not_active');
  // A create's signature refused (api.md "Errors": WALLET_SIGNATURE_*, INVALID_SIGNATURE); its API credentials refused.
  assert.equal(errorCodeOf(new ServiceError({ status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'x' }), 'create'), 'session_required');
  assert.equal(errorCodeOf(new ServiceError({ status: 401, code: 'INVALID_SIGNATURE', message: 'x' }), 'create'), 'session_required');
  assert.equal(errorCodeOf(new ServiceError({ status: 401, code: 'UNAUTHORIZED', message: 'x' }), 'create'), 'unauthorized');
  // A list or a revoke carries no wallet signature: its 401 is the page's credentials, not the wallet's.
  assert.equal(errorCodeOf(se(401), 'load'), 'unauthorized');
  assert.equal(errorCodeOf(se(401), 'revoke'), 'unauthorized');
  assert.equal(errorCodeOf(se(503), 'load'), 'server');
  assert.equal(errorCodeOf(new WalletError('session_expired', 'x'), 'create'), 'session_required');
  assert.equal(errorCodeOf(new WalletError('key_missing', 'x'), 'create'), 'session_required');
  assert.equal(errorCodeOf(new WalletError('retry_exhausted', 'x'), 'create'), 'retry_exhausted');
  assert.equal(errorCodeOf(new WalletError('network', 'x'), 'load'), 'network');
  assert.equal(errorCodeOf(new WalletError('misconfigured', 'x'), 'load'), 'misconfigured');
  assert.equal(errorCodeOf(new WalletError('misconfigured', 'x'), 'create'), 'misconfigured');
});

test('formatMinor places digits exactly and leaves unknown currencies as smallest units', () => {
  assert.equal(formatMinor(5000, 'USD', 'en'), '$50.00');
  assert.equal(formatMinor(5000, 'JPY', 'en'), '¥5,000');
  assert.equal(formatMinor(1, 'BHD', 'en').replace(/\s/g, ' '), 'BHD 0.001');
  assert.equal(formatMinor(9007199254740991, 'USD', 'en'), '$90,071,992,547,409.91');
  assert.equal(formatMinor(5000, 'USDC', 'en'), '5,000 USDC');
  // Right to left (Arabic): a Latin symbol is isolated left to right, so "US$" never shows as "$US";
  // the whole amount right to left (RLI ... PDI), so that the sentence around it moves neither its
  // digits nor its unit; a symbol without Latin letters and every left-to-right locale stay as Intl writes them.
  const ar = formatMinor(147665, 'USD', 'ar');
  assert.match(ar, /^\u2067[^\u2069]*\u2066US\$\u2069\u2069$/);
  assert.equal(ar.replace(/[\u2066-\u2069]/g, ''), new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(1476.65));
  assert.equal(formatMinor(100, 'EUR', 'ar'), `\u2067${new Intl.NumberFormat('ar', { style: 'currency', currency: 'EUR' }).format(1)}\u2069`);
  assert.equal(formatMinor(1250, 'BTC', 'ar', 8), `\u2067${new Intl.NumberFormat('ar', { minimumFractionDigits: 8 }).format(0.0000125)} BTC\u2069`);
  assert.ok(!/[\u2066-\u2069]/.test(formatMinor(100, 'MXN', 'en')));
  assert.equal(formatMinor(123456789, 'USDC', 'en', 6), '123.456789 USDC');
});

test('formatMinor keeps an amount beyond 2^53 in its currency, never its smallest units read as whole ones', () => {
  // 2^60 cents is about 11.5 quadrillion dollars, not 1.15 quintillion: the digits are placed, not the unit dropped.
  assert.equal(formatMinor(2 ** 60, 'USD', 'en'), '$11,529,215,046,068,469.76');
  assert.equal(formatMinor(-(2 ** 60), 'JPY', 'en'), '-¥1,152,921,504,606,846,976');
  assert.equal(formatMinor(2 ** 60, 'USDC', 'en', 6), '1,152,921,504,606.846976 USDC');
});

test('edited: an error shown goes once its field is right; no error appears before a submit', () => {
  let s: DelegatedKeysState = transition(initialState, { type: 'loaded', keys: [] });
  s = transition(s, { type: 'open-form' });
  // Nothing shown yet: typing changes nothing, even into an invalid form.
  assert.equal(transition(s, { type: 'edited', verdict: validateKeyForm({ nickname: '', limits: [] }, target) }), s);
  const form = { nickname: '', limits: [{ currencyCode: 'usd', maxPerTransaction: '0' }] };
  s = transition(s, { type: 'submit', verdict: validateKeyForm(form, target) });
  assert.deepEqual(s.mode.kind === 'editing' && s.mode.errors.map((e) => e.field), ['nickname', 'limits.0.maxPerTransaction']);
  // The amount fixed: its error goes, the nickname's stays; the same verdict again is the same state.
  const fixed = validateKeyForm({ ...form, limits: [{ currencyCode: 'usd', maxPerTransaction: '5' }] }, target);
  s = transition(s, { type: 'edited', verdict: fixed });
  assert.deepEqual(s.mode.kind === 'editing' && s.mode.errors.map((e) => e.field), ['nickname']);
  assert.equal(transition(s, { type: 'edited', verdict: fixed }), s);
  // A new mistake elsewhere while typing adds nothing; the nickname filled clears the last error.
  s = transition(s, { type: 'edited', verdict: validateKeyForm({ nickname: '', limits: [{ currencyCode: 'us', maxPerTransaction: '5' }] }, target) });
  assert.deepEqual(s.mode.kind === 'editing' && s.mode.errors.map((e) => e.field), ['nickname']);
  s = transition(s, { type: 'edited', verdict: validateKeyForm({ nickname: 'n', limits: [{ currencyCode: 'usd', maxPerTransaction: '5' }] }, target) });
  assert.deepEqual(s.mode, { kind: 'editing', errors: [] });
});

test('edited with a limit row removed: that row\'s errors go, those of the rows after it move up with them', () => {
  let s: DelegatedKeysState = transition(transition(initialState, { type: 'loaded', keys: [] }), { type: 'open-form' });
  const rows = [{ currencyCode: 'USD', maxPerTransaction: 'x' }, { currencyCode: 'EUR', maxPerTransaction: '1' }, { currencyCode: 'GBP', maxPerTransaction: '' }];
  s = transition(s, { type: 'submit', verdict: validateKeyForm({ nickname: '', limits: rows }, target) });
  s = transition(s, { type: 'edited', verdict: validateKeyForm({ nickname: '', limits: rows.slice(1) }, target), removed: 0 });
  assert.deepEqual(s.mode.kind === 'editing' && s.mode.errors, [
    { field: 'nickname', problem: 'required' },
    { field: 'limits.1.maxPerTransaction', problem: 'required' },
  ]);
});

test('errorCodeOf on a create refused by the real sandbox: its API credentials refused (401 UNAUTHORIZED) are not a wallet login to ask for; a refused signature is', async () => {
  const { withSandbox } = await import('../sandbox/helpers.ts');
  const { createClient } = await import('../../../src/core/client.ts');
  const { keyStamper } = await import('../../../src/core/stamp.ts');
  const { generateSigningKey } = await import('../../../src/core/p256.ts');
  const api = await withSandbox();
  try {
    const acct = await api.newAccount();
    const { key } = await api.otpLogin(acct.emailCredentialId);
    const body = { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'groceries' };
    const refusal = (client: ReturnType<typeof createClient>, stamper = keyStamper(key)) =>
      client.createDelegatedKey(body, { stamper }).then(() => assert.fail('created'), (e: unknown) => e);
    const basic = (id: string, secret: string) => ({ Authorization: 'Basic ' + Buffer.from(`${id}:${secret}`).toString('base64') });

    // The page's (the proxy's) credentials with the service are wrong: the wallet session is fine.
    const badCredentials = await refusal(createClient({ baseUrl: api.fx.baseUrl, headers: basic(api.fx.tokenId, 'not-the-secret') }));
    assert.ok(badCredentials instanceof ServiceError && badCredentials.status === 401 && badCredentials.code === 'UNAUTHORIZED');
    assert.equal(errorCodeOf(badCredentials, 'create'), 'unauthorized');

    // Signed by a key that is no session of the account: the wallet's confirmation was refused.
    const good = createClient({ baseUrl: api.fx.baseUrl, headers: basic(api.fx.tokenId, api.fx.clientSecret) });
    const stranger = await refusal(good, keyStamper(await generateSigningKey()));
    assert.ok(stranger instanceof ServiceError && stranger.status === 401 && stranger.code === 'WALLET_SIGNATURE_INVALID');
    assert.equal(errorCodeOf(stranger, 'create'), 'session_required');
  } finally {
    await api.sandbox.close();
  }
});
