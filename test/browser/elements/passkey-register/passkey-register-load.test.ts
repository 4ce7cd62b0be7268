/**
 * <passkey-register> when its flows (passkey-register.flows.ts, loaded on demand) fail to load: in
 * real Chromium, with the module served by the test server, whose failures the rig makes real (503,
 * or a dropped connection). Each test on a page of its own (shared/load.ts).
 */
import { expect } from 'chai';
import type { PasskeyRegister } from '../../../../src/elements/passkey-register/passkey-register.ts';
import { part, text, waitFor, waitForState } from '../shared/helpers.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { droppedLoad, failedLoad, loadedIn, useLoadRig } from '../shared/load.ts';

const FLOWS = '/src/elements/passkey-register/passkey-register.flows.ts';

describe('<passkey-register> when its flows fail to load', () => {
  const rig = useLoadRig('login');
  const subject = () => ({ dbName: rig.dbName, tag: 'passkey-register', attributes: { 'account-id': rig.acct.accountId } });

  it('a registration whose flows did not load says to check the connection and reload the page (load_failed)', async () => {
    await failedLoad<PasskeyRegister>(FLOWS, rig.retried, 'passkey-register-error', subject(), async (el) => {
      await waitForState(el, 'ready');
      (part(el, 'submit') as HTMLButtonElement).click();
    });
  });

  it('loads them again at once, unseen, after a dropped connection, and hears the session end', async () => {
    const el = await droppedLoad<PasskeyRegister>(FLOWS, 'passkey-register-error', subject(), async (el) => {
      await waitForState(el, 'ready');
      // The session watch runs in the flows: a logout by this page (another tab, as the frame sees
      // it) takes the form away only once they are loaded. The watch asks core (core/session.ts,
      // loaded on that first call) for the session as it starts listening: by then it listens.
      await waitFor(() => loadedIn(el, '/src/core/session.ts'), 'the session watch to start');
      await walletFor().logout(rig.acct.accountId);
      await waitForState(el, 'login-required');
    });
    expect(text(el, 'error')).to.equal('');
  });
});
