/**
 * The words of <card-reveal>, in English (translations: src/locales/). Every key can be replaced
 * with `setStrings(locale, { 'card-reveal.show': '...' })` (src/elements/shared/i18n.ts).
 * Error sentences say what happened and what to do next, in the cardholder's terms; none of them
 * ever includes the reveal URL or a raw service message.
 */
import { registerDefaultStrings } from '../shared/i18n.ts';
import type { IdleReason } from './card-reveal.machine.ts';
import type { CardRevealErrorStringKey } from './card-reveal.error-strings.ts';

/** The errors that can come before the on-demand modules are loaded (the others: card-reveal.error-strings.ts). */
type ErrorKeys = 'card-reveal.error.network' | 'card-reveal.error.load_failed';
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
  'card-reveal.error.network': 'We couldn’t reach the server. Check your connection and try again.',
  'card-reveal.error.load_failed': 'Card details couldn’t load. Check your connection, then reload the page.',
};

registerDefaultStrings({ en });

export const cardRevealStrings = { en } as const;

/** The keys of the element's strings, these and its on-demand error sentences (a translation, src/locales/, covers every one). */
export type CardRevealStringKey = Keys | CardRevealErrorStringKey;
