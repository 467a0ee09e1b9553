/**
 * The virtualized timeline of the current path: a constant number of DOM rows whatever the
 * session size; rows keyed by entry id and measured; follows the end when entries arrive.
 */
import type { VirtualItem } from "@tanstack/react-virtual";
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { oneLine } from "../../core/session/one-line.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { inputStamp } from "../common/input-stamp.ts";
import { type ListVirtualizer, useListVirtualizer } from "../common/use-list-virtualizer.ts";
import { formatCount, formatCountOf, formatTokens } from "../format.ts";
import { useLoadProgress } from "../hooks/current-session.tsx";
import { ForkParent } from "../tree/fork-parent.tsx";
import { factsAt } from "./compaction-facts.tsx";
import { describeEntry } from "./entry-kind.ts";
import type { TimelineModel } from "./timeline-model.ts";
import { TimelineRow } from "./timeline-row.tsx";

/** First guess of a one-line row's height (px); the first measured plain row corrects it. */
const PLAIN_ROW_GUESS = 38;

/** A row whose height is that of every other one-line row. */
function isPlainRow(entry: SessionEntry, expanded: ReadonlySet<string>, model: TimelineModel): boolean {
  if (entry.type === "compaction" || expanded.has(entry.id) || model.labels.has(entry.id)) return false;
  return !model.forks.has(entry.id);
}

const OVERSCAN = 6;

/**
 * Room below the last row (px). The scroll box's height is rarely a whole number of pixels (the
 * top bar and the timeline's head are sized in rem), while its scroll range is counted in whole
 * pixels (scrollHeight - clientHeight, clientHeight rounded up): without this room the last
 * fraction of a pixel of the list can never be scrolled into view, and the last row stays cut.
 */
const END_ROOM = 4;

/** The first kept entry's excerpt, as a compaction row links to it ("…" while its text is being read). */
function keptExcerpt(entry: SessionEntry, awaiting: ReadonlySet<SessionEntry> | undefined): string {
  return awaiting?.has(entry) ? "…" : oneLine(describeEntry(entry).excerpt, 60);
}

/**
 * The rows the virtualizer will show once the list is scrolled to its end: the last rows that fill
 * the viewport, plus the overscan (as its own range would be). Undefined before the viewport is
 * measured.
 */
function endItems(virtualizer: ListVirtualizer): VirtualItem[] | undefined {
  virtualizer.getTotalSize(); // brings `measurementsCache` up to date with the options
  const measurements = virtualizer.measurementsCache;
  const viewport = virtualizer.scrollRect?.height ?? 0;
  const n = measurements.length;
  if (n === 0 || viewport <= 0) return undefined;
  const offset = Math.max(0, measurements[n - 1]!.end + END_ROOM - viewport);
  let first = n - 1;
  while (first > 0 && measurements[first - 1]!.end > offset) first--;
  return measurements.slice(Math.max(0, first - OVERSCAN));
}

/** How far the rest of a session being opened is (shown while the timeline holds its newest entries). */
function LoadProgressLabel() {
  const loading = useLoadProgress() ?? 0;
  return (
    <span role="status" data-testid="loading-status">
      {loading >= 1
        ? "Preparing the whole session…"
        : `Loading earlier entries… ${Math.round(loading * 100)} %`}
    </span>
  );
}

/** How far the reading of the messages' text is, while the whole session is shown from its outline. */
function BodiesProgressLabel() {
  const loading = useLoadProgress();
  return (
    <span role="status" data-testid="bodies-loading">
      Reading the messages' text… {Math.round((loading ?? 0) * 100)} %
    </span>
  );
}

interface BoxSize {
  width: number;
  height: number;
}

/** Whether `el`'s box has another size than `box` holds; `box` now holds its size. */
function resized(box: { current: BoxSize }, el: HTMLElement): boolean {
  const { clientWidth: width, clientHeight: height } = el;
  const changed = width !== box.current.width || height !== box.current.height;
  box.current = { width, height };
  return changed;
}

/**
 * `partial`: the model holds only the newest entries while the rest loads; `status` then says how
 * far that is (by default, the session's load progress). `awaiting`: the entries shown from their
 * outline, whose text is still being read (their rows say so).
 */
export function Timeline({
  model,
  partial = false,
  status,
  awaiting,
  sizeNote,
}: {
  model: TimelineModel;
  partial?: boolean;
  status?: ReactNode;
  awaiting?: ReadonlySet<SessionEntry>;
  /** Said after the head's token estimate (how it relates to the meter's figure). */
  sizeNote?: ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const expanded = useUiStore((s) => s.expanded);
  const toggleExpanded = useUiStore((s) => s.toggleExpanded);
  const [flashIndex, setFlashIndex] = useState<number | undefined>(undefined);
  const [activeId, setActiveId] = useState<string | undefined>(undefined);
  const { path } = model;
  const atEnd = useRef(true);

  // Row heights: a plain row (one line: not expanded, no compaction note, no label, no branch
  // switcher) has the height last measured for one; others are estimated, then measured. Rows
  // are measured by the ResizeObserver only (after the browser's own layout): with the right
  // estimate a new row needs no second layout pass, and no commit forces a synchronous layout
  // (that cost ~13 ms per branch switch on a 100k-entry tree, e2e/bench/tree.bench.ts).
  const plainHeight = useRef(PLAIN_ROW_GUESS);
  const plainRef = useRef<(i: number) => boolean>(() => false);
  plainRef.current = (i: number) => {
    const e = path[i];
    return e !== undefined && isPlainRow(e, expanded, model);
  };
  const getScrollElement = useCallback(() => scrollRef.current, []);
  const estimateSize = useCallback((i: number) => (plainRef.current(i) ? plainHeight.current : 44), []);
  const getItemKey = useCallback((i: number) => path[i]?.id ?? i, [path]);
  const measureElement = useCallback(
    (el: Element, entry: ResizeObserverEntry | undefined, instance: ListVirtualizer) => {
      const index = instance.indexFromElement(el);
      if (!entry) {
        const key = instance.options.getItemKey(index);
        return instance.itemSizeCache.get(key) ?? instance.options.estimateSize(index);
      }
      const box = entry.borderBoxSize?.[0];
      const size = Math.round(box ? box.blockSize : el.getBoundingClientRect().height);
      if (plainRef.current(index)) plainHeight.current = size;
      return size;
    },
    [],
  );
  const virtualizer = useListVirtualizer({
    count: path.length,
    getScrollElement,
    estimateSize,
    overscan: OVERSCAN,
    // The end, scrolled to, includes the room below the last row.
    paddingEnd: END_ROOM,
    scrollPaddingEnd: END_ROOM,
    getItemKey,
    measureElement,
  });

  // Open at the end (the latest entries), stay there while entries arrive, and show the end of a
  // new path (a leaf move) when the end was in view; also when the path grows before its end (the
  // newest entries shown first, then the whole session). The first render of the new end already
  // has the end's rows (`endItems`): scrolling there then costs one layout, not a render of the
  // rows at the old offset, a forced layout, and a second render after the scroll event.
  const count = path.length;
  const endKey = count > 0 ? `${path[count - 1]!.id}#${count}` : undefined;
  const shownEnd = useRef<string | undefined>(undefined);
  const follow = endKey !== undefined && endKey !== shownEnd.current && atEnd.current;
  useLayoutEffect(() => {
    if (endKey === undefined || endKey === shownEnd.current) return;
    shownEnd.current = endKey;
    if (atEnd.current) virtualizer.scrollToIndex(count - 1, { align: "end" });
  }, [endKey, count, virtualizer]);

  // The view itself can change size with nothing scrolled (a bar appears or goes, the composer
  // grows, the window): at the end, it stays at the end (else the last rows slide below the fold).
  // After a change of width, the rows in view wrap again and the list grows or shrinks after the
  // box did: that is followed too, until the person clicks or presses a key (a row they expand at
  // the end is not followed).
  const listRef = useRef<HTMLUListElement>(null);
  // The box's size when last seen. A scroll that comes with a new size is the browser's answer to
  // the resize (scrollTop clamped, or moved by scroll anchoring as the rows wrap again), not the
  // person's: at the end, the view stays at the end (the observer below keeps it there). Judged as
  // the person's, it left a view at the end "not at the end" after the window went narrow and
  // back, and the rows that came next (a compaction confirmed) were not followed.
  const box = useRef<BoxSize>({ width: -1, height: -1 });
  useEffect(() => {
    const el = scrollRef.current;
    const list = listRef.current;
    if (!el || !list) return;
    let width = el.clientWidth;
    let rewrapping: number | undefined;
    // The person's last input when the view was last kept at its end: content that grows with no
    // input since (a late row, a bar) is followed; a row the person expanded is not.
    let stillSince = inputStamp();
    const keepEnd = () => {
      const max = el.scrollHeight - el.clientHeight;
      if (el.scrollTop < max - 1) el.scrollTop = max;
      stillSince = inputStamp();
    };
    const observer = new ResizeObserver((changes) => {
      if (!atEnd.current) {
        rewrapping = undefined;
        return;
      }
      if (changes.some((c) => c.target === el)) {
        resized(box, el);
        if (el.clientWidth !== width) {
          width = el.clientWidth;
          rewrapping = inputStamp();
        }
        keepEnd();
      } else if (rewrapping === inputStamp() || stillSince === inputStamp()) keepEnd();
    });
    observer.observe(el);
    observer.observe(list);
    return () => observer.disconnect();
  }, []);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el || (resized(box, el) && atEnd.current)) return;
    atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 60;
  }, []);

  const jump = useCallback(
    (index: number) => {
      atEnd.current = false;
      virtualizer.scrollToIndex(index, { align: "start" });
      setFlashIndex(index);
    },
    [virtualizer],
  );

  // After a jump, move focus to the target row once it is rendered.
  useEffect(() => {
    if (flashIndex === undefined) return;
    const id = path[flashIndex]?.id;
    const t = window.setTimeout(() => {
      const el = scrollRef.current?.querySelector<HTMLButtonElement>(
        `button[data-entry-id="${CSS.escape(id ?? "")}"]`,
      );
      el?.focus({ preventScroll: true });
    }, 50);
    const clear = window.setTimeout(() => setFlashIndex(undefined), 2000);
    return () => {
      window.clearTimeout(t);
      window.clearTimeout(clear);
    };
  }, [flashIndex, path]);

  const keptFrom = useMemo(() => {
    if (model.lastCompaction < 0) return undefined;
    const compaction = path[model.lastCompaction] as { firstKeptEntryId?: unknown } | undefined;
    const id = compaction?.firstKeptEntryId;
    const index = typeof id === "string" ? model.indexById.get(id) : undefined;
    if (index === undefined) return undefined;
    return { index, excerpt: keptExcerpt(path[index]!, awaiting) };
  }, [model, path, awaiting]);

  const keptFor = (i: number) => {
    const e = path[i]!;
    if (e.type !== "compaction") return undefined;
    if (i === model.lastCompaction) return keptFrom;
    const id = (e as { firstKeptEntryId?: unknown }).firstKeptEntryId;
    const index = typeof id === "string" ? model.indexById.get(id) : undefined;
    return index === undefined ? undefined : { index, excerpt: keptExcerpt(path[index]!, awaiting) };
  };

  const total = count > 0 ? model.totals[count - 1]! : 0;
  const items = (follow ? endItems(virtualizer) : undefined) ?? virtualizer.getVirtualItems();
  return (
    <>
      <div className="timeline-head" aria-live="polite">
        {partial ? (
          (status ?? <LoadProgressLabel />)
        ) : (
          <span data-testid="path-count">
            {formatCountOf(count, "entry", "entries")}
            <span className="th-long"> on the path</span>
          </span>
        )}
        {!partial && (
          <span data-testid="head-tokens">
            ≈ {formatTokens(total)} tokens<span className="th-long"> (estimate, chars/4)</span>
          </span>
        )}
        {!partial && sizeNote}
        {awaiting && <BodiesProgressLabel />}
        <ForkParent />
        {model.lastCompaction >= 0 && (
          <button type="button" className="link" onClick={() => jump(model.lastCompaction)}>
            Go to the last compaction
          </button>
        )}
        {model.lastCompaction >= 0 && (
          <span className="th-long">
            {formatCount(model.firstInContext)} entries before the last compaction's kept range are not in
            context
          </span>
        )}
      </div>
      <div ref={scrollRef} className="timeline-scroll" onScroll={onScroll} data-testid="timeline">
        <ul
          ref={listRef}
          className="timeline-inner"
          aria-label="Timeline of the current path"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {items.map((item) => {
            const i = item.index;
            const entry = path[i]!;
            const d = describeEntry(entry);
            const inContext = model.inContext[i] === 1;
            return (
              <li
                key={item.key}
                data-index={i}
                ref={virtualizer.measureElement}
                className={`row k-${d.kind} ${inContext ? "in" : "out"}${flashIndex === i ? " flash" : ""}`}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <span className="row-gutter" aria-hidden="true" />
                <ErrorBoundary name="this row" inline>
                  <TimelineRow
                    entry={entry}
                    pending={awaiting?.has(entry) ?? false}
                    index={i}
                    tokens={model.tokens[i]!}
                    total={partial ? Number.NaN : model.totals[i]!}
                    inContext={inContext}
                    edit={model.edits.get(entry.id)}
                    expanded={expanded.has(entry.id)}
                    label={model.labels.get(entry.id)}
                    keptFrom={keptFor(i)}
                    facts={entry.type === "compaction" ? factsAt(path, i) : undefined}
                    flash={flashIndex === i}
                    toolbar={activeId === entry.id}
                    onActivate={setActiveId}
                    onToggle={toggleExpanded}
                    onJump={jump}
                  />
                </ErrorBoundary>
              </li>
            );
          })}
        </ul>
      </div>
    </>
  );
}
