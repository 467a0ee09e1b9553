/**
 * Small pi v3 session files for specs, built with the unit tests' entry builders
 * (src/core/session/test-builders.ts) and written under /tmp/cutpoint-e2e with a fresh id.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { header } from "../../src/core/session/test-builders.ts";

const DIR = "/tmp/cutpoint-e2e";

/** Writes the header (a unique id starting with `prefix`) and `entries` as JSONL. */
export function writeSessionFile(
  prefix: string,
  entries: readonly unknown[],
): { path: string; text: string; id: string } {
  mkdirSync(DIR, { recursive: true });
  const id = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
  const lines = [header({ id, cwd: "/work" }), ...entries];
  const text = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
  const path = `${DIR}/${id}.jsonl`;
  writeFileSync(path, text);
  return { path, text, id };
}

/**
 * `text` (a session file) with one more user message after its last line's entry (on its path's
 * end): the same session, one entry longer, as a re-import "Replace" brings it.
 */
export function withOneMoreMessage(text: string, id: string, content: string): string {
  const last = JSON.parse(text.trimEnd().split("\n").at(-1)!) as { id: string; timestamp?: string };
  const extra = {
    type: "message",
    id,
    parentId: last.id,
    timestamp: last.timestamp ?? "2026-12-02T10:00:00.000Z",
    message: { role: "user", content, timestamp: 1 },
  };
  return `${text}${JSON.stringify(extra)}\n`;
}
