/** Keeps the focus in a region when the control that had it is replaced (Generate by Stop, Stop by Regenerate): never left to the page. */
import { type RefObject, useEffect, useRef } from "react";
import { focusFirstOf } from "./focus-return.ts";

/**
 * Each time `key` changes (a status that swaps the region's controls): after the next frame, when
 * the page holds the focus because the control inside `root` that last had it was removed or
 * disabled, the first of `candidates(origin)` that can take it gets it. `origin` is the test id of
 * the control the person pressed first in a chain of such swaps (Offline summary, then the Stop that
 * replaced it), so that the focus can go back to it once it is shown again. A focus the person moved
 * elsewhere, or let go of by clicking on nothing, is left alone.
 */
export function useFocusKept(
  root: RefObject<HTMLElement | null>,
  candidates: (origin: string | null) => Iterable<Element | null | undefined>,
  key: unknown,
): void {
  const last = useRef<HTMLElement | null>(null);
  const origin = useRef<string | null>(null);
  const ours = useRef(false);
  const pick = useRef(candidates);
  pick.current = candidates;

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const note = (e: FocusEvent) => {
      if (!(e.target instanceof HTMLElement)) return;
      last.current = e.target;
      // A focus the person moved starts a new chain; one given here continues it.
      if (!ours.current) origin.current = null;
      ours.current = false;
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
      if (!gone) return;
      origin.current ??= had.dataset.testid ?? null;
      ours.current = true;
      if (!focusFirstOf(pick.current(origin.current))) ours.current = false;
    });
    return () => cancelAnimationFrame(frame);
  }, [key]);
}
