/** Keeps the focus in a region when the control that had it is replaced (Generate by Stop, Stop by the draft): never left to the page. */
import { type RefObject, useEffect, useRef } from "react";
import { focusFirstOf } from "./focus-return.ts";

/**
 * Each time `key` changes (a status that swaps the region's controls): after the next frame, when
 * the page holds the focus because the control inside `root` that last had it was removed or
 * disabled, the first of `candidates()` that can take it gets it. A focus the person moved out of
 * the region, or let go of by clicking on nothing, is left alone.
 */
export function useFocusKept(
  root: RefObject<HTMLElement | null>,
  candidates: () => Iterable<Element | null | undefined>,
  key: unknown,
): void {
  const last = useRef<HTMLElement | null>(null);
  const pick = useRef(candidates);
  pick.current = candidates;

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const note = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement) last.current = e.target;
    };
    el.addEventListener("focusin", note);
    return () => el.removeEventListener("focusin", note);
  }, [root]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the key changes, by design.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      if (active !== null && active !== document.body) return;
      const had = last.current;
      const gone = had !== null && (!had.isConnected || (had as HTMLButtonElement).disabled === true);
      if (gone) focusFirstOf(pick.current());
    });
    return () => cancelAnimationFrame(frame);
  }, [key]);
}
