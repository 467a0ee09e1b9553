/**
 * What the offline summary reads from a range of messages: the person's real requests (not
 * slash commands, pastes or acknowledgements), the outcome of each tool call (done or failed,
 * and whether a later call on the same target fixed a failure), the assistant's stated
 * decisions and its last stated plan, and whether the range ends with the work still open.
 */
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage } from "../session/types.ts";
import { salientCommands, toolCallCommand } from "./coverage-commands.ts";
import { isAcknowledgement, isDecision } from "./coverage-lang.ts";
import { clip, codeSpan, contentText, errorLineOf, sentences, splitProse } from "./coverage-text.ts";

const REQUEST_CHARS = 400;
const DECISION_CHARS = 240;
const PLAN_CHARS = 240;

export interface ToolOutcome {
  /** A read-only shell command (grep, ls, git status ...): its failures are not blockers. */
  exploration?: true;
  /** "edit `path`", "bash `npm run check`": what was attempted. */
  target: string;
  tool: string;
  ok: boolean;
  /** For a failure: a later call on the same target succeeded. */
  resolved: boolean;
  /** The first error line of a failure. */
  error?: string;
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

function targetOf(call: ToolCall): { target: string; exploration: boolean } {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  const command = toolCallCommand(call.name, args);
  if (command) {
    const salient = salientCommands(command);
    const shown = salient[0] ?? clip(command.split("\n", 1)[0] ?? "", 80);
    return { target: `${call.name} ${codeSpan(shown)}`, exploration: salient.length === 0 };
  }
  const path = typeof args.path === "string" ? args.path : undefined;
  return { target: path ? `${call.name} ${codeSpan(path)}` : call.name, exploration: false };
}

function planOf(text: string): string[] {
  const items = text
    .split("\n")
    .filter((l) => !/^\s*[-*+]\s+\[[xX]\]/.test(l))
    .map((l) => /^\s*(?:[-*+]|\d+[.)])\s+(?:\[ \]\s+)?(.+)/.exec(l)?.[1])
    .filter((l): l is string => l !== undefined);
  if (items.length > 0) return items.slice(-6).map((l) => clip(l, PLAN_CHARS));
  const s = sentences(splitProse(text).prose);
  return s.slice(-2).map((l) => clip(l, PLAN_CHARS));
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
  const d: Digest = { requests: [], pastes: 0, outcomes: [], decisions: [], lastPlan: [], open: false };
  const calls = new Map<string, ToolCall>();
  /** Per target, its outcomes since its last success (that one included): not resolved yet. */
  const lastByTarget = new Map<string, ToolOutcome[]>();
  let lastAssistantText = "";
  let at = 0;
  const read = (m: AgentMessage) => {
    if (m.role === "user") {
      const said = contentText(m.content);
      d.firstWords ??= clip(said, REQUEST_CHARS);
      const r = realRequest(said);
      if (r.pasted) d.pastes++;
      if (r.request !== undefined) {
        d.requests.push(r.request);
        d.open = true;
      }
    } else if (m.role === "assistant") {
      const a = m as AssistantMessage;
      const content = Array.isArray(a.content) ? a.content : [];
      for (const b of content) if (b?.type === "toolCall" && typeof b.id === "string") calls.set(b.id, b);
      const text = contentText(content).trim();
      if (text) lastAssistantText = text;
      const hasCalls = content.some((b) => b?.type === "toolCall");
      if (!hasCalls && a.stopReason === "stop" && text) d.open = false;
      if (a.stopReason === "error" && a.errorMessage)
        d.outcomes.push({
          target: "model reply",
          tool: "assistant",
          ok: false,
          resolved: false,
          error: clip(a.errorMessage, 200),
        });
    } else if (m.role === "toolResult") {
      const r = m as ToolResultMessage;
      const call = calls.get(r.toolCallId);
      const t = call ? targetOf(call) : { target: String(r.toolName), exploration: false };
      const target = t.target;
      const outcome: ToolOutcome = {
        target,
        tool: String(r.toolName),
        ok: r.isError !== true,
        resolved: false,
      };
      if (t.exploration) outcome.exploration = true;
      // A success resolves every earlier outcome of its target: only those since the last success
      // are kept to be marked (the older ones are resolved already; a list of all would make
      // this quadratic in how often a target comes back).
      const pending = lastByTarget.get(target);
      if (!outcome.ok) {
        const line = errorLineOf(contentText(r.content));
        if (line) outcome.error = line;
        if (pending) pending.push(outcome);
        else lastByTarget.set(target, [outcome]);
      } else {
        if (pending) for (const earlier of pending) earlier.resolved = true;
        lastByTarget.set(target, [outcome]);
      }
      d.outcomes.push(outcome);
    }
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
 * read from the end, so that a long range costs only its last messages with a decision.
 */
function latestDecisions(messages: readonly AgentMessage[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  for (let i = messages.length - 1; i >= 0 && found.length < DECISIONS_KEPT; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
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
