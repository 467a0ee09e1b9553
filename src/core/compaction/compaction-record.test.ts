/**
 * The compaction record in the entry's details (trigger, model, time, cost, coverage) next to pi's
 * file lists, read back loosely; all compactions' facts in one pass equal one at a time.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { coverageOf } from "../coverage/coverage.ts";
import { coverageDetails } from "../coverage/coverage-details.ts";
import { parseSessionJsonl } from "../session/parse.ts";
import { assistant, msg, user } from "../session/test-builders.ts";
import { currentPath } from "../session/tree.ts";
import type { SessionEntry } from "../session/types.ts";
import { emptyUsage } from "../session/usage.ts";
import {
  allCompactionFacts,
  compactionDetails,
  compactionFacts,
  readCompactionRecord,
  summaryRecord,
  withRecord,
} from "./compaction-record.ts";
import { contextTokensOf, indexPath, planCompaction } from "./plan.ts";
import { buildCompactionEntry, planFields } from "./summarize.ts";

const long = (n: number) => "word ".repeat(n);

function session(): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (let i = 0; i < 6; i++) {
    const u = msg(`u${i}`, parent, user(`Please edit src/file${i}.ts and never touch vendor/ ${long(300)}`));
    const a = msg(`a${i}`, u.id, assistant(`Done with src/file${i}.ts ${long(300)}`));
    out.push(u, a);
    parent = a.id;
  }
  return out;
}

describe("compaction record", () => {
  it("is read back as written, loose about the rest, and pi's own details have none", () => {
    const record = summaryRecord("overflow", "gpt-x", 1234.4, {
      ...emptyUsage(),
      cost: { ...emptyUsage().cost, total: 0.0123 },
    });
    expect(record).toEqual({ trigger: "overflow", model: "gpt-x", durationMs: 1234, costUsd: 0.0123 });
    const details = compactionDetails({ readFiles: ["a"], modifiedFiles: [] }, { record });
    expect(readCompactionRecord(details)).toEqual(record);
    expect(readCompactionRecord({ readFiles: [], modifiedFiles: [] })).toBeUndefined();
    expect(readCompactionRecord({ cutpoint: { trigger: "weird" } })).toBeUndefined();
    expect(readCompactionRecord({ cutpoint: { trigger: "manual", durationMs: -1, costUsd: "x" } })).toEqual({
      trigger: "manual",
    });
    // A free summary (no price known) records no cost.
    expect(summaryRecord("manual", "", undefined, emptyUsage())).toEqual({ trigger: "manual", model: "" });
  });

  it("travels through buildCompactionEntry next to pi's file lists; tokens after are measured on the path", () => {
    const path = session();
    const planned = planCompaction(path, { keepRecentTokens: 500, reserveTokens: 100 });
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    const plan = planned.plan;
    const summary = "## Goal\n- edit src/file0.ts";
    const coverage = coverageDetails(coverageOf(summary, plan));
    const fields = withRecord(planFields(plan, summary), {
      coverage,
      record: summaryRecord("manual", "m", 10, undefined),
    });
    const entry = buildCompactionEntry({
      ...fields,
      id: "c1",
      parentId: "a5",
      timestamp: "2026-01-02T00:00:00.000Z",
    });
    expect(entry.details).toMatchObject({
      readFiles: plan.fileOps.readFiles,
      modifiedFiles: plan.fileOps.modifiedFiles,
      coverage: { covered: coverage.covered, total: coverage.total },
      cutpoint: { trigger: "manual", model: "m", durationMs: 10 },
    });
    const after = [...path, entry];
    const facts = compactionFacts(after, after.length - 1)!;
    expect(facts.record?.trigger).toBe("manual");
    expect(facts.coverage?.total).toBe(coverage.total);
    expect(facts.tokensBefore).toBe(plan.tokensBefore);
    expect(facts.tokensAfter).toBe(contextTokensOf(indexPath(after)).tokens);
    expect(compactionFacts(after, 0)).toBeUndefined();
  });

  it("without records, the details are exactly pi's file lists", () => {
    const d = compactionDetails({ readFiles: ["x"], modifiedFiles: ["y"] });
    expect(d).toEqual({ readFiles: ["x"], modifiedFiles: ["y"] });
  });

  it("in one pass, gives every compaction the facts it gives one at a time (real files, edits and moves)", () => {
    const files = [
      resolve(import.meta.dirname, "../../../../shared/fixtures/pi/before-compaction.jsonl"),
      resolve(import.meta.dirname, "../../conformance/sessions/context-edits-compacted.jsonl"),
      resolve(import.meta.dirname, "../../conformance/sessions/compaction-system-usage.jsonl"),
    ];
    let compared = 0;
    for (const file of files) {
      const parsed = parseSessionJsonl(readFileSync(file, "utf8"));
      if (!parsed.ok) throw new Error(parsed.error.message);
      const path = currentPath(parsed.value.entries);
      const all = allCompactionFacts(path);
      path.forEach((e, i) => {
        if (e.type !== "compaction") return;
        expect(all.get(e.id)).toEqual(compactionFacts(path, i));
        compared++;
      });
    }
    expect(compared).toBeGreaterThanOrEqual(4);
  });
});
