/**
 * Strings every wallet element shares: the sentences of the failures an element can show before its
 * on-demand code is loaded (the others: error-strings.ts, registered with that code) and the names
 * of the credential types, in English; translations are modules of src/locales/ (Arabic, right to
 * left, in src/locales/ar.ts).
 * Registered as defaults at import, so an integrator's `setStrings()` always wins.
 *
 * Sentences say what to do next (STYLE.md 6); none repeats a raw code, status or value.
 */
import { registerDefaultStrings, type Strings } from './i18n.ts';
import type { Failure } from './failures.ts';
import type { SharedErrorStringKey } from './error-strings.ts';

export const sharedStrings = {
  en: {
    'error.code_short': 'Enter every digit of the code.',
    'error.network': 'The wallet service could not be reached. Check your connection and try again.',
    'error.load_failed': 'Part of this page couldn’t load. Check your connection, then reload the page.',
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
export type SharedStringKey = Exclude<keyof typeof sharedStrings.en, `${string}_${Intl.LDMLPluralRule}`> | SharedErrorStringKey;

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
