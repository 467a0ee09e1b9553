/**
 * Generating the draft summary of a session's review: with the summarizer endpoint (streamed into
 * the session's draft; Stop aborts) or offline (over several short tasks; Stop aborts too). A Regenerate that is stopped or fails gives the
 * previous complete draft back. Writes nothing: only Confirm does.
 */
import { useCallback, useEffect, useRef } from "react";
import type { CompactionFields } from "../../core/compaction/compaction-record.ts";
import { summaryRecord } from "../../core/compaction/compaction-record.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { planFields } from "../../core/compaction/summarize.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { offlineCompactionInSlices } from "../../services/common/slices.ts";
import { generateSummary } from "../../services/compaction/compaction-runner.ts";
import { appSummarizer, appSummaryInstructions } from "../../services/compaction/summarizer-instance.ts";
import { type DraftTarget, sessionState, useCompactionStore } from "../../store/compaction-store.ts";

const targetOf = (
  plan: CompactionPlan,
  fields: CompactionFields,
  model: string,
  durationMs: number | undefined,
): DraftTarget => {
  const { trigger: _manual, ...record } = summaryRecord("manual", model, durationMs, fields.usage);
  const t: DraftTarget = {
    firstKeptEntryId: plan.firstKeptEntryId,
    tokensBefore: plan.tokensBefore,
    readFiles: fields.details.readFiles,
    modifiedFiles: fields.details.modifiedFiles,
    record,
  };
  if (fields.systemMessage) t.systemMessage = fields.systemMessage;
  if (fields.usage) t.usage = fields.usage;
  return t;
};

/** The error of a failed draft; when the draft it was to replace comes back, it says so. */
function keptNote(sessionId: string, error: string): string {
  const previous = sessionState(useCompactionStore.getState(), sessionId).previous;
  return previous ? `Regenerate failed (${error.replace(/\.$/, "")}); the previous draft is back.` : error;
}

export function useSummaryGeneration(
  sessionId: string,
  plan: CompactionPlan | undefined,
  path: readonly SessionEntry[],
) {
  const controller = useRef<AbortController | null>(null);
  const planRef = useRef(plan);
  planRef.current = plan;
  const pathRef = useRef(path);
  pathRef.current = path;

  // Leaving the review aborts a running generation (nothing is written).
  useEffect(() => () => controller.current?.abort(), []);

  const stop = useCallback(() => controller.current?.abort(), []);

  /** Starts a new draft (model or offline): the complete draft it replaces is kept to give back. */
  const begin = useCallback(
    (source: "model" | "offline") => {
      controller.current?.abort();
      const ctrl = new AbortController();
      controller.current = ctrl;
      const store = useCompactionStore.getState();
      const cur = sessionState(store, sessionId);
      // The complete draft a Regenerate replaces: given back if it is stopped or fails.
      const previous =
        cur.status === "ready" && cur.draft.trim() !== ""
          ? {
              draft: cur.draft,
              draftSource: cur.draftSource,
              draftTarget: cur.draftTarget,
              undoneFrom: cur.undoneFrom,
              draftIncomplete: cur.draftIncomplete ?? false,
            }
          : cur.status === "generating"
            ? cur.previous
            : null;
      store.setStatus(sessionId, "generating", {
        draft: "",
        draftSource: source,
        draftTarget: null,
        undoneFrom: null,
        draftIncomplete: false,
        error: null,
        previous,
      });
      return ctrl;
    },
    [sessionId],
  );

  /** A stopped or failed draft: the previous complete one comes back, if any. */
  const back = useCallback(
    (status: "failed" | "aborted", error: string | null) => {
      const prev = sessionState(useCompactionStore.getState(), sessionId).previous;
      if (prev)
        useCompactionStore.getState().setStatus(sessionId, "ready", { ...prev, previous: null, error });
      else useCompactionStore.getState().setStatus(sessionId, status, { error });
    },
    [sessionId],
  );

  // The offline summary, written over several short tasks (a big range must not freeze the page).
  const useOffline = useCallback(async () => {
    const p = planRef.current;
    if (!p) return;
    const ctrl = begin("offline");
    const r = await offlineCompactionInSlices(p, { signal: ctrl.signal });
    if (controller.current === ctrl) controller.current = null;
    if (!r || ctrl.signal.aborted) {
      back("aborted", null);
      return;
    }
    if (!r.ok) {
      back("failed", keptNote(sessionId, r.error));
      return;
    }
    useCompactionStore.getState().setStatus(sessionId, "ready", {
      draft: r.fields.summary,
      draftSource: "offline",
      draftTarget: targetOf(p, r.fields, "", undefined),
      error: null,
      previous: null,
    });
  }, [sessionId, begin, back]);

  const generate = useCallback(async () => {
    const p = planRef.current;
    if (!p) return;
    const ctrl = begin("model");
    const get = () => sessionState(useCompactionStore.getState(), sessionId);
    const resolved = await appSummarizer.resolve(pathRef.current, get().summarizerModel);
    const instructions = await appSummaryInstructions.load(sessionId);
    if (ctrl.signal.aborted) return;
    if (!resolved.ok) {
      // No summarizer (or no key): the draft being replaced, edited by hand maybe, stays.
      back("failed", keptNote(sessionId, resolved.reason));
      return;
    }
    let history = "";
    let prefix = "";
    const started = performance.now();
    const r = await generateSummary(p, {
      endpoint: resolved.endpoint,
      signal: ctrl.signal,
      focus: get().focus,
      instructions: instructions.resolved.text,
      onDelta: (delta, part) => {
        if (part === "history") history += delta;
        else prefix += delta;
        useCompactionStore
          .getState()
          .patch(sessionId, { draft: prefix ? `${history}\n\n---\n\n${prefix}` : history });
      },
    });
    if (controller.current === ctrl) controller.current = null;
    if (!r.ok) {
      const partial = get().draft;
      const stopped = r.aborted || ctrl.signal.aborted;
      // Stopped midway with text written (and no complete draft to give back): what it wrote
      // stays in the editor, marked incomplete, for the person to finish or confirm as it is.
      if (stopped && partial.trim() !== "" && !get().previous && get().status === "generating") {
        useCompactionStore.getState().setStatus(sessionId, "ready", {
          draft: partial,
          draftSource: "model",
          draftTarget: targetOf(
            p,
            planFields(p, partial),
            resolved.endpoint.model,
            performance.now() - started,
          ),
          draftIncomplete: true,
          error: null,
          previous: null,
        });
        return;
      }
      if (stopped) back("aborted", null);
      else back("failed", keptNote(sessionId, r.error));
      return;
    }
    useCompactionStore.getState().setStatus(sessionId, "ready", {
      draft: r.fields.summary,
      draftSource: "model",
      draftTarget: targetOf(p, r.fields, resolved.endpoint.model, performance.now() - started),
      previous: null,
    });
  }, [sessionId, begin, back]);

  return { generate, stop, useOffline };
}
