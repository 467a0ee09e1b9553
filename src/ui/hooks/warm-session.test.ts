// The load-time warmer: after it and warmViews, the tree data and path are those of a fresh build.
import { describe, expect, it } from "vitest";
import { estimateEntries } from "../../core/compaction/entry-messages.ts";
import { buildTreeIndex, currentPath, resolveLabels, resolveLeafId } from "../../core/session/index.ts";
import { assistant, entry, msg, user } from "../../core/session/test-builders.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { buildTimelineModel, entryTokens, timelineModel } from "../timeline/timeline-model.ts";
import { sessionPath, treeData } from "../tree/tree-model.ts";
import { addPathWarmer, isPathWarming, warmPathModels, warmViews } from "./warm-session.ts";

/** A long chain with a branch at entry 100 and labels here and there. */
function session(n: number): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const id = `e${i}`;
    out.push(msg(id, parent, i % 2 === 0 ? user(`question ${i}`) : assistant(`answer ${i}`)));
    parent = id;
    if (i === 100) out.push(msg("side", "e99", user("a branch")));
    if (i % 5000 === 7) out.push(entry("label", `l${i}`, id, { targetId: "e3", label: `label ${i}` }));
  }
  return out;
}

describe("warm-session", () => {
  it("fed in pieces as the loader does, leaves the tree data and path of a fresh build", async () => {
    const all = session(40_000);
    const growing: SessionEntry[] = [];
    for (let at = 0; at < all.length; at += 64) {
      const from = growing.length;
      growing.push(...all.slice(at, at + 64));
      estimateEntries(growing, from);
    }
    // The loader hands over its own array; a copy here so nothing is shared with the test's list.
    const loaded = growing.slice();
    await warmViews(loaded);
    const data = treeData(loaded);
    const fresh = buildTreeIndex(all);
    expect(data.index.byId.size).toBe(fresh.byId.size);
    expect(data.leafId).toBe(resolveLeafId(all));
    expect([...data.labels]).toEqual([...resolveLabels(all)]);
    const path = currentPath(all);
    expect(sessionPath(loaded).map((e) => e.id)).toEqual(path.map((e) => e.id));
    expect([...data.pathIds]).toEqual(path.map((e) => e.id));
    expect(data.index.children.get("e99")?.map((e) => e.id)).toEqual(["e100", "side"]);
    // Token estimates come from the shared cache: the same numbers as a count from scratch.
    expect(entryTokens(all[1]!)).toBe(Math.ceil("answer 1".length / 4));
  });

  it("builds the timeline model; then runs each path warmer with the path, one step at a time, the path warming until they are done; stops when aborted", async () => {
    const all = session(3_000);
    const seen: { sessionId: string; length: number; steps: number; warming: boolean }[] = [];
    addPathWarmer(async (sessionId, path, step) => {
      const record = { sessionId, length: path.length, steps: 0, warming: isPathWarming(path) };
      seen.push(record);
      for (let k = 0; k < 3; k++) {
        await step("part");
        record.steps++;
      }
    });
    await warmViews(all);
    expect(seen).toEqual([]);
    const model = timelineModel(all);
    expect(timelineModel(all)).toBe(model);
    const fresh = buildTimelineModel(all);
    expect([...model.totals]).toEqual([...fresh.totals]);
    expect(model.path.map((e) => e.id)).toEqual(fresh.path.map((e) => e.id));

    const path = sessionPath(all);
    const models = warmPathModels("s1", path);
    expect(isPathWarming(path)).toBe(true);
    await models;
    expect(isPathWarming(path)).toBe(false);
    expect(seen).toEqual([{ sessionId: "s1", length: currentPath(all).length, steps: 3, warming: true }]);

    const controller = new AbortController();
    const other = sessionPath(session(2_000));
    const done = warmPathModels("s2", other, controller.signal);
    controller.abort();
    await done;
    // Aborted before the warmers: none of them ran for s2 (it resolves, never throws), and the
    // path is no longer warming (its views build the model themselves when asked).
    expect(seen.map((r) => r.sessionId)).toEqual(["s1"]);
    expect(isPathWarming(other)).toBe(false);
  });
});
