/**
 * What an integrator gets wrong, in Chromium against the real sandbox through the real proxy:
 * configureWallet given a misspelt option or a value of another kind, and elements given numbers
 * they cannot use ("abc", a negative delay, a fraction of a digit count). configureWallet throws a
 * TypeError naming the option; an element says `<tag attribute="value"> ignored` on the console
 * and keeps working on its default, instead of renewing a session again and again at once or
 * waiting for a code that can never be typed.
 */
import { expect } from 'chai';
import '../../../../src/index.ts';
import { configureWallet, walletConfig } from '../../../../src/elements/shared/config.ts';
import { setLocale } from '../../../../src/elements/shared/i18n.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { newAccount, type RigAccount } from '../../support/rig.ts';
import { inState, logInByEmail, mount, part, resetPage, shadow, useRig, waitFor, waitForState } from './helpers.ts';

/** The console warnings given while `run` runs (and still passed on to the console). */
async function warnings(run: () => unknown): Promise<string[]> {
  const said: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    said.push(args.map(String).join(' '));
    warn.apply(console, args);
  };
  try {
    await run();
  } finally {
    console.warn = warn;
  }
  return said;
}

/** An email-code login through the element (its requests go where its base says), then its logout. */
async function logInByEmailThenOut(el: WalletLogin): Promise<void> {
  await logInByEmail(el);
  await el.logout();
}

/**
 * A <wallet-login> (email codes) of an account of its own (the sandbox sends one code per
 * credential each 30 s), with `attributes`: the element, and what it warned as it went on the page.
 */
async function ownLogin(attributes: Record<string, string>): Promise<{ el: WalletLogin; said: string[] }> {
  const own = await newAccount();
  let el!: WalletLogin;
  const said = await warnings(async () => {
    el = await mount<WalletLogin>('wallet-login', { 'account-id': own.accountId, ...attributes, methods: 'email-otp' });
  });
  return { el, said };
}

describe('bad input from an integrator', () => {
  let acct: RigAccount;
  before(async () => {
    await useRig();
    acct = await newAccount();
  });
  afterEach(resetPage);

  it('configureWallet refuses a misspelt option or a value it cannot use with a TypeError naming it, and keeps the configuration', async () => {
    const before = walletConfig();
    const refused: Array<[unknown, string]> = [
      [{ apibase: '/api' }, 'apibase'],
      [{ environment: 'Sandbox' }, 'environment'],
      [{ environment: 'test' }, 'environment'],
      [{ apiBase: 'localhost:8080/api' }, 'apiBase'],
      [{ apiBase: undefined }, 'apiBase'],
      [{ apiBase: '' }, 'apiBase'],
      [{ apiBase: 'http://' }, 'apiBase'],
      // The option that is wrong is named, not the first one given.
      [{ environment: 'sandbox', apiBase: 'wallet.example.com' }, 'apiBase'],
    ];
    for (const [options, said] of refused) {
      expect(() => configureWallet(options as never), JSON.stringify(options))
        .to.throw(TypeError)
        .with.property('message')
        // A base or an environment refused says what to write instead.
        .that.equals(`configureWallet: bad ${said}${{ apiBase: ': write a path (/api, ./api) or an http(s):// address', environment: ': write production or sandbox' }[said] ?? ''}`);
      expect(walletConfig(), `${JSON.stringify(options)} left the configuration as it was`).to.equal(before);
    }
    // The README's "When a setup is wrong" quotes what is thrown, as thrown.
    const readme = await (await fetch('/README.md')).text();
    expect(readme, 'README').to.include('`TypeError: configureWallet: bad apiBase: write a path (/api, ./api) or an http(s):// address`');
    expect(() => configureWallet({ apiBase: 'localhost:8080/api' })).to.throw(TypeError, /^configureWallet: bad apiBase: write a path \(\/api, \.\/api\) or an http\(s\):\/\/ address$/);
    // What the README shows is taken as it is.
    configureWallet({ apiBase: before.apiBase, environment: 'sandbox', store: before.store });
    configureWallet({ apiBase: 'https://wallet.example.com/api' });
    configureWallet({ apiBase: 'HTTP://127.0.0.1:8080/api', otpSigner: undefined });
    configureWallet({ apiBase: before.apiBase });
  });

  it('<wallet-login refresh-before="abc"> says so and renews at the default, not again and again at once', async () => {
    let el!: WalletLogin;
    const said = await warnings(async () => {
      el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'refresh-before': 'abc' });
    });
    expect(said).to.include('<wallet-login refresh-before="abc"> ignored');
    expect(el.refreshBefore).to.equal(60);
    const { sessionId } = (await logInByEmail(el)).detail;
    // A NaN delay fires at once: each renewal would be due as soon as the last one ended.
    await new Promise((r) => setTimeout(r, 3000));
    expect(el.session?.sessionId, 'the session renewed within 3 s of the login').to.equal(sessionId);
    // Set as a property while logged in: said the same way, the value kept.
    const again = await warnings(() => {
      el.refreshBefore = -5;
    });
    expect(again).to.deep.equal(['<wallet-login refresh-before="-5"> ignored']);
    expect(el.refreshBefore).to.equal(60);
    await el.logout();
  });

  it('<wallet-login code-length="abc"> says so and submits a code of the default length', async () => {
    // An account of its own: the sandbox sends one code per credential each 30 s.
    const { el, said } = await ownLogin({ 'code-length': 'abc' });
    expect(said).to.include('<wallet-login code-length="abc"> ignored');
    await logInByEmailThenOut(el);
  });

  it('numbers out of range elsewhere are said too, and the property keeps its default: heading-level, hide-after, poll-interval, page-size', async () => {
    const cases: Array<[string, Record<string, string>, string, string, unknown]> = [
      ['wallet-login', { 'account-id': acct.accountId, 'heading-level': '9' }, '<wallet-login heading-level="9"> ignored', 'headingLevel', undefined],
      ['card-reveal', { 'hide-after': 'soon' }, '<card-reveal hide-after="soon"> ignored', 'hideAfter', undefined],
      ['card-reveal', { 'hide-after': '-1' }, '<card-reveal hide-after="-1"> ignored', 'hideAfter', undefined],
      ['agent-actions', { 'poll-interval': '1s' }, '<agent-actions poll-interval="1s"> ignored', 'pollInterval', 2000],
      ['agent-actions', { 'poll-interval': '-5' }, '<agent-actions poll-interval="-5"> ignored', 'pollInterval', 2000],
      // Past 2^31 - 1 ms a timer's delay wraps (WebIDL long): 3e9 would poll again at once.
      ['agent-actions', { 'poll-interval': '3000000000' }, '<agent-actions poll-interval="3000000000"> ignored', 'pollInterval', 2000],
      ['agent-actions', { 'poll-max-interval': '3000000000' }, '<agent-actions poll-max-interval="3000000000"> ignored', 'pollMaxInterval', 60000],
      ['agent-actions', { 'page-size': '500' }, '<agent-actions page-size="500"> ignored', 'pageSize', 20],
      ['agent-actions', { 'page-size': '2.5' }, '<agent-actions page-size="2.5"> ignored', 'pageSize', 20],
      ['wallet-login', { 'account-id': acct.accountId, 'code-length': '5.5' }, '<wallet-login code-length="5.5"> ignored', 'codeLength', 6],
      ['wallet-login', { 'account-id': acct.accountId, 'code-length': '0' }, '<wallet-login code-length="0"> ignored', 'codeLength', 6],
    ];
    for (const [tag, attributes, warning, property, kept] of cases) {
      const said = await warnings(async () => {
        const el = await mount(tag, attributes);
        expect((el as unknown as Record<string, unknown>)[property], `${tag} ${property}`).to.equal(kept);
        el.remove();
      });
      expect(said, tag).to.include(warning);
    }
    // The README's "When a setup is wrong" quotes one of these warnings, as said.
    const readme = await (await fetch('/README.md')).text();
    expect(readme, 'README').to.include('`<card-reveal hide-after="soon"> ignored`');
  });

  it('<wallet-login methods> names no method it knows: the unknown names are said and ignored, the known ones offered, none known the default', async () => {
    const offered = (el: Element) => [...shadow(el).querySelectorAll<HTMLButtonElement>('button[data-method]')].map((b) => b.dataset.method);
    // A browser without WebAuthn (WebKitGTK) leaves passkeys out where another method is offered.
    const offerable = (methods: string[]) => ('PublicKeyCredential' in globalThis || methods.length < 2 ? methods : methods.filter((m) => m !== 'passkey'));
    const all = ['email-otp', 'sms-otp', 'passkey', 'oauth'];
    const cases: Array<[string, string[], string[]]> = [
      ['email', ['<wallet-login methods="email"> ignored'], all],
      ['email-otp sms passkeys', ['<wallet-login methods="sms passkeys"> ignored'], ['email-otp']],
      ['SMS-OTP, passkey', [], ['sms-otp', 'passkey']],
      // The default (all four), written out empty.
      ['', [], all],
    ];
    for (const [methods, warned, shown] of cases) {
      let el!: WalletLogin;
      const said = await warnings(async () => {
        // No autofill: it would list the passkeys, a request still under way when the element goes.
        el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods, 'no-autofill': '' });
        await waitForState(el, 'choosing');
      });
      expect(said, methods).to.deep.equal(warned);
      expect(offered(el), methods).to.deep.equal(offerable(shown));
      // Set as a property too, as a framework does: said the same way.
      const again = await warnings(async () => {
        el.methods = 'otp';
        await el.updateComplete;
      });
      expect(again, methods).to.deep.equal(['<wallet-login methods="otp"> ignored']);
      expect(offered(el), methods).to.deep.equal(offerable(all));
      el.remove();
    }
  });

  it('an api-base that is neither a path from /, ./ or ../ nor an http(s) address is said at once, with what to write instead, before any request, and the configured base is used', async () => {
    const tags = ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions'];
    for (const bad of ['not a url', 'localhost:8080/api', 'javascript:alert(1)', 'http://', 'api', '\\']) {
      for (const tag of tags) {
        const said = await warnings(async () => (await mount(tag, { 'api-base': bad })).remove());
        expect(said, `${tag} ${bad}`).to.deep.equal([`<${tag} api-base="${bad}"> ignored: write a path (/api, ./api) or an http(s):// address`]);
      }
    }
    // What may be a base is kept without a word (send.ts then decides, at each request, where it may go).
    const origin = location.origin;
    for (const good of ['/api', './api', '../api', '', '/\\', '//elsewhere.example/api', `${origin}/api`, 'HTTPS://wallet.example.com/api']) {
      const said = await warnings(async () => {
        const el = await mount<WalletLogin>('wallet-login', { 'api-base': good });
        expect(el.apiBase, good).to.equal(good);
        el.remove();
      });
      expect(said, good).to.deep.equal([]);
    }
    // Ignored, the configured base (/api, the rig's proxy) takes the element's requests: a login goes through.
    const { el, said } = await ownLogin({ 'api-base': 'localhost:8080/api' });
    expect(said).to.include('<wallet-login api-base="localhost:8080/api"> ignored: write a path (/api, ./api) or an http(s):// address');
    await logInByEmailThenOut(el);
  });

  it('a bare host (wallet.example.com) or a path without / or ./ before it is refused alike by configureWallet and by an element\'s api-base, each saying what to write instead', async () => {
    const before = walletConfig();
    const hint = ': write a path (/api, ./api) or an http(s):// address';
    for (const bad of ['wallet.example.com', 'wallet.example.com/api', 'api', '\\api']) {
      expect(() => configureWallet({ apiBase: bad }), bad).to.throw(TypeError).with.property('message').that.equals(`configureWallet: bad apiBase${hint}`);
      expect(walletConfig(), bad).to.equal(before);
      const said = await warnings(async () => (await mount('delegated-keys', { 'api-base': bad })).remove());
      expect(said, bad).to.deep.equal([`<delegated-keys api-base="${bad}"> ignored${hint}`]);
    }
    // What the hint says to write is taken by both.
    for (const good of ['/api', './api', '../api', 'https://wallet.example.com/api']) {
      configureWallet({ apiBase: good });
      const said = await warnings(async () => (await mount('delegated-keys', { 'api-base': good })).remove());
      expect(said, good).to.deep.equal([]);
    }
    configureWallet({ apiBase: before.apiBase });
    // A path from ./ reaches the proxy: a login goes through.
    const own = await newAccount();
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': own.accountId, 'api-base': './api', methods: 'email-otp' });
    expect(el.apiBase).to.equal('./api');
    await logInByEmailThenOut(el);
  });

  it('configureWallet takes a base or an environment with spaces around it without them, as an element takes its api-base', async () => {
    const before = walletConfig();
    configureWallet({ apiBase: '/api ' });
    expect(walletConfig().apiBase).to.equal('/api');
    configureWallet({ apiBase: ' ./api\n', environment: ' sandbox ' as never });
    expect(walletConfig()).to.include({ apiBase: './api', environment: 'sandbox' });
    // Spaces alone are no base.
    expect(() => configureWallet({ apiBase: '  ' })).to.throw(TypeError, /^configureWallet: bad apiBase: write/);
    configureWallet({ apiBase: before.apiBase, environment: before.environment });
    // The element's requests go to the base so given: a login goes through.
    configureWallet({ apiBase: `${before.apiBase} ` });
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': (await newAccount()).accountId, methods: 'email-otp' });
    await logInByEmailThenOut(el);
    configureWallet({ apiBase: before.apiBase });
  });

  it('an api-base with spaces around it, as markup templates leave them, is taken without them and without a word, as a browser takes a link\'s address', async () => {
    const padded = ' /api \n';
    const { el, said } = await ownLogin({ 'api-base': padded });
    expect(said).to.deep.equal([]);
    expect(el.apiBase).to.equal('/api');
    // Its requests go to that base: a login goes through.
    await logInByEmailThenOut(el);
  });

  it('an api-base of a scheme with +, - or . in its name, or a path with a colon but without ./ before it, is said and ignored', async () => {
    for (const bad of ['chrome-extension://abcdef/api', 'web+wallet:api', 'svn+ssh://x.example/api', 'x.y:api', '1:api', '_x:api']) {
      const said = await warnings(async () => (await mount('agent-actions', { 'api-base': bad })).remove());
      expect(said, bad).to.deep.equal([`<agent-actions api-base="${bad}"> ignored: write a path (/api, ./api) or an http(s):// address`]);
    }
    // From ./ such a segment is a path (a URL resolves it so), whatever could start a scheme.
    for (const good of ['./1:api', './_x:api', './x.y:api']) {
      const said = await warnings(async () => (await mount('agent-actions', { 'api-base': good })).remove());
      expect(said, good).to.deep.equal([]);
    }
  });

  it('a malformed id (card-id, account-id, customer-id) is said at once, nothing is asked for it, and the element names that attribute as not valid instead of saying there is nothing yet', async () => {
    const uuid = crypto.randomUUID();
    const cases: Array<[string, Record<string, string>, string, boolean?]> = [
      // The card's keys, once listed, are filtered by card: before, "This card has no delegated keys yet".
      ['delegated-keys', { 'card-id': 'card 1', 'account-id': acct.accountId }, 'card-id'],
      ['delegated-keys', { 'card-id': acct.cardId, 'account-id': 'acct-1' }, 'account-id'],
      ['card-reveal', { 'card-id': `Card:${uuid}x` }, 'card-id'],
      // Another type's id is no id of this one.
      ['card-reveal', { 'card-id': acct.cardId, 'account-id': `Card:${uuid}`, 'require-session': '' }, 'account-id'],
      ['wallet-login', { 'account-id': 'InternalAccount:1', 'no-autofill': '' }, 'account-id'],
      ['passkey-register', { 'account-id': '../cards' }, 'account-id'],
      ['wallet-credentials', { 'account-id': 'InternalAccount:', 'customer-id': acct.customerId }, 'account-id'],
      // Nor is anything read for the account, whose id is valid, while the customer's is not.
      ['wallet-credentials', { 'account-id': acct.accountId, 'customer-id': 'me' }, 'customer-id'],
    ];
    for (const [tag, attributes, bad] of cases) {
      const what = `<${tag} ${bad}="${attributes[bad]}">`;
      // Emptied each time: a full buffer (250 entries) would record no request at all.
      performance.clearResourceTimings();
      let el!: HTMLElement;
      const said = await warnings(async () => {
        el = await mount(tag, attributes);
      });
      expect(said, what).to.deep.equal([`${what} ignored`]);
      const shown = () => shadow(el).textContent!.replace(/\s+/g, ' ');
      expect(shown(), what).to.contain(`The ${bad} attribute of this element is not a valid id.`);
      expect(shown(), what).not.to.contain('no delegated keys yet').and.not.to.contain('is selected').and.not.to.contain('needs an account id');
      expect(shadow(el).querySelector('button'), `${what}: nothing to press`).to.equal(null);
      (el as unknown as { show?: () => void }).show?.();
      await new Promise((r) => setTimeout(r, 300));
      const sent = performance.getEntriesByType('resource').map((e) => e.name).filter((url) => url.includes('/api/'));
      expect(sent, `${what}: requests`).to.deep.equal([]);
      el.remove();
    }
  });

  it('a malformed id is reported as other misconfigurations are: one error event of code misconfigured per value, with the sentence shown, and the element\'s failure state', async () => {
    const uuid = crypto.randomUUID();
    // The state each element is in after a failure (wallet-login and passkey-register have none for any other).
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['delegated-keys', { 'card-id': 'card 1', 'account-id': acct.accountId }, 'card-id', 'failed'],
      ['card-reveal', { 'card-id': acct.cardId, 'account-id': `Card:${uuid}`, 'require-session': '' }, 'account-id', 'error'],
      ['wallet-login', { 'account-id': 'InternalAccount:1', 'no-autofill': '' }, 'account-id', 'failed'],
      ['passkey-register', { 'account-id': '../cards' }, 'account-id', 'failed'],
      ['wallet-credentials', { 'account-id': acct.accountId, 'customer-id': 'me' }, 'customer-id', 'load-failed'],
    ];
    const others = ['idle', 'loading', 'ready', 'restoring', 'choosing', 'checking', 'load-failed'];
    for (const [tag, attributes, bad, state] of cases) {
      const what = `<${tag} ${bad}="${attributes[bad]}">`;
      const heard: Array<{ code: string; message: string }> = [];
      let el!: HTMLElement & { updateComplete: Promise<unknown> };
      await warnings(async () => {
        el = await mount(tag, attributes, (e) => e.addEventListener(`${tag}-error`, (event) => heard.push((event as CustomEvent).detail)));
        await el.updateComplete;
        const sentence = `The ${bad} attribute of this element is not a valid id.`;
        expect(heard, what).to.have.length(1);
        expect(heard[0], what).to.include({ code: 'misconfigured', message: sentence });
        expect(inState(el, state), `${what} :state(${state})`).to.equal(true);
        expect(others.filter((s) => s !== state && inState(el, s)), `${what}: other states`).to.deep.equal([]);
        // Drawn again, and the same value given again: not reported again.
        el.setAttribute('theme', 'dark');
        await el.updateComplete;
        el.setAttribute(bad, attributes[bad]!);
        await el.updateComplete;
        await new Promise((r) => setTimeout(r, 100));
        expect(heard, `${what} again`).to.have.length(1);
        // Another malformed value is reported in turn.
        el.setAttribute(bad, 'x');
        await el.updateComplete;
        expect(heard, `${what} then x`).to.have.length(2);
        expect(heard[1], `${what} then x`).to.include({ code: 'misconfigured', message: sentence });
      });
      el.remove();
    }
  });

  it('an id set right after a malformed one takes the element out of its "not a valid id" state, and a malformed one set later puts it back, said the same way', async () => {
    let el!: HTMLElement;
    await warnings(async () => {
      el = await mount('delegated-keys', { 'card-id': 'card 1', 'account-id': acct.accountId });
    });
    el.setAttribute('card-id', acct.cardId);
    await waitFor(() => shadow(el).textContent!.includes('This card has no delegated keys yet.'), 'the card\'s (empty) list');
    expect(shadow(el).textContent).not.to.contain('not a valid id');
    const said = await warnings(async () => {
      (el as unknown as { cardId: string }).cardId = 'Card:1';
      await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    });
    expect(said).to.deep.equal(['<delegated-keys card-id="Card:1"> ignored']);
    expect(shadow(el).textContent).to.contain('The card-id attribute of this element is not a valid id.');
    // Removed, it is missing rather than malformed.
    el.removeAttribute('card-id');
    await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    expect(shadow(el).textContent).to.contain('No card or wallet account is selected.');
    expect(shadow(el).textContent).not.to.contain('not a valid id');
  });

  it('a lang that is no language tag (xx_YY!!, 123) is said once, on the element that carries it, and the text is English; one whose language is still read (en-, a server\'s en_US) is not', async () => {
    for (const bad of ['xx_YY!!', '123', 'fr-!!']) {
      const host = document.body.appendChild(Object.assign(document.createElement('section'), { lang: bad }));
      const said = await warnings(async () => {
        const el = await mount('wallet-login');
        host.append(el);
        await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
        // Drawn again: not said again.
        el.setAttribute('heading-level', '3');
        await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
        expect(part(el, 'base')!.lang, bad).to.equal('en');
        expect(shadow(el).textContent, bad).to.contain('This element needs an account id');
      });
      host.remove();
      expect(said, bad).to.deep.equal([`<section lang="${bad}"> ignored`]);
    }
    for (const good of ['en-', 'en_US', 'fr', 'EN-gb']) {
      const said = await warnings(async () => (await mount('card-reveal', { lang: good })).remove());
      expect(said, good).to.deep.equal([]);
    }
  });

  it('a lang that is a BCP 47 tag Intl does not take (an extended language, a private use or grandfathered tag) is not said as ignored, nor is any other tag', async () => {
    for (const good of ['zh-Hant-TW', 'sr-Latn', 'en-GB-oxendict', 'es-419', 'de-DE-1901', 'zh-yue', 'zh-min-nan', 'x-klingon', 'i-klingon', 'en-GB-oed', 'en-US-x-twain', '']) {
      const said = await warnings(async () => (await mount('card-reveal', { lang: good })).remove());
      expect(said, good).to.deep.equal([]);
    }
  });

  it('a setLocale() of no language tag is said as the root\'s, not as that of a container whose lang="" leaves the language to it', async () => {
    const host = document.body.appendChild(Object.assign(document.createElement('section'), { lang: '' }));
    const said = await warnings(async () => {
      setLocale('12x');
      const el = host.appendChild(document.createElement('wallet-login'));
      await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      expect(part(el, 'base')!.lang).to.equal('en');
    });
    host.remove();
    setLocale(undefined);
    expect(said).to.deep.equal(['<html lang="12x"> ignored']);
  });

  it('a theme other than light or dark is said, and the system setting followed', async () => {
    for (const tag of ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions']) {
      const said = await warnings(async () => {
        const el = await mount(tag, { theme: 'Dark' });
        expect((el as unknown as { theme: unknown }).theme, tag).to.equal(undefined);
        el.setAttribute('theme', 'dark');
        expect((el as unknown as { theme: unknown }).theme, tag).to.equal('dark');
        el.remove();
      });
      expect(said, tag).to.deep.equal([`<${tag} theme="Dark"> ignored`]);
    }
  });

  it('numbers in range are taken without a word, from the attribute or as text set on the property', async () => {
    const said = await warnings(async () => {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'refresh-before': '0', 'code-length': '8', 'heading-level': '3' });
      expect([el.refreshBefore, el.codeLength, el.headingLevel]).to.deep.equal([0, 8, 3]);
      // A framework that sets properties from its templates' attribute text (Vue) gives a string.
      (el as unknown as { resendAfter: string }).resendAfter = '45';
      expect(el.resendAfter).to.equal(45);
      el.removeAttribute('code-length');
      el.removeAttribute('heading-level');
      expect([el.codeLength, el.headingLevel]).to.deep.equal([6, null]);
      el.remove();
    });
    expect(said).to.deep.equal([]);
  });
});
