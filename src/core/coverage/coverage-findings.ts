/**
 * What one message gives the coverage check (its findings): files, commands, errors, the person's
 * identifiers, values, URLs and instructions, and to-dos. Tool results are never a source of
 * instructions, names or to-dos (only of errors and nested file calls). Deterministic; the lists
 * are filled in scratch arrays (nothing here is reentrant) and copied once per message.
 */

import { callFileOp, messageFileOps } from "../compaction/file-ops.ts";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../session/types.ts";
import { collectCommandParts, toolCallCommand } from "./coverage-commands.ts";
import type { CoverageKind } from "./coverage-kinds.ts";
import { instructionLanguages, isNextStep } from "./coverage-lang.ts";
import {
  clip,
  contentText,
  ERROR_LINE,
  errorLineOf,
  normalizeKey,
  pathsInText,
  sentences,
  splitProse,
  URL_RE,
} from "./coverage-text.ts";

/** One thing a message names, before the items of a range are merged (coverage-extract.ts). */
export interface Found {
  kind: CoverageKind;
  text: string;
  detail?: string;
  /** A checked to-do: closes an open one with the same text. */
  closes?: boolean;
  /** normalizeKey(text) (the key without its kind), set when the findings are kept. */
  norm?: string;
}

const INSTRUCTION_CHARS = 240;
const ERROR_CHARS = 200;
const MAX_PASTED_ERRORS = 3;

// Patterns compiled once (a literal in a function body is a new object on every call).
const OPEN_TODO = /^\s*[-*+]\s+\[ \]\s+(.+)/;
const DONE_TODO = /^\s*[-*+]\s+\[[xX]\]\s+(.+)/;
const TODO_LINE = /^\s*(?:[-*+]\s+|\d+[.)]\s+|\/\/\s*|#\s*)?(?:TODO|FIXME)\b[:\s-]*(.+)/;
const URL_TAIL = /[.,;:!?]+$/;
const INNER_SLASH = /\/[^/]/;
const EXTENSION = /\.\w+$/;
const QUOTE_CHAR = /["“„«']/;
const SPACE_RUN = /\s+/;
const SLASHED_WORD = /[^\s/]*\/[^\s]*/g;
const DIGIT = /\d/;
const CURLY_APOSTROPHE = /[’]/g;

/** Whether a text may hold a to-do (`todos` reads only lines with one of these). */
function mayHoldTodo(text: string): boolean {
  return text.includes("[") || text.includes("TODO") || text.includes("FIXME");
}

function todos(lines: readonly string[], out: Found[]): void {
  for (const line of lines) {
    if (!line.includes("[") && !line.includes("TODO") && !line.includes("FIXME")) continue;
    const open = OPEN_TODO.exec(line);
    if (open) {
      out.push({ kind: "todo", text: clip(open[1]!, INSTRUCTION_CHARS), detail: "unchecked" });
      continue;
    }
    const done = DONE_TODO.exec(line);
    if (done) {
      out.push({ kind: "todo", text: clip(done[1]!, INSTRUCTION_CHARS), closes: true });
      continue;
    }
    const todo = TODO_LINE.exec(line);
    if (todo) out.push({ kind: "todo", text: clip(todo[1]!, INSTRUCTION_CHARS), detail: "todo" });
  }
}

/** Announced next steps of an assistant message (read only for messages after the last user message). */
export function nextSteps(m: AgentMessage): Found[] {
  if (m.role !== "assistant") return [];
  const out: Found[] = [];
  for (const s of sentences(contentText(m.content).split("\n")))
    if (isNextStep(s)) out.push({ kind: "todo", text: clip(s, INSTRUCTION_CHARS), detail: "next" });
  return out;
}

/** Links that name nothing of the work: example hosts, local hosts, a site's front page. */
const BOILERPLATE_URL =
  /^https?:\/\/(?:(?:[\w-]+\.)*example\.(?:com|org|net)|localhost|127\.0\.0\.1)(?:[:/]|$)|^https?:\/\/[^/]+\/?$/i;

function urls(text: string, out: Found[], detail: string): void {
  if (!text.includes("://")) return;
  for (const m of text.matchAll(URL_RE)) {
    const url = m[0].replace(URL_TAIL, "");
    if (!BOILERPLATE_URL.test(url)) out.push({ kind: "url", text: url, detail });
  }
}

/** Paths in text; `specific`: only paths with a directory and a file extension (assistant prose names many files in passing). */
function paths(text: string, out: Found[], specific: boolean): void {
  // A specific path has a slash after its first character.
  for (const p of pathsInText(text, specific)) {
    if (specific && !(INNER_SLASH.test(p.slice(1)) && EXTENSION.test(p))) continue;
    out.push({ kind: "file", text: p, detail: "mentioned" });
  }
}

const BACKTICK = /`([^`\n]{2,80})`/g;
const QUOTED =
  /(?<![\p{L}\p{N}])(?:"([^"\n]{2,80})"|“([^”\n]{2,80})”|„([^“\n]{2,80})“|«\s?([^»\n]{2,80}?)\s?»|'([^'\n]{2,60})')(?![\p{L}\p{N}])/gu;
/** What every CAMEL match holds: a capital right after a small letter or digit, or an underscore. */
const MAY_BE_CAMEL = /[a-z0-9][A-Z]|_/;
const CAMEL =
  /(?<![\w$.])(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)(?:\(\))?(?![\w$])/g;
const CALL = /(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\(\)/g;
const FLAG = /(?<![\w-])--[a-z][a-z0-9-]+/g;
const VERSION = /(?<![\w.])(?:v\d+(?:\.\d+){1,3}|\d+\.\d+\.\d+)(?:-[0-9A-Za-z.]+)?(?![\w.])/g;

/** Identifiers and values the person named in their prose (code spans, names, flags, numbers with units, versions, quotes). */
/** Adds a name found in the person's prose once (trimmed, two characters or more). */
function addName(seen: Set<string>, out: Found[], kind: "identifier" | "value", text: string): void {
  const t = text.trim();
  if (t.length < 2 || seen.has(t)) return;
  seen.add(t);
  out.push({ kind, text: t, detail: "user" });
}

function named(prose: string, out: Found[]): void {
  const seen = new Set<string>();
  const add = (kind: "identifier" | "value", text: string) => addName(seen, out, kind, text);
  const ticks = prose.includes("`");
  for (const m of ticks ? prose.matchAll(BACKTICK) : []) {
    const t = m[1]!;
    if (pathsInText(t).length === 1 && pathsInText(t)[0] === t.replace(/^@/, "")) continue;
    add("identifier", t);
  }
  const unticked = ticks ? prose.replace(BACKTICK, " ") : prose;
  const plain = unticked.includes("://") ? unticked.replace(URL_RE, " ") : unticked;
  for (const m of QUOTE_CHAR.test(plain) ? plain.matchAll(QUOTED) : []) {
    const t = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? "";
    // A quoted common word ('warning') is emphasis, not a value.
    if (t.trim().split(SPACE_RUN).length <= 8 && !/^[a-z]+$/.test(t.trim())) add("value", t);
  }
  // What follows reads `bare` for "()", a camel-case hump, "--" or a digit: dropping the slashed
  // words can add none of them, so without any in `plain` there is nothing more to find.
  if (!plain.includes("()") && !MAY_BE_CAMEL.test(plain) && !plain.includes("--") && !DIGIT.test(plain))
    return;
  const bare = plain.includes("/") ? plain.replace(SLASHED_WORD, " ") : plain;
  if (bare.includes("()")) for (const m of bare.matchAll(CALL)) add("identifier", m[0]);
  if (MAY_BE_CAMEL.test(bare))
    for (const m of bare.matchAll(CAMEL)) if (!seen.has(`${m[0]}()`)) add("identifier", m[0]);
  if (bare.includes("--")) for (const m of bare.matchAll(FLAG)) add("identifier", m[0]);
  if (DIGIT.test(bare)) {
    // Versions are values; a number with a unit ("5 seconds", "70%") is not an item.
    for (const m of bare.matchAll(VERSION)) add("value", m[0]);
  }
}

function fromUser(text: string, out: Found[]): void {
  const { prose, pasted } = splitProse(text.replace(CURLY_APOSTROPHE, "'"));
  for (const s of sentences(prose)) {
    if (s.endsWith("?") || s.length < 8) continue;
    const langs = instructionLanguages(s);
    if (langs.length > 0)
      out.push({ kind: "instruction", text: clip(s, INSTRUCTION_CHARS), detail: langs.join(",") });
  }
  const proseText = prose.join("\n");
  named(proseText, out);
  paths(proseText, out, false);
  urls(text, out, "user");
  todos(prose, out);
  let errors = 0;
  for (const line of pasted) {
    if (errors >= MAX_PASTED_ERRORS) break;
    if (!ERROR_LINE.test(` ${line.trim()}`)) continue;
    out.push({ kind: "error", text: clip(line.trim(), ERROR_CHARS), detail: "pasted" });
    errors++;
  }
}

/** Scratch lists of commandFindings (emptied on each call; nothing here is reentrant). */
const commandScratch: string[] = [];
const pathScratch: string[] = [];

function commandFindings(command: string, detail: string, out: Found[]): void {
  commandScratch.length = 0;
  pathScratch.length = 0;
  collectCommandParts(command, commandScratch, pathScratch);
  for (const c of commandScratch) out.push({ kind: "command", text: c, detail });
  for (const p of pathScratch) out.push({ kind: "file", text: p, detail: "mentioned" });
}

/** Findings of an assistant message's calls, before they join its list (see fromAssistant). */
const callScratch: Found[] = [];

function fromAssistant(m: AssistantMessage, out: Found[]): void {
  const content = Array.isArray(m.content) ? m.content : [];
  // One pass over the tool calls: their file operations first (as messageFileOps lists them), then
  // each call's commands and URLs.
  const fromCalls = callScratch;
  fromCalls.length = 0;
  for (const b of content) {
    if (b?.type !== "toolCall") continue;
    const args = b.arguments;
    const op = callFileOp(b.name, args);
    if (op) out.push({ kind: "file", text: op.path, detail: op.kind });
    const command = toolCallCommand(b.name, args);
    if (command) commandFindings(command, "tool", fromCalls);
    if (args && typeof args === "object")
      for (const k in args) {
        const v = (args as Record<string, unknown>)[k];
        if (typeof v === "string" && v.includes("://")) urls(v, fromCalls, "tool call");
      }
  }
  for (const f of fromCalls) out.push(f);
  const text = contentText(content);
  if (text) {
    paths(text, out, true);
    urls(text, out, "assistant");
    if (mayHoldTodo(text)) todos(text.split("\n"), out);
  }
  if (m.stopReason === "error" && typeof m.errorMessage === "string" && m.errorMessage.trim() !== "") {
    const line = errorLineOf(m.errorMessage);
    if (line) out.push({ kind: "error", text: line, detail: "assistant" });
  }
}

/** A tool's passing chatter reported as an error ("No changes made to AGENTS.md"): not an item. */
const CHATTER = /^No changes made to /;

function fromToolResult(m: ToolResultMessage, out: Found[]): void {
  for (const op of messageFileOps(m)) out.push({ kind: "file", text: op.path, detail: op.kind });
  if (m.isError !== true) return;
  const line = errorLineOf(contentText(m.content));
  if (line && !CHATTER.test(line))
    out.push({ kind: "error", text: line, detail: typeof m.toolName === "string" ? m.toolName : "tool" });
}

const NO_FINDINGS: readonly Found[] = [];
/** The list findingsOf fills (findingsOf is not reentrant). */
const findingScratch: Found[] = [];

/** The findings of one message (a shared empty list when it has none). */
export function findingsOf(m: AgentMessage): readonly Found[] {
  // Most tool results hold nothing to find.
  if (m.role === "toolResult" && m.isError !== true && !m.nestedCalls) return NO_FINDINGS;
  const out = findingScratch;
  out.length = 0;
  if (m.role === "user") fromUser(contentText(m.content), out);
  else if (m.role === "assistant") fromAssistant(m, out);
  else if (m.role === "toolResult") fromToolResult(m, out);
  else if (m.role === "bashExecution" && !m.excludeFromContext && typeof m.command === "string") {
    commandFindings(m.command, "shell", out);
    if (typeof m.exitCode === "number" && m.exitCode !== 0) {
      const line = errorLineOf(typeof m.output === "string" ? m.output : "");
      out.push({
        kind: "error",
        text: line ?? clip(`${m.command} exited with code ${m.exitCode}`, ERROR_CHARS),
        detail: "shell",
      });
    }
  }
  if (out.length === 0) return NO_FINDINGS;
  for (const f of out) f.norm = normalizeKey(f.text);
  // A copy of the exact length: the memo keeps one list per message.
  return out.slice();
}
