/**
 * CLI entry: `npm run cli -- <command> [args]` (runs this file with tsx).
 * To add a command: import its CliCommand and add one row to COMMANDS.
 */
import { once } from "node:events";
import {
  type CliCommand,
  type CliIo,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  reportProblemsTo,
} from "./command.ts";
import { contextCommand } from "./context-command.ts";
import { coverageCommand } from "./coverage-command.ts";
import { inspectCommand } from "./inspect-command.ts";
import { migrateCommand } from "./migrate-command.ts";
import { planCommand } from "./plan-command.ts";
import { summarizeCommand } from "./summarize-command.ts";

export const COMMANDS: readonly CliCommand[] = [
  inspectCommand,
  migrateCommand,
  planCommand,
  contextCommand,
  coverageCommand,
  summarizeCommand,
  // one row per command
];

export function usageText(commands: readonly CliCommand[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => c.usage.length));
  const rows = commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`);
  return `Usage: npm run cli -- <command> [args]\n\nCommands:\n${rows.join("\n")}\n`;
}

/** Dispatches `argv` (without node and script) to a command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo, commands = COMMANDS): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    (name === undefined ? io.err : io.out)(usageText(commands));
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    io.err(`Unknown command "${name}".\n\n${usageText(commands)}`);
    return EXIT_USAGE;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(`Usage: npm run cli -- ${command.usage}\n${command.summary}\n`);
    return EXIT_OK;
  }
  reportProblemsTo(io.err);
  try {
    return await command.run(rest, io);
  } finally {
    reportProblemsTo(undefined);
  }
}

/**
 * A reader that stops early (`… | head`) closes the pipe: the next write fails with EPIPE. That
 * is the reader's choice, not an error of the command: exit at once, with status 0, silently
 * (any other error of the stream: status 1).
 */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream, exit: (code: number) => void): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    exit(error.code === "EPIPE" ? EXIT_OK : EXIT_FAILURE);
  });
}

const isEntry = process.argv[1] !== undefined && import.meta.filename === process.argv[1];
if (isEntry) {
  for (const stream of [process.stdout, process.stderr])
    exitQuietlyOnClosedPipe(stream, (code) => process.exit(code));
  const io: CliIo = {
    out: (t) => process.stdout.write(t),
    outBytes: (b) => process.stdout.write(b),
    err: (t) => process.stderr.write(t),
    // Writes to a pipe queue up in memory while the reader is slower: wait for them.
    drain: () =>
      process.stdout.writableNeedDrain
        ? once(process.stdout, "drain").then(() => undefined)
        : Promise.resolve(),
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 70;
    },
  );
}
