/** Publishes an element's bottom edge (or its height) as a CSS variable on the root, for overlays placed under it. */
import { type RefObject, useLayoutEffect } from "react";

/** Keeps `--<name>` on :root equal to the element's bottom (or `height`, px) while it is mounted and resizes. */
export function useBottomVar(
  ref: RefObject<HTMLElement | null>,
  name: string,
  edge: "bottom" | "height" = "bottom",
): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const set = () => {
      const box = el.getBoundingClientRect();
      root.style.setProperty(`--${name}`, `${Math.round(edge === "height" ? box.height : box.bottom)}px`);
    };
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty(`--${name}`);
    };
  }, [ref, name, edge]);
}
