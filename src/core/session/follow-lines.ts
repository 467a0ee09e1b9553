/**
 * Following a session file another program appends to (pi writing its JSONL): the complete lines
 * in what was appended since the last read, the entries among them that are new, and a short
 * summary of a file for a folder listing. Pure: the reads are the caller's.
 */

import type { SessionEntry } from "./types.ts";
import { entryProblem } from "./validate.ts";

/** What a read of the appended bytes gave: whole lines, and the unfinished line kept for next time. */
export interface AppendedLines {
  lines: string[];
  /** Text after the last newline: a line the writer has not finished yet. */
  rest: string;
}

/** Splits `rest + appended` into complete, non-blank lines and the unfinished tail. */
export function takeLines(rest: string, appended: string): AppendedLines {
  const text = rest + appended;
  const end = text.lastIndexOf("\n");
  if (end < 0) return { lines: [], rest: text };
  const lines = text
    .slice(0, end)
    .split("\n")
    .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== "");
  return { lines, rest: text.slice(end + 1) };
}

/** A line that could not be followed (not JSON, not an entry), with why. */
export interface FollowProblem {
  line: string;
  reason: string;
}

/** The entries among appended lines that are not known yet (by id), and the lines refused. */
export function newEntries(
  lines: readonly string[],
  known: (id: string) => boolean,
): { entries: SessionEntry[]; problems: FollowProblem[] } {
  const entries: SessionEntry[] = [];
  const problems: FollowProblem[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push({ line, reason: "not JSON" });
      continue;
    }
    if (typeof value === "object" && value !== null && (value as { type?: unknown }).type === "session")
      continue;
    const problem = entryProblem(value, true);
    if (problem) {
      problems.push({ line, reason: problem });
      continue;
    }
    const entry = value as SessionEntry;
    if (known(entry.id) || seen.has(entry.id)) continue;
    seen.add(entry.id);
    entries.push(entry);
  }
  return { entries, problems };
}

/** What a folder listing shows of one session file. */
export interface SessionFileSummary {
  id: string | undefined;
  cwd: string | undefined;
  /** The latest session_info name, if any. */
  name: string | undefined;
  /** The first user message's text, cut short (the title when there is no name). */
  firstMessage: string | undefined;
  entries: number;
  compactions: number;
}

/** Reads a whole session file's text for the listing: header, name, counts. Never throws. */
export function summarizeSessionText(text: string): SessionFileSummary {
  const out: SessionFileSummary = {
    id: undefined,
    cwd: undefined,
    name: undefined,
    firstMessage: undefined,
    entries: 0,
    compactions: 0,
  };
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let v: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== "object" || parsed === null) continue;
      v = parsed as Record<string, unknown>;
    } catch {
      continue;
    }
    if (v.type === "session") {
      out.id = typeof v.id === "string" ? v.id : undefined;
      out.cwd = typeof v.cwd === "string" ? v.cwd : undefined;
      continue;
    }
    out.entries++;
    if (v.type === "compaction") out.compactions++;
    if (v.type === "session_info" && typeof v.name === "string") out.name = v.name.trim() || undefined;
    if (out.firstMessage === undefined && v.type === "message") out.firstMessage = userText(v.message);
  }
  return out;
}

function userText(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as { role?: unknown; content?: unknown };
  if (m.role !== "user") return undefined;
  const text =
    typeof m.content === "string"
      ? m.content
      : Array.isArray(m.content)
        ? m.content
            .map((b: { type?: unknown; text?: unknown }) => (b.type === "text" ? String(b.text) : ""))
            .join(" ")
        : "";
  const one = text.replace(/\s+/g, " ").trim();
  return one === "" ? undefined : one.length > 80 ? `${one.slice(0, 79)}…` : one;
}
