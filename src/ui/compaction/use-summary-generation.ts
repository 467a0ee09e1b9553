/**
 * Generating the draft summary of the preview: with the summarizer endpoint (streamed into the
 * store's draft; Stop aborts) or offline. Writes nothing: only Confirm does.
 */
import { useCallback, useEffect, useRef } from "react";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { db } from "../../db/instance.ts";
import { resolveSummarizer } from "../../services/compaction-endpoint.ts";
import { generateSummary, offlineSummary } from "../../services/compaction-runner.ts";
import { loadSummaryInstructions } from "../../services/summary-instructions.ts";
import { type DraftTarget, useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";

const targetOf = (
  plan: CompactionPlan,
  fields: { details: { readFiles: string[]; modifiedFiles: string[] } },
) =>
  ({
    firstKeptEntryId: plan.firstKeptEntryId,
    tokensBefore: plan.tokensBefore,
    readFiles: fields.details.readFiles,
    modifiedFiles: fields.details.modifiedFiles,
  }) satisfies DraftTarget;

export function useSummaryGeneration(plan: CompactionPlan | undefined, path: readonly unknown[]) {
  const controller = useRef<AbortController | null>(null);
  const planRef = useRef(plan);
  planRef.current = plan;
  const pathRef = useRef(path);
  pathRef.current = path;

  // Leaving the preview aborts a running generation (nothing is written).
  useEffect(() => () => controller.current?.abort(), []);

  const stop = useCallback(() => controller.current?.abort(), []);

  const useOffline = useCallback(() => {
    const p = planRef.current;
    if (!p) return;
    controller.current?.abort();
    const r = offlineSummary(p);
    const set = useCompactionStore.getState().setStatus;
    if (!r.ok) {
      set("failed", { error: r.error });
      return;
    }
    set("ready", {
      draft: r.fields.summary,
      draftSource: "offline",
      draftTarget: targetOf(p, r.fields),
      error: null,
    });
  }, []);

  const generate = useCallback(async () => {
    const p = planRef.current;
    if (!p) return;
    controller.current?.abort();
    const ctrl = new AbortController();
    controller.current = ctrl;
    const store = useCompactionStore.getState();
    store.setStatus("generating", { draft: "", draftSource: "model", draftTarget: null, error: null });
    const resolved = await resolveSummarizer(
      db,
      pathRef.current as never,
      useCompactionStore.getState().summarizerModel,
    );
    const instructions = await loadSummaryInstructions(db, useUiStore.getState().selectedSessionId);
    if (ctrl.signal.aborted) return;
    if (!resolved.ok) {
      useCompactionStore.getState().setStatus("failed", { error: resolved.reason });
      return;
    }
    let history = "";
    let prefix = "";
    const r = await generateSummary(p, {
      endpoint: resolved.endpoint,
      signal: ctrl.signal,
      focus: useCompactionStore.getState().focus,
      instructions: instructions.resolved.text,
      onDelta: (delta, part) => {
        if (part === "history") history += delta;
        else prefix += delta;
        useCompactionStore.getState().setDraft(prefix ? `${history}\n\n---\n\n${prefix}` : history);
      },
    });
    if (controller.current === ctrl) controller.current = null;
    const s = useCompactionStore.getState();
    if (!r.ok) {
      if (r.aborted || ctrl.signal.aborted) s.setStatus("aborted", { error: null });
      else s.setStatus("failed", { error: r.error });
      return;
    }
    s.setStatus("ready", {
      draft: r.fields.summary,
      draftSource: "model",
      draftTarget: targetOf(p, r.fields),
    });
  }, []);

  return { generate, stop, useOffline };
}
