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
import { noChange, render, type RenderOptions, type RootPart } from 'lit/html.js';
import { ReactiveBase, type PropertyValues } from './reactive.ts';

export class TemplateElement extends ReactiveBase {
  private readonly renderOptions: RenderOptions = { host: this };
  private rootPart: RootPart | undefined;

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    // Where adopted stylesheets are missing, the styles are <style> elements: render before them.
    this.renderOptions.renderBefore ??= root.firstChild;
    return root;
  }

  protected override update(changed: PropertyValues): void {
    // Rendered while the update is still pending, so that a property set by render() queues no other update.
    const value = this.render();
    if (!this.hasUpdated) this.renderOptions.isConnected = this.isConnected;
    super.update(changed);
    this.rootPart = render(value, this.renderRoot, this.renderOptions);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.rootPart?.setConnected(true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.rootPart?.setConnected(false);
  }

  /** What the element shows: a template, or `nothing`. */
  protected render(): unknown {
    return noChange;
  }
}
