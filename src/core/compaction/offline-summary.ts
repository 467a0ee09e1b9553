/**
 * A structured summary built from the session itself, without a model: for people without an
 * API key, and as a fallback when the summarizer fails. The same sections a model is asked for
 * (Goal, Constraints & Preferences, Progress, Key Decisions, Next Steps, Critical Context; a split
 * turn's prefix in its own part), filled from the session and from the coverage items, so the
 * summary mentions what the coverage check looks for. Deterministic; same result shape as
 * generateCompaction so the preview can show, edit and confirm it the same way.
 */

import { emptyUsage } from "../session/usage.ts";
import type { CoverageCandidate, CoverageKind } from "./coverage-extract.ts";
import { startCoverageExtraction } from "./coverage-extract.ts";
import { codeSpan } from "./coverage-text.ts";
import { formatFileBlocks } from "./file-ops.ts";
import { type Digest, startDigest } from "./offline-summary-digest.ts";
import type { CompactionPlan, PlanMessages } from "./plan.ts";
import { NO_PRIOR_HISTORY } from "./prompts.ts";
import { type GenerateResult, joinSplitSummary, planFields } from "./summarize.ts";

export const OFFLINE_SUMMARY_NOTICE =
  "_This summary was generated offline from the session itself, without a model._";

const MAX_REQUESTS = 8;
const MAX_PER_KIND = 40;

function bullets(lines: readonly string[], empty: string): string[] {
  return lines.length > 0 ? lines.map((l) => `- ${l}`) : [`- ${empty}`];
}

function ofKind(items: readonly CoverageCandidate[], kind: CoverageKind): CoverageCandidate[] {
  return items.filter((i) => i.kind === kind);
}

/** The latest `max` of a list, with a note on how many earlier ones were left out. */
function latest<T>(list: readonly T[], max: number, render: (t: T) => string): string[] {
  const shown = list.slice(-max).map(render);
  return list.length > max ? [`(${list.length - max} earlier left out)`, ...shown] : shown;
}

function goalLines(d: Digest): string[] {
  if (d.requests.length === 0) return ["- No request from the person in this part."];
  const out = latest(d.requests, MAX_REQUESTS, (r) => r.replace(/\n+/g, " / ")).map((l) => `- ${l}`);
  if (d.pastes > 0)
    out.push(`- (The person pasted logs or output ${d.pastes} time(s); see Critical Context.)`);
  return out;
}

function progressLines(d: Digest, items: readonly CoverageCandidate[]): string[] {
  const done: string[] = [];
  const modified = ofKind(items, "file").filter((f) => f.detail === "modified");
  for (const f of modified.slice(-MAX_PER_KIND)) done.push(`[x] Changed ${codeSpan(f.text)}`);
  const unresolved = d.outcomes.filter((o) => !o.ok && !o.resolved && !o.exploration);
  const failedTargets = new Set(unresolved.map((o) => o.target));
  for (const c of ofKind(items, "command").slice(-MAX_PER_KIND)) {
    const failed = [...failedTargets].some((t) => t.endsWith(codeSpan(c.text)));
    if (!failed) done.push(`[x] Ran ${codeSpan(c.text)}`);
  }
  const blocked = unresolved.map((o) => `${o.target} failed${o.error ? `: ${o.error}` : ""}`);
  const out = ["### Done", ...bullets(done, "Nothing recorded as finished.")];
  out.push("", "### In Progress");
  const open = d.open ? d.requests[d.requests.length - 1] : undefined;
  out.push(open ? `- [ ] ${open.replace(/\n+/g, " / ")}` : "- Nothing open at the end of this part.");
  out.push("", "### Blocked", ...bullets([...new Set(blocked)].slice(-10), "Nothing."));
  return out;
}

function nextStepLines(d: Digest, items: readonly CoverageCandidate[]): string[] {
  const steps: string[] = [];
  const open = d.open ? d.requests[d.requests.length - 1] : undefined;
  if (open) steps.push(`Finish the open request: ${open.replace(/\n+/g, " / ")}`);
  for (const t of ofKind(items, "todo").slice(-MAX_PER_KIND)) steps.push(t.text);
  for (const p of d.lastPlan) if (!steps.includes(p)) steps.push(`(assistant's last plan) ${p}`);
  if (steps.length === 0) return ["1. Wait for the person's next request."];
  return steps.map((s, i) => `${i + 1}. ${s}`);
}

function criticalLines(d: Digest, items: readonly CoverageCandidate[]): string[] {
  const out: string[] = [];
  const errors = ofKind(items, "error");
  if (errors.length > 0) {
    out.push("Errors seen (latest last):");
    out.push(...latest(errors, 15, (e) => `- ${e.detail ? `${e.detail}: ` : ""}${e.text}`));
  }
  const named = [...ofKind(items, "identifier"), ...ofKind(items, "value")];
  if (named.length > 0)
    out.push(
      `Named by the person: ${named
        .slice(-MAX_PER_KIND)
        .map((n) => codeSpan(n.text))
        .join(", ")}`,
    );
  const urls = ofKind(items, "url");
  if (urls.length > 0) out.push("Links:", ...latest(urls, 20, (u) => `- ${u.text}`));
  const files = ofKind(items, "file");
  const mentioned = files.filter((f) => f.detail === "mentioned");
  if (mentioned.length > 0)
    out.push(
      `Files named: ${mentioned
        .slice(-MAX_PER_KIND)
        .map((f) => codeSpan(f.text))
        .join(", ")}`,
    );
  const read = files.filter((f) => f.detail === "read");
  if (read.length > 0)
    out.push(
      `Files read: ${read
        .slice(-MAX_PER_KIND)
        .map((f) => codeSpan(f.text))
        .join(", ")}`,
    );
  const last = d.outcomes.filter((o) => o.ok).slice(-5);
  if (last.length > 0) out.push(`Last tool calls: ${last.map((o) => o.target).join("; ")}`);
  return out.length > 0 ? out : ["- Nothing beyond the files listed below."];
}

/** A previous summary carried along, its headings moved below ours and its file blocks left to the details. */
function earlierSummary(previous: string): string {
  const body = previous
    .replace(OFFLINE_SUMMARY_NOTICE, "")
    .replace(/<(read|modified)-files>[\s\S]*?<\/\1-files>/g, "")
    .trim()
    .replace(/^(#{1,4})(?=\s)/gm, "$1##");
  return ["## Earlier Summary", "(The summary of the part before, kept as it was.)", "", body].join("\n");
}

/** What a part of the summary is written from: the digest and the coverage items of its range. */
interface PartInput {
  digest: Digest;
  items: CoverageCandidate[];
}

function historyPart({ digest: d, items }: PartInput, previous: string | undefined): string {
  const out = ["## Goal", ...goalLines(d)];
  const rules = ofKind(items, "instruction").map((i) => i.text);
  out.push("", "## Constraints & Preferences", ...bullets(rules, "None stated in this part."));
  out.push("", "## Progress", ...progressLines(d, items));
  out.push("", "## Key Decisions", ...bullets(d.decisions, "None recorded."));
  out.push("", "## Next Steps", ...nextStepLines(d, items));
  out.push("", "## Critical Context", ...criticalLines(d, items));
  if (previous?.trim()) out.push("", earlierSummary(previous));
  return out.join("\n");
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
      ? earlierSummary(plan.previousSummary)
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
