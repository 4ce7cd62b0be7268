/**
 * The ways `<wallet-login>` logs in, and which of them a screen offers: what the element needs
 * before the rest of its code (wallet-login.machine.ts among it) has loaded, to read its `methods`
 * attribute and to offer the methods after that code failed to load.
 */
import type { CredentialType } from '../../core/types.ts';
import type { LoginState } from './wallet-login.machine.ts';

export const LOGIN_METHODS = ['email-otp', 'sms-otp', 'passkey', 'oauth'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];
export type OtpMethod = Extract<LoginMethod, 'email-otp' | 'sms-otp'>;

/** A method's name is its credential type in lower case with a hyphen (`EMAIL_OTP` is `email-otp`). */
export function credentialOf(method: LoginMethod): CredentialType {
  return method.toUpperCase().replace('-', '_') as CredentialType;
}

export function methodOf(type: CredentialType): LoginMethod {
  return type.toLowerCase().replace('_', '-') as LoginMethod;
}

/**
 * The `methods` attribute: space-separated method names in the order to offer them. Unknown names
 * are ignored (and put in `unknown`, in lower case), duplicates keep their first place; an empty or
 * missing attribute, or one naming no known method, offers all four.
 */
export function parseMethods(attribute: string | null | undefined, unknown: string[] = []): LoginMethod[] {
  const seen = new Set<LoginMethod>();
  for (const word of (attribute ?? '').toLowerCase().split(/[\s,]+/) as LoginMethod[]) {
    if (LOGIN_METHODS.includes(word)) seen.add(word);
    else if (word) unknown.push(word);
  }
  return seen.size ? [...seen] : [...LOGIN_METHODS];
}

/**
 * The methods to offer on the choosing screen: the configured ones in their order, or on re-auth
 * only the ended session's type (api.md: re-authentication repeats that type's verify flow).
 * `webauthn`: false on a page without WebAuthn (plain http), where passkeys are left out while
 * another way remains; alone, the passkey button stays, and pressed it says why it cannot work.
 */
export function offeredMethods(state: LoginState, configured: readonly LoginMethod[], webauthn = true): LoginMethod[] {
  if (state.kind !== 'choosing') return [];
  // (A re-auth offers one method: it stays.)
  return state.reauth ? [methodOf(state.reauth.credentialType)] : configured.filter((m) => webauthn || m !== 'passkey' || !configured[1]);
}

