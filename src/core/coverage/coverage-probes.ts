/** Probes without a model: questions about a summarized range whose answers are known, and whether a summary answers each. */

import { latestDecisions, realRequest } from "../compaction/offline-summary-digest.ts";
import { projectRoot } from "../compaction/offline-summary-sections.ts";
import { leadSentences } from "../compaction/offline-summary-sentences.ts";
import { isStoppedError } from "../compaction/tool-outcomes.ts";
import type { AgentMessage, ToolResultMessage } from "../session/types.ts";
import { isCovered, type PreparedSummary, prepareSummary } from "./coverage.ts";
import { salientCommands, toolCallCommand } from "./coverage-commands.ts";
import type { CoverageCandidate, CoverageRange } from "./coverage-extract.ts";
import { findingsOf } from "./coverage-findings.ts";
import { clip, codeSpan, contentText } from "./coverage-text.ts";

export type ProbeId = "files" | "last-request" | "rules" | "last-failure" | "decisions";

/** Something a summary must mention to answer a probe (matched as a coverage item of that kind). */
export type ProbeNeed = Pick<CoverageCandidate, "kind" | "text">;

export interface Probe {
  id: ProbeId;
  question: string;
  /** The known answer, in words. */
  expected: string;
  needs: ProbeNeed[];
  /** How many of `needs` the summary must mention (at least one). */
  atLeast: number;
  /** A failure fixed later: answered only if the summary does not list this under Blocked. */
  notBlocked?: ProbeNeed;
  /** The entry the answer comes from (the latest one). */
  entryId?: string;
}

export interface ProbeResult extends Probe {
  answered: boolean;
  /** Needs the summary mentions. */
  found: number;
  /** Needs it does not mention (their text). */
  missing: string[];
  /** The fixed failure is listed under Blocked as if still open. */
  listedAsBlocked?: true;
}

export interface ProbeReport {
  probes: ProbeResult[];
  answered: number;
  total: number;
}

/** Share of a list probe's needs (files changed, rules) that answers it. */
export const PROBE_SHARE = 0.8;
const DECISIONS_ASKED = 3;
/** Assistant messages read from the end for decisions (a range without any costs no more). */
const DECISION_SCAN = 400;

function atLeast(n: number, share: number): number {
  return Math.max(1, Math.ceil(n * share));
}

/** Paths as code spans, relative to the directory they share (the expected answer stays short). */
function names(list: readonly string[], max: number): string {
  const root = list.length > 1 ? projectRoot(list) : undefined;
  const short = (p: string) => (root && p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p);
  const shown = list
    .slice(0, max)
    .map((p) => codeSpan(short(p)))
    .join(", ");
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}

/** A message's place in the ranges: range, then index. */
type At = [number, number];

/** Messages of the ranges from the last one back (from before `from` when given), with their entry ids and places. */
function* backwards(
  ranges: readonly CoverageRange[],
  from?: At,
): Generator<[AgentMessage, string | undefined, At]> {
  for (let ri = from?.[0] ?? ranges.length - 1; ri >= 0; ri--) {
    const { messages, entryIds } = ranges[ri]!;
    const start = from && ri === from[0] ? from[1] - 1 : messages.length - 1;
    for (let i = start; i >= 0; i--) yield [messages[i]!, entryIds[i], [ri, i]];
  }
}

function lastRequestProbe(ranges: readonly CoverageRange[]): Probe | undefined {
  for (const [m, id] of backwards(ranges)) {
    if (m.role !== "user") continue;
    const request = realRequest(contentText(m.content)).request;
    if (request === undefined) continue;
    const said = leadSentences(request, 2, 300);
    const probe: Probe = {
      id: "last-request",
      question: "What did the person ask last?",
      expected: said,
      needs: [{ kind: "todo", text: said }],
      atLeast: 1,
    };
    if (id !== undefined) probe.entryId = id;
    return probe;
  }
  return undefined;
}

/** The call a tool result answers, looked for in the messages before it. */
function callOf(ranges: readonly CoverageRange[], result: ToolResultMessage, at: At) {
  for (const [m] of backwards(ranges, at)) {
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    for (const b of m.content) if (b?.type === "toolCall" && b.id === result.toolCallId) return b;
  }
  return undefined;
}

/** The last failure of a command or an edit (not a look-around command, not a stopped call), as a probe. */
function lastFailureProbe(
  ranges: readonly CoverageRange[],
  items: readonly CoverageCandidate[],
): Probe | undefined {
  for (const [m, id, at] of backwards(ranges)) {
    const failed =
      (m.role === "toolResult" && m.isError === true) ||
      (m.role === "bashExecution" &&
        !m.excludeFromContext &&
        typeof m.exitCode === "number" &&
        m.exitCode !== 0);
    if (!failed) continue;
    const error = findingsOf(m).find((f) => f.kind === "error");
    if (!error || isStoppedError(error.text)) continue;
    const item = items.find((i) => i.kind === "error" && i.key === `error:${error.norm}`);
    let command: string | undefined;
    let path: string | undefined;
    let tool = "shell";
    if (m.role === "bashExecution") command = m.command;
    else {
      const call = callOf(ranges, m as ToolResultMessage, at);
      command = call ? toolCallCommand(call.name, call.arguments) : undefined;
      const args = (call?.arguments ?? {}) as Record<string, unknown>;
      if (typeof args.path === "string") path = args.path;
      tool = String(call?.name ?? (m as ToolResultMessage).toolName);
    }
    const salient = command === undefined ? undefined : salientCommands(command)[0];
    // A failed grep or ls says nothing of the work.
    if (command !== undefined && salient === undefined) continue;
    const what: ProbeNeed | undefined = salient
      ? { kind: "command", text: salient }
      : path
        ? { kind: "file", text: path }
        : undefined;
    const fixed = item?.resolved === true;
    const errorNeed: ProbeNeed = { kind: "error", text: error.text };
    const subject = what
      ? `${what.kind === "file" ? `${tool} of ` : ""}${codeSpan(what.text)} failed`
      : `A ${tool} call failed`;
    const probe: Probe = {
      id: "last-failure",
      question: "What failed last, and was it fixed?",
      expected: `${subject}: ${clip(error.text, 160)} — ${fixed ? "fixed later" : "still open"}.`,
      // Fixed: the summary names what failed (and does not call it blocked); open: it names the error.
      needs: fixed ? [what ?? errorNeed] : [errorNeed],
      atLeast: 1,
    };
    if (fixed) probe.notBlocked = errorNeed;
    if (id !== undefined) probe.entryId = id;
    return probe;
  }
  return undefined;
}

function decisionsProbe(ranges: readonly CoverageRange[]): Probe | undefined {
  const found: string[] = [];
  for (let ri = ranges.length - 1; ri >= 0 && found.length < DECISIONS_ASKED; ri--)
    found.unshift(...latestDecisions(ranges[ri]!.messages, DECISION_SCAN));
  const asked = found.slice(-DECISIONS_ASKED);
  if (asked.length === 0) return undefined;
  return {
    id: "decisions",
    question: "What was decided?",
    expected: asked.map((d) => `“${clip(d, 120)}”`).join("; "),
    needs: asked.map((text) => ({ kind: "instruction", text })),
    atLeast: atLeast(asked.length, 0.5),
  };
}

/**
 * The probes of a summarized range (a plan's coverage ranges) and its coverage items: files
 * modified, the person's last request, their rules, the last failure and whether it was fixed,
 * the last decisions. A probe with no answer in the range (no file changed, no rule) is left out.
 * Reads the items and the last messages of the range only.
 */
export function deriveProbes(ranges: readonly CoverageRange[], items: readonly CoverageCandidate[]): Probe[] {
  const out: Probe[] = [];
  const modified = items.filter((i) => i.kind === "file" && i.detail === "modified");
  if (modified.length > 0)
    out.push({
      id: "files",
      question: "Which files were modified?",
      expected: `${modified.length} file${modified.length === 1 ? "" : "s"}: ${names(
        modified.map((f) => f.text),
        4,
      )}`,
      needs: modified.map((f) => ({ kind: "file", text: f.text })),
      atLeast: atLeast(modified.length, PROBE_SHARE),
    });
  const request = lastRequestProbe(ranges);
  if (request) out.push(request);
  const rules = items.filter((i) => i.kind === "instruction");
  if (rules.length > 0)
    out.push({
      id: "rules",
      question: "Which rules did the person state?",
      expected: rules
        .slice(0, 3)
        .map((r) => `“${clip(r.text, 100)}”`)
        .join("; ")
        .concat(rules.length > 3 ? ` and ${rules.length - 3} more` : ""),
      needs: rules.map((r) => ({ kind: "instruction", text: r.text })),
      atLeast: atLeast(rules.length, PROBE_SHARE),
    });
  const failure = lastFailureProbe(ranges, items);
  if (failure) out.push(failure);
  const decisions = decisionsProbe(ranges);
  if (decisions) out.push(decisions);
  return out;
}

const HEADING = /^\s*(?:#{1,6}\s+|\*\*)/;
const BLOCKED_HEADING = /^\s*(?:#{1,6}\s+|\*\*)\s*blocked\b/i;

/** The text of a summary's Blocked sections (up to the next heading). */
export function blockedText(summary: string): string {
  const out: string[] = [];
  let inside = false;
  for (const line of summary.split("\n")) {
    if (HEADING.test(line)) inside = BLOCKED_HEADING.test(line);
    else if (inside) out.push(line);
  }
  return out.join("\n");
}

/** Checks a summary against the probes. */
export function checkProbes(
  summary: string,
  probes: readonly Probe[],
  prepared?: PreparedSummary,
): ProbeReport {
  const s = prepared ?? prepareSummary(summary);
  let blocked: PreparedSummary | undefined;
  const results = probes.map((p): ProbeResult => {
    const missing = p.needs.filter((n) => !isCovered(n, s)).map((n) => n.text);
    const found = p.needs.length - missing.length;
    const r: ProbeResult = { ...p, needs: [...p.needs], found, missing, answered: found >= p.atLeast };
    if (p.notBlocked) {
      blocked ??= prepareSummary(blockedText(summary));
      if (isCovered(p.notBlocked, blocked)) {
        r.listedAsBlocked = true;
        r.answered = false;
      }
    }
    return r;
  });
  return { probes: results, answered: results.filter((r) => r.answered).length, total: results.length };
}

/** "4 of 5 probes answered". */
export function probesFigure(report: Pick<ProbeReport, "answered" | "total">): string {
  return `${report.answered} of ${report.total} probe${report.total === 1 ? "" : "s"} answered`;
}

/** What a probe's result says beside its expected answer: "12 of 14 named", "listed as blocked". */
export function probeNote(r: ProbeResult): string {
  if (r.listedAsBlocked) return "listed as blocked, though fixed later";
  if (r.needs.length === 1) return r.answered ? "answered" : "not answered";
  return `${r.found} of ${r.needs.length} mentioned${r.answered ? "" : ` (needs ${r.atLeast})`}`;
}
