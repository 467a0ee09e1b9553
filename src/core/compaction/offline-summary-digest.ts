/**
 * What the offline summary reads from a range of messages: the person's real requests (not
 * slash commands, pastes or acknowledgements), the outcome of each tool call (done or failed,
 * and whether a later call on the same target fixed a failure), the assistant's stated
 * decisions and its last stated plan, whether the range ends with the work still open, the files
 * changed (with the request they served), commits made, and the names the messages return to.
 */

import { toolCallCommand } from "../coverage/coverage-commands.ts";
import { isAcknowledgement, isDecision } from "../coverage/coverage-lang.ts";
import { clip, contentText, sentences, splitProse } from "../coverage/coverage-text.ts";
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage } from "../session/types.ts";
import { callFileOp } from "./file-ops.ts";
import { createOutcomeTracker, type ToolOutcome } from "./tool-outcomes.ts";

export type { ToolOutcome } from "./tool-outcomes.ts";

import { createNameTally, type NameTally } from "./offline-summary-names.ts";

const REQUEST_CHARS = 400;
const DECISION_CHARS = 240;
const PLAN_CHARS = 240;

/** A file the range changed: how it was first changed, and the request it served (index in `requests`, -1: none). */
export interface Touched {
  path: string;
  op: "written" | "edited";
  request: number;
}

export interface Digest {
  requests: string[];
  /** The first thing the person said in the range, request or not (clipped). */
  firstWords?: string;
  /** The person pasted material along with a request (log, JSON, stack trace). */
  pastes: number;
  outcomes: ToolOutcome[];
  decisions: string[];
  /** The list items or last sentences of the last assistant text. */
  lastPlan: string[];
  /** The last real request has no final assistant answer after it (or tool calls follow it). */
  open: boolean;
  touched: Touched[];
  /** Paths read (in order, once each). */
  reads: string[];
  /** Messages of `git commit -m` calls that succeeded. */
  commits: string[];
  /** Branches created (`git checkout -b`, `git switch -c`). */
  branches: string[];
  names: NameTally;
  /** Per changed file, the names its written or inserted code declares (first declared first). */
  defines: Map<string, string[]>;
}

/** The prose of a user message that makes a request, or undefined (slash command, paste only, acknowledgement). */
export function realRequest(text: string): { request?: string; pasted: boolean } {
  const t = text.trim();
  if (t === "" || /^\/[\w:-]+(?:\s|$)/.test(t)) return { pasted: false };
  const { prose, pasted } = splitProse(t);
  const said = prose.join("\n").trim();
  if (said === "" || isAcknowledgement(said)) return { pasted: pasted.length > 0 };
  return { request: clip(said, REQUEST_CHARS), pasted: pasted.length > 0 };
}

const COMMIT = /\bgit\s+commit\b[^\n]*?\s-[a-z]*m\s*(?:"((?:[^"\\]|\\.)+)"|'([^']+)')/;
const BRANCH = /\bgit\s+(?:checkout\s+-b|switch\s+-c)\s+([\w./-]+)/;

const DECLARED =
  /(?:^|\n)[ \t]*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:(?:async\s+)?function\*?|class|interface|type|enum|def|fn|struct|trait)\s+([A-Za-z_$][\w$]*)|(?:^|\n)(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)|(?:^|\n)[ \t]+(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>\n]*>)?\([^)\n]*\)\s*(?::\s*[^{\n]+)?\{/g;
const NOT_DECLARED = new Set(["if", "for", "while", "switch", "catch", "function", "return", "constructor"]);
const MAX_DECLARED = 150;
const CODE_FILE = /\.(?:[cm]?[jt]sx?|py|rs|go|java|kt|rb|php|swift|cs|c|h|cc|cpp|hpp|vue|svelte)$/;

const PROSE_FILE = /\.(?:md|mdx|txt|rst)$/i;

/** The text a write or edit call puts in a file. */
function newTexts(args: unknown): string[] {
  const a = (args ?? {}) as Record<string, unknown>;
  const edits = Array.isArray(a.edits) ? (a.edits as { newText?: unknown }[]).map((e) => e?.newText) : [];
  return [a.content, a.newText, a.new_string, ...edits].filter((t): t is string => typeof t === "string");
}

/** The names the code a write or edit call puts in a file declares (functions, classes, types, methods). */
function addDeclared(defines: Map<string, string[]>, path: string, args: unknown): void {
  const texts = newTexts(args);
  if (texts.length === 0 || !CODE_FILE.test(path)) return;
  const list = defines.get(path) ?? [];
  for (const t of texts)
    for (const m of t.slice(0, 200_000).matchAll(DECLARED)) {
      const name = m[1] ?? m[2] ?? m[3];
      if (!name || name.length < 3 || NOT_DECLARED.has(name) || list.includes(name)) continue;
      if (list.length >= MAX_DECLARED) break;
      list.push(name);
    }
  if (list.length > 0) defines.set(path, list);
}

function commandOfCall(call: ToolCall | undefined): string | undefined {
  return call ? toolCallCommand(call.name, call.arguments) : undefined;
}

const FUTURE =
  /\b(?:next|plan|steps?|to ?do|remaining|will|going to|should|need to|let me|let's|then|now)\b|\?\s*$/i;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[ \]\s+)?(.+)/;

/**
 * The assistant's last stated plan: the list after a lead-in that looks ahead ("Next steps:",
 * "I will …:"), else its last sentences that look ahead or ask; a recap of finished work is not a plan.
 */
function planOf(text: string): string[] {
  const lines = text.split("\n").filter((l) => !/^\s*[-*+]\s+\[[xX]\]/.test(l));
  let lead = "";
  let items: string[] = [];
  for (const l of lines) {
    const item = LIST_ITEM.exec(l)?.[1];
    if (item !== undefined) items.push(item);
    else if (l.trim() !== "") {
      lead = l;
      items = [];
    }
  }
  if (items.length > 0 && (FUTURE.test(lead) || /\[ \]/.test(text)))
    return items.slice(0, 6).map((l) => clip(l, PLAN_CHARS));
  const s = sentences(splitProse(text).prose.filter((l) => !LIST_ITEM.test(l)));
  return s
    .slice(-3)
    .filter((l) => FUTURE.test(l))
    .slice(-2)
    .map((l) => clip(l, PLAN_CHARS));
}

/** A digest read a few messages at a time (the app reads a big range over several tasks). */
export interface DigestReader {
  /** Reads up to `count` more messages; true once all are read. */
  step(count: number): boolean;
  /** The digest (call once `step` returned true). */
  digest(): Digest;
}

/** Reads a range of messages in order, in steps (digestMessages is this run to the end). */
export function startDigest(messages: readonly AgentMessage[]): DigestReader {
  const d: Digest = {
    requests: [],
    pastes: 0,
    outcomes: [],
    decisions: [],
    lastPlan: [],
    open: false,
    touched: [],
    reads: [],
    commits: [],
    branches: [],
    names: createNameTally(),
    defines: new Map(),
  };
  const touchedPaths = new Set<string>();
  const readPaths = new Set<string>();
  const tracker = createOutcomeTracker();
  d.outcomes = tracker.outcomes;
  let lastAssistantText = "";
  let at = 0;
  const read = (m: AgentMessage) => {
    if (m.role === "user") {
      const said = contentText(m.content);
      d.firstWords ??= clip(said, REQUEST_CHARS);
      const r = realRequest(said);
      d.names.add(splitProse(said).prose.join("\n"), 3, at);
      if (r.pasted) d.pastes++;
      if (r.request !== undefined) {
        d.requests.push(r.request);
        d.open = true;
      }
    } else if (m.role === "assistant") {
      const a = m as AssistantMessage;
      const content = Array.isArray(a.content) ? a.content : [];
      const text = contentText(content).trim();
      if (text) {
        lastAssistantText = text;
        d.names.add(text, 1, at);
      }
      const hasCalls = content.some((b) => b?.type === "toolCall");
      if (!hasCalls && a.stopReason === "stop" && text) d.open = false;
      tracker.read(m);
    } else if (m.role === "toolResult") {
      const outcome = tracker.read(m);
      const call = tracker.callOf((m as ToolResultMessage).toolCallId);
      if (outcome?.ok && call) noteSuccess(call);
    }
  };
  /** What a call that succeeded changed: a file, a commit, a branch. */
  const noteSuccess = (call: ToolCall) => {
    const op = callFileOp(call.name, call.arguments);
    if (op?.kind === "modified") {
      addDeclared(d.defines, op.path, call.arguments);
      // A plan or note the assistant writes names the files and names of the work, as its prose does.
      if (PROSE_FILE.test(op.path)) for (const t of newTexts(call.arguments)) d.names.add(t, 1, at);
    }
    if (op?.kind === "modified" && !touchedPaths.has(op.path)) {
      touchedPaths.add(op.path);
      d.touched.push({
        path: op.path,
        op: call.name === "write" ? "written" : "edited",
        request: d.requests.length - 1,
      });
    } else if (op?.kind === "read" && !readPaths.has(op.path)) {
      readPaths.add(op.path);
      d.reads.push(op.path);
    }
    const line = commandOfCall(call);
    if (!line) return;
    const commit = COMMIT.exec(line);
    if (commit) d.commits.push(clip((commit[1] ?? commit[2] ?? "").split("\\n")[0]!, 120));
    const branch = BRANCH.exec(line);
    if (branch && !d.branches.includes(branch[1]!)) d.branches.push(branch[1]!);
  };
  return {
    step(count) {
      const end = Math.min(messages.length, at + count);
      for (; at < end; at++) read(messages[at]!);
      return at >= messages.length;
    },
    digest() {
      d.lastPlan = lastAssistantText ? planOf(lastAssistantText) : [];
      d.decisions = latestDecisions(messages);
      return d;
    },
  };
}

/** Reads a range of messages (in order). */
export function digestMessages(messages: readonly AgentMessage[]): Digest {
  const reader = startDigest(messages);
  reader.step(Number.POSITIVE_INFINITY);
  return reader.digest();
}

const DECISIONS_KEPT = 6;
const QUESTION_OR_LEAD_IN = /[?:]$/;

/**
 * The last few distinct decisions or findings the assistant stated, in the order last stated:
 * read from the end, so that a long range costs only its last messages with a decision
 * (`maxAssistant`: at most that many assistant messages are read).
 */
export function latestDecisions(
  messages: readonly AgentMessage[],
  maxAssistant = Number.POSITIVE_INFINITY,
): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  let read = 0;
  for (let i = messages.length - 1; i >= 0 && found.length < DECISIONS_KEPT && read < maxAssistant; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    read++;
    const text = contentText(m.content).trim();
    if (!text) continue;
    const said = sentences(splitProse(text).prose);
    for (let k = said.length - 1; k >= 0 && found.length < DECISIONS_KEPT; k--) {
      const s = said[k]!;
      if (!isDecision(s) || QUESTION_OR_LEAD_IN.test(s) || s.startsWith("#")) continue;
      const clipped = clip(s, DECISION_CHARS);
      if (seen.has(clipped)) continue;
      seen.add(clipped);
      found.push(clipped);
    }
  }
  return found.reverse();
}
