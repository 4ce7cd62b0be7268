/**
 * What <agent-actions> makes of the 401s an agent route can give, in real Chromium over real HTTP
 * through the real proxy to the real sandbox: the service refusing the agent's token (a plain 401
 * UNAUTHORIZED) is the agent's access gone, while the proxy's own `authorize` refusing the page (the
 * site's user not signed in: 401 with details.reason AUTHORIZE) is a sign-in to ask for, after which
 * "Try again" works; the same when a poll meets it.
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import type { AgentActions, AgentActionsErrorEvent } from '../../../../src/elements/agent-actions/index.ts';
import { sandboxVariant, type RigFixtures } from '../../support/rig.ts';
import { resetPage, shadow, text, useRig, waitFor } from '../shared/helpers.ts';

const signIn = () => void (document.cookie = 'site-user=1; path=/');
const signOut = () => void (document.cookie = 'site-user=; path=/; max-age=0');
const retryButton = (el: AgentActions) => [...shadow(el).querySelectorAll('button')].find((b) => /Try again/.test(b.textContent ?? ''));

describe('<agent-actions> 401s of an agent route', () => {
  let v: RigFixtures;
  before(async () => {
    await useRig();
    // Its proxy asks the site's sign-in (a cookie) on every route, the agent's too.
    v = await sandboxVariant({ siteLogin: true });
  });
  afterEach(async () => {
    signOut();
    await resetPage();
  });

  it("the proxy's authorize refusing the page asks for a sign-in, with Try again, on a load and on a poll; the agent's token refused is its access gone", async () => {
    signOut();
    const errors: Array<AgentActionsErrorEvent['detail']> = [];
    const el = document.createElement('agent-actions') as AgentActions;
    for (const [k, v2] of Object.entries({ 'api-base': v.apiBase, 'page-size': '4', 'poll-interval': '60000' })) el.setAttribute(k, v2);
    el.addEventListener('agent-actions-error', (e) => errors.push((e as AgentActionsErrorEvent).detail));
    el.agentToken = v.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(failed)'), 'the refused first page');
    await el.updateComplete;
    expect(errors.map((e) => [e.operation, e.code, e.status])).to.deep.equal([['load', 'session_required', 401]]);
    expect(text(el, 'error')).to.match(/Sign in/);
    expect(text(el, 'error')).to.not.match(/access has expired/);

    // Signed in on the site, "Try again" loads the list and polls.
    signIn();
    retryButton(el)!.click();
    await waitFor(() => el.matches(':state(ready)') && el.matches(':state(polling)'), 'the list, polling');

    // Signed out meanwhile: the next poll is refused the same way, and says so.
    signOut();
    el.checkNow();
    await waitFor(() => el.matches(':state(failed)'), 'the refused poll');
    await el.updateComplete;
    expect(errors.slice(1).map((e) => [e.operation, e.code])).to.deep.equal([['poll', 'session_required']]);
    expect(text(el, 'error')).to.match(/Sign in/);
    signIn();
    retryButton(el)!.click();
    await waitFor(() => el.matches(':state(ready)'), 'the list again');

    // A token the service does not know (signed in): the agent's access is gone, nothing to try again.
    el.agentToken = 'agent_not-a-token-of-this-service';
    await waitFor(() => el.matches(':state(failed)'), 'the refused token');
    await el.updateComplete;
    expect(errors.at(-1)).to.include({ operation: 'load', code: 'unauthorized', status: 401 });
    expect(text(el, 'error')).to.match(/access has expired or was revoked/);
    expect(retryButton(el)).to.equal(undefined);
  });

  it('"load more" refused for want of a sign-in stops polling at once, says so as a poll does, and Try again restarts the list and the poller', async () => {
    signIn();
    const errors: Array<AgentActionsErrorEvent['detail']> = [];
    const el = document.createElement('agent-actions') as AgentActions;
    // Polls every 100 ms: one left running would meet the same 401 before long.
    for (const [k, v2] of Object.entries({ 'api-base': v.apiBase, 'page-size': '4', 'poll-interval': '100', 'poll-max-interval': '100' })) el.setAttribute(k, v2);
    el.addEventListener('agent-actions-error', (e) => errors.push((e as AgentActionsErrorEvent).detail));
    el.agentToken = v.agentToken;
    document.body.append(el);
    await waitFor(() => el.matches(':state(ready)') && el.matches(':state(polling)'), 'the list, polling');
    await el.updateComplete;

    signOut();
    const refused = new Promise<void>((resolve) => el.addEventListener('agent-actions-error', () => resolve(), { once: true }));
    (shadow(el).querySelector('[part="load-more-button"]') as HTMLButtonElement).click();
    await refused;
    // Stopped as the 401 arrives, not by a poll meeting it later.
    expect(el.matches(':state(polling)'), 'polling after the refused "load more"').to.equal(false);
    await new Promise((r) => setTimeout(r, 600));
    await el.updateComplete;
    expect(errors.map((e) => [e.operation, e.code, e.status])).to.deep.equal([['load-more', 'session_required', 401]]);
    expect(el.matches(':state(failed)')).to.equal(true);
    expect(text(el, 'error')).to.match(/Sign in/);

    signIn();
    retryButton(el)!.click();
    await waitFor(() => el.matches(':state(ready)') && el.matches(':state(polling)'), 'the list, polling again');
    expect(errors).to.have.length(1);
  });
});
