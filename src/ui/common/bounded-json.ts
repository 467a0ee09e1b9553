/**
 * JSON text for people, bounded whatever the input: nesting deeper than `maxDepth` is shown as
 * `{…}` / `[…]` with its size, and the text stops at `maxChars`. The recursion is bounded by
 * `maxDepth` (a constant), never by the input, so a 100k-deep object renders instead of crashing.
 */

export interface BoundedJson {
  text: string;
  /** Whether something was left out (too deep, or too long). */
  truncated: boolean;
}

export interface BoundedJsonOptions {
  maxDepth?: number;
  maxChars?: number;
  /** Spaces per level; 0 writes one line. */
  indent?: number;
}

class Budget extends Error {}

export function boundedJson(value: unknown, options: BoundedJsonOptions = {}): BoundedJson {
  const maxDepth = options.maxDepth ?? 12;
  const maxChars = options.maxChars ?? 50_000;
  const indent = options.indent ?? 2;
  const parts: string[] = [];
  let length = 0;
  let truncated = false;
  const seen = new Set<object>();
  const put = (s: string) => {
    parts.push(s);
    length += s.length;
    if (length > maxChars) throw new Budget();
  };
  const nl = (depth: number) => (indent > 0 ? `\n${" ".repeat(indent * depth)}` : "");
  const sep = indent > 0 ? ": " : ":";

  const write = (v: unknown, depth: number): void => {
    if (v === null || typeof v === "number" || typeof v === "boolean") {
      put(typeof v === "number" && !Number.isFinite(v) ? "null" : String(v));
      return;
    }
    if (typeof v === "string") {
      put(JSON.stringify(v.length > maxChars ? v.slice(0, maxChars) : v));
      return;
    }
    if (typeof v === "bigint") {
      put(`${v}n`);
      return;
    }
    if (typeof v !== "object") {
      put(v === undefined ? "undefined" : `"[${typeof v}]"`);
      return;
    }
    if (seen.has(v)) {
      truncated = true;
      put('"[circular]"');
      return;
    }
    const isArray = Array.isArray(v);
    const keys = isArray ? null : Object.keys(v);
    const size = isArray ? v.length : keys!.length;
    if (size === 0) {
      put(isArray ? "[]" : "{}");
      return;
    }
    if (depth >= maxDepth) {
      truncated = true;
      put(isArray ? `[… ${size} item${size > 1 ? "s" : ""}]` : `{… ${size} key${size > 1 ? "s" : ""}}`);
      return;
    }
    seen.add(v);
    put(isArray ? "[" : "{");
    for (let i = 0; i < size; i++) {
      put(`${i > 0 ? "," : ""}${nl(depth + 1)}`);
      if (isArray) write((v as unknown[])[i], depth + 1);
      else {
        const k = keys![i]!;
        put(`${JSON.stringify(k)}${sep}`);
        write((v as Record<string, unknown>)[k], depth + 1);
      }
    }
    put(`${nl(depth)}${isArray ? "]" : "}"}`);
    seen.delete(v);
  };

  try {
    write(value, 0);
  } catch (err) {
    if (!(err instanceof Budget)) throw err;
    truncated = true;
    return {
      text: `${parts.join("").slice(0, maxChars)}\n… (cut at ${maxChars.toLocaleString()} characters)`,
      truncated,
    };
  }
  return { text: parts.join(""), truncated };
}
