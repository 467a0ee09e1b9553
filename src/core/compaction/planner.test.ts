/**
 * The incremental planner: extended or rebuilt as the path changes, prepared in steps, token estimates
 * per entry and running; it plans as planCompaction does and as pi cuts on the fixture.
 */
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../session/types.ts";
import { planCompaction } from "./plan.ts";
import { createPlanner } from "./planner.ts";
import { loadFixture, pathThroughLine } from "./test-fixture.ts";
import { estimateMessageTokensPi } from "./tokens.ts";

const TS = "2026-01-01T00:00:00.000Z";
const user = (id: string, parentId: string | null, text: string) =>
  ({
    type: "message",
    id,
    parentId,
    timestamp: TS,
    message: { role: "user", content: text, timestamp: 0 },
  }) as SessionEntry;

describe("createPlanner", () => {
  const fixture = loadFixture();
  const settings = { keepRecentTokens: 20000, reserveTokens: 16384 };

  it("extends on setPath with a longer path, rebuilds on a different branch", () => {
    const planner = createPlanner();
    const base = pathThroughLine(fixture, 300);
    planner.setPath(base);
    expect(planner.length).toBe(base.length);
    const extended = [...base, user("x1", base.at(-1)!.id, "y".repeat(40000))];
    planner.setPath(extended);
    expect(planner.length).toBe(extended.length);
    const a = planner.plan(settings);
    const b = planCompaction(extended, settings);
    expect(a.ok && a.plan.firstKeptEntryId).toBe(b.ok && b.plan.firstKeptEntryId);
    // A sibling branch of the same length: the last entry differs, so the index is rebuilt.
    const sibling = [...base, user("x2", base.at(-1)!.id, "short")];
    planner.setPath(sibling);
    const c = planner.plan(settings);
    const d = planCompaction(sibling, settings);
    expect(c.ok && c.plan.keptTokens).toBe(d.ok && d.plan.keptTokens);
    expect(c.ok && c.plan.keptTokens).not.toBe(a.ok && a.plan.keptTokens);
    // The same entries re-read as new objects (e.g. from storage) still count as an extension.
    const reread = structuredClone(sibling);
    reread.push(user("x3", "x2", "more"));
    planner.setPath(reread);
    expect(planner.length).toBe(sibling.length + 1);
    const e = planner.plan(settings);
    const f = planCompaction(reread, settings);
    expect(e.ok && e.plan.keptTokens).toBe(f.ok && f.plan.keptTokens);
    // Going back to a shorter path, then forward on another branch, with compactions dropped.
    planner.setPath(base.slice(0, 10));
    expect(planner.length).toBe(10);
    const other = [...base.slice(0, 10), user("y1", base[9]!.id, "z".repeat(4000))];
    planner.setPath(other);
    const g = planner.plan({ keepRecentTokens: 100, reserveTokens: 16384 });
    const h = planCompaction(other, { keepRecentTokens: 100, reserveTokens: 16384 });
    expect(JSON.stringify(g)).toBe(JSON.stringify(h));
    // The last entry re-read with new content (same id) is re-estimated.
    const grown = [...other.slice(0, -1), user("y1", base[9]!.id, "z".repeat(8000))];
    planner.setPath(grown);
    expect(planner.entryTokens(10)).toBe(2000);
  });

  it("prepare in small steps leaves the same plan, cut points and totals as computing at once", () => {
    const path = pathThroughLine(fixture, fixture.entries.length);
    const eager = createPlanner();
    eager.setPath(path);
    const stepped = createPlanner();
    stepped.setPath(path);
    let calls = 0;
    while (!stepped.prepare(37)) calls++;
    expect(calls).toBe(Math.ceil(path.length / 37) - 1);
    expect(stepped.prepare(37)).toBe(true);
    expect(stepped.plan(settings)).toEqual(eager.plan(settings));
    expect(stepped.listCutPoints()).toEqual(eager.listCutPoints());
    expect(stepped.contextTokens()).toEqual(eager.contextTokens());
    for (const i of [0, 10, 261, path.length - 1])
      expect(stepped.runningTokens(i)).toBe(eager.runningTokens(i));
    // Half prepared, then appended to: the rest is computed on the next query, the same way.
    const half = createPlanner();
    half.setPath(path.slice(0, 400));
    half.prepare(150);
    half.setPath(path);
    expect(half.plan(settings)).toEqual(eager.plan(settings));
  });

  it("gives per-entry and running token estimates for the timeline", () => {
    const planner = createPlanner();
    const path = [
      user("a", null, "abcd"),
      { type: "label", id: "l", parentId: "a", timestamp: TS, targetId: "a" } as SessionEntry,
      user("b", "l", "x".repeat(9)),
    ];
    for (const e of path) planner.append(e);
    expect([0, 1, 2].map((i) => planner.entryTokens(i))).toEqual([1, 0, 3]);
    expect([0, 1, 2].map((i) => planner.runningTokens(i))).toEqual([1, 1, 4]);
    expect(planner.entryTokens(99)).toBe(0);
    expect(planner.contextTokens()).toEqual({ tokens: 4, source: "estimated" });
    expect(estimateMessageTokensPi({ role: "user", content: "x".repeat(9), timestamp: 0 })).toBe(3);
  });

  it("sizes the context by the reply's usage; after a context edit, by the estimate, with that usage set aside", () => {
    const planner = createPlanner();
    const reply = {
      type: "message",
      id: "r",
      parentId: "a",
      timestamp: TS,
      message: {
        role: "assistant",
        content: [{ type: "text", text: "ok" }],
        api: "x",
        provider: "p",
        model: "m",
        usage: { input: 900, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1000 },
        stopReason: "stop",
        timestamp: 1,
      },
    } as SessionEntry;
    const edit = {
      type: "context_edit",
      id: "e",
      parentId: "r",
      timestamp: TS,
      targetId: "a",
      replacement: null,
    };
    planner.setPath([user("a", null, "x".repeat(40)), reply]);
    expect(planner.contextTokens()).toEqual({ tokens: 1000, source: "reported" });
    planner.setPath([user("a", null, "x".repeat(40)), reply, edit as SessionEntry]);
    const size = planner.contextTokens();
    expect(size.source).toBe("estimated");
    expect(size.setAside).toBe(1000);
    expect(size.tokens).toBeLessThan(1000);
  });

  it("re-plans after each appended entry and ends on the same cut as pi (line 261 at keep 20000)", () => {
    const path = pathThroughLine(fixture, 359);
    const planner = createPlanner();
    planner.setPath(path.slice(0, 1));
    const live = path.slice(0, 1);
    for (const e of path.slice(1)) {
      live.push(e);
      planner.setPath(live);
      planner.plan(settings);
    }
    const r = planner.plan(settings);
    expect(r.ok && fixture.lines[r.plan.firstKeptIndex]).toBe(261);
    expect(planner.listCutPoints().length).toBeGreaterThan(100);
  });
});
