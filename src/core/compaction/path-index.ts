/**
 * An append-friendly index over a path (root first) that makes planning O(log n): prefix sums of
 * token estimates, the sorted valid cut points, "latest X at or before i" arrays, ids, and the
 * first occurrence of every file operation after the current window start. Appending one entry
 * costs O(1) amortized (plus the file-op update of that entry).
 */
import type { CompactionEntry, SessionEntry } from "../session/types.ts";
import { entryMessage, isContextEntry, isTurnStart, isValidCutPoint } from "./entry-messages.ts";
import { type FileOp, messageFileOps } from "./file-ops.ts";
import { type Estimator, hasContextUsage, PI_ESTIMATOR } from "./tokens.ts";

export class PathIndex {
  readonly entries: SessionEntry[] = [];
  readonly estimator: Estimator;
  /** msgCum[i]: estimates of `message` entries in [0, i) (the cut rule's sum). */
  readonly msgCum: number[] = [0];
  /** ctxCum[i]: estimates of context-producing entries in [0, i) (compactions as summaries). */
  readonly ctxCum: number[] = [0];
  /** sumCum / sumCount: estimates / count of summarizable entries (context-producing, not compaction). */
  readonly sumCum: number[] = [0];
  readonly sumCount: number[] = [0];
  /** ctxCount[i]: number of context-producing entries in [0, i). */
  readonly ctxCount: number[] = [0];
  /** Estimate of each entry's context message (0 when it produces none). */
  readonly ctxEst: number[] = [];
  /** Sorted indices of valid cut points. */
  readonly cutPoints: number[] = [];
  /** Latest index <= i of: a `message` entry; a message or compaction; a turn start; a usable usage reply. */
  readonly lastMessage: number[] = [];
  readonly lastStop: number[] = [];
  readonly lastTurnStart: number[] = [];
  readonly lastUsage: number[] = [];
  /** First index of each id (pi resolves ids with findIndex). */
  readonly idIndex = new Map<string, number>();
  /** Index of the latest compaction, -1 when none. */
  lastCompaction = -1;
  private readonly fileOps: (readonly FileOp[] | undefined)[] = [];
  /** First index >= fileOpsStart of each path's read / modify operation. */
  private fileOpsStart = -1;
  private firstRead = new Map<string, number>();
  private firstModified = new Map<string, number>();

  constructor(estimator: Estimator = PI_ESTIMATOR) {
    this.estimator = estimator;
  }

  get length(): number {
    return this.entries.length;
  }

  append(entry: SessionEntry): void {
    const i = this.entries.length;
    this.entries.push(entry);
    const isMessage = entry.type === "message";
    const context = isContextEntry(entry);
    const message = context ? entryMessage(entry) : undefined;
    const est = message ? this.estimator.estimateMessage(message) : 0;
    this.ctxEst.push(est);
    this.msgCum.push(this.msgCum[i]! + (isMessage ? est : 0));
    this.ctxCum.push(this.ctxCum[i]! + est);
    const summarizable = context && entry.type !== "compaction";
    this.sumCum.push(this.sumCum[i]! + (summarizable ? est : 0));
    this.sumCount.push(this.sumCount[i]! + (summarizable ? 1 : 0));
    this.ctxCount.push(this.ctxCount[i]! + (message ? 1 : 0));
    if (isValidCutPoint(entry)) this.cutPoints.push(i);
    const prev = (a: number[]) => (i > 0 ? a[i - 1]! : -1);
    this.lastMessage.push(isMessage ? i : prev(this.lastMessage));
    this.lastStop.push(isMessage || entry.type === "compaction" ? i : prev(this.lastStop));
    this.lastTurnStart.push(isTurnStart(entry) ? i : prev(this.lastTurnStart));
    this.lastUsage.push(isMessage && message && hasContextUsage(message) ? i : prev(this.lastUsage));
    if (!this.idIndex.has(entry.id)) this.idIndex.set(entry.id, i);
    if (entry.type === "compaction") this.lastCompaction = i;
    const ops = isMessage ? messageFileOps(message) : undefined;
    this.fileOps.push(ops && ops.length > 0 ? ops : undefined);
    if (ops && this.fileOpsStart >= 0 && i >= this.fileOpsStart) this.noteOps(ops, i);
  }

  /** The latest compaction entry, if any. */
  latestCompaction(): CompactionEntry | undefined {
    return this.lastCompaction >= 0 ? (this.entries[this.lastCompaction] as CompactionEntry) : undefined;
  }

  /**
   * §7 window start: 0 without a compaction; else the position of the latest compaction's
   * firstKeptEntryId (new pi, #2608), or just after the compaction when that id is not on the path.
   */
  windowStart(): number {
    const c = this.latestCompaction();
    if (!c) return 0;
    const id = c.firstKeptEntryId;
    const idx = typeof id === "string" ? this.idIndex.get(id) : undefined;
    return idx ?? this.lastCompaction + 1;
  }

  /** Index of the first valid cut point >= i, or -1. */
  nextCutPoint(i: number): number {
    const rank = this.cutPointRank(i);
    return rank < this.cutPoints.length ? this.cutPoints[rank]! : -1;
  }

  /** Position in `cutPoints` of the first cut point >= i. */
  cutPointRank(i: number): number {
    const cp = this.cutPoints;
    let lo = 0;
    let hi = cp.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cp[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
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

  /** File lists of the operations in [start, end) (start must be the window start). */
  fileOpsBetween(start: number, end: number): { read: string[]; modified: string[] } {
    if (this.fileOpsStart !== start) this.rebuildFileOps(start);
    const read: string[] = [];
    const modified: string[] = [];
    for (const [p, i] of this.firstRead) if (i < end) read.push(p);
    for (const [p, i] of this.firstModified) if (i < end) modified.push(p);
    return { read, modified };
  }

  private rebuildFileOps(start: number): void {
    this.fileOpsStart = start;
    this.firstRead = new Map();
    this.firstModified = new Map();
    for (let i = start; i < this.fileOps.length; i++) {
      const ops = this.fileOps[i];
      if (ops) this.noteOps(ops, i);
    }
  }

  private noteOps(ops: readonly FileOp[], i: number): void {
    for (const op of ops) {
      const map = op.kind === "read" ? this.firstRead : this.firstModified;
      if (!map.has(op.path)) map.set(op.path, i);
    }
  }
}
