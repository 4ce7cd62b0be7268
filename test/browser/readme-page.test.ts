/**
 * README "Use it in a page": its markup and its module script, read from the README and run as a
 * page runs them, against the sandbox through the proxy. A module script runs once the markup is
 * parsed, so its `import` defines (and connects) the elements before `configureWallet` is called:
 * the elements must follow that configuration all the same. The README's sandbox configuration
 * (`environment: 'sandbox'`, "Against the sandbox instead of the service") stands in for its
 * production one, whose pinned signer the sandbox's codes do not match. Nothing of the library is
 * imported by this file before the README's script runs.
 */
import { expect } from 'chai';
import { fixtures, newAccount } from './support/rig.ts';

/** The README's code block that follows `heading`. */
function block(readme: string, heading: string): string {
  const found = new RegExp('```html\\n([\\s\\S]*?)```').exec(readme.slice(readme.indexOf(heading)));
  if (!readme.includes(heading) || !found) throw new Error(`README has no html block under ${heading}`);
  return found[1]!;
}

/** Resolves once `check()` holds, polling; rejects after `ms`. */
async function until(check: () => boolean, what: string, ms = 15000): Promise<void> {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('README "Use it in a page", run as written', () => {
  it('defines every element, sets the login\'s provider, and logs in by email code with the configuration given after the import', async () => {
    const readme = await (await fetch('/README.md')).text();
    const page = block(readme, '## Use it in a page');
    const sandboxConfig = /`(configureWallet\(\{ apiBase: '\/api',\s+environment: 'sandbox' \}\))`/.exec(readme)?.[1]?.replace(/\s+/g, ' ');
    expect(sandboxConfig, 'the README\'s sandbox configuration').to.be.a('string');
    const script = /<script type="module">([\s\S]*?)<\/script>/.exec(page)![1]!;
    expect(script).to.include("configureWallet({ apiBase: '/api' });");
    const { apiBase } = await fixtures();
    expect(apiBase).to.equal('/api');
    const acct = await newAccount();

    // The markup first, with the rig's account, as the parser would have made it.
    const markup = page
      .replace(/<script type="module">[\s\S]*?<\/script>/, '')
      .replace(/InternalAccount:…/g, acct.accountId)
      .replace(/Customer:…/g, acct.customerId)
      .replace(/Card:…/g, acct.cardId);
    const host = document.createElement('div');
    host.innerHTML = markup;
    document.body.append(host);
    const login = host.querySelector('wallet-login')!;
    expect(customElements.get('wallet-login'), 'defined before the README\'s script ran').to.equal(undefined);

    // Then its script, as a module script of the page, with the package's entry at its source path.
    const run = document.createElement('script');
    run.type = 'module';
    run.textContent = script.replace("from 'wallet-elements'", "from '/src/index.ts'").replace("configureWallet({ apiBase: '/api' })", sandboxConfig!);
    const ran = new Promise((resolve) => window.addEventListener('readme-script-ran', resolve, { once: true }));
    run.textContent += "\nwindow.dispatchEvent(new Event('readme-script-ran'));";
    document.head.append(run);
    await ran;

    for (const tag of ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions']) {
      expect(customElements.get(tag), tag).to.be.a('function');
    }
    expect((login as unknown as { oidcTokenProvider?: unknown }).oidcTokenProvider).to.be.a('function');

    const loggedIn = new Promise<CustomEvent<{ accountId: string }>>((resolve) => login.addEventListener('wallet-logged-in', resolve as EventListener, { once: true }));
    const root = login.shadowRoot!;
    await until(() => !!root.querySelector("button[data-method='email-otp']"), 'the email code button');
    root.querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
    await until(() => !!root.querySelector('[part~="code-input"]'), 'the code field');
    const input = root.querySelector<HTMLInputElement>('[part~="code-input"]')!;
    input.value = '000000';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    expect((await loggedIn).detail.accountId).to.equal(acct.accountId);

    await (login as unknown as { logout(): Promise<void> }).logout();
    host.remove();
    run.remove();
  });
});
