/**
 * The base of the elements that render with Lit templates (lit-html): `render()` returns a
 * template and each update renders it into the shadow root, exactly as LitElement does
 * (lit-element 4.x: render before the reflected attributes are written, `host` as the `this` of
 * event listeners, the rendered part connected and disconnected with the element).
 *
 * Import `html`, `nothing` and directives from 'lit/html.js' and 'lit/directives/*', not from the
 * 'lit' index: the index also loads LitElement and ReactiveElement, which no element here uses
 * (see reactive.ts), and bundlers keep it whole because lit declares no `sideEffects: false`.
 */
import { noChange, nothing, render, type RenderOptions, type RootPart } from 'lit/html.js';
import { ReactiveBase, type PropertyDeclaration, type PropertyValues } from './reactive.ts';

export class TemplateElement extends ReactiveBase {
  static override properties: Record<string, PropertyDeclaration> = { headingLevel: { attribute: 'heading-level', type: Number, min: 1, max: 6, step: 1 } };

  /**
   * The outline level of the element's main heading (1 to 6), to fit the page's own headings; its
   * sub-headings sit one level below. Unset: the headings are the elements' `h2` and `h3`.
   */
  headingLevel: number | undefined;

  /** The `aria-level` of a heading `depth` levels below the main one, or `nothing` when the page set none. */
  protected level(depth = 0): number | typeof nothing {
    return this.headingLevel ? Math.min(6, this.headingLevel + depth) : nothing;
  }

  readonly #renderOptions: RenderOptions = { host: this };
  #rootPart: RootPart | undefined;

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    // Before whatever the root already holds (a declarative shadow root's content). The styles are
    // adopted stylesheets, never <style> elements in the root (reactive.ts), so a strict CSP holds.
    this.#renderOptions.renderBefore ??= root.firstChild;
    return root;
  }

  protected override update(changed: PropertyValues): void {
    // Rendered while the update is still pending, so that a property set by render() queues no other update.
    const value = this.render();
    if (!this.hasUpdated) this.#renderOptions.isConnected = this.isConnected;
    super.update(changed);
    this.#rootPart = render(value, this.renderRoot, this.#renderOptions);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#rootPart?.setConnected(true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#rootPart?.setConnected(false);
  }

  /** What the element shows: a template, or `nothing`. */
  protected render(): unknown {
    return noChange;
  }
}
