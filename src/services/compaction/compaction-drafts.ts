/**
 * The review of a session saved across reloads (a settings row per session, never the session
 * file): the draft summary and what it was made for, focus, keep-recent, the cut and the
 * summarizer chosen; and the draft an undone compaction gives back. Read loose: a bad row reads
 * as none.
 */
import { type CompactionRecord, readCompactionRecord } from "../../core/compaction/compaction-record.ts";
import type { CompactionEntry, Usage } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import { deleteSetting, getSetting, setSetting } from "../../db/settings-repo.ts";

/** What a draft was generated for: the cut and numbers of the plan at that time. */
export interface DraftTarget {
  firstKeptEntryId: string;
  tokensBefore: number;
  readFiles: string[];
  modifiedFiles: string[];
  /** The system checkpoint of the plan (the replayed prompt and tools), written with the compaction. */
  systemMessage?: unknown;
  /** Who wrote the draft and how (model, time, cost); the trigger is set on Confirm. */
  record?: Omit<CompactionRecord, "trigger">;
  /** The summarizer's usage, written with the compaction (pi 1.6). */
  usage?: Usage;
}

export interface SavedReview {
  draft: string;
  draftSource: "model" | "offline" | null;
  draftTarget: DraftTarget | null;
  /** The compaction entry the draft is the summary of (offered back after its Undo). */
  undoneFrom: string | null;
  /** The draft is what a stopped summarizer had written. */
  draftIncomplete?: boolean;
  focus: string;
  keepRecentOverride: number | null;
  cutEntryId: string | null;
  /** The cut is the one an Undo put back, not one the person moved (absent: false). */
  cutRestored?: boolean;
  summarizerModel: string | null;
  previewOpen: boolean;
  coverageDismissed: string[];
}

export const reviewKey = (sessionId: string) => `compaction.review.${sessionId}`;

const str = (v: unknown, d = "") => (typeof v === "string" ? v : d);
const strOrNull = (v: unknown) => (typeof v === "string" ? v : null);

function readTarget(v: unknown): SavedReview["draftTarget"] {
  if (!v || typeof v !== "object") return null;
  const t = v as Record<string, unknown>;
  if (typeof t.firstKeptEntryId !== "string" || typeof t.tokensBefore !== "number") return null;
  const list = (x: unknown) => (Array.isArray(x) ? x.filter((p): p is string => typeof p === "string") : []);
  const out: NonNullable<SavedReview["draftTarget"]> = {
    firstKeptEntryId: t.firstKeptEntryId,
    tokensBefore: t.tokensBefore,
    readFiles: list(t.readFiles),
    modifiedFiles: list(t.modifiedFiles),
  };
  if (t.systemMessage && typeof t.systemMessage === "object") out.systemMessage = t.systemMessage;
  const record = readCompactionRecord({ cutpoint: { ...(t.record as object), trigger: "manual" } });
  if (record && t.record) {
    const { trigger: _trigger, ...rest } = record;
    out.record = rest;
  }
  const u = t.usage as Partial<Usage> | undefined;
  if (u && typeof u === "object" && typeof u.input === "number" && typeof u.output === "number")
    out.usage = u as Usage;
  return out;
}

/** A draft offered back: the summary of an undone compaction and what it was made for. */
export interface UndoneDraft {
  draft: string;
  draftSource: "model" | "offline";
  draftTarget: DraftTarget;
  undoneFrom: string;
}

/**
 * The draft a compaction gives back once undone: its summary, cut, numbers, file lists,
 * checkpoint and record, so that Confirm writes it again as it was (undefined when it has no
 * summary or no kept range to cut at).
 */
export function undoneDraftOf(entry: CompactionEntry): UndoneDraft | undefined {
  if (typeof entry.summary !== "string" || entry.summary.trim() === "") return undefined;
  const details = (entry.details && typeof entry.details === "object" ? entry.details : {}) as Record<
    string,
    unknown
  >;
  const record = readCompactionRecord(details);
  const target = readTarget({
    firstKeptEntryId: entry.firstKeptEntryId,
    tokensBefore: entry.tokensBefore,
    readFiles: details.readFiles,
    modifiedFiles: details.modifiedFiles,
    systemMessage: entry.systemMessage,
    // What masking this review does is counted again on Confirm, not carried over.
    record: record ? { ...record, maskedOutputs: undefined } : undefined,
    usage: entry.usage,
  });
  if (!target) return undefined;
  return {
    draft: entry.summary,
    draftSource: record?.model === "" ? "offline" : "model",
    draftTarget: target,
    undoneFrom: entry.id,
  };
}

/** Normalizes a stored review; undefined when there is none. */
export function readSavedReview(raw: unknown): SavedReview | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  const keep = r.keepRecentOverride;
  return {
    draft: str(r.draft),
    draftSource: r.draftSource === "model" || r.draftSource === "offline" ? r.draftSource : null,
    draftTarget: readTarget(r.draftTarget),
    undoneFrom: strOrNull(r.undoneFrom),
    ...(r.draftIncomplete === true ? { draftIncomplete: true } : {}),
    focus: str(r.focus),
    keepRecentOverride: typeof keep === "number" && Number.isFinite(keep) && keep >= 0 ? keep : null,
    cutEntryId: strOrNull(r.cutEntryId),
    ...(r.cutRestored === true ? { cutRestored: true } : {}),
    summarizerModel: strOrNull(r.summarizerModel),
    previewOpen: r.previewOpen === true,
    coverageDismissed: Array.isArray(r.coverageDismissed)
      ? r.coverageDismissed.filter((k): k is string => typeof k === "string")
      : [],
  };
}

export async function loadSavedReview(db: CutpointDb, sessionId: string): Promise<SavedReview | undefined> {
  return readSavedReview(await getSetting(db, reviewKey(sessionId)));
}

/** Saves the review; an empty one (no draft, nothing chosen) removes the row. */
export async function saveReview(db: CutpointDb, sessionId: string, review: SavedReview) {
  const empty =
    review.draft === "" &&
    review.focus === "" &&
    review.keepRecentOverride === null &&
    review.cutEntryId === null &&
    review.summarizerModel === null &&
    review.coverageDismissed.length === 0 &&
    !review.previewOpen;
  return empty ? deleteSetting(db, reviewKey(sessionId)) : setSetting(db, reviewKey(sessionId), review);
}
