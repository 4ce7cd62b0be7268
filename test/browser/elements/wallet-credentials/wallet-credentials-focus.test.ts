/**
 * <wallet-credentials> in Chromium against the real sandbox through the real proxy: where the
 * keyboard goes when the control that has it becomes disabled or leaves the page because the lists
 * changed under it (a refusal read back, a session ended elsewhere, a login removed from another
 * element or tab). It must stay in the panel, never fall back to the page's body.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { advanceClock, fixtures, openOtherTab, type OtherTab, type RigAccount } from '../../support/rig.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import type { AuthMethod } from '../../../../src/core/types.ts';
import { addButton, blocked, idle, loginByEmail, otherDevice, removeButton, smsCodeEntry } from './helpers.ts';
import { focusIn, holdAnswer, mount, nextEvent, part, parts, resetPage, shadow, text, type, useRigAccount, waitFor, waitForState } from '../shared/helpers.ts';

/** Presses that button with the keyboard's focus on it, and answers yes. */
async function pressYes(el: WalletCredentials, button: HTMLButtonElement): Promise<void> {
  button.focus();
  button.click();
  await waitForState(el, 'confirming');
  part(el, 'confirm')!.querySelector<HTMLButtonElement>('button.danger')!.click();
}

/** Presses that button with the keyboard's focus on it, answers yes, and waits for the element to settle. */
async function pressAndConfirm(el: WalletCredentials, button: HTMLButtonElement): Promise<void> {
  await pressYes(el, button);
  await waitFor(() => !button.isConnected, 'the row gone');
  await idle(el);
}

/**
 * Presses that Remove (or End) with the keyboard's focus on it and answers yes; while the answer to
 * its DELETE of `path` is held, `meanwhile` (the keyboard moves); then lets the answer go and waits
 * for the row gone, the element settled and a frame drawn.
 */
async function removeHeldAtAnswer(el: WalletCredentials, button: HTMLButtonElement, path: RegExp, meanwhile: () => void): Promise<void> {
  const hold = holdAnswer('DELETE', path, (r) => r.status === 204);
  try {
    await pressYes(el, button);
    await hold.arrived;
    meanwhile();
    hold.release();
    await waitFor(() => !button.isConnected, 'the row gone');
    await idle(el);
  } finally {
    hold.undo();
  }
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
}

/** The rows of that part (`credential`, `session`): their ids in order, and the button of each by id. */
function rowsOf(el: WalletCredentials, name: string) {
  const ids = parts(el, name).map((r) => r.dataset['id']!);
  const button = (id: string) => shadow(el).querySelector<HTMLButtonElement>(`[part~='${name}'][data-id='${id}'] [part~='revoke-button']`)!;
  return { ids, button };
}

/** Presses the Remove of that row with the keyboard's focus on it, answers yes, and waits for the element to settle: the code of the `wallet-credentials-error` it told. */
async function removalRefused(el: WalletCredentials, type: string): Promise<string> {
  const failed = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-credentials-error');
  await pressYes(el, removeButton(el, type));
  const { code } = (await failed).detail;
  await idle(el);
  return code;
}

/** The account logged in by email, with an SMS login added: its panel, settled, and the SMS login. */
async function panelWithSms(acct: RigAccount): Promise<{ el: WalletCredentials; sms: AuthMethod }> {
  await loginByEmail(acct);
  const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
  const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
  await idle(el);
  return { el, sms };
}

describe('<wallet-credentials> keeps the keyboard in the panel', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  it('a removal refused as the last login (another device removed the other one): the focus goes to the heading, not to the page', async () => {
    const { el, sms } = await panelWithSms(acct);
    const elsewhere = await otherDevice(sms.id);
    await elsewhere.revokeCredential(acct.accountId, acct.emailCredentialId);
    expect(await removalRefused(el, 'SMS_OTP')).to.equal('last_credential');
    // The lists read back make that Remove unusable (the only login left; aria-disabled, described
    // by its hint, still focusable): the keyboard was on it.
    await waitFor(() => removeButton(el, 'SMS_OTP').matches("[aria-disabled='true'][aria-describedby]"), 'the Remove of the only login unusable');
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    expect(text(el, 'error')).to.contain('only way to log in');
    await elsewhere.logout(acct.accountId);
  });

  it('a removal refused because another device ended this session: the focus goes to the heading, not to the page', async () => {
    const { el } = await panelWithSms(acct);
    const elsewhere = await otherDevice(acct.emailCredentialId);
    await elsewhere.revokeSession(acct.accountId, (await walletFor().current(acct.accountId))!.sessionId);
    expect(await removalRefused(el, 'SMS_OTP')).to.equal('session_expired');
    await waitFor(() => !el.matches(':state(signed-in)') && removeButton(el, 'SMS_OTP').disabled, 'the logged-out lists');
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    expect(text(el, 'error')).to.equal('Your session has ended. Log in again to continue.');
    await elsewhere.logout(acct.accountId);
  });

  it('a row whose Remove has the focus, removed by another element of the page: the focus goes to the Remove of the row taking its place, not to the page', async () => {
    const { el, sms } = await panelWithSms(acct);
    removeButton(el, 'SMS_OTP').focus();
    expect(shadow(el).activeElement).to.equal(removeButton(el, 'SMS_OTP'));
    // The page's wallet tells its elements (and other tabs) of the change: this one reads its lists again.
    await walletFor().revokeCredential(acct.accountId, sms.id);
    await waitFor(() => parts(el, 'credential').length === 1, 'the SMS row gone');
    await idle(el);
    // As after a removal here: the previous row's Remove (which now says why it cannot be used).
    expect(shadow(el).activeElement === removeButton(el, 'EMAIL_OTP'), `focus on the previous row's Remove, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    expect(blocked(removeButton(el, 'EMAIL_OTP'))).to.equal(true);
    expect((await clientFor().listCredentials(acct.accountId)).map((c) => c.type)).to.deep.equal(['EMAIL_OTP']);
  });
});

describe('<wallet-credentials> after a removal, the keyboard goes to the row taking its place', function () {
  this.timeout(60000);
  let acct: RigAccount, store: KeyStore;
  beforeEach(async () => ({ acct, store } = await useRigAccount()));
  afterEach(resetPage);

  it('sessions: an end of a session puts the focus on the next row\'s button, else the previous one\'s, and the heading once the list is empty', async () => {
    // Three sessions: two of other devices (their keys are dropped) and this device's.
    const others: string[] = [];
    for (let n = 0; n < 2; n++) {
      const id = await loginByEmail(acct);
      await store.delete(id);
      others.push(id);
      await advanceClock(31_000);
    }
    const mine = await loginByEmail(acct);
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    let { ids, button } = rowsOf(el, 'session');
    expect(ids.slice().sort()).to.deep.equal([...others, mine].sort());
    // A row of another device that has a row after it.
    let i = ids.findIndex((id, n) => id !== mine && n < ids.length - 1);
    await pressAndConfirm(el, button(ids[i]!));
    ({ button } = rowsOf(el, 'session'));
    expect(shadow(el).activeElement === button(ids[i + 1]!), `focus on the next row's button, not ${focusIn(el)}`).to.equal(true);
    // The other device's row left: before or after this device's.
    ids = rowsOf(el, 'session').ids;
    i = ids.findIndex((id) => id !== mine);
    await pressAndConfirm(el, button(ids[i]!));
    ({ button } = rowsOf(el, 'session'));
    expect(shadow(el).activeElement === button(mine), `focus on "Log out here", not ${focusIn(el)}`).to.equal(true);
    // The last one (a logout): the list is empty, the heading takes the focus.
    await pressAndConfirm(el, button(mine));
    expect(parts(el, 'session')).to.have.length(0);
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)}`).to.equal(true);
  });

  it('credentials: a removal of the last row puts the focus on the previous row\'s Remove (which now says why it cannot be used)', async () => {
    const { el } = await panelWithSms(acct);
    const { ids, button } = rowsOf(el, 'credential');
    expect(ids).to.have.length(2);
    await pressAndConfirm(el, button(ids[1]!));
    expect(shadow(el).activeElement === button(ids[0]!), `focus on the previous row's Remove, not ${focusIn(el)}`).to.equal(true);
    expect(blocked(button(ids[0]!))).to.equal(true);
  });

  it('credentials: a removal of the first row puts the focus on the next row\'s Remove', async () => {
    await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    // Logged in with both on this device: either can be removed, signed by the other.
    await advanceClock(31_000);
    await (await walletFor().startOtpLogin({ credentialId: sms.id, registered: sms })).submit('000000');
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(el);
    const { ids, button } = rowsOf(el, 'credential');
    expect(ids).to.have.length(2);
    await pressAndConfirm(el, button(ids[0]!));
    expect(shadow(el).activeElement === button(ids[1]!), `focus on the next row's Remove, not ${focusIn(el)}`).to.equal(true);
  });

  it('the keyboard moved out of the element while the removal ran: the focus is left where the user put it', async () => {
    const { el } = await panelWithSms(acct);
    const outside = document.createElement('button-x');
    outside.tabIndex = 0;
    document.body.append(outside);
    const { ids, button } = rowsOf(el, 'credential');
    await removeHeldAtAnswer(el, button(ids[1]!), /\/auth\/credentials\//, () => outside.focus());
    expect(document.activeElement === outside, `focus left outside, not on ${document.activeElement?.tagName} (${focusIn(el)})`).to.equal(true);
  });
  for (const moved of ['outside', 'body'] as const) {
    it(`a session ended while an activation code is awaited, the keyboard ${moved === 'outside' ? 'moved out of the element meanwhile: the focus is left there' : 'let go meanwhile (on the body): the code field takes it'}`, async () => {
      // A session of another device (its key is not here), and this device's.
      const other = await loginByEmail(acct);
      await advanceClock(31_000);
      await loginByEmail(acct);
      await store.delete(other);
      const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
      await idle(el);
      addButton(el, 'SMS_OTP').click();
      await waitForState(el, 'code-entry');
      await idle(el);
      const outside = document.createElement('button');
      outside.textContent = 'Elsewhere';
      document.body.append(outside);
      const end = shadow(el).querySelector<HTMLButtonElement>(`[part~='session'][data-id='${other}'] button`)!;
      await removeHeldAtAnswer(el, end, /\/auth\/sessions\//, () => (moved === 'outside' ? outside.focus() : (document.activeElement as HTMLElement).blur()));
      expect(el.matches(':state(code-entry)')).to.equal(true);
      if (moved === 'outside') expect(document.activeElement === outside, `focus left outside, not on ${document.activeElement?.tagName} (${focusIn(el)})`).to.equal(true);
      else expect(shadow(el).activeElement === part(el, 'code-input'), `focus in the code field, not ${focusIn(el)}`).to.equal(true);
    });
  }
});

describe('<wallet-credentials> after a change done, the heading takes the keyboard only if it is still the panel\'s', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  for (const moved of [true, false]) {
    it(`an email change saved, the keyboard ${moved ? 'moved out of the element meanwhile: the focus is left there' : 'still in the field: the heading takes it'}`, async () => {
      await loginByEmail(acct);
      const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
      await idle(el);
      const outside = document.createElement('button');
      outside.textContent = 'Elsewhere';
      document.body.append(outside);
      const input = part(el, 'input') as HTMLInputElement;
      input.focus();
      type(input, `new-${crypto.randomUUID()}@example.com`);
      const hold = holdAnswer('PATCH', /\/customers\//, (r) => r.ok);
      try {
        (part(el, 'email-form') as HTMLFormElement).requestSubmit();
        await hold.arrived;
        if (moved) outside.focus();
        hold.release();
        await waitFor(() => text(el, 'status').includes('Email address saved'), 'the saved notice');
        await idle(el);
      } finally {
        hold.undo();
      }
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
      if (moved) expect(document.activeElement === outside, `focus left outside, not on ${document.activeElement?.tagName} (${focusIn(el)})`).to.equal(true);
      else expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    });
  }
});

describe('<wallet-credentials> after an activation code accepted, the keyboard moves only from the element, from nowhere or from where the code was sent', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  /** Sends the code 000000 from the focused Confirm, does `meanwhile` while the service's answer is held, and waits for the login activated. */
  async function verify(el: WalletCredentials, meanwhile: () => void): Promise<void> {
    type(part(el, 'code-input') as HTMLInputElement, '000000');
    const held = holdAnswer('POST', /\/verify$/);
    (part(el, 'submit') as HTMLButtonElement).focus();
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    await held.arrived;
    meanwhile();
    held.release();
    await waitFor(() => !el.matches(':state(code-entry)') && parts(el, 'credential').length === 2, 'the SMS login activated');
    await idle(el);
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
  }

  it('the focus left on Confirm (in the element): the heading takes it', async () => {
    const el = await smsCodeEntry(acct);
    await verify(el, () => undefined);
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
  });

  it('the focus put on nothing meanwhile: the heading takes it', async () => {
    const el = await smsCodeEntry(acct);
    await verify(el, () => (document.activeElement as HTMLElement).blur());
    expect(shadow(el).activeElement === part(el, 'heading'), `focus on the heading, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
  });

  it('the focus put on a field of the page meanwhile: it stays there', async () => {
    const el = await smsCodeEntry(acct);
    const field = document.createElement('input');
    document.body.append(field);
    await verify(el, () => field.focus());
    expect(document.activeElement === field, `focus on the page's field, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    expect(text(el, 'status')).to.contain('ready to use');
  });
});

describe('<wallet-credentials> a row removed from elsewhere (another element of the page) moves the keyboard only from inside this element', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  /** Two elements of the same account, each listing the email login and a text message login. */
  async function twoElements(): Promise<[WalletCredentials, WalletCredentials, string]> {
    await loginByEmail(acct);
    const sms = await walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
    const a = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    const b = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await idle(a);
    await idle(b);
    return [a, b, sms.id];
  }

  it('removed with the other element, the keyboard there: this one leaves it there', async () => {
    const [a, b] = await twoElements();
    await pressAndConfirm(a, removeButton(a, 'SMS_OTP'));
    await waitFor(() => parts(b, 'credential').length === 1, 'the SMS row gone from the other element');
    await idle(b);
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    expect(document.activeElement === a && shadow(a).activeElement === removeButton(a, 'EMAIL_OTP'), `focus on the removing element's Remove, not ${document.activeElement?.tagName} (${focusIn(a)} / ${focusIn(b)})`).to.equal(true);
  });

  for (const where of ['body', 'a field of the page'] as const) {
    it(`removed by the page's wallet, the keyboard on ${where}: it stays there`, async () => {
      const [, b, sms] = await twoElements();
      const field = document.createElement('input');
      document.body.append(field);
      if (where === 'body') (document.activeElement as HTMLElement | null)?.blur();
      else field.focus();
      const before = document.activeElement;
      await walletFor().revokeCredential(acct.accountId, sms);
      await waitFor(() => parts(b, 'credential').length === 1, 'the SMS row gone');
      await idle(b);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
      expect(document.activeElement === before, `focus left on ${before?.tagName}, not on ${document.activeElement?.tagName} (${focusIn(b)})`).to.equal(true);
    });
  }

  it('removed by the page\'s wallet, the keyboard on that row\'s Remove: the Remove of the row taking its place takes it', async () => {
    const [, b, sms] = await twoElements();
    removeButton(b, 'SMS_OTP').focus();
    await walletFor().revokeCredential(acct.accountId, sms);
    await waitFor(() => parts(b, 'credential').length === 1, 'the SMS row gone');
    await idle(b);
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    expect(shadow(b).activeElement === removeButton(b, 'EMAIL_OTP'), `focus on the previous row's Remove, not ${focusIn(b)} (${document.activeElement?.tagName})`).to.equal(true);
  });
});

describe('<wallet-credentials> a row removed in another tab moves the keyboard only from inside this element', function () {
  this.timeout(60000);
  let acct: RigAccount, dbName: string;
  beforeEach(async () => ({ acct, dbName } = await useRigAccount()));
  afterEach(resetPage);

  /** Another tab of this browser with its wallet on this test's key store, for `run` (closed after). */
  async function inOtherTab(run: (tab: OtherTab) => Promise<void>): Promise<void> {
    const tab = await openOtherTab();
    try {
      tab.configureWallet({ apiBase: (await fixtures()).apiBase, environment: 'sandbox', store: tab.core.indexedDbKeyStore({ dbName }) });
      await run(tab);
    } finally {
      tab.close();
    }
  }

  it('removed with that tab\'s element, the keyboard there: this tab\'s focus does not come back to this element', async () => {
    const { el } = await panelWithSms(acct);
    await inOtherTab(async (tab) => {
      const there = tab.window.document.createElement('wallet-credentials') as WalletCredentials;
      there.setAttribute('account-id', acct.accountId);
      tab.window.document.body.append(there);
      await waitFor(() => there.matches(':state(ready)') && !there.matches(':state(busy)'), 'the other tab\'s lists');
      await pressAndConfirm(there, removeButton(there, 'SMS_OTP'));
      await waitFor(() => parts(el, 'credential').length === 1, 'the SMS row gone here', 10000);
      await idle(el);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
      expect(document.activeElement?.tagName === 'IFRAME' && shadow(el).activeElement === null, `focus in the other tab, not ${document.activeElement?.tagName} (${focusIn(el)})`).to.equal(true);
    });
  });

  it('removed by that tab, the keyboard here on that row\'s Remove: the Remove of the row taking its place takes it', async () => {
    const { el, sms } = await panelWithSms(acct);
    await inOtherTab(async (tab) => {
      removeButton(el, 'SMS_OTP').focus();
      await tab.walletFor().revokeCredential(acct.accountId, sms.id);
      await waitFor(() => parts(el, 'credential').length === 1, 'the SMS row gone here', 10000);
      await idle(el);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
      expect(shadow(el).activeElement === removeButton(el, 'EMAIL_OTP'), `focus on the previous row's Remove, not ${focusIn(el)} (${document.activeElement?.tagName})`).to.equal(true);
    });
  });
});
