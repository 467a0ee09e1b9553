/** The words of the import report, from real damaged files (the pi fixture, broken). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { serializeSession } from "../../core/session/export.ts";
import { PI_FIXTURE } from "../../core/session/fixture-path.ts";
import { parseSessionJsonl } from "../../core/session/parse.ts";
import { prepareImport } from "./import-prepare.ts";
import {
  describeDamage,
  describeImported,
  describeNormalized,
  describePath,
  describeProblems,
} from "./import-report.ts";

const V3 = (() => {
  const parsed = parseSessionJsonl(readFileSync(PI_FIXTURE, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return serializeSession(parsed.value.header, parsed.value.entries).trimEnd().split("\n");
})();

function prepare(lines: string[] | Uint8Array) {
  const prepared = prepareImport("f.jsonl", Array.isArray(lines) ? `${lines.join("\n")}\n` : lines);
  if (!prepared.ok) throw new Error(prepared.error.message);
  return prepared.value;
}

function withParent(n: number, parentId: string): string[] {
  const lines = [...V3];
  lines[n - 1] = JSON.stringify({ ...JSON.parse(lines[n - 1]!), parentId });
  return lines;
}

describe("import report", () => {
  it("a clean file: nothing to say but the path", () => {
    const { problems, path, prepared } = prepare(V3);
    expect(describeDamage(problems)).toEqual([]);
    expect(describeImported(problems, path)).toBe("");
    expect(describePath(prepared.meta.entryCount, path)).toBe(
      "1,002 entries will be imported; all of them will be on the current path (lines 2–1003).",
    );
  });

  it("a missing parent near the end: 3 entries on the path, 1,002 stored, and why", () => {
    const { problems, path, prepared } = prepare(withParent(1001, "nothere"));
    expect(describeDamage(problems)).toEqual([
      "3 entries are cut off from the root (a parent that is not in the file: line 1001). They are kept as they " +
        "are, but no path from the start of the session reaches them.",
    ]);
    expect(describePath(prepared.meta.entryCount, path)).toBe(
      "1,002 entries will be imported; 3 of them will be on the current path (lines 1001–1003): it starts at " +
        "line 1001, where the tree is broken, not at the start of the session.",
    );
    expect(describeImported(problems, path)).toBe(
      " 3 on the current path (cut short by the damage on line 1001).",
    );
  });

  it("bad lines, invalid UTF-8, a cycle, a compaction off its path and a leaf moving nowhere, each said once", () => {
    const lines = withParent(3, JSON.parse(V3[9]!).id);
    lines[19] = "{not json";
    lines[24] = lines[22]!; // a duplicated line
    const compaction = lines.findIndex((l) => l.includes('"type":"compaction"'));
    lines[compaction] = JSON.stringify({ ...JSON.parse(lines[compaction]!), firstKeptEntryId: "nowhere" });
    lines.push(JSON.stringify({ type: "leaf", id: "lf", parentId: null, targetId: "missing" }));
    const bytes = new TextEncoder().encode(`${lines.join("\n")}\n`);
    const at = bytes.indexOf(0x3a, bytes.indexOf(0x0a, bytes.length - 3000)) + 2; // inside a late string
    const broken = new Uint8Array([...bytes.subarray(0, at), 0xff, ...bytes.subarray(at)]);
    const { problems, path, prepared } = prepare(broken);
    // Lines 20 and 25 left out take the parents of lines 21 and 26 with them.
    expect(problems.map((p) => `${p.line} ${p.kind}`)).toEqual([
      "3 cycle",
      "20 bad-line",
      "21 missing-parent",
      "25 duplicate-id",
      "26 missing-parent",
      "360 compaction-kept",
      "1003 invalid-utf8",
      "1004 leaf-target",
    ]);
    const sentences = describeDamage(problems);
    expect(sentences).toHaveLength(5);
    expect(sentences[0]).toBe("2 lines would be left out: line 20, line 25.");
    expect(sentences[1]).toBe(
      "1 line is not valid UTF-8 (line 1003): the bad bytes are read as “\uFFFD” (U+FFFD), the entry is kept, " +
        "and the export writes it as valid UTF-8.",
    );
    expect(sentences[2]).toBe(
      "999 entries are cut off from the root (a parent that is not in the file: line 21, line 26; parents that " +
        "go round in a cycle: line 3). They are kept as they are, but no path from the start of the session reaches them.",
    );
    expect(sentences[3]).toBe(
      "1 compaction keeps from an entry that is not before it on its path (line 360): after it the model sees " +
        "the summary and nothing kept from before.",
    );
    expect(sentences[4]).toBe(
      "The last entry (line 1004) moves the current position to an entry that is not in the file: the current path is empty.",
    );
    expect(describePath(prepared.meta.entryCount, path)).toBe(
      "1,001 entries will be imported; the current path will be empty.",
    );
    expect(describeProblems(problems)).toMatch(
      /^2 lines were left out \(line 20: not valid JSON; line 25: duplicate id/,
    );
  });
});

describe("what an import normalized", () => {
  it("says nothing for a file as pi writes it", () => {
    expect(describeNormalized(prepare(V3.slice(0, 5)).normalized)).toBe("");
  });

  it("names the BOM, the CRLF line ends, the blank lines and the missing last line end, and what the export writes", () => {
    const text = `\uFEFF${V3.slice(0, 3).join("\r\n")}\r\n\n${V3[3]}`;
    const candidate = prepareImport("f.jsonl", text);
    if (!candidate.ok) throw new Error(candidate.error.message);
    expect(describeNormalized(candidate.value.normalized)).toBe(
      "The file has a byte order mark (BOM) at its start, 3 lines ending in CRLF, 1 blank line and no line " +
        "end after its last line: the session is the same, but its export writes no BOM, LF line ends, no " +
        "blank lines and a line end after every line, so the exported file differs from this one.",
    );
    expect(describeNormalized({ bom: false, crlfLines: 1, blankLines: 0, noFinalNewline: false })).toBe(
      "The file has 1 line ending in CRLF: the session is the same, but its export writes LF line ends, so the exported file differs from this one.",
    );
  });
});
