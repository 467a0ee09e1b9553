/** The compaction history on the real fixture: what each compaction replaced, where its kept range starts. */
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../core/compaction/test-fixture.ts";
import { buildTreeIndex, getPath, resolveLeafId } from "../../core/session/tree.ts";
import { compactionHistory } from "./history-model.ts";

describe("compaction history on the real fixture", () => {
  it("lists both compactions with what they replaced and where their kept range starts", () => {
    const f = loadFixture();
    const path = getPath(buildTreeIndex(f.entries).byId, resolveLeafId(f.entries));
    const items = compactionHistory(path);
    expect(items).toHaveLength(2);
    const [first, second] = items;
    expect(first!.previous).toBeUndefined();
    expect(second!.previous).toBe(first!.entry);
    for (const it of items) {
      expect(it.keptIndex).toBeGreaterThanOrEqual(0);
      expect(it.keptIndex).toBeLessThan(it.index);
      expect(path[it.keptIndex]!.id).toBe(it.entry.firstKeptEntryId);
      expect(it.replaced).toBeGreaterThan(0);
    }
    // The second compaction's window starts where the first one's kept range started.
    expect(second!.replaced).toBe(second!.keptIndex - first!.keptIndex);
  });
});
