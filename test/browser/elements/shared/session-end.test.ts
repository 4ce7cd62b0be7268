/**
 * A wallet session's end by time, told to the elements that depend on it with no <wallet-login> on
 * the page, in Chromium against a real sandbox whose sessions last seconds, through the real proxy:
 * at the stored session's end the page's session watch finds it ended, and each element reacts as
 * to a logout. <delegated-keys> stops offering "New key" and says to sign in, <card-reveal> hides
 * the card it shows, <wallet-credentials> no longer shows this device as signed in, <passkey-register>
 * takes its form away for "log in first". A session
 * longer than a timer can wait is timed in steps, neither ended at once nor looked up in a loop.
 * A session found ended when the watch starts (or the page wakes) is told ended at once, and once
 * only when an element of another api-base finds it too; with no
 * watcher left, nothing is timed. An ended session kept while a newer one of its account lives is
 * looked up once, not read again at each run of the watch. What core tells is heard through a wallet
 * subscription of the test's own, not through the watch.
 */
import { expect } from 'chai';
import '../../../../src/elements/card-reveal/index.ts';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/wallet-credentials/index.ts';
import '../../../../src/elements/passkey-register/index.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import { configureWallet } from '../../../../src/elements/shared/config.ts';
import { onSessionChange, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { newAccount, sandboxVariant, type RigFixtures } from '../../support/rig.ts';
import { loginByEmail, mount, nextEvent, part, resetPage, text, useRig, waitFor } from './helpers.ts';

/** The `ended` core tells of the variant's account, from now on (a subscription of the test's own, not the watch). */
function endsTold(v: RigFixtures): string[] {
  const told: string[] = [];
  walletFor(v.apiBase).subscribe(({ type, accountId }) => void (type === 'ended' && accountId === v.accountId && told.push(type)));
  return told;
}

/** Sessions of this length: live for core (5 s margin) in their first 5 s, ended at 10 s. */
const LIFETIME = 10_000;

describe('a session that ends by time, with no <wallet-login> on the page', function () {
  this.timeout(60000);
  let v: RigFixtures;
  let endsAt: number;
  beforeEach(async () => {
    await useRig();
    v = await sandboxVariant({ sessionLifetimeMs: LIFETIME });
    const session = await (await walletFor(v.apiBase).startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    endsAt = session.endsAt!;
  });
  afterEach(resetPage);

  /** Resolves when `check` holds, or with false once the session's end is `ms` behind. */
  const after = async (check: () => boolean, ms = 5000): Promise<boolean> => {
    while (!check()) {
      if (Date.now() > endsAt + ms) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  };


  /**
   * How long the element may take to be ready: while the session lives (less half a second to look
   * at it), not a fixed time a slow or busy machine may miss though the session still has seconds to go.
   */
  const whileItLives = (): number => Math.max(0, endsAt - Date.now() - 500);

  /** Resolves once the session's end is `ms` behind (the end's timer, had one been set, has had its time). */
  const pastEnd = (ms: number) => new Promise((r) => setTimeout(r, endsAt + ms - Date.now()));

  it('<delegated-keys> stops offering "New key" and says to sign in', async () => {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': v.cardId, 'account-id': v.accountId, 'api-base': v.apiBase });
    const newKey = () => part(el, 'new-button') as HTMLButtonElement | null;
    await waitFor(() => el.matches(':state(ready)') && newKey()?.disabled === false, '"New key" offered while the session lives', whileItLives());
    expect(Date.now(), 'still within the session').to.be.below(endsAt);
    expect(await after(() => newKey()?.disabled === true), '"New key" taken away after the session ended').to.equal(true);
    expect(Date.now(), 'not before the end').to.be.at.least(endsAt - 5000);
    expect(text(el, 'hint')).to.equal('Sign in to your wallet to create a key.');
  });

  it('<card-reveal> hides the card shown, as at a logout', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': v.cardId, 'account-id': v.accountId, 'api-base': v.apiBase, 'allowed-origins': v.processorOrigin });
    const shown = Promise.race([nextEvent<CustomEvent>(el, 'card-revealed'), nextEvent<CustomEvent>(el, 'card-reveal-error')]);
    (part(el, 'reveal-button') as HTMLButtonElement).click();
    const event = await shown;
    expect(event.type, JSON.stringify(event.detail)).to.equal('card-revealed');
    const hidden: string[] = [];
    el.addEventListener('card-hidden', (e) => hidden.push((e as CustomEvent).detail.reason));
    expect(await after(() => hidden.length > 0), 'the card hidden after the session ended').to.equal(true);
    expect(hidden).to.deep.equal(['logged-out']);
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
    await el.updateComplete;
    expect(text(el, 'message')).to.equal('Card details hidden: you logged out.');
  });

  it('a session longer than a timer can wait (a minute over 2^31 ms, which a timer would take for none) is neither taken for ended nor looked up again and again', async () => {
    const { store } = await useRig();
    const long = await sandboxVariant({ sessionLifetimeMs: 2 ** 31 + 60_000 });
    await (await walletFor(long.apiBase).startOtpLogin({ credentialId: long.emailCredentialId })).submit('000000');
    let reads = 0;
    const list = store.list.bind(store);
    store.list = () => (reads++, list());
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': long.cardId, 'account-id': long.accountId, 'api-base': long.apiBase });
    const newKey = () => part(el, 'new-button') as HTMLButtonElement | null;
    await waitFor(() => el.matches(':state(ready)') && newKey()?.disabled === false, '"New key" offered', 8000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(newKey()?.disabled, '"New key" still offered').to.equal(false);
    expect((await walletFor(long.apiBase).current(long.accountId))?.accountId).to.equal(long.accountId);
    expect(reads, 'key store reads').to.be.below(5);
  });

  it('<wallet-credentials> no longer shows this device signed in', async () => {
    const el = await mount('wallet-credentials', { 'account-id': v.accountId, 'customer-id': v.customerId, 'api-base': v.apiBase });
    await waitFor(() => el.matches(':state(ready)') && el.matches(':state(signed-in)'), 'the lists, signed in', whileItLives());
    expect(await after(() => !el.matches(':state(signed-in)')), 'signed in no more after the session ended').to.equal(true);
  });

  it('<passkey-register> takes its form away and says to log in first', async function () {
    // Its form is for a browser with WebAuthn (WebKitGTK has none: the element says so instead).
    if (!('PublicKeyCredential' in globalThis)) this.skip();
    const el = await mount('passkey-register', { 'account-id': v.accountId, 'api-base': v.apiBase });
    await waitFor(() => el.matches(':state(ready)') && part(el, 'submit'), 'the form while the session lives', whileItLives());
    expect(Date.now(), 'still within the session').to.be.below(endsAt);
    expect(await after(() => el.matches(':state(login-required)')), '"log in first" after the session ended').to.equal(true);
    expect(part(el, 'submit')).to.equal(null);
    expect(text(el, 'note')).to.match(/^Log in to your wallet first/);
  });

  it('a session that ended while nothing timed it is told ended as soon as the page watches again, without an element asking for it', async () => {
    const told = endsTold(v);
    await pastEnd(1000);
    expect(told, 'told ended with nothing watching').to.deep.equal([]);
    const off = onSessionChange(v.apiBase, () => undefined);
    try {
      await waitFor(() => told.length, 'the ended session told ended by the watch', 5000);
    } finally {
      off();
    }
    expect(told).to.deep.equal(['ended']);
  });

  it('found ended as the watch starts, by the watch and by an element whose api-base names the configured proxy otherwise: told ended once, its lists read again once at most', async () => {
    configureWallet({ apiBase: v.apiBase });
    await pastEnd(1000);
    const told = endsTold(v);
    let lists = 0;
    const send = window.fetch;
    window.fetch = (input, init) => ((lists += +String(input).includes('/auth/sessions')), send(input, init));
    // Both look it up at once: the watch through the configured base's wallet, the element through its own.
    const el = await mount('wallet-credentials', { 'account-id': v.accountId, 'customer-id': v.customerId, 'api-base': new URL(v.apiBase, location.href).href });
    await waitFor(() => told.length && el.matches(':state(ready)') && !el.matches(':state(signed-in)'), 'told ended, the lists shown signed out', 5000);
    // A second notice, had there been one, comes with the first (the two look-ups run together).
    await new Promise((r) => setTimeout(r, 500));
    expect(lists, 'reads of the sessions: the first, and one again at most').to.be.within(1, 2);
    expect(told).to.deep.equal(['ended']);
  });

  it('once the last watcher is gone, the end of a session is no longer timed: nothing looks it up or tells it ended', async () => {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': v.cardId, 'account-id': v.accountId, 'api-base': v.apiBase });
    await waitFor(() => el.matches(':state(ready)'), 'the element ready, its end timed', whileItLives());
    const told = endsTold(v);
    el.remove();
    await pastEnd(2000);
    expect(told, 'told ended after the last watcher went').to.deep.equal([]);
    // Asked now, core finds it ended and tells so: what the watch would have done.
    expect(await walletFor(v.apiBase).current(v.accountId)).to.equal(undefined);
    expect(told).to.deep.equal(['ended']);
  });
});

describe('an ended session of an account whose newer session lives, kept until that one ends', function () {
  this.timeout(90000);
  afterEach(resetPage);

  it('is looked up once by the session watch, not read again at each of its runs; the newer one\'s end takes both', async () => {
    const { store } = await useRig();
    // Two logins 12 s apart: the first ends (core's 5 s margin included) while the second lives.
    const v = await sandboxVariant({ sessionLifetimeMs: 24_000, otpResendIntervalMs: 1 });
    const login = async () => (await walletFor(v.apiBase).startOtpLogin({ credentialId: v.emailCredentialId })).submit('000000');
    const older = await login();
    await new Promise((r) => setTimeout(r, older.endsAt! - 12_000 - Date.now()));
    const newer = await login();
    expect(Date.now(), 'the second login made while the first lives').to.be.below(older.endsAt! - 5000);
    // Key-store reads of the variant's account, through the configured (IndexedDB) store; and the
    // lists of the store the watch has read.
    let reads = 0;
    let lists = 0;
    const get = store.get.bind(store);
    const list = store.list.bind(store);
    store.get = (accountId, except) => ((reads += +(accountId === v.accountId)), get(accountId, except));
    store.list = () => list().then((all) => (lists++, all));
    const told = endsTold(v);
    const off = onSessionChange(v.apiBase, () => undefined);
    try {
      await new Promise((r) => setTimeout(r, older.endsAt! - Date.now()));
      await waitFor(() => reads, 'the older session looked up at its end', 5000);
      const stored = async () => (await list()).filter((s) => s.accountId === v.accountId).map((s) => s.sessionId);
      expect(await stored(), 'both records kept').to.have.members([older.sessionId, newer.sessionId]);
      const before = reads;
      // The watch runs again at each session change of the page: a login and a logout of another wallet.
      const other = await newAccount();
      const seen = lists;
      await loginByEmail(other);
      await walletFor().logout(other.accountId);
      await waitFor(() => lists >= seen + 2, 'the watch run at each change', 5000);
      await new Promise((r) => setTimeout(r, 200));
      expect(Date.now(), 'the newer session still live').to.be.below(newer.endsAt! - 5000);
      expect(reads - before, 'reads of the ended record by the watch runs').to.equal(0);
      expect(told).to.deep.equal([]);
      // At the newer one's end, both go and the account is told ended.
      await waitFor(() => told.length, 'the account told ended at the newer session\'s end', newer.endsAt! - Date.now() + 5000);
      expect(await stored()).to.deep.equal([]);
    } finally {
      off();
    }
  });
});
