/**
 * The words of <card-reveal>, in English (translations: src/locales/). Every key can be replaced
 * with `setStrings(locale, { 'card-reveal.show': '...' })` (src/elements/shared/i18n.ts).
 * Error sentences say what happened and what to do next, in the cardholder's terms; none of them
 * ever includes the reveal URL or a raw service message.
 */
import { registerDefaultStrings } from '../shared/i18n.ts';
import type { RevealErrorCode, HideReason } from './card-reveal.machine.ts';

type ErrorKeys = `card-reveal.error.${RevealErrorCode}`;
type HiddenKeys = `card-reveal.hidden.${HideReason}`;
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
  'card-reveal.countdown-label': 'Time left before the card details are hidden',
  'card-reveal.frame-title': 'Your card number, expiry date and security code',
  'card-reveal.placeholder-number': 'Card number',
  'card-reveal.placeholder-expiry': 'Expires',
  'card-reveal.placeholder-cvv': 'CVV',
  'card-reveal.expired': 'The card details were hidden because the secure view expired. Show them again if you still need them.',
  'card-reveal.revealed': 'Card details shown. They hide automatically.',
  'card-reveal.no-card': 'No card is selected.',
  'card-reveal.hidden.user': 'Card details hidden.',
  'card-reveal.hidden.expired': 'Card details hidden: the secure view expired.',
  'card-reveal.hidden.timeout': 'Card details hidden after the time limit.',
  'card-reveal.hidden.page-hidden': 'Card details hidden while you were away from this page.',
  'card-reveal.hidden.disconnected': 'Card details hidden.',
  'card-reveal.hidden.card-changed': 'Card details hidden because another card was selected.',
  'card-reveal.error.unauthorized': 'Card details can’t be shown right now because of a setup problem on our side. Please contact support.',
  'card-reveal.error.forbidden': 'These card details can’t be shown in this session. Sign in to your own account to see them.',
  'card-reveal.error.session_required': 'For your security, confirm it’s you: sign in to your wallet again, then try again.',
  'card-reveal.error.not_found': 'We couldn’t find this card. It may have been replaced or closed.',
  'card-reveal.error.not_available': 'Card details aren’t available in this environment.',
  'card-reveal.error.rate_limited': 'Too many requests. Wait a moment, then try again.',
  'card-reveal.error.server': 'Something went wrong on our side. Try again in a moment.',
  'card-reveal.error.network': 'We couldn’t reach the server. Check your connection and try again.',
  'card-reveal.error.expired_url': 'The secure view expired before it could open. Try again.',
  'card-reveal.error.insecure_url': 'The card details were not shown because the secure view didn’t come from a trusted address.',
  'card-reveal.error.unexpected': 'Something unexpected happened while loading the card details. Try again.',
};

registerDefaultStrings({ en });

export const cardRevealStrings = { en } as const;

/** The keys of these strings (a translation, src/locales/, covers every one). */
export type { Keys as CardRevealStringKey };
