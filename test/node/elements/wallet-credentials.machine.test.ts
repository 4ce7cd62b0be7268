// <wallet-credentials> rules without a DOM: api.md "Credential endpoints" (one SMS_OTP at most,
// at least one credential remains, revocation signed by a different credential's session).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuthMethod, AuthSession } from '../../../src/core/types.ts';
import {
  afterChange,
  allowed,
  canAdd,
  initialState,
  revokeBlock,
  transition,
  type CredentialsState,
  type CredentialsView,
} from '../../../src/elements/wallet-credentials/wallet-credentials.machine.ts';

const t = '2026-01-01T00:00:00Z';
const email: AuthMethod = { id: 'AuthMethod:e', accountId: 'InternalAccount:a', type: 'EMAIL_OTP', nickname: 'a@example.com', createdAt: t, updatedAt: t };
const sms: AuthMethod = { ...email, id: 'AuthMethod:s', type: 'SMS_OTP', nickname: '+15550100' };
const session: AuthSession = { ...email, id: 'Session:1', expiresAt: '2026-01-01T00:15:00Z' };
const current = { sessionId: 'Session:1', credentialId: email.id, credentialType: 'EMAIL_OTP' as const };

test('the only credential cannot be revoked, whatever the session', () => {
  const view: CredentialsView = { credentials: [email], sessions: [session], current: null, held: [] };
  assert.equal(revokeBlock(view, email.id), 'last');
  assert.equal(revokeBlock({ ...view, current }, email.id), 'last');
});

test('revocation needs a session on this device, of a different credential', () => {
  const view: CredentialsView = { credentials: [email, sms], sessions: [session], current: null, held: [] };
  assert.equal(revokeBlock(view, sms.id), 'login');
  assert.equal(revokeBlock({ ...view, current }, email.id), 'current');
  assert.equal(revokeBlock({ ...view, current }, sms.id), null);
});

test('a device holding sessions of two credentials may remove either; the lists after a removal keep the other session', () => {
  const smsSession: AuthSession = { ...sms, id: 'Session:2', expiresAt: session.expiresAt };
  const smsHere = { sessionId: smsSession.id, credentialId: sms.id, credentialType: 'SMS_OTP' as const };
  const view: CredentialsView = { credentials: [email, sms], sessions: [session, smsSession], current: smsHere, other: current, held: [smsHere, current] };
  assert.equal(revokeBlock(view, sms.id), null);
  assert.equal(revokeBlock(view, email.id), null);
  // The credential of the session it signs with goes: the other session is the one it signs with.
  assert.deepEqual(afterChange(view, { op: 'revoke-credential', id: sms.id }, sms), { credentials: [email], sessions: [session], current, held: [current] });
  assert.deepEqual(afterChange(view, { op: 'revoke-credential', id: email.id }, email), { credentials: [sms], sessions: [smsSession], current: smsHere, held: [smsHere] });
  // Ending the other session keeps the one it signs with; ending that one is a logout.
  assert.deepEqual(afterChange(view, { op: 'revoke-session', id: session.id }, undefined, [session.id]), { credentials: [email, sms], sessions: [smsSession], current: smsHere, held: [smsHere] });
  assert.deepEqual(afterChange(view, { op: 'revoke-session', id: smsSession.id }, undefined, [session.id, smsSession.id]), { credentials: [email, sms], sessions: [], current: null, held: [] });
});

test('a device holding two sessions of one credential: ending the older keeps it logged in with the newer; a logout or a removal of that credential takes both', () => {
  const older = { ...current, sessionId: 'Session:0' };
  const olderSession: AuthSession = { ...session, id: 'Session:0' };
  const view: CredentialsView = { credentials: [email, sms], sessions: [olderSession, session], current, held: [current, older] };
  assert.deepEqual(afterChange(view, { op: 'revoke-session', id: older.sessionId }, undefined, [older.sessionId]), { credentials: [email, sms], sessions: [session], current, held: [current] });
  assert.deepEqual(afterChange(view, { op: 'revoke-session', id: current.sessionId }, undefined, [older.sessionId, current.sessionId]).held, []);
  assert.deepEqual(afterChange(view, { op: 'revoke-credential', id: email.id }, email).held, []);
});

test('one SMS_OTP at most; OAUTH identities may be added again', () => {
  const view: CredentialsView = { credentials: [email], sessions: [], current, held: [current] };
  assert.equal(canAdd(view, 'SMS_OTP'), true);
  assert.equal(canAdd({ ...view, credentials: [email, sms] }, 'SMS_OTP'), false);
  assert.equal(canAdd({ ...view, credentials: [email, sms] }, 'OAUTH'), true);
});

test('revoking asks for confirmation first; adding runs at once; one operation at a time', () => {
  const view: CredentialsView = { credentials: [email, sms], sessions: [session], current, held: [current] };
  let s: CredentialsState = transition(initialState(), { type: 'LOADED', view });
  s = transition(s, { type: 'REQUEST', operation: { op: 'revoke-credential', id: sms.id } });
  assert.deepEqual(s, { kind: 'ready', view, confirming: { op: 'revoke-credential', id: sms.id } });
  assert.deepEqual(transition(s, { type: 'CANCEL' }), { kind: 'ready', view });
  s = transition(s, { type: 'CONFIRM' });
  assert.deepEqual(s, { kind: 'ready', view, running: { op: 'revoke-credential', id: sms.id } });
  assert.equal(allowed(s, { op: 'update-email' }), false);
  assert.equal(transition(s, { type: 'REQUEST', operation: { op: 'update-email' } }), s);
  const after: CredentialsView = { ...view, credentials: [email] };
  assert.deepEqual(transition(s, { type: 'SUCCEEDED', view: after, notice: { kind: 'credential-revoked' } }), {
    kind: 'ready',
    view: after,
    notice: { kind: 'credential-revoked' },
  });
  const add = transition({ kind: 'ready', view }, { type: 'REQUEST', operation: { op: 'add', type: 'OAUTH' } });
  assert.deepEqual(add, { kind: 'ready', view, running: { op: 'add', type: 'OAUTH' } });
});

test('a blocked revocation request is ignored, a failure is shown and clears the operation', () => {
  const view: CredentialsView = { credentials: [email], sessions: [session], current, held: [current] };
  const s: CredentialsState = { kind: 'ready', view };
  assert.equal(transition(s, { type: 'REQUEST', operation: { op: 'revoke-credential', id: email.id } }), s);
  const failed = transition({ kind: 'ready', view, running: { op: 'update-email' } }, { type: 'FAILED', failure: { code: 'signature_rejected', status: 401 } });
  assert.deepEqual(failed, { kind: 'ready', view, failure: { code: 'signature_rejected', status: 401 } });
});

test('sessions: revocable only with a session on this device; loading failures are shown', () => {
  const view: CredentialsView = { credentials: [email], sessions: [session], current: null, held: [] };
  assert.equal(allowed({ kind: 'ready', view }, { op: 'revoke-session', id: session.id }), false);
  assert.equal(allowed({ kind: 'ready', view: { ...view, current } }, { op: 'revoke-session', id: session.id }), true);
  assert.equal(allowed({ kind: 'ready', view: { ...view, current } }, { op: 'revoke-session', id: 'Session:other' }), false);
  assert.deepEqual(transition(initialState(), { type: 'LOAD_FAILED', failure: { code: 'network' } }), { kind: 'load-failed', failure: { code: 'network' } });
});

test('lists that failed to load follow a read made without Reload (another tab\'s change): shown once read, the new failure said when it fails again', () => {
  const view: CredentialsView = { credentials: [email], sessions: [session], current: null, held: [] };
  const failed: CredentialsState = { kind: 'load-failed', failure: { code: 'network' } };
  assert.deepEqual(transition(failed, { type: 'LOADED', view }), { kind: 'ready', view });
  assert.deepEqual(transition(failed, { type: 'LOAD_FAILED', failure: { code: 'unexpected', status: 500 } }), { kind: 'load-failed', failure: { code: 'unexpected', status: 500 } });
});

test('an added SMS credential is activated through its own verify flow: code sent, code verified', () => {
  const view: CredentialsView = { credentials: [email, sms], sessions: [session], current, held: [current] };
  let s: CredentialsState = { kind: 'ready', view, running: { op: 'add', type: 'SMS_OTP' } };
  s = transition(s, { type: 'SUCCEEDED', view, notice: { kind: 'activation-sent' }, codeFor: sms.id });
  assert.deepEqual(s, { kind: 'ready', view, notice: { kind: 'activation-sent' }, codeFor: sms.id });
  assert.equal(allowed(s, { op: 'verify-code', id: email.id }), false);
  s = transition(s, { type: 'REQUEST', operation: { op: 'verify-code', id: sms.id } });
  assert.deepEqual(s, { kind: 'ready', view, running: { op: 'verify-code', id: sms.id }, codeFor: sms.id });
  // A wrong code keeps the form open with the failure.
  const wrong = transition(s, { type: 'FAILED', failure: { code: 'wrong_code', status: 401 } });
  assert.deepEqual(wrong, { kind: 'ready', view, failure: { code: 'wrong_code', status: 401 }, codeFor: sms.id });
  const done = transition(s, { type: 'SUCCEEDED', view, notice: { kind: 'activated', type: 'SMS_OTP' } });
  assert.deepEqual(done, { kind: 'ready', view, notice: { kind: 'activated', type: 'SMS_OTP' } });
  // The form's Cancel closes it.
  assert.deepEqual(transition(wrong, { type: 'CANCEL', code: true }), { kind: 'ready', view });
  // A new code for the awaited credential only; the form stays open while it is sent.
  assert.equal(allowed(wrong, { op: 'resend-code', id: email.id }), false);
  const resending = transition(wrong, { type: 'REQUEST', operation: { op: 'resend-code', id: sms.id } });
  assert.deepEqual(resending, { kind: 'ready', view, running: { op: 'resend-code', id: sms.id }, codeFor: sms.id });
  assert.deepEqual(transition(resending, { type: 'SUCCEEDED', view, notice: { kind: 'code-sent' }, codeFor: sms.id }), { kind: 'ready', view, notice: { kind: 'code-sent' }, codeFor: sms.id });
  assert.deepEqual(transition(resending, { type: 'FAILED', failure: { code: 'rate_limited', status: 429 } }), { kind: 'ready', view, failure: { code: 'rate_limited', status: 429 }, codeFor: sms.id });
});

test('an awaited code stays open through a confirmation and the other changes, until used, abandoned or its credential is gone', () => {
  const view: CredentialsView = { credentials: [email, sms], sessions: [session], current, held: [current] };
  const awaiting: CredentialsState = { kind: 'ready', view, codeFor: sms.id };
  const removal = { op: 'revoke-credential', id: sms.id } as const;
  const asking = transition(awaiting, { type: 'REQUEST', operation: removal });
  assert.deepEqual(asking, { kind: 'ready', view, confirming: removal, codeFor: sms.id });
  // Cancel (or Escape) goes back to the code form.
  assert.deepEqual(transition(asking, { type: 'CANCEL' }), awaiting);
  // The code form's own Cancel abandons the code; the confirmation stays.
  assert.deepEqual(transition(asking, { type: 'CANCEL', code: true }), { kind: 'ready', view, confirming: removal });
  // Confirmed: the form stays while the removal runs, and goes with its credential.
  const removing = transition(asking, { type: 'CONFIRM' });
  assert.deepEqual(removing, { kind: 'ready', view, running: removal, codeFor: sms.id });
  const without: CredentialsView = { ...view, credentials: [email] };
  assert.deepEqual(transition(removing, { type: 'SUCCEEDED', view: without, notice: { kind: 'credential-revoked' } }), { kind: 'ready', view: without, notice: { kind: 'credential-revoked' } });
  // Another change leaves it open, after success or failure.
  const ending = transition(transition(awaiting, { type: 'REQUEST', operation: { op: 'revoke-session', id: session.id } }), { type: 'CONFIRM' });
  const ended: CredentialsView = { ...view, sessions: [] };
  assert.deepEqual(transition(ending, { type: 'SUCCEEDED', view: ended, notice: { kind: 'session-revoked', own: false } }), {
    kind: 'ready',
    view: ended,
    notice: { kind: 'session-revoked', own: false },
    codeFor: sms.id,
  });
  const saving = transition(awaiting, { type: 'REQUEST', operation: { op: 'update-email' } });
  assert.deepEqual(saving, { kind: 'ready', view, running: { op: 'update-email' }, codeFor: sms.id });
  assert.deepEqual(transition(saving, { type: 'FAILED', failure: { code: 'network' } }), { kind: 'ready', view, failure: { code: 'network' }, codeFor: sms.id });
});

test('a "log in first" failure goes when a reload brings a session; other failures stay', () => {
  const out: CredentialsView = { credentials: [email], sessions: [], current: null, held: [] };
  const inside: CredentialsView = { ...out, sessions: [session], current, held: [current] };
  for (const code of ['login_required', 'session_expired', 'key_missing'] as const) {
    const failed: CredentialsState = { kind: 'ready', view: out, failure: { code } };
    assert.deepEqual(transition(failed, { type: 'LOADED', view: out }), failed);
    assert.deepEqual(transition(failed, { type: 'LOADED', view: inside }), { kind: 'ready', view: inside });
  }
  const network: CredentialsState = { kind: 'ready', view: out, failure: { code: 'network' } };
  assert.deepEqual(transition(network, { type: 'LOADED', view: inside }), { ...network, view: inside });
});

test('an activation code kept across a reload reopens its form only on a quiet screen, for a listed credential', () => {
  const view: CredentialsView = { credentials: [email, sms], sessions: [session], current, held: [current] };
  const quiet: CredentialsState = { kind: 'ready', view };
  assert.deepEqual(transition(quiet, { type: 'RESUMED', codeFor: sms.id }), { kind: 'ready', view, codeFor: sms.id });
  // Gone from the list (removed in another tab): nothing opens.
  assert.equal(transition(quiet, { type: 'RESUMED', codeFor: 'AuthMethod:gone' }), quiet);
  // Not over a running change, an open confirmation, or another code.
  for (const busy of [
    { kind: 'ready', view, running: { op: 'add', type: 'OAUTH' } },
    { kind: 'ready', view, confirming: { op: 'revoke-session', id: session.id } },
    { kind: 'ready', view, codeFor: email.id },
  ] as CredentialsState[]) {
    assert.equal(transition(busy, { type: 'RESUMED', codeFor: sms.id }), busy);
  }
  assert.deepEqual(transition(initialState(), { type: 'RESUMED', codeFor: sms.id }), { kind: 'loading' });
});

test('after a change the service made, the lists as this device knows them (for when reloading them fails)', () => {
  const view: CredentialsView = { credentials: [email], sessions: [session], current, held: [current] };
  assert.deepEqual(afterChange(view, { op: 'add', type: 'SMS_OTP' }, sms).credentials, [email, sms]);
  assert.deepEqual(afterChange(view, { op: 'revoke-session', id: session.id }, undefined, [session.id]), { credentials: [email], sessions: [], current: null, held: [] });
  assert.equal(afterChange(view, { op: 'update-email' }), view);
});

test('the lists after a logout or a removal leave out every session that ended with it, and only those', () => {
  const other: AuthSession = { ...session, id: 'Session:2' };
  const smsSession: AuthSession = { ...sms, id: 'Session:3', expiresAt: session.expiresAt };
  const key: AuthMethod = { ...email, id: 'AuthMethod:p', type: 'PASSKEY', nickname: 'Laptop', credentialId: 'cred-1' };
  const otherKey: AuthMethod = { ...key, id: 'AuthMethod:q', credentialId: 'cred-2' };
  const keySession: AuthSession = { ...key, id: 'Session:4', expiresAt: session.expiresAt };
  const view: CredentialsView = { credentials: [email, sms, key, otherKey], sessions: [session, other, smsSession, keySession], current, held: [current] };
  // A logout that ended this device's two sessions; one cut off after the first leaves the live one listed.
  assert.deepEqual(afterChange(view, { op: 'revoke-session', id: session.id }, undefined, [other.id, session.id]).sessions, [smsSession, keySession]);
  assert.deepEqual(afterChange(view, { op: 'revoke-session', id: session.id }, undefined, [other.id]), { ...view, sessions: [session, smsSession, keySession], current: null, held: [] });
  // A removed credential takes its sessions (same type, nickname and passkey id), not another's.
  assert.deepEqual(afterChange(view, { op: 'revoke-credential', id: sms.id }, sms), { ...view, credentials: [email, key, otherKey], sessions: [session, other, keySession] });
  assert.deepEqual(afterChange(view, { op: 'revoke-credential', id: otherKey.id }, otherKey).sessions, view.sessions);
  assert.deepEqual(afterChange(view, { op: 'revoke-credential', id: key.id }, key).sessions, [session, other, smsSession]);
});

test('a logout the service did not complete is said as done here and as a failure for the rest, until the next request', () => {
  const view: CredentialsView = { credentials: [email], sessions: [session], current, held: [current] };
  const running: CredentialsState = { kind: 'ready', view, running: { op: 'revoke-session', id: session.id } };
  const after: CredentialsView = { ...view, current: null, held: [] };
  const failure = { code: 'logout_incomplete' as const };
  const s = transition(running, { type: 'SUCCEEDED', view: after, notice: { kind: 'session-revoked', own: true }, failure });
  assert.deepEqual(s, { kind: 'ready', view: after, notice: { kind: 'session-revoked', own: true }, failure });
  // A reload keeps it (the sessions it names are still listed); a new request clears it.
  assert.deepEqual(transition(s, { type: 'LOADED', view: after }), s);
  assert.deepEqual(transition(s, { type: 'REQUEST', operation: { op: 'update-email' } }), { kind: 'ready', view: after, running: { op: 'update-email' } });
});

test('a reload keeps the screen and a running change; a load anew (another wallet) drops it, and any open form or confirmation', () => {
  const view: CredentialsView = { credentials: [email, sms], sessions: [session], current, held: [current] };
  const running: CredentialsState = { kind: 'ready', view, running: { op: 'add', type: 'OAUTH' } };
  assert.equal(transition(running, { type: 'LOAD' }), running);
  // So does a reload under an open form or confirmation.
  const asking: CredentialsState = { kind: 'ready', view, confirming: { op: 'revoke-credential', id: sms.id }, codeFor: sms.id };
  assert.equal(transition(asking, { type: 'LOAD' }), asking);
  for (const s of [
    running,
    { kind: 'ready', view, codeFor: sms.id },
    { kind: 'ready', view, confirming: { op: 'revoke-credential', id: sms.id } },
  ] satisfies CredentialsState[]) {
    assert.deepEqual(transition(s, { type: 'LOAD', anew: true }), { kind: 'loading' });
  }
});

test('a reload that fails is said over the open screen, and the next lists read takes it away; during a change it is left to the change', () => {
  const view: CredentialsView = { credentials: [email, sms], sessions: [session], current, held: [current] };
  const asking: CredentialsState = { kind: 'ready', view, confirming: { op: 'revoke-credential', id: sms.id }, codeFor: sms.id };
  const failed = transition(asking, { type: 'LOAD_FAILED', failure: { code: 'network' } });
  assert.deepEqual(failed, { ...asking, failure: { code: 'network' }, reloadFailed: true });
  assert.deepEqual(transition(failed, { type: 'LOADED', view }), asking);
  // A change's failure is not a reload's: a lists read leaves it said.
  const refused: CredentialsState = { kind: 'ready', view, failure: { code: 'network' } };
  assert.deepEqual(transition(refused, { type: 'LOADED', view }), refused);
  const running: CredentialsState = { kind: 'ready', view, running: { op: 'add', type: 'OAUTH' } };
  assert.equal(transition(running, { type: 'LOAD_FAILED', failure: { code: 'network' } }), running);
});

test('a question whose row another tab or device removed goes at the next lists read, and the notice says what became of that row', () => {
  const smsSession: AuthSession = { ...sms, id: 'Session:2', expiresAt: session.expiresAt };
  const view: CredentialsView = { credentials: [email, sms], sessions: [session, smsSession], current, held: [current] };
  const asking = (operation: { op: 'revoke-credential' | 'revoke-session'; id: string }): CredentialsState => ({ kind: 'ready', view, confirming: operation });
  // The row is still listed: the question stays.
  const stays = asking({ op: 'revoke-session', id: smsSession.id });
  assert.deepEqual(transition(stays, { type: 'LOADED', view }), stays);
  const noSms: CredentialsView = { ...view, credentials: [email], sessions: [session] };
  assert.deepEqual(transition(asking({ op: 'revoke-credential', id: sms.id }), { type: 'LOADED', view: noSms }), { kind: 'ready', view: noSms, notice: { kind: 'credential-revoked' } });
  assert.deepEqual(transition(asking({ op: 'revoke-session', id: smsSession.id }), { type: 'LOADED', view: noSms }), { kind: 'ready', view: noSms, notice: { kind: 'session-revoked', own: false } });
  // This device's own session, ended from another tab: it is logged out here.
  const loggedOut: CredentialsView = { ...view, sessions: [smsSession], current: null, held: [] };
  assert.deepEqual(transition(asking({ op: 'revoke-session', id: session.id }), { type: 'LOADED', view: loggedOut }), { kind: 'ready', view: loggedOut, notice: { kind: 'session-revoked', own: true } });
});

test('a failed removal or add names the row it is about; a failed reload or the next request does not', () => {
  const view: CredentialsView = { credentials: [email, sms], sessions: [session], current, held: [current] };
  const failure = { code: 'unexpected' as const };
  let s: CredentialsState = transition({ kind: 'ready', view }, { type: 'REQUEST', operation: { op: 'revoke-credential', id: sms.id } });
  s = transition(transition(s, { type: 'CONFIRM' }), { type: 'FAILED', failure });
  assert.equal((s as { about?: string }).about, sms.id);
  assert.equal((transition(s, { type: 'LOAD_FAILED', failure: { code: 'network' } }) as { about?: string }).about, undefined);
  assert.equal((transition(s, { type: 'REQUEST', operation: { op: 'add', type: 'OAUTH' } }) as { about?: string }).about, undefined);
  const added = transition(transition({ kind: 'ready', view }, { type: 'REQUEST', operation: { op: 'add', type: 'OAUTH' } }), { type: 'FAILED', failure });
  assert.equal((added as { about?: string }).about, 'OAUTH');
  const email_ = transition(transition({ kind: 'ready', view }, { type: 'REQUEST', operation: { op: 'update-email' } }), { type: 'FAILED', failure });
  assert.equal('about' in email_, false);
});
