/**
 * The /context view: the whole window as parts, in one glance, now and after the planned
 * compaction (system prompt, tools, pins, summary, kept messages, messages since the last
 * compaction, the provider's count beyond the estimate, free space, the reserve, the trigger).
 * "Now" adds up to the meter; "after" to the review's estimate. Opens from the meter (the panel's
 * top) and sits at the top of the review.
 */
import { pinsCarried } from "../../core/agent/pins.ts";
import { breakdownOf, type TokensAfter } from "../../core/compaction/breakdown.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { type WindowPartKey, type WindowParts, windowParts } from "../../core/compaction/window-parts.ts";
import { fullTokens, kTokens, percent } from "./format-tokens.ts";
import { sizeWords } from "./size-words.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

const LABELS: Record<WindowPartKey, string> = {
  system: "System prompt",
  tools: "Tools",
  pins: "Pins",
  summary: "Summary",
  kept: "Kept messages",
  since: "Since the last compaction",
  usage: "Provider's count beyond the estimate",
  free: "Free",
  reserve: "Reserve",
};

function Row({
  name,
  label,
  w,
  note,
}: {
  name: "now" | "after";
  label: string;
  w: WindowParts;
  note?: string;
}) {
  const scale = Math.max(w.window, w.used, 1);
  const pct = (n: number) => `${(n / scale) * 100}%`;
  return (
    <div className="cx-row" data-testid={`context-${name}`} data-used={w.used}>
      <p className="cx-head">
        <b>{label}</b> {fullTokens(w.used)} of {fullTokens(w.window)} ({percent(w.used, w.window)} %)
        {note ? ` · ${note}` : ""}
      </p>
      <div className="cx-bar" aria-hidden="true">
        {w.parts.map((p) =>
          p.tokens > 0 ? (
            <span
              key={p.key}
              className={`cx-seg cx-${p.key}`}
              style={{ width: pct(p.tokens) }}
              title={LABELS[p.key]}
            />
          ) : null,
        )}
        <span className="cx-trigger" style={{ left: pct(Math.min(w.threshold, w.window)) }} />
      </div>
      <ul className="cx-legend" aria-label={`${label}: the parts`}>
        {w.parts.map((p) =>
          p.tokens > 0 || p.used === false ? (
            <li key={p.key} data-part={p.key} data-tokens={p.tokens} data-used={p.used}>
              <span className={`cx-swatch cx-${p.key}`} aria-hidden="true" />
              {LABELS[p.key]} {kTokens(p.tokens)}
            </li>
          ) : null,
        )}
      </ul>
    </div>
  );
}

export function ContextView({
  model,
  plan,
  after,
}: {
  model: CompactionModel;
  plan?: CompactionPlan | undefined;
  after?: TokensAfter | undefined;
}) {
  const b = breakdownOf(model.account, model.context);
  const pinsNow = pinsCarried(model.account.systemMessage).tokens;
  const now = windowParts(
    {
      systemPrompt: b.systemPrompt,
      tools: b.tools,
      pins: pinsNow,
      summary: b.summary,
      kept: b.kept,
      since: b.since,
      usage: b.usageDifference,
    },
    model.contextWindow,
    model.threshold,
  );
  const next =
    plan && after
      ? windowParts(
          {
            systemPrompt: after.systemPrompt,
            tools: after.tools,
            pins: pinsCarried(plan.systemMessage).tokens,
            summary: after.summary,
            kept: after.kept,
            since: 0,
            usage: 0,
          },
          model.contextWindow,
          model.threshold,
        )
      : undefined;
  return (
    <section
      className="cx-view"
      aria-label="/context: the context window as parts"
      data-testid="context-view"
    >
      <h3 className="cx-title">
        /context{" "}
        <span className="cx-sub">
          trigger at {fullTokens(model.threshold)} · reserve {fullTokens(model.reserveTokens)}
        </span>
      </h3>
      <Row name="now" label="Now" w={now} note={model.context.source} />
      <p className="cx-source" data-testid="context-source-note">
        {sizeWords(model.context, b, model.estimatorId)}
      </p>
      {next && (
        <Row
          name="after"
          label="After"
          w={next}
          note={
            after?.summarySource === "typical"
              ? `estimate, the summary at a typical size (at most ${fullTokens(after.bound)})`
              : "estimate, with this summary"
          }
        />
      )}
    </section>
  );
}
