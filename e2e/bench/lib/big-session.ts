/**
 * Generates a large pi session (v3 JSONL text) for benchmarks: the real fixture's entries
 * (migrated to v3) repeated with fresh ids and chained parentIds until the target size.
 * Reads the fixture from ../shared at run time; nothing of it is stored in the project.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

export const FIXTURE_PATH = resolve(
  import.meta.dirname,
  "../../../../shared/fixtures/pi/before-compaction.jsonl",
);

export interface BigSession {
  text: string;
  entryCount: number;
  bytes: number;
}

/** Hex id from a counter: unique, 8 chars like pi's. */
function idFor(n: number): string {
  return n.toString(16).padStart(8, "0");
}

/** Caps long strings so that the average entry is about 1.1 KB, as in the 91k-entry, 100 MB session. */
function capStrings(value: unknown, max: number): unknown {
  if (typeof value === "string") return value.length > max ? value.slice(0, max) : value;
  if (Array.isArray(value)) return value.map((v) => capStrings(v, max));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = capStrings(v, max);
    return out;
  }
  return value;
}

export function generateBigSession(targetBytes = 100 * 1024 * 1024, maxStringChars = 1400): BigSession {
  const raw = readFileSync(FIXTURE_PATH, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const header = raw[0] as Record<string, unknown>;
  // Only messages and settings entries: compactions of the fixture would point into the first copy.
  const body = raw
    .slice(1)
    .filter((e) => e.type !== "compaction")
    .map((e) => capStrings(e, maxStringChars) as Record<string, unknown>);
  const lines: string[] = [
    JSON.stringify({ ...header, version: 3, id: "00000000-0000-4000-8000-000000000bench" }),
  ];
  let bytes = lines[0]!.length + 1;
  let n = 0;
  let parentId: string | null = null;
  while (bytes < targetBytes) {
    for (const e of body) {
      const id = idFor(++n);
      const line = JSON.stringify({ ...e, id, parentId });
      parentId = id;
      lines.push(line);
      bytes += Buffer.byteLength(line) + 1;
      if (bytes >= targetBytes) break;
    }
  }
  const text = `${lines.join("\n")}\n`;
  return { text, entryCount: n, bytes: Buffer.byteLength(text) };
}
