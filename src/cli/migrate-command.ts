/**
 * `migrate <in> -o <out>`: reads a session of any version and writes it as v3 JSONL, exactly
 * as the app's export does (serializeParsedSession: a v3 file's entry lines are kept byte for
 * byte, migrated entries are written with JSON.stringify). v1 ids are deterministic, so the
 * app's import and this command give byte-identical output for the same file.
 */
import { writeFile } from "node:fs/promises";
import { problemEffect, serializeParsedSession } from "../core/session/index.ts";
import {
  type CliCommand,
  type CliIo,
  checkOptions,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  parseArgs,
  readSessionFileWithBytes,
} from "./command.ts";

export const migrateCommand: CliCommand = {
  name: "migrate",
  usage: "migrate <in> -o <out>",
  summary: "Write a session file as v3 JSONL, exactly as the app exports it.",
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseArgs(args, ["-o", "--out"]);
    const checked = parsed.ok ? checkOptions(parsed.value, ["-o", "--out"]) : parsed;
    const usage = `Usage: npm run cli -- ${this.usage}\n`;
    if (!checked.ok) {
      io.err(`${checked.error}\n${usage}`);
      return EXIT_USAGE;
    }
    const { positionals, options } = checked.value;
    const out = options.get("-o") ?? options.get("--out");
    const input = positionals[0];
    if (input === undefined || positionals.length > 1 || typeof out !== "string") {
      io.err(
        `${input === undefined ? "missing <in>" : positionals.length > 1 ? "one input file only" : "missing -o <out>"}\n${usage}`,
      );
      return EXIT_USAGE;
    }
    const session = await readSessionFileWithBytes(input, { quiet: true });
    if (!session.ok) {
      io.err(`${session.error}\n`);
      return EXIT_FAILURE;
    }
    const { entries, problems, originalVersion } = session.value;
    try {
      await writeFile(out, serializeParsedSession(session.value, session.value.bytes));
    } catch (error) {
      io.err(`${out}: cannot write (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`);
      return EXIT_FAILURE;
    }
    const leftOut = problems.filter((p) => problemEffect(p.kind) === "left-out").length;
    const repaired = problems.filter((p) => problemEffect(p.kind) === "repaired").length;
    const tree = problems.length - leftOut - repaired;
    const notes = [
      leftOut > 0 ? `${leftOut} bad line(s) left out` : "",
      repaired > 0 ? `${repaired} line(s) of invalid UTF-8 written with U+FFFD` : "",
      tree > 0 ? `${tree} problem(s) in the tree, kept as they are` : "",
    ].filter((s) => s !== "");
    io.err(
      `${input}: version ${originalVersion} -> 3, ${entries.length} entries written to ${out}` +
        (notes.length === 0 ? "\n" : `; ${notes.join(", ")} (see inspect)\n`),
    );
    return EXIT_OK;
  },
};
