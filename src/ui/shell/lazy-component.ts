/**
 * Components whose code loads on demand. Unlike `React.lazy`, a component whose module is already
 * there (fetched ahead by `prefetchLazyComponents`, or opened before) renders at once: React.lazy
 * suspends on every first render, and React then holds the content back for ~300 ms after the
 * loading line appears. While the code loads, the nearest <Suspense> shows its fallback.
 */
import { type ComponentType, createElement, type FunctionComponent, use } from "react";

const preloads: (() => Promise<unknown>)[] = [];

/** A component of a module loaded on demand: `load` imports the module, `pick` takes the component. */
export function lazyComponent<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): FunctionComponent<P> & { preload: () => Promise<ComponentType<P>> } {
  let loaded: ComponentType<P> | undefined;
  // Fetched again after a failure (under a new URL, see `importOnce`).
  const importModule = importOnce(load);
  const preload = () =>
    importModule().then((module) => {
      loaded ??= pick(module);
      return loaded;
    });
  preloads.push(preload);
  // The load the renders wait for. The render after its failure throws the error (the nearest
  // error boundary shows it, with "Try again") and only the next render loads again: a new load
  // for every render after a failure was a loop of fetches.
  let waiting: Promise<ComponentType<P>> | undefined;
  let failure: { error: unknown } | undefined;
  // A factory on purpose (as React.lazy): called once per lazily loaded module, at module level.
  // biome-ignore lint/correctness/noComponentHookFactories: made once per module, never during render.
  const Lazy = (props: P) => {
    if (loaded) return createElement(loaded, props);
    if (failure) {
      const { error } = failure;
      failure = undefined;
      waiting = undefined;
      throw error;
    }
    if (!waiting) {
      const loading = preload();
      loading.catch((error: unknown) => {
        if (waiting === loading) failure = { error };
      });
      waiting = loading;
    }
    return createElement(use(waiting), props);
  };
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

/**
 * The module a failed dynamic import names, when it is a script of this page's origin (Chromium
 * and Firefox name it in the error's message; Safari does not), without its query.
 */
export function failedModuleUrl(error: unknown, origin = location.origin): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  for (const [text] of message.matchAll(/https?:\/\/[^\s"'`<>]+/g)) {
    try {
      const url = new URL(text);
      if (url.origin === origin && url.pathname.endsWith(".js")) return `${url.origin}${url.pathname}`;
    } catch {
      // not a URL
    }
  }
  return undefined;
}

/**
 * A module `import`ed on demand, once (see `loadOnce`), that can be fetched again after a failure.
 * Most browsers keep a failed module fetch in their module map, so importing the same URL again
 * fails again without asking the network (whatwg/html#10327 changes that, not everywhere yet):
 * after a failure that names the module's URL, the next call imports it under a new URL (a query
 * the server ignores), which fetches it. Its own imports are the same URLs as everyone's, so they
 * are the same module instances.
 */
export function importOnce<M>(load: () => Promise<M>): () => Promise<M> {
  let retryUrl: string | undefined;
  let attempt = 0;
  return loadOnce(() => {
    const url = retryUrl;
    const loading = url ? (import(/* @vite-ignore */ `${url}?retry=${++attempt}`) as Promise<M>) : load();
    return loading.catch((error: unknown) => {
      retryUrl = failedModuleUrl(error) ?? retryUrl;
      throw error;
    });
  });
}

/** Adds code to fetch when the page is idle (e.g. the agent's compaction hooks), besides the lazy components. */
export function registerPrefetch(load: () => Promise<unknown>): void {
  preloads.push(load);
}

/** Fetches the code of every lazy component now (the app calls it when the page is idle). */
export function prefetchLazyComponents(): Promise<unknown> {
  return Promise.allSettled(preloads.map((preload) => preload()));
}
