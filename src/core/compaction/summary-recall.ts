/**
 * How much of what one summary kept another keeps too: the paths, identifiers, commands and
 * decisions of a reference summary (one a model wrote), and which of them a candidate summary
 * (the offline one) names. Paths match by path segments (a relative path is kept by the same
 * path made absolute, a bare file name by any path with that name), identifiers and commands as
 * words, decisions by most of their salient words. Pure; used by the bench and its unit test.
 */
import {
  basename,
  normalize,
  pathsInText,
  salientMatch,
  salientWords,
  summaryPaths,
  wordStems,
} from "../coverage/coverage-text.ts";

export type RecallKind = "path" | "identifier" | "command" | "decision";

export interface RecallItem {
  kind: RecallKind;
  text: string;
}

const FENCED = /^```[^\n]*\n[\s\S]*?^```/gm;
const SPAN = /`([^`\n]+)`/g;
const PROGRAMS = /^(?:npm|npx|pnpm|yarn|bun|node|tsx|git|cargo|make|python3?|pip|go|deno|vitest|jest)\s/;
const IDENT = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;
const HUMP =
  /(?<![\w$./-])(?:_?[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)(?:\(\))?(?![\w$/-])/g;
const EXTENSION = /\.[A-Za-z]\w*$/;
const DECISION_HEADING = /^#{2,4}\s+(?:key decisions?|decisions?|user preferences|constraints)/i;

function bareIdent(t: string): string {
  return t.replace(/\(\)$/, "").replace(/^\./, "");
}

function decisionItems(text: string): string[] {
  const out: string[] = [];
  let inSection = false;
  for (const line of text.split("\n")) {
    if (/^#{1,4}\s/.test(line)) {
      inSection = DECISION_HEADING.test(line);
      continue;
    }
    if (!inSection) continue;
    const m = /^\s*(?:[-*+]|\d+[.)])\s+(.+)/.exec(line);
    if (m) out.push(m[1]!.replace(/\*\*/g, "").trim());
  }
  return out;
}

/** The items a summary kept, deduplicated, in order (paths, identifiers, commands, decisions). */
export function summaryRecallItems(summary: string): RecallItem[] {
  const out: RecallItem[] = [];
  const seen = new Set<string>();
  const add = (kind: RecallKind, text: string) => {
    const key = `${kind}:${kind === "path" ? text : text.toLowerCase()}`;
    if (text.length < 3 || seen.has(key)) return;
    seen.add(key);
    out.push({ kind, text });
  };
  const prose = summary.replace(FENCED, " ");
  // A path without a file extension counts in code (a span or a block) or from the root: in
  // prose, "reset/compact/switchSession" is words with slashes.
  const inProse = new Set(pathsInText(prose.replace(SPAN, " ")));
  for (const p of pathsInText(summary))
    if (EXTENSION.test(p) || /^[/~]/.test(p) || !inProse.has(p)) add("path", p.replace(/\/+$/, ""));
  for (const m of prose.matchAll(SPAN)) {
    const t = m[1]!.trim();
    if (PROGRAMS.test(t)) add("command", t);
    else if (pathsInText(t).length === 0 && IDENT.test(t)) add("identifier", bareIdent(t));
  }
  for (const m of prose.replace(SPAN, " ").matchAll(HUMP))
    if (/[a-z].*[a-z]/.test(m[0])) add("identifier", bareIdent(m[0]));
  for (const d of decisionItems(summary)) add("decision", d);
  return out;
}

/** A candidate summary prepared for matching (prepare once, check many items). */
export interface RecallTarget {
  norm: string;
  paths: string[];
  stems: ReadonlySet<string>;
}

export function recallTarget(summary: string): RecallTarget {
  return { norm: normalize(summary), paths: summaryPaths(summary), stems: wordStems(summary) };
}

const WORDISH = /[\p{L}\p{N}_$]/u;

function hasWord(hay: string, needle: string): boolean {
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = at > 0 ? hay[at - 1]! : " ";
    const after = hay[at + needle.length] ?? " ";
    if (!WORDISH.test(before) && !WORDISH.test(after)) return true;
  }
  return false;
}

/** Whether `path` is named by one of `paths`: the same path, one ending with it, or (a bare name) one with that name. */
export function pathKeptBy(path: string, paths: readonly string[]): boolean {
  const p = path.replace(/^\.\//, "").replace(/\/+$/, "");
  if (!p.includes("/")) return paths.some((q) => basename(q) === p);
  return paths.some((q) => q === p || q.endsWith(`/${p}`) || q.includes(`/${p}/`) || q.startsWith(`${p}/`));
}

export function itemKept(item: RecallItem, target: RecallTarget): boolean {
  switch (item.kind) {
    case "path":
      return pathKeptBy(item.text, target.paths);
    case "identifier":
    case "command":
      return hasWord(target.norm, normalize(item.text));
    case "decision":
      return salientMatch(salientWords(item.text), target.stems, 0.5);
  }
}

export interface RecallReport {
  /** Kept / total per kind, and for paths and identifiers together (the target). */
  byKind: Record<RecallKind, { kept: number; total: number }>;
  pathsAndIdentifiers: { kept: number; total: number };
  all: { kept: number; total: number };
  missing: RecallItem[];
  /** Candidate length / reference length, in characters. */
  lengthRatio: number;
}

/** How much of `reference`'s items `candidate` keeps, and its length beside the reference's. */
export function summaryRecall(reference: string, candidate: string): RecallReport {
  const target = recallTarget(candidate);
  const byKind: RecallReport["byKind"] = {
    path: { kept: 0, total: 0 },
    identifier: { kept: 0, total: 0 },
    command: { kept: 0, total: 0 },
    decision: { kept: 0, total: 0 },
  };
  const missing: RecallItem[] = [];
  for (const item of summaryRecallItems(reference)) {
    const k = byKind[item.kind];
    k.total++;
    if (itemKept(item, target)) k.kept++;
    else missing.push(item);
  }
  const sum = (kinds: RecallKind[]) => ({
    kept: kinds.reduce((n, k) => n + byKind[k].kept, 0),
    total: kinds.reduce((n, k) => n + byKind[k].total, 0),
  });
  return {
    byKind,
    pathsAndIdentifiers: sum(["path", "identifier"]),
    all: sum(["path", "identifier", "command", "decision"]),
    missing,
    lengthRatio: candidate.length / Math.max(1, reference.length),
  };
}
