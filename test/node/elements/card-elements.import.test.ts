// Importing <card-reveal>, <delegated-keys>, <agent-actions> and the browser entry on a server
// (Node, no DOM) must not throw and must define the elements in the registry a DOM shim provides
// there (@lit-labs/ssr-dom-shim, what Lit's server rendering installs), touching no storage or
// network (STYLE.md: no "CustomEvent is not defined" on the server). Without any shim, importing
// must not throw either: test/node/packaging/dist.test.ts imports every published entry so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HTMLElement, customElements } from '@lit-labs/ssr-dom-shim';

Object.assign(globalThis, { HTMLElement, customElements });

for (const tag of ['card-reveal', 'delegated-keys', 'agent-actions']) {
  test(`importing ${tag} on a server (DOM shim) defines it`, async () => {
    assert.equal(typeof document, 'undefined');
    const mod = (await import(`../../../src/elements/${tag}/index.ts`)) as Record<string, unknown>;
    assert.ok(Object.keys(mod).length > 0);
    assert.equal(typeof customElements.get(tag), 'function');
  });
}

test('the browser entry imports on a server and exports every element, the configuration and the core', async () => {
  const entry = (await import('../../../src/index.ts')) as Record<string, unknown>;
  for (const name of ['WalletLogin', 'PasskeyRegister', 'WalletCredentials', 'CardReveal', 'DelegatedKeys', 'AgentActions']) {
    assert.equal(typeof entry[name], 'function', name);
  }
  for (const name of ['configureWallet', 'setStrings', 'setLocale', 'createClient', 'createWallet', 'pollAgentActions']) {
    assert.equal(typeof entry[name], 'function', name);
  }
  for (const tag of ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions']) {
    assert.equal(typeof customElements.get(tag), 'function', tag);
  }
});

test('event classes construct on Node 20 (global CustomEvent) without secrets in their detail', async () => {
  const { CardRevealedEvent, CardHiddenEvent } = await import('../../../src/elements/card-reveal/index.ts');
  const e = new CardRevealedEvent({ cardId: 'Card:x', expiresAt: '2026-01-01T00:00:00Z' });
  assert.equal(e.type, 'card-revealed');
  assert.equal(e.bubbles, true);
  assert.equal(e.composed, true);
  assert.deepEqual(new CardHiddenEvent('expired').detail, { reason: 'expired' });
});
