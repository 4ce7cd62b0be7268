/**
 * Browser WebAuthn ceremonies for passkey registration and login, on the browser's own API:
 * navigator.credentials.create/get, with the WebAuthn Level 3 JSON methods
 * (PublicKeyCredential.parseCreationOptionsFromJSON and credential.toJSON(), sections 5.1.9-10)
 * where the browser has them and base64url conversions of our own where it does not.
 *
 * One abort service for the page: starting a ceremony aborts the one running, so that two browser
 * prompts never collide, and a caller's signal aborts only the ceremony it was given to, never a
 * newer one. A conditional (autofill) request checks autofill support before it claims the page,
 * so a cancel during that check means no request at all, and never cuts off a modal prompt: made
 * while one is open, it ends at once (AbortError), to be made again once the prompt ended.
 *
 * Mapping to the service (DESIGN.md wire format 6, reference.md "Credentials"):
 * - registration: the challenge is base64url from the integrator's backend (the proxy mints it);
 *   the attestation's fields are base64url and `clientDataJSON` is sent as `clientDataJson`;
 * - login: the challenge from `/challenge` is a lowercase hex string and the WebAuthn challenge is
 *   the UTF-8 bytes of that string (never hex- or base64url-decoded); `allowCredentials[0].id` is
 *   the base64url-decoded credentialId.
 * Failures become WalletError('webauthn') with the browser's DOMException (its `name` intact)
 * as `cause`; an abort through the caller's signal becomes WalletError('aborted'), and a passkey
 * picked that is none of those asked for (another login's) WalletError('passkey_mismatch').
 *
 * Not here: any HTTP call (session.ts does those), any key handling.
 */
import { WalletError } from './errors.ts';
import { base64urlDecode, base64urlEncode, utf8Encode } from './encoding.ts';
import type { PasskeyAssertion, PasskeyAttestation } from './types.ts';

/** A credential named in options, its id base64url (WebAuthn L3 section 5.10.3, JSON form). */
export interface PublicKeyCredentialDescriptorJSON {
  id: string;
  type: 'public-key';
  transports?: AuthenticatorTransport[];
}

/** Registration options as the proxy sends them, binary fields base64url (WebAuthn L3 section 5.4, JSON form). */
export interface PublicKeyCredentialCreationOptionsJSON {
  rp: PublicKeyCredentialRpEntity;
  user: { id: string; name: string; displayName: string };
  challenge: string;
  pubKeyCredParams: PublicKeyCredentialParameters[];
  timeout?: number;
  excludeCredentials?: PublicKeyCredentialDescriptorJSON[];
  authenticatorSelection?: AuthenticatorSelectionCriteria;
  hints?: string[];
  attestation?: AttestationConveyancePreference;
  extensions?: AuthenticationExtensionsClientInputsJSON;
}

/** The fields of a registration's toJSON() (WebAuthn L3 section 5.1.10) that the service takes. */
export interface RegistrationResponseJSON {
  rawId: string;
  response: { clientDataJSON: string; attestationObject: string; transports?: string[] };
}

/** The fields of an assertion's toJSON() (WebAuthn L3 section 5.1.10) that the service takes. */
export interface AuthenticationResponseJSON {
  rawId: string;
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
}

/** True when the browser has WebAuthn at all. */
export function browserSupportsWebAuthn(): boolean {
  return typeof PublicKeyCredential === 'function';
}

/** True when the browser can offer passkeys in an input's autofill (conditional mediation). */
export async function browserSupportsWebAuthnAutofill(): Promise<boolean> {
  try {
    return (await globalThis.PublicKeyCredential?.isConditionalMediationAvailable?.()) === true;
  } catch {
    return false;
  }
}

/** The page's running ceremony; a new one aborts it (the browser shows one prompt at a time). */
let running: AbortController | undefined;
/** Whether the running ceremony is a modal prompt, which no conditional request cuts off. */
let prompting = false;
/** Settles when the running ceremony ends. */
let ending: Promise<void> | undefined;
/** How many ceremonies ended with a credential (a passkey picked): a failure after one came after the pick. */
export let picked = 0;

/** Resolves once no ceremony runs (a passkey autofill waits so, never to cut off a prompt). */
export async function passkeyIdle(): Promise<void> {
  while (ending) await ending;
}

/** Cancels whatever ceremony is running (e.g. a conditional-UI request before a modal one). */
export function cancelPasskeyCeremony(): void {
  running?.abort(new DOMException('The passkey request was cancelled.', 'AbortError'));
}

function abortedError(signal: AbortSignal): WalletError {
  return new WalletError('aborted', 'The passkey request was aborted.', { cause: signal.reason });
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
  const message = (e instanceof Error && Object.hasOwn(MESSAGES, e.name) && MESSAGES[e.name]) || 'The passkey request failed. Try again, or use another way to log in.';
  return new WalletError('webauthn', message, { cause: e });
}

/**
 * Runs one browser call as the page's ceremony: it aborts the running one, and is aborted by the
 * next one, by cancelPasskeyCeremony(), or by the caller's signal. Nothing awaits between the
 * caller's last abort check and the browser call, so a ceremony cancelled before it starts never
 * starts and never aborts a newer one.
 */
async function ceremony<T extends RegistrationResponseJSON | AuthenticationResponseJSON>(
  signal: AbortSignal | undefined,
  start: (signal: AbortSignal) => Promise<Credential | null>,
  mediation?: 'conditional',
): Promise<T> {
  if (signal?.aborted) throw abortedError(signal);
  if (mediation && running && prompting) throw toWalletError(new DOMException('A prompt is open.', 'AbortError'));
  prompting = !mediation;
  running?.abort(new DOMException('Another passkey request started.', 'AbortError'));
  const controller = (running = new AbortController());
  let end!: () => void;
  ending = new Promise((r) => (end = r));
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort);
  try {
    const credential = (await start(controller.signal)) as PublicKeyCredential | null;
    if (signal?.aborted) throw abortedError(signal);
    if (!credential) throw new WalletError('webauthn', 'The passkey request was not completed. Try again.');
    picked++;
    if (typeof credential.toJSON === 'function') return credential.toJSON();
    // Browsers without toJSON(): the same base64url fields, encoded here.
    const fields = credential.response as Partial<AuthenticatorAttestationResponse & AuthenticatorAssertionResponse>;
    const response: Record<string, unknown> = { transports: fields.getTransports?.() };
    for (const name of ['clientDataJSON', 'attestationObject', 'authenticatorData', 'signature', 'userHandle'] as const) {
      const buffer = fields[name];
      if (buffer) response[name] = base64urlEncode(new Uint8Array(buffer));
    }
    return { rawId: base64urlEncode(new Uint8Array(credential.rawId)), response } as T;
  } catch (e) {
    if (signal?.aborted) throw abortedError(signal);
    throw toWalletError(e);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (running === controller) running = ending = undefined;
    end();
  }
}

const TRANSPORTS: readonly string[] = ['usb', 'nfc', 'ble', 'internal', 'hybrid'];

/** A descriptor with its id as bytes. */
function descriptor(d: PublicKeyCredentialDescriptorJSON): PublicKeyCredentialDescriptor {
  return { ...d, id: base64urlDecode(d.id, 'credential id') };
}

/** The JSON options as the browser takes them, by the browser's own parser where it has one. */
function creationOptions(json: PublicKeyCredentialCreationOptionsJSON): PublicKeyCredentialCreationOptions {
  if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function') return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: base64urlDecode(json.challenge, 'challenge'),
    user: { ...json.user, id: base64urlDecode(json.user.id, 'user.id') },
    excludeCredentials: json.excludeCredentials?.map(descriptor),
  } as PublicKeyCredentialCreationOptions;
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
  const exclude = [...(optionsJSON.excludeCredentials ?? [])];
  for (const id of options.excludeCredentialIds ?? []) {
    if (!exclude.some((d) => d.id === id)) exclude.push({ id, type: 'public-key' });
  }
  const { rawId, response } = await ceremony<RegistrationResponseJSON>(options.signal, (signal) =>
    navigator.credentials.create({ publicKey: creationOptions({ ...optionsJSON, excludeCredentials: exclude }), signal }),
  );
  const attestation: PasskeyAttestation = {
    credentialId: rawId,
    clientDataJson: response.clientDataJSON,
    attestationObject: response.attestationObject,
  };
  const transports = response.transports?.filter((t) => TRANSPORTS.includes(t));
  if (transports?.length) attestation.transports = transports as PasskeyAttestation['transports'];
  return attestation;
}

export interface GetPasskeyAssertionOptions {
  /** base64url rawId of the registered passkey (the AuthMethod's / challenge's credentialId). */
  credentialId: string;
  /**
   * base64url rawIds of the wallet's other passkeys, also allowed: a device may hold one of them
   * instead. An answer from one of them is returned as it is, signed over this challenge.
   */
  otherCredentialIds?: string[];
  /** The lowercase hex challenge from `/challenge`. */
  challenge: string;
  /** Defaults to the page's effective domain. */
  rpId?: string;
  /** 'conditional': wait for the user to pick the passkey from an input's autofill (check
   * browserSupportsWebAuthnAutofill() first). Otherwise a modal request. */
  mediation?: 'conditional';
  /** Milliseconds (a hint to the browser). */
  timeout?: number;
  userVerification?: UserVerificationRequirement;
  transports?: AuthenticatorTransport[];
  signal?: AbortSignal;
}

/** navigator.credentials.get over the service's hex challenge, answered in the service's assertion shape. */
export async function getPasskeyAssertion(options: GetPasskeyAssertionOptions): Promise<PasskeyAssertion> {
  const { credentialId, mediation, signal } = options;
  if (!/^[A-Za-z0-9_-]+$/.test(credentialId ?? '')) {
    throw new WalletError('invalid_argument', 'credentialId must be base64url.');
  }
  if (!/^[0-9a-f]+$/.test(options.challenge ?? '')) {
    throw new WalletError('invalid_argument', 'challenge must be lowercase hex.');
  }
  // The others come from the service's list; a malformed one fails to decode below.
  const ids = [credentialId, ...(options.otherCredentialIds ?? [])];
  const publicKey: PublicKeyCredentialRequestOptions = {
    // The UTF-8 bytes of the hex string, exactly (reference.md: "do not base64url-decode it").
    challenge: utf8Encode(options.challenge),
    // Conditional UI takes an empty allow list (WebAuthn L3 section 5.1.4.1), so the user may pick
    // a passkey of another credential; checked below.
    allowCredentials: mediation ? [] : ids.map((id) => descriptor({ id, type: 'public-key', transports: options.transports })),
    userVerification: options.userVerification ?? 'preferred',
  };
  if (options.rpId) publicKey.rpId = options.rpId;
  if (options.timeout) publicKey.timeout = options.timeout;
  if (mediation) {
    const supported = await browserSupportsWebAuthnAutofill();
    // Read the caller's signal after the check: a cancel during it means no request at all.
    if (signal?.aborted) throw abortedError(signal);
    if (!supported) throw new WalletError('webauthn', 'This browser cannot offer passkeys in autofill.');
  }
  const { rawId, response } = await ceremony<AuthenticationResponseJSON>(signal, (ceremonySignal) =>
    navigator.credentials.get({ publicKey, mediation, signal: ceremonySignal }),
    mediation,
  );
  if (!ids.includes(rawId)) {
    throw new WalletError('passkey_mismatch', 'That passkey belongs to another login. Choose the passkey of this wallet.');
  }
  const assertion: PasskeyAssertion = {
    credentialId: rawId,
    clientDataJson: response.clientDataJSON,
    authenticatorData: response.authenticatorData,
    signature: response.signature,
  };
  if (response.userHandle) assertion.userHandle = response.userHandle;
  return assertion;
}
