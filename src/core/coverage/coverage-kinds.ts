/** The kinds of items the coverage check looks for, in the order they are shown (small: read by stored records too). */

export type CoverageKind =
  | "file"
  | "command"
  | "error"
  | "identifier"
  | "value"
  | "url"
  | "instruction"
  | "todo";

export const COVERAGE_KINDS: readonly CoverageKind[] = [
  "file",
  "command",
  "error",
  "identifier",
  "value",
  "url",
  "instruction",
  "todo",
];
