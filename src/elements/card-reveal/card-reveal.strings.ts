/**
 * The words of <card-reveal>, in English (translations: src/locales/). Every key can be replaced
 * with `setStrings(locale, { 'card-reveal.show': '...' })` (src/elements/shared/i18n.ts).
 * Error sentences say what happened and what to do next, in the cardholder's terms; none of them
 * ever includes the reveal URL or a raw service message.
 */
import { registerDefaultStrings } from '../shared/i18n.ts';
import type { RevealErrorCode, IdleReason } from './card-reveal.machine.ts';

type ErrorKeys = `card-reveal.error.${RevealErrorCode}`;
/** The message after hiding; at expiry `card-reveal.expired` says it instead. */
type HiddenKeys = `card-reveal.hidden.${IdleReason}`;
type Keys =
  | 'card-reveal.label'
  | 'card-reveal.show'
  | 'card-reveal.show-again'
  | 'card-reveal.loading'
  | 'card-reveal.hide'
  | 'card-reveal.retry'
  | 'card-reveal.countdown'
  | 'card-reveal.countdown-label'
  | 'card-reveal.frame-title'
  | 'card-reveal.placeholder-number'
  | 'card-reveal.placeholder-expiry'
  | 'card-reveal.placeholder-cvv'
  | 'card-reveal.expired'
  | 'card-reveal.revealed'
  | 'card-reveal.no-card'
  | 'card-reveal.bad-id'
  | ErrorKeys
  | HiddenKeys;

const en: Record<Keys, string> = {
  'card-reveal.label': 'Card details',
  'card-reveal.show': 'Show card details',
  'card-reveal.show-again': 'Show again',
  'card-reveal.loading': 'Loading card details…',
  'card-reveal.hide': 'Hide',
  'card-reveal.retry': 'Try again',
  'card-reveal.countdown': 'Hides in {time}',
  'card-reveal.countdown-label': 'Time left before hiding',
  'card-reveal.frame-title': 'Card number, expiry date and security code',
  'card-reveal.placeholder-number': 'Card number',
  'card-reveal.placeholder-expiry': 'Expires',
  'card-reveal.placeholder-cvv': 'CVV',
  'card-reveal.expired': 'Card details hidden: the secure view expired.',
  'card-reveal.revealed': 'Card details shown. They hide automatically.',
  'card-reveal.no-card': 'No card is selected.',
  'card-reveal.bad-id': 'The {attribute} attribute of this element is not a valid id.',
  'card-reveal.hidden.user': 'Card details hidden.',
  'card-reveal.hidden.timeout': 'Card details hidden after the time limit.',
  'card-reveal.hidden.page-hidden': 'Card details hidden while you were away.',
  'card-reveal.hidden.disconnected': 'Card details hidden.',
  'card-reveal.hidden.card-changed': 'Card details hidden: another card was selected.',
  'card-reveal.hidden.logged-out': 'Card details hidden: you logged out.',
  'card-reveal.hidden.account-changed': 'Card details hidden: another wallet was selected.',
  'card-reveal.error.unauthorized': 'A setup problem on our side stops card details from showing. Contact support.',
  'card-reveal.error.forbidden': 'These card details can’t be shown to this account.',
  'card-reveal.error.session_required': 'Log in to your wallet first, then try again.',
  'card-reveal.error.not_found': 'We couldn’t find this card. It may have been replaced or closed.',
  'card-reveal.error.not_available': 'Card details aren’t available in this environment.',
  'card-reveal.error.rate_limited': 'Too many requests. Wait a moment, then try again.',
  'card-reveal.error.server': 'Something went wrong on our side. Try again soon.',
  'card-reveal.error.network': 'We couldn’t reach the server. Check your connection and try again.',
  'card-reveal.error.expired_url': 'The secure view expired before it opened. Try again.',
  'card-reveal.error.insecure_url': 'Card details not shown: the secure view didn’t come from a trusted address.',
  'card-reveal.error.unexpected': 'Something unexpected happened. Try again.',
  'card-reveal.error.misconfigured': 'A setup problem on our side stops card details from showing. Contact support.',
  'card-reveal.error.frame_blocked': 'Card details not shown: this page doesn’t allow the secure view.',
  'card-reveal.error.load_failed': 'Card details couldn’t load. Check your connection, then reload the page.',
};

registerDefaultStrings({ en });

export const cardRevealStrings = { en } as const;

/** The keys of these strings (a translation, src/locales/, covers every one). */
export type { Keys as CardRevealStringKey };
