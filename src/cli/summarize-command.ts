/**
 * `summarize <file> [--leaf-line N] [--keep-recent-tokens K] [--reserve-tokens R] --offline`: prints
 * the offline summary the app writes for that plan (the same core call: planCompaction, then
 * generateOfflineCompaction), file blocks included.
 */
import {
  DEFAULT_COMPACTION_SETTINGS,
  generateOfflineCompaction,
  planCompaction,
} from "../core/compaction/index.ts";
import {
  type CliCommand,
  type CliIo,
  checkOptions,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  parseArgs,
  parseCount,
  readSessionFile,
} from "./command.ts";
import { sessionPath } from "./leaf-paths.ts";

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
    const keep = parseCount(
      "--keep-recent-tokens",
      options.get("--keep-recent-tokens"),
      DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
    );
    if (!keep.ok) return usage(keep.error);
    const reserve = parseCount(
      "--reserve-tokens",
      options.get("--reserve-tokens"),
      DEFAULT_COMPACTION_SETTINGS.reserveTokens,
    );
    if (!reserve.ok) return usage(reserve.error);
    const leafOpt = options.get("--leaf-line");
    const leaf = leafOpt === undefined ? undefined : parseCount("--leaf-line", leafOpt, 0);
    if (leaf && !leaf.ok) return usage(leaf.error);
    const file = positionals[0]!;
    const fail = (error: string) => {
      io.err(`${error}\n`);
      return EXIT_FAILURE;
    };
    const session = await readSessionFile(file);
    if (!session.ok) return fail(session.error);
    const sp = sessionPath(session.value, leaf?.ok ? leaf.value : undefined);
    if (!sp.ok) return fail(`${file}: ${sp.error}`);
    const planned = planCompaction(sp.value.path, {
      keepRecentTokens: keep.value,
      reserveTokens: reserve.value,
    });
    if (!planned.ok) return fail(`${file}: ${planned.reason}`);
    const generated = generateOfflineCompaction(planned.plan);
    if (!generated.ok) return fail(`${file}: ${generated.error}`);
    io.out(`${generated.fields.summary}\n`);
    return EXIT_OK;
  },
};
