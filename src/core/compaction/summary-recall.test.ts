/**
 * The offline summary against the two summaries a real model wrote in the shared fixture (its
 * compactions at lines 360 and 629), at the same cuts: how many of their paths, identifiers,
 * commands and decisions it keeps, and its length beside theirs (printed). Target: at least 80 %
 * of their paths and identifiers at no more than 1.5 times their length. Also the item reader's
 * own rules (prose with slashes is not a path; paths match by segments).
 */
import { describe, expect, it } from "vitest";
import { offlineSummaryText } from "./offline-summary.ts";
import { pathKeptBy, summaryRecall, summaryRecallItems } from "./summary-recall.ts";
import { loadFixture, planAtModelCut } from "./test-fixture.ts";

const fixture = loadFixture();

/** The model's compaction on `line`, and the plan at its cut (the file as it was just before it). */
const atModelCut = (line: number) => planAtModelCut(fixture, line);

const pct = (x: { kept: number; total: number }) =>
  `${x.kept}/${x.total} (${((100 * x.kept) / Math.max(1, x.total)).toFixed(0)} %)`;

describe("offline summary against the model's summaries", () => {
  for (const line of [360, 629]) {
    it(`keeps ≥ 80 % of the paths and identifiers of the model's summary on line ${line}, at ≤ 1.5× its length`, () => {
      const { entry, plan } = atModelCut(line);
      expect(plan.firstKeptEntryId).toBe(entry.firstKeptEntryId);
      const offline = offlineSummaryText(plan);
      const r = summaryRecall(entry.summary, offline);
      console.log(
        `line ${line}: paths+identifiers ${pct(r.pathsAndIdentifiers)}; all ${pct(r.all)}; ` +
          `paths ${pct(r.byKind.path)}, identifiers ${pct(r.byKind.identifier)}, commands ${pct(r.byKind.command)}, ` +
          `decisions ${pct(r.byKind.decision)}; length ${offline.length} / ${entry.summary.length} = ${r.lengthRatio.toFixed(2)}×`,
      );
      expect(r.pathsAndIdentifiers.total).toBeGreaterThan(30);
      expect(r.pathsAndIdentifiers.kept / r.pathsAndIdentifiers.total).toBeGreaterThanOrEqual(0.8);
      expect(r.lengthRatio).toBeLessThanOrEqual(1.5);
    });
  }
});

describe("summaryRecallItems", () => {
  it("reads paths, identifiers, commands and decisions; prose with slashes and fenced code's names are not items", () => {
    const items = summaryRecallItems(
      [
        "## Goal",
        "Refactor `coding-agent` around `AgentSession`; replace agent/sessionManager/settingsManager calls.",
        "## Key Decisions",
        "1. **Keep old code** - create `main-new.ts` instead",
        "## Commands",
        "- `npm run check` - full check, see `/repo/docs/refactor.md` and `src/modes/`",
        "```ts",
        "class Hidden { cycleModel() {} }",
        "```",
      ].join("\n"),
    );
    const of = (k: string) => items.filter((i) => i.kind === k).map((i) => i.text);
    expect(of("path")).toEqual(["main-new.ts", "/repo/docs/refactor.md", "src/modes"]);
    expect(of("identifier")).toEqual(["AgentSession"]);
    expect(of("command")).toEqual(["npm run check"]);
    expect(of("decision")).toEqual(["Keep old code - create `main-new.ts` instead"]);
  });

  it("matches paths by segments: a bare name by any path with it, never a path by another with its file name", () => {
    expect(pathKeptBy("src/core/index.ts", ["/r/src/core/index.ts"])).toBe(true);
    expect(pathKeptBy("src/core/index.ts", ["/r/src/modes/index.ts"])).toBe(false);
    expect(pathKeptBy("index.ts", ["/r/src/modes/index.ts"])).toBe(true);
    expect(pathKeptBy("src/utils", ["src/utils/config.ts"])).toBe(true);
    // A summary that declares its root names its relative paths under it.
    const r = summaryRecall(
      "`/r/src/a.ts`",
      "- Project root: `/r` (paths here are relative to it).\n- `src/a.ts`",
    );
    expect(r.byKind.path).toEqual({ kept: 1, total: 1 });
  });
});
