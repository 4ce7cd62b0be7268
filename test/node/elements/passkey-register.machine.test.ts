// The <passkey-register> flow without a DOM: api.md "Registration of a passkey" and "Adding a
// credential when another exists" (201 fresh, 202 signed retry, then activation by its own verify).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultNickname,
  initialState,
  isBusy,
  transition,
  validNickname,
  type RegisterEvent,
  type RegisterState,
} from '../../../src/elements/passkey-register/passkey-register.machine.ts';

const passkey = { credentialId: 'AuthMethod:1', nickname: 'Laptop' };
const run = (s: RegisterState, ...events: RegisterEvent[]) => events.reduce(transition, s);

test('no WebAuthn: the unsupported screen, which nothing leaves', () => {
  const s = run(initialState(), { type: 'SUPPORT', support: 'none' });
  assert.deepEqual(s, { kind: 'unsupported' });
  assert.equal(transition(s, { type: 'START' }), s);
});

test('WebAuthn without a platform authenticator still registers (security keys), saying so', () => {
  assert.deepEqual(run(initialState(), { type: 'SUPPORT', support: 'roaming-only' }), { kind: 'ready', support: 'roaming-only' });
});

test('happy path: create, save, activate, done with a passkey session', () => {
  const steps: RegisterEvent[] = [
    { type: 'SUPPORT', support: 'platform' },
    { type: 'START' },
    { type: 'SAVED', passkey },
    { type: 'ACTIVATED', sessionId: 'Session:9' },
  ];
  const kinds: string[] = [];
  let s = initialState();
  for (const e of steps) {
    s = transition(s, e);
    kinds.push(s.kind);
  }
  assert.deepEqual(kinds, ['ready', 'creating', 'activating', 'done']);
  assert.deepEqual(s, { kind: 'done', support: 'platform', passkey, sessionId: 'Session:9' });
  assert.equal(isBusy({ kind: 'creating', support: 'platform' }), true);
  assert.equal(isBusy(s), false);
});

test('waiting for another tab\'s registration, then its turn: creating says which, each once', () => {
  const creating = run(initialState(), { type: 'SUPPORT', support: 'platform' }, { type: 'START' });
  assert.deepEqual(creating, { kind: 'creating', support: 'platform' });
  const waiting = transition(creating, { type: 'WAITING', waiting: true });
  assert.deepEqual(waiting, { kind: 'creating', support: 'platform', waiting: true });
  assert.ok(isBusy(waiting));
  // Told twice, the state stays the same object (nothing is announced again).
  assert.equal(transition(waiting, { type: 'WAITING', waiting: true }), waiting);
  const turn = transition(waiting, { type: 'WAITING', waiting: false });
  assert.deepEqual(turn, { kind: 'creating', support: 'platform', waiting: false });
  assert.equal(transition(turn, { type: 'WAITING', waiting: false }), turn);
  // No other registration: its turn at once.
  assert.deepEqual(transition(creating, { type: 'WAITING', waiting: false }), turn);
  // Cancelled while it waits: the form; a late word from the stopped wait changes nothing there.
  const ready = transition(waiting, { type: 'CANCELLED' });
  assert.deepEqual(ready, { kind: 'ready', support: 'platform' });
  assert.equal(transition(ready, { type: 'WAITING', waiting: true }), ready);
  assert.deepEqual(transition(turn, { type: 'SAVED', passkey }), { kind: 'activating', support: 'platform', passkey });
});

test('a passkey saved although the user stopped the registration (a wallet\'s first) is kept: registered, with no login started', () => {
  const creating = run(initialState(), { type: 'SUPPORT', support: 'platform' }, { type: 'START' });
  const kept = transition(creating, { type: 'SAVED', passkey, kept: true });
  assert.deepEqual(kept, { kind: 'registered', support: 'platform', passkey });
  assert.equal(transition(kept, { type: 'ACTIVATE' }).kind, 'activating');
});

test('a cancelled create returns to a usable form with no error', () => {
  const s = run(initialState(), { type: 'SUPPORT', support: 'platform' }, { type: 'START' }, { type: 'CANCELLED' });
  assert.deepEqual(s, { kind: 'ready', support: 'platform' });
  assert.equal(transition(s, { type: 'START' }).kind, 'creating');
});

test('cancelled, a passkey saved meanwhile whose removal failed is said on the form; only there, and the next try clears it', () => {
  const ready = transition(transition({ kind: 'creating', support: 'platform' }, { type: 'CANCELLED' }), { type: 'KEPT' });
  assert.deepEqual(ready, { kind: 'ready', support: 'platform', failure: { code: 'passkey_kept' } });
  assert.deepEqual(transition(ready, { type: 'START' }), { kind: 'creating', support: 'platform' });
  const creating = { kind: 'creating', support: 'platform' } as const;
  assert.equal(transition(creating, { type: 'KEPT' }), creating);
});

test('an already registered authenticator shows its failure on the form', () => {
  const s = run(
    initialState(),
    { type: 'SUPPORT', support: 'platform' },
    { type: 'START' },
    { type: 'FAILED', failure: { code: 'passkey_exists', status: 400 } },
  );
  assert.deepEqual(s, { kind: 'ready', support: 'platform', failure: { code: 'passkey_exists', status: 400 } });
});

test('202 without a session on this device asks to log in first; a session makes the form usable again', () => {
  const s = run(initialState(), { type: 'SUPPORT', support: 'platform' }, { type: 'START' }, { type: 'LOGIN_REQUIRED' });
  assert.deepEqual(s, { kind: 'login-required', support: 'platform' });
  assert.deepEqual(transition(s, { type: 'SESSION_AVAILABLE' }), { kind: 'ready', support: 'platform' });
});

test('a session that ended while the passkey was created is told apart from none at all, and a login ends it too', () => {
  const s = run(initialState(), { type: 'SUPPORT', support: 'platform' }, { type: 'START' }, { type: 'LOGIN_REQUIRED', ended: true });
  assert.deepEqual(s, { kind: 'login-required', support: 'platform', ended: true });
  assert.deepEqual(transition(s, { type: 'SESSION_AVAILABLE' }), { kind: 'ready', support: 'platform' });
  assert.deepEqual(run(initialState(), { type: 'SUPPORT', support: 'platform' }, { type: 'START' }, { type: 'LOGIN_REQUIRED', ended: false }), {
    kind: 'login-required',
    support: 'platform',
  });
});

test('the session ended elsewhere: the form and the success say "log in first"; a registration under way, that its session ended; a login brings the form back', () => {
  const ready = run(initialState(), { type: 'SUPPORT', support: 'platform' });
  const logInFirst: RegisterState = { kind: 'login-required', support: 'platform' };
  assert.deepEqual(transition(ready, { type: 'SESSION_ENDED' }), { ...logInFirst, ended: false });
  assert.deepEqual(transition({ kind: 'ready', support: 'platform', failure: { code: 'network' } }, { type: 'SESSION_ENDED' }), { ...logInFirst, ended: false });
  assert.deepEqual(transition({ kind: 'done', support: 'platform', passkey, sessionId: 'Session:9' }, { type: 'SESSION_ENDED' }), logInFirst);
  const ended = run(ready, { type: 'START' }, { type: 'WAITING', waiting: false }, { type: 'SESSION_ENDED' });
  assert.deepEqual(ended, { ...logInFirst, ended: true });
  // The stopped step's outcome, arriving after, changes nothing; a login makes the form usable again.
  for (const e of [{ type: 'CANCELLED' }, { type: 'LOGIN_REQUIRED', ended: true }, { type: 'SESSION_ENDED' }] satisfies RegisterEvent[]) assert.equal(transition(ended, e), ended, e.type);
  assert.deepEqual(transition(ended, { type: 'SESSION_AVAILABLE' }), ready);
  // A saved passkey's login needs no session of the wallet: it runs on, or is offered, as before.
  for (const s of [
    { kind: 'activating', support: 'platform', passkey },
    { kind: 'registered', support: 'platform', passkey },
    { kind: 'unsupported' },
    { kind: 'checking' },
  ] satisfies RegisterState[]) {
    assert.equal(transition(s, { type: 'SESSION_ENDED' }), s, s.kind);
  }
});

test('"log in first" of a step that ends after another wallet was set (RESET) is dropped: the new wallet keeps its form', () => {
  const s = run(initialState(), { type: 'SUPPORT', support: 'platform' }, { type: 'START' }, { type: 'RESET' });
  assert.equal(transition(s, { type: 'LOGIN_REQUIRED' }), s);
  assert.equal(transition(s, { type: 'LOGIN_REQUIRED', ended: true }), s);
});

test('activation cancelled: the passkey stays registered and activation can be retried', () => {
  const s = run(
    initialState(),
    { type: 'SUPPORT', support: 'platform' },
    { type: 'START' },
    { type: 'SAVED', passkey },
    { type: 'CANCELLED' },
  );
  assert.deepEqual(s, { kind: 'registered', support: 'platform', passkey });
  assert.deepEqual(transition(s, { type: 'ACTIVATE' }), { kind: 'activating', support: 'platform', passkey });
});

test('nickname: 1 to 100 characters after trimming; the default names platform and day', () => {
  assert.equal(validNickname(''), false);
  assert.equal(validNickname('   '), false);
  assert.equal(validNickname('a'), true);
  assert.equal(validNickname('x'.repeat(100)), true);
  assert.equal(validNickname('x'.repeat(101)), false);
  const name = defaultNickname('Linux', new Date('2026-03-04T12:00:00Z'), 'en');
  assert.match(name, /^Linux · Mar 4, 2026$/);
  assert.ok(validNickname(defaultNickname('y'.repeat(200), new Date(), 'en')));
  assert.match(defaultNickname('', new Date('2026-03-04T12:00:00Z'), 'en'), /^Passkey · /);
  // Without a platform name, the name given for the language (three arguments still work as before).
  assert.match(defaultNickname(' ', new Date('2026-03-04T12:00:00Z'), 'ar', 'مفتاح المرور'), /^مفتاح المرور · /);
  assert.match(defaultNickname('Linux', new Date('2026-03-04T12:00:00Z'), 'ar', 'مفتاح المرور'), /^Linux · /);
});

test('another wallet (RESET) drops what runs or was said for the previous one: the form, with no failure', () => {
  const ready: RegisterState = { kind: 'ready', support: 'platform' };
  for (const s of [
    { kind: 'creating', support: 'platform' },
    { kind: 'activating', support: 'platform', passkey },
    { kind: 'registered', support: 'platform', passkey },
    { kind: 'done', support: 'platform', passkey, sessionId: 'Session:9' },
    { kind: 'login-required', support: 'platform' },
    { kind: 'ready', support: 'platform', failure: { code: 'network' } },
  ] satisfies RegisterState[]) {
    assert.deepEqual(transition(s, { type: 'RESET' }), ready, s.kind);
  }
  assert.equal(transition(ready, { type: 'RESET' }), ready);
  // The previous wallet's outcomes, arriving late, change nothing.
  for (const e of [{ type: 'SAVED', passkey }, { type: 'ACTIVATED', sessionId: 'Session:9' }, { type: 'CANCELLED' }] satisfies RegisterEvent[]) {
    assert.equal(transition(ready, e), ready, e.type);
  }
});
