/**
 * <wallet-login> when its flows (wallet-login.flows.ts, loaded on demand) fail to load: in real
 * Chromium, with the module served by the test server, whose failures the rig makes real (503, or a
 * dropped connection). Each test on a page of its own (shared/load.ts).
 */
import { expect } from 'chai';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { goOffline, newAccount } from '../../support/rig.ts';
import { freshPage, inState, mountIn, nextEvent, text, waitFor, waitForState } from '../shared/helpers.ts';
import { droppedLoad, failedLoad, requestedIn, useLoadRig } from '../shared/load.ts';
import { errorOfChoice, methodButton } from './helpers.ts';

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

  it('says to check the connection and reload the page (load_failed), and says so again at a click once the server serves the file again', async () => {
    const { el } = await failedLoad<WalletLogin>(FLOWS, rig.retried, 'wallet-login-error', subject());
    await waitForState(el, 'choosing');
    expect(inState(el, 'busy'), 'busy once the load failed').to.equal(false);
    // Why not "try again": the click cannot load what this page keeps failed (the defect: the same
    // "could not be reached" at every click, forever).
    if (!rig.retried) expect(await errorOfChoice(el, 'email-otp')).to.equal('load_failed');
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
    methodButton(el, 'email-otp').click();
    await waitForState(el, 'code-entry');
    expect(text(el, 'error')).to.equal('');
  });
});
