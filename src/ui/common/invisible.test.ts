/**
 * Marking invisible characters (bidi, zero-width, tags, controls): each shown as a named mark,
 * and the pieces rebuild the text with none shown as is (property).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasInvisible, markInvisible, splitInvisible } from "./invisible.ts";

const BIDI = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
const ZERO_WIDTH = [
  0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x00ad, 0xe0001, 0xe0041, 0xe007f, 0xe0100,
];
/** Everything the page must never show as is. */
const HIDDEN = [...BIDI, ...ZERO_WIDTH, 0x00, 0x1b, 0x7f, 0x85];

function rebuilt(text: string): string {
  return splitInvisible(text)
    .map((p) => (typeof p === "string" ? p : p.source))
    .join("");
}

describe("markInvisible", () => {
  it("shows the right-to-left override in a file name as a mark", () => {
    expect(markInvisible("report\u202Efdp.exe")).toBe("report⟨U+202E⟩fdp.exe");
  });

  it.each(HIDDEN.map((c) => [c.toString(16), c]))("marks U+%s", (_hex, code) => {
    const ch = String.fromCodePoint(code);
    const out = markInvisible(`a${ch}b`);
    expect(out).not.toContain(ch);
    expect(out).toMatch(/^a⟨.+⟩b$/);
    expect(hasInvisible(`a${ch}b`)).toBe(true);
  });

  it("leaves ordinary text, newlines, tabs and emoji alone", () => {
    for (const text of ["plain text", "a\tb\nc\r\n", "héllo wörld", "שלום עולם", "❤️ 👍🏽", "👨‍👩‍👧 family"]) {
      expect(markInvisible(text)).toBe(text);
      expect(hasInvisible(text)).toBe(false);
    }
  });

  it("marks a zero-width joiner that does not join two pictographs", () => {
    expect(markInvisible("pay\u200Dpal")).toBe("pay⟨U+200D⟩pal");
    expect(markInvisible("👍\u200D")).toBe("👍⟨U+200D⟩");
  });

  it("collapses a run of one character and names its length", () => {
    expect(markInvisible("x\u200B\u200B\u200By")).toBe("x⟨U+200B ×3⟩y");
    expect(markInvisible("\u202E\u202D")).toBe("⟨U+202E⟩⟨U+202D⟩");
  });

  it("spells out what tag characters hide", () => {
    const hidden = Array.from("ignore all", (c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    expect(markInvisible(`ok${hidden}.`)).toBe("ok⟨tags “ignore all”⟩.");
  });

  it("gives each mark a description", () => {
    const [, mark] = splitInvisible("a\u202Eb");
    expect(mark).toMatchObject({
      mark: "⟨U+202E⟩",
      title: "U+202E RIGHT-TO-LEFT OVERRIDE",
      source: "\u202E",
    });
  });

  it("property: the pieces rebuild the text, and no piece shown holds a hidden character", () => {
    const hiddenChar = fc.constantFrom(...HIDDEN.map((c) => String.fromCodePoint(c)));
    const text = fc.array(fc.oneof(fc.string(), fc.string({ unit: "grapheme", maxLength: 4 }), hiddenChar), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(text, (parts) => {
        const s = parts.join("");
        expect(rebuilt(s)).toBe(s);
        const shown = markInvisible(s);
        for (const c of HIDDEN) {
          if (c === 0x200d) continue; // kept between two pictographs
          expect(shown.includes(String.fromCodePoint(c))).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});
