/** The one React hook over stored data: a component shows a service's Live value (services/common/live.ts). */
import { type DependencyList, useEffect, useReducer, useRef } from "react";
import type { Live } from "../../services/common/live.ts";

/**
 * The latest value of `watch()`'s Live, `initial` until the first one. `watch` runs again when `deps`
 * change (the last value stays shown until the new one comes); a `watch` that returns undefined
 * watches nothing and the value is `initial`. A failed read is thrown to the nearest ErrorBoundary.
 */
export function useLive<T, I = undefined>(
  watch: () => Live<T> | undefined,
  deps: DependencyList,
  initial?: I,
): T | I {
  const state = useRef<{ value: T | I; error: unknown }>({ value: initial as I, error: null });
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const source = watch();
    const s = state.current;
    if (!source) {
      if (s.value !== initial || s.error !== null) {
        s.value = initial as I;
        s.error = null;
        rerender();
      }
      return;
    }
    const subscription = source.subscribe(
      (value) => {
        if (s.error === null && s.value === value) return;
        s.error = null;
        s.value = value;
        rerender();
      },
      (error) => {
        if (s.error === error) return;
        s.error = error;
        rerender();
      },
    );
    return () => subscription.unsubscribe();
    // biome-ignore lint/correctness/useExhaustiveDependencies: `deps` are the caller's, as for useEffect.
  }, deps);
  if (state.current.error !== null) throw state.current.error;
  return state.current.value;
}
