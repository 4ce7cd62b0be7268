/**
 * <wallet-credentials> when its code loaded on demand (its flows, wallet-credentials.flows.ts, with
 * shared/wallet.ts beside them, then core/session.ts behind it) fails to load: in real Chromium,
 * with the modules served by the test server, whose failures the rig makes real (503, or a dropped
 * connection). Each test on a page of its own (shared/load.ts): the test page has loaded them already.
 */
import { expect } from 'chai';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import { advanceClock, goOffline } from '../../support/rig.ts';
import { freshPage, inState, mountIn, nextEvent, part, text, waitFor } from '../shared/helpers.ts';
import { itLoadsAgainOrSaysReload, requestedIn, useLoadRig } from '../shared/load.ts';
import { idle, loginByEmail } from './helpers.ts';

const FLOWS = '/src/elements/wallet-credentials/wallet-credentials.flows.ts';
const WALLET = '/src/elements/shared/wallet.ts';
const SESSION = '/src/core/session.ts';

describe('<wallet-credentials> when its code fails to load', () => {
  const rig = useLoadRig('login');
  const subject = () => ({ dbName: rig.dbName, tag: 'wallet-credentials', attributes: { 'account-id': rig.acct.accountId } });

  it('asks for its flows only once its first screen is drawn, and lists the logins with them', async () => {
    const el = await mountIn<WalletCredentials>(await freshPage(rig.dbName), 'wallet-credentials', subject().attributes);
    expect(requestedIn(el, FLOWS), 'asked for before the first screen was drawn').to.equal(false);
    expect(inState(el, 'loading')).to.equal(true);
    await idle(el);
    expect(requestedIn(el, FLOWS)).to.equal(true);
  });

  itLoadsAgainOrSaysReload<WalletCredentials>([FLOWS, WALLET, SESSION], rig, 'wallet-credentials-error', subject, 'a read of the lists', (el) => el.matches(':state(load-failed)'), 'lists the logins', idle);

  it('offline, asks for none of its code and says to check the connection (network); back online, it lists the logins with no reload', async () => {
    const page = await freshPage(rig.dbName);
    // Long enough for the first screen, which asks nothing of the network offline.
    const offline = await goOffline(3000);
    const el = await mountIn<WalletCredentials>(page, 'wallet-credentials', subject().attributes);
    const { detail } = await nextEvent<CustomEvent<{ code: string; message: string; operation: string }>>(el, 'wallet-credentials-error');
    expect([detail.code, detail.operation, detail.message]).to.deep.equal(['network', 'load', 'The wallet service could not be reached. Check your connection and try again.']);
    expect(requestedIn(el, FLOWS), 'asked for offline').to.equal(false);
    await offline.online();
    await idle(el);
    expect(text(el, 'error')).to.equal('');
    // Its watch of the wallet's logins starts with the flows, not only when the element connects: a
    // login in another tab lists its session.
    const sessions = () => part(el, 'sessions')!.children.length;
    const before = sessions();
    // (Past the wait between two codes to one address: the suite logged in with one a moment ago.)
    await advanceClock(60_000);
    await loginByEmail(rig.acct);
    await waitFor(() => sessions() === before + 1, `a session more than ${before} listed`);
  });
});
