/**
 * Compact JWS with ES256 (RFC 7515 §7.1, RFC 7518 §3.4: the signature is raw r||s, 64 bytes), used
 * for the test OIDC issuer's ID tokens and the OTP verification token of the sandbox. Decoding reads
 * the claims without checking the signature: the service's sandbox skips the OIDC signature check
 * (reference.md "Sandbox behaviour"), and the sandbox checks its own tokens by lookup, not by JWS.
 *
 * Deliberately not here: other algorithms, JWE, key discovery.
 */
import { base64urlDecode, base64urlEncode, utf8Decode, utf8Encode } from '../core/encoding.ts';
import { ecdsaSign, signatureFromDer, type KeyPair } from '../core/p256.ts';
import { isPlainObject } from './validate.ts';

export async function signJwt(claims: Record<string, unknown>, key: KeyPair, kid?: string): Promise<string> {
  const header = { alg: 'ES256', typ: 'JWT', ...(kid ? { kid } : {}) };
  const input = `${base64urlEncode(utf8Encode(JSON.stringify(header)))}.${base64urlEncode(utf8Encode(JSON.stringify(claims)))}`;
  const der = await ecdsaSign(key.privateKey, utf8Encode(input));
  return `${input}.${base64urlEncode(signatureFromDer(der))}`;
}

/** The claims of a compact JWS, or null when it is not one (three base64url parts, JSON object payload). */
export function decodeJwtClaims(token: string): Record<string, unknown> | null {
  if (typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)) || parts[0] === '' || parts[1] === '') return null;
  try {
    const header: unknown = JSON.parse(utf8Decode(base64urlDecode(parts[0]!)));
    const claims: unknown = JSON.parse(utf8Decode(base64urlDecode(parts[1]!)));
    if (!isPlainObject(header) || !isPlainObject(claims)) return null;
    return claims;
  } catch {
    return null;
  }
}
