/**
 * The compaction runner: the only code that writes compaction entries (and the move entries
 * of Undo). Prepare (core's planner), then execute (the summary through a CompleteFn, or the
 * offline summary), then persist in ONE transaction, and only on Confirm. Errors are values.
 */

import type { CompactionFields } from "../../core/compaction/compaction-record.ts";
import {
  type CompactionTrigger,
  summaryRecord,
  withRecord,
} from "../../core/compaction/compaction-record.ts";
import { omissionEdits } from "../../core/compaction/decide.ts";
import {
  type CompactionPlan,
  contextTokensOf,
  indexPath,
  planCompaction,
} from "../../core/compaction/plan.ts";
import {
  buildCompactionEntry,
  type CompleteFn,
  type GenerateResult,
  generateCompaction,
} from "../../core/compaction/summarize.ts";
import { buildMoveEntry, displayPositionId, type MoveEntry } from "../../core/session/moves.ts";
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import { appendAtLeaf } from "../../db/append-at-leaf.ts";
import { fail, ok, type Result } from "../../db/result.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { createCompleteFn } from "../../llm/complete.ts";
import { modelInfo } from "../../llm/providers.ts";
import type { EndpointConfig } from "../../llm/stream-assistant.ts";
import { entryIdSource, newEntryId } from "../common/ids.ts";
import { loadSummaryInstructions } from "./summary-instructions.ts";

/** The endpoint and model that write summaries. The key never leaves this object except as a header. */
export interface SummarizerEndpoint extends EndpointConfig {
  model: string;
}

export interface SummaryOptions {
  endpoint: SummarizerEndpoint;
  signal: AbortSignal;
  focus?: string;
  /** The person's summary instructions (loadSummaryInstructions(...).resolved.text); the default when absent. */
  instructions?: string;
  thinkingLevel?: string;
  onDelta?: (delta: string, part: "history" | "turnPrefix") => void;
  /** Injected for tests; defaults to createCompleteFn(endpoint). */
  complete?: CompleteFn;
}

/** Generates the summary of a plan with the endpoint's model (streams deltas; never throws). */
export async function generateSummary(
  plan: CompactionPlan,
  options: SummaryOptions,
): Promise<GenerateResult> {
  const info = modelInfo(options.endpoint.model);
  const complete = options.complete ?? createCompleteFn(options.endpoint);
  const focus = options.focus?.trim();
  return generateCompaction(plan, {
    complete,
    signal: options.signal,
    ...(focus ? { focus } : {}),
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    model: { maxOutputTokens: info.maxOutput, ...(info.reasoning ? { reasoning: true } : {}) },
    ...(options.thinkingLevel ? { thinkingLevel: options.thinkingLevel } : {}),
    ...(options.onDelta ? { onDelta: options.onDelta } : {}),
  });
}

export interface ConfirmInput {
  sessionId: string;
  /** Parent of the compaction: the leaf the plan was made on (or, in overflow recovery, the entry before the failed reply). */
  parentId: string | null;
  /** The leaf the person saw; the write is refused when the session has moved on since. */
  expectedLeafId: string | null;
  fields: CompactionFields;
  /** Ids already used in the session (the new id avoids them). */
  takenIds?: { has(id: string): boolean };
  now?: number;
}

/**
 * Appends the compaction entry in one transaction, after checking that the session's leaf is
 * still the one the plan was made on (another tab or a streaming reply may have moved it).
 */
export async function confirmCompaction(
  db: CutpointDb,
  input: ConfirmInput,
): Promise<Result<{ entry: CompactionEntry }>> {
  const summary = input.fields.summary.trim();
  if (summary === "") return fail("conflict", "The summary is empty: write or generate one first.");
  const now = input.now ?? Date.now();
  const entry = buildCompactionEntry({
    ...input.fields,
    summary,
    id: newEntryId(input.takenIds),
    parentId: input.parentId,
    timestamp: new Date(now).toISOString(),
  });
  const r = await appendAtLeaf(
    db,
    input.sessionId,
    { expectedLeafId: input.expectedLeafId, now: new Date(now) },
    () => entry,
  );
  return r.ok ? ok({ entry }) : r;
}

/**
 * Undo: moves the leaf back to the entry before the compaction by appending a move entry
 * (history is never deleted; the compaction stays in the file on a side branch). With `path` (the
 * path the compaction was made on, or any path through its parent), a compaction made right after
 * a move takes the position back to the entry that move stood for, not to a move of a move.
 */
export async function undoCompaction(
  db: CutpointDb,
  input: {
    sessionId: string;
    compaction: CompactionEntry;
    path?: readonly SessionEntry[];
    takenIds?: { has(id: string): boolean };
    now?: number;
  },
): Promise<Result<{ entry: MoveEntry }>> {
  const parentId = input.compaction.parentId;
  const onPath = input.path && parentId !== null ? new Map(input.path.map((e) => [e.id, e])) : undefined;
  const targetId = onPath?.has(parentId!) ? displayPositionId(parentId, onPath) : parentId;
  const now = input.now ?? Date.now();
  let entry: MoveEntry | undefined;
  const r = await appendAtLeaf(db, input.sessionId, { now: new Date(now) }, (row) => {
    entry = buildMoveEntry({
      id: newEntryId(input.takenIds),
      timestamp: new Date(now).toISOString(),
      targetId,
      fromId: row.leafId,
    });
    return entry;
  });
  return r.ok && entry ? ok({ entry }) : r.ok ? fail("unknown", "Nothing was written.") : r;
}

/**
 * Redo after Undo: moves the leaf back to the compaction entry, written the same way as Undo
 * (a move to an entry; here the entry is the compaction itself), so both follow one format.
 */
export async function redoCompaction(
  db: CutpointDb,
  input: {
    sessionId: string;
    compaction: CompactionEntry;
    takenIds?: { has(id: string): boolean };
    now?: number;
  },
): ReturnType<typeof undoCompaction> {
  return undoCompaction(db, { ...input, compaction: { ...input.compaction, parentId: input.compaction.id } });
}

/**
 * Hides a failed attempt from the model as pi 1.6 records it: one omission `context_edit` per
 * entry (the reply and its tool results), appended at the leaf the path ends with (refused when
 * the session moved on). The entries stay in the file; only the model stops seeing them.
 */
export async function hideFailedAttempt(
  db: CutpointDb,
  input: { sessionId: string; path: readonly SessionEntry[]; omit: readonly string[]; now?: number },
): Promise<{ ok: true; path: SessionEntry[] } | { ok: false; reason: string }> {
  const leaf = input.path[input.path.length - 1]?.id ?? null;
  const nextId = entryIdSource(new Set(input.path.map((e) => e.id)));
  const now = input.now ?? Date.now();
  const edits = omissionEdits(input.omit, leaf, nextId, new Date(now).toISOString());
  if (edits.length === 0) return { ok: true, path: [...input.path] };
  const r = await appendAtLeaf(
    db,
    input.sessionId,
    { expectedLeafId: leaf, now: new Date(now) },
    () => edits,
  );
  if (!r.ok) return { ok: false, reason: `Could not hide the failed reply: ${r.error.message}` };
  return { ok: true, path: [...input.path, ...edits] };
}

export type AutoCompactResult =
  | { ok: true; entry: CompactionEntry; tokensBefore: number; tokensAfter: number; offline: boolean }
  | { ok: false; reason: string; aborted?: boolean };

export interface AutoCompactInput {
  sessionId: string;
  /** The path to compact (root first); its last entry becomes the compaction's parent. */
  path: readonly SessionEntry[];
  /** The session's leaf now (the compaction is refused if it moved). */
  expectedLeafId: string | null;
  /** Fitted to the model (services/compaction/compaction-fit.ts). */
  settings: { reserveTokens: number; keepRecentTokens: number };
  /** Without an endpoint the offline summary is used. */
  endpoint: SummarizerEndpoint | null;
  signal: AbortSignal;
  complete?: CompleteFn;
  takenIds?: { has(id: string): boolean };
  thinkingLevel?: string;
  /** Why it compacts, written in the entry's record (default: the threshold). */
  trigger?: Extract<CompactionTrigger, "threshold" | "overflow">;
}

/** The coverage record of a summary (loaded on demand: the check is not needed to show a session). */
async function coverageRecord(summary: string, plan: CompactionPlan) {
  const [{ checkCoverage }, { coverageDetails }, { coverageItemsInSlices }] = await Promise.all([
    import("../../core/coverage/coverage.ts"),
    import("../../core/coverage/coverage-details.ts"),
    import("../common/slices.ts"),
  ]);
  // Read over several tasks: the agent's page stays responsive while a big range is read.
  const items = (await coverageItemsInSlices(plan)) ?? [];
  return coverageDetails(checkCoverage(summary, items));
}

/** Plan, summarize and confirm without asking (auto mode and overflow recovery). */
export async function compactAutomatically(
  db: CutpointDb,
  input: AutoCompactInput,
): Promise<AutoCompactResult> {
  const planned = planCompaction(input.path, input.settings);
  if (!planned.ok) return { ok: false, reason: planned.reason };
  const plan = planned.plan;
  const instructions = input.endpoint
    ? (await loadSummaryInstructions(db, input.sessionId)).resolved.text
    : undefined;
  const started = Date.now();
  const generated = input.endpoint
    ? await generateSummary(plan, {
        endpoint: input.endpoint,
        signal: input.signal,
        ...(instructions !== undefined ? { instructions } : {}),
        ...(input.complete ? { complete: input.complete } : {}),
        ...(input.thinkingLevel ? { thinkingLevel: input.thinkingLevel } : {}),
      })
    : ((await (
        await import("../common/slices.ts")
      ).offlineCompactionInSlices(plan, { signal: input.signal })) ?? {
        ok: false as const,
        error: "Aborted.",
        aborted: true,
      });
  if (!generated.ok)
    return { ok: false, reason: `The summary failed: ${generated.error}`, aborted: generated.aborted };
  const last = input.path[input.path.length - 1];
  const confirmed = await confirmCompaction(db, {
    sessionId: input.sessionId,
    parentId: last?.id ?? null,
    expectedLeafId: input.expectedLeafId,
    fields: withRecord(generated.fields, {
      coverage: await coverageRecord(generated.fields.summary, plan),
      record: summaryRecord(
        input.trigger ?? "threshold",
        input.endpoint?.model ?? "",
        Date.now() - started,
        generated.fields.usage,
      ),
    }),
    ...(input.takenIds ? { takenIds: input.takenIds } : {}),
  });
  if (!confirmed.ok) return { ok: false, reason: confirmed.error.message };
  const entry = confirmed.value.entry;
  return {
    ok: true,
    entry,
    tokensBefore: plan.tokensBefore,
    // Measured the same way as before: the context the model sees now, by pi's rules.
    tokensAfter: contextTokensOf(indexPath([...input.path, entry])).tokens,
    offline: input.endpoint === null,
  };
}
