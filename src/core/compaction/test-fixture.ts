/** Test helper: the real pi fixture, parsed with the project's parser. Not part of the public API. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseSessionJsonl } from "../session/parse.ts";
import { buildTreeIndex, getPath, resolveLeafId } from "../session/tree.ts";
import type { CompactionEntry, SessionEntry } from "../session/types.ts";
import type { PiPlanRow } from "./pi-plan-row.ts";
import { type CompactionPlan, planCompaction } from "./plan.ts";

export const FIXTURE_DIR = resolve(import.meta.dirname, "../../../../shared/fixtures/pi");
export const FIXTURE_JSONL = resolve(FIXTURE_DIR, "before-compaction.jsonl");
export const PI16_PLANS = resolve(FIXTURE_DIR, "../pi16/before-compaction.pi16-plans.jsonl");

export interface Fixture {
  entries: SessionEntry[];
  /** 1-based physical line of each entry. */
  lines: number[];
}

let cached: Fixture | undefined;

export function loadFixture(): Fixture {
  if (cached) return cached;
  const result = parseSessionJsonl(readFileSync(FIXTURE_JSONL, "utf8"));
  if (!result.ok) throw new Error(`fixture does not parse: ${result.error.message}`);
  cached = { entries: result.value.entries, lines: result.value.lines };
  return cached;
}

/** The file truncated after `lastLine`, and the path ending at its last entry (the leaf on load). */
export function pathThroughLine(fixture: Fixture, lastLine: number): SessionEntry[] {
  const n = fixture.lines.findIndex((l) => l > lastLine);
  const entries = fixture.entries.slice(0, n < 0 ? fixture.entries.length : n);
  return getPath(buildTreeIndex(entries).byId, resolveLeafId(entries));
}

/**
 * The model's compaction on physical `line` of the fixture, and Cutpoint's plan at the same cut
 * (the file as it was just before it, pi's default settings).
 */
export function planAtModelCut(
  fixture: Fixture,
  line: number,
): { entry: CompactionEntry; plan: CompactionPlan } {
  const entry = fixture.entries[fixture.lines.indexOf(line)] as CompactionEntry;
  const planned = planCompaction(
    pathThroughLine(fixture, line - 1),
    { keepRecentTokens: 20000, reserveTokens: 16384 },
    { cutEntryId: entry.firstKeptEntryId },
  );
  if (!planned.ok) throw new Error(planned.reason);
  return { entry, plan: planned.plan };
}

export function loadPi16Plans(): PiPlanRow[] {
  return readFileSync(PI16_PLANS, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as PiPlanRow);
}
