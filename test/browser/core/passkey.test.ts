/**
 * Passkeys in real Chromium with its virtual authenticator (CDP WebAuthn domain), against the
 * sandbox's full WebAuthn checks through the proxy (DESIGN.md wire format 6; reference.md
 * "Credentials"): registration with the proxy's options and a signed retry, login over the hex
 * challenge with Request-Id, exclusion of an already registered authenticator, and failures
 * mapped to WalletError('webauthn') with the DOMException kept as cause.
 */
import { expect } from 'chai';
import { createClient } from '../../../src/core/client.ts';
import { indexedDbKeyStore } from '../../../src/core/keystore.ts';
import { createWallet, type Wallet } from '../../../src/core/session.ts';
import { WalletError } from '../../../src/core/errors.ts';
import { browserSupportsWebAuthnAutofill } from '../../../src/core/webauthn.ts';
import { base64urlDecode, bytesToHex } from '../../../src/core/encoding.ts';
import {
  fixtures,
  newAccount,
  addVirtualAuthenticator,
  removeVirtualAuthenticator,
  setAutomaticPresence,
  authenticatorCredentials,
  type RigAccount,
  type RigFixtures,
} from '../support/rig.ts';

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
}

describe('passkeys through the virtual authenticator', () => {
  let f: RigFixtures;
  let acct: RigAccount;
  let wallet: Wallet;
  let dbName: string;
  const client = () => createClient({ baseUrl: f.apiBase });

  beforeEach(async () => {
    f = await fixtures();
    acct = await newAccount();
    dbName = `wallet-elements-test-${crypto.randomUUID()}`;
    wallet = createWallet({ client: client(), store: indexedDbKeyStore({ dbName }), otpSigner: f.signerPublicKey });
    await addVirtualAuthenticator();
  });
  afterEach(async () => {
    await removeVirtualAuthenticator();
  });

  it('registers a passkey (signed by the OTP session), then logs in with it after logout', async () => {
    expect(location.hostname).to.equal('localhost');
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const method = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Test laptop' });
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

  it('maps a login without a matching authenticator to WalletError webauthn (NotAllowedError)', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const method = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Gone soon' });
    await wallet.logout(acct.accountId);
    await removeVirtualAuthenticator();
    await addVirtualAuthenticator(); // a different, empty authenticator
    const e = await rejection(wallet.loginWithPasskey({ credentialId: method.id }));
    expect(e).to.be.instanceOf(WalletError);
    expect((e as WalletError).code).to.equal('webauthn');
    expect(((e as WalletError).cause as Error).name).to.equal('NotAllowedError');
    expect(await wallet.current(acct.accountId)).to.equal(undefined);
  });

  it('logs in through a conditional (autofill) request', async function () {
    if (!(await browserSupportsWebAuthnAutofill())) this.skip();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const method = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Autofill' });
    await wallet.logout(acct.accountId);
    const input = Object.assign(document.createElement('input'), { autocomplete: 'username webauthn' });
    document.body.append(input);
    try {
      // The virtual authenticator answers a conditional request at once (presence simulated).
      const session = await wallet.loginWithPasskey({ credentialId: method.id, mediation: 'conditional' });
      expect(session.credentialType).to.equal('PASSKEY');
    } finally {
      input.remove();
    }
  });

  it('never runs two ceremonies at once, and the caller\'s signal stops a waiting one', async () => {
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const method = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Waiting' });
    await wallet.logout(acct.accountId);
    await setAutomaticPresence(false);
    const first = wallet.loginWithPasskey({ credentialId: method.id }).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    const controller = new AbortController();
    const second = wallet.loginWithPasskey({ credentialId: method.id, signal: controller.signal }).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    // Starting the second cancelled the first (WebAuthnAbortService), with the AbortError kept.
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

  it('an aborted signal stops the login before any ceremony', async () => {
    const controller = new AbortController();
    controller.abort();
    const e = await rejection(wallet.loginWithPasskey({ credentialId: acct.emailCredentialId, signal: controller.signal }));
    expect((e as WalletError).code).to.equal('aborted');
  });
});
