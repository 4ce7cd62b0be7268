/**
 * README "Single sign-on": the worked `codeFlowProvider`, read from the README itself and run
 * against the sandbox's test issuer in a real popup. The element treats an `AbortError` from its
 * provider as the user's cancellation (wallet-login.flows.ts), so both ways of giving up must end
 * with one: Cancel in the element (the signal) and closing the sign-in window.
 */
import { expect } from 'chai';
import { fixtures } from './support/rig.ts';
import { waitFor } from './elements/shared/helpers.ts';

type Provider = (nonce: string, options: { signal: AbortSignal }) => Promise<string>;
type CodeFlowProvider = (options: { authorizationEndpoint: string; tokenEndpoint: string; clientId: string; redirectUri: string }) => Provider;

/** The README's example as written, but for its last line (which hands the provider to an element). */
async function readmeCodeFlowProvider(): Promise<CodeFlowProvider> {
  const readme = await (await fetch('/README.md')).text();
  const block = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes('function codeFlowProvider('));
  if (!block) throw new Error('README has no codeFlowProvider example');
  return new Function(`${block.replace(/^document\.querySelector\(.*$/m, '')}\nreturn codeFlowProvider;`)() as CodeFlowProvider;
}

describe('README single sign-on example (codeFlowProvider)', () => {
  let provider: Provider;
  let opened: Window[];
  const open = window.open;

  beforeEach(async () => {
    const { oidcIssuer } = await fixtures();
    provider = (await readmeCodeFlowProvider())({
      authorizationEndpoint: `${oidcIssuer}/authorize`,
      tokenEndpoint: `${oidcIssuer}/token`,
      clientId: 'wallet-elements-sandbox',
      redirectUri: new URL('/oidc-callback.html', location.href).href,
    });
    // The real window.open; only the windows it gives are kept, to close them as a user would.
    opened = [];
    window.open = (...args) => {
      const w = open.apply(window, args);
      if (w) opened.push(w);
      return w;
    };
  });

  afterEach(() => {
    window.open = open;
    for (const w of opened) w.close();
  });

  const outcome = (p: Promise<string>) => p.then((token) => ({ name: 'resolved', token }), (e: Error) => e);

  it('ends with an AbortError when the user closes the sign-in window', async () => {
    const result = outcome(provider('0'.repeat(64), { signal: new AbortController().signal }));
    const popup = await waitFor(() => opened[0], 'the sign-in window');
    popup.close();
    expect((await result).name).to.equal('AbortError');
  });

  it('ends with an AbortError and closes the window when the element cancels', async () => {
    const cancel = new AbortController();
    const result = outcome(provider('0'.repeat(64), { signal: cancel.signal }));
    const popup = await waitFor(() => opened[0], 'the sign-in window');
    cancel.abort();
    expect((await result).name).to.equal('AbortError');
    expect(popup.closed).to.equal(true);
  });
});
