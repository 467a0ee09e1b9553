/**
 * `plan <file>... [--keep-recent-tokens N[,N...]] [--reserve-tokens N] [--context-window N]
 * [--leaf-line N[,N...] | --every-line] [--estimator pi|tokenizer] [--json [--pi-fields]]
 * [--compare <plans.jsonl>]`: the compaction plan of each file at the leaf on load (the current
 * path), at the entries on the given physical lines, or at every entry line ("how would the
 * session have been compacted over time"). One row per leaf and keep value (plan-rows.ts); one
 * incremental planner follows the leaves' paths (leaf-paths.ts), so many leaves cost about one
 * pass. `--compare` plans the rows of a reference file (by default its lines and keep values)
 * and prints how many agree and the differing rows.
 */
import { readFile } from "node:fs/promises";
import {
  createPlanner,
  DEFAULT_COMPACTION_SETTINGS,
  type Estimator,
  PI_ESTIMATOR,
} from "../core/compaction/index.ts";
import { loadTokenizerEstimator } from "../core/compaction/tokenizer-estimator.ts";
import {
  buildSessionContext,
  buildTreeIndex,
  currentPath,
  getPath,
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
  parseCount,
  type Result,
  readSessionFile,
} from "./command.ts";
import { LeafPathWalker, lineIndex } from "./leaf-paths.ts";
import { createOutputBuffer } from "./output.ts";
import {
  compareRows,
  formatComparison,
  formatPlanReport,
  type PiPlanRow,
  type PlanReport,
  parseReferenceRows,
  piRow,
  planReport,
  tableHeader,
  tableRow,
} from "./plan-rows.ts";

export type { PlanReport } from "./plan-rows.ts";

const VALUED = [
  "--keep-recent-tokens",
  "--reserve-tokens",
  "--context-window",
  "--leaf-line",
  "--estimator",
  "--compare",
];
const FLAGS = ["--json", "--every-line", "--pi-fields"];

function parseCounts(name: string, value: string | true | undefined): Result<number[] | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const out: number[] = [];
  for (const part of typeof value === "string" ? value.split(",") : [""]) {
    const n = parseCount(name, part, 0);
    if (!n.ok) return { ok: false, error: `${name} needs whole numbers separated by commas` };
    out.push(n.value);
  }
  return { ok: true, value: out };
}

/** Which leaves to plan at: the leaf on load, or physical lines (each must hold an entry). */
type Leaves = { kind: "current" } | { kind: "lines"; lines: number[]; skipMissing: boolean };

interface PlanSetup {
  keeps: number[];
  reserve: number;
  contextWindow: number | null;
  leaves: Leaves | "every";
  estimatorName: "pi" | "tokenizer";
  json: boolean;
  piFields: boolean;
  reference?: PiPlanRow[];
}

/** The command's output (output.ts) with blank lines between text blocks. */
function bufferedOut(io: CliIo) {
  const out = createOutputBuffer(io);
  let written = false;
  return {
    settle: () => out.settle(),
    write(text: string) {
      out.write(text);
      written = true;
    },
    /** A blank line between text blocks (not before the first). */
    gap() {
      if (written) out.write("\n");
    },
    flush: () => out.flush(),
  };
}

async function planFile(
  file: string,
  setup: PlanSetup,
  out: ReturnType<typeof bufferedOut>,
  collected: PiPlanRow[] | undefined,
): Promise<string | undefined> {
  const session = await readSessionFile(file);
  if (!session.ok) return session.error;
  const { entries } = session.value;
  const index = buildTreeIndex(entries);
  const lineOf = lineIndex(session.value);
  let leafIds: (string | null)[] | "current";
  if (setup.leaves === "every") leafIds = entries.map((e) => e.id);
  else if (setup.leaves.kind === "current") leafIds = "current";
  else {
    const entryAt = new Map<number, SessionEntry>();
    entries.forEach((e, i) => {
      entryAt.set(session.value.lines[i]!, e);
    });
    leafIds = [];
    for (const line of setup.leaves.lines) {
      const entry = entryAt.get(line);
      if (entry) leafIds.push(entry.id);
      else if (!setup.leaves.skipMissing) return `${file}: no entry on line ${line}`;
    }
  }
  let estimator: Estimator = PI_ESTIMATOR;
  if (setup.estimatorName === "tokenizer") {
    const last = leafIds === "current" ? currentPath(entries, index) : getPath(index.byId, leafIds.at(-1));
    const loaded = await loadTokenizerEstimator(buildSessionContext(last).model?.modelId);
    if (!loaded.ok) return `${file}: ${loaded.error}`;
    estimator = loaded.value;
  }
  const planner = createPlanner({ estimator });
  const walker = new LeafPathWalker(index, planner);
  const detailed = leafIds === "current" || leafIds.length <= 1;
  if (!setup.json && !collected && !detailed) {
    out.gap();
    out.write(`${file}\n${tableHeader()}`);
  }
  const plansAt = (path: readonly SessionEntry[]) => {
    const context = planner.contextTokens();
    for (const keep of setup.keeps) {
      const result = planner.plan({ keepRecentTokens: keep, reserveTokens: setup.reserve });
      const report: PlanReport = planReport({
        file,
        path,
        lineOf,
        keep,
        reserve: setup.reserve,
        contextWindow: setup.contextWindow,
        estimator: estimator.id,
        result,
        context,
      });
      if (collected) collected.push(piRow(report));
      else if (setup.json) out.write(`${JSON.stringify(setup.piFields ? piRow(report) : report)}\n`);
      else if (detailed) {
        out.gap();
        out.write(formatPlanReport(report));
      } else out.write(tableRow(report));
    }
  };
  if (leafIds === "current") plansAt(walker.setPath(currentPath(entries, index)));
  else
    for (const id of leafIds) {
      plansAt(walker.moveTo(id));
      await out.settle();
    }
  return undefined;
}

function readSetup(
  options: Map<string, string | true>,
  reference: PiPlanRow[] | undefined,
): Result<PlanSetup> {
  const keepList = parseCounts("--keep-recent-tokens", options.get("--keep-recent-tokens"));
  if (!keepList.ok) return keepList;
  const reserve = parseCount("--reserve-tokens", options.get("--reserve-tokens"), 16384);
  if (!reserve.ok) return reserve;
  const windowOpt = options.get("--context-window");
  const window = windowOpt === undefined ? undefined : parseCount("--context-window", windowOpt, 0);
  if (window && !window.ok) return window;
  const leafLines = parseCounts("--leaf-line", options.get("--leaf-line"));
  if (!leafLines.ok) return leafLines;
  const every = options.has("--every-line");
  if (every && leafLines.value)
    return { ok: false, error: "--leaf-line and --every-line exclude each other" };
  const estimatorName = options.get("--estimator") ?? "pi";
  if (estimatorName !== "pi" && estimatorName !== "tokenizer")
    return { ok: false, error: "--estimator must be pi or tokenizer" };
  const unique = (xs: number[]) => [...new Set(xs)];
  const keeps =
    keepList.value ??
    (reference ? unique(reference.map((r) => r.keep)) : [DEFAULT_COMPACTION_SETTINGS.keepRecentTokens]);
  let leaves: PlanSetup["leaves"] = { kind: "current" };
  if (every) leaves = "every";
  else if (leafLines.value) leaves = { kind: "lines", lines: leafLines.value, skipMissing: false };
  else if (reference) {
    const lines = unique(reference.map((r) => r.line).filter((l): l is number => typeof l === "number"));
    leaves = { kind: "lines", lines, skipMissing: true };
  }
  const piFields = options.has("--pi-fields");
  if (piFields && !options.has("--json")) return { ok: false, error: "--pi-fields goes with --json" };
  return {
    ok: true,
    value: {
      keeps,
      reserve: reserve.value,
      contextWindow: window ? window.value : null,
      leaves,
      estimatorName,
      json: options.has("--json"),
      piFields,
      reference,
    },
  };
}

export const planCommand: CliCommand = {
  name: "plan",
  usage:
    "plan <file>... [--keep-recent-tokens N[,N...]] [--reserve-tokens N] [--context-window N] [--leaf-line N[,N...] | --every-line] [--estimator pi|tokenizer] [--json [--pi-fields]] [--compare <plans.jsonl>]",
  summary: "Show the compaction plan (cut, split turn, tokens, files) of session files, at one leaf or many.",
  async run(args: string[], io: CliIo): Promise<number> {
    const usage = (error: string) => {
      io.err(`${error}\nUsage: npm run cli -- ${this.usage}\n`);
      return EXIT_USAGE;
    };
    const parsed = parseArgs(args, VALUED);
    const checked = parsed.ok ? checkOptions(parsed.value, [...VALUED, ...FLAGS]) : parsed;
    if (!checked.ok) return usage(checked.error);
    const { options, positionals } = checked.value;
    if (positionals.length === 0) return usage("missing <file>");
    const compareFile = options.get("--compare");
    let reference: PiPlanRow[] | undefined;
    if (typeof compareFile === "string") {
      if (positionals.length !== 1) return usage("--compare takes one <file>");
      let text: string;
      try {
        text = await readFile(compareFile, "utf8");
      } catch (error) {
        io.err(`${compareFile}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`);
        return EXIT_FAILURE;
      }
      const rows = parseReferenceRows(text);
      if (!rows.ok) {
        io.err(`${compareFile}: ${rows.error}\n`);
        return EXIT_FAILURE;
      }
      reference = rows.rows;
    }
    const setup = readSetup(options, reference);
    if (!setup.ok) return usage(setup.error);
    const out = bufferedOut(io);
    const collected = reference ? ([] as PiPlanRow[]) : undefined;
    let code = EXIT_OK;
    for (const file of positionals) {
      const error = await planFile(file, setup.value, out, collected);
      if (error === undefined) continue;
      out.flush();
      io.err(`${error}\n`);
      if (setup.value.json) io.out(`${JSON.stringify({ file, error })}\n`);
      code = EXIT_FAILURE;
    }
    if (reference && collected && code === EXIT_OK) {
      const comparison = compareRows(collected, reference);
      if (setup.value.json) {
        for (const d of comparison.differences) out.write(`${JSON.stringify(d)}\n`);
        const { differences: _, ...counts } = comparison;
        out.write(`${JSON.stringify(counts)}\n`);
      } else out.write(formatComparison(comparison));
    }
    out.flush();
    return code;
  },
};
