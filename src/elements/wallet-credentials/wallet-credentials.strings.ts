/**
 * Every visible string of `<wallet-credentials>`, in English (translations: src/locales/);
 * replace any with `setStrings(locale, {...})`. `{name}` marks a placeholder.
 */
import { registerDefaultStrings, type Strings } from '../shared/i18n.ts';

export const walletCredentialsStrings = {
  en: {
    'credentials.heading': 'Ways to log in',
    'credentials.loading': 'Loading your logins…',
    'credentials.load-failed': 'Your logins could not be loaded.',
    'credentials.reload': 'Try again',
    'credentials.this-device': 'This device',
    'credentials.remove': 'Remove',
    'credentials.remove-label': 'Remove {name}',
    'credentials.block.last': 'This is your only way to log in, so it cannot be removed. Add another one first.',
    'credentials.block.current': 'You are logged in with this one here. Log in another way to remove it.',
    'credentials.block.login': 'Log in to make changes.',
    'credentials.add.heading': 'Add a way to log in',
    'credentials.add.SMS_OTP': 'Add text message codes',
    'credentials.add.OAUTH': 'Add single sign-on',
    'credentials.add.SMS_OTP.exists': 'This wallet already receives codes by text message.',
    'credentials.add.OAUTH.missing': 'Single sign-on is not set up on this page.',
    'credentials.code.label': 'Code sent by text message',
    'credentials.code.help': 'Enter the code to finish adding text message codes.',
    'credentials.code.submit': 'Confirm',
    'credentials.code.resend': 'Send a new code',
    'credentials.sessions.heading': 'Active sessions',
    'credentials.sessions.none': 'No active sessions.',
    'credentials.sessions.until': 'until {time}',
    'credentials.sessions.end': 'End session',
    'credentials.sessions.end-label': 'End session: {name}, {until}',
    'credentials.sessions.logout': 'Log out here',
    'credentials.email.heading': 'Email address',
    'credentials.email.label': 'New email address',
    'credentials.email.submit': 'Save email',
    'credentials.email.help': 'Login codes will be sent to the new address. Check it before saving.',
    'credentials.email.invalid': 'Enter an email address such as name@example.com.',
    'credentials.confirm.credential': 'Remove “{name}”? You will no longer be able to log in with it, and its sessions end.',
    'credentials.confirm.session': 'End this session? The device that holds it will be logged out.',
    'credentials.confirm.own-session': 'Log out on this device?',
    'credentials.confirm.other-session': 'End this session? This device stays logged in with its other session.',
    'credentials.confirm.yes': 'Yes, continue',
    'credentials.notice.added': '{type} added.',
    'credentials.notice.activation-sent': 'A code is on its way by text message.',
    'credentials.notice.activated': '{type} is ready to use.',
    'credentials.notice.code-sent': 'A new code is on its way.',
    'credentials.notice.credential-revoked': 'Removed.',
    'credentials.notice.session-revoked': 'Session ended.',
    'credentials.notice.own-session-revoked': 'You are logged out on this device.',
    'credentials.notice.email-updated': 'Email address saved.',
    // This element's own failure (wallet-credentials.machine.ts CredentialsFailure), said with the shared ones.
    'error.logout_incomplete': 'The service could not end every session: those still listed end when they expire.',
  },
} satisfies Record<'en', Strings>;

registerDefaultStrings(walletCredentialsStrings);

/** The keys of these strings (a translation, src/locales/, covers every one). */
export type WalletCredentialsStringKey = keyof typeof walletCredentialsStrings.en;
