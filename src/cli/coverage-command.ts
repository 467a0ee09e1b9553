/**
 * `coverage <file> [--leaf-line N] [--keep-recent-tokens K] [--reserve-tokens R] (--summary FILE |
 * --offline) [--json]`: the items of the plan's summarized range (files, commands, errors, the
 * person's names, values, URLs and instructions, open to-dos) and whether the summary covers
 * each, with the figure; then the probes (questions the range answers) and whether the summary
 * answers each. Calls the same core functions as the app (planCompaction, checkCoverage, deriveProbes, checkProbes).
 */
import { readFile } from "node:fs/promises";
import {
  type CoverageReport,
  checkCoverage,
  checkProbes,
  coverageFigure,
  coverageRanges,
  deriveProbes,
  generateOfflineCompaction,
  type ProbeReport,
  planCoverageItems,
  probeNote,
  probesFigure,
} from "../core/compaction/index.ts";
import {
  type CliCommand,
  type CliIo,
  checkOptions,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  parseArgs,
} from "./command.ts";
import { planFromOptions } from "./plan-options.ts";

export interface CoverageCliReport extends CoverageReport {
  file: string;
  leafLine: number | null;
  keepRecentTokens: number;
  summarySource: string;
  figure: string;
  probes: ProbeReport;
  /** "4 of 5 probes answered" (what the review shows). */
  probesFigure: string;
}

export function formatCoverageReport(r: CoverageCliReport): string {
  const rows = [
    `${r.file} (leaf line ${r.leafLine ?? "none"}, keep ${r.keepRecentTokens}, summary: ${r.summarySource})`,
    `  coverage: ${r.figure}`,
  ];
  const kinds = Object.entries(r.byKind)
    .filter(([, k]) => k.total > 0)
    .map(([kind, k]) => `${kind} ${k.covered}/${k.total}`);
  if (kinds.length > 0) rows.push(`  by kind: ${kinds.join(", ")}`);
  const width = Math.max(0, ...r.items.map((i) => i.kind.length));
  for (const i of r.items) {
    const mark = i.dismissed ? "-" : i.resolved ? "↻" : i.covered ? "✓" : "✗";
    const detail = `${i.detail ? ` (${i.detail})` : ""}${i.resolved ? " (resolved later)" : i.weight >= 2 ? " [key]" : ""}`;
    rows.push(
      `  ${mark} ${i.kind.padEnd(width)}  ${i.text}${detail}  [${i.entryIds.slice(0, 3).join(", ")}${i.entryIds.length > 3 ? ", …" : ""}]`,
    );
  }
  rows.push(`  ${r.probesFigure}:`);
  for (const p of r.probes.probes)
    rows.push(`  ${p.answered ? "✓" : "✗"} ${p.question} ${p.expected} (${probeNote(p)})`);
  return `${rows.join("\n")}\n`;
}

const VALUED = ["--leaf-line", "--keep-recent-tokens", "--reserve-tokens", "--summary"];

export const coverageCommand: CliCommand = {
  name: "coverage",
  usage:
    "coverage <file> [--leaf-line N] [--keep-recent-tokens K] [--reserve-tokens R] (--summary FILE | --offline) [--json]",
  summary:
    "List what the summarized range holds and whether a summary (a file, or the offline one) mentions it, and the probes it answers.",
  async run(args: string[], io: CliIo): Promise<number> {
    const usage = (error: string) => {
      io.err(`${error}\nUsage: npm run cli -- ${this.usage}\n`);
      return EXIT_USAGE;
    };
    const parsed = parseArgs(args, VALUED);
    const checked = parsed.ok ? checkOptions(parsed.value, [...VALUED, "--offline", "--json"]) : parsed;
    if (!checked.ok) return usage(checked.error);
    const { options, positionals } = checked.value;
    if (positionals.length !== 1)
      return usage(positionals.length === 0 ? "missing <file>" : "one <file> only");
    const summaryFile = options.get("--summary");
    const offline = options.has("--offline");
    if ((summaryFile === undefined) === !offline)
      return usage("give exactly one of --summary FILE and --offline");
    const file = positionals[0]!;
    const fail = (error: string) => {
      io.err(`${error}\n`);
      return EXIT_FAILURE;
    };
    const planned = await planFromOptions(options, file);
    if (!planned.ok) return "usage" in planned ? usage(planned.usage) : fail(planned.failure);
    let summary: string;
    if (typeof summaryFile === "string") {
      try {
        summary = await readFile(summaryFile, "utf8");
      } catch (error) {
        return fail(
          `${summaryFile}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        );
      }
    } else {
      const generated = generateOfflineCompaction(planned.plan);
      if (!generated.ok) return fail(`${file}: ${generated.error}`);
      summary = generated.fields.summary;
    }
    const items = planCoverageItems(planned.plan);
    const report = checkCoverage(summary, items);
    const probes = checkProbes(summary, deriveProbes(coverageRanges(planned.plan), items));
    const out: CoverageCliReport = {
      file,
      leafLine: planned.leafLine,
      keepRecentTokens: planned.keepRecentTokens,
      summarySource: typeof summaryFile === "string" ? summaryFile : "offline",
      figure: coverageFigure(report),
      ...report,
      probes,
      probesFigure: probesFigure(probes),
    };
    io.out(options.has("--json") ? `${JSON.stringify(out)}\n` : formatCoverageReport(out));
    return EXIT_OK;
  },
};
