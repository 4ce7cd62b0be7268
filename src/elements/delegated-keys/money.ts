/**
 * Amounts for people: the service's integer amounts (the smallest unit of the currency, reference.md
 * "Delegated keys": maxPerTransaction; api.md: transferDetails.amount) shown in the reader's locale.
 *
 * ISO 4217 currencies use the digits Intl knows for them (USD 2, JPY 0, BHD 3); a Currency object
 * from the service (api.md "Currency object") brings its own `decimals`; any other code (a token such
 * as USDC) is shown as a plain count of its smallest unit, because guessing its decimals would show a
 * wrong amount. Deliberately no floating-point arithmetic on the integer: digits are placed as text.
 */

let isoCodes: Set<string> | undefined;

/** True for the currency codes this runtime's Intl knows (ISO 4217). */
export function isIsoCurrency(code: string): boolean {
  if (!isoCodes) {
    try {
      isoCodes = new Set(Intl.supportedValuesOf('currency'));
    } catch {
      isoCodes = new Set();
    }
  }
  return isoCodes.has(code);
}

/** The number of minor-unit digits of an ISO currency (2 for USD), or undefined when unknown. */
export function minorDigits(code: string): number | undefined {
  if (!isIsoCurrency(code)) return undefined;
  return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
}

/** `12345` with 2 digits -> "123.45", as a decimal string (exact for any safe integer). */
function placeDigits(amount: number, digits: number): string {
  const negative = amount < 0;
  const text = String(Math.abs(Math.trunc(amount))).padStart(digits + 1, '0');
  const whole = digits === 0 ? text : text.slice(0, -digits);
  const frac = digits === 0 ? '' : '.' + text.slice(-digits);
  return (negative ? '-' : '') + whole + frac;
}

/**
 * Formats an integer amount of the smallest unit. `decimals` (from a Currency object) wins over
 * Intl's knowledge; without either, the amount is shown with the code as a count of the smallest unit.
 */
export function formatMinor(amount: number, code: string, locale: string, decimals?: number): string {
  const digits = decimals ?? minorDigits(code);
  if (digits === undefined || !Number.isSafeInteger(amount)) {
    return `${new Intl.NumberFormat(locale).format(amount)} ${code}`;
  }
  const decimal = placeDigits(amount, digits);
  if (isIsoCurrency(code)) {
    // Intl.NumberFormat accepts decimal strings and keeps their precision.
    const nf = new Intl.NumberFormat(locale, { style: 'currency', currency: code, minimumFractionDigits: digits, maximumFractionDigits: digits });
    return nf.format(decimal as unknown as number);
  }
  const nf = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${nf.format(decimal as unknown as number)} ${code}`;
}
