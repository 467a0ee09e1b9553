/**
 * Storage chunks: entries round-trip through chunk texts (property), chunks of the imported file's bytes
 * equal the CLI's `migrate` output (property), the chunk reader, UTF-8 lengths, file names.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { serializeParsedSession } from "../core/session/export.ts";
import { parseSessionBytes } from "../core/session/parse.ts";
import { runSteps } from "../core/session/steps.ts";
import type { SessionEntry } from "../core/session/types.ts";
import {
  buildChunks,
  decodedPieces,
  exportFileName,
  parseChunkBytes,
  parseChunkText,
  parseLinesFrom,
  serializeEntryLine,
  sessionFileName,
  sourceChunkSteps,
  utf8Length,
} from "./chunks.ts";

const entryArb = fc.record({
  type: fc.constantFrom("message", "label", "custom", "whatever"),
  id: fc.stringMatching(/^[0-9a-f]{8}$/),
  parentId: fc.option(fc.stringMatching(/^[0-9a-f]{8}$/), { nil: null }),
  timestamp: fc.constant("2026-01-01T00:00:00.000Z"),
  text: fc.string({ unit: "binary", maxLength: 200 }),
}) as fc.Arbitrary<SessionEntry>;

describe("chunks", () => {
  it("round-trips any entries through chunk texts, in order, never splitting an entry", () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 60 }),
        fc.integer({ min: 1, max: 2000 }),
        (entries, target) => {
          const chunks = buildChunks(entries, target, 7);
          expect(chunks.reduce((n, c) => n + c.count, 0)).toBe(entries.length);
          for (const c of chunks) {
            expect(c.count).toBeLessThanOrEqual(7);
            expect(c.text.endsWith("\n")).toBe(true);
            expect(c.bytes).toBe(new TextEncoder().encode(c.text).length);
          }
          expect(chunks.flatMap((c) => parseChunkText(c.text))).toEqual(entries);
        },
      ),
    );
  });

  it("concatenated chunk texts are the JSONL of the entries", () => {
    const entries = [
      { type: "label", id: "a", parentId: null, timestamp: "t", targetId: "x", label: "é\u2028" },
      { type: "x", id: "b", parentId: "a", timestamp: "t", extra: { k: [1, 2] } },
    ] as SessionEntry[];
    const text = buildChunks(entries, 1)
      .map((c) => c.text)
      .join("");
    expect(text).toBe(`${entries.map((e) => JSON.stringify(e)).join("\n")}\n`);
  });

  it("utf8Length matches TextEncoder on any string, including lone surrogates", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
      }),
    );
    expect(utf8Length("\ud800")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
  });

  it("names files like pi: timestamp with ':' and '.' replaced, then the id", () => {
    expect(sessionFileName({ id: "abc-123", timestamp: "2026-03-01T10:20:30.123Z" })).toBe(
      "2026-03-01T10-20-30-123Z_abc-123.jsonl",
    );
  });

  it("names two exports of a session apart: pi's name, then the time of the export", () => {
    const header = { id: "abc-123", timestamp: "2026-03-01T10:20:30.123Z" };
    const first = exportFileName(header, new Date("2026-12-06T03:04:05.000Z"));
    const later = exportFileName(header, new Date("2026-12-06T03:04:05.001Z"));
    expect(first).toBe("2026-03-01T10-20-30-123Z_abc-123_2026-12-06T03-04-05-000Z.jsonl");
    expect(later).not.toBe(first);
    expect(first.startsWith(sessionFileName(header).replace(/\.jsonl$/, "_"))).toBe(true);
  });
});

describe("chunks made of the imported file's bytes", () => {
  const enc = new TextEncoder();
  const HEADER = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}';
  const line = (i: number, text: string, spaced: boolean) => {
    const json = JSON.stringify({
      type: "custom",
      id: `c${i}`,
      parentId: null,
      timestamp: "t",
      customType: text,
    });
    return spaced ? json.replace(/,/g, ", ") : json;
  };

  it("hold exactly the bytes the CLI's migrate writes, for any file and chunk size", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(fc.string({ unit: "grapheme", maxLength: 30 }), fc.boolean(), fc.boolean(), fc.boolean()),
          {
            maxLength: 30,
          },
        ),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        async (rows, target, maxEntries, finalNewline) => {
          // Each row: an entry (spaced JSON or not), with a CRLF ending or not, preceded by a bad line or not.
          let text = `${HEADER}\n`;
          rows.forEach(([t, spaced, crlf, bad], i) => {
            if (bad) text += "{bad line\n";
            text += line(i, t, spaced) + (crlf ? "\r\n" : "\n");
          });
          if (!finalNewline) text = text.replace(/\r?\n$/, "");
          const bytes = enc.encode(text);
          const parsed = parseSessionBytes(bytes);
          if (!parsed.ok) throw new Error(parsed.error.message);
          const { entryCount, verbatimSpans } = parsed.value;
          const args = [
            entryCount,
            verbatimSpans,
            new Blob([bytes]),
            (i: number) => serializeEntryLine(parsed.value.entries[i]!),
            target,
            maxEntries,
          ] as const;
          const chunks = runSteps(sourceChunkSteps(...args));
          // As steps (the import's way): one per chunk closed, the same chunks at the end.
          const steps = sourceChunkSteps(...args);
          let yields = 0;
          let step = steps.next();
          for (; !step.done; step = steps.next()) yields++;
          expect(step.value.map((c) => [c.count, c.bytes])).toEqual(chunks.map((c) => [c.count, c.bytes]));
          expect([0, 1]).toContain(chunks.length - yields);
          const stored = Buffer.concat(
            await Promise.all(chunks.map(async (c) => Buffer.from(await c.data.arrayBuffer()))),
          );
          const cli = Buffer.concat(serializeParsedSession(parsed.value, bytes).map((p) => Buffer.from(p)));
          const headerLength = Buffer.byteLength(`${HEADER}\n`);
          expect(stored.equals(cli.subarray(headerLength))).toBe(true);
          expect(chunks.reduce((n, c) => n + c.count, 0)).toBe(entryCount);
          for (const c of chunks) {
            expect(c.bytes).toBe(c.data.size);
            expect(c.count).toBeLessThanOrEqual(maxEntries);
            const back = parseChunkBytes(new Uint8Array(await c.data.arrayBuffer()));
            expect(back).toHaveLength(c.count);
          }
          const all = (
            await Promise.all(
              chunks.map(async (c) => parseChunkBytes(new Uint8Array(await c.data.arrayBuffer()))),
            )
          ).flat();
          expect(all).toEqual(parsed.value.entries);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("lines are parsed a few at a time from where the last call stopped", () => {
    const entries = [0, 1, 2, 3, 4].map((i) => JSON.parse(line(i, `é${i}`, false)) as SessionEntry);
    const text = `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`;
    const out: SessionEntry[] = [];
    const pos = parseLinesFrom(text, 0, out, 2);
    expect(out).toHaveLength(2);
    expect(pos).toBeLessThan(text.length);
    expect(parseLinesFrom(text, pos, out, 10)).toBe(text.length);
    expect(out).toEqual(entries);
  });

  it("a chunk is decoded in pieces of whole lines (lines across piece ends, multi-byte text, blank lines)", () => {
    const entries = Array.from(
      { length: 700 },
      (_, i) =>
        JSON.parse(
          line(i, `${"é€😀".repeat(i % 7)}${"x".repeat(900 + (i % 13) * 50)}`, false),
        ) as SessionEntry,
    );
    const text = `${entries.map((e, i) => (i % 50 === 0 ? `\n${JSON.stringify(e)}` : JSON.stringify(e))).join("\n")}\n`;
    const bytes = enc.encode(text);
    expect(bytes.length).toBeGreaterThan(2 * 256 * 1024);
    const pieces = [...decodedPieces(bytes)];
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.endsWith("\n")).toBe(true);
    const out: SessionEntry[] = [];
    for (const piece of pieces)
      for (let pos = 0; pos < piece.length; ) pos = parseLinesFrom(piece, pos, out, 64);
    expect(out).toEqual(entries);
    expect(parseChunkBytes(bytes.subarray(0, bytes.length - 1))).toEqual(entries);
  });
});
