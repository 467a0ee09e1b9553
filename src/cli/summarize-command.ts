/**
 * `summarize <file> [--leaf-line N] [--keep-recent-tokens K] [--reserve-tokens R] --offline`: prints
 * the offline summary the app writes for that plan (the same core call: planCompaction, then
 * generateOfflineCompaction), file blocks included.
 */
import { generateOfflineCompaction } from "../core/compaction/index.ts";
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

const VALUED = ["--leaf-line", "--keep-recent-tokens", "--reserve-tokens"];

export const summarizeCommand: CliCommand = {
  name: "summarize",
  usage: "summarize <file> [--leaf-line N] [--keep-recent-tokens K] [--reserve-tokens R] --offline",
  summary: "Print the offline summary the app would write for the compaction plan (no model).",
  async run(args: string[], io: CliIo): Promise<number> {
    const usage = (error: string) => {
      io.err(`${error}\nUsage: npm run cli -- ${this.usage}\n`);
      return EXIT_USAGE;
    };
    const parsed = parseArgs(args, VALUED);
    const checked = parsed.ok ? checkOptions(parsed.value, [...VALUED, "--offline"]) : parsed;
    if (!checked.ok) return usage(checked.error);
    const { options, positionals } = checked.value;
    if (positionals.length !== 1)
      return usage(positionals.length === 0 ? "missing <file>" : "one <file> only");
    if (!options.has("--offline")) return usage("only --offline summaries are written here (no model)");
    const file = positionals[0]!;
    const fail = (error: string) => {
      io.err(`${error}\n`);
      return EXIT_FAILURE;
    };
    const planned = await planFromOptions(options, file);
    if (!planned.ok) return "usage" in planned ? usage(planned.usage) : fail(planned.failure);
    const generated = generateOfflineCompaction(planned.plan);
    if (!generated.ok) return fail(`${file}: ${generated.error}`);
    io.out(`${generated.fields.summary}\n`);
    return EXIT_OK;
  },
};
