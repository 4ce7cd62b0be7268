/**
 * The events <card-reveal> dispatches, as small classes (bubbling, composed; src/elements/shared/events.ts).
 * No detail ever carries the reveal URL: `card-revealed` says which card and until when, nothing more
 * (DESIGN.md "Security rules / The reveal URL": never written to events).
 */
import { WalletEvent, type ErrorDetail } from '../shared/events.ts';
import type { HideReason, RevealErrorCode } from './card-reveal.machine.ts';

export interface CardRevealedDetail {
  cardId: string;
  /** ISO 8601: when the processor's view stops loading and the element hides it. */
  expiresAt: string;
}

/** The card details are on screen. */
export class CardRevealedEvent extends WalletEvent<CardRevealedDetail> {
  constructor(detail: CardRevealedDetail) {
    super('card-revealed', detail);
  }
}

/** The card details left the screen; the iframe was removed. */
export class CardHiddenEvent extends WalletEvent<{ reason: HideReason }> {
  constructor(reason: HideReason) {
    super('card-hidden', { reason });
  }
}

export interface CardRevealErrorDetail extends ErrorDetail {
  code: RevealErrorCode;
}

/** The reveal failed or was refused; `message` is the sentence the element shows. */
export class CardRevealErrorEvent extends WalletEvent<CardRevealErrorDetail> {
  constructor(detail: CardRevealErrorDetail) {
    super('card-reveal-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'card-revealed': CardRevealedEvent;
    'card-hidden': CardHiddenEvent;
    'card-reveal-error': CardRevealErrorEvent;
  }
}
