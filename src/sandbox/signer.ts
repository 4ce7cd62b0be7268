/**
 * The sandbox's fixed, published signer of OTP target bundles, export envelopes and OTP
 * verification tokens (DESIGN.md wire format 2: the sandbox signs with its own key, which clients
 * pin for the sandbox environment). The scalar is SHA-256 of "wallet-elements sandbox signer v1";
 * it is public on purpose and worth nothing outside the sandbox.
 *
 * Deliberately not here: any production key. src/core/bundles.ts repeats the public key (the core
 * may not import the sandbox); a test checks both agree.
 */
import { hexToBytes } from '../core/encoding.ts';
import { importKeyFromScalar, type KeyPair } from '../core/p256.ts';

export const SANDBOX_SIGNER_SCALAR_HEX = 'e4bd772c8668248291c3113f7a045292dd0c00a6c6066f813735b206b1ba0770';

export const SANDBOX_SIGNER_PUBLIC_KEY =
  '04f35c501425fa163eab52a6ce1322bcd91bfcf6d49ceb108779e4bffebceab0b080c4e3868e2ff0ae69d47111fe2c6cd41ef38ed72b05c3ce700e1b9a6a82b9c8';

/** The signer as a non-extractable ECDSA key pair (a fresh import each call). */
export function sandboxSignerKey(): Promise<KeyPair> {
  return importKeyFromScalar(hexToBytes(SANDBOX_SIGNER_SCALAR_HEX), 'ECDSA');
}
