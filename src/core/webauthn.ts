/**
 * Browser WebAuthn ceremonies for passkey registration and login, on @simplewebauthn/browser
 * (its startRegistration/startAuthentication, and its WebAuthnAbortService, which cancels a running
 * ceremony whenever another starts so that two never collide). A conditional (autofill) request
 * calls navigator.credentials.get itself, still through that service, so that a cancel during its
 * autofill support check means no request at all (see conditionalGet).
 *
 * Mapping to the service (DESIGN.md wire format 6, reference.md "Credentials"):
 * - registration: the challenge is base64url from the integrator's backend (the proxy mints it);
 *   the attestation's fields are base64url and `clientDataJSON` is sent as `clientDataJson`;
 * - login: the challenge from `/challenge` is a lowercase hex string and the WebAuthn challenge is
 *   the UTF-8 bytes of that string (never hex- or base64url-decoded); `allowCredentials[0].id` is
 *   the base64url-decoded credentialId.
 * Failures become WalletError('webauthn') with the browser's DOMException (its `name` intact)
 * as `cause`; an abort through the caller's signal becomes WalletError('aborted').
 *
 * Not here: any HTTP call (session.ts does those), any key handling.
 */
import {
  WebAuthnAbortService,
  WebAuthnError,
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialDescriptorJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { WalletError } from './errors.ts';
import { base64urlEncode, utf8Encode } from './encoding.ts';
import type { PasskeyAssertion, PasskeyAttestation } from './types.ts';

export { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill };

/** Cancels whatever ceremony is running (e.g. a conditional-UI request before a modal one). */
export function cancelPasskeyCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}

const TRANSPORTS = ['usb', 'nfc', 'ble', 'internal', 'hybrid'] as const;

/**
 * Our ceremonies, counted in the order each claims WebAuthnAbortService. A cancel through the
 * caller's signal goes to the service only while the service still holds that ceremony: once a
 * newer one has claimed it, the older one was already aborted by that claim, and a cancel now
 * would abort the newer one (the service only knows "the current ceremony").
 */
let claims = 0;

function abortedError(signal: AbortSignal): WalletError {
  return new WalletError('aborted', 'The passkey request was aborted.', { cause: signal.reason });
}

/**
 * Runs a library ceremony so that the caller's signal cancels it. @simplewebauthn/browser owns the
 * ceremony's own AbortSignal (its abort service), so our signal cancels through that service.
 * `run` must claim the service synchronously: startRegistration and a modal startAuthentication
 * call WebAuthnAbortService.createNewAbortSignal() before their first await. (A conditional
 * startAuthentication does not: it awaits its autofill support check first, which is why
 * conditional requests do not go through here; see conditionalGet.)
 */
async function withSignal<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  if (signal?.aborted) throw abortedError(signal);
  const claim = ++claims;
  const pending = run(); // the service now holds this ceremony
  const onAbort = () => {
    if (claims === claim) WebAuthnAbortService.cancelCeremony();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await pending;
    if (signal?.aborted) throw abortedError(signal);
    return result;
  } catch (e) {
    if (signal?.aborted) throw abortedError(signal);
    throw toWalletError(e);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** An AbortSignal aborted by whichever of `a` and `b` aborts first. */
function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([a, b]);
  const controller = new AbortController();
  for (const s of [a, b]) {
    if (s.aborted) controller.abort(s.reason);
    else s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

interface Assertion {
  rawId: string;
  clientDataJSON: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/**
 * A conditional (autofill) navigator.credentials.get, run here rather than through
 * startAuthentication({ useBrowserAutofill: true }). @simplewebauthn/browser 14's
 * startAuthentication awaits browserSupportsWebAuthnAutofill() before it creates its abort signal
 * through WebAuthnAbortService (esm/methods/startAuthentication.js: the await in the
 * `if (useBrowserAutofill)` block, then `createNewAbortSignal()`), and `verifyBrowserAutofillInput`
 * only skips the input lookup, not that await. A cancel during the check then had nothing to
 * cancel, the request still started afterwards with nobody holding it, and its late claim of the
 * service aborted whatever ceremony had started in between. Here the check runs first, the
 * caller's signal is read after it, and nothing awaits between that read, the claim of the service
 * (so a later library ceremony still cancels this one) and the browser call, which the caller's
 * signal aborts directly (so a cancel reaches exactly this request, never a newer one).
 */
async function conditionalGet(publicKey: PublicKeyCredentialRequestOptions, signal: AbortSignal | undefined): Promise<Assertion> {
  if (signal?.aborted) throw abortedError(signal);
  let supported = false;
  try {
    supported = await browserSupportsWebAuthnAutofill();
  } catch {
    supported = false;
  }
  if (signal?.aborted) throw abortedError(signal);
  if (!supported) throw new WalletError('webauthn', 'This browser cannot offer passkeys in autofill.');
  // No await from here to navigator.credentials.get.
  claims++;
  const serviceSignal = WebAuthnAbortService.createNewAbortSignal();
  let credential: Credential | null;
  try {
    credential = await navigator.credentials.get({
      mediation: 'conditional',
      publicKey,
      signal: signal ? eitherSignal(serviceSignal, signal) : serviceSignal,
    });
  } catch (e) {
    if (signal?.aborted) throw abortedError(signal);
    throw toWalletError(e);
  }
  if (signal?.aborted) throw abortedError(signal);
  if (!credential || !(credential instanceof PublicKeyCredential)) {
    throw new WalletError('webauthn', 'The passkey request was not completed. Try again.');
  }
  const response = credential.response as AuthenticatorAssertionResponse;
  const b64 = (buf: ArrayBuffer) => base64urlEncode(new Uint8Array(buf));
  const out: Assertion = {
    rawId: b64(credential.rawId),
    clientDataJSON: b64(response.clientDataJSON),
    authenticatorData: b64(response.authenticatorData),
    signature: b64(response.signature),
  };
  if (response.userHandle) out.userHandle = b64(response.userHandle);
  return out;
}

/** Short sentences a person can act on, keyed by the DOMException name (WebAuthn L3 section 5.1.3/5.1.4). */
const MESSAGES: Record<string, string> = {
  NotAllowedError: 'The passkey request was cancelled or timed out. Try again.',
  AbortError: 'The passkey request was cancelled.',
  InvalidStateError: 'This device already holds a passkey for this wallet.',
  NotSupportedError: 'This device cannot create a passkey of the required kind.',
  SecurityError: 'Passkeys are not allowed on this site address.',
  ConstraintError: 'This device cannot verify you as the passkey requires.',
  UnknownError: 'The authenticator could not complete the request. Try again.',
};

function toWalletError(e: unknown): WalletError {
  if (e instanceof WalletError) return e;
  // WebAuthnError keeps the browser's DOMException as its cause; that is what callers need.
  const dom = e instanceof WebAuthnError ? e.cause : e;
  const name = dom instanceof Error ? dom.name : 'Error';
  const message = MESSAGES[name] ?? 'The passkey request failed. Try again, or use another way to log in.';
  return new WalletError('webauthn', message, { cause: dom });
}

function toTransports(list: readonly string[] | undefined): PasskeyAttestation['transports'] {
  if (!list) return undefined;
  const out = list.filter((t): t is (typeof TRANSPORTS)[number] => (TRANSPORTS as readonly string[]).includes(t));
  return out.length ? out : undefined;
}

export interface CreatePasskeyOptions {
  /** From the proxy's `webauthn/registration-options` (challenge base64url). */
  optionsJSON: PublicKeyCredentialCreationOptionsJSON;
  /** base64url credential ids already registered on the account, added to excludeCredentials. */
  excludeCredentialIds?: string[];
  signal?: AbortSignal;
}

/** navigator.credentials.create, answered in the service's attestation shape. */
export async function createPasskey(options: CreatePasskeyOptions): Promise<PasskeyAttestation> {
  const { optionsJSON } = options;
  const exclude: PublicKeyCredentialDescriptorJSON[] = [...(optionsJSON.excludeCredentials ?? [])];
  for (const id of options.excludeCredentialIds ?? []) {
    if (!exclude.some((d) => d.id === id)) exclude.push({ id, type: 'public-key' });
  }
  const result = await withSignal(options.signal, () =>
    startRegistration({ optionsJSON: { ...optionsJSON, excludeCredentials: exclude } }),
  );
  const attestation: PasskeyAttestation = {
    credentialId: result.rawId,
    clientDataJson: result.response.clientDataJSON,
    attestationObject: result.response.attestationObject,
  };
  const transports = toTransports(result.response.transports);
  if (transports) attestation.transports = transports;
  return attestation;
}

export interface GetPasskeyAssertionOptions {
  /** base64url rawId of the registered passkey (the AuthMethod's / challenge's credentialId). */
  credentialId: string;
  /** The lowercase hex challenge from `/challenge`. */
  challenge: string;
  /** Defaults to the page's effective domain. */
  rpId?: string;
  /** 'conditional': wait for the user to pick the passkey from an input's autofill (check
   * browserSupportsWebAuthnAutofill() first). Otherwise a modal request. */
  mediation?: 'conditional';
  /** Milliseconds (a hint to the browser). */
  timeout?: number;
  userVerification?: 'required' | 'preferred' | 'discouraged';
  transports?: AuthenticatorTransport[];
  signal?: AbortSignal;
}

/** navigator.credentials.get over the service's hex challenge, answered in the service's assertion shape. */
export async function getPasskeyAssertion(options: GetPasskeyAssertionOptions): Promise<PasskeyAssertion> {
  if (!/^[A-Za-z0-9_-]+$/.test(options.credentialId ?? '')) {
    throw new WalletError('invalid_argument', 'credentialId must be a base64url WebAuthn credential id.');
  }
  if (!/^[0-9a-f]+$/.test(options.challenge ?? '')) {
    throw new WalletError('invalid_argument', 'challenge must be the lowercase hex string from /challenge.');
  }
  const descriptor: PublicKeyCredentialDescriptorJSON = { id: options.credentialId, type: 'public-key' };
  if (options.transports) descriptor.transports = options.transports;
  const optionsJSON: PublicKeyCredentialRequestOptionsJSON = {
    // startAuthentication base64url-decodes `challenge`; encoding the hex string's UTF-8 bytes
    // makes the ceremony's challenge exactly those bytes (reference.md: "do not base64url-decode it").
    challenge: base64urlEncode(utf8Encode(options.challenge)),
    allowCredentials: [descriptor],
    userVerification: options.userVerification ?? 'preferred',
  };
  if (options.rpId) optionsJSON.rpId = options.rpId;
  if (options.timeout) optionsJSON.timeout = options.timeout;
  let result: Assertion;
  if (options.mediation === 'conditional') {
    // Conditional UI takes an empty allow list (WebAuthn L3 section 5.1.4.1, as the library does),
    // so the user may pick a passkey of another credential; checked below.
    const publicKey: PublicKeyCredentialRequestOptions = {
      challenge: utf8Encode(options.challenge),
      allowCredentials: [],
      userVerification: optionsJSON.userVerification!,
    };
    if (options.rpId) publicKey.rpId = options.rpId;
    if (options.timeout) publicKey.timeout = options.timeout;
    result = await conditionalGet(publicKey, options.signal);
  } else {
    const json = await withSignal(options.signal, () => startAuthentication({ optionsJSON }));
    result = { ...json.response, rawId: json.rawId };
  }
  if (result.rawId !== options.credentialId) {
    throw new WalletError('webauthn', 'That passkey belongs to another login. Choose the passkey of this wallet.');
  }
  const assertion: PasskeyAssertion = {
    credentialId: result.rawId,
    clientDataJson: result.clientDataJSON,
    authenticatorData: result.authenticatorData,
    signature: result.signature,
  };
  if (result.userHandle) assertion.userHandle = result.userHandle;
  return assertion;
}
