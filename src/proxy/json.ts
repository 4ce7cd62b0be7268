/**
 * Parses a copy of a request body for the `authorize` hook, refusing what two JSON parsers could
 * read differently.
 *
 * RFC 8259 section 4 says object names "SHOULD be unique" and that parsers differ when they are not
 * (some keep the first, JavaScript keeps the last). The proxy checks `{"accountId": A, "accountId": B}`
 * with one reading while the service could act on the other, so such a body is refused outright.
 * Names are compared with letter case folded (`foldName`): common JSON decoders match names to fields
 * without regard to case (Go's encoding/json does, and a later key then overwrites an earlier one), so
 * `{"accountId": A, "AccountId": B}` is the same two-readings body and is refused too.
 * Also refused: bytes that are not UTF-8 (RFC 8259 section 8.1) and a byte-order mark.
 *
 * Deliberately does not: re-serialise anything. The parsed value is only looked at; the bytes that
 * go upstream are the ones the browser sent (a stamp covers exact bytes, DESIGN.md).
 */

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class BodyParseError extends Error {
  override readonly name = 'BodyParseError';
}

/** Parses `bytes` as one JSON text with unique object names in every object. */
export function parseStrictJson(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (cause) {
    throw new BodyParseError('The body is not valid UTF-8.', { cause });
  }
  if (text.charCodeAt(0) === 0xfeff) throw new BodyParseError('The body starts with a byte-order mark.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new BodyParseError('The body is not valid JSON.', { cause });
  }
  const duplicate = findDuplicateName(text);
  if (duplicate !== undefined) {
    throw new BodyParseError(`The body repeats the name "${duplicate.slice(0, 64)}" in one object (names that differ only in letter case are the same name).`);
  }
  return value;
}

/**
 * An object name with letter case folded, so that names a case-insensitive decoder would take for
 * one field compare equal: `accountId` and `ACCOUNTID`, and the Unicode letters that fold onto ASCII
 * ones (`ſ` onto `s`, the Kelvin sign onto `k`; upper case first, then lower). It folds a little
 * more than Unicode simple case folding (`ı` onto `i`, `ß` onto `ss`): that can only refuse more.
 */
export function foldName(name: string): string {
  return name.toUpperCase().toLowerCase();
}

/**
 * Scans a text that JSON.parse already accepted and returns the first object name that occurs
 * twice in one object (compared after unescaping and case folding, so `"a"`, `"\u0061"` and `"A"`
 * collide), if any.
 */
function findDuplicateName(text: string): string | undefined {
  // One entry per open container: the names seen so far for an object, null for an array.
  const stack: Array<Set<string> | null> = [];
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = endOfString(text, i);
      const top = stack[stack.length - 1];
      if (expectName && top) {
        const name = foldName(JSON.parse(text.slice(i, end + 1)) as string);
        if (top.has(name)) return name;
        top.add(name);
      }
      expectName = false;
      i = end;
    } else if (c === '{') {
      stack.push(new Set());
      expectName = true;
    } else if (c === '[') {
      stack.push(null);
      expectName = false;
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectName = false;
    } else if (c === ',') {
      expectName = stack[stack.length - 1] instanceof Set;
    }
  }
  return undefined;
}

/** Index of the closing quote of the string that opens at `start` (the text is valid JSON). */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i;
  }
  return text.length - 1;
}
