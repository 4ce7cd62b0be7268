/**
 * <wallet-login> when its flows (wallet-login.flows.ts, loaded on demand) fail to load: in real
 * Chromium, with the module served by the test server, whose failures the rig makes real (503, or a
 * dropped connection). Each test on a page of its own (shared/load.ts).
 */
import { expect } from 'chai';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { closeIdleConnections, failNextLoad, goOffline, newAccount, type FreshPage, type RigAccount } from '../../support/rig.ts';
import { freshPage, inState, loginByEmail, mountIn, nextEvent, part, parts, shadow, text, waitFor, waitForState } from '../shared/helpers.ts';
import { droppedLoad, failedLoad, RELOAD, requestedIn, useLoadRig } from '../shared/load.ts';
import { challenges, errorCodes, errorOfChoice, methodButton, typeSandboxCode } from './helpers.ts';

const FLOWS = '/src/elements/wallet-login/wallet-login.flows.ts';

describe('<wallet-login> when its flows fail to load', () => {
  const rig = useLoadRig();
  const subject = () => ({ dbName: rig.dbName, tag: 'wallet-login', attributes: { 'account-id': rig.acct.accountId, methods: 'email-otp', 'no-autofill': '' } });

  it('is busy from its first screen until the code it loads after that screen has arrived and the start-up check has ended', async () => {
    const page = await freshPage(rig.dbName);
    const el = await mountIn<WalletLogin>(page, 'wallet-login', subject().attributes);
    expect(requestedIn(el, FLOWS), 'asked for before the first screen was drawn').to.equal(false);
    expect({ restoring: inState(el, 'restoring'), busy: inState(el, 'busy') }).to.deep.equal({ restoring: true, busy: true });
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods, no longer busy');
    expect(requestedIn(el, FLOWS)).to.equal(true);
  });

  it('asks for none of that code while it has no account-id, and for it once given one', async () => {
    const page = await freshPage(rig.dbName);
    const el = await mountIn<WalletLogin>(page, 'wallet-login', { methods: 'email-otp' });
    // An element with an account on a page beside it, mounted after this one: its code asked for
    // and the start-up check ended, this one would have asked for its own by then.
    const beside = await mountIn<WalletLogin>(await freshPage(rig.dbName), 'wallet-login', subject().attributes);
    await waitFor(() => inState(beside, 'choosing'), 'the methods beside it');
    expect(requestedIn(el, FLOWS), 'asked for with no account').to.equal(false);
    expect(text(el, 'intro')).to.contain('account-id');
    el.accountId = rig.acct.accountId;
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods, once given an account');
    expect(requestedIn(el, FLOWS)).to.equal(true);
  });

  it('says to check the connection and reload the page (load_failed), and says so again at a click once the server serves the file again', async () => {
    const { el } = await failedLoad<WalletLogin>(FLOWS, rig.retried, 'wallet-login-error', subject());
    await waitForState(el, 'choosing');
    expect(inState(el, 'busy'), 'busy once the load failed').to.equal(false);
    // Why not "try again": the click cannot load what this page keeps failed (the defect: the same
    // "could not be reached" at every click, forever).
    if (!rig.retried) {
      // The sentence goes while the code is asked for again (Lit takes its text away) and comes back
      // with the second failure: a live region whose text never changed would not be read out again.
      const removed: string[] = [];
      const watch = new MutationObserver((records) => removed.push(...records.flatMap((r) => [...r.removedNodes].map((n) => n.textContent ?? ''))));
      watch.observe(part(el, 'error')!, { childList: true, subtree: true });
      expect(await errorOfChoice(el, 'email-otp')).to.equal('load_failed');
      await el.updateComplete;
      watch.disconnect();
      expect({ removed, now: text(el, 'error') }).to.deep.equal({ removed: [RELOAD], now: RELOAD });
    }
  });

  it('shows the first step of a way chosen after the failure while its code is asked for again, as it shows it with that code loaded', async () => {
    const { el } = await failedLoad<WalletLogin>(FLOWS, rig.retried, 'wallet-login-error', subject());
    await waitForState(el, 'choosing');
    methodButton(el, 'email-otp').focus();
    methodButton(el, 'email-otp').click();
    await el.updateComplete;
    // Before: the methods, busy ({ sending: false, heading: 'Log in to your wallet', intro: 'Choose how you want to log in.', … }).
    expect({ sending: inState(el, 'sending-code'), busy: inState(el, 'busy'), heading: text(el, 'heading'), intro: text(el, 'intro'), status: text(el, 'status'), error: text(el, 'error'), focused: shadow(el).activeElement === part(el, 'heading') }).to.deep.equal({
      sending: true,
      busy: true,
      heading: 'Check your email',
      intro: 'Sending your code…',
      status: 'Sending your code…',
      error: '',
      focused: true,
    });
    if (rig.retried) return waitForState(el, 'code-entry');
    // Failed again: back on the methods, as from a code that could not be sent, the keyboard on the first.
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods again');
    expect(text(el, 'error')).to.equal(RELOAD);
    await el.updateComplete;
    expect(shadow(el).activeElement === methodButton(el, 'email-otp'), 'the keyboard on the first method').to.equal(true);
  });

  it('loads them again at once, unseen, after a dropped connection, and sends a code', async () => {
    const el = await droppedLoad<WalletLogin>(FLOWS, 'wallet-login-error', subject(), async (el) => {
      // (The methods show before the flows arrive: the click waits for them.)
      await waitForState(el, 'choosing');
      methodButton(el, 'email-otp').click();
      await waitForState(el, 'code-entry');
    });
    expect(text(el, 'error')).to.equal('');
  });

  it('offline, asks for nothing and says to check the connection and try again (network); a method chosen once back online works, with no reload', async () => {
    // An account of its own: the test before sent the other one a code a moment ago.
    const own = await newAccount();
    const page = await freshPage(rig.dbName);
    // Long enough for the start-up, which asks nothing of the network offline.
    const offline = await goOffline(3000);
    const el = await mountIn<WalletLogin>(page, 'wallet-login', { ...subject().attributes, 'account-id': own.accountId });
    const { detail } = await nextEvent<CustomEvent<{ code: string; message: string }>>(el, 'wallet-login-error');
    expect([detail.code, detail.message]).to.deep.equal(['network', 'The wallet service could not be reached. Check your connection and try again.']);
    expect(requestedIn(el, FLOWS), 'asked for offline').to.equal(false);
    await offline.online();
    // Back online, it starts again by itself, as on a page just loaded: the methods, nothing said.
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy') && !text(el, 'error'), 'the session, with no failure');
    expect(requestedIn(el, FLOWS)).to.equal(true);
    methodButton(el, 'email-otp').click();
    await waitForState(el, 'code-entry');
    expect(text(el, 'error')).to.equal('');
    // Logged in so, it follows the wallet's sessions as after any start: ended by another element
    // of the page, its session is gone here too (before: it stayed logged in, unwatched).
    await typeSandboxCode(el);
    const other = await mountIn<WalletLogin>(page, 'wallet-login', { ...subject().attributes, 'account-id': own.accountId });
    await waitForState(other, 'logged-in');
    other.logout();
    await waitForState(el, 'choosing');
  });
});

/**
 * Cancel on the first step of a way chosen after the flows failed to load, shown while they load
 * again. Their loads drop until the element says `load_failed` (each test with an account of its
 * own: a code one sends would be refused as too soon in the next); then the file is served again.
 * Chromium asks again for a module whose connection dropped (shared/load.ts), so the choice loads
 * it, over a real request, after the cancel; Firefox keeps it failed for the page (support/README.md),
 * so there the load fails again.
 */
describe('<wallet-login> with a way chosen, and perhaps cancelled, while its flows load again', () => {
  const rig = useLoadRig();
  const arrives = !navigator.userAgent.includes('Firefox/');

  /**
   * `<wallet-login methods=…>` on a fresh page, on the methods with `load_failed`, the file served
   * again. `stored`: its wallet logged in on this device first (a session it never looked up).
   */
  async function failedByDrops(methods: string, setup?: (el: WalletLogin) => void, stored?: 'stored'): Promise<{ el: WalletLogin; page: FreshPage; own: RigAccount }> {
    const own = await newAccount();
    if (stored) await loginByEmail(own);
    const page = await freshPage(rig.dbName);
    await closeIdleConnections();
    // (More than the element asks for: the browser sends a load dropped on an idle connection again.)
    await failNextLoad(FLOWS, 10, true);
    const el = await mountIn<WalletLogin>(page, 'wallet-login', { 'account-id': own.accountId, methods, 'no-autofill': '' }, setup);
    expect((await nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error')).detail.code).to.equal('load_failed');
    await failNextLoad(FLOWS, 0);
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods, with the failure');
    return { el, page, own };
  }

  it('ends a session stored on this device at a logout() after the cancel, once the code is there (no way goes ahead)', async () => {
    const { el, page, own } = await failedByDrops('email-otp', undefined, 'stored');
    const loggedOut: string[] = [];
    el.addEventListener('wallet-logged-out', (e) => loggedOut.push((e as CustomEvent<{ reason: string }>).detail.reason));
    methodButton(el, 'email-otp').click();
    await el.updateComplete;
    el.cancel();
    el.logout();
    await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods, once the load ended');
    if (!arrives) {
      // Failed again: the session stays until a later call (wallet-login.ts logout()).
      expect([text(el, 'error'), !!(await rig.store.get(own.accountId))]).to.deep.equal([RELOAD, true]);
      return;
    }
    // Before: the methods, the session still stored here and live upstream ({ stored: true, … }).
    expect({ stored: !!(await rig.store.get(own.accountId)), loggedOut, codes: challenges(page.window), error: text(el, 'error') }).to.deep.equal({ stored: false, loggedOut: ['logout'], codes: 0, error: '' });
  });

  it('shows a session stored on this device once the code is there after the cancel (its start-up check runs then), the keyboard kept in the element', async () => {
    const { el, page, own } = await failedByDrops('email-otp', undefined, 'stored');
    const stored = (await rig.store.get(own.accountId))!.session.sessionId;
    methodButton(el, 'email-otp').click();
    await el.updateComplete;
    parts(el, 'button').find((b) => b.textContent!.trim() === 'Cancel')!.click();
    await el.updateComplete;
    expect(shadow(el).activeElement, 'the keyboard on the first method').to.equal(methodButton(el, 'email-otp'));
    if (!arrives) return waitFor(() => inState(el, 'choosing') && !inState(el, 'busy') && text(el, 'error') === RELOAD, 'the methods, failed again');
    // Before: the methods, the session stored here never looked up (shown after a reload only).
    await waitFor(() => inState(el, 'logged-in') && !text(el, 'error'), 'the session stored here');
    await el.updateComplete;
    expect({ session: el.session?.sessionId, codes: challenges(page.window), focused: !!shadow(el).activeElement }).to.deep.equal({ session: stored, codes: 0, focused: true });
  });

  it('shows a session stored on this device once the code is there, in place of the way chosen (its start-up check runs then), and sends no code', async () => {
    const { el, page, own } = await failedByDrops('email-otp', undefined, 'stored');
    const stored = (await rig.store.get(own.accountId))!.session.sessionId;
    const sources: string[] = [];
    el.addEventListener('wallet-logged-in', (e) => sources.push((e as CustomEvent<{ source: string }>).detail.source));
    methodButton(el, 'email-otp').click();
    await el.updateComplete;
    expect(inState(el, 'sending-code'), "the way's first step while its code loads").to.equal(true);
    if (!arrives) return waitFor(() => inState(el, 'choosing') && !inState(el, 'busy') && text(el, 'error') === RELOAD, 'the methods, failed again');
    // Before: a code asked for (refused here, as too soon after the login's own), the session
    // stored here never looked up.
    await waitFor(() => !['sending-code', 'restoring', 'busy'].some((s) => inState(el, s)) || undefined, 'the end of the step');
    await el.updateComplete;
    expect({ session: el.session?.sessionId, sources, codes: challenges(page.window), error: text(el, 'error'), focused: !!shadow(el).activeElement }).to.deep.equal({ session: stored, sources: ['restored'], codes: 0, error: '', focused: true });
  });

  it('offers Cancel on "Sending your code…"; pressed, the methods show at once, and the code, once there, sends none', async () => {
    const { el, page } = await failedByDrops('email-otp');
    methodButton(el, 'email-otp').focus();
    methodButton(el, 'email-otp').click();
    await el.updateComplete;
    const cancel = parts(el, 'button').find((b) => b.textContent!.trim() === 'Cancel');
    // Before: no Cancel ({ …, cancel: false }) until the load ended.
    expect({ sending: inState(el, 'sending-code'), busy: inState(el, 'busy'), intro: text(el, 'intro'), cancel: !!cancel, focused: shadow(el).activeElement === part(el, 'heading') }).to.deep.equal({ sending: true, busy: true, intro: 'Sending your code…', cancel: true, focused: true });
    cancel!.click();
    await el.updateComplete;
    // As the loaded element shows them after a cancel: no failure said, the keyboard on the first method.
    expect({ choosing: inState(el, 'choosing'), heading: text(el, 'heading'), intro: text(el, 'intro'), error: text(el, 'error'), status: text(el, 'status'), focused: shadow(el).activeElement === methodButton(el, 'email-otp') }).to.deep.equal({
      choosing: true,
      heading: 'Log in to your wallet',
      intro: 'Choose how you want to log in.',
      error: '',
      status: '',
      focused: true,
    });
    // The keyboard moved on meanwhile: the end of the load leaves it there.
    part(el, 'heading')!.focus();
    const errors = errorCodes(el);
    await waitFor(() => !inState(el, 'busy'), 'the end of the load');
    await el.updateComplete;
    // Where it failed again: the methods as a failure there shows them, and nothing more.
    expect({ choosing: inState(el, 'choosing'), codes: challenges(page.window), error: text(el, 'error'), errors, focused: shadow(el).activeElement === part(el, 'heading') }).to.deep.equal({
      choosing: true,
      codes: 0,
      error: arrives ? '' : RELOAD,
      errors: arrives ? [] : ['load_failed'],
      focused: true,
    });
    if (!arrives) return;
    // A way chosen now goes ahead (the request counted).
    methodButton(el, 'email-otp').click();
    await waitForState(el, 'code-entry');
    expect(challenges(page.window)).to.equal(1);
  });

  it('goes ahead with a way chosen again after a cancel, while the code still loads', async () => {
    const { el, page } = await failedByDrops('email-otp');
    methodButton(el, 'email-otp').click();
    await el.updateComplete;
    el.cancel();
    await el.updateComplete;
    methodButton(el, 'email-otp').click();
    await el.updateComplete;
    // (A click there ignored until the load ends would leave the methods: { sending: false, … }.)
    expect({ sending: inState(el, 'sending-code'), heading: text(el, 'heading'), focused: shadow(el).activeElement === part(el, 'heading') }).to.deep.equal({ sending: true, heading: 'Check your email', focused: true });
    if (!arrives) return waitFor(() => inState(el, 'choosing') && text(el, 'error') === RELOAD, 'the methods, failed again');
    await waitForState(el, 'code-entry');
    expect(challenges(page.window)).to.equal(1);
  });

  it('returns to the methods at once at cancel() on the identity provider’s wait, and the code, once there, asks no provider', async () => {
    const asked: string[] = [];
    const { el } = await failedByDrops('oauth', (el) => (el.oidcTokenProvider = (nonce) => (asked.push(nonce), new Promise<string>(() => undefined))));
    methodButton(el, 'oauth').focus();
    methodButton(el, 'oauth').click();
    await el.updateComplete;
    expect({ authenticating: inState(el, 'authenticating'), intro: text(el, 'intro'), cancel: parts(el, 'button').map((b) => b.textContent!.trim()) }).to.deep.equal({ authenticating: true, intro: 'Waiting for your identity provider…', cancel: ['Cancel'] });
    el.cancel();
    await el.updateComplete;
    // Before: still on the wait ({ choosing: false, … }), the cancel kept for the code.
    expect({ choosing: inState(el, 'choosing'), error: text(el, 'error'), focused: shadow(el).activeElement === methodButton(el, 'oauth') }).to.deep.equal({ choosing: true, error: '', focused: true });
    await waitFor(() => !inState(el, 'busy'), 'the end of the load');
    await el.updateComplete;
    expect({ choosing: inState(el, 'choosing'), asked, error: text(el, 'error') }).to.deep.equal({ choosing: true, asked: [], error: arrives ? '' : RELOAD });
    if (!arrives) return;
    // A way chosen now goes ahead: the wallet's identities are looked up (it has none, which the
    // screen then says; the provider is not asked for a window the list ruled out).
    const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
    methodButton(el, 'oauth').click();
    expect((await error).detail.code).to.equal('no_credential');
  });
});

describe('<wallet-login> taken off the page while offline', () => {
  const rig = useLoadRig();
  const recovered = (el: WalletLogin) => inState(el, 'logged-in') && !text(el, 'error');

  /**
   * Offline, two elements of a wallet logged in on this device: `loading` (its code not loaded, on a
   * fresh page) and `checking` (its code on its page already: only the start-up check fails), each on
   * the methods with `network`; `meanwhile` is what the page does next, still offline. Then online:
   * the `online` listeners the pages had at the end.
   */
  async function offlineThen(meanwhile: (loading: WalletLogin, checking: WalletLogin) => Promise<void>): Promise<{ loading: WalletLogin; checking: WalletLogin; listening: number }> {
    // (Accounts and sessions of their own, one each, so that neither check waits on the other's:
    // each test's end empties the key store.)
    const [own, other] = [await newAccount(), await newAccount()];
    await loginByEmail(own);
    await loginByEmail(other);
    const attributes = (acct: RigAccount) => ({ 'account-id': acct.accountId, methods: 'email-otp', 'no-autofill': '' });
    const [first, second] = [await freshPage(rig.dbName), await freshPage(rig.dbName)];
    // (Its code loaded on that page by an element before it.)
    const before = await mountIn<WalletLogin>(second, 'wallet-login', attributes(other));
    await waitForState(before, 'logged-in');
    before.remove();
    const offline = await goOffline(3000, 'online');
    const loading = await mountIn<WalletLogin>(first, 'wallet-login', attributes(own));
    const checking = await mountIn<WalletLogin>(second, 'wallet-login', attributes(other));
    for (const el of [loading, checking]) await waitFor(() => inState(el, 'choosing') && text(el, 'error').includes('could not be reached'), 'the methods, with network');
    await meanwhile(loading, checking);
    await offline.online();
    return { loading, checking, listening: await offline.listening() };
  }

  it('stops listening for the way back online, and asks for nothing then; put back, it starts as on a page just loaded', async () => {
    const { loading, checking, listening } = await offlineThen(async (loading, checking) => {
      loading.remove();
      checking.remove();
      await new Promise((r) => setTimeout(r));
    });
    // Before: 2 (the load's and the check's, each keeping its element until back online).
    expect(listening, 'online listeners left').to.equal(0);
    expect(requestedIn(loading, FLOWS), 'asked for off the page').to.equal(false);
    loading.ownerDocument.body.append(loading);
    checking.ownerDocument.body.append(checking);
    for (const el of [loading, checking]) await waitFor(() => recovered(el), 'the session, put back, with no failure');
    expect(requestedIn(loading, FLOWS)).to.equal(true);
  });

  it('back online, its code loaded then but its start-up check not carried yet (a network coming up): the check runs again a moment later, and the session shows with no click', async () => {
    const own = await newAccount();
    await loginByEmail(own);
    const page = await freshPage(rig.dbName);
    const offline = await goOffline(3000, 'online');
    const el = await mountIn<WalletLogin>(page, 'wallet-login', { 'account-id': own.accountId, methods: 'email-otp', 'no-autofill': '' });
    await waitFor(() => inState(el, 'choosing') && text(el, 'error').includes('could not be reached'), 'the methods, with network');
    // That page's first check once online: its answer lost on the way.
    const send = page.window.fetch;
    let lost = 0;
    page.window.fetch = async (input, init) => {
      const answer = await send(input, init);
      if (lost || !/\/auth\/sessions\?/.test(input instanceof Request ? input.url : String(input))) return answer;
      lost++;
      throw new TypeError('Failed to fetch');
    };
    await offline.online();
    // Before: the element's code, loaded at `online`, ran its check once; failed, it waited for
    // another `online` event, with the methods and the failure.
    await waitFor(() => recovered(el), 'the session, with no failure');
    expect([lost, requestedIn(el, FLOWS)]).to.deep.equal([1, true]);
  });

  it('put back while still offline, listens once, and starts again by itself once back online; moved in the page, it keeps listening', async () => {
    const { loading, listening } = await offlineThen(async (loading, checking) => {
      loading.remove();
      await new Promise((r) => setTimeout(r));
      const failed = nextEvent<CustomEvent<{ code: string }>>(loading, 'wallet-login-error');
      loading.ownerDocument.body.append(loading);
      checking.ownerDocument.body.prepend(checking);
      expect((await failed).detail.code).to.equal('network');
    });
    // One each. Before: 3 (the load's first listener kept beside the one of its load put back).
    expect(listening, 'online listeners').to.equal(2);
    // (Not waited for: the moved one's check again. Under the rig's offline emulation the page can
    // hear `online` before its requests go through, and that check, sent at once, fails again.)
    await waitFor(() => recovered(loading), 'the session, with no failure');
    expect(requestedIn(loading, FLOWS)).to.equal(true);
  });
});

describe('<wallet-login> logged in on this device, when its flows fail to load', () => {
  const rig = useLoadRig('login');

  it('asks for them again at logout(), since the start-up check never ran: the stored session ends where they load, and the failure is told again where they cannot', async () => {
    const attributes = { 'account-id': rig.acct.accountId, methods: 'email-otp', 'no-autofill': '' };
    const { el } = await failedLoad<WalletLogin>(FLOWS, rig.retried, 'wallet-login-error', { dbName: rig.dbName, tag: 'wallet-login', attributes });
    await waitForState(el, 'choosing');
    expect(await rig.store.list(), 'kept while the element could not check it').to.have.length(1);
    if (rig.retried) {
      // (A browser that loads a failed module again: the server serves it again now.)
      const ended = nextEvent(el, 'wallet-logged-out');
      el.logout();
      await ended;
      await waitFor(() => inState(el, 'choosing') && !inState(el, 'busy'), 'the methods after the logout');
      expect(await rig.store.list()).to.deep.equal([]);
    } else {
      // Before: the call was dropped (the methods showed, and the session stayed, with nothing said).
      const error = nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error');
      el.logout();
      expect((await error).detail.code).to.equal('load_failed');
      await waitForState(el, 'choosing');
      expect(text(el, 'error')).to.equal(RELOAD);
      expect(await rig.store.list(), 'kept: nothing could end it').to.have.length(1);
    }
  });

  it('offline at the start, shows the session stored here once back online, with no click', async () => {
    // (An account and session of its own: each test's end empties the key store, and the rig's
    // account was sent a code a moment ago.)
    const own = await newAccount();
    await loginByEmail(own);
    const page = await freshPage(rig.dbName);
    const offline = await goOffline(3000);
    const el = await mountIn<WalletLogin>(page, 'wallet-login', { 'account-id': own.accountId, methods: 'email-otp', 'no-autofill': '' });
    expect((await nextEvent<CustomEvent<{ code: string }>>(el, 'wallet-login-error')).detail.code).to.equal('network');
    methodButton(el, 'email-otp').focus();
    await offline.online();
    // Before: the methods and "could not be reached" stayed until a click, the session unchecked.
    await waitForState(el, 'logged-in');
    expect(text(el, 'error')).to.equal('');
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement, 'the keyboard left the element').to.not.equal(null);
  });
});
