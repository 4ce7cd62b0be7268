/**
 * Strings every wallet element shares: the sentence of each failure code (failures.ts) and the
 * names of the credential types, in English; translations are modules of src/locales/ (Arabic,
 * right to left, in src/locales/ar.ts).
 * Registered as defaults at import, so an integrator's `setStrings()` always wins.
 *
 * Sentences say what to do next (STYLE.md 6); none repeats a raw code, status or value.
 */
import { registerDefaultStrings, type Strings } from './i18n.ts';
import type { Failure } from './failures.ts';

export const sharedStrings = {
  en: {
    'error.wrong_code': 'That code didn’t work. Check it and try again; if it has expired, send a new code.',
    'error.code_expired': 'This code can’t be used any more. Send a new code and enter that one.',
    'error.code_short': 'Enter every digit of the code.',
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
    'error.network': 'The wallet service could not be reached. Check your connection and try again.',
    'error.load_failed': 'Part of this page couldn’t load. Check your connection, then reload the page.',
    'error.misconfigured': 'This page is not set up to reach the wallet service. Contact the site’s support.',
    'error.unexpected': 'Something went wrong. Try again in a moment.',
    'credential.EMAIL_OTP': 'Email code',
    'credential.SMS_OTP': 'Text message code',
    'credential.PASSKEY': 'Passkey',
    'credential.OAUTH': 'Single sign-on',
    'common.cancel': 'Cancel',
    'common.missing-account': 'This element needs an account id (the account-id attribute).',
    'common.bad-id': 'The {attribute} attribute of this element is not a valid id.',
  },
} satisfies Record<'en', Strings>;

registerDefaultStrings(sharedStrings);

/** The keys of these strings (a translation, src/locales/, covers every one; their plural forms as its language needs). */
export type SharedStringKey = Exclude<keyof typeof sharedStrings.en, `${string}_${Intl.LDMLPluralRule}`>;

/**
 * A failure as the helpers below read it: a shared one, or one of an element's own codes (a step of
 * its own that can end halfway), whose sentence the element registers as `error.<code>`.
 */
export type AnyFailure = Omit<Failure, 'code'> & { code: string };

/** A failure about the code typed (wrong, short of digits, or no longer usable): the field is cleared and the failure said with it. */
export function isCodeProblem(failure: AnyFailure | undefined): boolean {
  return failure?.code === 'wrong_code' || failure?.code === 'code_expired' || failure?.code === 'code_short';
}

/**
 * The sentence for a failure (`error.<code>`), with the Retry-After wait when the service sent one.
 * Only the failure's type comes from failures.ts, so an element can show sentences up front and
 * load the classification with the work that fails.
 */
export function failureMessage(t: (key: string, params?: Record<string, string | number>) => string, failure: AnyFailure): string {
  return failure.code === 'rate_limited' && failure.retryAfter !== undefined
    ? t('error.rate_limited_wait', { seconds: failure.retryAfter })
    : t(`error.${failure.code}`);
}
