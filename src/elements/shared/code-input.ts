/**
 * The one-time-code input every element that asks for an OTP renders: one field that autofill and
 * the SMS keyboard suggestion fill (`autocomplete="one-time-code"`, `inputmode="numeric"`), digits
 * only, a length cap, and `aria-invalid` after a wrong code. Kept in one place so no form forgets
 * an attribute (a known weakness of login components that split the code over several inputs).
 */
import { html, type TemplateResult } from 'lit/html.js';

/**
 * Text with each Arabic, Persian or full-width digit as its ASCII digit (a code, an amount typed on
 * such a keyboard), without the bidi marks a number copied from Arabic text carries (RLM, LRM, ALM, isolates).
 */
export const asciiDigits = (text: string): string => text.replace(/[\u200e\u200f\u061c\u2066-\u2069]/g, '').replace(/[٠-٩۰-۹０-９]/g, (d) => String(d.charCodeAt(0) & 15));

/** The digits of a code typed or pasted, as ASCII: an Arabic, Persian or full-width digit is that digit; other characters go. */
export const codeDigits = (text: string): string => asciiDigits(text).replace(/\D/g, '');

/**
 * The digits of a whole code pasted (`length` of them, spaced, dashed or marked as it was copied), the
 * paste then taken over: the field's maxlength would cut such a text short of a digit.
 */
export const pastedCode = (e: ClipboardEvent, length: number): string | undefined => {
  const digits = codeDigits(e.clipboardData?.getData('text') ?? '');
  return digits.length === length ? (e.preventDefault(), digits) : undefined;
};

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
  onInput?: (event: InputEvent) => void;
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
    maxlength=${o.length}
    aria-invalid=${o.invalid ? 'true' : 'false'}
    aria-describedby=${o.describedBy}
    ?readonly=${o.readonly}
    ?data-autofocus=${o.autofocus ?? false}
    @input=${o.onInput}
  />`;
}
