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
  values: readonly T[];
}

export interface ItemMemo<I extends object, T> {
  /** `compute(item)` for each item of `items`, in order, reusing what earlier calls computed. */
  map(items: readonly I[]): readonly T[];
}

/** How many of the last arrays are tried for items moved to a new array. */
const RECENT = 4;

export function createItemMemo<I extends object, T>(compute: (item: I) => T): ItemMemo<I, T> {
  const byArray = new WeakMap<readonly I[], ArrayMemo<T>>();
  let recent: WeakRef<ArrayMemo<T>>[] = [];

  /** The offset in `memo.items` of `items[0]`'s position, or undefined when they share no start. */
  const shiftOf = (memo: ArrayMemo<T>, items: readonly I[]): number | undefined => {
    if (memo.items.length === 0 || items.length === 0) return undefined;
    if (memo.items[0] === items[0]) return 0;
    const inOld = memo.items.indexOf(items[0]!);
    if (inOld >= 0) return inOld;
    const inNew = items.indexOf(memo.items[0] as I);
    return inNew >= 0 ? -inNew : undefined;
  };

  return {
    map(items) {
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
      // Pushed, not preallocated: `new Array(n)` for a large n is a slow (dictionary) array in V8.
      const values: T[] = [];
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        let value: T | undefined;
        let found = false;
        for (const { memo, shift } of sources) {
          if (memo.items[i + shift] === item) {
            value = memo.values[i + shift]!;
            found = true;
            break;
          }
        }
        values.push(found ? (value as T) : compute(item));
      }
      const memo: ArrayMemo<T> = { items: items.slice(), values };
      byArray.set(items, memo);
      recent = [new WeakRef(memo), ...recent.filter((r) => r.deref() !== own)].slice(0, RECENT);
      return values;
    },
  };
}
