/** The shape of src/conformance/references/*.json (pi 1.6's view of a session; README.md describes it) and the readers of it. */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface ModelView {
  provider: string;
  modelId: string;
}

export interface MessageView {
  role: string;
  entryId: string;
  line: number | null;
  tokens: number;
  excerpt?: string;
}

export interface SystemView {
  content: string;
  sections: Record<string, string>;
  tools: string[];
}

/** pi's prepareCompaction at one leaf and keep-recent value (reserve: the reference's reserveTokens). */
export interface PlanView {
  keep: number;
  compact: boolean;
  firstKeptEntryId?: string;
  firstKeptLine?: number | null;
  /** The role for a message entry, else the entry type. */
  firstKeptType?: string | null;
  isSplitTurn?: boolean;
  tokensBefore?: number;
  messagesToSummarize?: number;
  turnPrefixMessages?: number;
  previousSummary?: boolean;
  readFiles?: string[];
  modifiedFiles?: string[];
  summarizedRoles?: string;
  prefixRoles?: string;
  summarizedLines?: (number | null)[];
  prefixLines?: (number | null)[];
}

/** pi's view with the leaf at one entry. Optional fields are absent from brief rows. */
export interface LeafView {
  leafId?: string | null;
  leafLine: number | null;
  leafType?: string | null;
  pathLength?: number;
  model?: ModelView | null;
  thinkingLevel?: string;
  contextTokens?: number;
  usageIndex?: number | null;
  /** pi's convertToLlm roles, system messages in place (recorded, not compared: Cutpoint sends no mid-conversation system messages). */
  llmRoles?: string;
  /** Roles of the request pi sends without mid-conversation system messages: the replay first, then the rest. */
  requestRoles?: string;
  messages?: MessageView[];
  system?: SystemView | null;
  /** The systemMessage of a compaction pi appends at this leaf (full rows). */
  compactionSystemMessage?: SystemView | null;
  plans: PlanView[];
}

/** What pi appends at the leaf on load. */
export interface AppendsView {
  nextParentId: string | null;
  nextParentLine: number | null;
  compactionSystemMessage: SystemView | null;
}

export interface Reference {
  format: 1;
  pi: string;
  /** The session file, relative to the repository root. */
  source: string;
  headerVersion: number | null;
  /** False for migrated v1 files: pi's ids are fresh, so only lines are compared. */
  idsStable: boolean;
  reserveTokens: number;
  entryCount: number;
  sessionName: string | null;
  labels: { targetId: string; targetLine: number | null; label: string }[];
  leaf: LeafView & AppendsView;
  /** For large sessions: the per-line rows live in this shared file (pi16-plans format) instead of `lines`. */
  linesFrom: string | null;
  lines: LeafView[];
}

export const CONFORMANCE_DIR = import.meta.dirname;
export const REPO_ROOT = resolve(CONFORMANCE_DIR, "..", "..");

export function readReferences(): { name: string; reference: Reference }[] {
  const dir = join(CONFORMANCE_DIR, "references");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({
      name: file.replace(/\.json$/, ""),
      reference: JSON.parse(readFileSync(join(dir, file), "utf8")) as Reference,
    }));
}

/** Per-line rows of a reference: its own `lines`, or the shared pi16-plans file grouped by line. */
export function referenceLines(reference: Reference): LeafView[] {
  if (reference.linesFrom === null) return reference.lines;
  const byLine = new Map<number, LeafView>();
  const text = readFileSync(resolve(REPO_ROOT, reference.linesFrom), "utf8");
  for (const row of text.split("\n")) {
    if (row.trim() === "") continue;
    const { line, contextTokens, ...plan } = JSON.parse(row) as PlanView & {
      line: number;
      contextTokens: number;
    };
    let view = byLine.get(line);
    if (!view) {
      view = { leafLine: line, contextTokens, plans: [] };
      byLine.set(line, view);
    }
    view.plans.push(plan);
  }
  return [...byLine.values()];
}
