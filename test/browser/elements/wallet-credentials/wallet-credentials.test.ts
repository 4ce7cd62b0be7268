/**
 * <wallet-credentials> in Chromium against the real sandbox through the real proxy: lists, adding
 * SMS_OTP (signed retry, then activation by its own code) and OAUTH (token from the sandbox's test
 * issuer), the revocation rules of api.md (a different credential's session signs; never the last
 * one), ending sessions (one's own is a logout), the customer email's signed retry, axe, Arabic.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { CredentialChangeDetail, SessionRevokedDetail } from '../../../../src/elements/wallet-credentials/wallet-credentials.events.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { SESSION_CHANNEL_NAME } from '../../../../src/elements/shared/session-channel.ts';
import '../../../../src/locales/ar.ts';
import { createClient } from '../../../../src/core/client.ts';
import { indexedDbKeyStore, type KeyStore } from '../../../../src/core/keystore.ts';
import { createWallet } from '../../../../src/core/session.ts';
import { createStore, del } from 'idb-keyval';
import { newAccount, oidcToken, advanceClock, addVirtualAuthenticator, axHeadings, fixtures, openOtherTab, type OtherTab, type RigAccount } from '../../support/rig.ts';
import { axeViolations, drawnLeftToRight, failNext, focusIn, holdAnswer, holdNext, loseAnswer, mount, nextEvent, part, parts, resetPage, shadow, text, type, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';
import { addButton, blocked, idle, loginByEmail, smsCodeEntry } from './helpers.ts';

function row(el: WalletCredentials, type: string): HTMLElement {
  const r = shadow(el).querySelector<HTMLElement>(`[part~='credential'][data-type='${type}']`);
  if (!r) throw new Error(`no ${type} row`);
  return r;
}

function removeButton(el: WalletCredentials, type: string): HTMLButtonElement {
  return row(el, type).querySelector<HTMLButtonElement>("[part~='revoke-button']")!;
}

/** The Cancel button of the open confirmation, or else of the open form. */
function cancelButton(el: WalletCredentials): HTMLButtonElement {
  const scope = part(el, 'confirm') ?? shadow(el);
  return [...scope.querySelectorAll<HTMLElement>("[part~='button']")].find((b) => b.textContent?.includes('Cancel')) as HTMLButtonElement;
}

/** Waits for the form or confirmation `state` to open, presses its Cancel, and lets the element settle. */
async function cancelIn(el: WalletCredentials, state: string): Promise<void> {
  await waitForState(el, state);
  cancelButton(el).click();
  await idle(el);
}

async function confirm(el: WalletCredentials): Promise<void> {
  await waitForState(el, 'confirming');
  // The focus is on Cancel, the choice that changes nothing.
  await waitFor(() => shadow(el).activeElement === cancelButton(el), 'focus on the confirmation');
  part(el, 'confirm')!.querySelector<HTMLButtonElement>('button.danger')!.click();
}

/**
 * Ends the session `id` from its row, this device holding another session of the wallet: the
 * question says so; the `session-revoked` detail told, once the element has settled.
 */
async function endHeldSession(el: WalletCredentials, id: string): Promise<SessionRevokedDetail> {
  const revoked = nextEvent<CustomEvent<SessionRevokedDetail>>(el, 'session-revoked');
  shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${id}'] button`)!.click();
  await waitForState(el, 'confirming');
  // Not "the device that holds it will be logged out": this device holds it, and stays logged in.
  const question = shadow(el).getElementById('confirm-question')!.textContent!;
  expect(question).not.to.contain('logged out');
  expect(question).to.contain('This device stays logged in with its other session');
  await confirm(el);
  const { detail } = await revoked;
  await idle(el);
  return detail;
}

/** A `<wallet-credentials>` of that account, mounted and settled (its lists loaded). */
async function settled(accountId: string): Promise<WalletCredentials> {
  const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': accountId });
  await idle(el);
  return el;
}

/** Logged in by email, the element of the account with an SMS login added and its activation code typed. */
async function smsCodeTyped(acct: RigAccount): Promise<WalletCredentials> {
  const el = await smsCodeEntry(acct);
  type(part(el, 'code-input') as HTMLInputElement, '000000');
  return el;
}

/** Two email logins kept on this device, and the element; `mine` is the row of the one it signs with ("Log out here"). */
async function twoSessionsHere(acct: RigAccount) {
  const first = await loginByEmail(acct);
  await advanceClock(31_000);
  const second = await loginByEmail(acct);
  const el = await settled(acct.accountId);
  const mine = parts(el, 'session').find((r) => r.querySelector('button')!.textContent!.trim() === 'Log out here')!;
  return { first, second, el, mine };
}

describe('<wallet-credentials>', function () {
  this.timeout(60000);
  let acct: RigAccount, store: KeyStore, dbName: string;
  beforeEach(async () => ({ acct, store, dbName } = await useRigAccount()));
  afterEach(resetPage);

  it('without a session lists the credential and says why nothing can change', async () => {
    const el = await settled(acct.accountId);
    expect(parts(el, 'credential')).to.have.length(1);
    expect(text(el, 'credential-name')).to.contain('@');
    expect(blocked(removeButton(el, 'EMAIL_OTP'))).to.equal(true);
    expect(row(el, 'EMAIL_OTP').textContent).to.contain('only way to log in');
    expect(addButton(el, 'SMS_OTP').disabled).to.equal(true);
    expect(text(el, 'base')).to.contain('Log in to make changes');
  });

  it('adds SMS codes with the signed retry, activates them with a code, then revokes with the other credential’s session', async () => {
    const emailSession = await loginByEmail(acct);
    let el = await settled(acct.accountId);
    expect(row(el, 'EMAIL_OTP').querySelector("[part~='badge']")?.textContent).to.contain('This device');
    // The email login is the current one here: it cannot remove itself, and it is the only one.
    expect(blocked(removeButton(el, 'EMAIL_OTP'))).to.equal(true);

    const added = nextEvent<CustomEvent<CredentialChangeDetail>>(el, 'credential-added');
    const challenges = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/challenge')).length;
    const challengesBefore = challenges();
    addButton(el, 'SMS_OTP').click();
    const a = (await added).detail;
    expect(a.type).to.equal('SMS_OTP');
    expect(a.credentialId).to.match(/^AuthMethod:/);
    await waitForState(el, 'code-entry');
    // Not usable before its code is entered: the notice says a code was sent, not that it was added,
    // and the field's description says what the code is for.
    expect(text(el, 'status')).to.equal('A code is on its way by text message.');
    expect(shadow(el).getElementById('code-help')!.textContent).to.equal('Enter the code to finish adding text message codes.');
    // The code the registration sent is the one to enter: no /challenge, so no second SMS.
    expect(challenges()).to.equal(challengesBefore);
    let code = part(el, 'code-input') as HTMLInputElement;
    expect(code.getAttribute('autocomplete')).to.equal('one-time-code');
    await waitFor(() => shadow(el).activeElement === code, 'focus on the activation code');
    // A wrong code is said under the code field and tied to it, not at the foot of the panel.
    type(code, '123456');
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => code.getAttribute('aria-invalid') === 'true', 'the wrong code marked');
    const codeError = shadow(el).getElementById('code-error')!;
    expect(codeError.textContent).to.match(/code/i);
    expect(code.getAttribute('aria-describedby')!.split(' ')).to.include('code-error');
    expect(text(el, 'error')).to.equal('');

    // The page reloads while the user reads the text message: a new element comes back to the same
    // code, and no new code is sent. The tab keeps only the public challenge answer.
    const kept = () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:activation:') && k.endsWith(acct.accountId));
    expect(kept()).to.have.length(1);
    expect(Object.keys(JSON.parse(sessionStorage.getItem(kept()[0]!)!) as object).sort()).to.deep.equal(['accountId', 'id', 'otpEncryptionTargetBundle', 'resendAt', 'sentAt', 'type']);
    el.remove();
    el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await waitForState(el, 'code-entry');
    expect(challenges()).to.equal(challengesBefore, 'no second code');
    code = part(el, 'code-input') as HTMLInputElement;
    type(code, '000000');
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => text(el, 'status').includes('ready to use'), 'the activation notice');
    expect(text(el, 'status')).to.equal('Text message code is ready to use.');
    expect(kept()).to.deep.equal([], 'the used code forgotten');
    await idle(el);
    expect(blocked(addButton(el, 'SMS_OTP'))).to.equal(true, 'one SMS_OTP at most');
    expect(shadow(el).querySelector("[part~='add-button'][data-type='SMS_OTP'] + [part~='hint']")?.textContent).to.contain('already receives codes');

    // This device now holds an SMS session (the activation) besides the email one, so either login
    // can go: the stamp comes from the other credential's session (api.md "Revoking a credential").
    expect((await store.get(acct.accountId))?.session.credentialType).to.equal('SMS_OTP');
    expect(removeButton(el, 'EMAIL_OTP').disabled).to.equal(false);
    expect(removeButton(el, 'SMS_OTP').disabled).to.equal(false);

    const revoked = nextEvent<CustomEvent<CredentialChangeDetail>>(el, 'credential-revoked');
    removeButton(el, 'EMAIL_OTP').click();
    await confirm(el);
    expect((await revoked).detail).to.deep.equal({ accountId: acct.accountId, credentialId: acct.emailCredentialId, type: 'EMAIL_OTP' });
    await idle(el);
    const left = await clientFor().listCredentials(acct.accountId);
    expect(left.map((c) => c.type)).to.deep.equal(['SMS_OTP']);
    // The revoked credential's sessions ended with it.
    const sessions = await clientFor().listSessions(acct.accountId);
    expect(sessions.map((s) => s.id)).not.to.include(emailSession);
    // And now SMS is the last one: it says so.
    expect(row(el, 'SMS_OTP').textContent).to.contain('only way to log in');
  });

  it('a removal asked for while an activation code is awaited leaves its form as it was: Cancel goes back to the code typed', async () => {
    // A session of another device (its key is not here), and this device's.
    const other = await loginByEmail(acct);
    await advanceClock(31_000);
    await loginByEmail(acct);
    await store.delete(other);
    const el = await settled(acct.accountId);
    addButton(el, 'SMS_OTP').click();
    await waitForState(el, 'code-entry');
    await idle(el);
    type(part(el, 'code-input') as HTMLInputElement, '000000');
    // The new SMS credential can be removed with the email session: the user opens that, then thinks better of it.
    removeButton(el, 'SMS_OTP').click();
    await cancelIn(el, 'confirming');
    expect(el.matches(':state(code-entry)')).to.equal(true);
    expect((part(el, 'code-input') as HTMLInputElement).value).to.equal('000000');
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:activation:'))).to.have.length(1);
    // Ending another device's session meanwhile keeps it open too; the code then activates.
    shadow(el).querySelector<HTMLButtonElement>(`[part~='session'][data-id='${other}'] button`)!.click();
    await confirm(el);
    await waitFor(() => text(el, 'status').includes('Session ended'), 'the session ended');
    await idle(el);
    expect((part(el, 'code-input') as HTMLInputElement).value).to.equal('000000');
    // Its row is gone with the button that held the focus: the keyboard is back in the code field.
    expect(shadow(el).activeElement === part(el, 'code-input')).to.equal(true, 'focus in the code field');
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => text(el, 'status').includes('ready to use'), 'the activation notice');
  });

  it('reload() by the page reads the lists again under what the user is doing: a code typed, an email typed, a confirmation open', async () => {
    const el = await smsCodeTyped(acct);
    type(part(el, 'input') as HTMLInputElement, 'new@example.com');
    removeButton(el, 'SMS_OTP').click();
    await waitForState(el, 'confirming');
    const lists = performance.getEntriesByType('resource').filter((e) => e.name.includes('/auth/credentials?')).length;
    el.reload();
    await waitFor(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/auth/credentials?')).length > lists, 'the lists read again');
    await idle(el);
    expect([el.matches(':state(confirming)'), el.matches(':state(code-entry)')]).to.deep.equal([true, true]);
    expect((part(el, 'code-input') as HTMLInputElement).value).to.equal('000000');
    expect((part(el, 'input') as HTMLInputElement).value).to.equal('new@example.com');
    // Both dismissed: the code is abandoned, and forgotten.
    await cancelIn(el, 'confirming');
    await cancelIn(el, 'code-entry');
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:activation:'))).to.deep.equal([]);
  });

  it('a reload() that fails is said over what is open, the typed code kept, and the next reload takes it away', async () => {
    const el = await smsCodeTyped(acct);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));
    const undo = failNext('GET', /\/auth\/credentials\?accountId=/, 503);
    try {
      el.reload();
      await waitFor(() => text(el, 'error') !== '', 'the failed reload said');
    } finally {
      undo();
    }
    expect(errors).to.deep.equal(['network']);
    expect([el.matches(':state(code-entry)'), (part(el, 'code-input') as HTMLInputElement).value]).to.deep.equal([true, '000000']);
    el.reload();
    await waitFor(() => text(el, 'error') === '', 'the failure gone with the next reload');
    expect((part(el, 'code-input') as HTMLInputElement).value).to.equal('000000');
    await cancelIn(el, 'code-entry');
  });

  it('an abandoned activation code is forgotten: a reload shows the lists', async () => {
    await loginByEmail(acct);
    let el = await settled(acct.accountId);
    addButton(el, 'SMS_OTP').click();
    await cancelIn(el, 'code-entry');
    expect(el.matches(':state(code-entry)')).to.equal(false);
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:activation:'))).to.deep.equal([]);
    el.remove();
    el = await settled(acct.accountId);
    expect(el.matches(':state(code-entry)')).to.equal(false);
  });

  it('an activation code the service can no longer take is said under the field, and "Send a new code" brings one that activates', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    addButton(el, 'SMS_OTP').click();
    await waitForState(el, 'code-entry');
    await idle(el);
    const code = () => part(el, 'code-input') as HTMLInputElement;
    // A server failure keeps the code typed for a second try.
    const undo = failNext('POST', /\/verify$/, 500);
    try {
      const failed = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-credentials-error');
      type(code(), '000000');
      (part(el, 'code-form') as HTMLFormElement).requestSubmit();
      expect((await failed).detail.code).to.equal('unexpected');
    } finally {
      undo();
    }
    await idle(el);
    expect(code().value).to.equal('000000');
    // The sandbox keeps a code 5 minutes.
    await advanceClock(6 * 60 * 1000);
    const failed = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-credentials-error');
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    expect((await failed).detail.code).to.equal('code_expired');
    await idle(el);
    expect(shadow(el).getElementById('code-error')!.textContent).to.match(/can’t be used any more\. Send a new code/);
    expect(text(el, 'error')).to.equal('');
    expect(code().value).to.equal('');
    const resend = parts(el, 'button').find((b) => b.textContent?.includes('Send a new code')) as HTMLButtonElement;
    // The way on is a new code: the button has the focus, not the field.
    await waitFor(() => shadow(el).activeElement === resend, 'focus on "Send a new code"');
    resend.click();
    await waitFor(() => text(el, 'status').includes('A new code is on its way'), 'the new code announced');
    await idle(el);
    expect(el.matches(':state(code-entry)')).to.equal(true);
    expect(shadow(el).getElementById('code-error')!.textContent).to.equal('');
    type(code(), '000000');
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => text(el, 'status').includes('ready to use'), 'the activation notice');
  });

  it('a change done upstream stands when the lists fail to reload after it: the code form opens, a removal is not called a failure', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));

    // The SMS credential is created; the sessions list then answers 500 once.
    let undo = failNext('GET', /\/auth\/sessions\?accountId=/, 500);
    try {
      addButton(el, 'SMS_OTP').click();
      await waitForState(el, 'code-entry');
    } finally {
      undo();
    }
    expect(row(el, 'SMS_OTP')).to.be.ok;
    type(part(el, 'code-input') as HTMLInputElement, '000000');
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => text(el, 'status').includes('ready to use'), 'the activation notice');
    await idle(el);

    // The email credential is removed; the credentials list then answers 500 once.
    undo = failNext('GET', /\/auth\/credentials\?accountId=/, 500);
    try {
      const revoked = nextEvent(el, 'credential-revoked');
      removeButton(el, 'EMAIL_OTP').click();
      await confirm(el);
      await revoked;
      await idle(el);
    } finally {
      undo();
    }
    expect(parts(el, 'credential').map((r) => r.dataset['type'])).to.deep.equal(['SMS_OTP']);
    expect(text(el, 'error')).to.equal('');
    expect(errors).to.deep.equal([]);
    expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type)).to.deep.equal(['SMS_OTP']);
  });

  it('lists that fail to reload after a logout or a removal leave out every session that ended with it until they load', async () => {
    /** Runs `act`, whose reload of the lists fails and whose next reload is held: the sessions shown meanwhile. */
    const standIn = async (el: WalletCredentials, act: () => Promise<void>): Promise<Array<string | undefined>> => {
      const held = holdNext('GET', /\/auth\/sessions\?accountId=/);
      const undo = failNext('GET', /\/auth\/sessions\?accountId=/, 503);
      try {
        await act();
        await held.arrived;
        await el.updateComplete;
        return parts(el, 'session').map((r) => r.dataset['id']);
      } finally {
        undo();
        held.release();
        held.undo();
      }
    };
    // Two sessions on this device: "Log out here" ends both.
    const first = await loginByEmail(acct);
    await advanceClock(31_000);
    await loginByEmail(acct);
    let el = await settled(acct.accountId);
    const mine = parts(el, 'session').find((r) => r.querySelector('button')!.textContent!.trim() === 'Log out here')!;
    expect(parts(el, 'session').map((r) => r.dataset['id'])).to.include(first);
    let shown = await standIn(el, async () => {
      mine.querySelector<HTMLButtonElement>('button')!.click();
      await confirm(el);
    });
    expect(shown).to.deep.equal([]);
    expect(text(el, 'status')).to.contain('logged out on this device');
    await idle(el);
    expect(await clientFor().listSessions(acct.accountId)).to.deep.equal([]);
    el.remove();

    // The email credential is removed with the session of an SMS credential: the email session ends with it.
    await advanceClock(31_000);
    const emailSession = await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const smsSession = (await (await walletFor().startOtpLogin({ credentialId: sms.id, registered: sms })).submit('000000')).sessionId;
    el = await settled(acct.accountId);
    expect(parts(el, 'session').map((r) => r.dataset['id']).sort()).to.deep.equal([emailSession, smsSession].sort());
    shown = await standIn(el, async () => {
      removeButton(el, 'EMAIL_OTP').click();
      await confirm(el);
    });
    expect(shown).to.deep.equal([smsSession]);
    expect(text(el, 'status')).to.contain('Removed');
    await idle(el);
    expect((await clientFor().listSessions(acct.accountId)).map((x) => x.id)).to.deep.equal([smsSession]);
  });

  it('another account-id closes the previous wallet\'s code form, and a change still running for it does not reach the new lists', async () => {
    const other = await newAccount();
    await loginByEmail(acct);
    await loginByEmail(other);
    const el = await settled(acct.accountId);
    addButton(el, 'SMS_OTP').click();
    await waitForState(el, 'code-entry');
    await idle(el);
    el.setAttribute('account-id', other.accountId);
    await waitFor(() => parts(el, 'credential').some((r) => r.dataset['id'] === other.emailCredentialId), 'the other wallet\'s list');
    await idle(el);
    expect([el.matches(':state(code-entry)'), part(el, 'code-input')]).to.deep.equal([false, null]);

    // An add for this wallet, answered after the page switched back to the first one.
    const hold = holdNext('POST', /\/auth\/credentials$/);
    try {
      addButton(el, 'SMS_OTP').click();
      await hold.arrived;
      el.setAttribute('account-id', acct.accountId);
      await waitFor(() => parts(el, 'credential').some((r) => r.dataset['id'] === acct.emailCredentialId), 'the first wallet\'s list');
      hold.release();
    } finally {
      hold.undo();
    }
    await new Promise((r) => setTimeout(r, 500));
    await idle(el);
    const shown = parts(el, 'credential').map((r) => r.dataset['id']);
    expect(shown).to.deep.equal((await clientFor().listCredentials(acct.accountId)).map((c) => c.id));
    // The first wallet's code form comes back: its code is still awaited in this tab.
    expect(el.matches(':state(code-entry)')).to.equal(true);
  });

  it('an SMS login added as its answer was lost: the lists show what the service holds, Add is not offered again, and the code form opens for it so that it can be activated', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail.code));
    const added: CredentialChangeDetail[] = [];
    el.addEventListener('credential-added', (e) => added.push(e.detail));
    const undo = loseAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 201);
    try {
      addButton(el, 'SMS_OTP').click();
      await waitFor(() => el.matches(':state(code-entry)') || errors.length, 'the outcome of the add');
    } finally {
      undo();
    }
    await idle(el);
    const listed = await clientFor().listCredentials(acct.accountId);
    expect(parts(el, 'credential').map((r) => r.dataset['type'])).to.deep.equal(listed.map((c) => c.type));
    expect(blocked(addButton(el, 'SMS_OTP'))).to.equal(true);
    // The credential the service saved is the one the code form is for: not stuck unactivated.
    const sms = listed.find((c) => c.type === 'SMS_OTP')!;
    expect(added).to.deep.equal([{ accountId: acct.accountId, credentialId: sms.id, type: 'SMS_OTP' }]);
    expect([errors, text(el, 'error'), text(el, 'status'), el.matches(':state(code-entry)')]).to.deep.equal([[], '', 'A code is on its way by text message.', true]);
    type(part(el, 'code-input') as HTMLInputElement, '000000');
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => text(el, 'status') === 'Text message code is ready to use.' || errors.length, 'the activation');
    expect(errors).to.deep.equal([]);
    expect((await walletFor().current(acct.accountId, acct.emailCredentialId))?.credentialId).to.equal(sms.id);
  });

  /** A single sign-on of another identity (elsewhere@example.com), added as by another tab. */
  async function addedElsewhere(): Promise<void> {
    const token = await oidcToken({ sub: `user-${crypto.randomUUID()}`, email: 'elsewhere@example.com' });
    await walletFor().addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: token });
  }

  /**
   * Adds a single sign-on of sso@example.com with the element while another identity is added
   * elsewhere (addedElsewhere) as its provider is asked for a token; `fault` then meets the add (its
   * undo is called once the add has an outcome). What the element said: added, and error codes.
   */
  async function ssoAddedWhileElsewhere(fault: () => () => void): Promise<{ added: CredentialChangeDetail[]; errors: string[] }> {
    await loginByEmail(acct);
    let undo = () => {};
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId }, (e) => {
      (e as WalletCredentials).oidcTokenProvider = async (nonce) => {
        await addedElsewhere();
        undo = fault();
        return oidcToken({ sub: `user-${crypto.randomUUID()}`, email: 'sso@example.com', nonce });
      };
    });
    await idle(el);
    const added: CredentialChangeDetail[] = [];
    el.addEventListener('credential-added', (e) => added.push(e.detail));
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail.code));
    try {
      addButton(el, 'OAUTH').click();
      await waitFor(() => added.length || errors.length, 'the outcome of the add');
    } finally {
      undo();
    }
    return { added, errors };
  }

  it('single sign-on added as its answer was lost, while another identity was added elsewhere, is said as added: its own, not the other', async () => {
    // Meanwhile another tab adds a single sign-on of another identity; this page's add is then
    // saved by the service, whose answer is lost on the way.
    const { added, errors } = await ssoAddedWhileElsewhere(() => loseAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 201));
    const own = (await clientFor().listCredentials(acct.accountId)).find((c) => c.nickname === 'sso@example.com')!;
    expect([added, errors]).to.deep.equal([[{ accountId: acct.accountId, credentialId: own.id, type: 'OAUTH' }], []]);
  });

  it('single sign-on whose add failed with a 5xx while another identity was added elsewhere is not said as added: the other one is not its', async () => {
    // Meanwhile another tab adds a single sign-on of another identity; this page's add then fails
    // with a 503 before it reaches the service, which saves nothing of it.
    const { added, errors } = await ssoAddedWhileElsewhere(() => failNext('POST', /\/auth\/credentials$/, 503));
    expect([added, errors]).to.deep.equal([[], ['network']]);
    expect((await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'OAUTH').map((c) => c.nickname)).to.deep.equal(['elsewhere@example.com']);
  });

  it('a removal or an end of a session whose answer was lost, which the service made, is said as done once the lists show it, not as a failure to retry', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    // Another session of the wallet, whose key this device does not keep (another device's).
    await advanceClock(31_000);
    const other = await loginByEmail(acct);
    await store.delete(other);
    const el = await settled(acct.accountId);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail.code));
    const revoked: CredentialChangeDetail[] = [];
    el.addEventListener('credential-revoked', (e) => revoked.push(e.detail));
    // The signed removal is carried out; the connection drops before its answer comes.
    let undo = loseAnswer('DELETE', /\/auth\/credentials\//, (r) => r.status === 204);
    try {
      removeButton(el, 'SMS_OTP').click();
      await confirm(el);
      await waitFor(() => text(el, 'status') || errors.length, 'the outcome of the removal');
    } finally {
      undo();
    }
    await idle(el);
    expect(parts(el, 'credential').map((r) => r.dataset['type'])).to.deep.equal(['EMAIL_OTP']);
    expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type)).to.deep.equal(['EMAIL_OTP']);
    // Nothing is left to try again: the screen says the removal was made, not "check your connection and try again".
    expect([errors, text(el, 'error'), text(el, 'status')]).to.deep.equal([[], '', 'Removed.']);
    expect(revoked.map((d) => d.type)).to.deep.equal(['SMS_OTP']);

    // The same for another device's session.
    const ended: SessionRevokedDetail[] = [];
    el.addEventListener('session-revoked', (e) => ended.push(e.detail));
    undo = loseAnswer('DELETE', /\/auth\/sessions\//, (r) => r.status === 204);
    try {
      shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${other}'] button`)!.click();
      await confirm(el);
      await waitFor(() => text(el, 'status') === 'Session ended.' || errors.length, 'the outcome of the end');
    } finally {
      undo();
    }
    await idle(el);
    expect(shadow(el).querySelector(`[part~='session'][data-id='${other}']`)).to.equal(null);
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).to.not.include(other);
    expect([errors, text(el, 'error'), text(el, 'status')]).to.deep.equal([[], '', 'Session ended.']);
    expect(ended).to.deep.equal([{ accountId: acct.accountId, sessionId: other, current: false }]);

    // And "Log out here": the service ended the session, so this device is simply logged out, not "could not end every session".
    const mine = parts(el, 'session')[0]!;
    undo = loseAnswer('DELETE', /\/auth\/sessions\//, (r) => r.status === 204);
    try {
      mine.querySelector<HTMLButtonElement>('button')!.click();
      await confirm(el);
      await waitFor(() => text(el, 'status').includes('logged out on this device'), 'the logout notice');
    } finally {
      undo();
    }
    await idle(el);
    expect(await clientFor().listSessions(acct.accountId)).to.deep.equal([]);
    expect([errors, text(el, 'error')]).to.deep.equal([[], '']);
  });

  it('moved on the page while a removal is answered: no "cancelled", and the list follows the service', async () => {
    await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    await (await walletFor().startOtpLogin({ credentialId: sms.id, registered: sms })).submit('000000');
    const el = await settled(acct.accountId);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail.code));
    // The signed removal is carried out; its answer arrives after the element was moved.
    const hold = holdAnswer('DELETE', /\/auth\/credentials\//, (r) => r.status === 204);
    try {
      removeButton(el, 'EMAIL_OTP').click();
      await confirm(el);
      await hold.arrived;
      const parent = el.parentElement!;
      el.remove();
      parent.append(el);
      hold.release();
    } finally {
      hold.undo();
    }
    await waitFor(() => parts(el, 'credential').length === 1, 'the list without the removed credential');
    await idle(el);
    expect(parts(el, 'credential').map((r) => r.dataset['type'])).to.deep.equal(['SMS_OTP']);
    expect([errors, text(el, 'error')]).to.deep.equal([[], '']);
  });

  it('lists that failed to load offer Reload, and the keyboard stays in the panel while they load again', async () => {
    const undo = failNext('GET', /\/auth\/credentials\?accountId=/, 503);
    let el: WalletCredentials;
    try {
      el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
      await waitForState(el, 'load-failed');
    } finally {
      undo();
    }
    const reload = part(el, 'button') as HTMLButtonElement;
    reload.focus();
    reload.click();
    await idle(el);
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)}`).to.equal(true);
  });

  /** Logged in by email, the element on a page whose provider signs in one new identity (sso@example.com), idle. */
  async function loggedInWithSsoProvider(): Promise<WalletCredentials> {
    await loginByEmail(acct);
    const sub = `user-${crypto.randomUUID()}`;
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId }, (e) => {
      (e as WalletCredentials).oidcTokenProvider = (nonce) => oidcToken({ sub, email: 'sso@example.com', nonce });
    });
    await idle(el);
    return el;
  }

  it('adds single sign-on with a token from the page’s provider', async () => {
    const el = await loggedInWithSsoProvider();
    const added = nextEvent<CustomEvent<CredentialChangeDetail>>(el, 'credential-added');
    addButton(el, 'OAUTH').click();
    expect((await added).detail.type).to.equal('OAUTH');
    await waitFor(() => shadow(el).querySelector("[part~='credential'][data-type='OAUTH']"), 'the OAUTH row');
    expect(row(el, 'OAUTH').textContent).to.contain('sso@example.com');
    expect(text(el, 'status')).to.contain('Single sign-on added');
  });

  it('single sign-on added again with the same identity says the wallet has it already, not "check the details"', async () => {
    // Add stays offered once a single sign-on exists (another provider may be added), so a user
    // can pick the identity the wallet already has: the service refuses it (400 OAUTH_CREDENTIAL_ALREADY_EXISTS).
    const el = await loggedInWithSsoProvider();
    const added = nextEvent<CustomEvent<CredentialChangeDetail>>(el, 'credential-added');
    addButton(el, 'OAUTH').click();
    await added;
    await idle(el);
    const failed = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-credentials-error');
    addButton(el, 'OAUTH').click();
    expect((await failed).detail.code).to.equal('credential_exists');
    await idle(el);
    expect(text(el, 'error')).to.equal('This wallet already has a login of that kind.');
    expect(parts(el, 'credential').filter((r) => r.dataset['type'] === 'OAUTH')).to.have.length(1);
  });

  // As README's codeFlowProvider fails when the browser blocks its window (a NotAllowedError), and
  // when the user gives up (closes the window, declines at the provider: an AbortError).
  for (const [name, code, title] of [
    ['NotAllowedError', 'oauth_unavailable', 'fails (its sign-in window blocked) says so, not that the user cancelled'],
    ['AbortError', 'cancelled', 'was given up by the user (an AbortError) says it was cancelled, not that the provider failed'],
  ] as const) {
    it(`single sign-on whose provider ${title}`, async () => {
      await loginByEmail(acct);
      const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId }, (e) => {
        (e as WalletCredentials).oidcTokenProvider = async () => {
          throw new DOMException('No token.', name);
        };
      });
      await idle(el);
      const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-credentials-error');
      addButton(el, 'OAUTH').click();
      expect((await error).detail.code).to.equal(code);
      expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type)).to.deep.equal(['EMAIL_OTP']);
    });
  }

  it('single sign-on whose signed retry starts over after its window asks the provider for a fresh token', async () => {
    await loginByEmail(acct);
    const sub = `user-${crypto.randomUUID()}`;
    let tokens = 0;
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId }, (e) => {
      (e as WalletCredentials).oidcTokenProvider = (nonce) => (tokens++, oidcToken({ sub, email: 'later@example.com', nonce }));
    });
    await idle(el);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail.code));
    // The challenge reaches the page once its 5-minute window has passed (a tab asleep meanwhile):
    // the signed leg is refused as expired and the exchange starts over, minutes after the token
    // was issued; the service takes a token at most 60 s old (api.md "Limits").
    const hold = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 202);
    try {
      addButton(el, 'OAUTH').click();
      await hold.arrived;
      await advanceClock(6 * 60_000);
      hold.release();
    } finally {
      hold.undo();
    }
    await waitFor(() => text(el, 'status').includes('Single sign-on added') || errors.length, 'the outcome of the add');
    expect(errors).to.deep.equal([]);
    expect(tokens).to.equal(2);
    expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type)).to.include('OAUTH');
  });

  it('without a provider, single sign-on cannot be added and says why', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    expect(blocked(addButton(el, 'OAUTH'))).to.equal(true);
    expect(text(el, 'base')).to.contain('Single sign-on is not set up on this page');
    // A provider given later (as a React prop or a framework binding arrives) is taken at once.
    el.oidcTokenProvider = async (nonce) => nonce;
    await el.updateComplete;
    expect([addButton(el, 'OAUTH').disabled, blocked(addButton(el, 'OAUTH'))]).to.deep.equal([false, false]);
    expect(text(el, 'base')).not.to.contain('Single sign-on is not set up on this page');
  });

  it('a cancelled confirmation changes nothing; the last credential stays', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    // The SMS credential can be removed with the email session; cancel instead.
    removeButton(el, 'SMS_OTP').click();
    await cancelIn(el, 'confirming');
    expect(el.matches(':state(confirming)')).to.equal(false);
    expect((await clientFor().listCredentials(acct.accountId)).length).to.equal(2);
  });

  it('keeps the keyboard where it was: Escape closes a confirmation, and the focus goes back to its button, which keeps it while the removal runs, then goes to the row before', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    // The lists are named by their headings.
    const lists = [...shadow(el).querySelectorAll('ul')].map((l) => shadow(el).getElementById(l.getAttribute('aria-labelledby')!)?.textContent);
    expect(lists).to.deep.equal(['Ways to log in', 'Active sessions']);

    const remove = removeButton(el, 'SMS_OTP');
    remove.focus();
    remove.click();
    await waitForState(el, 'confirming');
    const no = cancelButton(el);
    await waitFor(() => shadow(el).activeElement === no, 'focus on Cancel in the confirmation');
    no.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    expect(el.matches(':state(confirming)')).to.equal(false);
    expect(shadow(el).activeElement === removeButton(el, 'SMS_OTP'), `focus back on the SMS row's Remove, not ${focusIn(el)}`).to.equal(true);

    removeButton(el, 'SMS_OTP').click();
    await waitForState(el, 'confirming');
    part(el, 'confirm')!.querySelector<HTMLButtonElement>('button.danger')!.click();
    await el.updateComplete;
    // The removal is under way (the request cannot have been answered within this task): its button
    // holds the focus, marked busy rather than disabled, and a second press does nothing.
    expect(el.matches(':state(busy)')).to.equal(true);
    const busy = removeButton(el, 'SMS_OTP');
    expect(shadow(el).activeElement === busy, `focus kept on the busy Remove, not ${focusIn(el)}`).to.equal(true);
    expect([busy.disabled, busy.getAttribute('aria-disabled')]).to.deep.equal([false, 'true']);
    busy.click();
    expect(el.matches(':state(confirming)')).to.equal(false);
    await idle(el);
    expect(parts(el, 'credential')).to.have.length(1);
    // Its row gone, the keyboard is on the Remove of the row before it (the last login: it says why it cannot be used).
    expect(shadow(el).activeElement === removeButton(el, 'EMAIL_OTP'), `focus on the email row's Remove once the row is gone, not ${focusIn(el)}`).to.equal(true);
  });

  it('the service refuses to revoke the only credential (400), and the element shows why', async () => {
    // Reach the service's rule directly: the element never offers it, so call core as a page could.
    await loginByEmail(acct);
    const e = await clientFor()
      .revokeCredential(acct.emailCredentialId, { stamper: await walletFor().stamper(acct.accountId) })
      .then(
        () => null,
        (err: unknown) => err as { status?: number },
      );
    expect(e?.status).to.equal(400);

    // The element reaches it when another device removed the other credential after the lists loaded.
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    const f = await fixtures();
    const elsewhere = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName: `wallet-elements-test-${crypto.randomUUID()}` }), otpSigner: f.signerPublicKey });
    const [sms] = (await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'SMS_OTP');
    await (await elsewhere.startOtpLogin({ credentialId: sms!.id })).submit('000000');
    await elsewhere.revokeCredential(acct.accountId, acct.emailCredentialId);
    const failed = nextEvent<CustomEvent<{ code: string; status?: number }>>(el, 'wallet-credentials-error');
    removeButton(el, 'SMS_OTP').click();
    await confirm(el);
    expect((await failed).detail).to.include({ code: 'last_credential', status: 400 });
    expect(text(el, 'error')).to.contain('only way to log in');
    await idle(el);
    expect(parts(el, 'credential').map((r) => r.dataset['type'])).to.deep.equal(['SMS_OTP']);
  });

  it('another refusal of a removal (400 INVALID_INPUT) is not called the last way to log in', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    // The email login is the only one this device holds a session of: it cannot sign its own removal.
    expect(blocked(removeButton(el, 'EMAIL_OTP'))).to.equal(true);
    expect(row(el, 'EMAIL_OTP').textContent).to.contain('Log in another way to remove it');
    const undo = failNext('DELETE', /\/auth\/credentials\//, 400, 1, {}, { status: 400, code: 'INVALID_INPUT', message: 'Invalid id', details: { errors: [{ field: 'id' }] } });
    try {
      const failed = nextEvent<CustomEvent<{ code: string; status?: number }>>(el, 'wallet-credentials-error');
      removeButton(el, 'SMS_OTP').click();
      await confirm(el);
      expect((await failed).detail).to.include({ code: 'unexpected', status: 400 });
    } finally {
      undo();
    }
    await idle(el);
    expect(text(el, 'error')).not.to.contain('only way');
    expect(text(el, 'error')).to.contain('Something went wrong');
    expect(parts(el, 'credential')).to.have.length(2);
  });

  it('a session that expired while shown leaves the list as soon as the page finds it ended', async () => {
    const mine = await loginByEmail(acct);
    const el = await settled(acct.accountId);
    expect(shadow(el).querySelector(`[part~='session'][data-id='${mine}']`)?.textContent).to.contain('This device');
    // 16 minutes pass, on the service's clock and on this page's (moved as time would move it).
    await advanceClock(16 * 60_000);
    const deviceNow = Date.now;
    Date.now = () => deviceNow() + 16 * 60_000;
    try {
      expect(await clientFor().listSessions(acct.accountId)).to.deep.equal([]);
      // Asked for the session (as <wallet-login>'s expiry timer asks), core finds it ended and deletes its record.
      expect(await walletFor().current(acct.accountId)).to.equal(undefined);
      await waitFor(() => text(el, 'base').includes('Log in to make changes'), 'the signed-out view');
      expect(shadow(el).querySelector(`[part~='session'][data-id='${mine}']`)).to.equal(null);
    } finally {
      Date.now = deviceNow;
    }
  });

  it('a confirmation opens under the row it asks about, so "End this session?" is read beside that session', async () => {
    const other = await loginByEmail(acct);
    await advanceClock(31_000);
    await loginByEmail(acct);
    await store.delete(other);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    const sessionRow = shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${other}']`)!;
    sessionRow.querySelector('button')!.click();
    await waitForState(el, 'confirming');
    // Not above the list of sessions, under the credentials, where it reads as a question about the last credential.
    expect(sessionRow.contains(part(el, 'confirm'))).to.equal(true);
    const question = part(el, 'confirm')!.getBoundingClientRect();
    const rowButton = sessionRow.querySelector('button')!.getBoundingClientRect();
    expect(question.top).to.be.at.least(rowButton.bottom);
    await cancelIn(el, 'confirming');

    removeButton(el, 'SMS_OTP').click();
    await waitForState(el, 'confirming');
    expect(row(el, 'SMS_OTP').contains(part(el, 'confirm'))).to.equal(true);
    await cancelIn(el, 'confirming');
  });

  it('a question whose row another tab removed goes with it: the focus goes to the heading, and the status says what happened', async () => {
    await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    const heading = part(el, 'heading')!;
    const gone = async (said: string) => {
      await waitFor(() => !el.matches(':state(confirming)'), 'the question dropped');
      expect(part(el, 'confirm')).to.equal(null);
      await waitFor(() => shadow(el).activeElement === heading, `focus on the heading, not ${document.activeElement?.tagName}`);
      expect(text(el, 'status')).to.equal(said);
    };

    // The login is removed elsewhere; the page reads the lists again.
    removeButton(el, 'SMS_OTP').click();
    await waitForState(el, 'confirming');
    await waitFor(() => shadow(el).activeElement === cancelButton(el), 'focus on the confirmation');
    await walletFor().revokeCredential(acct.accountId, sms.id);
    el.reload();
    await waitFor(() => !shadow(el).querySelector("[part~='credential'][data-type='SMS_OTP']"), 'the row gone');
    await gone('Removed.');

    // "Log out here" asked, and another element of the page (or another tab) logs out first: the
    // lists are read again by themselves.
    parts(el, 'session').find((r) => r.querySelector('button')!.textContent!.trim() === 'Log out here')!.querySelector('button')!.click();
    await waitForState(el, 'confirming');
    await waitFor(() => shadow(el).activeElement === cancelButton(el), 'focus on the confirmation');
    await walletFor().logout(acct.accountId);
    await gone('You are logged out on this device.');
    expect(parts(el, 'session')).to.have.length(0);
  });

  /**
   * Another tab of this browser, its wallet on this test's key store, for `run` (closed after);
   * `heard`: what that tab says on the session channel meanwhile.
   */
  /** What another tab says on the channel after two changes of the account's lists: that they changed, nothing more. */
  const changedTwice = () => [0, 1].map(() => ({ type: 'changed', accountId: acct.accountId }));

  async function inOtherTab(run: (tab: OtherTab, heard: unknown[]) => Promise<void>): Promise<void> {
    const tab = await openOtherTab();
    const heard: unknown[] = [];
    const channel = new BroadcastChannel(SESSION_CHANNEL_NAME);
    channel.onmessage = (m) => heard.push(m.data);
    try {
      tab.configureWallet({ apiBase: (await fixtures()).apiBase, environment: 'sandbox', store: tab.core.indexedDbKeyStore({ dbName }) });
      await run(tab, heard);
    } finally {
      channel.close();
      tab.close();
    }
  }

  it('another tab that ends another device\'s session or removes a login: this tab\'s lists follow at once, and its question about that row goes', async () => {
    const elsewhere = await loginByEmail(acct);
    await advanceClock(31_000);
    await loginByEmail(acct);
    // The first login's key dropped here: a session of another device.
    await store.delete(elsewhere);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    await inOtherTab(async (tab, heard) => {
      const otherTab = tab.walletFor();
      const sessionRow = () => shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${elsewhere}']`);
      // Nothing on this page reads the lists again (no reload(), no change of its own): only what the other tab tells.
      sessionRow()!.querySelector('button')!.click();
      await waitForState(el, 'confirming');
      await otherTab.revokeSession(acct.accountId, elsewhere);
      await waitFor(() => !sessionRow(), 'the ended session\'s row gone', 10000);
      expect(el.matches(':state(confirming)')).to.equal(false);
      expect(text(el, 'status')).to.equal('Session ended.');

      removeButton(el, 'SMS_OTP').click();
      await waitForState(el, 'confirming');
      await otherTab.revokeCredential(acct.accountId, sms.id);
      await waitFor(() => !shadow(el).querySelector("[part~='credential'][data-type='SMS_OTP']"), 'the removed login\'s row gone', 10000);
      expect(el.matches(':state(confirming)')).to.equal(false);
      expect(text(el, 'status')).to.equal('Removed.');
      // What the other tab said on the channel: which account's lists changed, nothing more.
      expect(heard).to.deep.equal(changedTwice());
    });
  });

  it('another tab that adds a login (single sign-on, SMS code): this tab\'s lists show it at once', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    await inOtherTab(async (tab, heard) => {
      const otherTab = tab.walletFor();
      const shown = (type: string) => !!shadow(el).querySelector(`[part~='credential'][data-type='${type}']`);
      // Nothing on this page reads the lists again (no reload(), no change of its own): only what the other tab tells.
      await otherTab.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub: `user-${crypto.randomUUID()}`, email: 'sso@example.com' }) });
      await waitFor(() => shown('OAUTH'), 'the single sign-on row', 10000);
      await otherTab.addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
      await waitFor(() => shown('SMS_OTP'), 'the SMS row', 10000);
      expect(heard).to.deep.equal(changedTwice());
    });
  });

  it('an SMS login added here as its answer was lost, found in the list read back: another tab\'s lists show it at once', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    await inOtherTab(async (tab, heard) => {
      const there = tab.window.document.createElement('wallet-credentials');
      there.setAttribute('account-id', acct.accountId);
      tab.window.document.body.append(there);
      await waitFor(() => there.matches(':state(ready)') && !there.matches(':state(busy)'), 'the other tab\'s lists');
      const undo = loseAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 201);
      try {
        addButton(el, 'SMS_OTP').click();
        await waitForState(el, 'code-entry');
      } finally {
        undo();
      }
      // Nothing in that tab reads the lists again: only what this page tells, once.
      await waitFor(() => !!shadow(there).querySelector("[part~='credential'][data-type='SMS_OTP']"), 'the SMS row in the other tab', 10000);
      expect(heard).to.deep.equal([{ type: 'changed', accountId: acct.accountId }]);
    });
  });

  type Detail = { code: string; message: string; operation?: string; status?: number };

  it('lists that fail to load tell the page, once per failure, as a load: the first load, its Reload, and a reload after another tab\'s change', async () => {
    await loginByEmail(acct);
    const details: Detail[] = [];
    const listen = (el: WalletCredentials) => el.addEventListener('wallet-credentials-error', (e) => details.push(e.detail));
    /**
     * Runs `read` while the page's next read of the sessions is answered `status`, until `shown`.
     * (Always the sessions: a failed load's read of the credentials may still be on its way, and the
     * next load shares it.)
     */
    const failing = async (status: number, read: () => unknown, shown: () => boolean) => {
      const undo = failNext('GET', /\/auth\/sessions\?accountId=/, status);
      try {
        await read();
        await waitFor(shown, 'the failed load shown');
      } finally {
        undo();
      }
    };
    let el!: WalletCredentials;
    await failing(500, async () => (el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId }, listen)), () => el.matches(':state(load-failed)'));
    const first: Detail = { code: 'unexpected', message: text(el, 'error'), operation: 'load', status: 500 };
    expect(details).to.deep.equal([first]);
    // Reload, failing again: once more, and not again when it loads.
    const reload = () => {
      (part(el, 'button') as HTMLButtonElement).click();
      return el.updateComplete;
    };
    await failing(503, reload, () => el.matches(':state(load-failed)') && !el.matches(':state(busy)'));
    expect(details.slice(1)).to.deep.equal([{ code: 'network', message: text(el, 'error'), operation: 'load', status: 503 }]);
    await reload();
    await idle(el);
    expect(details).to.have.length(2);
    await inOtherTab(async (tab) => {
      // Another tab's change reads the lists again here; that read fails, said over the lists.
      await failing(500, () => tab.walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId }), () => text(el, 'error') !== '');
    });
    expect(details.slice(2)).to.deep.equal([{ ...first, message: text(el, 'error') }]);
    expect(el.matches(':state(ready)')).to.equal(true);
  });

  it('a load cut off tells nothing: the element removed, or shown another account, as the lists are being read', async () => {
    // A test of its own: a failed load leaves its read of the credentials on its way, and a load of
    // the same account started meanwhile shares it instead of sending the request held here.
    await loginByEmail(acct);
    const details: Detail[] = [];
    const listen = (el: WalletCredentials) => el.addEventListener('wallet-credentials-error', (e) => details.push(e.detail));
    let el!: WalletCredentials;
    const other = await newAccount();
    for (const cut of [(x: WalletCredentials) => x.remove(), (x: WalletCredentials) => x.setAttribute('account-id', other.accountId)]) {
      details.length = 0;
      const hold = holdNext('GET', /\/auth\/credentials\?accountId=/);
      try {
        el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId }, listen);
        // (A read that joined one on its way would send nothing: said here rather than as the test's timeout.)
        await Promise.race([hold.arrived, new Promise((_, no) => setTimeout(() => no(new Error('no request of the credentials left')), 15000))]);
        cut(el);
        await el.updateComplete;
        hold.release();
      } finally {
        hold.undo();
      }
      await waitFor(() => !el.matches(':state(busy)'), 'the cut off load ended');
      if (el.isConnected) await idle(el);
      expect(details).to.deep.equal([]);
    }
  });

  it('another tab that adds a passkey with <passkey-register>: this tab\'s lists show it once it is added', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    await inOtherTab(async (tab) => {
      const register = tab.window.document.createElement('passkey-register');
      register.setAttribute('account-id', acct.accountId);
      register.setAttribute('nickname', 'Other tab');
      tab.window.document.body.append(register);
      await waitForState(register, 'ready');
      (part(register, 'submit') as HTMLButtonElement).click();
      await waitForState(register, 'done', 20000);
      await waitFor(() => !!shadow(el).querySelector("[part~='credential'][data-type='PASSKEY']"), 'the passkey row', 10000);
    });
  });

  it('another tab whose passkey is saved but whose login with it is cancelled: this tab\'s lists show the passkey', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    const tab = await openOtherTab();
    // That tab's passkey login waits at its challenge, where the user cancels it.
    const tabFetch = tab.window.fetch;
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    tab.window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (init?.method !== 'POST' || !/\/auth\/credentials\/AuthMethod[^/]+\/challenge$/.test(href)) return tabFetch(input, init);
      arrive();
      return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    };
    try {
      tab.configureWallet({ apiBase: (await fixtures()).apiBase, environment: 'sandbox', store: tab.core.indexedDbKeyStore({ dbName }) });
      const register = tab.window.document.createElement('passkey-register') as HTMLElement & { cancel(): void };
      register.setAttribute('account-id', acct.accountId);
      register.setAttribute('nickname', 'Saved, not used');
      tab.window.document.body.append(register);
      await waitForState(register, 'ready');
      (part(register, 'submit') as HTMLButtonElement).click();
      await arrived;
      register.cancel();
      // The passkey stays saved, offered for a login later; no session of it began.
      await waitForState(register, 'registered');
      await waitFor(() => !!shadow(el).querySelector("[part~='credential'][data-type='PASSKEY']"), 'the passkey row', 10000);
    } finally {
      tab.window.fetch = tabFetch;
      tab.close();
    }
  });

  it('another tab that changes the customer email: this tab\'s email login shows the new address', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    await inOtherTab(async (tab) => {
      const there = tab.window.document.createElement('wallet-credentials');
      there.setAttribute('account-id', acct.accountId);
      there.setAttribute('customer-id', acct.customerId);
      tab.window.document.body.append(there);
      await waitFor(() => there.matches(':state(ready)') && !there.matches(':state(busy)'), 'the other tab\'s lists');
      const email = `moved-${crypto.randomUUID()}@example.com`;
      const input = part(there, 'input') as HTMLInputElement;
      input.value = email;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      (part(there, 'email-form') as HTMLFormElement).requestSubmit();
      await waitFor(() => text(there, 'status').includes('Email address saved'), 'the other tab\'s saved notice');
      // Nothing on this page reads the lists again: only what the other tab tells.
      await waitFor(() => row(el, 'EMAIL_OTP').textContent!.includes(email), 'the new address in this tab', 10000);
    });
  });

  it('ends another session, and ending its own is a logout that deletes the key', async () => {
    // Two sessions of the same wallet: one from "another device" (a separate login whose key we drop).
    const other = await loginByEmail(acct);
    await advanceClock(31_000);
    const mine = await loginByEmail(acct);
    await store.delete(other);
    const el = await settled(acct.accountId);
    expect(parts(el, 'session')).to.have.length(2);

    const otherRow = shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${other}']`)!;
    // Its name starts with the visible words and says which session (WCAG 2.5.3 label in name).
    const end = otherRow.querySelector<HTMLButtonElement>('button')!;
    expect(end.textContent!.trim()).to.equal('End session');
    expect(end.getAttribute('aria-label')).to.match(/^End session: Email code, until \d/);
    let revoked = nextEvent<CustomEvent<SessionRevokedDetail>>(el, 'session-revoked');
    otherRow.querySelector<HTMLButtonElement>('button')!.click();
    await confirm(el);
    expect((await revoked).detail).to.deep.equal({ accountId: acct.accountId, sessionId: other, current: false });
    await idle(el);
    expect(parts(el, 'session').map((r) => r.dataset['id'])).to.deep.equal([mine]);

    revoked = nextEvent<CustomEvent<SessionRevokedDetail>>(el, 'session-revoked');
    const mineRow = shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${mine}']`)!;
    expect(mineRow.textContent).to.contain('This device');
    mineRow.querySelector<HTMLButtonElement>('button')!.click();
    await confirm(el);
    expect((await revoked).detail.current).to.equal(true);
    await idle(el);
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect(await clientFor().listSessions(acct.accountId)).to.deep.equal([]);
    expect(text(el, 'status')).to.contain('logged out on this device');
  });

  it('"Log out here" ends every session this device holds, and session-revoked names each of them', async () => {
    // Two logins on this device (both keys kept): the logout revokes both upstream.
    const { first, second, el, mine } = await twoSessionsHere(acct);
    const revoked: SessionRevokedDetail[] = [];
    el.addEventListener('session-revoked', (e) => revoked.push(e.detail));
    mine.querySelector<HTMLButtonElement>('button')!.click();
    await confirm(el);
    await waitFor(() => text(el, 'status').includes('logged out on this device'), 'the logout notice');
    expect(await clientFor().listSessions(acct.accountId)).to.deep.equal([]);
    // Each session that ended is named once, this device's shown one last (it signs the others' ends).
    expect(revoked.map((d) => d.sessionId).sort()).to.deep.equal([first, second].sort());
    expect(revoked.at(-1)!.sessionId).to.equal(mine.dataset['id']);
    expect(revoked.every((d) => d.accountId === acct.accountId && d.current)).to.equal(true);
  });

  it('"Log out here" cut off partway names the sessions it ended, says the others could not be ended, and lists what the service holds', async () => {
    const { first, second, el, mine } = await twoSessionsHere(acct);
    const live = mine.dataset['id']!;
    const other = live === first ? second : first;
    const revoked: SessionRevokedDetail[] = [];
    el.addEventListener('session-revoked', (e) => revoked.push(e.detail));
    const errors: Array<{ code: string; message: string }> = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail));
    // The other session is ended first; the connection then drops on the end of the live one (it signs last).
    const undo = loseAnswer('DELETE', new RegExp(`/auth/sessions/[^/]*${live.slice('Session:'.length)}$`));
    try {
      mine.querySelector<HTMLButtonElement>('button')!.click();
      await confirm(el);
      await waitFor(() => errors.length, 'the failure');
    } finally {
      undo();
    }
    await idle(el);
    expect(revoked).to.deep.equal([{ accountId: acct.accountId, sessionId: other, current: true }]);
    // This device is logged out all the same (its keys are gone); the service still holds the live session.
    expect(await store.get(acct.accountId)).to.equal(undefined);
    expect(text(el, 'status')).to.contain('logged out on this device');
    expect(errors).to.deep.equal([{ code: 'logout_incomplete', message: text(el, 'error'), operation: 'revoke-session' }]);
    expect(text(el, 'error')).to.contain('could not end every session: those still listed end when they expire');
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([live]);
    expect(parts(el, 'session').map((r) => r.dataset['id'])).to.deep.equal([live]);
    expect(part(el, 'badge')).to.equal(null);
  });

  it('holding sessions of two credentials, this device marks both and can remove either, signed by the other one', async () => {
    // Logged in by email; a second login (SMS) is added and used here later, so this device holds
    // a session of each, the newer (SMS) being the one that signs by default.
    const emailSession = await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const smsSession = (await (await walletFor().startOtpLogin({ credentialId: sms.id, registered: sms })).submit('000000')).sessionId;
    expect((await store.get(acct.accountId))?.session.credentialType).to.equal('SMS_OTP');
    const el = await settled(acct.accountId);
    for (const type of ['EMAIL_OTP', 'SMS_OTP']) {
      expect(row(el, type).querySelector("[part~='badge']")?.textContent, `${type} marked as this device's`).to.contain('This device');
      expect(removeButton(el, type).disabled, `${type} removable`).to.equal(false);
      expect(row(el, type).textContent).not.to.contain('Log in another way');
    }
    // Both sessions are this device's; the one it signs with is the one "Log out here" ends.
    const sessionRow = (id: string) => shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${id}']`)!;
    expect(sessionRow(emailSession).textContent).to.contain('This device');
    expect(sessionRow(smsSession).textContent).to.contain('This device');
    expect(sessionRow(smsSession).querySelector('button')!.textContent!.trim()).to.equal('Log out here');
    expect(sessionRow(emailSession).querySelector('button')!.textContent!.trim()).to.equal('End session');
    // Removing the credential of the newer session: the email session signs it, and stays.
    const revoked = nextEvent<CustomEvent<CredentialChangeDetail>>(el, 'credential-revoked');
    removeButton(el, 'SMS_OTP').click();
    await confirm(el);
    expect((await revoked).detail).to.deep.equal({ accountId: acct.accountId, credentialId: sms.id, type: 'SMS_OTP' });
    await idle(el);
    expect(text(el, 'error')).to.equal('');
    expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type)).to.deep.equal(['EMAIL_OTP']);
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([emailSession]);
    expect((await store.list()).map((s) => s.sessionId)).to.deep.equal([emailSession]);
    expect((await store.list()).map((s) => s.sessionId)).not.to.include(smsSession);
    expect(row(el, 'EMAIL_OTP').querySelector("[part~='badge']")?.textContent).to.contain('This device');
    expect(row(el, 'EMAIL_OTP').textContent).to.contain('only way to log in');
  });

  it('ending the other session this device holds (of another credential) says this device stays logged in, and it does', async () => {
    const emailSession = await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const smsSession = (await (await walletFor().startOtpLogin({ credentialId: sms.id, registered: sms })).submit('000000')).sessionId;
    const el = await settled(acct.accountId);
    const sessionRow = (id: string) => shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${id}']`);
    expect(await endHeldSession(el, emailSession)).to.deep.equal({ accountId: acct.accountId, sessionId: emailSession, current: false });
    expect(text(el, 'status')).to.equal('Session ended.');
    expect(text(el, 'error')).to.equal('');
    // Still logged in here with the SMS session, which can change things and log out.
    expect(el.matches(':state(signed-in)')).to.equal(true);
    expect(parts(el, 'session').map((r) => r.dataset['id'])).to.deep.equal([smsSession]);
    expect(sessionRow(smsSession)!.querySelector('button')!.textContent!.trim()).to.equal('Log out here');
    expect((await store.list()).map((s) => s.sessionId)).to.deep.equal([smsSession]);
    expect(row(el, 'SMS_OTP').querySelector("[part~='badge']")?.textContent).to.contain('This device');
    expect(row(el, 'EMAIL_OTP').querySelector("[part~='badge']")).to.equal(null);
    // Its only session here is the SMS one: that credential can no longer be removed from here.
    expect(blocked(removeButton(el, 'SMS_OTP'))).to.equal(true);
    expect(row(el, 'SMS_OTP').textContent).to.contain('Log in another way');
    expect(addButton(el, 'OAUTH')).to.exist;
    expect(text(el, 'base')).not.to.contain('Log in to make changes');
  });

  it('ending another session of the same credential that this device holds marks it as this device\'s and says this device stays logged in, and it does', async () => {
    // Two email logins kept here: the newer signs, the older is held too.
    const { first, second, el, mine } = await twoSessionsHere(acct);
    const live = mine.dataset['id']!;
    const older = live === first ? second : first;
    const sessionRow = (id: string) => shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${id}']`)!;
    expect(sessionRow(older).querySelector("[part~='badge']")?.textContent, 'the older session marked').to.contain('This device');
    expect(sessionRow(older).querySelector('button')!.textContent!.trim()).to.equal('End session');
    expect(await endHeldSession(el, older)).to.deep.equal({ accountId: acct.accountId, sessionId: older, current: false });
    expect(text(el, 'status')).to.equal('Session ended.');
    expect(el.matches(':state(signed-in)')).to.equal(true);
    expect(parts(el, 'session').map((r) => r.dataset['id'])).to.deep.equal([live]);
    expect(sessionRow(live).querySelector('button')!.textContent!.trim()).to.equal('Log out here');
    // Its key is gone from this device; the other one stays.
    expect((await store.list()).map((s) => s.sessionId)).to.deep.equal([live]);
  });

  it('a session whose key this browser lost is not marked as this device\'s: it cannot sign any more', async () => {
    const { first, second, el: before, mine } = await twoSessionsHere(acct);
    const live = mine.dataset['id']!;
    const lost = live === first ? second : first;
    before.remove();
    // The browser deleted the older session's key; its record stays, and the service still lists the session.
    await del(`key:${lost}`, createStore(dbName, 'sessions'));
    const el = await settled(acct.accountId);
    const sessionRow = (id: string) => shadow(el).querySelector<HTMLElement>(`[part~='session'][data-id='${id}']`)!;
    expect(sessionRow(live).querySelector("[part~='badge']")?.textContent).to.contain('This device');
    expect(sessionRow(lost).querySelector("[part~='badge']"), 'the keyless session marked').to.equal(null);
    expect(el.matches(':state(signed-in)')).to.equal(true);
    // Ending it leaves this device logged in with the session it signs with, as the question says.
    sessionRow(lost).querySelector('button')!.click();
    await waitForState(el, 'confirming');
    expect(shadow(el).getElementById('confirm-question')!.textContent).to.contain('This device stays logged in with its other session');
    await confirm(el);
    await idle(el);
    expect(parts(el, 'session').map((r) => r.dataset['id'])).to.deep.equal([live]);
    expect((await store.list()).map((s) => s.sessionId)).to.deep.equal([live]);
  });

  it('a change asked for after another device ended this session says the session has ended, deletes its key and shows the logged-out lists', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    expect(el.matches(':state(signed-in)')).to.equal(true);
    const mine = (await store.list())[0]!.sessionId;
    // Another device of the wallet ends this device's session; this page is not told.
    const f = await fixtures();
    const elsewhere = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName: `wallet-elements-test-${crypto.randomUUID()}` }), otpSigner: f.signerPublicKey });
    await advanceClock(31_000);
    await (await elsewhere.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await elsewhere.revokeSession(acct.accountId, mine);
    const changes: string[] = [];
    const unsubscribe = walletFor().subscribe((c) => changes.push(c.type));
    try {
      const failed = nextEvent<CustomEvent<{ code: string; message: string; status?: number }>>(el, 'wallet-credentials-error');
      addButton(el, 'SMS_OTP').click();
      const { detail } = await failed;
      expect(detail.code).to.equal('session_expired');
      expect(detail.message).to.equal('Your session has ended. Log in again to continue.');
      await idle(el);
      expect(text(el, 'error')).to.equal(detail.message);
      // Logged out here: no key kept, the page told (<wallet-login> hears `ended`), the lists without this device.
      expect(await store.list()).to.deep.equal([]);
      expect(await walletFor().current(acct.accountId)).to.equal(undefined);
      expect(changes).to.deep.equal(['ended']);
      expect(el.matches(':state(signed-in)')).to.equal(false);
      expect(text(el, 'base')).to.contain('Log in to make changes');
      expect(part(el, 'badge')).to.equal(null);
      expect(addButton(el, 'SMS_OTP').disabled).to.equal(true);
      expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type)).to.deep.equal(['EMAIL_OTP']);
    } finally {
      unsubscribe();
      await elsewhere.logout(acct.accountId);
    }
  });

  it('removing a credential another device removed meanwhile is a removal, not "no login of that kind"', async () => {
    await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail.code));
    // Another device of the wallet removes it; this page is not told, and still lists it.
    const f = await fixtures();
    const elsewhere = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName: `wallet-elements-test-${crypto.randomUUID()}` }), otpSigner: f.signerPublicKey });
    await advanceClock(31_000);
    await (await elsewhere.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await elsewhere.revokeCredential(acct.accountId, sms.id);
    const revoked: CredentialChangeDetail[] = [];
    el.addEventListener('credential-revoked', (e) => revoked.push(e.detail));
    removeButton(el, 'SMS_OTP').click();
    await confirm(el);
    await waitFor(() => text(el, 'status') || errors.length, 'the outcome of the removal');
    await idle(el);
    expect([errors, text(el, 'error')]).to.deep.equal([[], '']);
    expect(text(el, 'status')).to.equal('Removed.');
    expect(revoked).to.deep.equal([{ accountId: acct.accountId, credentialId: sms.id, type: 'SMS_OTP' }]);
    expect(parts(el, 'credential').map((r) => r.dataset['type'])).to.deep.equal(['EMAIL_OTP']);
  });

  it('an email change whose answer was lost, which the service saved, is said as saved once the email login shows the address, not as a failure to retry', async () => {
    await loginByEmail(acct);
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
    await idle(el);
    const errors: string[] = [];
    el.addEventListener('wallet-credentials-error', (e) => errors.push(e.detail.code));
    const email = `lost-${crypto.randomUUID()}@example.com`;
    type(part(el, 'input') as HTMLInputElement, email);
    // The signed change is saved; the connection drops before its answer comes.
    const undo = loseAnswer('PATCH', /\/customers\//, (r) => r.status === 200);
    try {
      (part(el, 'email-form') as HTMLFormElement).requestSubmit();
      await waitFor(() => text(el, 'status') || errors.length, 'the outcome of the change');
    } finally {
      undo();
    }
    await idle(el);
    expect((await clientFor().listCredentials(acct.accountId)).find((c) => c.type === 'EMAIL_OTP')?.nickname).to.equal(email);
    expect([errors, text(el, 'error'), text(el, 'status')]).to.deep.equal([[], '', 'Email address saved.']);
    expect(row(el, 'EMAIL_OTP').textContent).to.contain(email);
  });

  it('changes the customer email through its signed retry, and asks to log in first without a session', async () => {
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
    await idle(el);
    const input = part(el, 'input') as HTMLInputElement;
    type(input, 'not-an-email');
    (part(el, 'email-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => text(el, 'error').includes('Enter an email address'), 'the email sentence');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')!.split(' ')).to.include('error');
    expect(shadow(el).getElementById('error')?.textContent).to.include('Enter an email address');

    // The email is tied to the EMAIL_OTP login: without a session the change needs one.
    type(input, `new-${crypto.randomUUID()}@example.com`);
    // Typing in the field takes its error away (it was about what was there before).
    await el.updateComplete;
    expect(text(el, 'error')).to.equal('');
    expect(input.getAttribute('aria-invalid')).to.equal('false');
    const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-credentials-error');
    (part(el, 'email-form') as HTMLFormElement).requestSubmit();
    expect((await error).detail.code).to.equal('login_required');
    expect(text(el, 'error')).to.contain('Log in to your wallet first');
    // Without a session the button itself is off (the request above was the form's own submit).
    expect((shadow(el).querySelector("[part~='email-form'] [part~='submit']") as HTMLButtonElement).disabled).to.equal(true);

    await loginByEmail(acct);
    el.reload();
    await idle(el);
    // With a session now, the "log in first" sentence is gone.
    expect(text(el, 'error')).to.equal('');
    const email = `new-${crypto.randomUUID()}@example.com`;
    type(part(el, 'input') as HTMLInputElement, email);
    (part(el, 'email-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => text(el, 'status').includes('Email address saved'), 'the saved notice');
    // The tied EMAIL_OTP credential follows the customer's email (api.md "PATCH /customers").
    const creds = await clientFor().listCredentials(acct.accountId);
    expect(creds.find((c) => c.type === 'EMAIL_OTP')?.nickname).to.equal(email);
  });

  it('the email form says that login codes go to the new address, tied to its field, in English and Arabic, and its field reads left to right', async () => {
    await loginByEmail(acct);
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
    await idle(el);
    const described = (e: WalletCredentials) =>
      (part(e, 'input')!.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => shadow(e).getElementById(id)?.textContent ?? '')
        .join(' ');
    expect(described(el)).to.contain('Login codes will be sent to the new address');
    expect(text(el, 'email-form')).to.contain('Login codes will be sent to the new address');
    const ar = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId, lang: 'ar' });
    await idle(ar);
    expect(described(ar)).to.contain('رموز تسجيل الدخول');
    // An address being typed reads left to right in Arabic too ("ada@", not "@ada").
    expect(getComputedStyle(part(ar, 'input')!).direction).to.equal('ltr');
  });

  it('a lang that is no language tag ("x", "en-"), or a language with no strings registered ("fr"), lists the sessions as English does: the time each lasts until as English writes it', async () => {
    await loginByEmail(acct);
    const sessions = async (lang: string) => {
      const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, lang });
      await idle(el);
      const rows = [part(el, 'base')!.lang, ...parts(el, 'session').map((r) => r.textContent!.replace(/\s+/g, ' ').trim())];
      el.remove();
      return rows;
    };
    const english = await sessions('en');
    expect(english.join()).to.match(/until \d{1,2}:\d{2}\s?[AP]M/);
    for (const lang of ['x', 'en-', 'fr']) expect(await sessions(lang), lang).to.deep.equal(english);
  });

  it('is axe-clean in English and Arabic (right to left), with a confirmation open', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
    await idle(el);
    expect(await axeViolations(el)).to.deep.equal([]);
    removeButton(el, 'SMS_OTP').click();
    await waitForState(el, 'confirming');
    expect(await axeViolations(el)).to.deep.equal([]);
    const ar = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId, lang: 'ar' });
    await idle(ar);
    expect(part(ar, 'base')!.getAttribute('dir')).to.equal('rtl');
    expect(text(ar, 'heading')).to.equal('طرق تسجيل الدخول');
    expect(await axeViolations(ar)).to.deep.equal([]);
    // The email and the "+1…" phone read left to right inside the Arabic rows (a phone unisolated
    // in right-to-left text is drawn "…0101+"), and in the names of their remove buttons.
    const contacts = parts(ar, 'credential').map((li) => li.querySelector('[part=credential-name]')!.textContent!.trim());
    expect(contacts.some((c) => c.includes('@')) && contacts.some((c) => c.startsWith('+1'))).to.equal(true, contacts.join());
    for (const contact of contacts) expect(drawnLeftToRight(ar, contact)).to.equal(contact);
    const sms = parts(ar, 'credential').find((li) => li.dataset['type'] === 'SMS_OTP')!;
    const phone = contacts.find((c) => c.startsWith('+1'))!;
    expect(sms.querySelector('[part=revoke-button]')!.getAttribute('aria-label')).to.equal(`إزالة رمز عبر رسالة نصية (\u2068${phone}\u2069)`);
  });

  it('heading-level fits the panel into the page outline: its heading at that level, the sections one below', async () => {
    await loginByEmail(acct);
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
    await idle(el);
    const own = async () => (await axHeadings()).filter((h) => ['Ways to log in', 'Add a way to log in', 'Active sessions', 'Email address'].includes(h.name));
    const before = await own();
    expect(before.map((h) => h.level)).to.deep.equal([2, 3, 3, 3]);
    el.setAttribute('heading-level', '4');
    await el.updateComplete;
    expect(await own()).to.deep.equal(before.map((h, i) => ({ name: h.name, level: i === 0 ? 4 : 5 })));
    // Out of range: the default levels.
    el.setAttribute('heading-level', '9');
    await el.updateComplete;
    expect(await own()).to.deep.equal(before);
    el.headingLevel = 1;
    await el.updateComplete;
    expect((await own()).map((h) => h.level)).to.deep.equal([1, 2, 2, 2]);
    expect(await axeViolations(el)).to.deep.equal([]);
  });
});
