/**
 * The words of <delegated-keys> in English (translations: src/locales/); every key is replaceable with
 * `setStrings(locale, {...})` (src/elements/shared/i18n.ts). Error sentences say what to do next.
 */
import { registerDefaultStrings, type PluralForms } from '../shared/i18n.ts';
import type { DelegatedKeysErrorCode, FieldProblem } from './delegated-keys.machine.ts';

type Keys =
  | 'delegated-keys.title'
  | 'delegated-keys.description'
  | 'delegated-keys.loading'
  /** Said after "Loading keys…": how many keys the list holds. */
  | 'delegated-keys.loaded'
  | 'delegated-keys.empty'
  | 'delegated-keys.new'
  | 'delegated-keys.retry'
  | 'delegated-keys.status.ACTIVE'
  | 'delegated-keys.status.PENDING'
  | 'delegated-keys.status.making'
  | 'delegated-keys.status.REVOKED'
  | 'delegated-keys.created-on'
  | 'delegated-keys.public-key'
  | 'delegated-keys.limits'
  | 'delegated-keys.no-limits'
  | 'delegated-keys.per-transaction'
  | 'delegated-keys.immutable'
  | 'delegated-keys.revoke'
  | 'delegated-keys.revoke-confirm'
  | 'delegated-keys.revoke-yes'
  | 'delegated-keys.revoking'
  | 'delegated-keys.cancel'
  | 'delegated-keys.form-title'
  | 'delegated-keys.nickname'
  | 'delegated-keys.nickname-hint'
  | 'delegated-keys.limits-legend'
  | 'delegated-keys.limits-hint'
  | 'delegated-keys.currency'
  | 'delegated-keys.amount'
  | 'delegated-keys.amount-preview'
  | 'delegated-keys.add-limit'
  | 'delegated-keys.remove-limit'
  | 'delegated-keys.create'
  | 'delegated-keys.creating'
  | 'delegated-keys.created'
  | 'delegated-keys.revoked'
  | 'delegated-keys.active-exists'
  | 'delegated-keys.missing-ids'
  /** Under the list while this device holds no session of the wallet: creating a key needs one. */
  | 'delegated-keys.sign-in'
  | 'delegated-keys.bad-id'
  /** `too_many` is never shown: the form offers no more rows than allowed. */
  | `delegated-keys.field.${Exclude<FieldProblem, 'too_many'>}`
  | `delegated-keys.error.${DelegatedKeysErrorCode}`
  /** A 429 with the service's Retry-After (seconds). */
  | 'delegated-keys.error.rate_limited_wait';

const en: Record<Keys, string> & PluralForms<Keys> = {
  'delegated-keys.title': 'Delegated keys',
  'delegated-keys.description': 'A delegated key lets card payments be approved without you signing each one. It can only pay from this card, within the limits you set.',
  'delegated-keys.loading': 'Loading keys…',
  'delegated-keys.loaded': 'Keys loaded: {count}.',
  'delegated-keys.empty': 'This card has no delegated keys yet.',
  'delegated-keys.new': 'New key',
  'delegated-keys.retry': 'Try again',
  'delegated-keys.status.ACTIVE': 'Active',
  'delegated-keys.status.PENDING': 'Not finished, can’t be used',
  'delegated-keys.status.making': 'Being created…',
  'delegated-keys.status.REVOKED': 'Revoked',
  'delegated-keys.created-on': 'Created {date}',
  'delegated-keys.public-key': 'Public key',
  'delegated-keys.limits': 'Spending limits',
  'delegated-keys.no-limits': 'No spending limits',
  'delegated-keys.per-transaction': '{amount} per payment',
  'delegated-keys.immutable': 'Limits can’t be changed. To change them, revoke this key and create a new one.',
  'delegated-keys.revoke': 'Revoke',
  'delegated-keys.revoke-confirm': 'Revoke “{name}”? Payments can no longer be approved with it. This can’t be undone.',
  'delegated-keys.revoke-yes': 'Revoke key',
  'delegated-keys.revoking': 'Revoking…',
  'delegated-keys.cancel': 'Cancel',
  'delegated-keys.form-title': 'New delegated key',
  'delegated-keys.nickname': 'Name',
  'delegated-keys.nickname-hint': 'So you can recognise it later, up to {chars} characters.',
  'delegated-keys.limits-legend': 'Limit per payment (optional)',
  'delegated-keys.limits-hint': 'One limit per currency, in the smallest unit (cents for USD). A currency without a limit is unlimited. Limits can’t be changed later.',
  'delegated-keys.currency': 'Currency',
  'delegated-keys.amount': 'Maximum',
  'delegated-keys.amount-preview': '= {amount}',
  'delegated-keys.add-limit': 'Add a limit',
  'delegated-keys.remove-limit': 'Remove limit {n}',
  'delegated-keys.create': 'Create key',
  'delegated-keys.creating': 'Creating… confirm with your wallet',
  'delegated-keys.created': 'Key “{name}” created. It is active now.',
  'delegated-keys.revoked': 'Key “{name}” revoked.',
  'delegated-keys.active-exists': 'This card already has an active key. Revoke it before creating another.',
  'delegated-keys.missing-ids': 'No card or wallet account is selected.',
  'delegated-keys.sign-in': 'Sign in to your wallet to create a key.',
  'delegated-keys.bad-id': 'The {attribute} attribute of this element is not a valid id.',
  'delegated-keys.field.required': 'This field is required.',
  'delegated-keys.field.too_long': 'Use {chars} characters or fewer.',
  'delegated-keys.field.invalid_currency': 'Use a currency code of {from} to {to} letters or digits, such as USD.',
  'delegated-keys.field.duplicate_currency': 'This currency already has a limit. Keep one limit per currency.',
  'delegated-keys.field.invalid_amount': 'Enter a whole number above zero.',
  'delegated-keys.field.too_large': 'Enter {max} or less.',
  'delegated-keys.error.conflict': 'This card already has an active key. Revoke it first, then create the new one.',
  'delegated-keys.error.not_found': 'This card isn’t linked to your wallet any more, or the key no longer exists. Reload and try again.',
  'delegated-keys.error.invalid': 'The key couldn’t be created with these details. Check the name and limits.',
  'delegated-keys.error.not_active': 'This key is no longer active, so there is nothing to revoke.',
  'delegated-keys.error.session_required': 'Sign in to your wallet first, then try again.',
  'delegated-keys.error.unauthorized': 'This page can’t reach your keys right now: its sign-in with the service ended or isn’t set up. Reload the page, and contact support if this stays.',
  'delegated-keys.error.forbidden': 'You can’t manage keys for this card in this session.',
  'delegated-keys.error.rate_limited': 'Too many requests. Wait a moment, then try again.',
  'delegated-keys.error.rate_limited_wait': 'Too many requests. Wait {seconds} seconds, then try again.',
  'delegated-keys.error.rate_limited_wait_one': 'Too many requests. Wait {seconds} second, then try again.',
  'delegated-keys.error.server': 'Something went wrong on our side. Try again in a moment.',
  'delegated-keys.error.network': 'We couldn’t reach the server. Check your connection and try again.',
  'delegated-keys.error.load_failed': 'Part of this page couldn’t load. Check your connection, then reload the page.',
  'delegated-keys.error.retry_exhausted': 'The confirmation took too long. Try again.',
  'delegated-keys.error.misconfigured': 'This page is not set up to reach the wallet service. Contact the site’s support.',
  'delegated-keys.error.unexpected': 'Something unexpected happened. Try again.',
};

registerDefaultStrings({ en });

export const delegatedKeysStrings = { en } as const;
export type { Keys as DelegatedKeysStringKey };
