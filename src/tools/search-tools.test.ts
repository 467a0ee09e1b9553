/**
 * The ls, find and grep tools on an in-memory workspace: sorting, globs, skipped folders, limits,
 * context lines, the 50 KB cap and their error messages.
 */
import { describe, expect, it } from "vitest";
import type { ToolOutput } from "../core/agent/types.ts";
import { createWorkspaceTools, executeToolCall } from "./index.ts";
import { createMemoryWorkspace } from "./memory-workspace.ts";

const FILES = {
  "README.md": "# Title\nUse foo() here.\n",
  ".env": "SECRET=1\n",
  "src/a.ts": "export const foo = 1;\n// TODO: fix\nconst bar = foo + 1;\n",
  "src/b.test.ts": "import { foo } from './a';\ntest('foo', () => {});\n",
  "src/deep/c.ts": "line1\nline2\nFOO match\nline4\nline5\nline6\nline7\nfoo again\n",
  "node_modules/pkg/index.ts": "export const foo = 0;\n",
  ".git/config": "foo",
  "bin.dat": "foo\0bar",
};

function setup(files: Record<string, string> = FILES) {
  const ws = createMemoryWorkspace(files);
  const tools = createWorkspaceTools(ws);
  const run = (name: string, args: Record<string, unknown>) =>
    executeToolCall(tools, { type: "toolCall", id: "t", name, arguments: args });
  return { ws, run };
}
const text = (r: ToolOutput) => r.content.map((b) => (b.type === "text" ? b.text : "")).join("");

describe("ls", () => {
  it("lists sorted with dir slashes and dotfiles; root by default", async () => {
    const { run } = setup();
    expect(text(await run("ls", {}))).toBe(".env\n.git/\nbin.dat\nnode_modules/\nREADME.md\nsrc/");
    expect(text(await run("ls", { path: "src" }))).toBe("a.ts\nb.test.ts\ndeep/");
  });
  it("limits with a marker, and reports errors", async () => {
    const { run, ws } = setup();
    expect(text(await run("ls", { limit: 2 }))).toBe(
      ".env\n.git/\n\n[4 more entries not shown (limit 2). Use limit to see more.]",
    );
    expect(text(await run("ls", { path: "src/a.ts" }))).toMatch(/is a file, not a directory/);
    expect(text(await run("ls", { path: "missing" }))).toMatch(/Directory not found: missing/);
    expect(text(await run("ls", { path: ".." }))).toMatch(/leaves the workspace root/);
    ws.mkdir("empty");
    expect(text(await run("ls", { path: "empty" }))).toBe("(empty is empty)");
  });
});

describe("find", () => {
  it("finds by base-name glob at any depth, skipping .git and node_modules", async () => {
    const { run } = setup();
    expect(text(await run("find", { pattern: "*.ts" }))).toBe("src/a.ts\nsrc/b.test.ts\nsrc/deep/c.ts");
    expect(text(await run("find", { pattern: "**/*.test.ts" }))).toBe("src/b.test.ts");
  });
  it("searches under path, with paths relative to the root, and limits", async () => {
    const { run } = setup();
    expect(text(await run("find", { pattern: "deep/*.ts", path: "src" }))).toBe("src/deep/c.ts");
    expect(text(await run("find", { pattern: "*.ts", limit: 1 }))).toMatch(
      /^src\/a\.ts\n\n\[Stopped at 1 results/,
    );
    expect(text(await run("find", { pattern: "*.py" }))).toMatch(/No files found matching "\*\.py"/);
    expect((await run("find", { pattern: "*", path: "nope" })).isError).toBe(true);
    expect((await run("find", {})).isError).toBe(true);
  });
});

describe("grep", () => {
  it("finds regex matches as path:line: text, skipping binary, .git and node_modules", async () => {
    const { run } = setup();
    expect(text(await run("grep", { pattern: "foo\\b" }))).toBe(
      [
        "README.md:2: Use foo() here.",
        "src/a.ts:1: export const foo = 1;",
        "src/a.ts:3: const bar = foo + 1;",
        "src/b.test.ts:1: import { foo } from './a';",
        "src/b.test.ts:2: test('foo', () => {});",
        "src/deep/c.ts:8: foo again",
      ].join("\n"),
    );
  });
  it("supports ignoreCase, literal, glob, a file path and limit", async () => {
    const { run } = setup();
    expect(text(await run("grep", { pattern: "foo", path: "src/deep", ignoreCase: true }))).toBe(
      "src/deep/c.ts:3: FOO match\nsrc/deep/c.ts:8: foo again",
    );
    expect(text(await run("grep", { pattern: "foo()", literal: true }))).toBe("README.md:2: Use foo() here.");
    expect(text(await run("grep", { pattern: "foo", glob: "*.test.ts" }))).toMatch(
      /^src\/b\.test\.ts:1:.*\nsrc\/b\.test\.ts:2:/,
    );
    expect(text(await run("grep", { pattern: "TODO", path: "src/a.ts" }))).toBe("src/a.ts:2: // TODO: fix");
    expect(text(await run("grep", { pattern: "foo", limit: 2 }))).toMatch(/\n\n\[Stopped at 2 matches/);
  });
  it("prints context lines with '-' and separates groups with --", async () => {
    const { run } = setup();
    expect(text(await run("grep", { pattern: "match|again", path: "src/deep/c.ts", context: 1 }))).toBe(
      [
        "src/deep/c.ts-2- line2",
        "src/deep/c.ts:3: FOO match",
        "src/deep/c.ts-4- line4",
        "--",
        "src/deep/c.ts-7- line7",
        "src/deep/c.ts:8: foo again",
      ].join("\n"),
    );
  });
  it("reports invalid regex, no match, missing path", async () => {
    const { run } = setup();
    expect(text(await run("grep", { pattern: "(" }))).toMatch(/Invalid regular expression.*literal=true/);
    expect(text(await run("grep", { pattern: "zzz" }))).toMatch(/No matches for pattern "zzz"/);
    expect((await run("grep", { pattern: "x", path: "nope" })).isError).toBe(true);
  });
  it("caps big outputs at 50 KB with a marker", async () => {
    const big = Array.from({ length: 3000 }, (_, i) => `hit ${i} ${"x".repeat(40)}`).join("\n");
    const { run } = setup({ "big.txt": big });
    const out = text(await run("grep", { pattern: "hit", limit: 5000 }));
    expect(new TextEncoder().encode(out).length).toBeLessThan(52 * 1024);
    expect(out).toMatch(/\[Output truncated at \d+ of 3000 lines \(50\.0 KB limit\)/);
  });
});
