/** oneLine: the same line as flattening the whole text, cut with an ellipsis. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { oneLine } from "./one-line.ts";

const whole = (text: string, max: number) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

describe("oneLine", () => {
  it("flattens whitespace and cuts with an ellipsis", () => {
    expect(oneLine("  a\n\n b\tc  ", 10)).toBe("a b c");
    expect(oneLine("abcdefghijkl", 5)).toBe("abcd…");
    expect(oneLine("abcde", 5)).toBe("abcde");
  });

  it("looks past a long run of whitespace at the start", () => {
    expect(oneLine(`${" ".repeat(100)}word and more`, 8)).toBe("word an…");
  });

  it("equals flattening the whole text, for any text and length", () => {
    const texts = fc.stringMatching(/^[ \n\tab]{0,80}$/);
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 20 }), (text, max) => {
        expect(oneLine(text, max)).toBe(whole(text, max));
      }),
    );
  });
});
