/**
 * <delegated-keys> with a long list (a card whose key was replaced a thousand times), in real
 * Chromium against the real sandbox through the real proxy. What a keystroke in the creation form
 * and a list read again with one change do to the list is counted: DOM mutation records, and the
 * dates and amounts formatted (each row rendered again formats its own). Both must follow what
 * changed, not how many keys are listed. Times are logged, not asserted: the machine is shared.
 */
import { expect } from 'chai';
import '../../../../src/elements/delegated-keys/index.ts';
import type { DelegatedKeys } from '../../../../src/elements/delegated-keys/index.ts';
import { clientFor, walletFor } from '../../../../src/elements/shared/wallet.ts';
import { setStrings } from '../../../../src/elements/shared/i18n.ts';
import '../../../../src/locales/ar.ts';
import type { DelegatedKey } from '../../../../src/core/types.ts';
import { advanceClock, newAccount, type RigAccount } from '../../support/rig.ts';
import { mount, nextEvent, part, parts, resetPage, shadow, type, useRig, waitFor } from '../shared/helpers.ts';
import { measure, median } from '../shared/scale.ts';

const N = 1000;

describe('<delegated-keys> with a long list', function () {
  this.timeout(120000);
  let acct: RigAccount;

  before(async () => {
    await useRig();
    acct = await newAccount({ delegatedKeys: N });
  });

  afterEach(resetPage);

  async function listed(): Promise<DelegatedKeys> {
    const el = await mount<DelegatedKeys>('delegated-keys', { 'card-id': acct.cardId, 'account-id': acct.accountId });
    await waitFor(() => el.matches(':state(ready)'), 'the list', 30000);
    await el.updateComplete;
    return el;
  }

  it(`shows every one of ${N} keys, the ACTIVE one first`, async () => {
    const el = await listed();
    const keys = parts(el, 'key');
    expect(keys).to.have.length(N);
    expect(keys[0]!.querySelector('h3')!.textContent).to.equal(`Key ${N}`);
    expect(new Set(keys.map((k) => k.getAttribute('aria-labelledby'))).size).to.equal(N);
    expect(parts(el, 'revoke-button')).to.have.length(1);
  });

  it('a keystroke in the creation form renders no key again', async () => {
    await logIn();
    const el = await listed();
    (part(el, 'new-button') as HTMLButtonElement).click();
    await el.updateComplete;
    const nickname = shadow(el).querySelector<HTMLInputElement>('input[name="nickname"]')!;
    const { list, updates, intl, stop } = measure(el, shadow(el).querySelector('ul[part="list"]')!);
    const perKey: number[] = [];
    try {
      for (const ch of 'Shopping agent') {
        intl.reset();
        nickname.value += ch;
        nickname.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: ch }));
        await el.updateComplete;
        perKey.push(intl.formatted);
      }
    } finally {
      stop();
    }
    console.log(`delegated-keys, ${N} keys: a keystroke's update takes ${median(updates.times).toFixed(1)} ms (median of ${updates.times.length}), ${list.records} mutation records in the list, ${median(perKey)} dates and amounts formatted`);
    expect(updates.times.length).to.be.at.least(14);
    expect(list.records, 'mutation records in the list over 14 keystrokes').to.equal(0);
    // Rendering the rows again formats each key's date (and limits): thousands per keystroke.
    expect(Math.max(...perKey), `formatted per keystroke: ${perKey.join(', ')}`).to.be.at.most(2);
  });

  /** Logged in here by email (after the code wait of a login before, reference.md "Sandbox behaviour"). */
  async function logIn(): Promise<void> {
    await advanceClock(31_000);
    await (await walletFor().startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
  }

  const rowId = (id: string) => `key-${id.replace(/[^A-Za-z0-9-]/g, '-')}`;

  it('revoking the ACTIVE key, then creating one that arrives on top of the thousand, changes those rows alone', async () => {
    await logIn();
    const el = await listed();
    const { list, updates, intl, stop } = measure(el, shadow(el).querySelector('ul[part="list"]')!);
    try {
      (part(el, 'revoke-button') as HTMLButtonElement).click();
      await el.updateComplete;
      const revoked = nextEvent(el, 'delegated-key-revoked');
      (part(el, 'confirm')!.querySelector('button.danger') as HTMLButtonElement).click();
      await revoked;
      await el.updateComplete;
      const revoke = { records: list.records, ms: updates.longest, formatted: intl.formatted };
      expect(parts(el, 'revoke-button')).to.have.length(0);
      (part(el, 'new-button') as HTMLButtonElement).click();
      await el.updateComplete;
      type(shadow(el).querySelector<HTMLInputElement>('input[name="nickname"]')!, 'Made here');
      await el.updateComplete;
      list.reset();
      updates.reset();
      intl.reset();
      const created = nextEvent<CustomEvent<{ key: DelegatedKey }>>(el, 'delegated-key-created');
      (part(el, 'submit-button') as HTMLButtonElement).click();
      const { key } = (await created).detail;
      await el.updateComplete;
      const create = { records: list.records, ms: updates.longest, formatted: intl.formatted };
      console.log(
        `delegated-keys, ${N} keys: revoking the active key here: ${revoke.records} mutation records in the list, longest update ${revoke.ms.toFixed(1)} ms, ${revoke.formatted} formatted; ` +
          `creating one here: ${create.records} records, ${create.ms.toFixed(1)} ms, ${create.formatted} formatted`,
      );
      expect(parts(el, 'key')).to.have.length(N + 1);
      expect(parts(el, 'key')[0]!.getAttribute('aria-labelledby')).to.equal(rowId(key.id));
      // The revoked key's row (its status, its Revoke button and its "limits cannot change" note), and
      // the confirmation that opened and closed in it.
      expect(revoke.records, 'mutation records for one key revoked').to.be.at.most(12);
      // One row put in (a row rendered before it is in the list is not seen): rendering by place moves
      // every key into the row below, thousands of records.
      expect(create.records, 'mutation records for one key created').to.be.at.most(5);
      expect(create.formatted, 'dates and amounts formatted for one key created').to.be.at.most(3);
    } finally {
      stop();
    }
  });

  it('refresh() that brings one key made elsewhere keeps every row and renders the new one alone', async () => {
    await logIn();
    const el = await listed();
    const before = new Map(parts(el, 'key').map((k) => [k.getAttribute('aria-labelledby'), k]));
    const { list: panel, updates, intl, stop } = measure(el, part(el, 'base')!);
    try {
      // Another tab of the wallet: the card's ACTIVE key revoked there, and a new one made.
      const active = parts(el, 'key')[0]!;
      const [old] = (await clientFor().listDelegatedKeys({ accountId: acct.accountId })).filter((k) => k.status === 'ACTIVE');
      if (old) await clientFor().revokeDelegatedKey(old.id);
      const stamper = await walletFor().stamper(acct.accountId);
      const made = await clientFor().createDelegatedKey({ cardId: acct.cardId, internalAccountId: acct.accountId, nickname: 'Made elsewhere' }, { stamper });
      el.refresh();
      await waitFor(() => parts(el, 'key')[0]?.getAttribute('aria-labelledby') === rowId(made.id) && el.matches(':state(ready)'), 'the new key', 30000);
      await el.updateComplete;
      const rows = parts(el, 'key');
      const kept = rows.filter((k) => before.get(k.getAttribute('aria-labelledby')) === k).length;
      console.log(
        `delegated-keys, ${N} keys: refresh() with one key made and one revoked elsewhere: ${panel.records} mutation records in the panel, longest update ${updates.longest.toFixed(1)} ms, ` +
          `${intl.formatted} dates and amounts formatted, ${kept} of ${before.size} rows kept`,
      );
      expect(rows).to.have.length(before.size + (old ? 1 : 0));
      expect(rows[1]).to.equal(active);
      // The list is shown again once read (a list read again says "Loading keys…" in its place):
      // the rows of the keys it still holds come back as they were, the revoked one and the new one
      // rendered anew.
      expect(kept, 'rows kept').to.equal(before.size);
      expect(intl.formatted, 'dates and amounts formatted').to.be.at.most(6);
    } finally {
      stop();
    }
  });

  it('rows not rendered again for want of change still follow new strings and a new language', async () => {
    const el = await listed();
    const revoked = () => parts(el, 'status').filter((s) => s.classList.contains('REVOKED'));
    expect(revoked().length).to.be.greaterThan(N - 5);
    setStrings('en', { 'delegated-keys.status.REVOKED': 'Revoked (scale test)' });
    try {
      await el.updateComplete;
      expect(revoked().filter((s) => s.textContent !== 'Revoked (scale test)')).to.have.length(0);
    } finally {
      setStrings('en', { 'delegated-keys.status.REVOKED': 'Revoked' });
    }
    el.lang = 'ar';
    await el.updateComplete;
    expect(revoked().filter((s) => /Revoked/.test(s.textContent!))).to.have.length(0);
    el.setAttribute('heading-level', '3');
    await el.updateComplete;
    expect(parts(el, 'key').filter((k) => k.querySelector('h3')!.getAttribute('aria-level') !== '4')).to.have.length(0);
  });
});
