// The shared signed-retry engine (api.md "Signed-retry pattern (shared)", "Errors" 401 codes;
// DESIGN.md wire formats 1 and 7): each refusal in its order, single use, expiry, byte-exact
// payloads and body binding, checked through a real operation (wallet privacy).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { base64urlEncode, utf8Encode } from '../../../src/core/encoding.ts';
import { generateSigningKey } from '../../../src/core/p256.ts';
import { createStamp, WALLET_SIGNATURE_HEADER } from '../../../src/core/stamp.ts';
import { REQUEST_ID_HEADER } from '../../../src/core/signed-retry.ts';
import { Api, assertError, compressedHex, withSandbox } from './helpers.ts';

let now = Date.parse('2030-01-01T00:00:00Z');
let api: Api;
let acct: Awaited<ReturnType<Api['newAccount']>>;
let key: Awaited<ReturnType<Api['otpLogin']>>['key'];
let path: string;
const body = { privateEnabled: true };

before(async () => {
  api = await withSandbox({ now: () => now, signedRetryWindowMs: 60_000 });
  acct = await api.newAccount();
  ({ key } = await api.otpLogin(acct.emailCredentialId));
  path = `/internal-accounts/${acct.accountId}`;
});
after(() => api.sandbox.close());

describe('signed retry', () => {
  test('first call: 202 with requestId Request:<uuid>, expiresAt at the window, and no change yet', async () => {
    const ch = await api.challenge('PATCH', path, body);
    assert.equal(Date.parse(ch.expiresAt) - now, 60_000);
    const account = await api.call('GET', path);
    assert.equal(account.body.privateEnabled, false);
  });

  test('signature without Request-Id: 401 REQUEST_ID_MISSING', async () => {
    const ch = await api.challenge('PATCH', path, body);
    const r = await api.call('PATCH', path, { body, headers: { [WALLET_SIGNATURE_HEADER]: await createStamp(ch.payloadToSign, key) } });
    assertError(r, 401, 'REQUEST_ID_MISSING');
  });

  test('Request-Id without signature: 401 WALLET_SIGNATURE_MISSING', async () => {
    const ch = await api.challenge('PATCH', path, body);
    assertError(await api.call('PATCH', path, { body, headers: { [REQUEST_ID_HEADER]: ch.requestId } }), 401, 'WALLET_SIGNATURE_MISSING');
  });

  test('unknown request id: 401 UNAUTHORIZED (REQUEST_ID_UNKNOWN)', async () => {
    const ch = await api.challenge('PATCH', path, body);
    const r = await api.retry('PATCH', path, body, { ...ch, requestId: 'Request:00000000-0000-4000-8000-000000000000' }, key);
    assertError(r, 401, 'UNAUTHORIZED');
    assert.equal(r.body.details.reason, 'REQUEST_ID_UNKNOWN');
  });

  test('a request id of another operation is unknown here', async () => {
    const other = await api.challenge('POST', `/internal-accounts/${acct.accountId}/export`, { clientPublicKey: bytesOf(await generateSigningKey()) });
    const r = await api.retry('PATCH', path, body, other, key);
    assertError(r, 401, 'UNAUTHORIZED');
    assert.equal(r.body.details.reason, 'REQUEST_ID_UNKNOWN');
  });

  test('a request id is single use: a replay of a successful retry is 401 (REQUEST_ID_CONSUMED)', async () => {
    const ch = await api.challenge('PATCH', path, body);
    const ok = await api.retry('PATCH', path, body, ch, key);
    assert.equal(ok.status, 200, ok.text);
    const replay = await api.retry('PATCH', path, body, ch, key);
    assertError(replay, 401, 'UNAUTHORIZED');
    assert.equal(replay.body.details.reason, 'REQUEST_ID_CONSUMED');
  });

  test('past expiresAt: 401 (REQUEST_ID_EXPIRED)', async () => {
    const ch = await api.challenge('PATCH', path, body);
    now += 60_000;
    const r = await api.retry('PATCH', path, body, ch, key);
    assertError(r, 401, 'UNAUTHORIZED');
    assert.equal(r.body.details.reason, 'REQUEST_ID_EXPIRED');
  });

  test('just before expiresAt it still works', async () => {
    const ch = await api.challenge('PATCH', path, body);
    now += 59_999;
    assert.equal((await api.retry('PATCH', path, body, ch, key)).status, 200);
  });

  test('unparseable stamps: 401 WALLET_SIGNATURE_MALFORMED', async () => {
    const stamps = [
      'not base64url!',
      base64urlEncode(utf8Encode('[]')),
      base64urlEncode(utf8Encode(JSON.stringify({ publicKey: compressedHex(key), scheme: 'OTHER', signature: '3006020101020101' }))),
      base64urlEncode(utf8Encode(JSON.stringify({ publicKey: '02' + 'ff'.repeat(32), scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '3006020101020101' }))),
      base64urlEncode(utf8Encode(JSON.stringify({ publicKey: compressedHex(key), scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: 'zz' }))),
    ];
    for (const stamp of stamps) {
      const ch = await api.challenge('PATCH', path, body);
      const r = await api.call('PATCH', path, { body, headers: { [WALLET_SIGNATURE_HEADER]: stamp, [REQUEST_ID_HEADER]: ch.requestId } });
      assertError(r, 401, 'WALLET_SIGNATURE_MALFORMED');
    }
  });

  test('a valid stamp sent with base64 padding: 401 WALLET_SIGNATURE_MALFORMED (DESIGN.md: base64url without padding)', async () => {
    // The stamp's length varies with its DER signature (70 to 72 bytes): sign until one needs padding.
    for (let signed = 0; ; signed++) {
      assert.ok(signed < 64, 'no stamp needing padding in 64 signatures');
      const ch = await api.challenge('PATCH', path, body);
      const stamp = await createStamp(ch.payloadToSign, key);
      if (stamp.length % 4 === 0) {
        // Consume the challenge with the stamp as made (it still signs), then try another.
        assert.equal((await api.call('PATCH', path, { body, headers: { [WALLET_SIGNATURE_HEADER]: stamp, [REQUEST_ID_HEADER]: ch.requestId } })).status, 200);
        continue;
      }
      const padded = stamp + '='.repeat(4 - (stamp.length % 4));
      const r = await api.call('PATCH', path, { body, headers: { [WALLET_SIGNATURE_HEADER]: padded, [REQUEST_ID_HEADER]: ch.requestId } });
      assertError(r, 401, 'WALLET_SIGNATURE_MALFORMED');
      break;
    }
  });

  test('different body bytes on the retry: 401 WALLET_SIGNATURE_BODY_MISMATCH (even when equal as JSON)', async () => {
    const ch = await api.challenge('PATCH', path, body);
    const r = await api.retry('PATCH', path, { privateEnabled: false }, ch, key);
    assertError(r, 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
    const ch2 = await api.challenge('PATCH', path, body);
    const r2 = await api.retry('PATCH', path, '{ "privateEnabled": true }', ch2, key);
    assertError(r2, 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
  });

  test('a stamp over a re-serialized payload fails: payloads are signed byte for byte', async () => {
    const ch = await api.challenge('PATCH', path, body);
    const reserialized = JSON.stringify(JSON.parse(ch.payloadToSign));
    assert.notEqual(reserialized, ch.payloadToSign, 'the payload is not in canonical JSON form');
    const r = await api.call('PATCH', path, { body, headers: { [WALLET_SIGNATURE_HEADER]: await createStamp(reserialized, key), [REQUEST_ID_HEADER]: ch.requestId } });
    assertError(r, 401, 'WALLET_SIGNATURE_INVALID');
  });

  test('a key that is no session, or a session of another account: 401 WALLET_SIGNATURE_INVALID', async () => {
    const stranger = await generateSigningKey();
    let ch = await api.challenge('PATCH', path, body);
    assertError(await api.retry('PATCH', path, body, ch, stranger), 401, 'WALLET_SIGNATURE_INVALID');
    const other = await api.otpLogin((await api.newAccount()).emailCredentialId);
    ch = await api.challenge('PATCH', path, body);
    assertError(await api.retry('PATCH', path, body, ch, other.key), 401, 'WALLET_SIGNATURE_INVALID');
  });

  test('a failed attempt consumes the request id', async () => {
    const ch = await api.challenge('PATCH', path, body);
    assertError(await api.retry('PATCH', path, body, ch, await generateSigningKey()), 401, 'WALLET_SIGNATURE_INVALID');
    const r = await api.retry('PATCH', path, body, ch, key);
    assertError(r, 401, 'UNAUTHORIZED');
    assert.equal(r.body.details.reason, 'REQUEST_ID_CONSUMED');
  });

  test('concurrent retries with one request id: exactly one succeeds', async () => {
    const ch = await api.challenge('PATCH', path, body);
    const results = await Promise.all(Array.from({ length: 5 }, () => api.retry('PATCH', path, body, ch, key)));
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.equal(results.filter((r) => r.status === 401).length, 4);
  });

  test('a session key stops signing when the session expires', async () => {
    const fresh = await api.otpLogin(acct.emailCredentialId).catch(async () => {
      now += 30_000;
      return api.otpLogin(acct.emailCredentialId);
    });
    now += 15 * 60_000;
    const ch = await api.challenge('PATCH', path, body);
    assertError(await api.retry('PATCH', path, body, ch, fresh.key), 401, 'WALLET_SIGNATURE_INVALID');
  });
});

function bytesOf(k: { publicKey: Uint8Array }): string {
  return Buffer.from(k.publicKey).toString('hex');
}
