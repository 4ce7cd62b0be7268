/**
 * A passkey of another wallet of the same site, in Chromium with the virtual authenticator: this
 * device holds wallet B's passkey, not wallet A's, and `<wallet-login account-id="A">` asks for one.
 * Autofill's conditional request carries no allowCredentials, so B's passkey is offered and picked;
 * the passkey button's prompt names A's passkeys only, so it finds none. Neither sends B's assertion
 * to be checked (the service would refuse it: 401), and neither leads to a session.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import type { AuthMethod } from '../../../../src/core/types.ts';
import '../../../../src/locales/ar.ts';
import { addVirtualAuthenticator, authenticatorCredentials, newAccount, putAuthenticatorCredential, takeAuthenticatorCredential, type RigAccount } from '../../support/rig.ts';
import { inState, mount, nextEvent, part, resetPage, text, useRig, waitFor, waitForState } from '../shared/helpers.ts';
import { base64url, methodButton, watchPage } from './helpers.ts';

const settle = () => new Promise((r) => setTimeout(r, 700));

describe('<wallet-login> with a passkey of another wallet', function () {
  this.timeout(60000);
  let a: RigAccount;
  let b: RigAccount;
  let store: KeyStore;
  /** Each wallet's passkey. */
  let passkeyOf: Map<string, AuthMethod>;
  /** The authenticator's name of each wallet's passkey (base64). */
  let heldAs: Map<string, string>;
  let watch: ReturnType<typeof watchPage>;

  beforeEach(async () => {
    ({ store } = await useRig());
    await addVirtualAuthenticator();
    [a, b] = [await newAccount(), await newAccount()];
    const wallet = walletFor();
    passkeyOf = new Map();
    heldAs = new Map();
    for (const acct of [a, b]) {
      await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
      const passkey = await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Laptop' });
      passkeyOf.set(acct.accountId, passkey);
      const held = (await authenticatorCredentials()).credentials.find((c) => base64url(c.credentialId) === passkey.credentialId);
      heldAs.set(acct.accountId, held!.credentialId);
      await wallet.logout(acct.accountId);
    }
    // A's passkey is on another device: this one holds B's only.
    await takeAuthenticatorCredential(heldAs.get(a.accountId)!);
    watch = watchPage();
  });
  afterEach(async () => {
    await resetPage();
    watch.restore();
  });

  it('picked from autofill: nothing is sent to check it, the screen says it is another wallet’s, and autofill is offered again, where this wallet’s passkey logs in', async () => {
    // The authenticator answers the autofill request at once, as a user picking the suggestion
    // would: B's passkey, the only one here. Its challenge waits until the keyboard is in the
    // saved-passkey field, where the user picks; the list of the request that follows waits too.
    const first = watch.hold('POST /auth/credentials/{id}/challenge', 1);
    const next = watch.hold('GET /auth/credentials', 2);
    const errors: Array<{ code: string; message: string }> = [];
    const logins: LoggedInDetail[] = [];
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': a.accountId, methods: 'passkey email-otp' }, (e) => {
      e.addEventListener('wallet-login-error', (ev) => errors.push((ev as CustomEvent).detail));
      e.addEventListener('wallet-logged-in', (ev) => logins.push((ev as CustomEvent<LoggedInDetail>).detail));
    });
    await first.arrived;
    await el.updateComplete;
    const field = part(el, 'autofill')!.querySelector('input')!;
    field.focus();
    first.release();
    await waitFor(() => errors.length > 0, 'the error event');
    expect(watch.gets, 'autofill allows any passkey of the site').to.deep.equal([{ mediation: 'conditional', allow: [] }]);
    expect(errors).to.deep.equal([{ code: 'passkey_other_wallet', message: 'That passkey belongs to another wallet. Choose a passkey of this wallet, or use another way to log in.' }]);
    expect(text(el, 'error')).to.equal(errors[0]!.message);
    expect(inState(el, 'choosing')).to.equal(true);
    expect(watch.sent.filter((s) => s.endsWith('/verify')), 'assertions sent').to.deep.equal([]);
    expect(logins).to.deep.equal([]);
    expect(await store.get(a.accountId)).to.equal(undefined);
    expect(await store.get(b.accountId)).to.equal(undefined);

    // Offered again at once: a new request, which waits until A's passkey is here and B's gone, so
    // that the user's next pick is A's. Meanwhile the field stays, and the keyboard in it.
    // (However long a busy machine takes: nothing else happens meanwhile that could ask for it.)
    const again = await Promise.race([next.arrived.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15000))]);
    expect(again, 'autofill asked for again').to.equal(true);
    await el.updateComplete;
    expect(part(el, 'autofill')?.querySelector('input') === field, 'the same field').to.equal(true);
    expect(el.shadowRoot!.activeElement === field, `focus on ${document.activeElement?.tagName}`).to.equal(true);
    await putAuthenticatorCredential(heldAs.get(a.accountId)!);
    await takeAuthenticatorCredential(heldAs.get(b.accountId)!);
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
    next.release();
    const { detail } = await loggedIn;
    expect([detail.accountId, detail.credentialType, detail.source]).to.deep.equal([a.accountId, 'PASSKEY', 'login']);
    expect((await store.get(a.accountId))?.session.credentialId).to.equal(passkeyOf.get(a.accountId)!.id);
    expect(await store.get(b.accountId)).to.equal(undefined);
    expect(errors, 'one error in all').to.have.length(1);
  });

  it('picked from autofill on an Arabic page: the sentence is Arabic', async () => {
    // The authenticator answers at once with B's passkey (the request that follows waits).
    watch.hold('GET /auth/credentials', 2);
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': a.accountId, methods: 'passkey email-otp', lang: 'ar' });
    const { detail } = await nextEvent<CustomEvent<{ code: string; message: string }>>(el, 'wallet-login-error');
    expect(detail.code).to.equal('passkey_other_wallet');
    expect(detail.message).to.equal('مفتاح المرور هذا لمحفظة أخرى. اختر مفتاح مرور لهذه المحفظة، أو استخدم طريقة أخرى لتسجيل الدخول.');
    await el.updateComplete;
    expect(text(el, 'error')).to.equal(detail.message);
    expect(watch.sent.filter((s) => s.endsWith('/verify'))).to.deep.equal([]);
  });

  it('the passkey button: its prompt allows this wallet’s passkeys only and finds none here; nothing is sent to check, no error, no session', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': a.accountId, methods: 'passkey email-otp', 'no-autofill': '' });
    await waitForState(el, 'choosing');
    let errors = 0;
    let logins = 0;
    el.addEventListener('wallet-login-error', () => errors++);
    el.addEventListener('wallet-logged-in', () => logins++);
    methodButton(el, 'passkey').click();
    await el.updateComplete;
    await waitFor(() => !inState(el, 'authenticating'), 'the end of the passkey login');
    await settle();
    expect(watch.gets).to.deep.equal([{ mediation: 'modal', allow: [passkeyOf.get(a.accountId)!.credentialId] }]);
    expect(inState(el, 'choosing')).to.equal(true);
    expect(text(el, 'error')).to.equal('');
    expect([errors, logins]).to.deep.equal([0, 0]);
    expect(watch.sent.filter((s) => s.endsWith('/verify'))).to.deep.equal([]);
    expect(await store.get(a.accountId)).to.equal(undefined);
    expect(await store.get(b.accountId)).to.equal(undefined);
  });
});
