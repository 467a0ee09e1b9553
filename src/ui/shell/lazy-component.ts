/**
 * Components whose code loads on demand. Unlike `React.lazy`, a component whose module is already
 * there (fetched ahead by `prefetchLazyComponents`, or opened before) renders at once: React.lazy
 * suspends on every first render, and React then holds the content back for ~300 ms after the
 * loading line appears. While the code loads, the nearest <Suspense> shows its fallback.
 */
import { type ComponentType, createElement, type FunctionComponent, use } from "react";

const preloads: (() => Promise<unknown>)[] = [];

export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): FunctionComponent<P> & { preload: () => Promise<ComponentType<P>> } {
  let loaded: ComponentType<P> | undefined;
  // Fetched again on the next render after a failure.
  const preload = loadOnce(() =>
    load().then((component) => {
      loaded = component;
      return component;
    }),
  );
  preloads.push(preload);
  // A factory on purpose (as React.lazy): called once per lazily loaded module, at module level.
  // biome-ignore lint/correctness/noComponentHookFactories: made once per module, never during render.
  const Lazy = (props: P) => createElement(loaded ?? use(preload()), props);
  return Object.assign(Lazy, { preload });
}

/** `load`, run once and its promise kept; a failure is forgotten, so that the next call loads again. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** Adds code to fetch when the page is idle (e.g. the agent's compaction hooks), besides the lazy components. */
export function registerPrefetch(load: () => Promise<unknown>): void {
  preloads.push(load);
}

/** Fetches the code of every lazy component now (the app calls it when the page is idle). */
export function prefetchLazyComponents(): Promise<unknown> {
  return Promise.allSettled(preloads.map((preload) => preload()));
}
