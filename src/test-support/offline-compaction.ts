/** Test helper: an offline-summary compaction at pi's default settings, confirmed at the session's leaf. */
import { generateOfflineCompaction } from "../core/compaction/offline-summary.ts";
import { planCompaction } from "../core/compaction/plan.ts";
import { currentPath } from "../core/session/tree.ts";
import type { CompactionEntry, SessionEntry } from "../core/session/types.ts";
import type { CutpointDb } from "../db/schema.ts";
import { confirmCompaction } from "../services/compaction/compaction-runner.ts";

export async function confirmOfflineCompaction(
  db: CutpointDb,
  sessionId: string,
  entries: readonly SessionEntry[],
): Promise<CompactionEntry> {
  const r = planCompaction(currentPath([...entries]), { reserveTokens: 16384, keepRecentTokens: 20000 });
  if (!r.ok) throw new Error(r.reason);
  const gen = generateOfflineCompaction(r.plan);
  if (!gen.ok) throw new Error(gen.error);
  const leaf = currentPath([...entries]).at(-1)!.id;
  const c = await confirmCompaction(db, {
    sessionId,
    parentId: leaf,
    expectedLeafId: leaf,
    fields: gen.fields,
  });
  if (!c.ok) throw new Error(c.error.message);
  return c.value.entry;
}
