/**
 * Memos kept on the objects they are about, under a hidden symbol, instead of in a WeakMap: the
 * token count of each message, the messages of each entry. With a 100 MB session open, those
 * WeakMaps held ~90k entries each, and every full garbage collection marked them as ephemerons in
 * a pause of its own (77 ms of a 149 ms task on reopen: e2e/bench/storage.bench.ts with
 * STORAGE_BENCH_TRACE=1). The property is not enumerable, so that a copy (`{ ...m }`),
 * JSON and structured clones never carry it; an object that cannot take it (frozen) is memoized
 * in a WeakMap. Memos are never changed once set. Pure apart from the memo itself.
 */

export interface ObjectMemo<V> {
  get(object: object): V | undefined;
  has(object: object): boolean;
  /** Memoizes `value` for `object`, unless it has one already. */
  set(object: object, value: V): void;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** A memo named `name` (the same name is the same memo, wherever it is made). */
export function objectMemo<V>(name: string): ObjectMemo<V> {
  const key = Symbol.for(`cutpoint.memo:${name}`);
  const sealed = new WeakMap<object, V>();
  return {
    get: (object) => (object as Record<symbol, V | undefined>)[key] ?? sealed.get(object),
    has: (object) => hasOwn.call(object, key) || sealed.has(object),
    set(object, value) {
      if (hasOwn.call(object, key)) return;
      if (Object.isExtensible(object)) Object.defineProperty(object, key, { value });
      else if (!sealed.has(object)) sealed.set(object, value);
    },
  };
}
