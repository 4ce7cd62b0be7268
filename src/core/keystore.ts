/**
 * Where session keys live between page loads (DESIGN.md "Security rules": session keys).
 *
 * A KeyStore keeps, per session, the session's metadata (StoredSession) and its key pair. Several
 * accounts and several sessions per account coexist; `get(accountId)` answers the freshest one.
 * The browser store is IndexedDB through idb-keyval, in a database of its own; private keys are
 * stored as the non-extractable CryptoKey objects themselves (structured clone keeps them
 * non-extractable), never as hex, never in localStorage. `memoryKeyStore()` serves Node and tests.
 *
 * Metadata and key are two records, `session:<sessionId>` and `key:<sessionId>`, written in one
 * transaction. If the key record is gone (or holds no CryptoKey) while the metadata is still there
 * (storage partly evicted or cleared by another tab, or a browser that cannot persist CryptoKeys),
 * `get` reports `key: undefined` so the caller can say "log in again" (WalletError 'key_missing'),
 * and `get` and `list` mark that session `keyMissing`; its record stays until its session goes.
 * A session record that cannot be read (not a whole StoredSession under its own id) is passed over
 * and deleted with its key record on the next read; records under other names are left alone.
 * Whole means the seven string fields of StoredSession, non-empty; more fields are kept (and not
 * read), so a later version may add some. One that changes those seven must store its sessions
 * under other names: a tab of this version, still open on the origin, would delete them.
 *
 * Not here: expiry decisions and deletion on expiry (session.ts), any crypto.
 */
import { createStore, delMany, entries, setMany, type UseStore } from 'idb-keyval';
import { WalletError } from './errors.ts';
import type { CredentialType } from './types.ts';
import type { KeyPair } from './p256.ts';

export interface StoredSession {
  accountId: string;
  /** The AuthMethod id (`AuthMethod:<uuid>`) the session was obtained with. */
  credentialId: string;
  credentialType: CredentialType;
  /** `Session:<uuid>` */
  sessionId: string;
  /** ISO 8601, from the service. */
  expiresAt: string;
  /** Compressed P-256 public key of the session key, hex (66 chars). */
  publicKey: string;
  /** ISO 8601: when the session was created (the service's createdAt, else the local time). */
  createdAt: string;
  /**
   * When the session ends, in ms since the epoch on this device's clock: its arrival plus its
   * lifetime (createdAt to expiresAt, both on the service's clock), so that a device clock minutes
   * off neither ends it on arrival nor keeps it past its end (session.ts isLive). Absent from
   * records of earlier versions.
   */
  endsAt?: number;
  /**
   * Set by the store on a session it answers without its key (storage partly evicted or cleared):
   * this device can sign nothing with it any more. Never stored. A KeyStore that does not set it is
   * taken to hold every key it lists.
   */
  keyMissing?: true;
}

export interface KeyStore {
  /** Stores a session and its key (replacing a session with the same id). */
  put(session: StoredSession, key: KeyPair): Promise<void>;
  /**
   * The freshest session of the account (latest expiresAt, then createdAt), with its key; `key`
   * undefined means the key vanished. Undefined when the account has no stored session. With
   * `exceptCredentialId`, sessions obtained with that credential are left out (a credential's
   * removal is signed by a session of another one). A store written before this parameter, which
   * ignores it, still serves: createWallet takes a session of that credential for none, so such a
   * store signs everything but the removal of the credential of its freshest session.
   */
  get(accountId: string, exceptCredentialId?: string): Promise<{ session: StoredSession; key: KeyPair | undefined } | undefined>;
  /** Every stored session, all accounts (one whose key vanished marked `keyMissing`). */
  list(): Promise<StoredSession[]>;
  /** Deletes one session and its key. */
  delete(sessionId: string): Promise<void>;
  /** Deletes every session of one account, or of all accounts. */
  clear(accountId?: string): Promise<void>;
}

const SESSION_PREFIX = 'session:';
const KEY_PREFIX = 'key:';

/** The required fields of a StoredSession: with `endsAt`, nothing else is stored. */
const SESSION_FIELDS = ['accountId', 'credentialId', 'credentialType', 'sessionId', 'expiresAt', 'publicKey', 'createdAt'] as const;

/** The first field of `session` that is not a non-empty string (undefined: a whole StoredSession). */
const badField = (session: StoredSession | null | undefined): string | undefined => SESSION_FIELDS.find((f) => typeof session?.[f] !== 'string' || !session[f]);

function checkSession(session: StoredSession): void {
  const f = badField(session);
  if (f) throw new WalletError('invalid_argument', `session.${f} must be a non-empty string.`);
}

/** A key record (or a key to store) as a KeyPair; anything but a CryptoKey and its public bytes is no key: gone, never signed with. */
function asKey(stored: unknown): KeyPair | undefined {
  const k = stored as Partial<KeyPair> | undefined;
  return k?.privateKey instanceof CryptoKey && k.publicKey instanceof Uint8Array ? (k as KeyPair) : undefined;
}

function checkKey(key: KeyPair): void {
  if (!asKey(key)) {
    throw new WalletError('invalid_argument', 'key must be a KeyPair.');
  }
  // A key that can be exported would defeat the store's purpose (DESIGN.md: extractable: false).
  if (key.privateKey.extractable) {
    throw new WalletError('invalid_argument', 'key.privateKey must be non-extractable.');
  }
}

/** Orders sessions by expiresAt, then createdAt, both descending (the freshest first). */
function freshestFirst({ session: a }: { session: StoredSession }, { session: b }: { session: StoredSession }): number {
  // A difference of 0, or NaN (a date that does not parse), passes on to the next; sort() takes a
  // last NaN for 0 (equal).
  return Date.parse(b.expiresAt) - Date.parse(a.expiresAt) || Date.parse(b.createdAt) - Date.parse(a.createdAt);
}

/** A copy, so that callers cannot mutate what is stored (and structured clone matches). */
function copySession(s: StoredSession): StoredSession {
  const copy = Object.fromEntries(SESSION_FIELDS.map((f) => [f, s[f]])) as unknown as StoredSession;
  if (Number.isFinite(s.endsAt)) copy.endsAt = s.endsAt;
  return copy;
}

/** The records a KeyStore keeps, in idb-keyval's terms: IndexedDB in browsers, a Map elsewhere. */
interface Records {
  entries(): Promise<[IDBValidKey, unknown][]>;
  setMany(pairs: [string, unknown][]): Promise<void>;
  delMany(keys: IDBValidKey[]): Promise<void>;
}

/** The KeyStore contract over `records`: `session:<id>` holds a StoredSession, `key:<id>` its KeyPair. */
function recordStore(records: Records): KeyStore {
  /** The sessions asked for, the freshest first, each with its key as read in the same pass. */
  async function sessions(accountId?: string, exceptCredentialId?: string): Promise<Array<{ session: StoredSession; key: KeyPair | undefined }>> {
    const out: Array<{ session: StoredSession; key: KeyPair | undefined }> = [];
    /** Records of this store that can never be used: deleted, so that they do not pile up. */
    const unusable: IDBValidKey[] = [];
    const all = new Map(await records.entries());
    for (const [k, v] of all) {
      const s = v as StoredSession | null;
      // Only a whole session under its own id counts: a record that another version wrote, or a
      // broken write left, must neither fail every read nor hide the account's live session.
      if (k === SESSION_PREFIX + s?.sessionId && !badField(s)) {
        if ((accountId === undefined || s!.accountId === accountId) && s!.credentialId !== exceptCredentialId) {
          const session = copySession(s!);
          const key = asKey(all.get(KEY_PREFIX + s!.sessionId));
          // Kept without its key (its record goes as its session does: a logout still ends it upstream), and said.
          if (!key) session.keyMissing = true;
          out.push({ session, key });
        }
        // Such a session record, and the key stored with it (`session:<id>` and `key:<id>`); only
        // string keys have startsWith: a key of another type is under another name, and stays.
      } else if ((k as string).startsWith?.(SESSION_PREFIX)) unusable.push(k, (k as string).replace(SESSION_PREFIX, KEY_PREFIX));
    }
    // Best effort: a read does not fail because the clean-up could not be written.
    if (unusable.length) await records.delMany(unusable).catch(() => undefined);
    return out.sort(freshestFirst);
  }

  return {
    async put(session, key) {
      checkSession(session);
      checkKey(key);
      // One transaction for both records: either both are written or neither.
      await records.setMany([
        [SESSION_PREFIX + session.sessionId, copySession(session)],
        [KEY_PREFIX + session.sessionId, { privateKey: key.privateKey, publicKey: key.publicKey }],
      ]);
    },
    get: async (accountId, exceptCredentialId) => (await sessions(accountId, exceptCredentialId))[0],
    list: async () => (await sessions()).map((s) => s.session),
    async delete(sessionId) {
      await records.delMany([SESSION_PREFIX + sessionId, KEY_PREFIX + sessionId]);
    },
    async clear(accountId) {
      const doomed =
        accountId === undefined
          ? (await records.entries()).map(([k]) => k)
          : (await sessions(accountId)).flatMap(({ session: s }) => [SESSION_PREFIX + s.sessionId, KEY_PREFIX + s.sessionId]);
      if (doomed.length) await records.delMany(doomed);
    },
  };
}

export interface IndexedDbKeyStoreOptions {
  /** Default 'wallet-elements'. */
  dbName?: string;
  /** Default 'sessions'. */
  storeName?: string;
}

/** The browser's key store: IndexedDB, a database of its own, CryptoKey objects stored as they are. */
export function indexedDbKeyStore(options: IndexedDbKeyStoreOptions = {}): KeyStore {
  if (typeof indexedDB === 'undefined') {
    throw new WalletError('invalid_argument', 'No IndexedDB here: use memoryKeyStore().');
  }
  const store: UseStore = createStore(options.dbName ?? 'wallet-elements', options.storeName ?? 'sessions');
  // IndexedDB's own failures (a DOMException: InvalidStateError, SecurityError, UnknownError...)
  // are named as what they mean here, so that no caller takes them for a WebAuthn refusal.
  const refused = (cause: unknown): never => {
    throw new WalletError('storage_unavailable', 'This browser\'s storage (IndexedDB) refused the session key store.', { cause });
  };
  return recordStore({
    entries: () => entries(store).catch(refused),
    setMany: (pairs) => setMany(pairs, store).catch(refused),
    delMany: (keys) => delMany(keys, store).catch(refused),
  });
}

/** A key store in memory, for Node and for tests; the same contract as indexedDbKeyStore. */
export function memoryKeyStore(): KeyStore & { /** Simulates eviction of one key (tests). */ dropKey(sessionId: string): void } {
  const map = new Map<IDBValidKey, unknown>();
  return {
    ...recordStore({
      entries: async () => [...map],
      setMany: async (pairs) => void pairs.forEach(([k, v]) => map.set(k, v)),
      delMany: async (keys) => void keys.forEach((k) => map.delete(k)),
    }),
    dropKey(sessionId) {
      map.delete(KEY_PREFIX + sessionId);
    },
  };
}
