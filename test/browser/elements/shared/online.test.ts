/**
 * The lists of <delegated-keys>, <wallet-credentials> and <agent-actions> (its first page) that
 * failed to load while the browser was offline (Playwright's offline emulation: navigator.onLine
 * false, every request of the page fails), in Chromium against the real sandbox through the real
 * proxy: once back online, each reads its list again by itself, with no Try again or Reload
 * pressed, and again a moment later when that first read fails too (a network coming up); an element
 * taken off the page meanwhile reads nothing.
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/wallet-credentials/index.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/index.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/index.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { goOffline, newAccount, type RigAccount } from '../../support/rig.ts';
import { mount, resetPage, text, useRig, waitFor } from './helpers.ts';

/** How many requests the page makes from now on to a path containing `fragment` (each still goes out). */
function countRequests(fragment: string): { readonly count: number; restore: () => void } {
  const original = window.fetch;
  let count = 0;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    if (new Request(input, init).url.includes(fragment)) count++;
    return original(input, init);
  };
  return {
    get count() {
      return count;
    },
    restore: () => (window.fetch = original),
  };
}

/**
 * From now on, the answer to the page's first request to a path containing `fragment` is lost on its
 * way (the request goes out; the page sees the network failure a connection not carrying yet gives).
 */
function loseFirstAnswer(fragment: string): { readonly lost: number; restore: () => void } {
  const original = window.fetch;
  let lost = 0;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const answer = await original(input, init);
    if (lost || !new Request(input, init).url.includes(fragment)) return answer;
    lost++;
    throw new TypeError('Failed to fetch');
  };
  return {
    get lost() {
      return lost;
    },
    restore: () => (window.fetch = original),
  };
}

/**
 * `el`'s reading of `what` fails offline, saying to check the connection; once `offline` is back
 * online, `el` reads it again by itself and is ready.
 */
async function failsThenReadsAgainOnline(el: Element & { updateComplete: Promise<unknown> }, offline: { online(): Promise<void> }, failed: string, what: string, lose?: string): Promise<void> {
  await waitFor(() => el.matches(`:state(${failed})`), `${what} failed offline`);
  await el.updateComplete;
  expect(text(el, 'error')).to.contain('Check your connection');
  const losing = lose ? loseFirstAnswer(lose) : undefined;
  try {
    await offline.online();
    // (Lost, the first read fails again; the next comes 2 s after the `online` event.)
    await waitFor(() => el.matches(':state(ready)'), `${what} read again once online`, lose ? 8000 : 5000);
    if (losing) expect(losing.lost, 'answers lost').to.equal(1);
  } finally {
    losing?.restore();
  }
}

describe('lists that failed offline, back online', function () {
  this.timeout(60000);
  let acct: RigAccount;

  before(async () => {
    await useRig();
  });

  beforeEach(async () => {
    acct = await newAccount();
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
  });

  afterEach(resetPage);

  it('<delegated-keys> reads its list again once back online', async () => {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    await waitFor(() => el.matches(':state(ready)'), 'the list');
    const offline = await goOffline(1500);
    el.refresh();
    await failsThenReadsAgainOnline(el, offline, 'failed', 'the list');
  });

  it('<wallet-credentials> reads its lists again once back online', async () => {
    const offline = await goOffline(1500);
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await failsThenReadsAgainOnline(el, offline, 'load-failed', 'the lists');
  });

  it('<wallet-credentials> whose lists failed to be read again offline, over the lists shown, reads them again once back online', async () => {
    const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    await waitFor(() => el.matches(':state(ready)'), 'the lists');
    const offline = await goOffline(1500);
    el.reload();
    await waitFor(() => text(el, 'error').includes('Check your connection'), 'the reload failed offline');
    expect(el.matches(':state(ready)')).to.equal(true);
    await offline.online();
    await waitFor(() => !text(el, 'error'), 'the lists read again once online, the failure gone', 5000);
  });

  it('<agent-actions> reads its first page again once back online', async () => {
    const el = document.createElement('agent-actions') as AgentActions;
    el.setAttribute('poll-interval', '60000');
    el.agentToken = acct.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(ready)'), 'the first page');
    const offline = await goOffline(1500);
    el.reload();
    await failsThenReadsAgainOnline(el, offline, 'failed', 'the first page');
  });

  for (const [tag, path] of [
    ['delegated-keys', '/auth/delegated-keys'],
    ['wallet-credentials', '/auth/credentials'],
    ['agent-actions', '/agents/me/actions'],
  ] as const) {
    it(`<${tag}>, its first read back online failing too (the connection not carrying yet), reads again a moment later by itself`, async () => {
      let el: (HTMLElement & { updateComplete: Promise<unknown>; reload?: () => void; refresh?: () => void }) | undefined;
      if (tag !== 'wallet-credentials') {
        el = tag === 'agent-actions' ? document.createElement('agent-actions') : await mount<DelegatedKeys>(tag, { 'card-id': acct.cardId, 'account-id': acct.accountId });
        if (tag === 'agent-actions') {
          el.setAttribute('poll-interval', '60000');
          (el as AgentActions).agentToken = acct.agentToken;
          document.body.append(el);
        }
        await waitFor(() => el!.matches(':state(ready)'), 'the list');
      }
      const offline = await goOffline(1500);
      if (el) (el.refresh ?? el.reload)!.call(el);
      else el = await mount<WalletCredentials>(tag, { 'account-id': acct.accountId });
      await failsThenReadsAgainOnline(el, offline, tag === 'wallet-credentials' ? 'load-failed' : 'failed', 'the list', path);
    });
  }

  it('taken off the page while its list shows the failure, <delegated-keys> reads nothing once back online', async () => {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    await waitFor(() => el.matches(':state(ready)'), 'the list');
    const offline = await goOffline(1500);
    el.refresh();
    await waitFor(() => el.matches(':state(failed)'), 'the list failed offline');
    el.remove();
    const lists = countRequests('/auth/delegated-keys');
    try {
      await offline.online();
      await new Promise((r) => setTimeout(r, 500));
      expect([lists.count, el.matches(':state(failed)')]).to.deep.equal([0, true]);
    } finally {
      lists.restore();
    }
  });
});
