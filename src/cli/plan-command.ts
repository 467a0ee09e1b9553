/**
 * `plan <file>... [--keep-recent-tokens N[,N...]] [--reserve-tokens N] [--context-window N]
 * [--leaf-line N] [--estimator pi|tokenizer] [--json]`: the compaction plan of each file, for the
 * path ending at the leaf on load (the last entry, or a trailing `leaf` entry's target) or at the
 * entry on physical line --leaf-line. One result per file and keep value. Lines are 1-based
 * physical lines of the input. `--json` prints one JSON object per result per line.
 */

import {
  type CompactionPlan,
  createPlanner,
  DEFAULT_COMPACTION_SETTINGS,
  type Estimator,
  PI_ESTIMATOR,
  type PlanResult,
  planCompaction,
  shouldCompact,
} from "../core/compaction/index.ts";
import { loadTokenizerEstimator } from "../core/compaction/tokenizer-estimator.ts";
import {
  buildSessionContext,
  buildTreeIndex,
  getPath,
  type ParsedSession,
  resolveLeafId,
  type SessionEntry,
} from "../core/session/index.ts";
import {
  type CliCommand,
  type CliIo,
  checkOptions,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  parseArgs,
  type Result,
  readSessionFile,
} from "./command.ts";

export interface PlanReport {
  file: string;
  leafLine: number | null;
  keepRecentTokens: number;
  reserveTokens: number;
  contextWindow: number | null;
  estimator: string;
  compact: boolean;
  /** Why there is nothing to do (when compact is false). */
  reason?: string;
  code?: string;
  firstKeptEntryId: string | null;
  firstKeptLine: number | null;
  windowStartLine: number | null;
  isSplitTurn: boolean;
  turnStartLine: number | null;
  tokensBefore: number;
  tokensBeforeSource: "reported" | "estimated";
  tokensAfterEstimate: number | null;
  keptTokens: number | null;
  messagesToSummarize: number;
  turnPrefixMessages: number;
  previousSummary: boolean;
  readFiles: string[];
  modifiedFiles: string[];
  /** Context size of the whole current context (same as tokensBefore when there is a plan). */
  contextTokens: number;
  /** contextTokens > contextWindow − reserveTokens; null without --context-window. */
  shouldCompact: boolean | null;
}

export interface SessionPath {
  path: SessionEntry[];
  /** 1-based physical line of each path entry. */
  lines: number[];
  leafLine: number | null;
}

/** The path ending at the leaf on load, or at the entry on `leafLine`. */
export function sessionPath(session: ParsedSession, leafLine?: number): Result<SessionPath> {
  const { entries, lines } = session;
  const index = buildTreeIndex(entries);
  let leafId: string | null | undefined;
  if (leafLine === undefined) leafId = resolveLeafId(entries);
  else {
    const at = lines.indexOf(leafLine);
    if (at < 0) return { ok: false, error: `no entry on line ${leafLine}` };
    leafId = entries[at]!.id;
  }
  const path = getPath(index.byId, leafId);
  const lineOfEntry = new Map<SessionEntry, number>();
  entries.forEach((e, i) => {
    lineOfEntry.set(e, lines[i]!);
  });
  const pathLines = path.map((e) => lineOfEntry.get(e) ?? 0);
  return { ok: true, value: { path, lines: pathLines, leafLine: pathLines.at(-1) ?? null } };
}

function parseCount(name: string, value: string | true | undefined, fallback: number): Result<number> {
  if (value === undefined) return { ok: true, value: fallback };
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n)
    ? { ok: true, value: n }
    : { ok: false, error: `${name} needs a whole number` };
}

export function planReport(
  file: string,
  sp: SessionPath,
  result: PlanResult,
  settings: {
    keepRecentTokens: number;
    reserveTokens: number;
    contextWindow: number | null;
    estimator: string;
  },
  contextTokens: { tokens: number; source: "reported" | "estimated" },
): PlanReport {
  const plan: CompactionPlan | undefined = result.ok ? result.plan : result.plan;
  const line = (i: number) => (i >= 0 ? (sp.lines[i] ?? null) : null);
  const report: PlanReport = {
    file,
    leafLine: sp.leafLine,
    keepRecentTokens: settings.keepRecentTokens,
    reserveTokens: settings.reserveTokens,
    contextWindow: settings.contextWindow,
    estimator: settings.estimator,
    compact: result.ok,
    firstKeptEntryId: plan?.firstKeptEntryId ?? null,
    firstKeptLine: plan ? line(plan.firstKeptIndex) : null,
    windowStartLine: plan ? line(plan.windowStart) : null,
    isSplitTurn: plan?.isSplitTurn ?? false,
    turnStartLine: plan?.isSplitTurn ? line(plan.turnStartIndex) : null,
    tokensBefore: plan?.tokensBefore ?? contextTokens.tokens,
    tokensBeforeSource: plan?.tokensBeforeSource ?? contextTokens.source,
    tokensAfterEstimate: plan?.tokensAfterEstimate ?? null,
    keptTokens: plan?.keptTokens ?? null,
    messagesToSummarize: plan?.summarizeCount ?? 0,
    turnPrefixMessages: plan?.turnPrefixCount ?? 0,
    previousSummary: plan ? plan.previousSummary !== undefined : sp.path.some((e) => e.type === "compaction"),
    readFiles: plan?.fileOps.readFiles ?? [],
    modifiedFiles: plan?.fileOps.modifiedFiles ?? [],
    contextTokens: contextTokens.tokens,
    shouldCompact:
      settings.contextWindow === null
        ? null
        : shouldCompact(contextTokens.tokens, settings.contextWindow, {
            enabled: true,
            reserveTokens: settings.reserveTokens,
          }),
  };
  if (!result.ok) {
    report.reason = result.reason;
    report.code = result.code;
  }
  return report;
}

const num = (n: number | null) => (n === null ? "?" : n.toLocaleString("en-US"));

export function formatPlanReport(r: PlanReport): string {
  const head = `${r.file} (leaf line ${r.leafLine ?? "none"}, keep ${num(r.keepRecentTokens)}, reserve ${num(r.reserveTokens)}, estimator ${r.estimator})`;
  const rows: string[] = [];
  if (!r.compact) rows.push(`nothing to compact: ${r.reason ?? ""}`);
  const after = r.tokensAfterEstimate;
  const saved =
    after !== null && r.tokensBefore > 0 ? ` (${Math.round((after / r.tokensBefore - 1) * 100)} %)` : "";
  rows.push(
    `tokens: ${num(r.tokensBefore)} (${r.tokensBeforeSource})${after !== null ? ` -> at most ~${num(after)}${saved}` : ""}`,
  );
  if (r.firstKeptLine !== null) {
    rows.push(
      `window: from line ${r.windowStartLine}${r.previousSummary ? " (updates the previous summary)" : ""}`,
    );
    rows.push(
      `cut: keep from line ${r.firstKeptLine} (${r.firstKeptEntryId}), ${num(r.keptTokens)} tokens kept`,
    );
    rows.push(
      r.isSplitTurn
        ? `split turn: starts at line ${r.turnStartLine}, prefix of ${r.turnPrefixMessages} message(s)`
        : "split turn: no",
    );
    rows.push(`summarize: ${r.messagesToSummarize} message(s)`);
  }
  rows.push(`files: ${r.readFiles.length} read, ${r.modifiedFiles.length} modified`);
  for (const f of r.readFiles) rows.push(`  read      ${f}`);
  for (const f of r.modifiedFiles) rows.push(`  modified  ${f}`);
  if (r.shouldCompact !== null)
    rows.push(`should compact (window ${num(r.contextWindow)}): ${r.shouldCompact ? "yes" : "no"}`);
  return `${head}\n${rows.map((x) => `  ${x}`).join("\n")}\n`;
}

const VALUED = ["--keep-recent-tokens", "--reserve-tokens", "--context-window", "--leaf-line", "--estimator"];

export const planCommand: CliCommand = {
  name: "plan",
  usage:
    "plan <file>... [--keep-recent-tokens N[,N...]] [--reserve-tokens N] [--context-window N] [--leaf-line N] [--estimator pi|tokenizer] [--json]",
  summary: "Show the compaction plan (cut, split turn, tokens, files) of session files.",
  async run(args: string[], io: CliIo): Promise<number> {
    const usage = (error: string) => {
      io.err(`${error}\nUsage: npm run cli -- ${this.usage}\n`);
      return EXIT_USAGE;
    };
    const parsed = parseArgs(args, VALUED);
    const checked = parsed.ok ? checkOptions(parsed.value, [...VALUED, "--json"]) : parsed;
    if (!checked.ok) return usage(checked.error);
    const { options, positionals } = checked.value;
    if (positionals.length === 0) return usage("missing <file>");
    const keepOption = options.get("--keep-recent-tokens");
    const keeps: number[] = [];
    for (const part of typeof keepOption === "string" ? keepOption.split(",") : [undefined]) {
      const k = parseCount("--keep-recent-tokens", part, DEFAULT_COMPACTION_SETTINGS.keepRecentTokens);
      if (!k.ok) return usage(k.error);
      keeps.push(k.value);
    }
    const reserve = parseCount("--reserve-tokens", options.get("--reserve-tokens"), 16384);
    if (!reserve.ok) return usage(reserve.error);
    const windowOpt = options.get("--context-window");
    const window =
      windowOpt === undefined
        ? { ok: true as const, value: null }
        : parseCount("--context-window", windowOpt, 0);
    if (!window.ok) return usage(window.error);
    const leafOpt = options.get("--leaf-line");
    const leafLine = leafOpt === undefined ? undefined : parseCount("--leaf-line", leafOpt, 0);
    if (leafLine && !leafLine.ok) return usage(leafLine.error);
    const estimatorName = options.get("--estimator") ?? "pi";
    if (estimatorName !== "pi" && estimatorName !== "tokenizer")
      return usage("--estimator must be pi or tokenizer");
    const json = options.has("--json");
    let code = EXIT_OK;
    let printed = 0;
    for (const file of positionals) {
      const fail = (error: string) => {
        io.err(`${error}\n`);
        if (json) io.out(`${JSON.stringify({ file, error })}\n`);
        code = EXIT_FAILURE;
      };
      const session = await readSessionFile(file);
      if (!session.ok) {
        fail(session.error);
        continue;
      }
      const sp = sessionPath(session.value, leafLine?.ok ? leafLine.value : undefined);
      if (!sp.ok) {
        fail(`${file}: ${sp.error}`);
        continue;
      }
      let estimator: Estimator = PI_ESTIMATOR;
      if (estimatorName === "tokenizer") {
        const model = buildSessionContext(sp.value.path).model?.modelId;
        const loaded = await loadTokenizerEstimator(model);
        if (!loaded.ok) {
          fail(`${file}: ${loaded.error}`);
          continue;
        }
        estimator = loaded.value;
      }
      for (const keep of keeps) {
        const settings = { keepRecentTokens: keep, reserveTokens: reserve.value };
        const result = planCompaction(sp.value.path, settings, { estimator });
        const context = result.ok
          ? { tokens: result.plan.tokensBefore, source: result.plan.tokensBeforeSource }
          : ((result.plan && { tokens: result.plan.tokensBefore, source: result.plan.tokensBeforeSource }) ??
            contextOf(sp.value.path, estimator));
        const report = planReport(
          file,
          sp.value,
          result,
          { ...settings, contextWindow: window.value, estimator: estimator.id },
          context,
        );
        if (json) io.out(`${JSON.stringify(report)}\n`);
        else io.out(`${printed++ > 0 ? "\n" : ""}${formatPlanReport(report)}`);
      }
    }
    return code;
  },
};

/** Context size when there is no plan (empty path, or the last entry is a compaction). */
function contextOf(path: SessionEntry[], estimator: Estimator) {
  const planner = createPlanner({ estimator });
  planner.setPath(path);
  return planner.contextTokens();
}
