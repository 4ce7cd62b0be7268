/**
 * <wallet-credentials> in Chromium against the real sandbox through the real proxy: a Remove that
 * cannot be used (the wallet's only login, or the one this device is logged in with), or an add
 * button with a hint of its own (SMS already there, single sign-on not set up), is still
 * reached with the keyboard and says why in the accessibility tree (Chromium's, through CDP),
 * looks disabled (in forced colours too), and pressing it asks nothing and sends nothing.
 */
import { expect } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { axNodes, forcedColors, type RigAccount } from '../../support/rig.ts';
import { focusIn, mount, pressWith, resetPage, shadow, useRigAccount, waitFor } from '../shared/helpers.ts';
import { addButton, idle, loginByEmail, removeButton } from './helpers.ts';

async function settled(accountId: string): Promise<WalletCredentials> {
  const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': accountId });
  await idle(el);
  return el;
}

/** Requests the page made to the proxy so far. */
const requests = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/')).length;

/** The focused button's node in Chromium's accessibility tree. */
async function focusedButton() {
  return (await axNodes()).find((n) => n.role === 'button' && n.properties['focused']);
}

/** How a button looks disabled: its opacity and cursor. */
const looks = (b: HTMLElement) => [getComputedStyle(b).opacity, getComputedStyle(b).cursor];

/** A natively disabled copy of that button, without a hint, in the panel (taken out again at the next render). */
function natively(el: WalletCredentials, button: HTMLButtonElement): HTMLButtonElement {
  const copy = button.cloneNode(true) as HTMLButtonElement;
  copy.removeAttribute('aria-describedby');
  copy.removeAttribute('aria-disabled');
  copy.disabled = true;
  shadow(el).querySelector('.stack')!.append(copy);
  queueMicrotask(() => copy.remove());
  return copy;
}

/** A button's text and border colours (forced colours replace opacity's dimming with these). */
const inks = (b: HTMLElement) => [getComputedStyle(b).color, getComputedStyle(b).borderTopColor];

/** Enter, Space and a click on the focused button: no confirmation or form opens, nothing is sent, the logins stay. */
async function pressIsIgnored(el: WalletCredentials, button: HTMLButtonElement, acct: RigAccount, listed: number): Promise<void> {
  const before = requests();
  await sendKeys({ press: 'Enter' });
  await sendKeys({ press: 'Space' });
  button.click();
  await el.updateComplete;
  await new Promise((r) => setTimeout(r, 300));
  expect(el.matches(':state(confirming)'), 'a confirmation opened').to.equal(false);
  expect(el.matches(':state(code-entry)'), 'a code form opened').to.equal(false);
  expect(shadow(el).querySelector("[part~='error']")?.textContent, 'an error shown').to.equal('');
  expect(el.matches(':state(busy)'), 'a change started').to.equal(false);
  expect(requests(), 'requests sent').to.equal(before);
  expect(shadow(el).activeElement).to.equal(button);
  expect(await clientFor().listCredentials(acct.accountId)).to.have.length(listed);
}

describe('<wallet-credentials> Remove and add buttons that cannot be used', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  it('the login this device is logged in with: reached by Tab, described by its hint, looks disabled, and a press does nothing', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    const blocked = removeButton(el, 'EMAIL_OTP');
    // From the SMS row's Remove, Shift+Tab goes back to the email row's.
    removeButton(el, 'SMS_OTP').focus();
    await pressWith('Shift', 'Tab');
    expect(shadow(el).activeElement === blocked, `focus on the email login's Remove, not ${focusIn(el)}`).to.equal(true);
    const node = await focusedButton();
    expect(node?.name).to.match(/^Remove Email/);
    expect(node?.description).to.equal('You are logged in with this one here. Log in another way to remove it.');
    expect(node?.properties['disabled']).to.equal(true);
    // It looks as a natively disabled button of the panel does.
    expect(looks(blocked)).to.deep.equal(looks(natively(el, blocked)));
    await pressIsIgnored(el, blocked, acct, 2);
    // The other one is removable as before.
    expect(removeButton(el, 'SMS_OTP').hasAttribute('aria-disabled')).to.equal(false);
  });

  it('in forced colours (Windows high contrast) the blocked Remove is drawn in GrayText as a natively disabled button is, not as the usable one', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    await forcedColors('active');
    try {
      expect(matchMedia('(forced-colors: active)').matches).to.equal(true);
      const blocked = removeButton(el, 'EMAIL_OTP');
      expect(blocked.getAttribute('aria-disabled')).to.equal('true');
      const probe = document.createElement('span');
      probe.style.color = 'GrayText';
      document.body.append(probe);
      const gray = getComputedStyle(probe).color;
      probe.remove();
      // GrayText stands apart from the usable Remove beside it, so the comparison below can fail.
      expect(inks(removeButton(el, 'SMS_OTP'))).to.not.include(gray);
      expect(inks(natively(el, blocked))).to.deep.equal([gray, gray]);
      // Once its border's transition (from before forced colours came on) has run.
      await Promise.all(blocked.getAnimations().map((a) => a.finished));
      expect(inks(blocked)).to.deep.equal([gray, gray]);
    } finally {
      await forcedColors('none');
    }
  });

  it('the wallet’s only login: reached by Tab, described by its hint, and a press does nothing', async () => {
    await loginByEmail(acct);
    const el = await settled(acct.accountId);
    const blocked = removeButton(el, 'EMAIL_OTP');
    blocked.focus();
    expect(shadow(el).activeElement === blocked, `focus on the Remove, not ${focusIn(el)}`).to.equal(true);
    // The keyboard goes on from it to the next control and back.
    await sendKeys({ press: 'Tab' });
    await pressWith('Shift', 'Tab');
    expect(shadow(el).activeElement === blocked, `focus back on the Remove, not ${focusIn(el)}`).to.equal(true);
    const node = await focusedButton();
    expect(node?.name).to.match(/^Remove Email/);
    expect(node?.description).to.equal('This is your only way to log in, so it cannot be removed. Add another one first.');
    expect(node?.properties['disabled']).to.equal(true);
    await pressIsIgnored(el, blocked, acct, 1);
    // The lists read again under it, unchanged: it keeps the focus (only a Remove that becomes unusable gives it to the heading).
    const reread = requests();
    el.reload();
    await waitFor(() => requests() > reread && !el.matches(':state(busy)'), 'the lists read again');
    await el.updateComplete;
    expect(shadow(el).activeElement === blocked, `focus still on the Remove, not ${focusIn(el)}`).to.equal(true);
  });

  it('an add button with its own hint (SMS already there, single sign-on not set up): reached by Tab, described by its hint, looks disabled, and a press does nothing', async () => {
    await loginByEmail(acct);
    await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const el = await settled(acct.accountId);
    // From the last row's Remove, Tab goes on to the add buttons, one after the other.
    removeButton(el, 'SMS_OTP').focus();
    for (const [type, name, hint] of [
      ['SMS_OTP', 'Add text message codes', 'This wallet already receives codes by text message.'],
      ['OAUTH', 'Add single sign-on', 'Single sign-on is not set up on this page.'],
    ] as const) {
      const add = addButton(el, type);
      await sendKeys({ press: 'Tab' });
      expect(shadow(el).activeElement === add, `focus on the ${type} add button, not ${focusIn(el)}`).to.equal(true);
      const node = await focusedButton();
      expect(node?.name).to.equal(name);
      expect(node?.description).to.equal(hint);
      expect(node?.properties['disabled']).to.equal(true);
      expect(looks(add)).to.deep.equal(looks(natively(el, add)));
      await pressIsIgnored(el, add, acct, 2);
    }
  });

  it('logged out here: an add button without a hint of its own stays natively disabled ("Log in to make changes" is said once for them all), one with its hint is reached and described', async () => {
    const el = await settled(acct.accountId);
    expect(shadow(el).textContent).to.contain('Log in to make changes');
    const sms = addButton(el, 'SMS_OTP');
    expect([sms.disabled, sms.hasAttribute('aria-describedby')]).to.deep.equal([true, false]);
    const sso = addButton(el, 'OAUTH');
    sso.focus();
    expect(shadow(el).activeElement === sso, `focus on the single sign-on add button, not ${focusIn(el)}`).to.equal(true);
    expect((await focusedButton())?.description).to.equal('Single sign-on is not set up on this page.');
    await pressIsIgnored(el, sso, acct, 1);
  });
});
