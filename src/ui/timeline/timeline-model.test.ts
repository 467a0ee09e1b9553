/**
 * The timeline model: built in slices as at once, on the real fixture and example (totals, dimmed rows,
 * labels), on pi 1.6 context edits, and the path following the leaf (property).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import { parseSessionJsonl } from "../../core/session/parse.ts";
import { siblingsOf } from "../../core/session/session-tree.ts";
import { assistant, entry, msg, user } from "../../core/session/test-builders.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { treeData } from "../tree/tree-model.ts";
import { describeEntry } from "./entry-kind.ts";
import { buildTimelineModel, entryTokens, timelineModel, warmTimelineModel } from "./timeline-model.ts";

const FIXTURE = resolve(import.meta.dirname, "../../../../shared/fixtures/pi/before-compaction.jsonl");
const EXAMPLE = resolve(import.meta.dirname, "../../../public/examples/example-session.jsonl");

function load(path: string): SessionEntry[] {
  const parsed = parseSessionJsonl(readFileSync(path, "utf8"));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.entries;
}

describe("timeline model", () => {
  it("built ahead in slices (or finished at once when asked for midway) equals the model built at once", async () => {
    const entries = load(FIXTURE);
    const whole = buildTimelineModel(entries);
    const sliced = entries.slice();
    let pauses = 0;
    await warmTimelineModel(sliced, 0, async () => {
      pauses++;
    });
    // Slices of 0 ms stop at every look at the clock (each 512 entries).
    expect(pauses).toBeGreaterThanOrEqual(Math.ceil(whole.path.length / 512));
    const a = timelineModel(sliced);
    expect(a.path).toEqual(whole.path);
    expect([...a.tokens]).toEqual([...whole.tokens]);
    expect([...a.totals]).toEqual([...whole.totals]);
    expect([...a.inContext]).toEqual([...whole.inContext]);
    expect([...a.indexById]).toEqual([...whole.indexById]);
    expect([...a.forks]).toEqual([...whole.forks]);
    expect(a.firstInContext).toBe(whole.firstInContext);

    const midway = entries.slice();
    let asked: ReturnType<typeof timelineModel> | undefined;
    const warming = warmTimelineModel(midway, 0, async () => {
      asked ??= timelineModel(midway);
    });
    await warming;
    expect(asked).toBe(timelineModel(midway));
    expect([...asked!.totals]).toEqual([...whole.totals]);
  });

  it("the real fixture: whole path, running totals, dimmed before the last compaction's kept entry", () => {
    const entries = load(FIXTURE);
    const model = buildTimelineModel(entries);
    expect(model.path.length).toBe(1002);
    const last = model.path[model.lastCompaction]!;
    expect(last.type).toBe("compaction");
    const keptId = (last as { firstKeptEntryId?: string }).firstKeptEntryId!;
    expect(model.path[model.firstInContext]!.id).toBe(keptId);
    expect(model.firstInContext).toBeLessThan(model.lastCompaction);
    // Running totals add what the model sees; entries before the kept range are dimmed and add nothing.
    let sum = 0;
    for (let i = 0; i < model.path.length; i++) {
      if (model.inContext[i] && i >= model.firstInContext) sum += model.tokens[i]!;
      expect(model.totals[i]).toBe(sum);
      if (i < model.firstInContext && model.path[i]!.type === "message") expect(model.inContext[i]).toBe(0);
    }
    const context = buildSessionContext(model.path).messages;
    expect(model.totals[model.path.length - 1]).toBe(
      context.reduce((n, m) => n + PI_ESTIMATOR.estimateMessage(m), 0),
    );
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

  it("pi 1.6 sessions: an omitted entry is dimmed and adds nothing, a replaced one counts its replacement", () => {
    const entries = load(
      resolve(import.meta.dirname, "../../../../shared/fixtures/pi16/B-context-edit.jsonl"),
    );
    const model = buildTimelineModel(entries);
    const context = buildSessionContext(model.path);
    expect(model.edits.size).toBeGreaterThan(0);
    for (const [target, edit] of model.edits) {
      const i = model.indexById.get(target)!;
      if (edit.replacement === null) {
        expect(model.inContext[i]).toBe(0);
        expect(context.entryIds).not.toContain(target);
      } else {
        expect(model.inContext[i]).toBe(1);
        const seen = context.messages[context.entryIds.indexOf(target)]!;
        expect(model.tokens[i]).toBe(PI_ESTIMATOR.estimateMessage(seen));
      }
    }
    expect(model.totals[model.path.length - 1]).toBe(
      context.messages.reduce((n, m) => n + PI_ESTIMATOR.estimateMessage(m), 0),
    );
    const system = load(
      resolve(import.meta.dirname, "../../../../shared/fixtures/pi16/A-system-usage.jsonl"),
    );
    const kinds = buildTimelineModel(system).path.map((e) => describeEntry(e).kind);
    expect(kinds).toContain("system");
    expect(kinds).toContain("usage");
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
        // The forked entry's children are the path's only fork: its row shows the switcher.
        const forked = fork + 1 < n ? [`m${fork + 1}`, "branch"] : [];
        expect([...model.forks].sort()).toEqual(
          model.path
            .filter((e) => siblingsOf(treeData(entries), e).length > 1)
            .map((e) => e.id)
            .sort(),
        );
        expect([...model.forks].sort()).toEqual(
          forked.filter((id) => model.path.some((e) => e.id === id)).sort(),
        );
        // Every path entry's index, asked for after the build.
        for (const [i, e] of model.path.entries()) expect(model.indexById.get(e.id)).toBe(i);
      }),
    );
  });
});
