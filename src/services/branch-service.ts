/**
 * Writes of the session tree (pi-session-format.md §1, §2, §10): moving the leaf with a `leaf`
 * entry, confirming a branch summary, labelling an entry, and generating the branch summary
 * (streamed from the configured model when a key is set, an offline draft otherwise).
 * Every write is one `appendEntries` transaction; nothing is ever deleted.
 */
import { buildBranchSummaryEntry, generateBranchSummary } from "../core/compaction/branch.ts";
import type { CompleteFn } from "../core/compaction/summarize.ts";
import { buildSessionContext } from "../core/session/context.ts";
import type { FileListDetails, LabelEntry, LeafEntry, SessionEntry, Usage } from "../core/session/types.ts";
import {
  appendEntries,
  type CutpointDb,
  fail,
  getSession,
  ok,
  type Result,
  type SessionRow,
  toDbError,
} from "../db/index.ts";
import { createCompleteFn } from "../llm/complete.ts";
import { modelInfo } from "../llm/providers.ts";
import { getApiKey, loadProviderSettings, type ProviderSettings } from "./agent-settings.ts";
import { type NavigationPlan, offlineBranchDraft } from "./branch-navigation.ts";
import { newEntryId } from "./ids.ts";

export interface WriteOptions {
  /** Ids already used in the session (fresh ids avoid them). */
  taken?: { has(id: string): boolean };
  now?: Date;
  /**
   * The leaf the caller's view was built on: when the stored leaf is another (a message or a move
   * in another tab since), nothing is written and the result says so. Unchecked when undefined.
   */
  expectedLeafId?: string | null;
}

/**
 * Reads the session row and appends what `build` makes of it, in ONE transaction (so the new
 * entry's parent is the leaf as stored, and a change made in another tab in between is seen).
 * `build` returns undefined to write nothing (the row is returned as it is).
 */
async function appendFromRow(
  db: CutpointDb,
  sessionId: string,
  options: WriteOptions,
  build: (row: SessionRow, now: Date) => SessionEntry | undefined,
): Promise<Result<SessionRow>> {
  const now = options.now ?? new Date();
  try {
    return await db.transaction("rw", db.sessions, db.chunks, async () => {
      const row = await getSession(db, sessionId);
      if (!row) return fail("not-found", "The session no longer exists.");
      if (options.expectedLeafId !== undefined && row.leafId !== options.expectedLeafId)
        return fail(
          "conflict",
          "The session changed since this view was drawn (a new message or a move, perhaps in another tab). Nothing was written; look again and retry.",
        );
      const entry = build(row, now);
      return entry ? appendEntries(db, sessionId, [entry], now.getTime()) : ok(row);
    });
  } catch (e) {
    return toDbError(e);
  }
}

/**
 * The `leaf` entry that moves the leaf from `fromLeafId` to `targetId` (pi-session-format.md §1).
 * Built before the write when the view shows the move at once (`moveLeaf` with `entry`).
 */
export function buildLeafEntry(
  fromLeafId: string | null,
  targetId: string | null,
  options: { taken?: { has(id: string): boolean }; now?: Date } = {},
): LeafEntry {
  return {
    type: "leaf",
    id: newEntryId(options.taken),
    parentId: fromLeafId,
    timestamp: (options.now ?? new Date()).toISOString(),
    targetId,
  };
}

/**
 * Moves the leaf to `targetId` by appending a `leaf` entry (a child of the current leaf), so the
 * position survives a reload and an export. No-op when the leaf is already there. With `entry`
 * (from `buildLeafEntry` on `expectedLeafId`), exactly that entry is written.
 */
export function moveLeaf(
  db: CutpointDb,
  sessionId: string,
  targetId: string | null,
  options: WriteOptions & { entry?: LeafEntry } = {},
): Promise<Result<SessionRow>> {
  return appendFromRow(db, sessionId, options, (row, now): LeafEntry | undefined => {
    if (row.leafId === targetId) return undefined;
    const entry = options.entry ?? buildLeafEntry(row.leafId, targetId, { ...options, now });
    if (entry.parentId !== row.leafId || entry.targetId !== targetId)
      throw new Error("moveLeaf: the given entry is not a move from the stored leaf to the target");
    return entry;
  });
}

/**
 * Writes the branch summary as pi 1.6 does: parentId = the new leaf, fromId = the leaf left
 * behind ("root" when none); the summary entry becomes the leaf.
 */
export function confirmBranchSummary(
  db: CutpointDb,
  sessionId: string,
  input: { newLeafId: string | null; summary: string; details?: FileListDetails; usage?: Usage },
  options: WriteOptions = {},
): Promise<Result<SessionRow>> {
  return appendFromRow(db, sessionId, options, (row, now) =>
    buildBranchSummaryEntry({
      summary: input.summary,
      ...(input.details ? { details: input.details } : {}),
      ...(input.usage ? { usage: input.usage } : {}),
      newLeafId: input.newLeafId,
      oldLeafId: row.leafId,
      id: newEntryId(options.taken),
      timestamp: now.toISOString(),
    }),
  );
}

/** Labels an entry (an empty label clears it); the label entry is a child of the leaf. */
export function setLabel(
  db: CutpointDb,
  sessionId: string,
  targetId: string,
  label: string,
  options: WriteOptions = {},
): Promise<Result<SessionRow>> {
  return appendFromRow(db, sessionId, options, (row, now) => {
    const entry: LabelEntry = {
      type: "label",
      id: newEntryId(options.taken),
      parentId: row.leafId,
      timestamp: now.toISOString(),
      targetId,
    };
    const trimmed = label.trim();
    if (trimmed !== "") entry.label = trimmed;
    return entry;
  });
}

/** The summarizer's model and level: the path's (same provider), else the settings' defaults. */
function effectiveModel(path: readonly SessionEntry[], settings: ProviderSettings) {
  const ctx = buildSessionContext(path);
  const modelId =
    ctx.model && ctx.model.provider === settings.providerId ? ctx.model.modelId : settings.model;
  const hasLevel = path.some((e) => e.type === "thinking_level_change");
  return { modelId, thinkingLevel: hasLevel ? ctx.thinkingLevel : settings.thinkingLevel };
}

export type DraftResult =
  | { ok: true; summary: string; details: FileListDetails; offline: boolean; model?: string }
  | { ok: false; error: string; aborted: boolean };

export interface DraftOptions {
  signal: AbortSignal;
  onDelta?: (delta: string) => void;
  /** The path at the old leaf (for the session's model and thinking level). */
  path: readonly SessionEntry[];
  focus?: string;
  /** Injected for tests. */
  complete?: CompleteFn;
}

/** Whether a model can write the summary (a key and a model are set). */
export async function summarizerAvailable(db: CutpointDb, path: readonly SessionEntry[]): Promise<boolean> {
  const settings = await loadProviderSettings(db);
  const { modelId } = effectiveModel(path, settings);
  return modelId !== "" && (await getApiKey(db, settings.providerId)) !== "";
}

/** Generates the branch summary: with the configured model when possible, offline otherwise. */
export async function draftBranchSummary(
  db: CutpointDb,
  plan: NavigationPlan,
  options: DraftOptions,
): Promise<DraftResult> {
  const details = {
    readFiles: [...plan.prep.fileOps.readFiles],
    modifiedFiles: [...plan.prep.fileOps.modifiedFiles],
  };
  const settings = await loadProviderSettings(db);
  const { modelId, thinkingLevel } = effectiveModel(options.path, settings);
  const apiKey = await getApiKey(db, settings.providerId);
  if (!options.complete && (apiKey === "" || modelId === "")) {
    return { ok: true, summary: offlineBranchDraft(plan), details, offline: true };
  }
  const info = modelInfo(modelId);
  const complete =
    options.complete ??
    createCompleteFn({ baseUrl: settings.baseUrl, apiKey, provider: settings.providerId, model: modelId });
  const focus = options.focus?.trim();
  const r = await generateBranchSummary(plan.prep, {
    complete,
    signal: options.signal,
    model: { maxOutputTokens: info.maxOutput, ...(info.reasoning ? { reasoning: true } : {}) },
    thinkingLevel,
    ...(focus ? { focus } : {}),
    ...(options.onDelta ? { onDelta: options.onDelta } : {}),
  });
  if (!r.ok) return r;
  return { ok: true, summary: r.summary, details: r.details, offline: false, model: modelId };
}
