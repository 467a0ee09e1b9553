/**
 * The read, write and edit tools on an in-memory workspace: line numbers, offsets, truncation, images,
 * exact single replacements, CRLF kept, and clear errors; unknown and throwing tools as error results.
 */
import { describe, expect, it } from "vitest";
import type { AgentTool, ToolOutput } from "../core/agent/types.ts";
import { createWorkspaceTools, executeToolCall } from "./index.ts";
import { createMemoryWorkspace } from "./memory-workspace.ts";

function setup(files: Record<string, string> = {}) {
  const ws = createMemoryWorkspace(files);
  const tools = createWorkspaceTools(ws);
  const run = (name: string, args: Record<string, unknown>) =>
    executeToolCall(tools, { type: "toolCall", id: "t", name, arguments: args });
  return { ws, run };
}
const text = (r: ToolOutput) => r.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("");

describe("read", () => {
  it("numbers lines and honours offset/limit with a continuation marker", async () => {
    const { run } = setup({ "a.txt": "one\ntwo\r\nthree\nfour\n" });
    expect(text(await run("read", { path: "a.txt" }))).toBe("1\tone\n2\ttwo\n3\tthree\n4\tfour");
    const part = await run("read", { path: "a.txt", offset: 2, limit: 2 });
    expect(text(part)).toBe("2\ttwo\n3\tthree\n\n[Showing lines 2-3 of 4. Use offset=4 to continue.]");
    expect(part.isError).toBe(false);
  });

  it("reports errors: missing file, directory, bad offset, bad args, escaping root", async () => {
    const { run } = setup({ "d/a.txt": "x" });
    expect(await run("read", { path: "nope.txt" })).toMatchObject({ isError: true });
    expect(text(await run("read", { path: "nope.txt" }))).toMatch(/File not found: nope.txt/);
    expect(text(await run("read", { path: "d" }))).toMatch(/is a directory; use ls/);
    expect(text(await run("read", { path: "d/a.txt", offset: 5 }))).toMatch(/beyond the end .* \(1 lines\)/);
    expect(text(await run("read", { path: "d/a.txt", offset: 0 }))).toMatch(/at least 1/);
    expect(text(await run("read", {}))).toMatch(/Missing required argument "path"/);
    expect(text(await run("read", { path: "../x" }))).toMatch(/leaves the workspace root/);
    expect(text(await run("read", { path: "d/a.txt", limit: "x" }))).toMatch(/must be an integer/);
  });

  it("truncates at 2000 lines and at 50 KB with a marker, and clips huge lines", async () => {
    const many = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n");
    const wide = Array.from({ length: 100 }, () => "y".repeat(1000)).join("\n");
    const { run } = setup({ "many.txt": many, "wide.txt": wide, "one.txt": "z".repeat(5000) });
    const r1 = text(await run("read", { path: "many.txt" }));
    expect(r1.split("\n").filter((l) => /^\s*\d+\t/.test(l))).toHaveLength(2000);
    expect(r1).toMatch(/\[Showing lines 1-2000 of 2500\. Use offset=2001 to continue\.\]$/);
    const r2 = text(await run("read", { path: "wide.txt" }));
    expect(new TextEncoder().encode(r2).length).toBeLessThan(52 * 1024);
    expect(r2).toMatch(/\(50\.0 KB limit\)\. Use offset=\d+ to continue/);
    expect(text(await run("read", { path: "one.txt" }))).toMatch(/\[line truncated, 3000 more characters\]/);
  });

  it("returns images as image blocks and empty files plainly", async () => {
    const { run } = setup({ "p.png": "\x89PNG", "e.txt": "" });
    const img = await run("read", { path: "p.png" });
    expect(img.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(text(await run("read", { path: "e.txt" }))).toBe("(e.txt is empty)");
  });
});

describe("write", () => {
  it("creates (with parents) and overwrites", async () => {
    const { ws, run } = setup({ "a.txt": "old" });
    expect(text(await run("write", { path: "new/dir/b.txt", content: "héllo" }))).toBe(
      "Created new/dir/b.txt (6 bytes).",
    );
    expect(text(await run("write", { path: "a.txt", content: "" }))).toBe("Overwrote a.txt (0 bytes).");
    expect(ws.files().get("new/dir/b.txt")).toBe("héllo");
    expect(ws.files().get("a.txt")).toBe("");
    expect((await run("write", { path: "a.txt" })).isError).toBe(true);
    expect((await run("write", { path: "/../../etc/x", content: "" })).isError).toBe(true);
    expect((await run("write", { path: "new", content: "x" })).isError).toBe(true);
  });
});

describe("edit", () => {
  it("replaces one exact occurrence and reports the line", async () => {
    const { ws, run } = setup({ "a.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
    const r = await run("edit", {
      path: "a.ts",
      oldText: "const b = 2;",
      newText: "const b = 20;\nconst bb = 21;",
    });
    expect(r.isError).toBe(false);
    expect(text(r)).toBe("Edited a.ts: replaced 1 line(s) at line 2 with 2 line(s).");
    expect(ws.files().get("a.ts")).toBe("const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n");
  });

  it("fails clearly when not found (with whitespace hint) or not unique (with the count)", async () => {
    const { ws, run } = setup({ "a.ts": "x = 1;  \nx = 1;  \ny = 2;\n" });
    expect(text(await run("edit", { path: "a.ts", oldText: "z", newText: "w" }))).toMatch(/0 matches/);
    expect(text(await run("edit", { path: "a.ts", oldText: "y = 2;\n\n", newText: "w" }))).toMatch(
      /0 matches/,
    );
    expect(text(await run("edit", { path: "a.ts", oldText: "x = 1;", newText: "w" }))).toMatch(
      /occurs 2 times/,
    );
    expect(text(await run("edit", { path: "a.ts", oldText: "x = 1;\ny", newText: "w" }))).toMatch(
      /trailing whitespace/,
    );
    expect(text(await run("edit", { path: "a.ts", oldText: "", newText: "w" }))).toMatch(/oldText is empty/);
    expect(text(await run("edit", { path: "a.ts", oldText: "y", newText: "y" }))).toMatch(/identical/);
    expect(text(await run("edit", { path: "b.ts", oldText: "y", newText: "z" }))).toMatch(/not found/);
    expect(ws.files().get("a.ts")).toBe("x = 1;  \nx = 1;  \ny = 2;\n");
  });

  it("keeps CRLF line endings when the model sends LF", async () => {
    const { ws, run } = setup({ "w.txt": "a\r\nb\r\nc\r\n" });
    expect((await run("edit", { path: "w.txt", oldText: "a\nb", newText: "A\nB" })).isError).toBe(false);
    expect(ws.files().get("w.txt")).toBe("A\r\nB\r\nc\r\n");
  });

  it("treats $ patterns in newText literally", async () => {
    const { ws, run } = setup({ "s.txt": "price" });
    await run("edit", { path: "s.txt", oldText: "price", newText: "$& $1 $$" });
    expect(ws.files().get("s.txt")).toBe("$& $1 $$");
  });
});

describe("executeToolCall", () => {
  it("reports unknown tools and exceptions as error results", async () => {
    const { run } = setup();
    const unknown = await run("bash", {});
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/Unknown tool "bash".*read, write, edit, ls, find, grep/);
    const throwing = (name: string, thrown: unknown): AgentTool => ({
      name,
      label: name,
      description: "throws",
      parameters: { type: "object" },
      execute: async () => {
        throw thrown;
      },
    });
    const tools = [throwing("boom", new Error("disk on fire")), throwing("raw", "a bare string")];
    const call = (name: string) => executeToolCall(tools, { type: "toolCall", id: "t", name, arguments: {} });
    const failed = await call("boom");
    expect(failed.isError).toBe(true);
    expect(text(failed)).toBe("Tool boom failed: disk on fire");
    const raw = await call("raw");
    expect(raw.isError).toBe(true);
    expect(text(raw)).toBe("Tool raw failed: a bare string");
  });
});
