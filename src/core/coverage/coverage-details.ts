/**
 * The coverage record stored on a compaction entry, in `details` next to readFiles and
 * modifiedFiles: `details.coverage = { covered, total, missing, dismissed, probes }`. pi keeps details as
 * they are and reads only the file lists from them, so the record survives pi and Cutpoint
 * round trips. Pure: builders, a loose reader, and a copy of an entry with the record set.
 */
import type { CompactionEntry } from "../session/types.ts";
import type { CoverageReport } from "./coverage.ts";
import { COVERAGE_KINDS, type CoverageKind } from "./coverage-kinds.ts";
import type { ProbeReport } from "./coverage-probes.ts";

export interface CoverageRef {
  kind: CoverageKind;
  text: string;
  key: string;
}

export interface CoverageDetails {
  covered: number;
  total: number;
  /** Items not covered when the entry was written (at most MAX_STORED_REFS). */
  missing: CoverageRef[];
  /** Items the person said the summary does not need. */
  dismissed: CoverageRef[];
  /** How many missing items were left out of `missing` (large ranges). */
  missingOmitted?: number;
  /** The probes when the entry was written: how many the summary answered, and the questions it did not. */
  probes?: ProbesDetails;
}

export interface ProbesDetails {
  answered: number;
  total: number;
  unanswered: string[];
}

export const MAX_STORED_REFS = 200;

const ref = (i: { kind: CoverageKind; text: string; key: string }): CoverageRef => ({
  kind: i.kind,
  text: i.text,
  key: i.key,
});

/** The record of a coverage report (dismissed items as the report marked them). */
export function coverageDetails(report: CoverageReport, probes?: ProbeReport): CoverageDetails {
  const missing = report.items.filter((i) => !i.covered && !i.dismissed);
  const out: CoverageDetails = {
    covered: report.covered,
    total: report.total,
    missing: missing.slice(0, MAX_STORED_REFS).map(ref),
    dismissed: report.items.filter((i) => i.dismissed).map(ref),
  };
  if (missing.length > MAX_STORED_REFS) out.missingOmitted = missing.length - MAX_STORED_REFS;
  if (probes && probes.total > 0)
    out.probes = {
      answered: probes.answered,
      total: probes.total,
      unanswered: probes.probes.filter((p) => !p.answered).map((p) => p.question),
    };
  return out;
}

function readProbes(v: unknown): ProbesDetails | undefined {
  const p = v as Record<string, unknown> | null | undefined;
  if (!p || typeof p !== "object" || typeof p.answered !== "number" || typeof p.total !== "number")
    return undefined;
  const unanswered = Array.isArray(p.unanswered)
    ? p.unanswered.filter((q): q is string => typeof q === "string")
    : [];
  return { answered: p.answered, total: p.total, unanswered };
}

function refs(v: unknown): CoverageRef[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (r): r is CoverageRef =>
      !!r &&
      typeof r === "object" &&
      COVERAGE_KINDS.includes((r as CoverageRef).kind) &&
      typeof (r as CoverageRef).text === "string" &&
      typeof (r as CoverageRef).key === "string",
  );
}

/** Reads `details.coverage` loosely; undefined when absent or malformed. */
export function readCoverageDetails(details: unknown): CoverageDetails | undefined {
  const c = (details as { coverage?: unknown } | null | undefined)?.coverage as
    | Record<string, unknown>
    | undefined;
  if (!c || typeof c !== "object") return undefined;
  if (typeof c.covered !== "number" || typeof c.total !== "number") return undefined;
  const out: CoverageDetails = {
    covered: c.covered,
    total: c.total,
    missing: refs(c.missing),
    dismissed: refs(c.dismissed),
  };
  if (typeof c.missingOmitted === "number") out.missingOmitted = c.missingOmitted;
  const probes = readProbes(c.probes);
  if (probes) out.probes = probes;
  return out;
}

/** A copy of the compaction entry with `details.coverage` set (other detail fields kept). */
export function withCoverageDetails(entry: CompactionEntry, coverage: CoverageDetails): CompactionEntry {
  const details =
    entry.details && typeof entry.details === "object" ? (entry.details as Record<string, unknown>) : {};
  return { ...entry, details: { ...details, coverage } };
}
