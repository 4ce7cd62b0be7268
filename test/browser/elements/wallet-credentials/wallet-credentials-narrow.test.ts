/**
 * <wallet-credentials> in Chromium, 320 CSS px wide (WCAG 1.4.10 Reflow), against the real sandbox
 * through the real proxy: a long login name without a place to break (a single sign-on's email)
 * stays inside the panel in its row and in the question before its removal.
 */
import { expect } from 'chai';
import { setViewport } from '@web/test-runner-commands';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { oidcToken, type RigAccount } from '../../support/rig.ts';
import { addButton, idle, loginByEmail, removeButton } from './helpers.ts';
import { mount, part, resetPage, shadow, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';

/**
 * Elements of the panel whose right edge passes the panel's, or that scroll sideways (boxes that are
 * not inline: an inline one has no client width, and Firefox gives it the scroll width of its text).
 */
function overflowing(el: WalletCredentials): string[] {
  const base = part(el, 'base')!.getBoundingClientRect();
  const scrolls = (x: HTMLElement) => getComputedStyle(x).display !== 'inline' && x.scrollWidth > x.clientWidth + 1;
  return [...shadow(el).querySelectorAll<HTMLElement>('*')]
    .filter((x) => x.getBoundingClientRect().right > base.right + 0.5 || scrolls(x))
    .map((x) => `${x.localName}[part=${x.getAttribute('part')}] ${x.textContent?.trim().slice(0, 40)}`);
}

describe('<wallet-credentials> 320 px wide', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(async function () {
    await setViewport({ width: 800, height: 600 });
    await resetPage.call(this);
  });

  it('a single sign-on email without a place to break stays in the panel, in its row and in the question before its removal', async () => {
    await loginByEmail(acct);
    await setViewport({ width: 320, height: 640 });
    const email = `averyveryverylongaddresswithoutanyplacetobreak${Date.now()}@examplecompanydomain.com`;
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    el.oidcTokenProvider = (nonce) => oidcToken({ sub: `user-${crypto.randomUUID()}`, email, nonce });
    await idle(el);
    addButton(el, 'OAUTH').click();
    await waitFor(() => shadow(el).querySelector("[part~='credential'][data-type='OAUTH']"), 'the single sign-on row');
    await idle(el);
    expect(overflowing(el)).to.deep.equal([]);
    removeButton(el, 'OAUTH').click();
    await waitForState(el, 'confirming');
    await el.updateComplete;
    expect(part(el, 'confirm')!.textContent).to.contain(email);
    expect(overflowing(el)).to.deep.equal([]);
  });
});
