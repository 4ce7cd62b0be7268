/**
 * The strings `<wallet-login>` can show before its on-demand code is loaded, in English
 * (translations: src/locales/): its first screen, the methods, and the first step of a way chosen
 * while that code loads. The others, which only that code can show, are registered by it
 * (wallet-login.view-strings.ts). Keys are stable API: replace any of them with
 * `setStrings(locale, {...})` from the package entry. `{name}` marks a placeholder.
 */
import { registerDefaultStrings, type Strings } from '../shared/i18n.ts';
import type { WalletLoginViewStringKey } from './wallet-login.view-strings.ts';

export const walletLoginStrings = {
  en: {
    'login.heading': 'Log in to your wallet',
    'login.intro': 'Choose how you want to log in.',
    'login.methods': 'Ways to log in',
    'login.method.email-otp': 'Email me a code',
    'login.method.sms-otp': 'Text me a code',
    'login.method.passkey': 'Use a passkey',
    'login.method.oauth': 'Continue with single sign-on',
    'login.restoring': 'Checking for your session…',
    'login.sending': 'Sending your code…',
    'login.code.heading.email-otp': 'Check your email',
    'login.code.heading.sms-otp': 'Check your phone',
    'login.passkey.waiting': 'Follow your browser’s prompt to use your passkey.',
    'login.oauth.waiting': 'Waiting for your identity provider…',
  },
} satisfies Record<'en', Strings>;

registerDefaultStrings(walletLoginStrings);

/** The keys of every string of the element, these and the view's (a translation, src/locales/, covers every one). */
export type WalletLoginStringKey = keyof typeof walletLoginStrings.en | WalletLoginViewStringKey;
