import { describe, expect, it } from "vitest";
import { buildTreeIndex, getPath, resolveLeafId } from "../session/tree.ts";
import { generateOfflineCompaction, OFFLINE_SUMMARY_NOTICE, offlineSummaryText } from "./offline-summary.ts";
import { planCompaction } from "./plan.ts";
import { loadFixture, pathThroughLine } from "./test-fixture.ts";

const fixture = loadFixture();

function plan(lastLine: number, keep = 20000) {
  const path =
    lastLine === 0
      ? getPath(buildTreeIndex(fixture.entries).byId, resolveLeafId(fixture.entries))
      : pathThroughLine(fixture, lastLine);
  const r = planCompaction(path, { keepRecentTokens: keep, reserveTokens: 16384 });
  if (!r.ok) throw new Error(r.reason);
  return r.plan;
}

describe("offline summary", () => {
  const p = plan(359);
  const text = offlineSummaryText(p);

  it("says on its first line that it was made offline, without a model", () => {
    expect(text.split("\n")[0]).toBe(OFFLINE_SUMMARY_NOTICE);
    expect(OFFLINE_SUMMARY_NOTICE).toMatch(/offline.*without a model/);
  });

  it("holds the first and latest user requests, files, tool calls and conclusions", () => {
    expect(text).toContain("## Goal");
    expect(text).toContain("> alright, read @packages/coding-agent/src/main.ts");
    expect(text).toContain("Latest request:");
    for (const f of [...p.fileOps.readFiles, ...p.fileOps.modifiedFiles]) expect(text).toContain(`\`${f}\``);
    expect(text).toMatch(/## Tool calls\n- (read|bash|edit|write) × \d+/);
    expect(text).toContain("## Last assistant conclusions");
    expect(text).toContain("split");
  });

  it("lists tool errors (line 80 of the fixture is a failed edit)", () => {
    const errors = p.messagesToSummarize.messages.filter((m) => m.role === "toolResult" && m.isError).length;
    expect(errors).toBeGreaterThan(0);
    expect(text).toMatch(/Errors \(\d+/);
    expect(text).toContain(
      "- edit: Could not find the exact text in /Users/badlogic/workspaces/pi-mono/packages/coding-agent/src/",
    );
    // Nothing summarized before line 80: no error section.
    const early = offlineSummaryText(plan(60, 2000));
    expect(early).not.toContain("Errors (");
  });

  it("keeps the earlier summary when updating (full fixture)", () => {
    const full = plan(0);
    expect(offlineSummaryText(full)).toContain(full.previousSummary!.trim().slice(0, 200));
  });

  it("is deterministic and has generateCompaction's result shape with file blocks", () => {
    const a = generateOfflineCompaction(p);
    const b = generateOfflineCompaction(plan(359));
    expect(a).toEqual(b);
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.fields.firstKeptEntryId).toBe(p.firstKeptEntryId);
    expect(a.fields.tokensBefore).toBe(175004);
    expect(a.fields.details).toEqual(p.fileOps);
    expect(a.fields.summary).toContain("<modified-files>\n");
  });
});
