/**
 * The workspace tools over the real origin-private file system (OPFS) of Chromium: the same
 * code as src/tools, bundled on the fly with Vite and loaded into a page of the app's origin.
 */
import { expect, test } from "@playwright/test";
import { bundleModule } from "../lib/bundle.ts";

let bundle = "";

test.beforeAll(async () => {
  bundle = await bundleModule("src/tools/index.ts", "CutpointTools");
  expect(bundle.length).toBeGreaterThan(1000);
});

// The test injects its bundle as an inline script, which the app's CSP (rightly) forbids.
test.use({ bypassCSP: true });

test("read/write/edit/ls/find/grep work on OPFS, and paths cannot escape the root", async ({ page }) => {
  await page.goto("/");
  await page.addScriptTag({ content: bundle });
  const r = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the IIFE global of the bundle
    const T = (globalThis as any).CutpointTools;
    const opened = await T.openOpfsWorkspace(`test-${Math.random().toString(36).slice(2)}`);
    if (!opened.ok) return { error: opened.error };
    const ws = opened.value;
    const tools = T.createWorkspaceTools(ws);
    const run = async (name: string, args: object) => {
      const out = await T.executeToolCall(tools, { type: "toolCall", id: "x", name, arguments: args });
      return { isError: out.isError, text: out.content.map((b: { text?: string }) => b.text ?? "").join("") };
    };
    const steps = {
      write: await run("write", { path: "src/app/main.ts", content: "const a = 1;\nconst b = 2;\n" }),
      write2: await run("write", { path: "README.md", content: "# hi\n" }),
      edit: await run("edit", { path: "src/app/main.ts", oldText: "const b = 2;", newText: "const b = 3;" }),
      read: await run("read", { path: "src/app/main.ts" }),
      ls: await run("ls", {}),
      find: await run("find", { pattern: "*.ts" }),
      grep: await run("grep", { pattern: "b = \\d" }),
      missing: await run("read", { path: "nope.txt" }),
      escape: await run("write", { path: "../outside.txt", content: "x" }),
      dirAsFile: await run("read", { path: "src" }),
      stat: await ws.stat("src/app/main.ts"),
      kind: ws.kind,
      pickerSupported: T.isFolderPickerSupported(),
    };
    return steps;
  });
  expect(r).not.toHaveProperty("error");
  type Out = { isError: boolean; text: string };
  type Steps = Record<
    "write" | "edit" | "read" | "ls" | "find" | "grep" | "missing" | "escape" | "dirAsFile",
    Out
  > & {
    stat: unknown;
    kind: string;
    pickerSupported: boolean;
  };
  const s = r as unknown as Steps;
  expect(s.kind).toBe("opfs");
  expect(s.write).toEqual({ isError: false, text: "Created src/app/main.ts (26 bytes)." });
  expect(s.edit.isError).toBe(false);
  expect(s.read.text).toBe("1\tconst a = 1;\n2\tconst b = 3;");
  expect(s.ls.text).toBe("README.md\nsrc/");
  expect(s.find.text).toBe("src/app/main.ts");
  expect(s.grep.text).toBe("src/app/main.ts:2: const b = 3;");
  expect(s.missing).toEqual({ isError: true, text: "File not found: nope.txt" });
  expect(s.escape.isError).toBe(true);
  expect(s.escape.text).toMatch(/leaves the workspace root/);
  expect(s.dirAsFile.text).toMatch(/is a directory/);
  expect(s.stat).toEqual({ ok: true, value: expect.objectContaining({ kind: "file", size: 26 }) });
  expect(s.pickerSupported).toBe(true);
});
