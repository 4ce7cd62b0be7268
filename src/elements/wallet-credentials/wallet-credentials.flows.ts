/**
 * The calls `<wallet-credentials>` makes, through core (client.ts for lists and signed calls,
 * session.ts for the stamper and the activation login). Each returns what the machine needs.
 * The element loads them with import() once its first screen is painted, and with them the page's
 * client and session flows (shared/wallet.ts), which they pass on: one load for both.
 *
 * api.md "Adding a credential when another exists" (signed retry, then activation through the
 * credential's own verify flow), "Revoking a credential" (stamped by a session of a different
 * credential), reference.md "Sessions" (any active session may revoke one, its own included).
 */
import { ServiceError, WalletError } from '../../core/errors.ts';
import type { WalletClient } from '../../core/client.ts';
import type { KeyStore } from '../../core/keystore.ts';
import type { OtpLogin, Wallet } from '../../core/session.ts';
import type { AuthMethodResponse } from '../../core/types.ts';
import { base64urlDecode, bytesToHex, randomBytes, utf8Decode } from '../../core/encoding.ts';
import { classifyError, type Failure, type FailureContext } from '../shared/failures.ts';
import type { CredentialsView, CurrentSession } from './wallet-credentials.machine.ts';

export { clientFor, keyStore, onSessionChange, readsAnew, walletFor } from '../shared/wallet.ts';

export interface Services {
  accountId: string;
  customerId: string;
  client: WalletClient;
  wallet: Wallet;
  /** The key store the wallet keeps its sessions in (read only here: core deletes from it). */
  store: KeyStore;
  signal: AbortSignal;
}

export async function loadView(s: Services): Promise<CredentialsView> {
  /** This device's live session (of another credential than `except`); one whose key is gone from this browser is none. */
  const held = (except?: string) =>
    s.wallet.current(s.accountId, except).catch((e: unknown) => {
      if (e instanceof WalletError && e.code === 'key_missing') return undefined;
      throw e;
    });
  const [credentials, sessions, [stored, other], records] = await Promise.all([
    s.client.listCredentials(s.accountId, { signal: s.signal }),
    s.client.listSessions(s.accountId, { signal: s.signal }),
    // And one of another credential, which can sign the removal of the first one's credential.
    held().then(async (first) => [first, first && (await held(first.credentialId))] as const),
    // Every session this device holds, of any account: two logins with one credential make two.
    s.store.list(),
  ]);
  // Only a session the service still lists counts as this device's (and the other ones only beside
  // the one core signs with).
  const listed = (x?: CurrentSession) => x && sessions.some((l) => l.id === x.sessionId);
  const current = listed(stored) ? stored! : null;
  return {
    credentials,
    sessions,
    current,
    ...(current && listed(other) && { other: other! }),
    held: current ? records.filter((r) => r.accountId === s.accountId && listed(r)) : [],
  };
}

/**
 * POST /auth/credentials with the signed retry; OAUTH takes a fresh token from the page's provider,
 * and another should the signed retry start over (minutes later: the service takes a token at most
 * 60 s old, api.md "Limits"). No answer (the connection dropped, none in time) or a 5xx: the service
 * may have saved it all the same, and a repeat would then be refused (one SMS_OTP per account); so a
 * credential of that type its list, read again, holds beside the `known` ones is the one added (a
 * single sign-on, of the token's email).
 */
export async function addCredential(s: Services, type: 'SMS_OTP' | 'OAUTH', provider: ((nonce: string, options: { signal: AbortSignal }) => Promise<string>) | undefined, known: string[]): Promise<AuthMethodResponse> {
  let token = '';
  const recover = async (e: unknown) => {
    const lost = e instanceof WalletError ? e.code === 'network' : e instanceof ServiceError && e.status >= 500;
    // A single sign-on's nickname is its token's email claim (reference.md): another identity added
    // meanwhile elsewhere is not this one.
    let email: unknown;
    try {
      email = type === 'OAUTH' && JSON.parse(utf8Decode(base64urlDecode(token.split('.')[1]!))).email;
    } catch {}
    const found = lost && (await s.client.listCredentials(s.accountId, { signal: s.signal }).catch(() => [])).find((c) => c.type === type && !known.includes(c.id) && (type !== 'OAUTH' || c.nickname === email));
    if (!found) throw e;
    return found;
  };
  // Through the wallet, which tells one found this way to the other elements and tabs as it does one answered.
  if (type !== 'OAUTH') return s.wallet.addCredential({ type, accountId: s.accountId }, { signal: s.signal, recover });
  if (typeof provider !== 'function') throw new WalletError('invalid_argument', 'No oidcTokenProvider was given.');
  // Registration binds no key, so the nonce only keeps the token single-purpose.
  const body = async () => ({ type, accountId: s.accountId, oidcToken: (token = await provider(bytesToHex(randomBytes(32)), { signal: s.signal })) });
  return s.wallet.addCredential(await body(), { signal: s.signal, restartBody: body, recover });
}

/**
 * Activation, first half: the new credential's login starts with the code its registration sent
 * (the registration answer's target bundle), or, without one, with a code sent now.
 */
export function sendActivationCode(s: Services, registered: AuthMethodResponse): Promise<OtpLogin> {
  return s.wallet.startOtpLogin({ credentialId: registered.id, registered, signal: s.signal });
}

/** The service refused a removal because the credential is the wallet's last one. */
export class LastCredentialError extends Error {}

export async function revokeCredential(s: Services, credentialId: string): Promise<void> {
  try {
    await s.wallet.revokeCredential(s.accountId, credentialId, { signal: s.signal });
  } catch (e) {
    // api.md answers 400 for the last credential without naming a code (the sandbox's is
    // INVALID_INPUT, as for a malformed id): the service's list says whether it was the last one.
    if (e instanceof ServiceError && e.status === 400) {
      const left = await s.client.listCredentials(s.accountId, { signal: s.signal }).catch(() => undefined);
      if (left?.every((c) => c.id === credentialId)) throw new LastCredentialError(e.message);
    }
    throw e;
  }
}

/**
 * Ending this device's own session is a logout, which ends every session this device holds for the
 * wallet; another's key, if this device holds it, goes too. Resolves with the ids of those ended.
 */
export function revokeSession(s: Services, sessionId: string, own: boolean): Promise<string[]> {
  return own ? s.wallet.logout(s.accountId, { signal: s.signal }) : s.wallet.revokeSession(s.accountId, sessionId, { signal: s.signal });
}

/** Through the wallet, which tells the change to this page's and other tabs' elements (the email login's address follows it). */
export async function updateEmail(s: Services, email: string): Promise<void> {
  await s.wallet.updateEmail(s.accountId, s.customerId, email, { signal: s.signal });
}

/**
 * What a failure means for an operation (`add-oauth` for adding single sign-on): no session is "log
 * in first", and one the service ended (another device ended it: core found it when the service
 * refused its signature, and deleted it here) is "your session has ended"; a removal refused for
 * another reason than the last credential is nothing the user can correct (there is no input to
 * check), so it is not called one.
 */
export function failureOf(e: unknown, op: string): Failure {
  if (e instanceof WalletError && (e.code === 'session_expired' || e.code === 'key_missing')) return { code: e.cause instanceof ServiceError ? 'session_expired' : 'login_required' };
  // Adding single sign-on, an error neither the service's nor the wallet's is the page's provider's
  // (a blocked sign-in window, the provider's refusal), unless the user gave up there (AbortError).
  // (The name read here, not with shared/list.ts isAbort: that module, loaded up front, would be
  // split from Lit into a file of its own, one more for every element of the CDN build.)
  if (op === 'add-oauth' && (e instanceof WalletError ? e.code === 'invalid_argument' : !(e instanceof ServiceError || (e as { name?: unknown } | null)?.name === 'AbortError'))) return { code: 'oauth_unavailable' };
  if (e instanceof LastCredentialError) return { code: 'last_credential', status: 400 };
  const context: FailureContext =
    op === 'revoke-credential' ? { badRequest: 'unexpected' } : op === 'verify-code' ? { unauthorized: 'wrong_code' } : op === 'add-oauth' ? { unauthorized: 'oauth_rejected' } : {};
  return classifyError(e, context);
}
