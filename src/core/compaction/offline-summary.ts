/**
 * A structured summary built from the session itself, without a model: for people without an
 * API key, and as a fallback when the summarizer fails. Deterministic; same result shape as
 * generateCompaction so the preview can show, edit and confirm it the same way.
 */
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../session/types.ts";
import { formatFileBlocks } from "./file-ops.ts";
import type { CompactionPlan } from "./plan.ts";
import { type GenerateResult, planFields, zeroUsage } from "./summarize.ts";

export const OFFLINE_SUMMARY_NOTICE =
  "_This summary was generated offline from the session itself, without a model._";

const REQUEST_CHARS = 600;
const CONCLUSION_CHARS = 800;
const ERROR_CHARS = 200;
const MAX_ERRORS = 10;
const MAX_CONCLUSIONS = 3;

function clip(text: string, max: number): string {
  const t = text.trim().replace(/\s+\n/g, "\n");
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: "text"; text: string } => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}

interface Digest {
  requests: string[];
  toolCounts: Map<string, number>;
  errors: string[];
  conclusions: string[];
}

function digest(messages: readonly AgentMessage[]): Digest {
  const d: Digest = { requests: [], toolCounts: new Map(), errors: [], conclusions: [] };
  for (const m of messages) {
    if (m.role === "user") {
      const t = textOf(m.content).trim();
      if (t) d.requests.push(t);
    } else if (m.role === "assistant") {
      const a = m as AssistantMessage;
      for (const b of Array.isArray(a.content) ? a.content : []) {
        if (b?.type === "toolCall" && typeof b.name === "string")
          d.toolCounts.set(b.name, (d.toolCounts.get(b.name) ?? 0) + 1);
      }
      const t = textOf(a.content).trim();
      if (t) d.conclusions.push(t);
      if (a.stopReason === "error" && a.errorMessage)
        d.errors.push(`assistant reply: ${clip(a.errorMessage, ERROR_CHARS)}`);
    } else if (m.role === "toolResult") {
      const r = m as ToolResultMessage;
      if (r.isError) {
        const first = textOf(r.content).trim().split("\n")[0] ?? "";
        d.errors.push(`${r.toolName}: ${clip(first, ERROR_CHARS)}`);
      }
    } else if (m.role === "bashExecution") {
      d.toolCounts.set("shell (!)", (d.toolCounts.get("shell (!)") ?? 0) + 1);
      if (typeof m.exitCode === "number" && m.exitCode !== 0)
        d.errors.push(`\`${clip(m.command, ERROR_CHARS)}\` exited with code ${m.exitCode}`);
    }
  }
  return d;
}

/** The offline summary text of a plan (without the file blocks). */
export function offlineSummaryText(plan: CompactionPlan): string {
  const messages = [...plan.messagesToSummarize.messages, ...plan.turnPrefixMessages.messages];
  const d = digest(messages);
  const out: string[] = [OFFLINE_SUMMARY_NOTICE, ""];
  out.push("## Goal");
  const first = d.requests[0];
  const latest = d.requests[d.requests.length - 1];
  if (first === undefined) out.push("- No user request in the summarized part.");
  else {
    out.push("First request:", quote(clip(first, REQUEST_CHARS)));
    if (latest !== undefined && d.requests.length > 1)
      out.push("", "Latest request:", quote(clip(latest, REQUEST_CHARS)));
  }
  if (plan.previousSummary) out.push("", "## Earlier summary", plan.previousSummary.trim());
  out.push("", "## Files");
  out.push(
    `- Read: ${plan.fileOps.readFiles.length > 0 ? plan.fileOps.readFiles.map((p) => `\`${p}\``).join(", ") : "none"}`,
  );
  out.push(
    `- Modified: ${plan.fileOps.modifiedFiles.length > 0 ? plan.fileOps.modifiedFiles.map((p) => `\`${p}\``).join(", ") : "none"}`,
  );
  out.push("", "## Tool calls");
  const counts = [...d.toolCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  out.push(counts.length > 0 ? `- ${counts.map(([n, c]) => `${n} × ${c}`).join(", ")}` : "- none");
  if (d.errors.length > 0) {
    out.push(
      "",
      `Errors (${d.errors.length}${d.errors.length > MAX_ERRORS ? `, last ${MAX_ERRORS} shown` : ""}):`,
    );
    for (const e of d.errors.slice(-MAX_ERRORS)) out.push(`- ${e}`);
  }
  out.push("", "## Last assistant conclusions");
  const conclusions = d.conclusions.slice(-MAX_CONCLUSIONS);
  if (conclusions.length === 0) out.push("- none");
  for (const c of conclusions) out.push(quote(clip(c, CONCLUSION_CHARS)), "");
  if (plan.isSplitTurn && plan.turnPrefixCount > 0)
    out.push(
      "",
      `Note: the current turn was split; its first ${plan.turnPrefixCount} message(s) are summarized above and the rest is kept verbatim.`,
    );
  return out.join("\n").trim();
}

/** Offline compaction: same result shape as generateCompaction (never fails unless nothing to summarize). */
export function generateOfflineCompaction(plan: CompactionPlan): GenerateResult {
  if (plan.summarizeCount === 0 && plan.turnPrefixCount === 0)
    return { ok: false, error: "Nothing to summarize.", aborted: false };
  return {
    ok: true,
    fields: planFields(plan, offlineSummaryText(plan) + formatFileBlocks(plan.fileOps)),
    usage: zeroUsage(),
  };
}
