/**
 * <card-reveal> and the wallet session, in Chromium against the real sandbox through the real proxy:
 * card details shown stay only while the session lives. A logout from a <wallet-login> on the same
 * page removes them (the iframe and its short-lived URL go, `card-hidden` says `logged-out`),
 * whether or not the reveal asked for a proof of the session (`require-session`); without a session
 * a reveal that needs one says to log in, in words.
 */
import { expect } from 'chai';
import '../../../../src/elements/card-reveal/index.ts';
import '../../../../src/elements/wallet-login/index.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/index.ts';
import { fixtures, sandboxVariant, type RigAccount, type RigFixtures } from '../../support/rig.ts';
import { loginByEmail, mount, nextEvent, part, resetPage, text, useRigAccount, waitForState } from '../shared/helpers.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';

const frameOf = (el: Element) => el.shadowRoot!.querySelector('iframe');

async function reveal(el: CardReveal): Promise<void> {
  const shown = Promise.race([nextEvent<CustomEvent>(el, 'card-revealed'), nextEvent<CustomEvent>(el, 'card-reveal-error')]);
  (part(el, 'reveal-button') as HTMLButtonElement).click();
  const event = await shown;
  expect(event.type, JSON.stringify(event.detail)).to.equal('card-revealed');
  expect(frameOf(el)).to.not.equal(null);
}

async function logoutThere(login: WalletLogin, el: CardReveal): Promise<void> {
  const hidden = nextEvent<CustomEvent>(el, 'card-hidden');
  const out = nextEvent(login, 'wallet-logged-out');
  login.logout();
  await out;
  expect((await hidden).detail).to.deep.equal({ reason: 'logged-out' });
  expect(frameOf(el), 'the iframe').to.equal(null);
  await el.updateComplete;
  expect(text(el, 'message')).to.equal('Card details hidden: you logged out.');
}

describe('<card-reveal> and the wallet session', function () {
  this.timeout(60000);
  let acct: RigAccount, f: RigFixtures;
  beforeEach(async () => {
    ({ acct } = await useRigAccount());
    f = await fixtures();
  });
  afterEach(resetPage);

  it('details shown (the proxy allowing the reveal) go when a <wallet-login> on the same page logs out the wallet of account-id', async () => {
    await loginByEmail(acct);
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(login, 'logged-in');
    const el = await mount<CardReveal>('card-reveal', { 'card-id': acct.cardId, 'account-id': acct.accountId, 'allowed-origins': f.processorOrigin });
    await reveal(el);
    await logoutThere(login, el);
  });

  it('details shown without account-id go when a <wallet-login> on the same page logs out', async () => {
    await loginByEmail(acct);
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(login, 'logged-in');
    const el = await mount<CardReveal>('card-reveal', { 'card-id': acct.cardId, 'allowed-origins': f.processorOrigin });
    await reveal(el);
    await logoutThere(login, el);
  });

  it('require-session: details shown go when a <wallet-login> on the same page logs out; revealed again without a session, it says to log in', async () => {
    const v = await sandboxVariant({ stepUp: true });
    await (await walletFor(v.apiBase).startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase });
    await waitForState(login, 'logged-in');
    const el = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin, 'account-id': v.accountId, 'require-session': '' });
    await reveal(el);
    await logoutThere(login, el);
    const error = nextEvent<CustomEvent>(el, 'card-reveal-error');
    (part(el, 'reveal-button') as HTMLButtonElement).click();
    expect((await error).detail.code).to.equal('session_required');
    await el.updateComplete;
    expect(text(el, 'error')).to.match(/^Log in to your wallet first, then try again\./);
    expect(frameOf(el)).to.equal(null);
  });
});
