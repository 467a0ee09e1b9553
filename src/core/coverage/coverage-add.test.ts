/**
 * Adding a missed coverage item to a summary (its section, its list style), and the coverage
 * details stored on the compaction entry.
 */
import { describe, expect, it } from "vitest";
import { buildCompactionEntry } from "../compaction/summarize.ts";
import { checkCoverage } from "./coverage.ts";
import { addItemToSummary, itemLine } from "./coverage-add.ts";
import { coverageDetails, readCoverageDetails, withCoverageDetails } from "./coverage-details.ts";

const SUMMARY = [
  "## Goal",
  "- ship it",
  "",
  "## Constraints & Preferences",
  "- tabs",
  "",
  "## Progress",
  "### Done",
  "- [x] Changed `a.ts`",
  "",
  "### In Progress",
  "- [ ] b",
  "",
  "## Next Steps",
  "1. first",
  "2. second",
  "",
  "## Critical Context",
  "- none",
  "",
  "<read-files>",
  "a.md",
  "</read-files>",
].join("\n");

describe("addItemToSummary", () => {
  it("puts each kind in its section, continuing the section's list style", () => {
    const s1 = addItemToSummary(SUMMARY, { kind: "instruction", text: "Never use npm." });
    expect(s1).toContain("- tabs\n- Never use npm.\n\n## Progress");
    const s2 = addItemToSummary(SUMMARY, { kind: "todo", text: "write docs" });
    expect(s2).toContain("2. second\n3. write docs\n");
    const s3 = addItemToSummary(SUMMARY, { kind: "command", text: "npm run check" });
    expect(s3).toContain("- [x] Changed `a.ts`\n- [x] Ran `npm run check`\n\n### In Progress");
    const s4 = addItemToSummary(SUMMARY, { kind: "error", text: "TypeError: x", detail: "bash" });
    expect(s4).toContain("- none\n- Error (bash): TypeError: x\n\n<read-files>");
    const s5 = addItemToSummary(SUMMARY, { kind: "file", text: "/w/b.ts", detail: "read" });
    expect(s5).toContain("a.md\n/w/b.ts\n</read-files>");
    const s6 = addItemToSummary(SUMMARY, { kind: "file", text: "/w/c.ts", detail: "mentioned" });
    expect(s6).toContain("- none\n- `/w/c.ts`\n");
  });

  it("creates a missing section in the canonical order, and never writes into a split turn's part", () => {
    const s = addItemToSummary("## Goal\n- x\n\n## Next Steps\n1. y", {
      kind: "instruction",
      text: "Always test.",
    });
    expect(s).toBe("## Goal\n- x\n\n## Constraints & Preferences\n- Always test.\n\n## Next Steps\n1. y");
    const split = "## Goal\n- x\n\n---\n\n**Turn Context (split turn):**\n\n## Context for Suffix\n- z";
    const t = addItemToSummary(split, { kind: "url", text: "https://x.io" });
    expect(t.indexOf("## Critical Context\n- https://x.io")).toBeLessThan(t.indexOf("---"));
    expect(addItemToSummary("", { kind: "todo", text: "a" })).toBe("## Next Steps\n- a");
  });

  it("renders names and commands as code spans that survive backticks", () => {
    expect(itemLine({ kind: "identifier", text: "a`b" })).toBe("``a`b``");
    expect(itemLine({ kind: "command", text: "echo `x`" })).toBe("Ran `` echo `x` ``");
  });
});

describe("coverage details on the compaction entry", () => {
  it("stores covered, total, missing and dismissed next to the file lists, and reads them back", () => {
    const items = [
      { kind: "file" as const, text: "/a.ts", key: "file:/a.ts", entryIds: ["e1"] },
      { kind: "url" as const, text: "https://x.io", key: "url:https://x.io", entryIds: ["e2"] },
      { kind: "todo" as const, text: "docs", key: "todo:docs", entryIds: ["e3"] },
    ];
    const report = checkCoverage("edited /a.ts", items, { dismissed: ["todo:docs"] });
    const details = coverageDetails(report);
    expect(details).toEqual({
      covered: 1,
      total: 2,
      missing: [{ kind: "url", text: "https://x.io", key: "url:https://x.io" }],
      dismissed: [{ kind: "todo", text: "docs", key: "todo:docs" }],
    });
    const entry = buildCompactionEntry({
      id: "c1",
      parentId: "p",
      timestamp: "2026-01-01T00:00:00.000Z",
      summary: "s",
      firstKeptEntryId: "k",
      tokensBefore: 10,
      details: { readFiles: ["/r.ts"], modifiedFiles: [] },
    });
    const stored = withCoverageDetails(entry, details);
    expect(stored.details).toEqual({ readFiles: ["/r.ts"], modifiedFiles: [], coverage: details });
    expect(readCoverageDetails(JSON.parse(JSON.stringify(stored.details)))).toEqual(details);
    expect(readCoverageDetails({ readFiles: [] })).toBeUndefined();
    expect(entry.details).toEqual({ readFiles: ["/r.ts"], modifiedFiles: [] });
  });
});
