/**
 * A second document of the test origin: it opens the IndexedDB key store afresh (a new JS realm,
 * as after a reload), signs `payload` with the stored key of `account` and posts the stamp to its
 * parent. Query: ?db=<dbName>&account=<accountId>&payload=<text>.
 */
import { indexedDbKeyStore } from '../../../src/core/keystore.ts';
import { createStamp } from '../../../src/core/stamp.ts';

const q = new URLSearchParams(location.search);
(async () => {
  try {
    const store = indexedDbKeyStore({ dbName: q.get('db') ?? 'wallet-elements' });
    const found = await store.get(q.get('account') ?? '');
    if (!found) throw new Error('no session stored for the account');
    if (!found.key) throw new Error('the key is missing');
    let exportable = true;
    await crypto.subtle.exportKey('jwk', found.key.privateKey).catch(() => {
      exportable = false;
    });
    const stamp = await createStamp(q.get('payload') ?? '', found.key);
    parent.postMessage({ kind: 'keystore-frame', stamp, sessionId: found.session.sessionId, exportable }, location.origin);
  } catch (e) {
    parent.postMessage({ kind: 'keystore-frame', error: String(e) }, location.origin);
  }
})();
