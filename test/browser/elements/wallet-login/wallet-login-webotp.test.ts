/**
 * <wallet-login>'s text message autofill (WICG WebOTP: `navigator.credentials.get({otp})`) in
 * Chromium against the real sandbox: headless Chromium delivers no text message, so the page's
 * requests for one are observed (the browser's own call runs, its options and signal recorded): one
 * waits while the code screen is shown for a try, none once the screen is left.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { RigAccount } from '../../support/rig.ts';
import { mount, nextEvent, resetPage, type, useRig, waitFor, waitForState } from '../shared/helpers.ts';
import { accountWithBothCodes, buttonNamed, codeInput, methodButton, typeSandboxCode } from './helpers.ts';

/** The page's WebOTP requests, each with its signal, the browser's own call running; `restore` puts the API back. */
function watchWebOtp() {
  const { credentials } = navigator;
  const get = credentials.get;
  const signals: AbortSignal[] = [];
  credentials.get = function (this: CredentialsContainer, options?: CredentialRequestOptions) {
    if (options && 'otp' in options) signals.push(options.signal!);
    return get.call(this, options);
  };
  return {
    /** How many requests were made, and how many of them still wait. */
    counts: () => ({ made: signals.length, waiting: signals.filter((s) => !s.aborted).length }),
    restore: () => void (credentials.get = get),
  };
}

describe('<wallet-login> text message autofill (WebOTP)', function () {
  this.timeout(60000);
  let acct: RigAccount;
  let webOtp: ReturnType<typeof watchWebOtp> | undefined;

  beforeEach(async () => {
    await useRig();
    acct = await accountWithBothCodes();
  });
  afterEach(async function () {
    webOtp?.restore();
    await resetPage.call(this);
  });

  it('asks for the text message again after a wrong code, and stops asking once the code screen is left', async function () {
    // WebOTP is Chromium's alone (navigator.userAgentData too): elsewhere there is nothing to ask.
    if (!('userAgentData' in navigator)) this.skip();
    expect('OTPCredential' in globalThis, 'a browser with WebOTP').to.equal(true);
    webOtp = watchWebOtp();
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'sms-otp email-otp', 'resend-after': '20' });
    await waitForState(el, 'choosing');
    methodButton(el, 'sms-otp').click();
    await waitForState(el, 'code-entry');
    await waitFor(() => webOtp!.counts().made === 1, 'the text message asked for');
    expect(webOtp.counts()).to.deep.equal({ made: 1, waiting: 1 });

    // A wrong code: the code screen for another try, where the text message is asked for again.
    const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
    type(codeInput(el), '123456');
    expect((await error).detail.code).to.equal('wrong_code');
    await waitForState(el, 'code-entry');
    await waitFor(() => webOtp!.counts().waiting === 1, 'the text message asked for again', 3000).catch(() => undefined);
    expect(webOtp.counts(), 'one request waits on the code screen after the wrong code').to.deep.equal({ made: 2, waiting: 1 });

    // Left with "Use another way": nothing waits.
    buttonNamed(el, /another way/i).click();
    await waitForState(el, 'choosing');
    expect(webOtp.counts()).to.deep.equal({ made: 2, waiting: 0 });

    // Back to that way (its code comes back): asked for again, and stopped once logged in.
    methodButton(el, 'sms-otp').click();
    await waitForState(el, 'code-entry');
    await waitFor(() => webOtp!.counts().made === 3, 'the text message asked for on the code screen again');
    expect(webOtp.counts()).to.deep.equal({ made: 3, waiting: 1 });
    expect((await typeSandboxCode(el)).detail.credentialType).to.equal('SMS_OTP');
    expect(webOtp.counts()).to.deep.equal({ made: 3, waiting: 0 });
  });
});
