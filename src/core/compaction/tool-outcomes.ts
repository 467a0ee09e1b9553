/**
 * The outcome of each tool call and failed model reply in a range, read in order, and when a
 * failure was resolved later: the same target succeeded (the same command, an edit of the same
 * file), the failed command ran with an argument (`npx tsx` then `npx tsx src/cli.ts`), the model
 * answered again, or a file the error names was changed. One rule for the offline summary's
 * Blocked and the coverage check's "resolved later"; linear in the range.
 */

import { salientCommands, toolCallCommand } from "../coverage/coverage-commands.ts";
import { clip, codeSpan, contentText, errorLineOf, pathsInText } from "../coverage/coverage-text.ts";
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage } from "../session/types.ts";
import { callFileOp } from "./file-ops.ts";

export interface ToolOutcome {
  /** A read-only shell command (grep, ls, git status ...): its failures are not blockers. */
  exploration?: true;
  /** "edit `path`", "bash `npm run check`": what was attempted. */
  target: string;
  tool: string;
  ok: boolean;
  /** For a failure: something later fixed it (see the file's comment). */
  resolved: boolean;
  /** The first error line of a failure. */
  error?: string;
  /** The salient command of a shell call. */
  command?: string;
  /** The call was stopped (aborted, interrupted), not failed on its own. */
  aborted?: true;
}

function targetOf(call: ToolCall): { target: string; exploration: boolean; command?: string } {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  const command = toolCallCommand(call.name, args);
  if (command) {
    const salient = salientCommands(command);
    const shown = salient[0] ?? clip(command.split("\n", 1)[0] ?? "", 80);
    const out = { target: `${call.name} ${codeSpan(shown)}`, exploration: salient.length === 0 };
    return salient[0] ? { ...out, command: salient[0] } : out;
  }
  const path = typeof args.path === "string" ? args.path : undefined;
  return { target: path ? `${call.name} ${codeSpan(path)}` : call.name, exploration: false };
}

/** A path without its extension and leading ./ or ../ (`config.js` in an error names `config.ts`). */
function pathStem(path: string): string {
  return path.replace(/^(?:\.\.?\/)+/, "/").replace(/\.[A-Za-z]\w*$/, "");
}

const STOPPED = /\b(?:aborted|interrupted|cancell?ed)\b/i;

/** An error line of a call the person stopped (aborted, interrupted), not one that failed on its own. */
export function isStoppedError(line: string): boolean {
  return STOPPED.test(line);
}

export interface OutcomeTracker {
  /** Reads one message; returns the outcome it adds (a tool result, a failed reply), if any. */
  read(m: AgentMessage): ToolOutcome | undefined;
  /** The call a tool result answers. */
  callOf(toolCallId: string): ToolCall | undefined;
  /** Every outcome so far, in order (their `resolved` updates as later messages are read). */
  readonly outcomes: ToolOutcome[];
}

export function createOutcomeTracker(): OutcomeTracker {
  const outcomes: ToolOutcome[] = [];
  const calls = new Map<string, ToolCall>();
  /** Per target, its outcomes since its last success (that one included): not resolved yet. */
  const lastByTarget = new Map<string, ToolOutcome[]>();
  const failedReplies: ToolOutcome[] = [];
  const failedCommands: ToolOutcome[] = [];
  const failuresOnFiles: { outcome: ToolOutcome; stems: string[] }[] = [];

  const resolveWhere = <T>(list: T[], done: (t: T) => boolean, mark: (t: T) => void) => {
    for (let i = list.length - 1; i >= 0; i--)
      if (done(list[i]!)) {
        mark(list[i]!);
        list.splice(i, 1);
      }
  };

  const onSuccess = (call: ToolCall, command: string | undefined) => {
    const op = callFileOp(call.name, call.arguments);
    if (op?.kind === "modified" && failuresOnFiles.length > 0) {
      const changed = pathStem(op.path);
      resolveWhere(
        failuresOnFiles,
        (f) => f.outcome.resolved || f.stems.some((s) => changed.endsWith(s)),
        (f) => {
          f.outcome.resolved = true;
        },
      );
    }
    if (command && failedCommands.length > 0)
      resolveWhere(
        failedCommands,
        (f) => f.resolved || command.startsWith(`${f.command} `),
        (f) => {
          f.resolved = true;
        },
      );
  };

  const fromAssistant = (a: AssistantMessage): ToolOutcome | undefined => {
    const content = Array.isArray(a.content) ? a.content : [];
    for (const b of content) if (b?.type === "toolCall" && typeof b.id === "string") calls.set(b.id, b);
    if (a.stopReason === "error" && a.errorMessage) {
      const failed: ToolOutcome = {
        target: "model reply",
        tool: "assistant",
        ok: false,
        resolved: false,
        error: clip(a.errorMessage, 200),
      };
      failedReplies.push(failed);
      outcomes.push(failed);
      return failed;
    }
    // The model answered again: its earlier failed replies are behind.
    for (const f of failedReplies) f.resolved = true;
    failedReplies.length = 0;
    return undefined;
  };

  const fromResult = (r: ToolResultMessage): ToolOutcome => {
    const call = calls.get(r.toolCallId);
    const t = call ? targetOf(call) : { target: String(r.toolName), exploration: false };
    const outcome: ToolOutcome = {
      target: t.target,
      tool: String(r.toolName),
      ok: r.isError !== true,
      resolved: false,
    };
    if (t.exploration) outcome.exploration = true;
    if (t.command) outcome.command = t.command;
    // A success resolves the outcomes of its target since its last success (older ones are
    // resolved already; a list of all would make this quadratic in how often a target comes back).
    const pending = lastByTarget.get(t.target);
    if (outcome.ok) {
      if (call) onSuccess(call, t.command);
      if (pending) for (const earlier of pending) earlier.resolved = true;
      lastByTarget.set(t.target, [outcome]);
    } else {
      if (outcome.command) failedCommands.push(outcome);
      const line = errorLineOf(contentText(r.content));
      if (line) {
        outcome.error = line;
        if (isStoppedError(line)) outcome.aborted = true;
        const stems = pathsInText(line)
          .filter((p) => p.includes("/"))
          .map(pathStem);
        if (stems.length > 0) failuresOnFiles.push({ outcome, stems });
      }
      if (pending) pending.push(outcome);
      else lastByTarget.set(t.target, [outcome]);
    }
    outcomes.push(outcome);
    return outcome;
  };

  return {
    outcomes,
    callOf: (id) => calls.get(id),
    read(m) {
      if (m.role === "assistant") return fromAssistant(m as AssistantMessage);
      if (m.role === "toolResult") return fromResult(m as ToolResultMessage);
      return undefined;
    },
  };
}

/** Failures nothing later fixed: the latest per target, commands and edits only (not stopped calls). */
export function openFailures(outcomes: readonly ToolOutcome[]): ToolOutcome[] {
  const latest = new Map<string, ToolOutcome>();
  for (const o of outcomes) {
    if (o.ok || o.resolved) latest.delete(o.target);
    else if (!o.exploration && !o.aborted) latest.set(o.target, o);
  }
  return [...latest.values()].slice(-5);
}
