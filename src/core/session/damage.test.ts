/** Tree damage: each kind with its lines, the current path's summary, and size without recursion. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findTreeDamage, type LineProblem, problemEffect } from "./damage.ts";
import { PI_FIXTURE } from "./fixture-path.ts";
import { parseSessionBytes } from "./parse.ts";
import { chain, entry } from "./test-builders.ts";
import { buildTreeIndex, currentPath } from "./tree.ts";
import type { SessionEntry } from "./types.ts";

/** Lines 2, 3, ... as if the header were line 1. */
function report(entries: SessionEntry[]) {
  return findTreeDamage(
    entries,
    entries.map((_, i) => i + 2),
  );
}

const brief = (problems: LineProblem[]) => problems.map((p) => [p.kind, p.line, p.cutOff, p.lines]);

describe("findTreeDamage", () => {
  it("files pi 1.6 wrote (retain-none compactions, context edits, system messages) have no damage", () => {
    const dir = join(dirname(PI_FIXTURE), "../pi16");
    const files = readdirSync(dir).filter((f) => /^[A-Z]\d?-.*\.jsonl$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const parsed = parseSessionBytes(readFileSync(join(dir, file)));
      expect(parsed.ok && parsed.value.problems).toEqual([]);
    }
    expect(files).toContain("D-retain-none.jsonl");
  });

  it("a clean chain with a branch has no problems; the path runs from the root to the last entry", () => {
    const entries = [...chain([{ id: "a" }, { id: "b" }, { id: "c" }]), entry("custom", "d", "a")];
    const { problems, path } = report(entries);
    expect(problems).toEqual([]);
    expect(path).toEqual({ length: 2, firstLine: 2, leafLine: 5, cutBy: null });
  });

  it("a missing parent: the entry's line, how many are cut off, and the path it cuts", () => {
    const entries = chain([{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }]);
    entries[2] = { ...entries[2]!, parentId: "gone" };
    const { problems, path } = report(entries);
    expect(brief(problems)).toEqual([["missing-parent", 4, 2, undefined]]);
    expect(problems[0]!.reason).toBe(
      'parentId "gone" names no entry of the file: this entry and the 1 entry below it are cut off from the root',
    );
    expect(path).toEqual({ length: 2, firstLine: 4, leafLine: 5, cutBy: 4 });
    expect(problemEffect("missing-parent")).toBe("tree");
  });

  it("a cycle: its lines, what hangs below it, and a path that stops where it closes", () => {
    // a (root) ; b -> d -> c -> b is a cycle ; e hangs below c ; leaf e.
    const entries = [
      entry("custom", "a", null),
      entry("custom", "b", "d"),
      entry("custom", "c", "b"),
      entry("custom", "d", "c"),
      entry("custom", "e", "c"),
    ];
    const { problems, path } = report(entries);
    expect(brief(problems)).toEqual([["cycle", 3, 4, [3, 4, 5]]]);
    expect(problems[0]!.reason).toMatch(
      /cycle through 3 entries \(lines 3, 4, 5\): they and the 1 entry below/,
    );
    expect(path).toEqual({ length: 4, firstLine: 5, leafLine: 6, cutBy: 3 });
  });

  it("two separate cycles and an orphan each get their own problem, sorted by line", () => {
    const entries = [
      entry("custom", "x", "gone"),
      entry("custom", "p", "q"),
      entry("custom", "q", "p"),
      entry("custom", "r", "r2"),
      entry("custom", "r2", "r"),
      entry("custom", "leaf", null),
    ];
    const { problems, path } = report(entries);
    expect(brief(problems)).toEqual([
      ["missing-parent", 2, 1, undefined],
      ["cycle", 3, 2, [3, 4]],
      ["cycle", 5, 2, [5, 6]],
    ]);
    expect(path).toEqual({ length: 1, firstLine: 7, leafLine: 7, cutBy: null });
  });

  it("duplicate ids are reported with the first line and left out", () => {
    const entries = [...chain([{ id: "a" }, { id: "b" }]), entry("custom", "a", "b")];
    const { problems, path } = report(entries);
    expect(brief(problems)).toEqual([["duplicate-id", 4, undefined, [2]]]);
    expect(problemEffect("duplicate-id")).toBe("left-out");
    // The duplicate is not an entry: the leaf is b.
    expect(path.leafLine).toBe(3);
  });

  it("compactions: kept entry before it (ok), retain-none (ok), off its path, unknown, unset", () => {
    const base = chain([{ id: "a" }, { id: "b" }]);
    const side = entry("custom", "s", "a");
    const compaction = (id: string, parentId: string, firstKeptEntryId?: string) =>
      entry("compaction", id, parentId, {
        summary: "S",
        tokensBefore: 1,
        ...(firstKeptEntryId === undefined ? {} : { firstKeptEntryId }),
      });
    const entries = [
      ...base,
      side,
      compaction("k1", "b", "a"),
      compaction("k2", "k1", "k2"),
      compaction("k3", "k2", "s"),
      compaction("k4", "k3", "nope"),
      compaction("k5", "k4"),
    ];
    const { problems } = report(entries);
    expect(brief(problems)).toEqual([
      ["compaction-kept", 7, undefined, [4]],
      ["compaction-kept", 8, undefined, undefined],
      ["compaction-kept", 9, undefined, undefined],
    ]);
    expect(problems.map((p) => p.reason)).toEqual([
      "compaction keeps from line 4, which is not before it on its path: its context keeps nothing before the summary",
      'compaction keeps from "nope", which names no entry of the file: its context keeps nothing before the summary',
      "compaction has no firstKeptEntryId: its context keeps nothing before the summary",
    ]);
  });

  it("compactions in and below a cycle: the cycle's members are above them, other branches are not", () => {
    const compaction = (id: string, parentId: string, firstKeptEntryId: string) =>
      entry("compaction", id, parentId, { summary: "S", tokensBefore: 1, firstKeptEntryId });
    const entries = [
      entry("custom", "root", null),
      entry("custom", "p", "q"),
      entry("custom", "q", "p"),
      entry("custom", "h", "q"),
      compaction("k1", "h", "p"), // ok: p is in the cycle above it
      compaction("k2", "k1", "h"), // ok
      compaction("k3", "k2", "root"), // not above it
      compaction("k4", "p", "q"), // a member keeping from another member: ok
      compaction("k5", "k4", "k1"), // a branch beside it
    ];
    const { problems } = report(entries);
    expect(brief(problems)).toEqual([
      ["cycle", 3, 8, [3, 4]],
      ["compaction-kept", 8, undefined, [2]],
      ["compaction-kept", 10, undefined, [6]],
    ]);
  });

  it("a compaction cannot keep from an entry below it", () => {
    const entries = [
      entry("custom", "a", null),
      entry("compaction", "k", "a", { summary: "S", tokensBefore: 1, firstKeptEntryId: "b" }),
      entry("custom", "b", "k"),
    ];
    expect(brief(report(entries).problems)).toEqual([["compaction-kept", 3, undefined, [4]]]);
  });

  it("a trailing leaf entry whose target is missing empties the path; null is a valid target", () => {
    const missing = [...chain([{ id: "a" }]), entry("leaf", "l", "a", { targetId: "zz" })];
    const got = report(missing);
    expect(brief(got.problems)).toEqual([["leaf-target", 3, undefined, undefined]]);
    expect(got.path).toEqual({ length: 0, firstLine: null, leafLine: null, cutBy: null });
    const none = report([...chain([{ id: "a" }]), entry("leaf", "l", "a", { targetId: null })]);
    expect(none.problems).toEqual([]);
    expect(none.path.length).toBe(0);
    const moved = report([...chain([{ id: "a" }, { id: "b" }]), entry("leaf", "l", "b", { targetId: "a" })]);
    expect(moved.path).toEqual({ length: 1, firstLine: 2, leafLine: 2, cutBy: null });
  });

  it("handles 200,000-deep chains and a 200,000-entry cycle without recursion", () => {
    const n = 200_000;
    const entries: SessionEntry[] = [];
    for (let i = 0; i < n; i++) entries.push(entry("custom", `e${i}`, i === 0 ? null : `e${i - 1}`));
    expect(report(entries).path.length).toBe(n);
    entries[0] = { ...entries[0]!, parentId: `e${n - 1}` };
    const { problems, path } = report(entries);
    expect(brief(problems).map((p) => p.slice(0, 3))).toEqual([["cycle", 2, n]]);
    expect(problems[0]!.lines).toHaveLength(20);
    expect(path.length).toBe(n);
  });

  it("agrees with tree.ts currentPath on random forests, and every unreachable entry is explained", () => {
    const forest = fc.array(fc.tuple(fc.nat(30), fc.constantFrom("root", "parent", "missing", "leaf")), {
      minLength: 1,
      maxLength: 40,
    });
    fc.assert(
      fc.property(forest, (specs) => {
        const entries = specs.map(([pick, how], i) => {
          const parentId = how === "root" ? null : how === "missing" ? `gone${i}` : `e${pick % specs.length}`;
          if (how === "leaf")
            return entry("leaf", `e${i}`, parentId, { targetId: `e${pick % (specs.length + 3)}` });
          return entry("custom", `e${i}`, parentId === `e${i}` ? null : parentId);
        });
        const { problems, path } = report(entries);
        const expected = currentPath(entries, buildTreeIndex(entries));
        expect(path.length).toBe(expected.length);
        expect(path.leafLine).toBe(expected.length === 0 ? null : entries.indexOf(expected.at(-1)!) + 2);
        // Every entry that no root reaches is counted by exactly one missing-parent or cycle problem.
        const { children } = buildTreeIndex(entries);
        const reached = new Set<string>();
        const stack = [...(children.get(null) ?? [])];
        while (stack.length > 0) {
          const e = stack.pop()!;
          reached.add(e.id);
          stack.push(...(children.get(e.id) ?? []));
        }
        const cut = problems.reduce((sum, p) => sum + (p.cutOff ?? 0), 0);
        expect(cut).toBe(entries.length - reached.size);
      }),
      { numRuns: 300 },
    );
  });
});
