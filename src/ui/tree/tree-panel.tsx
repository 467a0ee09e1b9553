/**
 * The tree view: the whole session as a virtualized list of rows (branches indented, linear runs
 * collapsed), the current leaf highlighted, compactions / branch summaries / labels marked.
 * Click or Enter navigates (branch-summary preview); arrows, Home/End, PageUp/PageDown move the
 * selection; → / ← expand and collapse a run; L labels, F forks the selected entry.
 */
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { TreeData } from "../../core/session/session-tree.ts";
import { buildTreeRows, rowIsLeaf, rowOnPath, type TreeRow } from "../../core/session/session-tree-rows.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { useTreeStore } from "../../store/tree-store.ts";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { useListVirtualizer } from "../common/use-list-virtualizer.ts";
import { formatCount, formatCountOf } from "../format.ts";
import { describeEntry } from "../timeline/entry-kind.ts";
import { useTreeActions } from "./use-tree-actions.ts";

const ROW_HEIGHT = 30;
const INDENT = 10;
const MAX_INDENT_LEVELS = 12;

function rowId(sessionId: string, key: string): string {
  return `tree-${sessionId}-${key}`.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function EntryRowContent({ row, isLeaf }: { row: Extract<TreeRow, { kind: "entry" }>; isLeaf: boolean }) {
  const d = describeEntry(row.entry);
  return (
    <>
      <span className="tree-icon" aria-hidden="true">
        {d.icon}
      </span>
      <SafeText className="tree-kind" text={d.label} />
      {row.label && (
        <span className="tree-label" title={markInvisible(row.label)}>
          ⚑ <SafeText text={row.label} />
        </span>
      )}
      <SafeText className="tree-excerpt" text={d.excerpt} />
      {row.sibling && (
        <span className="tree-sib" title="Branch position among its siblings">
          {row.sibling.index}/{row.sibling.total}
        </span>
      )}
      {row.childCount > 1 && (
        <span className="tree-fork" title={`${row.childCount} branches start here`}>
          {row.childCount} branches
        </span>
      )}
      {isLeaf && <span className="tree-here">current</span>}
    </>
  );
}

export function TreePanel({ sessionId, data }: { sessionId: string; data: TreeData }) {
  const expandedRuns = useTreeStore((s) => s.expandedRuns);
  const toggleRun = useTreeStore((s) => s.toggleRun);
  const setTreeOpen = useTreeStore((s) => s.setTreeOpen);
  const actions = useTreeActions(sessionId);
  const rows = useMemo(() => buildTreeRows(data, expandedRuns), [data, expandedRuns]);
  const indexByKey = useMemo(() => {
    const m = new Map<string, number>();
    rows.forEach((r, i) => {
      m.set(r.key, i);
    });
    return m;
  }, [rows]);
  // The current position: the leaf, or the entry a move at the leaf moved to.
  const here = data.positionId;
  const leafIndex = here === null ? -1 : (indexByKey.get(here) ?? -1);
  const [active, setActive] = useState(() => Math.max(0, leafIndex));
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  // Stable callbacks: the virtualizer recomputes every row's offset when they change.
  const getScrollElement = useCallback(() => scrollRef.current, []);
  const estimateSize = useCallback(() => ROW_HEIGHT, []);
  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  const virtualizer = useListVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    overscan: 10,
    getItemKey,
  });

  // Open at the current leaf.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || rows.length === 0) return;
    opened.current = true;
    const at = Math.max(0, leafIndex);
    setActive(at);
    virtualizer.scrollToIndex(at, { align: "center" });
    listRef.current?.focus({ preventScroll: true });
  }, [rows.length, leafIndex, virtualizer]);

  // After a move (here or elsewhere), select and show the new current leaf.
  const lastLeaf = useRef(here);
  useEffect(() => {
    if (lastLeaf.current === here) return;
    lastLeaf.current = here;
    if (leafIndex < 0) return;
    setActive(leafIndex);
    // Scroll only when the row is out of view (a move picked in the tree is already in view):
    // a scroll command makes the virtualizer read the layout on every update until it settles.
    const shown = virtualizer.getVirtualItems().some((item) => item.index === leafIndex);
    const el = scrollRef.current;
    const row = shown ? virtualizer.measurementsCache[leafIndex] : undefined;
    if (row && el && row.start >= el.scrollTop && row.end <= el.scrollTop + el.clientHeight) return;
    virtualizer.scrollToIndex(leafIndex, { align: "auto" });
  }, [here, leafIndex, virtualizer]);

  const clamped = Math.min(active, Math.max(0, rows.length - 1));
  const activeRow = rows[clamped];

  const select = useCallback(
    (i: number) => {
      const next = Math.max(0, Math.min(rows.length - 1, i));
      setActive(next);
      virtualizer.scrollToIndex(next, { align: "auto" });
    },
    [rows.length, virtualizer],
  );

  const activate = (row: TreeRow | undefined) => {
    if (!row) return;
    if (row.kind === "run") toggleRun(row.key);
    else actions.navigate(row.entry.id);
  };

  const jumpTo = (entryId: string) => {
    const i = indexByKey.get(entryId);
    if (i !== undefined) {
      select(i);
      listRef.current?.focus({ preventScroll: true });
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / ROW_HEIGHT) - 1);
    const key = e.key;
    let handled = true;
    if (key === "ArrowDown") select(clamped + 1);
    else if (key === "ArrowUp") select(clamped - 1);
    else if (key === "PageDown") select(clamped + page);
    else if (key === "PageUp") select(clamped - page);
    else if (key === "Home") select(0);
    else if (key === "End") select(rows.length - 1);
    else if (key === "Enter" || key === " ") activate(activeRow);
    else if (key === "ArrowRight" && activeRow?.kind === "run") toggleRun(activeRow.key);
    else if (key === "ArrowLeft" && activeRow?.kind === "entry" && activeRow.runKey) {
      const runKey = activeRow.runKey;
      toggleRun(runKey);
      const at = rows.findIndex((r) => r.kind === "entry" && r.runKey === runKey);
      if (at >= 0) setActive(at);
    } else if ((key === "l" || key === "L") && activeRow?.kind === "entry") actions.label(activeRow.entry.id);
    else if ((key === "f" || key === "F") && activeRow?.kind === "entry")
      void actions.fork(activeRow.entry.id);
    else if (key === "Escape") setTreeOpen(false);
    else handled = false;
    if (handled) e.preventDefault();
  };

  const labels = useMemo(() => {
    const out: { id: string; label: string; entry: SessionEntry }[] = [];
    for (const [id, label] of data.labels) {
      const entry = data.index.byId.get(id);
      if (entry) out.push({ id, label, entry });
    }
    return out.sort((a, b) => (data.index.order.get(a.id) ?? 0) - (data.index.order.get(b.id) ?? 0));
  }, [data]);

  const branchCount = useMemo(
    () => rows.filter((r) => r.kind === "entry" && r.childCount === 0).length,
    [rows],
  );
  const items = virtualizer.getVirtualItems();
  const activeId = activeRow ? rowId(sessionId, activeRow.key) : undefined;

  return (
    <aside className="tree-panel" aria-label="Session tree" data-testid="tree-panel">
      <div className="tree-head">
        <h2>Session tree</h2>
        <span className="tree-stats" data-testid="tree-stats">
          {formatCountOf(data.entries.length, "entry", "entries")} · {formatCount(branchCount)}{" "}
          {branchCount === 1 ? "branch" : "branches"}
        </span>
        <button
          type="button"
          className="btn ghost icon"
          aria-label="Close the tree"
          onClick={() => setTreeOpen(false)}
        >
          ✕
        </button>
      </div>
      <div className="tree-tools">
        <button type="button" className="btn" onClick={() => void actions.fork(here)}>
          Fork branch
        </button>
        <button type="button" className="btn" onClick={() => actions.exportBranch()}>
          Export branch
        </button>
        {leafIndex >= 0 && (
          <button type="button" className="btn ghost" onClick={() => jumpTo(here ?? "")}>
            Show current
          </button>
        )}
      </div>
      {labels.length > 0 && (
        <details className="tree-labels" open>
          <summary>Labels ({labels.length})</summary>
          <ul>
            {labels.map((l) => (
              <li key={l.id}>
                <button type="button" className="link" onClick={() => jumpTo(l.id)}>
                  ⚑ <SafeText text={l.label} />
                </button>
                <SafeText className="tree-label-excerpt" text={describeEntry(l.entry).excerpt.slice(0, 60)} />
              </li>
            ))}
          </ul>
        </details>
      )}
      <div ref={scrollRef} className="tree-scroll">
        <div
          ref={listRef}
          role="listbox"
          tabIndex={0}
          aria-label="Entries of the session tree"
          aria-activedescendant={activeId}
          className="tree-list"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
          data-testid="tree-list"
        >
          {items.map((item) => {
            const row = rows[item.index]!;
            const depth = Math.min(row.depth, MAX_INDENT_LEVELS);
            const isLeaf = rowIsLeaf(data, row);
            const cls = [
              "tree-row",
              row.kind === "run" ? "run" : `k-${describeEntry(row.entry).kind}`,
              rowOnPath(data, row) ? "on-path" : "",
              isLeaf ? "leaf" : "",
              item.index === clamped ? "active" : "",
            ].join(" ");
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the listbox (aria-activedescendant)
              <div
                key={item.key}
                tabIndex={-1}
                id={rowId(sessionId, row.key)}
                role="option"
                aria-selected={item.index === clamped}
                aria-current={isLeaf ? "location" : undefined}
                className={cls}
                data-entry-id={row.kind === "entry" ? row.entry.id : undefined}
                data-run={row.kind === "run" ? row.count : undefined}
                style={{
                  transform: `translateY(${item.start}px)`,
                  height: ROW_HEIGHT,
                  paddingLeft: 6 + depth * INDENT,
                }}
                title={row.depth > MAX_INDENT_LEVELS ? `depth ${row.depth}` : undefined}
                onClick={() => {
                  setActive(item.index);
                  activate(row);
                }}
              >
                {row.kind === "run" ? (
                  <>
                    <span className="tree-icon" aria-hidden="true">
                      ⋯
                    </span>
                    <span className="tree-run">… {formatCount(row.count)} entries</span>
                    {row.firstUser && (
                      <span className="tree-excerpt tree-run-about">
                        {row.userCount > 1 ? `${formatCount(row.userCount)} prompts, from “` : "“"}
                        <SafeText text={describeEntry(row.firstUser).excerpt.slice(0, 80)} />”
                      </span>
                    )}
                  </>
                ) : (
                  <EntryRowContent row={row} isLeaf={isLeaf} />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {activeRow?.kind === "entry" && (
        <div className="tree-foot">
          <button type="button" className="btn primary" onClick={() => actions.navigate(activeRow.entry.id)}>
            Go here
          </button>
          <button type="button" className="btn" onClick={() => actions.label(activeRow.entry.id)}>
            Label…
          </button>
          <button type="button" className="btn" onClick={() => void actions.fork(activeRow.entry.id)}>
            Fork from here
          </button>
        </div>
      )}
    </aside>
  );
}
