/**
 * A cache of big models (a path's context, its timeline, its tree) keyed by the array they are
 * built from, as a WeakMap whose newest values are also held strongly. A value reachable only
 * through a WeakMap is marked by a full garbage collection in its final pause (as an ephemeron,
 * once its key is known to live): with a 100 MB session open that was a 76 ms pause of a
 * 120-149 ms task (e2e/bench/storage.bench.ts, STORAGE_BENCH_TRACE=1); held strongly, the
 * collector marks it as it goes, and the pause went. Older values are held by the WeakMap only,
 * as before. Pure.
 */

export interface WeakCache<K extends object, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  set(key: K, value: V): void;
  delete(key: K): void;
}

/** Values held strongly per cache: the open session's, and the one it replaces. */
const HELD = 2;

export function weakCache<K extends object, V>(held = HELD): WeakCache<K, V> {
  const map = new WeakMap<K, V>();
  const newest: V[] = [];
  const release = (value: V) => {
    const at = newest.indexOf(value);
    if (at >= 0) newest.splice(at, 1);
  };
  return {
    get: (key) => map.get(key),
    has: (key) => map.has(key),
    set(key, value) {
      const old = map.get(key);
      if (old !== undefined) release(old);
      map.set(key, value);
      newest.push(value);
      if (newest.length > held) newest.shift();
    },
    delete(key) {
      const old = map.get(key);
      if (old !== undefined) release(old);
      map.delete(key);
    },
  };
}
