/**
 * What `<passkey-register>` does beyond showing its form, loaded with import() once the form is
 * painted: registration and activation through core/session.ts (`registerPasskey`, then
 * `loginWithPasskey`: api.md "Adding a credential", step 4), each turned into the machine event it
 * leads to, failures included; and the sessions that begin or end elsewhere (a login makes a "log
 * in first" screen usable again, a logout or a session's end takes the form away). The element
 * never sees the attestation, the challenge or a key.
 */
import { WalletError } from '../../core/errors.ts';
import { beginCeremony } from '../shared/ceremony.ts';
import { classifyError, isCancellation } from '../shared/failures.ts';
import { onSessionChange, walletFor } from '../shared/wallet.ts';
import type { RegisterEvent } from './passkey-register.machine.ts';
import type { PasskeyRegister } from './passkey-register.ts';

export type Step = { kind: 'register'; nickname: string } | { kind: 'activate'; credentialId: string };

/**
 * Runs a step; never throws: a failure is the FAILED (or CANCELLED, LOGIN_REQUIRED) event.
 * `send` is told while the registration waits for another tab's (WAITING, see core's registerPasskey),
 * and, after a Cancel, when the passkey saved meanwhile could not be removed again (KEPT).
 */
export async function runStep(element: PasskeyRegister, step: Step, signal: AbortSignal, send: (event: RegisterEvent) => void): Promise<RegisterEvent> {
  const wallet = walletFor(element.apiBase);
  // One ceremony at a time on the page (shared/ceremony.ts).
  const ceremony = beginCeremony(signal);
  let ended = false;
  try {
    if (step.kind === 'activate') {
      return { type: 'ACTIVATED', sessionId: (await wallet.loginWithPasskey({ credentialId: step.credentialId, signal: ceremony.signal })).sessionId };
    }
    const { nickname } = step;
    const { accountId } = element;
    // A session here as the step begins, refused at its end, ended meanwhile (expired, logged out).
    ended = await wallet.current(accountId).then(Boolean, () => false);
    // `onWait`: another registration of this wallet (another tab's, or this page's) runs first, then this one's turn comes.
    // `onKept`: cancelled, the passkey saved all the same may still be on the wallet (unless the element shows another one now).
    const method = await wallet.registerPasskey({
      accountId,
      nickname,
      signal: ceremony.signal,
      onWait: (waiting) => ceremony.signal.aborted || send({ type: 'WAITING', waiting }),
      onKept: () => element.accountId === accountId && send({ type: 'KEPT' }),
    });
    // Stopped as a wallet's first passkey was saved: kept (core), and no login with it follows.
    return { type: 'SAVED', passkey: { credentialId: method.id, nickname: method.nickname || nickname }, kept: ceremony.signal.aborted };
  } catch (e) {
    // A wallet with a login and no session here: core says so before any prompt opens.
    if (step.kind === 'register' && e instanceof WalletError && (e.code === 'session_expired' || e.code === 'key_missing')) return { type: 'LOGIN_REQUIRED', ended };
    // The browser's prompt was closed, timed out or could not verify the user (NotAllowedError
    // tells these apart no further): nothing was created, and the user is told so. Cancel and a
    // newer ceremony (aborted, AbortError) stay quiet; so does the activation, whose screen says it.
    if (step.kind === 'register' && (e as { cause?: { name?: unknown } } | undefined)?.cause?.name === 'NotAllowedError') {
      return { type: 'FAILED', failure: { code: 'cancelled' } };
    }
    // A plain 401 refuses the passkey's login; the save's is the signed request's (as WALLET_SIGNATURE_*).
    // A 400 on the save (INVALID_INPUT: reference.md's field validation) refuses what the browser
    // made, its attestation or challenge (the nickname's limits are checked here first): a new try
    // makes a new passkey.
    return isCancellation(e) ? { type: 'CANCELLED' } : { type: 'FAILED', failure: classifyError(e, step.kind === 'activate' ? { unauthorized: 'passkey_rejected' } : { badRequest: 'passkey_rejected' }) };
  } finally {
    ceremony.end();
  }
}

/**
 * First, `onChange(live, true)`: whether the element's account has a session here now (begun or
 * ended while the element was off the page, or another account's since). Then, with `connection`
 * (its `unwatch` set here, once), `onChange(true)` when a session of the account begins or is renewed, in
 * this tab or another, and `onChange(false)` when the account has no session here any more: logged
 * out (here, in another tab), or its session ended (its time, a revocation: core's `ended`). A list
 * changed is neither.
 */
export function watchSessions(element: PasskeyRegister, onChange: (live: boolean, now?: true) => void, connection?: { unwatch?: () => void }): void {
  void walletFor(element.apiBase).current(element.accountId).then((s) => onChange(!!s, true), () => undefined);
  if (connection)
    connection.unwatch ??= onSessionChange(element.apiBase, ({ type, accountId }) => {
      if (accountId === element.accountId && type !== 'changed') onChange(type === 'logged-in' || type === 'refreshed');
    });
}
