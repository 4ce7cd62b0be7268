/**
 * Every element on a page of a bank's integrator whose Content-Security-Policy is strict, in real
 * Chromium against the real sandbox through the real proxy: `default-src 'self'` with no
 * 'unsafe-inline' or 'unsafe-eval' (styles too: constructable stylesheets only, no style attribute
 * and no <style> element), `frame-src` the card processor's origin and nothing else, and Trusted
 * Types enforced with Lit's policy (`lit-html`) the only one allowed (README "Content-Security-Policy").
 *
 * The policy is put on the page (a <meta http-equiv>, which Chromium applies from its insertion on)
 * before any element's code is imported, so that Lit creates its policy, and every element defines
 * itself and loads its on-demand modules (<card-reveal>'s reveal request and step-up proof,
 * <passkey-register>'s and <delegated-keys>'s flows), under it. Each test walks the element's main
 * flow and fails on any `securitypolicyviolation` of the page (style, frame, connect, Trusted
 * Types), on an uncaught error or rejection (as every test does: support/uncaught.ts), and on a
 * style attribute or <style> element in what it rendered. In a file of its own: a policy cannot be taken back from a page once it applies.
 */
import { expect } from 'chai';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { addVirtualAuthenticator, authenticatorCredentials, fixtures, newAgentAction, sandboxVariant, type RigAccount } from '../../support/rig.ts';
import { logInByEmail, mount, nextEvent, part, parts, resetPage, shadow, type, useRigAccount, waitFor, waitForState } from './helpers.ts';

/** What the page reported breaking its policy since the last test (what goes uncaught fails its test: support/uncaught.ts). */
const problems: string[] = [];
document.addEventListener('securitypolicyviolation', (e) => {
  problems.push(`${e.effectiveDirective} refused ${e.blockedURI || 'an inline use'} (${e.sourceFile || 'no file'}:${e.lineNumber}) ${e.sample}`);
});

// A proxy that asks for the card-reveal step-up, so that <card-reveal> loads both its on-demand
// modules; its processor page is on an origin of its own, the only one the policy lets be framed.
const stepUp = await sandboxVariant({ stepUp: true });

const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  `frame-src ${stepUp.processorOrigin}`,
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html',
].join('; ');

const meta = document.createElement('meta');
meta.httpEquiv = 'Content-Security-Policy';
meta.content = POLICY;
document.head.append(meta);

// Under the policy from here on: Lit creates its policy as it is imported.
await Promise.all([
  import('../../../../src/elements/wallet-login/index.ts'),
  import('../../../../src/elements/passkey-register/index.ts'),
  import('../../../../src/elements/wallet-credentials/index.ts'),
  import('../../../../src/elements/card-reveal/index.ts'),
  import('../../../../src/elements/delegated-keys/index.ts'),
  import('../../../../src/elements/agent-actions/index.ts'),
]);

/** The style attributes and <style> elements in an element's shadow tree, nested shadow roots included. */
function inlineStyles(el: Element): string[] {
  const found: string[] = [];
  const walk = (root: ShadowRoot) => {
    for (const node of root.querySelectorAll('*')) {
      if (node.hasAttribute('style')) found.push(`<${node.localName} style="${node.getAttribute('style')}">`);
      if (node.localName === 'style') found.push('<style>');
      if (node.shadowRoot) walk(node.shadowRoot);
    }
  };
  walk(shadow(el));
  return found;
}

/** The module paths the page has loaded (Resource Timing). */
const loadedModules = (): string[] => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname);

/** Lets reports of the last steps arrive (violation events are queued as tasks). */
const reportsIn = () => new Promise((r) => setTimeout(r, 100));

/**
 * Each test's last step: the element rendered no style attribute or <style> element, and the page
 * reported no violation meanwhile (listed one a line, to read in a failure).
 */
async function expectClean(el: Element): Promise<void> {
  expect(inlineStyles(el), 'style attributes and <style> elements rendered').to.deep.equal([]);
  await reportsIn();
  expect(problems.splice(0).join('\n'), 'policy violations').to.equal('');
}

describe('every element under a strict Content-Security-Policy with Trusted Types', function () {
  this.timeout(60000);
  let acct: RigAccount;
  beforeEach(async () => ({ acct } = await useRigAccount()));

  afterEach(async function () {
    // What a failed test left is its own, not the next one's.
    problems.length = 0;
    await resetPage.call(this);
  });

  it('the policy is in force: an inline style, a string written as HTML, another Trusted Types policy and a frame of another origin are refused and reported', async () => {
    const probe = document.createElement('div');
    document.body.append(probe);
    try {
      probe.setAttribute('style', 'color: red');
      expect(() => (probe.innerHTML = '<b>x</b>')).to.throw(TypeError);
      const { trustedTypes } = window as unknown as { trustedTypes: { createPolicy(name: string, rules: object): unknown } };
      expect(() => trustedTypes.createPolicy('another', { createHTML: (s: string) => s })).to.throw();
      const frame = document.createElement('iframe');
      frame.src = `${location.origin}/`;
      probe.append(frame);
      await waitFor(() => problems.length >= 4, 'the four reports');
      await reportsIn();
    } finally {
      probe.remove();
    }
    const directives = problems.splice(0).map((p) => p.split(' ')[0]);
    expect(directives).to.include.members(['style-src-attr', 'require-trusted-types-for', 'trusted-types', 'frame-src']);
    // Lit's policy was allowed: every element is defined.
    for (const tag of ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions']) {
      expect(customElements.get(tag), tag).to.not.equal(undefined);
    }
  });

  it('<wallet-login> logs in by email code', async () => {
    const el = await mount('wallet-login', { 'account-id': acct.accountId });
    await logInByEmail(el);
    await waitForState(el, 'logged-in');
    await expectClean(el);
  });

  it('<passkey-register> adds a passkey with the virtual authenticator', async () => {
    await addVirtualAuthenticator();
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount('passkey-register', { 'account-id': acct.accountId, nickname: 'Work laptop' });
    await waitForState(el, 'ready');
    (part(el, 'submit') as HTMLButtonElement).click();
    await waitForState(el, 'done', 20000);
    expect((await authenticatorCredentials()).credentials).to.have.length(1);
    expect(loadedModules()).to.include('/src/elements/passkey-register/passkey-register.flows.ts');
    await expectClean(el);
  });

  it('<wallet-credentials> lists the credentials and sessions, and adds text message codes', async () => {
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId });
    const idle = () => waitFor(() => el.matches(':state(ready)') && !el.matches(':state(busy)'), 'the element to settle');
    await idle();
    expect(parts(el, 'credential')).to.have.length(1);
    shadow(el).querySelector<HTMLButtonElement>("[part~='add-button'][data-type='SMS_OTP']")!.click();
    await waitForState(el, 'code-entry');
    await idle();
    type(part(el, 'code-input') as HTMLInputElement, '000000');
    (part(el, 'code-form') as HTMLFormElement).requestSubmit();
    await waitFor(() => part(el, 'status')?.textContent?.includes('ready to use'), 'the activation notice');
    await idle();
    expect(parts(el, 'credential')).to.have.length(2);
    await expectClean(el);
  });

  it('<card-reveal> loads its reveal code, proves the session, and frames the processor page, then hides it', async () => {
    const wallet = walletFor(stepUp.apiBase);
    await (await wallet.startOtpLogin({ credentialId: stepUp.emailCredentialId })).submit('000000');
    const el = await mount('card-reveal', {
      'card-id': stepUp.cardId,
      'api-base': stepUp.apiBase,
      'allowed-origins': stepUp.processorOrigin,
      'account-id': stepUp.accountId,
      'require-session': '',
    });
    const shown = Promise.race([nextEvent<CustomEvent>(el, 'card-revealed'), nextEvent<CustomEvent>(el, 'card-reveal-error')]);
    (part(el, 'reveal-button') as HTMLButtonElement).click();
    const event = await shown;
    expect(event.type, JSON.stringify(event.detail)).to.equal('card-revealed');
    const frame = shadow(el).querySelector('iframe')!;
    await nextEvent(frame, 'load', 10000).catch(() => undefined);
    expect(loadedModules()).to.include.members(['/src/elements/card-reveal/reveal-request.ts', '/src/elements/card-reveal/step-up-proof.ts']);
    expect(inlineStyles(el), 'while shown').to.deep.equal([]);
    const hidden = nextEvent(el, 'card-hidden');
    (part(el, 'hide-button') as HTMLButtonElement).click();
    await hidden;
    await wallet.logout(stepUp.accountId);
    await expectClean(el);
  });

  it('<delegated-keys> creates a key with a limit', async () => {
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    (part(el, 'new-button') as HTMLButtonElement).click();
    await waitFor(() => part(el, 'form'), 'the form');
    type(shadow(el).querySelector<HTMLInputElement>("input[name='nickname']")!, 'Groceries');
    const created = nextEvent(el, 'delegated-key-created');
    (part(el, 'submit-button') as HTMLButtonElement).click();
    await created;
    await waitFor(() => parts(el, 'key').length === 1, 'the new key');
    await expectClean(el);
  });

  it('<agent-actions> lists the agent’s actions and shows a new one', async () => {
    const el = document.createElement('agent-actions') as HTMLElement & { agentToken: string };
    el.setAttribute('poll-interval', '150');
    el.agentToken = acct.agentToken;
    document.body.append(el);
    await waitForState(el, 'ready');
    const created = await newAgentAction(acct.agentId, 'EXECUTE_QUOTE');
    await waitFor(() => parts(el, 'action').some((a) => a.getAttribute('aria-labelledby') === `action-${created.id.replace(/[^A-Za-z0-9-]/g, '-')}`), 'the new action');
    await expectClean(el);
  });
});
