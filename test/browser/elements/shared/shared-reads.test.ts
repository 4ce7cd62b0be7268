/**
 * The list reads that elements of one page share (core/endpoints.ts `read`), in real Chromium
 * against the real sandbox through the real proxy: a refresh the page or the user asks for reads
 * anew instead of taking the answer of a read another element started a moment before, and a
 * shared read that no element waits for any more is stopped. Changes "made elsewhere" go to the
 * proxy with the page's own fetch, past the page's client (which would count them as its writes).
 */
import { expect } from 'chai';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/wallet-credentials/index.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/index.ts';
import { fixtures, newAccount, type RigFixtures } from '../../support/rig.ts';
import { holdAnswer, mount, parts, resetPage, shadow, useRig, waitFor } from './helpers.ts';

/** A change made elsewhere (another device): straight to the proxy, not through the page's client. */
async function elsewhere(method: string, path: string, body?: object): Promise<void> {
  const headers: Record<string, string> = body ? { 'Content-Type': 'application/json' } : { 'X-Requested-With': 'test' };
  const res = await fetch(`${f.apiBase}${path}`, { method, headers, body: body && JSON.stringify(body) });
  expect(res.ok, `${method} ${path}: ${res.status}`).to.equal(true);
}

/** The requests the page sends to `url` from now on, each with the signal it went out with. */
function watchRequests(url: RegExp): { signals: Array<AbortSignal | undefined>; undo: () => void } {
  const original = window.fetch;
  const signals: Array<AbortSignal | undefined> = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    if ((init?.method ?? 'GET') === 'GET' && url.test(String(input instanceof Request ? input.url : input))) signals.push(init?.signal ?? undefined);
    return original(input, init);
  };
  return { signals, undo: () => void (window.fetch = original) };
}

let f: RigFixtures;

const KEYS = /\/auth\/delegated-keys\?/;
const ready = (el: Element) => el.matches(':state(ready)') && !el.matches(':state(busy)');
const revoked = (el: Element) => !!shadow(el).querySelector("[part~='status'].REVOKED");

describe('list reads shared by the elements of a page', () => {
  before(async () => {
    f = await fixtures();
    await useRig();
  });
  afterEach(resetPage);

  /**
   * A's read (`readA`) of `list` reaches the service, which answers it; `change` is made on the
   * service; then B asks (`readB`), and A's answer reaches the page only after: both lists read again.
   */
  async function changedWhileHeld(list: RegExp, a: Element, b: Element, readA: () => void, change: () => Promise<unknown>, readB: () => void): Promise<void> {
    const hold = holdAnswer('GET', list);
    try {
      readA();
      await hold.arrived;
      await change();
      readB();
      await new Promise((r) => setTimeout(r, 100));
      hold.release();
      await waitFor(() => ready(a) && ready(b), 'both lists read again');
    } finally {
      hold.undo();
    }
  }

  it("<delegated-keys>' refresh() while another element's read of the list is on its way reads the list anew: a key revoked elsewhere meanwhile shows revoked", async () => {
    const acct = await newAccount({ delegatedKeys: 1 });
    const at = { 'card-id': acct.cardId, 'account-id': acct.accountId };
    const [a, b] = [await mount<DelegatedKeys>('delegated-keys', at), await mount<DelegatedKeys>('delegated-keys', at)];
    await waitFor(() => ready(a) && ready(b), 'both lists');
    const [key] = parts(b, 'key');
    expect(revoked(b)).to.equal(false);
    const keyId = key!.querySelector('[data-focus^="revoke-"]')!.getAttribute('data-focus')!.slice('revoke-'.length);
    // A's read reaches the service, which answers before the key is revoked; the page gets the answer later.
    await changedWhileHeld(KEYS, a, b, () => a.refresh(), () => elsewhere('DELETE', `/auth/delegated-keys/${keyId}`), () => b.refresh());
    expect(revoked(b), 'the key revoked before B asked, in B').to.equal(true);
  });

  it("<wallet-credentials>' reload() while another element's read of the lists is on its way reads them anew: a credential added elsewhere meanwhile is listed", async () => {
    const acct = await newAccount({ emailCredential: false });
    const at = { 'account-id': acct.accountId };
    const [a, b] = [await mount<WalletCredentials>('wallet-credentials', at), await mount<WalletCredentials>('wallet-credentials', at)];
    await waitFor(() => ready(a) && ready(b), 'both lists');
    const rows = (el: Element) => shadow(el).querySelectorAll("[part~='credential']").length;
    expect(rows(b)).to.equal(0);
    // The account's first credential: the service makes it without a signature.
    const add = () => elsewhere('POST', '/auth/credentials', { type: 'EMAIL_OTP', accountId: acct.accountId, nickname: 'elsewhere@example.com' });
    await changedWhileHeld(/\/auth\/credentials\?/, a, b, () => a.reload(), add, () => b.reload());
    expect(rows(b), 'the credential added before B asked, in B').to.equal(1);
  });

  it('a read shared by two elements goes on while one of them waits, and stops once both have left the page', async () => {
    const acct = await newAccount({ delegatedKeys: 1 });
    const at = { 'card-id': acct.cardId, 'account-id': acct.accountId };
    for (const leaving of [1, 2]) {
      const seen = watchRequests(KEYS);
      const hold = holdAnswer('GET', KEYS);
      try {
        const els = [await mount<DelegatedKeys>('delegated-keys', at), await mount<DelegatedKeys>('delegated-keys', at)];
        await hold.arrived;
        await new Promise((r) => setTimeout(r, 100));
        expect(seen.signals, 'one request for both').to.have.length(1);
        for (const el of els.slice(0, leaving)) el.remove();
        await new Promise((r) => setTimeout(r, 50));
        expect(seen.signals[0]?.aborted ?? false, `aborted with ${leaving} of 2 gone`).to.equal(leaving === 2);
        hold.release();
        if (leaving === 1) await waitFor(() => ready(els[1]!) && parts(els[1]!, 'key').length === 1, 'the list of the element left');
        for (const el of els) el.remove();
      } finally {
        hold.undo();
        seen.undo();
      }
    }
  });
});
