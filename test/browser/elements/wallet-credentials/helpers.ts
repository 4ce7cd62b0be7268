/**
 * What the `<wallet-credentials>` browser tests share: a login by the account's email code, the
 * element's buttons by row type and whether one cannot be used and says why, waiting for it to
 * settle, another device of the same wallet, and a walk through its main screens.
 */
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { createClient } from '../../../../src/core/client.ts';
import { indexedDbKeyStore } from '../../../../src/core/keystore.ts';
import { createWallet } from '../../../../src/core/session.ts';
import { advanceClock, fixtures, type RigAccount } from '../../support/rig.ts';
import { mount, part, parts, shadow, type, waitFor, waitForState } from '../shared/helpers.ts';

/** Logs this page's wallet in with the account's email code; resolves to the session id. */
export async function loginByEmail(acct: RigAccount): Promise<string> {
  return (await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000')).sessionId;
}

/** The Remove button of the credential row of that type. */
export function removeButton(el: WalletCredentials, type: string): HTMLButtonElement {
  return shadow(el).querySelector<HTMLButtonElement>(`[part~='credential'][data-type='${type}'] [part~='revoke-button']`)!;
}

/** The add button of that credential type. */
export function addButton(el: WalletCredentials, type: string): HTMLButtonElement {
  return shadow(el).querySelector<HTMLButtonElement>(`[part~='add-button'][data-type='${type}']`)!;
}

/** A button that cannot be used and says why: focusable, aria-disabled and described by its hint. */
export function blocked(button: HTMLButtonElement): boolean {
  return !button.disabled && button.getAttribute('aria-disabled') === 'true' && !!(button.getRootNode() as ShadowRoot).querySelector(`#${button.getAttribute('aria-describedby')}`)?.textContent;
}

/** Waits until the element is ready and not busy, and its last update is drawn. */
export async function idle(el: WalletCredentials): Promise<void> {
  await waitFor(() => el.matches(':state(ready)') && !el.matches(':state(busy)'), 'the element to settle');
  await el.updateComplete;
}

/** Another device of the wallet: its own key store, logged in with `credentialId`'s code (after this one's code wait). */
export async function otherDevice(credentialId: string) {
  const f = await fixtures();
  const wallet = createWallet({ client: createClient({ baseUrl: f.apiBase }), store: indexedDbKeyStore({ dbName: `wallet-elements-test-${crypto.randomUUID()}` }), otpSigner: f.signerPublicKey });
  await advanceClock(31_000);
  await (await wallet.startOtpLogin({ credentialId })).submit('000000');
  return wallet;
}

/** Logged in by email, the account's element with a text message login added, waiting for its activation code. */
export async function smsCodeEntry(acct: RigAccount): Promise<WalletCredentials> {
  await loginByEmail(acct);
  const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
  await idle(el);
  addButton(el, 'SMS_OTP').click();
  await waitForState(el, 'code-entry');
  await idle(el);
  return el;
}

/** The screens walkCredentials stops on. */
export type CredentialsScreen = 'code entry' | 'credentials and sessions' | 'removal question';

/**
 * Walks the element (logged in, with an oidcTokenProvider) through its main screens, settled on each
 * before `onScreen(name)` checks it: single sign-on added, then an SMS login added and waiting for its
 * code (`code entry`); that code accepted, three credentials listed (`credentials and sessions`);
 * the question before removing the single sign-on (`removal question`), left open.
 */
export async function walkCredentials(el: WalletCredentials, onScreen: (name: CredentialsScreen) => Promise<void>): Promise<void> {
  await idle(el);
  addButton(el, 'OAUTH').click();
  await waitFor(() => shadow(el).querySelector("[part~='credential'][data-type='OAUTH']"), 'the single sign-on row');
  await idle(el);
  addButton(el, 'SMS_OTP').click();
  await waitForState(el, 'code-entry');
  await idle(el);
  await onScreen('code entry');
  type(part(el, 'code-input') as HTMLInputElement, '000000');
  (part(el, 'code-form') as HTMLFormElement).requestSubmit();
  await waitFor(() => !el.matches(':state(code-entry)') && parts(el, 'credential').length === 3, 'the SMS login activated, three credentials');
  await idle(el);
  await onScreen('credentials and sessions');
  removeButton(el, 'OAUTH').click();
  await waitForState(el, 'confirming');
  await onScreen('removal question');
}
