/**
 * <wallet-login> taken off the page while its first code is being sent, in Chromium against the real
 * sandbox through the real proxy: the service sends the code all the same (its answer is held on
 * the way back), and the element put back on the page offers that code's screen, where it logs in.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { advanceClock, newAccount, sandboxVariant } from '../../support/rig.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { holdAnswer, inState, mount, resetPage, text, useRig, waitFor, waitForState } from '../shared/helpers.ts';
import { accountWithBothCodes, buttonNamed, challenges, codeScreen, errorCodes, methodButton, typeSandboxCode } from './helpers.ts';

/**
 * Presses (`press`) while the answer `held` holds is on its way back; once it has arrived (then
 * `arrived`), takes `el` off the page (it stops once it is still off the page after the task that
 * took it off), runs `whileOff` and lets the answer go on.
 */
async function offAsAnswered(el: WalletLogin, held: ReturnType<typeof holdAnswer>, press: () => void, { arrived, whileOff }: { arrived?: () => void; whileOff?: () => unknown } = {}): Promise<void> {
  try {
    press();
    await held.arrived;
    arrived?.();
    el.remove();
    await new Promise((r) => setTimeout(r, 50));
    await whileOff?.();
    held.release();
    await held.read.catch(() => undefined);
  } finally {
    held.undo();
  }
}

/** Until `el` shows the methods or a code screen, and is not busy. */
const aScreen = (el: WalletLogin) => waitFor(() => (inState(el, 'choosing') || inState(el, 'code-entry')) && !inState(el, 'busy'), 'a screen');

/** A screen, and if it is the methods, email chosen (within the service's wait of the code sent, it may only bring that code back). */
async function codeScreenOrEmail(el: WalletLogin): Promise<void> {
  await aScreen(el);
  if (inState(el, 'choosing')) {
    methodButton(el, 'email-otp').click();
    await el.updateComplete;
    await aScreen(el);
  }
}

/** Until the tab keeps a code of `accountId` (what a reload finds). */
const codeKept = (accountId: string) => waitFor(() => Object.keys(sessionStorage).some((k) => k.startsWith('wallet-elements:code:') && k.endsWith(accountId)), 'the code kept');

/** `el` on its code screen (else a failure naming what it shows), where the sandbox's code logs in with `credentialType`, none of `errors` told. */
async function logsInOnCodeScreen(el: WalletLogin, errors: string[], credentialType = 'EMAIL_OTP'): Promise<void> {
  expect(inState(el, 'code-entry'), `the code screen, not: ${text(el, 'heading')} ${text(el, 'error')}`).to.equal(true);
  expect((await typeSandboxCode(el)).detail.credentialType).to.equal(credentialType);
  expect(errors).to.deep.equal([]);
}

describe('<wallet-login> taken off the page while its first code is sent', function () {
  this.timeout(60000);
  beforeEach(useRig);
  afterEach(resetPage);

  for (const how of ['on the page', 'as the element was taken off the page', 'as the element was taken off the page, and shown by a new one (a reload)'] as const) {
    it(`a session that ended: the code to log in again, sent ${how}, comes with the words to log in again, which "Use another way" shows`, async () => {
      const off = how !== 'on the page';
      // Sessions of 4 s, which core takes for ended at once (5 s early): the start-up check finds the session ended.
      const v = await sandboxVariant({ sessionLifetimeMs: 4000, otpResendIntervalMs: 1 });
      await (await walletFor(v.apiBase).startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
      let el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase });
      await waitForState(el, 'reauth');
      const again = 'Your session has ended. Log in again with your Email code.';
      expect(text(el, 'intro')).to.equal(again);
      const held = holdAnswer('POST', /\/challenge$/, (r) => r.status === 200);
      try {
        methodButton(el, 'email-otp').click();
        await held.arrived;
        if (off) el.remove();
        await new Promise((r) => setTimeout(r, 50));
        held.release();
        await held.read.catch(() => undefined);
      } finally {
        held.undo();
      }
      // A reload comes once the code is kept (one before would find none: the page's request would go with it).
      if (how.includes('new one')) await codeKept(v.accountId);
      if (how.includes('new one')) el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase });
      else if (off) document.body.append(el);
      await waitFor(() => inState(el, 'code-entry') && !inState(el, 'busy'), 'the code screen');
      buttonNamed(el, /^Use another way$/).click();
      await el.updateComplete;
      expect(inState(el, 'reauth'), `the methods to log in again, not: ${text(el, 'intro')}`).to.equal(true);
      expect(text(el, 'intro')).to.equal(again);
      methodButton(el, 'email-otp').click();
      await waitFor(() => inState(el, 'code-entry') && !inState(el, 'busy'), 'the code screen again');
      expect((await typeSandboxCode(el)).detail.credentialType).to.equal('EMAIL_OTP');
      await walletFor(v.apiBase).logout(v.accountId);
    });
  }

  for (const back of ['after', 'before'] as const) {
    it(`put back ${back} the service’s answer arrives: the code screen of the code sent, which logs in`, async () => {
      const acct = await newAccount();
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      await waitForState(el, 'choosing');
      // The service sends the code; its answer is on its way back when the element leaves the page.
      const held = holdAnswer('POST', /\/challenge$/, (r) => r.status === 200);
      await offAsAnswered(el, held, () => methodButton(el, 'email-otp').click(), {
        arrived: () => expect(inState(el, 'sending-code')).to.equal(true),
        whileOff: () => back === 'before' && document.body.append(el),
      });
      if (back === 'after') document.body.append(el);
      const sent = challenges();
      const errors = errorCodes(el);
      await aScreen(el);
      expect(challenges(), 'no second code asked for').to.equal(sent);
      await logsInOnCodeScreen(el, errors);
    });
  }

  // Taken off while the way's credential is looked up (the code not yet asked for), or with the
  // service's answer (the code sent) on its way back; a code by email or by text message.
  for (const [method, at] of [['sms-otp', /\/challenge$/], ['email-otp', /\/auth\/credentials\?/], ['sms-otp', /\/auth\/credentials\?/]] as const) {
    for (const back of ['after', 'before'] as const) {
      it(`${method}, taken off as ${at.source.includes('challenge') ? 'the code went' : 'its credential was looked up'}, put back ${back} that answer arrives: the code screen of the code sent, which logs in`, async () => {
        const acct = await accountWithBothCodes();
          const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp sms-otp' });
        await waitForState(el, 'choosing');
        const before = challenges();
        const held = holdAnswer(at.source.includes('challenge') ? 'POST' : 'GET', at, (r) => r.status === 200);
        await offAsAnswered(el, held, () => methodButton(el, method).click(), {
          arrived: () => expect(inState(el, 'sending-code')).to.equal(true),
          whileOff: () => back === 'before' && document.body.append(el),
        });
        // Off the page, the code is asked for all the same.
        await waitFor(() => challenges() > before, 'the code asked for');
        if (back === 'after') {
          await new Promise((r) => setTimeout(r, 300));
          document.body.append(el);
        }
        const errors = errorCodes(el);
        await aScreen(el);
        expect(challenges(), 'one code asked for').to.equal(before + 1);
        await logsInOnCodeScreen(el, errors, method === 'sms-otp' ? 'SMS_OTP' : 'EMAIL_OTP');
      });
    }
  }

  for (const back of ['after', 'before'] as const) {
    it(`taken off as its code went, and a new element of the wallet put on the page ${back} the answer arrives: that code’s screen comes, at once or when its way is chosen, with no error, and it logs in`, async () => {
      const acct = await newAccount();
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      await waitForState(el, 'choosing');
      const held = holdAnswer('POST', /\/challenge$/, (r) => r.status === 200);
      let again: WalletLogin | undefined;
      await offAsAnswered(el, held, () => methodButton(el, 'email-otp').click(), {
        whileOff: async () => back === 'before' && (again = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId })),
      });
      await new Promise((r) => setTimeout(r, 300));
      again ??= await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      const errors = errorCodes(again);
      await codeScreenOrEmail(again);
      await logsInOnCodeScreen(again, errors);
    });
  }

  it('taken off as its code went, and a new element of the wallet showing its methods before the code is kept: choosing that way shows that code’s screen, with no error, and it logs in', async () => {
    const acct = await newAccount();
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    const held = holdAnswer('POST', /\/challenge$/, (r) => r.status === 200);
    let again!: WalletLogin;
    await offAsAnswered(el, held, () => methodButton(el, 'email-otp').click(), {
      whileOff: async () => {
        again = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
        await waitForState(again, 'choosing');
      },
    });
    await codeKept(acct.accountId);
    const errors = errorCodes(again);
    methodButton(again, 'email-otp').click();
    await again.updateComplete;
    await aScreen(again);
    await logsInOnCodeScreen(again, errors);
  });

  it('taken off the page while a new code is sent, which replaced the first upstream: put back, the screen of the new code, which logs in', async () => {
    const acct = await newAccount();
    const el = await codeScreen({ 'account-id': acct.accountId, 'resend-after': '0' });
    const first = Date.now();
    await advanceClock(31_000); // the sandbox sends one code per 30 s
    const held = holdAnswer('POST', /\/challenge$/, (r) => r.status === 200);
    await offAsAnswered(el, held, () => buttonNamed(el, /new code/).click());
    // Put back once the tab keeps the new code (as a reload would find it).
    const kept = () => Object.entries(sessionStorage).some(([k, v]) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId) && (JSON.parse(v) as { sentAt: number }).sentAt > first);
    await waitFor(kept, 'the new code kept');
    document.body.append(el);
    const errors = errorCodes(el);
    await codeScreenOrEmail(el);
    await logsInOnCodeScreen(el, errors);
  });
});
