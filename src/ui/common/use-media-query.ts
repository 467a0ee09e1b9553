/** Whether a CSS media query matches now, kept up to date (for layouts that move controls, not only restyle them). */
import { useSyncExternalStore } from "react";

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The top bar keeps only the title, the meter, Compact… and the ⋯ menu at this width and below. */
export const NARROW_TOP_BAR = "(max-width: 640px)";
