/**
 * Agreement with pi 1.6's own compaction plans on the real fixture: prepareCompaction at every
 * entry line x keep 2000 / 20000 / 40000 (../shared/fixtures/pi16/before-compaction.pi16-plans.jsonl),
 * by the one-shot planner and by the incremental planner fed one entry at a time; then planning
 * on the full fixture after its two compactions.
 */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "../session/context.ts";
import { buildTreeIndex, getPath, resolveLeafId } from "../session/tree.ts";
import type { CompactionEntry, SessionEntry } from "../session/types.ts";
import { listCutPoints } from "./cut-points.ts";
import { contextTokensOf, indexPath, type PlanResult, planCompaction } from "./plan.ts";
import { createPlanner } from "./planner.ts";
import { loadFixture, loadPi16Plans, type Pi16PlanRow, pathThroughLine } from "./test-fixture.ts";

const RESERVE = 16384;
const fixture = loadFixture();
/** Line of the entry at a path index (the fixture's first 359 lines are one chain from its first entry). */
const lineOf = (index: number) => fixture.lines[index]!;
const lineById = new Map(fixture.entries.map((e, i) => [e.id, fixture.lines[i]!]));

/** A plan result in the shape of pi 1.6's plan rows. */
function asPi16Row(
  line: number,
  keep: number,
  path: readonly SessionEntry[],
  r: PlanResult,
  context: number,
): Pi16PlanRow {
  if (!r.ok) return { line, keep, compact: false, contextTokens: context };
  const p = r.plan;
  const first = path[p.firstKeptIndex]!;
  return {
    line,
    keep,
    compact: true,
    firstKeptLine: lineById.get(first.id)!,
    firstKeptType:
      first.type === "message" ? (first as { message: { role: string } }).message.role : first.type,
    tokensBefore: p.tokensBefore,
    isSplitTurn: p.isSplitTurn,
    messagesToSummarize: p.messagesToSummarize.messages.length,
    turnPrefixMessages: p.turnPrefixMessages.messages.length,
    previousSummary: p.previousSummary !== undefined,
    readFiles: p.fileOps.readFiles,
    modifiedFiles: p.fileOps.modifiedFiles,
    contextTokens: context,
  };
}

/** A plan result with the message lists reduced to their entry ids (cheap to compare). */
function comparable(r: PlanResult): unknown {
  const plan = r.ok ? r.plan : r.plan;
  if (!plan) return r;
  return {
    ...r,
    plan: {
      ...plan,
      messagesToSummarize: plan.messagesToSummarize.entryIds,
      turnPrefixMessages: plan.turnPrefixMessages.entryIds,
    },
  };
}

describe("agreement with pi 1.6 on every line of the real fixture", () => {
  const rows = loadPi16Plans();
  const byId = buildTreeIndex(fixture.entries).byId;

  it("covers every entry line at three keep values", () => {
    expect(rows).toHaveLength(fixture.entries.length * 3);
    expect(rows.filter((r) => r.compact).length).toBeGreaterThan(2000);
  });

  it("the one-shot planner agrees on every row", () => {
    const mismatches: string[] = [];
    for (const row of rows) {
      const path = getPath(byId, fixture.entries[fixture.lines.indexOf(row.line)]!.id);
      const r = planCompaction(path, { keepRecentTokens: row.keep, reserveTokens: RESERVE });
      const got = asPi16Row(row.line, row.keep, path, r, contextTokensOf(indexPath(path)).tokens);
      if (JSON.stringify(got) !== JSON.stringify(row))
        mismatches.push(`want ${JSON.stringify(row)}\n got ${JSON.stringify(got)}`);
      const plan = r.ok ? r.plan : r.plan;
      // Counts derived from prefix sums agree with the materialized lists.
      if (plan) expect(plan.summarizeCount).toBe(plan.messagesToSummarize.messages.length);
      if (plan) expect(plan.turnPrefixCount).toBe(plan.turnPrefixMessages.messages.length);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it("the incremental planner, fed one entry at a time along each path, agrees with the one-shot planner on every row", () => {
    const planner = createPlanner();
    let checked = 0;
    for (let i = 0; i < fixture.entries.length; i++) {
      const path = getPath(byId, fixture.entries[i]!.id);
      planner.setPath(path);
      for (const row of rows.filter((r) => r.line === fixture.lines[i])) {
        const settings = { keepRecentTokens: row.keep, reserveTokens: RESERVE };
        const r = planner.plan(settings);
        expect(asPi16Row(row.line, row.keep, path, r, planner.contextTokens().tokens)).toEqual(row);
        expect(comparable(r)).toEqual(comparable(planCompaction(path, settings)));
        checked++;
      }
    }
    expect(checked).toBe(rows.length);
  });

  it("headline case: first 359 lines", () => {
    const path = pathThroughLine(fixture, 359);
    const expected: [number, number][] = [
      [2000, 345],
      [5000, 323],
      [10000, 317],
      [20000, 261],
      [40000, 151],
    ];
    for (const [keep, firstKeptLine] of expected) {
      const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: RESERVE });
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      expect(lineOf(r.plan.firstKeptIndex)).toBe(firstKeptLine);
      expect(r.plan.isSplitTurn).toBe(true);
      expect(r.plan.tokensBefore).toBe(175004);
      expect(r.plan.tokensBeforeSource).toBe("reported");
      expect(r.plan.previousSummary).toBeUndefined();
      // Bands cover the path without gaps.
      const b = r.plan.bands;
      expect([b.outside.end, b.summarized.end, b.prefix?.end]).toEqual([
        b.summarized.start,
        b.prefix?.start,
        b.kept.start,
      ]);
      expect(b.kept.end).toBe(path.length);
    }
  });

  it("pi's own first compaction (line 360): same tokensBefore, and its first kept entry is a listed cut point", () => {
    const entry = fixture.entries[fixture.lines.indexOf(360)] as CompactionEntry;
    const path = pathThroughLine(fixture, 359);
    const r = planCompaction(path, { keepRecentTokens: 20000, reserveTokens: RESERVE });
    expect(r.ok && r.plan.tokensBefore).toBe(entry.tokensBefore);
    const points = listCutPoints(path);
    const at = points.find((p) => p.entryId === entry.firstKeptEntryId);
    expect(at).toBeDefined();
    const chosen = planCompaction(
      path,
      { keepRecentTokens: 0, reserveTokens: RESERVE },
      { cutEntryId: at?.entryId },
    );
    expect(chosen.ok && chosen.plan.firstKeptEntryId).toBe(entry.firstKeptEntryId);
  });
});

describe("the full fixture (after its two compactions)", () => {
  const leaf = resolveLeafId(fixture.entries);
  const path = getPath(buildTreeIndex(fixture.entries).byId, leaf);
  const line = (i: number) => fixture.lines[fixture.entries.indexOf(path[i]!)]!;
  const second = path.findLastIndex((e) => e.type === "compaction");
  const compaction = path[second] as CompactionEntry;

  it("starts the window at the previous compaction's firstKeptEntryId (#2608 fix)", () => {
    expect(line(second)).toBe(629);
    const r = planCompaction(path, { keepRecentTokens: 20000, reserveTokens: RESERVE });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(path[r.plan.windowStart]!.id).toBe(compaction.firstKeptEntryId);
    expect(line(r.plan.windowStart)).toBe(552);
    expect(r.plan.windowStart).toBeLessThan(second);
    expect(r.plan.previousSummary).toBe(compaction.summary);
    expect(r.plan.previousCompactionIndex).toBe(second);
    // Everything the second compaction kept is either summarized again or kept now.
    const context = buildSessionContext(path);
    const covered = new Set([
      ...r.plan.messagesToSummarize.entryIds,
      ...r.plan.turnPrefixMessages.entryIds,
      ...path.slice(r.plan.firstKeptIndex).map((e) => e.id),
    ]);
    for (const id of context.entryIds) if (id !== compaction.id) expect(covered.has(id)).toBe(true);
    expect(r.plan.messagesToSummarize.entryIds).not.toContain(compaction.id);
  });

  it("cumulates the previous compaction's file lists (it has none: v1 compaction without details)", () => {
    const r = planCompaction(path, { keepRecentTokens: 20000, reserveTokens: RESERVE });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const withDetails = path.map((e) =>
      e === compaction
        ? { ...compaction, details: { readFiles: ["/prev/read.ts"], modifiedFiles: ["/prev/mod.ts"] } }
        : e,
    );
    const r2 = planCompaction(withDetails, { keepRecentTokens: 20000, reserveTokens: RESERVE });
    expect(r2.ok && r2.plan.fileOps.readFiles).toContain("/prev/read.ts");
    expect(r2.ok && r2.plan.fileOps.modifiedFiles).toContain("/prev/mod.ts");
    const hook = path.map((e) =>
      e === compaction
        ? { ...compaction, fromHook: true, details: { readFiles: ["/hook.ts"], modifiedFiles: [] } }
        : e,
    );
    const r3 = planCompaction(hook, { keepRecentTokens: 20000, reserveTokens: RESERVE });
    expect(r3.ok && r3.plan.fileOps.readFiles).not.toContain("/hook.ts");
    expect(r3.ok && r3.plan.fileOps).toEqual(r.plan.fileOps);
  });

  it("lists cut points only inside the window, never at a tool result, kept tokens decreasing", () => {
    const points = listCutPoints(path);
    const r = planCompaction(path, { keepRecentTokens: 20000, reserveTokens: RESERVE });
    expect(points.length).toBeGreaterThan(10);
    let prev = Number.POSITIVE_INFINITY;
    for (const p of points) {
      expect(p.index).toBeGreaterThanOrEqual(r.ok ? r.plan.windowStart : 0);
      const e = path[p.index]!;
      expect(e.type === "message" && (e as { message: { role: string } }).message.role).not.toBe(
        "toolResult",
      );
      expect(p.keptTokens).toBeLessThanOrEqual(prev);
      prev = p.keptTokens;
    }
    // The automatic cut is one of them.
    expect(points.some((p) => r.ok && p.firstKeptIndex === r.plan.firstKeptIndex)).toBe(true);
  });

  it("a person's cut at any listed point plans with that cut", () => {
    const points = listCutPoints(path);
    for (const p of points.filter((_, i) => i % 7 === 0)) {
      const r = planCompaction(
        path,
        { keepRecentTokens: 20000, reserveTokens: RESERVE },
        { cutEntryId: p.entryId },
      );
      const plan = r.ok ? r.plan : r.plan;
      expect(plan?.firstKeptIndex).toBe(p.firstKeptIndex);
      expect(plan?.keptTokens).toBe(p.keptTokens);
    }
  });
});
