/**
 * Child process of `npm run bench -- compaction`: opens a session file with Cutpoint's core as the
 * import worker does (the file read in 1 MB pieces into the byte parser, the current path, the
 * context) and prints one JSON line: wall and CPU time per phase and the process's memory.
 * Usage: node e2e/bench/lib/open-cutpoint.child.ts <file> (Node 22 strips the types itself)
 */
import { closeSync, openSync, readSync } from "node:fs";
import {
  buildSessionContext,
  createSessionByteParser,
  currentPath,
} from "../../../src/core/session/index.ts";
import { phaseTimer } from "./phase-timer.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: open-cutpoint.child.ts <file>");
const timer = phaseTimer();

const parsed = timer.phase("read+parse", () => {
  const parser = createSessionByteParser();
  const fd = openSync(file, "r");
  // A plain Uint8Array, not a Buffer: the parser copies a line's unfinished tail with slice(),
  // which on a Node Buffer is a view, and this buffer is reused for the next piece.
  const buffer = new Uint8Array(1024 * 1024);
  try {
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) parser.push(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  const result = parser.finish();
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
});
const path = timer.phase("path", () => currentPath(parsed.entries));
const context = timer.phase("context", () => buildSessionContext(path));
timer.print({ entries: parsed.entries.length, messages: context.messages.length });
