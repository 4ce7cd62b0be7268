/**
 * The sentences of the failures (`error.<code>`) that only an element's work loaded on demand can
 * end in, in English: registered by failures.ts, which classifies them and which every element
 * loads with that work, so that a page does not download them up front. Each is registered before
 * the failure it says can happen. Those an element can show before that work is loaded (`network`
 * while offline, `load_failed`, and `code_short`, the code field's own check) are with the other
 * shared strings (strings.ts).
 * Replaceable like those, with `setStrings` at any time: a default never overrides what is set.
 *
 * Sentences say what to do next (STYLE.md 6); none repeats a raw code, status or value.
 */
import { registerDefaultStrings, type Strings } from './i18n.ts';

export const sharedErrorStrings = {
  en: {
    'error.wrong_code': 'That code didn’t work. Check it and try again; if it has expired, send a new code.',
    'error.code_expired': 'This code can’t be used any more. Send a new code and enter that one.',
    'error.rate_limited': 'Too many attempts. Wait a moment, then try again.',
    'error.rate_limited_wait': 'Too many attempts. Wait {seconds} seconds, then try again.',
    'error.rate_limited_wait_one': 'Too many attempts. Wait {seconds} second, then try again.',
    'error.wait': 'You can try again in {seconds} s.',
    'error.cancelled': 'The request was cancelled. You can try again.',
    'error.passkey_unsupported': 'This browser cannot use passkeys here. Use another way, or another browser.',
    'error.passkey_exists': 'This device already holds a passkey for this wallet. Use it to log in.',
    'error.passkey_rejected': 'That passkey was not accepted. Try again, or use another way to log in.',
    'error.no_credential': 'This wallet has no login of that kind yet. Choose another way.',
    'error.oauth_unavailable': 'Signing in with your identity provider is not available right now. Try another way.',
    'error.oauth_rejected': 'Your identity provider’s sign-in was not accepted. Try again.',
    'error.login_required': 'Log in to your wallet first, then try again.',
    'error.session_expired': 'Your session has ended. Log in again to continue.',
    'error.key_missing': 'This browser no longer holds your session key. Log in again to continue.',
    'error.storage_unavailable': 'This browser can’t keep you logged in here: it blocks this site’s storage (a private window, or site data turned off). Allow site data, or use another browser.',
    'error.signature_rejected': 'The wallet could not confirm this change. Log in again, then retry.',
    'error.last_credential': 'This is your only way to log in, so it cannot be removed. Add another one first.',
    'error.credential_exists': 'This wallet already has a login of that kind.',
    'error.invalid_input': 'Some details were not accepted. Check them and try again.',
    'error.forbidden': 'This action is not allowed here.',
    'error.misconfigured': 'This page is not set up to reach the wallet service. Contact the site’s support.',
    'error.unexpected': 'Something went wrong. Try again in a moment.',
  },
} satisfies Record<'en', Strings>;

registerDefaultStrings(sharedErrorStrings);

/** The keys of these strings (a translation, src/locales/, covers every one; their plural forms as its language needs). */
export type SharedErrorStringKey = Exclude<keyof typeof sharedErrorStrings.en, `${string}_${Intl.LDMLPluralRule}`>;
