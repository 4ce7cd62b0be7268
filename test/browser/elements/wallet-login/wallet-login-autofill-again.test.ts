/**
 * A passkey picked from autofill whose login then fails, in Chromium with the virtual authenticator:
 * the service refuses its assertion (401), or the check's answer is lost or a 5xx. The screen says
 * so, and the saved-passkey field offers the passkeys again at once (a new conditional request, in
 * the same field, the keyboard left in it), where the next pick logs in.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import { addVirtualAuthenticator, advanceClock, authenticatorCredentials, newAccount, olderPasskeyHere, setUserVerified, takeAuthenticatorCredential, type RigAccount } from '../../support/rig.ts';
import { failNext, inState, loseAnswer, mount, nextEvent, part, resetPage, text, useRig, waitFor } from '../shared/helpers.ts';
import { watchPage } from './helpers.ts';

const settle = () => new Promise((r) => setTimeout(r, 700));
const VERIFY = 'POST /auth/credentials/{id}/verify';

describe('<wallet-login> autofill after a picked passkey failed to log in', function () {
  this.timeout(60000);
  let acct: RigAccount;
  let store: KeyStore;
  let watch: ReturnType<typeof watchPage>;

  beforeEach(async () => {
    ({ store } = await useRig());
    await addVirtualAuthenticator();
    acct = await newAccount();
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Laptop' });
    await wallet.logout(acct.accountId);
    watch = watchPage();
  });
  afterEach(async () => {
    await resetPage();
    watch.restore();
  });

  /**
   * The authenticator answers the autofill request at once, as a user picking the suggestion would.
   * Its challenge waits until the keyboard is in the saved-passkey field; `fail` (set up first,
   * returning its undo) makes the check of the pick fail. The list of the request that follows waits.
   */
  async function pickFails(fail: () => () => void, code: string, message: RegExp): Promise<void> {
    const first = watch.hold('POST /auth/credentials/{id}/challenge', 1);
    const next = watch.hold('GET /auth/credentials', 2);
    const errors: Array<{ code: string; message: string }> = [];
    const logins: LoggedInDetail[] = [];
    const undo = fail();
    let el: WalletLogin;
    let field: HTMLInputElement;
    try {
      el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' }, (e) => {
        e.addEventListener('wallet-login-error', (ev) => errors.push((ev as CustomEvent).detail));
        e.addEventListener('wallet-logged-in', (ev) => logins.push((ev as CustomEvent<LoggedInDetail>).detail));
      });
      await first.arrived;
      await el.updateComplete;
      field = part(el, 'autofill')!.querySelector('input')!;
      field.focus();
      first.release();
      await waitFor(() => errors.length > 0, 'the error event');
    } finally {
      undo();
    }
    expect(errors.map((e) => e.code)).to.deep.equal([code]);
    expect(errors[0]!.message).to.match(message);
    expect(text(el, 'error')).to.equal(errors[0]!.message);
    expect(inState(el, 'choosing')).to.equal(true);
    expect(logins).to.deep.equal([]);

    // Offered again at once: a new request, in the same field, the keyboard still in it.
    // (However long a busy machine takes: nothing else happens meanwhile that could ask for it.)
    const again = await Promise.race([next.arrived.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15000))]);
    expect(again, 'autofill asked for again').to.equal(true);
    await el.updateComplete;
    expect(part(el, 'autofill')?.querySelector('input') === field, 'the same field').to.equal(true);
    expect(el.shadowRoot!.activeElement === field, `focus on ${document.activeElement?.tagName}`).to.equal(true);
    // The user picks the passkey again: it logs in.
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    next.release();
    const { detail } = await loggedIn;
    expect([detail.accountId, detail.credentialType, detail.source]).to.deep.equal([acct.accountId, 'PASSKEY', 'login']);
    expect(watch.gets.map((g) => g.mediation), 'WebAuthn requests').to.deep.equal(['conditional', 'conditional']);
    expect((await store.get(acct.accountId))?.session.credentialType).to.equal('PASSKEY');
    expect(errors, 'one error in all').to.have.length(1);
  }

  it('the service refuses the assertion (401, its challenge expired while it was on its way): passkey_rejected, and autofill is offered again', async () => {
    // The service's clock moves past the challenge's window (5 minutes) before the check reaches it.
    await pickFails(() => {
      const check = watch.hold(VERIFY, 1);
      void check.arrived.then(() => advanceClock(5 * 60_000 + 1000)).then(check.release);
      return () => undefined;
    }, 'passkey_rejected', /passkey/i);
  });

  it('the answer to the check is lost (a network failure): autofill is offered again', async () => {
    await pickFails(() => loseAnswer('POST', /\/auth\/credentials\/[^/]+\/verify$/), 'network', /connection|network|reach/i);
  });

  it('the check is answered 503: autofill is offered again', async () => {
    await pickFails(() => failNext('POST', /\/auth\/credentials\/[^/]+\/verify$/, 503), 'network', /connection|network|reach/i);
  });

  it('an older passkey of the wallet picked, whose second prompt the user cancels: autofill is offered again, quietly, and the next pick logs in', async () => {
    // This device holds an older passkey of the wallet only: the pick over the newest's challenge
    // is asked for again in a prompt of its own (core's loginWithPasskey).
    const [first] = (await authenticatorCredentials()).credentials;
    await takeAuthenticatorCredential(first!.credentialId);
    await advanceClock(31_000); // past the sandbox's wait between two codes of one credential
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const { older } = await olderPasskeyHere(wallet, acct.accountId);
    await wallet.logout(acct.accountId);
    watch.restore();
    watch = watchPage();

    const challenge = watch.hold('POST /auth/credentials/{id}/challenge', 1);
    const prompt = watch.hold('POST /auth/credentials/{id}/challenge', 2);
    const next = watch.hold('GET /auth/credentials', 2);
    const errors: string[] = [];
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' }, (e) => {
      e.addEventListener('wallet-login-error', (ev) => errors.push((ev as CustomEvent).detail.code));
    });
    await challenge.arrived;
    await el.updateComplete;
    const field = part(el, 'autofill')!.querySelector('input')!;
    field.focus();
    challenge.release();
    // Picked; the second prompt's challenge is on its way: the user will not confirm it (NotAllowedError, as a prompt closed).
    await prompt.arrived;
    await setUserVerified(false);
    prompt.release();

    // (However long a busy machine takes: nothing else happens meanwhile that could ask for it.)
    const again = await Promise.race([next.arrived.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15000))]);
    expect([again, watch.gets.map((g) => g.mediation), errors], 'autofill asked for again after the prompt').to.deep.equal([true, ['conditional', 'modal'], []]);
    await el.updateComplete;
    expect(inState(el, 'choosing')).to.equal(true);
    expect(part(el, 'autofill')?.querySelector('input') === field, 'the same field').to.equal(true);
    expect(el.shadowRoot!.activeElement === field, `focus on ${document.activeElement?.tagName}`).to.equal(true);
    // The user picks the passkey again and confirms it this time: it logs in.
    await setUserVerified(true);
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    next.release();
    expect((await loggedIn).detail.credentialType).to.equal('PASSKEY');
    expect((await store.get(acct.accountId))?.session.credentialId).to.equal(older.id);
    expect(watch.gets.map((g) => g.mediation), 'WebAuthn requests').to.deep.equal(['conditional', 'modal', 'conditional', 'modal']);
    expect(errors).to.deep.equal([]);
  });

  it('a challenge refused before any pick reports once, and autofill is not asked for again in a loop', async () => {
    const undo = failNext('POST', /\/auth\/credentials\/[^/]+\/challenge$/, 503, 100);
    let errors = 0;
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' }, (e) => {
        e.addEventListener('wallet-login-error', () => errors++);
      });
      await waitFor(() => errors > 0, 'the error event');
      await settle();
      expect(errors).to.equal(1);
      expect(watch.sent.filter((s) => s === 'GET /auth/credentials'), 'credential lists').to.have.length(1);
      expect(watch.gets, 'WebAuthn requests').to.deep.equal([]);
      expect(inState(el, 'choosing')).to.equal(true);
    } finally {
      undo();
    }
  });
});
