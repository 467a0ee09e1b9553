/**
 * Parsing a pi session JSONL file (docs/session-format.md §2) into a header and v3 entries.
 *
 * - One pass over the bytes: they are cut into lines and decoded in runs of whole lines
 *   (parse-split.ts), each non-blank line goes through JSON.parse once. A UTF-8 BOM is dropped;
 *   CRLF endings and blank lines are accepted; the result counts them (`normalized`), since the
 *   export writes neither.
 * - Not a session at all -> `{ok:false}`: empty text, NUL bytes before the header (binary), or
 *   a first parsed JSON value that is not `{type:"session", id:<string>}`. As in pi, lines that
 *   are not JSON before the header are skipped (and reported).
 * - Bad lines become `problems` (1-based physical line, kind, reason, excerpt; damage.ts): not
 *   JSON, not a valid entry (validate.ts), nested deeper than MAX_JSON_DEPTH, or an id that an
 *   earlier entry has; they are left out. A line that is not valid UTF-8 is kept with U+FFFD for
 *   its bad bytes, reported, and never kept verbatim (export writes it anew, as valid UTF-8).
 * - Then the tree (damage.ts): missing parents, cycles, compactions keeping from off their path;
 *   the result says how long the current path is.
 * - Migrations run inside (migrate.ts); v1 ids are deterministic (derived from the session id
 *   and the object index) unless `newId` is given.
 *
 * Ways in: `createSessionByteParser()` whose `push(bytes)` takes the file's bytes in pieces of
 * any size (lines may span pieces) and whose `finish()` returns the result (the import,
 * the CLI); `parseSessionBytes(bytes)` for a whole file; `parseSessionJsonl(text)` for a string
 * (tests), which encodes it and parses the bytes.
 */
import { createTreeScanner, type LineProblem, type PathSummary } from "./damage.ts";
import { headerVersion, migrateToV3, type NewId, type ParsedObject } from "./migrate.ts";
import { excerptAround, excerptOf, isBlank, MAX_JSON_DEPTH, nestedTooDeep } from "./parse-lines.ts";
import { createLineSplitter } from "./parse-split.ts";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "./types.ts";
import { entryProblem, isHeaderObject } from "./validate.ts";

export type { LineProblem } from "./damage.ts";
export { createLineDecoder } from "./parse-lines.ts";

export interface ParsedSession {
  header: SessionHeader;
  /** Empty when parsed with `retainEntries: false`. */
  entries: SessionEntry[];
  /** 1-based physical line of each entry (same length as `entries`). */
  lines: number[];
  /** Number of entries (also when they were not retained). */
  entryCount: number;
  /** Every problem of the file, line by line (line problems and tree damage, see damage.ts). */
  problems: LineProblem[];
  /** The current path of the entries read (what the app shows after an import). */
  path: PathSummary;
  /** The header's version before migration (a missing version means 1). */
  originalVersion: number;
  /** What the export writes differently from the file's bytes (see `Normalized`). */
  normalized: Normalized;
  /**
   * Parsed from bytes (`parseSessionBytes`) and no migration was needed: for entry i, the byte
   * span [verbatimSpans[2i], verbatimSpans[2i+1]) of its line in the input, without the "\n";
   * -1, -1 when the line cannot be kept as it is (a CRLF line, invalid UTF-8). Export writes these bytes
   * unchanged, so a v3 file is stored and exported byte for byte (see export.ts).
   */
  verbatimSpans?: Float64Array;
}

/**
 * What the parser read past that the file has and a v3 export does not write: a BOM, CRLF line
 * ends, blank lines, a last line without "\n" (the export writes UTF-8 without BOM, "\n" after
 * every line, no blank line). Nothing of the session changes; only its bytes differ.
 */
export interface Normalized {
  bom: boolean;
  /** Non-blank lines that ended in "\r\n". */
  crlfLines: number;
  /** Lines with nothing but spaces (or a lone "\r"). */
  blankLines: number;
  /** The last line had no "\n" after it. */
  noFinalNewline: boolean;
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

const PROGRESS_STEP = 4 * 1024 * 1024;

const DEPTH_REASON = `nested more than ${MAX_JSON_DEPTH.toLocaleString("en-US")} levels deep`;
const UTF8_REASON = "not valid UTF-8: the bad bytes are read as U+FFFD and the entry is kept";

/** Streaming options of the parsers (see `createSessionByteParser`). */
export interface StreamOptions {
  newId?: NewId;
  /**
   * Called with each entry as it is accepted, in file order, with its index among the entries
   * and whether its line is kept verbatim (it has a span in `verbatimSpans`; `line` is then its
   * text). For a file that needs no migration this happens while parsing; otherwise at `finish()`.
   */
  onEntry?: (entry: SessionEntry, index: number, verbatim: boolean, line?: string) => void;
  /**
   * false: `entries` and `lines` of the result stay empty (use `onEntry` and `entryCount`).
   * Parsed objects then die young, which makes a 100 MB import several times cheaper in GC.
   */
  retainEntries?: boolean;
}

function sourceText(source: string | (() => string)): string {
  return typeof source === "string" ? source : source();
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
  const tree = createTreeScanner();
  let entryCount = 0;
  let streaming = false;
  let lineNo = 0;
  let sawNul = false;
  const normalized: Normalized = { bom: false, crlfLines: 0, blankLines: 0, noFinalNewline: false };

  /** Lines whose bytes were not valid UTF-8 (kept when they are valid entries). */
  const invalidUtf8 = new Set<number>();

  const bad = (line: number, reason: string, excerpt: string): void => {
    problems.push({ line, kind: "bad-line", reason, excerpt: excerptOf(excerpt) });
  };

  /** Validates one object as an entry; `start` < 0: no verbatim span. */
  /**
   * `source`: the line's text, or (for a migrated object) how to write it; read only for a problem.
   * A string rather than a closure on the streaming path: one closure per line is garbage.
   */
  const accept = (
    value: unknown,
    line: number,
    start: number,
    end: number,
    source: string | (() => string),
  ): void => {
    // Shape first, then ids: in a v1 file a bad object got no id, and its shape is the real reason.
    const reason = entryProblem(value, false) ?? entryProblem(value, true);
    const utf8 = invalidUtf8.has(line);
    if (reason !== undefined) {
      bad(line, utf8 ? `${reason} (and not valid UTF-8)` : reason, sourceText(source));
      return;
    }
    const entry = value as SessionEntry;
    const duplicate = tree.add(entry, line);
    if (duplicate) {
      problems.push({ ...duplicate, excerpt: excerptOf(sourceText(source)) });
      return;
    }
    if (utf8)
      problems.push({
        line,
        kind: "invalid-utf8",
        reason: UTF8_REASON,
        excerpt: excerptAround(sourceText(source), "\uFFFD"),
      });
    if (retainEntries) {
      entries.push(entry);
      lines.push(line);
    }
    const verbatim = start >= 0 && !utf8;
    spans.push(verbatim ? start : -1, verbatim ? end : -1);
    onEntry?.(entry, entryCount, verbatim, verbatim && typeof source === "string" ? source : undefined);
    entryCount++;
  };

  return {
    /**
     * One physical line (without its "\n") and its byte span [start, end) in the input, so that
     * export can write the line's bytes as they are.
     */
    handle(raw: string, invalid: boolean, isLast: boolean, start: number, end: number, bom: boolean): void {
      lineNo++;
      if (bom) normalized.bom = true;
      const hasCr = raw.charCodeAt(raw.length - 1) === 13;
      const line = hasCr ? raw.slice(0, -1) : raw;
      if (isBlank(line)) {
        normalized.blankLines++;
        return;
      }
      if (hasCr) normalized.crlfLines++;
      if (isLast) normalized.noFinalNewline = true;
      if (pending.length === 0 && line.includes("\u0000")) sawNul = true;
      if (nestedTooDeep(line)) {
        bad(lineNo, DEPTH_REASON, line);
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        let reason = "not valid JSON";
        if (line.includes("\u0000") || invalid) reason = "binary data, not JSON";
        else if (isLast && line.trimStart().startsWith("{")) reason = "truncated last line (incomplete JSON)";
        bad(lineNo, reason, line);
        return;
      }
      if (invalid) invalidUtf8.add(lineNo);
      if (streaming) {
        // A CRLF line is rewritten on export (JSONL lines end in "\n" alone): no verbatim span.
        accept(value, lineNo, hasCr ? -1 : start, hasCr ? -1 : end, line);
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
      if (invalidUtf8.has(first.line))
        problems.push({
          line: first.line,
          kind: "invalid-utf8",
          reason: "the header is not valid UTF-8: the bad bytes are read as U+FFFD",
          excerpt: excerptOf(safeStringify(head)),
        });
      const migration = migrateToV3(head, pending.slice(1), newId);
      for (const { value, line } of migration.objects)
        accept(value, line, -1, -1, () => safeStringify(value));
      const report = tree.finish(problems);
      problems.push(...report.problems);
      problems.sort((a, b) => a.line - b.line);
      return {
        ok: true,
        value: {
          header: migration.header,
          entries,
          lines,
          entryCount,
          problems,
          path: report.path,
          originalVersion: migration.fromVersion,
          normalized,
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
 * A parser over the UTF-8 bytes of a file, for large files (the import, the CLI). It
 * gives the same result as the text parser, and in addition, when the entries need no migration,
 * `verbatimSpans`: the byte span of each entry's line, so that the stored and exported JSONL are
 * the input's own bytes (no re-serialization). Lines are cut and decoded by parse-split.ts.
 */
export function createSessionByteParser(options: StreamOptions = {}): SessionByteParser {
  const lines = createAssembler(options);
  const splitter = createLineSplitter(lines.handle);
  let finished = false;
  return {
    push(bytes: Uint8Array): void {
      if (finished) throw new Error("SessionByteParser.push after finish");
      splitter.push(bytes);
    },
    finish(): ParseResult {
      if (finished) throw new Error("SessionByteParser.finish called twice");
      finished = true;
      splitter.finish();
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

/** For excerpts of migrated objects (no raw line at hand); lines too deep never get here. */
function safeStringify(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text;
  } catch {
    return String(value);
  }
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
