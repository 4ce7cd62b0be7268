/**
 * What an integrator gets wrong, in Chromium against the real sandbox through the real proxy:
 * configureWallet given a misspelt option or a value of another kind, and elements given
 * attributes or properties they cannot use (an id of another shape, "abc" for a number). Each is
 * said where the integrator looks, naming what is wrong and what is accepted (a TypeError from
 * configureWallet, a console warning naming the element and the attribute), and the element keeps
 * working on its default instead of failing later with a sentence the user cannot act on.
 */
import { expect } from 'chai';
import '../../../../src/index.ts';
import { configureWallet, walletConfig } from '../../../../src/elements/shared/config.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import { newAccount, type RigAccount } from '../../support/rig.ts';
import { mount, nextEvent, part, resetPage, shadow, shownTexts, type, useRig, waitForState } from './helpers.ts';

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

describe('bad input from an integrator', () => {
  let acct: RigAccount;
  before(async () => {
    await useRig();
    acct = await newAccount();
  });
  afterEach(resetPage);

  it('configureWallet refuses a misspelt option or a value it cannot use with a TypeError naming it, and keeps the configuration', async () => {
    const before = walletConfig();
    const refused: Array<[unknown, RegExp]> = [
      [{ apibase: '/api' }, /^configureWallet has no option "apibase" \(it takes apiBase, environment, otpSigner, store\)$/],
      ['/api', /^configureWallet takes an object such as \{ apiBase: '\/api' \}$/],
      [undefined, /^configureWallet takes an object/],
      [{ environment: 'Sandbox' }, /^configureWallet's environment must be 'production' or 'sandbox'$/],
      [{ apiBase: 'localhost:8080/api' }, /^configureWallet's apiBase must be a path such as '\/api' or an http\(s\) address/],
      [{ apiBase: undefined }, /^configureWallet's apiBase must be/],
      [{ apiBase: '' }, /^configureWallet's apiBase must be/],
      [{ apiBase: 'http://' }, /^configureWallet's apiBase must be/],
      [{ store: {} }, /^configureWallet's store must be a KeyStore \(put, list, delete, clear and get\)$/],
      [{ otpSigner: 'abc' }, /^configureWallet's otpSigner must be the signer's uncompressed public key/],
    ];
    for (const [options, said] of refused) {
      expect(() => configureWallet(options as never), JSON.stringify(options))
        .to.throw(TypeError)
        .with.property('message')
        .that.matches(said);
      expect(walletConfig(), `${JSON.stringify(options)} left the configuration as it was`).to.equal(before);
    }
    // What the README shows is taken as it is.
    configureWallet({ apiBase: before.apiBase, environment: 'sandbox', store: before.store });
    configureWallet({ apiBase: 'https://wallet.example.com/api' });
    configureWallet({ apiBase: before.apiBase });
  });

  it('<wallet-login refresh-before="abc"> says so and renews at the default, not again and again at once', async () => {
    let el!: WalletLogin;
    const said = await warnings(async () => {
      el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, 'refresh-before': 'abc' });
    });
    expect(said).to.include('<wallet-login> refresh-before="abc" is ignored: it takes a number from 0 up.');
    expect(el.refreshBefore).to.equal(60);
    await waitForState(el, 'choosing');
    const loggedIn = nextEvent<CustomEvent<{ sessionId: string }>>(el, 'wallet-logged-in');
    shadow(el).querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
    await waitForState(el, 'code-entry');
    type(part(el, 'code-input') as HTMLInputElement, '000000');
    const { sessionId } = (await loggedIn).detail;
    // A NaN delay fires at once: each renewal would be due as soon as the last one ended.
    await new Promise((r) => setTimeout(r, 3000));
    expect(el.session?.sessionId, 'the session renewed within 3 s of the login').to.equal(sessionId);
    // Set as a property while logged in: said the same way, the value kept.
    const again = await warnings(() => {
      el.refreshBefore = -5;
    });
    expect(again).to.deep.equal(['<wallet-login> refreshBefore=-5 is ignored: it takes a number from 0 up.']);
    expect(el.refreshBefore).to.equal(60);
    await el.logout();
  });

  it('<wallet-login code-length="abc"> says so and submits a code of the default length', async () => {
    // An account of its own: the sandbox sends one code per credential each 30 s.
    const own = await newAccount();
    let el!: WalletLogin;
    const said = await warnings(async () => {
      el = await mount<WalletLogin>('wallet-login', { 'account-id': own.accountId, 'code-length': 'abc', methods: 'email-otp' });
    });
    expect(said).to.include('<wallet-login> code-length="abc" is ignored: it takes an integer from 4 to 12.');
    await waitForState(el, 'choosing');
    shadow(el).querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
    await waitForState(el, 'code-entry');
    const loggedIn = nextEvent(el, 'wallet-logged-in');
    type(part(el, 'code-input') as HTMLInputElement, '000000');
    await loggedIn;
    await el.logout();
  });

  it('an id attribute of another shape is said, naming the element and the attribute, and the element asks for one instead of failing upstream', async () => {
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['wallet-credentials', { 'account-id': 'abc' }, '<wallet-credentials> account-id="abc" is ignored: it takes a InternalAccount:<uuid> id.', 'This element needs an account id (the account-id attribute).'],
      ['passkey-register', { 'account-id': 'InternalAccount:../x' }, '<passkey-register> account-id="InternalAccount:../x" is ignored: it takes a InternalAccount:<uuid> id.', 'This element needs an account id (the account-id attribute).'],
      ['card-reveal', { 'card-id': 'Card:x/../y' }, '<card-reveal> card-id="Card:x/../y" is ignored: it takes a Card:<uuid> id.', 'No card is selected.'],
      ['delegated-keys', { 'card-id': 'card 1', 'account-id': acct.accountId }, '<delegated-keys> card-id="card 1" is ignored: it takes a Card:<uuid> id.', 'No card or wallet account is selected.'],
    ];
    for (const [tag, attributes, warning, shown] of cases) {
      let el!: HTMLElement;
      const said = await warnings(async () => {
        el = await mount(tag, attributes);
        await new Promise((r) => setTimeout(r, 300));
      });
      expect(said, tag).to.include(warning);
      expect(shownTexts(el).join(' | '), tag).to.contain(shown);
      el.remove();
    }
    // Set after connection, as a property: said too.
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId });
    const said = await warnings(() => {
      el.accountId = 'InternalAccount: spaced';
    });
    expect(said).to.deep.equal(['<wallet-login> accountId="InternalAccount: spaced" is ignored: it takes a InternalAccount:<uuid> id.']);
  });

  it('numbers out of range elsewhere are said too: heading-level, hide-after, poll-interval, page-size', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['wallet-login', { 'account-id': acct.accountId, 'heading-level': '9' }, '<wallet-login> heading-level="9" is ignored: it takes an integer from 1 to 6.'],
      ['card-reveal', { 'hide-after': 'soon' }, '<card-reveal> hide-after="soon" is ignored: it takes a number from 0 up.'],
      ['agent-actions', { 'poll-interval': '1s' }, '<agent-actions> poll-interval="1s" is ignored: it takes a number from 100 up.'],
      ['agent-actions', { 'page-size': '500' }, '<agent-actions> page-size="500" is ignored: it takes an integer from 1 to 100.'],
    ];
    for (const [tag, attributes, warning] of cases) {
      const said = await warnings(async () => {
        (await mount(tag, attributes)).remove();
      });
      expect(said, tag).to.include(warning);
    }
  });
});
