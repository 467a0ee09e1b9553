/**
 * Coverage properties: a summary that contains an item's text covers it, and adding a missing item
 * covers it without uncovering any other.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, toolResult, user } from "../session/test-builders.ts";
import type { AgentMessage } from "../session/types.ts";
import { checkCoverage, extractCoverageItems } from "./coverage.ts";
import { addItemToSummary } from "./coverage-add.ts";

// Words likely to trigger every extractor: rules, paths, names, values, URLs, errors, to-dos.
const WORDS = [
  "always",
  "never",
  "don't",
  "must",
  "immer",
  "jamais",
  "nunca",
  "use",
  "pnpm",
  "not",
  "npm",
  "src/a.ts",
  "/w/b/c.md",
  "README.md",
  "queueMessage",
  "snake_case",
  "`code span`",
  '"quoted text"',
  "100ms",
  "v1.2.3",
  "https://x.io/p",
  "Error:",
  "TODO:",
  "- [ ]",
  "Next, I will",
  "make sure",
  ".",
  "?",
  "\n",
  "\n\n",
  "  ",
  "é",
  "Σ",
  "ß",
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 6 })), { maxLength: 30 })
  .map((w) => w.join(" "));

const message: fc.Arbitrary<AgentMessage> = fc.oneof(
  text.map((t) => user(t)),
  text.map((t) => assistant(t)),
  fc.tuple(fc.constantFrom("read", "edit", "write", "bash"), text).map(([name, t]) => {
    const a = assistant("");
    a.content = [
      {
        type: "toolCall",
        id: "c",
        name,
        arguments: name === "bash" ? { command: t } : { path: t.trim() || "x.ts" },
      },
    ];
    return a;
  }),
  fc.tuple(text, fc.boolean()).map(([t, err]) => {
    const r = toolResult(t);
    r.isError = err;
    return r;
  }),
);

const ranges = fc
  .array(message, { maxLength: 8 })
  .map((messages) => [{ messages, entryIds: messages.map((_, i) => `e${i}`) }]);

describe("coverage properties", () => {
  it("a summary that includes an item's text never reports that item missing", () => {
    fc.assert(
      fc.property(ranges, text, text, fc.nat(), (rs, before, after, pick) => {
        const items = extractCoverageItems(rs);
        fc.pre(items.length > 0);
        const item = items[pick % items.length]!;
        const report = checkCoverage(`${before}${item.text}${after}`, items);
        expect(report.items.find((i) => i.key === item.key)?.covered).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("adding a missing item to a summary makes it covered and keeps every covered item covered", () => {
    fc.assert(
      fc.property(
        ranges,
        fc.constantFrom(
          "",
          "## Goal\n- x\n\n## Next Steps\n1. a\n\n<read-files>\na\n</read-files>",
          "free text",
        ),
        fc.nat(),
        (rs, summary, pick) => {
          const items = extractCoverageItems(rs);
          fc.pre(items.length > 0);
          const item = items[pick % items.length]!;
          const before = checkCoverage(summary, items);
          const after = checkCoverage(addItemToSummary(summary, item), items);
          expect(after.items.find((i) => i.key === item.key)?.covered).toBe(true);
          for (const i of before.items)
            if (i.covered) expect(after.items.find((j) => j.key === i.key)?.covered).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
