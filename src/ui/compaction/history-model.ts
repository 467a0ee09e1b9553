/** The compactions of a path with what each replaced and where its kept range starts (pure). */
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";

export interface HistoryItem {
  index: number;
  entry: CompactionEntry;
  /** Path index where its kept range starts (-1 when the id is not on the path). */
  keptIndex: number;
  /** Entries it summarized: from the previous window start to its kept range (or to itself). */
  replaced: number;
  previous: CompactionEntry | undefined;
}

/** The compactions of a path with what each replaced (pure). */
export function compactionHistory(path: readonly SessionEntry[]): HistoryItem[] {
  const ids = new Map<string, number>();
  path.forEach((e, i) => {
    if (!ids.has(e.id)) ids.set(e.id, i);
  });
  const out: HistoryItem[] = [];
  let windowStart = 0;
  let previous: CompactionEntry | undefined;
  path.forEach((e, i) => {
    if (e.type !== "compaction") return;
    const c = e as CompactionEntry;
    const kept = typeof c.firstKeptEntryId === "string" ? (ids.get(c.firstKeptEntryId) ?? -1) : -1;
    const end = kept >= 0 && kept < i ? kept : i;
    out.push({ index: i, entry: c, keptIndex: kept, replaced: Math.max(0, end - windowStart), previous });
    windowStart = kept >= 0 && kept < i ? kept : i + 1;
    previous = c;
  });
  return out;
}
