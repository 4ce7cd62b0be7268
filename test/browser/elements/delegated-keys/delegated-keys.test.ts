/**
 * <delegated-keys> in real Chromium against the real sandbox through the real proxy (api.md
 * "POST {base_url}/auth/delegated-keys", reference.md "Delegated keys"): list, create with limits
 * through the signed retry that takes two signatures of the wallet's session, limits shown as
 * immutable, duplicate currencies and an over-long nickname refused before anything is sent, 409
 * in words while an ACTIVE key exists, revoke with confirmation, and "log in first" without a
 * session. Each test uses a fresh sandbox account. axe-core runs on each screen; Arabic is RTL.
 */
import { expect } from 'chai';
import { sendKeys } from '@web/test-runner-commands';
import '../../../../src/elements/delegated-keys/index.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import '../../../../src/locales/ar.ts';
import { setLocale } from '../../../../src/elements/shared/i18n.ts';
import { createClient } from '../../../../src/core/client.ts';
import type { DelegatedKey } from '../../../../src/core/types.ts';
import { axHeadings, axLiveRegions, axNodes, newAccount, fixtures, politeRegions, type RigAccount, type RigFixtures } from '../../support/rig.ts';
import { axeViolations, cleanup, drawnLeftToRight, failNext, focusIn, holdAnswer, holdNext, loseAnswer, mount, nextEvent, overflowing, part, parts, resetPage, shadow, text, type, useRig, waitFor } from '../shared/helpers.ts';

/** Counts the requests the page sends to a path (a pass-through wrapper: every call still goes out). */
function countRequests(fragment: string, method: string) {
  const original = window.fetch;
  let count = 0;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.includes(fragment) && (init?.method ?? 'GET') === method) count++;
    return original(input, init);
  };
  return {
    get count() {
      return count;
    },
    restore() {
      window.fetch = original;
    },
  };
}

function input(el: Element, name: string, index = 0): HTMLInputElement {
  const found = shadow(el).querySelectorAll<HTMLInputElement>(`input[name='${name}']`)[index];
  if (!found) throw new Error(`no input ${name}[${index}]`);
  return found;
}

function button(el: Element, label: RegExp): HTMLButtonElement {
  const found = [...shadow(el).querySelectorAll<HTMLButtonElement>('button')].find((b) => label.test(b.textContent ?? '') || label.test(b.getAttribute('aria-label') ?? ''));
  if (!found) throw new Error(`no button ${label}`);
  return found;
}

async function settle(el: DelegatedKeys): Promise<void> {
  await el.updateComplete;
  await new Promise((r) => setTimeout(r, 0));
  await el.updateComplete;
}

async function fillForm(el: DelegatedKeys, nickname: string, limits: Array<[string, string]>): Promise<void> {
  if (!part(el, 'form')) {
    (part(el, 'new-button') as HTMLButtonElement).click();
    await settle(el);
  }
  type(input(el, 'nickname'), nickname);
  for (let i = 0; i < limits.length; i++) {
    button(el, /Add a limit/).click();
    await settle(el);
    type(input(el, 'currencyCode', i), limits[i]![0]);
    type(input(el, 'maxPerTransaction', i), limits[i]![1]);
  }
  await settle(el);
}

/** Fills the form, submits it and waits for the created key (as `delegated-key-created` carries it). */
async function createKey(el: DelegatedKeys, nickname: string, limits: Array<[string, string]> = []): Promise<DelegatedKey> {
  await fillForm(el, nickname, limits);
  const created = nextEvent<CustomEvent<{ key: DelegatedKey }>>(el, 'delegated-key-created');
  (part(el, 'submit-button') as HTMLButtonElement).click();
  const { key } = (await created).detail;
  await settle(el);
  return key;
}

/** The codes of the `delegated-keys-error` events `el` dispatches from now on. */
function errorCodes(el: DelegatedKeys): string[] {
  const codes: string[] = [];
  el.addEventListener('delegated-keys-error', (e) => codes.push((e as CustomEvent).detail.code));
  return codes;
}

/** Everything the alert regions of `el` ever say from now on, not only what is left at the end, until `stop()`. */
function watchAlerts(el: DelegatedKeys): { said: string[]; stop: () => void } {
  const said: string[] = [];
  const watch = new MutationObserver(() => said.push(...[...shadow(el).querySelectorAll('[role=alert]')].map((r) => r.textContent!.trim()).filter(Boolean)));
  watch.observe(shadow(el), { subtree: true, childList: true, characterData: true });
  return { said, stop: () => watch.disconnect() };
}

/**
 * Creates (the form's submit, its 201 lost) or revokes (the confirmation's Revoke key, its answer
 * lost) with the list read to check what happened failing (503) too, and returns once the failure is
 * dispatched (`errors`, from errorCodes). With `whileChecking`, that list is held on the wire while it
 * runs: what is said before the list has answered.
 */
async function loseAnswerAndList(el: DelegatedKeys, change: 'create' | 'revoke', errors: string[], whileChecking?: () => Promise<void> | void): Promise<void> {
  const undo = change === 'create' ? loseAnswer('POST', /\/auth\/delegated-keys$/, (r) => r.status === 201) : loseAnswer('DELETE', /\/auth\/delegated-keys\//);
  const undoList = failNext('GET', /\/auth\/delegated-keys\?/, 503);
  const recheck = whileChecking && holdNext('GET', /\/auth\/delegated-keys\?/);
  try {
    if (change === 'create') (part(el, 'submit-button') as HTMLButtonElement).click();
    else button(el, /Revoke key/).click();
    if (recheck) {
      await recheck.arrived;
      await whileChecking!();
      recheck.release();
    }
    await waitFor(() => errors.length, 'the lost answer');
  } finally {
    undo();
    undoList();
    recheck?.undo();
  }
}

describe('<delegated-keys>', () => {
  let f: RigFixtures, acct: RigAccount;
  before(async () => {
    f = await fixtures();
    await useRig();
  });
  beforeEach(async () => (acct = await newAccount()));

  afterEach(async function () {
    cleanup();
    await walletFor().logout(acct.accountId).catch(() => undefined);
    await resetPage.call(this);
  });

  async function login(): Promise<void> {
    const l = await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId });
    await l.submit('000000');
  }

  async function mountReady(): Promise<DelegatedKeys> {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    await waitFor(() => el.matches(':state(ready)'), 'the list');
    await settle(el);
    return el;
  }

  /** The element, its list answered `status` once (with those headers and that body of the service's shape): failed, settled. */
  async function mountFailedList(status: number, headers: Record<string, string> = {}, body?: object): Promise<DelegatedKeys> {
    const undo = failNext('GET', /\/auth\/delegated-keys\?/, status, 1, headers, body);
    let el: DelegatedKeys;
    try {
      el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
      await waitFor(() => el.matches(':state(failed)'), 'the failed list');
    } finally {
      undo();
    }
    await settle(el);
    return el;
  }

  /** Logged in, a key named `nickname` created and its Revoke pressed: the element (asking to confirm), and the key. */
  async function atRevoke(nickname: string) {
    await login();
    const el = await mountReady();
    const key = await createKey(el, nickname);
    (part(el, 'revoke-button') as HTMLButtonElement).click();
    await settle(el);
    return { el, key };
  }

  /** Logged in, the list ready, the form filled: the element, and the error codes and alerts it tells from now on. */
  async function formFilled(nickname: string, limits: Array<[string, string]>) {
    await login();
    const el = await mountReady();
    await fillForm(el, nickname, limits);
    return { el, errors: errorCodes(el), ...watchAlerts(el) };
  }

  it('a lang that is no language tag ("x", "en-"), or a language with no strings registered ("fr"), lists the keys as English does: dates and amounts as English writes them', async () => {
    await login();
    await createKey(await mountReady(), 'Groceries', [['USD', '5000']]);
    cleanup();
    const keys = async (lang: string) => {
      const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId, lang });
      await waitFor(() => el.matches(':state(ready)'), 'the list');
      await settle(el);
      const rows = [part(el, 'base')!.lang, ...parts(el, 'key').map((k) => k.textContent!.replace(/\s+/g, ' ').trim())];
      el.remove();
      return rows;
    };
    const english = await keys('en');
    expect(english.join()).to.match(/Created [A-Z][a-z]{2} \d{1,2}, \d{4}.*\$50\.00 per payment/);
    for (const lang of ['x', 'en-', 'fr']) expect(await keys(lang), lang).to.deep.equal(english);
  });

  it('a refresh() with the keyboard on a key\'s Revoke button gives it back there once the list is read again', async () => {
    await login();
    const el = await mountReady();
    const key = await createKey(el, 'Groceries');
    await settle(el);
    const revoke = shadow(el).querySelector<HTMLButtonElement>(`[data-focus="revoke-${key.id}"]`)!;
    revoke.focus();
    expect(shadow(el).activeElement).to.equal(revoke);
    el.refresh();
    await el.updateComplete;
    // Meanwhile the heading keeps the keyboard (the list is hidden while it loads).
    expect(shadow(el).activeElement?.getAttribute('data-focus')).to.equal('title');
    await waitFor(() => el.matches(':state(ready)'), 'the list read again');
    await settle(el);
    expect(shadow(el).activeElement?.getAttribute('data-focus')).to.equal(`revoke-${key.id}`);
  });

  it('lists none, creates a key with two limits through the signed retry, and shows the limits as immutable', async () => {
    await login();
    const el = await mountReady();
    expect(text(el, 'base')).to.match(/no delegated keys yet/);
    expect(await axeViolations(el)).to.deep.equal([]);

    await fillForm(el, 'Groceries', [
      ['usd', '5000'],
      ['EUR', '1200'],
    ]);
    expect(text(el, 'form')).to.match(/= \$50\.00/);
    expect(await axeViolations(el)).to.deep.equal([]);
    const created = nextEvent<CustomEvent>(el, 'delegated-key-created');
    (part(el, 'submit-button') as HTMLButtonElement).click();
    const { detail } = await created;
    expect(detail.key.status).to.equal('ACTIVE');
    expect(detail.key.nickname).to.equal('Groceries');
    expect(detail.key.cardId).to.equal(acct.cardId);
    expect(detail.key.spendingLimits).to.deep.equal([
      { currencyCode: 'USD', maxPerTransaction: 5000 },
      { currencyCode: 'EUR', maxPerTransaction: 1200 },
    ]);
    expect(Object.keys(detail.key)).to.not.include('privateKey');
    await settle(el);

    const keys = parts(el, 'key');
    expect(keys).to.have.length(1);
    expect(keys[0]!.textContent).to.match(/Groceries/);
    expect(keys[0]!.textContent).to.match(/\$50\.00 per payment/);
    expect(keys[0]!.textContent).to.match(/€12\.00 per payment/);
    expect(keys[0]!.textContent).to.match(/revoke this key and create a new one/);
    expect(text(el, 'status')).to.equal('Active');
    expect(text(el, 'notice')).to.match(/Groceries.*created/);
    // Focus returns to "New key" after the form closes.
    expect(shadow(el).activeElement === part(el, 'new-button'), `focus on "New key", not ${focusIn(el)}`).to.equal(true);

    // The service lists it too (the element showed what the service holds).
    const listed = await createClient({ baseUrl: f.apiBase }).listDelegatedKeys({ accountId: acct.accountId });
    expect(listed.map((k) => k.id)).to.deep.equal([detail.key.id]);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('refuses duplicate currencies and an over-long nickname before sending anything', async () => {
    await login();
    const el = await mountReady();
    const spy = countRequests('/auth/delegated-keys', 'POST');
    try {
      await fillForm(el, 'x'.repeat(257), [
        ['USD', '100'],
        [' usd ', '200'],
        ['EUR', '0'],
      ]);
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await settle(el);
      expect(spy.count).to.equal(0);
      expect(input(el, 'nickname').getAttribute('aria-invalid')).to.equal('true');
      expect(input(el, 'currencyCode', 1).getAttribute('aria-invalid')).to.equal('true');
      expect(input(el, 'currencyCode', 0).getAttribute('aria-invalid')).to.equal('false');
      expect(input(el, 'maxPerTransaction', 2).getAttribute('aria-invalid')).to.equal('true');
      expect(text(el, 'form')).to.match(/already has a limit/);
      expect(text(el, 'form')).to.match(/256 characters or fewer/);
      expect(text(el, 'form')).to.match(/whole number above zero/);
      // The first invalid field gets the focus, and its message is tied to it.
      expect(shadow(el).activeElement === input(el, 'nickname'), `focus on the nickname field, not ${focusIn(el)}`).to.equal(true);
      const describedBy = input(el, 'currencyCode', 1).getAttribute('aria-describedby')!.split(' ');
      expect(shadow(el).getElementById(describedBy[0]!)?.textContent).to.match(/already has a limit/);
      expect(await axeViolations(el)).to.deep.equal([]);
      // An error under one field of a row does not move the other field's input off its line.
      const top = (name: string, row: number) => input(el, name, row).getBoundingClientRect().top;
      expect(top('currencyCode', 2)).to.equal(top('maxPerTransaction', 2));
      expect(top('currencyCode', 1)).to.equal(top('maxPerTransaction', 1));
      // The row reads in its tab order: currency, maximum, then its remove button.
      const row = input(el, 'currencyCode', 1).closest('.limit-row')!;
      const left = (node: Element) => node.getBoundingClientRect().left;
      expect(left(input(el, 'currencyCode', 1))).to.be.below(left(input(el, 'maxPerTransaction', 1)));
      expect(left(input(el, 'maxPerTransaction', 1))).to.be.below(left(row.querySelector(':scope > button')!));

      // Fixing a field takes its error away as it is typed; no new error appears before a submit.
      type(input(el, 'maxPerTransaction', 2), '5000');
      await settle(el);
      expect(input(el, 'maxPerTransaction', 2).getAttribute('aria-invalid')).to.equal('false');
      expect(text(el, 'form')).to.not.match(/whole number above zero/);
      expect(input(el, 'currencyCode', 1).getAttribute('aria-invalid')).to.equal('true');
      type(input(el, 'maxPerTransaction', 0), 'x');
      await settle(el);
      expect(input(el, 'maxPerTransaction', 0).getAttribute('aria-invalid')).to.equal('false');
    } finally {
      spy.restore();
    }
  });

  it('each limit row\'s remove button has a name of its own, its row\'s place, in English and Arabic', async () => {
    await login();
    const el = await mountReady();
    await fillForm(el, 'Travel', [
      ['USD', '100'],
      ['USD', '200'],
      ['EUR', '300'],
    ]);
    // The buttons show only "×": a screen reader names each from its row, even two rows of one currency.
    const removeButtons = async () => (await axNodes()).filter((n) => n.role === 'button' && /limit|الحد/.test(n.name) && !/Add|إضافة/.test(n.name)).map((n) => n.name);
    expect(await removeButtons()).to.deep.equal(['Remove limit 1', 'Remove limit 2', 'Remove limit 3']);
    // Removing the first renumbers the rows that stay, as a listener hears them.
    button(el, /^Remove limit 1$/).click();
    await settle(el);
    expect([input(el, 'currencyCode', 0).value, input(el, 'maxPerTransaction', 0).value]).to.deep.equal(['USD', '200']);
    expect(await removeButtons()).to.deep.equal(['Remove limit 1', 'Remove limit 2']);
    setLocale('ar');
    await settle(el);
    expect(await removeButtons()).to.deep.equal(['إزالة الحد 1', 'إزالة الحد 2']);
  });

  it('answers 409 in words while an active key exists; after revoking it, a new key can be created', async () => {
    await login();
    const el = await mountReady();
    const first = await createKey(el, 'First');

    await fillForm(el, 'Second', [['USD', '100']]);
    const failed = nextEvent<CustomEvent>(el, 'delegated-keys-error');
    (part(el, 'submit-button') as HTMLButtonElement).click();
    const { detail } = await failed;
    expect(detail).to.include({ code: 'conflict', operation: 'create', status: 409 });
    await settle(el);
    expect(text(el, 'form')).to.match(/already has an active key\. Revoke it first/);
    // Said once: the alert takes the place of the note shown before the refusal.
    expect(text(el, 'form').match(/already has an active key/g)).to.have.length(1);
    // The form keeps what was typed.
    expect(input(el, 'nickname').value).to.equal('Second');
    expect(await axeViolations(el)).to.deep.equal([]);
    // Escape closes the form, as Cancel does, and the focus goes back to the button that opened it.
    const escape = () => new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true });
    input(el, 'nickname').dispatchEvent(escape());
    await settle(el);
    expect(part(el, 'form')).to.equal(null);
    expect(shadow(el).activeElement === part(el, 'new-button'), `focus back on "New key", not ${focusIn(el)}`).to.equal(true);
    // The list is named by the panel's heading.
    expect(shadow(el).getElementById(part(el, 'list')!.getAttribute('aria-labelledby')!)?.textContent).to.equal('Delegated keys');

    // Revoke, with a confirmation whose least destructive choice has the focus; Escape dismisses it.
    (part(el, 'revoke-button') as HTMLButtonElement).click();
    await settle(el);
    shadow(el).activeElement!.dispatchEvent(escape());
    await settle(el);
    expect(part(el, 'confirm')).to.equal(null);
    expect(shadow(el).activeElement === part(el, 'revoke-button'), `focus back on "Revoke", not ${focusIn(el)}`).to.equal(true);
    (part(el, 'revoke-button') as HTMLButtonElement).click();
    await settle(el);
    expect(text(el, 'confirm')).to.match(/Revoke “\u2068First\u2069”\?/);
    expect(shadow(el).activeElement?.textContent?.trim()).to.equal('Cancel');
    // The confirming button's text stands out from its red (white on red, not red on red).
    const strong = getComputedStyle(button(el, /Revoke key/));
    expect(strong.color).to.not.equal(strong.backgroundColor);
    expect(await axeViolations(el)).to.deep.equal([]);
    const revoked = nextEvent<CustomEvent>(el, 'delegated-key-revoked');
    button(el, /Revoke key/).click();
    expect((await revoked).detail).to.deep.equal({ keyId: first.id });
    await settle(el);
    expect(text(el, 'status')).to.equal('Revoked');
    expect(part(el, 'revoke-button')).to.equal(null);
    expect((await createClient({ baseUrl: f.apiBase }).getDelegatedKey(first.id)).status).to.equal('REVOKED');

    expect((await createKey(el, 'Second', [['USD', '100']])).nickname).to.equal('Second');
    expect(parts(el, 'key').map((k) => k.querySelector('h3')?.textContent)).to.deep.equal(['Second', 'First']);
  });

  it('a key the service created although its answer was lost is shown as created, once, and not created twice, with no failure said or dispatched at any point', async () => {
    const { el, errors, said, stop } = await formFilled('Lost answer', [['USD', '700']]);
    const created = nextEvent<CustomEvent>(el, 'delegated-key-created');
    const undo = loseAnswer('POST', /\/auth\/delegated-keys$/, (r) => r.status === 201);
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      const { detail } = await created;
      expect(detail.key.nickname).to.equal('Lost answer');
    } finally {
      undo();
    }
    await settle(el);
    stop();
    // The list, read before anything is said, shows the key: the change succeeded, so neither the
    // page nor the user hears of the lost answer.
    expect([errors, said]).to.deep.equal([[], []]);
    expect(part(el, 'form')).to.equal(null);
    expect(text(el, 'error')).to.equal('');
    expect(text(el, 'notice')).to.match(/Lost answer.*created/);
    expect(parts(el, 'key').map((k) => k.querySelector('h3')?.textContent)).to.deep.equal(['Lost answer']);
    expect(shadow(el).activeElement === part(el, 'new-button'), `focus on "New key", not ${focusIn(el)}`).to.equal(true);
    const listed = await createClient({ baseUrl: f.apiBase }).listDelegatedKeys({ accountId: acct.accountId });
    expect(listed.map((k) => k.nickname)).to.deep.equal(['Lost answer']);
  });

  it('a key created as the connection dropped, with its list unreadable too, is shown as created when Try again is pressed, with no other failure said and one key made', async () => {
    const { el, errors, said, stop } = await formFilled('Coverage lost', []);
    // The key is made, its answer lost, and the list read to check fails as well (still no coverage).
    // The failure is said once the list, read to check, fails too.
    await loseAnswerAndList(el, 'create', errors, () => {
      expect(errors).to.deep.equal([]);
    });
    await settle(el);
    expect(button(el, /Try again/)).to.be.ok;
    const created = nextEvent<CustomEvent>(el, 'delegated-key-created');
    button(el, /Try again/).click();
    expect((await created).detail.key.nickname).to.equal('Coverage lost');
    await settle(el);
    stop();
    expect(text(el, 'notice')).to.match(/Coverage lost.*created/);
    expect(text(el, 'error')).to.equal('');
    // Pressed back online, Try again is answered 409 (the key exists): it is not said as "revoke it first".
    expect(said.filter((x) => /active key/.test(x))).to.deep.equal([]);
    expect(errors).to.deep.equal(['network']);
    const listed = await createClient({ baseUrl: f.apiBase }).listDelegatedKeys({ accountId: acct.accountId });
    expect(listed.map((k) => k.nickname)).to.deep.equal(['Coverage lost']);
  });

  it('Try again after a lost answer, with a refresh() between that already lists the key the first try made, says that key created, not a conflict', async () => {
    const { el, errors, said, stop } = await formFilled('Listed meanwhile', []);
    // The key is made, its answer lost, and the list read to check fails too.
    await loseAnswerAndList(el, 'create', errors);
    // Back in coverage, the page reads the list again: it shows the key, the form its failure.
    el.refresh();
    await waitFor(() => el.matches(':state(ready)') && parts(el, 'key').length === 1, 'the list with the key');
    await settle(el);
    const created = nextEvent<CustomEvent>(el, 'delegated-key-created');
    button(el, /Try again/).click();
    expect((await created).detail.key.nickname).to.equal('Listed meanwhile');
    await settle(el);
    stop();
    expect(said.filter((x) => /active key/.test(x))).to.deep.equal([]);
    expect(errors).to.deep.equal(['network']);
    expect(text(el, 'notice')).to.match(/Listed meanwhile.*created/);
    expect(part(el, 'form')).to.equal(null);
    const listed = await createClient({ baseUrl: f.apiBase }).listDelegatedKeys({ accountId: acct.accountId });
    expect(listed.map((k) => k.nickname)).to.deep.equal(['Listed meanwhile']);
  });

  it('a revoke the service carried out although its answer was lost shows the key revoked, with no failure said or dispatched at any point', async () => {
    const { el, key } = await atRevoke('To revoke');
    const errors = errorCodes(el);
    const { said, stop } = watchAlerts(el);
    const revoked = nextEvent<CustomEvent>(el, 'delegated-key-revoked');
    const undo = loseAnswer('DELETE', /\/auth\/delegated-keys\//);
    try {
      button(el, /Revoke key/).click();
      expect((await revoked).detail).to.deep.equal({ keyId: key.id });
    } finally {
      undo();
    }
    await settle(el);
    stop();
    // The list, read before anything is said, shows the key revoked: the change succeeded, so
    // neither the page nor the user hears of the lost answer.
    expect([errors, said]).to.deep.equal([[], []]);
    expect(text(el, 'status')).to.equal('Revoked');
    expect(text(el, 'error')).to.equal('');
    expect(text(el, 'notice')).to.match(/To revoke.*revoked/);
    expect(part(el, 'revoke-button')).to.equal(null);
    expect(shadow(el).activeElement === part(el, 'new-button'), `focus on "New key", not ${focusIn(el)}`).to.equal(true);
  });

  it('a revoke whose answer was lost, with the list read to check it failing too, says the failure once that list has failed, and the key can be revoked again', async () => {
    const { el, key } = await atRevoke('Unknown');
    const errors = errorCodes(el);
    // Nothing is said while the list, read to check, is on its way.
    await loseAnswerAndList(el, 'revoke', errors, async () => {
      await settle(el);
      expect([errors, text(el, 'error')]).to.deep.equal([[], '']);
    });
    await settle(el);
    // The revoke's own failure is said (not the list's): the key, revoked in fact, shows as listed before.
    expect(errors).to.deep.equal(['network']);
    expect(text(el, 'error')).to.match(/couldn’t reach the server/);
    expect(text(el, 'status')).to.equal('Active');
    // Revoke again: answered 400 (revoked already), the list read then shows it revoked, with no other failure said.
    (part(el, 'revoke-button') as HTMLButtonElement).click();
    await settle(el);
    const revoked = nextEvent<CustomEvent>(el, 'delegated-key-revoked');
    button(el, /Revoke key/).click();
    expect((await revoked).detail).to.deep.equal({ keyId: key.id });
    await settle(el);
    expect(errors).to.deep.equal(['network']);
    expect(text(el, 'error')).to.equal('');
    expect(text(el, 'status')).to.equal('Revoked');
  });

  it('revoking a key already revoked elsewhere (400) shows it revoked, with no error said at any point', async () => {
    const { el, key } = await atRevoke('Twice');
    // Another tab (or the API) revokes it while this confirmation is open.
    await createClient({ baseUrl: f.apiBase }).revokeDelegatedKey(key.id);
    const errors: string[] = [];
    el.addEventListener('delegated-keys-error', (e) => errors.push((e as CustomEvent).detail.code));
    // Everything the alert region ever says, not only what is left at the end.
    const said: string[] = [];
    const alert = part(el, 'error')!;
    const watch = new MutationObserver(() => alert.textContent!.trim() && said.push(alert.textContent!.trim()));
    watch.observe(alert, { childList: true, subtree: true, characterData: true });
    const revoked = nextEvent<CustomEvent>(el, 'delegated-key-revoked');
    button(el, /Revoke key/).click();
    expect((await revoked).detail).to.deep.equal({ keyId: key.id });
    await settle(el);
    watch.disconnect();
    expect(said).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    expect(text(el, 'status')).to.equal('Revoked');
    expect(text(el, 'notice')).to.match(/Twice.*revoked/);
    expect(part(el, 'revoke-button')).to.equal(null);
    expect(shadow(el).activeElement === part(el, 'new-button'), `focus on "New key", not ${focusIn(el)}`).to.equal(true);
  });

  it('the key its own create is making, listed between the two signatures (a refresh() meanwhile), is "Being created…", in English and Arabic, and Active once made', async () => {
    const { el, errors } = await formFilled('Travel', [['USD', '5000']]);
    // The answer to the first signed retry (the second 202) waits: the service holds the key PENDING meanwhile.
    let answers = 0;
    const held = holdAnswer('POST', /\/auth\/delegated-keys$/, () => ++answers === 2);
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await held.arrived;
      el.refresh();
      await waitFor(() => el.matches(':state(ready)') && parts(el, 'status').length === 1, 'the list read again');
      await settle(el);
      // Before: "Not finished, can’t be used", for a key about to be made.
      expect(text(el, 'status')).to.equal('Being created…');
      setLocale('ar');
      await settle(el);
      expect(text(el, 'status')).to.equal('قيد الإنشاء…');
      setLocale('en');
      held.release();
      await waitFor(() => text(el, 'status') === 'Active', 'the key made');
    } finally {
      held.undo();
      setLocale('en');
    }
    expect(errors).to.deep.equal([]);
  });

  it('a create whose second signature never arrived leaves a PENDING key: shown as not finished and unusable (not "Pending"), in English and Arabic, with no Revoke; coming back, a new key for the card is made beside it', async () => {
    const { el, errors } = await formFilled('Groceries', [['USD', '5000']]);
    // The answer to the first signed retry (the second 202) is lost: the service holds the key PENDING.
    let legs = 0;
    const undo = loseAnswer('POST', /\/auth\/delegated-keys$/, () => ++legs === 2);
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await waitFor(() => errors.length, 'the lost answer');
    } finally {
      undo();
    }
    const api = createClient({ baseUrl: f.apiBase });
    const [pending] = await api.listDelegatedKeys({ accountId: acct.accountId });
    expect(pending!.status).to.equal('PENDING');
    // Abandoned: the user leaves, and comes back later.
    cleanup();
    const back = await mountReady();
    expect(parts(back, 'key')).to.have.length(1);
    // Not "Pending", which says to wait: it never becomes ACTIVE (api.md "policy creation never completed. The key cannot sign").
    expect(text(back, 'status')).to.equal('Not finished, can’t be used');
    expect(text(back, 'list')).to.not.match(/Limits can’t be changed/);
    expect(part(back, 'revoke-button'), 'no Revoke the service refuses with 400').to.equal(null);
    expect(await axeViolations(back)).to.deep.equal([]);
    // A new key for the card: no "already has an active key", and it is made beside the PENDING one.
    (part(back, 'new-button') as HTMLButtonElement).click();
    await settle(back);
    expect(text(back, 'form')).to.not.match(/active key/);
    const key = await createKey(back, 'Groceries', [['USD', '5000']]);
    expect(key.id).to.not.equal(pending!.id);
    expect(parts(back, 'status').map((s) => s.textContent)).to.deep.equal(['Active', 'Not finished, can’t be used']);
    expect(parts(back, 'revoke-button')).to.have.length(1);
    expect(parts(back, 'key')[0]!.contains(part(back, 'revoke-button'))).to.equal(true);
    expect((await api.listDelegatedKeys({ accountId: acct.accountId })).map((k) => [k.id, k.status])).to.deep.equal([
      [pending!.id, 'PENDING'],
      [key.id, 'ACTIVE'],
    ]);
    setLocale('ar');
    await settle(back);
    expect(parts(back, 'status').map((s) => s.textContent)).to.deep.equal(['نشط', 'غير مكتمل، لا يمكن استخدامه']);
    expect(await axeViolations(back)).to.deep.equal([]);
  });

  it('a revoke refused with 400 while the list still shows the key active is said as a failure', async () => {
    const { el, key } = await atRevoke('Still active');
    let revokedHere = false;
    el.addEventListener('delegated-key-revoked', () => (revokedHere = true));
    const failed = nextEvent<CustomEvent>(el, 'delegated-keys-error');
    const undo = failNext('DELETE', /\/auth\/delegated-keys\//, 400, 1, {}, { status: 400, code: 'INVALID_INPUT', message: 'Refused' });
    try {
      button(el, /Revoke key/).click();
      expect((await failed).detail).to.include({ code: 'not_active', operation: 'revoke', status: 400 });
    } finally {
      undo();
    }
    await waitFor(() => text(el, 'error'), 'the error');
    await settle(el);
    expect(text(el, 'error')).to.match(/\S/);
    expect(text(el, 'status')).to.equal('Active');
    expect(revokedHere).to.equal(false);
    expect((await createClient({ baseUrl: f.apiBase }).getDelegatedKey(key.id)).status).to.equal('ACTIVE');
  });

  it('a 409 for a key made elsewhere shows that key in the list while the form keeps what was typed', async () => {
    await login();
    const el = await mountReady();
    // Another tab or device creates a key for the same card after this list loaded.
    const other = await createClient({ baseUrl: f.apiBase }).createDelegatedKey(
      { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Made elsewhere' },
      { stamper: await walletFor().stamper(acct.accountId) },
    );
    expect(parts(el, 'key')).to.have.length(0);
    await fillForm(el, 'Mine', []);
    let createdHere = false;
    el.addEventListener('delegated-key-created', () => (createdHere = true));
    const failed = nextEvent<CustomEvent>(el, 'delegated-keys-error');
    (part(el, 'submit-button') as HTMLButtonElement).click();
    expect((await failed).detail).to.include({ code: 'conflict', status: 409 });
    await waitFor(() => parts(el, 'key').length === 1, 'the key made elsewhere in the list');
    await settle(el);
    expect(parts(el, 'key')[0]!.querySelector('h3')?.textContent).to.equal('Made elsewhere');
    expect(parts(el, 'key')[0]!.querySelector('.mono')?.getAttribute('title')).to.equal(other.publicKey);
    expect(text(el, 'form')).to.match(/already has an active key\. Revoke it first/);
    expect(text(el, 'form').match(/already has an active key/g)).to.have.length(1);
    expect(input(el, 'nickname').value).to.equal('Mine');
    expect(createdHere).to.equal(false);
  });

  it('a 409 for a key of the same nickname made elsewhere with other limits is said as a conflict, not taken for the one created', async () => {
    await login();
    const el = await mountReady();
    // Another tab makes a key named as this one's, with a limit of its own, after this list loaded.
    const other = await createClient({ baseUrl: f.apiBase }).createDelegatedKey(
      { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Mine', spendingLimits: [{ currencyCode: 'USD', maxPerTransaction: 500 }] },
      { stamper: await walletFor().stamper(acct.accountId) },
    );
    await fillForm(el, 'Mine', [['USD', '100']]);
    let createdHere = false;
    el.addEventListener('delegated-key-created', () => (createdHere = true));
    const errors = errorCodes(el);
    (part(el, 'submit-button') as HTMLButtonElement).click();
    await waitFor(() => createdHere || errors.length, 'the outcome of the create');
    await settle(el);
    expect([createdHere, errors], 'the other tab\'s key said as created').to.deep.equal([false, ['conflict']]);
    expect(parts(el, 'key').map((k) => k.querySelector('.mono')?.getAttribute('title'))).to.deep.equal([other.publicKey]);
    expect(text(el, 'notice')).to.equal('');
    expect(text(el, 'form')).to.match(/already has an active key\. Revoke it first/);
  });

  it('a 409 while the list could not be read again (a refresh() failed with the form open) is said as a conflict: the active key of the same nickname listed before is not taken for the one created', async () => {
    await login();
    await createClient({ baseUrl: f.apiBase }).createDelegatedKey(
      { cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Groceries' },
      { stamper: await walletFor().stamper(acct.accountId) },
    );
    const el = await mountReady();
    expect(parts(el, 'key')).to.have.length(1);
    await fillForm(el, 'Groceries', []);
    const undo = failNext('GET', /\/auth\/delegated-keys\?/, 503);
    try {
      el.refresh();
      await waitFor(() => el.matches(':state(failed)'), 'the failed list');
    } finally {
      undo();
    }
    let createdHere = false;
    el.addEventListener('delegated-key-created', () => (createdHere = true));
    const errors = errorCodes(el);
    (part(el, 'submit-button') as HTMLButtonElement).click();
    await waitFor(() => createdHere || errors.length, 'the outcome of the create');
    expect(createdHere, 'the key listed before said as created').to.equal(false);
    // The list read again after the conflict shows the key that was there before.
    await waitFor(() => el.matches(':state(ready)'), 'the list read again');
    await settle(el);
    expect([createdHere, errors]).to.deep.equal([false, ['conflict']]);
    expect(text(el, 'notice')).to.equal('');
    expect(text(el, 'form')).to.match(/already has an active key\. Revoke it first/);
    expect(input(el, 'nickname').value).to.equal('Groceries');
  });

  it('a 429\'s wait still holds Try again after a later failure of another kind (the list read again failing)', async () => {
    await login();
    const el = await mountReady();
    await fillForm(el, 'Groceries', []);
    const rateLimited = { status: 429, code: 'RATE_LIMITED', message: 'Too many requests' };
    const undo = failNext('POST', /\/auth\/delegated-keys$/, 429, 1, { 'Retry-After': '60' }, rateLimited);
    const undoList = failNext('GET', /\/auth\/delegated-keys\?/, 503);
    const posts = countRequests('/auth/delegated-keys', 'POST');
    try {
      const failed = nextEvent<CustomEvent>(el, 'delegated-keys-error');
      (part(el, 'submit-button') as HTMLButtonElement).click();
      expect((await failed).detail).to.include({ code: 'rate_limited' });
      // The page reads the list again meanwhile, and that fails (503).
      el.refresh();
      await waitFor(() => el.matches(':state(failed)'), 'the failed list');
      await settle(el);
      const retry = part(el, 'submit-button') as HTMLButtonElement;
      expect([retry.textContent!.trim(), retry.getAttribute('aria-disabled')]).to.deep.equal(['Try again', 'true']);
      expect(text(el, 'form')).to.contain('Wait 60 seconds, then try again.');
      expect(shadow(el).querySelector<HTMLButtonElement>("[part~='error'] button")!.getAttribute('aria-disabled')).to.equal('true');
      const sent = posts.count;
      retry.click();
      await new Promise((r) => setTimeout(r, 300));
      expect([posts.count, el.matches(':state(busy)')]).to.deep.equal([sent, false]);
    } finally {
      posts.restore();
      undo();
      undoList();
    }
  });

  it('a list\'s Retry-After longer than one timer can wait (2^31-1 ms, 24.8 days) sets no timer beyond it, and Try again stays held', async () => {
    await login();
    const rateLimited = { status: 429, code: 'RATE_LIMITED', message: 'Too many requests' };
    const undo = failNext('GET', /\/auth\/delegated-keys\?/, 429, 1, { 'Retry-After': '3000000' }, rateLimited);
    // Timers set beyond what one can wait: each fires at once (WebIDL long wraps).
    const delays: number[] = [];
    const original = window.setTimeout;
    window.setTimeout = ((fn: TimerHandler, ms?: number, ...rest: unknown[]) => {
      delays.push(ms ?? 0);
      return original(fn, ms, ...rest);
    }) as typeof window.setTimeout;
    try {
      const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
      await waitFor(() => el.matches(':state(failed)'), 'the failed list');
      await settle(el);
      await new Promise((r) => original(r, 500));
      expect(delays.filter((ms) => ms > 2 ** 31 - 1), 'timers beyond 2^31-1 ms').to.deep.equal([]);
      expect(delays, 'the redraw at the end of the wait, at the longest a timer can wait').to.include(2 ** 31 - 1);
      expect(shadow(el).querySelector("[part~='error'] button")!.getAttribute('aria-disabled')).to.equal('true');
    } finally {
      window.setTimeout = original;
      undo();
    }
  });

  it('moved in the page while a key is being created, it ends the create instead of staying busy', async () => {
    await login();
    const el = await mountReady();
    await fillForm(el, 'Moved', []);
    // The create's first request is held on the wire while a framework moves the element.
    const held = holdNext('POST', /\/auth\/delegated-keys$/);
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await held.arrived;
      el.parentElement!.append(el);
      held.release();
      await waitFor(() => el.matches(':state(ready)') && !el.matches(':state(busy)'), 'the list read again');
      await settle(el);
      // Usable again: the form is closed, "New key" is there, and the list is the service's.
      expect(part(el, 'form')).to.equal(null);
      expect(part(el, 'new-button')).to.not.equal(null);
      const listed = await createClient({ baseUrl: f.apiBase }).listDelegatedKeys({ accountId: acct.accountId });
      expect(parts(el, 'key')).to.have.length(listed.length);
    } finally {
      held.undo();
    }
  });

  it('a refresh() during a create: the list answered before the key existed does not take the new key out of the list', async () => {
    await login();
    const el = await mountReady();
    await fillForm(el, 'Made during a refresh', []);
    const create = holdNext('POST', /\/auth\/delegated-keys$/);
    const list = holdAnswer('GET', /\/auth\/delegated-keys\?/);
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await create.arrived;
      // The page asks for the list while the create waits to leave: the service lists no key yet.
      el.refresh();
      await list.arrived;
      const created = nextEvent<CustomEvent<{ key: DelegatedKey }>>(el, 'delegated-key-created');
      create.release();
      const { key } = (await created).detail;
      await settle(el);
      // The list is still on its way: it says so, rather than showing the new key alone.
      expect([el.matches(':state(loading)'), parts(el, 'key').length]).to.deep.equal([true, 0]);
      // The older list answer arrives after the key was made.
      list.release();
      await list.read;
      await settle(el);
      await waitFor(() => el.matches(':state(ready)'), 'the list');
      expect(parts(el, 'key').map((k) => k.querySelector('h3')?.textContent)).to.deep.equal([key.nickname]);
      expect(part(el, 'revoke-button')).to.not.equal(null);
    } finally {
      create.undo();
      list.undo();
    }
  });

  it('a create or a revoke that finishes while the list loads again leaves the list loading, not showing that key alone', async () => {
    await login();
    const api = createClient({ baseUrl: f.apiBase });
    // The card has an older key, revoked: the list holds it.
    const old = await api.createDelegatedKey({ cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Older' }, { stamper: await walletFor().stamper(acct.accountId) });
    await api.revokeDelegatedKey(old.id);
    const el = await mountReady();
    const names = () => parts(el, 'key').map((k) => k.querySelector('h3')?.textContent);
    expect(names()).to.deep.equal(['Older']);

    /**
     * Starts a change with `act` and, while it is on the wire, a refresh(); once the change is done
     * (`done`, its event) the list is asked for again, and held: what the panel shows then.
     */
    const whileLoading = async (method: string, path: RegExp, act: () => void, done: string) => {
      const change = holdNext(method, path);
      const list = holdNext('GET', /\/auth\/delegated-keys\?/);
      let again: ReturnType<typeof holdNext> | undefined;
      try {
        act();
        await change.arrived;
        el.refresh();
        await list.arrived;
        again = holdNext('GET', /\/auth\/delegated-keys\?/);
        const finished = nextEvent(el, done);
        change.release();
        await finished;
        await again.arrived;
        await settle(el);
        return { loading: el.matches(':state(loading)'), keys: names(), empty: /no delegated keys yet/.test(text(el, 'base')), notice: text(el, 'notice') };
      } finally {
        again?.release();
        again?.undo();
        list.release();
        list.undo();
        change.undo();
      }
    };

    await fillForm(el, 'Newer', []);
    expect(await whileLoading('POST', /\/auth\/delegated-keys$/, () => (part(el, 'submit-button') as HTMLButtonElement).click(), 'delegated-key-created')).to.deep.equal({
      loading: true,
      keys: [],
      empty: false,
      notice: 'Key “\u2068Newer\u2069” created. It is active now.',
    });
    await waitFor(() => names().length === 2, 'the list with both keys');
    expect(names()).to.deep.equal(['Newer', 'Older']);

    (part(el, 'revoke-button') as HTMLButtonElement).click();
    await settle(el);
    expect(await whileLoading('DELETE', /\/auth\/delegated-keys\//, () => button(el, /Revoke key/).click(), 'delegated-key-revoked')).to.deep.equal({
      loading: true,
      keys: [],
      empty: false,
      notice: 'Key “\u2068Newer\u2069” revoked.',
    });
    await waitFor(() => names().length === 2, 'the list with both keys');
    await settle(el);
    expect(part(el, 'revoke-button')).to.equal(null);
    expect(names()).to.deep.equal(['Newer', 'Older']);
  });

  it('another card-id closes what was open for the card before and shows the new card\'s keys only', async () => {
    await login();
    const el = await mountReady();
    await createKey(el, 'First card');
    (part(el, 'revoke-button') as HTMLButtonElement).click();
    await settle(el);
    expect(part(el, 'confirm')).to.not.equal(null);
    // Another card of the same account (no keys yet): the confirmation for the first card's key goes.
    el.cardId = 'Card:00000000-0000-4000-8000-00000000c0de';
    await waitFor(() => el.matches(':state(ready)') || el.matches(':state(failed)'), 'the other card');
    await settle(el);
    expect(part(el, 'confirm')).to.equal(null);
    expect(parts(el, 'key')).to.have.length(0);
    expect(text(el, 'base')).to.not.match(/First card/);
    // Back to the first card: its key is still active (nothing was revoked).
    el.cardId = acct.cardId;
    // (Its list read again: the element was ready already, for the other card.)
    await waitFor(() => el.matches(':state(ready)') && parts(el, 'key').length === 1, 'the first card and its key');
    await settle(el);
    expect(text(el, 'status')).to.equal('Active');
    expect(part(el, 'new-button')).to.not.equal(null);
  });

  it('a key the service created while another card-id was set is still reported, and stays out of the new card\'s list', async () => {
    await login();
    const el = await mountReady();
    await fillForm(el, 'Switched away', []);
    // The create's last leg reaches the service, which makes the key; its answer is held meanwhile.
    const held = holdAnswer('POST', /\/auth\/delegated-keys$/, (r) => r.status === 201);
    try {
      const created = nextEvent<CustomEvent<{ key: DelegatedKey }>>(el, 'delegated-key-created', 5000);
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await held.arrived;
      el.cardId = 'Card:00000000-0000-4000-8000-00000000c0de';
      await settle(el);
      held.release();
      const { key } = (await created).detail;
      expect(key).to.include({ nickname: 'Switched away', cardId: acct.cardId, status: 'ACTIVE' });
      const listed = await createClient({ baseUrl: f.apiBase }).listDelegatedKeys({ accountId: acct.accountId });
      expect(listed.map((k) => k.id)).to.deep.equal([key.id]);
    } finally {
      held.undo();
    }
    await waitFor(() => el.matches(':state(ready)'), 'the other card');
    await settle(el);
    expect(parts(el, 'key')).to.have.length(0);
    expect(text(el, 'notice')).to.equal('');
    expect(part(el, 'new-button')).to.not.equal(null);
  });

  it('removed from the page, it aborts a change still under way for the card before, as it does one for the card shown', async () => {
    await login();
    const el = await mountReady();
    const events: string[] = [];
    for (const name of ['delegated-key-created', 'delegated-keys-error']) el.addEventListener(name, () => events.push(name));
    await fillForm(el, 'Left behind', []);
    // The create's first request is held before it leaves, and what becomes of it is recorded.
    const held = holdNext('POST', /\/auth\/delegated-keys$/);
    const page = window.fetch;
    let outcome: Promise<string> | undefined;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const answer = page(input, init);
      if (init?.method === 'POST' && String(input).endsWith('/auth/delegated-keys')) outcome ??= answer.then((r) => String(r.status), (e: Error) => e.name);
      return answer;
    };
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await held.arrived;
      el.cardId = 'Card:00000000-0000-4000-8000-00000000c0de';
      await settle(el);
      el.remove();
      held.release();
      expect(await outcome).to.equal('AbortError');
    } finally {
      window.fetch = page;
      held.undo();
    }
    await settle(el);
    expect(events).to.deep.equal([]);
    expect(await createClient({ baseUrl: f.apiBase }).listDelegatedKeys({ accountId: acct.accountId })).to.deep.equal([]);
  });

  it('a key created for the card before is still reported when a key is created on the new card meanwhile, and each lands where it belongs', async () => {
    await login();
    const other = await newAccount();
    await (await walletFor().startOtpLogin({ credentialId: other.emailCredentialId })).submit('000000');
    const el = await mountReady();
    const created: DelegatedKey[] = [];
    el.addEventListener('delegated-key-created', (e) => created.push((e as CustomEvent<{ key: DelegatedKey }>).detail.key));
    await fillForm(el, 'For the first card', []);
    // The first card's key is made upstream; its answer is held while the page moves on.
    const first = holdAnswer('POST', /\/auth\/delegated-keys$/, (r) => r.status === 201);
    let second: ReturnType<typeof holdNext> | undefined;
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await first.arrived;
      el.cardId = other.cardId;
      el.accountId = other.accountId;
      await waitFor(() => el.matches(':state(ready)') && part(el, 'new-button'), 'the other card\'s list');
      await fillForm(el, 'For the second card', []);
      second = holdNext('POST', /\/auth\/delegated-keys$/);
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await second.arrived;
      // The first card's answer arrives while the second card's create runs.
      first.release();
      await first.read;
      await settle(el);
      expect(created.map((k) => [k.nickname, k.cardId])).to.deep.equal([['For the first card', acct.cardId]]);
      // It closes nothing and lands nowhere on the second card's screen.
      expect([el.matches(':state(busy)'), parts(el, 'key').length]).to.deep.equal([true, 0]);
      second.release();
      await waitFor(() => created.length === 2, 'the second card\'s key');
    } finally {
      first.undo();
      second?.undo();
    }
    await settle(el);
    expect(created[1]).to.include({ nickname: 'For the second card', cardId: other.cardId });
    expect(parts(el, 'key').map((k) => k.querySelector('h3')?.textContent)).to.deep.equal(['For the second card']);
    const api = createClient({ baseUrl: f.apiBase });
    expect((await api.listDelegatedKeys({ accountId: acct.accountId })).map((k) => k.nickname)).to.deep.equal(['For the first card']);
    await walletFor().logout(other.accountId);
  });

  it('heading-level sets the panel\'s heading level, with each key and the form one below', async () => {
    await login();
    const el = await mountReady();
    el.setAttribute('heading-level', '3');
    await createKey(el, 'Outlined');
    (part(el, 'new-button') as HTMLButtonElement).click();
    await settle(el);
    const levels = (await axHeadings()).filter((h) => ['Delegated keys', 'Outlined', 'New delegated key'].includes(h.name));
    expect(levels).to.deep.equal([
      { name: 'Delegated keys', level: 3 },
      { name: 'New delegated key', level: 4 },
      { name: 'Outlined', level: 4 },
    ]);
  });

  it('a failed list offers Try again, and the keyboard stays in the panel while it loads again', async () => {
    await login();
    const el = await mountFailedList(503);
    const retry = button(el, /Try again/);
    retry.focus();
    retry.click();
    await waitFor(() => el.matches(':state(ready)'), 'the list');
    await settle(el);
    expect(shadow(el).activeElement === shadow(el).getElementById('title'), `focus on the title, not ${focusIn(el)}`).to.equal(true);
  });

  it('a 429 says the service\'s Retry-After wait and holds Try again until it has passed, for a create and for the list, in English and Arabic', async () => {
    await login();
    const el = await mountReady();
    await fillForm(el, 'Groceries', []);
    const rateLimited = { status: 429, code: 'RATE_LIMITED', message: 'Too many requests' };
    const undo = failNext('POST', /\/auth\/delegated-keys$/, 429, 1, { 'Retry-After': '2' }, rateLimited);
    const posts = countRequests('/auth/delegated-keys', 'POST');
    try {
      const failed = nextEvent<CustomEvent<{ code: string; message: string; status?: number }>>(el, 'delegated-keys-error');
      (part(el, 'submit-button') as HTMLButtonElement).click();
      expect((await failed).detail).to.deep.include({ code: 'rate_limited', status: 429, message: 'Too many requests. Wait 2 seconds, then try again.' });
      await settle(el);
      expect(text(el, 'form')).to.contain('Too many requests. Wait 2 seconds, then try again.');
      const retry = part(el, 'submit-button') as HTMLButtonElement;
      expect([retry.textContent!.trim(), retry.getAttribute('aria-disabled')]).to.deep.equal(['Try again', 'true']);
      // Pressed during the wait: nothing is sent.
      const sent = posts.count;
      retry.click();
      await new Promise((r) => setTimeout(r, 300));
      expect([posts.count, el.matches(':state(busy)')]).to.deep.equal([sent, false]);
      await waitFor(() => retry.getAttribute('aria-disabled') === 'false', 'Try again back after Retry-After', 8000);
    } finally {
      posts.restore();
      undo();
    }
    const created = nextEvent<CustomEvent<{ key: DelegatedKey }>>(el, 'delegated-key-created');
    (part(el, 'submit-button') as HTMLButtonElement).click();
    expect((await created).detail.key.nickname).to.equal('Groceries');

    // The list: its Try again waits as long; the sentence in Arabic names the wait.
    cleanup();
    setLocale('ar');
    const again = await mountFailedList(429, { 'Retry-After': '1' }, rateLimited);
    // The wait in the locale's digits, as the browser's Intl writes them for Arabic (WebKitGTK's ICU: ١).
    expect(text(again, 'error')).to.contain(`طلبات كثيرة جدًا. انتظر ثم أعد المحاولة (مدة الانتظار بالثواني: ${(1).toLocaleString('ar')}).`);
    const retry = shadow(again).querySelector<HTMLButtonElement>("[part~='error'] button")!;
    expect(retry.getAttribute('aria-disabled')).to.equal('true');
    retry.click();
    await new Promise((r) => setTimeout(r, 300));
    expect(again.matches(':state(failed)')).to.equal(true);
    await waitFor(() => retry.getAttribute('aria-disabled') === 'false', 'Try again back after Retry-After', 8000);
    retry.click();
    await waitFor(() => again.matches(':state(ready)'), 'the list');
  });

  it('a failed create or revoke is said once, by its alert; the keyboard stays on what was pressed, not on the alert', async () => {
    // A region that announces itself and also takes the focus is read twice (its live change, then
    // the focus on it): the alert speaks, and the focus stays where the user can try again.
    const focused = async () => (await axNodes()).filter((n) => n.properties.focused && n.role !== 'RootWebArea').map((n) => [n.role, n.name]);
    await login();
    const el = await mountReady();
    await fillForm(el, 'Refused first', []);
    (part(el, 'submit-button') as HTMLButtonElement).focus();
    const refused = nextEvent<CustomEvent>(el, 'delegated-keys-error');
    const undoCreate = failNext('POST', /\/auth\/delegated-keys$/, 400, 1, {}, { status: 400, code: 'INVALID_ARGUMENT', message: 'Refused' });
    try {
      await sendKeys({ press: 'Enter' });
      expect((await refused).detail.code).to.equal('invalid');
    } finally {
      undoCreate();
    }
    await settle(el);
    expect(text(el, 'form')).to.match(/The key couldn’t be created with these details/);
    expect(await focused()).to.deep.equal([['button', 'Create key']]);

    button(el, /Create key/).click();
    await waitFor(() => el.matches(':state(ready)') && !part(el, 'form'), 'the key created');
    await settle(el);
    (part(el, 'revoke-button') as HTMLButtonElement).click();
    await settle(el);
    button(el, /Revoke key/).focus();
    const failed = nextEvent<CustomEvent>(el, 'delegated-keys-error');
    const undo = failNext('DELETE', /\/auth\/delegated-keys\//, 503, 1, {}, { status: 503, code: 'UNAVAILABLE', message: 'Down' });
    try {
      await sendKeys({ press: 'Enter' });
      expect((await failed).detail).to.include({ code: 'server', operation: 'revoke' });
    } finally {
      undo();
    }
    await settle(el);
    expect(text(el, 'error')).to.match(/Something went wrong on our side/);
    // The confirmation has closed: the key's own Revoke button, the way to try again, has the focus.
    expect(shadow(el).activeElement === part(el, 'revoke-button'), `focus on "Revoke", not ${focusIn(el)}`).to.equal(true);
    expect(await focused()).to.deep.equal([['button', 'Revoke']]);
  });

  it('its live regions are in the accessibility tree before they have anything to say, taking no room, so that the first message is announced', async () => {
    await login();
    const el = await mountReady();
    // The panel's alert and its status; with the form open, the form's alert too.
    expect(await axLiveRegions()).to.deep.equal(['alert', 'status']);
    const panel = part(el, 'base')!.getBoundingClientRect().height;
    const { width, height } = part(el, 'error')!.getBoundingClientRect();
    expect([width, height]).to.deep.equal([0, 0]);
    await fillForm(el, 'Refused', []);
    expect(await axLiveRegions()).to.deep.equal(['alert', 'alert', 'status']);
    const formAlert = part(el, 'form')!.querySelector<HTMLElement>('[role=alert]')!;
    expect(formAlert.getBoundingClientRect().height).to.equal(0);
    const form = part(el, 'form')!.getBoundingClientRect().height;
    // Refused: the form's alert takes its room and the form grows.
    const refused = nextEvent(el, 'delegated-keys-error');
    const undo = failNext('POST', /\/auth\/delegated-keys$/, 400, 1, {}, { status: 400, code: 'INVALID_ARGUMENT', message: 'Refused' });
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await refused;
    } finally {
      undo();
    }
    await settle(el);
    expect(formAlert.getBoundingClientRect().height).to.be.greaterThan(20);
    expect(part(el, 'form')!.getBoundingClientRect().height).to.be.greaterThan(form);
    expect(part(el, 'base')!.getBoundingClientRect().height).to.be.greaterThan(panel);
  });

  it('"Loading keys…" is said only once loading has lasted a second, in the polite region already in the tree, and then how many keys came', async () => {
    const el = await mountReady();
    const [region, ...others] = await politeRegions();
    expect(others).to.deep.equal([]);
    const regions = async () => (await politeRegions()).map((r) => [r.id, r.text]);
    // A brief load: nothing said, no other live region (checked when the machine made it brief:
    // a load that lasted a second here is one that lasts, said as below).
    const brief = performance.now();
    el.refresh();
    await settle(el);
    const first = await regions();
    if (performance.now() - brief < 900) expect(first).to.deep.equal([[region!.id, '']]);
    await waitFor(() => el.matches(':state(ready)'), 'the list');
    await settle(el);
    const after = await regions();
    if (performance.now() - brief < 900) expect(after).to.deep.equal([[region!.id, '']]);
    // A load that lasts.
    const held = holdNext('GET', /\/auth\/delegated-keys\?/);
    try {
      const asked = performance.now();
      el.refresh();
      await held.arrived;
      await settle(el);
      const early = await regions();
      // Nothing said in the first second (checked when the machine got here within it).
      if (performance.now() - asked < 900) expect(early).to.deep.equal([[region!.id, '']]);
      // Said once it lasted a second, however late a busy machine's timer and render come.
      await new Promise((r) => setTimeout(r, 1000));
      for (const until = performance.now() + 5000; ; await new Promise((r) => setTimeout(r, 100))) {
        const said = await regions();
        if (said[0]?.[1] || performance.now() > until) {
          expect(said).to.deep.equal([[region!.id, 'Loading keys…']]);
          break;
        }
      }
      expect(text(el, 'base')).to.contain('Loading keys…');
      held.release();
      await waitFor(() => el.matches(':state(ready)'), 'the list');
      await settle(el);
      expect(await regions()).to.deep.equal([[region!.id, 'Keys loaded: 0.']]);
    } finally {
      held.release();
      held.undo();
    }
  });

  it('without a wallet session, says to sign in first and sends no signed request', async () => {
    const el = await mountReady();
    await waitFor(() => text(el, 'hint') !== '', 'the hint to sign in');
    expect(text(el, 'hint')).to.equal('Sign in to your wallet to create a key.');
    expect((part(el, 'new-button') as HTMLButtonElement).disabled).to.equal(true);
    // Logged out (here, through the shared wallet) with the form open: it says so, and Create sends nothing.
    await login();
    await waitFor(() => !(part(el, 'new-button') as HTMLButtonElement).disabled, 'New key after the login');
    await fillForm(el, 'No session', []);
    await walletFor().logout(acct.accountId);
    await waitFor(() => /Sign in to your wallet first/.test(text(el, 'form')), 'the form to say to sign in');
    const posts = countRequests('/auth/delegated-keys', 'POST');
    const errors: unknown[] = [];
    el.addEventListener('delegated-keys-error', (e) => errors.push((e as CustomEvent).detail));
    try {
      (part(el, 'submit-button') as HTMLButtonElement).click();
      await new Promise((r) => setTimeout(r, 300));
      expect(posts.count).to.equal(0);
    } finally {
      posts.restore();
    }
    expect(errors).to.deep.equal([]);
    expect(part(el, 'submit-button')!.getAttribute('aria-disabled')).to.equal('true');
  });

  it('a form sent with Enter from the very field it refuses says that field’s error once, in a live region (the focus stays, so its description is not read again)', async () => {
    await login();
    const el = await mountReady();
    (part(el, 'new-button') as HTMLButtonElement).click();
    await settle(el);
    expect(shadow(el).activeElement === input(el, 'nickname'), `focus on the name, not ${focusIn(el)}`).to.equal(true);
    // What the live regions of the element say from here on (an alert or a status whose text changes).
    const said: string[] = [];
    const regions = () => [...shadow(el).querySelectorAll('[role=alert], [role=status]')];
    const last = new Map(regions().map((r) => [r, r.textContent!.trim()]));
    const observer = new MutationObserver(() => {
      for (const r of regions()) {
        const now = r.textContent!.replace(/\s+/g, ' ').trim();
        if (now && now !== last.get(r)) said.push(now);
        last.set(r, now);
      }
    });
    observer.observe(shadow(el), { subtree: true, childList: true, characterData: true });
    try {
      await sendKeys({ press: 'Enter' });
      await settle(el);
      expect(input(el, 'nickname').getAttribute('aria-invalid')).to.equal('true');
      expect(shadow(el).activeElement === input(el, 'nickname'), `focus still on the name, not ${focusIn(el)}`).to.equal(true);
      expect(said).to.deep.equal(['Name: This field is required.']);
      // Sent from the button, the focus moves to the refused field, which says its error itself.
      type(input(el, 'nickname'), 'Groceries');
      button(el, /Add a limit/).click();
      await settle(el);
      type(input(el, 'currencyCode', 0), 'USD');
      (part(el, 'submit-button') as HTMLButtonElement).focus();
      await sendKeys({ press: 'Enter' });
      await settle(el);
      expect(shadow(el).activeElement === input(el, 'maxPerTransaction', 0), `focus on the amount, not ${focusIn(el)}`).to.equal(true);
      expect(input(el, 'maxPerTransaction', 0).getAttribute('aria-invalid')).to.equal('true');
      expect(said).to.deep.equal(['Name: This field is required.']);
    } finally {
      observer.disconnect();
    }
  });

  it('the creation form fits a column 320 pixels wide, left to right and right to left, with a limit row and its errors shown', async () => {
    await login();
    for (const [lang, width] of [['en', 320], ['ar', 320], ['en', 480]] as const) {
      const column = document.createElement('div');
      column.style.inlineSize = `${width}px`;
      column.lang = lang;
      document.body.append(column);
      try {
        const el = document.createElement('delegated-keys') as DelegatedKeys;
        el.setAttribute('card-id', acct.cardId);
        el.setAttribute('account-id', acct.accountId);
        column.append(el);
        await waitFor(() => el.matches(':state(ready)'), 'the list');
        await settle(el);
        (part(el, 'new-button') as HTMLButtonElement).click();
        await settle(el);
        shadow(el).querySelector<HTMLButtonElement>('[data-focus="add-limit"]')!.click();
        await settle(el);
        type(input(el, 'currencyCode', 0), 'U$');
        type(input(el, 'maxPerTransaction', 0), '0');
        (part(el, 'submit-button') as HTMLButtonElement).click();
        await settle(el);
        expect(input(el, 'currencyCode', 0).getAttribute('aria-invalid'), 'the limit row shows its errors').to.equal('true');
        expect(overflowing(el), `${lang}, ${width}px`).to.deep.equal([]);
        // A limit's currency and amount share a line where there is room for both.
        const [currency, amount] = [input(el, 'currencyCode', 0), input(el, 'maxPerTransaction', 0)].map((i) => i.getBoundingClientRect().top);
        expect(currency === amount, `one line at ${width}px`).to.equal(width > 320);
      } finally {
        column.remove();
      }
    }
  });

  it('speaks Arabic right to left', async () => {
    setLocale('ar');
    await login();
    const el = await mountReady();
    expect(part(el, 'base')!.getAttribute('dir')).to.equal('rtl');
    expect(shadow(el).querySelector('h2')?.textContent).to.equal('المفاتيح المفوَّضة');
    (part(el, 'new-button') as HTMLButtonElement).click();
    await settle(el);
    expect(getComputedStyle(part(el, 'form')!).direction).to.equal('rtl');
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('keeps a left-to-right key name whole in Arabic: its heading, the created notice and the revoke question', async () => {
    await login();
    const el = await mountReady();
    // Unisolated, right-to-left text moves the name's trailing "!" to its left: "!Travel(2024)".
    const name = 'Travel (2024)!';
    const drawn = 'Travel(2024)!';
    await createKey(el, name, [['USD', '5000']]);
    setLocale('ar');
    await settle(el);
    expect(text(el, 'notice')).to.match(/^أُنشئ المفتاح/);
    expect(drawnLeftToRight(part(el, 'notice')!, name), 'the created notice').to.equal(drawn);
    expect(drawnLeftToRight(el, name), 'the key heading').to.equal(drawn);
    expect(shadow(el).querySelector('h3 bdi')?.textContent).to.equal(name);
    button(el, /^\s*إلغاء\s*$/).click();
    await settle(el);
    expect(drawnLeftToRight(part(el, 'confirm')!, name), 'the revoke question').to.equal(drawn);
    expect(text(el, 'confirm')).to.contain(`«\u2068${name}\u2069»`);
  });
});
