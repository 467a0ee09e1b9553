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
