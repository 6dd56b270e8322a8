/**
 * How deep a JSON body may nest objects and arrays, the body itself being level 1: the same 32 levels as XML.
 * Deeper documents parse, but then overflow the stack of whatever walks them recursively (JSON.stringify of a
 * 5,000-level webhookData is a RangeError, i.e. a 500), so they are refused before parsing.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Where the string opened by the quote at `open` ends: the next quote after an even number of backslashes (each
 * backslash escapes the one character after it, exactly JSON's rule); -1 when none does. indexOf finds the quotes
 * quickly; each backslash is looked at once, as part of the run just before the quote it precedes.
 */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/**
 * Whether JSON text nests objects and arrays deeper than `max`. One pass over the text, each character looked at
 * once, no recursion. Brackets inside strings do not count, and strings end where JSON says they do, so for
 * valid JSON the depth counted is the depth JSON.parse builds. Text that is not JSON may be counted wrongly, but the parse
 * that follows refuses it.
 */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
