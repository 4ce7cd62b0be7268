/**
 * Login, refresh and logout flows of the Embedded Wallet (api.md "Credential endpoints",
 * "Verify by credential type"; reference.md "Credentials", "Sessions"; DESIGN.md wire formats 2-7).
 * This is what the login elements call; they never touch keys, fetch or IndexedDB themselves.
 *
 * - OTP (EMAIL_OTP, SMS_OTP): /challenge, verify the target bundle against the pinned signer BEFORE
 *   encrypting anything, generate the non-extractable ECDSA session key, encrypt {code, public key}
 *   to the target, verify leg 1 (202, a JWT to sign), stamp it with that same key, leg 2 -> session.
 * - OAUTH: an ECDH receiver key; nonce = sha256 hex of its 130-char public key hex; the integrator's
 *   `getIdToken(nonce)` supplies a fresh OIDC token; verify -> a bundle holding the session scalar,
 *   imported at once as a non-extractable ECDSA key.
 * - PASSKEY: an ECDH receiver key; /challenge with it; WebAuthn get over the hex challenge; verify
 *   with Request-Id; decrypt as for OAUTH. Registration: proxy options, WebAuthn create, POST
 *   /auth/credentials (signed with the current session when the account already has a credential).
 * - refresh: a new ECDSA key, the refresh signed by the current key; logout: revoke upstream, delete.
 *
 * Deliberately not here: UI state (the elements' machines), the Basic credentials (proxy), logging.
 * No secret (code, token, key, stamp) is ever put into an error, an event or a stored record.
 */
import { WalletError, isServiceError } from './errors.ts';
import { serviceNow, sessionEnd } from './clock.ts';
import { bytesToHex, sha256Hex } from './encoding.ts';
import { compressPublicKey, generateDualKey, generateEncryptionKey, generateSigningKey, type KeyPair } from './p256.ts';
import { keyStamper, type Stamper } from './stamp.ts';
import { decryptExportEnvelope, encryptOtpBundle, importSessionKeyBundle, verifyTargetBundle, type ExportVerification } from './bundles.ts';
import { createPasskey, getPasskeyAssertion } from './webauthn.ts';
import type { WalletClient } from './client.ts';
import type { KeyStore, StoredSession } from './keystore.ts';
import type { AuthMethod, AuthMethodResponse, AuthSession, CreateCredentialRequest, Customer, Id } from './types.ts';

export interface WalletOptions {
  client: WalletClient;
  store: KeyStore;
  /**
   * Uncompressed hex of the key that signs OTP target bundles in this environment, pinned by the
   * page: PRODUCTION_OTP_SIGNER, or SANDBOX_SIGNER_PUBLIC_KEY against the sandbox (bundles.ts).
   */
  otpSigner: string;
  /**
   * This device's clock, for expiry decisions (default Date.now): a session lasts its lifetime from
   * its arrival (StoredSession.endsAt), whatever the device's clock says of the service's times.
   */
  now?: () => number;
  /** A session counts as expired this many ms before its end (latency, clock skew). Default 5000. */
  expiryMarginMs?: number;
}

export interface SignalOption {
  signal?: AbortSignal;
}

/** What an OTP login needs of a challenge (or registration) answer: all of it public. */
export type OtpTarget = Pick<AuthMethodResponse, 'id' | 'accountId' | 'type' | 'otpEncryptionTargetBundle'>;

/** A started OTP login: the code was sent; `submit` may be called again after a wrong code. */
export interface OtpLogin {
  accountId: Id<'InternalAccount'>;
  credentialId: Id<'AuthMethod'>;
  type: 'EMAIL_OTP' | 'SMS_OTP';
  /**
   * The verified target bundle (public: the service's signed encryption key). A page that keeps it
   * can take the login up again after a reload, without a new code:
   * `startOtpLogin({ credentialId, registered: { id, accountId, type, otpEncryptionTargetBundle } })`.
   */
  otpEncryptionTargetBundle: string;
  /** The challenge answer documents no expiry; present only if the service sends one. */
  expiresAt?: string;
  /**
   * Encrypts the code to the verified target and completes both verify legs. Stopped (`signal`)
   * once they are sent, it rejects at once and ends the session they make, as loginWithOAuth does.
   * When their answer is lost (no answer, a 5xx) and the service lists a session of the credential's
   * type that the key signs the renewal of, the login made it: the renewed session is the result.
   */
  submit(code: string, options?: SignalOption): Promise<StoredSession>;
}

export interface SessionChange {
  /**
   * `ended`: the session expired or its key was lost, found when it was next asked for (or when a
   * renewal was refused because the service had ended it); its record is deleted and the account
   * has no live session here any more. Told once for each end, however many calls (of any wallet
   * of the page) find it.
   * `changed`: a credential of the account was added or removed, another of its sessions ended, or
   * the customer's email (the email login's address) was changed, through this object
   * (addCredential, registerPasskey, revokeCredential, revokeSession, updateEmail): lists of them
   * are to be read again.
   */
  type: 'logged-in' | 'refreshed' | 'logged-out' | 'ended' | 'changed';
  accountId: string;
  /**
   * On `ended`: the service ended the session before its time, found when a call it signed was
   * refused and the service no longer listed it while its expiresAt was still ahead on the
   * service's clock: revoked from another device (or by the platform).
   */
  revoked?: true;
  /** The new session (logged-in, refreshed); absent on logged-out and ended. */
  session?: StoredSession;
}

export interface Wallet {
  /**
   * EMAIL_OTP / SMS_OTP: requests a code and verifies the target bundle; see OtpLogin. `registered`:
   * the answer of that credential's registration; when it carries `otpEncryptionTargetBundle`, the
   * code its registration sent is the one to enter (api.md "Credential endpoints": /challenge only
   * when it is absent), so no second code is sent; or a challenge answer a page kept for a reload.
   * One with a target whose `id` is not `credentialId` or whose `type` is not EMAIL_OTP / SMS_OTP
   * (what a page kept is outside input) is refused with `invalid_argument`, and sends no code.
   */
  startOtpLogin(options: { credentialId: string; registered?: OtpTarget } & SignalOption): Promise<OtpLogin>;
  /**
   * OAUTH: `getIdToken(nonce)` must return a fresh OIDC token whose nonce claim is `nonce`.
   * `credentialId`: the credential, or the account's several (one per provider identity, api.md),
   * the token going to each in turn until one takes it (a 401 is another identity's); or a promise
   * of them, awaited only once the token is in, so that a caller may read them (GET
   * /auth/credentials) while `getIdToken` runs: a sign-in window opens only within the click's user
   * activation, which a network wait before it may outlast. Stopped
   * (`signal`) once its verify is sent, it rejects with `aborted` at once, and the session the
   * service makes is ended when its answer comes (revoked, nothing stored or told); so do
   * loginWithPasskey and an OTP login's `submit`. Unlike that `submit`, a verify whose answer is lost
   * (no answer, a 5xx) fails, and so does loginWithPasskey's: the session the service may have made
   * cannot be found back, its key sealed in that answer alone (reference.md: never in lists), and it
   * lasts until its time.
   */
  loginWithOAuth(
    options: { credentialId: string | readonly string[] | Promise<string | readonly string[]>; getIdToken: (nonce: string, options: SignalOption) => Promise<string> } & SignalOption,
  ): Promise<StoredSession>;
  /**
   * PASSKEY: WebAuthn get through the browser (mediation 'conditional' for autofill). `passkeys`:
   * the wallet's passkeys (GET /auth/credentials), any of which this device may hold instead of
   * `credentialId`'s; the prompt offers them all, and one of them, once picked, is asked for again
   * over its own challenge (a challenge names one credential).
   */
  loginWithPasskey(options: { credentialId: string; passkeys?: AuthMethod[]; mediation?: 'conditional' } & SignalOption): Promise<StoredSession>;
  /**
   * Adds a passkey to the account; needs a live session when the account already has a credential.
   * `nickname` is sent trimmed, and must then be 1 to 100 characters (`invalid_argument` otherwise).
   * When the answer to the save is lost (network, 5xx) and the service lists the new passkey, that is the result.
   * Stopped (`signal`) after the browser made the passkey, it rejects with `aborted` at once, and the
   * passkey the service saves all the same is removed again (a live session of the account signs);
   * when that removal fails (network, 5xx, no session to sign), `changed` is emitted and `onKept`
   * told: the passkey may still be on the wallet. Stopped before the service asks for that signature,
   * nothing more is sent. The first credential of an account, which its removal would refuse, is
   * kept: stopped while it is saved, it waits for the answer and resolves with the passkey saved.
   * One registration of an account runs at a time across the origin's tabs (Web Locks, where the
   * browser has them); another waits, stoppable by its `signal`, and then excludes the passkey added.
   * `onWait(true)`: it waits for another tab's registration (no prompt yet), `onWait('here')` for one of
   * this page (one stopped while its passkey was being saved, whose removal follows); `onWait(false)`:
   * its turn came (at once when nothing else registers). One stopped before anything was signed saves
   * nothing, and the next does not wait for it.
   */
  registerPasskey(options: { accountId: string; nickname: string; onWait?: (waiting: boolean | 'here') => void; onKept?: () => void } & SignalOption): Promise<AuthMethod>;
  /**
   * PATCH /customers/{customerId} {email}, signed by the account's live session when there is one
   * (the service asks for a signature while an email login is tied to the address, which then
   * follows it). Resolves with the customer; after an answer that was lost (network, 5xx) while the
   * email login, read again, carries the new address, with its `id` and `email` only.
   */
  updateEmail(accountId: string, customerId: string, email: string, options?: SignalOption): Promise<Customer>;
  /**
   * Adds any credential (e.g. OAUTH with its token), signed by the current session when one is needed.
   * `restartBody`: the body should the signed retry start over (OAUTH: with a fresh token).
   * `recover`: given the add's failure, resolves with the credential the service saved all the same
   * (its answer lost), which is then the result, told as `changed` like one answered; or rejects.
   */
  addCredential(
    body: CreateCredentialRequest,
    options?: SignalOption & { restartBody?: () => Promise<CreateCredentialRequest>; recover?: (e: unknown) => Promise<AuthMethodResponse> },
  ): Promise<AuthMethodResponse>;
  /**
   * A new session with a new key, signed by the current key; the old local record is deleted. When
   * the service refuses because the session already ended there (no longer in its active list), the
   * record is deleted too, `ended` is emitted (unless this device holds another live session of the
   * account), and it fails with `session_expired`.
   */
  refresh(accountId: string, options?: SignalOption): Promise<StoredSession>;
  /**
   * Revokes the account's stored live sessions upstream (404 counts as done), those whose key is lost
   * here included, and deletes the account's records it found (a login's session stored meanwhile stays); signed by the freshest session whose key is here, or,
   * should the service no longer list it, by the next one it lists.
   * Resolves with the ids of the sessions it ended there, the signer last (none without one).
   * A revocation that fails stops it, and so does finding no key here to sign with (`key_missing`):
   * the records are deleted all the same, and it rejects with that error, whose `ended` holds the
   * ids of the sessions it had ended before and `remaining` those it did not end, live upstream
   * until they expire.
   */
  logout(accountId: string, options?: SignalOption): Promise<string[]>;
  /**
   * Ends one session of the account, stamped by the live one (reference.md "Sessions": any active
   * session may revoke one; 404 counts as done), and deletes this device's record and key of it
   * (DESIGN.md: keys are deleted on revocation). Ending the live session is a logout. Resolves
   * with the ids of the sessions ended, as logout does.
   */
  revokeSession(accountId: string, sessionId: string, options?: SignalOption): Promise<string[]>;
  /**
   * Removes a credential, stamped by the freshest live session this device holds of another
   * credential (api.md "Revoking a credential"; WalletError 'session_expired' when it holds none,
   * 'key_missing' when that session's key vanished),
   * and deletes this device's sessions of that credential with their keys.
   * One the account no longer has (404: removed meanwhile, from another tab or device) counts as removed.
   */
  revokeCredential(accountId: string, credentialId: string, options?: SignalOption): Promise<void>;
  /**
   * The live session of the account, or undefined; throws WalletError('key_missing') if its key vanished.
   * With `exceptCredentialId`: the live session of another credential than that one (one that can
   * sign that credential's removal), or undefined.
   */
  current(accountId: string, exceptCredentialId?: string): Promise<StoredSession | undefined>;
  /**
   * A Stamper over the live session's key; WalletError 'session_expired' or 'key_missing' otherwise.
   * A call it signs that the service refuses because the session ended there (revoked from another
   * device, renewed by another tab: no longer in the active list) has the session's record and key
   * deleted; it is signed again by the live session this device holds instead, when the service
   * lists one (the renewed one), and otherwise fails with `session_expired`, `ended` emitted as for
   * a refused renewal; so do revokeSession, revokeCredential, registerPasskey, addCredential and
   * exportRecoveryPhrase.
   */
  stamper(accountId: string): Promise<Stamper>;
  /** Exports the wallet's recovery phrase through a fresh receiver key; returns the plaintext. */
  exportRecoveryPhrase(accountId: string, verification: ExportVerification, options?: SignalOption): Promise<string>;
  /** Session changes made through this object (login, refresh, logout, a credential added or removed, a session ended). Returns the unsubscribe. */
  subscribe(listener: (change: SessionChange) => void): () => void;
}

const HEX_UNCOMPRESSED = /^04[0-9a-f]{128}$/;

/**
 * The sessions whose end was told, by any wallet of the page: two calls that find one end at once
 * (two refusals of its signature, two look-ups of its expired record, through two wallets over one
 * key store: the elements' of two base paths) tell it once.
 */
const endsTold = new Set<string>();

/** True for the errors that mean "no usable session on this device" (none, expired, key gone). */
function isNoSession(e: unknown): boolean {
  return e instanceof WalletError && (e.code === 'session_expired' || e.code === 'key_missing');
}

/**
 * What a failed removal means. A 404: what was to be revoked is unknown, expired or already
 * revoked, so done (reference.md). No answer (the connection dropped, none in time) or a 5xx: the
 * service may have made it all the same, and a repeat would then be refused, so done when its
 * `list`, read again, no longer holds `id`. Otherwise, or when that list cannot be read, it failed.
 */
const unlessGone = (list: () => Promise<Array<{ id: string }>>, id: string) => async (e: unknown) => {
  const status = isServiceError(e) ? e.status : 500;
  if (status !== 404 && (status < 500 || (await list().catch(() => [{ id }])).some((x) => x.id === id))) throw e;
};

const keyMissing = () => new WalletError('key_missing', 'This device no longer holds your session key (the browser cleared its storage). Log in again.');

function aborted(signal: AbortSignal | undefined): WalletError {
  return new WalletError('aborted', 'The login was aborted.', { cause: signal?.reason });
}

/** The Web Locks this page holds. */
const held = new Set<string>();

/**
 * `run`, holding the origin's Web Lock `name` (one holder at a time across its tabs) where the
 * browser has Web Locks, at once otherwise; `signal` stops the wait for the lock. `onWait`, when
 * given, is told `true` when another tab holds the lock and this call waits (`'here'`: this page
 * holds it), and `false` as it runs.
 */
function withLock<T>(name: string, run: () => Promise<T>, signal?: AbortSignal, onWait?: (waiting: boolean | 'here') => void): Promise<T> {
  const origin = globalThis.navigator?.locks;
  const key = `wallet-elements:${name}`;
  const go = () => (onWait?.(false), held.add(key), run().finally(() => held.delete(key)));
  const queue = () => origin!.request(key, { signal }, go) as Promise<T>;
  // Without `onWait` nobody asks whether it waits: straight into the queue.
  return !origin ? go() : onWait ? (origin.request(key, { ifAvailable: true }, (lock) => (lock ? go() : (onWait(held.has(key) ? 'here' : true), queue()))) as Promise<T>) : queue();
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw aborted(signal);
}

export function createWallet(options: WalletOptions): Wallet {
  const { client, store } = options;
  if (!client || !store) throw new WalletError('invalid_argument', 'createWallet needs a client and a store.');
  if (typeof options.otpSigner !== 'string' || !HEX_UNCOMPRESSED.test(options.otpSigner)) {
    throw new WalletError('invalid_argument', 'otpSigner must be an uncompressed P-256 public key in hex.');
  }
  const otpSigner = options.otpSigner;
  const now = options.now ?? (() => Date.now());
  const margin = options.expiryMarginMs ?? 5000;
  const listeners = new Set<(change: SessionChange) => void>();
  // One flow at a time per account for the calls that replace or remove its key.
  const locks = new Map<string, Promise<unknown>>();

  function emit(change: SessionChange): void {
    for (const l of [...listeners]) {
      try {
        l(change);
      } catch {
        // A listener's failure is its own; the flow already succeeded.
      }
    }
  }

  function tellEnded(accountId: string, sessionId: string, revoked?: true): void {
    if (!endsTold.has(sessionId)) emit({ type: 'ended', accountId, revoked });
    endsTold.add(sessionId);
  }

  /**
   * One flow at a time per account, in this page (the chain below) and across the origin's tabs
   * (Web Locks, where the browser has them): two tabs renewing one session at once would each send
   * the same old session, and the second would be refused (the first revoked it) and log its tab
   * out. Under the lock the second renews the session the first stored.
   */
  function serialized<T>(accountId: string, run: () => Promise<T>): Promise<T> {
    const prev = locks.get(accountId) ?? Promise.resolve();
    const locked = () => withLock(accountId, run);
    const next = prev.then(locked, locked);
    const tail = next.catch(() => undefined);
    locks.set(accountId, tail);
    void tail.then(() => {
      if (locks.get(accountId) === tail) locks.delete(accountId);
    });
    return next;
  }

  function isLive(s: StoredSession): boolean {
    return now() < sessionEnd(s) - margin;
  }

  async function save(session: AuthSession, credentialId: string, key: KeyPair): Promise<StoredSession> {
    // The service's own times give the session's lifetime, which a device clock minutes off (behind
    // a proxy that hides the Date header, clock.ts) cannot: it is timed from now, on this device.
    const lifetime = Date.parse(session.expiresAt) - Date.parse(session.createdAt!);
    const stored: StoredSession = {
      accountId: session.accountId,
      credentialId,
      credentialType: session.type,
      sessionId: session.id,
      expiresAt: session.expiresAt,
      publicKey: bytesToHex(compressPublicKey(key.publicKey)),
      // Without a readable createdAt before expiresAt: the local time, and expiresAt as the clock reads it.
      createdAt: lifetime > 0 ? session.createdAt! : new Date(now()).toISOString(),
      endsAt: lifetime > 0 ? now() + lifetime : sessionEnd(session),
    };
    await store.put(stored, key);
    return stored;
  }

  /** Deletes the stored sessions (records and keys) that `pick` selects, of those `listed` (read now when not given). */
  async function forgetWhere(pick: (s: StoredSession) => boolean, listed = store.list()): Promise<StoredSession[]> {
    const gone = (await listed).filter(pick);
    for (const s of gone) await store.delete(s.sessionId);
    return gone;
  }

  const sessionEnded = (e: unknown) => new WalletError('session_expired', 'The service ended this session (it expired or was revoked). Log in again to continue.', { cause: e });

  /**
   * What the service's refusal `e` of a call signed with `session`'s key means. A 401 or 404 while
   * the service no longer lists the session (reference.md: GET /auth/sessions lists the active ones)
   * says it ended there: revoked from another device, renewed by another tab, or expired on the
   * service's clock. Its record and key go. The live session this device holds instead, when the
   * service lists it (the one another tab renewed it into, or an older login; of another credential
   * than `except`), is answered, to sign the call again; with none live, `ended` is told; and
   * otherwise it is `session_expired`. Otherwise (the proxy's own credentials refused, a list that
   * cannot be read) the refusal stands.
   */
  async function refusal(session: StoredSession, e: unknown, signal?: AbortSignal, except?: string): Promise<{ session: StoredSession; key: KeyPair }> {
    if (isServiceError(e) && (e.status === 401 || e.status === 404)) {
      const { accountId, sessionId } = session;
      const active = await client.listSessions(accountId, { signal }).catch(() => undefined);
      if (active && !active.some((s) => s.id === sessionId)) {
        await store.delete(sessionId);
        const left = await store.get(accountId);
        if (left && isLive(left.session)) {
          // The live session this device holds instead signs anew, when the service lists it.
          const next = await keyed(accountId, except).catch(() => undefined);
          if (next && active.some((s) => s.id === next.session.sessionId)) return next;
        } else {
          // An older record left (expired) goes too, rather than be found and told ended again.
          await forgetWhere((s) => s.accountId === accountId && !isLive(s));
          // Revoked when its time is not up on the service's clock (the list's answer just read it,
          // clock.ts); otherwise it ended at its time, this device's clock behind.
          tellEnded(accountId, sessionId, Date.parse(session.expiresAt) > serviceNow() || undefined);
        }
        throw sessionEnded(e);
      }
    }
    throw e;
  }

  /** A Stamper over a live session's key that, refused, tells whether the session ended upstream (`refusal`). */
  const sessionStamper = ({ session, key }: { session: StoredSession; key: KeyPair }, except?: string): Stamper => ({
    ...keyStamper(key),
    refused: (e) => refusal(session, e, undefined, except).then((next) => sessionStamper(next, except)),
  });

  /** Ends session `id` upstream, signed with `key` (its own, when nothing here could sign for it again). */
  const end = (id: string, key: KeyPair) => client.revokeSession(id, { stamper: keyStamper(key) }).catch(() => undefined);

  /** The session a verify answered, with its key from the bundle encrypted to `receiver` (wire format 4: its scalar wiped). */
  const withBundleKey = (verify: Promise<AuthSession & { encryptedSessionSigningKey: string }>, receiver: KeyPair) =>
    verify.then(async (session): Promise<[AuthSession, KeyPair]> => [session, await importSessionKeyBundle(session.encryptedSessionSigningKey, receiver)]);

  /**
   * Renews session `sessionId`, signed by its key `key`: the new session and its key. reference.md:
   * the answer may seal a service-chosen key to the public key sent (encryptedSessionSigningKey);
   * otherwise the key sent becomes the session key. One scalar serves both: a non-extractable ECDSA
   * key and a non-extractable ECDH receiver.
   */
  async function renew(sessionId: string, key: KeyPair, signal?: AbortSignal): Promise<[AuthSession, KeyPair]> {
    const { signing, receiver } = await generateDualKey();
    const next = await client.refreshSession(sessionId, bytesToHex(signing.publicKey), { stamper: keyStamper(key), signal });
    return [next, next.encryptedSessionSigningKey === undefined ? signing : await importSessionKeyBundle(next.encryptedSessionSigningKey, receiver)];
  }

  /**
   * An OTP login whose verify failed with `e` without an answer (the connection dropped, none in
   * time, a 5xx): its signed retry may have made the session all the same, bound to `key`, which this
   * device holds. The active list (reference.md "Sessions", read back once) names no key: its newest
   * sessions of `type` (at most three) are renewed in turn, signed by `key`, which the service takes
   * for a session's renewal only when it is that session's own (*current*) key; the others refuse it
   * and are left as they were. Renewed, it was the login's, and the renewed one (a full lifetime) is the login's session;
   * with none, `e` stands. (OAUTH and PASSKEY logins have no such way back: their session key comes
   * sealed in the answer lost.)
   */
  async function madeAnyway(e: unknown, accountId: string, type: string, key: KeyPair): Promise<[AuthSession, KeyPair]> {
    if (!isServiceError(e) || e.status > 499) {
      const made = (await client.listSessions(accountId).catch(() => [])).filter((s) => s.type === type);
      // The newest first, and no more than three: the login's own was just made (the account's
      // older sessions, other devices' and tabs', would each cost a signed renewal refused).
      made.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
      for (const s of made.slice(0, 3)) {
        try {
          return await renew(s.id, key);
        } catch {
          // Not its key: another login's session, left as it was.
        }
      }
    }
    throw e;
  }

  /**
   * `made` (a call not cut off once sent: the service carries it out all the same), unless `signal`
   * stops it first: then it rejects with `aborted` at once, and `undo` (if given) takes back what
   * `made` brings when it comes.
   */
  function uncut<T>(made: Promise<T>, signal: AbortSignal | undefined, undo?: (value: T) => unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const stop = () => {
        reject(aborted(signal));
        made.then(undo).catch(() => undefined);
      };
      if (signal?.aborted) stop();
      else signal?.addEventListener('abort', stop);
      // The listener goes as the answer comes in, in the same step: a later stop is the caller's to handle.
      const off = () => signal?.removeEventListener('abort', stop);
      made.then((value) => (off(), resolve(value)), (e: unknown) => (off(), reject(e)));
    });
  }

  /**
   * Stores the session a login's verify made (`made`: it and its key) and tells the listeners; the
   * account's ended records go. A verify is not cut off once sent (the service would make the
   * session all the same, live upstream with its key lost here): a login stopped (`signal`) before
   * its session is stored rejects with `aborted` at once, without waiting on the service, and the
   * session is ended when its answer comes. So is one the key store refuses (storage_unavailable).
   */
  async function loggedIn(made: Promise<[AuthSession, KeyPair]>, credentialId: string, signal?: AbortSignal): Promise<StoredSession> {
    // The stored sessions are read while the verify is on its way, for the clean-up after the save:
    // the new session is not among them (and would be left anyway), and each is judged live or not
    // only then. A read refused fails the login there, as a read after the save would.
    const listed = store.list();
    listed.catch(() => undefined);
    const [session, key] = await uncut(made, signal, ([s, k]) => end(s.id, k));
    let stored: StoredSession;
    try {
      throwIfAborted(signal);
      stored = await save(session, credentialId, key);
    } catch (e) {
      // Stopped, or the key store refused: ended upstream now, with the key still in hand, rather than left live for nobody.
      await end(session.id, key);
      throw e;
    }
    await forgetWhere((s) => s.accountId === stored.accountId && s.sessionId !== stored.sessionId && !isLive(s), listed);
    emit({ type: 'logged-in', accountId: stored.accountId, session: stored });
    return stored;
  }

  /**
   * The live session and its key, or the WalletError that says why there is none; with `except`,
   * of another credential than that one ('ended' is told only when the account has no live session;
   * with `except`, a vanished key leaves it to a call without, as the account's own session may live).
   */
  async function live(accountId: string, except?: string): Promise<{ session: StoredSession; key: KeyPair }> {
    const found = await store.get(accountId, except);
    // A KeyStore written before get() took `except` answers that credential's session all the same.
    if (!found || found.session.credentialId === except) {
      throw new WalletError('session_expired', 'There is no session for this wallet on this device. Log in to continue.');
    }
    if (!isLive(found.session)) {
      // It goes, with the account's other ended records (each would be found and told ended in
      // turn). An older record may still be live (another login); otherwise report the expiry.
      await forgetWhere((s) => s.accountId === accountId && !isLive(s));
      const other = await store.get(accountId);
      if (other && isLive(other.session)) return live(accountId, except);
      tellEnded(accountId, found.session.sessionId);
      throw new WalletError('session_expired', 'Your session has expired. Log in again to continue.');
    }
    if (!found.key) {
      // The record outlived its key (storage evicted or cleared): unusable, and said so.
      await store.delete(found.session.sessionId);
      // With `except`, the account's session of that credential may still be live: not ended then.
      if (!except) tellEnded(accountId, found.session.sessionId);
      throw keyMissing();
    }
    // The store's answer, its key now known to be there.
    return found as { session: StoredSession; key: KeyPair };
  }

  /**
   * `live`, passing over the freshest live sessions whose key is lost here (their records go: any
   * session of the account may sign their end, reference.md "Sessions"), to the freshest one that can
   * sign; `key_missing` when none is left, the last lost one told `ended` as `live` would.
   */
  async function keyed(accountId: string, except?: string): Promise<{ session: StoredSession; key: KeyPair }> {
    let lost: string | undefined;
    for (let f; (f = await store.get(accountId, except)) && isLive(f.session) && !f.key; ) await store.delete((lost = f.session.sessionId));
    return live(accountId, except).catch((e: unknown) => {
      throw lost && isNoSession(e) ? (except || tellEnded(accountId, lost), keyMissing()) : e;
    });
  }

  const wallet: Wallet = {
    async startOtpLogin({ credentialId, registered, signal }) {
      // A target given is the code already sent, never one to send anew: one that is not this
      // credential's OTP answer (a page's kept copy is outside input) is refused.
      const kept = registered?.otpEncryptionTargetBundle;
      if (kept && (registered.id !== credentialId || !['EMAIL_OTP', 'SMS_OTP'].includes(registered.type))) {
        throw new WalletError('invalid_argument', 'registered must be an OTP answer of credentialId.');
      }
      const challenge = kept ? (registered as OtpTarget & { otpEncryptionTargetBundle: string }) : await client.requestOtpChallenge(credentialId, { signal });
      // DESIGN.md security rules: the target is trusted only once its signer is the pinned key.
      const targetPublic = await verifyTargetBundle(challenge.otpEncryptionTargetBundle, otpSigner);
      const type = challenge.type as 'EMAIL_OTP' | 'SMS_OTP';
      const login: OtpLogin = {
        accountId: challenge.accountId,
        credentialId: challenge.id,
        type,
        otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle,
        async submit(code, submitOptions = {}) {
          const s = submitOptions.signal;
          if (typeof code !== 'string' || !/^[0-9A-Za-z]{1,64}$/.test(code.trim())) {
            throw new WalletError('invalid_argument', 'Enter the code you received.');
          }
          throwIfAborted(s);
          // Wire format 3: the key named in the bundle signs leg 2 and becomes the session key, so
          // it is born non-extractable. A fresh key per attempt: a refused attempt's key is dropped.
          const key = await generateSigningKey();
          const encryptedOtpBundle = await encryptOtpBundle({ otpCode: code.trim(), targetPublic, clientPublicKey: key.publicKey });
          // Not cut off midway (see loggedIn): its second leg makes the session upstream.
          const made = client.verifyOtp(credentialId, { type, encryptedOtpBundle }, { stamper: keyStamper(key) });
          return loggedIn(made.then((session): [AuthSession, KeyPair] => [session, key], (e) => madeAnyway(e, challenge.accountId, type, key)), credentialId, s);
        },
      };
      return login;
    },

    async loginWithOAuth({ credentialId, getIdToken, signal }) {
      if (typeof getIdToken !== 'function') throw new WalletError('invalid_argument', 'getIdToken must be a function.');
      const receiver = await generateEncryptionKey();
      const clientPublicKey = bytesToHex(receiver.publicKey);
      // Wire format 5: the token is bound to this receiver key through its nonce.
      const oidcToken = await getIdToken(await sha256Hex(clientPublicKey), signal ? { signal } : {});
      if (typeof oidcToken !== 'string' || oidcToken.split('.').length !== 3) {
        throw new WalletError('invalid_argument', 'getIdToken must return a JWT.');
      }
      throwIfAborted(signal);
      // Each identity in turn until one takes the token (the others refuse it: 401).
      const verify = ([id, ...rest]: readonly string[]): Promise<StoredSession> =>
        loggedIn(withBundleKey(client.verifyOAuth(id!, { oidcToken, clientPublicKey }), receiver), id!, signal).catch((e) => {
          if (rest[0] && e?.status == 401) return verify(rest);
          throw e;
        });
      return verify([await credentialId].flat());
    },

    async loginWithPasskey({ credentialId, passkeys = [], signal, mediation }) {
      const receiver = await generateEncryptionKey();
      const clientPublicKey = bytesToHex(receiver.publicKey);
      const challenge = await client.requestPasskeyChallenge(credentialId, clientPublicKey, { signal });
      const others = passkeys.filter((p) => p.id !== credentialId);
      const otherCredentialIds = others.map((p) => p.credentialId!);
      const assertion = await getPasskeyAssertion({ credentialId: challenge.credentialId, otherCredentialIds, challenge: challenge.challenge, mediation, signal });
      // The device holds another of the wallet's passkeys: a login with that one, over its own challenge.
      const other = others.find((p) => p.credentialId === assertion.credentialId);
      if (other) return wallet.loginWithPasskey({ credentialId: other.id, signal });
      return loggedIn(withBundleKey(client.verifyPasskey(credentialId, { assertion, requestId: challenge.requestId }), receiver), credentialId, signal);
    },

    async registerPasskey({ accountId, nickname: untrimmed, signal, onWait, onKept }) {
      // The service's limit (1 to 100 characters) applies to the nickname sent, which is trimmed.
      const nickname = typeof untrimmed === 'string' ? untrimmed.trim() : '';
      if (!nickname || nickname.length > 100) {
        throw new WalletError('invalid_argument', 'nickname must be 1 to 100 characters.');
      }
      // One registration at a time per account across the origin's tabs (Web Locks, where the
      // browser has them): every passkey of the account carries its one user handle, and an
      // authenticator keeps one passkey per user, so a second tab's prompt, open at the same time,
      // would replace the first tab's passkey there while the service keeps both. In turn, the
      // second lists the first's passkey, whose authenticator it then excludes. Cancel stops the wait.
      return new Promise<AuthMethod>((resolve, reject) => {
        let signed = false;
        const register = async () => {
          const existing = await client.listCredentials(accountId, { signal });
          // Find out before the ceremony whether a signature will be needed, so the user is not asked
          // for a passkey only to be told to log in afterwards.
          let stamper: Stamper | undefined;
          if (existing.length > 0) {
            try {
              await wallet.stamper(accountId);
            } catch (e) {
              if (e instanceof WalletError && e.code === 'key_missing') throw e;
              throw new WalletError(
                'session_expired',
                'Log in to this wallet first: adding a passkey to a wallet that already has a login needs a signature from an active session.',
                { cause: e },
              );
            }
            // The key is the one live when the payload is signed, after the prompt (and after a renewal
            // under way, which holds the account's lock): a session renewed while the prompt was open
            // has replaced the key there was before it, and the service refuses that key's stamp.
            // Refused, the session that signed tells (`refusal`): ended there, the live one signs anew, through this stamper.
            let signer: Stamper;
            // Signed, the passkey may be saved: the lock is held until it is removed again.
            // Stopped before the service asks for the signature (its first answer, 202, saves nothing):
            // the exchange ends there, nothing signed, saved or to remove.
            stamper = {
              stamp: (payload) => serialized(accountId, () => wallet.stamper(accountId)).then((live) => (throwIfAborted(signal), (signed = true), (signer = live).stamp(payload))),
              refused: (e) => signer.refused!(e).then(() => stamper),
            };
          }
          const optionsJSON = await client.webauthnRegistrationOptions(accountId, { signal });
          const attestation = await createPasskey({
            optionsJSON,
            excludeCredentialIds: existing.filter((c) => c.type === 'PASSKEY' && c.credentialId).map((c) => c.credentialId as string),
            signal,
          });
          const body = { type: 'PASSKEY', accountId, nickname, challenge: optionsJSON.challenge, attestation } as const;
          const saving = client.createCredential(body, { stamper }).catch(async (e: unknown) => {
            // The service may have saved the passkey when its answer was lost (the network, a 5xx, an
            // unreadable answer): its list tells. Saved, it is the outcome; a second ceremony could not
            // even start, the authenticator refusing a passkey the wallet already holds.
            const unknown = (e instanceof WalletError && (e.code === 'network' || e.code === 'unexpected_response')) || (isServiceError(e) && e.status >= 500);
            const saved = unknown && (await client.listCredentials(accountId).then((list) => list.find((c) => c.type === 'PASSKEY' && c.credentialId === attestation.credentialId), () => undefined));
            if (!saved) throw e;
            return saved;
          });
          // The save is not cut off once the passkey exists (the service would keep it all the same, a
          // passkey the user cancelled): stopped meanwhile, it fails at once, and the passkey the service
          // saves is removed again, signed by the session that added it. A wallet's first credential,
          // saved by the first request, cannot be removed (the only one, and no session to sign): a stop
          // then waits for the answer, and a passkey saved is the result (the caller says it is kept).
          uncut(saving, stamper && signal).then(resolve, reject);
          // The lock is held until then, so that the next tab lists what this one added. Kept, the passkey
          // is told at once: whether a login with it follows is the caller's (a user may cancel that).
          // A removal that failed leaves it on the wallet, as far as this page knows: the lists show it,
          // and the caller, whose registration already ended with `aborted`, tells the user.
          // Stopped before it signed, it saves nothing: the lock is free at once.
          const changed = () => emit({ type: 'changed', accountId });
          await Promise.race([
            saving.then<unknown>((saved) => (stamper && signal?.aborted ? wallet.revokeCredential(accountId, saved.id).catch(() => (changed(), onKept?.())) : changed())).catch(() => undefined),
            new Promise((free) => signal?.addEventListener('abort', () => stamper && !signed && free(0))),
          ]);
        };
        // Stopped while it waits, the lock's request rejects with the signal's reason.
        withLock(`passkey:${accountId}`, register, signal, onWait).catch((e: unknown) => reject(e === signal?.reason ? aborted(signal) : e));
      });
    },

    async addCredential(body, addOptions = {}) {
      // No live session: fine for an account without credentials (201); a 202 then says why.
      const stamper = await wallet.stamper(body.accountId).catch((e: unknown) => {
        if (!isNoSession(e)) throw e;
        return undefined;
      });
      const added = await client.createCredential(body, { ...addOptions, stamper }).catch(addOptions.recover);
      // The account's lists, shown in this page and in other tabs, now hold it.
      emit({ type: 'changed', accountId: body.accountId });
      return added;
    },

    async updateEmail(accountId, customerId, email, options = {}) {
      // Without a session the change still goes through while no email login is tied to the address.
      const stamper = await wallet.stamper(accountId).catch(() => undefined);
      const customer = await client.updateCustomerEmail(customerId, email, { ...options, stamper }).catch(async (e: unknown) => {
        // No answer (the connection dropped, none in time) or a 5xx: the service may have saved it all
        // the same. Then the email login, read again, carries the address (api.md "PATCH /customers").
        const lost = !isServiceError(e) || e.status >= 500;
        if (!lost || !(await client.listCredentials(accountId, options).catch(() => [])).some((c) => c.type === 'EMAIL_OTP' && c.nickname === email)) throw e;
        return { id: customerId, email } as Customer;
      });
      // The email login's row, shown in this page and in other tabs, now carries the new address.
      emit({ type: 'changed', accountId });
      return customer;
    },

    refresh(accountId, refreshOptions = {}) {
      return serialized(accountId, async () => {
        const { session: old, key: oldKey } = await live(accountId);
        const signal = refreshOptions.signal;
        let next: AuthSession;
        let key: KeyPair;
        try {
          [next, key] = await renew(old.sessionId, oldKey, signal);
        } catch (e) {
          // reference.md: 401 once the session expired (or was revoked elsewhere), 404 when unknown.
          // A 401 may also be the proxy's credentials, which end no session: the active list decides.
          // Another live session left (an older login) is not renewed in this one's place: it ended.
          await refusal(old, e, signal);
          throw sessionEnded(e);
        }
        if (next.accountId !== old.accountId) {
          throw new WalletError('unexpected_response', 'The refreshed session belongs to another account.');
        }
        const stored = await save(next, old.credentialId, key);
        await store.delete(old.sessionId);
        emit({ type: 'refreshed', accountId, session: stored });
        return stored;
      });
    },

    logout(accountId, logoutOptions = {}) {
      return serialized(accountId, async () => {
        const signal = logoutOptions.signal;
        let failure: unknown;
        let left: string[] = [];
        const ended: string[] = [];
        // What this logout ends and forgets: a login that stores a session meanwhile (another element,
        // another tab: logins do not wait for this lock) keeps it, record and key, live upstream.
        // (Awaited at once in the try: a refusal is handled there.)
        const listed = store.list();
        try {
          // Every live session of the account stored here, its key lost or not: any active session
          // may sign the end of any (reference.md "Sessions"), so one whose key is lost is ended too.
          left = (await listed).filter((s) => s.accountId === accountId && isLive(s)).map((s) => s.sessionId);
          // The freshest session whose key is here signs. Refused because it ended upstream (revoked
          // from another device), the next one the service lists signs instead (`refusal`), and the
          // revocation is picked again, so that the new signer's own still goes last.
          let signer = await keyed(accountId);
          const again = {};
          const stamper: Stamper = {
            stamp: (payload) => keyStamper(signer.key).stamp(payload),
            refused: async (e) => {
              signer = await refusal(signer.session, e, signal);
              throw again;
            },
          };
          while (left.length) {
            // The signer's own end goes last: once revoked, its key can sign nothing more.
            const id = left.find((x) => x !== signer.session.sessionId) ?? left[0]!;
            const done = await client.revokeSession(id, { stamper, signal }).then(
              () => true,
              (e: unknown) => e !== again && unlessGone(() => client.listSessions(accountId, { signal }), id)(e).then(() => true),
            );
            if (done) (ended.push(id), (left = left.filter((x) => x !== id)));
          }
        } catch (e) {
          failure = e;
        } finally {
          // Keys are deleted even if the service could not be reached: this device is logged out.
          await forgetWhere((s) => s.accountId === accountId, listed);
          emit({ type: 'logged-out', accountId });
        }
        // Without a session here, nothing was to be ended; otherwise those left stay live upstream
        // until they expire (no key here could sign their end, or the service could not be reached).
        if (failure && (left.length || !isNoSession(failure))) throw Object.assign(failure as object, { ended, remaining: left });
        return ended;
      });
    },

    async revokeSession(accountId, sessionId, options = {}) {
      const signer = await live(accountId);
      if (signer.session.sessionId === sessionId) return wallet.logout(accountId, options);
      const { signal } = options;
      await client.revokeSession(sessionId, { stamper: sessionStamper(signer), signal }).catch(unlessGone(() => client.listSessions(accountId, { signal }), sessionId));
      await store.delete(sessionId);
      // Signed anew by the very session it ended (the one that signed had ended elsewhere): none is left here.
      if (!(await store.get(accountId))) tellEnded(accountId, sessionId);
      // The account's lists, shown in this page and in other tabs, no longer hold that session.
      emit({ type: 'changed', accountId });
      return [sessionId];
    },

    async revokeCredential(accountId, credentialId, options = {}) {
      // The service takes the stamp of a session of another credential only.
      const signer = await live(accountId, credentialId);
      // 404: the account no longer has it (removed meanwhile elsewhere), or its list no longer does after
      // the answer was lost: done, as for a session.
      const { signal } = options;
      await client.revokeCredential(credentialId, { stamper: sessionStamper(signer, credentialId), signal }).catch(unlessGone(() => client.listCredentials(accountId, { signal }), credentialId));
      // Its sessions held here ended with it; each is logged out all the same (404: already ended), as
      // a logout would, so that what a proxy keeps for them in this browser (a card step-up grant,
      // proxy/step-up.ts) goes too rather than outlive a logout.
      for (const s of await forgetWhere((s) => s.accountId === accountId && s.credentialId === credentialId)) await end(s.sessionId, signer.key);
      // The account's lists, shown in this page and in other tabs, no longer hold that credential.
      emit({ type: 'changed', accountId });
    },

    async current(accountId, exceptCredentialId) {
      try {
        return (await live(accountId, exceptCredentialId)).session;
      } catch (e) {
        if (e instanceof WalletError && e.code === 'session_expired') return undefined;
        throw e;
      }
    },

    async stamper(accountId) {
      // Its publicKey is the stored session's: both are the compressed hex of this key.
      return sessionStamper(await live(accountId));
    },

    async exportRecoveryPhrase(accountId, verification, exportOptions = {}) {
      const stamper = await wallet.stamper(accountId);
      const receiver = await generateEncryptionKey();
      const res = await client.exportWallet(accountId, bytesToHex(receiver.publicKey), { stamper, signal: exportOptions.signal });
      return decryptExportEnvelope(res.encryptedWalletCredentials, receiver, verification);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return wallet;
}
