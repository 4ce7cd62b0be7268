/**
 * Passkey checks of the sandbox with @simplewebauthn/server (W3C WebAuthn Level 3 §7.1 registration,
 * §7.2 authentication): challenge, origin, RP id, user presence, signature and counter
 * (reference.md "Sandbox behaviour": "PASSKEY: full WebAuthn checks"). The service's field
 * spelling (`clientDataJson`) is mapped to the library's JSON shape here and nowhere else.
 *
 * Origins are checked against the sandbox's allow rule before the library compares them, so a
 * predicate (any localhost port) can be used. User verification is not required: the service asks
 * for user presence, and test authenticators may lack UV. Deliberately not here: attestation trust
 * (the service accepts `none`), metadata service lookups.
 */
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { base64urlDecode, base64urlEncode, utf8Decode, utf8Encode } from '../core/encoding.ts';
import type { PasskeyAssertion, PasskeyAttestation } from '../core/types.ts';
import { HttpError, badRequest, unauthorized } from './http.ts';
import type { World } from './world.ts';

/** The `origin` of a base64url clientDataJSON, or undefined when it cannot be read. */
function clientOrigin(clientDataJson: string): string | undefined {
  try {
    const data: unknown = JSON.parse(utf8Decode(base64urlDecode(clientDataJson)));
    const origin = (data as { origin?: unknown } | null)?.origin;
    return typeof origin === 'string' ? origin : undefined;
  } catch {
    return undefined;
  }
}

export interface RegisteredPasskey {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports?: string[];
}

/** Verifies a registration; 400 INVALID_INPUT (field `attestation`) when it fails. */
export async function verifyPasskeyRegistration(
  world: World,
  challenge: string,
  attestation: PasskeyAttestation,
): Promise<RegisteredPasskey> {
  const fail = (message: string): HttpError => badRequest(`attestation: ${message}`, [{ field: 'attestation', message }]);
  const origin = clientOrigin(attestation.clientDataJson);
  if (origin === undefined) throw fail('clientDataJson is not base64url JSON with an origin');
  if (!world.options.originAllowed(origin)) throw fail('the ceremony ran on an origin that is not allowed');
  const response: RegistrationResponseJSON = {
    id: attestation.credentialId,
    rawId: attestation.credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: attestation.clientDataJson,
      attestationObject: attestation.attestationObject,
      ...(attestation.transports ? { transports: attestation.transports as AuthenticatorTransport[] } : {}),
    },
  };
  let result;
  try {
    result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: world.options.rpId,
      requireUserPresence: true,
      requireUserVerification: false,
    });
  } catch (err) {
    throw fail(err instanceof Error ? err.message : 'registration did not verify');
  }
  if (!result.verified) throw fail('registration did not verify');
  const credential = result.registrationInfo.credential;
  if (credential.id !== attestation.credentialId) throw fail('credentialId differs from the credential in authenticator data');
  return {
    credentialId: credential.id,
    publicKey: new Uint8Array(credential.publicKey),
    counter: credential.counter,
    ...(attestation.transports ? { transports: attestation.transports } : {}),
  };
}

/**
 * Verifies an assertion over `hexChallenge` (whose UTF-8 bytes are the WebAuthn challenge,
 * reference.md "PASSKEY challenge"); returns the new signature counter. 401 UNAUTHORIZED on failure.
 */
export async function verifyPasskeyAssertion(
  world: World,
  stored: RegisteredPasskey,
  assertion: PasskeyAssertion,
  hexChallenge: string,
): Promise<number> {
  const origin = clientOrigin(assertion.clientDataJson);
  if (origin === undefined || !world.options.originAllowed(origin)) {
    throw unauthorized('The assertion was not made on an allowed origin', 'UNAUTHORIZED', { reason: 'PASSKEY_ORIGIN' });
  }
  const response: AuthenticationResponseJSON = {
    id: assertion.credentialId,
    rawId: assertion.credentialId,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: assertion.clientDataJson,
      authenticatorData: assertion.authenticatorData,
      signature: assertion.signature,
      ...(assertion.userHandle ? { userHandle: assertion.userHandle } : {}),
    },
  };
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: base64urlEncode(utf8Encode(hexChallenge)),
      expectedOrigin: origin,
      expectedRPID: world.options.rpId,
      credential: {
        id: stored.credentialId,
        publicKey: new Uint8Array(stored.publicKey),
        counter: stored.counter,
        ...(stored.transports ? { transports: stored.transports as AuthenticatorTransport[] } : {}),
      },
      requireUserVerification: false,
    });
  } catch (err) {
    throw unauthorized(`The assertion did not verify: ${err instanceof Error ? err.message : 'unknown reason'}`, 'UNAUTHORIZED', { reason: 'PASSKEY_ASSERTION' });
  }
  if (!result.verified) throw unauthorized('The assertion did not verify', 'UNAUTHORIZED', { reason: 'PASSKEY_ASSERTION' });
  return result.authenticationInfo.newCounter;
}
