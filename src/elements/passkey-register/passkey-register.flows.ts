/**
 * What `<passkey-register>` asks of the browser and of core, each step turned into the machine
 * event it leads to.
 *
 * Support (WebAuthn Level 3, section 5.1.7 and 5.1.8): `PublicKeyCredential.getClientCapabilities()`
 * where it exists (its `passkeyPlatformAuthenticator` / `userVerifyingPlatformAuthenticator`), else
 * `isUserVerifyingPlatformAuthenticatorAvailable()`. Registration and activation go through
 * core/session.ts (`registerPasskey`, then `loginWithPasskey`: api.md "Adding a credential", step 4).
 */
import { WalletError } from '../../core/errors.ts';
import type { Wallet } from '../../core/session.ts';
import { classifyError, type Failure } from '../shared/failures.ts';
import type { RegisterEvent, Support } from './passkey-register.machine.ts';

type Capabilities = Record<string, boolean | undefined>;
interface PublicKeyCredentialStatics {
  getClientCapabilities?: () => Promise<Capabilities>;
  isUserVerifyingPlatformAuthenticatorAvailable?: () => Promise<boolean>;
}

export async function detectSupport(): Promise<Exclude<Support, 'checking'>> {
  const pkc = (globalThis as { PublicKeyCredential?: PublicKeyCredentialStatics }).PublicKeyCredential;
  if (!pkc || typeof navigator === 'undefined' || typeof navigator.credentials?.create !== 'function') return 'none';
  try {
    if (typeof pkc.getClientCapabilities === 'function') {
      const caps = await pkc.getClientCapabilities();
      if (caps['passkeyPlatformAuthenticator'] || caps['userVerifyingPlatformAuthenticator']) return 'platform';
      // Capabilities may leave the platform question open; fall through to the older probe.
      if (caps['passkeyPlatformAuthenticator'] === false && caps['userVerifyingPlatformAuthenticator'] === false) return 'roaming-only';
    }
    if (typeof pkc.isUserVerifyingPlatformAuthenticatorAvailable === 'function') {
      return (await pkc.isUserVerifyingPlatformAuthenticatorAvailable()) ? 'platform' : 'roaming-only';
    }
  } catch {
    // A probe that throws says nothing about create() itself.
  }
  return 'roaming-only';
}

/** A default label: the platform's name and today's date. */
export function platformName(): string {
  if (typeof navigator === 'undefined') return '';
  const data = (navigator as { userAgentData?: { platform?: string } }).userAgentData;
  return data?.platform || navigator.platform || '';
}

/** Registers; a missing session becomes LOGIN_REQUIRED (core says so before any prompt opens). */
export async function register(wallet: Wallet, accountId: string, nickname: string, signal: AbortSignal): Promise<RegisterEvent> {
  try {
    const method = await wallet.registerPasskey({ accountId, nickname, signal });
    return { type: 'SAVED', passkey: { credentialId: method.id, nickname: method.nickname || nickname } };
  } catch (e) {
    if (e instanceof WalletError && (e.code === 'session_expired' || e.code === 'key_missing')) return { type: 'LOGIN_REQUIRED' };
    throw e;
  }
}

export async function activate(wallet: Wallet, credentialId: string, signal: AbortSignal): Promise<RegisterEvent> {
  const session = await wallet.loginWithPasskey({ credentialId, signal });
  return { type: 'ACTIVATED', sessionId: session.sessionId };
}

export function failureOf(e: unknown): Failure {
  return classifyError(e, { unauthorized: 'passkey_rejected' });
}
