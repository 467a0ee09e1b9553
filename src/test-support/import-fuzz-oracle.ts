/**
 * Test support for the import fuzz suite (import-fuzz.test.ts): a second, naive reading of a v3
 * session file that says which problems a correct reader must report. Written for obviousness,
 * not speed (it walks every entry's ancestors), and sharing nothing with the parser or damage.ts
 * except the definition of a valid entry (validate.ts) and of the header's version.
 */

import type { ProblemKind } from "../core/session/damage.ts";
import { headerVersion } from "../core/session/migrate.ts";
import type { SessionHeader } from "../core/session/types.ts";
import { entryProblem, isPlainObject } from "../core/session/validate.ts";

export interface ExpectedReading {
  /** false: not a session at all (no header first). */
  ok: boolean;
  /** The header's version; the rest is only computed for version >= 3. */
  version: number;
  /** Every problem as "line kind", sorted (a cycle at its smallest line). */
  problems: string[];
  /** Entries that no root reaches. */
  cutOff: number;
  entries: number;
  pathLength: number;
}

const MAX_DEPTH = 1000;

/** Deepest nesting of arrays/objects, strings skipped. */
function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return max;
}

interface Accepted {
  id: string;
  parentId: string | null;
  type: string;
  line: number;
  targetId?: unknown;
  firstKeptEntryId?: unknown;
}

export function expectedReading(input: Uint8Array): ExpectedReading {
  const fatal = new TextDecoder("utf-8", { fatal: true });
  const lenient = new TextDecoder("utf-8");
  const bytes = input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? input.subarray(3) : input;
  const problems: string[] = [];
  const accepted: Accepted[] = [];
  const firstLine = new Map<string, number>();
  let header: SessionHeader | undefined;
  let lineNo = 0;
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    let raw = bytes.subarray(start, end);
    const atEnd = end === bytes.length;
    start = end + 1;
    if (atEnd && raw.length === 0) break;
    lineNo++;
    if (raw[raw.length - 1] === 0x0d) raw = raw.subarray(0, -1);
    let invalid = false;
    try {
      fatal.decode(raw);
    } catch {
      invalid = true;
    }
    const text = lenient.decode(raw);
    if (text === "" || (text.charCodeAt(0) <= 32 && text.trim() === "")) continue;
    const bad = () => problems.push(`${lineNo} bad-line`);
    if (depthOf(text) > MAX_DEPTH) {
      bad();
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      bad();
      continue;
    }
    if (header === undefined) {
      if (!isPlainObject(value) || value.type !== "session" || typeof value.id !== "string")
        return { ok: false, version: 0, problems: [], cutOff: 0, entries: 0, pathLength: 0 };
      header = value as SessionHeader;
      if (headerVersion(header) < 3)
        return {
          ok: true,
          version: headerVersion(header),
          problems: [],
          cutOff: 0,
          entries: 0,
          pathLength: 0,
        };
      if (invalid) problems.push(`${lineNo} invalid-utf8`);
      continue;
    }
    if (entryProblem(value, false) !== undefined || entryProblem(value, true) !== undefined) {
      bad();
      continue;
    }
    const entry = value as Record<string, unknown> & { id: string; parentId: string | null; type: string };
    if (firstLine.has(entry.id)) {
      problems.push(`${lineNo} duplicate-id`);
      continue;
    }
    firstLine.set(entry.id, lineNo);
    if (invalid) problems.push(`${lineNo} invalid-utf8`);
    accepted.push({
      id: entry.id,
      parentId: entry.parentId,
      type: entry.type,
      line: lineNo,
      targetId: entry.targetId,
      firstKeptEntryId: entry.firstKeptEntryId,
    });
  }
  if (header === undefined)
    return { ok: false, version: 0, problems: [], cutOff: 0, entries: 0, pathLength: 0 };
  return { ok: true, version: headerVersion(header), ...treeOf(accepted, problems) };
}

/** The tree part: each entry's walk to the root, one at a time. */
function treeOf(accepted: Accepted[], problems: string[]) {
  const byId = new Map(accepted.map((e) => [e.id, e]));
  /** The entries above `e`, nearest first, and how the walk ended. */
  const ancestors = (e: Accepted): { above: Accepted[]; end: "root" | "missing" | "cycle" } => {
    const above: Accepted[] = [];
    const seen = new Set([e]);
    let current = e;
    for (;;) {
      if (current.parentId === null) return { above, end: "root" };
      const parent = byId.get(current.parentId);
      if (parent === undefined) return { above, end: "missing" };
      if (seen.has(parent)) return { above, end: "cycle" };
      seen.add(parent);
      above.push(parent);
      current = parent;
    }
  };
  let cutOff = 0;
  const cycleLines = new Set<number>();
  for (const e of accepted) {
    if (e.parentId !== null && !byId.has(e.parentId)) problems.push(`${e.line} missing-parent`);
    const { above, end } = ancestors(e);
    if (end !== "root") cutOff++;
    // A member of a cycle: walking up comes back to it.
    if (end === "cycle" && byId.get(above.at(-1)?.parentId ?? (e.parentId as string)) === e) {
      cycleLines.add(Math.min(e.line, ...above.map((a) => a.line)));
    }
    if (e.type === "compaction" && e.firstKeptEntryId !== e.id) {
      const kept = typeof e.firstKeptEntryId === "string" ? byId.get(e.firstKeptEntryId) : undefined;
      if (kept === undefined || !above.includes(kept)) problems.push(`${e.line} compaction-kept`);
    }
  }
  for (const line of cycleLines) problems.push(`${line} cycle`);
  const last = accepted.at(-1);
  let leafId: string | null = last?.id ?? null;
  if (last?.type === "leaf") {
    leafId = typeof last.targetId === "string" ? last.targetId : null;
    if (leafId !== null && !byId.has(leafId)) problems.push(`${last.line} leaf-target`);
  }
  let pathLength = 0;
  const leaf = leafId === null ? undefined : byId.get(leafId);
  if (leaf) pathLength = 1 + ancestors(leaf).above.length;
  problems.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b));
  return { problems, cutOff, entries: accepted.length, pathLength };
}

/** The same "line kind" list of what a reader reported. */
export function problemKeys(problems: readonly { line: number; kind: ProblemKind }[]): string[] {
  return problems
    .map((p) => `${p.line} ${p.kind}`)
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || a.localeCompare(b));
}
