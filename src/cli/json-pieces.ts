// Writes `JSON.stringify(value)` a piece at a time to a sink that can stop early, so that an excerpt of a large value costs only what it shows.

/** Where the pieces go; `full` stops the writing (a full sink ignores the few closing pieces still given). */
export interface PieceSink {
  add(piece: string): void;
  readonly full: boolean;
}

/** Characters of a long string encoded per piece. */
const STRING_PIECE = 64;
const MAX_DEPTH = 100;

/**
 * Adds the pieces of `JSON.stringify(value)` to `sink` until it is full; their concatenation is
 * that text (or a prefix of it when the sink filled up). False, with nothing added, when
 * `JSON.stringify` gives `undefined` (undefined, a function, a symbol). Values whose JSON other
 * code decides (a `toJSON`, a class instance, a bigint) or nested deeper than 100 levels are
 * written by `JSON.stringify` itself (a `toJSON` is then called with the key "").
 */
export function writeJsonPieces(value: unknown, sink: PieceSink, depth = 0): boolean {
  if (typeof value === "string") writeString(value, sink);
  else if (isPlainContainer(value, depth)) writeContainer(value, sink, depth);
  else {
    const text: string | undefined = JSON.stringify(value);
    if (text === undefined) return false;
    sink.add(text);
  }
  return true;
}

function writeContainer(value: object, sink: PieceSink, depth: number): void {
  if (Array.isArray(value)) {
    sink.add("[");
    for (let i = 0; i < value.length && !sink.full; i++) {
      if (i > 0) sink.add(",");
      if (!writeJsonPieces(value[i], sink, depth + 1)) sink.add("null");
    }
    sink.add("]");
    return;
  }
  sink.add("{");
  let members = 0;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (sink.full) break;
    const item = record[key];
    const name = `${members > 0 ? "," : ""}${JSON.stringify(key)}:`;
    if (typeof item === "string" || isPlainContainer(item, depth + 1)) {
      sink.add(name);
      writeJsonPieces(item, sink, depth + 1);
    } else {
      // Written whole, to know first whether JSON leaves the member out.
      const text: string | undefined = JSON.stringify(item);
      if (text === undefined) continue;
      sink.add(name + text);
    }
    members++;
  }
  sink.add("}");
}

/** A plain array or object without `toJSON`, not too deep: written here; anything else by JSON.stringify. */
function isPlainContainer(value: unknown, depth: number): value is object {
  if (value === null || typeof value !== "object" || depth >= MAX_DEPTH) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  const proto = Object.getPrototypeOf(value);
  return Array.isArray(value) ? proto === Array.prototype : proto === Object.prototype || proto === null;
}

/** A string's JSON in pieces, never cutting between the two halves of a surrogate pair. */
function writeString(s: string, sink: PieceSink): void {
  if (s.length <= STRING_PIECE) {
    sink.add(JSON.stringify(s));
    return;
  }
  sink.add('"');
  for (let from = 0; from < s.length && !sink.full; ) {
    let to = Math.min(s.length, from + STRING_PIECE);
    const last = s.charCodeAt(to - 1);
    if (to < s.length && last >= 0xd800 && last <= 0xdbff) to++;
    sink.add(JSON.stringify(s.slice(from, to)).slice(1, -1));
    from = to;
  }
  sink.add('"');
}
