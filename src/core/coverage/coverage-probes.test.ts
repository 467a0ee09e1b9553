/** The probes on the real fixtures: what they ask at the model's cuts, which summaries answer them, and pi 1.6's own file lists. */
import { describe, expect, it } from "vitest";
import { offlineSummaryText } from "../compaction/offline-summary.ts";
import { planCompaction } from "../compaction/plan.ts";
import { loadFixture, loadPi16Plans, pathThroughLine, planAtModelCut } from "../compaction/test-fixture.ts";
import type { AgentMessage } from "../session/types.ts";
import { checkCoverage, coverageRanges, planCoverageItems } from "./coverage.ts";
import { coverageDetails, readCoverageDetails } from "./coverage-details.ts";
import type { CoverageRange } from "./coverage-extract.ts";
import { extractCoverageItems } from "./coverage-extract.ts";
import { blockedText, checkProbes, deriveProbes, probeNote, probesFigure } from "./coverage-probes.ts";

const fixture = loadFixture();

function atModelCut(line: number) {
  const { entry, plan } = planAtModelCut(fixture, line);
  return { entry, plan, probes: deriveProbes(coverageRanges(plan), planCoverageItems(plan)) };
}

const ids = (list: readonly { id: string }[]) => list.map((p) => p.id);

describe("probes at the model's cuts in the pi fixture", () => {
  it("line 360: five probes with known answers; the offline summary answers all, the model's misses the rule", () => {
    const { entry, plan, probes } = atModelCut(360);
    expect(ids(probes)).toEqual(["files", "last-request", "rules", "last-failure", "decisions"]);
    const byId = new Map(probes.map((p) => [p.id, p]));
    expect(byId.get("files")!.expected).toMatch(/^7 files: `docs\/refactor\.md`/);
    expect(byId.get("last-request")!.expected).toMatch(/^Slight steering: why does unsubscribe clear/);
    // The last failure was an edit whose old text was not found; a later edit of the same file worked.
    expect(byId.get("last-failure")!.expected).toMatch(
      /^edit of `\S+\/src\/core\/index\.ts` failed: .* fixed later\.$/,
    );
    const offline = checkProbes(offlineSummaryText(plan), probes);
    const model = checkProbes(entry.summary, probes);
    console.log(`line 360: offline ${probesFigure(offline)}; model ${probesFigure(model)}`);
    expect(probesFigure(offline)).toBe("5 of 5 probes answered");
    expect(probesFigure(model)).toBe("4 of 5 probes answered");
    expect(model.probes.find((p) => !p.answered)!.id).toBe("rules");
  });

  it("line 629: the model's summary names 4 of the 5 files changed and misses the rules and decisions", () => {
    const { entry, plan, probes } = atModelCut(629);
    const model = checkProbes(entry.summary, probes);
    const offline = checkProbes(offlineSummaryText(plan), probes);
    console.log(`line 629: offline ${probesFigure(offline)}; model ${probesFigure(model)}`);
    expect(offline.answered).toBe(offline.total);
    const files = model.probes.find((p) => p.id === "files")!;
    expect(probeNote(files)).toBe("4 of 5 mentioned");
    expect(files.answered).toBe(true);
    expect(files.missing).toEqual([
      "/Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/modes/index.ts",
    ]);
    expect(
      model.probes
        .filter((p) => !p.answered)
        .map((p) => p.id)
        .sort(),
    ).toEqual(["decisions", "rules"]);
  });

  it("a summary that says nothing answers nothing; one that lists a fixed failure as blocked does not answer it", () => {
    const { probes } = atModelCut(360);
    expect(checkProbes("## Goal\nCarry on.", probes).answered).toBe(0);
    const failure = probes.find((p) => p.id === "last-failure")!;
    const named = `## Progress\n### Done\n- Edited \`${failure.needs[0]!.text}\`.`;
    expect(checkProbes(named, [failure]).answered).toBe(1);
    const blocked = `${named}\n### Blocked\n- ${failure.notBlocked!.text}\n## Next Steps\n1. Go on.`;
    const r = checkProbes(blocked, [failure]);
    expect(r.answered).toBe(0);
    expect(probeNote(r.probes[0]!)).toBe("listed as blocked, though fixed later");
  });
});

describe("probes on pi 1.6's plans of the fixture", () => {
  it("the files the probe asks about are among pi's modified files, for every 60th plan that compacts", () => {
    const rows = loadPi16Plans().filter((r) => r.compact && r.keep === 20000 && r.line !== null);
    let checked = 0;
    for (const row of rows.filter((_, i) => i % 60 === 0)) {
      const planned = planCompaction(pathThroughLine(fixture, row.line!), {
        keepRecentTokens: row.keep,
        reserveTokens: 16384,
      });
      if (!planned.ok) throw new Error(planned.reason);
      const probes = deriveProbes(coverageRanges(planned.plan), planCoverageItems(planned.plan));
      const files = probes.find((p) => p.id === "files");
      if (!files) continue;
      for (const n of files.needs) expect(row.modifiedFiles, `line ${row.line}`).toContain(n.text);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe("probes on small ranges", () => {
  const range = (messages: AgentMessage[]): CoverageRange => ({
    messages,
    entryIds: messages.map((_, i) => `e${i}`),
  });

  it("an open failure needs its error; a failed grep is not asked about; a slash command is not a request", () => {
    const messages = [
      { role: "user", content: "Please fix the build of the parser.", timestamp: 1 },
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm run build" } },
          { type: "toolCall", id: "c2", name: "bash", arguments: { command: "grep -rn foo src" } },
        ],
        stopReason: "toolUse",
        timestamp: 2,
      },
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "bash",
        content: [{ type: "text", text: "error TS2304: Cannot find name 'parseTree'." }],
        isError: true,
        timestamp: 3,
      },
      {
        role: "toolResult",
        toolCallId: "c2",
        toolName: "bash",
        content: [{ type: "text", text: "Command exited with code 1" }],
        isError: true,
        timestamp: 4,
      },
      { role: "user", content: "/compact", timestamp: 5 },
    ] as unknown as AgentMessage[];
    const ranges = [range(messages)];
    const probes = deriveProbes(ranges, extractCoverageItems(ranges));
    expect(ids(probes)).toEqual(["last-request", "last-failure"]);
    expect(probes[0]!.expected).toBe("Please fix the build of the parser.");
    expect(probes[1]!.expected).toBe(
      "`npm run build` failed: error TS2304: Cannot find name 'parseTree'. — still open.",
    );
    expect(probes[1]!.entryId).toBe("e2");
    const answered = checkProbes(
      "## Goal\nFix the parser's build.\n### Blocked\n- error TS2304: Cannot find name 'parseTree'.",
      probes,
    );
    expect(answered.answered).toBe(2);
    expect(checkProbes("## Goal\nFix the parser's build.", probes).answered).toBe(1);
  });

  it("blockedText reads the Blocked sections only", () => {
    expect(blockedText("## Progress\n### Done\n- a\n### Blocked\n- b\n- c\n## Next Steps\n- d")).toBe(
      "- b\n- c",
    );
    expect(blockedText("**Blocked**\n- x\n**Next**\n- y")).toBe("- x");
  });
});

describe("the probes stored with the entry", () => {
  it("details.coverage keeps the figure and the questions not answered; a malformed record is left out", () => {
    const { plan, probes } = atModelCut(629);
    const summary = "## Goal\nMove the shared files.";
    const report = checkProbes(summary, probes);
    const details = coverageDetails(checkCoverage(summary, planCoverageItems(plan)), report);
    expect(details.probes).toEqual({
      answered: report.answered,
      total: report.total,
      unanswered: report.probes.filter((p) => !p.answered).map((p) => p.question),
    });
    expect(details.probes!.unanswered).toContain("Which files were modified?");
    expect(readCoverageDetails(JSON.parse(JSON.stringify({ coverage: details })))).toEqual(details);
    const broken = readCoverageDetails({ coverage: { ...details, probes: { answered: "4" } } });
    expect(broken).toBeDefined();
    expect(broken!.probes).toBeUndefined();
  });
});
