/**
 * The shape of a CLI command and the helpers commands share. A command is a plain object;
 * main.ts dispatches on its `name`. Adding a command = write `xxx-command.ts` exporting a
 * `CliCommand`, then one import and one row in main.ts's COMMANDS table.
 */
import { type FileHandle, open, readFile } from "node:fs/promises";
import {
  createSessionByteParser,
  type ParsedSession,
  type ParseResult,
  parseSessionBytes,
} from "../core/session/index.ts";

/** Where a command writes. Tests pass collectors; main passes process streams. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Writes bytes (UTF-8) to the same place as `out`, when the output takes bytes (main's stdout). */
  outBytes?(bytes: Uint8Array): void;
  /** Resolves once written output has gone out (a slow pipe); commands that print a lot await it. */
  drain?(): Promise<void>;
}

export interface CliCommand {
  name: string;
  /** One line, e.g. "inspect <file>... [--json]". */
  usage: string;
  /** One sentence for the command list. */
  summary: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

/** Exit codes: 0 ok, 1 a file could not be read or is not a session, 2 bad arguments. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface ParsedArgs {
  positionals: string[];
  /** `--flag` -> true, `--opt value` / `-o value` / `--opt=value` -> the value. */
  options: Map<string, string | true>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Splits arguments into positionals and options. `valued` names the options that take a
 * value (e.g. ["-o", "--out"]); any other option is a flag. `--` ends the options.
 */
export function parseArgs(args: readonly string[], valued: readonly string[] = []): Result<ParsedArgs> {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("-") && arg !== "-") {
      const eq = arg.indexOf("=");
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      if (valued.includes(name)) {
        const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
        if (value === undefined || value === "") return { ok: false, error: `option ${name} needs a value` };
        options.set(name, value);
      } else {
        if (eq > 0) return { ok: false, error: `option ${name} takes no value` };
        options.set(name, true);
      }
    } else {
      positionals.push(arg);
    }
  }
  return { ok: true, value: { positionals, options } };
}

/** Rejects options outside `known`. */
export function checkOptions(parsed: ParsedArgs, known: readonly string[]): Result<ParsedArgs> {
  for (const name of parsed.options.keys()) {
    if (!known.includes(name)) return { ok: false, error: `unknown option ${name}` };
  }
  return { ok: true, value: parsed };
}

/**
 * Where `readSessionFile` tells about a file's problems (bad lines, a damaged tree), so that no
 * command works on a damaged file without saying so; `runCli` points it at stderr.
 */
let problemSink: ((text: string) => void) | undefined;

export function reportProblemsTo(sink: ((text: string) => void) | undefined): void {
  problemSink = sink;
}

/** One line about a file's problems: how many, the first, and where to see them all. */
export function problemsWarning(path: string, problems: ParsedSession["problems"]): string {
  const first = problems[0];
  if (first === undefined) return "";
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return `${path}: warning: line ${first.line}: ${first.reason}${more}; see npm run cli -- inspect ${path}\n`;
}

/** What a file that cannot be read is called in an error: "<path>: cannot read (no such file)". */
function cannotRead(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (code ?? String(error));
  return `${path}: cannot read (${why})`;
}

/** The parse's result as the CLI says it: errors name the file (and line); problems go to the sink. */
function checkedParse(path: string, result: ParseResult, quiet: boolean): Result<ParsedSession> {
  if (!result.ok) {
    const where = result.error.line === undefined ? "" : `:${result.error.line}`;
    return { ok: false, error: `${path}${where}: ${result.error.message}` };
  }
  if (!quiet && result.value.problems.length > 0) problemSink?.(problemsWarning(path, result.value.problems));
  return { ok: true, value: result.value };
}

/** Bytes read per piece: the file streams into the parser and is never whole in memory. */
const PIECE_BYTES = 1024 * 1024;

/**
 * Reads and parses a session file a piece at a time (a 100 MB file never sits in memory beside
 * its entries); errors are messages naming the file (and line). Its problems go to the sink
 * (`reportProblemsTo`) unless `quiet` (a command that reports them itself).
 */
export async function readSessionFile(
  path: string,
  { quiet = false }: { quiet?: boolean } = {},
): Promise<Result<ParsedSession>> {
  const parser = createSessionByteParser();
  // A plain Uint8Array, reused for every piece: the parser copies a line's unfinished tail with
  // slice(), which on a Node Buffer would be a view into the next piece.
  const piece = new Uint8Array(PIECE_BYTES);
  let file: FileHandle | undefined;
  try {
    file = await open(path, "r");
    for (;;) {
      const { bytesRead } = await file.read(piece, 0, PIECE_BYTES, null);
      if (bytesRead === 0) break;
      parser.push(piece.subarray(0, bytesRead));
    }
  } catch (error) {
    return { ok: false, error: cannotRead(path, error) };
  } finally {
    await file?.close();
  }
  return checkedParse(path, parser.finish(), quiet);
}

/** `readSessionFile` that also keeps the file's bytes (migrate writes unchanged lines as they are). */
export async function readSessionFileWithBytes(
  path: string,
  { quiet = false }: { quiet?: boolean } = {},
): Promise<Result<ParsedSession & { bytes: Uint8Array }>> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return { ok: false, error: cannotRead(path, error) };
  }
  const parsed = checkedParse(path, parseSessionBytes(bytes), quiet);
  return parsed.ok ? { ok: true, value: { ...parsed.value, bytes } } : parsed;
}

/** A whole-number option (`fallback` when absent). */
export function parseCount(name: string, value: string | true | undefined, fallback: number): Result<number> {
  if (value === undefined) return { ok: true, value: fallback };
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n)
    ? { ok: true, value: n }
    : { ok: false, error: `${name} needs a whole number` };
}
