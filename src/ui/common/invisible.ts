/**
 * Bidi controls and invisible characters made visible: splits a text into plain runs and marks
 * (`⟨U+202E⟩`), so no such character from content, names or paths ever reaches the page as is.
 * Pure: no DOM. Rendered by safe-text.tsx; `markInvisible` gives the same as one string.
 */

/**
 * What is marked: bidi controls (U+061C, U+200E/F, U+202A–E, U+2066–9), default-ignorable code
 * points (zero-width space/joiners, word joiner, BOM, U+180E, soft hyphen, Hangul fillers, tag
 * characters U+E0000–E007F, variation selectors U+E0100–…) and C0/C1 controls other than tab,
 * newline and carriage return. Kept as they are: the emoji variation selectors U+FE00–FE0F, and a
 * zero-width joiner between two pictographs (an emoji sequence such as a family).
 */
const HIDDEN = /[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]|(?![\t\n\r])\p{Cc}/u;
const HIDDEN_G = new RegExp(HIDDEN.source, "gu");
const PICTOGRAPH = /\p{Extended_Pictographic}/u;

const NAMES: Record<number, string> = {
  1564: "ARABIC LETTER MARK",
  8203: "ZERO WIDTH SPACE",
  8204: "ZERO WIDTH NON-JOINER",
  8205: "ZERO WIDTH JOINER",
  8206: "LEFT-TO-RIGHT MARK",
  8207: "RIGHT-TO-LEFT MARK",
  8234: "LEFT-TO-RIGHT EMBEDDING",
  8235: "RIGHT-TO-LEFT EMBEDDING",
  8236: "POP DIRECTIONAL FORMATTING",
  8237: "LEFT-TO-RIGHT OVERRIDE",
  8238: "RIGHT-TO-LEFT OVERRIDE",
  8288: "WORD JOINER",
  8294: "LEFT-TO-RIGHT ISOLATE",
  8295: "RIGHT-TO-LEFT ISOLATE",
  8296: "FIRST STRONG ISOLATE",
  8297: "POP DIRECTIONAL ISOLATE",
  173: "SOFT HYPHEN",
  6158: "MONGOLIAN VOWEL SEPARATOR",
  65279: "ZERO WIDTH NO-BREAK SPACE (BOM)",
};

/** A hidden character (or a run of them) as the person sees it. */
export interface InvisibleMark {
  /** The visible marker, e.g. `⟨U+202E⟩`, `⟨U+200B ×3⟩`, `⟨tags "hi"⟩`. */
  mark: string;
  /** A longer description (for a tooltip). */
  title: string;
  /** The characters replaced. */
  source: string;
}

export type TextPiece = string | InvisibleMark;

function hex(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

function isTag(code: number): boolean {
  return code >= 0xe0000 && code <= 0xe007f;
}

/** The code point that ends just before `end`, and where it starts. */
function pointBefore(text: string, end: number): { code: number; start: number } | undefined {
  if (end <= 0) return undefined;
  const low = text.charCodeAt(end - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && end >= 2 ? end - 2 : end - 1;
  return { code: text.codePointAt(start)!, start };
}

function isPictograph(code: number | undefined): boolean {
  return code !== undefined && PICTOGRAPH.test(String.fromCodePoint(code));
}

/** Whether the hidden character `ch` at `i` is marked (see HIDDEN and its exceptions). */
function hiddenAt(text: string, i: number, ch: string): boolean {
  const code = ch.codePointAt(0)!;
  if (code >= 0xfe00 && code <= 0xfe0f) return false;
  if (code === 0x200d && isPictograph(text.codePointAt(i + 1))) {
    let before = pointBefore(text, i);
    // An emoji before may end with a variation selector (U+FE0F).
    if (before?.code === 0xfe0f) before = pointBefore(text, before.start);
    if (isPictograph(before?.code)) return false;
  }
  return true;
}

function markOf(run: string): InvisibleMark {
  const codes = Array.from(run, (c) => c.codePointAt(0)!);
  const first = codes[0]!;
  if (isTag(first)) {
    const decoded = codes.map((c) => (c >= 0xe0020 && c <= 0xe007e ? String.fromCharCode(c - 0xe0000) : ""));
    const text = decoded.join("");
    return {
      mark: text ? `⟨tags “${text}”⟩` : `⟨${hex(first)}${codes.length > 1 ? ` ×${codes.length}` : ""}⟩`,
      title: `${codes.length} hidden tag character${codes.length > 1 ? "s" : ""} (${hex(first)}…)`,
      source: run,
    };
  }
  const name = NAMES[first] ?? (first < 0xa0 ? "CONTROL CHARACTER" : "INVISIBLE CHARACTER");
  return {
    mark: `⟨${hex(first)}${codes.length > 1 ? ` ×${codes.length}` : ""}⟩`,
    title: `${hex(first)} ${name}${codes.length > 1 ? `, ${codes.length} times` : ""}`,
    source: run,
  };
}

/** Whether the text holds anything `splitInvisible` would mark (a cheap test first). */
export function hasInvisible(text: string): boolean {
  if (!HIDDEN.test(text)) return false;
  return splitInvisible(text).some((p) => typeof p !== "string");
}

/**
 * The text as plain runs and marks. A run of the same hidden character becomes one mark, and so
 * does a run of tag characters (with the ASCII they spell). Joining `source` of the marks with
 * the plain runs gives back the text.
 */
export function splitInvisible(text: string): TextPiece[] {
  if (!HIDDEN.test(text)) return [text];
  const out: TextPiece[] = [];
  let plain = "";
  let run = "";
  let runKey = -1;
  const flushRun = () => {
    if (run !== "") out.push(markOf(run));
    run = "";
    runKey = -1;
  };
  HIDDEN_G.lastIndex = 0;
  let last = 0;
  for (let m = HIDDEN_G.exec(text); m !== null; m = HIDDEN_G.exec(text)) {
    const i = m.index;
    const ch = m[0];
    if (!hiddenAt(text, i, ch)) continue;
    const between = text.slice(last, i);
    if (between !== "") {
      flushRun();
      plain += between;
    }
    const code = ch.codePointAt(0)!;
    const key = isTag(code) ? -2 : code;
    if (run !== "" && key !== runKey) flushRun();
    if (plain !== "") {
      out.push(plain);
      plain = "";
    }
    run += ch;
    runKey = key;
    last = i + ch.length;
  }
  flushRun();
  plain += text.slice(last);
  if (plain !== "") out.push(plain);
  return out;
}

/** The text with every hidden character replaced by its mark (for titles, labels, options). */
export function markInvisible(text: string): string {
  if (!HIDDEN.test(text)) return text;
  return splitInvisible(text)
    .map((p) => (typeof p === "string" ? p : p.mark))
    .join("");
}
