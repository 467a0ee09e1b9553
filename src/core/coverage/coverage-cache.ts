/**
 * A memo of a per-item computation over arrays of items (the coverage check's findings per message
 * of a summarized range), kept per array and reused, item by item, for a later array that holds
 * the same item objects (a range re-planned, grown or shifted).
 *
 * Why not a WeakMap per item: on the 100 MB session a range holds ~90k messages, and 90k WeakMap
 * entries cost more than reading most messages. Here each array costs one WeakMap entry and a
 * copy of the array; the items of a new array are matched by identity at the same position, or
 * shifted by where the first item of one array sits in the other. Nothing is kept once the
 * arrays are unreachable (the last arrays are held through WeakRef only). Results never depend
 * on what is cached: a miss computes the item again.
 */

interface ArrayMemo<T> {
  /** The items as they were when computed (the caller may change its array later). */
  items: readonly object[];
  /** Values of `items[0..values.length]` (fewer than the items when a cursor stopped early). */
  values: readonly T[];
}

/** Values of one array, computed in order, a few at a time (see `ItemMemo.open`). */
export interface MemoCursor<T> {
  /** How many values are known (computed or reused). */
  readonly done: number;
  /** The value of item `done` (computed, or reused from earlier arrays); call while done < length. */
  next(): T;
  /** The values so far. */
  values(): readonly T[];
  /** Keeps what was computed for later arrays (also when stopped early). Idempotent. */
  close(): void;
}

export interface ItemMemo<I extends object, T> {
  /** `compute(item)` for each item of `items`, in order, reusing what earlier calls computed. */
  map(items: readonly I[]): readonly T[];
  /** The same values one at a time (a long array over several tasks); `close` keeps them. */
  open(items: readonly I[]): MemoCursor<T>;
}

/** How many of the last arrays are tried for items moved to a new array. */
const RECENT = 4;

export function createItemMemo<I extends object, T>(compute: (item: I) => T): ItemMemo<I, T> {
  const byArray = new WeakMap<readonly I[], ArrayMemo<T>>();
  let recent: WeakRef<ArrayMemo<T>>[] = [];

  /** The offset in `memo.items` of `items[0]`'s position, or undefined when they share no start. */
  const shiftOf = (memo: ArrayMemo<T>, items: readonly I[]): number | undefined => {
    if (memo.values.length === 0 || items.length === 0) return undefined;
    if (memo.items[0] === items[0]) return 0;
    const inOld = memo.items.indexOf(items[0]!);
    if (inOld >= 0) return inOld;
    const inNew = items.indexOf(memo.items[0] as I);
    return inNew >= 0 ? -inNew : undefined;
  };

  const open = (items: readonly I[]): MemoCursor<T> => {
    const candidates: ArrayMemo<T>[] = [];
    const own = byArray.get(items);
    if (own) candidates.push(own);
    for (const ref of recent) {
      const memo = ref.deref();
      if (memo && memo !== own) candidates.push(memo);
    }
    const sources: { memo: ArrayMemo<T>; shift: number }[] = [];
    for (const memo of candidates) {
      const shift = shiftOf(memo, items);
      if (shift !== undefined) sources.push({ memo, shift });
    }
    // A copy now: the caller may change its array while the cursor runs.
    const mine = items.slice();
    // Pushed, not preallocated: `new Array(n)` for a large n is a slow (dictionary) array in V8.
    const values: T[] = [];
    let closed = false;
    return {
      get done() {
        return values.length;
      },
      next() {
        const i = values.length;
        const item = mine[i]!;
        for (const { memo, shift } of sources) {
          const at = i + shift;
          if (at < memo.values.length && memo.items[at] === item) {
            const value = memo.values[at]!;
            values.push(value);
            return value;
          }
        }
        const value = compute(item);
        values.push(value);
        return value;
      },
      values: () => values,
      close() {
        if (closed) return;
        closed = true;
        const memo: ArrayMemo<T> = { items: mine, values };
        // A finished array is found again by identity; a partial one only through `recent`.
        if (values.length === mine.length) byArray.set(items, memo);
        recent = [new WeakRef(memo), ...recent.filter((r) => r.deref() !== own)].slice(0, RECENT);
      },
    };
  };

  return {
    open,
    map(items) {
      const cursor = open(items);
      while (cursor.done < items.length) cursor.next();
      cursor.close();
      return cursor.values();
    },
  };
}
