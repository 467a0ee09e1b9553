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

/**
 * How to write entries [from, to) of a parsed session: runs of consecutive entries whose lines
 * follow each other in the input (`bytes`: copy input[start, end), then add "\n" when `newline`
 * is false, i.e. the input's last line had none) and runs of entries to serialize with
 * JSON.stringify (`json`: entries[from, to)). `inputLength`: byte length of the input.
 */
export type LineRun =
  | { kind: "bytes"; start: number; end: number; newline: boolean }
  | { kind: "json"; from: number; to: number };

export function lineRuns(
  spans: Float64Array | undefined,
  from: number,
  to: number,
  inputLength: number,
): LineRun[] {
  const runs: LineRun[] = [];
  let i = from;
  while (i < to) {
    const start = spans ? spans[2 * i]! : -1;
    if (start < 0) {
      const first = i;
      while (i < to && (!spans || spans[2 * i]! < 0)) i++;
      runs.push({ kind: "json", from: first, to: i });
      continue;
    }
    let end = spans![2 * i + 1]!;
    i++;
    // The next line starts right after this one's "\n": same run.
    while (i < to && spans![2 * i]! === end + 1) {
      end = spans![2 * i + 1]!;
      i++;
    }
    const newline = end < inputLength;
    runs.push({ kind: "bytes", start, end: newline ? end + 1 : end, newline });
  }
  return runs;
}

/**
 * The v3 file of a parsed session as parts to concatenate: the header line, then each entry's
 * line: the input's own bytes when the parser kept a verbatim span for it (`verbatimSpans`, a v3
 * file read with `parseSessionBytes`), `JSON.stringify` otherwise. The app's import stores the
 * same bytes (db/chunks.ts `sourceChunkSteps`), so its export equals this.
 */
export function serializeParsedSession(
  parsed: {
    header: SessionHeader;
    entries: readonly SessionEntry[];
    verbatimSpans?: Float64Array | undefined;
  },
  input: Uint8Array,
): (string | Uint8Array)[] {
  const { header, entries, verbatimSpans } = parsed;
  const parts: (string | Uint8Array)[] = [`${JSON.stringify(withCurrentVersion(header))}\n`];
  for (const run of lineRuns(verbatimSpans, 0, entries.length, input.length)) {
    if (run.kind === "json") {
      const lines: string[] = [];
      for (let i = run.from; i < run.to; i++) lines.push(JSON.stringify(entries[i]));
      parts.push(`${lines.join("\n")}\n`);
    } else {
      parts.push(input.subarray(run.start, run.end));
      if (!run.newline) parts.push("\n");
    }
  }
  return parts;
}
