/**
 * A session's end and renewal after the system slept with the page shown (no visibilitychange:
 * the lid closed on an external display, a desktop suspended without a screen lock). In Chromium
 * on Linux and macOS timers run on a clock that stops during a suspend while Date.now() jumps on;
 * Playwright's page.clock does that to the page (setSystemTime: Date jumps, no timer fires), then
 * lets a minute and a bit run (runFor): a timer set for the session's old end would still wait.
 * A file of its own: the fake clock stays for the whole browser context of the file.
 */
import { expect } from 'chai';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/wallet-login/index.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/index.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import type { KeyStore } from '../../../../src/core/keystore.ts';
import { pageClock, sandboxVariant, type RigFixtures } from '../../support/rig.ts';
import { mount, part, resetPage, useRig, waitFor, waitForState } from './helpers.ts';

/** Sessions of 10 minutes: the sleep below is longer, the minute and a bit after it far shorter. */
const LIFETIME = 600_000;
/** The end timers' longest wait (60 s) and a bit: what time runs for after the wake. */
const AFTER_WAKE = 62_000;

describe('a session across a sleep of the system, the page shown all along', function () {
  this.timeout(60000);
  let v: RigFixtures;
  let store: KeyStore;
  before(() => pageClock('install'));
  beforeEach(async () => {
    ({ store } = await useRig());
    v = await sandboxVariant({ sessionLifetimeMs: LIFETIME });
    await (await walletFor(v.apiBase).startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
  });
  afterEach(resetPage);

  /** The system sleeps until `ms` past now by the wall clock, then a minute and a bit runs on. */
  const sleep = async (ms: number) => {
    await pageClock('setSystemTime', Date.now() + ms);
    await pageClock('runFor', AFTER_WAKE);
  };

  it('ended during the sleep: <delegated-keys> stops offering "New key" within a minute of the wake', async () => {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': v.cardId, 'account-id': v.accountId, 'api-base': v.apiBase });
    const newKey = () => part(el, 'new-button') as HTMLButtonElement | null;
    await waitFor(() => el.matches(':state(ready)') && newKey()?.disabled === false, '"New key" offered while the session lives', 4000);
    await sleep(LIFETIME);
    await waitFor(() => newKey()?.disabled === true, '"New key" taken away a minute after the wake', 5000);
  });

  it('not ended: the minutes that pass read no key store and look nothing up, and the session stays live', async () => {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': v.cardId, 'account-id': v.accountId, 'api-base': v.apiBase });
    const newKey = () => part(el, 'new-button') as HTMLButtonElement | null;
    await waitFor(() => el.matches(':state(ready)') && newKey()?.disabled === false, '"New key" offered while the session lives', 4000);
    const reads: string[] = [];
    for (const name of ['get', 'list'] as const) {
      const read = store[name].bind(store) as (...a: unknown[]) => Promise<never>;
      (store as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => (reads.push(name), read(...a));
    }
    await pageClock('runFor', 3 * AFTER_WAKE);
    expect(reads, 'key store reads in three minutes').to.deep.equal([]);
    expect(newKey()?.disabled, '"New key" still offered').to.equal(false);
  });

  it('ended during the sleep: <wallet-login> logs out as expired within a minute of the wake', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase });
    await waitForState(el, 'logged-in');
    // (Heard by a listener: a timer of the test's would run out in the minute that runs on.)
    const reasons: string[] = [];
    el.addEventListener('wallet-logged-out', (e) => reasons.push((e as CustomEvent<{ reason: string }>).detail.reason));
    await sleep(LIFETIME);
    await waitFor(() => reasons.length, 'wallet-logged-out a minute after the wake', 5000);
    expect(reasons).to.deep.equal(['expired']);
  });

  it('woken within its renewal time: <wallet-login> renews the session within a minute of the wake', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': v.accountId, 'api-base': v.apiBase, 'refresh-before': '120' });
    await waitForState(el, 'logged-in');
    const { sessionId, endsAt } = el.session!;
    // Woken 150 s before the end: a minute and a bit later, 88 s are left, within the 120 s.
    await sleep(endsAt - 150_000 - Date.now());
    await waitFor(() => el.session && el.session.sessionId !== sessionId, 'the session renewed a minute after the wake', 5000);
    await waitForState(el, 'logged-in');
  });
});
