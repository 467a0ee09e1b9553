/**
 * `inspect <file>... [--json]`: what a session file holds. Per file: the header version, counts
 * per entry type and per message role, the path length from the leaf (and where a damaged tree
 * cuts it short), the compactions on that path (line of the entry, line of its first kept entry)
 * and every problem with its line: the parser's and damage.ts's, exactly what the app's import
 * reports. Lines are 1-based physical lines of the input. `--json` prints one JSON object per file per line.
 */
import {
  buildTreeIndex,
  getPath,
  getSessionName,
  isCompactionEntry,
  isMessageEntry,
  type LineProblem,
  type ParsedSession,
  resolveLeafId,
} from "../core/session/index.ts";
import {
  type CliCommand,
  type CliIo,
  checkOptions,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  parseArgs,
  readSessionFile,
} from "./command.ts";

export interface CompactionOnPath {
  /** Line of the compaction entry. */
  line: number;
  /** Line of its first kept entry; null when the id is unset or names no entry of the file. */
  firstKeptLine: number | null;
  tokensBefore: number | null;
}

export interface InspectReport {
  file: string;
  /** Version in the file's header (a missing version means 1). */
  version: number;
  sessionId: string;
  name: string | null;
  entries: number;
  types: Record<string, number>;
  roles: Record<string, number>;
  /** Line of the leaf entry; null when the leaf is before the first entry or there are none. */
  leafLine: number | null;
  pathLength: number;
  /** Line of the path's first entry; null when the path is empty. */
  pathFirstLine: number | null;
  /** Line of the problem that cuts the path short (a missing parent or a cycle), else null. */
  pathCutBy: number | null;
  compactions: CompactionOnPath[];
  problems: LineProblem[];
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

export function inspectSession(file: string, session: ParsedSession): InspectReport {
  const { entries, lines } = session;
  const types: Record<string, number> = {};
  const roles: Record<string, number> = {};
  for (const entry of entries) {
    increment(types, entry.type);
    if (isMessageEntry(entry)) increment(roles, String(entry.message.role));
  }
  const index = buildTreeIndex(entries);
  const lineOf = (id: string | null | undefined): number | null => {
    if (typeof id !== "string") return null;
    const at = index.order.get(id);
    return at === undefined ? null : (lines[at] ?? null);
  };
  const leafId = resolveLeafId(entries);
  const path = getPath(index.byId, leafId);
  const compactions: CompactionOnPath[] = [];
  for (const entry of path) {
    if (!isCompactionEntry(entry)) continue;
    compactions.push({
      line: lineOf(entry.id) ?? 0,
      firstKeptLine: lineOf(entry.firstKeptEntryId),
      tokensBefore: typeof entry.tokensBefore === "number" ? entry.tokensBefore : null,
    });
  }
  return {
    file,
    version: session.originalVersion,
    sessionId: session.header.id,
    name: getSessionName(entries) ?? null,
    entries: entries.length,
    types,
    roles,
    leafLine: session.path.leafLine,
    pathLength: session.path.length,
    pathFirstLine: session.path.firstLine,
    pathCutBy: session.path.cutBy,
    compactions,
    problems: session.problems,
  };
}

function countsText(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, n]) => `${key} ${n}`);
  return parts.length === 0 ? "none" : parts.join(", ");
}

function pathText(report: InspectReport): string {
  const leaf = report.leafLine === null ? "" : ` (line ${report.leafLine})`;
  if (report.pathCutBy === null) return `${report.pathLength} entries from the root to the leaf${leaf}`;
  return (
    `${report.pathLength} entries from line ${report.pathFirstLine} to the leaf${leaf}, ` +
    `cut off from the root by the problem on line ${report.pathCutBy}`
  );
}

export function formatReport(report: InspectReport): string {
  const rows: [string, string][] = [
    ["session", `${report.sessionId}${report.name === null ? "" : ` "${report.name}"`}`],
    ["version", report.version === 3 ? "3" : `${report.version} (read as 3)`],
    ["entries", String(report.entries)],
    ["types", countsText(report.types)],
    ["roles", countsText(report.roles)],
    ["path", pathText(report)],
  ];
  if (report.compactions.length === 0) rows.push(["compactions", "none on the path"]);
  for (const [i, c] of report.compactions.entries()) {
    const kept = c.firstKeptLine === null ? "keeps nothing before it" : `keeps from line ${c.firstKeptLine}`;
    const tokens = c.tokensBefore === null ? "" : `, ${c.tokensBefore} tokens before`;
    rows.push([i === 0 ? "compactions" : "", `line ${c.line} ${kept}${tokens}`]);
  }
  if (report.problems.length === 0) rows.push(["problems", "none"]);
  for (const [i, p] of report.problems.entries()) {
    const excerpt = p.excerpt === "" ? "" : `: ${JSON.stringify(p.excerpt)}`;
    rows.push([i === 0 ? "problems" : "", `line ${p.line}: ${p.reason}${excerpt}`]);
  }
  const width = Math.max(...rows.map(([key]) => key.length));
  return `${report.file}\n${rows.map(([key, value]) => `  ${key.padEnd(width)}  ${value}`).join("\n")}\n`;
}

export const inspectCommand: CliCommand = {
  name: "inspect",
  usage: "inspect <file>... [--json]",
  summary: "Show version, entry and role counts, path, compactions and problem lines of session files.",
  async run(args: string[], io: CliIo): Promise<number> {
    const parsed = parseArgs(args);
    const checked = parsed.ok ? checkOptions(parsed.value, ["--json"]) : parsed;
    if (!checked.ok || checked.value.positionals.length === 0) {
      io.err(`${checked.ok ? "missing <file>" : checked.error}\nUsage: npm run cli -- ${this.usage}\n`);
      return EXIT_USAGE;
    }
    const json = checked.value.options.has("--json");
    let code = EXIT_OK;
    const files = checked.value.positionals;
    for (const [i, file] of files.entries()) {
      const session = await readSessionFile(file, { quiet: true });
      if (!session.ok) {
        io.err(`${session.error}\n`);
        if (json) io.out(`${JSON.stringify({ file, error: session.error })}\n`);
        code = EXIT_FAILURE;
        continue;
      }
      const report = inspectSession(file, session.value);
      if (json) io.out(`${JSON.stringify(report)}\n`);
      else io.out(`${i > 0 ? "\n" : ""}${formatReport(report)}`);
    }
    return code;
  },
};
