/**
 * <passkey-register> in Chromium against the real sandbox through the real proxy, with Chromium's
 * virtual authenticator performing real WebAuthn ceremonies: the signed retry with the current
 * session key (202), activation by a passkey login, then a later login with that passkey in
 * <wallet-login>; "log in first", an authenticator that already holds the passkey, a cancelled
 * prompt, a browser without WebAuthn, axe and Arabic.
 */
import { expect } from 'chai';
import { sendMouse } from '@web/test-runner-commands';
import '../../../../src/elements/passkey-register/passkey-register.ts';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { PasskeyRegister } from '../../../../src/elements/passkey-register/passkey-register.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { PasskeyRegisteredDetail } from '../../../../src/elements/passkey-register/passkey-register.events.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import '../../../../src/locales/ar.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import { axNodes, newAccount, addVirtualAuthenticator, authenticatorCredentials, takeAuthenticatorCredential, advanceClock, setUserVerified, openOtherTab, fixtures, sandboxVariant, type RigAccount } from '../../support/rig.ts';
import { axeViolations, drawnLeftToRight, failNext, focusIn, holdAnswer, holdNext, loginByEmail, loseAnswer, mount, nextEvent, part, parts, resetPage, shadow, shownTexts, text, type, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';

function submit(el: PasskeyRegister): void {
  (part(el, 'submit') as HTMLButtonElement).click();
}

/** Submits the form: the code of the `passkey-register-error` event the element then tells. */
async function refusedSubmit(el: PasskeyRegister): Promise<string> {
  const error = nextEvent<CustomEvent<{ code: string }>>(el, 'passkey-register-error');
  submit(el);
  return (await error).detail.code;
}

/**
 * Submits the form and cancels it once the service's answer to the save with `status` (201 saved,
 * 202 asked for a signature) is on its way back, then lets that answer reach the page; `meanwhile`
 * runs while the answer waits, before the cancel.
 */
async function cancelWhileSaving(el: PasskeyRegister, status: 201 | 202, meanwhile?: () => Promise<void>): Promise<void> {
  const hold = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === status);
  try {
    submit(el);
    await hold.arrived;
    await meanwhile?.();
    el.cancel();
    hold.release();
  } finally {
    hold.undo();
  }
}

/** The nicknames of the wallet's passkeys, as the service lists them. */
async function passkeyNicknames(accountId: string): Promise<string[]> {
  return (await clientFor().listCredentials(accountId)).filter((c) => c.type === 'PASSKEY').map((c) => c.nickname);
}

/** What the element tells the page from now on: its passkey-registered details and its error codes. */
function heard(el: PasskeyRegister): { events: PasskeyRegisteredDetail[]; errors: string[] } {
  const told = { events: [] as PasskeyRegisteredDetail[], errors: [] as string[] };
  el.addEventListener('passkey-registered', (e) => told.events.push(e.detail));
  el.addEventListener('passkey-register-error', (e) => told.errors.push(e.detail.code));
  return told;
}

describe('<passkey-register>', function () {
  this.timeout(60000);
  let acct: RigAccount, store: KeyStore, dbName: string;
  beforeEach(async () => ({ acct, store, dbName } = await useRigAccount()));
  afterEach(resetPage);

  /** The form, ready to save a passkey named `nickname` on `acct`, logged in by email, with an authenticator to make it. */
  async function readyToRegister(nickname: string): Promise<PasskeyRegister> {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname });
    await waitForState(el, 'ready');
    return el;
  }

  it('registers with the signed retry of the current session, activates it, and the passkey then logs in', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    const input = part(el, 'input') as HTMLInputElement;
    expect(input.value.length).to.be.greaterThan(0, 'a default nickname is offered');
    type(input, 'Work laptop');

    const events: PasskeyRegisteredDetail[] = [];
    el.addEventListener('passkey-registered', (e) => events.push(e.detail));
    submit(el);
    await waitForState(el, 'done', 20000);
    expect(events).to.have.length(2);
    expect(events[0]).to.deep.equal({ accountId: acct.accountId, credentialId: events[0]!.credentialId, nickname: 'Work laptop' });
    expect(events[0]!.credentialId).to.match(/^AuthMethod:/);
    expect(events[1]!.sessionId).to.match(/^Session:/);
    expect(text(el, 'done')).to.contain('Work laptop');

    // The wallet now lists the passkey, and this device holds a passkey session.
    const creds = await clientFor().listCredentials(acct.accountId);
    expect(creds.filter((c) => c.type === 'PASSKEY').map((c) => c.nickname)).to.deep.equal(['Work laptop']);
    const stored = await store.get(acct.accountId);
    expect(stored?.session.credentialType).to.equal('PASSKEY');
    expect(stored?.session.sessionId).to.equal(events[1]!.sessionId);
    expect(stored?.key?.privateKey.extractable).to.equal(false);
    expect((await authenticatorCredentials()).credentials).to.have.length(1);

    // Later: log out, then log in with that passkey, pressing its button (without autofill, which the
    // virtual authenticator would answer at once, before the press).
    await walletFor().logout(acct.accountId);
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp', 'no-autofill': '' });
    await waitForState(login, 'choosing');
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(login, 'wallet-logged-in');
    shadow(login).querySelector<HTMLButtonElement>("button[data-method='passkey']")!.click();
    expect((await loggedIn).detail.credentialType).to.equal('PASSKEY');
  });

  it('a <wallet-login> on the same page sees the activated passkey session', async () => {
    await addVirtualAuthenticator();
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'no-autofill': '' });
    await waitForState(login, 'choosing');
    shadow(login).querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
    await waitForState(login, 'code-entry');
    type(part(login, 'code-input') as HTMLInputElement, '000000');
    await waitForState(login, 'logged-in');

    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname: 'Phone' });
    await waitForState(el, 'ready');
    const passkeySession = nextEvent<CustomEvent<LoggedInDetail>>(login, 'wallet-logged-in', 20000);
    submit(el);
    const { detail } = await passkeySession;
    expect(detail.credentialType).to.equal('PASSKEY');
    expect(detail.source).to.equal('elsewhere');
    // The login's screen says it once, in its heading, with the new way of logging in under it; it
    // announces nothing: the register element says it where the focus went ("... you are logged in
    // with it"). Before, a second "You’re logged in." showed and was announced under the heading.
    await waitForState(el, 'done');
    await login.updateComplete;
    expect(shownTexts(login).filter((line) => line.startsWith('You’re logged in'))).to.deep.equal(['You’re logged in']);
    expect(shownTexts(login)).to.include(text(login, 'session'));
    expect(text(login, 'status')).to.equal('');
    expect(text(el, 'done')).to.contain('you are logged in with it');
    await waitFor(() => shadow(el).activeElement === part(el, 'done'), 'focus on the sentence');
  });

  it('asks to log in first when the wallet has a login and this device no session, then recovers', async () => {
    await addVirtualAuthenticator();
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    expect(await refusedSubmit(el)).to.equal('login_required');
    await waitForState(el, 'login-required');
    expect(text(el, 'note')).to.contain('Log in to your wallet first');
    await waitFor(() => shadow(el).activeElement === part(el, 'note'), 'focus on the prompt');
    // No prompt was shown: the authenticator holds nothing.
    expect((await authenticatorCredentials()).credentials).to.have.length(0);

    await loginByEmail(acct);
    await waitForState(el, 'ready');
    submit(el);
    await waitForState(el, 'done', 20000);
  });

  it('taken off the page while it asks to log in first and put back after a login meanwhile (a tab panel kept aside): it offers the form, not "log in first"', async () => {
    await addVirtualAuthenticator();
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname: 'Back again' });
    await waitForState(el, 'ready');
    submit(el);
    await waitForState(el, 'login-required');
    el.remove();
    await loginByEmail(acct);
    // Off the page for a while after the login: its news has long gone by.
    await new Promise((r) => setTimeout(r, 200));
    document.body.append(el);
    await waitForState(el, 'ready');
    submit(el);
    await waitForState(el, 'done', 20000);
    expect(await passkeyNicknames(acct.accountId)).to.deep.equal(['Back again']);
  });

  it('a wallet without any login, its form taken off the page and put back (no session there before or since): the form, which saves the first passkey', async () => {
    const empty = await newAccount({ emailCredential: false });
    await addVirtualAuthenticator();
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': empty.accountId, nickname: 'Put back' });
    await waitForState(el, 'ready');
    el.remove();
    await new Promise((r) => setTimeout(r, 200));
    document.body.append(el);
    // Long enough for the look-up of the session as it came back.
    await new Promise((r) => setTimeout(r, 200));
    expect(el.matches(':state(ready)') && part(el, 'submit'), 'the form, not "log in first"').to.not.equal(false);
    submit(el);
    await waitForState(el, 'done', 20000);
    expect(await passkeyNicknames(empty.accountId)).to.deep.equal(['Put back']);
  });

  for (const [how, end] of [
    ['logged out elsewhere', (a: RigAccount) => walletFor().logout(a.accountId)],
    // The service's clock passes the 15 minutes: the service refuses the stamp, and no longer lists the session.
    ['expired', () => advanceClock(16 * 60 * 1000)],
  ] as const) {
    it(`a session ${how} while the passkey is being created: says it ended and the passkey was not added, then recovers`, async () => {
      await addVirtualAuthenticator();
      await loginByEmail(acct);
      const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname: 'Late' });
      await waitForState(el, 'ready');
      const errors: Array<{ code: string; message: string }> = [];
      el.addEventListener('passkey-register-error', (e) => errors.push(e.detail));
      // The prompt is done; its passkey waits to be saved while the session ends.
      const hold = holdNext('POST', /\/auth\/credentials$/);
      try {
        submit(el);
        await hold.arrived;
        await end(acct);
        hold.release();
      } finally {
        hold.undo();
      }
      await waitForState(el, 'login-required', 20000);
      const said = 'Your session ended before the passkey was saved. Log in again, then add it.';
      expect(text(el, 'note')).to.equal(said);
      expect(errors).to.deep.equal([{ code: 'session_expired', message: said }]);
      await waitFor(() => shadow(el).activeElement === part(el, 'note'), 'focus on the sentence');
      expect((await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY')).to.deep.equal([]);

      // Past the 30 s between two codes of one credential.
      await advanceClock(31_000);
      await loginByEmail(acct);
      await waitForState(el, 'ready');
      submit(el);
      await waitForState(el, 'done', 20000);
      expect((await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY').map((c) => c.nickname)).to.deep.equal(['Late']);
    });
  }

  /** The element for the wallet with a login and no session on this device, its form sent: "log in first". */
  async function atLogInFirst(): Promise<PasskeyRegister> {
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    submit(el);
    await waitForState(el, 'login-required');
    return el;
  }

  it('a name typed before "log in first" is still in the field once a login makes the form usable again, and is the passkey\'s name', async () => {
    await addVirtualAuthenticator();
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    type(part(el, 'input') as HTMLInputElement, 'Work laptop');
    submit(el);
    await waitForState(el, 'login-required');
    await loginByEmail(acct);
    await waitForState(el, 'ready');
    await el.updateComplete;
    expect((part(el, 'input') as HTMLInputElement).value).to.equal('Work laptop');
    submit(el);
    await waitForState(el, 'done', 20000);
    expect(await passkeyNicknames(acct.accountId)).to.deep.equal(['Work laptop']);
    // The next passkey is offered the default name again, not the one just used.
    (part(el, 'button') as HTMLButtonElement).click();
    await waitForState(el, 'ready');
    await el.updateComplete;
    expect((part(el, 'input') as HTMLInputElement).value).to.not.equal('Work laptop');
  });

  it('switched to another wallet, it offers the form again instead of what it said of the last one', async () => {
    const el = await atLogInFirst();
    const other = await newAccount();
    await loginByEmail(other);
    el.setAttribute('account-id', other.accountId);
    await waitForState(el, 'ready');
    expect(text(el, 'note')).to.not.contain('Log in to your wallet first');
  });

  it('switched to another wallet, its form starts clean: no name error, nor the name typed for the last one', async () => {
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    const offered = (part(el, 'input') as HTMLInputElement).value;
    type(part(el, 'input') as HTMLInputElement, '   ');
    submit(el);
    await waitFor(() => text(el, 'error').includes('Give the passkey a name'), 'the nickname sentence');
    const other = await newAccount();
    el.setAttribute('account-id', other.accountId);
    await el.updateComplete;
    const input = part(el, 'input') as HTMLInputElement;
    expect([el.matches(':state(ready)'), text(el, 'error'), input.getAttribute('aria-invalid'), input.value]).to.deep.equal([true, '', 'false', offered]);
    // A name typed for this wallet is not offered to the next one either.
    type(input, 'Second wallet laptop');
    el.setAttribute('account-id', acct.accountId);
    await el.updateComplete;
    expect([(part(el, 'input') as HTMLInputElement).value, text(el, 'error'), text(el, 'status')]).to.deep.equal([offered, '', '']);
  });

  it('a form submitted again by the page while the passkey is being created is ignored: one ceremony, one passkey', async () => {
    const el = await readyToRegister('Only once');
    const told = heard(el);
    // The registrations begun: each asks the proxy for its options before the browser's prompt.
    let begun = 0;
    const original = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => (new Request(input, init).url.endsWith('/webauthn/registration-options') && begun++, original(input, init));
    const hold = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 202);
    try {
      submit(el);
      await hold.arrived;
      // The page's script submits the form (as Enter in the field would) while the save waits.
      shadow(el).querySelector('form')!.requestSubmit();
      await el.updateComplete;
      hold.release();
    } finally {
      hold.undo();
    }
    await waitForState(el, 'done', 20000);
    expect(begun).to.equal(1, 'registrations begun');
    expect(await passkeyNicknames(acct.accountId)).to.deep.equal(['Only once']);
    expect([told.events.length, told.errors]).to.deep.equal([2, []]);
  });

  it('switched to a wallet with a session while it checks the last one\'s session: the new wallet is offered the form, not "log in first"', async () => {
    const other = await newAccount();
    await loginByEmail(other);
    // The first wallet has a login and this device no session of it: registering would say "log in first".
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    const errors: string[] = [];
    el.addEventListener('passkey-register-error', (e) => errors.push(e.detail.code));
    // The list of the first wallet's credentials has reached the page; its session is being looked for as the page switches wallets.
    const hold = holdAnswer('GET', /\/auth\/credentials\?accountId=/);
    try {
      submit(el);
      await hold.arrived;
      hold.release();
      await hold.read;
      el.setAttribute('account-id', other.accountId);
    } finally {
      hold.undo();
    }
    await el.updateComplete;
    await new Promise((r) => setTimeout(r, 500));
    expect([el.matches(':state(ready)'), text(el, 'note').includes('Log in'), errors]).to.deep.equal([true, false, []]);
    await addVirtualAuthenticator();
    submit(el);
    await waitForState(el, 'done', 20000);
    expect(await passkeyNicknames(other.accountId)).to.have.length(1);
  });

  it('a login elsewhere makes "log in first" usable again without taking the focus from where the user is', async () => {
    const el = await atLogInFirst();
    // The page's own field, where the user is as the login (made by the page's own code) ends.
    const field = document.createElement('input');
    document.body.append(field);
    try {
      field.focus();
      await loginByEmail(acct);
      await waitForState(el, 'ready');
      await new Promise((r) => setTimeout(r, 100));
      expect(document.activeElement === field, `focus on the page's field, not ${focusIn(el)}`).to.equal(true);
    } finally {
      field.remove();
    }
  });

  it('a save answered after the user went on to a field of the page leaves the focus there, and says the outcome', async () => {
    const el = await readyToRegister('Slow save');
    const field = document.createElement('input');
    document.body.append(field);
    const hold = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 202);
    try {
      submit(el);
      await hold.arrived;
      // The save takes a while: the user goes on with the page.
      field.focus();
      hold.release();
      await waitForState(el, 'done', 20000);
      await new Promise((r) => setTimeout(r, 100));
      expect(document.activeElement === field, `focus on the page's field, not ${focusIn(el)}`).to.equal(true);
      // Said all the same, in the polite region, since the focus does not go to the sentence.
      expect(text(el, 'status')).to.equal('Your passkey “\u2068Slow save\u2069” is ready, and you are logged in with it.');
    } finally {
      hold.undo();
      field.remove();
    }
  });

  it('another account-id set by the page leaves the focus where the user is', async () => {
    const el = await atLogInFirst();
    const other = await newAccount();
    // The page's wallet picker, with which the user chooses another wallet.
    const picker = document.createElement('select');
    picker.append(new Option(acct.accountId), new Option(other.accountId));
    picker.addEventListener('change', () => el.setAttribute('account-id', picker.value));
    document.body.append(picker);
    try {
      picker.focus();
      picker.value = other.accountId;
      picker.dispatchEvent(new Event('change'));
      await waitForState(el, 'ready');
      await new Promise((r) => setTimeout(r, 100));
      expect(document.activeElement === picker, `focus on the picker, not ${focusIn(el)}`).to.equal(true);
    } finally {
      picker.remove();
    }
  });

  it('says so when this authenticator already holds a passkey for the wallet', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    await walletFor().registerPasskey({ accountId: acct.accountId, nickname: 'First' });
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    expect(await refusedSubmit(el)).to.equal('passkey_exists');
    await waitForState(el, 'ready');
    expect(text(el, 'error')).to.contain('already holds a passkey');
    expect((part(el, 'submit') as HTMLButtonElement).disabled).to.equal(false);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  /** A <passkey-register> of the logged-in account in this tab and in `tab` (sharing this tab's key store), both ready. */
  async function elementInEachTab(tab: Awaited<ReturnType<typeof openOtherTab>>): Promise<{ here: PasskeyRegister; there: PasskeyRegister }> {
    tab.configureWallet({ apiBase: (await fixtures()).apiBase, environment: 'sandbox', store: tab.core.indexedDbKeyStore({ dbName }) });
    const here = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname: 'This tab' });
    const there = tab.window.document.createElement('passkey-register') as PasskeyRegister;
    there.setAttribute('account-id', acct.accountId);
    there.setAttribute('nickname', 'Other tab');
    tab.window.document.body.append(there);
    await Promise.all([waitForState(here, 'ready'), waitForState(there, 'ready')]);
    return { here, there };
  }

  it('two tabs adding a passkey at once: one is added and logs in, the other says this device already holds one', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const tab = await openOtherTab();
    try {
      const { here, there } = await elementInEachTab(tab);
      submit(here);
      submit(there);
      // Where each ends: logged in with its passkey, saved without a login, or back at the form with an error.
      const outcome = (el: PasskeyRegister) =>
        waitFor(
          () => (el.matches(':state(done)') && 'done') || (el.matches(':state(registered)') && 'saved, not logged in') || (el.matches(':state(ready)') && text(el, 'error')),
          'an outcome',
          30000,
        );
      expect((await Promise.all([outcome(here), outcome(there)])).sort()).to.deep.equal(
        ['This device already holds a passkey for this wallet. Use it to log in.', 'done'].sort(),
      );
      expect((await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY')).to.have.length(1);
      expect((await authenticatorCredentials()).credentials).to.have.length(1);
    } finally {
      tab.close();
    }
  });

  it('a tab waiting for another tab\'s registration says so, then shows the prompt\'s text once its turn comes', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const tab = await openOtherTab();
    // This tab's save is held, and with it the registration's lock, while the other tab waits.
    const hold = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 201);
    try {
      const { here, there } = await elementInEachTab(tab);
      submit(here);
      await hold.arrived;
      // Every text the other tab's status region shows from now on, in order.
      const said: string[] = [];
      const status = part(there, 'status')!;
      new MutationObserver(() => said.push(text(there, 'status'))).observe(status, { childList: true, characterData: true, subtree: true });
      submit(there);
      const waiting = 'Waiting for the passkey being added in another tab or window to finish…';
      await waitFor(() => text(there, 'status') === waiting, 'the waiting text', 10000);
      expect(there.matches(':state(creating)')).to.equal(true);
      // Still waiting a moment later: no prompt opens while the other registration holds the lock.
      await new Promise((r) => setTimeout(r, 300));
      expect(text(there, 'status')).to.equal(waiting);
      hold.release();
      await waitForState(here, 'done', 20000);
      await waitForState(there, 'ready', 20000);
      expect(text(there, 'error')).to.equal('This device already holds a passkey for this wallet. Use it to log in.');
      // Said once, then the prompt's text as its turn came, then cleared with the error.
      expect(said.filter((t) => t).slice(0, 2)).to.deep.equal([waiting, 'Follow your browser’s prompt to create the passkey…']);
      expect(said.filter((t) => t === waiting)).to.have.length(1);
    } finally {
      hold.undo();
      tab.close();
    }
  });

  it('in a browser without Web Locks, says to follow the prompt as it opens, and never that it waits for another tab', async () => {
    await loginByEmail(acct);
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    // What the status region says when the browser's prompt opens (no authenticator: it stays open until cancelled).
    const atPrompt: string[] = [];
    navigator.credentials.create = function (this: CredentialsContainer, options?: CredentialCreationOptions) {
      atPrompt.push(text(el, 'status'));
      return CredentialsContainer.prototype.create.call(this, options);
    };
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    try {
      await waitForState(el, 'ready');
      const said: string[] = [];
      new MutationObserver(() => said.push(text(el, 'status'))).observe(part(el, 'status')!, { childList: true, characterData: true, subtree: true });
      submit(el);
      await waitFor(() => atPrompt.length, 'the prompt to open');
      expect(atPrompt).to.deep.equal(['Follow your browser’s prompt to create the passkey…']);
      expect(el.matches(':state(creating)')).to.equal(true);
      (parts(el, 'button').find((b) => b.textContent?.includes('Cancel')) as HTMLButtonElement).click();
      await waitForState(el, 'ready');
      expect(said.filter((t) => t)).to.deep.equal(['Follow your browser’s prompt to create the passkey…']);
    } finally {
      delete (navigator as { locks?: unknown }).locks;
      delete (navigator.credentials as { create?: unknown }).create;
    }
    expect(navigator.locks).to.not.equal(undefined);
  });

  it('a cancelled prompt returns to a usable form without an error', async () => {
    await loginByEmail(acct);
    // No authenticator: the browser's prompt waits until it is cancelled.
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    let errors = 0;
    el.addEventListener('passkey-register-error', () => errors++);
    submit(el);
    await waitForState(el, 'creating');
    await new Promise((r) => setTimeout(r, 500));
    (parts(el, 'button').find((b) => b.textContent?.includes('Cancel')) as HTMLButtonElement).click();
    await waitForState(el, 'ready');
    expect(errors).to.equal(0);
    expect((part(el, 'submit') as HTMLButtonElement).disabled).to.equal(false);
  });

  it('cancelled while the service saves the passkey: no passkey is left on the wallet, and the next try registers one', async () => {
    const el = await readyToRegister('Cancelled late');
    let errors = 0;
    el.addEventListener('passkey-register-error', () => errors++);
    // The signed retry reached the service, which saved the passkey; its answer is on its way as the user cancels.
    await cancelWhileSaving(el, 201);
    await waitForState(el, 'ready');
    const passkeys = () => passkeyNicknames(acct.accountId);
    // The removal follows the cancel: the wallet lists the passkey for a moment, then no more.
    let left = await passkeys();
    for (let i = 0; left.length && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = await passkeys();
    }
    expect(left, 'the passkey saved after the cancel is removed').to.deep.equal([]);
    expect([errors, text(el, 'error')]).to.deep.equal([0, '']);

    submit(el);
    await waitForState(el, 'done', 20000);
    expect(await passkeys()).to.deep.equal(['Cancelled late']);
  });

  it('cancelled while the service saves the passkey, and its removal fails (5xx): it says the passkey may still be on the wallet and where to remove it', async () => {
    const el = await readyToRegister('Not removed');
    const errors: Array<{ code: string; message: string }> = [];
    el.addEventListener('passkey-register-error', (e) => errors.push(e.detail));
    // The removal that follows the cancel is answered 503 (every try of it), without reaching the service.
    const undoRemoval = failNext('DELETE', /\/auth\/credentials\/[^/]+$/, 503, 5);
    try {
      await cancelWhileSaving(el, 201);
      await waitFor(() => errors.length > 0, 'the error after the failed removal');
    } finally {
      undoRemoval();
    }
    const sentence = 'The passkey was saved before the cancel and could not be removed, so it may still be on your wallet. You can remove it under “Ways to log in”.';
    expect(errors).to.deep.equal([{ code: 'passkey_kept', message: sentence }]);
    expect([el.matches(':state(ready)'), text(el, 'error')]).to.deep.equal([true, sentence]);
    // It is: the wallet lists it.
    expect(await passkeyNicknames(acct.accountId)).to.deep.equal(['Not removed']);
  });

  it('cancelled while the service saves the passkey and added again before its removal failed: the new passkey is made, and it is said that the first may still be on the wallet', async () => {
    const el = await readyToRegister('Not removed');
    const errors: Array<{ code: string; message: string }> = [];
    el.addEventListener('passkey-register-error', (e) => errors.push(e.detail));
    // The removal that follows the cancel waits to leave until the next registration runs, then is answered 503 (every try of it).
    const undoRemoval = failNext('DELETE', /\/auth\/credentials\/[^/]+$/, 503, 5);
    const removal = holdNext('DELETE', /\/auth\/credentials\/[^/]+$/);
    try {
      await cancelWhileSaving(el, 201, async () => {
        // The first passkey leaves this authenticator (as if another device held it), so that the next one can be made here.
        const [first] = (await authenticatorCredentials()).credentials;
        await takeAuthenticatorCredential(first!.credentialId);
      });
      await removal.arrived;
      await waitForState(el, 'ready');
      type(shadow(el).querySelector<HTMLInputElement>('#nickname')!, 'Second');
      submit(el);
      await waitForState(el, 'creating');
      removal.release();
      await waitForState(el, 'done', 20000);
    } finally {
      removal.undo();
      undoRemoval();
    }
    const sentence = 'The passkey was saved before the cancel and could not be removed, so it may still be on your wallet. You can remove it under “Ways to log in”.';
    expect(errors).to.deep.equal([{ code: 'passkey_kept', message: sentence }]);
    expect(text(el, 'error')).to.equal(sentence);
    expect(text(el, 'done')).to.contain('Second');
    const passkeys = await passkeyNicknames(acct.accountId);
    expect(passkeys.sort()).to.deep.equal(['Not removed', 'Second']);
  });

  it('cancelled while a wallet with a login sends the passkey, before the service asks for a signature: nothing is signed, saved or removed', async () => {
    const el = await readyToRegister('Cancelled early');
    let errors = 0;
    el.addEventListener('passkey-register-error', () => errors++);
    // What the page sends to save or remove a credential, in order (every request still goes out).
    const sent: string[] = [];
    const original = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const method = init?.method ?? 'GET';
      if (method !== 'GET' && /\/auth\/credentials(\/[^/]+)?$/.test(url)) sent.push(`${method}${new Headers(init?.headers).has('Request-Id') ? ' signed' : ''}`);
      return original(input, init);
    };
    try {
      // The first, unsigned request answered 202 (the wallet has a login): nothing is saved yet as the user cancels.
      await cancelWhileSaving(el, 202);
      await waitForState(el, 'ready');
      expect([errors, text(el, 'error')]).to.deep.equal([0, '']);
      // The next registration starts once the stopped one has ended (one at a time per wallet).
      submit(el);
      await waitForState(el, 'done', 20000);
    } finally {
      window.fetch = original;
    }
    // The stopped one: its first request only; the next one: both legs.
    expect(sent).to.deep.equal(['POST', 'POST', 'POST signed']);
    expect(await passkeyNicknames(acct.accountId)).to.deep.equal(['Cancelled early']);
  });

  it('cancelled while a wallet without any login saves its first passkey: the passkey is kept, and it says so and offers to log in with it', async () => {
    const empty = await newAccount({ emailCredential: false });
    await addVirtualAuthenticator();
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': empty.accountId, nickname: 'First and only' });
    await waitForState(el, 'ready');
    const events: PasskeyRegisteredDetail[] = [];
    let errors = 0;
    el.addEventListener('passkey-registered', (e) => events.push(e.detail));
    el.addEventListener('passkey-register-error', () => errors++);
    // The first request saves the wallet's first credential (201); its answer is on its way as the user cancels.
    await cancelWhileSaving(el, 201);
    await waitFor(() => !el.matches(':state(busy)'), 'the step to end');
    const saved = (await clientFor().listCredentials(empty.accountId)).filter((c) => c.type === 'PASSKEY');
    expect(saved.map((c) => c.nickname)).to.deep.equal(['First and only']);
    expect([el.matches(':state(registered)'), errors, text(el, 'error')]).to.deep.equal([true, 0, '']);
    expect(text(el, 'intro')).to.equal('Your passkey “\u2068First and only\u2069” is saved, but logging in with it did not finish.');
    expect(events).to.deep.equal([{ accountId: empty.accountId, credentialId: saved[0]!.id, nickname: 'First and only' }]);

    (part(el, 'submit') as HTMLButtonElement).click();
    await waitForState(el, 'done', 20000);
    expect((await store.get(empty.accountId))?.session.credentialId).to.equal(saved[0]!.id);
  });

  it('cancel() on an idle element leaves the passkey login of a <wallet-login> on the page running', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    await walletFor().registerPasskey({ accountId: acct.accountId, nickname: 'First' });
    await walletFor().logout(acct.accountId);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp', 'no-autofill': '' });
    await waitForState(login, 'choosing');
    // The login waits at its challenge as the page calls cancel() on the register element, which runs nothing.
    const hold = holdNext('POST', /\/auth\/credentials\/AuthMethod[^/]+\/challenge$/);
    try {
      shadow(login).querySelector<HTMLButtonElement>("button[data-method='passkey']")!.click();
      await hold.arrived;
      el.cancel();
      await new Promise((r) => setTimeout(r, 200));
      hold.release();
    } finally {
      hold.undo();
    }
    await waitFor(() => !login.matches(':state(authenticating)'), 'the login to end', 20000);
    expect([login.matches(':state(logged-in)'), el.matches(':state(ready)'), text(el, 'error')]).to.deep.equal([true, true, '']);
  });

  it('cancelled while the service saves the passkey and tried again at once: the wait for its removal does not speak of another tab, and the next try registers', async () => {
    const el = await readyToRegister('Again');
    const hold = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 201);
    try {
      submit(el);
      await hold.arrived;
      el.cancel();
      await waitForState(el, 'ready');
      submit(el);
      await waitFor(() => text(el, 'status'), 'the status');
      expect([el.matches(':state(creating)'), text(el, 'status')]).to.deep.equal([true, 'Waiting for an earlier passkey request on this page to finish…']);
      hold.release();
    } finally {
      hold.undo();
    }
    await waitForState(el, 'done', 20000);
    expect(await passkeyNicknames(acct.accountId)).to.deep.equal(['Again']);
  });

  it('cancelled before the service asks for a signature and tried again at once: the next try does not wait for the stopped one', async () => {
    const el = await readyToRegister('At once');
    const said: string[] = [];
    // The stopped one's first answer (202) stays held until the next try has ended; the next try's go through.
    const hold = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 202);
    try {
      submit(el);
      await hold.arrived;
      hold.undo();
      el.cancel();
      await waitForState(el, 'ready');
      new MutationObserver(() => said.push(text(el, 'status'))).observe(part(el, 'status')!, { childList: true, characterData: true, subtree: true });
      submit(el);
      // Started: the next try may pass 'creating' and end before a poll sees it (the statuses said tell it went through).
      await waitFor(() => !el.matches(':state(ready)'), 'the next try to start');
      await waitFor(() => !el.matches(':state(busy)'), 'the next try to end', 8000).catch(() => undefined);
      expect([el.matches(':state(done)'), said.filter((t) => t)[0]]).to.deep.equal([true, 'Follow your browser’s prompt to create the passkey…']);
    } finally {
      hold.release();
      hold.undo();
    }
    // Nothing of the stopped one was signed or saved.
    await new Promise((r) => setTimeout(r, 300));
    expect(await passkeyNicknames(acct.accountId)).to.deep.equal(['At once']);
  });

  it('another api-base while a passkey is being saved offers the form again, not the result of the previous base', async () => {
    const variant = await sandboxVariant({});
    const el = await readyToRegister('Previous base');
    const { events, errors } = heard(el);
    const hold = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 201);
    try {
      submit(el);
      await hold.arrived;
      el.setAttribute('api-base', variant.apiBase);
      await el.updateComplete;
      hold.release();
    } finally {
      hold.undo();
    }
    await waitFor(() => !el.matches(':state(busy)'), 'the step to end', 20000);
    await new Promise((r) => setTimeout(r, 500));
    expect([el.matches(':state(ready)'), text(el, 'error'), events, errors]).to.deep.equal([true, '', [], []]);
  });

  it('a prompt that could not verify the user says the passkey was not created, and the next try works', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    // The authenticator's fingerprint or PIN check fails: the browser answers NotAllowedError, as it
    // does for a prompt closed or timed out.
    await setUserVerified(false);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname: 'Second try' });
    await waitForState(el, 'ready');
    const error = nextEvent<CustomEvent<{ code: string; message: string }>>(el, 'passkey-register-error', 20000);
    submit(el);
    const { detail } = await error;
    expect(detail.code).to.equal('cancelled');
    await waitForState(el, 'ready');
    expect(text(el, 'error')).to.equal('No passkey was created: the prompt was closed, timed out or could not verify you. Try again.');
    expect(detail.message).to.equal(text(el, 'error'));
    expect(shadow(el).activeElement === part(el, 'input'), `focus on the nickname field, not ${focusIn(el)}`).to.equal(true);
    expect((await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY')).to.deep.equal([]);

    await setUserVerified(true);
    submit(el);
    await waitForState(el, 'done', 20000);
    expect(text(el, 'error')).to.equal('');
  });

  it('another account-id during the activation offers the new wallet the form, not the previous wallet\'s passkey', async () => {
    const other = await newAccount();
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname: 'First wallet' });
    await waitForState(el, 'ready');
    const events: PasskeyRegisteredDetail[] = [];
    el.addEventListener('passkey-registered', (e) => events.push(e.detail));
    // The activation login waits at its challenge while the page switches wallets.
    const hold = holdNext('POST', /\/auth\/credentials\/AuthMethod[^/]+\/challenge$/);
    try {
      submit(el);
      await hold.arrived;
      await waitForState(el, 'activating');
      el.setAttribute('account-id', other.accountId);
      await el.updateComplete;
      hold.release();
    } finally {
      hold.undo();
    }
    await waitFor(() => !el.matches(':state(busy)'), 'the step to end');
    await new Promise((r) => setTimeout(r, 300));
    expect([el.matches(':state(ready)'), el.matches(':state(registered)'), text(el, 'error')]).to.deep.equal([true, false, '']);
    // Only the save, for the wallet it was made on; no login of the previous wallet finished here.
    expect(events.map((e) => [e.accountId, e.nickname, 'sessionId' in e])).to.deep.equal([[acct.accountId, 'First wallet', false]]);
  });

  it('the activation says once that the passkey is saved, and a login that did not finish is said where the focus lands', async () => {
    const el = await readyToRegister('Said once');
    /** The focused control of the page as a screen reader reads it: its name, then its description. */
    const focused = async () => (await axNodes()).filter((n) => n.properties.focused && n.role === 'button').map((n) => `${n.name}: ${n.description}`);
    const hold = holdNext('POST', /\/auth\/credentials\/AuthMethod[^/]+\/challenge$/);
    try {
      submit(el);
      await hold.arrived;
      await waitForState(el, 'activating');
      await el.updateComplete;
      const saying = 'Passkey saved. Confirm it once more to log in with it…';
      expect(shownTexts(el).filter((line) => line === saying), 'shown once').to.have.length(1);
      expect(await focused()).to.deep.equal([`Cancel: ${saying}`]);
      el.cancel();
      hold.release();
    } finally {
      hold.undo();
    }
    await waitForState(el, 'registered');
    await el.updateComplete;
    expect(await focused()).to.deep.equal(['Log in with the passkey: Your passkey “\u2068Said once\u2069” is saved, but logging in with it did not finish.']);
  });

  /**
   * Registers `nickname`, the signed leg of the save answered with `answer` on the page's side of the
   * wire (the service's refusal), and expects `said` (the error codes heard and the sentence shown);
   * then the next try saves one passkey of that name on the real sandbox.
   */
  async function refusedSaveThenSaved(nickname: string, answer: { status: number; code: string; message: string; details: object }, said: [string[], string]): Promise<void> {
    const el = await readyToRegister(nickname);
    const { errors } = heard(el);
    const fetch = window.fetch;
    window.fetch = (input, init) =>
      init?.method === 'POST' && /\/auth\/credentials$/.test(String(input)) && new Headers(init.headers).has('Request-Id')
        ? ((window.fetch = fetch), Promise.resolve(Response.json(answer, { status: answer.status })))
        : fetch(input, init);
    submit(el);
    await waitFor(() => errors.length, 'an error', 20000);
    await waitForState(el, 'ready');
    expect([errors, text(el, 'error')]).to.deep.equal(said);
    submit(el);
    await waitForState(el, 'done', 20000);
    expect(await passkeyNicknames(acct.accountId)).to.deep.equal([nickname]);
  }

  it('a signed save the service refuses with 401 (its request id unknown there) says the change could not be confirmed, not that the passkey was refused, and the next try saves one', async () => {
    // The service's answer to the signed leg: a Request-Id it no longer knows.
    await refusedSaveThenSaved(
      'Refused save',
      { status: 401, code: 'UNAUTHORIZED', message: 'The Request-Id was not issued for this operation', details: { reason: 'REQUEST_ID_UNKNOWN' } },
      [['signature_rejected'], 'The wallet could not confirm this change. Log in again, then retry.'],
    );
  });

  it('a signed save the service refuses with 400 (the passkey as made not accepted: its registration challenge already used) says the passkey was not accepted and to try again, and the next try saves one', async () => {
    // The service's answer to the signed leg, as the sandbox words a refused registration challenge.
    await refusedSaveThenSaved(
      'Refused passkey',
      { status: 400, code: 'INVALID_INPUT', message: 'challenge: already used; request new registration options', details: { errors: [{ field: 'challenge', message: 'already used' }] } },
      // A registration: the user came to add a passkey, not to log in another way.
      [['passkey_rejected'], 'That passkey was not accepted, and nothing was added. Try again to make a new one.'],
    );
  });

  it('a double click on "Log in with the passkey" logs in: the second click does not cancel the login it started', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname: 'Double click' });
    await waitForState(el, 'ready');
    // The first activation is cancelled while it waits at its challenge: the passkey is saved, not yet used.
    const first = holdNext('POST', /\/auth\/credentials\/AuthMethod[^/]+\/challenge$/);
    try {
      submit(el);
      await first.arrived;
      await waitForState(el, 'activating');
      el.cancel();
      first.release();
    } finally {
      first.undo();
    }
    await waitForState(el, 'registered');
    await el.updateComplete;
    const box = part(el, 'submit')!.getBoundingClientRect();
    // Near its inline start, where the next screen's Cancel would begin.
    const position: [number, number] = [Math.round(box.x + 12), Math.round(box.y + box.height / 2)];
    // Both clicks land while the login waits at its challenge, as a person's double click does.
    const second = holdNext('POST', /\/auth\/credentials\/AuthMethod[^/]+\/challenge$/);
    try {
      await sendMouse({ type: 'click', position });
      await second.arrived;
      await sendMouse({ type: 'click', position });
      await el.updateComplete;
      second.release();
    } finally {
      second.undo();
    }
    await waitFor(() => !el.matches(':state(busy)'), 'the login to end', 20000);
    expect([el.matches(':state(done)'), text(el, 'error')]).to.deep.equal([true, '']);
  });

  it('an answer lost after the service saved the passkey still ends registered and activated', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, nickname: 'Lost answer' });
    await waitForState(el, 'ready');
    const { events, errors } = heard(el);
    // The signed retry's 201 never reaches the page.
    const undo = loseAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 201);
    try {
      submit(el);
      await waitForState(el, 'done', 20000);
    } finally {
      undo();
    }
    const saved = (await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY');
    expect(saved.map((c) => c.nickname)).to.deep.equal(['Lost answer']);
    expect(errors).to.deep.equal([]);
    expect(events.map((e) => e.credentialId)).to.deep.equal([saved[0]!.id, saved[0]!.id]);
    expect((await store.get(acct.accountId))?.session.credentialType).to.equal('PASSKEY');
  });

  it('refuses a blank nickname with a sentence and keeps focus on the field', async () => {
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    const input = part(el, 'input') as HTMLInputElement;
    type(input, '   ');
    submit(el);
    await waitFor(() => text(el, 'error').includes('Give the passkey a name'), 'the nickname sentence');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    // The sentence is tied to the field, so a screen reader says why it is invalid.
    expect(input.getAttribute('aria-describedby')!.split(' ')).to.include('error');
    expect(shadow(el).getElementById('error')?.textContent).to.include('Give the passkey a name');
    expect(shadow(el).activeElement === input, `focus on the nickname field, not ${focusIn(el)}`).to.equal(true);
    expect(el.matches(':state(ready)')).to.equal(true);
  });

  it('in a browser without WebAuthn says so and offers nothing that would fail', async () => {
    const saved = Object.getOwnPropertyDescriptor(window, 'PublicKeyCredential')!;
    // The one way to be such a browser here: hide the API for this element's check.
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
    try {
      const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
      await waitForState(el, 'unsupported');
      expect(text(el, 'note')).to.contain('cannot create passkeys');
      expect(part(el, 'submit')).to.equal(null);
    } finally {
      Object.defineProperty(window, 'PublicKeyCredential', saved);
    }
  });

  it('is axe-clean in English and in Arabic (right to left)', async () => {
    await advanceClock(1000);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    expect(await axeViolations(el)).to.deep.equal([]);
    const ar = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, lang: 'ar' });
    await waitForState(ar, 'ready');
    expect(part(ar, 'base')!.getAttribute('dir')).to.equal('rtl');
    expect(text(ar, 'heading')).to.equal('أضف مفتاح مرور');
    expect(await axeViolations(ar)).to.deep.equal([]);
  });

  it('a browser that names no platform offers a default name in the element\'s language: English, and Arabic', async () => {
    // Such a browser: no platform in navigator.platform nor in User-Agent Client Hints, for this page.
    for (const name of ['platform', 'userAgentData']) Object.defineProperty(navigator, name, { value: name === 'platform' ? '' : undefined, configurable: true });
    try {
      const day = (locale: string) => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date());
      const en = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
      await waitForState(en, 'ready');
      expect((part(en, 'input') as HTMLInputElement).value).to.equal(`Passkey · ${day('en')}`);
      const ar = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, lang: 'ar' });
      await waitForState(ar, 'ready');
      expect((part(ar, 'input') as HTMLInputElement).value).to.equal(`مفتاح المرور · ${day('ar')}`);
    } finally {
      for (const name of ['platform', 'userAgentData']) delete (navigator as unknown as Record<string, unknown>)[name];
    }
    expect(navigator.platform).not.to.equal('');
  });

  it('a lang that is no language tag ("x", "en-"), or a language with no strings registered ("fr"), offers the default name as English writes its date', async () => {
    const nickname = async (lang: string) => {
      const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, lang });
      await waitForState(el, 'ready');
      const value = (part(el, 'input') as HTMLInputElement).value;
      el.remove();
      return value;
    };
    const english = await nickname('en');
    expect(english).to.match(/ · [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    for (const lang of ['x', 'en-', 'fr']) expect(await nickname(lang), lang).to.equal(english);
  });

  it('in Arabic, a left-to-right passkey name keeps its order in the sentence that says it is ready', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId, lang: 'ar' });
    await waitForState(el, 'ready');
    const name = 'Work laptop (2)!';
    type(part(el, 'input') as HTMLInputElement, name);
    submit(el);
    await waitForState(el, 'done', 20000);
    // Unisolated, the right-to-left sentence draws the name's "!" at its left ("!Worklaptop(2)").
    expect(drawnLeftToRight(part(el, 'done')!, name)).to.equal('Worklaptop(2)!');
    expect(text(el, 'done')).to.equal(`مفتاح المرور «\u2068${name}\u2069» جاهز، وقد سجّلت الدخول به.`);
  });
});
