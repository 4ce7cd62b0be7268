/**
 * The IndexedDB key store in real Chromium (DESIGN.md "Security rules", session keys): keys are
 * stored as non-extractable CryptoKey objects (never hex, never localStorage), survive a new
 * document, still sign, several accounts coexist, and a vanished key is reported as such.
 */
import { expect } from 'chai';
import { createStore, entries, del, get, set, setMany } from 'idb-keyval';
import { indexedDbKeyStore, type StoredSession } from '../../../src/core/keystore.ts';
import { generateSigningKey, type KeyPair } from '../../../src/core/p256.ts';
import { createStamp, publicKeyHex } from '../../../src/core/stamp.ts';
import { verifyStamp } from '../../../src/sandbox/service-stamps.ts';
import { WalletError } from '../../../src/core/errors.ts';
import { resetPage } from '../elements/shared/helpers.ts';

const uid = () => crypto.randomUUID();

function sessionFor(accountId: string, key: KeyPair, over: Partial<StoredSession> = {}): StoredSession {
  return {
    accountId,
    credentialId: `AuthMethod:${uid()}`,
    credentialType: 'EMAIL_OTP',
    sessionId: `Session:${uid()}`,
    expiresAt: new Date(Date.now() + 900_000).toISOString(),
    publicKey: publicKeyHex(key),
    createdAt: new Date().toISOString(),
    ...over,
  };
}

/** Opens the store from a new document (an iframe of this origin) and has it sign `payload`. */
function signFromNewDocument(db: string, account: string, payload: string): Promise<{ stamp?: string; error?: string; exportable?: boolean; sessionId?: string }> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    const timer = setTimeout(() => reject(new Error('the frame did not answer')), 10000);
    addEventListener('message', function onMessage(ev: MessageEvent) {
      if (ev.source !== frame.contentWindow || ev.data?.kind !== 'keystore-frame') return;
      removeEventListener('message', onMessage);
      clearTimeout(timer);
      frame.remove();
      resolve(ev.data);
    });
    frame.src = `/test/browser/support/keystore-frame.html?${new URLSearchParams({ db, account, payload })}`;
    document.body.append(frame);
  });
}

describe('indexedDbKeyStore (real IndexedDB)', () => {
  let dbName: string;
  beforeEach(() => {
    dbName = `wallet-elements-test-${uid()}`;
  });
  afterEach(resetPage);

  it('stores the private key as a non-extractable CryptoKey, never as hex, never in localStorage', async () => {
    const store = indexedDbKeyStore({ dbName });
    const key = await generateSigningKey();
    const account = `InternalAccount:${uid()}`;
    const s = sessionFor(account, key);
    localStorage.clear();
    await store.put(s, key);

    const got = await store.get(account);
    expect(got?.session).to.deep.equal(s);
    expect(got?.key?.privateKey).to.be.instanceOf(CryptoKey);
    expect(got?.key?.privateKey.extractable).to.equal(false);
    let rejected = false;
    await crypto.subtle.exportKey('jwk', got!.key!.privateKey).catch(() => (rejected = true));
    expect(rejected, 'exportKey rejects').to.equal(true);
    await crypto.subtle.exportKey('pkcs8', got!.key!.privateKey).then(
      () => expect.fail('pkcs8 export must reject'),
      () => undefined,
    );

    // What IndexedDB holds: the CryptoKey object itself; no string anywhere looks like a private scalar.
    const raw = await entries(createStore(dbName, 'sessions'));
    const keyRecord = raw.find(([k]) => String(k).startsWith('key:'))?.[1] as { privateKey: unknown };
    expect(keyRecord.privateKey).to.be.instanceOf(CryptoKey);
    const strings = JSON.stringify(raw.map(([k, v]) => [k, v]));
    expect(strings).not.to.match(/"d"\s*:/);
    expect(localStorage.length).to.equal(0);
  });

  it('refuses an extractable key', async () => {
    const store = indexedDbKeyStore({ dbName });
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const pub = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
    const key = { privateKey: pair.privateKey, publicKey: pub };
    try {
      await store.put(sessionFor(`InternalAccount:${uid()}`, key), key);
      expect.fail('put must refuse');
    } catch (e) {
      expect(e).to.be.instanceOf(WalletError);
      expect((e as WalletError).code).to.equal('invalid_argument');
    }
  });

  it('survives a new document: the store reopened elsewhere signs, and the signature verifies', async () => {
    const key = await generateSigningKey();
    const account = `InternalAccount:${uid()}`;
    const s = sessionFor(account, key);
    await indexedDbKeyStore({ dbName }).put(s, key);

    const payload = `{"requestId":"Request:${uid()}"}`;
    const answer = await signFromNewDocument(dbName, account, payload);
    expect(answer.error).to.equal(undefined);
    expect(answer.sessionId).to.equal(s.sessionId);
    expect(answer.exportable).to.equal(false);
    const parsed = await verifyStamp(answer.stamp!, payload);
    expect(parsed?.publicKey).to.equal(s.publicKey);
    // And a different payload does not verify with that stamp.
    expect(await verifyStamp(answer.stamp!, payload + ' ')).to.equal(null);
  });

  it('a key read from the store signs stamps started together on different payloads, each over its own', async () => {
    const store = indexedDbKeyStore({ dbName });
    const key = await generateSigningKey();
    const s = sessionFor('InternalAccount:stamps', key);
    await store.put(s, key);
    const loaded = (await store.get('InternalAccount:stamps'))!.key!;
    const payloads = ['a', `{"x":"Café ☕ ${'€'.repeat(2000)}"}`, '', 'b'.repeat(5000), '{"y":1}'];
    const stamps = await Promise.all(payloads.map((p) => createStamp(p, loaded)));
    for (const [i, stamp] of stamps.entries()) {
      expect((await verifyStamp(stamp, payloads[i]!))?.publicKey, `stamp ${i}`).to.equal(s.publicKey);
      expect(await verifyStamp(stamp, payloads[(i + 1) % payloads.length]!)).to.equal(null);
    }
  });

  it('keeps several accounts and sessions apart, answers the freshest, deletes and clears', async () => {
    const store = indexedDbKeyStore({ dbName });
    const a = `InternalAccount:${uid()}`;
    const b = `InternalAccount:${uid()}`;
    const k1 = await generateSigningKey();
    const k2 = await generateSigningKey();
    const k3 = await generateSigningKey();
    const older = sessionFor(a, k1, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const newer = sessionFor(a, k2, { expiresAt: new Date(Date.now() + 600_000).toISOString() });
    const other = sessionFor(b, k3);
    await store.put(newer, k2);
    await store.put(older, k1);
    await store.put(other, k3);

    expect((await store.get(a))?.session.sessionId).to.equal(newer.sessionId);
    expect((await store.get(b))?.session.sessionId).to.equal(other.sessionId);
    expect((await store.list()).map((s) => s.sessionId)).to.have.members([older.sessionId, newer.sessionId, other.sessionId]);
    // The key answered is the one of that session: its stamp verifies under the session's public key.
    const got = await store.get(a);
    const stamp = await createStamp('x', got!.key!);
    expect((await verifyStamp(stamp, 'x'))?.publicKey).to.equal(newer.publicKey);

    await store.delete(newer.sessionId);
    expect((await store.get(a))?.session.sessionId).to.equal(older.sessionId);
    await store.clear(a);
    expect(await store.get(a)).to.equal(undefined);
    expect((await store.get(b))?.session.sessionId).to.equal(other.sessionId);
    await store.clear();
    expect(await store.list()).to.deep.equal([]);
    expect(await entries(createStore(dbName, 'sessions'))).to.deep.equal([]);
  });

  it('deletes its own records that can never be used (a broken session record, with its key) and nothing else', async () => {
    const store = indexedDbKeyStore({ dbName });
    const db = createStore(dbName, 'sessions');
    const account = `InternalAccount:${uid()}`;
    const good = await generateSigningKey();
    const live = sessionFor(account, good);
    await store.put(live, good);
    // A session whose key record holds no CryptoKey stays: reading it is how a vanished key is told (key_missing).
    const keyless = sessionFor(account, good, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await store.put(keyless, good);
    await set(`key:${keyless.sessionId}`, { privateKey: { type: 'private' }, publicKey: new Uint8Array(65) }, db);
    // Unusable records of this store: a session record that is not an object, one without the
    // fields of a session (with its key), and one under another session's id.
    const orphan = await generateSigningKey();
    const broken = `Session:${uid()}`;
    await set(`session:Session:${uid()}`, null, db);
    await set(`session:${broken}`, { accountId: account, sessionId: 42 }, db);
    await set(`key:${broken}`, { privateKey: orphan.privateKey, publicKey: orphan.publicKey }, db);
    await set(`session:Session:${uid()}`, sessionFor(account, good), db);
    // Records that are not this store's own are not its to delete.
    await set('settings', { theme: 'dark' }, db);
    await set(7, 'a number key', db);

    expect((await store.list()).map((s) => s.sessionId)).to.have.members([live.sessionId, keyless.sessionId]);
    const left = (await entries(db)).map(([k]) => String(k));
    expect(left).to.have.members([`session:${live.sessionId}`, `key:${live.sessionId}`, `session:${keyless.sessionId}`, `key:${keyless.sessionId}`, 'settings', '7']);
    // The live session still signs.
    const got = await store.get(account);
    expect(got?.session.sessionId).to.equal(live.sessionId);
    expect((await verifyStamp(await createStamp('x', got!.key!), 'x'))?.publicKey).to.equal(live.publicKey);
  });

  it('keeps and reads a session record with more fields (a later version) or without endsAt (an earlier one)', async () => {
    const store = indexedDbKeyStore({ dbName });
    const db = createStore(dbName, 'sessions');
    const account = `InternalAccount:${uid()}`;
    const key = await generateSigningKey();
    const later = { ...sessionFor(account, key), endsAt: Date.now() + 900_000, deviceLabel: 'Laptop', version: 3 };
    const earlier = sessionFor(account, key, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    for (const s of [later, earlier]) await setMany([[`session:${s.sessionId}`, s], [`key:${s.sessionId}`, { privateKey: key.privateKey, publicKey: key.publicKey }]], db);
    expect((await store.list()).map((s) => s.sessionId)).to.have.members([later.sessionId, earlier.sessionId]);
    expect((await store.get(account))?.session.sessionId).to.equal(later.sessionId);
    // Read as this version's shape, written back untouched: the later version still finds its fields.
    expect(await get(`session:${later.sessionId}`, db)).to.deep.equal(later);
    expect((await entries(db)).length).to.equal(4);
  });

  it('a read is not failed by records under other names whose keys are not strings (an array that reads "session:…")', async () => {
    const store = indexedDbKeyStore({ dbName });
    const db = createStore(dbName, 'sessions');
    const key = await generateSigningKey();
    const s = sessionFor(`InternalAccount:${uid()}`, key);
    await store.put(s, key);
    const arrayKey = [`session:Session:${uid()}`];
    await set(arrayKey, { some: 'record' }, db);
    expect((await store.list()).map((x) => x.sessionId)).to.deep.equal([s.sessionId]);
    expect(await get(arrayKey, db)).to.deep.equal({ some: 'record' });
  });

  it('a clean-up that storage refuses does not fail the read; the next read cleans up', async () => {
    const store = indexedDbKeyStore({ dbName });
    const db = createStore(dbName, 'sessions');
    const key = await generateSigningKey();
    const s = sessionFor(`InternalAccount:${uid()}`, key);
    await store.put(s, key);
    const broken = `session:Session:${uid()}`;
    await set(broken, { sessionId: 42 }, db);
    // The browser's storage failing the delete (as IndexedDB does with an UnknownError).
    const remove = Object.getOwnPropertyDescriptor(IDBObjectStore.prototype, 'delete')!;
    Object.defineProperty(IDBObjectStore.prototype, 'delete', {
      ...remove,
      value() {
        throw new DOMException('Internal error.', 'UnknownError');
      },
    });
    try {
      expect((await store.list()).map((x) => x.sessionId)).to.deep.equal([s.sessionId]);
    } finally {
      Object.defineProperty(IDBObjectStore.prototype, 'delete', remove);
    }
    expect(await get(broken, db)).to.deep.equal({ sessionId: 42 });
    expect((await store.get(s.accountId))?.key?.privateKey).to.be.instanceOf(CryptoKey);
    expect(await get(broken, db)).to.equal(undefined);
  });

  it('reports a key that vanished (partial eviction) as key undefined, and lists its session as keyMissing', async () => {
    const store = indexedDbKeyStore({ dbName });
    const db = createStore(dbName, 'sessions');
    const key = await generateSigningKey();
    const account = `InternalAccount:${uid()}`;
    const s = sessionFor(account, key);
    await store.put(s, key);
    // Two older sessions of the account: one keeps its key, the other's key record holds no CryptoKey.
    const kept = sessionFor(account, key, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const unreadable = sessionFor(account, key, { expiresAt: new Date(Date.now() + 30_000).toISOString() });
    await store.put(kept, key);
    await store.put(unreadable, key);
    await set(`key:${unreadable.sessionId}`, { privateKey: { type: 'private' }, publicKey: new Uint8Array(65) }, db);
    await del(`key:${s.sessionId}`, db);
    const got = await store.get(account);
    expect(got?.session).to.deep.equal({ ...s, keyMissing: true });
    expect(got?.key).to.equal(undefined);
    expect((await store.list()).map((x) => [x.sessionId, x.keyMissing])).to.deep.equal([
      [s.sessionId, true],
      [kept.sessionId, undefined],
      [unreadable.sessionId, true],
    ]);
    // Said, never stored: put back with a key, the session is whole again.
    await store.put(got!.session, key);
    expect(await get(`session:${s.sessionId}`, db)).to.deep.equal(s);
    expect((await store.get(account))?.session).to.deep.equal(s);
  });
});
