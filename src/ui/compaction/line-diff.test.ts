/**
 * The line diff of two summaries: changed lines marked, empty sides, both sides rebuilt and
 * the diff minimal (property, against a reference LCS).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines, diffStats, splitLines } from "./line-diff.ts";

const side = (diff: ReturnType<typeof diffLines>, op: "del" | "add") =>
  diff.filter((d) => d.op === "same" || d.op === op).map((d) => d.text);

/** Reference LCS length (plain recursion with memo) to check minimality on small inputs. */
function lcsLength(a: string[], b: string[]): number {
  const memo = new Map<string, number>();
  const go = (i: number, j: number): number => {
    if (i === a.length || j === b.length) return 0;
    const k = `${i},${j}`;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    const v = a[i] === b[j] ? go(i + 1, j + 1) + 1 : Math.max(go(i + 1, j), go(i, j + 1));
    memo.set(k, v);
    return v;
  };
  return go(0, 0);
}

describe("diffLines", () => {
  it("marks an updated summary's changed lines", () => {
    const before = "## Goal\nFix the parser\n## Done\n- read files\n## Next\n- write tests";
    const after = "## Goal\nFix the parser\n## Done\n- read files\n- fixed parse.ts\n## Next\n- run e2e";
    const diff = diffLines(before, after);
    expect(diff.filter((d) => d.op !== "same")).toEqual([
      { op: "add", text: "- fixed parse.ts" },
      { op: "del", text: "- write tests" },
      { op: "add", text: "- run e2e" },
    ]);
    expect(diffStats(diff)).toEqual({ added: 2, removed: 1 });
  });

  it("handles empty sides", () => {
    expect(diffLines("", "a\nb")).toEqual([
      { op: "add", text: "a" },
      { op: "add", text: "b" },
    ]);
    expect(diffLines("a", "")).toEqual([{ op: "del", text: "a" }]);
    expect(diffLines("", "")).toEqual([]);
  });

  it("reconstructs both sides and is minimal (property)", () => {
    const lines = fc.array(fc.constantFrom("a", "b", "c", "d", ""), { maxLength: 12 });
    fc.assert(
      fc.property(lines, lines, (x, y) => {
        const before = x.join("\n");
        const after = y.join("\n");
        const diff = diffLines(before, after);
        expect(side(diff, "del")).toEqual(splitLines(before));
        expect(side(diff, "add")).toEqual(splitLines(after));
        const same = diff.filter((d) => d.op === "same").length;
        expect(same).toBe(lcsLength(splitLines(before), splitLines(after)));
      }),
      { numRuns: 300 },
    );
  });
});
