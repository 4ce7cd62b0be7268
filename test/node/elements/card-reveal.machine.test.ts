// The <card-reveal> state machine without a DOM: the reveal URL rules of DESIGN.md "Security rules"
// (https or allow-listed origin, never expired, hidden at expiresAt / hide-after / hide) and the
// error mapping of api.md "Card reveal" condition rules (403, 404, 501).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkRevealUrl,
  hideReasonOf,
  initialState,
  parseAllowedOrigins,
  secondsLeft,
  transition,
  type CardRevealState,
} from '../../../src/elements/card-reveal/card-reveal.machine.ts';
import { errorCodeOf } from '../../../src/elements/card-reveal/reveal-failure.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';

const T0 = Date.parse('2026-05-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function revealed(expiresIn: number, hideAfterMs?: number): CardRevealState {
  const loading = transition(initialState, { type: 'reveal' });
  return transition(loading, { type: 'revealed', expiresAt: T0 + expiresIn, now: T0, ...(hideAfterMs ? { hideAfterMs } : {}) });
}

test('reveal goes idle -> loading -> revealed and a second reveal while loading or shown is ignored', () => {
  const loading = transition(initialState, { type: 'reveal' });
  assert.equal(loading.kind, 'loading');
  assert.equal(transition(loading, { type: 'reveal' }), loading);
  const shown = transition(loading, { type: 'revealed', expiresAt: T0 + 60_000, now: T0 });
  assert.deepEqual(shown, { kind: 'revealed', expiresAt: T0 + 60_000, hideAt: T0 + 60_000, now: T0, shownAt: T0 });
  assert.equal(transition(shown, { type: 'reveal' }), shown);
});

test('the countdown reaches expiresAt and the state becomes expired', () => {
  let s = revealed(3_000);
  assert.equal(secondsLeft(s), 3);
  s = transition(s, { type: 'tick', now: T0 + 1_200 });
  assert.equal(s.kind, 'revealed');
  assert.equal(secondsLeft(s), 2);
  s = transition(s, { type: 'tick', now: T0 + 3_000 });
  assert.deepEqual(s, { kind: 'expired' });
  assert.equal(hideReasonOf(s), 'expired');
  assert.equal(secondsLeft(s), 0);
});

test('hide-after shorter than the URL lifetime hides with reason timeout; longer is capped by expiresAt', () => {
  let s = revealed(60_000, 5_000);
  assert.equal(s.kind === 'revealed' && s.hideAt, T0 + 5_000);
  s = transition(s, { type: 'tick', now: T0 + 5_000 });
  assert.deepEqual(s, { kind: 'idle', lastHidden: 'timeout' });
  assert.equal(hideReasonOf(s), 'timeout');
  const capped = revealed(4_000, 10_000);
  assert.equal(capped.kind === 'revealed' && capped.hideAt, T0 + 4_000);
  assert.equal(transition(capped, { type: 'tick', now: T0 + 4_000 }).kind, 'expired');
});

test('hide-after changed while shown counts from when the details were shown: shortened, hidden at once when past; lengthened or removed, up to expiresAt', () => {
  const shown = transition(revealed(60_000, 5_000), { type: 'tick', now: T0 + 2_000 });
  const shorter = transition(shown, { type: 'hide-after', ms: 3_000, now: T0 + 2_000 });
  assert.deepEqual(shorter, { kind: 'revealed', expiresAt: T0 + 60_000, hideAt: T0 + 3_000, now: T0 + 2_000, shownAt: T0 });
  assert.deepEqual(transition(shown, { type: 'hide-after', ms: 1_000, now: T0 + 2_000 }), { kind: 'idle', lastHidden: 'timeout' });
  assert.equal(secondsLeft(transition(shown, { type: 'hide-after', ms: 20_000, now: T0 + 2_000 })), 18);
  for (const ms of [0, 600_000]) assert.equal((transition(shown, { type: 'hide-after', ms, now: T0 + 2_000 }) as { hideAt: number }).hideAt, T0 + 60_000);
  // Set where none was, once the URL too has expired: its own deadline came first, `timeout`.
  const late = transition(revealed(3_000), { type: 'tick', now: T0 + 2_000 });
  assert.deepEqual(transition(late, { type: 'hide-after', ms: 1_000, now: T0 + 3_000 }), { kind: 'idle', lastHidden: 'timeout' });
  for (const other of [initialState, { kind: 'loading' } as const, { kind: 'expired' } as const]) assert.equal(transition(other, { type: 'hide-after', ms: 1_000, now: T0 }), other);
});

test('hide from revealed or loading returns to idle with the reason; hide from idle does nothing', () => {
  for (const reason of ['user', 'page-hidden', 'disconnected', 'card-changed', 'logged-out'] as const) {
    const s = transition(revealed(60_000), { type: 'hide', reason });
    assert.deepEqual(s, { kind: 'idle', lastHidden: reason });
    assert.equal(hideReasonOf(s), reason);
  }
  assert.deepEqual(transition({ kind: 'loading' }, { type: 'hide', reason: 'user' }), { kind: 'idle', lastHidden: 'user' });
  assert.equal(transition(initialState, { type: 'hide', reason: 'user' }), initialState);
});

test('another card or wallet clears an error, an expiry or a hide said of the one before; other reasons leave them', () => {
  const error: CardRevealState = { kind: 'error', code: 'not_found', retryable: false };
  for (const before of [error, { kind: 'expired' } as const, { kind: 'idle', lastHidden: 'user' } as const]) {
    assert.equal(transition(before, { type: 'hide', reason: 'card-changed' }), initialState);
    assert.equal(transition(before, { type: 'hide', reason: 'account-changed' }), initialState);
    assert.equal(transition(before, { type: 'hide', reason: 'disconnected' }), before);
  }
  assert.equal(transition(initialState, { type: 'hide', reason: 'card-changed' }), initialState);
});

test('a result arriving after hide is dropped (stale), and re-reveal from expired asks again', () => {
  const hidden = transition({ kind: 'loading' }, { type: 'hide', reason: 'user' });
  assert.equal(transition(hidden, { type: 'revealed', expiresAt: T0 + 60_000, now: T0 }), hidden);
  assert.equal(transition(hidden, { type: 'failed', code: 'network' }), hidden);
  assert.equal(transition({ kind: 'expired' }, { type: 'reveal' }).kind, 'loading');
  assert.equal(transition({ kind: 'error', code: 'server', retryable: true }, { type: 'reveal' }).kind, 'loading');
});

test('a frame the page refuses ends the reveal: a final error, reported as hidden with reason blocked', () => {
  const s = transition(revealed(60_000), { type: 'failed', code: 'frame_blocked' });
  assert.deepEqual(s, { kind: 'error', code: 'frame_blocked', retryable: false });
  assert.equal(hideReasonOf(s), 'blocked');
  // Nowhere else does a failure arrive after the request: idle and expired stay as they are.
  assert.equal(transition(initialState, { type: 'failed', code: 'frame_blocked' }), initialState);
  const expired = { kind: 'expired' } as const;
  assert.equal(transition(expired, { type: 'failed', code: 'frame_blocked' }), expired);
});

test('a URL already expired on arrival is an error, not a reveal', () => {
  const s = transition({ kind: 'loading' }, { type: 'revealed', expiresAt: T0, now: T0 });
  assert.deepEqual(s, { kind: 'error', code: 'expired_url', retryable: true });
});

test('errors: 403/404/501 are final, network and 5xx offer a retry', () => {
  const fail = (code: Parameters<typeof transition>[1] & { type: 'failed' }) => transition({ kind: 'loading' }, code);
  assert.deepEqual(fail({ type: 'failed', code: 'forbidden' }), { kind: 'error', code: 'forbidden', retryable: false });
  assert.deepEqual(fail({ type: 'failed', code: 'not_found' }), { kind: 'error', code: 'not_found', retryable: false });
  assert.deepEqual(fail({ type: 'failed', code: 'not_available' }), { kind: 'error', code: 'not_available', retryable: false });
  assert.deepEqual(fail({ type: 'failed', code: 'network' }), { kind: 'error', code: 'network', retryable: true });
  assert.deepEqual(fail({ type: 'failed', code: 'server' }), { kind: 'error', code: 'server', retryable: true });
  assert.deepEqual(fail({ type: 'failed', code: 'insecure_url' }), { kind: 'error', code: 'insecure_url', retryable: false });
  assert.deepEqual(fail({ type: 'failed', code: 'misconfigured' }), { kind: 'error', code: 'misconfigured', retryable: false });
  // The element's own code did not load: a reload of the page, not "Try again", loads it in every browser.
  assert.deepEqual(fail({ type: 'failed', code: 'load_failed' }), { kind: 'error', code: 'load_failed', retryable: false });
});

test('errorCodeOf maps the statuses of api.md "Card reveal" and the client failures', () => {
  const se = (status: number, code: string) => new ServiceError({ status, code, message: 'x' });
  assert.equal(errorCodeOf(se(401, 'UNAUTHORIZED')), 'unauthorized');
  assert.equal(errorCodeOf(se(403, 'FORBIDDEN')), 'forbidden');
  assert.equal(errorCodeOf(se(403, 'STEP_UP_REQUIRED')), 'session_required');
  assert.equal(errorCodeOf(se(404, 'NOT_FOUND')), 'not_found');
  assert.equal(errorCodeOf(se(501, 'NOT_IMPLEMENTED')), 'not_available');
  assert.equal(errorCodeOf(se(429, 'RATE_LIMITED')), 'rate_limited');
  assert.equal(errorCodeOf(se(500, 'INTERNAL_ERROR')), 'server');
  assert.equal(errorCodeOf(se(502, 'BAD_GATEWAY')), 'server');
  assert.equal(errorCodeOf(se(400, 'INVALID_INPUT')), 'unexpected');
  assert.equal(errorCodeOf(new WalletError('network', 'x')), 'network');
  assert.equal(errorCodeOf(new WalletError('session_expired', 'x')), 'session_required');
  assert.equal(errorCodeOf(new WalletError('key_missing', 'x')), 'session_required');
  // An id that is not a Card:<uuid> (refused by the core before any request) names no card.
  assert.equal(errorCodeOf(new WalletError('invalid_argument', 'x')), 'not_found');
  assert.equal(errorCodeOf(new WalletError('unexpected_response', 'x')), 'unexpected');
  assert.equal(errorCodeOf(new TypeError('x')), 'unexpected');
  // The page's own server answered where the proxy should be (core/http.ts): not "no such card".
  assert.equal(errorCodeOf(new WalletError('misconfigured', 'x')), 'misconfigured');
});

test('checkRevealUrl: a string set on allowedOrigins is read as the attribute is, never matched as a substring', () => {
  const later = new Date(T0 + 60_000).toISOString();
  const sandboxPage = { panEmbedUrl: 'http://127.0.0.1:4100/processor?t=a', expiresAt: later };
  // 'http://127.0.0.1:41009' contains 'http://127.0.0.1:4100' as text, and is another origin.
  assert.deepEqual(checkRevealUrl(sandboxPage, 'http://127.0.0.1:41009' as never, T0), { ok: false, code: 'insecure_url' });
  assert.deepEqual(checkRevealUrl(sandboxPage, 'https://pci.example, http://127.0.0.1:4100' as never, T0), { ok: true, expiresAt: T0 + 60_000 });
  assert.deepEqual(checkRevealUrl(sandboxPage, undefined as never, T0), { ok: false, code: 'insecure_url' });
});

test('checkRevealUrl: https passes, http only on an allow-listed origin, never expired, never with credentials', () => {
  const later = iso(T0 + 60_000);
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'https://pci.example/embed?t=abc', expiresAt: later }, [], T0), { ok: true, expiresAt: T0 + 60_000 });
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'http://pci.example/embed?t=abc', expiresAt: later }, [], T0), { ok: false, code: 'insecure_url' });
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'http://127.0.0.1:4000/processor?t=a', expiresAt: later }, ['http://127.0.0.1:4000'], T0), {
    ok: true,
    expiresAt: T0 + 60_000,
  });
  // Same host, another port: another origin, refused.
  assert.equal(checkRevealUrl({ panEmbedUrl: 'http://127.0.0.1:4001/processor', expiresAt: later }, ['http://127.0.0.1:4000'], T0).ok, false);
  for (const bad of ['javascript:alert(1)', 'data:text/html,hi', 'blob:https://a.example/x', 'file:///etc/passwd']) {
    assert.equal(checkRevealUrl({ panEmbedUrl: bad, expiresAt: later }, ['null'], T0).ok, false, bad);
  }
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'https://u:p@pci.example/', expiresAt: later }, [], T0), { ok: false, code: 'insecure_url' });
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'https://pci.example/', expiresAt: iso(T0) }, [], T0), { ok: false, code: 'expired_url' });
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'https://pci.example/', expiresAt: 'soon' }, [], T0), { ok: false, code: 'unexpected' });
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'not a url', expiresAt: later }, [], T0), { ok: false, code: 'unexpected' });
  assert.deepEqual(checkRevealUrl({}, [], T0), { ok: false, code: 'unexpected' });
});

test('checkRevealUrl: never a URL on the page\'s own origin, https or allow-listed, whose frame would be readable by every script of the page', () => {
  const later = iso(T0 + 60_000);
  // Same-origin, `allow-scripts allow-same-origin` lifts the frame's sandbox, and the page's scripts
  // read its address (contentWindow.location, its navigation timing): the bearer URL whole.
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'https://shop.example/processor/card?token=t', expiresAt: later }, [], T0, 'https://shop.example'), { ok: false, code: 'insecure_url' });
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'http://localhost:5173/processor/card?token=t', expiresAt: later }, ['http://localhost:5173'], T0, 'http://localhost:5173'), { ok: false, code: 'insecure_url' });
  // The processor's own origin (another port is another origin) passes as before.
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'https://pci.example/embed?t=a', expiresAt: later }, [], T0, 'https://shop.example'), { ok: true, expiresAt: T0 + 60_000 });
  assert.deepEqual(checkRevealUrl({ panEmbedUrl: 'http://localhost:4000/processor/card?token=t', expiresAt: later }, ['http://localhost:4000'], T0, 'http://localhost:5173'), { ok: true, expiresAt: T0 + 60_000 });
});

test('a verdict never contains the URL', () => {
  const secret = 'https://pci.example/embed?token=SECRET-TOKEN';
  for (const expiresAt of [iso(T0 + 1000), iso(T0 - 1000)]) {
    assert.ok(!JSON.stringify(checkRevealUrl({ panEmbedUrl: secret, expiresAt }, [], T0)).includes('SECRET'));
  }
  assert.ok(!JSON.stringify(checkRevealUrl({ panEmbedUrl: secret.replace('https', 'http'), expiresAt: iso(T0 + 1000) }, [], T0)).includes('SECRET'));
});

test('parseAllowedOrigins keeps origins only, drops paths and junk', () => {
  assert.deepEqual(parseAllowedOrigins('http://127.0.0.1:4000/processor, https://pci.example  nonsense'), [
    'http://127.0.0.1:4000',
    'https://pci.example',
  ]);
  assert.deepEqual(parseAllowedOrigins(null), []);
  assert.deepEqual(parseAllowedOrigins('data:text/plain,x'), []);
});
