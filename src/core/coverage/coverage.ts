/**
 * Coverage check (deterministic, no model): which concrete items of a plan's summarized range a
 * summary (generated, offline or edited) does not mention. Extraction (coverage-extract.ts) runs
 * once per plan; checking a summary against the items is cheap enough to run on every keystroke.
 * A summary that contains an item's text always covers it; other forms (a path's basename, a URL
 * without its scheme, most of an instruction's salient words) cover it too.
 */

import type { CompactionPlan } from "../compaction/plan.ts";
import {
  COVERAGE_KINDS,
  type CoverageCandidate,
  type CoverageKind,
  type CoverageRange,
  extractCoverageItems,
  itemWeight,
  KEY_WEIGHT,
} from "./coverage-extract.ts";
import {
  basename,
  normalize,
  normalizeKey,
  pathsInText,
  salientMatch,
  salientWords,
  summaryPaths,
  wordStems,
} from "./coverage-text.ts";

export interface CoverageItem extends CoverageCandidate {
  covered: boolean;
  weight: number;
  /** The person said the summary does not need it: counted in neither covered nor total. */
  dismissed?: true;
}

export interface KindCount {
  covered: number;
  total: number;
}

export interface CoverageReport {
  items: CoverageItem[];
  covered: number;
  /** Items not dismissed. */
  total: number;
  byKind: Record<CoverageKind, KindCount>;
  dismissed: number;
  /** Errors fixed later in the range: listed, counted in neither covered nor total. */
  resolved: number;
  /** Key items (weight ≥ KEY_WEIGHT) covered, and their number (not dismissed, not resolved). */
  keyCovered: number;
  keyTotal: number;
}

export interface CoverageOptions {
  /** Keys of dismissed items (CoverageItem.key). */
  dismissed?: Iterable<string>;
}

/** A summary ready for matching (prepare once, check many items). */
export interface PreparedSummary {
  norm: string;
  stems: ReadonlySet<string>;
  /** The paths it names (relative ones also under the root it declares), computed on first use. */
  paths: () => readonly string[];
}

export function prepareSummary(summary: string): PreparedSummary {
  let paths: string[] | undefined;
  return {
    norm: normalize(summary),
    stems: wordStems(summary),
    paths: () => {
      paths ??= summaryPaths(summary).map((p) => normalize(p).replace(/^\.\//, "").replace(/\/+$/, ""));
      return paths;
    },
  };
}

/**
 * A path is covered by itself or by a path it ends with that has a directory (`src/cli/x.ts`
 * covers `/repo/src/cli/x.ts`); never by another path that only shares its file name. A bare
 * file name is covered by any path with that name, or the name as a word.
 */
function pathCovered(path: string, summary: PreparedSummary): boolean {
  const p = path.replace(/^\.\//, "").replace(/\/+$/, "");
  const paths = summary.paths();
  if (!p.includes("/")) return paths.some((q) => basename(q) === p) || includesWord(summary.norm, p);
  return paths.some((q) => q === p || (q.includes("/") && p.endsWith(`/${q}`)));
}

/** Share of salient words an item needs in the summary, for the kinds matched by words. */
const WORD_SHARE: Partial<Record<CoverageKind, number>> = { instruction: 0.6, todo: 0.6, error: 0.5 };

const WORDISH = /[\p{L}\p{N}_]/u;

/** `needle` in `hay` with no letter, digit or underscore right before or after it. */
function includesWord(hay: string, needle: string): boolean {
  if (needle === "") return false;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = at > 0 ? hay[at - 1]! : " ";
    const after = hay[at + needle.length] ?? " ";
    if (!WORDISH.test(before) && before !== "-" && !WORDISH.test(after)) return true;
  }
  return false;
}

function withoutPaths(text: string): string {
  let out = text;
  for (const p of pathsInText(text)) out = out.split(p).join(` ${basename(p)} `);
  return out;
}

/** True when at least `share` of a text's salient words (paths as their file names) are in the summary. */
export function wordsCovered(text: string, summary: PreparedSummary, share: number): boolean {
  return salientMatch(salientWords(withoutPaths(text)), summary.stems, share);
}

/** True when the prepared summary mentions the item. */
export function isCovered(item: Pick<CoverageCandidate, "kind" | "text">, summary: PreparedSummary): boolean {
  const text = normalizeKey(item.text);
  if (text !== "" && summary.norm.includes(text)) return true;
  if (item.kind === "file") return pathCovered(text, summary);
  switch (item.kind) {
    case "url": {
      const bare = text.replace(/^https?:\/\/(?:www\.)?/, "").replace(/\/+$/, "");
      return bare.length > 3 && summary.norm.includes(bare);
    }
    case "identifier": {
      const bare = normalize(item.text).trim().replace(/\(\)$/, "").replace(/^--/, "");
      return bare !== text && bare.length >= 3 && includesWord(summary.norm, bare);
    }
    case "value": {
      const joined = text.replace(/^v(?=\d)/, "").replace(/(\d)\s+(?=\D)/, "$1");
      const spaced = joined.replace(/(\d)(?=[^\d.,])/, "$1 ");
      return [joined, spaced].some((v) => v !== text && includesWord(summary.norm, v));
    }
    default: {
      const share = WORD_SHARE[item.kind];
      return share !== undefined && wordsCovered(item.text, summary, share);
    }
  }
}

function emptyByKind(): Record<CoverageKind, KindCount> {
  const out = {} as Record<CoverageKind, KindCount>;
  for (const k of COVERAGE_KINDS) out[k] = { covered: 0, total: 0 };
  return out;
}

/** Checks a summary against items found earlier (extractCoverageItems / planCoverageItems). */
export function checkCoverage(
  summary: string | PreparedSummary,
  items: readonly CoverageCandidate[],
  options: CoverageOptions = {},
): CoverageReport {
  const prepared = typeof summary === "string" ? prepareSummary(summary) : summary;
  const dismissed = new Set(options.dismissed ?? []);
  const byKind = emptyByKind();
  const out: CoverageItem[] = [];
  let covered = 0;
  let total = 0;
  let dismissedCount = 0;
  let resolved = 0;
  let keyCovered = 0;
  let keyTotal = 0;
  for (const c of items) {
    const weight = c.weight ?? itemWeight(c);
    const item: CoverageItem = { ...c, weight, entryIds: [...c.entryIds], covered: isCovered(c, prepared) };
    out.push(item);
    if (dismissed.has(c.key)) {
      item.dismissed = true;
      dismissedCount++;
      continue;
    }
    if (c.resolved) {
      resolved++;
      continue;
    }
    total++;
    byKind[c.kind].total++;
    if (weight >= KEY_WEIGHT) keyTotal++;
    if (item.covered) {
      covered++;
      byKind[c.kind].covered++;
      if (weight >= KEY_WEIGHT) keyCovered++;
    }
  }
  return { items: out, covered, total, byKind, dismissed: dismissedCount, resolved, keyCovered, keyTotal };
}

/** The summarized range of a plan: the messages to summarize, then the split turn's prefix. */
export function coverageRanges(
  plan: Pick<CompactionPlan, "messagesToSummarize" | "turnPrefixMessages">,
): CoverageRange[] {
  return [plan.messagesToSummarize, plan.turnPrefixMessages];
}

/** The items of a plan's summarized range. */
export function planCoverageItems(
  plan: Pick<CompactionPlan, "messagesToSummarize" | "turnPrefixMessages">,
): CoverageCandidate[] {
  return extractCoverageItems(coverageRanges(plan));
}

/** Items of the plan's summarized range, checked against the summary (what the CLI and the app call). */
export function coverageOf(
  summary: string,
  plan: Pick<CompactionPlan, "messagesToSummarize" | "turnPrefixMessages">,
  options: CoverageOptions = {},
): CoverageReport {
  return checkCoverage(summary, planCoverageItems(plan), options);
}

/** The key items a summary misses (not dismissed, not resolved), heaviest first. */
export function missingKeyItems(report: Pick<CoverageReport, "items">): CoverageItem[] {
  return report.items
    .filter((i) => !i.covered && !i.dismissed && !i.resolved && i.weight >= KEY_WEIGHT)
    .sort((a, b) => b.weight - a.weight);
}

/** "38 of 41 items" (dismissed and resolved ones left out). */
export function itemsFigure(report: Pick<CoverageReport, "covered" | "total">): string {
  return `${report.covered} of ${report.total} item${report.total === 1 ? "" : "s"}`;
}

/**
 * What the check measures, in words: "9 of 11 key items; 2 missing: `a.ts`, “Never use npm” (38 of
 * 41 items in all)". Key items are files changed, open errors, the person's rules and names, open to-dos.
 */
export function coverageFigure(
  report: Pick<CoverageReport, "items" | "covered" | "total" | "keyCovered" | "keyTotal">,
): string {
  const missing = missingKeyItems(report);
  const names = missing
    .slice(0, 3)
    .map((i) => (i.kind === "file" ? basenameOrPath(i.text) : `“${clipText(i.text, 40)}”`));
  const more = missing.length > 3 ? `, +${missing.length - 3} more` : "";
  const head = `${report.keyCovered} of ${report.keyTotal} key item${report.keyTotal === 1 ? "" : "s"}`;
  const tail = missing.length > 0 ? `; ${missing.length} missing: ${names.join(", ")}${more}` : "";
  return `${head}${tail} (${itemsFigure(report)} in all)`;
}

function basenameOrPath(path: string): string {
  return path.length > 40 ? `…/${basename(path)}` : path;
}

function clipText(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export type { CoverageCandidate, CoverageKind, CoverageRange } from "./coverage-extract.ts";
export {
  COVERAGE_KINDS,
  type CoverageExtraction,
  coverageKey,
  extractCoverageItems,
  KEY_WEIGHT,
  startCoverageExtraction,
} from "./coverage-extract.ts";
