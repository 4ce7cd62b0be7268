/**
 * Every visible string of `<wallet-login>`, in English (translations: src/locales/). Keys are
 * stable API: replace any of them with `setStrings(locale, {...})` from the package entry.
 * `{name}` marks a placeholder.
 */
import { registerDefaultStrings, type Strings } from '../shared/i18n.ts';

export const walletLoginStrings = {
  en: {
    'login.heading': 'Log in to your wallet',
    'login.intro': 'Choose how you want to log in.',
    'login.methods': 'Ways to log in',
    'login.method.email-otp': 'Email me a code',
    'login.method.sms-otp': 'Text me a code',
    'login.method.passkey': 'Use a passkey',
    'login.method.oauth': 'Continue with single sign-on',
    'login.autofill.label': 'Saved passkey',
    'login.autofill.hint': 'Your browser can suggest a saved passkey here.',
    'login.reauth.expired': 'Your session has ended. Log in again with your {method}.',
    'login.reauth.revoked': 'Your session was ended from another device. Log in again with your {method}.',
    'login.reauth.key-missing': 'This browser no longer holds your session key. Log in again with your {method} to get back in.',
    'login.reauth.other': 'Use another way to log in',
    'login.restoring': 'Checking for your session…',
    'login.sending': 'Sending your code…',
    'login.code.heading.email-otp': 'Check your email',
    'login.code.heading.sms-otp': 'Check your phone',
    'login.code.sent.email-otp': 'We sent a {length}-digit code to the email address of your wallet.',
    'login.code.sent.sms-otp': 'We sent a {length}-digit code by text message to the phone of your wallet.',
    'login.code.label': 'Code',
    'login.code.submit': 'Log in',
    'login.code.verifying': 'Checking your code…',
    'login.code.resend': 'Send a new code',
    'login.code.resend-wait': 'Send a new code in {seconds} s',
    'login.code.back': 'Use another way',
    'login.passkey.waiting': 'Follow your browser’s prompt to use your passkey.',
    'login.oauth.waiting': 'Waiting for your identity provider…',
    'login.session.heading': 'You’re logged in',
    'login.session.detail': 'Logged in with {method}. Your session lasts until {time}.',
    'login.session.expiring': 'Your session ends soon.',
    'login.session.stay': 'Stay logged in',
    'login.session.logout': 'Log out',
    'login.session.refreshing': 'Renewing your session…',
    'login.session.logging-out': 'Logging out…',
    'login.notice.code-sent': 'Code sent.',
    'login.notice.logged-in': 'You’re logged in.',
    'login.notice.logged-out': 'You’re logged out.',
    'login.notice.logged-out-here': 'You’re logged out on this device. The service could not be told, so the session ends by itself when it expires.',
    'login.notice.refreshed': 'Your session was renewed.',
    // This element's own failures (wallet-login.machine.ts LoginFailure), said with the shared ones.
    'error.code_sent_recently': 'A code was sent to you a moment ago, so a new one cannot be sent yet.',
    'error.passkey_other_wallet': 'That passkey belongs to another wallet. Choose a passkey of this wallet, or use another way to log in.',
  },
} satisfies Record<'en', Strings>;

registerDefaultStrings(walletLoginStrings);

/** The keys of these strings (a translation, src/locales/, covers every one). */
export type WalletLoginStringKey = keyof typeof walletLoginStrings.en;
