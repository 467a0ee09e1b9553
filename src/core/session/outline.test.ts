/** Chunk outlines, on pi 1.6's own files and the real pi session: what they keep, and their bodies given back. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkEstimates, NO_MESSAGE, seedFilled, seedOutline } from "../compaction/stored-estimates.ts";
import { cachedEstimator, estimateMessageTokensPi } from "../compaction/tokens.ts";
import { PI_FIXTURE } from "./fixture-path.ts";
import { chunkOutline, fillBody, OUTLINE_RULE, outlineIsCurrent, parseOutline } from "./outline.ts";
import { parseSessionJsonl } from "./parse.ts";
import { ownMessage } from "./projection.ts";
import type { SessionEntry } from "./types.ts";

const PI16 = resolve(import.meta.dirname, "../../../../shared/fixtures/pi16");
const FILES = [
  PI_FIXTURE,
  ...[
    "A-system-usage",
    "B-context-edit",
    "D-retain-none",
    "G1-trailing-toolresult",
    "G3-bash-first-kept",
  ].map((name) => resolve(PI16, `${name}.jsonl`)),
];

function entriesOf(file: string): SessionEntry[] {
  const parsed = parseSessionJsonl(readFileSync(file, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.entries;
}

/** A fresh copy (the outline's entries are filled in place). */
const copy = (entries: readonly SessionEntry[]) => JSON.parse(JSON.stringify(entries)) as SessionEntry[];

describe("chunk outlines", () => {
  for (const file of FILES) {
    const name = file.split("/").at(-1);
    it(`keep every entry's place in the tree, and give the bodies back whole (${name})`, () => {
      const entries = entriesOf(file);
      const text = chunkOutline(entries, 0, entries.length);
      expect(outlineIsCurrent(text)).toBe(true);
      const parsed = parseOutline(text, entries.length)!;
      expect(parsed.entries).toHaveLength(entries.length);
      const bodiless = new Set(parsed.bodiless);
      parsed.entries.forEach((outlined, i) => {
        const full = entries[i]!;
        expect([outlined.id, outlined.parentId, outlined.type, outlined.timestamp]).toEqual([
          full.id,
          full.parentId,
          full.type,
          full.timestamp,
        ]);
        const message = (full as { message?: { role?: string } }).message;
        if (full.type === "message" && message?.role !== "system") {
          expect(bodiless.has(i)).toBe(true);
          expect((outlined as { message: { role: string } }).message.role).toBe(message!.role);
          // Without its body, whatever the message holds.
          expect(JSON.stringify(outlined).length).toBeLessThanOrEqual(JSON.stringify(full).length);
        } else {
          // Kept whole: moves, labels, compactions, system messages...
          expect(bodiless.has(i)).toBe(false);
          expect(outlined).toEqual(full);
        }
      });
      // Every body back: the same entries, to their keys' order.
      const again = copy(entries);
      for (const at of parsed.bodiless) expect(fillBody(parsed.entries[at]!, again[at]!)).toBe(true);
      expect(JSON.stringify(parsed.entries)).toBe(JSON.stringify(entries));
    });
  }

  it("of a real session are a small part of it (the bodies are the bulk)", () => {
    const entries = entriesOf(PI_FIXTURE);
    const outline = chunkOutline(entries, 0, entries.length).length;
    expect(outline).toBeLessThan(JSON.stringify(entries).length / 4);
  });

  it("are not used when they are of another rule or another chunk", () => {
    const entries = entriesOf(PI_FIXTURE).slice(0, 20);
    const text = chunkOutline(entries, 0, entries.length);
    expect(parseOutline(text, entries.length + 1)).toBeUndefined();
    expect(parseOutline(text.replace(OUTLINE_RULE, "outline/0"), entries.length)).toBeUndefined();
    expect(outlineIsCurrent(text.replace(OUTLINE_RULE, "outline/0"))).toBe(false);
    expect(parseOutline(text.slice(0, -3), entries.length)).toBeUndefined();
  });

  it("take no body from another entry", () => {
    const entries = entriesOf(PI_FIXTURE);
    const parsed = parseOutline(chunkOutline(entries, 0, entries.length), entries.length)!;
    const [a, b] = parsed.bodiless;
    const before = JSON.stringify(parsed.entries[a!]);
    expect(fillBody(parsed.entries[a!]!, entries[b!]!)).toBe(false);
    expect(JSON.stringify(parsed.entries[a!])).toBe(before);
  });

  it("hold any span of a session, and their stored counts seed what a real count gives (property)", () => {
    const entries = entriesOf(PI_FIXTURE);
    fc.assert(
      fc.property(fc.nat(entries.length - 1), fc.integer({ min: 1, max: 80 }), (from, n) => {
        const count = Math.min(n, entries.length - from);
        const counts = chunkEstimates(entries, from, count, cachedEstimator("real", estimateMessageTokensPi));
        const parsed = parseOutline(chunkOutline(entries, from, count), count)!;
        const estimator = cachedEstimator("test", () => -1);
        expect(seedOutline(parsed.entries, 0, counts, new Set(parsed.bodiless), estimator)).toBe(true);
        const full = copy(entries.slice(from, from + count));
        parsed.entries.forEach((outlined, i) => {
          const message = ownMessage(outlined);
          expect(message ? estimator.estimateMessage(message) : NO_MESSAGE).toBe(counts[i]);
          if (parsed.bodiless.includes(i)) {
            fillBody(outlined, full[i]!);
            expect(seedFilled(outlined, counts[i]!, true, estimator)).toBe(true);
          }
          const filled = ownMessage(outlined);
          if (filled) expect(estimator.estimateMessage(filled)).toBe(estimateMessageTokensPi(filled));
        });
        expect(parsed.entries).toEqual(entries.slice(from, from + count));
      }),
      { numRuns: 60 },
    );
  });

  it("whose counts do not line up seed nothing, and a wrong count is found when the body comes", () => {
    const entries = entriesOf(PI_FIXTURE).slice(0, 30);
    const counts = chunkEstimates(
      entries,
      0,
      entries.length,
      cachedEstimator("real", estimateMessageTokensPi),
    );
    const parsed = parseOutline(chunkOutline(entries, 0, entries.length), entries.length)!;
    const at = parsed.bodiless[0]!;
    const shifted = counts.slice();
    shifted[at] = NO_MESSAGE;
    expect(seedOutline(parsed.entries, 0, shifted, new Set(parsed.bodiless))).toBe(false);
    fillBody(parsed.entries[at]!, copy(entries)[at]!);
    expect(seedFilled(parsed.entries[at]!, counts[at]! + 1, true)).toBe(false);
  });
});
