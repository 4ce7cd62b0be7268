// EMAIL_OTP and SMS_OTP credentials of the sandbox (api.md "Verify by credential type" 1;
// reference.md "Credentials", "Sandbox behaviour"), over real HTTP with the core crypto.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { base64urlDecode, utf8Decode } from '../../../src/core/encoding.ts';
import { generateSigningKey } from '../../../src/core/p256.ts';
import { encryptOtpBundle, parseSignedEnvelope, verifyTargetBundle } from '../../../src/core/bundles.ts';
import { SANDBOX_SIGNER_PUBLIC_KEY } from '../../../src/core/bundles.ts';
import { SANDBOX_SIGNER_PUBLIC_KEY as SIGNER_FROM_SANDBOX, SANDBOX_SIGNER_SCALAR_HEX } from '../../../src/sandbox/signer.ts';
import { publicKeyFromScalar } from '../../../src/core/p256.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveOptions } from '../../../src/sandbox/index.ts';
import { parseCliOptions } from '../../../src/sandbox/cli-options.ts';
import { Api, assertAuthMethod, assertAuthSession, assertError, assertFieldError, compressedHex, bytesToHex, hexToBytes, withSandbox } from './helpers.ts';

let now = Date.parse('2030-01-01T00:00:00Z');
let api: Api;

before(async () => {
  api = await withSandbox({ now: () => now });
});
after(() => api.sandbox.close());

describe('sandbox signer', () => {
  test('the published scalar, its public key and the core constant agree', () => {
    assert.equal(bytesToHex(publicKeyFromScalar(hexToBytes(SANDBOX_SIGNER_SCALAR_HEX))), SIGNER_FROM_SANDBOX);
    assert.equal(SIGNER_FROM_SANDBOX, SANDBOX_SIGNER_PUBLIC_KEY);
    assert.equal(api.fx.signerPublicKey, SANDBOX_SIGNER_PUBLIC_KEY);
  });
});

describe('EMAIL_OTP', () => {
  test('challenge returns a target bundle signed by the sandbox signer with a fresh key each time', async () => {
    const { emailCredentialId } = await api.newAccount();
    const r = await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    assert.equal(r.status, 200, r.text);
    assertAuthMethod(r.body);
    assert.equal(r.body.id, emailCredentialId);
    const t1 = await verifyTargetBundle(r.body.otpEncryptionTargetBundle, api.fx.signerPublicKey);
    assert.equal(t1.length, 65);
    // A production-pinned client refuses it: the bundle is really signed, not decorative.
    await assert.rejects(verifyTargetBundle(r.body.otpEncryptionTargetBundle, '04' + 'ab'.repeat(64)));
    now += 31_000;
    const r2 = await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`, { body: {} });
    const t2 = await verifyTargetBundle(r2.body.otpEncryptionTargetBundle, api.fx.signerPublicKey);
    assert.notEqual(bytesToHex(t1), bytesToHex(t2));
    const env = parseSignedEnvelope(r2.body.otpEncryptionTargetBundle);
    assert.equal(env.version, 'v1.0.0');
  });

  test('full login: verify 202 with a JWT-shaped payload, retry stamped by the bundle key, 200 session with that key', async () => {
    const { emailCredentialId, accountId } = await api.newAccount();
    const ch = await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    const targetPublic = await verifyTargetBundle(ch.body.otpEncryptionTargetBundle, api.fx.signerPublicKey);
    const key = await generateSigningKey();
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtpBundle({ otpCode: '000000', targetPublic, clientPublicKey: key.publicKey }) };
    const first = await api.challenge('POST', `/auth/credentials/${emailCredentialId}/verify`, body);
    assert.equal(first.type, 'EMAIL_OTP');
    const parts = first.payloadToSign.split('.');
    assert.equal(parts.length, 3, 'a verification token is a JWT');
    const claims = JSON.parse(utf8Decode(base64urlDecode(parts[1]!)));
    assert.equal(claims.public_key, compressedHex(key));

    // Another key (even a live session of the account) may not complete this login.
    const other = await api.otpLogin((await api.newAccount()).emailCredentialId);
    const wrong = await api.retry('POST', `/auth/credentials/${emailCredentialId}/verify`, body, first, other.key);
    assertError(wrong, 401, 'WALLET_SIGNATURE_INVALID');

    // The id was consumed by the failed attempt: start over.
    const again = await api.challenge('POST', `/auth/credentials/${emailCredentialId}/verify`, body);
    const ok = await api.retry('POST', `/auth/credentials/${emailCredentialId}/verify`, body, again, key);
    assert.equal(ok.status, 200, ok.text);
    assertAuthSession(ok.body);
    assert.equal(ok.body.accountId, accountId);
    assert.equal(ok.body.type, 'EMAIL_OTP');
    assert.equal(Date.parse(ok.body.expiresAt) - now, 15 * 60_000);

    // The session key is the bundle's key: it signs a wallet operation.
    const privacy = await api.signed('PATCH', `/internal-accounts/${accountId}`, { privateEnabled: true }, key);
    assert.equal(privacy.status, 200, privacy.text);
    assert.equal(privacy.body.privateEnabled, true);

    // The code was used up with the login: the same bundle no longer opens a session.
    const replay = await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body });
    assertError(replay, 401, 'UNAUTHORIZED');
  });

  test('a wrong code is 401 and five wrong codes close the challenge', async () => {
    const { emailCredentialId } = await api.newAccount();
    const ch = await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    const targetPublic = await verifyTargetBundle(ch.body.otpEncryptionTargetBundle, api.fx.signerPublicKey);
    const key = await generateSigningKey();
    for (let i = 0; i < 5; i++) {
      const bad = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtpBundle({ otpCode: `12345${i}`, targetPublic, clientPublicKey: key.publicKey }) };
      assertError(await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body: bad }), 401, 'UNAUTHORIZED');
    }
    const good = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtpBundle({ otpCode: '000000', targetPublic, clientPublicKey: key.publicKey }) };
    const r = await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body: good });
    assertError(r, 401, 'UNAUTHORIZED');
    assert.equal(r.body.details.reason, 'OTP_CHALLENGE_MISSING');
  });

  test('one code makes one session: of two verifications of it retried at once, one is 401', async () => {
    const { accountId, emailCredentialId } = await api.newAccount();
    const ch = await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    const targetPublic = await verifyTargetBundle(ch.body.otpEncryptionTargetBundle, api.fx.signerPublicKey);
    const path = `/auth/credentials/${emailCredentialId}/verify`;
    const keys = [await generateSigningKey(), await generateSigningKey()];
    const bodies = await Promise.all(
      keys.map(async (key) => ({ type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtpBundle({ otpCode: '000000', targetPublic, clientPublicKey: key.publicKey }) })),
    );
    const firsts = [await api.challenge('POST', path, bodies[0]), await api.challenge('POST', path, bodies[1])];
    const retries = await Promise.all(keys.map((key, i) => api.retry('POST', path, bodies[i], firsts[i]!, key)));
    assert.deepEqual(retries.map((r) => r.status).sort(), [200, 401], retries.map((r) => r.text).join('\n'));
    assertError(retries.find((r) => r.status === 401)!, 401, 'UNAUTHORIZED');
    assert.equal((await api.call('GET', `/auth/sessions?accountId=${accountId}`)).body.data.length, 1);
  });

  test('a bundle for an older challenge is refused after a new challenge', async () => {
    const { emailCredentialId } = await api.newAccount();
    const ch1 = await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    now += 30_000;
    await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    const targetPublic = await verifyTargetBundle(ch1.body.otpEncryptionTargetBundle, api.fx.signerPublicKey);
    const key = await generateSigningKey();
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtpBundle({ otpCode: '000000', targetPublic, clientPublicKey: key.publicKey }) };
    assertError(await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body }), 401, 'UNAUTHORIZED');
  });

  test('the OTP challenge expires', async () => {
    const { emailCredentialId } = await api.newAccount();
    const ch = await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    now += 5 * 60_000;
    const targetPublic = await verifyTargetBundle(ch.body.otpEncryptionTargetBundle, api.fx.signerPublicKey);
    const key = await generateSigningKey();
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtpBundle({ otpCode: '000000', targetPublic, clientPublicKey: key.publicKey }) };
    assertError(await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body }), 401, 'UNAUTHORIZED');
  });

  test('/challenge is rate limited per credential with Retry-After in seconds', async () => {
    const a = await api.newAccount();
    const b = await api.newAccount();
    assert.equal((await api.call('POST', `/auth/credentials/${a.emailCredentialId}/challenge`)).status, 200);
    now += 10_000;
    const limited = await api.call('POST', `/auth/credentials/${a.emailCredentialId}/challenge`);
    assertError(limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers.get('retry-after'), '20');
    // Another credential is not affected.
    assert.equal((await api.call('POST', `/auth/credentials/${b.emailCredentialId}/challenge`)).status, 200);
    now += 19_999;
    assertError(await api.call('POST', `/auth/credentials/${a.emailCredentialId}/challenge`), 429, 'RATE_LIMITED');
    now += 1;
    assert.equal((await api.call('POST', `/auth/credentials/${a.emailCredentialId}/challenge`)).status, 200);
  });

  test('the README states these limits of the sandbox, with the defaults it enforces and the options that change them', async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8').replace(/\s+/g, ' ');
    const { otpResendIntervalMs, otpLifetimeMs } = resolveOptions();
    const { emailCredentialId } = await api.newAccount();
    assert.equal((await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`)).status, 200);
    const limited = await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    assertError(limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers.get('retry-after'), String(otpResendIntervalMs / 1000));
    for (const phrase of [
      `at most every ${otpResendIntervalMs / 1000} s`,
      '`429 RATE_LIMITED` with `Retry-After`',
      `accepted for ${otpLifetimeMs / 60_000} minutes`,
      '`startSandbox({ otpResendIntervalMs: 1 })`',
      '`--otp-resend-interval-ms 1`',
      '`SANDBOX_OTP_RESEND_INTERVAL_MS=1`',
      '`otpLifetimeMs`',
    ]) {
      assert.ok(readme.includes(phrase), `README: ${phrase}`);
    }
    // The names the README gives are the command line's.
    assert.deepEqual(parseCliOptions(['--otp-resend-interval-ms', '1'], {}), parseCliOptions([], { SANDBOX_OTP_RESEND_INTERVAL_MS: '1' }));
    assert.equal((parseCliOptions(['--otp-resend-interval-ms', '1'], {}) as { otpResendIntervalMs?: number }).otpResendIntervalMs, 1);
  });

  test('malformed verify bodies are 400, a type mismatch is 400, unknown credentials 404', async () => {
    const { emailCredentialId } = await api.newAccount();
    await api.call('POST', `/auth/credentials/${emailCredentialId}/challenge`);
    assertFieldError(await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body: { type: 'EMAIL_OTP' } }), 'encryptedOtpBundle');
    assertFieldError(await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body: { type: 'EMAIL_OTP', encryptedOtpBundle: 'nope' } }), 'encryptedOtpBundle');
    assertFieldError(await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body: { type: 'EMAIL_OTP', encryptedOtpBundle: 42 } }), 'encryptedOtpBundle');
    assertFieldError(await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body: { type: 'SMS_OTP', encryptedOtpBundle: '{}' } }), 'type');
    assertFieldError(await api.call('POST', `/auth/credentials/${emailCredentialId}/verify`, { body: { type: 'PIGEON' } }), 'type');
    assertError(await api.call('POST', `/auth/credentials/AuthMethod:00000000-0000-4000-8000-000000000000/verify`, { body: { type: 'EMAIL_OTP', encryptedOtpBundle: '{}' } }), 404, 'NOT_FOUND');
    assertFieldError(await api.call('POST', `/auth/credentials/Session:00000000-0000-4000-8000-000000000000/challenge`), 'id');
  });
});

describe('credential create, list and per-type limits', () => {
  test('SMS_OTP is added through a signed retry (202 then 201) and then logs in', async () => {
    const acct = await api.newAccount({ phone: '+14155550123' });
    const { key } = await api.otpLogin(acct.emailCredentialId);
    const body = { type: 'SMS_OTP', accountId: acct.accountId };
    const ch = await api.challenge('POST', '/auth/credentials', body);
    assert.equal(ch.type, 'SMS_OTP');
    const created = await api.retry('POST', '/auth/credentials', body, ch, key);
    assert.equal(created.status, 201, created.text);
    assertAuthMethod(created.body);
    assert.equal(created.body.type, 'SMS_OTP');
    assert.equal(created.body.nickname, '+14155550123');
    assert.equal(typeof created.body.otpEncryptionTargetBundle, 'string');
    // The registration's target bundle can be used at once, without /challenge.
    const login = await api.otpLogin(created.body.id, { type: 'SMS_OTP', bundle: created.body.otpEncryptionTargetBundle });
    assert.equal(login.session.type, 'SMS_OTP');

    const again = await api.signed('POST', '/auth/credentials', body, key);
    assertError(again, 400, 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    const dupEmail = await api.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: acct.accountId } });
    assertError(dupEmail, 400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');

    const list = await api.call('GET', `/auth/credentials?accountId=${acct.accountId}`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((m: { type: string }) => m.type).sort(), ['EMAIL_OTP', 'SMS_OTP']);
    list.body.data.forEach(assertAuthMethod);
    for (const m of list.body.data) assert.equal(m.otpEncryptionTargetBundle, undefined);
  });

  test('the first credential of an empty account is 201 without a signature', async () => {
    const acct = await api.newAccount({ emailCredential: false });
    assert.equal(acct.emailCredentialId, undefined);
    const r = await api.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: acct.accountId } });
    assert.equal(r.status, 201, r.text);
    assertAuthMethod(r.body);
    await api.otpLogin(r.body.id, { bundle: r.body.otpEncryptionTargetBundle });
  });

  test('create validation', async () => {
    const acct = await api.newAccount();
    assertFieldError(await api.call('POST', '/auth/credentials', { body: { accountId: acct.accountId } }), 'type');
    assertFieldError(await api.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP' } }), 'accountId');
    assertFieldError(await api.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: 'acct_1' } }), 'accountId');
    assertFieldError(await api.call('POST', '/auth/credentials', { body: { type: 'OAUTH', accountId: acct.accountId } }), 'oidcToken');
    assertFieldError(await api.call('POST', '/auth/credentials', { body: { type: 'PASSKEY', accountId: acct.accountId } }), 'nickname');
    assertError(await api.call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' } }), 404);
    assertFieldError(await api.call('GET', '/auth/credentials'), 'accountId');
    assertFieldError(await api.call('GET', '/auth/credentials?accountId=nope'), 'accountId');
  });

  test('list of a well-formed account id the service does not know: 200 with no credential (reference.md: 200 or 400)', async () => {
    const r = await api.call('GET', '/auth/credentials?accountId=InternalAccount:00000000-0000-4000-8000-000000000000');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { data: [] });
  });
});
