/**
 * The steps `<wallet-login>` runs for its machine, each one core call (core/session.ts) turned into
 * the machine event it leads to. Kept out of the element file so that it stays about rendering.
 *
 * Follows api.md "Verify by credential type" through core; finds the credential of the chosen type
 * with GET /auth/credentials (reference.md). Deliberately holds nothing between calls except the
 * OtpLogin handle core returns (a verified target, no secret).
 */
import { WalletError, ServiceError } from '../../core/errors.ts';
import type { WalletClient } from '../../core/client.ts';
import type { KeyStore, StoredSession } from '../../core/keystore.ts';
import type { OtpLogin, Wallet } from '../../core/session.ts';
import type { AuthMethod, CredentialType } from '../../core/types.ts';
import { classifyError, type Failure, type FailureContext } from '../shared/failures.ts';
import type { LoginEvent, SessionInfo } from './wallet-login.machine.ts';

export interface FlowContext {
  accountId: string;
  wallet: Wallet;
  client: WalletClient;
  store: KeyStore;
  signal: AbortSignal;
}

/** The wallet has no credential of the asked type (the screen says "choose another way"). */
export class NoCredentialError extends Error {
  override readonly name = 'NoCredentialError';
}

export function sessionInfo(s: StoredSession): SessionInfo {
  return { sessionId: s.sessionId, credentialType: s.credentialType, expiresAt: s.expiresAt, createdAt: s.createdAt };
}

/** The failure a step's error means, with what a 401 means in that step. */
export function failureOf(e: unknown, context: FailureContext = {}): Failure {
  if (e instanceof NoCredentialError) return { code: 'no_credential' };
  return classifyError(e, context);
}

/**
 * The credential of a type. Several passkeys: the newest first, as the one most likely on this
 * device (the service's passkey challenge names one credential, reference.md "PASSKEY challenge").
 */
export async function findCredential(ctx: FlowContext, type: CredentialType): Promise<AuthMethod> {
  const all = await ctx.client.listCredentials(ctx.accountId, { signal: ctx.signal });
  const mine = all.filter((c) => c.type === type).sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const found = mine[0];
  if (!found) throw new NoCredentialError(`No ${type} credential.`);
  return found;
}

/**
 * Start-up: the stored session if it is live here and upstream; otherwise what ended it, so the
 * screen asks for that type again (api.md "Re-authentication after session expiry").
 */
export async function restore(ctx: FlowContext): Promise<LoginEvent> {
  const found = await ctx.store.get(ctx.accountId);
  if (!found) return { type: 'RESTORED', session: null };
  const type = found.session.credentialType;
  let live: StoredSession | undefined;
  try {
    live = await ctx.wallet.current(ctx.accountId);
  } catch (e) {
    if (e instanceof WalletError && e.code === 'key_missing') return { type: 'RESTORED', session: null, missingKey: type };
    throw e;
  }
  if (!live) return { type: 'RESTORED', session: null, expired: type };
  // The local clock may trust a session the service already ended (expiry, revocation elsewhere):
  // the active list (reference.md "GET /auth/sessions") is the truth.
  const active = await ctx.client.listSessions(ctx.accountId, { signal: ctx.signal });
  if (!active.some((s) => s.id === live.sessionId)) {
    await ctx.store.delete(live.sessionId);
    return { type: 'RESTORED', session: null, expired: live.credentialType };
  }
  return { type: 'RESTORED', session: sessionInfo(live) };
}

/** OTP: asks for a code; returns the handle that verifies it. */
export async function sendCode(ctx: FlowContext, type: 'EMAIL_OTP' | 'SMS_OTP'): Promise<OtpLogin> {
  const credential = await findCredential(ctx, type);
  return ctx.wallet.startOtpLogin({ credentialId: credential.id, signal: ctx.signal });
}

export async function passkeyLogin(ctx: FlowContext, mediation?: 'conditional'): Promise<StoredSession> {
  const credential = await findCredential(ctx, 'PASSKEY');
  return ctx.wallet.loginWithPasskey({ credentialId: credential.id, signal: ctx.signal, ...(mediation ? { mediation } : {}) });
}

export async function oauthLogin(ctx: FlowContext, provider: ((nonce: string) => Promise<string>) | undefined): Promise<StoredSession> {
  if (typeof provider !== 'function') throw new WalletError('invalid_argument', 'No oidcTokenProvider was given to <wallet-login>.');
  const credential = await findCredential(ctx, 'OAUTH');
  return ctx.wallet.loginWithOAuth({
    credentialId: credential.id,
    signal: ctx.signal,
    getIdToken: async (nonce) => {
      try {
        return await provider(nonce);
      } catch (e) {
        // The integrator's provider failed: not the service's refusal.
        throw new WalletError('invalid_argument', 'The OIDC token provider failed.', { cause: e });
      }
    },
  });
}

/** A refresh refused because the session already ended counts as expiry (reference.md: 401 if expired). */
export function endedSession(e: unknown): 'expired' | 'key-missing' | null {
  if (e instanceof WalletError && e.code === 'key_missing') return 'key-missing';
  if (e instanceof WalletError && e.code === 'session_expired') return 'expired';
  if (e instanceof ServiceError && e.status === 401) return 'expired';
  return null;
}
