/**
 * The readable cut rule (cut-rule.ts) against pi 1.6's own plans at every line of the real fixture,
 * and against the fast index the planner uses, so the page a person reads is the rule that runs.
 */
import { describe, expect, it } from "vitest";
import { buildTreeIndex, getPath } from "../session/tree.ts";
import { cutByRule } from "./cut-rule.ts";
import { planCompaction } from "./plan.ts";
import { loadFixture, loadPi16Plans } from "./test-fixture.ts";

const fixture = loadFixture();
const byId = buildTreeIndex(fixture.entries).byId;
const pathAtLine = (line: number) => getPath(byId, fixture.entries[fixture.lines.indexOf(line)]!.id);

describe("the readable cut rule", () => {
  const rows = loadPi16Plans().filter((r) => r.compact && r.line !== null);

  it("puts the first kept entry where pi 1.6 put it, on every compacting row of the fixture", () => {
    const wrong: string[] = [];
    for (const row of rows) {
      const path = pathAtLine(row.line!);
      const cut = cutByRule(path, row.keep);
      const line = cut ? fixture.lines[fixture.entries.indexOf(path[cut.firstKept]!)] : undefined;
      if (line !== row.firstKeptLine || cut?.split !== row.isSplitTurn)
        wrong.push(`line ${row.line} keep ${row.keep}: ${line}/${cut?.split} vs ${row.firstKeptLine}`);
    }
    expect(rows.length).toBeGreaterThan(2000);
    expect(wrong).toEqual([]);
  });

  it("agrees with the planner's fast index at every line and keep value", () => {
    const wrong: string[] = [];
    for (const line of fixture.lines) {
      const path = pathAtLine(line);
      for (const keep of [0, 1, 2000, 20000, 40000]) {
        const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 16384 });
        const plan = r.ok ? r.plan : r.plan;
        if (!plan) continue;
        const rule = cutByRule(path, keep);
        const fast = {
          firstKept: plan.firstKeptIndex,
          turnStart: plan.turnStartIndex,
          split: plan.isSplitTurn,
        };
        if (JSON.stringify(rule) !== JSON.stringify(fast))
          wrong.push(`line ${line} keep ${keep}: ${JSON.stringify(rule)} vs ${JSON.stringify(fast)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
