/**
 * The names a range keeps coming back to, for the offline summary's Critical Context: code
 * identifiers and file paths the person and the assistant wrote in their messages (code spans,
 * camel-case names, `name()` calls, paths), counted with the person's words weighing more, and
 * ranked. Tool output is never read here (it names everything in passing).
 */
import { pathsInText } from "../coverage/coverage-text.ts";

const SPAN = /`([^`\n]{2,80})`/g;
const IDENT = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?$/;
const CAMEL =
  /(?<![\w$./@-])(?:_?[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)(?:\(\))?(?![\w$/@-])/g;
/** Words a code span holds that are not names worth keeping (values, keywords, shell words). */
const NOT_NAMES = new Set(
  "true false null undefined void any string number boolean object this new return const let var async await import export from yes no ok".split(
    " ",
  ),
);
const MAX_TEXT = 20_000;
const FENCED = /^```[^\n]*\n[\s\S]*?^```/gm;
const EXTENSION = /\.[A-Za-z]\w*$/;
const ROOTED = /^[/~]/;

export interface NameTally {
  /** Reads the text of a message (`weight`: how much one mention counts). */
  add(text: string, weight: number, at: number): void;
  /** The `max` names with the highest counts (latest mention breaks ties). */
  identifiers(max: number, skip?: (name: string) => boolean): string[];
  paths(max: number, skip?: (path: string) => boolean): string[];
  /** How much a name was mentioned (0: never). */
  weight(name: string): number;
}

interface Count {
  n: number;
  last: number;
}

function bump(map: Map<string, Count>, key: string, weight: number, at: number): void {
  const c = map.get(key);
  if (c) {
    c.n += weight;
    c.last = at;
  } else map.set(key, { n: weight, last: at });
}

function ranked(map: Map<string, Count>, max: number, skip?: (k: string) => boolean): string[] {
  return [...map.entries()]
    .filter(([k]) => !skip?.(k))
    .sort((a, b) => b[1].n - a[1].n || b[1].last - a[1].last)
    .slice(0, max)
    .map(([k]) => k);
}

function bareName(t: string): string {
  return t.replace(/\(\)$/, "");
}

/** A name worth keeping: letters, at least one capital or underscore or a dot (a member), four characters or more. */
function isName(t: string): boolean {
  const bare = bareName(t);
  return bare.length >= 4 && !NOT_NAMES.has(bare.toLowerCase()) && /[A-Z_.]|\(\)$/.test(t);
}

export function createNameTally(): NameTally {
  const names = new Map<string, Count>();
  const paths = new Map<string, Count>();
  return {
    add(text, weight, at) {
      const t = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
      const plain = t.includes("`") ? t.replace(SPAN, " ") : t;
      // A path without an extension counts from code or the root: in prose, "model/thinking/theme" is words.
      const inProse = new Set(pathsInText(plain.replace(FENCED, " ")));
      for (const p of pathsInText(t))
        if (EXTENSION.test(p) || ROOTED.test(p) || !inProse.has(p))
          bump(paths, p.replace(/\/+$/, ""), weight, at);
      if (t.includes("`"))
        for (const m of t.matchAll(SPAN)) {
          const s = m[1]!.trim();
          if (IDENT.test(s) && isName(s) && pathsInText(s).length === 0) bump(names, bareName(s), weight, at);
        }
      for (const m of plain.matchAll(CAMEL))
        if (isName(m[0]) && !m[0].includes(".")) bump(names, bareName(m[0]), weight, at);
    },
    identifiers: (max, skip) => ranked(names, max, skip),
    paths: (max, skip) => ranked(paths, max, skip),
    weight: (name) => names.get(name)?.n ?? 0,
  };
}
