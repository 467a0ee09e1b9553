/**
 * The compaction runner on the real fixture: Confirm appends one compaction, a moved leaf writes nothing,
 * Undo writes a move (also after a move), summaries stream, automatic compaction, settings.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateOfflineCompaction as offlineSummary } from "../../core/compaction/offline-summary.ts";
import { planCompaction } from "../../core/compaction/plan.ts";
import type { CompleteFn } from "../../core/compaction/summarize.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import { buildMoveEntry, displayPositionId, MOVE_CUSTOM_TYPE } from "../../core/session/moves.ts";
import { TS } from "../../core/session/test-builders.ts";
import { buildTreeIndex, currentPath } from "../../core/session/tree.ts";
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { appendEntries, exportSession, readEntries } from "../../db/sessions-repo.ts";
import { fixtureDb } from "../../test-support/fixture-db.ts";
import { confirmOfflineCompaction } from "../../test-support/offline-compaction.ts";
import {
  compactAutomatically,
  confirmCompaction,
  generateSummary,
  undoCompaction,
} from "./compaction-runner.ts";
import { loadCompactionSettings, normalizeSettings, saveCompactionSettings } from "./compaction-settings.ts";

const SETTINGS = { reserveTokens: 16384, keepRecentTokens: 20000 };
const ENDPOINT = { baseUrl: "http://127.0.0.1:1/v1", apiKey: "test-key", provider: "custom", model: "m" };

let db: CutpointDb;
let sessionId: string;
let entries: SessionEntry[];

beforeEach(async () => {
  ({ db, sessionId, entries } = await fixtureDb("compaction-runner"));
});
afterEach(() => db.close());

const leafOf = (es: SessionEntry[]) => currentPath(es).at(-1)?.id ?? null;

function plan() {
  const r = planCompaction(currentPath(entries), SETTINGS);
  if (!r.ok) throw new Error(r.reason);
  return r.plan;
}

describe("compaction runner on the real fixture", () => {
  it("confirm appends one compaction with the plan's fields and the edited summary", async () => {
    const p = plan();
    const gen = offlineSummary(p);
    if (!gen.ok) throw new Error(gen.error);
    const edited = { ...gen.fields, summary: `${gen.fields.summary}\n\nEdited by hand.` };
    const leaf = leafOf(entries);
    const r = await confirmCompaction(db, {
      sessionId,
      parentId: leaf,
      expectedLeafId: leaf,
      fields: edited,
    });
    expect(r.ok).toBe(true);
    const stored = await readEntries(db, sessionId);
    expect(stored).toHaveLength(entries.length + 1);
    const last = stored.at(-1) as CompactionEntry;
    expect(last.type).toBe("compaction");
    expect(last.parentId).toBe(leaf);
    expect(last.summary).toContain("Edited by hand.");
    expect(last.firstKeptEntryId).toBe(p.firstKeptEntryId);
    expect(last.tokensBefore).toBe(p.tokensBefore);
    expect(last.details).toEqual({ readFiles: p.fileOps.readFiles, modifiedFiles: p.fileOps.modifiedFiles });
    // The exported JSONL ends with it, and the rebuilt context starts with the summary.
    const exported = await exportSession(db, sessionId);
    if (!exported.ok) throw new Error("export failed");
    const lines = exported.value.parts.join("").trimEnd().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toEqual(last);
    const ctx = buildSessionContext(currentPath(stored));
    expect(ctx.messages[0]?.role).toBe("compactionSummary");
  });

  it("refuses to write when the leaf moved, and writes nothing", async () => {
    const gen = offlineSummary(plan());
    if (!gen.ok) throw new Error(gen.error);
    const r = await confirmCompaction(db, {
      sessionId,
      parentId: "nope",
      expectedLeafId: "another-leaf",
      fields: gen.fields,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe("conflict");
    expect(await readEntries(db, sessionId)).toHaveLength(entries.length);
  });

  it("undo appends a move entry to the entry before the compaction; history stays", async () => {
    const leaf = leafOf(entries);
    const compaction = await confirmOfflineCompaction(db, sessionId, entries);
    const u = await undoCompaction(db, { sessionId, compaction });
    expect(u.ok).toBe(true);
    const stored = await readEntries(db, sessionId);
    expect(stored).toHaveLength(entries.length + 2);
    const moved = stored.at(-1)!;
    // pi 1.6 opens the file on the move, whose path is the one before the compaction.
    expect(moved).toMatchObject({
      type: "custom",
      customType: MOVE_CUSTOM_TYPE,
      parentId: leaf,
      data: { targetId: leaf, fromId: compaction.id },
    });
    expect(leafOf(stored)).toBe(moved.id);
    expect(displayPositionId(moved.id, buildTreeIndex(stored).byId)).toBe(leaf);
    expect(currentPath(stored).some((e) => e.type === "compaction" && e.id === compaction.id)).toBe(false);
    expect(buildSessionContext(currentPath(stored)).messages).toEqual(
      buildSessionContext(currentPath(entries)).messages,
    );
    const row = await db.sessions.get(sessionId);
    expect(row?.leafId).toBe(moved.id);
  });

  it("undo of a compaction made right after a move lands on the entry the move stood for", async () => {
    const at = entries[entries.length - 40]!.id;
    const moved = buildMoveEntry({ id: "mv000001", timestamp: TS, targetId: at, fromId: leafOf(entries) });
    expect((await appendEntries(db, sessionId, [moved])).ok).toBe(true);
    const path = currentPath([...entries, moved]);
    const planned = planCompaction(path, { ...SETTINGS, keepRecentTokens: 2000 });
    if (!planned.ok) throw new Error(planned.reason);
    const gen = offlineSummary(planned.plan);
    if (!gen.ok) throw new Error(gen.error);
    const c = await confirmCompaction(db, {
      sessionId,
      parentId: moved.id,
      expectedLeafId: moved.id,
      fields: gen.fields,
    });
    if (!c.ok) throw new Error(c.error.message);
    // With the path: a move to `at` itself. Without: a move under the move (the same position).
    const u = await undoCompaction(db, { sessionId, compaction: c.value.entry, path });
    expect(u.ok && u.value.entry).toMatchObject({
      parentId: at,
      data: { targetId: at, fromId: c.value.entry.id },
    });
    const plain = await undoCompaction(db, { sessionId, compaction: c.value.entry });
    expect(plain.ok && plain.value.entry.parentId).toBe(moved.id);
    const stored = await readEntries(db, sessionId);
    expect(displayPositionId(leafOf(stored), buildTreeIndex(stored).byId)).toBe(at);
  });

  it("generateSummary sends the focus and the serialized conversation, streams deltas", async () => {
    const seen: string[] = [];
    const deltas: string[] = [];
    const complete: CompleteFn = async (req) => {
      seen.push(req.userMessage);
      req.onDelta?.("## Goal\n");
      return { ok: true, text: "## Goal\nSummary." };
    };
    const r = await generateSummary(plan(), {
      endpoint: ENDPOINT,
      signal: new AbortController().signal,
      focus: "keep the parser decisions",
      complete,
      onDelta: (d) => deltas.push(d),
    });
    expect(r.ok).toBe(true);
    expect(seen[0]).toContain("keep the parser decisions");
    expect(seen[0]).toContain("<conversation>");
    expect(seen[0]).toContain("[User]:");
    expect(deltas.length).toBeGreaterThan(0);
  });

  it("auto compaction writes nothing when the summarizer fails or is aborted", async () => {
    const path = currentPath(entries);
    const failing: CompleteFn = async () => ({ ok: false, error: "500 upstream broke", aborted: false });
    const r = await compactAutomatically(db, {
      sessionId,
      path,
      expectedLeafId: leafOf(entries),
      settings: SETTINGS,
      endpoint: ENDPOINT,
      signal: new AbortController().signal,
      complete: failing,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain("500 upstream broke");
    const ctrl = new AbortController();
    ctrl.abort();
    const aborted = await compactAutomatically(db, {
      sessionId,
      path,
      expectedLeafId: leafOf(entries),
      settings: SETTINGS,
      endpoint: ENDPOINT,
      signal: ctrl.signal,
      complete: failing,
    });
    expect(aborted.ok).toBe(false);
    expect(await readEntries(db, sessionId)).toHaveLength(entries.length);
  });

  it("auto compaction without an endpoint uses the offline summary and reports the drop", async () => {
    const r = await compactAutomatically(db, {
      sessionId,
      path: currentPath(entries),
      expectedLeafId: leafOf(entries),
      settings: SETTINGS,
      endpoint: null,
      signal: new AbortController().signal,
    });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.offline).toBe(true);
      expect(r.tokensAfter).toBeLessThan(r.tokensBefore);
    }
  });
});

describe("compaction settings", () => {
  it("normalizes bad values to the defaults and round-trips", async () => {
    expect(
      normalizeSettings({ mode: "sometimes", reserveTokens: -1, contextWindow: 5, branchSummary: "maybe" }),
    ).toMatchObject({
      mode: "ask",
      // Reserve and keep-recent unset (or pi's defaults, as older saves wrote them): follow the model.
      reserveTokens: null,
      contextWindow: null,
      branchSummary: "ask",
    });
    expect(normalizeSettings({ reserveTokens: 16384, keepRecentTokens: 20000 })).toMatchObject({
      reserveTokens: null,
      keepRecentTokens: null,
    });
    expect(normalizeSettings({ reserveTokens: 4000 }).reserveTokens).toBe(4000);
    expect(normalizeSettings({ branchSummary: "never" }).branchSummary).toBe("never");
    const saved = await saveCompactionSettings(db, { mode: "auto", contextWindow: 8000 });
    expect(saved.ok).toBe(true);
    expect(await loadCompactionSettings(db)).toMatchObject({ mode: "auto", contextWindow: 8000 });
  });
});
