/**
 * Parsing a pi session JSONL file (pi-session-format.md §1) into a header and v3 entries.
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
 * Two ways in: `parseSessionJsonl(text, { onProgress })` for a whole string, and
 * `createSessionParser()` whose `push(chunk)` takes text chunks of any size (lines may span
 * chunks) and whose `finish()` returns the same result, for a Web Worker reading a File stream.
 */
import { migrateToV3, type NewId, type ParsedObject } from "./migrate.ts";
import type { SessionEntry, SessionHeader } from "./types.ts";
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
  entries: SessionEntry[];
  /** 1-based physical line of each entry (same length as `entries`). */
  lines: number[];
  problems: LineProblem[];
  /** The header's version before migration (a missing version means 1). */
  originalVersion: number;
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

export interface SessionParser {
  /** Feeds the next piece of text. */
  push(chunk: string): void;
  /** Ends the input and returns the result. */
  finish(): ParseResult;
}

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

export function createSessionParser(options: Pick<ParseOptions, "newId"> = {}): SessionParser {
  const objects: ParsedObject[] = [];
  const problems: LineProblem[] = [];
  let carry = "";
  let lineNo = 0;
  let started = false;
  let sawNul = false;
  let finished = false;

  const handleLine = (raw: string, isLast: boolean): void => {
    lineNo++;
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (isBlank(line)) return;
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
    objects.push({ value, line: lineNo });
  };

  return {
    push(chunk: string): void {
      if (finished) throw new Error("SessionParser.push after finish");
      let text = chunk;
      if (!started && text.length > 0) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (objects.length === 0 && text.includes("\u0000")) sawNul = true;
      let start = 0;
      let newline = text.indexOf("\n");
      if (newline >= 0 && carry !== "") {
        handleLine(carry + text.slice(0, newline), false);
        carry = "";
        start = newline + 1;
        newline = text.indexOf("\n", start);
      }
      while (newline >= 0) {
        handleLine(text.slice(start, newline), false);
        start = newline + 1;
        newline = text.indexOf("\n", start);
      }
      carry = start === 0 ? carry + text : text.slice(start);
    },

    finish(): ParseResult {
      if (finished) throw new Error("SessionParser.finish called twice");
      finished = true;
      if (carry !== "") handleLine(carry, true);
      carry = "";
      return buildResult(objects, problems, sawNul, options.newId);
    },
  };
}

function buildResult(
  objects: ParsedObject[],
  problems: LineProblem[],
  sawNul: boolean,
  newId: NewId | undefined,
): ParseResult {
  const first = objects[0];
  if (first === undefined) {
    if (sawNul)
      return {
        ok: false,
        error: { message: "Not a pi session: the file is binary (it contains NUL bytes)." },
      };
    if (problems.length === 0)
      return { ok: false, error: { message: "Not a pi session: the file is empty." } };
    return {
      ok: false,
      error: {
        message: "Not a pi session: no line of the file is valid JSON.",
        line: problems[0]?.line ?? 1,
      },
    };
  }
  const head = first.value;
  if (!isPlainObject(head) || head.type !== "session" || typeof head.id !== "string") {
    const message = sawNul
      ? "Not a pi session: the file is binary (it contains NUL bytes)."
      : `Not a pi session: the first JSON object (line ${first.line}) is not a session header with a string id.`;
    return { ok: false, error: { message, line: first.line } };
  }
  const migration = migrateToV3(head as SessionHeader, objects.slice(1), newId);
  const entries: SessionEntry[] = [];
  const lines: number[] = [];
  const seen = new Set<string>();
  for (const { value, line } of migration.objects) {
    // Shape first, then ids: in a v1 file a bad object got no id, and its shape is the real reason.
    const reason = entryProblem(value, false) ?? entryProblem(value, true);
    if (reason !== undefined) {
      problems.push({ line, reason, excerpt: excerptOf(safeStringify(value)) });
      continue;
    }
    const entry = value as SessionEntry;
    if (seen.has(entry.id)) {
      problems.push({ line, reason: `duplicate id "${entry.id}"`, excerpt: excerptOf(safeStringify(value)) });
      continue;
    }
    seen.add(entry.id);
    entries.push(entry);
    lines.push(line);
  }
  problems.sort((a, b) => a.line - b.line);
  return {
    ok: true,
    value: { header: migration.header, entries, lines, problems, originalVersion: migration.fromVersion },
  };
}

function safeStringify(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

/** Parses a whole JSONL text. See the module comment. */
export function parseSessionJsonl(text: string, options: ParseOptions = {}): ParseResult {
  const parser = createSessionParser(options.newId ? { newId: options.newId } : {});
  const onProgress = options.onProgress;
  if (onProgress === undefined || text.length <= PROGRESS_STEP) {
    parser.push(text);
  } else {
    for (let start = 0; start < text.length; start += PROGRESS_STEP) {
      parser.push(text.slice(start, start + PROGRESS_STEP));
      onProgress(Math.min(1, (start + PROGRESS_STEP) / text.length));
    }
  }
  const result = parser.finish();
  onProgress?.(1);
  return result;
}
