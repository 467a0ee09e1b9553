/**
 * Import preparation: the pi fixture and the example session stored and exported byte-exact,
 * what is not a pi session refused, bad lines reported with the valid entries kept.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { serializeParsedSession } from "../../core/session/export.ts";
import { parseSessionBytes } from "../../core/session/parse.ts";
import { createDb } from "../../db/schema.ts";
import { exportSession, saveSession } from "../../db/sessions-repo.ts";
import { prepareImport } from "./import-prepare.ts";
import { describeProblems } from "./import-report.ts";

const FIXTURE = resolve(import.meta.dirname, "../../../../shared/fixtures/pi/before-compaction.jsonl");
const EXAMPLE = resolve(import.meta.dirname, "../../../public/examples/example-session.jsonl");

async function roundTrip(
  text: string,
  chunkForm?: "blob" | "bytes",
): Promise<{ exported: string; expected: string }> {
  const prepared = prepareImport("f.jsonl", text);
  if (!prepared.ok) throw new Error(prepared.error.message);
  const db = createDb("t", { indexedDB: new IDBFactory(), IDBKeyRange, ...(chunkForm ? { chunkForm } : {}) });
  const saved = await saveSession(db, prepared.value.prepared, "new");
  expect(saved.ok).toBe(true);
  const out = await exportSession(db, prepared.value.prepared.header.id);
  if (!out.ok) throw new Error(out.error.message);
  const bytes = new TextEncoder().encode(text);
  const parsed = parseSessionBytes(bytes);
  if (!parsed.ok) throw new Error(parsed.error.message);
  db.close();
  const expected = serializeParsedSession(parsed.value, bytes);
  return {
    exported: out.value.parts.join(""),
    expected: new TextDecoder().decode(Buffer.concat(expected.map((p) => Buffer.from(p)))),
  };
}

describe("import preparation", () => {
  it("the real pi fixture: stored then exported bytes equal the CLI's migrate (serializeParsedSession)", async () => {
    const text = readFileSync(FIXTURE, "utf8");
    const prepared = prepareImport("before-compaction.jsonl", text);
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.value.prepared.meta.entryCount).toBe(1002);
    expect(prepared.value.prepared.originalVersion).toBe(1);
    expect(prepared.value.problems).toEqual([]);
    const { exported, expected } = await roundTrip(text);
    expect(exported).toBe(expected);
  });

  it("the real pi fixture where Blobs are refused (kept as bytes): the same exported bytes", async () => {
    const text = readFileSync(FIXTURE, "utf8");
    const { exported, expected } = await roundTrip(text, "bytes");
    expect(exported).toBe(expected);
  });

  it("the example session is a valid v3 session with a compaction, a label and a name", async () => {
    const text = readFileSync(EXAMPLE, "utf8");
    const prepared = prepareImport("example-session.jsonl", text);
    expect(prepared.ok && prepared.value.problems).toEqual([]);
    if (!prepared.ok) return;
    const meta = prepared.value.prepared.meta;
    expect(meta.name).toBe("tally: --json flag and exact cents");
    expect(meta.entryCount).toBeGreaterThanOrEqual(40);
    expect(meta.entryCount).toBeLessThanOrEqual(80);
    for (const type of ["compaction", "label", "model_change", "thinking_level_change", "session_info"]) {
      expect(text).toContain(`"type":"${type}"`);
    }
    const { exported } = await roundTrip(text);
    expect(exported).toBe(text);
  });

  it("rejects what is not a pi session, with a message", () => {
    const empty = prepareImport("e.jsonl", "  \n");
    expect(empty.ok ? "" : empty.error.message).toMatch(/empty/);
    const noHeader = prepareImport("n.jsonl", '{"type":"message","id":"a"}\n');
    expect(noHeader.ok ? "" : noHeader.error.message).toMatch(/Not a pi session/);
    const binary = prepareImport("b.jsonl", "\u0000\u0001PNG\u0000");
    expect(binary.ok).toBe(false);
  });

  it("names the line once, and none when no line is JSON", () => {
    const noHeader = prepareImport("n.jsonl", '{"type":"message","id":"a"}\n');
    expect(noHeader.ok ? "" : noHeader.error.message).toBe(
      "Not a pi session: the first JSON object (line 1) is not a session header with a string id.",
    );
    const text = prepareImport("t.txt", "hello\nworld\n");
    expect(text.ok ? "" : text.error.message).toBe("Not a pi session: no line of the file is valid JSON.");
    const late = prepareImport("l.jsonl", 'junk\n{"type":"message","id":"a"}\n');
    expect(late.ok ? "" : late.error.message).toMatch(/^Not a pi session: the first JSON object \(line 2\)/);
  });

  it("reports bad lines (count, first line numbers, why) and keeps the valid entries", () => {
    const lines = readFileSync(FIXTURE, "utf8").split("\n");
    lines[4] = "{not json";
    lines[9] = "garbage";
    const prepared = prepareImport("broken.jsonl", lines.join("\n"));
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.value.problems.map((p) => p.line)).toEqual([5, 10]);
    expect(prepared.value.prepared.meta.entryCount).toBe(1000);
    expect(describeProblems(prepared.value.problems)).toMatch(
      /^2 lines were left out \(line 5: .*; line 10: /,
    );
  });
});
