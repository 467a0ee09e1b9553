/**
 * JSONL session entries parsed a few hundred lines per step (core/session/steps.ts), each kept
 * with its own line: sync sends and stores the lines as they are, without writing them again.
 */
import type { Steps } from "../session/steps.ts";
import type { SessionEntry } from "../session/types.ts";

export interface ParsedLines {
  entries: SessionEntry[];
  /** The JSON text of each entry (no line end), as read. */
  lines: string[];
}

/** Lines parsed per step: a few ms of JSON.parse for the big entries of a long session. */
const LINES_PER_STEP = 64;

/**
 * Parses the non-empty lines of `text` from `from` into `into`; throws on a line that is not
 * JSON (the caller says what that means for its text).
 */
export function* parseLinesSteps(
  text: string,
  into: ParsedLines = { entries: [], lines: [] },
  from = 0,
): Steps<ParsedLines> {
  yield* eachLineSteps(
    text,
    (entry, line) => {
      into.entries.push(entry);
      into.lines.push(line);
    },
    from,
  );
  return into;
}

/** Hands each non-empty line of `text` from `from`, parsed, to `use` (and keeps nothing); throws as `parseLinesSteps`. */
export function* eachLineSteps(
  text: string,
  use: (entry: SessionEntry, line: string) => void,
  from = 0,
): Steps<void> {
  let pos = from;
  let n = 0;
  while (pos < text.length) {
    let end = text.indexOf("\n", pos);
    if (end === -1) end = text.length;
    if (end > pos) {
      const line = text.slice(pos, end);
      use(JSON.parse(line) as SessionEntry, line);
      if (++n % LINES_PER_STEP === 0) yield;
    }
    pos = end + 1;
  }
}

/** Each parsed entry's line, by the entry (what was read goes on as it was read). */
export function linesByEntry(parsed: ParsedLines): Map<SessionEntry, string> {
  const out = new Map<SessionEntry, string>();
  for (let i = 0; i < parsed.entries.length; i++) out.set(parsed.entries[i]!, parsed.lines[i]!);
  return out;
}
