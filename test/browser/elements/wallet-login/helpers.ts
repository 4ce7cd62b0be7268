/** Steps of the `<wallet-login>` test files: its method buttons, its code screen, a refused resend. */
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { inState, mount, part, parts, shadow, type, waitFor, waitForState } from '../shared/helpers.ts';

export function methodButton(el: WalletLogin, method: string): HTMLButtonElement {
  const b = shadow(el).querySelector<HTMLButtonElement>(`button[data-method='${method}']`);
  if (!b) throw new Error(`no ${method} button`);
  return b;
}

export function codeInput(el: WalletLogin): HTMLInputElement {
  return part(el, 'code-input') as HTMLInputElement;
}

/** A `<wallet-login>` with these attributes, on its code screen after `method` was chosen. */
export async function codeScreen(attributes: Record<string, string>, method = 'email-otp'): Promise<WalletLogin> {
  const el = await mount<WalletLogin>('wallet-login', attributes);
  await waitForState(el, 'choosing');
  methodButton(el, method).click();
  await waitForState(el, 'code-entry');
  return el;
}

/**
 * "Send a new code", which the service refuses (429: another tab's code is less than 30 s old),
 * then the code typed on the screen it leaves: the `wallet-login-error` codes told meanwhile.
 */
export async function resendRefusedThenType(el: WalletLogin): Promise<string[]> {
  const errors: string[] = [];
  el.addEventListener('wallet-login-error', (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));
  (parts(el, 'button').find((b) => /new code/.test(b.textContent ?? '')) as HTMLButtonElement).click();
  await el.updateComplete;
  await waitFor(() => !inState(el, 'sending-code'), 'the answer to "Send a new code"');
  await waitForState(el, 'code-entry');
  type(codeInput(el), '000000');
  await waitFor(() => inState(el, 'logged-in') || errors.length > 1, 'the outcome of the code');
  return errors;
}
