/** Steps of the `<wallet-login>` test files: its method buttons, its code screen, a refused resend. */
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { advanceClock, newAccount, type RigAccount } from '../../support/rig.ts';
import { inState, loginByEmail, mount, nextEvent, part, parts, shadow, type, waitFor, waitForState } from '../shared/helpers.ts';

export function methodButton(el: WalletLogin, method: string): HTMLButtonElement {
  const b = shadow(el).querySelector<HTMLButtonElement>(`button[data-method='${method}']`);
  if (!b) throw new Error(`no ${method} button`);
  return b;
}

/** The element's button whose text matches `label` ("Send a new code", "Use another way"). */
export function buttonNamed(el: WalletLogin, label: RegExp): HTMLButtonElement {
  return parts(el, 'button').find((b) => label.test(b.textContent ?? '')) as HTMLButtonElement;
}

/** Presses that method's button: the code of the `wallet-login-error` event the element then tells. */
export async function errorOfChoice(el: WalletLogin, method: string): Promise<string> {
  const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
  methodButton(el, method).click();
  return (await error).detail.code;
}

/** The codes of the `wallet-login-error` events the element tells from now on. */
export function errorCodes(el: WalletLogin): string[] {
  const errors: string[] = [];
  el.addEventListener('wallet-login-error', (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));
  return errors;
}

export function codeInput(el: WalletLogin): HTMLInputElement {
  return part(el, 'code-input') as HTMLInputElement;
}

/** How many codes the page (or the window `of`, a fresh page's) has asked for so far (its /challenge requests, Resource Timing). */
export const challenges = (of: Window = window): number => of.performance.getEntriesByType('resource').filter((e) => e.name.includes('/challenge')).length;

/** Types the sandbox's code (000000) on the code screen: resolves with the element's next `wallet-logged-in` event. */
export function typeSandboxCode(el: WalletLogin): Promise<CustomEvent<LoggedInDetail>> {
  const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(el, 'wallet-logged-in');
  type(codeInput(el), '000000');
  return loggedIn;
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
  const errors = errorCodes(el);
  buttonNamed(el, /new code/).click();
  await el.updateComplete;
  await waitFor(() => !inState(el, 'sending-code'), 'the answer to "Send a new code"');
  await waitForState(el, 'code-entry');
  type(codeInput(el), '000000');
  await waitFor(() => inState(el, 'logged-in') || errors.length > 1, 'the outcome of the code');
  return errors;
}

/** base64 (as the authenticator names its credentials) to base64url. */
export const base64url = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * The page's WebAuthn requests (conditional or modal, with the ids they allow) and its requests to
 * the proxy (method and path), of which `hold` keeps one from leaving until released.
 */
export function watchPage() {
  const { credentials } = navigator;
  const get = credentials.get;
  const fetch = window.fetch;
  const holds: Array<{ sent: string; nth: number; arrive: () => void; released: Promise<void>; release: () => void }> = [];
  const watch = {
    gets: [] as Array<{ mediation: string; allow: string[] }>,
    pending: 0,
    sent: [] as string[],
    /** Holds the `nth` request `sent` (as `sent` lists it). */
    hold(sent: string, nth: number): { arrived: Promise<void>; release: () => void } {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((r) => (arrive = r));
      const released = new Promise<void>((r) => (release = r));
      holds.push({ sent, nth, arrive, released, release });
      return { arrived, release };
    },
    restore: () => {
      for (const h of holds) h.release();
      credentials.get = get;
      window.fetch = fetch;
    },
  };
  credentials.get = function (this: CredentialsContainer, options?: CredentialRequestOptions) {
    const allow = (options?.publicKey?.allowCredentials ?? []).map((d) => base64url(btoa(String.fromCharCode(...new Uint8Array(d.id as ArrayBuffer)))));
    watch.gets.push({ mediation: options?.mediation ?? 'modal', allow });
    watch.pending++;
    const answer = get.call(this, options);
    answer.finally(() => watch.pending--).catch(() => undefined);
    return answer;
  };
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const sent = `${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input).replace(/^.*\/api/, '').replace(/\?.*/, '').replace(/\/auth\/credentials\/[^/]+\//, '/auth/credentials/{id}/')}`;
    watch.sent.push(sent);
    const held = holds.find((h) => h.sent === sent && h.nth === watch.sent.filter((s) => s === sent).length);
    if (held) {
      held.arrive();
      await held.released;
    }
    return fetch(input, init);
  };
  return watch;
}

/**
 * Gives `acct` a text message login besides its email code's (logged in by email for it, then out),
 * the sandbox's clock moved past its one code per 30 s, so that either way can send a code at once.
 */
export async function addTextMessageLogin(acct: RigAccount): Promise<RigAccount> {
  await loginByEmail(acct);
  const wallet = walletFor();
  await wallet.addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
  await wallet.logout(acct.accountId);
  await advanceClock(31_000);
  return acct;
}

/** A new rig account with both code logins, logged out, either able to send a code at once. */
export const accountWithBothCodes = async (): Promise<RigAccount> => addTextMessageLogin(await newAccount());
