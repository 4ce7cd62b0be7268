/**
 * Amounts for people: the service's integer amounts (the smallest unit of the currency, reference.md
 * "Delegated keys": maxPerTransaction; api.md: transferDetails.amount) shown in the reader's locale.
 *
 * ISO 4217 currencies use the digits Intl knows for them (USD 2, JPY 0, BHD 3); a Currency object
 * from the service (api.md "Currency object") brings its own `decimals`; any other code (a token such
 * as USDC) is shown as a plain count of its smallest unit, because guessing its decimals would show a
 * wrong amount. Deliberately no floating-point arithmetic on the integer: digits are placed as text.
 */

import { format } from '../shared/formats.ts';
import { directionOf } from '../shared/i18n.ts';

/** The currency codes this runtime's Intl knows (ISO 4217), read on first use. */
let isoCodes: Set<string> | undefined;

/**
 * Formats an integer amount of the smallest unit. `decimals` (from a Currency object) wins over
 * Intl's knowledge; without either, the amount is shown with the code as a count of the smallest unit.
 */
export function formatMinor(amount: number, code: string, locale: string, decimals?: number): string {
  isoCodes ??= new Set(Intl.supportedValuesOf?.('currency'));
  const iso = isoCodes.has(code);
  const rtl = directionOf(locale) == 'rtl';
  const digits = decimals ?? (iso ? format(Intl.NumberFormat, 'en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits : undefined);
  let shown = `${format(Intl.NumberFormat, locale).format(amount)} ${code}`;
  if (digits !== undefined && Number.isInteger(amount)) {
    // `12345` with 2 digits -> "123.45", as a decimal string: exact for any integer (BigInt writes one
    // beyond 2^53 in digits, not as 1e+21), and Intl.NumberFormat accepts decimal strings and keeps their precision.
    const text = String(BigInt(Math.abs(amount))).padStart(digits + 1, '0');
    const split = text.length - digits;
    const decimal = `${amount < 0 ? '-' : ''}${text.slice(0, split)}${digits ? '.' + text.slice(split) : ''}`;
    const options: Intl.NumberFormatOptions = { minimumFractionDigits: digits, maximumFractionDigits: digits };
    const parts = format(Intl.NumberFormat, locale, iso ? { ...options, style: 'currency', currency: code } : options).formatToParts(decimal as unknown as number);
    // Right to left, a Latin symbol such as "US$" is isolated left to right (LRI ... PDI), or the
    // bidi algorithm shows it as "$US".
    shown = parts.map((p) => (rtl && p.type === 'currency' && /[A-Za-z]/.test(p.value) ? `\u2066${p.value}\u2069` : p.value)).join('') + (iso ? '' : ` ${code}`);
  }
  // And the whole amount between isolates (RLI ... PDI): else its digits and a Latin unit ("BTC",
  // "US$") are reordered with the words and numbers of the sentence around it.
  return rtl ? `\u2067${shown}\u2069` : shown;
}
