/**
 * Every element, on each screen a user reaches, against the layout criteria of WCAG 2.2, in real
 * Chromium against the real sandbox through the real proxy:
 *
 * - 1.4.10 Reflow: in a viewport 320 CSS px wide (1280 px at 400 % zoom), the elements in a page
 *   column with 24 px margins (272 px, <card-reveal>'s smallest width), the page does not scroll
 *   sideways and nothing is clipped, out of the viewport or drawn over something else.
 * - 1.4.12 Text spacing: line height 1.5, letter spacing 0.12em, word spacing 0.16em set on the
 *   element reach every text of its shadow root by inheritance (a user's style sheet cannot reach
 *   into it any other way), and with those and paragraph spacing 2em applied to everything inside
 *   (as a tool that reaches into shadow roots does), nothing is clipped or overlaps, at 320 and
 *   1280 px.
 * - 2.5.8 Target size (minimum): every control is 24 by 24 CSS px or more, or a 24 px circle on its
 *   centre meets no other control nor another small control's circle.
 * - 1.4.4 Resize text: the elements' text at 200 % (`--wallet-font-size` doubled, as a text-only
 *   zoom does), the root font size at 200 %, and the page at 200 % zoom (640 CSS px) cut nothing off.
 *
 * Each test walks an element through its screens and fails with every problem found, one a line.
 */
import { expect } from 'chai';
import { setViewport } from '@web/test-runner-commands';
import '../../../../src/elements/wallet-login/index.ts';
import '../../../../src/elements/passkey-register/index.ts';
import '../../../../src/elements/wallet-credentials/index.ts';
import '../../../../src/elements/card-reveal/index.ts';
import '../../../../src/elements/delegated-keys/index.ts';
import '../../../../src/elements/agent-actions/index.ts';
import '../../../../src/locales/ar.ts';
import { addVirtualAuthenticator, advanceClock, fixtures, newAccount, oidcToken, type RigAccount } from '../../support/rig.ts';
import type { WalletCredentials } from '../../../../src/elements/wallet-credentials/index.ts';
import { walkCredentials } from '../wallet-credentials/helpers.ts';
import { chooseFilter, fillKeyForm, holdNext, loginByEmail, mountDrawn, nextEvent, part, parts, resetPage, settle, shadow, type, useRig, waitFor, waitForState } from './helpers.ts';

/** 1280 x 1024 at 400 % and 200 % zoom, and at 100 %: the CSS viewports the checks run in. */
const ZOOM_400 = { width: 320, height: 256 };
const ZOOM_200 = { width: 640, height: 512 };
const ZOOM_100 = { width: 1280, height: 1024 };

const TAGS = ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions'];

/** What a user's text spacing sets (WCAG 1.4.12), on the elements themselves: their shadow roots inherit it. */
const spacingOnHosts = new CSSStyleSheet();
spacingOnHosts.replaceSync(`${[...TAGS, 'wcag-layout-probe'].join(', ')} { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }`);

/** The same with paragraph spacing, on everything inside a shadow root (a tool that reaches in). */
const spacingInside = new CSSStyleSheet();
spacingInside.replaceSync(`*, ::before, ::after { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
p { margin-block-end: 2em !important; }`);

const CONTROLS = "button, input:not([type='hidden']), select, textarea, a[href], summary, [tabindex]:not([tabindex='-1'])";

/** A page column with 24 px margins on either side, the body's own margin taken away. */
let column: HTMLElement;

/** The element's place, for a message. */
function describeNode(node: Element): string {
  const p = node.getAttribute('part');
  const cls = node.getAttribute('class');
  const words = (node.textContent ?? node.getAttribute('aria-label') ?? '').replace(/\s+/g, ' ').trim().slice(0, 24);
  return `<${node.localName}${p ? ` part="${p}"` : ''}${cls ? ` class="${cls}"` : ''}>${words ? ` "${words}"` : ''}`;
}

/** Whether a node is drawn for a sighted user (not display: none, not the 1 px `.visually-hidden`). */
function drawn(node: Element): boolean {
  const r = node.getBoundingClientRect();
  return r.width > 1 && r.height > 1 && node.checkVisibility({ visibilityProperty: true });
}

function controls(el: Element): HTMLElement[] {
  return [...shadow(el).querySelectorAll<HTMLElement>(CONTROLS)].filter(drawn);
}

/** The nearest ancestor (or the node) laid out as a box: text that leaves it is cut off or drawn over something. */
function box(node: Element): Element {
  let x: Element = node;
  while (x.parentElement && ['inline', 'contents'].includes(getComputedStyle(x).display)) x = x.parentElement;
  return x;
}

/** The rectangles of each drawn text of the shadow root, with the element that holds it. */
function textRects(el: Element): Array<{ owner: Element; rect: DOMRect; words: string }> {
  const out: Array<{ owner: Element; rect: DOMRect; words: string }> = [];
  const walker = document.createTreeWalker(shadow(el), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = node.textContent!.replace(/\s+/g, ' ').trim();
    const owner = node.parentElement;
    if (!words || !owner || !drawn(owner) || getComputedStyle(owner).visibility !== 'visible') continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) if (rect.width > 0.5) out.push({ owner, rect, words });
  }
  return out;
}

/** How far two rectangles overlap on the narrower axis (0 when apart or touching). */
function overlap(a: DOMRect, b: DOMRect): number {
  return Math.max(0, Math.min(Math.min(a.right, b.right) - Math.max(a.left, b.left), Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)));
}

/**
 * What of the element is cut off, out of the viewport or drawn over something else, as sentences:
 * the page scrolling sideways, a box reaching past the element's edges, a box that clips what it
 * holds (a text field's own value scrolls inside it, as fields do, and is left out), text past the
 * box that holds it, a control past the viewport, and two controls or texts drawn over each other.
 */
function layoutProblems(el: Element): string[] {
  const out: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push(`the page scrolls sideways: ${root.scrollWidth} px of content in ${root.clientWidth} px`);
  const host = el.getBoundingClientRect();
  for (const node of shadow(el).querySelectorAll('*')) {
    if (!drawn(node)) continue;
    const r = node.getBoundingClientRect();
    if (r.left < host.left - 0.5 || r.right > host.right + 0.5) out.push(`${describeNode(node)} spans ${Math.round(r.left)}..${Math.round(r.right)}, the element ${Math.round(host.left)}..${Math.round(host.right)}`);
    if (['iframe', 'input', 'textarea'].includes(node.localName)) continue;
    const style = getComputedStyle(node);
    const clipsX = style.overflowX !== 'visible' && node.scrollWidth > node.clientWidth + 1;
    const clipsY = style.overflowY !== 'visible' && node.scrollHeight > node.clientHeight + 1;
    if (clipsX || clipsY) out.push(`${describeNode(node)} cuts off its content: ${node.scrollWidth}x${node.scrollHeight} in ${node.clientWidth}x${node.clientHeight}`);
  }
  const texts = textRects(el);
  for (const { owner, rect, words } of texts) {
    const holder = box(owner).getBoundingClientRect();
    if (rect.left < holder.left - 1 || rect.right > holder.right + 1 || rect.top < holder.top - 2 || rect.bottom > holder.bottom + 2) {
      out.push(`"${words.slice(0, 24)}" leaves ${describeNode(box(owner))}: text ${Math.round(rect.left)}..${Math.round(rect.right)} x ${Math.round(rect.top)}..${Math.round(rect.bottom)}, box ${Math.round(holder.left)}..${Math.round(holder.right)} x ${Math.round(holder.top)}..${Math.round(holder.bottom)}`);
    }
  }
  const width = root.clientWidth;
  const targets = controls(el);
  for (const c of targets) {
    const r = c.getBoundingClientRect();
    if (r.left < -0.5 || r.right > width + 0.5) out.push(`${describeNode(c)} is past the viewport: ${Math.round(r.left)}..${Math.round(r.right)} of 0..${width}`);
  }
  // Controls and texts drawn over one another (a text inside a control is the control's).
  const inks = [
    ...targets.map((c) => ({ owner: c as Element, rect: c.getBoundingClientRect(), what: describeNode(c) })),
    ...texts.filter((t) => !targets.some((c) => c.contains(t.owner))).map((t) => ({ owner: t.owner, rect: t.rect, what: `"${t.words.slice(0, 24)}"` })),
  ];
  for (let i = 0; i < inks.length; i++) {
    for (let j = i + 1; j < inks.length; j++) {
      const [a, b] = [inks[i]!, inks[j]!];
      if (a.owner === b.owner || a.owner.contains(b.owner) || b.owner.contains(a.owner)) continue;
      if (overlap(a.rect, b.rect) > 1) out.push(`${a.what} and ${b.what} overlap by ${overlap(a.rect, b.rect).toFixed(1)} px`);
    }
  }
  return out;
}

/** Distance from a point to a rectangle (0 inside it). */
function distance(x: number, y: number, r: DOMRect): number {
  return Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom));
}

/** WCAG 2.5.8: controls under 24 x 24 CSS px whose 24 px circle meets another control or small control's circle. */
function smallTargets(el: Element): string[] {
  const out: string[] = [];
  const targets = controls(el).map((c) => ({ c, r: c.getBoundingClientRect() }));
  const small = targets.filter(({ r }) => r.width < 23.99 || r.height < 23.99);
  for (const a of small) {
    const [x, y] = [a.r.left + a.r.width / 2, a.r.top + a.r.height / 2];
    const crowded = targets.some((b) => b !== a && (distance(x, y, b.r) < 12 || (small.includes(b) && Math.hypot(x - (b.r.left + b.r.width / 2), y - (b.r.top + b.r.height / 2)) < 24)));
    if (crowded) out.push(`${describeNode(a.c)} is ${a.r.width.toFixed(1)}x${a.r.height.toFixed(1)} px with another control within its 24 px circle`);
  }
  return out;
}

/**
 * WCAG 1.4.12 through inheritance: each drawn text and field of the shadow root keeps at least the user's
 * line height (1.5 of its own size) and at least the letter and word spacing it inherits (or 0.12em
 * and 0.16em of its own size, when that is less); a rule of the element that sets less takes the
 * user's spacing away.
 */
function spacingTakenAway(el: Element): string[] {
  const out = new Set<string>();
  const host = getComputedStyle(el);
  // \`normal\` (what the browser's own style sheet gives form controls) is no extra spacing.
  const length = (value: string) => (value === 'normal' ? 0 : parseFloat(value));
  const [letters, words] = [length(host.letterSpacing), length(host.wordSpacing)];
  // The holders of drawn text, and the fields, whose text is their value.
  for (const owner of new Set([...textRects(el).map((t) => t.owner), ...controls(el)])) {
    const style = getComputedStyle(owner);
    const size = parseFloat(style.fontSize);
    const lineHeight = style.lineHeight === 'normal' ? 0 : parseFloat(style.lineHeight);
    // Chromium gives a select drawn as a menu line height `normal` whatever its style sets (even
    // !important): its one line of text is out of the element's hands.
    if (lineHeight < 1.5 * size - 0.5 && owner.localName !== 'select') out.add(`${describeNode(owner)} has line height ${style.lineHeight} for ${size}px text`);
    if (length(style.letterSpacing) < Math.min(letters, 0.12 * size) - 0.05) out.add(`${describeNode(owner)} has letter spacing ${style.letterSpacing}`);
    if (length(style.wordSpacing) < Math.min(words, 0.16 * size) - 0.05) out.add(`${describeNode(owner)} has word spacing ${style.wordSpacing}`);
  }
  return [...out];
}

/** What was measured, one line per element and screen, for the run's log. */
function measures(el: Element): string {
  const host = el.getBoundingClientRect();
  const sizes = controls(el).map((c) => c.getBoundingClientRect());
  const smallest = sizes.length ? sizes.reduce((a, b) => (b.width * b.height < a.width * a.height ? b : a)) : undefined;
  return `${Math.round(host.width)}x${Math.round(host.height)} px, ${sizes.length} controls${smallest ? `, smallest ${smallest.width.toFixed(0)}x${smallest.height.toFixed(0)}` : ''}`;
}

/**
 * Every check on one screen of an element; resolves with the problems, each prefixed by the screen
 * and the condition it was seen under. Puts the viewport and the element's styles back after.
 */
async function audit(el: HTMLElement, screen: string): Promise<string[]> {
  const found: string[] = [];
  const log: string[] = [];
  const check = async (condition: string, problems: () => string[]) => {
    await settle(el);
    log.push(`${condition}: ${measures(el)}`);
    found.push(...problems().map((p) => `${screen}, ${condition}: ${p}`));
  };
  const root = shadow(el);
  // A copy: adoptedStyleSheets is a live array, which would take in the sheet added below.
  const own = [...root.adoptedStyleSheets];
  try {
    await setViewport(ZOOM_400);
    await check('320 px (400 %)', () => [...layoutProblems(el), ...smallTargets(el)]);
    await setViewport(ZOOM_200);
    await check('640 px (200 % zoom)', () => layoutProblems(el));
    await setViewport(ZOOM_100);
    await check('1280 px', () => smallTargets(el));
    el.style.setProperty('--wallet-font-size', '30px');
    await check('text 200 %', () => layoutProblems(el));
    el.style.removeProperty('--wallet-font-size');
    document.documentElement.style.fontSize = '200%';
    await check('root font size 200 %', () => layoutProblems(el));
    document.documentElement.style.fontSize = '';
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, spacingOnHosts];
    await check('text spacing on the element', () => spacingTakenAway(el));
    root.adoptedStyleSheets = [...own, spacingInside];
    await check('text spacing inside, 1280 px', () => layoutProblems(el));
    await setViewport(ZOOM_400);
    await check('text spacing inside, 320 px', () => layoutProblems(el));
  } finally {
    root.adoptedStyleSheets = own;
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== spacingOnHosts);
    document.documentElement.style.fontSize = '';
    el.style.removeProperty('--wallet-font-size');
    await setViewport(ZOOM_100);
  }
  console.log(`<${el.localName}> ${screen}: ${log.join('; ')}${found.length ? `\n  ${found.join('\n  ')}` : ''}`);
  return found;
}

const mountIn = <T extends HTMLElement>(tag: string, attributes?: Record<string, string>, setup?: (el: T) => void) => mountDrawn<T>(column, tag, attributes, setup);

describe('WCAG 2.2 layout: reflow, text spacing, target size and resize text of every element', function () {
  this.timeout(120000);
  let acct: RigAccount;

  before(() => {
    document.body.classList.add('wcag-layout');
    const page = new CSSStyleSheet();
    page.replaceSync('body.wcag-layout { margin: 0 } .wcag-column { padding-inline: 24px }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, page];
  });

  beforeEach(async () => {
    await useRig();
    acct = await newAccount();
    column = document.createElement('div');
    column.className = 'wcag-column';
    document.body.append(column);
  });

  afterEach(async function () {
    column.remove();
    await setViewport(ZOOM_100);
    await resetPage.call(this);
  });

  it('the page column is 272 px wide at 400 % zoom, and the checks see a control cut off, a page that scrolls sideways, a small crowded control and spacing taken away', async () => {
    await setViewport(ZOOM_400);
    const probe = document.createElement('div');
    column.append(probe);
    expect(probe.getBoundingClientRect().width).to.equal(272);
    probe.remove();
    // An element of the test's own whose layout has each defect, so that the checks cannot pass on nothing.
    const el = await mountIn<HTMLElement>('wcag-layout-probe');
    const found = await audit(el, 'probe');
    for (const problem of [/the page scrolls sideways/, /cuts off its content/, /is past the viewport/, /leaves/, /overlap by/, /with another control within its 24 px circle/, /has line height/, /has letter spacing/]) {
      expect(found.some((f) => problem.test(f)), `${problem} in:\n${found.join('\n')}`).to.equal(true);
    }
  });

  it('text follows a larger default font size set in the reader\'s browser (the root\'s rem), and is never under 15 px on a page that shrinks its root', async () => {
    const el = await mountIn<HTMLElement>('card-reveal');
    const sizes: Record<string, string> = {};
    // The reader's default font size reaches the page as the root's size; 10 px is a page's own `html { font-size: 62.5% }`.
    for (const root of ['', '32px', '10px']) {
      document.documentElement.style.fontSize = root;
      sizes[root || 'default'] = getComputedStyle(el).fontSize;
    }
    document.documentElement.style.fontSize = '';
    expect(sizes).to.deep.equal({ default: '15px', '32px': '30px', '10px': '15px' });
  });

  it('<wallet-login>: its methods, code entry (with a refused code) and logged in', async () => {
    const el = await mountIn<HTMLElement>('wallet-login', { 'account-id': acct.accountId });
    await waitForState(el, 'choosing');
    const found = await audit(el, 'methods');
    shadow(el).querySelector<HTMLButtonElement>("button[data-method='email-otp']")!.click();
    await waitForState(el, 'code-entry');
    found.push(...(await audit(el, 'code entry')));
    type(part(el, 'code-input') as HTMLInputElement, '123456');
    (part(el, 'form') as HTMLFormElement).requestSubmit();
    await waitFor(() => part(el, 'error')?.textContent?.trim(), 'the refused code');
    await waitForState(el, 'code-entry');
    found.push(...(await audit(el, 'code refused')));
    const loggedIn = nextEvent(el, 'wallet-logged-in');
    type(part(el, 'code-input') as HTMLInputElement, '000000');
    (part(el, 'form') as HTMLFormElement).requestSubmit();
    await loggedIn;
    await waitForState(el, 'logged-in');
    found.push(...(await audit(el, 'logged in')));
    expect(found.join('\n')).to.equal('');
  });

  it('<passkey-register>: asking to log in first, its form, and a passkey added', async () => {
    await addVirtualAuthenticator();
    const out = await mountIn<HTMLElement>('passkey-register', { 'account-id': acct.accountId });
    await waitForState(out, 'ready');
    (part(out, 'submit') as HTMLButtonElement).click();
    await waitForState(out, 'login-required');
    const found = await audit(out, 'log in first');
    out.remove();
    await loginByEmail(acct);
    const el = await mountIn<HTMLElement>('passkey-register', { 'account-id': acct.accountId, nickname: 'Work laptop' });
    await waitForState(el, 'ready');
    found.push(...(await audit(el, 'form')));
    (part(el, 'submit') as HTMLButtonElement).click();
    await waitForState(el, 'done', 20000);
    found.push(...(await audit(el, 'added')));
    expect(found.join('\n')).to.equal('');
  });

  it('<passkey-register>: a name without spaces (an address, a host name), said back once added or left unactivated, in English and Arabic', async () => {
    await addVirtualAuthenticator();
    const nickname = 'jonathan.doe.personal@example-company.com';
    const found: string[] = [];
    for (const lang of ['en', 'ar']) {
      // A wallet each: the authenticator holds one passkey per wallet.
      if (lang === 'ar') acct = await newAccount();
      await loginByEmail(acct);
      const el = await mountIn<HTMLElement>('passkey-register', { 'account-id': acct.accountId, nickname, lang });
      await waitForState(el, 'ready');
      // The activation is cancelled while it waits at its challenge: the passkey is saved, not yet used.
      const challenge = holdNext('POST', /\/auth\/credentials\/AuthMethod[^/]+\/challenge$/);
      try {
        (part(el, 'submit') as HTMLButtonElement).click();
        await challenge.arrived;
        await waitForState(el, 'activating', 20000);
        (el as HTMLElement & { cancel(): void }).cancel();
        challenge.release();
      } finally {
        challenge.undo();
      }
      await waitForState(el, 'registered', 20000);
      found.push(...(await audit(el, `${lang}: saved, not logged in`)));
      (part(el, 'submit') as HTMLButtonElement).click();
      await waitForState(el, 'done', 20000);
      found.push(...(await audit(el, `${lang}: added`)));
      el.remove();
    }
    expect(found.join('\n')).to.equal('');
  });

  it('<wallet-credentials>: three credentials and two sessions, a code being entered, and the question before a removal', async () => {
    await loginByEmail(acct);
    await advanceClock(31_000);
    await loginByEmail(acct);
    const sub = `user-${crypto.randomUUID()}`;
    const el = await mountIn<WalletCredentials>('wallet-credentials', { 'account-id': acct.accountId, 'customer-id': acct.customerId }, (e) => {
      e.oidcTokenProvider = (nonce) => oidcToken({ sub, email: 'a-rather-long-address.for-single-sign-on@example.com', nonce });
    });
    const found: string[] = [];
    await walkCredentials(el, async (screen) => {
      if (screen === 'credentials and sessions') {
        await waitFor(() => part(el, 'status')?.textContent?.includes('ready to use'), 'the activation notice');
        expect(parts(el, 'credential')).to.have.length(3);
        expect(parts(el, 'session').length).to.be.at.least(2);
      }
      found.push(...(await audit(el, screen)));
    });
    expect(found.join('\n')).to.equal('');
  });

  it('<card-reveal>: hidden and revealed', async () => {
    const f = await fixtures();
    const el = await mountIn<HTMLElement>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    const found = await audit(el, 'hidden');
    // The card is as high as its frame will be, unless larger text needs more (above).
    expect(part(el, 'face')!.getBoundingClientRect().height).to.equal(220);
    const revealed = nextEvent(el, 'card-revealed');
    (part(el, 'reveal-button') as HTMLButtonElement).click();
    await revealed;
    found.push(...(await audit(el, 'revealed')));
    // The processor's page fills the frame, at the frame's height.
    expect(shadow(el).querySelector('iframe')!.getBoundingClientRect().height).to.equal(220);
    expect(found.join('\n')).to.equal('');
  });

  it('<delegated-keys>: none, its creation form with two limits and their errors, the question before revoking, and two keys', async () => {
    await loginByEmail(acct);
    const el = await mountIn<HTMLElement>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    await waitForState(el, 'ready');
    const found = await audit(el, 'none');
    const create = async (nickname: string, limits: Array<[string, string]>, check?: string) => {
      const input = await fillKeyForm(el, nickname, limits);
      if (check) {
        // Refused before anything is sent: each limit row shows its errors.
        type(input('currencyCode', 1), 'U$');
        type(input('maxPerTransaction', 1), '0');
        (part(el, 'submit-button') as HTMLButtonElement).click();
        await settle(el);
        expect(input('currencyCode', 1).getAttribute('aria-invalid')).to.equal('true');
        found.push(...(await audit(el, check)));
        type(input('currencyCode', 1), 'EUR');
        type(input('maxPerTransaction', 1), '25');
      }
      const created = nextEvent(el, 'delegated-key-created');
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await created.catch((e) => { throw new Error(`${e.message}: ${shadow(el).textContent?.replace(/\s+/g, ' ')}`); });
      await settle(el);
    };
    await create('Groceries and household shopping', [['USD', '12050'], ['EUR', '25']], 'creation form');
    (part(el, 'revoke-button') as HTMLButtonElement).click();
    await waitFor(() => part(el, 'confirm'), 'the question');
    found.push(...(await audit(el, 'revoke question')));
    const revoked = nextEvent(el, 'delegated-key-revoked');
    [...part(el, 'confirm')!.querySelectorAll('button')][0]!.click();
    await revoked;
    await create('Travel', [['USD', '99999999']]);
    await waitFor(() => parts(el, 'key').length === 2, 'two keys');
    found.push(...(await audit(el, 'two keys')));
    expect(found.join('\n')).to.equal('');
  });

  it('<agent-actions>: its actions with "load more", and filtered', async () => {
    const el = document.createElement('agent-actions') as HTMLElement & { agentToken: string };
    el.setAttribute('page-size', '10');
    el.setAttribute('poll-interval', '60000');
    el.agentToken = acct.agentToken;
    column.append(el);
    await waitForState(el, 'ready');
    await settle(el);
    expect(parts(el, 'action')).to.have.length(10);
    const found = await audit(el, 'actions');
    chooseFilter(el, 'FAILED');
    await settle(el);
    await waitForState(el, 'ready');
    await settle(el);
    found.push(...(await audit(el, 'failed actions')));
    expect(found.join('\n')).to.equal('');
  });
});

/**
 * The probe of the first test: an element that has each defect the checks look for, so that the
 * checks are seen to fail where they must.
 */
class LayoutProbe extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`:host { display: block; }
      .wide { inline-size: 400px; }
      .clip { overflow: hidden; block-size: 1em; inline-size: 60px; white-space: nowrap; }
      .tight { line-height: 1; letter-spacing: 0; }
      .small { inline-size: 16px; block-size: 16px; padding: 0; min-block-size: 0; }
      .over { margin-block-start: -30px; }`);
    root.adoptedStyleSheets = [sheet];
    root.innerHTML = `<p class="tight">Tight text</p>
      <div class="clip">Text that is clipped by its box</div>
      <button class="wide">A button wider than the page</button>
      <button class="small" aria-label="one"></button><button class="small" aria-label="two"></button>
      <p class="over">Text drawn over the buttons above</p>`;
  }
}
customElements.define('wcag-layout-probe', LayoutProbe);
