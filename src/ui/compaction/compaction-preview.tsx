/**
 * The compaction preview (docked above the timeline): the plan in numbers, the controls that
 * move it (keep-recent, focus, summarizer model with the call's estimated cost), Generate /
 * Stop / Regenerate / offline summary, the editable draft (with a rendered view and a diff
 * against the previous summary), Discard / Cancel and Confirm. Nothing is written before Confirm.
 */
import { useEffect, useId, useMemo, useState } from "react";
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import { listModels } from "../../llm/connection.ts";
import { modelInfo } from "../../llm/providers.ts";
import { releaseQueuedPrompts } from "../../services/compaction-agent-hooks.ts";
import { resolveSummarizer } from "../../services/compaction-endpoint.ts";
import { confirmCompaction, undoCompaction } from "../../services/compaction-runner.ts";
import { useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { markInvisible } from "../common/invisible.ts";
import { HiddenCharsNote, SafeText } from "../common/safe-text.tsx";
import { describeEntry } from "../timeline/entry-kind.ts";
import { Markdown } from "../timeline/lazy-markdown.tsx";
import { fullTokens, kTokens, percent, usd } from "./format-tokens.ts";
import { SummaryDiff } from "./summary-diff.tsx";
import type { CompactionModel } from "./use-compaction-model.ts";
import { useSummaryGeneration } from "./use-summary-generation.ts";

/** Runs Undo of a compaction and reports it (shared by the toast, the history and auto mode). */
export async function runUndo(
  sessionId: string,
  compaction: CompactionEntry,
  path?: readonly SessionEntry[],
): Promise<void> {
  const r = await undoCompaction(db, { sessionId, compaction, ...(path ? { path } : {}) });
  const ui = useUiStore.getState();
  if (!r.ok) {
    ui.pushToast({ kind: "error", message: `Undo failed: ${r.error.message}` });
    return;
  }
  useCompactionStore.getState().setStatus("undone");
  ui.pushToast({ kind: "info", message: "Compaction undone: the leaf is back before it (history kept)." });
}

/** The last generate request served (a remount must not generate again). */
let handledRequest = 0;

export function CompactionPreview({ model }: { model: CompactionModel }) {
  const s = useCompactionStore();
  const plan = model.plan.plan;
  const ok = model.plan.ok && plan !== undefined;
  const { generate, stop, useOffline } = useSummaryGeneration(ok ? plan : undefined, model.path);
  const [rendered, setRendered] = useState(false);
  const [compare, setCompare] = useState(false);
  const [busy, setBusy] = useState(false);
  const ids = { keep: useId(), focus: useId(), model: useId(), draft: useId(), models: useId() };
  const [models, setModels] = useState<string[]>([]);
  const pathRef = model.path;
  // The endpoint's model list for the summarizer field (free text works too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per session.
  useEffect(() => {
    let live = true;
    void resolveSummarizer(db, pathRef, null).then(async (r) => {
      if (!r.ok) return;
      const listed = await listModels(r.endpoint);
      if (live && listed.ok) setModels(listed.models);
    });
    return () => {
      live = false;
    };
  }, [model.sessionId]);

  // Auto-open in ask mode: start generating once.
  const request = s.generateRequest;
  // Runs once per request, as soon as the plan is ready (the entries may still be loading).
  useEffect(() => {
    if (request > handledRequest && ok) {
      handledRequest = request;
      void generate();
    }
  }, [request, ok, generate]);

  // Cost of the summary call from the plan's numbers (serializing a 100 MB path here would stall).
  const cost = useMemo(() => {
    if (!plan || !ok) return undefined;
    const modelId = s.summarizerModel ?? (model.settings.summarizerModel || model.modelId);
    const info = modelInfo(modelId);
    const prompts = 600 + Math.ceil(s.focus.length / 4);
    const input =
      plan.summarizedTokens +
      Math.ceil((plan.previousSummary?.length ?? 0) / 4) +
      prompts * (plan.isSplitTurn ? 2 : 1);
    const output = Math.min(plan.summaryBudgetTokens, info.maxOutput * (plan.isSplitTurn ? 2 : 1));
    const prices = info.prices;
    return {
      modelId,
      input,
      output,
      usd: prices ? (input * prices.input + output * prices.output) / 1e6 : undefined,
    };
  }, [plan, ok, s.summarizerModel, s.focus, model.settings.summarizerModel, model.modelId]);

  const close = () => {
    stop();
    s.resetDraft();
    s.setCut(null);
    s.closePreview();
    releaseQueuedPrompts(model.sessionId, undefined);
  };

  const stale =
    s.draftTarget !== null && plan !== undefined && s.draftTarget.firstKeptEntryId !== plan.firstKeptEntryId;
  const confirm = async () => {
    if (!plan || !s.draftTarget || stale) return;
    setBusy(true);
    const leaf = model.path[model.path.length - 1]?.id ?? null;
    const r = await confirmCompaction(db, {
      sessionId: model.sessionId,
      parentId: leaf,
      expectedLeafId: leaf,
      fields: {
        summary: s.draft,
        firstKeptEntryId: s.draftTarget.firstKeptEntryId,
        tokensBefore: s.draftTarget.tokensBefore,
        details: { readFiles: s.draftTarget.readFiles, modifiedFiles: s.draftTarget.modifiedFiles },
      },
      takenIds: new Set(model.path.map((e) => e.id)),
    });
    setBusy(false);
    const ui = useUiStore.getState();
    if (!r.ok) {
      ui.pushToast({ kind: "error", message: `Nothing was written: ${r.error.message}` });
      return;
    }
    const entry = r.value.entry;
    const after = Math.ceil(entry.summary.length / 4) + plan.keptTokens;
    s.setLast({
      sessionId: model.sessionId,
      entryId: entry.id,
      tokensBefore: plan.tokensBefore,
      tokensAfter: after,
      auto: false,
    });
    s.setStatus("confirmed", { draft: "", draftTarget: null, draftSource: null });
    s.setCut(null);
    s.setKeepRecent(null);
    s.closePreview();
    releaseQueuedPrompts(model.sessionId, [...model.path, entry]);
    ui.pushToast({
      kind: "success",
      message: `Compacted ${kTokens(plan.tokensBefore)} → ${kTokens(after)} tokens`,
      action: { label: "Undo", run: () => void runUndo(model.sessionId, entry, model.path) },
      timeout: 15000,
    });
  };

  const firstKept = plan ? model.path[plan.firstKeptIndex] : undefined;
  const firstKeptText = firstKept ? describeEntry(firstKept) : undefined;
  const after = plan
    ? s.draft
      ? Math.ceil(s.draft.length / 4) + plan.keptTokens
      : plan.tokensAfterEstimate
    : 0;
  const maxKeep = Math.max(model.keepRecentTokens, Math.ceil(model.context.tokens), 1000);

  return (
    <section className="cp-preview" aria-label="Compaction preview" data-testid="compaction-preview">
      <header className="cp-preview-head">
        <h2>Compaction preview</h2>
        <span className={`cp-status st-${s.status}`} data-testid="preview-status">
          {statusText(s.status, s.draftSource)}
        </span>
        <button
          type="button"
          className="btn small ghost"
          onClick={close}
          aria-label="Cancel and close the preview"
        >
          ✕
        </button>
      </header>
      {s.reason && (
        <p className="cp-banner" role="status">
          <SafeText text={s.reason} />
        </p>
      )}
      {s.queued > 0 && (
        <p className="cp-banner queued" role="status" data-testid="queued-note">
          {s.queued === 1 ? "Your message waits" : `${s.queued} messages wait`} until you confirm or skip this
          compaction.
          <button type="button" className="btn small" onClick={close}>
            Skip and send
          </button>
        </p>
      )}
      {!ok && (
        <p className="cp-note" data-testid="nothing-to-compact">
          Nothing to compact: <SafeText text={model.plan.reason ?? "the session is empty."} />
        </p>
      )}
      {ok && plan && (
        <>
          <p className="cp-numbers" data-testid="preview-numbers">
            <b>{fullTokens(plan.tokensBefore)}</b> → ≈ <b>{fullTokens(after)}</b> tokens (−
            {percent(Math.max(0, plan.tokensBefore - after), plan.tokensBefore)} %)
          </p>
          <ul className="cp-facts">
            <li>
              Summarizes <b data-testid="summarize-count">{plan.summarizeCount}</b> messages (≈{" "}
              {kTokens(plan.summarizedTokens)} tokens)
            </li>
            <li>
              Keeps from{" "}
              <q title={markInvisible(firstKeptText?.excerpt ?? "")}>
                <SafeText text={`${firstKeptText?.label}: ${firstKeptText?.excerpt.slice(0, 50)}`} />
              </q>
            </li>
            <li data-testid="split-turn">
              Split turn:{" "}
              {plan.isSplitTurn ? (
                <>
                  yes, prefix of <b>{plan.turnPrefixCount}</b> messages summarized separately
                </>
              ) : (
                "no"
              )}
            </li>
          </ul>
          <details className="cp-files">
            <summary>
              Files read ({plan.fileOps.readFiles.length}) and modified ({plan.fileOps.modifiedFiles.length})
            </summary>
            <div className="cp-file-lists">
              <ul aria-label="Files read">
                {plan.fileOps.readFiles.map((f) => (
                  <li key={f}>
                    <SafeText text={f} />
                  </li>
                ))}
              </ul>
              <ul aria-label="Files modified">
                {plan.fileOps.modifiedFiles.map((f) => (
                  <li key={f}>
                    ✎ <SafeText text={f} />
                  </li>
                ))}
              </ul>
            </div>
          </details>
        </>
      )}
      <div className="cp-controls">
        <label htmlFor={ids.keep}>Keep recent tokens</label>
        <div className="cp-keep">
          <input
            type="range"
            min={0}
            max={maxKeep}
            step={500}
            value={model.keepRecentTokens}
            onChange={(e) => s.setKeepRecent(Number(e.target.value))}
            aria-label="Keep recent tokens (slider)"
          />
          <input
            id={ids.keep}
            type="number"
            min={0}
            step={500}
            value={model.keepRecentTokens}
            data-testid="keep-recent"
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isFinite(v) && v >= 0) s.setKeepRecent(v);
            }}
          />
        </div>
        <label htmlFor={ids.focus}>Focus instructions</label>
        <textarea
          id={ids.focus}
          rows={2}
          value={s.focus}
          placeholder="e.g. keep the decisions about the parser"
          data-testid="focus"
          onChange={(e) => s.setFocus(e.target.value)}
        />
        <label htmlFor={ids.model}>Summarizer model</label>
        <div>
          <input
            id={ids.model}
            value={s.summarizerModel ?? (model.settings.summarizerModel || model.modelId)}
            onChange={(e) => s.setSummarizerModel(e.target.value)}
            data-testid="summarizer-model"
            list={ids.models}
          />
          <HiddenCharsNote value={s.summarizerModel ?? (model.settings.summarizerModel || model.modelId)} />
          <datalist id={ids.models}>
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          {cost && (
            <span className="cp-cost">
              ≈ {fullTokens(cost.input)} in + ≤ {fullTokens(cost.output)} out
              {cost.usd !== undefined ? ` · ≈ ${usd(cost.usd)}` : " · price unknown"}
            </span>
          )}
        </div>
      </div>
      {s.status === "failed" && (
        <div className="cp-error" role="alert" data-testid="preview-error">
          <p>
            The summary failed: <SafeText text={s.error ?? ""} />
          </p>
          <button type="button" className="btn small" onClick={() => void generate()}>
            Retry
          </button>
          <button type="button" className="btn small" onClick={useOffline}>
            Use offline summary
          </button>
        </div>
      )}
      {s.status === "aborted" && <p className="cp-note">Stopped. Nothing was written.</p>}
      {(s.status === "generating" || s.status === "ready") && (
        <div className="cp-draft">
          <div className="cp-draft-head">
            <label htmlFor={ids.draft}>
              Summary{" "}
              {s.draftSource === "offline" ? (
                <span className="cp-tag offline">offline summary (no model)</span>
              ) : null}
            </label>
            <label className="cp-toggle">
              <input type="checkbox" checked={rendered} onChange={(e) => setRendered(e.target.checked)} />{" "}
              rendered
            </label>
            {plan?.previousSummary && (
              <label className="cp-toggle">
                <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} />{" "}
                compare with previous
              </label>
            )}
          </div>
          {stale && (
            <p className="cp-banner" role="status">
              The cut moved since this summary was made: regenerate (or use the offline summary) to confirm.
            </p>
          )}
          {compare && plan?.previousSummary ? (
            <SummaryDiff before={plan.previousSummary} after={s.draft} />
          ) : rendered ? (
            <div className="cp-rendered">
              <Markdown text={s.draft} />
            </div>
          ) : (
            <textarea
              id={ids.draft}
              className="cp-editor"
              data-testid="summary-editor"
              value={s.draft}
              readOnly={s.status === "generating"}
              onChange={(e) => s.setDraft(e.target.value)}
              rows={10}
            />
          )}
          {!rendered && !compare && <HiddenCharsNote value={s.draft} />}
        </div>
      )}
      <div className="cp-actions">
        {s.status === "generating" ? (
          <button type="button" className="btn" onClick={stop} data-testid="stop">
            Stop
          </button>
        ) : (
          <>
            <button
              type="button"
              className="btn"
              disabled={!ok}
              onClick={() => void generate()}
              data-testid="generate"
            >
              {s.status === "ready" ? "Regenerate" : "Generate summary"}
            </button>
            <button type="button" className="btn" disabled={!ok} onClick={useOffline} data-testid="offline">
              Offline summary
            </button>
          </>
        )}
        {s.status === "ready" && (
          <button type="button" className="btn" onClick={() => s.resetDraft()}>
            Discard
          </button>
        )}
        <button type="button" className="btn" onClick={close} data-testid="cancel">
          Cancel
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={s.status !== "ready" || stale || busy || s.draft.trim() === ""}
          onClick={() => void confirm()}
          data-testid="confirm"
        >
          Confirm
        </button>
      </div>
    </section>
  );
}

function statusText(status: string, source: string | null): string {
  switch (status) {
    case "generating":
      return "Generating…";
    case "ready":
      return source === "offline" ? "Offline draft ready" : "Draft ready: edit, then confirm";
    case "failed":
      return "Failed";
    case "aborted":
      return "Stopped";
    case "confirmed":
      return "Confirmed";
    case "undone":
      return "Undone";
    default:
      return "Not generated yet";
  }
}
