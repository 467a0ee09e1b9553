/**
 * What is wrong with a session file: the problems of its lines and of its entry tree, found in
 * one place so that every reader (the CLI, the app's import) reports the same ones.
 *
 * The parser reports line problems (a line that is not JSON, not an entry, nested too deeply,
 * or not valid UTF-8). The tree scanner below reports the rest, in one linear pass without
 * recursion, over small stubs of the entries (id, parentId, and the fields that point at other
 * entries), so a caller need not keep the entries (the CLI does not):
 *
 * - duplicate-id: an entry whose id an earlier entry has (left out; found while parsing);
 * - missing-parent: an entry whose parentId names no entry of the file; it and everything below
 *   it are cut off from the root (pi shows such an entry as a root of its own);
 * - cycle: entries whose parentIds go round in a circle; they and everything below them are cut
 *   off from the root;
 * - compaction-kept: a compaction whose firstKeptEntryId is unset, names no entry, or names an
 *   entry that is not before it on its path (the context then keeps nothing before its summary).
 *   A retain-none compaction (firstKeptEntryId = its own id, as pi 1.6 writes them) is valid;
 * - leaf-target: the file ends with a `leaf` entry whose targetId names no entry (the current
 *   path would be empty).
 *
 * It also gives the current path's length and ends (tree.ts `currentPath`, the app's rule), so
 * that a reader can say how many entries will be on the path before anything is stored.
 */
import { resolveLeafId } from "./tree.ts";
import { isCompactionEntry, isLeafEntry, type SessionEntry } from "./types.ts";

/**
 * What a problem is. Its effect on the import (`problemEffect`): bad-line and duplicate-id
 * lines are left out; invalid-utf8 lines are kept with U+FFFD for the bad bytes (and written
 * anew on export); the tree kinds keep every entry but the tree is broken.
 */
export type ProblemKind =
  | "bad-line"
  | "duplicate-id"
  | "invalid-utf8"
  | "missing-parent"
  | "cycle"
  | "compaction-kept"
  | "leaf-target";

export interface LineProblem {
  /** 1-based physical line. */
  line: number;
  kind: ProblemKind;
  reason: string;
  /** The start of the line (at most 120 characters). */
  excerpt: string;
  /** Other lines involved (a cycle's lines, the first line with a duplicated id), file order. */
  lines?: number[];
  /** Entries cut off from the root by this problem (missing-parent, cycle), the entry itself included. */
  cutOff?: number;
}

export type ProblemEffect = "left-out" | "repaired" | "tree";

export function problemEffect(kind: ProblemKind): ProblemEffect {
  if (kind === "bad-line" || kind === "duplicate-id") return "left-out";
  if (kind === "invalid-utf8") return "repaired";
  return "tree";
}

/** The current path of the entries that were read (tree.ts `currentPath`). */
export interface PathSummary {
  /** Number of entries on the path. */
  length: number;
  /** Line of the path's first entry and of its leaf; null when the path is empty. */
  firstLine: number | null;
  leafLine: number | null;
  /** Line of the problem that cuts the path short (a missing parent or a cycle above it), else null. */
  cutBy: number | null;
}

export interface TreeReport {
  /** Tree problems, sorted by line (duplicate ids are returned by `add`). */
  problems: LineProblem[];
  path: PathSummary;
}

/** Lines listed in a problem's `lines` at most (a cycle can be long). */
const MAX_LISTED = 20;

function quote(id: unknown): string {
  const text = String(id);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** What the analysis keeps of the entries: ids and parents in arrays, a few fields of some. */
interface TreeInput {
  ids: string[];
  parentIds: (string | null)[];
  lines: number[];
  indexOf: Map<string, number>;
  /** firstKeptEntryId of each compaction, by entry index. */
  kept: Map<number, unknown>;
  /** The last entry (its type and targetId decide the leaf, tree.ts `resolveLeafId`). */
  last: SessionEntry | undefined;
}

/**
 * Scans a session's entries in file order: `add` each valid entry with its line (it answers
 * with a duplicate-id problem when the id was seen before: the caller leaves that entry out),
 * then `finish` for the tree problems and the current path. Keeps strings and numbers only, so
 * a caller can drop each parsed entry at once.
 */
export function createTreeScanner() {
  const input: TreeInput = {
    ids: [],
    parentIds: [],
    lines: [],
    indexOf: new Map(),
    kept: new Map(),
    last: undefined,
  };
  return {
    add(entry: SessionEntry, line: number): LineProblem | undefined {
      const first = input.indexOf.get(entry.id);
      if (first !== undefined) {
        const firstLine = input.lines[first]!;
        return {
          line,
          kind: "duplicate-id",
          reason: `duplicate id ${quote(entry.id)} (first on line ${firstLine})`,
          excerpt: "",
          lines: [firstLine],
        };
      }
      const i = input.ids.length;
      input.indexOf.set(entry.id, i);
      input.ids.push(entry.id);
      input.parentIds.push(entry.parentId ?? null);
      input.lines.push(line);
      if (isCompactionEntry(entry)) input.kept.set(i, entry.firstKeptEntryId);
      input.last = isLeafEntry(entry)
        ? ({ type: "leaf", id: entry.id, parentId: null, targetId: entry.targetId } as SessionEntry)
        : undefined;
      return undefined;
    },
    /** `leftOut`: the lines the parser left out, to name the one a missing parent was probably on. */
    finish(leftOut: readonly LineProblem[] = []): TreeReport {
      return analyzeTree(input, leftOut);
    },
  };
}

/** The tree report of entries already in memory (see `createTreeScanner`). */
export function findTreeDamage(entries: readonly SessionEntry[], lines: readonly number[]): TreeReport {
  const scanner = createTreeScanner();
  const extra: LineProblem[] = [];
  for (let i = 0; i < entries.length; i++) {
    const duplicate = scanner.add(entries[i]!, lines[i]!);
    if (duplicate) extra.push(duplicate);
  }
  const report = scanner.finish();
  if (extra.length === 0) return report;
  return { ...report, problems: [...report.problems, ...extra].sort((a, b) => a.line - b.line) };
}

const ROOT = -1;
const MISSING = -2;

/** The id a left-out line seems to carry (from its excerpt), by id: where a missing parent went. */
function idsOfLeftOut(leftOut: readonly LineProblem[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const p of leftOut) {
    if (p.kind !== "bad-line") continue;
    const id = /"id"\s*:\s*"([^"\\]*)"/.exec(p.excerpt)?.[1];
    if (id !== undefined && !found.has(id)) found.set(id, p.line);
  }
  return found;
}

function analyzeTree(input: TreeInput, leftOut: readonly LineProblem[]): TreeReport {
  const { ids, parentIds, lines, indexOf } = input;
  const n = ids.length;
  const problems: LineProblem[] = [];
  const leftOutIds = idsOfLeftOut(leftOut);
  // parent[i]: index of the parent, ROOT or MISSING. Children in file order as one flat list
  // (kids[childStart[p] .. childStart[p + 1]]).
  const parent = new Int32Array(n);
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const p = parentIds[i]!;
    const at = p === null ? ROOT : (indexOf.get(p) ?? MISSING);
    parent[i] = at;
    if (at >= 0) childStart[at + 1]!++;
  }
  for (let i = 0; i < n; i++) childStart[i + 1]! += childStart[i]!;
  const kids = new Int32Array(Math.max(0, childStart[n]!));
  const fill = childStart.slice(0, n);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) kids[fill[parent[i]!]!++] = i;

  // Depth-first from each top (a root, or an orphan: an entry whose parent is missing), with an
  // explicit stack; entry/exit times tell ancestors: a is above b iff tin[a] < tin[b] && tout[b] <= tout[a].
  const tin = new Int32Array(n).fill(-1);
  const tout = new Int32Array(n);
  const next = childStart.slice(0, n);
  /** Line of the problem that cuts entry i off from the root; 0 when a root reaches it. */
  const cutBy = new Float64Array(n);
  const stack = new Int32Array(n);
  let clock = 0;
  const walk = (top: number, cause: number): void => {
    let depth = 0;
    stack[depth++] = top;
    tin[top] = clock++;
    cutBy[top] = cause;
    while (depth > 0) {
      const v = stack[depth - 1]!;
      if (next[v]! < childStart[v + 1]!) {
        const c = kids[next[v]!++]!;
        if (tin[c]! >= 0) continue; // a cycle member, walked as a top of its own
        tin[c] = clock++;
        cutBy[c] = cause;
        stack[depth++] = c;
      } else {
        tout[v] = clock;
        depth--;
      }
    }
  };
  for (let i = 0; i < n; i++) if (parent[i] === ROOT) walk(i, 0);
  for (let o = 0; o < n; o++) {
    if (parent[o] !== MISSING) continue;
    const before = clock;
    walk(o, lines[o]!);
    const below = clock - before - 1;
    const gone = leftOutIds.get(parentIds[o]!);
    problems.push({
      line: lines[o]!,
      kind: "missing-parent",
      reason:
        `parentId ${quote(parentIds[o])} names no entry of the file` +
        (gone === undefined ? "" : ` (line ${gone}, left out, has that id)`) +
        ": this entry" +
        (below > 0 ? ` and the ${plural(below, "entry", "entries")} below it are` : " is") +
        " cut off from the root",
      excerpt: "",
      ...(gone === undefined ? {} : { lines: [gone] }),
      cutOff: below + 1,
    });
  }

  // What no top reaches hangs in or below a cycle: each member is a top for what hangs below it
  // (times first for all members, so that no walk enters another member).
  const cycles = findCycles(parent, lines, tin, problems);
  for (const m of cycles.members) tin[m] = clock++;
  for (const m of cycles.members) walk(m, cycles.line[m]!);

  // Compactions: firstKeptEntryId must be before the compaction on its path (or its own id).
  // Above an entry in or below a cycle are the entries up to the cycle and all of its members.
  const cycleOf = cycles.cycleOf;
  for (const [c, keptId] of input.kept) {
    if (keptId === ids[c]) continue;
    const k = typeof keptId === "string" ? indexOf.get(keptId) : undefined;
    if (k !== undefined && tin[k]! < tin[c]! && tout[c]! <= tout[k]!) continue;
    if (k !== undefined && k !== c && cycles.member[k] === 1 && cycleOf[k] === cycleOf[c]) continue;
    const what =
      typeof keptId !== "string"
        ? "has no firstKeptEntryId"
        : k === undefined
          ? `keeps from ${quote(keptId)}, which names no entry of the file`
          : `keeps from line ${lines[k]}, which is not before it on its path`;
    problems.push({
      line: lines[c]!,
      kind: "compaction-kept",
      reason: `compaction ${what}: its context keeps nothing before the summary`,
      excerpt: "",
      ...(k === undefined ? {} : { lines: [lines[k]!] }),
    });
  }

  // The current path: tree.ts's rule (resolveLeafId, then parents up to a root, a missing
  // parent or an entry met before), on indices; damage.test.ts checks it against currentPath.
  const leafId = n === 0 ? undefined : input.last ? resolveLeafId([input.last]) : ids[n - 1];
  let leaf = typeof leafId === "string" ? (indexOf.get(leafId) ?? -1) : -1;
  if (typeof leafId === "string" && leaf < 0) {
    problems.push({
      line: lines[n - 1]!,
      kind: "leaf-target",
      reason: `the last entry moves the leaf to ${quote(leafId)}, which names no entry: the current path is empty`,
      excerpt: "",
    });
  }
  const leafLine = leaf >= 0 ? lines[leaf]! : null;
  let length = 0;
  let head = -1;
  const onPath = new Uint8Array(n);
  while (leaf >= 0 && onPath[leaf] === 0) {
    onPath[leaf] = 1;
    length++;
    head = leaf;
    leaf = parent[leaf]!;
  }
  problems.sort((a, b) => a.line - b.line);
  return {
    problems,
    path: {
      length,
      firstLine: head >= 0 ? lines[head]! : null,
      leafLine,
      cutBy: head >= 0 && cutBy[head]! > 0 ? cutBy[head]! : null,
    },
  };
}

/** The cycles found: members, each entry's cycle (in or below it, else -1), each member's problem line. */
interface Cycles {
  members: number[];
  member: Uint8Array;
  cycleOf: Int32Array;
  line: Float64Array;
}

/**
 * The entries no top reaches (tin < 0) each lead up to a cycle. Follows parents from each one,
 * marking entries on the current walk (1) and done (2); meeting the current walk closes a new
 * cycle. One problem per cycle, at its first line, counting what hangs below it.
 */
function findCycles(
  parent: Int32Array,
  lines: readonly number[],
  tin: Int32Array,
  problems: LineProblem[],
): Cycles {
  const n = parent.length;
  const state = new Uint8Array(n);
  const out: Cycles = {
    members: [],
    member: new Uint8Array(n),
    cycleOf: new Int32Array(n).fill(-1),
    line: new Float64Array(n),
  };
  const { cycleOf } = out;
  const cycles: { members: number[]; cut: number }[] = [];
  const walk: number[] = [];
  for (let i = 0; i < n; i++) {
    if (tin[i]! >= 0 || state[i] !== 0) continue;
    let j = i;
    // Unreached entries have a parent that exists and is unreached too.
    while (state[j] === 0) {
      state[j] = 1;
      walk.push(j);
      j = parent[j]!;
    }
    let cycle = cycleOf[j]!;
    if (state[j] === 1) {
      cycle = cycles.length;
      cycles.push({ members: walk.slice(walk.indexOf(j)).sort((a, b) => a - b), cut: 0 });
    }
    for (const w of walk) {
      state[w] = 2;
      cycleOf[w] = cycle;
    }
    cycles[cycle]!.cut += walk.length;
    walk.length = 0;
  }
  for (const { members, cut } of cycles) {
    const memberLines = members.map((m) => lines[m]!);
    for (const m of members) {
      out.members.push(m);
      out.member[m] = 1;
      out.line[m] = memberLines[0]!;
    }
    const below = cut - members.length;
    const more = memberLines.length > MAX_LISTED ? ", …" : "";
    problems.push({
      line: memberLines[0]!,
      kind: "cycle",
      reason:
        `parentIds go round in a cycle through ${plural(members.length, "entry", "entries")} ` +
        `(lines ${memberLines.slice(0, MAX_LISTED).join(", ")}${more}): ` +
        `${below > 0 ? `they and the ${plural(below, "entry", "entries")} below them are` : "they are"} cut off from the root`,
      excerpt: "",
      lines: memberLines.slice(0, MAX_LISTED),
      cutOff: cut,
    });
  }
  return out;
}
