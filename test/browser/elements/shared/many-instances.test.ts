/**
 * Several instances of the elements on one page, and elements of several accounts, in Chromium
 * against the real sandbox through the real proxy at /api, as integrators use them: a header and a
 * modal `<wallet-login>` of one wallet, an admin page with elements of two wallets, two
 * `<card-reveal>`s of two cards, twenty of each element at once. Each instance keeps its own state
 * and events; a session is shared by the elements of its account and by no other; a start-up check
 * is not made once per instance where one answers them all.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import '../../../../src/elements/card-reveal/index.ts';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import '../../../../src/elements/passkey-register/passkey-register.ts';
import '../../../../src/elements/delegated-keys/delegated-keys.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import type { LoggedInDetail, LoggedOutDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { clientFor, onSessionChange, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { fixtures, newAccount, openOtherTab, sandboxVariant } from '../../support/rig.ts';
import { configureWallet } from '../../../../src/elements/shared/config.ts';
import { holdAnswer, mount, nextEvent, part, resetPage, shadow, type, useRig, useRigAccount, waitFor, waitForState } from './helpers.ts';
import { methodButton } from '../wallet-login/helpers.ts';

afterEach(resetPage);

/** The page's requests since `since` (Resource Timing) whose path matches. */
function requests(path: RegExp, since: number): string[] {
  return performance
    .getEntriesByType('resource')
    .filter((e) => e.startTime >= since && path.test(new URL(e.name).pathname))
    .map((e) => e.name);
}

async function loggedInElsewhere(acct: { accountId: string; emailCredentialId: string }): Promise<void> {
  await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
}

describe('many instances: <wallet-login>', function () {
  this.timeout(60000);
  before(() => performance.setResourceTimingBufferSize(5000));

  it('a login in the header element shows in the modal one, and a logout in either tells the other', async () => {
    const { acct } = await useRigAccount();
    const header = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const modal = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(header, 'choosing');
    await waitForState(modal, 'choosing');
    const seen: Array<[string, string]> = [];
    document.body.addEventListener('wallet-logged-in', (e) => seen.push([(e.target as Element) === header ? 'header' : 'modal', (e as CustomEvent<LoggedInDetail>).detail.source]));
    const modalIn = nextEvent<CustomEvent<LoggedInDetail>>(modal, 'wallet-logged-in');
    methodButton(header, 'email-otp').click();
    await waitForState(header, 'code-entry');
    type(part(header, 'code-input') as HTMLInputElement, '000000');
    await waitForState(header, 'logged-in');
    const detail = (await modalIn).detail;
    expect(detail.accountId).to.equal(acct.accountId);
    expect(detail.sessionId).to.equal(header.session?.sessionId);
    // (In either order: the modal may hear of the session before the header reports its own.)
    expect(seen.sort()).to.deep.equal([
      ['header', 'login'],
      ['modal', 'elsewhere'],
    ]);
    const headerOut = nextEvent<CustomEvent<LoggedOutDetail>>(header, 'wallet-logged-out');
    const modalOut = nextEvent<CustomEvent<LoggedOutDetail>>(modal, 'wallet-logged-out');
    modal.logout();
    expect((await modalOut).detail.reason).to.equal('logout');
    expect((await headerOut).detail).to.deep.equal({ accountId: acct.accountId, reason: 'elsewhere' });
    await waitForState(header, 'choosing');
  });

  it('elements of one wallet hear each other when one names the proxy by its own api-base, or came before configureWallet', async () => {
    const acct = await newAccount();
    const early = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    await useRig();
    const header = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const modal = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'api-base': `${location.origin}/api` });
    for (const el of [early, header, modal]) await waitForState(el, 'choosing');
    const heard = [nextEvent<CustomEvent<LoggedInDetail>>(modal, 'wallet-logged-in'), nextEvent<CustomEvent<LoggedInDetail>>(early, 'wallet-logged-in')];
    methodButton(header, 'email-otp').click();
    await waitForState(header, 'code-entry');
    type(part(header, 'code-input') as HTMLInputElement, '000000');
    await waitForState(header, 'logged-in');
    for (const e of await Promise.all(heard)) expect(e.detail).to.include({ accountId: acct.accountId, sessionId: header.session!.sessionId, source: 'elsewhere' });
    const out = [nextEvent<CustomEvent<LoggedOutDetail>>(header, 'wallet-logged-out'), nextEvent<CustomEvent<LoggedOutDetail>>(early, 'wallet-logged-out')];
    modal.logout();
    for (const e of await Promise.all(out)) expect(e.detail.reason).to.equal('elsewhere');
  });

  it('<wallet-credentials> beside <wallet-login> follows its login and its logout', async () => {
    const { acct } = await useRigAccount();
    const login = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const creds = await mount('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
    await waitForState(login, 'choosing');
    await waitForState(creds, 'ready');
    expect(creds.matches(':state(signed-in)')).to.equal(false);
    methodButton(login, 'email-otp').click();
    await waitForState(login, 'code-entry');
    type(part(login, 'code-input') as HTMLInputElement, '000000');
    await waitForState(login, 'logged-in');
    await waitForState(creds, 'signed-in');
    login.logout();
    await waitForState(login, 'choosing');
    await waitFor(() => !creds.matches(':state(signed-in)'), 'wallet-credentials signed out');
  });

  it('an element of wallet B neither shows nor hears of wallet A’s session', async () => {
    await useRig();
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await loggedInElsewhere(a);
    const elA = await mount<WalletLogin>('wallet-login', { 'account-id': a.accountId });
    const elB = await mount<WalletLogin>('wallet-login', { 'account-id': b.accountId });
    let heardB = 0;
    for (const name of ['wallet-logged-in', 'wallet-logged-out']) elB.addEventListener(name, () => heardB++);
    await waitForState(elA, 'logged-in');
    await waitForState(elB, 'choosing');
    expect(elB.session).to.equal(null);
    const out = nextEvent(elA, 'wallet-logged-out');
    elA.logout();
    await out;
    await new Promise((r) => setTimeout(r, 300));
    expect(heardB).to.equal(0);
    expect(elB.matches(':state(choosing)')).to.equal(true);
  });

  it('two elements of two wallets waiting for codes each keep and submit their own', async () => {
    await useRig();
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const elA = await mount<WalletLogin>('wallet-login', { 'account-id': a.accountId });
    const elB = await mount<WalletLogin>('wallet-login', { 'account-id': b.accountId });
    for (const el of [elA, elB]) {
      await waitForState(el, 'choosing');
      methodButton(el, 'email-otp').click();
    }
    await waitForState(elA, 'code-entry');
    await waitForState(elB, 'code-entry');
    // The page comes back (a reload): each element returns to its own code screen.
    elA.remove();
    elB.remove();
    await new Promise((r) => setTimeout(r, 50));
    const againB = await mount<WalletLogin>('wallet-login', { 'account-id': b.accountId });
    const againA = await mount<WalletLogin>('wallet-login', { 'account-id': a.accountId });
    await waitForState(againA, 'code-entry');
    await waitForState(againB, 'code-entry');
    const inB = nextEvent<CustomEvent<LoggedInDetail>>(againB, 'wallet-logged-in');
    type(part(againB, 'code-input') as HTMLInputElement, '000000');
    expect((await inB).detail.accountId).to.equal(b.accountId);
    expect(againA.matches(':state(code-entry)')).to.equal(true);
    const inA = nextEvent<CustomEvent<LoggedInDetail>>(againA, 'wallet-logged-in');
    type(part(againA, 'code-input') as HTMLInputElement, '000000');
    expect((await inA).detail.accountId).to.equal(a.accountId);
  });

  it('twenty elements of one wallet check the stored session upstream once', async () => {
    const { acct } = await useRigAccount();
    await loggedInElsewhere(acct);
    const since = performance.now();
    const els = await Promise.all(Array.from({ length: 20 }, () => mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId })));
    for (const el of els) await waitForState(el, 'logged-in');
    // A check on its way is shared: a new one starts only once the one before has its answer (so a
    // machine slow to start twenty elements may make a few, one after another, never together).
    const lists = performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime >= since && /\/auth\/sessions$/.test(new URL(e.name).pathname)) as PerformanceResourceTiming[];
    expect(lists.length, 'checks of the session').to.be.at.least(1);
    const together = lists.filter((e, i) => i > 0 && e.startTime < lists[i - 1]!.responseEnd);
    expect(together.map((e) => `${Math.round(e.startTime)} ms`), `checks on their way at once, of ${lists.length}`).to.deep.equal([]);
  });

  it('an element that starts after a renewal checks the renewed session upstream, not with the list an earlier start-up asked for', async () => {
    const { store, acct } = await useRigAccount();
    await loggedInElsewhere(acct);
    // The first element's list of active sessions, asked for before the renewal, arrives after it.
    const held = holdAnswer('GET', /\/auth\/sessions\?/);
    try {
      await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      await held.arrived;
      const renewed = await walletFor().refresh(acct.accountId);
      const second = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      // The renewed session is not in that list: the second element asks for its own.
      await waitForState(second, 'logged-in', 5000).catch(() => undefined);
      held.release();
      await waitFor(() => !second.matches(':state(restoring)'), 'the second element done starting');
      expect(second.session?.sessionId).to.equal(renewed.sessionId);
      expect((await store.get(acct.accountId))?.session.sessionId).to.equal(renewed.sessionId);
    } finally {
      held.undo();
    }
  });

  it('elements of one account starting at once through the proxies of two origins each take their own proxy’s answer', async () => {
    const { store } = await useRig();
    const variant = await sandboxVariant({ pageOrigin: location.origin });
    const acct = await newAccount();
    await loggedInElsewhere(acct);
    const held = holdAnswer('GET', /\/auth\/sessions\?/);
    try {
      await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      await held.arrived;
      // The page now points its wallets at another proxy, whose service has no such session.
      configureWallet({ apiBase: variant.apiBase, environment: 'sandbox', store });
      const other = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
      await waitFor(() => !other.matches(':state(restoring)'), 'the other element done starting', 5000).catch(() => undefined);
      held.release();
      await waitFor(() => !other.matches(':state(restoring)'), 'the other element done starting');
      expect(other.session).to.equal(null);
    } finally {
      held.undo();
    }
  });
});

/**
 * The reads of `path` since `since` (Resource Timing), and those of them that left while the one
 * before was still on its way: a read shared among callers never has a twin in flight.
 */
function reads(path: RegExp, since: number): { count: number; together: string[] } {
  const all = performance.getEntriesByType('resource').filter((e) => e.startTime >= since && path.test(new URL(e.name).pathname)) as PerformanceResourceTiming[];
  return { count: all.length, together: all.filter((e, i) => i > 0 && e.startTime < all[i - 1]!.responseEnd).map((e) => `${Math.round(e.startTime)} ms`) };
}

describe('many instances: lists', function () {
  this.timeout(60000);
  before(() => performance.setResourceTimingBufferSize(5000));

  it('twenty <wallet-credentials> of one wallet started together read its credentials upstream once', async () => {
    const { acct } = await useRigAccount();
    await loggedInElsewhere(acct);
    const since = performance.now();
    const els = await Promise.all(Array.from({ length: 20 }, () => mount('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId })));
    for (const el of els) await waitForState(el, 'ready');
    expect(els.map((el) => shadow(el).querySelectorAll('[part~=credential]').length)).to.deep.equal(Array(20).fill(1));
    // A read on its way is shared: a new one starts only once the one before has its answer (so a
    // machine slow to start twenty elements may make a few, one after another, never together).
    const { count, together } = reads(/\/auth\/credentials$/, since);
    expect(count, 'reads of the credentials').to.be.at.least(1);
    expect(together, `reads on their way at once, of ${count}`).to.deep.equal([]);
  });

  it('<wallet-login> and <wallet-credentials> of one wallet started together read its active sessions upstream once', async () => {
    const { acct } = await useRigAccount();
    await loggedInElsewhere(acct);
    const since = performance.now();
    const [login, ...creds] = await Promise.all([
      mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId }),
      ...Array.from({ length: 3 }, () => mount('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId })),
    ]);
    await waitForState(login!, 'logged-in');
    for (const el of creds) await waitForState(el, 'ready');
    const { count, together } = reads(/\/auth\/sessions$/, since);
    expect(count, 'reads of the sessions').to.be.at.least(1);
    expect(together, `reads on their way at once, of ${count}`).to.deep.equal([]);
  });

  it('twenty <delegated-keys> of one card started together read its keys upstream once', async () => {
    await useRig();
    const acct = await newAccount({ delegatedKeys: 2 });
    const since = performance.now();
    const els = await Promise.all(Array.from({ length: 20 }, () => mount('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId })));
    for (const el of els) await waitForState(el, 'ready');
    expect(els.map((el) => shadow(el).querySelectorAll('[part~=key]').length)).to.deep.equal(Array(20).fill(2));
    // Shared while on its way, as above: a few one after another on a slow machine, never together.
    const { count, together } = reads(/\/auth\/delegated-keys$/, since);
    expect(count, 'reads of the keys').to.be.at.least(1);
    expect(together, `reads on their way at once, of ${count}`).to.deep.equal([]);
  });

  it('a read asked for after a write to the list, while a read from before it is on its way, sees the write', async () => {
    const { acct } = await useRigAccount();
    await loggedInElsewhere(acct);
    const client = clientFor();
    // The first answer only is held (a hold counts once it is let go).
    let answers = 0;
    const held = holdAnswer('GET', /\/auth\/delegated-keys\?/, () => answers++ === 0);
    try {
      const before = client.listDelegatedKeys({ accountId: acct.accountId });
      await held.arrived;
      const made = await client.createDelegatedKey(
        { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Made meanwhile' },
        { stamper: await walletFor().stamper(acct.accountId) },
      );
      const after = await Promise.race([client.listDelegatedKeys({ accountId: acct.accountId }), new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
      held.release();
      expect(after, 'the read after the write, within 5 s while the one before is held').to.not.equal(null);
      expect(after!.map((k) => k.id), 'the read after the write').to.include(made.id);
      expect((await before).map((k) => k.id), 'the read from before it').to.not.include(made.id);
    } finally {
      held.undo();
    }
  });

  it('a read asked for once another tab told of a change to the list, while one from before is on its way, sees the change', async () => {
    const { dbName, acct } = await useRigAccount();
    await loggedInElsewhere(acct);
    const tab = await openOtherTab();
    let answers = 0;
    const held = holdAnswer('GET', /\/auth\/credentials\?/, () => answers++ === 0);
    try {
      tab.configureWallet({ apiBase: (await fixtures()).apiBase, environment: 'sandbox', store: tab.core.indexedDbKeyStore({ dbName }) });
      const before = clientFor().listCredentials(acct.accountId);
      await held.arrived;
      const told = new Promise<void>((resolve) => {
        const off = onSessionChange(undefined, ({ type }, otherTab) => otherTab && type === 'changed' && (off(), resolve()));
      });
      const sms = await tab.walletFor().addCredential({ type: 'SMS_OTP', accountId: acct.accountId });
      await told;
      const after = await Promise.race([clientFor().listCredentials(acct.accountId), new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
      held.release();
      expect(after, 'the read after the change, within 5 s while the one before is held').to.not.equal(null);
      expect(after!.map((c) => c.id), 'the read after the change').to.include(sms.id);
      expect((await before).map((c) => c.id), 'the read from before it').to.not.include(sms.id);
    } finally {
      held.undo();
      tab.close();
    }
  });
});

describe('many instances: <card-reveal>', function () {
  this.timeout(60000);

  it('two cards revealed at once: each its own frame, countdown and events; hiding one leaves the other', async () => {
    await useRig();
    const f = await fixtures();
    const other = await newAccount();
    const one = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    const two = await mount<CardReveal>('card-reveal', { 'card-id': other.cardId, 'allowed-origins': f.processorOrigin });
    const revealed: string[] = [];
    document.addEventListener('card-revealed', (e) => revealed.push(`${(e.target as CardReveal) === one ? 'one' : 'two'} ${(e as CustomEvent<{ cardId: string }>).detail.cardId}`));
    one.show();
    two.show();
    await waitForState(one, 'revealed');
    await waitForState(two, 'revealed');
    expect(revealed.sort()).to.deep.equal([`one ${f.cardId}`, `two ${other.cardId}`]);
    const frames = [one, two].map((el) => shadow(el).querySelectorAll('iframe'));
    expect(frames.map((f) => f.length)).to.deep.equal([1, 1]);
    expect(part(one, 'countdown')?.textContent).to.match(/\d/);
    expect(part(two, 'countdown')?.textContent).to.match(/\d/);
    const hidden = nextEvent(one, 'card-hidden');
    let twoHidden = false;
    two.addEventListener('card-hidden', () => (twoHidden = true));
    part(one, 'hide-button')!.click();
    await hidden;
    await new Promise((r) => setTimeout(r, 1100));
    expect(twoHidden).to.equal(false);
    expect(two.matches(':state(revealed)')).to.equal(true);
    expect(shadow(two).querySelectorAll('iframe').length).to.equal(1);
    expect(shadow(one).querySelectorAll('iframe').length).to.equal(0);
    expect(part(two, 'countdown')?.textContent).to.match(/\d/);
  });
});

describe('many instances: ARIA relations', function () {
  it('every id an element references is inside its own shadow root', async () => {
    const { acct } = await useRigAccount();
    const els = [
      await mount('wallet-login', { 'account-id': acct.accountId }),
      await mount('wallet-login', { 'account-id': acct.accountId }),
      await mount('wallet-credentials', { 'account-id': acct.accountId }),
      await mount('passkey-register', { 'account-id': acct.accountId }),
      await mount('card-reveal', { 'card-id': acct.cardId }),
      await mount('card-reveal', { 'card-id': acct.cardId }),
    ];
    for (const el of els) await waitFor(() => !el.matches(':state(restoring), :state(loading)'), 'settled');
    await new Promise((r) => setTimeout(r, 300));
    const broken: string[] = [];
    for (const el of els) {
      const root = shadow(el);
      for (const node of root.querySelectorAll('*')) {
        for (const attr of ['aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-errormessage', 'for', 'list']) {
          for (const id of node.getAttribute(attr)?.split(/\s+/).filter(Boolean) ?? []) {
            if (!root.getElementById(id)) broken.push(`${el.tagName} ${node.tagName} ${attr}=${id}`);
          }
        }
      }
      for (const attr of ['aria-labelledby', 'aria-describedby']) if (el.hasAttribute(attr)) broken.push(`${el.tagName} host ${attr}`);
    }
    expect(broken).to.deep.equal([]);
  });
});
