/**
 * The error sentences of <card-reveal> (in English) that only a reveal request or a session proof
 * can end in: registered by the modules that make those (reveal-request.ts, step-up-proof.ts), which
 * the element loads on demand, so that a page does not download them up front. Each is registered
 * before the error it says can happen. The two errors that can come before either module is loaded
 * (`network` while offline, `load_failed`) are with the element's other strings (card-reveal.strings.ts).
 * Replaceable like those, with `setStrings` at any time: a default never overrides what is set.
 */
import { registerDefaultStrings } from '../shared/i18n.ts';
import type { RevealErrorCode } from './card-reveal.machine.ts';

type Keys = `card-reveal.error.${Exclude<RevealErrorCode, 'network' | 'load_failed'>}`;

const en: Record<Keys, string> = {
  'card-reveal.error.unauthorized': 'A setup problem on our side stops card details from showing. Contact support.',
  'card-reveal.error.forbidden': 'These card details can’t be shown to this account.',
  'card-reveal.error.session_required': 'Log in to your wallet first, then try again.',
  'card-reveal.error.not_found': 'We couldn’t find this card. It may have been replaced or closed.',
  'card-reveal.error.not_available': 'Card details aren’t available in this environment.',
  'card-reveal.error.rate_limited': 'Too many requests. Wait a moment, then try again.',
  'card-reveal.error.server': 'Something went wrong on our side. Try again soon.',
  'card-reveal.error.expired_url': 'The secure view expired before it opened. Try again.',
  'card-reveal.error.insecure_url': 'Card details not shown: the secure view didn’t come from a trusted address.',
  'card-reveal.error.unexpected': 'Something unexpected happened. Try again.',
  'card-reveal.error.misconfigured': 'A setup problem on our side stops card details from showing. Contact support.',
  'card-reveal.error.frame_blocked': 'Card details not shown: this page doesn’t allow the secure view.',
};

registerDefaultStrings({ en });

export const cardRevealErrorStrings = { en } as const;

export type { Keys as CardRevealErrorStringKey };
