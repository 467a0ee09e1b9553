/**
 * What a compaction entry records about itself, in `details` next to pi's file lists (pi keeps
 * details as they are): `details.cutpoint = { trigger, model, durationMs, costUsd }` and the
 * coverage record (`details.coverage`, coverage-details.ts). Pure: the details of a new entry,
 * a loose reader, and the tokens after a compaction measured from the path itself.
 */

import { type CoverageDetails, readCoverageDetails } from "../coverage/coverage-details.ts";
import type {
  CompactionEntry,
  FileListDetails,
  SessionEntry,
  SystemMessage,
  Usage,
} from "../session/types.ts";
import { PathIndex } from "./path-index.ts";
import { contextTokensOf, indexPath } from "./plan.ts";
import type { Estimator } from "./tokens.ts";

/** Why the compaction happened: the person, the threshold, an overflow, or masking tool outputs. */
export type CompactionTrigger = "manual" | "threshold" | "overflow" | "masking";
export const COMPACTION_TRIGGERS: readonly CompactionTrigger[] = [
  "manual",
  "threshold",
  "overflow",
  "masking",
];

/** The fields of a new compaction entry, as the summarizer (or the offline summary) fills them. */
export interface CompactionFields {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  /** pi's file lists, with Cutpoint's coverage and record when known. */
  details: CompactionDetails;
  /** The replayed prompt and tools at the boundary (pi 1.6: leads the compacted context). */
  systemMessage?: SystemMessage;
  /** The summarizer's usage, when a model wrote the summary. */
  usage?: Usage;
}

export interface CompactionRecord {
  trigger: CompactionTrigger;
  /** The summarizer model, "" for the offline summary. */
  model?: string;
  /** How long the summary took to produce, when known. */
  durationMs?: number;
  /** What the summary call cost in US dollars, when the price is known. */
  costUsd?: number;
  /** Tool outputs masked just before (trigger "masking": masked first, then summarized). */
  maskedOutputs?: number;
}

/** The details Cutpoint writes on a compaction: pi's file lists plus its own records. */
export interface CompactionDetails extends FileListDetails {
  coverage?: CoverageDetails;
  cutpoint?: CompactionRecord;
}

/** The details of a new compaction entry (the file lists copied, the records added when given). */
export function compactionDetails(
  files: FileListDetails,
  extra: { coverage?: CoverageDetails | undefined; record?: CompactionRecord | undefined } = {},
): CompactionDetails {
  const out: CompactionDetails = { readFiles: [...files.readFiles], modifiedFiles: [...files.modifiedFiles] };
  if (extra.coverage) out.coverage = extra.coverage;
  if (extra.record) out.cutpoint = { ...extra.record };
  return out;
}

const finiteOrUndefined = (v: unknown) =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;

/** The record of an entry's details, or undefined when it has none (pi's own, or older files). */
export function readCompactionRecord(details: unknown): CompactionRecord | undefined {
  if (!details || typeof details !== "object") return undefined;
  const raw = (details as Record<string, unknown>).cutpoint;
  if (!raw || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  const trigger = COMPACTION_TRIGGERS.find((t) => t === r.trigger);
  if (!trigger) return undefined;
  const out: CompactionRecord = { trigger };
  if (typeof r.model === "string") out.model = r.model;
  const duration = finiteOrUndefined(r.durationMs);
  if (duration !== undefined) out.durationMs = duration;
  const cost = finiteOrUndefined(r.costUsd);
  if (cost !== undefined) out.costUsd = cost;
  const masked = finiteOrUndefined(r.maskedOutputs);
  if (masked !== undefined) out.maskedOutputs = masked;
  return out;
}

/** Everything shown about one compaction at a glance. */
export interface CompactionSummaryFacts {
  record: CompactionRecord | undefined;
  coverage: CoverageDetails | undefined;
  tokensBefore: number;
  /** The context right after the compaction, by pi's rules (measured, not stored). */
  tokensAfter: number;
}

function factsOf(c: CompactionEntry, tokensAfter: number): CompactionSummaryFacts {
  return {
    record: readCompactionRecord(c.details),
    coverage: readCoverageDetails(c.details),
    tokensBefore: c.tokensBefore,
    tokensAfter,
  };
}

/** The facts of the compaction at `index` of `path` (tokens after measured on the path up to it). */
export function compactionFacts(
  path: readonly SessionEntry[],
  index: number,
  estimator?: Estimator,
): CompactionSummaryFacts | undefined {
  const entry = path[index];
  if (entry?.type !== "compaction") return undefined;
  return factsOf(
    entry as CompactionEntry,
    contextTokensOf(indexPath(path.slice(0, index + 1), estimator)).tokens,
  );
}

/**
 * The facts of every compaction on `path`, by entry id, in one pass: the path is indexed once,
 * entry by entry, and each compaction's context is read as the index reaches it (what
 * `compactionFacts` gives for each, without indexing a prefix per compaction).
 */
export function allCompactionFacts(
  path: readonly SessionEntry[],
  estimator?: Estimator,
): Map<string, CompactionSummaryFacts> {
  const out = new Map<string, CompactionSummaryFacts>();
  const index = new PathIndex(estimator, path.length);
  for (const entry of path) {
    index.append(entry);
    if (entry.type === "compaction")
      out.set(entry.id, factsOf(entry as CompactionEntry, contextTokensOf(index).tokens));
  }
  return out;
}

/** The record of a summary produced for `trigger` (the cost is the usage's, when its price was known). */
export function summaryRecord(
  trigger: CompactionTrigger,
  model: string,
  durationMs: number | undefined,
  usage: Usage | undefined,
): CompactionRecord {
  const out: CompactionRecord = { trigger, model };
  if (durationMs !== undefined && Number.isFinite(durationMs) && durationMs >= 0)
    out.durationMs = Math.round(durationMs);
  const cost = usage?.cost?.total;
  if (typeof cost === "number" && Number.isFinite(cost) && cost > 0) out.costUsd = cost;
  return out;
}

/** The fields of a compaction with its coverage and record put in its details. */
export function withRecord(
  fields: CompactionFields,
  extra: { coverage?: CoverageDetails | undefined; record: CompactionRecord },
): CompactionFields {
  return { ...fields, details: compactionDetails(fields.details, extra) };
}
