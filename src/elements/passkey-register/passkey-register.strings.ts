/**
 * Every visible string of `<passkey-register>`, in English (translations: src/locales/); replace
 * any with `setStrings(locale, {...})`. `{name}` marks a placeholder.
 */
import { registerDefaultStrings, type Strings } from '../shared/i18n.ts';

export const passkeyRegisterStrings = {
  en: {
    'passkey.heading': 'Add a passkey',
    'passkey.intro': 'Log in with your fingerprint, face or screen lock instead of a code.',
    'passkey.checking': 'Checking what this device supports…',
    'passkey.unsupported': 'This browser cannot create passkeys. Try another browser or device, or keep using your current way to log in.',
    'passkey.roaming-only': 'This device has no built-in passkey support. You can still use a security key or your phone.',
    'passkey.nickname.label': 'Name this passkey',
    'passkey.nickname.help': 'A name helps you tell your passkeys apart, for example “Work laptop”.',
    'passkey.nickname.invalid': 'Give the passkey a name of up to {max} characters.',
    'passkey.submit': 'Create passkey',
    'passkey.creating': 'Follow your browser’s prompt to create the passkey…',
    'passkey.waiting': 'Waiting for the passkey being added in another tab or window to finish…',
    'passkey.waiting-here': 'Waiting for an earlier passkey request on this page to finish…',
    'passkey.rejected': 'That passkey was not accepted, and nothing was added. Try again to make a new one.',
    'passkey.not-created': 'No passkey was created: the prompt was closed, timed out or could not verify you. Try again.',
    'passkey.login-required': 'Log in to your wallet first: adding a passkey to a wallet that already has a login needs your current session.',
    'passkey.session-ended': 'Your session ended before the passkey was saved. Log in again, then add it.',
    'passkey.activating': 'Passkey saved. Confirm it once more to log in with it…',
    'passkey.registered': 'Your passkey “{nickname}” is saved, but logging in with it did not finish.',
    'passkey.activate': 'Log in with the passkey',
    'passkey.done': 'Your passkey “{nickname}” is ready, and you are logged in with it.',
    'passkey.another': 'Add another passkey',
    'error.passkey_kept': 'The passkey was saved before the cancel and could not be removed, so it may still be on your wallet. You can remove it under “Ways to log in”.',
  },
} satisfies Record<'en', Strings>;

registerDefaultStrings(passkeyRegisterStrings);

/** The keys of these strings (a translation, src/locales/, covers every one). */
export type PasskeyRegisterStringKey = keyof typeof passkeyRegisterStrings.en;
