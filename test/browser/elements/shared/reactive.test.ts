/**
 * The elements' reactive base (src/elements/shared/reactive.ts) and template base (template.ts)
 * against Lit itself: the same element is written once on `ReactiveBase`/`TemplateElement` and once
 * on Lit's `ReactiveElement`/`LitElement`, the same script of attribute and property changes runs
 * on both in real Chromium, and what a page can observe must be identical: property values,
 * attributes (reflection, conversion), the changed-property maps each update receives, the order
 * of lifecycle and controller calls, `updateComplete`, the rendered DOM and adopted styles.
 */
import { expect } from 'chai';
import { ReactiveElement, LitElement, css } from 'lit';
import { html } from 'lit/html.js';
import { ReactiveBase, type PropertyValues, type ReactiveController } from '../../../../src/elements/shared/reactive.ts';
import { TemplateElement } from '../../../../src/elements/shared/template.ts';
import { css as ownCss } from '../../../../src/elements/shared/styles.ts';
import { resetPage } from './helpers.ts';
import { expectUncaught } from '../../support/uncaught.ts';

const properties = {
  cardId: { attribute: 'card-id', reflect: true },
  count: { type: Number },
  on: { type: Boolean, attribute: 'is-on' },
  theme: { reflect: true },
  token: { attribute: false },
  list: { attribute: 'list', converter: (value: string | null) => (value ?? '').split(/[\s,]+/).filter(Boolean) },
  inner: { state: true },
};

// The same two sheets, made by Lit's css for Lit and by the library's for the base.
const sheetA = css`:host { display: block; }`;
const sheetB = css`p { margin: 0; }`;
const ownA = ownCss`:host { display: block; }`;
const ownB = ownCss`p { margin: 0; }`;

type Log = string[];

/** Adds the same fields, lifecycle logging and controller to either base class. */
function instrument<T extends abstract new (...args: any[]) => HTMLElement>(Base: T, log: Log) {
  abstract class Instrumented extends Base {
    cardId = '';
    count = 0;
    on = false;
    theme: string | undefined;
    token = '';
    list: string[] = [];
    inner = 1;
    constructor(...args: any[]) {
      super(...args);
      const controller: ReactiveController = {
        hostConnected: () => log.push('controller connected'),
        hostDisconnected: () => log.push('controller disconnected'),
        hostUpdate: () => log.push('controller update'),
        hostUpdated: () => log.push('controller updated'),
      };
      (this as unknown as { addController(c: ReactiveController): void }).addController(controller);
    }
    willUpdate(changed: PropertyValues): void {
      log.push(`willUpdate ${[...changed].map(([k, v]) => `${String(k)}=${JSON.stringify(v)}`).join(' ')}`);
    }
    firstUpdated(): void {
      log.push('firstUpdated');
    }
    updated(changed: PropertyValues): void {
      log.push(`updated ${[...changed.keys()].join(' ')}`);
    }
  }
  return Instrumented;
}

let tagCount = 0;
function define(make: (log: Log) => CustomElementConstructor): { tag: string; log: Log } {
  const log: Log = [];
  const tag = `reactive-test-${++tagCount}`;
  customElements.define(tag, make(log));
  return { tag, log };
}

interface Snapshot {
  log: Log;
  props: Record<string, unknown>;
  attributes: Record<string, string>;
  dom: string;
  sheets: number;
  completes: boolean[];
}

/** The script both implementations run: everything a page can do to an element's properties. */
async function script(tag: string, log: Log): Promise<Snapshot> {
  const completes: boolean[] = [];
  const el = document.createElement(tag) as HTMLElement & Record<string, unknown> & { updateComplete: Promise<boolean> };
  el.setAttribute('count', '5');
  el.setAttribute('is-on', '');
  el.setAttribute('list', 'a, b c');
  el.setAttribute('token', 'ignored');
  el.cardId = 'Card:1';
  log.push('--- before connect');
  document.body.append(el);
  log.push('--- connected');
  completes.push(await el.updateComplete);
  el.count = 6;
  el.count = 6;
  el.theme = 'dark';
  el.inner = 2;
  completes.push(await el.updateComplete);
  el.removeAttribute('is-on');
  el.setAttribute('card-id', 'Card:2');
  el.setAttribute('count', 'x');
  completes.push(await el.updateComplete);
  el.theme = undefined;
  el.cardId = '';
  el.removeAttribute('count');
  completes.push(await el.updateComplete);
  el.remove();
  document.body.append(el);
  el.remove();
  completes.push(await el.updateComplete);
  const props = Object.fromEntries(Object.keys(properties).map((name) => [name, el[name]]));
  props['count'] = String(props['count']); // NaN is not JSON
  const attributes = Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]));
  const root = el.shadowRoot!;
  return {
    log,
    props,
    attributes,
    dom: root.innerHTML.replace(/<!--[^>]*-->/g, ''),
    sheets: root.adoptedStyleSheets.length,
    completes,
  };
}

describe('reactive base (shared/reactive.ts) behaves as Lit ReactiveElement', () => {
  afterEach(resetPage);

  it('properties, attributes, reflection, lifecycle order, controllers, updateComplete and styles', async () => {
    const ours = define((log) => {
      class Ours extends instrument(ReactiveBase, log) {
        static override properties = properties;
        static override styles = [ownA, [ownB, ownA]];
      }
      return Ours;
    });
    const lit = define((log) => {
      class Lit extends instrument(ReactiveElement, log) {
        static override properties = properties;
        static override styles = [sheetA, [sheetB, sheetA]];
      }
      return Lit;
    });
    const a = await script(ours.tag, ours.log);
    const b = await script(lit.tag, lit.log);
    expect(a).to.deep.equal(b);
    // The script did exercise what it is about (a broken base would not reach these values).
    expect(a.attributes).to.deep.equal({ 'card-id': '', list: 'a, b c', token: 'ignored' });
    expect(a.props['list']).to.deep.equal(['a', 'b', 'c']);
    expect(a.sheets).to.equal(2);
    expect(a.log.filter((l) => l.startsWith('willUpdate'))).to.have.length(4);
  });

  it('renders templates as LitElement does, with event listeners bound to the host', async () => {
    // One template for both: `lit` re-exports the same lit-html `html`.
    const renderOf = (el: { count: number; bump(): void }) =>
      html`<p part="count">${el.count}</p><button @click=${el.bump}>+</button>`;
    const ours = define((log) => {
      class Ours extends instrument(TemplateElement, log) {
        static override properties = properties;
        bump(this: Ours): void {
          this.count++;
        }
        protected override render(): unknown {
          return renderOf(this);
        }
      }
      return Ours;
    });
    const lit = define((log) => {
      class Lit extends instrument(LitElement, log) {
        static override properties = properties;
        bump(this: Lit): void {
          this.count++;
        }
        protected override render(): unknown {
          return renderOf(this);
        }
      }
      return Lit;
    });
    for (const { tag } of [ours, lit]) {
      const el = document.createElement(tag) as HTMLElement & { updateComplete: Promise<boolean> };
      document.body.append(el);
      await el.updateComplete;
      el.shadowRoot!.querySelector('button')!.click();
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('p')!.textContent).to.equal('1');
      el.remove();
    }
    expect(ours.log).to.deep.equal(lit.log);
  });

  it('keeps a property set before the class was defined (element upgrade)', async () => {
    const tag = `reactive-test-${++tagCount}`;
    const el = document.createElement(tag) as HTMLElement & { count: number; updateComplete: Promise<boolean> };
    el.count = 7;
    document.body.append(el);
    customElements.define(
      tag,
      class extends ReactiveBase {
        static override properties = { count: { type: Number } };
        count = 1;
      },
    );
    await el.updateComplete;
    expect(el.count).to.equal(7);
    expect(Object.hasOwn(el, 'count')).to.equal(false);
    el.remove();
  });

  it('reports an update that throws through updateComplete, and the next update still runs', async () => {
    let fail = true;
    let rendered = 0;
    const { tag } = define(
      () =>
        class extends ReactiveBase {
          static override properties = { count: { type: Number } };
          count = 0;
          protected override update(changed: PropertyValues): void {
            super.update(changed);
            if (fail) throw new Error('update failed');
            rendered++;
          }
        },
    );
    const el = document.createElement(tag) as HTMLElement & { count: number; updateComplete: Promise<boolean> };
    // The rejection is also reported as unhandled by design (as Lit does).
    const reported = expectUncaught('update failed');
    try {
      document.body.append(el);
      let error: unknown;
      await el.updateComplete.catch((e: unknown) => (error = e));
      expect(String(error)).to.contain('update failed');
      fail = false;
      el.count = 1;
      expect(await el.updateComplete).to.equal(true);
      expect(rendered).to.equal(1);
      expect(String(await reported)).to.contain('update failed');
    } finally {
      el.remove();
    }
  });
});
