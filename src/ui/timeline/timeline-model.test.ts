import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSessionJsonl } from "../../core/session/parse.ts";
import { assistant, entry, msg, user } from "../../core/session/test-builders.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { describeEntry } from "./entry-kind.ts";
import { buildTimelineModel, entryTokens } from "./timeline-model.ts";

const FIXTURE = resolve(import.meta.dirname, "../../../../shared/fixtures/pi/before-compaction.jsonl");
const EXAMPLE = resolve(import.meta.dirname, "../../../public/examples/example-session.jsonl");

function load(path: string): SessionEntry[] {
  const parsed = parseSessionJsonl(readFileSync(path, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.entries;
}

describe("timeline model", () => {
  it("the real fixture: whole path, running totals, dimmed before the last compaction's kept entry", () => {
    const entries = load(FIXTURE);
    const model = buildTimelineModel(entries);
    expect(model.path.length).toBe(1002);
    const last = model.path[model.lastCompaction]!;
    expect(last.type).toBe("compaction");
    const keptId = (last as { firstKeptEntryId?: string }).firstKeptEntryId!;
    expect(model.path[model.firstInContext]!.id).toBe(keptId);
    expect(model.firstInContext).toBeLessThan(model.lastCompaction);
    let sum = 0;
    for (let i = 0; i < model.path.length; i++) {
      sum += model.tokens[i]!;
      expect(model.totals[i]).toBe(sum);
    }
    // Every entry gets a readable kind label and never throws.
    for (const e of model.path) expect(describeEntry(e).label.length).toBeGreaterThan(0);
  });

  it("the example session: labels, name and the compaction keep range", () => {
    const model = buildTimelineModel(load(EXAMPLE));
    expect([...model.labels.values()]).toEqual(["--json works"]);
    const kept = model.path[model.firstInContext]!;
    expect(describeEntry(kept)).toMatchObject({ kind: "user" });
    expect(describeEntry(kept).excerpt).toMatch(/^Nice\. One problem/);
    expect(describeEntry(model.path.at(-1)!)).toMatchObject({
      kind: "session-info",
      excerpt: "tally: --json flag and exact cents",
    });
  });

  it("counts tokens as chars/4 per message and nothing for settings entries", () => {
    expect(entryTokens(msg("a", null, user("x".repeat(10))))).toBe(3);
    expect(entryTokens(msg("b", "a", assistant("y".repeat(8))))).toBe(2);
    expect(entryTokens(entry("model_change", "c", "b", { provider: "p", modelId: "m" }))).toBe(0);
  });

  it("follows the leaf: the path is the branch ending at the last entry", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 29 }), (n, forkAt) => {
        const entries: SessionEntry[] = [];
        for (let i = 0; i < n; i++) entries.push(msg(`m${i}`, i === 0 ? null : `m${i - 1}`, user(`u${i}`)));
        const fork = Math.min(forkAt, n - 1);
        entries.push(msg("branch", `m${fork}`, user("other branch")));
        const model = buildTimelineModel(entries);
        expect(model.path.map((e) => e.id)).toEqual([
          ...entries.slice(0, fork + 1).map((e) => e.id),
          "branch",
        ]);
        expect(model.firstInContext).toBe(0);
      }),
    );
  });
});
