/**
 * Parsing session JSONL: the real v1 fixture (entries, ids, context, chunked as whole), bad lines as
 * problems with line numbers, non-sessions refused, BOM and CRLF, v1 indexes; good lines survive (property).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "./context.ts";
import { PI_FIXTURE } from "./fixture-path.ts";
import { createSessionByteParser, type ParsedSession, parseSessionJsonl } from "./parse.ts";
import { buildTreeIndex, getPath, resolveLeafId } from "./tree.ts";

const fixture = readFileSync(PI_FIXTURE, "utf8");

function ok(text: string): ParsedSession {
  const result = parseSessionJsonl(text);
  if (!result.ok) throw new Error(`expected ok, got ${result.error.message}`);
  return result.value;
}

const HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
const E1 =
  '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi","timestamp":1}}';
const E2 = '{"type":"custom","id":"b","parentId":"a","timestamp":"t","customType":"x"}';

describe("parseSessionJsonl on the real pi fixture", () => {
  const session = ok(fixture);

  it("reads the v1 file: header, 1002 entries, no problems, physical lines", () => {
    expect(session.originalVersion).toBe(1);
    expect(session.header.version).toBe(3);
    expect(session.header.id).toBe("ffae836b-9420-4060-ac13-7745215f90ff");
    expect(session.entries).toHaveLength(1002);
    expect(session.problems).toEqual([]);
    expect(session.lines[0]).toBe(2);
    expect(session.lines[1001]).toBe(1003);
    const types = new Map<string, number>();
    for (const e of session.entries) types.set(e.type, (types.get(e.type) ?? 0) + 1);
    expect(Object.fromEntries(types)).toEqual({
      message: 990,
      thinking_level_change: 5,
      compaction: 2,
      model_change: 5,
    });
  });

  it("gives 8-hex ids and a parent chain", () => {
    const { entries } = session;
    expect(entries.every((e) => /^[0-9a-f]{8}$/.test(e.id))).toBe(true);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(entries[0]?.parentId).toBeNull();
    for (let i = 1; i < entries.length; i++) expect(entries[i]?.parentId).toBe(entries[i - 1]?.id);
  });

  it("the context at the leaf: 446 messages, the last summary first then the kept messages", () => {
    const { entries, lines } = session;
    const path = getPath(buildTreeIndex(entries).byId, resolveLeafId(entries));
    expect(path).toHaveLength(1002);
    const context = buildSessionContext(path);
    expect(context.messages).toHaveLength(446);
    expect(context.messages[0]?.role).toBe("compactionSummary");
    const lineOf = new Map(entries.map((e, i) => [e.id, lines[i]]));
    expect(lineOf.get(context.entryIds[0]!)).toBe(629);
    expect(lineOf.get(context.entryIds[1]!)).toBe(552);
    expect(lineOf.get(context.entryIds[445]!)).toBe(1002);
    expect(context.thinkingLevel).toBe("off");
    expect(context.model).toEqual({ provider: "anthropic", modelId: "claude-opus-4-5" });
  });

  it("chunked parsing gives the same result for any chunk size, with progress", () => {
    const bytes = new TextEncoder().encode(fixture);
    for (const size of [3, 1000, 65536]) {
      const parser = createSessionByteParser();
      for (let i = 0; i < bytes.length; i += size) parser.push(bytes.subarray(i, i + size));
      const result = parser.finish();
      expect(result).toEqual({ ok: true, value: session });
    }
    const fractions: number[] = [];
    const big = fixture.repeat(3);
    const result = parseSessionJsonl(big, { onProgress: (f) => fractions.push(f) });
    expect(result.ok).toBe(true);
    expect(fractions.length).toBeGreaterThan(1);
    expect(fractions[fractions.length - 1]).toBe(1);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]!);
  });
});

describe("bad lines become problems with line numbers", () => {
  it("reports each kind of bad line and keeps the good ones", () => {
    const text = [
      HEADER,
      E1,
      "", // blank: ignored
      "this is not json",
      "[1,2,3]",
      '"a string"',
      '{"id":"x","parentId":"a"}',
      '{"type":"custom","parentId":"a"}',
      '{"type":"custom","id":"y","parentId":42}',
      '{"type":"custom","id":"z"}',
      '{"type":"message","id":"m","parentId":"a","message":{"content":"no role"}}',
      '{"type":"custom","id":"a","parentId":null}',
      '{"type":"a\u0000\u0001\u0002',
      E2,
      '{"type":"message","id":"c","parentId":"b","mess',
    ].join("\n");
    const session = ok(text);
    expect(session.entries.map((e) => e.id)).toEqual(["a", "b"]);
    expect(session.lines).toEqual([2, 14]);
    expect(session.problems.map((p) => [p.line, p.reason])).toEqual([
      [4, "not valid JSON"],
      [5, "not a JSON object (found an array)"],
      [6, "not a JSON object (found a string)"],
      [7, "missing or invalid type"],
      [8, "missing or invalid id"],
      [9, "invalid parentId (must be a string or null)"],
      [10, "missing parentId"],
      [11, "message without a role"],
      [12, 'duplicate id "a" (first on line 2)'],
      [13, "binary data, not JSON"],
      [15, "truncated last line (incomplete JSON)"],
    ]);
    expect(session.problems[0]?.excerpt).toBe("this is not json");
  });

  it("shortens long excerpts", () => {
    const session = ok(`${HEADER}\n${"x".repeat(500)}\n`);
    expect(session.problems[0]?.excerpt.length).toBeLessThanOrEqual(121);
  });

  it("keeps unknown types and fields", () => {
    const odd = '{"type":"future_thing","id":"f","parentId":null,"timestamp":"t","extra":{"deep":[1,2]}}';
    const session = ok(`${HEADER}\n${odd}\n`);
    expect(session.entries[0]).toEqual(JSON.parse(odd));
    expect(session.problems).toEqual([]);
  });
});

describe("files that are not sessions", () => {
  it.each([
    ["empty", "", /empty/],
    ["only blank lines", "\n  \n\r\n", /empty/],
    ["binary", "\u0000\u0001PNG\u0000garbage\n\u0000", /binary/],
    ["no valid JSON", "hello\nworld", /no line .* valid JSON/],
    ["first object not a header", `${E1}\n${HEADER}`, /\(line 1\) is not a session header/],
    ["header without string id", '{"type":"session","id":5}', /not a session header/],
  ])("%s -> ok:false with a clear message", (_name, text, pattern) => {
    const result = parseSessionJsonl(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(pattern);
  });

  it("like pi, skips non-JSON lines before the header (and reports them)", () => {
    const session = ok(`garbage\n${HEADER}\n${E1}`);
    expect(session.lines).toEqual([3]);
    expect(session.problems).toEqual([
      { line: 1, kind: "bad-line", reason: "not valid JSON", excerpt: "garbage" },
    ]);
  });
});

describe("BOM and CRLF", () => {
  it("parses a file with a UTF-8 BOM and CRLF line endings like the plain file", () => {
    const plain = ok(`${HEADER}\n${E1}\n${E2}\n`);
    const windows = ok(`\uFEFF${HEADER}\r\n${E1}\r\n\r\n${E2}\r\n`);
    expect(windows.entries).toEqual(plain.entries);
    expect(windows.header).toEqual(plain.header);
    expect(windows.lines).toEqual([2, 4]);
    expect(windows.problems).toEqual([]);
  });

  it("handles a CRLF split across chunks", () => {
    const parser = createSessionByteParser();
    const enc = new TextEncoder();
    parser.push(enc.encode(`${HEADER}\r`));
    parser.push(enc.encode(`\n${E1}\r`));
    parser.push(enc.encode("\n"));
    const result = parser.finish();
    expect(result.ok && result.value.entries.map((e) => e.id)).toEqual(["a"]);
  });
});

describe("v1 files with bad lines", () => {
  const V1 = '{"type":"session","id":"v1-session","timestamp":"t","cwd":"/"}';
  const m = (text: string) =>
    JSON.stringify({ type: "message", timestamp: "t", message: { role: "user", content: text } });

  it("firstKeptEntryIndex counts parsed JSON objects only; invalid entries do not cut the chain", () => {
    const text = [
      V1, // object 0
      m("one"), // object 1, line 2
      "not json", // not counted
      '{"type":"message","message":{"content":"no role"}}', // object 2, a problem
      m("two"), // object 3, line 5
      JSON.stringify({ type: "compaction", summary: "S", firstKeptEntryIndex: 3, tokensBefore: 9 }), // line 6
    ].join("\n");
    const session = ok(text);
    expect(session.lines).toEqual([2, 5, 6]);
    expect(session.problems.map((p) => [p.line, p.reason])).toEqual([
      [3, "not valid JSON"],
      [4, "message without a role"],
    ]);
    const [one, two, compaction] = session.entries;
    expect(two?.parentId).toBe(one?.id);
    expect(compaction?.parentId).toBe(two?.id);
    expect((compaction as { firstKeptEntryId?: string }).firstKeptEntryId).toBe(two?.id);
  });

  it("ids do not depend on the way the text is cut into chunks, and the same file gives the same bytes", () => {
    const text = [V1, m("a"), m("b"), m("c")].join("\n");
    const whole = ok(text);
    const parser = createSessionByteParser();
    for (const byte of new TextEncoder().encode(text)) parser.push(Uint8Array.of(byte));
    const result = parser.finish();
    expect(result.ok && result.value.entries).toEqual(whole.entries);
    expect(ok(text).entries).toEqual(whole.entries);
  });
});

describe("property: good lines survive among bad ones", () => {
  const good = fc
    .record({ id: fc.stringMatching(/^[0-9a-f]{8}$/), extra: fc.jsonValue({ maxDepth: 2 }) })
    .map(({ id, extra }) => ({ kind: "good" as const, id, extra }));
  const bad = fc
    .oneof(
      fc.constantFrom("not json", "[1]", "42", "null", '{"id":"x"}', '{"type":"custom","id":"y"}', "{"),
      fc
        .string()
        .filter((s) => !s.includes("\n") && !s.includes("\r") && s.trim() !== "" && !s.startsWith("{")),
    )
    .filter((s) => {
      try {
        const v = JSON.parse(s);
        return v === null || typeof v !== "object" || Array.isArray(v) || typeof v.type !== "string";
      } catch {
        return true;
      }
    })
    .map((line) => ({ kind: "bad" as const, line }));

  it("every good line is an entry with its physical line; every bad line is a problem", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(good, bad), { maxLength: 40 }), fc.boolean(), (rows, crlf) => {
        const seen = new Set<string>();
        const unique = rows.filter((r) => r.kind === "bad" || (!seen.has(r.id) && seen.add(r.id)));
        let parent: string | null = null;
        const lines = unique.map((r) => {
          if (r.kind === "bad") return r.line;
          const line = JSON.stringify({ type: "custom", id: r.id, parentId: parent, extra: r.extra });
          parent = r.id;
          return line;
        });
        const text = [HEADER, ...lines].join(crlf ? "\r\n" : "\n");
        const session = ok(text);
        const goodLines = unique.flatMap((r, i) => (r.kind === "good" ? [i + 2] : []));
        const badLines = unique.flatMap((r, i) => (r.kind === "bad" ? [i + 2] : []));
        expect(session.lines).toEqual(goodLines);
        expect(session.entries.map((e) => e.id)).toEqual(
          unique.flatMap((r) => (r.kind === "good" ? [r.id] : [])),
        );
        expect(session.problems.map((p) => p.line)).toEqual(badLines);
      }),
    );
  });
});
