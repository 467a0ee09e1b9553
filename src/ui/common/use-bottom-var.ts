/** Publishes an element's bottom edge as a CSS variable on the root, for overlays placed under it. */
import { type RefObject, useLayoutEffect } from "react";

/** Keeps `--<name>` on :root equal to the element's bottom (px) while it is mounted and resizes. */
export function useBottomVar(ref: RefObject<HTMLElement | null>, name: string): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const set = () =>
      root.style.setProperty(`--${name}`, `${Math.round(el.getBoundingClientRect().bottom)}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty(`--${name}`);
    };
  }, [ref, name]);
}
