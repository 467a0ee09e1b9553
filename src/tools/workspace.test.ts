/** Workspace paths (normalized, never above the root), globs, and the in-memory workspace's file calls. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { globMatcher } from "./glob.ts";
import { createMemoryWorkspace } from "./memory-workspace.ts";
import { normalizePath } from "./workspace.ts";

describe("normalizePath", () => {
  it("normalizes separators, dots and leading slashes", () => {
    expect(normalizePath("/src/./a//b.ts")).toEqual({ ok: true, value: "src/a/b.ts" });
    expect(normalizePath("src\\x\\..\\y.ts")).toEqual({ ok: true, value: "src/y.ts" });
    expect(normalizePath(".")).toEqual({ ok: true, value: "" });
    expect(normalizePath("")).toEqual({ ok: true, value: "" });
  });
  it("refuses to leave the root", () => {
    expect(normalizePath("../etc/passwd")).toMatchObject({ ok: false, code: "invalid-path" });
    expect(normalizePath("a/../../b")).toMatchObject({ ok: false, code: "invalid-path" });
    expect(normalizePath("a\0b")).toMatchObject({ ok: false });
  });
  it("property: a normalized path never contains '.', '..' or empty segments and is idempotent", () => {
    const seg = fc.constantFrom("a", "b", ".", "..", "", "c.ts", "d e");
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 8 }), fc.boolean(), (parts, lead) => {
        const r = normalizePath((lead ? "/" : "") + parts.join("/"));
        if (!r.ok) return;
        if (r.value !== "") {
          for (const s of r.value.split("/")) expect([".", "..", ""]).not.toContain(s);
        }
        expect(normalizePath(r.value)).toEqual(r);
      }),
    );
  });
});

describe("globMatcher", () => {
  it("matches base names at any depth when the pattern has no slash", () => {
    const m = globMatcher("*.ts");
    expect(m("a.ts")).toBe(true);
    expect(m("src/deep/b.ts")).toBe(true);
    expect(m("src/b.tsx")).toBe(false);
  });
  it("supports **, ?, [..], {a,b} on whole paths", () => {
    expect(globMatcher("src/**/*.test.ts")("src/x/y/z.test.ts")).toBe(true);
    expect(globMatcher("src/**/*.test.ts")("src/z.test.ts")).toBe(true);
    expect(globMatcher("src/*.ts")("src/x/z.ts")).toBe(false);
    expect(globMatcher("file?.md")("file1.md")).toBe(true);
    expect(globMatcher("[ab].txt")("b.txt")).toBe(true);
    expect(globMatcher("[!ab].txt")("b.txt")).toBe(false);
    expect(globMatcher("*.{js,ts}")("x/y.js")).toBe(true);
    expect(globMatcher("a+b(1).txt")("a+b(1).txt")).toBe(true);
  });
});

describe("memory workspace", () => {
  it("reads, writes (creating parents), lists, stats and walks", async () => {
    const ws = createMemoryWorkspace({ "src/a.ts": "A", "README.md": "R" }, { now: () => 5 });
    expect(await ws.readFile("/src/a.ts")).toEqual({ ok: true, value: "A" });
    expect(await ws.readFile("src")).toMatchObject({ ok: false, code: "not-a-file" });
    expect(await ws.readFile("nope")).toMatchObject({ ok: false, code: "not-found" });
    expect((await ws.writeFile("x/y/z.txt", "Z")).ok).toBe(true);
    expect(await ws.list("")).toEqual({
      ok: true,
      value: [
        { name: "README.md", kind: "file" },
        { name: "src", kind: "directory" },
        { name: "x", kind: "directory" },
      ],
    });
    expect(await ws.stat("x/y/z.txt")).toEqual({ ok: true, value: { kind: "file", size: 1, mtime: 5 } });
    expect(await ws.stat("x/y")).toEqual({ ok: true, value: { kind: "directory", size: 0 } });
    expect(await ws.writeFile("README.md/in", "no")).toMatchObject({ ok: false, code: "not-a-directory" });
    expect(await ws.writeFile("../out", "no")).toMatchObject({ ok: false, code: "invalid-path" });
    const walked: string[] = [];
    for await (const e of ws.walk("")) walked.push(`${e.kind[0]} ${e.path}`);
    expect(walked.sort()).toEqual(["d src", "d x", "d x/y", "f README.md", "f src/a.ts", "f x/y/z.txt"]);
  });
});
