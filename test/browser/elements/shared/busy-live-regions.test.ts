/**
 * The live regions (role=status, role=alert) of the elements that speak while a step runs, in
 * Chromium against the real sandbox: none sits inside an `aria-busy="true"` subtree, where screen
 * readers hold what changes until the subtree is no longer busy, so "Sending your code…" would
 * never be said.
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import '../../../../src/elements/passkey-register/passkey-register.ts';
import '../../../../src/elements/wallet-credentials/wallet-credentials.ts';
import '../../../../src/elements/card-reveal/index.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { addVirtualAuthenticator, fixtures, type RigAccount } from '../../support/rig.ts';
import { holdNext, mount, part, resetPage, shadow, text, useRigAccount, waitForState } from './helpers.ts';
import { methodButton } from '../wallet-login/helpers.ts';
import { loginByEmail } from '../wallet-credentials/helpers.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';

/** The parts of `el`'s live regions that have an `aria-busy="true"` element around them, up to the document. */
function busyAround(el: Element): string[] {
  return [...shadow(el).querySelectorAll('[role=status], [role=alert]')].flatMap((region) => {
    for (let n: Node | null = region; n; n = n instanceof ShadowRoot ? n.host : n.parentNode) {
      if (n instanceof Element && n.getAttribute('aria-busy') === 'true') return [`${region.getAttribute('part') ?? region.id} in ${n.localName}`];
    }
    return [];
  });
}

type Drawn = HTMLElement & { updateComplete: Promise<unknown> };

/**
 * Starts a step (`start`, which gives the element) with its request `method url` held: once that
 * is on the wire, the element is busy, its status says `status` (when given), and no busy element
 * is around its live regions; then the request goes. The element.
 */
async function busyWhileHeld(method: string, url: RegExp, start: () => Drawn | Promise<Drawn>, status?: string): Promise<Drawn> {
  const hold = holdNext(method, url);
  try {
    const el = await start();
    await hold.arrived;
    await el.updateComplete;
    expect(el.matches(':state(busy)')).to.equal(true);
    if (status !== undefined) expect(text(el, 'status')).to.equal(status);
    expect(busyAround(el)).to.deep.equal([]);
    hold.release();
    return el;
  } finally {
    hold.undo();
  }
}

describe('live regions outside busy parts', function () {
  this.timeout(60000);
  let acct: RigAccount;

  beforeEach(async () => ({ acct } = await useRigAccount()));
  afterEach(resetPage);

  it('<wallet-login> sending a code: its status says so, with no busy element around it', async () => {
    const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'email-otp', 'no-autofill': '' });
    await waitForState(el, 'choosing');
    await busyWhileHeld('POST', /\/challenge$/, () => (methodButton(el, 'email-otp').click(), el), 'Sending your code…');
    await waitForState(el, 'code-entry');
  });

  it('<passkey-register> creating a passkey: its status says so, with no busy element around it', async () => {
    await addVirtualAuthenticator();
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
    const el = await mount<Drawn>('passkey-register', { 'account-id': acct.accountId, nickname: 'Busy' });
    await waitForState(el, 'ready');
    await busyWhileHeld('POST', /\/auth\/credentials$/, () => ((part(el, 'submit') as HTMLButtonElement).click(), el), 'Follow your browser’s prompt to create the passkey…');
    await waitForState(el, 'done', 20000);
  });

  it('<wallet-credentials> reading the list: its live regions have no busy element around them', async () => {
    await loginByEmail(acct);
    const el = await busyWhileHeld('GET', /\/auth\/credentials\?/, () => mount<Drawn>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId }));
    await waitForState(el, 'ready');
  });

  it('<card-reveal> revealing: its live regions have no busy element around them', async () => {
    const f = await fixtures();
    const el = await mount<Drawn>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    await busyWhileHeld('POST', /\/reveal$/, () => ((part(el, 'reveal-button') as HTMLButtonElement).click(), el));
    await waitForState(el, 'revealed');
    expect(el.matches(':state(busy)')).to.equal(false);
  });
});
