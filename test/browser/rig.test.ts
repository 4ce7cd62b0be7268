import { expect } from 'chai';

describe('test rig', () => {
  it('runs in a secure context with WebCrypto and IndexedDB', async () => {
    expect(window.isSecureContext).to.equal(true);
    expect(typeof crypto.subtle.sign).to.equal('function');
    expect(typeof indexedDB.open).to.equal('function');
  });
});
