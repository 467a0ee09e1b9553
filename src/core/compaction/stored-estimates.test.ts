/**
 * Stored token counts: made from pi's chars/4 rule, given back to a fresh copy of the same
 * entries only when they match them, and pinned to STORED_ESTIMATE_RULE on the real fixtures.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSessionJsonl } from "../session/parse.ts";
import { ownMessage } from "../session/projection.ts";
import type { SessionEntry } from "../session/types.ts";
import { chunkEstimates, NO_MESSAGE, STORED_ESTIMATE_RULE, seedEstimates } from "./stored-estimates.ts";
import { FIXTURE_DIR } from "./test-fixture.ts";
import { cachedEstimator, estimateMessageTokensPi } from "./tokens.ts";

const PI16_DIR = resolve(FIXTURE_DIR, "../pi16");
const FILES = [
  resolve(FIXTURE_DIR, "before-compaction.jsonl"),
  ...[
    "A-system-usage",
    "B-context-edit",
    "D-retain-none",
    "G1-trailing-toolresult",
    "G3-bash-first-kept",
  ].map((name) => resolve(PI16_DIR, `${name}.jsonl`)),
];

function entriesOf(file: string): SessionEntry[] {
  const parsed = parseSessionJsonl(readFileSync(file, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.entries;
}

/** A fresh parse of the same entries (new objects, as a later open reads them). */
const copy = (entries: readonly SessionEntry[]) =>
  entries.map((e) => JSON.parse(JSON.stringify(e)) as SessionEntry);

/** pi's estimator with a counter of the messages it really counted (not seeded). */
function countingEstimator() {
  const counted = { n: 0 };
  const estimator = cachedEstimator("pi", (m) => {
    counted.n++;
    return estimateMessageTokensPi(m);
  });
  return { estimator, counted };
}

const fixture = entriesOf(FILES[0]!);

describe("stored token counts", () => {
  it("are pi's chars/4 count of each entry's own message, NO_MESSAGE for the others", () => {
    for (const file of FILES) {
      const entries = entriesOf(file);
      const tokens = chunkEstimates(entries, 0, entries.length, countingEstimator().estimator);
      entries.forEach((entry, i) => {
        const message = ownMessage(entry);
        expect(tokens[i]).toBe(message ? estimateMessageTokensPi(message) : NO_MESSAGE);
      });
    }
  });

  it("are the counts recorded for their rule: a change to the rule must change STORED_ESTIMATE_RULE", () => {
    // If this fails after a change to how pi's estimate counts, stored counts made before the
    // change would be read as true: give the rule a new name, then record the new sums here.
    const sums: Record<string, number[]> = {
      "pi-chars4/1": [362_545, 149, 1024, 800, 10_111, 2004],
    };
    const got = FILES.map((file) => {
      const entries = entriesOf(file);
      return Array.from(chunkEstimates(entries, 0, entries.length)).reduce(
        (sum, n) => (n === NO_MESSAGE ? sum : sum + n),
        0,
      );
    });
    expect(got).toEqual(sums[STORED_ESTIMATE_RULE]);
  });

  it("are given to a fresh copy of the entries without counting them again, and equal a real count", () => {
    const tokens = chunkEstimates(fixture, 0, fixture.length);
    const fresh = copy(fixture);
    const { estimator, counted } = countingEstimator();
    expect(seedEstimates(fresh, 0, fresh.length, tokens, 0, estimator)).toBe(true);
    // Nothing was counted through the estimator (the check of the first message counts it apart).
    expect(counted.n).toBe(0);
    for (const entry of fresh) {
      const message = ownMessage(entry);
      if (message) expect(estimator.estimateMessage(message)).toBe(estimateMessageTokensPi(message));
    }
    expect(counted.n).toBe(0);
  });

  it("are given by position in the chunk: any run of a chunk, with its offset", () => {
    const tokens = chunkEstimates(fixture, 0, fixture.length);
    fc.assert(
      fc.property(fc.nat(fixture.length - 1), fc.nat(200), (from, length) => {
        const to = Math.min(fixture.length, from + length);
        const fresh = copy(fixture.slice(from, to));
        const { estimator, counted } = countingEstimator();
        expect(seedEstimates(fresh, 0, fresh.length, tokens, from, estimator)).toBe(true);
        for (const entry of fresh) {
          const message = ownMessage(entry);
          if (message) expect(estimator.estimateMessage(message)).toBe(estimateMessageTokensPi(message));
        }
        expect(counted.n).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it("that do not match the entries are not used at all: shifted, short, or counted by another rule", () => {
    const tokens = chunkEstimates(fixture, 0, fixture.length);
    const messages = fixture.filter((e) => ownMessage(e)).length;
    const cases: [string, Uint32Array, number][] = [
      ["shifted by one entry", tokens, 1],
      ["too short", tokens.slice(0, fixture.length - 1), 0],
      ["another rule (every count + 1)", tokens.map((n) => (n === NO_MESSAGE ? n : n + 1)), 0],
    ];
    for (const [, stored, offset] of cases) {
      const fresh = copy(fixture);
      const { estimator, counted } = countingEstimator();
      expect(seedEstimates(fresh, 0, fresh.length, stored, offset, estimator)).toBe(false);
      for (const entry of fresh) {
        const message = ownMessage(entry);
        if (message) expect(estimator.estimateMessage(message)).toBe(estimateMessageTokensPi(message));
      }
      // Nothing was seeded: every message was counted for real.
      expect(counted.n).toBe(messages);
    }
  });

  it("never replace a count already made", () => {
    const fresh = copy(fixture.slice(0, 20));
    const { estimator } = countingEstimator();
    const first = fresh.map(ownMessage).find((m) => m)!;
    const real = estimator.estimateMessage(first);
    estimator.seed(first, real + 5);
    expect(estimator.estimateMessage(first)).toBe(real);
  });
});
