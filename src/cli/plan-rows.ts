/**
 * One row of `plan` per leaf and keep value: the fields of pi 1.6's reference plans file
 * (../shared/fixtures/pi16/before-compaction.pi16-plans.jsonl: same names, same order, the plan
 * fields only when it compacts) followed by Cutpoint's own fields; the pi projection of a row,
 * the comparison of rows with a reference file, and the text forms (detailed report, table).
 */

import { type PlanResult, shouldCompact } from "../core/compaction/index.ts";
import { PI_FIELDS, type PiPlanRow, piPlanRow } from "../core/compaction/pi-plan-row.ts";

export { PI_FIELDS, type PiPlanRow };

import type { SessionEntry } from "../core/session/index.ts";

export interface PlanReport extends PiPlanRow {
  file: string;
  reserve: number;
  contextWindow: number | null;
  estimator: string;
  /** Why there is nothing to do (when compact is false). */
  reason?: string;
  code?: string;
  firstKeptEntryId?: string;
  windowStartLine?: number | null;
  turnStartLine?: number | null;
  tokensBeforeSource: "reported" | "estimated";
  tokensAfterEstimate?: number;
  keptTokens?: number;
  /** contextTokens > contextWindow − reserve; null without --context-window. */
  shouldCompact: boolean | null;
}

export interface RowInput {
  file: string;
  path: readonly SessionEntry[];
  /** Physical line of each entry of the session. */
  lineOf: ReadonlyMap<SessionEntry, number>;
  keep: number;
  reserve: number;
  contextWindow: number | null;
  estimator: string;
  result: PlanResult;
  context: { tokens: number; source: "reported" | "estimated" };
}

/** Builds the row; keys in the reference order, then Cutpoint's. */
export function planReport(input: RowInput): PlanReport {
  const { path, lineOf, result, context } = input;
  const line = (i: number) => (i >= 0 && i < path.length ? (lineOf.get(path[i]!) ?? null) : null);
  const report = piPlanRow(path, (e) => lineOf.get(e), input.keep, result, context.tokens) as PlanReport;
  report.file = input.file;
  report.reserve = input.reserve;
  report.contextWindow = input.contextWindow;
  report.estimator = input.estimator;
  if (!result.ok) {
    report.reason = result.reason;
    report.code = result.code;
  } else {
    const plan = result.plan;
    report.firstKeptEntryId = plan.firstKeptEntryId;
    report.windowStartLine = line(plan.windowStart);
    report.turnStartLine = plan.isSplitTurn ? line(plan.turnStartIndex) : null;
  }
  report.tokensBeforeSource = result.ok ? result.plan.tokensBeforeSource : context.source;
  if (result.ok) {
    report.tokensAfterEstimate = result.plan.tokensAfterEstimate;
    report.keptTokens = result.plan.keptTokens;
  }
  report.shouldCompact =
    input.contextWindow === null
      ? null
      : shouldCompact(context.tokens, input.contextWindow, { enabled: true, reserveTokens: input.reserve });
  return report;
}

/** The reference file's view of a row (its fields only, in its order). */
export function piRow(row: PiPlanRow): PiPlanRow {
  const out: Record<string, unknown> = {};
  for (const key of PI_FIELDS) if (row[key] !== undefined) out[key] = row[key];
  return out as unknown as PiPlanRow;
}

export interface RowDifference {
  line: number | null;
  keep: number;
  /** Field -> [ours, reference] (undefined: the field is absent on that side). */
  fields: Record<string, [unknown, unknown]>;
}

export interface Comparison {
  /** Rows of ours that the reference has (same line and keep). */
  compared: number;
  agree: number;
  /** Rows of ours the reference does not have. */
  unmatched: number;
  /** Rows of the reference we did not plan. */
  missing: number;
  differences: RowDifference[];
}

const rowKey = (line: number | null, keep: number) => `${line}:${keep}`;

/** Compares our rows with reference rows field by field (reference fields only). */
export function compareRows(ours: readonly PiPlanRow[], reference: readonly PiPlanRow[]): Comparison {
  const byKey = new Map<string, PiPlanRow>();
  for (const r of reference) byKey.set(rowKey(r.line, r.keep), r);
  const result: Comparison = { compared: 0, agree: 0, unmatched: 0, missing: 0, differences: [] };
  const matched = new Set<string>();
  for (const row of ours) {
    const key = rowKey(row.line, row.keep);
    const ref = byKey.get(key);
    if (ref === undefined) {
      result.unmatched++;
      continue;
    }
    matched.add(key);
    result.compared++;
    const fields: Record<string, [unknown, unknown]> = {};
    for (const key of PI_FIELDS) {
      const a = row[key];
      const b = ref[key];
      if (JSON.stringify(a) !== JSON.stringify(b)) fields[key] = [a, b];
    }
    if (Object.keys(fields).length === 0) result.agree++;
    else result.differences.push({ line: row.line, keep: row.keep, fields });
  }
  result.missing = byKey.size - matched.size;
  return result;
}

/** Parses a reference file (one JSON object per line). */
export function parseReferenceRows(
  text: string,
): { ok: true; rows: PiPlanRow[] } | { ok: false; error: string } {
  const rows: PiPlanRow[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (l === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(l);
    } catch {
      return { ok: false, error: `line ${i + 1}: not JSON` };
    }
    const r = value as Partial<PiPlanRow>;
    if (typeof r !== "object" || r === null || typeof r.keep !== "number" || typeof r.compact !== "boolean")
      return { ok: false, error: `line ${i + 1}: not a plan row (needs line, keep, compact)` };
    rows.push(r as PiPlanRow);
  }
  return { ok: true, rows };
}

const show = (v: unknown) =>
  v === undefined ? "-" : Array.isArray(v) ? `[${v.length}: ${v.join(", ")}]` : JSON.stringify(v);

export function formatComparison(c: Comparison, limit = Number.POSITIVE_INFINITY): string {
  const out: string[] = [`${c.agree} of ${c.compared} rows agree`];
  const notes = [
    c.unmatched > 0 ? `${c.unmatched} row(s) not in the reference` : "",
    c.missing > 0 ? `${c.missing} reference row(s) not planned` : "",
  ].filter((x) => x !== "");
  if (notes.length > 0) out[0] += ` (${notes.join(", ")})`;
  for (const d of c.differences.slice(0, limit)) {
    // When one side does not compact, its plan fields are absent: name the other side's cut only.
    const compact = d.fields.compact;
    let fields: string[];
    if (compact) {
      const side = compact[0] ? 0 : 1;
      const at = (k: string) => d.fields[k]?.[side];
      fields = [
        `compact ${show(compact[0])} vs ${show(compact[1])} (${side === 0 ? "ours" : "reference"}: keep from line ${at("firstKeptLine")} (${at("firstKeptType")})${at("isSplitTurn") ? ", split turn" : ""})`,
      ];
      const context = d.fields.contextTokens;
      if (context) fields.push(`contextTokens ${show(context[0])} vs ${show(context[1])}`);
    } else fields = Object.entries(d.fields).map(([k, [a, b]]) => `${k} ${show(a)} vs ${show(b)}`);
    out.push(`  line ${d.line} keep ${d.keep}: ${fields.join("; ")}`);
  }
  if (c.differences.length > limit) out.push(`  … ${c.differences.length - limit} more`);
  return `${out.join("\n")}\n`;
}

const num = (n: number | null | undefined) =>
  n === null || n === undefined ? "?" : n.toLocaleString("en-US");

/** The detailed report of one row (one leaf, one keep value). */
export function formatPlanReport(r: PlanReport): string {
  const head = `${r.file} (leaf line ${r.line ?? "none"}, keep ${num(r.keep)}, reserve ${num(r.reserve)}, estimator ${r.estimator})`;
  const rows: string[] = [];
  if (!r.compact) rows.push(`nothing to compact: ${r.reason ?? ""}`);
  const before = r.tokensBefore ?? r.contextTokens;
  const after = r.tokensAfterEstimate;
  const saved = after !== undefined && before > 0 ? ` (${Math.round((after / before - 1) * 100)} %)` : "";
  rows.push(
    `tokens: ${num(before)} (${r.tokensBeforeSource})${after !== undefined ? ` -> at most ~${num(after)}${saved}` : ""}`,
  );
  if (r.compact) {
    rows.push(
      `window: from line ${r.windowStartLine}${r.previousSummary ? " (updates the previous summary)" : ""}`,
    );
    rows.push(
      `cut: keep from line ${r.firstKeptLine} (${r.firstKeptType}, ${r.firstKeptEntryId}), ${num(r.keptTokens)} tokens kept`,
    );
    rows.push(
      r.isSplitTurn
        ? `split turn: starts at line ${r.turnStartLine}, prefix of ${r.turnPrefixMessages} message(s)`
        : "split turn: no",
    );
    rows.push(`summarize: ${r.messagesToSummarize} message(s)`);
    const read = r.readFiles ?? [];
    const modified = r.modifiedFiles ?? [];
    rows.push(`files: ${read.length} read, ${modified.length} modified`);
    for (const f of read) rows.push(`  read      ${f}`);
    for (const f of modified) rows.push(`  modified  ${f}`);
  }
  if (r.shouldCompact !== null)
    rows.push(`should compact (window ${num(r.contextWindow)}): ${r.shouldCompact ? "yes" : "no"}`);
  return `${head}\n${rows.map((x) => `  ${x}`).join("\n")}\n`;
}

const COLUMNS: [string, number][] = [
  ["line", 7],
  ["keep", 7],
  ["plan", 5],
  ["first kept", 22],
  ["split at", 9],
  ["summarize", 10],
  ["prefix", 7],
  ["before", 10],
  ["context", 10],
  ["files r/m", 10],
];

/** The table of many rows: a header line, then one line per row. */
export function tableHeader(): string {
  return `${COLUMNS.map(([name, w], i) => (i === 3 ? name.padEnd(w) : name.padStart(w))).join(" ")}\n`;
}

export function tableRow(r: PlanReport): string {
  const cells = [
    String(r.line ?? "-"),
    String(r.keep),
    r.compact ? "yes" : "no",
    r.compact ? `${r.firstKeptLine} ${r.firstKeptType}` : (r.code ?? ""),
    r.compact && r.isSplitTurn ? String(r.turnStartLine) : "-",
    r.compact ? String(r.messagesToSummarize) : "-",
    r.compact ? String(r.turnPrefixMessages) : "-",
    r.compact ? num(r.tokensBefore) : "-",
    num(r.contextTokens),
    r.compact ? `${r.readFiles?.length}/${r.modifiedFiles?.length}` : "-",
  ];
  return `${cells.map((c, i) => (i === 3 ? c.padEnd(COLUMNS[i]![1]) : c.padStart(COLUMNS[i]![1]))).join(" ")}\n`;
}
