/**
 * <card-reveal>: shows a card's full number, expiry and CVV inside the card processor's iframe,
 * from a short-lived URL that is requested right before rendering and never kept anywhere else.
 *
 * Follows api.md "POST /cards/{id}/reveal" and DESIGN.md "Security rules / The reveal URL": the URL
 * exists only as the `src` of an iframe created with document.createElement while it is shown; the
 * iframe is removed (not hidden) at expiresAt, on "Hide", after `hide-after` seconds, when the page
 * is hidden (`hide-on-page-hide`) and on disconnect. Only https URLs, or URLs on an origin listed in
 * `allowed-origins`, are rendered, and never one already expired.
 *
 * Deliberately does not: call fetch (core's client does), keep the reveal answer (the task keeps
 * only `expiresAt`), put the URL in an attribute, property, event, error or log, or talk to the
 * processor page (the service documents no postMessage protocol; reference.md "Cards").
 */
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { Task } from '@lit/task';
import { baseStyles } from '../shared/styles.ts';
import { LocaleController } from '../shared/i18n.ts';
import { sendFor } from '../shared/config.ts';
import { revealCard } from '../../core/cards.ts';
import { cardRevealStyles } from './card-reveal.styles.ts';
import './card-reveal.strings.ts';
import {
  checkRevealUrl,
  errorCodeOf,
  hideReasonOf,
  initialState,
  parseAllowedOrigins,
  secondsLeft,
  transition,
  type CardRevealEvent,
  type CardRevealState,
  type HideReason,
  type RevealErrorCode,
} from './card-reveal.machine.ts';
import { CardHiddenEvent, CardRevealErrorEvent, CardRevealedEvent } from './card-reveal.events.ts';

export { CardHiddenEvent, CardRevealErrorEvent, CardRevealedEvent } from './card-reveal.events.ts';
export type { HideReason, RevealErrorCode } from './card-reveal.machine.ts';

/** A refusal decided here (not by the service): carries a code, never the URL. */
class RevealRefused extends Error {
  constructor(readonly code: RevealErrorCode) {
    super(`Reveal refused: ${code}`);
  }
}

const CUSTOM_STATES = ['idle', 'loading', 'revealed', 'expired', 'error'] as const;

/**
 * The parent page's Resource Timing buffer records the frame's navigation under its full URL
 * (W3C Resource Timing; Chromium reports iframe navigations to the parent), where any script
 * reading `performance.getEntriesByType('resource')` - analytics, monitoring - would find the
 * bearer URL. The buffer has no per-entry removal, so it is cleared once the frame has loaded and
 * again when it is removed. A PerformanceObserver the page registered earlier still receives the
 * entry when it is created: pages that ship resource timings somewhere should skip iframe entries.
 */
function forgetResourceTimings(): void {
  globalThis.performance?.clearResourceTimings?.();
}

/**
 * Shows a card's details in the processor's iframe for a short time, on request.
 *
 * @summary A "show card details" button that renders the processor's secure card view, with a countdown, and removes it at expiry.
 *
 * @event card-revealed - The details are shown. `detail: { cardId, expiresAt }` (never the URL).
 * @event card-hidden - The details left the screen and the iframe was removed. `detail: { reason }`:
 *   `user`, `expired`, `timeout` (hide-after), `page-hidden`, `disconnected` or `card-changed`.
 * @event card-reveal-error - The reveal failed or was refused. `detail: { code, message, status? }`.
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
 * @cssproperty --card-reveal-frame-height - Height of the card area and iframe. Default 220px.
 * @cssproperty --card-reveal-frame-background - Background behind the iframe while it loads.
 * @cssproperty --card-reveal-gap - Space between the parts.
 * @cssproperty --card-reveal-max-width - Maximum inline size. Default 380px.
 *
 * Custom states: `:state(idle)`, `:state(loading)`, `:state(revealed)`, `:state(expired)`, `:state(error)`.
 */
@customElement('card-reveal')
export class CardReveal extends LitElement {
  static override styles = [baseStyles, cardRevealStyles];

  /** The card to reveal (`Card:<uuid>`). */
  @property({ attribute: 'card-id', reflect: true }) cardId = '';

  /** The proxy's base path for this element (overrides configureWallet's `apiBase`). */
  @property({ attribute: 'api-base' }) apiBase: string | undefined;

  /** Light or dark regardless of the system setting (shared base styles). */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** Hide after this many seconds even when the URL lives longer. */
  @property({ attribute: 'hide-after', type: Number }) hideAfter: number | undefined;

  /** Hide as soon as the page is hidden (tab switched, window minimised). */
  @property({ attribute: 'hide-on-page-hide', type: Boolean }) hideOnPageHide = false;

  /**
   * Ask for a fresh proof of a live wallet session before each reveal (the proxy's step-up,
   * src/proxy/step-up.ts). Needs `account-id` and a stored session of that account.
   */
  @property({ attribute: 'require-session', type: Boolean }) requireSession = false;

  /** The wallet account whose session proves the step-up (with `require-session`). */
  @property({ attribute: 'account-id' }) accountId: string | undefined;

  /**
   * Origins whose non-https reveal URLs may be rendered (the sandbox's processor page on loopback).
   * Attribute: space- or comma-separated origins.
   */
  @property({
    attribute: 'allowed-origins',
    converter: { fromAttribute: (v: string | null) => parseAllowedOrigins(v), toAttribute: (v: string[]) => v.join(' ') },
  })
  allowedOrigins: string[] = [];

  @state() private view: CardRevealState = initialState;

  private readonly i18n = new LocaleController(this);
  private readonly internals: ElementInternals | undefined;
  /** The live iframe while revealed; its `src` is the only place the URL exists. */
  private frame: HTMLIFrameElement | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private focusAfterUpdate: 'reveal' | 'hide' | 'retry' | undefined;
  /** The service's status of the last failure, for the error event (never its message). */
  private failedStatus: number | undefined;

  /**
   * The reveal request. Its value is `{ expiresAt }` only: the task function attaches the iframe
   * itself, so the answer holding the URL is a local variable that dies with the call.
   */
  private readonly reveal = new Task(this, {
    autoRun: false,
    args: () => [this.cardId] as const,
    task: async ([cardId], { signal }) => {
      if (this.requireSession) {
        // The step-up needs the session flows (keys, stamps); a page that never asks for it never loads them.
        const { proveSession } = await import('./step-up-proof.ts');
        await proveSession({ apiBase: this.apiBase, accountId: this.accountId, signal });
      }
      const answer = await revealCard(sendFor(this.apiBase), cardId, { signal });
      const verdict = checkRevealUrl(answer, this.allowedOrigins, Date.now());
      if (!verdict.ok) throw new RevealRefused(verdict.code);
      signal.throwIfAborted();
      this.mountFrame(answer.panEmbedUrl);
      return { expiresAt: verdict.expiresAt! };
    },
    onComplete: ({ expiresAt }) => {
      const hideAfterMs = this.hideAfter && this.hideAfter > 0 ? this.hideAfter * 1000 : undefined;
      this.send({ type: 'revealed', expiresAt, now: Date.now(), ...(hideAfterMs ? { hideAfterMs } : {}) });
    },
    onError: (error) => {
      const status = (error as { status?: unknown } | undefined)?.status;
      this.failedStatus = typeof status === 'number' ? status : undefined;
      this.send({ type: 'failed', code: error instanceof RevealRefused ? error.code : errorCodeOf(error) });
    },
  });

  constructor() {
    super();
    // Custom states need ElementInternals; a server-side shim may not have it.
    this.internals = typeof this.attachInternals === 'function' ? this.attachInternals() : undefined;
  }

  /** Requests a fresh URL and shows the card details. */
  show(): void {
    if (!this.cardId) return;
    const before = this.view;
    this.send({ type: 'reveal' });
    if (this.view !== before) void this.reveal.run();
  }

  /** Removes the card details (reason `user`). */
  hide(): void {
    this.send({ type: 'hide', reason: 'user' });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('visibilitychange', this.onVisibility);
    window.addEventListener('pagehide', this.onPageHide);
    this.syncStates();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.onVisibility);
    window.removeEventListener('pagehide', this.onPageHide);
    this.send({ type: 'hide', reason: 'disconnected' });
    // Whatever the state, nothing outlives the connection.
    this.unmountFrame();
    this.stopTimers();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('cardId') && changed.get('cardId') !== undefined) this.send({ type: 'hide', reason: 'card-changed' });
  }

  private readonly onVisibility = (): void => {
    if (this.hideOnPageHide && document.visibilityState === 'hidden') this.send({ type: 'hide', reason: 'page-hidden' });
  };

  private readonly onPageHide = (): void => {
    // Leaving the page (or entering the back/forward cache) always removes the details.
    this.send({ type: 'hide', reason: 'page-hidden' });
  };

  /** Runs one machine step and performs what the change implies (frame, timers, events, focus). */
  private send(event: CardRevealEvent): void {
    const previous = this.view;
    const next = transition(previous, event);
    if (next === previous) return;
    this.view = next;
    // Focus follows the flow only when the user was already working inside this element.
    const focusWithin = this.matches(':focus-within');

    if (previous.kind === 'loading' && next.kind !== 'revealed' && next.kind !== 'loading') {
      // Hidden or failed while the request was in flight: drop its result.
      this.reveal.abort();
      this.unmountFrame();
    }
    if (previous.kind === 'revealed' && next.kind !== 'revealed') {
      this.unmountFrame();
      this.stopTimers();
      const reason: HideReason = hideReasonOf(next) ?? 'user';
      this.dispatchEvent(new CardHiddenEvent(reason));
      if (focusWithin) this.focusAfterUpdate = 'reveal';
    }
    if (next.kind === 'revealed' && previous.kind !== 'revealed') {
      this.startTimers(next.hideAt);
      this.dispatchEvent(new CardRevealedEvent({ cardId: this.cardId, expiresAt: new Date(next.expiresAt).toISOString() }));
      if (focusWithin) this.focusAfterUpdate = 'hide';
    }
    if (next.kind === 'error') {
      this.unmountFrame();
      const message = this.i18n.t(`card-reveal.error.${next.code}`);
      const status = event.type === 'failed' ? this.failedStatus : undefined;
      this.dispatchEvent(new CardRevealErrorEvent({ code: next.code, message, ...(status ? { status } : {}) }));
      if (focusWithin) this.focusAfterUpdate = next.retryable ? 'retry' : 'reveal';
    }
    this.syncStates();
  }

  private syncStates(): void {
    const states = this.internals?.states;
    if (!states) return;
    for (const name of CUSTOM_STATES) {
      if (name === this.view.kind) states.add(name);
      else states.delete(name);
    }
  }

  private mountFrame(url: string): void {
    this.unmountFrame();
    const container = this.renderRoot.querySelector('.frame');
    if (!container) throw new RevealRefused('unexpected');
    const frame = document.createElement('iframe');
    // DESIGN.md "Security rules": exactly these attributes, and a title for assistive technology.
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
    frame.setAttribute('allow', 'clipboard-write');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.setAttribute('loading', 'eager');
    frame.title = this.i18n.t('card-reveal.frame-title');
    frame.addEventListener('load', forgetResourceTimings);
    frame.src = url;
    container.append(frame);
    this.frame = frame;
  }

  private unmountFrame(): void {
    const frame = this.frame;
    this.frame = undefined;
    if (!frame) return;
    // Drop the URL from the element before removing it, so that no detached node keeps it.
    frame.removeEventListener('load', forgetResourceTimings);
    frame.removeAttribute('src');
    frame.remove();
    forgetResourceTimings();
  }

  private startTimers(hideAt: number): void {
    this.stopTimers();
    this.ticker = setInterval(() => this.send({ type: 'tick', now: Date.now() }), 1000);
    // The exact deadline, independent of the one-second countdown.
    this.deadline = setTimeout(() => this.send({ type: 'tick', now: Math.max(Date.now(), hideAt) }), Math.max(0, hideAt - Date.now()));
  }

  private stopTimers(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    if (this.deadline !== undefined) clearTimeout(this.deadline);
    this.ticker = undefined;
    this.deadline = undefined;
  }

  protected override updated(): void {
    const target = this.focusAfterUpdate;
    this.focusAfterUpdate = undefined;
    if (!target) return;
    this.renderRoot.querySelector<HTMLButtonElement>(`[data-focus="${target}"]`)?.focus();
  }

  private formatTime(seconds: number): string {
    const locale = this.i18n.locale;
    const nf = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false });
    const m = new Intl.NumberFormat(locale, { useGrouping: false }).format(Math.floor(seconds / 60));
    return `${m}:${nf.format(seconds % 60)}`;
  }

  override render() {
    const t = this.i18n.t;
    const view = this.view;
    return html`
      <section part="base" class="base panel" aria-label=${t('card-reveal.label')} aria-busy=${view.kind === 'loading' ? 'true' : 'false'}>
        <div part="card" class="card">
          <div part="face" class="face" aria-hidden="true">
            <slot name="face">
              <div class="chip"></div>
              <div class="field">
                <span class="field-label">${t('card-reveal.placeholder-number')}</span>
                <span class="number">•••• •••• •••• ••••</span>
              </div>
              <div class="row">
                <div class="field">
                  <span class="field-label">${t('card-reveal.placeholder-expiry')}</span>
                  <span class="mask">••/••</span>
                </div>
                <div class="field">
                  <span class="field-label">${t('card-reveal.placeholder-cvv')}</span>
                  <span class="mask">•••</span>
                </div>
              </div>
            </slot>
          </div>
          <div part="frame" class="frame"></div>
        </div>
        <div part="controls" class="controls">${this.renderControls()}</div>
        <p part="message" class="message" role="status">${this.renderMessage()}</p>
        <div part="error" class="alert error" role="alert">${this.renderError()}</div>
      </section>
    `;
  }

  private renderControls() {
    const t = this.i18n.t;
    const view = this.view;
    if (!this.cardId) return html`<span>${t('card-reveal.no-card')}</span>`;
    switch (view.kind) {
      case 'loading':
        // aria-disabled rather than disabled: the same button keeps the keyboard focus while loading.
        return this.revealButton('card-reveal.loading', true);
      case 'revealed':
        return html`
          <span part="countdown" class="countdown" role="timer" aria-label=${t('card-reveal.countdown-label')}
            >${t('card-reveal.countdown', { time: this.formatTime(secondsLeft(view)) })}</span
          >
          <button part="hide-button" type="button" data-focus="hide" @click=${this.hide}>${t('card-reveal.hide')}</button>
        `;
      case 'error':
        return view.retryable ? nothing : this.revealButton('card-reveal.show');
      case 'expired':
        return this.revealButton('card-reveal.show-again');
      case 'idle':
        return this.revealButton(view.lastHidden ? 'card-reveal.show-again' : 'card-reveal.show');
    }
  }

  /** One template for every state that offers the button, so that the focused node survives. */
  private revealButton(label: string, busy = false) {
    return html`<button
      part="reveal-button"
      class="primary"
      type="button"
      data-focus="reveal"
      aria-disabled=${busy ? 'true' : 'false'}
      @click=${this.show}
    >
      ${this.i18n.t(label)}
    </button>`;
  }

  private renderMessage() {
    const view = this.view;
    if (view.kind === 'expired') return this.i18n.t('card-reveal.expired');
    if (view.kind === 'idle' && view.lastHidden) return this.i18n.t(`card-reveal.hidden.${view.lastHidden}`);
    if (view.kind === 'revealed') return this.i18n.t('card-reveal.revealed');
    return nothing;
  }

  private renderError() {
    const view = this.view;
    if (view.kind !== 'error') return nothing;
    return html`
      <p>${this.i18n.t(`card-reveal.error.${view.code}`)}</p>
      ${view.retryable
        ? html`<button part="retry-button" type="button" data-focus="retry" @click=${this.show}>${this.i18n.t('card-reveal.retry')}</button>`
        : nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'card-reveal': CardReveal;
  }
}
