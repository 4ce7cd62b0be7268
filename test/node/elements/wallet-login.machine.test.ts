// The <wallet-login> flow machine, without a DOM: every screen change of api.md's per-type verify
// flows, re-authentication narrowed to the ended session's type, and the resend cooldown that
// honours Retry-After (reference.md "429 RATE_LIMITED carries a Retry-After header").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  initialState,
  offeredMethods,
  parseMethods,
  resendSecondsLeft,
  transition,
  RESEND_COOLDOWN_MS,
  type LoginEvent,
  type LoginState,
  type SessionInfo,
} from '../../../src/elements/wallet-login/wallet-login.machine.ts';

const session: SessionInfo = { sessionId: 'Session:1', credentialType: 'EMAIL_OTP', expiresAt: '2030-01-01T00:00:00Z', endsAt: Date.parse('2030-01-01T00:00:00Z') };
const passkeySession: SessionInfo = { ...session, sessionId: 'Session:2', credentialType: 'PASSKEY' };

function run(state: LoginState, ...events: LoginEvent[]): LoginState {
  return events.reduce((s, e) => transition(s, e), state);
}

test('methods attribute: order kept, unknown and duplicate names dropped, empty offers all', () => {
  assert.deepEqual(parseMethods('passkey email-otp passkey bogus'), ['passkey', 'email-otp']);
  assert.deepEqual(parseMethods('OAUTH, sms-otp'), ['oauth', 'sms-otp']);
  assert.deepEqual(parseMethods(''), ['email-otp', 'sms-otp', 'passkey', 'oauth']);
  assert.deepEqual(parseMethods(null), ['email-otp', 'sms-otp', 'passkey', 'oauth']);
  assert.deepEqual(parseMethods('nothing known'), ['email-otp', 'sms-otp', 'passkey', 'oauth']);
});

test('parseMethods puts the names it does not know in `unknown`, for the element to say', () => {
  const unknown: string[] = [];
  assert.deepEqual(parseMethods('Email-OTP, email  passkeys,', unknown), ['email-otp']);
  assert.deepEqual(unknown, ['email', 'passkeys']);
  const none: string[] = [];
  parseMethods(' sms-otp ', none);
  assert.deepEqual(none, []);
});

test('start-up: a stored session logs in, none offers the configured methods', () => {
  assert.deepEqual(run(initialState(), { type: 'RESTORED', session }), { kind: 'logged-in', session, expiring: false });
  const none = run(initialState(), { type: 'RESTORED', session: null });
  assert.equal(none.kind, 'choosing');
  assert.deepEqual(offeredMethods(none, ['passkey', 'oauth']), ['passkey', 'oauth']);
});

test('a page without WebAuthn: passkeys are left out while another way remains, and stay when alone (they say why)', () => {
  const none = run(initialState(), { type: 'RESTORED', session: null });
  assert.deepEqual(offeredMethods(none, ['passkey', 'email-otp', 'oauth'], false), ['email-otp', 'oauth']);
  assert.deepEqual(offeredMethods(none, ['passkey'], false), ['passkey']);
  const reauth = run(initialState(), { type: 'RESTORED', session: null, expired: 'PASSKEY' });
  assert.deepEqual(offeredMethods(reauth, ['passkey', 'email-otp'], false), ['passkey']);
});

test('start-up: a session whose key storage lost asks again for that type only, saying why', () => {
  const s = run(initialState(), { type: 'RESTORED', session: null, missingKey: 'PASSKEY' });
  assert.equal(s.kind, 'choosing');
  assert.deepEqual(s.kind === 'choosing' && s.reauth, { why: 'key-missing', credentialType: 'PASSKEY' });
  assert.deepEqual(offeredMethods(s, ['email-otp', 'passkey']), ['passkey']);
});

test('start-up: a session the service ended before its time (revoked from another device) asks again for that type, saying so', () => {
  const s = run(initialState(), { type: 'RESTORED', session: null, expired: 'SMS_OTP', revoked: true });
  assert.deepEqual(s, { kind: 'choosing', reauth: { why: 'revoked', credentialType: 'SMS_OTP' } });
  assert.deepEqual(offeredMethods(s, ['email-otp', 'sms-otp']), ['sms-otp']);
});

test('start-up: a code asked for before a reload returns to its screen, its resend wait kept; a session wins over it', () => {
  const code = { type: 'SMS_OTP' as const, resendAt: 5_000 };
  assert.deepEqual(run(initialState(), { type: 'RESTORED', session: null, code }), { kind: 'code-entry', method: 'sms-otp', resendAt: 5_000 });
  const reauth = run(initialState(), { type: 'RESTORED', session: null, expired: 'EMAIL_OTP', code: { type: 'EMAIL_OTP', resendAt: 0 } });
  assert.deepEqual(reauth, { kind: 'code-entry', method: 'email-otp', resendAt: 0, reauth: { why: 'expired', credentialType: 'EMAIL_OTP' } });
  assert.equal(run(initialState(), { type: 'RESTORED', session, code }).kind, 'logged-in');
});

test('start-up: the end kept with a code, read back from storage, is taken only as kept: one of the ends, of the code\'s type', () => {
  const code = { type: 'EMAIL_OTP' as const, resendAt: 0 };
  const restored = (reauth: unknown) => run(initialState(), { type: 'RESTORED', session: null, code, reauth } as LoginEvent);
  assert.deepEqual(restored({ why: 'revoked', credentialType: 'EMAIL_OTP' }), { kind: 'code-entry', method: 'email-otp', resendAt: 0, reauth: { why: 'revoked', credentialType: 'EMAIL_OTP' } });
  for (const bad of [{ why: 'expired', credentialType: 'SMS_OTP' }, { why: 'stolen', credentialType: 'EMAIL_OTP' }, { why: 'expired' }, 'expired', null, [1], 7]) {
    assert.deepEqual(restored(bad), { kind: 'code-entry', method: 'email-otp', resendAt: 0 }, JSON.stringify(bad));
  }
});

test('start-up: a code refused when it was checked off the page returns to its screen with that failure', () => {
  const failure = { code: 'wrong_code' as const };
  const code = { type: 'EMAIL_OTP' as const, resendAt: 5_000 };
  assert.deepEqual(run(initialState(), { type: 'RESTORED', session: null, code, failure }), { kind: 'code-entry', method: 'email-otp', resendAt: 5_000, failure });
  assert.equal(run(initialState(), { type: 'RESTORED', session, code, failure }).kind, 'logged-in');
});

test('email OTP: choose, code sent, submit, logged in', () => {
  const now = 1_000_000;
  let s = run(initialState(), { type: 'RESTORED', session: null }, { type: 'CHOOSE', method: 'email-otp' });
  assert.deepEqual(s, { kind: 'sending-code', method: 'email-otp' });
  s = transition(s, { type: 'CODE_SENT', now });
  assert.deepEqual(s, { kind: 'code-entry', method: 'email-otp', resendAt: now + RESEND_COOLDOWN_MS });
  s = transition(s, { type: 'SUBMIT_CODE' });
  assert.equal(s.kind, 'verifying-code');
  s = transition(s, { type: 'LOGGED_IN', session });
  assert.deepEqual(s, { kind: 'logged-in', session, expiring: false });
});

test('a wrong code returns to code entry with the failure, keeping the cooldown', () => {
  const now = 5_000;
  const s = run(
    { kind: 'choosing' },
    { type: 'CHOOSE', method: 'sms-otp' },
    { type: 'CODE_SENT', now },
    { type: 'SUBMIT_CODE' },
    { type: 'FAILED', failure: { code: 'wrong_code', status: 401 }, now: now + 1000 },
  );
  assert.deepEqual(s, { kind: 'code-entry', method: 'sms-otp', resendAt: now + RESEND_COOLDOWN_MS, failure: { code: 'wrong_code', status: 401 } });
});

test('a code the service can no longer take returns to code entry with a new code offered once the wait between codes is over', () => {
  const now = 5_000;
  const failure = { code: 'code_expired', status: 401 } as const;
  const s = run({ kind: 'choosing' }, { type: 'CHOOSE', method: 'email-otp' }, { type: 'CODE_SENT', now }, { type: 'SUBMIT_CODE' }, { type: 'FAILED', failure, now: now + 1000 });
  // Used up 1 s after it was sent: the service would refuse a new one for 29 s more.
  assert.deepEqual(s, { kind: 'code-entry', method: 'email-otp', resendAt: now + RESEND_COOLDOWN_MS, failure });
  assert.equal(resendSecondsLeft(s, now + 1000), 29);
  assert.equal(transition(s, { type: 'RESEND', now: now + 1000 }), s);
  assert.equal(transition(s, { type: 'RESEND', now: now + RESEND_COOLDOWN_MS }).kind, 'sending-code');
  // Used up after the wait (it expired minutes later): offered at once.
  const late = run({ kind: 'choosing' }, { type: 'CHOOSE', method: 'email-otp' }, { type: 'CODE_SENT', now }, { type: 'SUBMIT_CODE' }, { type: 'FAILED', failure, now: now + 360_000 });
  assert.equal(resendSecondsLeft(late, now + 360_000), 0);
});

test('resend: refused during the cooldown, allowed after it; the page may set the cooldown', () => {
  const now = 10_000;
  const entry = run({ kind: 'choosing' }, { type: 'CHOOSE', method: 'email-otp' }, { type: 'CODE_SENT', now, cooldownMs: 90_000 });
  assert.equal(resendSecondsLeft(entry, now), 90);
  assert.equal(resendSecondsLeft(entry, now + 89_001), 1);
  assert.equal(transition(entry, { type: 'RESEND', now: now + 89_999 }), entry);
  assert.deepEqual(transition(entry, { type: 'RESEND', now: now + 90_000 }), { kind: 'sending-code', method: 'email-otp', resendAt: now + 90_000 });
});

test('a resend refused with 429 returns to the code already sent, cooldown set by Retry-After', () => {
  const now = 0;
  const s = run(
    { kind: 'choosing' },
    { type: 'CHOOSE', method: 'email-otp' },
    { type: 'CODE_SENT', now, cooldownMs: 0 },
    { type: 'RESEND', now: 100 },
    { type: 'FAILED', failure: { code: 'rate_limited', status: 429, retryAfter: 29 }, now: 200 },
  );
  assert.deepEqual(s, { kind: 'code-entry', method: 'email-otp', resendAt: 29_200, failure: { code: 'rate_limited', status: 429, retryAfter: 29 } });
  assert.equal(resendSecondsLeft(s, 200), 29);
});

test('a 429 on verify pushes the resend cooldown to Retry-After', () => {
  const now = 0;
  const s = run(
    { kind: 'choosing' },
    { type: 'CHOOSE', method: 'email-otp' },
    { type: 'CODE_SENT', now },
    { type: 'SUBMIT_CODE' },
    { type: 'FAILED', failure: { code: 'rate_limited', status: 429, retryAfter: 120 }, now: 1000 },
  );
  assert.equal(s.kind, 'code-entry');
  assert.equal(resendSecondsLeft(s, 1000), 120);
});

test('a failure to send the code returns to the choice with the failure', () => {
  const s = run({ kind: 'choosing' }, { type: 'CHOOSE', method: 'email-otp' }, { type: 'FAILED', failure: { code: 'network' }, now: 0 });
  assert.deepEqual(s, { kind: 'choosing', failure: { code: 'network' } });
});

test('the first code asked for, refused as too soon (429), is a code sent a moment ago; a resend refused so stays a rate limit', () => {
  const first = run({ kind: 'choosing' }, { type: 'CHOOSE', method: 'email-otp' }, { type: 'FAILED', failure: { code: 'rate_limited', status: 429, retryAfter: 3 }, now: 0 });
  assert.deepEqual(first, { kind: 'choosing', failure: { code: 'code_sent_recently', status: 429, retryAfter: 3 } });
  const resend = run({ kind: 'code-entry', method: 'email-otp', resendAt: 0 }, { type: 'RESEND', now: 0 }, { type: 'FAILED', failure: { code: 'rate_limited', retryAfter: 3 }, now: 0 });
  assert.deepEqual(resend, { kind: 'code-entry', method: 'email-otp', resendAt: 3000, failure: { code: 'rate_limited', retryAfter: 3 } });
});

test('the first code asked for, refused by the proxy’s own limit (429), stays a rate limit: no code was sent', () => {
  const failure = { code: 'rate_limited', status: 429, retryAfter: 3, byProxy: true } as const;
  const first = run({ kind: 'choosing' }, { type: 'CHOOSE', method: 'email-otp' }, { type: 'FAILED', failure, now: 0 });
  assert.deepEqual(first, { kind: 'choosing', failure });
});

test('a cancelled passkey ceremony returns to a usable choice without an error', () => {
  const s = run({ kind: 'choosing' }, { type: 'CHOOSE', method: 'passkey' }, { type: 'CANCELLED' });
  assert.deepEqual(s, { kind: 'choosing' });
  const again = transition(s, { type: 'CHOOSE', method: 'passkey' });
  assert.deepEqual(again, { kind: 'authenticating', method: 'passkey' });
});

test('OAuth: a refused token shows its failure on the choice screen', () => {
  const s = run({ kind: 'choosing' }, { type: 'CHOOSE', method: 'oauth' }, { type: 'FAILED', failure: { code: 'oauth_rejected', status: 401 }, now: 0 });
  assert.deepEqual(s, { kind: 'choosing', failure: { code: 'oauth_rejected', status: 401 } });
});

test('session: expiring, refresh, refreshed; a failed refresh keeps the user in, told why', () => {
  const logged: LoginState = { kind: 'logged-in', session, expiring: false };
  assert.deepEqual(transition(logged, { type: 'EXPIRING' }), { ...logged, expiring: true });
  const refreshing = transition(logged, { type: 'REFRESH' });
  assert.deepEqual(refreshing, { kind: 'refreshing', session });
  const next = { ...session, sessionId: 'Session:3' };
  assert.deepEqual(transition(refreshing, { type: 'REFRESHED', session: next }), { kind: 'logged-in', session: next, expiring: false });
  const failed = transition(refreshing, { type: 'FAILED', failure: { code: 'network' }, now: 0 });
  assert.deepEqual(failed, { kind: 'logged-in', session, expiring: true, failure: { code: 'network' } });
});

test('expiry asks only for the ended type; a passkey session re-authenticates by passkey', () => {
  const s = transition({ kind: 'logged-in', session: passkeySession, expiring: true }, { type: 'EXPIRED' });
  assert.deepEqual(s, { kind: 'choosing', reauth: { why: 'expired', credentialType: 'PASSKEY' } });
  assert.deepEqual(offeredMethods(s, ['email-otp', 'sms-otp', 'passkey', 'oauth']), ['passkey']);
  // Another type is refused on this screen ...
  assert.equal(transition(s, { type: 'CHOOSE', method: 'email-otp' }), s);
  // ... and the re-auth reason follows the ceremony, so a cancel lands back on the same screen.
  const cer = transition(s, { type: 'CHOOSE', method: 'passkey' });
  assert.deepEqual(cer, { kind: 'authenticating', method: 'passkey', reauth: { why: 'expired', credentialType: 'PASSKEY' } });
  assert.deepEqual(transition(cer, { type: 'CANCELLED' }), s);
  // "Use another method" offers every configured one again.
  const all = transition(s, { type: 'BACK' });
  assert.deepEqual(offeredMethods(all, ['email-otp', 'passkey']), ['email-otp', 'passkey']);
});

test('re-auth asks for the ended type only when the page offers it (methods); otherwise the methods it offers', () => {
  const methods = ['sms-otp', 'oauth'] as const;
  const expired = transition({ kind: 'logged-in', session: passkeySession, expiring: false }, { type: 'EXPIRED' }, methods);
  assert.deepEqual(expired, { kind: 'choosing' });
  assert.deepEqual(offeredMethods(expired, methods), ['sms-otp', 'oauth']);
  assert.equal(transition(expired, { type: 'CHOOSE', method: 'sms-otp' }, methods).kind, 'sending-code');
  assert.deepEqual(transition(initialState(), { type: 'RESTORED', session: null, missingKey: 'EMAIL_OTP' }, methods), { kind: 'choosing' });
  // Offered: the ended type only, as before.
  const kept = transition({ kind: 'logged-in', session: passkeySession, expiring: false }, { type: 'EXPIRED' }, ['email-otp', 'passkey']);
  assert.deepEqual(kept, { kind: 'choosing', reauth: { why: 'expired', credentialType: 'PASSKEY' } });
});

test('expiry of an email session goes through a fresh code', () => {
  const s = run({ kind: 'logged-in', session, expiring: false }, { type: 'EXPIRED' }, { type: 'CHOOSE', method: 'email-otp' });
  assert.deepEqual(s, { kind: 'sending-code', method: 'email-otp', reauth: { why: 'expired', credentialType: 'EMAIL_OTP' } });
});

test('a key lost while logged in is reported with a way back in', () => {
  const s = transition({ kind: 'logged-in', session, expiring: false }, { type: 'KEY_MISSING' });
  assert.deepEqual(s, { kind: 'choosing', reauth: { why: 'key-missing', credentialType: 'EMAIL_OTP' } });
});

test('a session the service ended before its time (revoked from another device) asks for its type again, saying so', () => {
  for (const kind of ['logged-in', 'refreshing'] as const) {
    const s = transition({ kind, session, expiring: false } as LoginState, { type: 'REVOKED' });
    assert.deepEqual(s, { kind: 'choosing', reauth: { why: 'revoked', credentialType: 'EMAIL_OTP' } });
  }
});

test('logout: logging out, logged out; a logout the service was not told of still logs out here (core deleted the keys)', () => {
  const out = transition({ kind: 'logged-in', session, expiring: false }, { type: 'LOGOUT' });
  assert.deepEqual(out, { kind: 'logging-out', session });
  assert.deepEqual(transition(out, { type: 'LOGGED_OUT' }), { kind: 'choosing' });
  assert.deepEqual(transition(out, { type: 'FAILED', failure: { code: 'network' }, now: 0 }), { kind: 'choosing' });
});

test('logout during the start-up check or a renewal: the renewal runs to its end, then the session it led to is logged out', () => {
  const renewed = { ...session, sessionId: 'Session:3' };
  const refreshing: LoginState = { kind: 'refreshing', session };
  const asked = transition(refreshing, { type: 'LOGOUT' });
  assert.deepEqual(asked, { kind: 'refreshing', session, logout: true });
  assert.deepEqual(transition(asked, { type: 'REFRESHED', session: renewed }), { kind: 'logging-out', session: renewed });
  // A renewal that failed leaves the old session live: that one is logged out.
  assert.deepEqual(transition(asked, { type: 'FAILED', failure: { code: 'network' }, now: 0 }), { kind: 'logging-out', session });
  // A session that ended meanwhile has nothing left to log out.
  assert.equal(transition(asked, { type: 'EXPIRED' }).kind, 'choosing');

  const restoring = transition(initialState(), { type: 'LOGOUT' });
  assert.deepEqual(transition(restoring, { type: 'RESTORED', session }), { kind: 'logging-out', session });
  assert.deepEqual(transition(restoring, { type: 'RESTORED', session: null }), { kind: 'choosing' });
  // Without a logout asked for, nothing changes.
  assert.deepEqual(run(initialState(), { type: 'RESTORED', session }), { kind: 'logged-in', session, expiring: false });
});

test('a code check stopped (cancel()) leads to the methods, the re-auth kept: the service may have used the code up; a refusal stays on the code screen', () => {
  const reauth = { why: 'expired', credentialType: 'EMAIL_OTP' } as const;
  const checking: LoginState = { kind: 'verifying-code', method: 'email-otp', resendAt: 5_000, reauth };
  assert.deepEqual(transition(checking, { type: 'CANCELLED' }), { kind: 'choosing', reauth });
  const failure = { code: 'wrong_code' } as const;
  assert.deepEqual(transition(checking, { type: 'FAILED', failure, now: 0 }), { kind: 'code-entry', method: 'email-otp', resendAt: 5_000, failure, reauth });
});

test('logout while a login runs: the step ends, a session it led to is logged out, anything else leads to the methods', () => {
  const reauth = { why: 'expired', credentialType: 'EMAIL_OTP' } as const;
  const failed: LoginEvent = { type: 'FAILED', failure: { code: 'network' }, now: 0 };
  // A code being checked: the session it leads to is logged out; a refusal leaves the code screen too.
  const checking = transition({ kind: 'verifying-code', method: 'email-otp', resendAt: 0, reauth }, { type: 'LOGOUT' });
  assert.deepEqual(checking, { kind: 'verifying-code', method: 'email-otp', resendAt: 0, reauth, logout: true });
  assert.deepEqual(transition(checking, { type: 'LOGGED_IN', session }), { kind: 'logging-out', session });
  assert.deepEqual(transition(checking, failed), { kind: 'choosing', reauth });
  // A passkey prompt or single sign-on (the element stops it): cancelled, or a session that landed anyway.
  const prompt = transition({ kind: 'authenticating', method: 'passkey' }, { type: 'LOGOUT' });
  assert.deepEqual(prompt, { kind: 'authenticating', method: 'passkey', logout: true });
  assert.deepEqual(transition(prompt, { type: 'CANCELLED' }), { kind: 'choosing' });
  assert.deepEqual(transition(prompt, failed), { kind: 'choosing' });
  assert.deepEqual(transition(prompt, { type: 'LOGGED_IN', session: passkeySession }), { kind: 'logging-out', session: passkeySession });
  // A code being sent: no code screen after it; a code waiting to be typed: the methods at once.
  const sending = transition({ kind: 'sending-code', method: 'sms-otp' }, { type: 'LOGOUT' });
  assert.deepEqual(transition(sending, { type: 'CODE_SENT', now: 0 }), { kind: 'choosing' });
  assert.deepEqual(transition({ kind: 'code-entry', method: 'email-otp', resendAt: 0 }, { type: 'LOGOUT' }), { kind: 'choosing' });
  // The start-up check: the logout runs instead, and ends on the methods, even when the service was not told.
  const restoring = transition(initialState(), { type: 'LOGOUT' });
  assert.deepEqual(transition(restoring, { type: 'LOGGED_OUT' }), { kind: 'choosing' });
  assert.deepEqual(transition(restoring, failed), { kind: 'choosing' });
  // A code kept over a reload is not shown after a logout.
  assert.deepEqual(transition(restoring, { type: 'RESTORED', session: null, code: { type: 'EMAIL_OTP', resendAt: 0 } }), { kind: 'choosing' });
  // Nothing under way: nothing to do.
  assert.deepEqual(transition({ kind: 'choosing' }, { type: 'LOGOUT' }), { kind: 'choosing' });
  // Asked again while it waits: the same logout, nothing new to start.
  const waiting: LoginState = { kind: 'restoring', logout: true };
  assert.equal(transition(waiting, { type: 'LOGOUT' }), waiting);
  // A passkey picked from autofill that the logout stopped too late (its session was stored): logged out, not shown.
  assert.deepEqual(transition({ kind: 'choosing' }, { type: 'LOGGED_IN', session: passkeySession, logout: true }), { kind: 'logging-out', session: passkeySession });
});

test('other tabs: a login elsewhere logs this tab in; a logout elsewhere logs it out', () => {
  assert.deepEqual(transition({ kind: 'choosing' }, { type: 'REMOTE_LOGGED_IN', session }), { kind: 'logged-in', session, expiring: false });
  assert.deepEqual(transition({ kind: 'logged-in', session, expiring: false }, { type: 'REMOTE_LOGGED_OUT' }), { kind: 'choosing' });
  // A logout in progress here is not overridden by a login elsewhere.
  const out: LoginState = { kind: 'logging-out', session };
  assert.equal(transition(out, { type: 'REMOTE_LOGGED_IN', session }), out);
  // Nor by a logout elsewhere: the one asked for here ends as this tab's.
  assert.equal(transition(out, { type: 'REMOTE_LOGGED_OUT' }), out);
});

test('events that do not apply to a screen leave it unchanged', () => {
  const states: LoginState[] = [
    { kind: 'restoring' },
    { kind: 'choosing' },
    { kind: 'sending-code', method: 'email-otp' },
    { kind: 'code-entry', method: 'email-otp', resendAt: 0 },
    { kind: 'authenticating', method: 'passkey' },
    { kind: 'logged-in', session, expiring: false },
  ];
  for (const s of states) {
    assert.equal(transition(s, { type: 'LOGGED_OUT' }), s, s.kind);
  }
});

test('a renewal in another tab replaces the session quietly; it does not log in a logged-out tab', () => {
  const next = { ...session, sessionId: 'Session:4' };
  assert.deepEqual(transition({ kind: 'logged-in', session, expiring: true }, { type: 'REMOTE_REFRESHED', session: next }), {
    kind: 'logged-in',
    session: next,
    expiring: false,
  });
  const out: LoginState = { kind: 'choosing' };
  assert.equal(transition(out, { type: 'REMOTE_REFRESHED', session: next }), out);
});
