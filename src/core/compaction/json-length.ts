/**
 * The length of `JSON.stringify(value)` without building the string: pi counts a tool call's
 * arguments by that length (tokens.ts), and on a 100 MB session the strings cost ~70 of the
 * ~110 ms its messages take to count (e2e/bench/storage.bench.ts). Pure.
 *
 * Exact for every value: plain objects, arrays and primitives are measured here; anything whose
 * JSON other code decides (a `toJSON`, a class instance, a boxed primitive, a bigint) or that may
 * be cyclic (nested deeper than MAX_DEPTH) is measured by `JSON.stringify` itself, so it also
 * throws where that throws.
 */

/** Characters that a JSON string writes as more than themselves (quotes, backslash, controls, surrogates). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes.
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
const MAX_DEPTH = 100;

/** `JSON.stringify(value)?.length`: undefined when that gives undefined (undefined, a function, a symbol). */
export function jsonLength(value: unknown): number | undefined {
  return valueLength(value, 0);
}

/** The length of a string's JSON (with its quotes), as `JSON.stringify` escapes it. */
export function jsonStringLength(s: string): number {
  const first = s.search(ESCAPED);
  if (first < 0) return s.length + 2;
  let n = 2 + first;
  for (let i = first; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) n += 2;
    else if (c < 0x20) n += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n += 2;
        i++;
      } else n += 6;
    } else if (c >= 0xdc00 && c <= 0xdfff) n += 6;
    else n += 1;
  }
  return n;
}

const viaStringify = (value: unknown): number | undefined => JSON.stringify(value)?.length;

function valueLength(value: unknown, depth: number): number | undefined {
  switch (typeof value) {
    case "string":
      return jsonStringLength(value);
    case "number":
      return Number.isFinite(value) ? String(value).length : 4;
    case "boolean":
      return value ? 4 : 5;
    case "object":
      return value === null ? 4 : objectLength(value, depth);
    case "bigint":
      return viaStringify(value);
    default:
      return undefined;
  }
}

function objectLength(value: object, depth: number): number | undefined {
  if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function")
    return viaStringify(value);
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return viaStringify(value);
    let n = value.length > 0 ? value.length + 1 : 2;
    for (let i = 0; i < value.length; i++) n += valueLength(value[i], depth + 1) ?? 4;
    return n;
  }
  if (proto !== Object.prototype && proto !== null) return viaStringify(value);
  let n = 2;
  let members = 0;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const length = valueLength(record[key], depth + 1);
    if (length === undefined) continue;
    n += jsonStringLength(key) + 1 + length;
    members++;
  }
  return members > 1 ? n + members - 1 : n;
}
