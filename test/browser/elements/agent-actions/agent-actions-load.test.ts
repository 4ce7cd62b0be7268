/**
 * <agent-actions> when its code loaded on demand (its calls to the service, agent-actions.flows.ts,
 * with core/agent.ts's poller behind them) fails to load: in real Chromium, with the modules served
 * by the test server, whose failures the rig makes real (503, or a dropped connection). Each test on
 * a page of its own (shared/load.ts): the test page has loaded them already.
 */
import { expect } from 'chai';
import type { AgentActions } from '../../../../src/elements/agent-actions/agent-actions.ts';
import { goOffline } from '../../support/rig.ts';
import { freshPage, inState, mountIn, nextEvent, parts, text, waitForState } from '../shared/helpers.ts';
import { itLoadsAgainOrSaysReload, requestedIn, shownButtons, useLoadRig } from '../shared/load.ts';

const FLOWS = '/src/elements/agent-actions/agent-actions.flows.ts';
const POLLER = '/src/core/agent.ts';

describe('<agent-actions> when its code fails to load', () => {
  const rig = useLoadRig();
  const subject = () => ({
    dbName: rig.dbName,
    tag: 'agent-actions',
    attributes: { 'poll-interval': '60000' },
    setup: (el: HTMLElement) => ((el as AgentActions).agentToken = rig.acct.agentToken),
  });
  const mounted = async () => {
    const { dbName, tag, attributes, setup } = subject();
    return mountIn<AgentActions>(await freshPage(dbName), tag, attributes, setup);
  };
  const listed = async (el: AgentActions) => {
    await waitForState(el, 'ready');
    await el.updateComplete;
    expect(parts(el, 'action')).to.have.length(20);
  };

  it('asks for its calls to the service only once its first screen is drawn, and lists the actions with them', async () => {
    const el = await mounted();
    for (const path of [FLOWS, POLLER]) expect(requestedIn(el, path), `${path} asked for before the first screen was drawn`).to.equal(false);
    expect(inState(el, 'loading')).to.equal(true);
    await listed(el);
    expect(requestedIn(el, FLOWS)).to.equal(true);
  });

  itLoadsAgainOrSaysReload<AgentActions>([FLOWS, POLLER], rig, 'agent-actions-error', subject, 'a first page', (el) => inState(el, 'failed'), 'lists the actions', listed);

  it('offline, asks for none of its calls and says to check the connection (network) with "Try again"; back online, it lists the actions with no reload', async () => {
    const page = await freshPage(rig.dbName);
    // Long enough for the first screen, which asks nothing of the network offline.
    const offline = await goOffline(3000);
    const { tag, attributes, setup } = subject();
    const el = await mountIn<AgentActions>(page, tag, attributes, setup);
    const { detail } = await nextEvent<CustomEvent<{ code: string; message: string; operation: string }>>(el, 'agent-actions-error');
    expect([detail.code, detail.operation, detail.message]).to.deep.equal(['network', 'load', 'We couldn’t reach the server. Check your connection and try again.']);
    for (const path of [FLOWS, POLLER]) expect(requestedIn(el, path), `${path} asked for offline`).to.equal(false);
    await el.updateComplete;
    expect(shownButtons(el)).to.include('Try again');
    await offline.online();
    await listed(el);
    expect(text(el, 'error')).to.equal('');
  });
});
