/** Output limits for tool results: what the model sees is capped, with a clear marker. */

export const MAX_OUTPUT_LINES = 2000;
export const MAX_OUTPUT_BYTES = 50 * 1024;
export const MAX_LINE_CHARS = 2000;

const encoder = new TextEncoder();
export const byteLength = (s: string) => encoder.encode(s).length;

export function formatBytes(n: number): string {
  return n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export interface Truncated {
  /** The lines kept (whole lines only). */
  lines: string[];
  truncated: boolean;
  /** Why it stopped: the line limit or the byte limit. */
  reason?: "lines" | "bytes";
}

/** Keeps whole lines from the start until either limit would be passed. */
export function truncateLines(
  lines: readonly string[],
  maxLines = MAX_OUTPUT_LINES,
  maxBytes = MAX_OUTPUT_BYTES,
): Truncated {
  const out: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    if (out.length >= maxLines) return { lines: out, truncated: true, reason: "lines" };
    const size = byteLength(line) + 1;
    if (bytes + size > maxBytes) return { lines: out, truncated: true, reason: "bytes" };
    out.push(line);
    bytes += size;
  }
  return { lines: out, truncated: false };
}

/** Shortens one overlong line, saying how much was cut. */
export function clipLine(line: string, max = MAX_LINE_CHARS): string {
  return line.length <= max
    ? line
    : `${line.slice(0, max)}… [line truncated, ${line.length - max} more characters]`;
}
