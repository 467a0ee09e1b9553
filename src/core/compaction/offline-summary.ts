/**
 * A structured summary built from the session itself, without a model: for people without an
 * API key, and as a fallback when the summarizer fails. The same sections a model is asked for
 * (Goal, Constraints & Preferences, Progress, Key Decisions, Next Steps, Critical Context; a split
 * turn's prefix in its own part), filled from the session and from the coverage items, so the
 * summary mentions what the coverage check looks for. Deterministic; same result shape as
 * generateCompaction so the preview can show, edit and confirm it the same way.
 */

import type { CoverageCandidate, CoverageKind } from "../coverage/coverage-extract.ts";
import { startCoverageExtraction } from "../coverage/coverage-extract.ts";
import { codeSpan } from "../coverage/coverage-text.ts";
import { emptyUsage } from "../session/usage.ts";
import { formatFileBlocks } from "./file-ops.ts";
import { type Digest, startDigest } from "./offline-summary-digest.ts";
import { readPreviousSummary } from "./offline-summary-previous.ts";
import { historySections } from "./offline-summary-sections.ts";
import type { CompactionPlan, PlanMessages } from "./plan.ts";
import { NO_PRIOR_HISTORY } from "./prompts.ts";
import { type GenerateResult, joinSplitSummary, planFields } from "./summarize.ts";

export const OFFLINE_SUMMARY_NOTICE =
  "_This summary was generated offline from the session itself, without a model._";

/** The latest `max` of a list, with a note on how many earlier ones were left out. */
function latest<T>(list: readonly T[], max: number, render: (t: T) => string): string[] {
  const shown = list.slice(-max).map(render);
  return list.length > max ? [`(${list.length - max} earlier left out)`, ...shown] : shown;
}

function bullets(lines: readonly string[], empty: string): string[] {
  return lines.length > 0 ? lines.map((l) => `- ${l}`) : [`- ${empty}`];
}

function ofKind(items: readonly CoverageCandidate[], kind: CoverageKind): CoverageCandidate[] {
  return items.filter((i) => i.kind === kind);
}

/** What a part of the summary is written from: the digest and the coverage items of its range. */
interface PartInput {
  digest: Digest;
  items: CoverageCandidate[];
}

function historyPart({ digest, items }: PartInput, previous: string | undefined): string {
  return historySections({
    digest,
    items,
    previous: previous?.trim() ? readPreviousSummary(previous) : undefined,
  });
}

function prefixPart({ digest: d, items }: PartInput): string {
  const request = d.requests[0];
  const out = [
    "## Original Request",
    request
      ? request.replace(/\n+/g, " / ")
      : d.firstWords
        ? `(No new request: the turn began with "${d.firstWords}".)`
        : "(No request text in this part.)",
  ];
  const early = d.outcomes.map((o) => `${o.target}${o.ok ? "" : ` failed${o.error ? `: ${o.error}` : ""}`}`);
  out.push(
    "",
    "## Early Progress",
    ...bullets(
      latest([...new Set(early)], 20, (x) => x),
      "No tool calls yet.",
    ),
  );
  const context: string[] = [];
  for (const i of ofKind(items, "instruction")) context.push(`Rule: ${i.text}`);
  for (const f of ofKind(items, "file"))
    context.push(`${f.detail === "modified" ? "Changed" : "File"}: ${codeSpan(f.text)}`);
  for (const c of ofKind(items, "command")) context.push(`Ran: ${codeSpan(c.text)}`);
  for (const e of ofKind(items, "error")) context.push(`Error: ${e.text}`);
  for (const n of [...ofKind(items, "identifier"), ...ofKind(items, "value"), ...ofKind(items, "url")])
    context.push(`Named: ${n.kind === "url" ? n.text : codeSpan(n.text)}`);
  for (const t of ofKind(items, "todo")) context.push(`To do: ${t.text}`);
  for (const x of d.decisions) context.push(`Decided: ${x}`);
  for (const p of d.lastPlan) context.push(`Last stated plan: ${p}`);
  out.push("", "## Context for Suffix", ...bullets(context.slice(-60), "Nothing beyond the request."));
  return out.join("\n");
}

/** The offline summary's text (without the file blocks) from the inputs of its parts. */
function summaryText(
  plan: CompactionPlan,
  history: PartInput | undefined,
  prefix: PartInput | undefined,
): string {
  const body = history
    ? historyPart(history, plan.previousSummary)
    : plan.previousSummary?.trim()
      ? plan.previousSummary.replace(OFFLINE_SUMMARY_NOTICE, "").trim()
      : NO_PRIOR_HISTORY;
  const text = `${OFFLINE_SUMMARY_NOTICE}\n\n${body}`;
  return prefix ? joinSplitSummary(text, prefixPart(prefix)) : text;
}

/** A part's inputs read a few messages at a time: first the digest, then the coverage items. */
function startPart(range: PlanMessages) {
  const digest = startDigest(range.messages);
  const extraction = startCoverageExtraction([range]);
  let digested = false;
  return {
    step(count: number): boolean {
      if (!digested) digested = digest.step(count);
      return digested && extraction.step(count);
    },
    input: (): PartInput => ({ digest: digest.digest(), items: extraction.items() }),
  };
}

/** An offline compaction written a few messages at a time (the app runs it over several tasks). */
export interface OfflineCompaction {
  /** Reads up to about `count` more messages (twice that at most); true once all are read. */
  step(count: number): boolean;
  /** The result (call once `step` returned true). */
  result(): GenerateResult;
}

/**
 * The offline compaction of a plan, in steps: the history part (unless a split turn has no
 * history) and the split turn's prefix part. `generateOfflineCompaction` is this run to the end.
 */
export function startOfflineCompaction(plan: CompactionPlan): OfflineCompaction {
  if (plan.summarizeCount === 0 && plan.turnPrefixCount === 0)
    return {
      step: () => true,
      result: () => ({ ok: false, error: "Nothing to summarize.", aborted: false }),
    };
  const text = startOfflineText(plan);
  return {
    step: text.step,
    result: () => ({
      ok: true,
      fields: planFields(plan, text.text() + formatFileBlocks(plan.fileOps)),
      usage: emptyUsage(),
    }),
  };
}

/** The summary's text (without the file blocks), in steps: its parts' inputs, then the text. */
function startOfflineText(plan: CompactionPlan) {
  const split = plan.isSplitTurn && plan.turnPrefixCount > 0;
  const history =
    plan.messagesToSummarize.messages.length > 0 || !split ? startPart(plan.messagesToSummarize) : undefined;
  const prefix = split ? startPart(plan.turnPrefixMessages) : undefined;
  return {
    step: (count: number) => (history ? history.step(count) : true) && (prefix ? prefix.step(count) : true),
    text: () => summaryText(plan, history?.input(), prefix?.input()),
  };
}

/** Runs a stepped job to the end. */
function runToEnd(job: { step(count: number): boolean }): void {
  while (!job.step(Number.POSITIVE_INFINITY));
}

/** Offline compaction: same result shape as generateCompaction (never fails unless nothing to summarize). */
export function generateOfflineCompaction(plan: CompactionPlan): GenerateResult {
  const job = startOfflineCompaction(plan);
  runToEnd(job);
  return job.result();
}

/** The offline summary text of a plan (without the file blocks). */
export function offlineSummaryText(plan: CompactionPlan): string {
  const job = startOfflineText(plan);
  runToEnd(job);
  return job.text();
}
