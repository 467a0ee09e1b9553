/**
 * The newest entries of a session file, read from its first and last bytes only: what the import
 * shows while the whole file is still being parsed. For display only: nothing here is stored, and
 * nothing is planned or counted from it (the import checks every line and reports what is wrong).
 */
import { headerVersion } from "./migrate.ts";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "./types.ts";
import { entryProblem, isHeaderObject } from "./validate.ts";

/** Entries a preview holds at most (the newest ones): about two screens of rows and then some. */
export const PREVIEW_ENTRIES = 300;

export interface TailPreview {
  header: SessionHeader;
  /** The newest valid entries of the tail, in file order (at most PREVIEW_ENTRIES). */
  entries: SessionEntry[];
}

const LF = 10;

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * The preview of a file from `head` (its first bytes, holding the header line) and `tail` (its
 * bytes from `tailStart` to the end). Undefined when the header is not a current session header
 * (an older file's entries get their ids from the migration of the whole file) or when no valid
 * entry is in the tail. The tail's first line is skipped unless the tail starts the file (it may
 * be the end of a longer line); a line that does not parse or is not a valid entry is left out.
 */
export function tailPreview(
  head: Uint8Array,
  tail: Uint8Array,
  tailStart: number,
  max = PREVIEW_ENTRIES,
): TailPreview | undefined {
  const decoder = new TextDecoder("utf-8");
  const headEnd = head.indexOf(LF);
  if (headEnd === -1) return undefined;
  const header = parsed(decoder.decode(head.subarray(0, headEnd)).trim());
  if (!isHeaderObject(header) || headerVersion(header) < CURRENT_SESSION_VERSION) return undefined;
  let from = 0;
  if (tailStart > 0) {
    const firstEnd = tail.indexOf(LF);
    if (firstEnd === -1) return undefined;
    from = firstEnd + 1;
  }
  const entries: SessionEntry[] = [];
  for (const line of decoder.decode(tail.subarray(from)).split("\n")) {
    const text = line.trim();
    if (text === "") continue;
    const value = parsed(text);
    if (value !== undefined && entryProblem(value, true) === undefined) entries.push(value as SessionEntry);
  }
  if (entries.length === 0) return undefined;
  return { header, entries: entries.length > max ? entries.slice(-max) : entries };
}
