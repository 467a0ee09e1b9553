/** Conformance with pi 1.6: every row of every reference (pi's own output, see README.md) must agree with Cutpoint's core. */
import { afterAll, describe, expect, it } from "vitest";
import { compareReference, formatDisagreement, type Row } from "./compare.ts";
import { readReferences } from "./reference-types.ts";

const references = readReferences();
const results = new Map<string, Row[]>();

/** Disagreement counts by rule and field across all files: the to-do list, largest first. */
function categories(rows: Row[]): string[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    for (const d of row.disagreements) {
      const rule = row.rule.startsWith("plan") ? "plan" : row.rule;
      const key = `${rule}.${d.field}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([key, n]) => `${key} ×${n}`);
}

describe("conformance with pi 1.6", () => {
  it("has references to check", () => {
    expect(references.length).toBeGreaterThan(0);
  });

  for (const { name, reference } of references) {
    it(name, () => {
      const rows = compareReference(name, reference);
      results.set(name, rows);
      const bad = rows.filter((row) => row.disagreements.length > 0);
      expect(rows.length).toBeGreaterThan(0);
      expect(
        bad.length,
        `${bad.length} of ${rows.length} rows of ${name} disagree with pi 1.6 (listed after the run)`,
      ).toBe(0);
    });
  }

  afterAll(() => {
    const all = [...results.values()].flat();
    const agree = all.filter((row) => row.disagreements.length === 0).length;
    const lines = [`conformance: ${agree} of ${all.length} rows agree`];
    for (const [name, rows] of results) {
      const ok = rows.filter((row) => row.disagreements.length === 0).length;
      lines.push(`  ${name}: ${ok} of ${rows.length}`);
    }
    if (agree < all.length) {
      lines.push("disagreements by rule.field:", `  ${categories(all).join(", ")}`, "every disagreement:");
      for (const row of all) for (const d of row.disagreements) lines.push(`  ${formatDisagreement(row, d)}`);
    }
    console.log(lines.join("\n"));
  });
});
