/**
 * The byte parser (import, CLI) against the text parser, the line decoder against
 * TextDecoder, and the verbatim export rule (a v3 file's entry lines are written as they are).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineRuns, serializeParsedSession, serializeSession } from "./export.ts";
import { PI_FIXTURE } from "./fixture-path.ts";
import {
  createLineDecoder,
  createSessionByteParser,
  type ParsedSession,
  type ParseResult,
  parseSessionBytes,
  parseSessionJsonl,
} from "./parse.ts";
import { createCheckedLineDecoder, MAX_JSON_DEPTH, nestedTooDeep } from "./parse-lines.ts";
import type { SessionEntry } from "./types.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

const HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';

function entryLine(i: number, text: string): string {
  return JSON.stringify({
    type: "message",
    id: `e${i}`,
    parentId: i === 0 ? null : `e${i - 1}`,
    timestamp: "2026-01-01T00:00:00.000Z",
    message: { role: "user", content: text, timestamp: 1 },
  });
}

function ok(result: ParseResult): ParsedSession {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function concat(parts: (string | Uint8Array)[]): Uint8Array {
  const bytes = parts.map((p) => (typeof p === "string" ? enc.encode(p) : p));
  const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of bytes) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** Feeds `bytes` to a byte parser in pieces cut at `cuts`. */
function parseInPieces(bytes: Uint8Array, cuts: number[]): ParseResult {
  const parser = createSessionByteParser();
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    parser.push(bytes.subarray(at, Math.max(at, cut)));
    at = Math.max(at, cut);
  }
  parser.push(bytes.subarray(at));
  return parser.finish();
}

/** Lines of a session file: good entries (some non-ASCII), bad lines, blank lines, CRLF. */
const lineArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }).map((t) => ({ kind: "entry", t })) },
  { weight: 1, arbitrary: fc.constantFrom("{broken", "garbage", "[1,2]", '{"type":"message"}', "   ") },
  { weight: 1, arbitrary: fc.constant({ kind: "dup" }) },
);

function buildFile(items: (string | { kind: string; t?: string })[], crlf: boolean[], finalNewline: boolean) {
  const lines = [HEADER];
  let n = 0;
  for (const item of items) {
    if (typeof item === "string") lines.push(item);
    else if (item.kind === "entry") lines.push(entryLine(n++, item.t ?? ""));
    else lines.push(entryLine(0, "duplicate id"));
  }
  let text = "";
  lines.forEach((line, i) => {
    const last = i === lines.length - 1;
    text += line;
    if (!last || finalNewline) text += crlf[i % Math.max(1, crlf.length)] ? "\r\n" : "\n";
  });
  return text;
}

describe("the byte parser", () => {
  it("gives the text parser's result for any file and any way of cutting its bytes", () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 25 }),
        fc.array(fc.boolean(), { maxLength: 5 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        (items, crlf, finalNewline, bom, cutSeeds) => {
          const text = (bom ? "\uFEFF" : "") + buildFile(items, crlf, finalNewline);
          const bytes = enc.encode(text);
          const cuts = cutSeeds.map((c) => c % (bytes.length + 1));
          const fromText = ok(parseSessionJsonl(text));
          const fromBytes = ok(parseInPieces(bytes, cuts));
          expect(fromBytes.entries).toEqual(fromText.entries);
          expect(fromBytes.lines).toEqual(fromText.lines);
          expect(fromBytes.problems).toEqual(fromText.problems);
          expect(fromBytes.header).toEqual(fromText.header);
          expect(fromBytes.entryCount).toBe(fromText.entries.length);
          // Each verbatim span is exactly the entry's line; CRLF lines have none.
          const spans = fromBytes.verbatimSpans!;
          expect(spans).toHaveLength(2 * fromBytes.entries.length);
          fromBytes.entries.forEach((entry, i) => {
            const start = spans[2 * i]!;
            if (start < 0) return;
            const line = dec.decode(bytes.subarray(start, spans[2 * i + 1]!));
            expect(JSON.parse(line)).toEqual(entry);
            expect(line.endsWith("\r")).toBe(false);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("any cut of multi-byte text, long lines and bad bytes into pieces gives the one-piece result", () => {
    // Text that puts 2-, 3- and 4-byte characters (and a real U+FFFD) on every side of a cut, lines
    // longer than a decoding run (parse-split.ts), and bytes that are not UTF-8.
    const text = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fc.constantFrom("é", "中文", "😀👍🏽", "\uFFFD", "e\u0301", "x".repeat(9000), "ü😀".repeat(2500)),
    );
    const line = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(fc.nat(20), text).map(([i, t]) => enc.encode(entryLine(i, t))) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 12 }) },
      { weight: 1, arbitrary: fc.constantFrom("", "{broken", "\uFEFF{}", "   \r").map((t) => enc.encode(t)) },
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 30 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 40 }),
        (lines, bom, finalNewline, cutSeeds) => {
          const parts: (string | Uint8Array)[] = [`${bom ? "\uFEFF" : ""}${HEADER}`];
          for (const l of lines) parts.push("\n", l);
          if (finalNewline) parts.push("\n");
          const bytes = concat(parts);
          const whole = ok(parseSessionBytes(bytes));
          const pieces = ok(
            parseInPieces(
              bytes,
              cutSeeds.map((c) => c % (bytes.length + 1)),
            ),
          );
          expect(pieces).toEqual(whole);
          // And byte by byte, for the short files.
          if (bytes.length < 2000) {
            const cuts = Array.from({ length: bytes.length }, (_, i) => i);
            expect(ok(parseInPieces(bytes, cuts))).toEqual(whole);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a file's BOM is dropped however the first bytes come, and a BOM on a later line as before", () => {
    const text = `\uFEFF${HEADER}\n\uFEFF${entryLine(0, "a")}\n`;
    const bytes = enc.encode(text);
    const whole = ok(parseSessionBytes(bytes));
    expect(whole.entries.map((e) => e.id)).toEqual(["e0"]);
    expect(whole.problems).toEqual([]);
    // The later line's span keeps its BOM bytes (they are written back as they are).
    expect(Array.from(whole.verbatimSpans!)).toEqual([HEADER.length + 4, bytes.length - 1]);
    expect(ok(parseInPieces(bytes, [1, 2]))).toEqual(whole);
  });

  it("says what the export writes differently: the file's BOM, CRLF line ends, blank lines, no final newline", () => {
    const plain = ok(parseSessionBytes(enc.encode(`${HEADER}\n${entryLine(0, "a")}\n`)));
    expect(plain.normalized).toEqual({ bom: false, crlfLines: 0, blankLines: 0, noFinalNewline: false });
    const text = `\uFEFF${HEADER}\r\n\r\n${entryLine(0, "a")}\r\n  \n\n\uFEFF${entryLine(1, "b")}`;
    const bytes = enc.encode(text);
    const whole = ok(parseSessionBytes(bytes));
    expect(whole.normalized).toEqual({ bom: true, crlfLines: 2, blankLines: 3, noFinalNewline: true });
    // However the bytes come in.
    expect(ok(parseInPieces(bytes, [1, 2, 5, HEADER.length + 4])).normalized).toEqual(whole.normalized);
  });

  it("the verbatim export of a v3 file is the file without its bad and blank lines, LF endings", () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 25 }), fc.boolean(), (items, finalNewline) => {
        const text = buildFile(items, [false], finalNewline);
        const bytes = enc.encode(text);
        const parsed = ok(parseSessionBytes(bytes));
        const out = dec.decode(concat(serializeParsedSession(parsed, bytes)));
        // Lines written by JSON.stringify (as pi writes them): the same as serializing anew.
        expect(out).toBe(serializeSession(parsed.header, parsed.entries));
        expect(ok(parseSessionJsonl(out)).entries).toEqual(parsed.entries);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps a v3 line's own bytes (spacing, escapes) and rewrites CRLF lines", () => {
    const spaced =
      '{ "type": "custom", "id": "a", "parentId": null, "timestamp": "t", "customType": "caf\\u00e9" }';
    const plain = '{"type":"custom","id":"b","parentId":"a","timestamp":"t","customType":"x"}';
    const text = `${HEADER}\n${spaced}\n${plain}\r\n`;
    const bytes = enc.encode(text);
    const parsed = ok(parseSessionBytes(bytes));
    expect(dec.decode(concat(serializeParsedSession(parsed, bytes)))).toBe(
      `${HEADER}\n${spaced}\n${plain}\n`,
    );
  });

  it("migrates a v1 file (no verbatim spans): the same bytes as the text parser's serialization", () => {
    const bytes = new Uint8Array(readFileSync(PI_FIXTURE));
    const parsed = ok(parseSessionBytes(bytes));
    expect(parsed.originalVersion).toBe(1);
    expect(parsed.verbatimSpans).toBeUndefined();
    const text = ok(parseSessionJsonl(dec.decode(bytes)));
    expect(dec.decode(concat(serializeParsedSession(parsed, bytes)))).toBe(
      serializeSession(text.header, text.entries),
    );
  });

  it("retainEntries false: entries are handed out once, in order, and not kept", () => {
    const text = `${HEADER}\n${entryLine(0, "a")}\n{bad\n${entryLine(1, "é")}\r\n${entryLine(2, "c")}`;
    const seen: [string, number, boolean][] = [];
    const parser = createSessionByteParser({
      retainEntries: false,
      onEntry: (e: SessionEntry, i, verbatim) => seen.push([e.id, i, verbatim]),
    });
    parser.push(enc.encode(text));
    const parsed = ok(parser.finish());
    expect(parsed.entries).toEqual([]);
    expect(parsed.entryCount).toBe(3);
    expect(seen).toEqual([
      ["e0", 0, true],
      ["e1", 1, false],
      ["e2", 2, true],
    ]);
    expect(parsed.problems.map((p) => p.line)).toEqual([3]);
  });

  it("rejects empty and binary input as the text parser does", () => {
    for (const text of ["", "  \n\n", "\u0000\u0001PNG\u0000", '{"type":"message","id":"a"}\n']) {
      const a = parseSessionBytes(enc.encode(text));
      const b = parseSessionJsonl(text);
      expect(a).toEqual(b);
      expect(a.ok).toBe(false);
    }
  });
});

describe("lineRuns", () => {
  it("joins lines that follow each other, splits at gaps and at lines without a span", () => {
    // lines at [0,3) [4,7) gap [10,12) ; entry 3 has no span; entry 4 ends the input (no "\n").
    const spans = Float64Array.from([0, 3, 4, 7, 10, 12, -1, -1, 13, 15]);
    expect(lineRuns(spans, 0, 5, 15)).toEqual([
      { kind: "bytes", start: 0, end: 8, newline: true },
      { kind: "bytes", start: 10, end: 13, newline: true },
      { kind: "json", from: 3, to: 4 },
      { kind: "bytes", start: 13, end: 15, newline: false },
    ]);
    expect(lineRuns(undefined, 1, 3, 15)).toEqual([{ kind: "json", from: 1, to: 3 }]);
  });
});

describe("the line decoder", () => {
  it("decodes any bytes exactly as TextDecoder (UTF-8, replacement characters included)", () => {
    const decode = createLineDecoder();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(decode(bytes)).toBe(dec.decode(bytes));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => {
        const bytes = enc.encode(s);
        expect(decode(bytes)).toBe(dec.decode(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it("decodes long lines (the single-byte TextDecoder path) too", () => {
    const decode = createLineDecoder();
    const ascii = "x".repeat(20_000);
    expect(decode(enc.encode(ascii))).toBe(ascii);
    const mixed = `${"y".repeat(20_000)}é😀`;
    expect(decode(enc.encode(mixed))).toBe(mixed);
  });
});

describe("invalid UTF-8 and deep nesting", () => {
  const fatal = new TextDecoder("utf-8", { fatal: true });

  it("the checked decoder flags exactly what a fatal TextDecoder rejects", () => {
    const decoder = createCheckedLineDecoder();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        let valid = true;
        try {
          fatal.decode(bytes);
        } catch {
          valid = false;
        }
        expect(decoder.decode(bytes)).toBe(dec.decode(bytes));
        expect(decoder.invalid).toBe(!valid);
      }),
      { numRuns: 500 },
    );
  });

  it("an entry line with invalid UTF-8 is kept, reported, and written anew as valid UTF-8", () => {
    const line = enc.encode(entryLine(1, "café"));
    const at = line.indexOf(0xc3);
    const broken = concat([line.subarray(0, at), new Uint8Array([0xff, 0xfe]), line.subarray(at + 2)]);
    const bytes = concat([`${HEADER}\n${entryLine(0, "a")}\n`, broken, `\n${entryLine(2, "b")}\n`]);
    const session = ok(parseSessionBytes(bytes));
    expect(session.entries.map((e) => e.id)).toEqual(["e0", "e1", "e2"]);
    expect(session.problems.map((p) => [p.line, p.kind])).toEqual([[3, "invalid-utf8"]]);
    expect(Array.from(session.verbatimSpans!.subarray(2, 4))).toEqual([-1, -1]);
    const out = concat(serializeParsedSession(session, bytes));
    const text = fatal.decode(out);
    expect(text).toContain("caf\uFFFD\uFFFD");
    // The valid lines are the input's own bytes.
    expect(text).toContain(entryLine(0, "a"));
    expect(text).toContain(entryLine(2, "b"));
  });

  it("a line that is not JSON because of bad bytes is a bad line; a bad header is reported", () => {
    const bytes = concat([
      `${HEADER.slice(0, -1)},"x":"`,
      new Uint8Array([0xc3]),
      `"}\n`,
      new Uint8Array([0xff, 0x7b]),
      "\n",
    ]);
    const session = ok(parseSessionBytes(bytes));
    expect(session.problems.map((p) => [p.line, p.kind, p.reason.slice(0, 21)])).toEqual([
      [1, "invalid-utf8", "the header is not val"],
      [2, "bad-line", "binary data, not JSON"],
    ]);
  });

  it("lines nested deeper than MAX_JSON_DEPTH are bad lines, found without recursion", () => {
    const deepArray = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const deepEntry = entryLine(1, "X").replace(
      '"X"',
      `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`,
    );
    const okEntry = entryLine(2, "X").replace(
      '"X"',
      `${"[".repeat(MAX_JSON_DEPTH - 5)}${"]".repeat(MAX_JSON_DEPTH - 5)}`,
    );
    const strings = entryLine(3, `${"[".repeat(5000)}`);
    const text = [HEADER, entryLine(0, "a"), deepArray, deepEntry, okEntry, strings].join("\n");
    const session = ok(parseSessionJsonl(text));
    expect(session.problems.map((p) => [p.line, p.reason.slice(0, 34)])).toEqual([
      [3, "nested more than 1,000 levels deep"],
      [4, "nested more than 1,000 levels deep"],
      // e2's parent e1 was on line 4.
      [5, 'parentId "e1" names no entry of th'],
    ]);
    expect(session.entries.map((e) => e.id)).toEqual(["e0", "e2", "e3"]);
    expect(session.problems[2]!.reason).toContain(
      "names no entry of the file (line 4, left out, has that id)",
    );
    expect(session.problems[2]!.lines).toEqual([4]);
    expect(nestedTooDeep('{"a":"\\"[[[["}', 2)).toBe(false);
    expect(nestedTooDeep("[[[1]]]", 2)).toBe(true);
  });
});
