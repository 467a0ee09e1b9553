/**
 * A plan in the shape of pi 1.6's reference plan rows (the fields of
 * ../shared/fixtures/pi16/before-compaction.pi16-plans.jsonl, same names, same order, the plan
 * fields only when it compacts), so that Cutpoint's plans and pi's can be compared row for row.
 */
import type { SessionEntry } from "../session/types.ts";
import type { PlanResult } from "./plan.ts";

/** The reference file's fields, in its order. */
export const PI_FIELDS = [
  "line",
  "keep",
  "compact",
  "firstKeptLine",
  "firstKeptType",
  "tokensBefore",
  "isSplitTurn",
  "messagesToSummarize",
  "turnPrefixMessages",
  "previousSummary",
  "readFiles",
  "modifiedFiles",
  "contextTokens",
] as const;

/** A row as pi's reference file has it (plan fields present only when `compact`). */
export interface PiPlanRow {
  /** Physical line of the leaf (null: empty path). */
  line: number | null;
  keep: number;
  compact: boolean;
  firstKeptLine?: number | null;
  /** The first kept entry's message role, or its entry type when it is not a message. */
  firstKeptType?: string;
  tokensBefore?: number;
  isSplitTurn?: boolean;
  messagesToSummarize?: number;
  turnPrefixMessages?: number;
  previousSummary?: boolean;
  readFiles?: string[];
  modifiedFiles?: string[];
  contextTokens: number;
}

function entryKind(entry: SessionEntry | undefined): string | undefined {
  if (entry === undefined) return undefined;
  const role = (entry as { message?: { role?: unknown } }).message?.role;
  return entry.type === "message" && typeof role === "string" ? role : entry.type;
}

/** The row of a plan result at the end of `path` (lines looked up per entry). */
export function piPlanRow(
  path: readonly SessionEntry[],
  lineOf: (entry: SessionEntry) => number | null | undefined,
  keep: number,
  result: PlanResult,
  contextTokens: number,
): PiPlanRow {
  const line = (i: number) => (i >= 0 && i < path.length ? (lineOf(path[i]!) ?? null) : null);
  const row = { line: line(path.length - 1), keep, compact: result.ok } as PiPlanRow;
  if (result.ok) {
    const plan = result.plan;
    row.firstKeptLine = line(plan.firstKeptIndex);
    row.firstKeptType = entryKind(path[plan.firstKeptIndex]);
    row.tokensBefore = plan.tokensBefore;
    row.isSplitTurn = plan.isSplitTurn;
    row.messagesToSummarize = plan.summarizeCount;
    row.turnPrefixMessages = plan.turnPrefixCount;
    row.previousSummary = plan.previousSummary !== undefined;
    row.readFiles = plan.fileOps.readFiles;
    row.modifiedFiles = plan.fileOps.modifiedFiles;
  }
  row.contextTokens = contextTokens;
  return row;
}
