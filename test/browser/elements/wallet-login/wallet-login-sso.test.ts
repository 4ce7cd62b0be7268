/**
 * <wallet-login> single sign-on on a wallet with several single sign-on identities (api.md: OAUTH
 * credentials "for each supported provider identity"), in Chromium against the real sandbox through
 * the real proxy: the token the page's provider returns is for one of them, and the service takes
 * it only on that credential's verify (the token identity must match the credential). And the
 * provider is called within the click's user activation (a browser opens the sign-in window only
 * then), however long the wallet's credential list takes to come: the button is pressed with a real
 * key press (sendKeys), not click(), which gives none.
 */
import { expect } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import { oidcToken, type RigAccount } from '../../support/rig.ts';
import { holdAnswer, mount, nextEvent, resetPage, text, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';
import { methodButton } from './helpers.ts';

describe('<wallet-login> single sign-on: several identities, and the provider called within the press', function () {
  this.timeout(60000);
  let acct: RigAccount, store: KeyStore;
  beforeEach(async () => ({ acct, store } = await useRigAccount()));
  afterEach(resetPage);

  /** Adds single sign-on identities in this order (logged in by email for them, then out); their credential ids. */
  async function withIdentities(...subs: string[]): Promise<string[]> {
    const wallet = walletFor();
    await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const ids: string[] = [];
    for (const sub of subs) ids.push((await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub, email: `${sub}@example.com` }) })).id);
    await wallet.logout(acct.accountId);
    return ids;
  }

  for (const which of [0, 1]) {
    it(`logs in with the ${which ? 'newer' : 'older'} of two identities: the session is that credential's`, async () => {
      const subs = [`first-${crypto.randomUUID()}`, `second-${crypto.randomUUID()}`];
      const ids = await withIdentities(...subs);
      expect((await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'OAUTH')).to.have.length(2);
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' }, (e) => {
        (e as WalletLogin).oidcTokenProvider = (nonce) => oidcToken({ sub: subs[which]!, email: `${subs[which]}@example.com`, nonce });
      });
      await waitForState(el, 'choosing');
      const outcome = Promise.race([
        nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in').then((e) => e.detail.credentialType),
        nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error').then((e) => `error ${e.detail.code}`),
      ]);
      methodButton(el, 'oauth').click();
      expect(await outcome).to.equal('OAUTH');
      expect((await store.get(acct.accountId))?.session.credentialId).to.equal(ids[which]);
    });
  }

  /** The page's reads of a wallet's credential list. */
  const CREDENTIALS = /\/auth\/credentials\?/;

  /**
   * A <wallet-login> offering single sign-on, its provider giving `sub`'s token (or, without `sub`,
   * keeping its sign-in window open until told to stop) and noting whether the page had a user
   * activation when it was called, as a sign-in window needs (`active`), and its signal (`given`).
   */
  async function ssoLogin(sub?: string) {
    const active: boolean[] = [];
    const given: AbortSignal[] = [];
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' }, (e) => {
      (e as WalletLogin).oidcTokenProvider = (nonce, { signal }) => {
        active.push(navigator.userActivation.isActive);
        given.push(signal);
        if (sub) return oidcToken({ sub, email: `${sub}@example.com`, nonce });
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('The sign-in window was closed.', 'AbortError'))));
      };
    });
    return { el, active, given };
  }

  /** A person's press of the single sign-on button (a key press: a user activation). */
  async function press(el: WalletLogin): Promise<void> {
    methodButton(el, 'oauth').focus();
    await sendKeys({ press: 'Enter' });
  }

  /** The element's next outcome: its login's credential type, or `error <code>`. */
  const outcome = (el: WalletLogin) =>
    Promise.race([
      nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in').then((e) => e.detail.credentialType),
      nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error').then((e) => `error ${e.detail.code}`),
    ]);

  it('calls the provider within the click\'s user activation while the credential list is still on its way (a slow network)', async () => {
    const sub = `only-${crypto.randomUUID()}`;
    const [id] = await withIdentities(sub);
    // The list's answer waits, from before the element shows, until the provider was called or the
    // press's activation is over (Chromium's lasts 5 s; Safari's about 1 s).
    const held = holdAnswer('GET', CREDENTIALS);
    try {
      const { el, active } = await ssoLogin(sub);
      await waitForState(el, 'choosing');
      const result = outcome(el);
      await press(el);
      await held.arrived;
      await waitFor(() => active[0] !== undefined || !navigator.userActivation.isActive, 'the provider called, or the activation over', 10_000);
      held.release();
      expect(await result).to.equal('OAUTH');
      expect(active).to.deep.equal([true]);
      expect((await store.get(acct.accountId))?.session.credentialId).to.equal(id);
    } finally {
      held.undo();
    }
  });

  it('a wallet with no single sign-on identity: the provider, called within the press, is told to stop once the list says so, and the screen says the wallet has no such login', async () => {
    // The account has its email code only. The list's answer waits as above.
    const held = holdAnswer('GET', CREDENTIALS);
    try {
      const { el, active, given } = await ssoLogin();
      await waitForState(el, 'choosing');
      const result = outcome(el);
      await press(el);
      await held.arrived;
      await waitFor(() => active[0] !== undefined || !navigator.userActivation.isActive, 'the provider called, or the activation over', 10_000);
      expect(given[0]?.aborted).to.equal(false);
      held.release();
      expect(await result).to.equal('error no_credential');
      expect(text(el, 'error')).to.contain('no login of that kind');
      // Its window is told to close, and the step did not wait for the user there; no session.
      expect(given[0]?.aborted).to.equal(true);
      expect(await store.get(acct.accountId)).to.equal(undefined);
    } finally {
      held.undo();
    }
  });

  it('a wallet with no single sign-on identity, the list answered before the provider is due (a slow device): no window is asked for, and a provider that ignores its signal does not hold the step', async () => {
    // The account has its email code only. The login's key is made only once the list's answer has
    // been read (and a moment more for its refusal to go through), so the provider would be called after it.
    const held = holdAnswer('GET', CREDENTIALS);
    void held.arrived.then(held.release);
    const generateKey = crypto.subtle.generateKey;
    const called: boolean[] = [];
    try {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'oauth' }, (e) => {
        // A provider whose window stays open whatever it is told.
        (e as WalletLogin).oidcTokenProvider = (_nonce, { signal }) => (called.push(signal.aborted), new Promise<string>(() => {}));
      });
      await waitForState(el, 'choosing');
      crypto.subtle.generateKey = (async (...args: Parameters<SubtleCrypto['generateKey']>) => {
        await held.read;
        await new Promise((r) => setTimeout(r, 200));
        return generateKey.apply(crypto.subtle, args);
      }) as SubtleCrypto['generateKey'];
      const result = outcome(el);
      await press(el);
      expect(await Promise.race([result, new Promise((r) => setTimeout(r, 10_000, 'no outcome within 10 s'))])).to.equal('error no_credential');
      expect(text(el, 'error')).to.contain('no login of that kind');
      // Not asked for a window the list already ruled out (one asked before the refusal was read is told to close).
      expect(called.filter((aborted) => aborted), 'the provider called with a signal already aborted').to.deep.equal([]);
      expect(await store.get(acct.accountId)).to.equal(undefined);
    } finally {
      crypto.subtle.generateKey = generateKey;
      held.undo();
    }
  });
});
