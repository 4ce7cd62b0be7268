/**
 * Passkeys in real Chromium with its virtual authenticator (CDP WebAuthn domain), against the
 * sandbox's full WebAuthn checks through the proxy (DESIGN.md wire format 6; reference.md
 * "Credentials"): registration with the proxy's options and a signed retry, login over the hex
 * challenge with Request-Id, exclusion of an already registered authenticator, and failures
 * mapped to WalletError('webauthn') with the DOMException kept as cause; a conditional request
 * cancelled during its autofill support check never reaches navigator.credentials.get and never
 * cancels a ceremony started after it.
 */
import { expect } from 'chai';
import { createClient } from '../../../src/core/client.ts';
import { indexedDbKeyStore } from '../../../src/core/keystore.ts';
import type { Wallet } from '../../../src/core/session.ts';
import { WalletError } from '../../../src/core/errors.ts';
import { browserSupportsWebAuthnAutofill, getPasskeyAssertion } from '../../../src/core/webauthn.ts';
import { base64urlDecode, bytesToHex } from '../../../src/core/encoding.ts';
import {
  freshWallet,
  addVirtualAuthenticator,
  removeVirtualAuthenticator,
  setAutomaticPresence,
  authenticatorCredentials,
  olderPasskeyHere,
  openOtherTab,
  type RigAccount,
  type RigFixtures,
} from '../support/rig.ts';
import { rejection, resetPage, waitFor } from '../elements/shared/helpers.ts';

/**
 * Records each real navigator.credentials.get call of the page (its mediation, and how it
 * settled); the browser's own method still runs. Returns the record and a restore function.
 */
function watchCredentialsGet(): { calls: { mediation: string; settled: 'pending' | 'resolved' | 'rejected' }[]; restore: () => void } {
  const calls: { mediation: string; settled: 'pending' | 'resolved' | 'rejected' }[] = [];
  const original = navigator.credentials.get;
  navigator.credentials.get = function (this: CredentialsContainer, options?: CredentialRequestOptions) {
    const call = { mediation: options?.mediation ?? 'optional', settled: 'pending' as 'pending' | 'resolved' | 'rejected' };
    calls.push(call);
    const p = original.call(this, options);
    p.then(
      () => (call.settled = 'resolved'),
      () => (call.settled = 'rejected'),
    );
    return p;
  };
  return { calls, restore: () => void delete (navigator.credentials as { get?: unknown }).get };
}

/** Runs `then` synchronously the first time the page asks whether autofill passkeys are supported. */
function onAutofillCheck(then: () => void): () => void {
  const original = PublicKeyCredential.isConditionalMediationAvailable;
  let fired = false;
  PublicKeyCredential.isConditionalMediationAvailable = function (this: typeof PublicKeyCredential) {
    const answer = original.call(this);
    if (!fired) {
      fired = true;
      then();
    }
    return answer;
  };
  // A static operation is an own property of the interface object: put the browser's back.
  return () => void (PublicKeyCredential.isConditionalMediationAvailable = original);
}

describe('passkeys through the virtual authenticator', () => {
  let f: RigFixtures, acct: RigAccount, wallet: Wallet, dbName: string;
  const client = () => createClient({ baseUrl: f.apiBase });

  beforeEach(async () => {
    ({ f, acct, dbName, wallet } = await freshWallet());
    await addVirtualAuthenticator();
  });
  afterEach(resetPage);

  /** A passkey of the wallet named `nickname`, registered by an email login that then logged out. */
  async function passkeyLoggedOut(nickname: string) {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const method = await wallet.registerPasskey({ accountId: acct.accountId, nickname });
    await wallet.logout(acct.accountId);
    return method;
  }

  /** A field of the page that offers saved passkeys (autofill); remove it in a `finally`. */
  function autofillField(): HTMLInputElement {
    const input = Object.assign(document.createElement('input'), { autocomplete: 'username webauthn' });
    document.body.append(input);
    return input;
  }

  it('registers a passkey (signed by the OTP session), then logs in with it after logout', async () => {
    expect(location.hostname).to.equal('localhost');
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const changes: unknown[] = [];
    wallet.subscribe((c) => changes.push(c));
    const method = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Test laptop' });
    // Saved, the passkey is told before any login with it (which the user may cancel).
    expect(changes).to.deep.equal([{ type: 'changed', accountId: acct.accountId }]);
    expect(method.type).to.equal('PASSKEY');
    expect(method.nickname).to.equal('Test laptop');
    expect(method.credentialId).to.match(/^[A-Za-z0-9_-]+$/);

    // The authenticator holds exactly that credential, for this RP.
    const { credentials } = await authenticatorCredentials();
    expect(credentials).to.have.length(1);
    expect(bytesToHex(base64urlDecode(credentials[0]!.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')))).to.equal(
      bytesToHex(base64urlDecode(method.credentialId!)),
    );
    expect(credentials[0]!.rpId).to.equal('localhost');

    const listed = await client().listCredentials(acct.accountId);
    expect(listed.map((c) => c.id)).to.include.members([acct.emailCredentialId, method.id]);

    await wallet.logout(acct.accountId);
    const session = await wallet.loginWithPasskey({ credentialId: method.id });
    expect(session.credentialType).to.equal('PASSKEY');
    expect(session.credentialId).to.equal(method.id);
    const stored = await indexedDbKeyStore({ dbName }).get(acct.accountId);
    expect(stored?.key?.privateKey.extractable).to.equal(false);
    const after = await authenticatorCredentials();
    expect(after.credentials[0]!.signCount).to.be.greaterThan(credentials[0]!.signCount);

    // The passkey session's key is accepted by the service for a signed call.
    const account = await client().setWalletPrivacy(acct.accountId, true, { stamper: await wallet.stamper(acct.accountId) });
    expect(account.privateEnabled).to.equal(true);
  });

  it('holds the nickname it sends, trimmed, to 1 to 100 characters: padding past 100 registers; 101 characters or blanks are refused before any ceremony', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    for (const nickname of [` ${'a'.repeat(101)} `, ' '.repeat(3)]) {
      const e = await rejection(wallet.registerPasskey({ accountId: acct.accountId, nickname }));
      expect((e as WalletError).code, JSON.stringify(nickname)).to.equal('invalid_argument');
    }
    expect((await authenticatorCredentials()).credentials).to.have.length(0);
    const label = 'x'.repeat(100);
    const method = await wallet.registerPasskey({ accountId: acct.accountId, nickname: `  ${label}${' '.repeat(10)}` });
    expect(method.nickname).to.equal(label);
  });

  it('asks for a login first when the wallet already has a credential and there is no session (no ceremony run)', async () => {
    const e = await rejection(wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Phone' }));
    expect(e).to.be.instanceOf(WalletError);
    expect((e as WalletError).code).to.equal('session_expired');
    expect((e as WalletError).message).to.match(/log in/i);
    expect((await authenticatorCredentials()).credentials).to.have.length(0);
  });

  it('excludes an authenticator already registered: WalletError webauthn with the InvalidStateError kept', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'First' });
    const e = await rejection(wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Again' }));
    expect(e).to.be.instanceOf(WalletError);
    expect((e as WalletError).code).to.equal('webauthn');
    expect(((e as WalletError).cause as Error).name).to.equal('InvalidStateError');
    expect((await client().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY')).to.have.length(1);
  });

  it('two tabs adding a passkey to one wallet at once: one is added, and the other tab is told this device already holds it', async () => {
    // Both tabs' passkeys would carry the wallet's one user handle, and the authenticator keeps one
    // passkey per user: the second would replace the first, whose passkey the service keeps all the
    // same, a login nobody can use.
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const tab = await openOtherTab();
    try {
      const otherWallet = tab.core.createWallet({ client: tab.core.createClient({ baseUrl: f.apiBase }), store: tab.core.indexedDbKeyStore({ dbName }), otpSigner: f.signerPublicKey });
      const outcome = (p: Promise<{ id: string }>) => p.then((m) => m.id, (e: WalletError) => `${e.code}: ${(e.cause as Error | undefined)?.name}`);
      const results = await Promise.all([
        outcome(wallet.registerPasskey({ accountId: acct.accountId, nickname: 'This tab' })),
        outcome(otherWallet.registerPasskey({ accountId: acct.accountId, nickname: 'Other tab' })),
      ]);
      const passkeys = (await client().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY');
      expect({ passkeys: passkeys.length, held: (await authenticatorCredentials()).credentials.length }).to.deep.equal({ passkeys: 1, held: 1 });
      expect([...results].sort()).to.deep.equal([passkeys[0]!.id, 'webauthn: InvalidStateError'].sort());
      // The passkey the wallet lists is the one this device holds: it logs in.
      await wallet.logout(acct.accountId);
      expect((await wallet.loginWithPasskey({ credentialId: passkeys[0]!.id })).credentialId).to.equal(passkeys[0]!.id);
    } finally {
      tab.close();
    }
  });

  it('a registration waiting for another tab\'s opens no prompt meanwhile, and its signal stops the wait; the next one goes ahead once that tab is done', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // No touch: the other tab's prompt stays open.
    await setAutomaticPresence(false);
    const tab = await openOtherTab();
    const creates: unknown[] = [];
    const original = navigator.credentials.create;
    navigator.credentials.create = function (this: CredentialsContainer, options?: CredentialCreationOptions) {
      creates.push(options);
      return original.call(this, options);
    };
    const thereCredentials = tab.window.navigator.credentials;
    let thereCreates = 0;
    thereCredentials.create = function (this: CredentialsContainer, options?: CredentialCreationOptions) {
      thereCreates++;
      return Object.getPrototypeOf(thereCredentials).create.call(this, options);
    };
    try {
      const otherWallet = tab.core.createWallet({ client: tab.core.createClient({ baseUrl: f.apiBase }), store: tab.core.indexedDbKeyStore({ dbName }), otpSigner: f.signerPublicKey });
      const otherTabStop = new AbortController();
      const there = otherWallet.registerPasskey({ accountId: acct.accountId, nickname: 'Other tab', signal: otherTabStop.signal }).then(
        () => 'resolved',
        (e: WalletError) => e.code,
      );
      // The other tab's prompt open (however long a busy machine takes to get there).
      await waitFor(() => thereCreates > 0, 'the other tab\'s prompt', 10000);
      const stop = new AbortController();
      let waiting: boolean | 'here' = false;
      const here = wallet.registerPasskey({ accountId: acct.accountId, nickname: 'This tab', signal: stop.signal, onWait: (w) => void (waiting ||= w) }).then(
        () => 'resolved',
        (e: unknown) => e,
      );
      // Waiting for it (or, wrongly, at a prompt of its own): no prompt opens for a while, then its signal stops the wait.
      await waitFor(() => waiting || creates.length, 'this tab\'s registration waiting for the other tab\'s');
      await new Promise((r) => setTimeout(r, 500));
      stop.abort();
      // Settled while the other tab still holds the lock: its signal stopped the wait.
      const stopped = await here;
      expect(stopped).to.be.instanceOf(WalletError);
      expect((stopped as WalletError).code).to.equal('aborted');
      expect(creates, 'no prompt opened in this tab').to.have.length(0);
      otherTabStop.abort();
      expect(await there).to.equal('aborted');
      await setAutomaticPresence(true);
      expect((await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Next' })).nickname).to.equal('Next');
      expect(creates).to.have.length(1);
    } finally {
      delete (navigator.credentials as { create?: unknown }).create;
      tab.close();
    }
  });

  it('registers in a browser without Web Locks', async () => {
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    try {
      await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
      expect((await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'No locks' })).type).to.equal('PASSKEY');
      expect((await authenticatorCredentials()).credentials).to.have.length(1);
    } finally {
      delete (navigator as { locks?: unknown }).locks;
    }
    expect(navigator.locks).to.not.equal(undefined);
  });

  it('a session renewed while the passkey prompt is open signs the registration with its new key', async () => {
    const old = await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    // The renewal (another element's or tab's refresh before expiry) lands while the prompt is open:
    // the real ceremony runs right after it. The service ends the session it replaces.
    const original = navigator.credentials.create;
    let renewed: string | undefined;
    navigator.credentials.create = async function (this: CredentialsContainer, options?: CredentialCreationOptions) {
      renewed = (await wallet.refresh(acct.accountId)).sessionId;
      return original.call(this, options);
    };
    try {
      const method = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Renewed meanwhile' });
      expect(method.type).to.equal('PASSKEY');
    } finally {
      delete (navigator.credentials as { create?: unknown }).create;
    }
    expect(renewed).to.be.a('string').and.not.equal(old.sessionId);
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([renewed]);
  });

  it('maps a login without a matching authenticator to WalletError webauthn (NotAllowedError)', async () => {
    const method = await passkeyLoggedOut('Gone soon');
    await removeVirtualAuthenticator();
    await addVirtualAuthenticator(); // a different, empty authenticator
    const e = await rejection(wallet.loginWithPasskey({ credentialId: method.id }));
    expect(e).to.be.instanceOf(WalletError);
    expect((e as WalletError).code).to.equal('webauthn');
    expect(((e as WalletError).cause as Error).name).to.equal('NotAllowedError');
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
  });

  it('offers every passkey of the wallet: a device holding an older one logs in with it, over its own challenge', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const { older, newer } = await olderPasskeyHere(wallet, acct.accountId);
    await wallet.logout(acct.accountId);
    // The newer passkey's prompt alone finds nothing on this device.
    const e = await rejection(wallet.loginWithPasskey({ credentialId: newer.id }));
    expect(((e as WalletError).cause as Error).name).to.equal('NotAllowedError');

    const passkeys = (await client().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY');
    const session = await wallet.loginWithPasskey({ credentialId: newer.id, passkeys });
    expect(session.credentialId).to.equal(older.id);
    expect((await wallet.current(acct.accountId))?.sessionId).to.equal(session.sessionId);
    expect((await client().listSessions(acct.accountId)).map((s) => s.id)).to.include(session.sessionId);
  });

  it('logs in through a conditional (autofill) request', async function () {
    if (!(await browserSupportsWebAuthnAutofill())) this.skip();
    const method = await passkeyLoggedOut('Autofill');
    const input = autofillField();
    try {
      // The virtual authenticator answers a conditional request at once (presence simulated).
      const session = await wallet.loginWithPasskey({ credentialId: method.id, mediation: 'conditional' });
      expect(session.credentialType).to.equal('PASSKEY');
    } finally {
      input.remove();
    }
  });

  it('a conditional request cancelled during its autofill support check never starts, and a modal one started right after completes', async function () {
    if (!(await browserSupportsWebAuthnAutofill())) this.skip();
    const method = await passkeyLoggedOut('Cancelled autofill');
    const input = autofillField();
    const watch = watchCredentialsGet();
    let modal: Promise<unknown> | undefined;
    const controller = new AbortController();
    // The user picks another way while the autofill check is still running: cancel, and at once
    // (same task, as a click handler would) a modal request.
    const restoreCheck = onAutofillCheck(() => {
      controller.abort();
      modal = getPasskeyAssertion({ credentialId: method.credentialId!, challenge: 'c0ffee', signal: new AbortController().signal }).then(
        (a) => a,
        (e: unknown) => e,
      );
    });
    try {
      const autofill = await getPasskeyAssertion({ credentialId: method.credentialId!, challenge: 'c0ffee', mediation: 'conditional', signal: controller.signal }).then(
        () => 'resolved',
        (e: unknown) => e,
      );
      expect(modal, 'the cancel ran during the support check').to.not.equal(undefined);
      const assertion = await modal;
      expect({
        autofill: autofill instanceof WalletError ? autofill.code : autofill,
        modal: assertion instanceof WalletError ? `${assertion.code}: ${(assertion.cause as Error | undefined)?.name}` : (assertion as { credentialId: string }).credentialId,
      }).to.deep.equal({ autofill: 'aborted', modal: method.credentialId });
      // Let any request still on its way start; none may.
      await new Promise((r) => setTimeout(r, 300));
      expect(watch.calls.map((c) => c.mediation)).to.deep.equal(['optional']);
      expect(watch.calls.map((c) => c.settled)).to.deep.equal(['resolved']);
    } finally {
      restoreCheck();
      watch.restore();
      input.remove();
    }
  });

  it('a cancelled autofill login starts no request at all, and a passkey login after it completes', async function () {
    if (!(await browserSupportsWebAuthnAutofill())) this.skip();
    const method = await passkeyLoggedOut('Cancelled login');
    const input = autofillField();
    // No touch: a request that did start would stay open, as an unanswered autofill offer does.
    await setAutomaticPresence(false);
    const watch = watchCredentialsGet();
    const controller = new AbortController();
    const restoreCheck = onAutofillCheck(() => controller.abort());
    try {
      // Settled with no touch to answer a request: the cancel ended it.
      const autofill = await wallet.loginWithPasskey({ credentialId: method.id, mediation: 'conditional', signal: controller.signal }).then(
        () => 'resolved',
        (e: unknown) => (e instanceof WalletError ? e.code : e),
      );
      expect(autofill).to.equal('aborted');
      await new Promise((r) => setTimeout(r, 300));
      expect(watch.calls, 'no request started after the cancel').to.have.length(0);
      await setAutomaticPresence(true);
      const session = await wallet.loginWithPasskey({ credentialId: method.id });
      expect(session.credentialType).to.equal('PASSKEY');
      expect(watch.calls.map((c) => [c.mediation, c.settled])).to.deep.equal([['optional', 'resolved']]);
    } finally {
      restoreCheck();
      watch.restore();
      input.remove();
    }
  });

  it('never runs two ceremonies at once, and the caller\'s signal stops a waiting one', async () => {
    const method = await passkeyLoggedOut('Waiting');
    await setAutomaticPresence(false);
    const watch = watchCredentialsGet();
    const first = wallet.loginWithPasskey({ credentialId: method.id }).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    // The first ceremony's prompt open (after its challenge: late on a busy machine).
    try {
      await waitFor(() => watch.calls.length > 0, 'the first login\'s prompt', 10000);
    } finally {
      watch.restore();
    }
    const controller = new AbortController();
    const second = wallet.loginWithPasskey({ credentialId: method.id, signal: controller.signal }).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    // Starting the second cancelled the first (the page's one running ceremony), with the AbortError kept.
    const e1 = await first;
    expect(e1).to.be.instanceOf(WalletError);
    expect((e1 as WalletError).code).to.equal('webauthn');
    expect(((e1 as WalletError).cause as Error).name).to.equal('AbortError');
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    const e2 = await second;
    expect((e2 as WalletError).code).to.equal('aborted');
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
  });

  it('registers and logs in the same way in a browser without the WebAuthn JSON methods (parseCreationOptionsFromJSON, toJSON)', async () => {
    const parse = Object.getOwnPropertyDescriptor(PublicKeyCredential, 'parseCreationOptionsFromJSON');
    const toJSON = Object.getOwnPropertyDescriptor(PublicKeyCredential.prototype, 'toJSON');
    expect(parse, 'this browser has parseCreationOptionsFromJSON').to.not.equal(undefined);
    expect(toJSON, 'this browser has toJSON').to.not.equal(undefined);
    delete (PublicKeyCredential as { parseCreationOptionsFromJSON?: unknown }).parseCreationOptionsFromJSON;
    delete (PublicKeyCredential.prototype as { toJSON?: unknown }).toJSON;
    try {
      const method = await passkeyLoggedOut('Older browser');
      const session = await wallet.loginWithPasskey({ credentialId: method.id });
      expect(session.credentialType).to.equal('PASSKEY');
      // The excluded authenticator is still refused, with the browser's reason kept.
      const e = await rejection(wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Again' }));
      expect(((e as WalletError).cause as Error).name).to.equal('InvalidStateError');
    } finally {
      Object.defineProperty(PublicKeyCredential, 'parseCreationOptionsFromJSON', parse!);
      Object.defineProperty(PublicKeyCredential.prototype, 'toJSON', toJSON!);
    }
  });

  it('an aborted signal stops the login before any ceremony', async () => {
    const controller = new AbortController();
    controller.abort();
    const e = await rejection(wallet.loginWithPasskey({ credentialId: acct.emailCredentialId, signal: controller.signal }));
    expect((e as WalletError).code).to.equal('aborted');
  });
});
