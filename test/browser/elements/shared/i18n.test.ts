/**
 * The language and time zone of an element's dates and numbers, in real Chromium against the real
 * sandbox through the real proxy (elements/shared/i18n.ts localeOf and translate,
 * elements/shared/formats.ts): a sentence a language has no string for reads English, its numbers
 * and dates still written in the element's language; a page whose time zone changes under it
 * (CDP Emulation.setTimezoneOverride, as the operating system's would) writes its dates in the new
 * one, and a `lang` changed after the first draw writes them in the new language.
 */
import { expect } from 'chai';
import '../../../../src/elements/agent-actions/index.ts';
import type { AgentActions } from '../../../../src/elements/agent-actions/index.ts';
import type { AgentAction } from '../../../../src/core/types.ts';
import { setStrings } from '../../../../src/elements/shared/i18n.ts';
import { agentActionsStrings } from '../../../../src/elements/agent-actions/agent-actions.strings.ts';
import '../../../../src/elements/card-reveal/index.ts';
import { cardRevealStrings } from '../../../../src/elements/card-reveal/card-reveal.strings.ts';
import { newAccount, setTimeZone, type RigAccount } from '../../support/rig.ts';
import { part, parts, resetPage, useRig, waitFor } from './helpers.ts';

async function mountActions(token: string, attributes: Record<string, string> = {}): Promise<AgentActions> {
  const el = document.createElement('agent-actions') as AgentActions;
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  el.agentToken = token;
  document.body.append(el);
  await waitFor(() => el.matches(':state(ready)') || el.matches(':state(failed)'), 'the first page');
  await el.updateComplete;
  return el;
}

/** The actions the element read (its state, as the service answered). */
const actionsOf = (el: AgentActions) => (el as unknown as { view: { actions: AgentAction[] } }).view.actions;

/** "Submitted …" of the element's first action. */
const submitted = (el: AgentActions) => parts(el, 'action')[0]!.querySelector('p.muted')!.textContent!.trim();

/** The first action's date as a formatter made now writes it (the page's time zone of now). */
/** A locale table with every sentence of `en` (marked as translated) but `missing`. */
const allBut = (en: Record<string, string>, missing: string) =>
  Object.fromEntries(Object.entries(en).flatMap(([k, v]) => (k === missing ? [] : [[k, `اردو ${v}`]])));

/** The language and direction a screen reader and the layout take for a node: its closest `lang` and `dir`. */
const languageOf = (node: Element) => [node.closest('[lang]')!.getAttribute('lang'), node.closest('[dir]')!.getAttribute('dir')];

const writtenNow = (el: AgentActions, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(actionsOf(el)[0]!.createdAt));

describe('dates and numbers of an element: its language, the page\'s time zone', function () {
  this.timeout(60000);
  let acct: RigAccount;

  before(async () => {
    await useRig();
    acct = await newAccount({ actions: 3 });
  });
  afterEach(async () => {
    await setTimeZone(null);
    await resetPage();
  });

  it('a sentence the page\'s language has no string for reads English, with its numbers and dates written in that language (Persian digits and calendar)', async () => {
    // An integrator's partial table: one string of <agent-actions> in Persian, none for the count or the date.
    setStrings('fa', { 'agent-actions.status.PENDING_APPROVAL': 'در انتظار تأیید' });
    const el = await mountActions(acct.agentToken, { lang: 'fa' });
    expect(part(el, 'base')!.lang).to.equal('fa');
    const n = (count: number) => count.toLocaleString('fa');
    expect(n(3)).to.not.equal('3');
    expect(part(el, 'footer')!.querySelector('.muted')!.textContent!.trim()).to.equal(`Showing ${n(3)} of ${n(3)}`);
    expect(submitted(el)).to.equal(`Submitted ${writtenNow(el, 'fa')}`);
    expect(submitted(el)).to.not.match(/[0-9]/);
  });

  it('a sentence a locale table lacks is marked as English, left to right, inside an element in that (right-to-left) locale; the translated ones keep the locale (WCAG 3.1.2)', async () => {
    // Urdu tables with every sentence of the element but one, as an integrator's table one sentence behind.
    setStrings('ur', allBut(agentActionsStrings.en, 'agent-actions.title'));
    setStrings('ur', allBut(cardRevealStrings.en, 'card-reveal.no-card'));
    const el = await mountActions(acct.agentToken, { lang: 'ur' });
    const title = el.shadowRoot!.querySelector('h2')!;
    expect(title.textContent).to.equal(agentActionsStrings.en['agent-actions.title']);
    expect(languageOf(title)).to.deep.equal(['en', 'ltr']);
    const statuses = parts(el, 'status');
    expect(statuses.length).to.be.above(0);
    for (const status of statuses) {
      expect(status.textContent).to.match(/^اردو /);
      expect(languageOf(status)).to.deep.equal(['ur', 'rtl']);
    }
    // <card-reveal> (its own DOM, not a template): without a card id it says so, in English here.
    const card = document.createElement('card-reveal');
    card.lang = 'ur';
    document.body.append(card);
    await (card as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const controls = part(card, 'controls')!;
    expect(controls.textContent).to.equal(cardRevealStrings.en['card-reveal.no-card']);
    expect(languageOf(controls)).to.deep.equal(['en', 'ltr']);
    expect(languageOf(part(card, 'face')!.querySelector('small')!)).to.deep.equal(['ur', 'rtl']);
    // Once the table has the sentence, it is in the locale again.
    setStrings('ur', { 'agent-actions.title': 'اردو عنوان' });
    await waitFor(() => title.textContent === 'اردو عنوان', 'the translated title');
    expect(languageOf(title)).to.deep.equal(['ur', 'rtl']);
  });

  it('a date drawn after the page\'s time zone changed is written in the new time zone', async () => {
    await setTimeZone('UTC');
    const before = await mountActions(acct.agentToken);
    expect(submitted(before)).to.equal(`Submitted ${writtenNow(before, 'en')}`);
    // The device moves nine hours east while the page stays open; an element drawn now shows the new time.
    await setTimeZone('Asia/Tokyo');
    expect(new Date(0).getTimezoneOffset()).to.equal(-540);
    const after = await mountActions(acct.agentToken);
    expect(submitted(after)).to.equal(`Submitted ${writtenNow(after, 'en')}`);
    expect(submitted(after)).to.not.equal(submitted(before));
  });

  it('a lang changed after the first draw writes the dates already shown in the new language', async () => {
    setStrings('de', { 'agent-actions.submitted': 'Eingereicht {date}' });
    const el = await mountActions(acct.agentToken, { lang: 'en' });
    expect(submitted(el)).to.equal(`Submitted ${writtenNow(el, 'en')}`);
    el.setAttribute('lang', 'de');
    await waitFor(() => submitted(el).startsWith('Eingereicht'), 'German after lang="de"');
    expect(submitted(el)).to.equal(`Eingereicht ${writtenNow(el, 'de')}`);
  });
});
