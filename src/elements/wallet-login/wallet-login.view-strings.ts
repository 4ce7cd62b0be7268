/**
 * The strings of `<wallet-login>` that only its code loaded on demand can show, in English
 * (translations: src/locales/): the code screen, the check of a code, the session, the notices,
 * and the failures only its flows end in. Registered by wallet-login.view.ts, which imports this
 * module, so that a page does not download them up front; the view is loaded before any of them
 * can show. Those shown before it loads are in wallet-login.strings.ts. Replaceable like those,
 * with `setStrings` at any time: a default never overrides what is set.
 */
import { registerDefaultStrings, type Strings } from '../shared/i18n.ts';

export const walletLoginViewStrings = {
  en: {
    'login.autofill.label': 'Saved passkey',
    'login.autofill.hint': 'Your browser can suggest a saved passkey here.',
    'login.reauth.expired': 'Your session has ended. Log in again with your {method}.',
    'login.reauth.revoked': 'Your session was ended from another device. Log in again with your {method}.',
    'login.reauth.key-missing': 'This browser no longer holds your session key. Log in again with your {method} to get back in.',
    'login.reauth.other': 'Use another way to log in',
    'login.code.sent.email-otp': 'We sent a {length}-digit code to the email address of your wallet.',
    'login.code.sent.sms-otp': 'We sent a {length}-digit code by text message to the phone of your wallet.',
    'login.code.label': 'Code',
    'login.code.submit': 'Log in',
    'login.code.verifying': 'Checking your code…',
    'login.code.resend': 'Send a new code',
    'login.code.resend-wait': 'Send a new code in {seconds} s',
    'login.code.back': 'Use another way',
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

registerDefaultStrings(walletLoginViewStrings);

/** The keys of these strings (a translation, src/locales/, covers every one). */
export type WalletLoginViewStringKey = keyof typeof walletLoginViewStrings.en;
