/**
 * The concrete items of a summarized range that a summary should mention: each message's
 * findings (coverage-findings.ts) merged into items, deduplicated, with the entries they appear
 * in; open to-dos only. Per-message findings are kept per range and reused for the same message
 * objects (the projection caches those; coverage-cache.ts), so re-planning the same session
 * re-reads little. Deterministic.
 */

import { createOutcomeTracker, type ToolOutcome } from "../compaction/tool-outcomes.ts";
import type { AgentMessage } from "../session/types.ts";
import { createItemMemo } from "./coverage-cache.ts";
import { type Found, findingsOf, nextSteps } from "./coverage-findings.ts";
import { COVERAGE_KINDS, type CoverageKind } from "./coverage-kinds.ts";
import { basename, normalizeKey } from "./coverage-text.ts";

export { COVERAGE_KINDS, type CoverageKind };

/** An item found in the summarized range (before checking a summary). */
export interface CoverageCandidate {
  kind: CoverageKind;
  /** What a summary should contain (one line). */
  text: string;
  /** `kind:normalized text`: identity for dedupe and dismissal. */
  key: string;
  /** Ids of the entries it appears in, first appearance first. */
  entryIds: string[];
  /**
   * file: "read" | "modified" | "mentioned"; command: "tool" | "shell"; error: the tool name,
   * "assistant", "shell" or "pasted"; instruction: language codes; todo: "unchecked" | "todo" | "next".
   */
  detail?: string;
  /** How much a summary needs it (ITEM_WEIGHT): 2 or more is a key item. */
  weight?: number;
  /** An error something later in the range fixed: shown as such, never counted missing. */
  resolved?: true;
}

/** A key item: a file changed, an error still open, a rule of the person, a name they gave, an open to-do. */
export const KEY_WEIGHT = 2;

/** The weight of an item by its kind and detail. */
export function itemWeight(c: Pick<CoverageCandidate, "kind" | "detail" | "resolved">): number {
  if (c.resolved) return 0;
  switch (c.kind) {
    case "file":
      return c.detail === "modified" ? 3 : 1;
    case "error":
      return 3;
    case "instruction":
      return 3;
    case "identifier":
      return c.detail === "user" ? 2 : 1;
    case "todo":
      return 2;
    default:
      return 1;
  }
}

/** Messages and the ids of their entries (same order), like PlanMessages. */
export interface CoverageRange {
  messages: readonly AgentMessage[];
  entryIds: readonly string[];
}

/** Findings per message, kept per range array and reused for the same messages (coverage-cache.ts). */
const findingsMemo = createItemMemo(findingsOf);

/** The key of an item: its kind and its normalised text. */
export function coverageKey(kind: CoverageKind, text: string): string {
  return `${kind}:${normalizeKey(text)}`;
}

const FILE_RANK: Record<string, number> = { mentioned: 0, read: 1, modified: 2 };

/** An item being merged: its normalised text, the ids it has (a set, and the last one added). */
interface Merged {
  item: CoverageCandidate;
  norm: string;
  ids: Set<string>;
  lastId: string;
}

/**
 * Merges a path named in text into the path it names: a recorded one (same path, a suffix of it,
 * or its basename when only one recorded path has it), else the longest named path it is a
 * suffix of (`core/setup.ts` into `packages/x/src/core/setup.ts`).
 */
function mergeMentionedPaths(
  items: CoverageCandidate[],
  seenIds: Map<CoverageCandidate, Set<string>>,
): CoverageCandidate[] {
  const files = items.filter((i) => i.kind === "file");
  if (files.length < 2) return items;
  const byBase = new Map<string, CoverageCandidate[]>();
  for (const f of files) {
    const b = basename(f.text).toLowerCase();
    byBase.set(b, [...(byBase.get(b) ?? []), f]);
  }
  const merged = new Set<CoverageCandidate>();
  for (const i of files) {
    if (i.detail !== "mentioned") continue;
    const mention = i.text.replace(/^\.\//, "").replace(/\/+$/, "");
    const same = (byBase.get(basename(mention).toLowerCase()) ?? []).filter((c) => c !== i && !merged.has(c));
    const recorded = same.filter((c) => c.detail !== "mentioned");
    const suffixOf = (c: CoverageCandidate) => c.text === mention || c.text.endsWith(`/${mention}`);
    let target = mention.includes("/")
      ? recorded.find(suffixOf)
      : recorded.length === 1
        ? recorded[0]
        : undefined;
    if (!target && mention.includes("/"))
      target = same
        .filter((c) => c.detail === "mentioned" && c.text.length > i.text.length && suffixOf(c))
        .sort((a, b) => b.text.length - a.text.length)[0];
    if (!target) continue;
    const ids = seenIds.get(target)!;
    for (const id of i.entryIds) {
      if (ids.has(id)) continue;
      ids.add(id);
      target.entryIds.push(id);
    }
    merged.add(i);
  }
  return merged.size === 0 ? items : items.filter((i) => !merged.has(i));
}

/** An extraction done a few messages at a time (the app runs it over several tasks). */
export interface CoverageExtraction {
  /** Reads up to `count` more messages; true once every message is read. */
  step(count: number): boolean;
  /** The items (call once `step` returned true). */
  items(): CoverageCandidate[];
  /** Keeps the findings read so far for a later extraction (when this one is given up). */
  close(): void;
}

/** The position of the last user message over the ranges, read from the end (the messages are many and cold). */
function lastUserAt(ranges: readonly CoverageRange[]): number {
  let n = 0;
  for (const r of ranges) n += r.messages.length;
  for (let ri = ranges.length - 1, end = n; ri >= 0; ri--) {
    const { messages } = ranges[ri]!;
    end -= messages.length;
    for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "user") return end + i;
  }
  return -1;
}

/**
 * The items of the ranges (in order: a plan's messagesToSummarize, then its turnPrefixMessages),
 * deduplicated by key, in order of first appearance. A to-do checked later is not open; an
 * announced next step counts only after the last user message. `extractCoverageItems` is this
 * run to the end.
 */
export function startCoverageExtraction(ranges: readonly CoverageRange[]): CoverageExtraction {
  const lastUser = lastUserAt(ranges);
  // Items by kind, then by normalised text (the key without its kind: keys are built only for
  // new items, not hashed for every finding), in order of first appearance.
  const byKind = new Map<CoverageKind, Map<string, Merged>>();
  for (const k of COVERAGE_KINDS) byKind.set(k, new Map());
  const order: Merged[] = [];
  /** Normalised texts of to-dos checked later in the range. */
  const closed = new Set<string>();
  /** Outcomes of the failures each error text was found in (resolved when all of them are). */
  const tracker = createOutcomeTracker();
  const errorOutcomes = new Map<string, ToolOutcome[]>();
  let at = 0;
  let ri = 0;
  let cursor = ranges.length > 0 ? findingsMemo.open(ranges[0]!.messages) : undefined;

  const merge = (found: readonly Found[], id: string) => {
    for (let k = 0; k < found.length; k++) {
      const f = found[k]!;
      const norm = f.norm ?? normalizeKey(f.text);
      if (f.closes) {
        closed.add(norm);
        continue;
      }
      if (norm === "") continue;
      if (f.kind === "todo") closed.delete(norm);
      const table = byKind.get(f.kind)!;
      const merged = table.get(norm);
      if (!merged) {
        const c: CoverageCandidate = {
          kind: f.kind,
          text: f.text,
          key: `${f.kind}:${norm}`,
          entryIds: [id],
        };
        if (f.detail !== undefined) c.detail = f.detail;
        const record: Merged = { item: c, norm, ids: new Set([id]), lastId: id };
        table.set(norm, record);
        order.push(record);
        continue;
      }
      const item = merged.item;
      // The same entry again (one message naming it twice): no set lookup.
      if (id !== merged.lastId && !merged.ids.has(id)) {
        merged.ids.add(id);
        item.entryIds.push(id);
      }
      merged.lastId = id;
      if (f.kind === "file" && (FILE_RANK[f.detail ?? ""] ?? 0) > (FILE_RANK[item.detail ?? ""] ?? 0))
        item.detail = f.detail;
    }
  };

  const step = (count: number): boolean => {
    let left = count;
    while (cursor) {
      const r = ranges[ri]!;
      if (cursor.done < r.messages.length) {
        if (left <= 0) break;
        const end = Math.min(r.messages.length, cursor.done + left);
        left -= end - cursor.done;
        while (cursor.done < end) {
          const i = cursor.done;
          const found = cursor.next();
          const m = r.messages[i]!;
          merge(found, r.entryIds[i] ?? "");
          const outcome = tracker.read(m);
          if (outcome && !outcome.ok)
            for (const f of found)
              if (f.kind === "error" && f.detail !== "pasted") {
                const list = errorOutcomes.get(f.norm ?? "") ?? [];
                list.push(outcome);
                errorOutcomes.set(f.norm ?? "", list);
              }
          if (at > lastUser && m.role === "assistant") merge(nextSteps(m), r.entryIds[i] ?? "");
          at++;
        }
        if (cursor.done < r.messages.length) break;
      }
      // This range is read (or empty): on to the next.
      cursor.close();
      ri++;
      cursor = ri < ranges.length ? findingsMemo.open(ranges[ri]!.messages) : undefined;
    }
    return cursor === undefined;
  };

  return {
    step,
    close: () => cursor?.close(),
    items() {
      const kept = order.filter((r) => !(r.item.kind === "todo" && closed.has(r.norm)));
      for (const r of kept) {
        const outcomes = r.item.kind === "error" ? errorOutcomes.get(r.norm) : undefined;
        if (outcomes?.every((o) => o.resolved)) r.item.resolved = true;
        else delete r.item.resolved;
        // A call the person stopped ("Command aborted") is not an open failure: not a key item.
        r.item.weight = outcomes?.every((o) => o.aborted) ? 1 : itemWeight(r.item);
      }
      const seenIds = new Map<CoverageCandidate, Set<string>>();
      for (const r of kept) seenIds.set(r.item, r.ids);
      return mergeMentionedPaths(
        kept.map((r) => r.item),
        seenIds,
      );
    },
  };
}

/** The items of the ranges, read at once (see startCoverageExtraction). */
export function extractCoverageItems(ranges: readonly CoverageRange[]): CoverageCandidate[] {
  const extraction = startCoverageExtraction(ranges);
  extraction.step(Number.POSITIVE_INFINITY);
  return extraction.items();
}
