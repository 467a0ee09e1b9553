/** The character rules the coverage check's fast paths rely on. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSpaceCode, normalize, normalizeKey } from "./coverage-text.ts";

describe("coverage text rules", () => {
  it("isSpaceCode is exactly a regex \\s on every UTF-16 code unit", () => {
    for (let c = 0; c < 0x10000; c++) expect(isSpaceCode(c)).toBe(/\s/.test(String.fromCharCode(c)));
  });

  it("normalizeKey is normalize with the edge punctuation and spaces trimmed (regex reference)", () => {
    const edge = /^[\s"'([{<.,;:!?*_~-]+|[\s"')\]}>.,;:!?*_~-]+$/g;
    const text = fc.string({
      unit: fc.constantFrom(
        "a",
        "B",
        " ",
        "\u00a0",
        "\t",
        ".",
        ":",
        "-",
        "(",
        ")",
        "'",
        '"',
        "’",
        "`",
        "ς",
        "é",
      ),
      maxLength: 12,
    });
    fc.assert(
      fc.property(text, (t) => {
        expect(normalizeKey(t)).toBe(normalize(t).replace(edge, ""));
      }),
      { numRuns: 2000 },
    );
  });
});
