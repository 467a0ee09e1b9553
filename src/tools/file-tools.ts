/** read, write, edit: pi's tool names and argument names, over a Workspace. */
import type { AgentTool } from "../core/agent/types.ts";
import { intArg, stringArg } from "./args.ts";
import { errorResult, textResult } from "./result.ts";
import {
  byteLength,
  clipLine,
  formatBytes,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_LINES,
  truncateLines,
} from "./truncate.ts";
import { displayPath, normalizePath, type Workspace } from "./workspace.ts";

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Splits file text into lines (a final newline does not make an extra empty line). */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

export function readTool(ws: Workspace): AgentTool {
  return {
    name: "read",
    label: "Read",
    description: `Read a file of the workspace. Text comes back with line numbers (number, tab, line); at most ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB per call: use offset/limit for large files. Images (png, jpg, gif, webp) come back as images.`,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Path of the file, relative to the workspace root" },
        offset: { type: "integer", minimum: 1, description: "Line number to start at (1-based)" },
        limit: { type: "integer", minimum: 1, description: "Maximum number of lines to read" },
      },
      required: ["path"],
      additionalProperties: false,
    },
    async execute(args) {
      const path = stringArg(args, "path", true);
      const offset = intArg(args, "offset", 1);
      const limit = intArg(args, "limit", 1);
      if (!path.ok) return errorResult(path.error);
      if (!offset.ok) return errorResult(offset.error);
      if (!limit.ok) return errorResult(limit.error);
      const n = normalizePath(path.value);
      if (!n.ok) return errorResult(n.error);
      const stat = await ws.stat(n.value);
      if (!stat.ok)
        return errorResult(
          stat.code === "not-found" ? `File not found: ${displayPath(n.value)}` : stat.error,
        );
      if (stat.value.kind === "directory") {
        return errorResult(`${displayPath(n.value)} is a directory; use ls to list it.`);
      }
      const ext = n.value.slice(n.value.lastIndexOf(".") + 1).toLowerCase();
      const mime = IMAGE_TYPES[ext];
      if (mime) {
        const bytes = await ws.readBytes(n.value);
        if (!bytes.ok) return errorResult(bytes.error);
        return {
          content: [
            {
              type: "text",
              text: `Read image file ${n.value} [${mime}, ${formatBytes(bytes.value.length)}]`,
            },
            { type: "image", data: toBase64(bytes.value), mimeType: mime },
          ],
          isError: false,
        };
      }
      const file = await ws.readFile(n.value);
      if (!file.ok) return errorResult(file.error);
      const all = splitLines(file.value);
      if (all.length === 0) return textResult(`(${n.value} is empty)`);
      const start = (offset.value ?? 1) - 1;
      if (start >= all.length) {
        return errorResult(`offset ${start + 1} is beyond the end of ${n.value} (${all.length} lines).`);
      }
      const end = limit.value !== undefined ? Math.min(all.length, start + limit.value) : all.length;
      const width = String(end).length;
      const numbered = all
        .slice(start, end)
        .map((l, i) => `${String(start + i + 1).padStart(width)}\t${clipLine(l)}`);
      const kept = truncateLines(numbered);
      const shownEnd = start + kept.lines.length;
      let text = kept.lines.join("\n");
      if (kept.lines.length === 0) {
        text = `[Line ${start + 1} alone is larger than ${formatBytes(MAX_OUTPUT_BYTES)}; it cannot be shown.]`;
      } else if (shownEnd < all.length) {
        const why =
          kept.truncated && kept.reason === "bytes" ? ` (${formatBytes(MAX_OUTPUT_BYTES)} limit)` : "";
        text += `\n\n[Showing lines ${start + 1}-${shownEnd} of ${all.length}${why}. Use offset=${shownEnd + 1} to continue.]`;
      }
      return textResult(text, {
        path: n.value,
        startLine: start + 1,
        endLine: shownEnd,
        totalLines: all.length,
      });
    },
  };
}

export function writeTool(ws: Workspace): AgentTool {
  return {
    name: "write",
    label: "Write",
    description:
      "Write a file of the workspace, replacing it if it exists. Parent directories are created. Use edit for small changes to an existing file.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Path of the file, relative to the workspace root" },
        content: { type: "string", description: "The whole new content of the file" },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    async execute(args) {
      const path = stringArg(args, "path", true);
      if (!path.ok) return errorResult(path.error);
      const content = stringArg(args, "content", true);
      if (!content.ok) return errorResult(content.error);
      const n = normalizePath(path.value);
      if (!n.ok) return errorResult(n.error);
      const before = await ws.stat(n.value);
      const created = !before.ok;
      const w = await ws.writeFile(n.value, content.value);
      if (!w.ok) return errorResult(w.error);
      const size = byteLength(content.value);
      return textResult(`${created ? "Created" : "Overwrote"} ${n.value} (${size} bytes).`, {
        path: n.value,
        created,
        bytes: size,
      });
    },
  };
}

function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

export function editTool(ws: Workspace): AgentTool {
  return {
    name: "edit",
    label: "Edit",
    description:
      "Edit a file by replacing one exact occurrence of oldText with newText. oldText must match the file exactly (whitespace and line breaks included) and be unique: include enough surrounding lines.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Path of the file, relative to the workspace root" },
        oldText: { type: "string", description: "Exact text to replace (must occur exactly once)" },
        newText: { type: "string", description: "Text to put in its place" },
      },
      required: ["path", "oldText", "newText"],
      additionalProperties: false,
    },
    async execute(args) {
      const path = stringArg(args, "path", true);
      if (!path.ok) return errorResult(path.error);
      const oldArg = stringArg(args, "oldText", true);
      if (!oldArg.ok) return errorResult(oldArg.error);
      const newArg = stringArg(args, "newText", true);
      if (!newArg.ok) return errorResult(newArg.error);
      if (oldArg.value === "")
        return errorResult("oldText is empty; use write to create or replace a whole file.");
      if (oldArg.value === newArg.value)
        return errorResult("oldText and newText are identical; nothing to change.");
      const n = normalizePath(path.value);
      if (!n.ok) return errorResult(n.error);
      const file = await ws.readFile(n.value);
      if (!file.ok) return errorResult(file.error);
      const text = file.value;
      let oldText = oldArg.value;
      let newText = newArg.value;
      let at = occurrences(text, oldText);
      // A CRLF file with LF arguments: match and write with the file's own line endings.
      if (at.length === 0 && text.includes("\r\n") && oldText.includes("\n") && !oldText.includes("\r\n")) {
        oldText = oldText.replace(/\n/g, "\r\n");
        newText = newText.replace(/\r?\n/g, "\r\n");
        at = occurrences(text, oldText);
      }
      if (at.length === 0) {
        const loose = (s: string) => s.replace(/[ \t]+$/gm, "").replace(/\r\n/g, "\n");
        const hint = loose(text).includes(loose(oldArg.value))
          ? " It matches when trailing whitespace is ignored: copy the text exactly, including trailing spaces."
          : " Read the file again and copy the text exactly, including indentation and line breaks.";
        return errorResult(`Could not find oldText in ${n.value} (0 matches).${hint}`);
      }
      if (at.length > 1) {
        return errorResult(
          `oldText occurs ${at.length} times in ${n.value}; it must be unique. Include more surrounding lines to pick one.`,
        );
      }
      const index = at[0]!;
      const updated = text.slice(0, index) + newText + text.slice(index + oldText.length);
      const w = await ws.writeFile(n.value, updated);
      if (!w.ok) return errorResult(w.error);
      const line = text.slice(0, index).split("\n").length;
      const removed = splitLines(oldText).length;
      const added = splitLines(newText).length;
      return textResult(
        `Edited ${n.value}: replaced ${removed} line(s) at line ${line} with ${added} line(s).`,
        {
          path: n.value,
          line,
          removedLines: removed,
          addedLines: added,
          diff: [...splitLines(oldText).map((l) => `-${l}`), ...splitLines(newText).map((l) => `+${l}`)].join(
            "\n",
          ),
        },
      );
    },
  };
}
