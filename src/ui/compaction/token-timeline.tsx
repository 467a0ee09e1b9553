/**
 * The token timeline of the current path (right panel): one fixed-height row per entry
 * (virtualized: a constant number of DOM rows), each with its band (pattern + label, not only
 * colour), its token size as a bar on the cumulative context axis (window and threshold drawn
 * on it), and the running total. The cut line is always in the DOM at its row's offset; it can be
 * dragged (snaps to valid cut points) or moved with the keyboard (↑/↓, PageUp/PageDown, Home/End,
 * Enter opens the preview). A minimap shows the whole session's token mass with the same bands.
 */

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { CutPointInfo } from "../../core/compaction/cut-points.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import {
  cutMovedByHand,
  openCompactionPreview,
  useCompactionStore,
  useSessionCompaction,
} from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { useListVirtualizer } from "../common/use-list-virtualizer.ts";
import type { SessionSlotProps } from "../shell/slots.ts";
import { CompactButton } from "./compact-button.tsx";
import { CompactionHistory } from "./compaction-history.tsx";
import { CompactionPreview } from "./compaction-preview.tsx";
import { ContextView } from "./context-view.tsx";
import { type CutMove, moveCut, rankOf, snapCut } from "./cut-navigation.ts";
import { cutWords } from "./cut-words.ts";
import { fullTokens, kTokens, plural } from "./format-tokens.ts";
import { Minimap } from "./minimap.tsx";
import { ModelView } from "./model-view.tsx";
import { SummaryCard } from "./summary-card.tsx";
import { BAND_SHORT, type Band, bandOf } from "./timeline-bands.ts";
import { TokenRow } from "./token-row.tsx";
import { type CompactionModel, useCompactionModel } from "./use-compaction-model.ts";
import { useCoverageItems } from "./use-coverage.ts";
import { useTokensAfter } from "./use-tokens-after.ts";

export const ROW_HEIGHT = 40;
/** Room left open above the first kept row for the cut handle, so that it never covers a row's text. */
export const CUT_GAP = 26;
const rowHeight = () => ROW_HEIGHT;
/** The share of the threshold from which the coverage items are read ahead for a review. */
const READ_AHEAD_SHARE = 0.8;

const KEY_MOVES: Record<string, CutMove> = {
  ArrowUp: "prev",
  ArrowDown: "next",
  PageUp: "page-up",
  PageDown: "page-down",
  Home: "first",
  End: "last",
};

function isContextEntry(e: SessionEntry): boolean {
  return e.type === "message" || e.type === "custom_message" || e.type === "branch_summary";
}

/** Context entries kept from the first kept index to the end (what the handle says). */
function keptMessages(path: readonly SessionEntry[], from: number): number {
  let n = 0;
  for (let i = from; i < path.length; i++) if (isContextEntry(path[i]!)) n++;
  return n;
}

export function TokenTimeline({ sessionId }: SessionSlotProps) {
  const model = useCompactionModel(sessionId);
  // The coverage check's items of the plan shown, read in idle time for the review, once one is
  // likely (the context within reach of the threshold): a small session never pays for it.
  const likely = model !== undefined && model.context.tokens >= READ_AHEAD_SHARE * model.threshold;
  useCoverageItems(likely && model.plan.ok ? model.plan.plan : undefined, false);
  const previewOpen = useSessionCompaction(sessionId, (s) => s.previewOpen);
  const modelView = useSessionCompaction(sessionId, (s) => s.modelView);
  const historyOpen = useSessionCompaction(sessionId, (s) => s.historyOpen);
  const patch = useCompactionStore((s) => s.patch);
  const setModelView = (on: boolean) => patch(sessionId, { modelView: on });
  const setHistoryOpen = (on: boolean) => patch(sessionId, { historyOpen: on });
  const setRightOpen = useUiStore((s) => s.setRightPanelOpen);
  // Once per path, not per render: every cut move renders the panel (a filter over 91k entries
  // was ~2 ms of each move).
  const path = model?.path;
  const compactions = useMemo(() => {
    let n = 0;
    for (const e of path ?? []) if (e.type === "compaction") n++;
    return n;
  }, [path]);
  // The cut handle, shared with the review (it takes the focus when the person opens the review).
  const handleRef = useRef<HTMLDivElement>(null);
  if (!model) return <div className="cp-panel cp-empty">Loading the session…</div>;
  const cannot = model.blocker;
  return (
    <div className={`cp-panel${previewOpen ? " reviewing" : ""}`} data-testid="token-timeline-panel">
      {previewOpen && (
        <ErrorBoundary name="the compaction preview">
          <CompactionPreview model={model} cutHandleRef={handleRef} />
        </ErrorBoundary>
      )}
      <div className="cp-tl-side">
        {/* Opened from the meter: the window as parts first (in the review, at its top). */}
        {!previewOpen && <ContextView model={model} />}
        <div className="cp-tl-head">
          <h2>Token timeline</h2>
          <label className="cp-toggle">
            <input type="checkbox" checked={modelView} onChange={(e) => setModelView(e.target.checked)} />
            What the model sees
          </label>
          <button
            type="button"
            className="btn small"
            aria-pressed={historyOpen}
            onClick={() => setHistoryOpen(!historyOpen)}
            disabled={compactions === 0}
          >
            History ({compactions})
          </button>
          {!previewOpen && <CompactButton sessionId={sessionId} reason={cannot} />}
          <button
            type="button"
            className="btn small ghost cp-close"
            aria-label="Close the side panel"
            onClick={() => setRightOpen(false)}
          >
            ✕
          </button>
        </div>
        {historyOpen && (
          <ErrorBoundary name="the compaction history">
            <CompactionHistory model={model} />
          </ErrorBoundary>
        )}
        <ErrorBoundary
          key={modelView ? "model" : "tokens"}
          name={modelView ? "what the model sees" : "the token timeline"}
        >
          {modelView ? (
            <ModelView model={model} />
          ) : (
            // Why nothing can be planned is said once: by the review, or by the disabled Compact….
            <TimelineRows model={model} saysWhy={!previewOpen && cannot === null} handleRef={handleRef} />
          )}
        </ErrorBoundary>
        <Legend split={model.plan.plan?.isSplitTurn === true} />
      </div>
    </div>
  );
}

function Legend({ split }: { split: boolean }) {
  const bands: Band[] = [
    "outside",
    "summarized",
    ...(split ? (["prefix"] as Band[]) : []),
    "kept",
    "summary",
  ];
  return (
    <ul className="cp-legend" aria-label="Legend">
      {bands.map((b) => (
        <li key={b}>
          <span className={`cp-swatch band-${b}`} aria-hidden="true" />
          {BAND_SHORT[b]}
        </li>
      ))}
    </ul>
  );
}

function TimelineRows({
  model,
  saysWhy,
  handleRef,
}: {
  model: CompactionModel;
  saysWhy: boolean;
  handleRef: React.RefObject<HTMLDivElement | null>;
}) {
  const { path, planner, plan, account } = model;
  const scrollRef = useRef<HTMLDivElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const sessionId = model.sessionId;
  const storeMoveCut = useCompactionStore((s) => s.moveCut);
  const setCut = useCallback((id: string | null) => storeMoveCut(sessionId, id), [storeMoveCut, sessionId]);
  const cutEntryId = useSessionCompaction(sessionId, (s) => s.cutEntryId);
  const byHand = useSessionCompaction(sessionId, cutMovedByHand);
  const after = useTokensAfter(model);
  const openPreview = () => openCompactionPreview(sessionId);
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const [openSummary, setOpenSummary] = useState<string | null>(null);
  const n = path.length;

  // Stable options: a new function identity makes the virtualizer re-measure every row (O(n)).
  const getItemKey = useCallback((i: number) => path[i]?.id ?? i, [path]);
  const getScrollElement = useCallback(() => scrollRef.current, []);
  const virtualizer = useListVirtualizer({
    count: n,
    getScrollElement,
    estimateSize: rowHeight,
    overscan: 8,
    getItemKey,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the planner's list changes with its version.
  const points: CutPointInfo[] = useMemo(() => planner.listCutPoints(), [planner, model.version]);
  const p = plan.plan;
  const cutIndex = p ? p.firstKeptIndex : -1;
  // The point the person chose (the plan may step back over settings entries before it).
  const pointById = useMemo(() => new Map(points.map((c) => [c.entryId, c.index])), [points]);
  const chosen = useMemo(() => {
    if (cutEntryId) {
      const r = pointById.get(cutEntryId);
      if (r !== undefined) return r;
    }
    if (cutIndex < 0) return -1;
    const r = rankOf(points, cutIndex);
    return points[r]?.index ?? cutIndex;
  }, [cutEntryId, points, pointById, cutIndex]);

  const ws = model.windowStart;
  const run = useCallback((i: number) => (i < 0 ? 0 : planner.runningTokens(i)), [planner]);
  const base = run(ws - 1);
  const contextTotal = run(n - 1) - base;
  const axis = Math.max(contextTotal, model.contextWindow, 1);

  // Warm the plan's lazy file lists while idle, so opening the preview does not compute them.
  useEffect(() => {
    const t = window.setTimeout(() => void p?.fileOps, 300);
    return () => window.clearTimeout(t);
  }, [p]);

  // Open at the cut (or the end).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || n === 0) return;
    opened.current = true;
    virtualizer.scrollToIndex(cutIndex >= 0 ? cutIndex : n - 1, { align: "center" });
  }, [n, cutIndex, virtualizer]);

  /**
   * Scrolls the row into view only when it is not visible (scrolling forces layout). Where the
   * list stands is the virtualizer's (kept from scroll events and a ResizeObserver): reading the
   * element's offsets would force a layout in every frame the cut moves (~3 ms each on 91k entries).
   */
  const reveal = useCallback(
    (index: number, align: "center" | "auto") => {
      const el = scrollRef.current;
      if (!el) return;
      const top = index * ROW_HEIGHT;
      const scrollTop = virtualizer.scrollOffset ?? el.scrollTop;
      const view = virtualizer.scrollRect?.height ?? el.clientHeight;
      if (top >= scrollTop + ROW_HEIGHT && top <= scrollTop + view - 2 * ROW_HEIGHT) return;
      // Rows have a fixed height: set the offset directly (no measuring loop).
      el.scrollTop =
        align === "center"
          ? Math.max(0, top - view / 2)
          : top < scrollTop
            ? top - ROW_HEIGHT
            : top - view + 2 * ROW_HEIGHT;
    },
    [virtualizer],
  );

  // Keep the cut in view when it moves (slider, a new plan) or the preview opens.
  const previewOpen = useSessionCompaction(sessionId, (s) => s.previewOpen);
  const dragging = dragIndex !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-centre when the preview opens or closes.
  useEffect(() => {
    if (dragging || cutIndex < 0) return;
    const t = requestAnimationFrame(() => reveal(cutIndex, "center"));
    return () => cancelAnimationFrame(t);
  }, [cutIndex, previewOpen, reveal, dragging]);

  // A request to show an entry (a coverage item's "entry"): scrolled to and marked for a moment.
  const revealRequest = useUiStore((s) => s.reveal);
  const [flashId, setFlashId] = useState<string | null>(null);
  const revealSeq = useRef(revealRequest?.seq ?? 0);
  useEffect(() => {
    if (!revealRequest || revealRequest.seq === revealSeq.current) return;
    revealSeq.current = revealRequest.seq;
    const at = path.findIndex((e) => e.id === revealRequest.entryId);
    if (at < 0) return;
    reveal(at, "center");
    setFlashId(revealRequest.entryId);
    const t = window.setTimeout(() => setFlashId(null), 2500);
    return () => window.clearTimeout(t);
  }, [revealRequest, path, reveal]);

  const moveTo = useCallback(
    (c: CutPointInfo | undefined, focus: boolean) => {
      if (!c) return;
      setCut(c.entryId);
      reveal(c.firstKeptIndex, "auto");
      if (focus) requestAnimationFrame(() => handleRef.current?.focus({ preventScroll: true }));
    },
    [setCut, reveal, handleRef],
  );

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "Enter") {
      e.preventDefault();
      openPreview();
      return;
    }
    const move = KEY_MOVES[e.key];
    if (!move || chosen < 0) return;
    e.preventDefault();
    moveTo(moveCut(points, chosen, move), true);
  };

  const indexAt = (clientY: number) => {
    const rect = innerRef.current?.getBoundingClientRect();
    if (!rect) return 0;
    const y = clientY - rect.top;
    const at = Math.round(y / ROW_HEIGHT);
    const shifted = at > cutIndex && cutIndex >= 0 ? Math.round((y - CUT_GAP) / ROW_HEIGHT) : at;
    return Math.max(0, Math.min(n - 1, shifted));
  };
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    // No text selection while dragging (the handle is a slider, not a button); it keeps the focus.
    e.preventDefault();
    e.currentTarget.focus({ preventScroll: true });
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragIndex(chosen);
  };
  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>) => {
    if (dragIndex === null) return;
    const snapped = snapCut(points, indexAt(e.clientY));
    if (snapped && snapped.index !== dragIndex) {
      setDragIndex(snapped.index);
      setCut(snapped.entryId);
    }
    // Scroll when dragging near the edges.
    const el = scrollRef.current;
    if (el) {
      const r = el.getBoundingClientRect();
      if (e.clientY < r.top + 24) el.scrollTop -= 16;
      else if (e.clientY > r.bottom - 24) el.scrollTop += 16;
    }
  };
  const onPointerUp = () => setDragIndex(null);

  const keptCount = useMemo(() => (cutIndex >= 0 ? keptMessages(path, cutIndex) : 0), [path, cutIndex]);
  const valueText = p ? cutWords(p, keptCount, after, byHand) : "no cut";
  // Changes are announced once the cut rests (not on every step of a drag or a held key).
  const [announced, setAnnounced] = useState("");
  useEffect(() => {
    const t = window.setTimeout(() => setAnnounced(valueText), 400);
    return () => window.clearTimeout(t);
  }, [valueText]);
  const pointSet = useMemo(() => new Set(points.map((c) => c.index)), [points]);
  const items = virtualizer.getVirtualItems();
  const frac = (x: number) => Math.min(1, Math.max(0, x / axis));
  // "Sizes": each entry's bar on a log scale of the largest entry, so that small entries read too.
  const [sizes, setSizes] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the planner's estimates change with its version.
  const largest = useMemo(() => {
    if (!sizes) return 1;
    let max = 1;
    for (let i = 0; i < n; i++) max = Math.max(max, planner.entryTokens(i));
    return max;
  }, [sizes, planner, n, model.version]);
  const sizeFrac = (t: number) => Math.log1p(t) / Math.log1p(largest);
  const summaryEntry = openSummary ? path.find((e) => e.id === openSummary) : undefined;

  return (
    <div className="cp-tl-body">
      {summaryEntry && (
        <SummaryCard
          entry={summaryEntry}
          model={model}
          onClose={() => setOpenSummary(null)}
          onJump={(i) => virtualizer.scrollToIndex(i, { align: "start" })}
        />
      )}
      <p className="cp-tl-axis">
        {sizes ? (
          <>Bars: each entry's size on a log scale (largest {fullTokens(largest)} tokens)</>
        ) : (
          <>
            Bars: each entry's tokens on the context axis 0 → {kTokens(axis)}
            <span className="cp-axis-key threshold" aria-hidden="true" /> threshold {kTokens(model.threshold)}
            <span className="cp-axis-key window" aria-hidden="true" /> window {kTokens(model.contextWindow)}
          </>
        )}
        <label className="cp-toggle cp-sizes">
          <input type="checkbox" checked={sizes} onChange={(e) => setSizes(e.target.checked)} /> sizes
        </label>
      </p>
      <div className="cp-tl-main">
        <div ref={scrollRef} className="cp-tl-scroll" data-testid="token-timeline">
          <div
            ref={innerRef}
            className="cp-tl-inner"
            style={{ height: virtualizer.getTotalSize() + (cutIndex >= 0 ? CUT_GAP : 0) }}
          >
            {!sizes && (
              <>
                <span
                  className="cp-vline threshold"
                  style={{ "--f": frac(model.threshold) } as React.CSSProperties}
                />
                <span
                  className="cp-vline window"
                  style={{ "--f": frac(model.contextWindow) } as React.CSSProperties}
                />
              </>
            )}
            <ul className="cp-tl-list" aria-label="Entries of the current path with their tokens">
              {items.map((item) => {
                const i = item.index;
                const entry = path[i]!;
                const tokens = planner.entryTokens(i);
                return (
                  <TokenRow
                    key={item.key}
                    index={i}
                    entry={entry}
                    tokens={tokens}
                    top={item.start + (cutIndex >= 0 && i >= cutIndex ? CUT_GAP : 0)}
                    // With nothing to summarize, no row is marked "summarized" (the handle stays, to move by hand).
                    band={bandOf(i, entry, plan.ok ? p : undefined, ws)}
                    inContext={account.inContext[i] === 1}
                    notch={pointSet.has(i)}
                    flash={flashId === entry.id}
                    left={sizes ? 0 : i >= ws ? frac(run(i - 1) - base) : 0}
                    width={sizes ? sizeFrac(tokens) : frac(tokens)}
                    running={run(i)}
                    onOpenSummary={setOpenSummary}
                  />
                );
              })}
            </ul>
            {p && cutIndex >= 0 && (
              <div
                className={`cp-cut${dragIndex !== null ? " dragging" : ""}`}
                style={{ transform: `translateY(${cutIndex * ROW_HEIGHT}px)` }}
              >
                <div
                  ref={handleRef}
                  role="slider"
                  tabIndex={0}
                  className="cp-cut-handle"
                  data-testid="cut-handle"
                  aria-label="Cut"
                  aria-orientation="vertical"
                  aria-valuemin={1}
                  aria-valuemax={Math.max(1, points.length)}
                  aria-valuenow={rankOf(points, chosen) + 1}
                  aria-valuetext={valueText}
                  aria-describedby={`${sessionId}-cut-help`}
                  onKeyDown={onKeyDown}
                  onPointerDown={onPointerDown}
                  onPointerMove={onPointerMove}
                  onPointerUp={onPointerUp}
                  onPointerCancel={onPointerUp}
                >
                  <span aria-hidden="true">⠿</span> keeps {fullTokens(p.keptTokens)} tokens ·{" "}
                  {plural(keptCount, "message")}
                  {byHand ? " (moved by hand)" : ""}
                </div>
              </div>
            )}
          </div>
        </div>
        <Minimap model={model} onJump={(i) => virtualizer.scrollToIndex(i, { align: "center" })} />
      </div>
      {!plan.ok && saysWhy && <p className="cp-note">{plan.reason ?? "Nothing to compact."}</p>}
      <span className="sr-only" id={`${sessionId}-cut-help`}>
        Arrow keys move the cut between valid cut points, Page Up and Page Down by about 5,000 tokens, Enter
        opens the review.
      </span>
      <span className="sr-only" aria-live="polite" data-testid="cut-announce">
        {announced}
      </span>
    </div>
  );
}
