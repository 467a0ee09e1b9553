/** Whether a one-row bar must move its optional controls into a menu to fit: measured on the bar, not guessed from the window. */
import { type RefObject, useLayoutEffect, useRef, useState } from "react";

/**
 * True while `bar` overflows with its optional controls shown (then they go into a menu). It comes
 * back false once the bar is as wide as it needed then, less what its `flexible` part (a slot whose
 * content comes and goes, such as the offline chip) has shrunk since. Watched with a ResizeObserver
 * on the bar, the flexible part and `controls` (what is moved), so it never flips back and forth.
 */
export function useBarFit(
  bar: RefObject<HTMLElement | null>,
  flexible: RefObject<HTMLElement | null>,
  controls: RefObject<HTMLElement | null>,
): boolean {
  const [collapsed, setCollapsed] = useState(false);
  const at = useRef<{ needed: number; flexible: number } | null>(null);
  useLayoutEffect(() => {
    const el = bar.current;
    const part = flexible.current;
    if (!el || !part) return;
    const check = () => {
      if (at.current === null) {
        if (el.scrollWidth > el.clientWidth + 1) {
          at.current = { needed: el.scrollWidth, flexible: part.offsetWidth };
          setCollapsed(true);
        }
      } else if (el.clientWidth >= at.current.needed + part.offsetWidth - at.current.flexible) {
        at.current = null;
        setCollapsed(false);
      }
    };
    check();
    const observer = new ResizeObserver(check);
    for (const target of [el, part, controls.current]) if (target) observer.observe(target);
    return () => observer.disconnect();
  }, [bar, flexible, controls]);
  return collapsed;
}
