/**
 * The base of every element: reactive properties backed by attributes, one batched update per
 * microtask, controllers, and `static styles` adopted into an open shadow root.
 *
 * It is the part of Lit's `ReactiveElement` (@lit/reactive-element 2.x) that these elements use,
 * with the same contract for that part, so the elements read like Lit elements and Lit's documents
 * describe them: `static properties` with `attribute` (default: the property name lowercased;
 * `false` for none), `type` (Boolean, Number, String), `reflect`, `state`, `converter` (an
 * attribute parser) and `useDefault` (and, not Lit's, a Number's `min`, `max` and `step`, a text's `match` and the console's `hint`, and the `ignored` attributes with their values); a property set to a value that is not `Object.is` the old one queues an update;
 * `willUpdate` -> controllers' `hostUpdate` -> `update` (reflects attributes) -> controllers'
 * `hostUpdated` -> `firstUpdated` -> `updated`; `requestUpdate()`, `updateComplete`, `hasUpdated`,
 * `addController`, `createRenderRoot`/`renderRoot`; the first update waits for the first
 * connection; properties set on an element before its class was defined are kept. `static styles`
 * (sheets of styles.ts's `css`, nested arrays allowed) are adopted as constructable stylesheets,
 * which every browser with custom states (`:state()`, used by every element) has; Lit's
 * `<style>`-element fallback for browsers without them is deliberately not here.
 *
 * Why not ReactiveElement itself: the size budgets (`<card-reveal>` 9 KB gzip, the whole
 * library 25 KB). ReactiveElement is ~2.7 KB gzip, most of it for what no element here uses; this
 * file is about 1.2 KB. Deliberately not here, so a subclass must not rely on them: `toAttribute`
 * converters, `hasChanged`, `noAccessor`, Object/Array attribute types, decorators,
 * `shouldUpdate`/`scheduleUpdate`/`getUpdateComplete`, `static shadowRootOptions` (the root is
 * always open) and `elementStyles`, dev-mode warnings, server-side rendering. Templates stay Lit's:
 * see template.ts.
 */
import type { Styles, StylesGroup } from './styles.ts';

export interface PropertyDeclaration {
  /** The attribute that sets the property: its name, or `false` for none. Default: the property name lowercased. */
  attribute?: string | boolean;
  /** How the attribute's text becomes the value: Boolean (present or not), Number, or String (the default). */
  type?: BooleanConstructor | NumberConstructor | StringConstructor;
  /** Write the value back to the attribute after each change. */
  reflect?: boolean;
  /** Internal reactive state: no attribute. */
  state?: boolean;
  /** Parses the attribute's text (`null` when it is removed) instead of `type`. */
  converter?: (value: string | null) => unknown;
  /**
   * The first value the property gets (its class field's) is its default: not reflected, so that
   * the element adds no attribute the page did not write (a server-rendered page hydrated by a
   * framework finds its markup unchanged), and the property goes back to it when the attribute is
   * removed. Lit's option of the same name.
   */
  useDefault?: boolean;
  /**
   * With `type: Number`: the lowest and highest values the property takes (highest by default
   * 2^31 - 1, a timer's longest delay) and the step from 0 (1: integers), checked when `min` is given
   * (without it, any number, NaN too, as in Lit). A number outside them, or a text that is none
   * ("abc"), from the attribute or the property, is said on the console (`<tag attribute="value">
   * ignored`) and the property keeps its default (`useDefault`; else it is unset). Text set on the
   * property is converted as the attribute's is. Not Lit's.
   */
  min?: number;
  max?: number;
  step?: number;
  /**
   * The texts the property takes, once trimmed: another (from the attribute or the property) is
   * said and the default kept, as a Number's outside its `min`/`max`. Not Lit's.
   */
  match?: RegExp;
  /** Added to what the console says of a value ignored: what to write instead (`: write …`). Not Lit's. */
  hint?: string;
}

/** The properties changed since the last update, with their previous values. */
export type PropertyValues = Map<PropertyKey, unknown>;

/** Same shape as Lit's ReactiveController: told when its host connects, updates and disconnects. */
export interface ReactiveController {
  hostConnected?(): void;
  hostDisconnected?(): void;
  hostUpdate?(): void;
  hostUpdated?(): void;
}

/** Same shape as Lit's ReactiveControllerHost. */
export interface ReactiveControllerHost {
  addController(controller: ReactiveController): void;
  removeController(controller: ReactiveController): void;
  requestUpdate(): void;
  readonly updateComplete: Promise<boolean>;
}

/** What a class gets once, when `customElements.define` first reads its observed attributes. */
interface Finalized {
  /** Every declaration of the class and its ancestors, by property name. */
  declarations: Map<PropertyKey, PropertyDeclaration>;
  /** Attribute name -> property name. */
  attributes: Map<string, PropertyKey>;
  styles: Styles[];
}

const finalized = new WeakMap<object, Finalized>();

/**
 * On a server (Node without a DOM, as when a framework renders a page that imports an element)
 * the classes must still evaluate: HTMLElement is then an empty class, and each element registers
 * itself with `globalThis.customElements?.define`, which does nothing where no registry exists (a
 * DOM shim such as @lit-labs/ssr-dom-shim provides one).
 */
const HTMLElementBase = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

function attributeOf(name: PropertyKey, declaration: PropertyDeclaration): string | undefined {
  const { attribute } = declaration;
  return declaration.state || attribute === false ? undefined : typeof attribute === 'string' ? attribute : String(name).toLowerCase();
}

/** Lit's rule for `static styles`: nested arrays flattened, a sheet listed twice kept at its last place. */
function flattenStyles(styles: StylesGroup | undefined): Styles[] {
  const flat: Styles[] = [];
  const walk = (group: StylesGroup | undefined): void => {
    if (Array.isArray(group)) (group as readonly StylesGroup[]).forEach(walk);
    else if (group) flat.push(group as Styles);
  };
  walk(styles);
  return [...new Set(flat.reverse())].reverse();
}

export class ReactiveBase extends HTMLElementBase implements ReactiveControllerHost {
  /** Reactive properties, by name (see PropertyDeclaration). */
  static properties: Record<string, PropertyDeclaration> = {};

  /** Styles adopted into the shadow root. */
  static styles?: StylesGroup;

  /** Defines the accessors of the class's own declarations, once, and collects what instances need. */
  static #finalize(ctor: typeof ReactiveBase): Finalized {
    let done = finalized.get(ctor);
    if (done) return done;
    const parent = Object.getPrototypeOf(ctor) as typeof ReactiveBase;
    const inherited = parent.prototype instanceof ReactiveBase ? ReactiveBase.#finalize(parent) : undefined;
    done = {
      declarations: new Map(inherited?.declarations),
      attributes: new Map(inherited?.attributes),
      styles: flattenStyles(ctor.styles),
    };
    if (Object.hasOwn(ctor, 'properties')) {
      for (const [name, declaration] of Object.entries(ctor.properties)) {
        done.declarations.set(name, declaration);
        const attribute = attributeOf(name, declaration);
        if (attribute) done.attributes.set(attribute, name);
        Object.defineProperty(ctor.prototype, name, {
          get(this: ReactiveBase) {
            return this.#values.get(name);
          },
          set(this: ReactiveBase, value: unknown) {
            const old = this.#values.get(name);
            // Numbers are converted here, from the attribute's text or a property, to check them;
            // texts with a `match` are checked without the spaces around them (as a browser reads
            // a link's address), and kept so.
            const { min, match } = declaration;
            const n = value == null ? value : declaration.type === Number ? +value : match ? `${value}`.trim() : value;
            // Without a min, any number, NaN too (Lit's). NaN ("abc") is not >= min; n % undefined
            // is NaN: no step set allows any. No max set still stops at 2^31 - 1, past which a
            // timer's delay wraps (WebIDL long) and would fire at once.
            if (n == null || (match ? match.test(n as string) : min === undefined || ((n as number) >= min && !((n as number) > (declaration.max ?? 2 ** 31 - 1) || (n as number) % declaration.step!)))) {
              value = n;
              // Taken after one was ignored: an update, even when the value stays the default.
              if (this.ignored.delete(attribute!)) this.requestUpdate();
            } else {
              console.warn(`<${this.localName} ${attribute}="${value}"> ignored${declaration.hint ?? ''}`);
              this.ignored.set(attribute!, value);
              value = this.#defaults.get(name);
              this.requestUpdate();
            }
            if (Object.is(old, value)) return;
            this.#values.set(name, value);
            this.requestUpdate(name, old);
          },
          configurable: true,
          enumerable: true,
        });
      }
    }
    finalized.set(ctor, done);
    return done;
  }

  static get observedAttributes(): string[] {
    // `dir` too, which no property declares: a direction the page gives the host, or takes back,
    // decides the wrapper's at once (shared/i18n.ts LocaleController, at each update).
    return [...ReactiveBase.#finalize(this).attributes.keys(), 'dir'];
  }

  /** The shadow root (or what createRenderRoot returned), from the first connection on. */
  renderRoot!: HTMLElement | DocumentFragment;

  /** True once the first update ran. */
  hasUpdated = false;

  /** True from a change until the update that renders it. */
  isUpdatePending = false;

  /**
   * The attributes whose last value, from the attribute or the property, was said and ignored (a
   * `min` or `match` not met), with that value, until one is taken. An element shows what it cannot
   * work without, such as a malformed id, as not valid rather than as missing.
   */
  protected readonly ignored = new Map<string, unknown>();

  /** The malformed id last reported (badId), as `attribute=value`. */
  #reported: unknown;

  /**
   * The first of `ids` (attribute names) whose value was ignored (a malformed id, config.ts
   * idMatch): the element sends nothing and says so. With `report` (from `updated`), it is called
   * with that attribute once per such value: not again for the same value given again or drawn
   * again, but again once a good one was taken in between.
   */
  protected badId(ids: string[], report?: (attribute: string) => void): string | undefined {
    const bad = ids.find((id) => this.ignored.has(id));
    const said = bad && `${bad}=${this.ignored.get(bad)}`;
    if (report && said !== this.#reported) (this.#reported = said) && report(bad!);
    return bad;
  }

  #values = new Map<PropertyKey, unknown>();
  #changed: PropertyValues = new Map();
  #reflecting = new Set<PropertyKey>();
  /** The property being set from its attribute, which must not be written back to it. */
  #fromAttribute: PropertyKey | undefined;
  #controllers?: Set<ReactiveController>;
  /** The defaults of the properties declared with `useDefault`, by name. */
  #defaults = new Map<PropertyKey, unknown>();
  /** Values set on the element before its class was defined, applied at the first update. */
  #early?: Map<PropertyKey, unknown>;
  #enableUpdating!: (value: boolean) => void;
  #updatePromise: Promise<boolean> = new Promise((resolve) => (this.#enableUpdating = resolve));

  constructor() {
    super();
    for (const name of this.#meta.declarations.keys()) {
      if (Object.hasOwn(this, name)) {
        (this.#early ??= new Map()).set(name, this[name as keyof this]);
        delete this[name as keyof this];
      }
    }
    this.requestUpdate();
  }

  /** The class's finalized declarations, attributes and styles. */
  get #meta(): Finalized {
    return ReactiveBase.#finalize(this.constructor as typeof ReactiveBase);
  }

  /** Resolves after the pending update (true when no further update was queued meanwhile). */
  get updateComplete(): Promise<boolean> {
    return this.#updatePromise;
  }

  addController(controller: ReactiveController): void {
    (this.#controllers ??= new Set()).add(controller);
    if (this.renderRoot !== undefined && this.isConnected) controller.hostConnected?.();
  }

  removeController(controller: ReactiveController): void {
    this.#controllers?.delete(controller);
  }

  connectedCallback(): void {
    this.renderRoot ??= this.createRenderRoot();
    this.#enableUpdating(true);
    this.#controllers?.forEach((c) => c.hostConnected?.());
  }

  disconnectedCallback(): void {
    this.#controllers?.forEach((c) => c.hostDisconnected?.());
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null): void {
    const { attributes, declarations } = this.#meta;
    const name = attributes.get(attribute);
    // `dir`: an update, at which the wrapper follows it.
    if (name === undefined) return this.requestUpdate();
    if (this.#fromAttribute === name) return;
    const { converter, type, useDefault } = declarations.get(name)!;
    this.#fromAttribute = name;
    (this as Record<PropertyKey, unknown>)[name] =
      useDefault && value === null
        ? this.#defaults.get(name)
        : converter
          ? converter(value)
          : type === Boolean
            ? value !== null
            : value;
    this.#fromAttribute = undefined;
  }

  /** Queues an update; with a name, records that property's previous value for this update. */
  requestUpdate(name?: PropertyKey, old?: unknown): void {
    if (name !== undefined) {
      if (!this.#changed.has(name)) this.#changed.set(name, old);
      const declaration = this.#meta.declarations.get(name);
      // The first value of a `useDefault` property is its default, which is not reflected.
      if (declaration?.useDefault && !this.#defaults.has(name)) this.#defaults.set(name, this[name as keyof this]);
      else if (declaration?.reflect && this.#fromAttribute !== name) this.#reflecting.add(name);
    }
    if (!this.isUpdatePending) this.#updatePromise = this.#enqueue();
  }

  async #enqueue(): Promise<boolean> {
    this.isUpdatePending = true;
    try {
      await this.#updatePromise;
    } catch (error) {
      // The previous update threw: it stays reported (as an unhandled rejection), and this one runs.
      void Promise.reject(error);
    }
    this.performUpdate();
    return !this.isUpdatePending;
  }

  /** Runs the update now if one is pending. */
  protected performUpdate(): void {
    if (!this.isUpdatePending) return;
    const early = this.#early;
    this.#early = undefined;
    early?.forEach((value, name) => ((this as Record<PropertyKey, unknown>)[name] = value));
    const changed = this.#changed;
    try {
      this.willUpdate(changed);
      this.#controllers?.forEach((c) => c.hostUpdate?.());
      this.update(changed);
    } catch (error) {
      this.#markUpdated();
      throw error;
    }
    this.#controllers?.forEach((c) => c.hostUpdated?.());
    if (!this.hasUpdated) {
      this.hasUpdated = true;
      this.firstUpdated(changed);
    }
    this.updated(changed);
  }

  protected createRenderRoot(): HTMLElement | DocumentFragment {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = this.#meta.styles.map((s) => s.styleSheet);
    return root;
  }

  /** Before `update`: compute what the update needs from what changed. */
  protected willUpdate(_changed: PropertyValues): void {}

  /** Reflects the changed properties that ask for it; subclasses render here. */
  protected update(_changed: PropertyValues): void {
    for (const name of this.#reflecting) {
      const attribute = attributeOf(name, this.#meta.declarations.get(name)!)!;
      const value = (this as Record<PropertyKey, unknown>)[name];
      this.#fromAttribute = name;
      if (value == null || value === false) this.removeAttribute(attribute);
      else this.setAttribute(attribute, value === true ? '' : String(value));
      this.#fromAttribute = undefined;
    }
    this.#reflecting.clear();
    this.#markUpdated();
  }

  protected firstUpdated(_changed: PropertyValues): void {}

  protected updated(_changed: PropertyValues): void {}

  #markUpdated(): void {
    this.#changed = new Map();
    this.isUpdatePending = false;
  }
}

/**
 * Defines the element where the page has a registry. The class's property accessors are made either
 * way: on a server (no registry) `name in Element.prototype` must still tell a property from an
 * attribute, which is how @lit/react's server render keeps properties (an agent's token among them)
 * out of the HTML it writes.
 */
export function defineElement(tag: string, ctor: typeof ReactiveBase): void {
  void ctor.observedAttributes;
  globalThis.customElements?.define(tag, ctor);
}
