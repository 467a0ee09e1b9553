/**
 * The context meter in the session top bar (role "meter", named "Context"): tokens in context /
 * window as a bar with segments by category (system prompt and tools, summary, kept by the last
 * compaction, since it; provider usage beyond the estimate as its own part), the reserve zone
 * hatched, a tick at the trigger, the numbers in words, the source and the estimator; "remind
 * only" past the trigger when that mode is chosen; settings that do not fit the model, with Settings
 * one click away. Hover or keyboard focus shows the breakdown
 * (a click or Escape hides it); the button opens the token timeline.
 */
import { useEffect, useId } from "react";
import { breakdownOf, type ContextBreakdown } from "../../core/compaction/breakdown.ts";
import { openCompactionPreview } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "../common/safe-text.tsx";
import { useTooltip } from "../common/use-tooltip.ts";
import type { SessionSlotProps } from "../shell/slots.ts";
import { CompactButton, REVIEW_SHORTCUT } from "./compact-button.tsx";
import { MeterFitWarning } from "./fit-warning.tsx";
import { estimatorLabel, fullTokens, kTokens, percent } from "./format-tokens.ts";
import { partValues, SEGMENTS, segmentTokens } from "./meter-segments.ts";
import { useReviewPersistence } from "./review-persistence.ts";
import { sizeWords } from "./size-words.ts";
import { type CompactionModel, useCompactionModel } from "./use-compaction-model.ts";

/** Alt+Shift+C anywhere (outside a dialog) opens the review of the open session. */
function useReviewShortcut(sessionId: string): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || !e.shiftKey || e.ctrlKey || e.metaKey || e.code !== "KeyC") return;
      if (document.querySelector("dialog[open]")) return;
      e.preventDefault();
      openCompactionPreview(sessionId);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [sessionId]);
}

export interface MeterNumbers extends ContextBreakdown {
  window: number;
  threshold: number;
  over: "below" | "past-threshold" | "over-window";
  remindOnly: boolean;
}

/** The meter's numbers from the model: real categories, never scaled to the total (pure). */
export function meterNumbers(m: CompactionModel): MeterNumbers {
  const b = breakdownOf(m.account, m.context);
  const over = b.total > m.contextWindow ? "over-window" : b.total > m.threshold ? "past-threshold" : "below";
  return {
    ...b,
    window: m.contextWindow,
    threshold: m.threshold,
    over,
    remindOnly: m.settings.mode === "remind",
  };
}

/** "trigger 80 % of the window" or "trigger = window − reserve". */
export function triggerText(m: CompactionModel): string {
  const t = m.settings.trigger;
  return t.kind === "percent" ? `${t.percent} % of the window` : "window − reserve";
}

export function ContextMeter({ sessionId }: SessionSlotProps) {
  const model = useCompactionModel(sessionId);
  const setRightOpen = useUiStore((s) => s.setRightPanelOpen);
  const tipId = useId();
  const tip = useTooltip();
  useReviewPersistence(sessionId);
  useReviewShortcut(sessionId);
  if (!model) return <span className="cp-meter-loading">Context…</span>;
  const n = meterNumbers(model);
  const w = Math.max(n.window, n.total, 1);
  const pct = (x: number) => `${Math.min(100, (x / w) * 100)}%`;
  const reserveStart = Math.min(n.threshold, w);
  const state =
    n.over === "over-window"
      ? "Over the context window"
      : n.over === "past-threshold"
        ? n.remindOnly
          ? "Past the threshold · remind only"
          : "Past the compaction threshold"
        : null;
  const sourceTitle = sizeWords(model.context, n, model.estimatorId);
  const values = partValues(n);
  const drawn = segmentTokens(n);
  const since = model.lastCompaction >= 0 ? "Since the last compaction" : "Messages";
  const valueText = `${fullTokens(n.total)} of ${fullTokens(n.window)} tokens (${percent(n.total, n.window)} %), threshold ${fullTokens(n.threshold)}${state ? `; ${state.toLowerCase()}` : ""}`;
  return (
    <span className={`cp-meter-wrap ${n.over}`}>
      <meter
        className="sr-only"
        aria-label="Context"
        min={0}
        max={Math.max(1, n.window)}
        high={n.threshold}
        value={Math.min(n.total, n.window)}
        aria-valuetext={valueText}
        data-testid="context-meter-value"
      >
        {valueText}
      </meter>
      <span
        className="cp-meter-bar"
        aria-hidden="true"
        data-testid="context-meter-bar"
        onPointerEnter={tip.handlers.onPointerEnter}
        onPointerLeave={tip.handlers.onPointerLeave}
      >
        {SEGMENTS.map(([key]) =>
          drawn[key] > 0 ? (
            <span key={key} className={`seg ${key}`} data-seg={key} style={{ width: pct(drawn[key]) }} />
          ) : null,
        )}
        <span className="reserve" style={{ left: pct(reserveStart), width: pct(w - reserveStart) }} />
        <span className="tick" data-testid="meter-trigger" style={{ left: pct(n.threshold) }} />
      </span>
      <button
        type="button"
        className={`cp-meter ${n.over}`}
        data-testid="context-meter"
        aria-describedby={tipId}
        title="Open the token timeline"
        onClick={() => setRightOpen(true)}
        {...tip.handlers}
      >
        <span className="cp-meter-text" data-testid="context-meter-text">
          <span className="cp-meter-abs">
            {kTokens(n.total)} / {kTokens(n.window)} ·{" "}
          </span>
          {percent(n.total, n.window)} %
          <span className="cp-meter-threshold"> · threshold {kTokens(n.threshold)}</span>
        </span>
        <span className={`cp-tag ${model.context.source}`} title={sourceTitle}>
          {model.context.source}
        </span>
        <span className="cp-tag est">{estimatorLabel(model.estimatorId)}</span>
        {state && (
          <span className="cp-meter-state" data-testid="meter-state">
            {state}
          </span>
        )}
      </button>
      <span
        className="cp-meter-tip"
        id={tipId}
        role="tooltip"
        data-testid="meter-breakdown"
        hidden={!tip.open}
      >
        <span>
          In context: <b data-testid="meter-total">{fullTokens(n.total)}</b> tokens ({model.context.source})
        </span>
        {SEGMENTS.map(([key, label]) =>
          key === "usage" ? null : (
            <span key={key} data-part={key}>
              <span className={`cp-tip-swatch seg-${key}`} aria-hidden="true" />
              {key === "since" ? since : label}: ≈ {fullTokens(values[key])}
            </span>
          ),
        )}
        {n.source === "reported" && (
          <span data-part="usage">
            <span className="cp-tip-swatch seg-usage" aria-hidden="true" />
            Provider usage {n.usageDifference >= 0 ? "above" : "below"} the estimate:{" "}
            {n.usageDifference >= 0 ? "+" : "−"}
            {fullTokens(Math.abs(n.usageDifference))}
            {n.usageDifference < 0 ? " (the bar draws the parts scaled to the provider's count)" : ""}
          </span>
        )}
        <span>
          Window: {fullTokens(n.window)} (
          <SafeText
            text={
              model.windowSource === "setting"
                ? "set in Settings"
                : model.windowSource === "pi"
                  ? `${model.modelId}, from pi's models.json`
                  : model.modelId || "default"
            }
          />
          )
        </span>
        <span>
          Trigger: {fullTokens(n.threshold)} ({triggerText(model)}
          {model.sessionOverride ? ", this session" : ""}) · reserve {fullTokens(model.reserveTokens)}
          {model.reserveFromPi
            ? ` (${model.modelId}'s, from pi's settings.json)`
            : model.fit.reserveSource === "model"
              ? " (follows the model)"
              : ""}
        </span>
        {n.remindOnly && <span>Remind only: nothing opens by itself past the trigger.</span>}
        <span>Estimator: {estimatorLabel(model.estimatorId)}</span>
        <span>Click: open the token timeline · {REVIEW_SHORTCUT}: review a compaction</span>
      </span>
      <MeterFitWarning problems={model.fit.problems} />
      <CompactButton sessionId={sessionId} where="top" reason={model.blocker} />
    </span>
  );
}
