/**
 * Parsing a pi session JSONL file (docs/session-format.md §2) into a header and v3 entries.
 *
 * - One pass over the text: lines are cut with indexOf, each non-blank line goes through
 *   JSON.parse once. A UTF-8 BOM is dropped; CRLF endings are accepted.
 * - Not a session at all -> `{ok:false}`: empty text, NUL bytes before the header (binary), or
 *   a first parsed JSON value that is not `{type:"session", id:<string>}`. As in pi, lines that
 *   are not JSON before the header are skipped (and reported).
 * - Bad lines become `problems` (1-based physical line, reason, excerpt); see validate.ts for
 *   what a valid entry is. Entries whose id repeats an earlier entry's are problems too.
 * - Migrations run inside (migrate.ts); v1 ids are deterministic (derived from the session id
 *   and the object index) unless `newId` is given.
 *
 * Ways in: `createSessionByteParser()` whose `push(bytes)` takes the file's bytes in pieces of
 * any size (lines may span pieces) and whose `finish()` returns the result (the import worker,
 * the CLI); `parseSessionBytes(bytes)` for a whole file; `parseSessionJsonl(text)` for a string
 * (tests), which encodes it and parses the bytes.
 */
import { headerVersion, migrateToV3, type NewId, type ParsedObject } from "./migrate.ts";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "./types.ts";
import { entryProblem, isPlainObject } from "./validate.ts";

export interface LineProblem {
  /** 1-based physical line. */
  line: number;
  reason: string;
  /** The start of the line (at most 120 characters). */
  excerpt: string;
}

export interface ParsedSession {
  header: SessionHeader;
  /** Empty when parsed with `retainEntries: false`. */
  entries: SessionEntry[];
  /** 1-based physical line of each entry (same length as `entries`). */
  lines: number[];
  /** Number of entries (also when they were not retained). */
  entryCount: number;
  problems: LineProblem[];
  /** The header's version before migration (a missing version means 1). */
  originalVersion: number;
  /**
   * Parsed from bytes (`parseSessionBytes`) and no migration was needed: for entry i, the byte
   * span [verbatimSpans[2i], verbatimSpans[2i+1]) of its line in the input, without the "\n";
   * -1, -1 when the line cannot be kept as it is (a CRLF line). Export writes these bytes
   * unchanged, so a v3 file is stored and exported byte for byte (see export.ts).
   */
  verbatimSpans?: Float64Array;
}

export interface ParseError {
  message: string;
  line?: number;
}

export type ParseResult = { ok: true; value: ParsedSession } | { ok: false; error: ParseError };

export interface ParseOptions {
  /** Id generator for v1 files; default: deterministic from the session id. */
  newId?: NewId;
  /** Called with the fraction of text scanned (0..1), about every 4 MB and at the end. */
  onProgress?: (fraction: number) => void;
}

/** The error of a file with no line at all (or only blank lines). */
export const EMPTY_FILE_MESSAGE = "Not a pi session: the file is empty.";

const EXCERPT_LENGTH = 120;
const PROGRESS_STEP = 4 * 1024 * 1024;

function excerptOf(line: string): string {
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH)}…` : line;
}

function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const first = line.charCodeAt(0);
  // Fast path: a JSON object line starts with "{" and is not blank.
  return first <= 32 && line.trim() === "";
}

/** Streaming options of the parsers (see `createSessionByteParser`). */
export interface StreamOptions {
  newId?: NewId;
  /**
   * Called with each entry as it is accepted, in file order, with its index among the entries
   * and whether its line is kept verbatim (it has a span in `verbatimSpans`). For a file that
   * needs no migration this happens while parsing; otherwise at `finish()`.
   */
  onEntry?: (entry: SessionEntry, index: number, verbatim: boolean) => void;
  /**
   * false: `entries` and `lines` of the result stay empty (use `onEntry` and `entryCount`).
   * Parsed objects then die young, which makes a 100 MB import several times cheaper in GC.
   */
  retainEntries?: boolean;
}

function isHeaderObject(value: unknown): value is SessionHeader {
  return isPlainObject(value) && value.type === "session" && typeof value.id === "string";
}

/**
 * Turns lines into the result. Once the header says no migration is needed, each later object is validated and handed out
 * at once (streaming); before that, or for a file to migrate, objects wait for `finish`.
 */
function createAssembler(options: StreamOptions) {
  const { onEntry, retainEntries = true } = options;
  const pending: ParsedObject[] = [];
  const problems: LineProblem[] = [];
  const entries: SessionEntry[] = [];
  const lines: number[] = [];
  const spans: number[] = [];
  const seen = new Set<string>();
  let entryCount = 0;
  let streaming = false;
  let lineNo = 0;
  let sawNul = false;

  /** Validates one object as an entry; `start` < 0: no verbatim span. */
  const accept = (value: unknown, line: number, start: number, end: number): void => {
    // Shape first, then ids: in a v1 file a bad object got no id, and its shape is the real reason.
    const reason = entryProblem(value, false) ?? entryProblem(value, true);
    if (reason !== undefined) {
      problems.push({ line, reason, excerpt: excerptOf(safeStringify(value)) });
      return;
    }
    const entry = value as SessionEntry;
    if (seen.has(entry.id)) {
      problems.push({ line, reason: `duplicate id "${entry.id}"`, excerpt: excerptOf(safeStringify(value)) });
      return;
    }
    seen.add(entry.id);
    if (retainEntries) {
      entries.push(entry);
      lines.push(line);
    }
    spans.push(start, end);
    onEntry?.(entry, entryCount, start >= 0);
    entryCount++;
  };

  return {
    /**
     * One physical line (without its "\n") and its byte span [start, end) in the input, so that
     * export can write the line's bytes as they are.
     */
    handle(raw: string, isLast: boolean, start: number, end: number): void {
      lineNo++;
      const hasCr = raw.charCodeAt(raw.length - 1) === 13;
      const line = hasCr ? raw.slice(0, -1) : raw;
      if (isBlank(line)) return;
      if (pending.length === 0 && line.includes("\u0000")) sawNul = true;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        let reason = "not valid JSON";
        if (line.includes("\u0000") || line.includes("\uFFFD")) reason = "binary data, not JSON";
        else if (isLast && line.trimStart().startsWith("{")) reason = "truncated last line (incomplete JSON)";
        problems.push({ line: lineNo, reason, excerpt: excerptOf(line) });
        return;
      }
      if (streaming) {
        // A CRLF line is rewritten on export (JSONL lines end in "\n" alone): no verbatim span.
        accept(value, lineNo, hasCr ? -1 : start, hasCr ? -1 : end);
        return;
      }
      if (pending.length === 0 && isHeaderObject(value) && headerVersion(value) >= CURRENT_SESSION_VERSION)
        streaming = true;
      pending.push({ value, line: lineNo });
    },

    finish(newId: NewId | undefined): ParseResult {
      const first = pending[0];
      if (first === undefined) {
        if (sawNul)
          return {
            ok: false,
            error: { message: "Not a pi session: the file is binary (it contains NUL bytes)." },
          };
        if (problems.length === 0) return { ok: false, error: { message: EMPTY_FILE_MESSAGE } };
        return {
          ok: false,
          error: {
            message: "Not a pi session: no line of the file is valid JSON.",
            line: problems[0]?.line ?? 1,
          },
        };
      }
      const head = first.value;
      if (!isHeaderObject(head)) {
        const message = sawNul
          ? "Not a pi session: the file is binary (it contains NUL bytes)."
          : `Not a pi session: the first JSON object (line ${first.line}) is not a session header with a string id.`;
        return { ok: false, error: { message, line: first.line } };
      }
      const migration = migrateToV3(head, pending.slice(1), newId);
      for (const { value, line } of migration.objects) accept(value, line, -1, -1);
      problems.sort((a, b) => a.line - b.line);
      return {
        ok: true,
        value: {
          header: migration.header,
          entries,
          lines,
          entryCount,
          problems,
          originalVersion: migration.fromVersion,
          // Entries that need no migration are exactly the objects on their lines.
          ...(streaming ? { verbatimSpans: Float64Array.from(spans) } : {}),
        },
      };
    },
  };
}

/** Feeds UTF-8 bytes of any size (a line may span pieces); see `parseSessionBytes`. */
export interface SessionByteParser {
  push(bytes: Uint8Array): void;
  finish(): ParseResult;
}

/**
 * A parser over the UTF-8 bytes of a file, for large files (the import worker, the CLI). It
 * gives the same result as the text parser, and in addition, when the entries need no migration,
 * `verbatimSpans`: the byte span of each entry's line, so that the stored and exported JSONL are
 * the input's own bytes (no re-serialization).
 *
 * Each line is decoded on its own: a line of ASCII bytes (most of a session) through the
 * single-byte decoder, which is several times faster in V8 than UTF-8 decoding and gives a
 * one-byte string that JSON.parse reads faster too; other lines through the UTF-8 decoder.
 */
export function createSessionByteParser(options: StreamOptions = {}): SessionByteParser {
  const lines = createAssembler(options);
  const decodeLine = createLineDecoder();
  /** Bytes of an unfinished line from earlier pieces, and the offset where that line starts. */
  let carry: Uint8Array[] = [];
  let carryStart = 0;
  /** Absolute offset of the next byte pushed. */
  let offset = 0;
  let finished = false;

  const concatCarry = (tail: Uint8Array): Uint8Array => {
    const total = carry.reduce((n, c) => n + c.length, tail.length);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of carry) {
      out.set(c, at);
      at += c.length;
    }
    out.set(tail, at);
    carry = [];
    return out;
  };

  return {
    push(input: Uint8Array): void {
      if (finished) throw new Error("SessionByteParser.push after finish");
      let bytes = input;
      let base = offset;
      offset += input.length;
      if (base === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        bytes = bytes.subarray(3);
        base = 3;
      }
      let start = 0;
      let newline = bytes.indexOf(10);
      if (newline >= 0 && carry.length > 0) {
        const lineStart = carryStart;
        const line = concatCarry(bytes.subarray(0, newline));
        lines.handle(decodeLine(line), false, lineStart, lineStart + line.length);
        start = newline + 1;
        newline = bytes.indexOf(10, start);
      }
      while (newline >= 0) {
        lines.handle(decodeLine(bytes.subarray(start, newline)), false, base + start, base + newline);
        start = newline + 1;
        newline = bytes.indexOf(10, start);
      }
      if (start < bytes.length) {
        if (carry.length === 0) carryStart = base + start;
        // Copied: the caller may reuse its buffer.
        carry.push(bytes.slice(start));
      }
    },

    finish(): ParseResult {
      if (finished) throw new Error("SessionByteParser.finish called twice");
      finished = true;
      if (carry.length > 0) {
        const lineStart = carryStart;
        const line = concatCarry(new Uint8Array(0));
        lines.handle(decodeLine(line), true, lineStart, lineStart + line.length);
      }
      return lines.finish(options.newId);
    },
  };
}

/** Parses a whole file's bytes (see `createSessionByteParser`). */
export function parseSessionBytes(bytes: Uint8Array, options: StreamOptions = {}): ParseResult {
  const parser = createSessionByteParser(options);
  parser.push(bytes);
  return parser.finish();
}

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
  // "latin1" is windows-1252 in the Encoding standard: identical to ASCII below 0x80, and every
  // byte >= 0x80 decodes to a character >= 0x80, which the test below catches (as it does for
  // String.fromCharCode, which maps byte b to U+00b).
  const single = new TextDecoder("latin1");
  const utf8 = new TextDecoder("utf-8");
  return (bytes) => {
    const fast =
      bytes.length <= SHORT_LINE_BYTES
        ? String.fromCharCode.apply(null, bytes as unknown as number[])
        : single.decode(bytes);
    return NON_ASCII.test(fast) ? utf8.decode(bytes) : fast;
  };
}

function safeStringify(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

/** Parses a whole JSONL text. See the module comment. */
export function parseSessionJsonl(text: string, options: ParseOptions = {}): ParseResult {
  const bytes = new TextEncoder().encode(text);
  const parser = createSessionByteParser(options.newId ? { newId: options.newId } : {});
  const { onProgress } = options;
  for (let start = 0; start < bytes.length; start += PROGRESS_STEP) {
    parser.push(bytes.subarray(start, start + PROGRESS_STEP));
    if (bytes.length > PROGRESS_STEP) onProgress?.(Math.min(1, (start + PROGRESS_STEP) / bytes.length));
  }
  const result = parser.finish();
  onProgress?.(1);
  if (!result.ok) return result;
  // Byte offsets into an encoding of the caller's string mean nothing to the caller.
  const { verbatimSpans: _spans, ...value } = result.value;
  return { ok: true, value };
}
