/**
 * A small line diff (longest common subsequence) for comparing successive compaction summaries.
 * Common prefix and suffix are trimmed first so typical "updated summary" diffs stay cheap; the
 * LCS table is only built for the changed middle, and a very large middle falls back to
 * "all removed, all added" rather than allocating an enormous table.
 */

export type DiffOp = "same" | "add" | "del";

export interface DiffLine {
  op: DiffOp;
  text: string;
}

/** Cells of the LCS table above which the middle is reported as replaced wholesale. */
export const MAX_DIFF_CELLS = 4_000_000;

export function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r\n?/g, "\n").split("\n");
}

/** Line diff of `before` -> `after`: applying the ops (keep same, drop del, insert add) turns one into the other. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ op: "same", text: a[i]! });
  const n = endA - start;
  const m = endB - start;
  if (n * m > MAX_DIFF_CELLS) {
    for (let i = start; i < endA; i++) out.push({ op: "del", text: a[i]! });
    for (let j = start; j < endB; j++) out.push({ op: "add", text: b[j]! });
  } else if (n > 0 || m > 0) {
    // lcs[i][j]: LCS length of a[start+i..endA) and b[start+j..endB), flattened.
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] =
          a[start + i] === b[start + j]
            ? lcs[(i + 1) * w + j + 1]! + 1
            : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[start + i] === b[start + j]) {
        out.push({ op: "same", text: a[start + i]! });
        i++;
        j++;
      } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) {
        out.push({ op: "del", text: a[start + i]! });
        i++;
      } else {
        out.push({ op: "add", text: b[start + j]! });
        j++;
      }
    }
    for (; i < n; i++) out.push({ op: "del", text: a[start + i]! });
    for (; j < m; j++) out.push({ op: "add", text: b[start + j]! });
  }
  for (let i = endA; i < a.length; i++) out.push({ op: "same", text: a[i]! });
  return out;
}

/** Counts of added and removed lines. */
export function diffStats(diff: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const d of diff) {
    if (d.op === "add") added++;
    else if (d.op === "del") removed++;
  }
  return { added, removed };
}
