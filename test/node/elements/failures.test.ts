// The mapping from what core throws to the closed list of failure codes the elements show
// (STYLE.md 6): service errors by status and code (api.md "Errors", reference.md "Shared shapes"),
// client errors by WalletError code, WebAuthn DOMException names (WebAuthn L3 §5.1.3/5.1.4) along
// the `cause` chain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import { classifyError, failureKey, isCancellation } from '../../../src/elements/shared/failures.ts';
import { LoadFailed } from '../../../src/elements/shared/load.ts';
import { errorCodeOf } from '../../../src/elements/delegated-keys/delegated-keys.machine.ts';

const service = (status: number, code: string, retryAfter?: number) =>
  new ServiceError({ status, code, message: 'm' }, retryAfter === undefined ? {} : { retryAfter });

test('429 keeps Retry-After', () => {
  assert.deepEqual(classifyError(service(429, 'RATE_LIMITED', 17)), { code: 'rate_limited', status: 429, retryAfter: 17 });
  assert.deepEqual(classifyError(service(429, 'RATE_LIMITED')), { code: 'rate_limited', status: 429 });
});

test('401: wallet-signature codes are signature failures; a plain 401 means what the step says', () => {
  for (const code of ['WALLET_SIGNATURE_INVALID', 'WALLET_SIGNATURE_MISSING', 'INVALID_SIGNATURE', 'REQUEST_ID_MISSING']) {
    assert.equal(classifyError(service(401, code), { unauthorized: 'wrong_code' }).code, 'signature_rejected', code);
  }
  assert.equal(classifyError(service(401, 'UNAUTHORIZED'), { unauthorized: 'wrong_code' }).code, 'wrong_code');
  // A code no challenge can take any more (expired, used, too many tries) needs a new one, not another look.
  for (const reason of ['OTP_CHALLENGE_MISSING', 'OTP_BUNDLE']) {
    const e = new ServiceError({ status: 401, code: 'UNAUTHORIZED', message: 'm', details: { reason } });
    assert.deepEqual(classifyError(e, { unauthorized: 'wrong_code' }), { code: 'code_expired', status: 401 }, reason);
    assert.equal(classifyError(e, { unauthorized: 'passkey_rejected' }).code, 'passkey_rejected', reason);
  }
  const wrongCode = new ServiceError({ status: 401, code: 'UNAUTHORIZED', message: 'm', details: { reason: 'OTP_CODE' } });
  assert.equal(classifyError(wrongCode, { unauthorized: 'wrong_code' }).code, 'wrong_code');
  // Without a meaning of the step's own, a plain UNAUTHORIZED is the API credentials (api.md "Errors").
  assert.equal(classifyError(service(401, 'UNAUTHORIZED')).code, 'misconfigured');
  const unknownId = new ServiceError({ status: 401, code: 'UNAUTHORIZED', message: 'm', details: { reason: 'REQUEST_ID_UNKNOWN' } });
  assert.equal(classifyError(unknownId).code, 'signature_rejected');
});

test('400s: already-existing credentials by code, the last credential by context', () => {
  assert.equal(classifyError(service(400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS')).code, 'passkey_exists');
  assert.equal(classifyError(service(400, 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS')).code, 'credential_exists');
  assert.equal(classifyError(service(400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS')).code, 'credential_exists');
  assert.equal(classifyError(service(400, 'OAUTH_CREDENTIAL_ALREADY_EXISTS')).code, 'credential_exists');
  assert.equal(classifyError(service(400, 'INVALID_INPUT')).code, 'invalid_input');
  assert.equal(classifyError(service(400, 'BAD_REQUEST'), { badRequest: 'last_credential' }).code, 'last_credential');
});

test('other statuses', () => {
  assert.equal(classifyError(service(403, 'FORBIDDEN')).code, 'forbidden');
  assert.equal(classifyError(service(404, 'NOT_FOUND')).code, 'no_credential');
  assert.equal(classifyError(service(502, 'BAD_GATEWAY')).code, 'network');
  assert.equal(classifyError(service(500, 'INTERNAL_ERROR')).code, 'unexpected');
});

test('client errors by code', () => {
  assert.equal(classifyError(new WalletError('key_missing', 'm')).code, 'key_missing');
  assert.equal(classifyError(new WalletError('session_expired', 'm')).code, 'session_expired');
  assert.equal(classifyError(new WalletError('network', 'm')).code, 'network');
  assert.equal(classifyError(new WalletError('aborted', 'm')).code, 'cancelled');
  // A bundle the pinned signer did not sign: the page's settings (environment), not a passing fault.
  assert.equal(classifyError(new WalletError('bundle_invalid', 'm')).code, 'misconfigured');
  // The page's own server answered where the proxy should be (core/http.ts): not "no such login".
  assert.equal(classifyError(new WalletError('misconfigured', 'm'), { unauthorized: 'wrong_code' }).code, 'misconfigured');
  // IndexedDB fails with DOMException names WebAuthn uses too: under a storage error they mean storage.
  for (const name of ['InvalidStateError', 'SecurityError', 'UnknownError', 'NotFoundError']) {
    const cause = Object.assign(new Error('x'), { name });
    assert.equal(classifyError(new WalletError('storage_unavailable', 'm', { cause })).code, 'storage_unavailable', name);
  }
  assert.equal(classifyError(new TypeError('Failed to fetch')).code, 'network');
});

test('WebAuthn: the DOMException name along the cause chain decides', () => {
  const dom = (name: string) => Object.assign(new Error('x'), { name });
  const wrapped = (name: string) => new WalletError('webauthn', 'm', { cause: dom(name) });
  assert.equal(classifyError(wrapped('NotAllowedError')).code, 'cancelled');
  assert.equal(classifyError(wrapped('AbortError')).code, 'cancelled');
  assert.equal(classifyError(wrapped('InvalidStateError')).code, 'passkey_exists');
  assert.equal(classifyError(wrapped('NotSupportedError')).code, 'passkey_unsupported');
  assert.equal(classifyError(wrapped('SecurityError')).code, 'passkey_unsupported');
  assert.equal(isCancellation(wrapped('NotAllowedError')), true);
  assert.equal(isCancellation(wrapped('InvalidStateError')), false);
  assert.equal(isCancellation(new WalletError('aborted', 'm')), true);
  // The browser's DOMException counts unwrapped too, and a cancel is quiet either way.
  assert.equal(classifyError(new DOMException('x', 'InvalidStateError')).code, 'passkey_exists');
  assert.equal(classifyError(new DOMException('x', 'NotAllowedError')).code, 'cancelled');
  assert.equal(classifyError(new DOMException('x', 'UnknownError')).code, 'passkey_rejected');
  assert.equal(isCancellation(new DOMException('x', 'AbortError')), true);
  // A name that is only a property of plain objects is no WebAuthn reason.
  assert.equal(classifyError(Object.assign(new Error('x'), { name: 'constructor' })).code, 'unexpected');
});

test('nothing of the thrown error but status, code and Retry-After is kept', () => {
  const f = classifyError(new ServiceError({ status: 401, code: 'UNAUTHORIZED', message: 'code 123456 wrong', details: { otp: '123456' } }), { unauthorized: 'wrong_code' });
  assert.deepEqual(f, { code: 'wrong_code', status: 401 });
  assert.equal(failureKey(f), 'error.wrong_code');
});

test('a WebAuthn failure without a browser reason is a refused passkey, not a cancellation', () => {
  assert.equal(classifyError(new WalletError('webauthn', 'The passkey request was not completed.')).code, 'passkey_rejected');
  assert.equal(isCancellation(new WalletError('webauthn', 'm')), false);
  assert.equal(isCancellation(new WalletError('passkey_mismatch', 'm')), false);
});

test('a request core timed out is a network failure, not a cancellation (its cause is the fetch AbortError)', () => {
  const timedOut = new WalletError('network', 'The wallet service did not answer within 30 s. Try again.', { cause: new DOMException('x', 'AbortError') });
  assert.equal(isCancellation(timedOut), false);
  assert.equal(classifyError(timedOut).code, 'network');
  // A ceremony's own AbortError, wrapped by core, stays a cancellation.
  assert.equal(isCancellation(new WalletError('webauthn', 'm', { cause: new DOMException('x', 'AbortError') })), true);
});

test('an element code that did not load: load_failed, or network when it was not asked for offline', () => {
  assert.deepEqual(classifyError(new LoadFailed('load_failed')), { code: 'load_failed' });
  assert.deepEqual(classifyError(new LoadFailed('network')), { code: 'network' });
  assert.deepEqual(errorCodeOf(new LoadFailed('load_failed'), 'load'), 'load_failed');
  assert.deepEqual(errorCodeOf(new LoadFailed('network'), 'create'), 'network');
});
