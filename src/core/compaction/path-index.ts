/**
 * An append-friendly index over a path (root first) that makes planning O(log n): prefix sums of
 * token estimates, the sorted valid cut points and "latest X at or before i" arrays, all in typed
 * arrays that grow by doubling. Appending one entry is O(1) amortized. The window start, the id
 * lookup and the file operations are computed lazily and kept while entries are appended.
 */
import type { CompactionEntry, SessionEntry } from "../session/types.ts";
import { entryMessage, isContextEntry, isTurnStart, isValidCutPoint } from "./entry-messages.ts";
import { messageFileOps } from "./file-ops.ts";
import { type Estimator, hasContextUsage, PI_ESTIMATOR } from "./tokens.ts";

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
  /** msgCum[i]: estimates of `message` entries in [0, i) (the cut rule's sum). Length n + 1. */
  msgCum: Float64Array;
  /** ctxCum[i]: estimates of context-producing entries in [0, i) (compactions as summaries). */
  ctxCum: Float64Array;
  /** sumCum / sumCount: estimates / count of summarizable entries (context-producing, not compaction). */
  sumCum: Float64Array;
  sumCount: Int32Array;
  /** ctxCount[i]: number of context-producing entries in [0, i). */
  ctxCount: Int32Array;
  /** Estimate of each entry's context message (0 when it produces none). Length n. */
  ctxEst: Float64Array;
  /** Latest index <= i of: a `message` entry; a message or compaction; a turn start; a usable usage reply (-1: none). */
  lastMessage: Int32Array;
  lastStop: Int32Array;
  lastTurnStart: Int32Array;
  lastUsage: Int32Array;
  /** Sorted indices of valid cut points; the first `cutCount` are used. */
  private cuts: Int32Array;
  cutCount = 0;
  /** Index of the latest compaction, -1 when none. */
  lastCompaction = -1;
  /** Incremented whenever entries are dropped (caches keyed on the prefix must be rebuilt). */
  truncations = 0;
  private windowStartFor = -2;
  private windowStartValue = 0;
  private ids: Map<string, number> | undefined;
  private fileOpsStart = -1;
  private fileOpsScanned = 0;
  private firstRead = new Map<string, number>();
  private firstModified = new Map<string, number>();

  constructor(estimator: Estimator = PI_ESTIMATOR, capacity = 1024) {
    this.estimator = estimator;
    this.cap = Math.max(16, capacity);
    const c = this.cap;
    this.msgCum = new Float64Array(c + 1);
    this.ctxCum = new Float64Array(c + 1);
    this.sumCum = new Float64Array(c + 1);
    this.sumCount = new Int32Array(c + 1);
    this.ctxCount = new Int32Array(c + 1);
    this.ctxEst = new Float64Array(c);
    this.lastMessage = new Int32Array(c);
    this.lastStop = new Int32Array(c);
    this.lastTurnStart = new Int32Array(c);
    this.lastUsage = new Int32Array(c);
    this.cuts = new Int32Array(c);
  }

  get length(): number {
    return this.entries.length;
  }

  /** The valid cut point of a given rank (0-based). */
  cutPoint(rank: number): number {
    return this.cuts[rank]!;
  }

  private grow(): void {
    const c = this.cap * 2;
    this.msgCum = grownF64(this.msgCum, c + 1);
    this.ctxCum = grownF64(this.ctxCum, c + 1);
    this.sumCum = grownF64(this.sumCum, c + 1);
    this.sumCount = grownI32(this.sumCount, c + 1);
    this.ctxCount = grownI32(this.ctxCount, c + 1);
    this.ctxEst = grownF64(this.ctxEst, c);
    this.lastMessage = grownI32(this.lastMessage, c);
    this.lastStop = grownI32(this.lastStop, c);
    this.lastTurnStart = grownI32(this.lastTurnStart, c);
    this.lastUsage = grownI32(this.lastUsage, c);
    this.cuts = grownI32(this.cuts, c);
    this.cap = c;
  }

  append(entry: SessionEntry): void {
    const i = this.entries.length;
    if (i >= this.cap) this.grow();
    this.entries.push(entry);
    const type = entry.type;
    const isMessage = type === "message";
    const message = isMessage || isContextEntry(entry) ? entryMessage(entry) : undefined;
    const est = message ? this.estimator.estimateMessage(message) : 0;
    const summarizable = message !== undefined && type !== "compaction";
    this.ctxEst[i] = est;
    this.msgCum[i + 1] = this.msgCum[i]! + (isMessage ? est : 0);
    this.ctxCum[i + 1] = this.ctxCum[i]! + est;
    this.sumCum[i + 1] = this.sumCum[i]! + (summarizable ? est : 0);
    this.sumCount[i + 1] = this.sumCount[i]! + (summarizable ? 1 : 0);
    this.ctxCount[i + 1] = this.ctxCount[i]! + (message ? 1 : 0);
    if (isValidCutPoint(entry)) this.cuts[this.cutCount++] = i;
    const p = i - 1;
    this.lastMessage[i] = isMessage ? i : p >= 0 ? this.lastMessage[p]! : -1;
    this.lastStop[i] = isMessage || type === "compaction" ? i : p >= 0 ? this.lastStop[p]! : -1;
    this.lastTurnStart[i] = isTurnStart(entry) ? i : p >= 0 ? this.lastTurnStart[p]! : -1;
    this.lastUsage[i] =
      isMessage && message && hasContextUsage(message) ? i : p >= 0 ? this.lastUsage[p]! : -1;
    if (this.ids && !this.ids.has(entry.id)) this.ids.set(entry.id, i);
    if (type === "compaction") this.lastCompaction = i;
  }

  /** Drops the entries from index k on (O(dropped) except when a dropped compaction was the latest). */
  truncate(k: number): void {
    const n = this.entries.length;
    if (k >= n) return;
    const keep = Math.max(0, k);
    this.truncations++;
    if (this.ids) {
      for (let i = keep; i < n; i++) {
        const id = this.entries[i]!.id;
        if ((this.ids.get(id) ?? -1) >= keep) this.ids.delete(id);
      }
    }
    this.entries.length = keep;
    while (this.cutCount > 0 && this.cuts[this.cutCount - 1]! >= keep) this.cutCount--;
    if (this.lastCompaction >= keep) {
      this.lastCompaction = -1;
      for (let i = keep - 1; i >= 0; i--) {
        if (this.entries[i]!.type === "compaction") {
          this.lastCompaction = i;
          break;
        }
      }
    }
    this.windowStartFor = -2;
    if (this.fileOpsScanned > keep) {
      for (const map of [this.firstRead, this.firstModified])
        for (const [path, i] of map) if (i >= keep) map.delete(path);
      this.fileOpsScanned = Math.max(keep, this.fileOpsStart);
    }
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

  /** The latest compaction entry, if any. */
  latestCompaction(): CompactionEntry | undefined {
    return this.lastCompaction >= 0 ? (this.entries[this.lastCompaction] as CompactionEntry) : undefined;
  }

  /**
   * §7 window start: 0 without a compaction; else the position of the latest compaction's
   * firstKeptEntryId (new pi, #2608), or just after the compaction when that id is not on the path.
   * Cached per compaction.
   */
  windowStart(): number {
    if (this.windowStartFor === this.lastCompaction) return this.windowStartValue;
    const c = this.latestCompaction();
    let ws = 0;
    if (c) {
      const id = c.firstKeptEntryId;
      let at = -1;
      if (typeof id === "string") {
        for (let i = 0; i < this.entries.length; i++) {
          if (this.entries[i]!.id === id) {
            at = i;
            break;
          }
        }
      }
      ws = at >= 0 ? at : this.lastCompaction + 1;
    }
    this.windowStartFor = this.lastCompaction;
    this.windowStartValue = ws;
    return ws;
  }

  /** Rank in the cut points of the first cut point >= i (cutCount when none). */
  cutPointRank(i: number): number {
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

  /**
   * The walk of §7: the newest `message` entry in [start, end) at which the sum of message
   * estimates from it to the end reaches `keep`, or -1 when the sum never does.
   */
  thresholdEntry(start: number, keep: number): number {
    const end = this.entries.length;
    if (end <= start) return -1;
    const target = this.msgCum[end]! - keep;
    // Largest i in [start, end - 1] with msgCum[i] <= target (msgCum is non-decreasing).
    let lo = start;
    let hi = end - 1;
    if (this.msgCum[lo]! > target) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.msgCum[mid]! <= target) lo = mid;
      else hi = mid - 1;
    }
    const m = this.lastMessage[lo]!;
    return m >= start ? m : -1;
  }

  /** Paths read / modified by tool calls in [start, end) (start must be the window start). */
  fileOpsBetween(start: number, end: number): { read: string[]; modified: string[] } {
    if (this.fileOpsStart !== start) {
      this.fileOpsStart = start;
      this.fileOpsScanned = start;
      this.firstRead = new Map();
      this.firstModified = new Map();
    }
    for (let i = this.fileOpsScanned; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (e.type !== "message") continue;
      for (const op of messageFileOps(entryMessage(e))) {
        const map = op.kind === "read" ? this.firstRead : this.firstModified;
        if (!map.has(op.path)) map.set(op.path, i);
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
