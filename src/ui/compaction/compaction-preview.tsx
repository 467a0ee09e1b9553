/**
 * The compaction review of one session: the plan in numbers ("after" measured like "before", the
 * summary's part apart), masking, the controls that move it (review-controls.tsx), Generate /
 * Stop / Regenerate / offline summary, the draft (summary-draft.tsx; what the buttons do before
 * there is one) and its coverage check, Discard / Cancel and Confirm, with why Confirm is off
 * next to it. Focus comes back where the person was. Nothing is written before Confirm.
 */
import { type RefObject, useEffect, useId, useMemo, useRef, useState } from "react";
import type { CoverageReport } from "../../core/coverage/coverage.ts";
import { cutMovedByHand, useCompactionStore, useSessionCompaction } from "../../store/compaction-store.ts";
import { ErrorWords } from "../common/error-words.tsx";
import { focusFirstOf } from "../common/focus-return.ts";
import { SafeText } from "../common/safe-text.tsx";
import { useFocusKept } from "../common/use-focus-kept.ts";
import { useAppServices } from "../hooks/app-services.tsx";
import { confirmReview } from "./confirm-review.ts";
import { ContextView } from "./context-view.tsx";
import { compactionControls } from "./focus-return.ts";
import { MaskingPanel } from "./masking-panel.tsx";
import { skipReview } from "./review-actions.ts";
import { ReviewControls } from "./review-controls.tsx";
import { ReviewCoverage } from "./review-coverage.tsx";
import { ReviewFigures } from "./review-figures.tsx";
import { summarizerCall } from "./summarizer-call.ts";
import { SummarizerCheck, type WaysOut } from "./summarizer-check.tsx";
import { DraftEmpty, SummaryDraft } from "./summary-draft.tsx";
import type { CompactionModel } from "./use-compaction-model.ts";
import { useSummaryGeneration } from "./use-summary-generation.ts";
import { useTokensAfter } from "./use-tokens-after.ts";

/** The last generate request served, by session (a remount must not generate again). */
const handledRequests = new Map<string, number>();

/** The review's controls that take the focus when the one pressed is replaced (after that one, when it is back), in this order. */
const KEEPERS = ["stop", "generate", "offline", "summary-editor", "cancel"];

export function CompactionPreview({
  model,
  cutHandleRef,
}: {
  model: CompactionModel;
  /** The timeline's cut handle: the focus goes there when the person opens the review. */
  cutHandleRef: RefObject<HTMLElement | null>;
}) {
  const sessionId = model.sessionId;
  const services = useAppServices();
  const s = useSessionCompaction(sessionId, (x) => x);
  const store = useCompactionStore.getState;
  const plan = model.plan.plan;
  const ok = model.plan.ok && plan !== undefined;
  const { generate, stop, useOffline } = useSummaryGeneration(sessionId, ok ? plan : undefined, model.path);
  const [busy, setBusy] = useState(false);
  /** Confirm of an incomplete draft asks once whether to keep it as it is. */
  const [askIncomplete, setAskIncomplete] = useState(false);
  const headId = useId();
  const rootRef = useRef<HTMLElement>(null);
  const focusRef = useRef<HTMLTextAreaElement>(null);

  // Where the person was when the review opened: focus goes back there after Confirm or Cancel.
  const returnTo = useRef<Element | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opening.
  useEffect(() => {
    returnTo.current = document.activeElement;
    // Opened by the person (Compact…, the shortcut, /compact): focus goes to the cut, whose value
    // says the whole plan (what is summarized, kept, the size after), or to the focus field when a
    // focus was given (/compact the parser). An automatic opening (ask mode, with a reason) leaves
    // the focus where it is. Without scrolling: the figures at the top of the review stay in view.
    if (s.reason !== null) return;
    for (const el of [s.focus.trim() === "" ? cutHandleRef.current : null, focusRef.current]) {
      el?.focus({ preventScroll: true });
      if (el && document.activeElement === el) return;
    }
  }, []);
  // Generate, Stop, Offline summary, Regenerate and Discard replace the button pressed: the focus
  // goes to what replaced it (Stop), then back to the button pressed once it is shown again
  // (Offline summary; Generate as Regenerate), never to the page.
  useFocusKept(
    rootRef,
    (origin) =>
      [...(origin ? [origin] : []), ...KEEPERS].map((id) =>
        rootRef.current?.querySelector(`[data-testid="${id}"]`),
      ),
    s.status,
  );
  // To where it was (a Compact… button disabled by the compaction made: the next that can take it).
  const giveFocusBack = () =>
    requestAnimationFrame(() => focusFirstOf([returnTo.current, ...compactionControls()]));

  // Auto-open in ask mode: start generating once per request, as soon as the plan is ready.
  // Cost and fit of the summary call from the plan's numbers (serializing a 100 MB path here would stall).
  const call = useMemo(
    () => (plan && ok ? summarizerCall(model, plan, s.focus, s.summarizerModel ?? undefined) : undefined),
    [plan, ok, model, s.focus, s.summarizerModel],
  );
  // A request that cannot fit the summarizer's window is never sent: the check says why, with the ways out.
  const refused = call?.tooBig === true;

  const request = s.generateRequest;
  useEffect(() => {
    if (request > (handledRequests.get(sessionId) ?? 0) && ok) {
      handledRequests.set(sessionId, request);
      if (!refused) void generate();
    }
  }, [request, ok, generate, sessionId, refused]);

  // "After" measured the same way as "before": a typical summary until there is one, then its size.
  const after = useTokensAfter(model);

  // The coverage check of the draft (review-coverage.tsx); its latest report goes into Confirm.
  const coverageRef = useRef<CoverageReport | undefined>(undefined);

  const close = () => {
    stop();
    skipReview(services.compaction, sessionId);
    giveFocusBack();
  };

  const stale =
    s.draftTarget !== null && plan !== undefined && s.draftTarget.firstKeptEntryId !== plan.firstKeptEntryId;
  // A draft made for a plan that no longer stands (another tab compacted or wrote meanwhile).
  const movedOn = s.status === "ready" && s.draftTarget !== null && !ok;
  const confirm = async (asIs = false) => {
    if (!plan || stale || movedOn) return;
    if (s.draftIncomplete && !asIs) {
      setAskIncomplete(true);
      return;
    }
    setAskIncomplete(false);
    setBusy(true);
    const done = await confirmReview(services.compaction, model, plan, coverageRef.current);
    setBusy(false);
    if (done) giveFocusBack();
  };

  const byHand = cutMovedByHand(s);
  const checkId = useId();
  const waysOut: WaysOut = {
    onChooseModel: () => document.querySelector<HTMLElement>('[data-testid="summarizer-model"]')?.focus(),
    onKeepMore: () => {
      if (!plan || !call) return;
      // Summarize less by what is over, and a margin: the cut moves back to fit.
      const keep = Math.ceil((plan.keptTokens + call.fit.over + 1000) / 500) * 500;
      store().setKeepRecent(sessionId, keep);
    },
    onMask: () => {
      const masking = rootRef.current?.querySelector<HTMLDetailsElement>('[data-testid="masking"]');
      if (!masking) return;
      masking.open = true;
      masking.querySelector("summary")?.focus();
    },
    onOffline: useOffline,
  };
  // Why Confirm is off, said next to it (the person may be moving the cut, far from the draft).
  const whyId = useId();
  const whyNot =
    s.status !== "ready"
      ? null
      : movedOn
        ? `The session moved on since this draft was made (another tab or a run wrote to it): ${model.plan.reason ?? "its plan changed"} Nothing was written; this draft no longer applies. Copy what you need, then discard it.`
        : stale
          ? "The cut moved since this summary was made: put the cut back, or regenerate (or use the offline summary) to confirm."
          : s.draft.trim() === ""
            ? "The summary is empty: write one, or generate it, to confirm."
            : null;

  return (
    <section
      ref={rootRef}
      className="cp-preview"
      aria-labelledby={headId}
      data-testid="compaction-preview"
      onKeyDown={(e) => {
        if (e.key === "Escape" && s.status !== "generating") {
          e.stopPropagation();
          close();
        }
      }}
    >
      <header className="cp-preview-head">
        <h2 id={headId}>Compaction review</h2>
        <span className={`cp-status st-${s.status}`} data-testid="preview-status">
          {statusText(s.status, s.draftSource, s.undoneFrom !== null, s.draftIncomplete)}
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
          <ContextView model={model} plan={ok ? plan : undefined} after={after} />
          {ok && plan && after && <ReviewFigures model={model} plan={plan} after={after} byHand={byHand} />}
          <MaskingPanel
            model={model}
            plan={ok ? plan : undefined}
            summarySaves={plan && after ? Math.max(0, plan.tokensBefore - after.total) : undefined}
          />
          <ReviewControls model={model} call={call} focusRef={focusRef} />
          {s.error && (
            <div className="cp-error" role="alert" data-testid="preview-error">
              <div>
                <ErrorWords text={s.status === "failed" ? `The summary failed: ${s.error}` : s.error} />
              </div>
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
            <SummaryDraft sessionId={sessionId} previousSummary={plan?.previousSummary} />
          )}
          {s.status !== "ready" && s.status !== "generating" && (
            <DraftEmpty
              reason={ok ? undefined : (model.plan.reason ?? "Nothing to compact: the session is empty.")}
            />
          )}
          {plan && ok && (
            <ReviewCoverage model={model} plan={plan} reportRef={coverageRef} shown={s.status === "ready"} />
          )}
        </div>
      </div>
      <div className="cp-actions">
        {askIncomplete && s.status === "ready" && s.draftIncomplete && (
          <div
            className="cp-confirm-why cp-ask"
            role="alertdialog"
            aria-label="Confirm an incomplete summary"
            data-testid="confirm-incomplete"
          >
            <span>This summary was stopped midway and may end mid-sentence. Keep it as it is?</span>
            <button type="button" className="btn small primary" onClick={() => void confirm(true)}>
              Keep it as it is and confirm
            </button>
            <button type="button" className="btn small" onClick={() => setAskIncomplete(false)}>
              Go back to edit
            </button>
          </div>
        )}
        {whyNot && (
          <p className="cp-confirm-why" id={whyId} role="status" data-testid="confirm-why">
            {whyNot}
            {stale && s.draftTarget && (
              <>
                {" "}
                <button
                  type="button"
                  className="btn small"
                  onClick={() =>
                    store().patch(sessionId, { cutEntryId: s.draftTarget?.firstKeptEntryId ?? null })
                  }
                >
                  Put the cut back
                </button>
              </>
            )}
          </p>
        )}
        {call && s.status !== "generating" && <SummarizerCheck id={checkId} call={call} ways={waysOut} />}
        {s.status === "generating" ? (
          <button type="button" className="btn" onClick={stop} data-testid="stop">
            Stop
          </button>
        ) : (
          <>
            <button
              type="button"
              className="btn"
              disabled={!ok || refused}
              aria-describedby={call ? checkId : undefined}
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
          <button
            type="button"
            className="btn"
            onClick={() => store().resetDraft(sessionId)}
            data-testid="discard"
          >
            Discard
          </button>
        )}
        <button type="button" className="btn" onClick={close} data-testid="cancel">
          Cancel
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={s.status !== "ready" || stale || movedOn || busy || s.draft.trim() === ""}
          aria-describedby={whyNot ? whyId : undefined}
          onClick={() => void confirm()}
          data-testid="confirm"
        >
          Confirm
        </button>
      </div>
    </section>
  );
}

function statusText(status: string, source: string | null, undone: boolean, incomplete = false): string {
  switch (status) {
    case "generating":
      return source === "offline" ? "Writing the offline summary…" : "Generating…";
    case "ready":
      if (undone) return "Undone summary: edit, then confirm";
      if (incomplete) return "Stopped: incomplete draft";
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
