/** The import's preview from a file's first and last bytes, against the whole file's parse (pi 1.6's own files). */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PI_FIXTURE } from "./fixture-path.ts";
import { parseSessionBytes } from "./parse.ts";
import { tailPreview } from "./tail-preview.ts";

const PI16 = resolve(import.meta.dirname, "../../../../shared/fixtures/pi16");
const files = ["B-context-edit.jsonl", "G1-trailing-toolresult.jsonl", "A-system-usage.jsonl"].map((name) =>
  readFileSync(resolve(PI16, name)),
);
const enc = new TextEncoder();

function entriesOf(bytes: Uint8Array) {
  const parsed = parseSessionBytes(bytes);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.entries;
}

/** Byte offsets where each line after the header starts. */
function entryLineStarts(bytes: Uint8Array): number[] {
  const starts: number[] = [];
  for (let i = 0; i < bytes.length - 1; i++) if (bytes[i] === 10) starts.push(i + 1);
  return starts.filter((s) => s < bytes.length);
}

describe("tailPreview", () => {
  it("is every entry of a pi 1.6 file when the tail is the whole file", () => {
    for (const bytes of files) {
      const preview = tailPreview(bytes, bytes, 0);
      expect(preview?.header.type).toBe("session");
      expect(preview?.entries).toEqual(entriesOf(bytes));
    }
  });

  it("holds the entries whose lines lie wholly in the tail, the newest `max` of them", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        (which, at, max) => {
          const bytes = files[which]!;
          const tailStart = Math.min(bytes.length - 1, Math.max(1, Math.floor(at * bytes.length)));
          const all = entriesOf(bytes);
          const starts = entryLineStarts(bytes);
          // The line that holds tailStart is cut (or starts there: skipped all the same).
          const firstWhole = bytes.indexOf(10, tailStart) + 1;
          const whole = starts.filter((s) => s >= firstWhole).length;
          const expected = all.slice(all.length - Math.min(whole, max));
          const preview = tailPreview(bytes.subarray(0, 4096), bytes.subarray(tailStart), tailStart, max);
          if (expected.length === 0) expect(preview).toBeUndefined();
          else expect(preview?.entries).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("leaves out lines that are not valid entries, as the import would report them", () => {
    const bytes = files[0]!;
    const text = new TextDecoder().decode(bytes);
    const lines = text.trimEnd().split("\n");
    const damaged = [
      ...lines.slice(0, -2),
      '{"type":"message","id":"x"',
      '{"type":"message","parentId":null}',
      "",
      ...lines.slice(-2),
    ].join("\r\n");
    const all = entriesOf(bytes);
    const preview = tailPreview(enc.encode(damaged), enc.encode(damaged), 0);
    expect(preview?.entries).toEqual(all);
  });

  it("shows nothing for a file that needs migrating, or without a header line or valid entries", () => {
    const v1 = readFileSync(PI_FIXTURE);
    expect(tailPreview(v1, v1.subarray(v1.length - 65536), v1.length - 65536)).toBeUndefined();
    const header = `${new TextDecoder().decode(files[0]!).split("\n")[0]}\n`;
    expect(tailPreview(enc.encode(header.trim()), enc.encode("{}\n"), 0)).toBeUndefined();
    expect(
      tailPreview(enc.encode(header), enc.encode('not json\n{"type":"session","id":"a"}\n'), 0),
    ).toBeUndefined();
    expect(tailPreview(enc.encode('{"type":"message"}\n'), files[0]!, 0)).toBeUndefined();
    // A tail with no line end at all is the middle of one line.
    expect(tailPreview(files[0]!, enc.encode('{"type":"message"'), 100)).toBeUndefined();
  });
});
