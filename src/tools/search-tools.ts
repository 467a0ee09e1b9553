/** ls, find, grep: pi's tool names and argument names, over a Workspace. */
import type { AgentTool } from "../core/agent/types.ts";
import { boolArg, intArg, stringArg } from "./args.ts";
import { splitLines } from "./file-tools.ts";
import { globMatcher } from "./glob.ts";
import { errorResult, textResult } from "./result.ts";
import { clipLine, formatBytes, MAX_OUTPUT_BYTES, truncateLines } from "./truncate.ts";
import { DEFAULT_SKIP_DIRS, displayPath, normalizePath, type Workspace } from "./workspace.ts";

export const LS_DEFAULT_LIMIT = 500;
export const FIND_DEFAULT_LIMIT = 1000;
export const GREP_DEFAULT_LIMIT = 100;
const GREP_LINE_CHARS = 500;
const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024;

function capped(lines: string[], suffix: string | undefined): string {
  const kept = truncateLines(lines);
  let text = kept.lines.join("\n");
  if (kept.truncated) {
    text += `\n\n[Output truncated at ${kept.lines.length} of ${lines.length} lines (${formatBytes(MAX_OUTPUT_BYTES)} limit). Narrow the request.]`;
  } else if (suffix) text += `\n\n${suffix}`;
  return text;
}

export function lsTool(ws: Workspace): AgentTool {
  return {
    name: "ls",
    label: "List",
    description: `List a directory of the workspace (sorted; directories end with "/"; dotfiles included). At most ${LS_DEFAULT_LIMIT} entries unless limit is given.`,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Directory to list (default: the workspace root)" },
        limit: {
          type: "integer",
          minimum: 1,
          description: `Maximum number of entries (default ${LS_DEFAULT_LIMIT})`,
        },
      },
      additionalProperties: false,
    },
    async execute(args) {
      const path = stringArg(args, "path", false);
      if (!path.ok) return errorResult(path.error);
      const limit = intArg(args, "limit", 1);
      if (!limit.ok) return errorResult(limit.error);
      const n = normalizePath(path.value ?? ".");
      if (!n.ok) return errorResult(n.error);
      const listed = await ws.list(n.value);
      if (!listed.ok) return errorResult(listed.error);
      const max = limit.value ?? LS_DEFAULT_LIMIT;
      const names = listed.value
        .map((e) => (e.kind === "directory" ? `${e.name}/` : e.name))
        .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
      if (names.length === 0) return textResult(`(${displayPath(n.value)} is empty)`);
      const shown = names.slice(0, max);
      const more = names.length - shown.length;
      return textResult(
        capped(
          shown,
          more > 0 ? `[${more} more entries not shown (limit ${max}). Use limit to see more.]` : undefined,
        ),
        { path: n.value, entries: names.length },
      );
    },
  };
}

export function findTool(ws: Workspace): AgentTool {
  return {
    name: "find",
    label: "Find",
    description: `Find files by glob pattern (e.g. "*.ts", "src/**/*.test.ts", "{a,b}.md"). A pattern without "/" matches file names at any depth; with "/" it matches the path relative to the search directory. Results are paths relative to the workspace root; .git and node_modules are skipped. At most ${FIND_DEFAULT_LIMIT} results unless limit is given.`,
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "Glob pattern" },
        path: { type: "string", description: "Directory to search in (default: the workspace root)" },
        limit: {
          type: "integer",
          minimum: 1,
          description: `Maximum number of results (default ${FIND_DEFAULT_LIMIT})`,
        },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    async execute(args, { signal }) {
      const pattern = stringArg(args, "pattern", true);
      if (!pattern.ok) return errorResult(pattern.error);
      const path = stringArg(args, "path", false);
      if (!path.ok) return errorResult(path.error);
      const limit = intArg(args, "limit", 1);
      if (!limit.ok) return errorResult(limit.error);
      const n = normalizePath(path.value ?? ".");
      if (!n.ok) return errorResult(n.error);
      const st = await ws.stat(n.value);
      if (!st.ok) return errorResult(`Directory not found: ${displayPath(n.value)}`);
      if (st.value.kind !== "directory") return errorResult(`${n.value} is a file, not a directory.`);
      const matches = globMatcher(pattern.value);
      const max = limit.value ?? FIND_DEFAULT_LIMIT;
      const prefix = n.value === "" ? 0 : n.value.length + 1;
      const found: string[] = [];
      let limited = false;
      for await (const e of ws.walk(n.value, { skipDirs: DEFAULT_SKIP_DIRS, signal })) {
        if (!matches(e.path.slice(prefix))) continue;
        if (found.length >= max) {
          limited = true;
          break;
        }
        found.push(e.kind === "directory" ? `${e.path}/` : e.path);
      }
      if (signal?.aborted) return errorResult("Aborted.");
      if (found.length === 0)
        return textResult(`No files found matching "${pattern.value}" in ${displayPath(n.value)}.`);
      found.sort();
      return textResult(
        capped(
          found,
          limited ? `[Stopped at ${max} results. Use a narrower pattern or a larger limit.]` : undefined,
        ),
        { count: found.length, limited },
      );
    },
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function grepTool(ws: Workspace): AgentTool {
  return {
    name: "grep",
    label: "Grep",
    description: `Search file contents for a regular expression (JavaScript syntax) or, with literal=true, a plain string. Output lines are "path:line: text" (context lines "path-line- text"). path may be a directory or a file; glob filters file names (e.g. "*.ts"). .git, node_modules and binary files are skipped. At most ${GREP_DEFAULT_LIMIT} matches unless limit is given.`,
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "Regular expression, or a plain string with literal=true" },
        path: { type: "string", description: "Directory or file to search (default: the workspace root)" },
        glob: { type: "string", description: 'Only files matching this glob, e.g. "*.ts" or "src/**/*.tsx"' },
        ignoreCase: { type: "boolean", description: "Case-insensitive search" },
        literal: { type: "boolean", description: "Treat pattern as a plain string" },
        context: { type: "integer", minimum: 0, description: "Lines of context before and after each match" },
        limit: {
          type: "integer",
          minimum: 1,
          description: `Maximum number of matches (default ${GREP_DEFAULT_LIMIT})`,
        },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    async execute(args, { signal }) {
      const pattern = stringArg(args, "pattern", true);
      if (!pattern.ok) return errorResult(pattern.error);
      if (pattern.value === "") return errorResult("pattern is empty.");
      const path = stringArg(args, "path", false);
      if (!path.ok) return errorResult(path.error);
      const glob = stringArg(args, "glob", false);
      if (!glob.ok) return errorResult(glob.error);
      const ignoreCase = boolArg(args, "ignoreCase");
      if (!ignoreCase.ok) return errorResult(ignoreCase.error);
      const literal = boolArg(args, "literal");
      if (!literal.ok) return errorResult(literal.error);
      const context = intArg(args, "context", 0);
      if (!context.ok) return errorResult(context.error);
      const limit = intArg(args, "limit", 1);
      if (!limit.ok) return errorResult(limit.error);

      let re: RegExp;
      try {
        re = new RegExp(
          literal.value ? escapeRegExp(pattern.value) : pattern.value,
          ignoreCase.value ? "i" : "",
        );
      } catch (err) {
        return errorResult(
          `Invalid regular expression: ${(err as Error).message}. Use literal=true to search plain text.`,
        );
      }
      const n = normalizePath(path.value ?? ".");
      if (!n.ok) return errorResult(n.error);
      const st = await ws.stat(n.value);
      if (!st.ok) return errorResult(`Not found: ${displayPath(n.value)}`);

      const globOk = glob.value ? globMatcher(glob.value) : () => true;
      const files: string[] = [];
      if (st.value.kind === "file") files.push(n.value);
      else {
        const prefix = n.value === "" ? 0 : n.value.length + 1;
        for await (const e of ws.walk(n.value, { skipDirs: DEFAULT_SKIP_DIRS, signal })) {
          if (e.kind === "file" && globOk(e.path.slice(prefix))) files.push(e.path);
        }
        files.sort();
      }

      const max = limit.value ?? GREP_DEFAULT_LIMIT;
      const ctx = context.value ?? 0;
      const out: string[] = [];
      let count = 0;
      let limited = false;
      for (const file of files) {
        if (signal?.aborted) return errorResult("Aborted.");
        const size = await ws.stat(file);
        if (size.ok && size.value.size > GREP_MAX_FILE_BYTES) continue;
        const text = await ws.readFile(file);
        if (!text.ok || text.value.slice(0, 8192).includes("\0")) continue;
        const lines = splitLines(text.value);
        let lastPrinted = -1;
        for (let i = 0; i < lines.length; i++) {
          if (!re.test(lines[i]!)) continue;
          if (count >= max) {
            limited = true;
            break;
          }
          count++;
          const from = Math.max(0, i - ctx, lastPrinted + 1);
          if (ctx > 0 && lastPrinted >= 0 && from > lastPrinted + 1) out.push("--");
          for (let j = from; j <= Math.min(lines.length - 1, i + ctx); j++) {
            if (j <= lastPrinted) continue;
            const sep = j === i || re.test(lines[j]!) ? ":" : "-";
            out.push(`${file}${sep}${j + 1}${sep} ${clipLine(lines[j]!, GREP_LINE_CHARS)}`);
            lastPrinted = j;
          }
        }
        if (limited) break;
        if (ctx > 0 && lastPrinted >= 0 && out.length > 0 && out[out.length - 1] !== "--") out.push("--");
      }
      if (out[out.length - 1] === "--") out.pop();
      if (count === 0)
        return textResult(
          `No matches for ${literal.value ? "text" : "pattern"} "${pattern.value}" in ${displayPath(n.value)}.`,
        );
      return textResult(
        capped(
          out,
          limited ? `[Stopped at ${max} matches. Use a narrower path/glob or a larger limit.]` : undefined,
        ),
        { matches: count, limited },
      );
    },
  };
}
