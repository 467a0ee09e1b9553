/**
 * A compaction at a glance (the timeline row and History): its trigger, tokens before → after
 * (after measured on the path up to it, by pi's rules), the summarizer model, duration and cost
 * when known, and its coverage figure. Facts are cached per entry: the path to an entry never changes.
 */
import { allCompactionFacts, type CompactionSummaryFacts } from "../../core/compaction/compaction-record.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { SafeText } from "../common/safe-text.tsx";
import { formatCount } from "../format.ts";

const cache = new WeakMap<SessionEntry, CompactionSummaryFacts>();

/**
 * The facts of the compaction at `index` of `path` (undefined for other entries). A miss computes
 * the facts of every compaction on the path in one pass and keeps them all: scrolling past many
 * compactions indexes the path once, and after an append only a new compaction misses.
 */
export function factsAt(path: readonly SessionEntry[], index: number): CompactionSummaryFacts | undefined {
  const entry = path[index];
  if (entry?.type !== "compaction") return undefined;
  let facts = cache.get(entry);
  if (!facts) {
    const byId = allCompactionFacts(path);
    for (const e of path) {
      const f = e.type === "compaction" ? byId.get(e.id) : undefined;
      if (f && !cache.has(e)) cache.set(e, f);
    }
    facts = cache.get(entry);
  }
  return facts;
}

const TRIGGER_TEXT = {
  manual: "by hand",
  threshold: "at the threshold",
  overflow: "after an overflow",
  masking: "after masking tool outputs",
} as const;

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

export function CompactionFacts({ facts }: { facts: CompactionSummaryFacts }) {
  const { record, coverage } = facts;
  return (
    <span className="compaction-facts" data-testid="compaction-record">
      {record && (
        <span data-testid="record-trigger">
          {TRIGGER_TEXT[record.trigger]}
          {record.maskedOutputs ? ` (${formatCount(record.maskedOutputs)})` : ""}
        </span>
      )}
      <span data-testid="record-tokens">
        {formatCount(Math.round(facts.tokensBefore))} → {formatCount(Math.round(facts.tokensAfter))} tokens
      </span>
      {record && (
        <span data-testid="record-model">
          {record.model ? <SafeText text={record.model} /> : "offline summary"}
        </span>
      )}
      {record?.durationMs !== undefined && record.durationMs > 0 && <span>{seconds(record.durationMs)}</span>}
      {record?.costUsd !== undefined && (
        <span>${record.costUsd < 0.01 ? record.costUsd.toFixed(4) : record.costUsd.toFixed(2)}</span>
      )}
      {coverage && (
        <span data-testid="record-coverage">
          coverage {formatCount(coverage.covered)} of {formatCount(coverage.total)}
        </span>
      )}
    </span>
  );
}
