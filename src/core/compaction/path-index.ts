/**
 * An append-friendly index over a path (root first) that makes planning O(log n) under pi 1.6's
 * projection (docs/session-format.md §8, §10): what each entry contributes with context edits
 * applied, prefix sums of token estimates, the sorted valid cut points and "latest X at or before
 * i" arrays, in typed arrays that grow by doubling. The arrays describe the projection of the
 * WHOLE indexed path, so an append that changes earlier contributions (a context edit, a new
 * compaction) marks them dirty; they are recomputed on the next query. Appending is O(1)
 * amortized otherwise.
 */
import { entryMessages, isSystemMessageEntry, projectEntry } from "../session/projection.ts";
import { currentSystemMessage } from "../session/system-prompt.ts";
import type {
  AgentMessage,
  CompactionEntry,
  ContextEditEntry,
  SessionEntry,
  SystemMessage,
} from "../session/types.ts";
import { hasCutPointMessage, hasTurnStartMessage } from "./entry-messages.ts";
import { messageFileOps } from "./file-ops.ts";
import { type Estimator, hasContextUsage, PI_ESTIMATOR } from "./tokens.ts";

/** Entry flags. ABSENT: not in the projection (the latest compaction, a system message of its kept range). */
export const ABSENT = 1;
/** Has messages in the projection, or is an older compaction: the cut's step back stops there. */
export const STOP = 2;
export const CUT = 4;
export const TURN = 8;
/** Contributes messages as stored, and is not a context edit. */
export const VISIBLE = 16;
/** VISIBLE, but an edit omits it. */
export const OMITTED = 32;
/** A system message entry in the projection. */
export const SYSTEM = 64;

const NONE: readonly AgentMessage[] = [];

interface CompactionRecord {
  index: number;
  /** Position of its firstKeptEntryId before it, -1 when not there (nothing kept). */
  keptStart: number;
}

function grownF64(a: Float64Array, size: number): Float64Array {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}

function grownI32(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

export class PathIndex {
  readonly entries: SessionEntry[] = [];
  readonly estimator: Estimator;
  private cap: number;
  /** Projected messages of each entry (empty when ABSENT). */
  private proj: (readonly AgentMessage[])[] = [];
  /** winCum[i]: estimates of the projected messages of [0, i) (the cut rule's sum). Length n + 1. */
  winCum: Float64Array;
  /** The same without system messages. */
  nonSysCum: Float64Array;
  /** sumCum / sumCount: estimates / count of summarizable messages (not system, not compaction). */
  sumCum: Float64Array;
  sumCount: Int32Array;
  /** ctxCount[i]: number of entries with projected messages in [0, i). */
  ctxCount: Int32Array;
  /** Estimate of each entry's projected messages. Length n. */
  est: Float64Array;
  flags: Uint8Array;
  /** Latest index <= i that: STOPs; starts a turn; has a usable usage reply; has est > 0 (-1: none). */
  lastStop: Int32Array;
  lastTurnStart: Int32Array;
  lastUsage: Int32Array;
  lastEst: Int32Array;
  private cuts: Int32Array;
  cutCount = 0;
  /** Indices of the system message entries in the projection, in order. */
  private systems: number[] = [];
  /** Incremented whenever computed values are rolled back (caches keyed on them must be rebuilt). */
  truncations = 0;
  /** Computed arrays are valid for [0, computed). */
  private computed = 0;
  private compactions: CompactionRecord[] = [];
  private editIndices: number[] = [];
  private edits = new Map<string, ContextEditEntry>();
  private ids: Map<string, number> | undefined;
  private replayKey = "";
  private replay: SystemMessage | undefined;
  private replayTokens = 0;
  private fileOpsStart = -1;
  private fileOpsScanned = 0;
  private firstRead = new Map<string, number>();
  private firstModified = new Map<string, number>();

  constructor(estimator: Estimator = PI_ESTIMATOR, capacity = 1024) {
    this.estimator = estimator;
    this.cap = Math.max(16, capacity);
    const c = this.cap;
    this.winCum = new Float64Array(c + 1);
    this.nonSysCum = new Float64Array(c + 1);
    this.sumCum = new Float64Array(c + 1);
    this.sumCount = new Int32Array(c + 1);
    this.ctxCount = new Int32Array(c + 1);
    this.est = new Float64Array(c);
    this.flags = new Uint8Array(c);
    this.lastStop = new Int32Array(c);
    this.lastTurnStart = new Int32Array(c);
    this.lastUsage = new Int32Array(c);
    this.lastEst = new Int32Array(c);
    this.cuts = new Int32Array(c);
  }

  get length(): number {
    return this.entries.length;
  }

  private grow(): void {
    const c = this.cap * 2;
    this.winCum = grownF64(this.winCum, c + 1);
    this.nonSysCum = grownF64(this.nonSysCum, c + 1);
    this.sumCum = grownF64(this.sumCum, c + 1);
    this.sumCount = grownI32(this.sumCount, c + 1);
    this.ctxCount = grownI32(this.ctxCount, c + 1);
    this.est = grownF64(this.est, c);
    const flags = new Uint8Array(c);
    flags.set(this.flags);
    this.flags = flags;
    this.lastStop = grownI32(this.lastStop, c);
    this.lastTurnStart = grownI32(this.lastTurnStart, c);
    this.lastUsage = grownI32(this.lastUsage, c);
    this.lastEst = grownI32(this.lastEst, c);
    this.cuts = grownI32(this.cuts, c);
    this.cap = c;
  }

  /** Appends one entry (a child of the last one). */
  append(entry: SessionEntry): void {
    const i = this.entries.length;
    if (i >= this.cap) this.grow();
    this.entries.push(entry);
    if (this.ids && !this.ids.has(entry.id)) this.ids.set(entry.id, i);
    if (entry.type === "context_edit") {
      const edit = entry as ContextEditEntry;
      if (typeof edit.targetId !== "string") return;
      this.editIndices.push(i);
      this.edits.set(edit.targetId, edit);
      const t = this.indexOfId(edit.targetId);
      if (t !== undefined && t < i) this.markDirty(t);
    } else if (entry.type === "compaction") {
      const id = (entry as CompactionEntry).firstKeptEntryId;
      const at = typeof id === "string" ? this.indexOfId(id) : undefined;
      const keptStart = at !== undefined && at < i ? at : -1;
      this.compactions.push({ index: i, keptStart });
      // The kept range's system messages leave the projection; an older compaction in it stops being absent.
      if (keptStart >= 0) this.markDirty(keptStart);
    }
  }

  private markDirty(from: number): void {
    if (from >= this.computed) return;
    this.rollback(from);
  }

  /** Forgets computed values from index k on. */
  private rollback(k: number): void {
    this.truncations++;
    this.computed = k;
    this.proj.length = k;
    while (this.cutCount > 0 && this.cuts[this.cutCount - 1]! >= k) this.cutCount--;
    while (this.systems.length > 0 && this.systems[this.systems.length - 1]! >= k) this.systems.pop();
    this.replayKey = "";
    if (this.fileOpsScanned > k) {
      for (const map of [this.firstRead, this.firstModified])
        for (const [path, i] of map) if (i >= k) map.delete(path);
      this.fileOpsScanned = Math.max(k, this.fileOpsStart);
    }
  }

  /** Drops the entries from index k on. */
  truncate(k: number): void {
    const n = this.entries.length;
    if (k >= n) return;
    const keep = Math.max(0, k);
    if (this.ids) {
      for (let i = keep; i < n; i++) {
        const id = this.entries[i]!.id;
        if ((this.ids.get(id) ?? -1) >= keep) this.ids.delete(id);
      }
    }
    this.entries.length = keep;
    let dirty = Math.min(keep, this.computed);
    let droppedEdit = false;
    while (this.editIndices.length > 0 && this.editIndices[this.editIndices.length - 1]! >= keep) {
      this.editIndices.pop();
      droppedEdit = true;
    }
    if (droppedEdit) {
      // Edits of the dropped part no longer apply: recompute from their targets.
      const before = this.edits;
      this.edits = new Map();
      for (const i of this.editIndices) {
        const e = this.entries[i] as ContextEditEntry;
        this.edits.set(e.targetId, e);
      }
      for (const [target, e] of before) {
        if (this.edits.get(target) === e) continue;
        const t = this.indexOfId(target);
        if (t !== undefined) dirty = Math.min(dirty, t);
      }
    }
    let droppedCompaction = false;
    while (this.compactions.length > 0 && this.compactions[this.compactions.length - 1]!.index >= keep) {
      const c = this.compactions.pop()!;
      droppedCompaction = true;
      if (c.keptStart >= 0) dirty = Math.min(dirty, c.keptStart);
    }
    if (droppedCompaction) {
      const latest = this.compactions[this.compactions.length - 1];
      if (latest) dirty = Math.min(dirty, latest.keptStart >= 0 ? latest.keptStart : latest.index);
    }
    this.rollback(Math.min(dirty, keep));
  }

  /** First index of an id on the path (pi resolves ids with findIndex), built on first use. */
  indexOfId(id: string): number | undefined {
    if (!this.ids) {
      this.ids = new Map();
      for (let i = 0; i < this.entries.length; i++) {
        const e = this.entries[i]!;
        if (!this.ids.has(e.id)) this.ids.set(e.id, i);
      }
    }
    return this.ids.get(id);
  }

  /** Index of the latest compaction, -1 when none. */
  get lastCompaction(): number {
    return this.compactions[this.compactions.length - 1]?.index ?? -1;
  }

  /** The latest compaction entry, if any. */
  latestCompaction(): CompactionEntry | undefined {
    const c = this.compactions[this.compactions.length - 1];
    return c ? (this.entries[c.index] as CompactionEntry) : undefined;
  }

  /** Index of the latest entry that invalidates earlier usage: a compaction or a context edit (-1: none). */
  lastInvalidating(): number {
    const c = this.compactions[this.compactions.length - 1]?.index ?? -1;
    const e = this.editIndices[this.editIndices.length - 1] ?? -1;
    return Math.max(c, e);
  }

  /**
   * §10 window start: 0 without a compaction; else the start of the latest compaction's kept
   * range, or just after it when nothing is kept.
   */
  windowStart(): number {
    const c = this.compactions[this.compactions.length - 1];
    if (!c) return 0;
    return c.keptStart >= 0 ? c.keptStart : c.index + 1;
  }

  /** Brings the computed arrays up to the path's length. */
  ensure(): void {
    this.ensureSome(Number.POSITIVE_INFINITY);
  }

  /**
   * Computes at most `max` more entries of what `ensure` computes (the same values: the loop
   * only stops early), so that a caller can spread the first full computation over several
   * tasks. True when everything is computed.
   */
  ensureSome(max: number): boolean {
    const n = this.entries.length;
    if (this.computed === n) return true;
    const c = this.compactions[this.compactions.length - 1];
    const lc = c?.index ?? -1;
    const keptStart = c?.keptStart ?? -1;
    const end = Math.min(n, this.computed + max);
    for (let i = this.computed; i < end; i++) this.compute(i, lc, keptStart);
    this.computed = end;
    return end === n;
  }

  private compute(i: number, lc: number, keptStart: number): void {
    const entry = this.entries[i]!;
    let flags = 0;
    let messages = NONE;
    if (i === lc || (lc >= 0 && i >= keptStart && i < lc && keptStart >= 0 && isSystemMessageEntry(entry))) {
      flags = ABSENT;
    } else if (entry.type === "compaction") {
      flags = STOP;
    } else {
      messages = projectEntry(entry, this.edits.get(entry.id));
      if (entry.type !== "context_edit" && entryMessages(entry).length > 0) {
        flags |= VISIBLE;
        if (messages.length === 0) flags |= OMITTED;
      }
    }
    let est = 0;
    let nonSys = 0;
    let sum = 0;
    let count = 0;
    let usage = false;
    for (const m of messages) {
      const t = this.estimator.estimateMessage(m);
      est += t;
      if (m.role === "system") continue;
      nonSys += t;
      sum += t;
      count++;
      if (hasContextUsage(m)) usage = true;
    }
    if (messages.length > 0) {
      flags |= STOP;
      if (hasCutPointMessage(messages)) flags |= CUT;
      if (hasTurnStartMessage(messages)) flags |= TURN;
      if (isSystemMessageEntry(entry)) {
        flags |= SYSTEM;
        this.systems.push(i);
      }
    }
    this.proj[i] = messages;
    this.flags[i] = flags;
    this.est[i] = est;
    this.winCum[i + 1] = this.winCum[i]! + est;
    this.nonSysCum[i + 1] = this.nonSysCum[i]! + nonSys;
    this.sumCum[i + 1] = this.sumCum[i]! + sum;
    this.sumCount[i + 1] = this.sumCount[i]! + count;
    this.ctxCount[i + 1] = this.ctxCount[i]! + (messages.length > 0 ? 1 : 0);
    if (flags & CUT) this.cuts[this.cutCount++] = i;
    const p = i - 1;
    this.lastStop[i] = flags & STOP ? i : p >= 0 ? this.lastStop[p]! : -1;
    this.lastTurnStart[i] = flags & TURN ? i : p >= 0 ? this.lastTurnStart[p]! : -1;
    this.lastUsage[i] = usage ? i : p >= 0 ? this.lastUsage[p]! : -1;
    this.lastEst[i] = est > 0 ? i : p >= 0 ? this.lastEst[p]! : -1;
  }

  /** The projected messages of the entry at a path index (empty when it contributes nothing). */
  messagesAt(i: number): readonly AgentMessage[] {
    this.ensure();
    return this.proj[i] ?? NONE;
  }

  /** The valid cut point of a given rank (0-based). */
  cutPoint(rank: number): number {
    return this.cuts[rank]!;
  }

  /** Rank in the cut points of the first cut point >= i (cutCount when none). */
  cutPointRank(i: number): number {
    this.ensure();
    let lo = 0;
    let hi = this.cutCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cuts[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first valid cut point >= i, or -1. */
  nextCutPoint(i: number): number {
    const rank = this.cutPointRank(i);
    return rank < this.cutCount ? this.cuts[rank]! : -1;
  }

  /** Index of the last valid cut point, or -1. */
  lastCutPoint(): number {
    this.ensure();
    return this.cutCount > 0 ? this.cuts[this.cutCount - 1]! : -1;
  }

  /**
   * The walk of §10: the newest entry in [start, end) at which the sum of projected estimates
   * from it to the end reaches `keep`, or -1 when the sum never does.
   */
  thresholdEntry(start: number, keep: number): number {
    this.ensure();
    const end = this.entries.length;
    if (end <= start) return -1;
    const target = this.winCum[end]! - keep;
    // Largest i in [start, end - 1] with winCum[i] <= target (winCum is non-decreasing).
    let lo = start;
    let hi = end - 1;
    if (this.winCum[lo]! > target) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.winCum[mid]! <= target) lo = mid;
      else hi = mid - 1;
    }
    const at = this.lastEst[lo]!;
    return at >= start ? at : -1;
  }

  /** Estimate of everything the latest compaction puts first: its system checkpoint and summary. */
  compactionTokens(): number {
    const c = this.latestCompaction();
    if (!c) return 0;
    let n = 0;
    for (const m of entryMessages(c)) n += this.estimator.estimateMessage(m);
    return n;
  }

  /** Estimate of the latest compaction's summary (its system checkpoint belongs to the replay). */
  compactionSummaryTokens(): number {
    const c = this.latestCompaction();
    if (!c) return 0;
    let n = 0;
    for (const m of entryMessages(c)) if (m.role !== "system") n += this.estimator.estimateMessage(m);
    return n;
  }

  /** The replay of the projection's system messages (the compaction's checkpoint first): the current prompt. */
  systemReplay(): SystemMessage | undefined {
    this.ensure();
    const c = this.latestCompaction();
    const ws = this.windowStart();
    const key = `${this.compactions.length}:${ws}:${this.systems.length}:${this.systems[this.systems.length - 1]}`;
    if (key === this.replayKey) return this.replay;
    const messages: AgentMessage[] = [];
    if (c) for (const m of entryMessages(c)) if (m.role === "system") messages.push(m);
    for (const i of this.systems) if (i >= ws) messages.push(...this.proj[i]!);
    this.replay = currentSystemMessage(messages);
    this.replayTokens = this.replay ? this.estimator.estimateMessage(this.replay) : 0;
    this.replayKey = key;
    return this.replay;
  }

  /** Estimate of the replayed system prompt (pi counts it once when estimating the context). */
  systemReplayTokens(): number {
    this.systemReplay();
    return this.replayTokens;
  }

  /** Paths read / modified by the projected messages of [start, end) (start must be the window start). */
  fileOpsBetween(start: number, end: number): { read: string[]; modified: string[] } {
    this.ensure();
    if (this.fileOpsStart !== start) {
      this.fileOpsStart = start;
      this.fileOpsScanned = start;
      this.firstRead = new Map();
      this.firstModified = new Map();
    }
    for (let i = this.fileOpsScanned; i < this.entries.length; i++) {
      if (this.entries[i]!.type === "compaction") continue;
      for (const m of this.proj[i]!) {
        for (const op of messageFileOps(m)) {
          const map = op.kind === "read" ? this.firstRead : this.firstModified;
          if (!map.has(op.path)) map.set(op.path, i);
        }
      }
    }
    this.fileOpsScanned = Math.max(this.fileOpsScanned, this.entries.length);
    const read: string[] = [];
    const modified: string[] = [];
    for (const [p, i] of this.firstRead) if (i < end) read.push(p);
    for (const [p, i] of this.firstModified) if (i < end) modified.push(p);
    return { read, modified };
  }
}
