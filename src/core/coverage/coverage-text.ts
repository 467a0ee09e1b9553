/**
 * Text rules of the coverage check: the normalisation both sides of a match go through, words
 * and their crude stems, salient words, and the recognisers for paths, URLs, pasted lines and
 * sentences that the extractor and the offline summary share.
 */
import { isStopWord } from "./coverage-lang.ts";

/**
 * Case-folded, backticks dropped, curly apostrophes straightened, whitespace runs collapsed.
 * Maps every character on its own (final sigma folded to σ), so that a substring of a text stays
 * a substring after normalisation: a summary that contains an item's text matches it.
 */
export function normalize(text: string): string {
  const lower = text.toLowerCase();
  if (!NEEDS_WORK.test(lower)) return lower;
  return lower.replace(/ς/g, "σ").replace(/[`]/g, "").replace(/[’‘]/g, "'").replace(/\s+/g, " ");
}

/** Anything normalize() changes beyond case (most short texts have none of it: fast path). */
const NEEDS_WORK = /[ς`’‘]|\s\s|[^\S ]/;

const EDGE_PUNCT = /^[\s"'([{<.,;:!?*_~-]+|[\s"')\]}>.,;:!?*_~-]+$/g;

const EDGE_LEAD = "\"'([{<.,;:!?*_~-";
const EDGE_TRAIL = "\"')]}>.,;:!?*_~-";

/**
 * Whether a UTF-16 code unit is a regex `\s` (ECMAScript WhiteSpace or LineTerminator): tab, line
 * feed, vertical tab, form feed, carriage return, space, no-break space, the Zs spaces, U+2028,
 * U+2029 and U+FEFF.
 */
export function isSpaceCode(c: number): boolean {
  if (c < 0x80) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** normalize() with whitespace and punctuation trimmed at both ends. */
export function normalizeKey(text: string): string {
  const norm = normalize(text);
  if (norm === "") return norm;
  // Most keys have nothing to trim: no regex then.
  const first = norm.charCodeAt(0);
  const last = norm.charCodeAt(norm.length - 1);
  if (
    !EDGE_LEAD.includes(norm[0]!) &&
    !EDGE_TRAIL.includes(norm[norm.length - 1]!) &&
    !isSpaceCode(first) &&
    !isSpaceCode(last)
  )
    return norm;
  return norm.replace(EDGE_PUNCT, "");
}

const WORD = /[\p{L}\p{N}_]+/gu;
const SUFFIXES = ["ing", "ions", "ion", "ed", "es", "en", "er", "s", "e"];

/** A crude, language-blind stem: one common suffix off words of five or more letters. */
export function stem(word: string): string {
  if (word.length < 5) return word;
  for (const s of SUFFIXES)
    if (word.endsWith(s) && word.length - s.length >= 4) return word.slice(0, -s.length);
  return word;
}

/** The stems of every word of a normalised text (identifiers also split at _ and camel humps). */
export function wordStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    out.add(stem(w));
    if (w.includes("_")) for (const p of w.split("_")) if (p) out.add(stem(p));
  }
  for (const m of text.matchAll(/[a-z]+(?=[A-Z])|[A-Z][a-z]+/g)) out.add(stem(m[0].toLowerCase()));
  return out;
}

/** The distinctive words of a text: not stop words, three letters or more (or containing a digit). */
export function salientWords(text: string): string[] {
  const seen = new Set<string>();
  for (const m of normalize(text).matchAll(WORD)) {
    const w = m[0];
    if (isStopWord(w)) continue;
    if (w.length < 3 && !/\d/.test(w)) continue;
    seen.add(stem(w));
  }
  return [...seen];
}

/** True when at least `share` of the salient words are among `stems` (all of them when there are two or fewer). */
export function salientMatch(words: readonly string[], stems: ReadonlySet<string>, share: number): boolean {
  if (words.length === 0) return false;
  let hit = 0;
  for (const w of words) if (stems.has(w)) hit++;
  return words.length <= 2 ? hit === words.length : hit / words.length >= share;
}

/** The text blocks of a message content (string or blocks), joined with newlines. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const b of content) {
    if (b && typeof b === "object" && b.type === "text" && typeof b.text === "string")
      out = out === "" ? b.text : `${out}\n${b.text}`;
  }
  return out;
}

// The patterns of the recognisers below, compiled once (a literal in a function body is a new
// object on every call).
const SPACE_RUNS = /\s+/g;
const SPACE_RUN = /\s+/;
const TRAILING_PUNCT = /[.,;:-]+$/;
const LETTER = /[a-z]/i;
const ROOTED = /^(?:\/|~\/|\.\.?\/)/;
const DOTFILE = /^[./]*\.\w+$/;
const TOP_LEVEL = /^\/[^/]+$/;
const ONLY_SLASHES_OR_DOTS = /^\/+$|^\.+\/*$/;
const LEADING_DIGIT = /^\d/;
const TRAILING_SLASHES = /\/+$/;
const INDENTED = /^\s{2,}\S/;
const TABBED = /^\t/;
const STACK_FRAME = /^at\s+\S+.*(?:\(|:\d+)/;
const PROMPT = /^(?:[➜❯$#%>]\s|~\/|\S+@\S+:|\S+\s+git:\()/;
const JSON_START = /^[{[]/;
const JSON_CHARS = /[:"\]}]/;
const CARETS = /^\^+$/;
const LOCATION = /^\S+:\d+(?::\d+)?$/;
const NODE_PREFIX = /^node:/;
const NOT_LETTER_OR_SPACE = /[^\p{L}\s]/gu;
const BARE_LOCATION = /^\S+:\d+$/;
const FENCE = /^\s*(?:```|~~~)/;
const LEADING_SPACE = /^\s/;
const ENDS_SENTENCE = /[.!?:]$/;
const LEAD_IN = /:\s*$/;
const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[\p{Lu}\p{Ll}"'`(])/u;
const LIST_MARK = /^[-*+]\s+|^\d+[.)]\s+/;

/** Cuts a text to `max` characters at a word boundary when one is near, with an ellipsis. */
export function clip(text: string, max: number): string {
  const t = text.replace(SPACE_RUNS, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

export const URL_RE = /\bhttps?:\/\/[^\s<>"'`)\]}]+/g;

const CODE_EXT =
  "ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonl|md|mdx|txt|py|rs|go|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|" +
  "css|scss|less|html|vue|svelte|yml|yaml|toml|ini|cfg|conf|sh|bash|zsh|sql|xml|svg|png|jpg|lock|log|env|csv";
const EXT = new RegExp(`\\.(?:${CODE_EXT})$`, "i");
/** Characters of a path token: letters, digits, _ . @ ~ / - */
function isPathChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 46 ||
    c === 64 ||
    c === 126 ||
    c === 47 ||
    c === 45
  );
}

/**
 * The maximal runs of path characters that contain a slash or a dot (`withSlash`: a slash), in
 * order; linear: expands around each one.
 */
function pathTokens(text: string, withSlash: boolean): string[] {
  const out: string[] = [];
  const re = withSlash ? /\//g : /[/.]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let start = m.index;
    while (start > 0 && isPathChar(text.charCodeAt(start - 1))) start--;
    let end = m.index + 1;
    while (end < text.length && isPathChar(text.charCodeAt(end))) end++;
    re.lastIndex = end;
    if (end - start >= 3) out.push(text.slice(start, end));
  }
  return out;
}

const NOT_FILES = new Set([
  "node.js",
  "next.js",
  "vue.js",
  "react.js",
  "three.js",
  "d3.js",
  "express.js",
  "nuxt.js",
  "console.log",
]);

/**
 * The file paths mentioned in a text (URLs excluded): tokens with a known file extension, or with
 * at least two slashes, or starting with /, ~/, ./ or ../; a leading @ (a mention) is dropped.
 * `withSlash`: only the paths that contain a slash (the same ones, found faster).
 */
export function pathsInText(text: string, withSlash = false): string[] {
  if (!text.includes("/") && (withSlash || !text.includes("."))) return [];
  const plain = text.includes("://") ? text.replace(URL_RE, " ") : text;
  const out: string[] = [];
  for (const token of pathTokens(plain, withSlash)) {
    if (!token.includes("/") && token.indexOf(".") <= 0) continue;
    let p = token.replace(TRAILING_PUNCT, "");
    if (p.startsWith("@")) p = p.slice(1);
    if (p.length > 300) continue;
    if (p.length < 3 || !LETTER.test(p)) continue;
    let slashes = 0;
    for (let at = p.indexOf("/"); at >= 0; at = p.indexOf("/", at + 1)) slashes++;
    const ext = EXT.test(p);
    const rooted = ROOTED.test(p);
    if (!(ext || slashes >= 2 || (rooted && slashes >= 1 && p.length > 2))) continue;
    if (ext && DOTFILE.test(basename(p))) continue;
    if (!ext && TOP_LEVEL.test(p)) continue;
    if (!ext && ONLY_SLASHES_OR_DOTS.test(p)) continue;
    if (NOT_FILES.has(p.toLowerCase())) continue;
    if (LEADING_DIGIT.test(p) && !ext) continue;
    out.push(p);
  }
  return out;
}

/** How a summary names the directory its relative paths start from (the offline summary writes it). */
export const PROJECT_ROOT_LABEL = "Project root";
const ROOT_LINE = new RegExp(`${PROJECT_ROOT_LABEL}: \`([^\`\n]+)\``);

/**
 * The paths a summary names, each relative one also resolved against the root the summary
 * declares ("Project root: `/repo`"), as a reader of the summary would.
 */
export function summaryPaths(text: string): string[] {
  const paths = pathsInText(text);
  const root = ROOT_LINE.exec(text)?.[1]?.replace(TRAILING_SLASHES, "");
  if (!root) return paths;
  const out = [...paths, root];
  for (const p of paths)
    if (!p.startsWith("/") && !p.startsWith("~")) out.push(`${root}/${p.replace(/^\.\//, "")}`);
  return out;
}

/** The last segment of a path (directories keep their name without the trailing slash). */
export function basename(path: string): string {
  const p = path.replace(TRAILING_SLASHES, "");
  return p.slice(p.lastIndexOf("/") + 1);
}

/**
 * A line someone pasted rather than wrote: code fences' content (handled by the caller), stack
 * frames, shell prompts, JSON, indented or very long lines, and lines with few letters.
 */
export function isPastedLine(line: string): boolean {
  const t = line.trim();
  if (t === "") return false;
  if (INDENTED.test(line) || TABBED.test(line)) return true;
  if (STACK_FRAME.test(t)) return true;
  if (PROMPT.test(t)) return true;
  if (JSON_START.test(t) && JSON_CHARS.test(t)) return true;
  if (CARETS.test(t) || LOCATION.test(t) || NODE_PREFIX.test(t)) return true;
  if (t.length > 400) return true;
  const letters = t.replace(NOT_LETTER_OR_SPACE, "").length;
  return t.length > 20 && letters / t.length < 0.55;
}

/** A line that reports an error (in a paste or a tool result). */
export const ERROR_LINE =
  /(?:^|\s)(?:[A-Z]\w*(?:Error|Exception)|error(?: TS\d+)?|ERR!|fatal|FAIL(?:ED)?|panic|Traceback|ENOENT|EACCES|EADDRINUSE)\b[:\s]/i;

/** Runtime chatter that is never the error (a debugger attaching, Node's inspector hints). */
const NOISE_LINE =
  /^(?:Debugger (?:attached|listening)|Waiting for the debugger|For help, see: https:\/\/nodejs\.org)/;

/**
 * The line that best names the error in a failed tool's output: the first line that reports an
 * error, else the first line that is not noise or a bare location; undefined for no output.
 */
export function errorLineOf(text: string): string | undefined {
  const lines = text
    .split("\n", 80)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !NOISE_LINE.test(l));
  const hit = lines.find((l) => ERROR_LINE.test(` ${l}`)) ?? lines.find((l) => !BARE_LOCATION.test(l));
  if (!hit || hit === "(no output)") return undefined;
  return clip(hit, 200);
}

/**
 * The lines of a text split into written prose and pasted material, by paragraph: code fences,
 * paragraphs that are mostly pasted lines (a lead-in line ending with ":" stays prose), and a
 * one-line paragraph that follows a pasted one and precedes another or the end ("Node.js v23").
 */
export function splitProse(text: string): { prose: string[]; pasted: string[] } {
  const paragraphs: { lines: string[]; code: boolean }[] = [];
  let current: string[] = [];
  let fence = false;
  const flush = (code: boolean) => {
    if (current.length > 0) paragraphs.push({ lines: current, code });
    current = [];
  };
  for (const line of text.split("\n")) {
    if (FENCE.test(line)) {
      flush(fence);
      fence = !fence;
    } else if (!fence && line.trim() === "") flush(false);
    else current.push(line);
  }
  flush(fence);
  const kinds = paragraphs.map((p) => {
    if (p.code) return "pasted";
    const pasted = p.lines.filter((l) => isPastedLine(l) || ERROR_LINE.test(` ${l.trim()}`)).length;
    const allIndented = p.lines.length > 1 && p.lines.every((l) => LEADING_SPACE.test(l));
    return pasted * 2 >= p.lines.length || allIndented ? "pasted" : "prose";
  });
  const prose: string[] = [];
  const pasted: string[] = [];
  paragraphs.forEach((p, i) => {
    let kind = kinds[i];
    const after = kinds[i + 1];
    const line = p.lines[0]!.trim();
    const terse = p.lines.length === 1 && !ENDS_SENTENCE.test(line) && line.split(SPACE_RUN).length < 6;
    if (kind === "prose" && terse && kinds[i - 1] === "pasted" && (after ?? "pasted") === "pasted")
      kind = "pasted";
    if (kind === "prose") {
      prose.push(...p.lines);
      return;
    }
    const lead = p.lines[0]!;
    if (!p.code && LEAD_IN.test(lead) && !isPastedLine(lead) && p.lines.length > 1) {
      prose.push(lead);
      pasted.push(...p.lines.slice(1));
    } else pasted.push(...p.lines);
  });
  return { prose, pasted };
}

/** Sentences of prose lines: split after . ! ? and at line ends, keeping the terminator. */
export function sentences(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    for (const s of line.split(SENTENCE_BREAK)) {
      const t = s.trim().replace(LIST_MARK, "");
      if (t !== "") out.push(t);
    }
  }
  return out;
}

/** A code span that survives backticks inside the text. */
export function codeSpan(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}
