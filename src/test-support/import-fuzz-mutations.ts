/**
 * Test support for the import fuzz suite: damage to do to a session file (fast-check
 * arbitraries) and the code that does it, on lines (cycles, missing parents, deleted, duplicated
 * and swapped lines, deep nesting, CRLF, NUL, invalid UTF-8, compactions keeping from elsewhere,
 * a leaf entry moving nowhere) and then on bytes (a BOM, bit flips, truncation).
 */
import fc from "fast-check";

export type Mutation =
  | { kind: "truncate"; at: number }
  | { kind: "flip"; at: number; bit: number }
  | { kind: "swap"; a: number; b: number }
  | { kind: "duplicate"; a: number }
  | { kind: "delete"; a: number }
  | { kind: "cycle"; a: number; b: number }
  | { kind: "orphan"; a: number }
  | { kind: "deep"; a: number; depth: number; inEntry: boolean }
  | { kind: "bom" }
  | { kind: "crlf"; a: number }
  | { kind: "nul"; a: number; at: number }
  | { kind: "utf8"; a: number; bytes: number[]; inString: boolean }
  | { kind: "kept"; a: number; b: number }
  | { kind: "leaf"; b: number; missing: boolean };

/** A position in [0, 1), uniform (fc.double is uniform over the float encodings: mostly tiny). */
const frac = fc.noBias(fc.integer({ min: 0, max: 2 ** 30 - 1 })).map((n) => n / 2 ** 30);
const BAD_UTF8 = [
  [0x80],
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf4, 0x90, 0x80, 0x80],
];

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: frac }),
  fc.record({ kind: fc.constant("flip" as const), at: frac, bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant("swap" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate" as const), a: fc.nat() }),
  fc.record({ kind: fc.constant("delete" as const), a: fc.nat() }),
  fc.record({ kind: fc.constant("cycle" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant("orphan" as const), a: fc.nat() }),
  fc.record({
    kind: fc.constant("deep" as const),
    a: fc.nat(),
    depth: fc.constantFrom(999, 1000, 1001, 5000, 200_000),
    inEntry: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("bom" as const) }),
  fc.record({ kind: fc.constant("crlf" as const), a: fc.nat() }),
  fc.record({ kind: fc.constant("nul" as const), a: fc.nat(), at: frac }),
  fc.record({
    kind: fc.constant("utf8" as const),
    a: fc.nat(),
    bytes: fc.constantFrom(...BAD_UTF8),
    inString: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("kept" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant("leaf" as const), b: fc.nat(), missing: fc.boolean() }),
);

const enc = new TextEncoder();
const dec = new TextDecoder();

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

type Obj = Record<string, unknown>;

function objectAt(lines: Uint8Array[], i: number): Obj | undefined {
  try {
    const value = JSON.parse(dec.decode(lines[i]));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : undefined;
  } catch {
    return undefined;
  }
}

/** Applies `mutations` to a session's lines (header first, without "\n"); returns the file's bytes. */
export function applyMutations(base: readonly string[], mutations: readonly Mutation[]): Uint8Array {
  const lines: Uint8Array[] = base.map((l) => enc.encode(l));
  /** An entry line (never the header), from any number. */
  const pick = (n: number) => (lines.length > 1 ? 1 + (n % (lines.length - 1)) : 0);
  const edit = (i: number, change: (o: Obj) => void) => {
    const o = objectAt(lines, i);
    if (o === undefined) return;
    change(o);
    try {
      lines[i] = enc.encode(JSON.stringify(o));
    } catch {
      // A line nested too deeply to write again (a "deep" mutation): left as it is.
    }
  };
  for (const m of mutations) {
    if (m.kind === "swap") {
      // Mostly two entry lines; now and then the header (the file is then no session at all).
      const a = m.a % 10 === 0 ? 0 : pick(m.a);
      const b = pick(m.b);
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
    } else if (m.kind === "duplicate") lines.splice(pick(m.a), 0, lines[pick(m.a)]!);
    else if (m.kind === "delete" && lines.length > 1) lines.splice(pick(m.a), 1);
    else if (m.kind === "cycle") {
      // Parent of line a := the entry a few lines below it (usually a descendant: a cycle).
      const a = pick(m.a);
      const b = Math.min(lines.length - 1, a + 1 + (m.b % 8));
      const target = objectAt(lines, b)?.id;
      if (typeof target === "string") edit(a, (o) => (o.parentId = target));
    } else if (m.kind === "orphan") edit(pick(m.a), (o) => (o.parentId = `gone-${m.a}`));
    else if (m.kind === "deep") {
      const nest = `${"[".repeat(m.depth)}${"]".repeat(m.depth)}`;
      const line = m.inEntry
        ? `{"type":"message","id":"deep-${m.a}","parentId":null,"message":{"role":"user","content":${nest}}}`
        : nest;
      lines.splice(pick(m.a) + 1, 0, enc.encode(line));
    } else if (m.kind === "crlf") lines[pick(m.a)] = concat([lines[pick(m.a)]!, new Uint8Array([0x0d])]);
    else if (m.kind === "nul") {
      const line = lines[pick(m.a)]!;
      const at = Math.floor(m.at * line.length);
      lines[pick(m.a)] = concat([line.subarray(0, at), new Uint8Array([0]), line.subarray(at)]);
    } else if (m.kind === "utf8") {
      const i = pick(m.a);
      const line = lines[i]!;
      // Inside a string value (after the first `":"`), or anywhere.
      const quote = dec.decode(line).indexOf('":"');
      const at = m.inString && quote >= 0 ? quote + 3 : m.a % (line.length + 1);
      lines[i] = concat([line.subarray(0, at), new Uint8Array(m.bytes), line.subarray(at)]);
    } else if (m.kind === "kept") {
      const compactions = lines.map((_, i) => i).filter((i) => objectAt(lines, i)?.type === "compaction");
      const target = objectAt(lines, pick(m.b))?.id;
      if (compactions.length > 0 && typeof target === "string")
        edit(compactions[m.a % compactions.length]!, (o) => (o.firstKeptEntryId = target));
    } else if (m.kind === "leaf") {
      const last = objectAt(lines, lines.length - 1)?.id;
      const target = m.missing ? "nowhere" : objectAt(lines, pick(m.b))?.id;
      lines.push(
        enc.encode(
          JSON.stringify({
            type: "leaf",
            id: `leaf-${m.b}`,
            parentId: last ?? null,
            targetId: target ?? null,
          }),
        ),
      );
    }
  }
  let bytes: Uint8Array = concat(lines.flatMap((l) => [l, new Uint8Array([0x0a])]));
  for (const m of mutations) {
    if (m.kind === "bom") bytes = concat([new Uint8Array([0xef, 0xbb, 0xbf]), bytes]);
    else if (m.kind === "flip" && bytes.length > 0) {
      bytes = bytes.slice();
      const at = Math.floor(m.at * bytes.length);
      bytes[at] = bytes[at]! ^ (1 << m.bit);
    } else if (m.kind === "truncate") bytes = bytes.slice(0, Math.floor(m.at * bytes.length));
  }
  return bytes;
}

/** A random v3 session: a tree of messages, customs, compactions and labels, as JSONL lines. */
export const generatedSessionArb: fc.Arbitrary<string[]> = fc
  .array(
    fc.record({
      type: fc.constantFrom("message", "message", "message", "custom", "compaction", "label"),
      parent: fc.oneof(fc.constant(-1), fc.constant(-1), fc.constant(-1), fc.nat(), fc.constant(-2)),
      kept: fc.nat(),
      text: fc.string({ maxLength: 30, unit: "grapheme" }),
    }),
    { minLength: 1, maxLength: 60 },
  )
  .map((specs) => {
    const header = JSON.stringify({
      type: "session",
      version: 3,
      id: "gen",
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/w",
    });
    const lines = [header];
    specs.forEach((s, i) => {
      const id = `g${i}`;
      // -1: the previous entry, -2: a new root, n: an earlier entry.
      const parentId = i === 0 || s.parent === -2 ? null : s.parent === -1 ? `g${i - 1}` : `g${s.parent % i}`;
      const base = { type: s.type, id, parentId, timestamp: "2026-01-01T00:00:00.000Z" };
      const fields =
        s.type === "message"
          ? { message: { role: i % 2 === 0 ? "user" : "assistant", content: s.text, timestamp: i } }
          : s.type === "compaction"
            ? {
                summary: s.text,
                firstKeptEntryId: s.kept % 3 === 0 ? id : `g${s.kept % (i + 1)}`,
                tokensBefore: i,
              }
            : s.type === "label"
              ? { targetId: `g${s.kept % (i + 1)}`, label: s.text }
              : { customType: "x", data: s.text };
      lines.push(JSON.stringify({ ...base, ...fields }));
    });
    return lines;
  });
