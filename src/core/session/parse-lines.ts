/**
 * One line of a session file before JSON.parse: decoding one line's bytes (fast for ASCII, checked
 * for UTF-8 validity otherwise; for readers of single lines such as db/chunks.ts; the file parser
 * decodes runs of lines, parse-split.ts), the nesting-depth guard, blank lines and excerpts.
 */

const NON_ASCII = /[\u0080-\uffff]/;

/** Lines up to this many bytes are decoded with `String.fromCharCode` (see `createLineDecoder`). */
const SHORT_LINE_BYTES = 8192;

/**
 * Decodes one line's bytes: a single-byte fast path for ASCII, UTF-8 (U+FFFD for bad bytes)
 * otherwise. In Chromium, `String.fromCharCode.apply` on a short line's bytes is about 1.6x
 * faster than a `TextDecoder` call (per-call cost dominates for ~1 KB lines); long lines go
 * through the single-byte `TextDecoder` in one call.
 */
export function createLineDecoder(): (bytes: Uint8Array) => string {
  const checked = createCheckedLineDecoder();
  return checked.decode;
}

export interface CheckedLineDecoder {
  decode(bytes: Uint8Array): string;
  /** The last line decoded was not valid UTF-8 (its bad sequences became U+FFFD). */
  invalid: boolean;
}

/** `createLineDecoder` that also tells whether each line was valid UTF-8 (TextDecoder fatal). */
export function createCheckedLineDecoder(): CheckedLineDecoder {
  // "latin1" is windows-1252 in the Encoding standard: identical to ASCII below 0x80, and every
  // byte >= 0x80 decodes to a character >= 0x80, which the test below catches (as it does for
  // String.fromCharCode, which maps byte b to U+00b).
  const single = new TextDecoder("latin1");
  const strict = new TextDecoder("utf-8", { fatal: true });
  const lenient = new TextDecoder("utf-8");
  const decoder: CheckedLineDecoder = {
    invalid: false,
    decode(bytes) {
      decoder.invalid = false;
      const fast =
        bytes.length <= SHORT_LINE_BYTES
          ? String.fromCharCode.apply(null, bytes as unknown as number[])
          : single.decode(bytes);
      if (!NON_ASCII.test(fast)) return fast;
      try {
        return strict.decode(bytes);
      } catch {
        decoder.invalid = true;
        return lenient.decode(bytes);
      }
    },
  };
  return decoder;
}

/**
 * JSON nested deeper than this is refused as a bad line: JSON.parse reads any depth, but
 * JSON.stringify and every recursive reader of the entry would overflow the stack (at a few
 * thousand levels in V8). Sessions nest a few dozen levels at most.
 */
export const MAX_JSON_DEPTH = 1000;

/** Counts occurrences of `char` in `text`, stopping once the count passes `limit`. */
function countUpTo(text: string, char: string, limit: number): number {
  let n = 0;
  for (let at = text.indexOf(char); at >= 0 && n <= limit; at = text.indexOf(char, at + 1)) n++;
  return n;
}

/**
 * Whether the JSON text nests arrays/objects more than `max` levels deep. Cheap for ordinary
 * lines: a valid JSON text `max` levels deep is at least 2 * max characters long and has at
 * least `max` opening brackets (native indexOf counts them); only a line past both bounds is
 * scanned character by character (strings skipped), without recursion.
 */
export function nestedTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * max) return false;
  const opens = countUpTo(text, "[", max);
  if (opens <= max && opens + countUpTo(text, "{", max - opens) <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: up to the next quote that is not escaped.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const EXCERPT_LENGTH = 120;

export function excerptOf(line: string): string {
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH)}…` : line;
}

/** An excerpt around the first `mark` in `line` (the start when there is none). */
export function excerptAround(line: string, mark: string): string {
  const at = line.indexOf(mark);
  if (at < EXCERPT_LENGTH / 2) return excerptOf(line);
  const from = at - EXCERPT_LENGTH / 2;
  const rest = line.slice(from, from + EXCERPT_LENGTH);
  return `…${rest}${from + EXCERPT_LENGTH < line.length ? "…" : ""}`;
}

export function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const first = line.charCodeAt(0);
  // Fast path: a JSON object line starts with "{" and is not blank.
  return first <= 32 && line.trim() === "";
}
