/**
 * The elements as a single-page application uses them, in Chromium against the real sandbox through
 * the real proxy: moved within the page by a framework (appendChild elsewhere: disconnected and
 * connected again in one task), which must neither stop nor repeat what they do; removed (a route
 * change), which stops what they run and leaves nothing half done; and put back. Requests are
 * counted as the page makes them (every one still goes out).
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/passkey-register/index.ts';
import '../../../../src/elements/wallet-credentials/index.ts';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/index.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import type { PasskeyRegister } from '../../../../src/elements/passkey-register/index.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/index.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { addVirtualAuthenticator, newAgentAction, type RigAccount } from '../../support/rig.ts';
import { holdAnswer, holdNext, loginByEmail, mount, part, parts, pollStart, resetPage, shadow, useRigAccount, waitFor, waitForState } from './helpers.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The page's requests from now on, as `METHOD path?query` (a pass-through: each still goes out). */
function requests(): { made: string[]; restore: () => void } {
  const original = window.fetch;
  const made: string[] = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const { pathname, search } = new URL(request.url);
    made.push(`${request.method} ${pathname}${search}`);
    return original(input, init);
  };
  return { made, restore: () => (window.fetch = original) };
}

/**
 * The polls of <agent-actions> from now on (each starts with the request `pollStart` names): how many went out, and how many went out while
 * another was on its way (one poller never has two at once).
 */
function watchPolls(): { count: () => number; overlapped: () => number; restore: () => void } {
  const original = window.fetch;
  let count = 0;
  let onTheWay = 0;
  let overlapped = 0;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!pollStart().test(new Request(input, init).url)) return original(input, init);
    count++;
    if (++onTheWay > 1) overlapped++;
    try {
      return await original(input, init);
    } finally {
      onTheWay--;
    }
  };
  return { count: () => count, overlapped: () => overlapped, restore: () => (window.fetch = original) };
}

/**
 * One poller at 200 ms after `since`: still polling (waited for, however slow the machine), at most
 * one poll per 200 ms and the one a start may add, never two at once.
 */
async function expectOnePoller(polls: ReturnType<typeof watchPolls>, since: number): Promise<void> {
  await waitFor(() => polls.count() >= 2, 'two polls', 10000);
  const elapsed = performance.now() - since;
  expect(polls.count(), `polls in ${Math.round(elapsed)} ms`).to.be.at.most(Math.ceil(elapsed / 200) + 1);
  expect(polls.overlapped(), 'polls on their way at once').to.equal(0);
}

/** Asks `check` every 100 ms until it answers something (rejects with `what` after 5 s). */
async function until<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (const start = performance.now(); performance.now() - start < 5000; await pause(100)) {
    const value = await check();
    if (value) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The containers `move` made, taken off the page after each test with what they hold. */
const boxes: HTMLElement[] = [];

/** Moves the element to a new container at the end of the page, as a framework re-parenting it does. */
function move(el: Element): void {
  boxes.push(document.body.appendChild(document.createElement('div')));
  boxes.at(-1)!.append(el);
}

/** `el` moved as it loads, moved again once `loaded` holds (`what`), then half a second for what that might start. */
async function movedAsItLoads(el: Element, loaded: () => boolean, what: string): Promise<void> {
  move(el);
  await waitFor(loaded, what);
  move(el);
  await pause(500);
}

/** A `<wallet-login>` of the account on its code screen, the code typed and submitted. */
async function submitCode(el: WalletLogin): Promise<void> {
  await waitForState(el, 'choosing');
  shadow(el).querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
  await waitForState(el, 'code-entry');
  (part(el, 'code-input') as HTMLInputElement).value = '000000';
  shadow(el).querySelector('form')!.requestSubmit();
}

describe('the elements moved, removed and put back', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(async function () {
    for (const box of boxes.splice(0)) box.remove();
    await resetPage.call(this);
  });

  it('<agent-actions> moved keeps its rows and its poller, and reads no page again', async () => {
    await newAgentAction(acct.agentId);
    const el = document.createElement('agent-actions') as AgentActions;
    el.setAttribute('poll-interval', '200');
    el.setAttribute('poll-max-interval', '200');
    el.agentToken = acct.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(polling)') && parts(el, 'action').length > 0, 'the list, polled');
    const row = parts(el, 'action')[0];
    const seen = requests();
    const polls = watchPolls();
    try {
      const since = performance.now();
      move(el);
      await pause(1000);
      await expectOnePoller(polls, since);
      // The same row (no reset and reload), its poller still going.
      expect(parts(el, 'action')[0] === row, 'the same row').to.equal(true);
      expect(el.matches(':state(polling)')).to.equal(true);
      // Under "All" each poll starts with the first page (limit=20), its pending list after it when
      // needed: a pending list not right after a first page would be a poll of another shape, and a
      // load of the list again would show new rows (above) and more first pages than polls (the bound).
      const reads = seen.made.map((r) => (r.includes('PENDING_APPROVAL') ? 'p' : r.includes('limit=20') ? 'f' : '')).join('');
      expect(reads, 'each poll a first page, then at most its pending list').to.match(/^(fp?)*$/);
    } finally {
      polls.restore();
      seen.restore();
    }
  });

  it('<agent-actions> moved as it loads its first page asks for it once', async () => {
    const seen = requests();
    try {
      const el = document.createElement('agent-actions') as AgentActions;
      el.setAttribute('poll-interval', '60000');
      el.agentToken = acct.agentToken;
      document.body.append(el);
      await el.updateComplete;
      move(el);
      await waitFor(() => el.matches(':state(polling)'), 'the list, polled');
      await pause(300);
      // The first page once, then the poll's own read of it (under "All", the whole poll of a list
      // that holds no waiting action).
      expect(seen.made).to.deep.equal(['GET /api/agents/me/actions?limit=20', 'GET /api/agents/me/actions?limit=20']);
    } finally {
      seen.restore();
    }
  });

  it('<delegated-keys> moved reads its list once: not again when moved idle, nor twice when moved as it loads', async () => {
    await loginByEmail(acct);
    const seen = requests();
    try {
      const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
      await movedAsItLoads(el, () => el.matches(':state(ready)'), 'the list');
      expect(el.matches(':state(ready)')).to.equal(true);
      expect(seen.made.filter((r) => r.includes('/auth/delegated-keys'))).to.have.length(1);
    } finally {
      seen.restore();
    }
  });

  it('<wallet-credentials> moved reads its lists once, and one put back and taken away in one task asks nothing more', async () => {
    await loginByEmail(acct);
    const seen = requests();
    try {
      const el = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
      await movedAsItLoads(el, () => el.matches(':state(ready)') && !el.matches(':state(busy)'), 'the lists');
      const lists = () => seen.made.filter((r) => /\/auth\/(credentials|sessions)\?/.test(r));
      expect(lists(), 'each list once').to.have.length(2);
      // Away from the page, then back and away again in one task (a route that bounces): nothing
      // runs once it is gone, not even the reading of the lists its return started.
      el.remove();
      await pause(0);
      seen.made.length = 0;
      document.body.append(el);
      el.remove();
      await pause(1000);
      expect(seen.made).to.deep.equal([]);
      // Back for good: it reads the lists again and shows them.
      document.body.append(el);
      await waitFor(() => el.matches(':state(ready)') && !el.matches(':state(busy)') && lists().length === 2, 'the lists read again');
    } finally {
      seen.restore();
    }
  });

  it('<wallet-login> moved while logged in stays logged in without checking its session again', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await submitCode(el);
    await waitForState(el, 'logged-in');
    const seen = requests();
    const states: string[] = [];
    const watch = setInterval(() => el.matches(':state(logged-in)') || states.push('not logged in'));
    try {
      move(el);
      await pause(500);
      expect([seen.made, states, el.matches(':state(logged-in)')]).to.deep.equal([[], [], true]);
    } finally {
      clearInterval(watch);
      seen.restore();
    }
  });

  it('<wallet-login> moved while its code is checked logs in with the session the code made', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    // The verify's answer (the session) is held on the wire while a framework moves the element.
    const held = holdAnswer('POST', /\/verify$/, (r) => r.status === 200);
    try {
      await submitCode(el);
      await held.arrived;
      move(el);
      held.release();
      await waitForState(el, 'logged-in');
    } finally {
      held.undo();
    }
    const listed = await clientFor().listSessions(acct.accountId);
    expect(listed.map((s) => s.id)).to.deep.equal([el.session!.sessionId]);
  });

  it('<wallet-login> logout() and taken off the page at once (a route change): the session still ends upstream', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await submitCode(el);
    await waitForState(el, 'logged-in');
    el.logout();
    el.remove();
    await until(async () => (await clientFor().listSessions(acct.accountId)).length === 0, 'no session left upstream');
    expect(await walletFor().current(acct.accountId)).to.equal(undefined);
  });

  it('<wallet-login> logout(), taken off the page and put back while the logout runs: the session ends upstream, and back it shows the methods', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await submitCode(el);
    await waitForState(el, 'logged-in');
    // The revocation waits before it leaves while the element goes and comes back (a route there and back).
    const held = holdNext('DELETE', /\/auth\/sessions\//);
    try {
      el.logout();
      await held.arrived;
      el.remove();
      await pause(0);
      document.body.append(el);
      // Its start-up check, once painted again, comes meanwhile.
      await pause(500);
      held.release();
      await waitFor(() => el.matches(':state(choosing)') && !el.matches(':state(busy)'), 'the methods');
    } finally {
      held.undo();
    }
    await until(async () => (await clientFor().listSessions(acct.accountId)).length === 0, 'no session left upstream');
    expect(await walletFor().current(acct.accountId)).to.equal(undefined);
  });

  it('<wallet-login> taken off the page while its code is checked, back (the same element, or a new one) shows the session the code made, not the spent code’s screen', async () => {
    const kept = () => Object.keys(sessionStorage).filter((k) => k.startsWith('wallet-elements:code:') && k.endsWith(acct.accountId));
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const held = holdAnswer('POST', /\/verify$/, (r) => r.status === 200);
    try {
      await submitCode(el);
      await held.arrived;
      el.remove();
      held.release();
      await held.read;
    } finally {
      held.undo();
    }
    // The check ran to its end: the session the code made is kept, here and upstream; the code is spent.
    const session = await until(() => walletFor().current(acct.accountId), 'the code’s session kept');
    expect((await clientFor().listSessions(acct.accountId)).map((s) => s.id)).to.deep.equal([session.sessionId]);
    expect(kept(), 'no code kept for a return').to.deep.equal([]);
    const settled = (login: WalletLogin) => waitFor(() => ['choosing', 'code-entry', 'logged-in'].some((s) => login.matches(`:state(${s})`)) && !login.matches(':state(busy)'), 'the start-up check');
    document.body.append(el);
    await settled(el);
    expect(el.session?.sessionId, 'the same element put back: the session').to.equal(session.sessionId);
    el.remove();
    const other = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await settled(other);
    expect(other.session?.sessionId, 'a new element: the session').to.equal(session.sessionId);
  });

  it('<passkey-register> moved while the passkey is saved ends done, with the passkey kept', async () => {
    await addVirtualAuthenticator();
    await loginByEmail(acct);
    const el = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    const held = holdAnswer('POST', /\/auth\/credentials$/, (r) => r.status === 201);
    try {
      (part(el, 'submit') as HTMLButtonElement).click();
      await held.arrived;
      move(el);
      held.release();
      await waitForState(el, 'done', 20000);
    } finally {
      held.undo();
    }
    const passkeys = (await clientFor().listCredentials(acct.accountId)).filter((c) => c.type === 'PASSKEY');
    expect(passkeys).to.have.length(1);
  });

  it('taken off and put back 50 times (route changes), then off: nothing runs after, and back again each works', async () => {
    await loginByEmail(acct);
    const polling = document.createElement('agent-actions') as AgentActions;
    polling.setAttribute('poll-interval', '200');
    polling.setAttribute('poll-max-interval', '200');
    polling.agentToken = acct.agentToken;
    document.body.append(polling);
    const keys = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const lists = await mount<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId });
    const passkey = await mount<PasskeyRegister>('passkey-register', { 'account-id': acct.accountId });
    const all = [polling, keys, login, lists, passkey];
    await waitFor(() => polling.matches(':state(polling)') && login.matches(':state(logged-in)') && lists.matches(':state(ready)'), 'every element working');
    const seen = requests();
    try {
      for (let i = 0; i < 50; i++) {
        for (const el of all) el.remove();
        await pause(0);
        for (const el of all) document.body.append(el);
        await pause(0);
      }
      for (const el of all) el.remove();
      await pause(50);
      seen.made.length = 0;
      await pause(1500);
      expect(seen.made, 'requests after the last removal').to.deep.equal([]);
      for (const el of all) document.body.append(el);
      await waitFor(() => polling.matches(':state(polling)') && login.matches(':state(logged-in)') && lists.matches(':state(ready)') && keys.matches(':state(ready)'), 'every element working again');
      // One poller, not one per time it was put back.
      const polls = watchPolls();
      try {
        const since = performance.now();
        await pause(1000);
        await expectOnePoller(polls, since);
      } finally {
        polls.restore();
      }
    } finally {
      seen.restore();
    }
  });
});
