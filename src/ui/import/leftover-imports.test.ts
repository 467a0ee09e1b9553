/** The words of the notice for an import a crash cut off. */
import { describe, expect, it } from "vitest";
import { leftoverImportWords } from "./leftover-imports.ts";

const record = { id: "r", fileName: "big.jsonl", bytes: 12_582_912, startedAt: 0, phase: "parse" as const };

describe("leftoverImportWords", () => {
  it("names the file, its size, when, what it was doing and that nothing was kept", () => {
    expect(leftoverImportWords({ record, stored: false }, () => "10:31")).toBe(
      "The import of “big.jsonl” (12 MB, started 10:31) was cut off: Cutpoint closed while reading it. Nothing of it was kept. Import it again.",
    );
  });

  it("says when the session had been stored whole", () => {
    expect(
      leftoverImportWords({ record: { ...record, phase: "save" }, stored: true }, () => "10:31"),
    ).toContain("closed while storing it. The session had been stored whole just before: it is in the list.");
  });
});
