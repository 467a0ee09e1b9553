/**
 * File operations for summaries (docs/session-format.md §10, §12): tool calls named read, write,
 * edit with a string `arguments.path`, in assistant messages and in the nested calls recorded on
 * a tool result. Modified = written ∪ edited; read-only = read − modified; both sorted (UTF-16
 * code unit order).
 */
import type { AgentMessage, FileListDetails } from "../session/types.ts";

export type FileOpKind = "read" | "modified";

export interface FileOp {
  kind: FileOpKind;
  path: string;
}

const NONE: readonly FileOp[] = [];

/** The file operation of one call (its name and arguments), if it is one. */
export function callFileOp(name: unknown, args: unknown): FileOp | undefined {
  const path = args && typeof args === "object" ? (args as { path?: unknown }).path : undefined;
  if (typeof path !== "string" || path === "") return undefined;
  const kind: FileOpKind | undefined =
    name === "read" ? "read" : name === "write" || name === "edit" ? "modified" : undefined;
  return kind ? { kind, path } : undefined;
}

/** The calls of one message: an assistant's tool calls, or a tool result's nested calls. */
function messageCalls(message: AgentMessage | undefined): readonly unknown[] {
  if (message?.role === "assistant") return Array.isArray(message.content) ? message.content : NONE;
  if (message?.role === "toolResult") {
    const calls = (message.nestedCalls as { calls?: unknown } | undefined)?.calls;
    return Array.isArray(calls) ? calls : NONE;
  }
  return NONE;
}

/** The file operations of one message's tool calls (assistant) or nested calls (tool result). */
export function messageFileOps(message: AgentMessage | undefined): readonly FileOp[] {
  const calls = messageCalls(message);
  if (calls.length === 0) return NONE;
  const nested = message?.role === "toolResult";
  let ops: FileOp[] | undefined;
  for (const call of calls) {
    if (!call || typeof call !== "object") continue;
    if (!nested && (call as { type?: unknown }).type !== "toolCall") continue;
    const op = callFileOp((call as { name?: unknown }).name, (call as { arguments?: unknown }).arguments);
    if (!op) continue;
    ops ??= [];
    ops.push(op);
  }
  return ops ?? NONE;
}

/** Accumulates read / modified paths. */
export class FileOpSet {
  readonly read = new Set<string>();
  readonly modified = new Set<string>();

  add(op: FileOp): void {
    (op.kind === "read" ? this.read : this.modified).add(op.path);
  }

  addMessage(message: AgentMessage | undefined): void {
    for (const op of messageFileOps(message)) this.add(op);
  }

  /** Adds default-summarizer details ({readFiles, modifiedFiles}); ignores anything else. */
  addDetails(details: unknown): void {
    const d = readFileListDetails(details);
    if (!d) return;
    for (const p of d.readFiles) this.read.add(p);
    for (const p of d.modifiedFiles) this.modified.add(p);
  }

  lists(): FileListDetails {
    return fileLists(this.read, this.modified);
  }
}

/** Sorted lists: modified, and read-only = read − modified. */
export function fileLists(read: Iterable<string>, modified: ReadonlySet<string>): FileListDetails {
  const readOnly: string[] = [];
  for (const p of read) if (!modified.has(p)) readOnly.push(p);
  return { readFiles: readOnly.sort(), modifiedFiles: [...modified].sort() };
}

/** Reads `{readFiles, modifiedFiles}` details loosely (string entries only). */
export function readFileListDetails(details: unknown): FileListDetails | undefined {
  if (!details || typeof details !== "object") return undefined;
  const d = details as { readFiles?: unknown; modifiedFiles?: unknown };
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  if (!Array.isArray(d.readFiles) && !Array.isArray(d.modifiedFiles)) return undefined;
  return { readFiles: strings(d.readFiles), modifiedFiles: strings(d.modifiedFiles) };
}

/** `<read-files>` / `<modified-files>` blocks (one path per line), only when non-empty. */
export function formatFileBlocks(files: FileListDetails): string {
  let out = "";
  if (files.readFiles.length > 0) out += `\n\n<read-files>\n${files.readFiles.join("\n")}\n</read-files>`;
  if (files.modifiedFiles.length > 0)
    out += `\n\n<modified-files>\n${files.modifiedFiles.join("\n")}\n</modified-files>`;
  return out;
}
