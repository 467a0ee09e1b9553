/**
 * One-click add: puts a missing coverage item into a summary in the section where it belongs
 * (rules under Constraints & Preferences, to-dos under Next Steps, commands under Progress / Done,
 * files into the matching file block or Critical Context, errors, names and links under Critical
 * Context), creating the section in the canonical order when the summary has none. Only the
 * history part is touched (not a split turn's part, not the file blocks unless adding a file).
 */

import { SPLIT_TURN_HEADING } from "../compaction/prompts.ts";
import type { CoverageCandidate, CoverageKind } from "./coverage-extract.ts";
import { codeSpan } from "./coverage-text.ts";

interface SectionSpec {
  title: string;
  match: RegExp;
}

const GOAL: SectionSpec = { title: "Goal", match: /^goals?$/ };
const CONSTRAINTS: SectionSpec = {
  title: "Constraints & Preferences",
  match: /^(?:constraints(?:\s*(?:&|and)\s*preferences)?|preferences|user preferences)$/,
};
const PROGRESS: SectionSpec = { title: "Progress", match: /^progress$/ };
const DECISIONS: SectionSpec = { title: "Key Decisions", match: /^(?:key )?decisions$/ };
const NEXT: SectionSpec = { title: "Next Steps", match: /^next steps?$/ };
const CRITICAL: SectionSpec = { title: "Critical Context", match: /^critical context$/ };
const ORDER = [GOAL, CONSTRAINTS, PROGRESS, DECISIONS, NEXT, CRITICAL];
const DONE = /^(?:done|completed)$/;

/** The section each kind goes to. */
export const SECTION_OF_KIND: Readonly<Record<CoverageKind, string>> = {
  file: CRITICAL.title,
  command: PROGRESS.title,
  error: CRITICAL.title,
  identifier: CRITICAL.title,
  value: CRITICAL.title,
  url: CRITICAL.title,
  instruction: CONSTRAINTS.title,
  todo: NEXT.title,
};

const SPEC_OF_KIND: Record<CoverageKind, SectionSpec> = {
  file: CRITICAL,
  command: PROGRESS,
  error: CRITICAL,
  identifier: CRITICAL,
  value: CRITICAL,
  url: CRITICAL,
  instruction: CONSTRAINTS,
  todo: NEXT,
};

/** The line text (without the list marker) an item is added as. */
export function itemLine(item: Pick<CoverageCandidate, "kind" | "text" | "detail">): string {
  const t = item.text.replace(/\s+/g, " ").trim();
  switch (item.kind) {
    case "file":
      return item.detail && item.detail !== "mentioned" ? `${codeSpan(t)} (${item.detail})` : codeSpan(t);
    case "command":
      return `Ran ${codeSpan(t)}`;
    case "error":
      return `Error${item.detail ? ` (${item.detail})` : ""}: ${t}`;
    case "identifier":
    case "value":
      return codeSpan(t);
    default:
      return t;
  }
}

interface Heading {
  line: number;
  level: number;
  name: string;
}

function headings(lines: readonly string[], end: number): Heading[] {
  const out: Heading[] = [];
  for (let i = 0; i < end; i++) {
    const m = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(lines[i]!);
    if (m) out.push({ line: i, level: m[1]!.length, name: m[2]!.replace(/[*_:]/g, "").trim().toLowerCase() });
  }
  return out;
}

/** Index just after the last non-empty line of the section starting at heading h. */
function sectionEnd(lines: readonly string[], hs: readonly Heading[], h: Heading, end: number): number {
  const next = hs.find((x) => x.line > h.line && x.level <= h.level);
  let stop = next ? next.line : end;
  while (stop > h.line + 1 && lines[stop - 1]!.trim() === "") stop--;
  return stop;
}

function marker(lines: readonly string[], from: number, to: number, kind: CoverageKind): string {
  for (let i = to - 1; i > from; i--) {
    const n = /^(\d+)[.)]\s/.exec(lines[i]!);
    if (n) return `${Number(n[1]) + 1}. `;
    if (/^[-*+]\s/.test(lines[i]!))
      return kind === "command" && /^[-*+]\s+\[[ xX]\]/.test(lines[i]!) ? "- [x] " : "- ";
  }
  return "- ";
}

/** Where the history part ends: before a split turn's part, the file blocks, or at the end. */
function historyEnd(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (l === SPLIT_TURN_HEADING || l === "<read-files>" || l === "<modified-files>") {
      let j = i;
      if (l === SPLIT_TURN_HEADING)
        while (j > 0 && (lines[j - 1]!.trim() === "" || lines[j - 1]!.trim() === "---")) j--;
      else while (j > 0 && lines[j - 1]!.trim() === "") j--;
      return j;
    }
  }
  let j = lines.length;
  while (j > 0 && lines[j - 1]!.trim() === "") j--;
  return j;
}

function addToFileBlock(lines: string[], item: Pick<CoverageCandidate, "text" | "detail">): boolean {
  const tag =
    item.detail === "read" ? "read-files" : item.detail === "modified" ? "modified-files" : undefined;
  if (!tag) return false;
  const close = lines.lastIndexOf(`</${tag}>`);
  if (close < 0 || lines.lastIndexOf(`<${tag}>`) > close) return false;
  lines.splice(close, 0, item.text.trim());
  return true;
}

/** The summary with the item added in its section (a new section when there is none). */
export function addItemToSummary(
  summary: string,
  item: Pick<CoverageCandidate, "kind" | "text" | "detail">,
): string {
  const lines = summary.trim() === "" ? [] : summary.split("\n");
  if (item.kind === "file" && addToFileBlock(lines, item)) return lines.join("\n");
  const end = historyEnd(lines);
  const hs = headings(lines, end);
  const spec = SPEC_OF_KIND[item.kind];
  const text = itemLine(item);
  const h = hs.find((x) => spec.match.test(x.name));
  if (h) {
    let target = h;
    if (item.kind === "command") {
      const done = hs.find((x) => x.line > h.line && x.level > h.level && DONE.test(x.name));
      const within = done && done.line < sectionEnd(lines, hs, h, end);
      if (within) target = done;
    }
    const at = sectionEnd(lines, hs, target, end);
    lines.splice(at, 0, `${marker(lines, target.line, at, item.kind)}${text}`);
    return lines.join("\n");
  }
  const later = ORDER.slice(ORDER.indexOf(spec) + 1);
  const before = hs.find((x) => later.some((s) => s.match.test(x.name)));
  const level = before?.level ?? hs.find((x) => ORDER.some((s) => s.match.test(x.name)))?.level ?? 2;
  const block = [`${"#".repeat(level)} ${spec.title}`, `- ${text}`];
  if (before) lines.splice(before.line, 0, ...block, "");
  else lines.splice(end, 0, ...(end > 0 ? [""] : []), ...block);
  return lines.join("\n");
}

/** Adds several items in turn. */
export function addItemsToSummary(
  summary: string,
  items: readonly Pick<CoverageCandidate, "kind" | "text" | "detail">[],
): string {
  return items.reduce((s, i) => addItemToSummary(s, i), summary);
}
