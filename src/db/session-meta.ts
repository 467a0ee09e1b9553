/**
 * Session metadata derived from the entries, so that the session list never loads entries.
 * Pure functions; the repositories store their results in the `sessions` table.
 */
import { oneLine } from "../core/session/one-line.ts";
import { getSessionName, resolveLeafId } from "../core/session/tree.ts";
import type { SessionEntry, SessionHeader } from "../core/session/types.ts";
import { isMessageEntry, isSessionInfoEntry } from "../core/session/types.ts";

/** Longest excerpt of the first user message kept in the metadata. */
export const FIRST_MESSAGE_MAX = 200;

export interface EntriesMeta {
  entryCount: number;
  /** Latest session_info name (trimmed); undefined when none or cleared. */
  name: string | undefined;
  /** Excerpt of the first user message ("" when there is none). */
  firstUserMessage: string;
  /** The current leaf: last entry, or a trailing `leaf` entry's target; null = before the first. */
  leafId: string | null;
  /** ms since epoch of the last entry (or undefined when there are none or it has no valid time). */
  lastTimestamp: number | undefined;
}

/** The text of a user message entry, or undefined when the entry is not one. */
export function userText(entry: SessionEntry): string | undefined {
  if (!isMessageEntry(entry) || entry.message.role !== "user") return undefined;
  const content = entry.message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (b && b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .filter((t) => t !== "")
    .join(" ");
}

function entryTime(entry: SessionEntry | undefined): number | undefined {
  if (!entry) return undefined;
  const t = Date.parse(String(entry.timestamp));
  return Number.isFinite(t) ? t : undefined;
}

/** Metadata built one entry at a time (the import feeds it as it parses). */
export function createMetaAccumulator() {
  let entryCount = 0;
  let name: string | undefined;
  let first = "";
  let last: SessionEntry | undefined;
  return {
    add(entry: SessionEntry): void {
      entryCount++;
      last = entry;
      if (isSessionInfoEntry(entry)) name = getSessionName([entry]);
      if (first === "") {
        const text = userText(entry);
        if (text !== undefined && text.trim() !== "") first = oneLine(text, FIRST_MESSAGE_MAX);
      }
    },
    result(): EntriesMeta {
      return {
        entryCount,
        name,
        firstUserMessage: first,
        leafId: resolveLeafId(last ? [last] : []) ?? null,
        lastTimestamp: entryTime(last),
      };
    },
  };
}

export function deriveMeta(entries: readonly SessionEntry[]): EntriesMeta {
  const meta = createMetaAccumulator();
  for (const entry of entries) meta.add(entry);
  return meta.result();
}

/** Metadata after appending `added` to a session whose metadata was `prev`. */
export function appendMeta(prev: EntriesMeta, added: readonly SessionEntry[]): EntriesMeta {
  if (added.length === 0) return prev;
  const tail = deriveMeta(added);
  let name = prev.name;
  if (added.some(isSessionInfoEntry)) name = tail.name;
  return {
    entryCount: prev.entryCount + added.length,
    name,
    firstUserMessage: prev.firstUserMessage !== "" ? prev.firstUserMessage : tail.firstUserMessage,
    leafId: tail.leafId,
    lastTimestamp: tail.lastTimestamp ?? prev.lastTimestamp,
  };
}

/** Creation time of a session in ms (header timestamp), falling back to `fallback`. */
export function headerTime(header: SessionHeader, fallback: number): number {
  const t = Date.parse(String(header.timestamp));
  return Number.isFinite(t) ? t : fallback;
}
