/** The comparison itself: a changed pi value must show up as a disagreement on exactly that field. */
import { describe, expect, it } from "vitest";
import { compareReference, formatDisagreement, lineRanges } from "./compare.ts";
import { type Reference, readReferences } from "./reference-types.ts";

function reference(name: string): Reference {
  const found = readReferences().find((r) => r.name === name);
  if (!found) throw new Error(`no reference ${name}`);
  return structuredClone(found.reference);
}

const fieldsOf = (rows: ReturnType<typeof compareReference>, at: string, rule: string) =>
  rows
    .filter((row) => row.at === at && row.rule === rule)
    .flatMap((row) => row.disagreements.map((d) => d.field));

describe("compareReference", () => {
  it("reports a changed session name, label, leaf and plan value on its own field", () => {
    const base = reference("system-prompts");
    const before = compareReference("system-prompts", base);
    const tampered = reference("system-prompts");
    tampered.sessionName = "Another name";
    tampered.labels = [];
    tampered.leaf.leafLine = 3;
    const row = tampered.lines.find((line) => line.leafLine === 9)!;
    const plan = row.plans.find((p) => p.keep === 1)!;
    plan.compact = !plan.compact;
    const after = compareReference("system-prompts", tampered);

    expect(fieldsOf(before, "file", "session")).toEqual([]);
    expect(fieldsOf(after, "file", "session")).toEqual(["sessionName", "labels"]);
    expect(fieldsOf(after, `leaf on load (line 3)`, "leaf")).toContain("leafLine");
    expect(fieldsOf(before, "line 9", "plan keep 1")).not.toContain("compact");
    expect(fieldsOf(after, "line 9", "plan keep 1")).toEqual(["compact"]);
    expect(after.length).toBe(before.length);
  });

  it("compares message lists by place and tokens", () => {
    const tampered = reference("shared-pi16-G3-bash-first-kept");
    const rows = compareReference("g3", tampered);
    const at = `line ${tampered.lines[1]!.leafLine}`;
    expect(fieldsOf(rows, at, "context")).not.toContain("messages");
    tampered.lines[1]!.messages![0]!.tokens += 1;
    const changed = compareReference("g3", tampered).find((row) => row.at === at && row.rule === "context")!;
    const messages = changed.disagreements.find((d) => d.field === "messages")!;
    expect(formatDisagreement(changed, messages)).toMatch(
      /^g3 line \d+ \[context\] messages: pi .*tokens: user@\d+#\w+=\d+/,
    );
  });
});

describe("lineRanges", () => {
  it("joins consecutive lines", () => {
    expect(lineRanges([2, 3, 4, 7, 9, 10])).toBe("2-4,7,9-10");
    expect(lineRanges([])).toBe("");
    expect(lineRanges([5, null, 6])).toBe("5,null,6");
  });
});
