/**
 * The masking service on the fixture: one context_edit per tool output, placeholders in the context,
 * undo gives the originals back; nothing is written on a stale leaf or with nothing to mask.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isMasked } from "../../core/compaction/masking.ts";
import { contextTokensOf, indexPath } from "../../core/compaction/plan.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import { currentPath } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { readEntries } from "../../db/sessions-repo.ts";
import { fixtureDb } from "../../test-support/fixture-db.ts";
import { maskToolOutputs, unmaskToolOutputs } from "./masking-service.ts";

let db: CutpointDb;
let sessionId: string;
let entries: SessionEntry[];

beforeEach(async () => {
  ({ db, sessionId, entries } = await fixtureDb("masking"));
});
afterEach(() => db.close());

const toolResults = (path: readonly SessionEntry[]) =>
  buildSessionContext(path).messages.filter((m) => m.role === "toolResult");

describe("masking service", () => {
  it("writes one context_edit per output at the leaf; the model sees placeholders; Undo gives the originals back", async () => {
    const path = currentPath(entries);
    const before = contextTokensOf(indexPath(path)).tokens;
    const r = await maskToolOutputs(db, { sessionId, path, minTokens: 100, now: 1 });
    if (!r.ok) throw new Error(r.reason);
    expect(r.plan.edits.length).toBeGreaterThan(10);
    const stored = await readEntries(db, sessionId);
    expect(stored.length).toBe(entries.length + r.plan.edits.length);
    const masked = currentPath(stored);
    expect(masked.at(-1)!.id).toBe(r.plan.edits.at(-1)!.id);
    expect(contextTokensOf(indexPath(masked)).tokens).toBeLessThan(before);
    expect(toolResults(masked).filter((m) => isMasked(m.content)).length).toBe(r.plan.edits.length);
    // The originals are still in the file.
    for (const t of r.plan.targets) expect(stored.find((e) => e.id === t.entryId)).toBeDefined();

    const ids = r.plan.targets.map((t) => t.entryId);
    const u = await unmaskToolOutputs(db, { sessionId, path: masked, targetIds: ids, now: 2 });
    expect(u.ok).toBe(true);
    const back = currentPath(await readEntries(db, sessionId));
    expect(toolResults(back).some((m) => isMasked(m.content))).toBe(false);
    expect(JSON.stringify(toolResults(back).map((m) => m.content))).toBe(
      JSON.stringify(toolResults(path).map((m) => m.content)),
    );
  });

  it("writes nothing when the leaf moved since the plan, or when there is nothing to mask", async () => {
    const path = currentPath(entries);
    const stale = await maskToolOutputs(db, { sessionId, path: path.slice(0, -1), now: 1 });
    expect(stale.ok).toBe(false);
    const none = await maskToolOutputs(db, { sessionId, path, minTokens: 10_000_000, now: 1 });
    expect(none).toEqual({ ok: false, reason: "No tool output to mask there." });
    expect((await readEntries(db, sessionId)).length).toBe(entries.length);
  });
});
