/**
 * The words of an import's report: what is wrong with a file (damage.ts problems) and what that
 * means for what gets stored and for the current path. The dialog and the toast both say this.
 */
import { type LineProblem, type PathSummary, problemEffect } from "../../core/session/damage.ts";
import type { Normalized } from "../../core/session/parse.ts";

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

function firstLines(problems: readonly LineProblem[], shown = 5): string {
  const lines = problems.slice(0, shown).map((p) => `line ${p.line}`);
  return `${lines.join(", ")}${problems.length > shown ? ", …" : ""}`;
}

/** A one-paragraph description of the lines left out: how many, the first line numbers, why. */
export function describeProblems(problems: readonly LineProblem[], shown = 5): string {
  const leftOut = problems.filter((p) => problemEffect(p.kind) === "left-out");
  if (leftOut.length === 0) return "";
  const first = leftOut.slice(0, shown).map((p) => `line ${p.line}: ${p.reason}`);
  const more = leftOut.length > shown ? `; and ${leftOut.length - shown} more` : "";
  const lines = leftOut.length === 1 ? "line was" : "lines were";
  return `${count(leftOut.length)} ${lines} left out (${first.join("; ")}${more}).`;
}

/** How many entries will be stored and how many of them on the current path (and why fewer). */
export function describePath(entryCount: number, path: PathSummary): string {
  const stored = `${plural(entryCount, "entry", "entries")} will be imported`;
  if (path.length === 0) return `${stored}; the current path will be empty.`;
  const range =
    path.firstLine === path.leafLine ? `line ${path.leafLine}` : `lines ${path.firstLine}–${path.leafLine}`;
  const cut =
    path.cutBy === null
      ? ""
      : path.cutBy === path.firstLine
        ? `: it starts at line ${path.firstLine}, where the tree is broken, not at the start of the session`
        : `: it starts at line ${path.firstLine}, below the damage on line ${path.cutBy}, not at the start of the session`;
  const onPath = path.length === entryCount ? "all of them" : `${count(path.length)} of them`;
  return `${stored}; ${onPath} will be on the current path (${range})${cut}.`;
}

/**
 * What the problems mean, one sentence per kind of effect: lines left out, lines repaired, the
 * tree broken. Nothing here is repaired silently: every sentence says what happens.
 */
export function describeDamage(problems: readonly LineProblem[]): string[] {
  const sentences: string[] = [];
  const of = (...kinds: LineProblem["kind"][]) => problems.filter((p) => kinds.includes(p.kind));
  const leftOut = problems.filter((p) => problemEffect(p.kind) === "left-out");
  if (leftOut.length > 0) {
    sentences.push(`${plural(leftOut.length, "line")} would be left out: ${firstLines(leftOut)}.`);
  }
  const utf8 = of("invalid-utf8");
  if (utf8.length > 0) {
    sentences.push(
      `${plural(utf8.length, "line is", "lines are")} not valid UTF-8 (${firstLines(utf8)}): the bad bytes are ` +
        `read as “\uFFFD” (U+FFFD), ${utf8.length === 1 ? "the entry is" : "the entries are"} kept, and the ` +
        `export writes ${utf8.length === 1 ? "it" : "them"} as valid UTF-8.`,
    );
  }
  const cutters = of("missing-parent", "cycle");
  if (cutters.length > 0) {
    const cut = cutters.reduce((n, p) => n + (p.cutOff ?? 0), 0);
    const missing = of("missing-parent");
    const cycles = of("cycle");
    const why = [
      missing.length > 0 ? `a parent that is not in the file: ${firstLines(missing)}` : "",
      cycles.length > 0 ? `parents that go round in a cycle: ${firstLines(cycles)}` : "",
    ].filter((s) => s !== "");
    sentences.push(
      `${plural(cut, "entry is", "entries are")} cut off from the root (${why.join("; ")}). ` +
        `${cut === 1 ? "It is" : "They are"} kept as they are, but no path from the start of the session reaches ` +
        `${cut === 1 ? "it" : "them"}.`,
    );
  }
  const compactions = of("compaction-kept");
  if (compactions.length > 0) {
    sentences.push(
      `${plural(compactions.length, "compaction keeps", "compactions keep")} from an entry that is not before ` +
        `${compactions.length === 1 ? "it" : "them"} on ${compactions.length === 1 ? "its" : "their"} path ` +
        `(${firstLines(compactions)}): after ${compactions.length === 1 ? "it" : "them"} the model sees the summary ` +
        "and nothing kept from before.",
    );
  }
  const leaf = of("leaf-target");
  if (leaf.length > 0) {
    sentences.push(
      `The last entry (line ${leaf[0]!.line}) moves the current position to an entry that is not in the file: ` +
        "the current path is empty.",
    );
  }
  return sentences;
}

/** The toast after an import with problems: the path and the lines left out. */
export function describeImported(problems: readonly LineProblem[], path: PathSummary): string {
  if (problems.length === 0) return "";
  const left = describeProblems(problems, 3);
  const onPath = ` ${count(path.length)} on the current path${path.cutBy === null ? "" : ` (cut short by the damage on line ${path.cutBy})`}.`;
  return `${onPath}${left === "" ? "" : ` ${left}`}`;
}

/**
 * What an import normalized (a BOM, CRLF line ends, blank lines, no final newline) and what the
 * export writes instead, so a person knows why the export is not byte for byte the file; "" when
 * nothing was. The session itself is the same either way.
 */
export function describeNormalized(n: Normalized): string {
  const found: string[] = [];
  const writes: string[] = [];
  if (n.bom) {
    found.push("a byte order mark (BOM) at its start");
    writes.push("no BOM");
  }
  if (n.crlfLines > 0) {
    found.push(`${plural(n.crlfLines, "line")} ending in CRLF`);
    writes.push("LF line ends");
  }
  if (n.blankLines > 0) {
    found.push(plural(n.blankLines, "blank line"));
    writes.push("no blank lines");
  }
  if (n.noFinalNewline) {
    found.push("no line end after its last line");
    writes.push("a line end after every line");
  }
  if (found.length === 0) return "";
  return (
    `The file has ${list(found)}: the session is the same, but its export writes ${list(writes)}, ` +
    "so the exported file differs from this one."
  );
}

function list(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
