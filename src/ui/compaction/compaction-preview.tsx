/**
 * The compaction review of one session: the plan in numbers ("after" measured like "before", the
 * summary's part apart), the controls that move it (keep-recent, focus, the summarizer that will
 * be used, with its provider, window and price, and a warning when its input does not fit), Generate
 * / Stop / Regenerate / offline summary, the editable draft (growing with the room; rendered view;
 * diff against the previous summary), Discard / Cancel and Confirm. Focus comes back where the
 * person was. Nothing is written before Confirm.
 */
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { tokensAfter } from "../../core/compaction/breakdown.ts";
import type { CoverageReport } from "../../core/compaction/coverage.ts";
import { instructionsLabel } from "../../core/compaction/instructions.ts";
import { db } from "../../db/instance.ts";
import { listModels } from "../../llm/connection.ts";
import { resolveSummarizer } from "../../services/compaction-endpoint.ts";
import { loadSummaryInstructions } from "../../services/summary-instructions.ts";
import { useCompactionStore, useSessionCompaction } from "../../store/compaction-store.ts";
import { HiddenCharsNote, SafeText } from "../common/safe-text.tsx";
import { SummaryInstructionsButton } from "../pins/pins-controls.tsx";
import { Markdown } from "../timeline/lazy-markdown.tsx";
import { confirmReview } from "./confirm-review.ts";
import { fullTokens, kTokens, usd } from "./format-tokens.ts";
import { MaskingPanel } from "./masking-panel.tsx";
import { skipReview } from "./review-actions.ts";
import { ReviewCoverage } from "./review-coverage.tsx";
import { ReviewFigures } from "./review-figures.tsx";
import { summarizerCall } from "./summarizer-call.ts";
import { SummaryDiff } from "./summary-diff.tsx";
import { TooBigWarning } from "./too-big-warning.tsx";
import type { CompactionModel } from "./use-compaction-model.ts";
import { useSummaryGeneration } from "./use-summary-generation.ts";

/** The last generate request served, by session (a remount must not generate again). */
const handledRequests = new Map<string, number>();

export function CompactionPreview({ model }: { model: CompactionModel }) {
  const sessionId = model.sessionId;
  const s = useSessionCompaction(sessionId, (x) => x);
  const store = useCompactionStore.getState;
  const patch = (p: Parameters<ReturnType<typeof store>["patch"]>[1]) => store().patch(sessionId, p);
  const plan = model.plan.plan;
  const ok = model.plan.ok && plan !== undefined;
  const { generate, stop, useOffline } = useSummaryGeneration(sessionId, ok ? plan : undefined, model.path);
  const [rendered, setRendered] = useState(false);
  const [compare, setCompare] = useState(false);
  const [busy, setBusy] = useState(false);
  const ids = {
    keep: useId(),
    focus: useId(),
    model: useId(),
    draft: useId(),
    models: useId(),
    head: useId(),
  };
  const [models, setModels] = useState<string[]>([]);
  const rootRef = useRef<HTMLElement>(null);
  const focusRef = useRef<HTMLTextAreaElement>(null);
  const editorRef = useRef<HTMLTextAreaElement>(null);
  const pathRef = model.path;

  // Where the person was when the review opened: focus goes back there after Confirm or Cancel.
  const returnTo = useRef<Element | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opening.
  useEffect(() => {
    returnTo.current = document.activeElement;
    // Opened by the person (/compact, the shortcut, Compact…): focus goes into the review. An
    // automatic opening (ask mode, with a reason) leaves the focus where it is.
    if (s.reason === null) focusRef.current?.focus();
  }, []);
  const giveFocusBack = () => {
    const el = returnTo.current as HTMLElement | null;
    requestAnimationFrame(() => {
      if (el?.isConnected && el !== document.body) el.focus();
      else
        document
          .querySelector<HTMLElement>('[data-testid="compact-open"], [data-testid="context-meter"]')
          ?.focus();
    });
  };

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
  }, [sessionId]);

  // Auto-open in ask mode: start generating once per request, as soon as the plan is ready.
  const request = s.generateRequest;
  useEffect(() => {
    if (request > (handledRequests.get(sessionId) ?? 0) && ok) {
      handledRequests.set(sessionId, request);
      void generate();
    }
  }, [request, ok, generate, sessionId]);

  // Cost and fit of the summary call from the plan's numbers (serializing a 100 MB path here would stall).
  const call = useMemo(
    () => (plan && ok ? summarizerCall(model, plan, s.focus) : undefined),
    [plan, ok, model, s.focus],
  );

  // "After" measured the same way as "before": the budget until a summary exists, then its size.
  const hasDraft = (s.status === "ready" || s.status === "generating") && s.draft.trim() !== "";
  const after = useMemo(
    () =>
      plan && ok
        ? tokensAfter(plan, model.account, hasDraft ? s.draft : undefined, model.planner.estimator)
        : undefined,
    [plan, ok, model.account, model.planner, hasDraft, s.draft],
  );

  // The instructions the summarizer gets (the person's focus adds to them).
  const instructions = useLiveQuery(
    () => loadSummaryInstructions(db, sessionId).then((r) => r.resolved),
    [sessionId],
  );

  // The coverage check of the draft (review-coverage.tsx); its latest report goes into Confirm.
  const coverageRef = useRef<CoverageReport | undefined>(undefined);

  const close = () => {
    stop();
    skipReview(sessionId);
    giveFocusBack();
  };

  const stale =
    s.draftTarget !== null && plan !== undefined && s.draftTarget.firstKeptEntryId !== plan.firstKeptEntryId;
  const confirm = async () => {
    if (!plan || stale) return;
    setBusy(true);
    const done = await confirmReview(model, plan, coverageRef.current);
    setBusy(false);
    if (done) giveFocusBack();
  };

  const maxKeep = Math.max(model.keepRecentTokens, Math.ceil(model.context.tokens), 1000);
  const byHand = s.cutEntryId !== null;

  return (
    <section
      ref={rootRef}
      className="cp-preview"
      aria-labelledby={ids.head}
      data-testid="compaction-preview"
      onKeyDown={(e) => {
        if (e.key === "Escape" && s.status !== "generating") {
          e.stopPropagation();
          close();
        }
      }}
    >
      <header className="cp-preview-head">
        <h2 id={ids.head}>Compaction review</h2>
        <span className={`cp-status st-${s.status}`} data-testid="preview-status">
          {statusText(s.status, s.draftSource)}
        </span>
        <button
          type="button"
          className="btn small ghost"
          onClick={close}
          aria-label="Cancel and close the review"
        >
          ✕
        </button>
      </header>
      <div className="cp-review-cols">
        <div className="cp-review-side">
          {s.reason && (
            <p className="cp-banner" role="status">
              <SafeText text={s.reason} />
            </p>
          )}
          {!ok && (
            <p className="cp-note" data-testid="nothing-to-compact">
              Nothing to compact: {model.plan.reason ?? "the session is empty."}
            </p>
          )}
          {ok && plan && after && <ReviewFigures model={model} plan={plan} after={after} byHand={byHand} />}
          <MaskingPanel
            model={model}
            plan={ok ? plan : undefined}
            summarySaves={plan && after ? Math.max(0, plan.tokensBefore - after.total) : undefined}
          />
          <div className="cp-controls">
            <label htmlFor={ids.keep}>Keep recent tokens</label>
            <div className="cp-keep">
              <input
                type="range"
                min={0}
                max={maxKeep}
                step={500}
                value={model.keepRecentTokens}
                onChange={(e) => store().setKeepRecent(sessionId, Number(e.target.value))}
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
                  if (Number.isFinite(v) && v >= 0) store().setKeepRecent(sessionId, v);
                }}
              />
            </div>
            <label htmlFor={ids.focus}>Focus</label>
            <textarea
              ref={focusRef}
              id={ids.focus}
              rows={1}
              value={s.focus}
              placeholder="e.g. keep the decisions about the parser"
              data-testid="focus"
              onChange={(e) => patch({ focus: e.target.value })}
            />
            <span className="cp-label">Instructions</span>
            <span className="cp-instructions" data-testid="instructions-in-use">
              {instructions
                ? `${instructionsLabel(instructions.text)}${instructions.source === "session" ? " (this session)" : instructions.source === "global" ? " (all sessions)" : ""}`
                : "…"}{" "}
              <SummaryInstructionsButton
                sessionId={sessionId}
                scope="session"
                className="link"
                label="change…"
              />
            </span>
            <label htmlFor={ids.model}>Summarizer</label>
            <div className="cp-summarizer">
              <input
                id={ids.model}
                value={s.summarizerModel ?? model.summarizerModel}
                onChange={(e) => patch({ summarizerModel: e.target.value })}
                data-testid="summarizer-model"
                placeholder="none set up (Settings ⚙): offline summary only"
                list={ids.models}
              />
              <HiddenCharsNote value={s.summarizerModel ?? model.summarizerModel} />
              <datalist id={ids.models}>
                {models.map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
              {call && call.modelId !== "" && (
                <span className="cp-cost" data-testid="summarizer-info">
                  {call.provider} · window {kTokens(call.contextWindow)} · ≈ {fullTokens(call.input)} in + ≤{" "}
                  {fullTokens(call.output)} out
                  {call.usd !== undefined ? ` · ≈ ${usd(call.usd)}` : " · price unknown"}
                </span>
              )}
            </div>
          </div>
          {call?.tooBig && (
            <TooBigWarning
              call={call}
              onChooseModel={() => document.getElementById(ids.model)?.focus()}
              onKeepMore={() =>
                store().setKeepRecent(sessionId, Math.ceil((plan?.keptTokens ?? 0) + call.input))
              }
              onOffline={useOffline}
            />
          )}
          {s.error && (
            <div className="cp-error" role="alert" data-testid="preview-error">
              <p>
                <SafeText text={s.status === "failed" ? `The summary failed: ${s.error}` : s.error} />
              </p>
              {s.status === "failed" && (
                <>
                  <button type="button" className="btn small" onClick={() => void generate()}>
                    Retry
                  </button>
                  <button type="button" className="btn small" onClick={useOffline}>
                    Use offline summary
                  </button>
                </>
              )}
            </div>
          )}
          {s.status === "aborted" && <p className="cp-note">Stopped. Nothing was written.</p>}
        </div>
        <div className="cp-review-main">
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
                  The cut moved since this summary was made: regenerate (or use the offline summary) to
                  confirm.
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
                  ref={editorRef}
                  id={ids.draft}
                  className="cp-editor"
                  data-testid="summary-editor"
                  value={s.draft}
                  readOnly={s.status === "generating"}
                  onChange={(e) => patch({ draft: e.target.value })}
                  rows={20}
                />
              )}
              {!rendered && !compare && <HiddenCharsNote value={s.draft} />}
            </div>
          )}
          {plan && ok && (
            <ReviewCoverage model={model} plan={plan} reportRef={coverageRef} shown={s.status === "ready"} />
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
                <button
                  type="button"
                  className="btn"
                  disabled={!ok}
                  onClick={useOffline}
                  data-testid="offline"
                >
                  Offline summary
                </button>
              </>
            )}
            {s.status === "ready" && (
              <button type="button" className="btn" onClick={() => store().resetDraft(sessionId)}>
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
        </div>
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
