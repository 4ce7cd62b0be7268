/**
 * The demo, end to end, as a new user walks it: `npm start`'s program on a free port, real
 * Chromium, the real sandbox, proxy and build. Log in by email code (000000), add a passkey (the
 * virtual authenticator over CDP), add single sign-on through the sandbox's test issuer in a popup
 * (the authorization code flow with PKCE),
 * show the card's details (the proxy's step-up passes after a session refresh; the processor page
 * renders the test card in its iframe), hide them, create a delegated key with a limit, have the
 * agent ask for a payment and approve it from the demo console, add text message codes and log in
 * with them, then log out and back in with the passkey and with single sign-on (a sign-on cancelled
 * in the element first, which closes its window). Throughout: no console error or warning, no uncaught exception,
 * no CSP violation, no failed request; the page is served with the strict CSP.
 *
 * Run: node --import tsx --test test/e2e/demo.test.ts
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { freePort, launch, nextEvent, startDemo, virtualAuthenticator, waitForState, watch, type Authenticator, type Demo, type Problems } from './harness.ts';

describe('the demo, walked as a new user', { timeout: 300_000 }, () => {
  let demo: Demo;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: Problems;
  let authenticator: Authenticator;

  before(async () => {
    demo = await startDemo(await freePort());
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1360, height: 1000 } });
    problems = await watch(context);
    page = await context.newPage();

  });

  after(async () => {
    // The last screen, for a failure's post-mortem (outside the repository).
    await page?.screenshot({ path: join(tmpdir(), 'wallet-elements-e2e-last.png'), fullPage: true }).catch(() => undefined);
    await browser?.close();
    await demo?.stop();
  });

  it('serves the page under the strict Content-Security-Policy, with every element defined', async () => {
    const response = await page.goto(demo.url);
    assert.equal(response?.status(), 200);
    const policy = response!.headers()['content-security-policy'] ?? '';
    assert.match(policy, /default-src 'self'/);
    assert.match(policy, /frame-src http:\/\/127\.0\.0\.1:\d+/);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    // Trusted Types enforced, with Lit's policy the only one allowed: the walk below then proves
    // that no element writes a string into an HTML or script sink.
    assert.match(policy, /require-trusted-types-for 'script'/);
    assert.match(policy, /trusted-types lit-html(;|$)/);
    const tags = ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions'];
    await page.waitForFunction((names) => names.every((t) => customElements.get(t)), tags);
    await page.locator('wallet-login').getByRole('button', { name: 'Email me a code' }).waitFor();
    // <wallet-credentials> draws its sub-headings once its list has loaded.
    await page.locator('wallet-credentials').getByRole('heading', { name: 'Active sessions' }).waitFor();
    // One outline: the elements title themselves one level below the page's sections, as
    // Chromium's accessibility tree tells screen readers (heading-level sets aria-level).
    const cdp = await context.newCDPSession(page);
    type AXValue = { value?: unknown };
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as unknown as {
      nodes: Array<{ ignored?: boolean; role?: AXValue; name?: AXValue; properties?: Array<{ name: string; value: AXValue }> }>;
    };
    await cdp.detach();
    const level = (name: string) =>
      nodes.filter((n) => !n.ignored && n.role?.value === 'heading' && n.name?.value === name).map((n) => n.properties?.find((x) => x.name === 'level')?.value.value);
    assert.deepEqual(['1. Your wallet', 'Log in to your wallet', 'Add a passkey', 'Ways to log in', 'Active sessions'].map(level), [[2], [3], [3], [3], [4]]);
    authenticator = await virtualAuthenticator(page);
  });

  it('logs in with the email code 000000, the code screen surviving a reload', async () => {
    await page.locator('wallet-login').getByRole('button', { name: 'Email me a code' }).click();
    const code = page.locator('wallet-login').getByLabel('Code', { exact: true });
    await code.waitFor();
    // A phone's browser may reload the page while the user reads the email: the code screen comes
    // back, and no second code is asked for.
    const challenges: string[] = [];
    const count = (r: { url(): string }) => void (r.url().includes('/challenge') && challenges.push(r.url()));
    page.on('request', count);
    await page.reload();
    await waitForState(page, 'wallet-login', 'code-entry');
    page.off('request', count);
    assert.deepEqual(challenges, [], 'no new code after the reload');
    await code.fill('000000');
    // Six digits submit themselves; press Enter in case the element waits for it.
    await waitForState(page, 'wallet-login', 'logged-in').catch(async () => {
      await code.press('Enter');
      await waitForState(page, 'wallet-login', 'logged-in');
    });
    await page.locator('wallet-login').getByText('You’re logged in', { exact: false }).first().waitFor();
  });

  it('adds a passkey with the browser authenticator', async () => {
    const registered = nextEvent<string>(page, 'passkey-registered', 'nickname');
    await page.locator('passkey-register').getByRole('button', { name: 'Create passkey' }).click();
    assert.equal(await registered, 'This browser');
    assert.equal(await authenticator.count(), 1);
    await page.locator('wallet-credentials').getByText('This browser').first().waitFor();
  });

  it('adds single sign-on through the sandbox issuer in a popup, with the authorization code flow and PKCE', async () => {
    const added = nextEvent<string>(page, 'credential-added', 'type');
    const popupOpened = page.waitForEvent('popup');
    const tokenRequest = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/oidc/token');
    await page.locator('wallet-credentials').getByRole('button', { name: 'Add single sign-on' }).click();
    const popup = await popupOpened;
    const callbackRequest = popup.waitForRequest((r) => new URL(r.url()).pathname === '/demo/oauth-callback.html');
    const signIn = popup.getByRole('button', { name: 'Sign in as the demo user' });
    await signIn.waitFor();
    // The request the popup opened with: a code, bound to an S256 challenge, with state and the
    // element's nonce (the SHA-256 of its session key, in hex).
    const authorize = new URL(popup.url());
    assert.equal(authorize.pathname, '/oidc/authorize');
    const asked = authorize.searchParams;
    assert.equal(asked.get('response_type'), 'code');
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.match(asked.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(asked.get('state') ?? '', /^[A-Za-z0-9_-]{22,}$/);
    assert.match(asked.get('nonce') ?? '', /^[0-9a-f]{64}$/);
    await signIn.click();
    // The answer comes back in the query (no token in a URL), and the page exchanges the code with
    // the verifier whose hash it sent.
    const callback = new URL((await callbackRequest).url());
    assert.equal(callback.hash, '');
    assert.equal(callback.searchParams.get('id_token'), null);
    assert.equal(callback.searchParams.get('state'), asked.get('state'));
    const code = callback.searchParams.get('code');
    assert.ok(code);
    const exchange = await tokenRequest;
    const sent = new URLSearchParams(exchange.postData() ?? '');
    assert.equal(sent.get('grant_type'), 'authorization_code');
    assert.equal(sent.get('code'), code);
    assert.equal(sent.get('redirect_uri'), asked.get('redirect_uri'));
    assert.equal(sent.get('client_id'), asked.get('client_id'));
    const verifier = sent.get('code_verifier') ?? '';
    assert.equal(createHash('sha256').update(verifier).digest('base64url'), asked.get('code_challenge'));
    assert.equal((await exchange.response())?.status(), 200);
    assert.equal(await added, 'OAUTH');
    // The callback window closes once the page says it has the answer.
    for (const end = Date.now() + 10_000; !popup.isClosed(); await new Promise((r) => setTimeout(r, 50))) assert.ok(Date.now() < end, 'the sign-in window stayed open');
  });

  it('shows the card details after the session step-up, in the processor iframe, then hides them', async () => {
    const reveal = page.locator('card-reveal');
    await reveal.getByRole('button', { name: 'Show card details' }).click();
    await waitForState(page, 'card-reveal', 'revealed');
    const frameHandle = await reveal.locator('iframe').elementHandle();
    const frame = await frameHandle!.contentFrame();
    await frame!.getByText('Sandbox test card', { exact: false }).waitFor();
    assert.match(await frame!.locator('#pan').innerText(), /^\d{4} \d{4} \d{4} \d{4}$/);
    assert.equal(await reveal.locator('iframe').getAttribute('sandbox'), 'allow-scripts allow-same-origin');
    await reveal.getByRole('button', { name: 'Hide' }).click();
    await waitForState(page, 'card-reveal', 'idle');
    assert.equal(await reveal.locator('iframe').count(), 0);
    // Nothing of the URL stays in the page.
    const html = await page.evaluate(() => document.querySelector('card-reveal')!.shadowRoot!.innerHTML + document.documentElement.outerHTML);
    assert.doesNotMatch(html, /processor\/card|token=/);
  });

  it('creates a delegated key with a per-payment limit', async () => {
    const keys = page.locator('delegated-keys');
    await keys.getByRole('button', { name: 'New key' }).click();
    await keys.getByLabel('Name', { exact: true }).fill('Online shopping');
    await keys.getByRole('button', { name: 'Add a limit' }).click();
    await keys.getByLabel('Currency').fill('USD');
    await keys.getByLabel('Maximum', { exact: true }).fill('5000');
    await keys.getByRole('button', { name: 'Create key' }).click();
    await keys.getByText('$50.00 per payment').waitFor({ timeout: 20_000 });
    await keys.getByText('Active', { exact: true }).waitFor();
  });

  it('the agent asks for a payment, the console approves it, and the agent panel shows the decision', async () => {
    const agent = page.locator('agent-actions');
    await agent.locator('[part~="action"]').first().waitFor();
    const before = await agent.locator('[part~="action"]').first().getAttribute('aria-labelledby');
    const changed = nextEvent<string>(page, 'agent-action-changed', 'action.status');
    await page.getByRole('button', { name: 'Agent: request a payment' }).click();
    // The new request appears on top of the agent's list at its next poll.
    await page.waitForFunction(
      (prev) => document.querySelector('agent-actions')!.shadowRoot!.querySelector('[part~="action"]')?.getAttribute('aria-labelledby') !== prev,
      before,
      { timeout: 30_000 },
    );
    const top = agent.locator('[part~="action"]').first();
    assert.match(await top.innerText(), /Payment out/);
    assert.match(await top.innerText(), /Waiting for approval/);
    const id = (await top.getAttribute('aria-labelledby'))!.slice(-4);
    await page.locator('#pending li', { hasText: id }).getByRole('button', { name: 'Approve' }).click();
    assert.equal(await changed, 'APPROVED');
    // The console's list was rebuilt under the pressed button: the keyboard keeps a place in the console.
    await page.waitForFunction(() => !!document.activeElement?.closest('.console') && !document.querySelector('.console [aria-disabled]'), null, { timeout: 10_000 });
    await top.getByText('Approved', { exact: true }).waitFor();
  });

  it('at 360 and 1280 px, each waiting request of the console keeps Approve and Reject together, and its number whole', async () => {
    await page.locator('#pending li button').first().waitFor();
    const broken: Array<{ width: number; text: string; buttonsApart: boolean; numberLines: number }> = [];
    try {
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 1000 });
        const rows = await page.locator('#pending li').evaluateAll((items) =>
          items
            .filter((li) => li.querySelector('button'))
            .map((li) => {
              const [approve, reject] = [...li.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
              // The lines the number takes, from its "…" to its end ("Payment out …3534").
              const label = li.querySelector('span')!;
              const text = label.textContent!;
              const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
              const range = document.createRange();
              for (let node = walker.nextNode(), seen = 0; node; node = walker.nextNode()) {
                const at = text.indexOf('…') - seen;
                if (at >= 0 && at < node.textContent!.length) range.setStart(node, at);
                seen += node.textContent!.length;
                range.setEnd(node, node.textContent!.length);
              }
              const numberLines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
              return { text, buttonsApart: Math.abs(approve!.top - reject!.top) > 2 || reject!.left < approve!.left, numberLines };
            }),
        );
        assert.ok(rows.length > 0, 'the console lists waiting requests');
        broken.push(...rows.filter((r) => r.buttonsApart || r.numberLines !== 1).map((r) => ({ width, ...r })));
      }
    } finally {
      await page.setViewportSize({ width: 1360, height: 1000 });
    }
    assert.deepEqual(broken, []);
  });

  it('adds text message codes (the sandbox code 000000), and logs in with them', async () => {
    // What <wallet-credentials> lets a user add, the page's <wallet-login> must let them log in with.
    const credentials = page.locator('wallet-credentials');
    await credentials.getByRole('button', { name: 'Add text message codes' }).click();
    await credentials.getByLabel('Code sent by text message').fill('000000');
    await credentials.getByRole('button', { name: 'Confirm' }).click();
    await credentials.getByText('Text message code is ready to use.').waitFor();
    const login = page.locator('wallet-login');
    // The autofill's passkey request must not log in by itself after the logout (see the next test).
    await authenticator.setPresence(false);
    await login.getByRole('button', { name: 'Log out' }).click();
    await waitForState(page, 'wallet-login', 'choosing');
    await login.getByRole('button', { name: 'Text me a code' }).click();
    await login.getByLabel('Code', { exact: true }).fill('000000');
    await waitForState(page, 'wallet-login', 'logged-in');
    await login.getByText('Logged in with Text message code', { exact: false }).waitFor();
  });

  it('logs out, then back in with the passkey, and with single sign-on', async () => {
    const login = page.locator('wallet-login');
    // The virtual authenticator would otherwise answer the login screen's passkey autofill by itself
    // at once; a person chooses. It decides presence when a request reaches it and never again: a
    // request that arrives while presence is off waits forever (CDP WebAuthn
    // setAutomaticPresenceSimulation). So presence must be back on before the modal request of "Use
    // a passkey" is made, and it must not be on while the autofill's request can still arrive.
    // Turning it on after the click raced the element, whose request follows the click by a few
    // milliseconds; on a loaded machine the request won, and the login waited for a touch.
    // The exact moment: the element, now authenticating (the autofill runs while choosing, and the
    // click aborted it), asks the service for its passkey challenge; its request to the
    // authenticator can only follow that answer.
    await authenticator.setPresence(false);
    await login.getByRole('button', { name: 'Log out' }).click();
    await waitForState(page, 'wallet-login', 'choosing');
    const challenge = '**/auth/credentials/*/challenge';
    const touch = async (route: Route) => {
      const authenticating = await page.evaluate(() => document.querySelector('wallet-login')!.matches(':state(authenticating)'));
      if (authenticating) await authenticator.setPresence(true);
      await route.continue();
    };
    await page.route(challenge, touch);
    await login.getByRole('button', { name: 'Use a passkey' }).click();
    await waitForState(page, 'wallet-login', 'logged-in');
    await page.unroute(challenge, touch);
    await login.getByText('Passkey', { exact: false }).first().waitFor();

    await authenticator.setPresence(false);
    await login.getByRole('button', { name: 'Log out' }).click();
    await waitForState(page, 'wallet-login', 'choosing');
    // Cancel in the element while the sign-in window is open: the provider's signal closes it.
    const abandonedOpened = page.waitForEvent('popup');
    await login.getByRole('button', { name: 'Continue with single sign-on' }).click();
    const abandoned = await abandonedOpened;
    await abandoned.getByRole('button', { name: 'Sign in as the demo user' }).waitFor();
    const abandonedClosed = abandoned.waitForEvent('close', { timeout: 10_000 });
    await login.getByRole('button', { name: 'Cancel' }).click();
    await abandonedClosed;
    await waitForState(page, 'wallet-login', 'choosing');
    const popupOpened = page.waitForEvent('popup');
    await login.getByRole('button', { name: 'Continue with single sign-on' }).click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: 'Sign in as the demo user' }).click();
    await waitForState(page, 'wallet-login', 'logged-in');
    await login.getByText('single sign-on', { exact: false }).first().waitFor();
  });

  it('switches to Arabic, right to left, and to the dark theme', async () => {
    await page.locator('#language').selectOption('ar');
    // Arabic is loaded on demand (src/locales/ar.ts), then the page turns right to left.
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    assert.equal(await page.locator('card-reveal').evaluate((el) => el.shadowRoot!.querySelector('[part~=base]')!.getAttribute('dir')), 'rtl');
    await page.locator('card-reveal').getByRole('button', { name: /إظهار/ }).waitFor();
    await page.locator('#theme').selectOption('dark');
    assert.equal(await page.locator('card-reveal').getAttribute('theme'), 'dark');
  });

  it('reported no console error or warning, no exception, no CSP violation and no failed request', () => {
    assert.deepEqual(problems.csp, []);
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.failedRequests, []);
    // The proxy's log lines carry route names and statuses, never a reveal URL or a token.
    const log = demo.stderr.join('\n');
    assert.match(log, /"route":"revealCard","method":"POST","status":200/);
    assert.doesNotMatch(log, /token=|panEmbedUrl|Bearer /);
  });
});
