/**
 * Writes of the session tree (docs/session-format.md §7.1, §12): moving the leaf with a move
 * entry (core/session/moves.ts), confirming a branch summary, labelling an entry, and generating
 * the branch summary (streamed from the configured model when a key is set, an offline draft
 * otherwise).
 * Every write is one guarded append (src/db appendAtLeaf); nothing is ever deleted.
 */
import { buildBranchSummaryEntry, generateBranchSummary } from "../../core/compaction/branch.ts";
import type { CompleteFn } from "../../core/compaction/summarize.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import { buildMoveEntry, type MoveEntry } from "../../core/session/moves.ts";
import type { FileListDetails, LabelEntry, SessionEntry, Usage } from "../../core/session/types.ts";
import { appendAtLeaf, type CutpointDb, type Result, type SessionRow } from "../../db/index.ts";
import { createCompleteFn } from "../../llm/complete.ts";
import { modelInfo } from "../../llm/providers.ts";
import { getApiKey, loadProviderSettings, type ProviderSettings } from "../agent/agent-settings.ts";
import { newEntryId } from "../common/ids.ts";
import { type NavigationPlan, offlineBranchDraft } from "./branch-navigation.ts";

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
 * The move entry from the leaf `fromLeafId` to `targetId` (a child of the target, which pi 1.6
 * then opens at). Built before the write when the view shows the move at once (`moveLeaf` with
 * `entry`).
 */
export function buildLeafMove(
  fromLeafId: string | null,
  targetId: string | null,
  options: { taken?: { has(id: string): boolean }; now?: Date } = {},
): MoveEntry {
  return buildMoveEntry({
    id: newEntryId(options.taken),
    timestamp: (options.now ?? new Date()).toISOString(),
    targetId,
    fromId: fromLeafId,
  });
}

/**
 * Moves the leaf to `targetId` by appending a move entry, so the position survives a reload and
 * an export and pi sees it. Nothing is written when the leaf is already there, or when
 * `position` (where the caller sees the stored leaf stand: a move's target) is the target. With
 * `entry` (from `buildLeafMove` on `expectedLeafId`), exactly that entry is written.
 */
export function moveLeaf(
  db: CutpointDb,
  sessionId: string,
  targetId: string | null,
  options: WriteOptions & { entry?: MoveEntry; position?: string | null } = {},
): Promise<Result<SessionRow>> {
  return appendAtLeaf(db, sessionId, options, (row, now): MoveEntry | undefined => {
    if (row.leafId === targetId) return undefined;
    if (options.expectedLeafId !== undefined && options.position === targetId) return undefined;
    const entry = options.entry ?? buildLeafMove(row.leafId, targetId, { ...options, now });
    if (entry.data.fromId !== row.leafId || entry.data.targetId !== targetId || entry.parentId !== targetId)
      throw new Error("moveLeaf: the given entry is not a move from the stored leaf to the target");
    return entry;
  });
}

/**
 * Writes the branch summary as pi 1.6 does: parentId = the new leaf, fromId = the stored leaf
 * left behind ("root" when none); the summary entry becomes the leaf.
 */
export function confirmBranchSummary(
  db: CutpointDb,
  sessionId: string,
  input: { newLeafId: string | null; summary: string; details?: FileListDetails; usage?: Usage },
  options: WriteOptions = {},
): Promise<Result<SessionRow>> {
  return appendAtLeaf(db, sessionId, options, (row, now) =>
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
  return appendAtLeaf(db, sessionId, options, (row, now) => {
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
  | { ok: true; summary: string; details: FileListDetails; offline: boolean; model?: string; usage?: Usage }
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
  return { ok: true, summary: r.summary, details: r.details, offline: false, model: modelId, usage: r.usage };
}
