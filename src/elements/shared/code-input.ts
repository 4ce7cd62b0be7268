/**
 * The one-time-code input every element that asks for an OTP renders: one field that autofill and
 * the SMS keyboard suggestion fill (`autocomplete="one-time-code"`, `inputmode="numeric"`), digits
 * only and a length cap (kept so as typed or pasted), and `aria-invalid` after a wrong code. Kept in
 * one place so no form forgets an attribute (a known weakness of login components that split the code over several inputs).
 */
import { html, type TemplateResult } from 'lit/html.js';

/** Text with each Arabic, Persian or full-width digit as its ASCII digit (a code, an amount typed on such a keyboard). */
export const asciiDigits = (text: string): string => text.replace(/[٠-٩۰-۹０-９]/g, (d) => String(d.charCodeAt(0) & 15));

/** The digits of a code typed or pasted, as ASCII: an Arabic, Persian or full-width digit is that digit; other characters (bidi marks of Arabic text too) go. */
export const codeDigits = (text: string): string => asciiDigits(text).replace(/\D/g, '');

export interface CodeInputOptions {
  /** How many digits the code has. */
  length: number;
  /** The last code was refused. */
  invalid: boolean;
  /** While the code is being checked. */
  readonly: boolean;
  /** Id of the help text that describes the field. */
  describedBy: string;
  /** Whether the element moves focus here when the screen appears. */
  autofocus?: boolean;
}

export function codeInput(o: CodeInputOptions): TemplateResult {
  return html`<input
    id="code"
    part="code-input"
    name="code"
    type="text"
    autocomplete="one-time-code"
    inputmode="numeric"
    pattern="[0-9]*"
    aria-invalid=${o.invalid ? 'true' : 'false'}
    aria-describedby=${o.describedBy}
    ?readonly=${o.readonly}
    ?data-autofocus=${o.autofocus ?? false}
    @input=${(e: InputEvent) => {
      // Digits only, `length` at most: no maxlength, which would cut a code pasted spaced, dashed or marked.
      // (The same value set again leaves the caret where it is.)
      const input = e.target as HTMLInputElement;
      input.value = codeDigits(input.value).slice(0, o.length);
    }}
  />`;
}
