/**
 * The context meter in the session top bar: tokens in context / window as a bar with segments
 * (summary, kept by the last compaction, after it), the reserve zone hatched at the right end, a
 * tick at the threshold, the numbers in words, the source (reported / estimated) and the
 * estimator. Hover or focus shows the breakdown; click opens the token timeline.
 */

import { useId } from "react";
import { useUiStore } from "../../store/ui-store.ts";
import { SafeText } from "../common/safe-text.tsx";
import type { SessionSlotProps } from "../shell/slots.ts";
import { estimatorLabel, fullTokens, kTokens, percent } from "./format-tokens.ts";
import { type CompactionModel, useCompactionModel } from "./use-compaction-model.ts";

export interface MeterNumbers {
  total: number;
  window: number;
  threshold: number;
  /** Segments by estimate, scaled so they add up to `total`. */
  summary: number;
  kept: number;
  after: number;
  over: "below" | "past-threshold" | "over-window";
}

/** The meter's numbers from the model (pure, tested). */
export function meterNumbers(m: CompactionModel): MeterNumbers {
  const total = m.context.tokens;
  const { planner, lastCompaction, windowStart, path } = m;
  const n = path.length;
  const run = (i: number) => (i <= 0 ? 0 : planner.runningTokens(i - 1));
  let summary = 0;
  let kept = 0;
  let after = run(n) - run(windowStart);
  if (lastCompaction >= 0) {
    summary = planner.entryTokens(lastCompaction);
    kept = lastCompaction > windowStart ? run(lastCompaction) - run(windowStart) : 0;
    after = run(n) - run(lastCompaction + 1);
  }
  const estimated = summary + kept + after;
  const scale = estimated > 0 ? total / estimated : 0;
  const over = total > m.contextWindow ? "over-window" : total > m.threshold ? "past-threshold" : "below";
  return {
    total,
    window: m.contextWindow,
    threshold: m.threshold,
    summary: summary * scale,
    kept: kept * scale,
    after: after * scale,
    over,
  };
}

export function ContextMeter({ sessionId }: SessionSlotProps) {
  const model = useCompactionModel(sessionId);
  const setRightOpen = useUiStore((s) => s.setRightPanelOpen);
  const tipId = useId();
  if (!model) return <span className="cp-meter-loading">Context…</span>;
  const n = meterNumbers(model);
  const w = Math.max(n.window, n.total, 1);
  const pct = (x: number) => `${Math.min(100, (x / w) * 100)}%`;
  const reserveStart = Math.min(n.threshold, w);
  const state =
    n.over === "over-window"
      ? "Over the context window"
      : n.over === "past-threshold"
        ? "Past the compaction threshold"
        : null;
  const sourceTitle =
    model.context.source === "reported"
      ? "Reported: the provider's usage of the last reply plus an estimate of what followed"
      : "Estimated: no usable provider usage since the last compaction";
  return (
    <span className="cp-meter-wrap">
      <button
        type="button"
        className={`cp-meter ${n.over}`}
        data-testid="context-meter"
        aria-describedby={tipId}
        title="Open the token timeline"
        onClick={() => setRightOpen(true)}
      >
        <span className="cp-meter-bar" aria-hidden="true">
          {n.summary > 0 && <span className="seg summary" style={{ width: pct(n.summary) }} />}
          {n.kept > 0 && <span className="seg kept" style={{ width: pct(n.kept) }} />}
          <span className="seg after" style={{ width: pct(n.after) }} />
          <span className="reserve" style={{ left: pct(reserveStart), width: pct(w - reserveStart) }} />
          <span className="tick" style={{ left: pct(n.threshold) }} />
        </span>
        <span className="cp-meter-text" data-testid="context-meter-text">
          {kTokens(n.total)} / {kTokens(n.window)} · {percent(n.total, n.window)} % · threshold{" "}
          {kTokens(n.threshold)}
        </span>
        <span className={`cp-tag ${model.context.source}`} title={sourceTitle}>
          {model.context.source}
        </span>
        <span className="cp-tag est">{estimatorLabel(model.estimatorId)}</span>
        {state && (
          <span className="cp-meter-state" role="status">
            {state}
          </span>
        )}
      </button>
      <span className="cp-meter-tip" id={tipId} role="tooltip">
        <span>
          In context: {fullTokens(n.total)} tokens ({model.context.source})
        </span>
        {n.summary > 0 && <span>Summary: ≈ {fullTokens(n.summary)}</span>}
        {n.kept > 0 && <span>Kept by the last compaction: ≈ {fullTokens(n.kept)}</span>}
        <span>
          {model.lastCompaction >= 0 ? "Since the last compaction" : "Messages"}: ≈ {fullTokens(n.after)}
        </span>
        <span>
          Window: {fullTokens(n.window)} (
          <SafeText
            text={model.windowSource === "setting" ? "set in Settings" : model.modelId || "default"}
          />
          )
        </span>
        <span>
          Reserve: {fullTokens(model.reserveTokens)} · threshold {fullTokens(n.threshold)}
        </span>
        <span>Estimator: {estimatorLabel(model.estimatorId)}</span>
        <span>Click: open the token timeline</span>
      </span>
    </span>
  );
}
