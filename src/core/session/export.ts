/**
 * Writing a session as v3 JSONL: the header (saying version 3) then one entry per line, each
 * line `JSON.stringify` of the object as given (key order and unknown fields preserved), and a
 * trailing newline. parse -> serialize -> parse -> serialize is byte-identical.
 */
import { withCurrentVersion } from "./migrate.ts";
import type { SessionEntry, SessionHeader } from "./types.ts";

export function serializeSession(header: SessionHeader, entries: readonly SessionEntry[]): string {
  const lines: string[] = new Array(entries.length + 1);
  lines[0] = JSON.stringify(withCurrentVersion(header));
  for (let i = 0; i < entries.length; i++) lines[i + 1] = JSON.stringify(entries[i]);
  return `${lines.join("\n")}\n`;
}
