/**
 * Coverage check (deterministic, no model): which concrete items of a plan's summarized range a
 * summary (generated, offline or edited) does not mention. Extraction (coverage-extract.ts) runs
 * once per plan; checking a summary against the items is cheap enough to run on every keystroke.
 * A summary that contains an item's text always covers it; other forms (a path's basename, a URL
 * without its scheme, most of an instruction's salient words) cover it too.
 */
import {
  COVERAGE_KINDS,
  type CoverageCandidate,
  type CoverageKind,
  type CoverageRange,
  extractCoverageItems,
} from "./coverage-extract.ts";
import {
  basename,
  normalize,
  normalizeKey,
  pathsInText,
  salientMatch,
  salientWords,
  wordStems,
} from "./coverage-text.ts";
import type { CompactionPlan } from "./plan.ts";

export interface CoverageItem extends CoverageCandidate {
  covered: boolean;
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
}

export interface CoverageOptions {
  /** Keys of dismissed items (CoverageItem.key). */
  dismissed?: Iterable<string>;
}

/** A summary ready for matching (prepare once, check many items). */
export interface PreparedSummary {
  norm: string;
  stems: ReadonlySet<string>;
}

export function prepareSummary(summary: string): PreparedSummary {
  return { norm: normalize(summary), stems: wordStems(summary) };
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

/** True when the prepared summary mentions the item. */
export function isCovered(item: Pick<CoverageCandidate, "kind" | "text">, summary: PreparedSummary): boolean {
  const text = normalizeKey(item.text);
  if (text !== "" && summary.norm.includes(text)) return true;
  switch (item.kind) {
    case "file": {
      const base = basename(text);
      return base.length >= 3 && includesWord(summary.norm, base);
    }
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
      return share !== undefined && salientMatch(salientWords(withoutPaths(item.text)), summary.stems, share);
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
  for (const c of items) {
    const item: CoverageItem = { ...c, entryIds: [...c.entryIds], covered: isCovered(c, prepared) };
    out.push(item);
    if (dismissed.has(c.key)) {
      item.dismissed = true;
      dismissedCount++;
      continue;
    }
    total++;
    byKind[c.kind].total++;
    if (item.covered) {
      covered++;
      byKind[c.kind].covered++;
    }
  }
  return { items: out, covered, total, byKind, dismissed: dismissedCount };
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

/** "38 of 41 items" (dismissed ones left out). */
export function coverageFigure(report: Pick<CoverageReport, "covered" | "total">): string {
  return `${report.covered} of ${report.total} item${report.total === 1 ? "" : "s"}`;
}

export type { CoverageCandidate, CoverageKind, CoverageRange } from "./coverage-extract.ts";
export {
  COVERAGE_KINDS,
  type CoverageExtraction,
  coverageKey,
  extractCoverageItems,
  startCoverageExtraction,
} from "./coverage-extract.ts";
