/**
 * Moving the cut on the real fixture: prev/next, page up/down by ~5k tokens, snapping to the
 * nearest valid cut point (property), never onto a tool result.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listCutPoints } from "../../core/compaction/cut-points.ts";
import { loadFixture } from "../../core/compaction/test-fixture.ts";
import { buildTreeIndex, getPath, resolveLeafId } from "../../core/session/tree.ts";
import { moveCut, rankOf, snapCut } from "./cut-navigation.ts";

const f = loadFixture();
const path = getPath(buildTreeIndex(f.entries).byId, resolveLeafId(f.entries));
const points = listCutPoints(path);
const toolResult = new Set(
  path.flatMap((e, i) =>
    e.type === "message" && (e as { message: { role: string } }).message.role === "toolResult" ? [i] : [],
  ),
);

describe("cut navigation on the real fixture", () => {
  it("has cut points, none of them a tool result", () => {
    expect(points.length).toBeGreaterThan(10);
    for (const p of points) expect(toolResult.has(p.index)).toBe(false);
  });

  it("prev / next step through neighbouring cut points", () => {
    const mid = points[Math.floor(points.length / 2)]!;
    const r = rankOf(points, mid.index);
    expect(moveCut(points, mid.index, "next")).toBe(points[r + 1]);
    expect(moveCut(points, mid.index, "prev")).toBe(points[r - 1]);
    expect(moveCut(points, points[0]!.index, "prev")).toBeUndefined();
    expect(moveCut(points, points.at(-1)!.index, "next")).toBeUndefined();
  });

  it("page up keeps about 5k tokens more, page down about 5k less", () => {
    const mid = points[Math.floor(points.length / 2)]!;
    const up = moveCut(points, mid.index, "page-up")!;
    const down = moveCut(points, mid.index, "page-down")!;
    expect(up.index).toBeLessThan(mid.index);
    expect(down.index).toBeGreaterThan(mid.index);
    if (up !== points[0]) expect(up.keptTokens - mid.keptTokens).toBeGreaterThanOrEqual(5000);
    if (down !== points.at(-1)) expect(mid.keptTokens - down.keptTokens).toBeGreaterThanOrEqual(5000);
  });

  it("snapping any row lands on a valid cut point, never a tool result (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: path.length - 1 }), (i) => {
        const s = snapCut(points, i)!;
        expect(toolResult.has(s.index)).toBe(false);
        // Nothing valid lies strictly closer.
        for (const p of points) expect(Math.abs(p.index - i)).toBeGreaterThanOrEqual(Math.abs(s.index - i));
      }),
      { numRuns: 200 },
    );
  });
});
