/**
 * README "Use it in a page": `configureWallet({ store })` with a key store of one's own, made of
 * the methods the README lists for the `KeyStore` interface and nothing else (a method the library
 * needs and the README does not name is no function here), each as the README describes it: a
 * store in the page's memory, its keys the non-extractable `CryptoKey`s it is handed. The elements
 * and their session flows use it instead of IndexedDB: a login through a `<wallet-login>` lands in
 * it. Then the README's note on `get`'s second parameter: a credential's removal is signed by a
 * session of another credential, which `get(accountId, exceptCredentialId)` answers; a store that
 * ignores the parameter still serves, and that removal then ends with `session_expired`.
 */
import { expect } from 'chai';
import { configureWallet, clientFor, walletFor } from '../../src/index.ts';
import type { KeyStore, StoredSession } from '../../src/core/keystore.ts';
import type { KeyPair } from '../../src/core/p256.ts';
import { fixtures, newAccount, oidcToken } from './support/rig.ts';
import { logInByEmail, mount, resetPage } from './elements/shared/helpers.ts';

/** The README's paragraph on the key store, on one line. */
async function keyStoreParagraph(): Promise<string> {
  const readme = (await (await fetch('/README.md')).text()).replace(/\s+/g, ' ');
  const found = /Session keys live in IndexedDB; `configureWallet\(\{ store \}\)`[^]*?\(`session_expired`\)\./.exec(readme);
  if (!found) throw new Error('README has no key store paragraph');
  return found[0];
}

/** The methods the README gives the interface, as `name(parameters)`. */
async function readmeMethods(): Promise<string[]> {
  const paragraph = await keyStoreParagraph();
  const list = paragraph.slice(paragraph.indexOf('interface of `wallet-elements/core`:'), paragraph.indexOf(', which answers'));
  return [...list.matchAll(/`(\w+\([\w, ?]*\))`/g)].map((m) => m[1]!);
}

/**
 * A store of the page's memory with the README's methods only. `get` answers the account's
 * freshest session (latest expiresAt, then createdAt) with its key, without the sessions of
 * `exceptCredentialId` unless `ignoreExcept` (a store written without that parameter).
 */
function memoryStore(methods: string[], ignoreExcept = false): { store: KeyStore; kept: Map<string, { session: StoredSession; key: KeyPair }>; calls: string[] } {
  const kept = new Map<string, { session: StoredSession; key: KeyPair }>();
  const calls: string[] = [];
  const freshestFirst = (a: StoredSession, b: StoredSession) => b.expiresAt.localeCompare(a.expiresAt) || b.createdAt.localeCompare(a.createdAt);
  const all: Record<string, (...args: never[]) => Promise<unknown>> = {
    put: async (session: StoredSession, key: KeyPair) => void kept.set(session.sessionId, { session, key }),
    list: async () => [...kept.values()].map((e) => e.session),
    delete: async (sessionId: string) => void kept.delete(sessionId),
    clear: async (accountId?: string) => {
      for (const [id, e] of kept) if (accountId === undefined || e.session.accountId === accountId) kept.delete(id);
    },
    get: async (accountId: string, exceptCredentialId?: string) =>
      [...kept.values()]
        .filter((e) => e.session.accountId === accountId && (ignoreExcept || exceptCredentialId === undefined || e.session.credentialId !== exceptCredentialId))
        .sort((a, b) => freshestFirst(a.session, b.session))[0],
  };
  const store: Record<string, unknown> = {};
  for (const method of methods) {
    const name = method.slice(0, method.indexOf('('));
    store[name] = (...args: never[]) => (calls.push(name), all[name]!(...args));
  }
  return { store: store as unknown as KeyStore, kept, calls };
}

describe('README: configureWallet({ store }) with a key store of the README\'s interface', () => {
  afterEach(resetPage);

  it('lists the interface as the library declares it', async () => {
    expect(await readmeMethods()).to.deep.equal(['put(session, key)', 'list()', 'delete(sessionId)', 'clear(accountId?)', 'get(accountId, exceptCredentialId?)']);
  });

  it('keeps the session of a <wallet-login> login in that store, its key not extractable', async () => {
    const f = await fixtures();
    const acct = await newAccount();
    const { store, kept, calls } = memoryStore(await readmeMethods());
    configureWallet({ apiBase: f.apiBase, environment: 'sandbox', store });
    const el = await mount('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp' });
    const { detail } = await logInByEmail(el);
    const entry = kept.get(detail.sessionId);
    expect(entry?.session.accountId).to.equal(acct.accountId);
    expect(entry?.key.privateKey.extractable).to.equal(false);
    expect(calls).to.include('put');
  });

  for (const ignoreExcept of [false, true]) {
    it(ignoreExcept
      ? 'a store that ignores get\'s exceptCredentialId: removing the credential of its freshest session ends with session_expired'
      : 'removes the credential of the freshest session, signed by a session of another credential from get(accountId, exceptCredentialId)', async () => {
      const f = await fixtures();
      const acct = await newAccount();
      const { store, kept } = memoryStore(await readmeMethods(), ignoreExcept);
      configureWallet({ apiBase: f.apiBase, environment: 'sandbox', store });
      const wallet = walletFor();
      // A session of the email credential, then a single sign-on credential and a later session of it.
      await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
      const sub = `user-${crypto.randomUUID()}`;
      await wallet.addCredential({ type: 'OAUTH', accountId: acct.accountId, oidcToken: await oidcToken({ sub }) });
      const oauthId = (await clientFor().listCredentials(acct.accountId)).find((c) => c.type === 'OAUTH')!.id;
      await wallet.loginWithOAuth({ credentialId: oauthId, getIdToken: (nonce) => oidcToken({ sub, nonce }) });
      expect([...kept.values()].map((e) => e.session.credentialType).sort()).to.deep.equal(['EMAIL_OTP', 'OAUTH']);
      expect((await store.get(acct.accountId))?.session.credentialType, 'the freshest session').to.equal('OAUTH');

      const removal = wallet.revokeCredential(acct.accountId, oauthId).then(() => 'removed', (e: { code?: string }) => e.code);
      const credentials = async () => (await clientFor().listCredentials(acct.accountId)).map((c) => c.type).sort();
      if (ignoreExcept) {
        expect(await removal).to.equal('session_expired');
        expect(await credentials()).to.deep.equal(['EMAIL_OTP', 'OAUTH']);
      } else {
        expect(await removal).to.equal('removed');
        expect(await credentials()).to.deep.equal(['EMAIL_OTP']);
        expect([...kept.values()].map((e) => e.session.credentialType)).to.deep.equal(['EMAIL_OTP']);
      }
    });
  }
});
