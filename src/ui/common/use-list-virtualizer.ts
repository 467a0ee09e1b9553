/**
 * A vertical virtual list over an element that scrolls (virtual-core's Virtualizer), re-rendered
 * only when what it renders changes: the rows shown or their sizes and offsets. Every virtual
 * list of the app uses it.
 *
 * Why not `useVirtualizer` from @tanstack/react-virtual: it re-renders synchronously (flushSync)
 * on every change of the scrolling flag too, so each scroll, even one that keeps the same rows,
 * renders the list inside the frame's scroll event; after a leaf move (the timeline and the tree
 * both scroll) that was 2-9 ms in the frame that shows the new path (Chromium trace,
 * e2e/bench/tree.bench.ts with TREE_BENCH_TRACE=1). No list here reads `isScrolling`.
 */
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type VirtualItem,
  Virtualizer,
  type VirtualizerOptions,
} from "@tanstack/react-virtual";
import { useLayoutEffect, useReducer, useState } from "react";
import { flushSync } from "react-dom";

export type ListVirtualizer = Virtualizer<HTMLDivElement, Element>;

type Options = Omit<
  VirtualizerOptions<HTMLDivElement, Element>,
  "observeElementRect" | "observeElementOffset" | "scrollToFn" | "onChange"
>;

export function useListVirtualizer(options: Options): ListVirtualizer {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [state] = useState(() => ({ items: undefined as VirtualItem[] | undefined, measuring: false }));
  const full: VirtualizerOptions<HTMLDivElement, Element> = {
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    ...options,
    onChange: (instance, sync) => {
      // getVirtualItems is memoized on the range and the measurements: the same array when
      // neither changed (only the scrolling flag did).
      const items = instance.getVirtualItems();
      if (items === state.items) return;
      state.items = items;
      // A scroll shows new rows in the same frame; a measurement (from a ref callback during a
      // commit, or a ResizeObserver) re-renders normally.
      if (sync && !state.measuring) flushSync(rerender);
      else rerender();
    },
  };
  const [instance] = useState(() => {
    const v = new Virtualizer(full);
    const measure = v.measureElement;
    v.measureElement = (node) => {
      state.measuring = true;
      try {
        measure(node);
      } finally {
        state.measuring = false;
      }
    };
    return v;
  });
  instance.setOptions(full);
  useLayoutEffect(() => instance._didMount(), [instance]);
  useLayoutEffect(() => instance._willUpdate());
  // What this render shows is what the next change is compared with.
  state.items = instance.getVirtualItems();
  return instance;
}
