/**
 * Masking instead of summarizing: writes a masking plan's pi 1.6 `context_edit` entries at the
 * leaf in one transaction (the originals stay in the file), and their undo (edits that give the
 * original content back; the format is append-only, the latest edit wins).
 */
import { type MaskingPlan, planMasking, unmaskEdits } from "../../core/compaction/masking.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { appendAtLeaf } from "../../db/append-at-leaf.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { entryIdSource } from "../common/ids.ts";

export type MaskingResult =
  | { ok: true; plan: MaskingPlan; path: SessionEntry[] }
  | { ok: false; reason: string };

function idsFor(path: readonly SessionEntry[], now: number) {
  const next = entryIdSource(new Set(path.map((e) => e.id)));
  const made: string[] = [];
  return {
    // Core asks for the n-th id (in order); the same n gives the same id.
    newId: (n: number) => {
      while (made.length <= n) made.push(next());
      return made[n]!;
    },
    timestamp: new Date(now).toISOString(),
  };
}

async function write(
  db: CutpointDb,
  sessionId: string,
  path: readonly SessionEntry[],
  edits: readonly SessionEntry[],
  now: number,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (edits.length === 0) return { ok: true };
  const leaf = path[path.length - 1]?.id ?? null;
  const r = await appendAtLeaf(db, sessionId, { expectedLeafId: leaf, now: new Date(now) }, () => edits);
  return r.ok ? { ok: true } : { ok: false, reason: r.error.message };
}

/** Masks the tool results of `path` before `beforeIndex` (all when absent) of at least `minTokens`. */
export async function maskToolOutputs(
  db: CutpointDb,
  input: {
    sessionId: string;
    path: readonly SessionEntry[];
    beforeIndex?: number;
    minTokens?: number;
    now?: number;
  },
): Promise<MaskingResult> {
  const now = input.now ?? Date.now();
  const plan = planMasking(input.path, {
    ...idsFor(input.path, now),
    ...(input.beforeIndex !== undefined ? { beforeIndex: input.beforeIndex } : {}),
    ...(input.minTokens !== undefined ? { minTokens: input.minTokens } : {}),
  });
  if (plan.edits.length === 0) return { ok: false, reason: "No tool output to mask there." };
  const r = await write(db, input.sessionId, input.path, plan.edits, now);
  if (!r.ok) return { ok: false, reason: `Nothing was masked: ${r.reason}` };
  return { ok: true, plan, path: [...input.path, ...plan.edits] };
}

/** Gives the masked results their original content back (for the model; the file keeps everything). */
export async function unmaskToolOutputs(
  db: CutpointDb,
  input: { sessionId: string; path: readonly SessionEntry[]; targetIds: readonly string[]; now?: number },
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const now = input.now ?? Date.now();
  const edits = unmaskEdits(input.path, input.targetIds, idsFor(input.path, now));
  const r = await write(db, input.sessionId, input.path, edits, now);
  return r.ok ? r : { ok: false, reason: `Nothing was undone: ${r.reason}` };
}
