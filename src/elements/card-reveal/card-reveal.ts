/**
 * <card-reveal>: shows a card's full number, expiry and CVV inside the card processor's iframe,
 * from a short-lived URL that is requested right before rendering and never kept anywhere else.
 *
 * Follows api.md "POST /cards/{id}/reveal" and DESIGN.md "Security rules / The reveal URL": the URL
 * exists only as the `src` of an iframe created with document.createElement while it is shown; the
 * iframe is removed (not hidden) at expiresAt, on "Hide", after `hide-after` seconds, when the page
 * is hidden (`hide-on-page-hide`) and on disconnect. Only https URLs, or URLs on an origin listed in
 * `allowed-origins`, are rendered, never one already expired nor one on the page's own origin.
 *
 * Built on the elements' small reactive base (shared/reactive.ts: Lit's ReactiveElement contract,
 * reactive properties, controllers, adopted stylesheets) without lit-html: this element is what a
 * page loads up front, with a budget of 9 KB gzip, and lit-html would be a third of it. Its shadow
 * DOM is small and fixed, so it is created once with document.createElement (no innerHTML, no
 * template parsing) and `update()` changes only a few texts and attributes and which buttons the
 * controls row holds. Registered with `customElements.define` and `static properties`.
 *
 * Deliberately does not: call fetch (core's client does), keep the reveal answer (the request passes on
 * only the verdict), put the URL in an attribute, property, event, error or log, or talk to the
 * processor page (the service documents no postMessage protocol; reference.md "Cards").
 */
import { cardRevealStyles } from './card-reveal.styles.ts';
import { ReactiveBase, defineElement, type PropertyValues } from '../shared/reactive.ts';
import { themeStyles, THEME } from '../shared/styles.ts';
import { API_BASE, API_BASE_HINT, idMatch } from '../shared/config.ts';
import { LocaleController } from '../shared/i18n.ts';
import { later, serviceNow } from '../../core/clock.ts';
import { LoadFailed, loaded } from '../shared/load.ts';
import './card-reveal.strings.ts';
import {
  checkRevealUrl,
  hideReasonOf,
  initialState,
  parseAllowedOrigins,
  secondsLeft,
  transition,
  type CardRevealEvent,
  type CardRevealState,
  type RevealErrorCode,
} from './card-reveal.machine.ts';
import { CardHiddenEvent, CardRevealErrorEvent, CardRevealedEvent } from './card-reveal.events.ts';

export { CardHiddenEvent, CardRevealErrorEvent, CardRevealedEvent } from './card-reveal.events.ts';
export type { HideReason, RevealErrorCode } from './card-reveal.machine.ts';

/** Creates an element with its attributes and children (the shadow DOM is built once, without innerHTML). */
function element(tag: string, attributes: Record<string, string> = {}, ...children: Node[]): HTMLElement {
  const node = document.createElement(tag);
  for (const name in attributes) node.setAttribute(name, attributes[name]!);
  node.append(...children);
  return node;
}

/** A placeholder field of the card face: its label (filled in each update) and the masked digits, read left to right. */
const field = (label: Node, mask: string, attributes?: Record<string, string>) =>
  element('p', {}, label, element('code', { dir: 'ltr', ...attributes }, new Text(mask)));

/** The id attributes: one given malformed (ignored, config.ts idMatch) and the element reveals nothing, and says so. */
const IDS = ['card-id', 'account-id'];

/**
 * The on-demand modules, each asked for from this one place: the CDN build (scripts/build.ts) lists,
 * at each import(), the files its module needs, so that they are fetched at once, and every
 * place would carry that list.
 */
const revealRequest = loaded(() => import('./reveal-request.ts'));
const stepUpProof = loaded(() => import('./step-up-proof.ts'));

/**
 * Whether the keyboard focus is inside the element: its shadow root's focused node, which is the
 * card frame while the focus is in it (Firefox's `:focus-within` does not match then).
 */
const focused = (root: unknown): boolean => !!(root as ShadowRoot).activeElement;

/** Replaces a container's children only when they differ, so that a focused node that stays is never moved. */
function setChildren(parent: Element, nodes: Node[]): void {
  const current = parent.childNodes;
  if (nodes.length !== current.length || nodes.some((node, i) => node !== current[i])) parent.replaceChildren(...nodes);
}

/**
 * Shows a card's details in the processor's iframe for a short time, on request.
 *
 * @summary A "show card details" button that renders the processor's secure card view, with a countdown, and removes it at expiry.
 *
 * @event card-revealed - The details are shown. `detail: { cardId, expiresAt }` (never the URL).
 * @event card-hidden - The details left the screen and the iframe was removed. `detail: { reason }`:
 *   `user`, `expired`, `timeout` (hide-after), `page-hidden`, `disconnected`, `card-changed`,
 *   `logged-out` (the wallet session of `account-id`, of any account without it, was logged out or
 *   found ended, in this page or another tab), `account-changed` (require-session: `account-id` now names another wallet) or
 *   `blocked` (the processor's frame was refused: by the page's Content-Security-Policy, and
 *   `card-reveal-error` with code `frame_blocked` follows; or by `allowed-origins` changed while shown
 *   so that it no longer lists the frame's non-https origin, and `insecure_url` follows).
 * @event card-reveal-error - The reveal failed or was refused. `detail: { code, message, status? }`. `misconfigured` too when `card-id` or `account-id` is malformed (once per value given; `message` is the sentence shown, naming the attribute; nothing is sent).
 *
 * @slot face - Replaces the placeholder card face shown while the details are not revealed.
 *
 * @csspart base - The wrapper of everything.
 * @csspart card - The card-shaped area (placeholder face or iframe).
 * @csspart face - The placeholder card face.
 * @csspart frame - The container of the processor's iframe.
 * @csspart controls - The row of buttons and countdown.
 * @csspart reveal-button - "Show card details" / "Show again".
 * @csspart hide-button - "Hide".
 * @csspart retry-button - "Try again" after an error.
 * @csspart countdown - The time left before the details hide.
 * @csspart message - Polite status messages (hidden, expired).
 * @csspart error - The error message region.
 *
 * @cssproperty --card-reveal-card-background - Background of the placeholder face (a gradient by default).
 * @cssproperty --card-reveal-card-color - Text color on the placeholder face.
 * @cssproperty --card-reveal-card-radius - Corner radius of the card area. Default 14px.
 * @cssproperty --card-reveal-frame-height - Height of the card area and iframe (the placeholder card grows past it when its text is made larger). Default 220px.
 * @cssproperty --card-reveal-frame-background - Background behind the iframe while it loads.
 * @cssproperty --card-reveal-gap - Space between the parts.
 * @cssproperty --card-reveal-max-width - Maximum inline size. Default 380px.
 *
 * @cssstate idle - The card details are not shown.
 * @cssstate loading - A reveal is under way.
 * @cssstate busy - A reveal is under way (as `loading`; the name the other elements give it).
 * @cssstate revealed - The card details are shown.
 * @cssstate expired - The details were hidden at their expiry.
 * @cssstate error - The reveal failed or was refused; also while an id attribute is malformed.
 */
export class CardReveal extends ReactiveBase {
  static override styles = [themeStyles, cardRevealStyles];

  static override properties = {
    cardId: { attribute: 'card-id', reflect: true, useDefault: true, match: idMatch('Card') },
    apiBase: { attribute: 'api-base', match: API_BASE, hint: API_BASE_HINT },
    theme: { reflect: true, match: THEME },
    hideAfter: { attribute: 'hide-after', type: Number, min: 0 },
    hideOnPageHide: { attribute: 'hide-on-page-hide', type: Boolean },
    requireSession: { attribute: 'require-session', type: Boolean },
    accountId: { attribute: 'account-id', match: idMatch('InternalAccount') },
    label: {},
    // Not reflected, so the attribute is only ever read.
    allowedOrigins: { attribute: 'allowed-origins', converter: parseAllowedOrigins },
  };

  /** The card to reveal (`Card:<uuid>`). Another (a malformed id) is said on the console and ignored: the element sends nothing, shows only that this attribute is not a valid id, and reports it once per value (`card-reveal-error`, `misconfigured`). */
  cardId = '';

  /** The proxy's base path for this element (overrides configureWallet's `apiBase`). Only this page's origin or that of configureWallet's `apiBase` is followed: another is refused (`misconfigured`) and sent nothing. One that is neither a path from `/`, `./` or `../` nor an http(s) address (a bare `wallet.example.com`, `api`) is said on the console, with what to write instead, and ignored. */
  apiBase: string | undefined;

  /** Light or dark regardless of the system setting (shared base styles). */
  theme: 'light' | 'dark' | undefined;

  /** Hide after this many seconds even when the URL lives longer, counted from when the details were shown; changed while they are shown, the deadline moves at once (past already: hidden, reason `timeout`). */
  hideAfter: number | undefined;

  /** Hide as soon as the page is hidden (tab switched, window minimised), and show nothing while it is: a `show()` then does nothing. */
  hideOnPageHide = false;

  /**
   * Ask for a fresh proof of a live wallet session before each reveal (the proxy's step-up,
   * `stepUp` of createProxy). Needs `account-id` and a stored session of that account.
   */
  requireSession = false;

  /** The wallet account whose session proves the step-up (with `require-session`; `InternalAccount:<uuid>`), and whose logout hides the details (any wallet's without it). Another (a malformed id) is said on the console and ignored: the element sends nothing, shows only that this attribute is not a valid id, and reports it once per value (`card-reveal-error`, `misconfigured`). */
  accountId: string | undefined;

  /**
   * The name screen readers give the card area, in place of "Card details": tells the cards apart
   * when a page shows more than one (e.g. "Virtual card ending 4242").
   */
  label: string | undefined;

  /**
   * Origins whose non-https reveal URLs may be rendered (the sandbox's processor page on loopback).
   * Attribute: space- or comma-separated origins (a string set on the property is read the same way).
   * Changed while the details are shown so that their frame's origin is no longer let in: they are
   * hidden at once (`card-hidden` reason `blocked`, then `card-reveal-error` code `insecure_url`).
   */
  allowedOrigins: string[] = [];

  /** The machine's state; only `send` changes it (and asks for the update). */
  #view: CardRevealState = initialState;

  readonly #i18n = new LocaleController(this);
  /** Custom states need ElementInternals; a server-side shim may not have it. */
  readonly #internals: ElementInternals | undefined = this.attachInternals?.();
  /** The live iframe while revealed; the URL exists only in the navigation inside it (see mountFrame). */
  #frame: HTMLIFrameElement | undefined;
  /** The origin of the URL shown (never the URL), checked again when `allowed-origins` changes. */
  #origin = '';
  /** The one-second countdown and the exact deadline, while revealed. */
  #timers: ReturnType<typeof setTimeout>[] = [];
  /** Removes the page listeners on disconnect. */
  #connection: AbortController | undefined;
  /** Whether the keyboard was inside this element when the current update began. */
  #hadFocus = false;

  // The nodes that `update()` changes, created once with the shadow root (createRenderRoot).
  #base!: HTMLElement;
  /** The labels of the placeholder face: card number, expiry, CVV. */
  #faceLabels!: HTMLElement[];
  /** The container of the iframe while revealed. */
  #frameBox!: HTMLElement;
  #controls!: HTMLElement;
  /** "No card is selected." in the controls row. */
  #noCard!: Text;
  /** One node for every state that offers it, so that the focused button survives state changes. */
  #revealButton!: HTMLElement;
  #countdown!: HTMLElement;
  #hideButton!: HTMLElement;
  #message!: HTMLElement;
  #errorRegion!: HTMLElement;
  #errorText!: HTMLElement;
  #retryButton!: HTMLElement;

  /** The reveal request in flight: a hide or a newer request aborts it, and its outcome is dropped. */
  #request: AbortController | undefined;

  constructor() {
    super();
    // Idle from creation on: `:state(idle)` holds before the element is on the page too.
    this.#syncStates();
  }

  /**
   * Requests a fresh URL and shows the card details. Does nothing while the element is not on the
   * page: the URL is a bearer secret, asked for only to be shown at once. Nor, with
   * `hide-on-page-hide`, while the page is hidden, where that attribute keeps the details off; nor
   * later, when it is visible again: the cardholder shows them then.
   */
  show(): void {
    if (this.badId(IDS) || !this.cardId || !this.isConnected || (this.hideOnPageHide && document.hidden)) return;
    const before = this.#view;
    this.#send({ type: 'reveal' });
    if (this.#view !== before) void this.#fetchAndShow(this.cardId);
  }

  /**
   * The reveal request. The iframe is attached here, so the answer holding the URL is a local
   * variable that dies with the call; only the verdict reaches the machine.
   */
  async #fetchAndShow(cardId: string): Promise<void> {
    const request = (this.#request = new AbortController());
    const { signal } = request;
    let event: CardRevealEvent;
    // What a failure means (its code): the modules that can fail so say it (reveal-failure.ts); until
    // one is loaded only a load can fail (LoadFailed).
    let failureOf = (_error: unknown): { code: RevealErrorCode; status?: number | undefined } => ({ code: 'unexpected' });
    try {
      if (this.requireSession) {
        // The step-up needs the session flows (keys, stamps); a page that never asks for it never
        // loads them.
        const proof = await stepUpProof();
        failureOf = proof.failureOf;
        await proof.proveSession({ apiBase: this.apiBase, accountId: this.accountId, signal });
      }
      // The transport loads on demand, not with the element: a page renders the element (its
      // up-front budget, 9 KB gzip) before any of it is needed. Usually loaded already, on the
      // cardholder's way to the button (createRenderRoot). A load that failed then is asked for
      // again here (twice, see shared/load.ts `loaded`): browsers that follow whatwg/html#10327 fetch it again; Chromium
      // (156) keeps one answered with an error failed for the page, and only a reload loads it (`load_failed`).
      const reveal = await revealRequest();
      failureOf = reveal.failureOf;
      // Details hide when the wallet session is logged out or found ended, proven or not (watched
      // until this request's signal aborts, which every exit from `revealed` does).
      reveal.watchSession(this.apiBase, this.accountId, signal, () => this.#send({ type: 'hide', reason: 'logged-out' }));
      const answer = await reveal.requestReveal(this.apiBase, cardId, signal);
      const verdict = checkRevealUrl(answer, this.allowedOrigins, serviceNow(), self.origin);
      signal.throwIfAborted();
      if (verdict.ok) {
        // A page whose CSP leaves the processor out gets an error page in the frame, and the browser
        // reports it to the document only (CSP 3: a frame's navigation is checked against the
        // effective directive `frame-src`, whichever directive supplied it). An enforced refusal of
        // this origin ends the reveal with `frame_blocked` (watched until every exit from
        // `revealed` aborts `signal`).
        // (No frame is up: every exit from `revealed`, and this request's own start, removed it.)
        this.#origin = new URL(answer.panEmbedUrl).origin;
        this.#frameBox.append((this.#frame = reveal.cardFrame(answer.panEmbedUrl, this.#i18n.t('card-reveal.frame-title'), signal, () => this.#send({ type: 'failed', code: 'frame_blocked' }))));
      }
      event = verdict.ok
        ? { type: 'revealed', expiresAt: verdict.expiresAt, now: serviceNow(), hideAfterMs: (this.hideAfter ?? 0) * 1000 }
        : { type: 'failed', code: verdict.code };
    } catch (error) {
      // Only the service's status goes on the error event, never its message.
      event = { type: 'failed', ...(error instanceof LoadFailed ? { code: error.code } : failureOf(error)) };
    }
    if (this.#request === request) this.#send(event);
  }

  /** Removes the card details (reason `user`). */
  hide(): void {
    this.#send({ type: 'hide', reason: 'user' });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The first update at once rather than in a microtask: properties set on the element before its
    // definition upgraded it are applied by it (shared/reactive.ts), and must be readable, and
    // usable by a show(), as soon as the element is on the page, as when set after.
    if (!this.hasUpdated) this.performUpdate();
    const { signal } = (this.#connection = new AbortController());
    document.addEventListener('visibilitychange', this.#onPageHide, { signal });
    window.addEventListener('pagehide', this.#onPageHide, { signal });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#connection?.abort();
    this.#send({ type: 'hide', reason: 'disconnected' });
    // Whatever the state, no frame outlives the connection.
    this.#unmountFrame();
  }

  readonly #onPageHide = (event: Event): void => {
    // Leaving the page (or entering the back/forward cache) always removes the details; a hidden tab with hide-on-page-hide.
    if (event.type === 'pagehide' || (this.hideOnPageHide && document.hidden)) this.#send({ type: 'hide', reason: 'page-hidden' });
  };

  /**
   * Another card, or with require-session another wallet: what was shown, asked for or said of the
   * one before goes at the change itself, not at the next update, so that no answer on its way is
   * shown for the new one and a show() right after asks for the new one. A value before (not
   * undefined) means a change, not the first setting. Details shown on the strength of one
   * wallet's session are not left up for another wallet.
   * While shown, `hide-after` counts again from when the details were shown (transition), and an
   * `allowed-origins` that no longer lets the frame's origin in removes them, as a reveal refused
   * then would have been (`blocked`, then `insecure_url`).
   */
  override requestUpdate(name?: PropertyKey, old?: unknown): void {
    super.requestUpdate(name, old);
    if (old !== undefined && (name === 'cardId' || (name === 'accountId' && this.requireSession))) {
      this.#send({ type: 'hide', reason: name === 'cardId' ? 'card-changed' : 'account-changed' });
    }
    // (Not before the first update: properties are set during construction, before this class's private fields exist.)
    if (this.hasUpdated && this.#view.kind === 'revealed') {
      if (name === 'hideAfter') this.#send({ type: 'hide-after', ms: (this.hideAfter ?? 0) * 1000, now: serviceNow() });
      // The origin alone, with an expiry that has not come, is checked as the URL was.
      if (name === 'allowedOrigins' && !checkRevealUrl({ panEmbedUrl: this.#origin, expiresAt: '9999' }, this.allowedOrigins, 0).ok) this.#send({ type: 'failed', code: 'insecure_url' });
    }
  }

  protected override willUpdate(): void {
    // Focus follows the flow only when the user was already working inside this element (or
    // inside the card's frame, which `send` may have removed before this update).
    this.#hadFocus ||= focused(this.renderRoot);
  }

  protected override updated(): void {
    // A malformed id: reported once per value, as a misconfiguration (`:state(error)`); nothing is revealed.
    this.badId(IDS, (attribute) => this.dispatchEvent(new CardRevealErrorEvent({ code: 'misconfigured', message: this.#i18n.t('card-reveal.bad-id', { attribute }) })));
    this.#syncStates();
    // The focused button was replaced (Show -> Hide, Hide -> Show, Show -> Try again): the first button now takes it.
    if (this.#hadFocus && !focused(this.renderRoot)) this.renderRoot.querySelector('button')?.focus();
    this.#hadFocus = false;
  }

  /** Runs one machine step and performs what the change implies (frame, timers, events). */
  #send(event: CardRevealEvent): void {
    const previous = this.#view;
    const next = transition(previous, event);
    if (next === previous) return;
    this.#view = next;
    this.requestUpdate();
    const shown = previous.kind === 'revealed';
    // A countdown tick keeps the kind of state; a change of `hide-after` keeps it and moves the deadline.
    if (next.kind === previous.kind && event.type !== 'hide-after') return;
    this.#syncStates();
    for (const timer of this.#timers) clearTimeout(timer);
    if (next.kind === 'revealed') {
      const tick = (now = serviceNow()) => this.#send({ type: 'tick', now });
      // The countdown, and the exact deadline independent of it (never a millisecond early; one
      // beyond what a timer can wait is left to the countdown).
      const left = next.hideAt - serviceNow();
      this.#timers = [setInterval(tick, 1000), later(() => tick(left < 2 ** 31 ? Math.max(serviceNow(), next.hideAt) : undefined), left)];
      if (!shown) this.dispatchEvent(new CardRevealedEvent({ cardId: this.cardId, expiresAt: new Date(next.expiresAt).toISOString() }));
      return;
    }
    // Hidden, expired, failed or loading again: nothing of the previous reveal stays, and a request
    // in flight is dropped (stale).
    this.#request?.abort();
    this.#request = undefined;
    this.#hadFocus ||= focused(this.renderRoot);
    this.#unmountFrame();
    if (previous.kind === 'revealed') this.dispatchEvent(new CardHiddenEvent(hideReasonOf(next)!));
    if (next.kind === 'error') {
      const status = event.type === 'failed' && event.status;
      this.dispatchEvent(new CardRevealErrorEvent({ code: next.code, message: this.#i18n.t(`card-reveal.error.${next.code}`), ...(status ? { status } : {}) }));
    }
  }

  #syncStates(): void {
    const states = this.#internals?.states;
    states?.clear();
    const kind = this.badId(IDS) ? 'error' : this.#view.kind;
    states?.add(kind);
    // Not aria-busy on the panel: it would hold back its status and alert lines from screen readers.
    if (kind === 'loading') states?.add('busy');
  }

  #unmountFrame(): void {
    this.#frame?.remove();
    this.#frame = undefined;
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    const button = (part: string, onClick: () => void, attributes?: Record<string, string>) => {
      const node = element('button', { part, ...attributes });
      node.addEventListener('click', onClick);
      return node;
    };
    this.#faceLabels = [element('small'), element('small'), element('small')];
    this.#frameBox = element('div', { part: 'frame', class: 'frame' });
    this.#controls = element('div', { part: 'controls', class: 'controls' });
    this.#noCard = new Text();
    // aria-disabled rather than disabled: the same button keeps the keyboard focus while loading.
    this.#revealButton = button('reveal-button', () => this.show(), { class: 'primary' });
    this.#countdown = element('span', { part: 'countdown', role: 'timer' });
    this.#hideButton = button('hide-button', () => this.hide());
    this.#message = element('p', { part: 'message', class: 'message', role: 'status' });
    // Nothing in the error region but its content: an empty region must match :empty and take no room.
    this.#errorRegion = element('div', { part: 'error', class: 'alert', role: 'alert' });
    this.#errorText = element('p');
    this.#retryButton = button('retry-button', () => this.show());
    const [number, expiry, cvv] = this.#faceLabels as [HTMLElement, HTMLElement, HTMLElement];
    const face = element(
      'div',
      { part: 'face', class: 'face', 'aria-hidden': 'true' },
      element(
        'slot',
        { name: 'face' },
        element('div', { class: 'chip' }),
        // No-break spaces: the number never wraps (its size follows the face's width, styles).
        field(number, '••••\u00a0••••\u00a0••••\u00a0••••', { class: 'number' }),
        element('div', { class: 'row' }, field(expiry, '••/••'), field(cvv, '•••')),
      ),
    );
    this.#base = element('section', { part: 'base', class: 'panel' }, element('div', { part: 'card' }, face, this.#frameBox), this.#controls, this.#message, this.#errorRegion);
    root.append(this.#base);
    // Intent to reveal (a pointer over the element, the keyboard in it; a touch brings pointerover
    // too): the reveal request's module starts loading, so that the click does not wait for it,
    // and the step-up's when it will be needed. The browser loads a module once, however often it
    // is asked. A load that fails here shows nothing: the reveal asks for it again.
    const preload = () => {
      revealRequest().catch(() => undefined);
      if (this.requireSession) stepUpProof().catch(() => undefined);
    };
    root.addEventListener('pointerover', preload);
    root.addEventListener('focusin', preload);
    return root;
  }

  /** Brings the shadow DOM up to date with the state, the properties and the language. */
  protected override update(changed: PropertyValues): void {
    super.update(changed);
    const { t } = this.#i18n;
    const view = this.#view;
    const { kind } = view;
    this.#base.setAttribute('aria-label', this.label || t('card-reveal.label'));
    this.#frame?.setAttribute('title', t('card-reveal.frame-title'));
    ['number', 'expiry', 'cvv'].forEach((name, i) => (this.#faceLabels[i]!.textContent = t(`card-reveal.placeholder-${name}`)));
    const hiddenBefore = kind === 'idle' && view.lastHidden;
    const message = kind === 'expired' || kind === 'revealed' ? kind : hiddenBefore ? `hidden.${hiddenBefore}` : '';
    this.#message.textContent = message && t(`card-reveal.${message}`);
    let controls: Node[] = [];
    const bad = this.badId(IDS);
    if (bad || !this.cardId) {
      this.#noCard.data = bad ? t('card-reveal.bad-id', { attribute: bad }) : t('card-reveal.no-card');
      controls = [this.#noCard];
    } else if (kind === 'revealed') {
      const seconds = secondsLeft(view);
      const { locale } = this.#i18n;
      const time = `${Math.floor(seconds / 60).toLocaleString(locale)}:${(seconds % 60).toLocaleString(locale, { minimumIntegerDigits: 2 })}`;
      this.#countdown.setAttribute('aria-label', t('card-reveal.countdown-label'));
      this.#countdown.textContent = t('card-reveal.countdown', { time });
      this.#hideButton.textContent = t('card-reveal.hide');
      controls = [this.#countdown, this.#hideButton];
    } else if (!(kind === 'error' && view.retryable)) {
      const label = kind === 'loading' ? 'loading' : kind === 'expired' || hiddenBefore ? 'show-again' : 'show';
      this.#revealButton.setAttribute('aria-disabled', String(kind === 'loading'));
      this.#revealButton.textContent = t(`card-reveal.${label}`);
      controls = [this.#revealButton];
    }
    setChildren(this.#controls, controls);
    let error: Node[] = [];
    if (kind === 'error') {
      this.#errorText.textContent = t(`card-reveal.error.${view.code}`);
      this.#retryButton.textContent = t('card-reveal.retry');
      error = view.retryable ? [this.#errorText, this.#retryButton] : [this.#errorText];
    }
    setChildren(this.#errorRegion, error);
  }
}

defineElement('card-reveal', CardReveal);

declare global {
  interface HTMLElementTagNameMap {
    'card-reveal': CardReveal;
  }
}
