/**
 * The agent UI against the mock server: provider setup (models listed by the mock), streaming,
 * a multi-step tool session with the workspace browser, stop with Esc, reload, export + CLI,
 * model/thinking changes as entries, and the key never leaking.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import {
  composerInput,
  entryCount,
  exportOpen,
  newSession,
  parseJsonl,
  recordUrls,
  send,
  settingsDialog,
  setUpProvider,
  waitIdle,
} from "./agent-helpers.ts";
import { getChatRequests, getRequests, scriptReplies, uniqueKey } from "./mock/client.ts";

const ROOT = resolve(import.meta.dirname, "..");

function inspect(file: string): Record<string, unknown> {
  const out = execFileSync("npx", ["tsx", "src/cli/main.ts", "inspect", file, "--json"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n")[0]!) as Record<string, unknown>;
}

test("set up a key and model, chat with a slow stream, reload, export: the key never leaks", async ({
  page,
}) => {
  const key = uniqueKey("chat");
  const urls = recordUrls(page);
  await page.goto("/");
  await setUpProvider(page, key);
  // The key is shown masked, can be revealed and hidden again.
  await page.getByRole("button", { name: "Settings" }).click();
  const dlg = settingsDialog(page);
  const shown = dlg.getByTestId("api-key-display");
  await expect(shown).not.toHaveText(key);
  await dlg.getByRole("button", { name: "Reveal" }).click();
  await expect(shown).toHaveText(key);
  await dlg.getByRole("button", { name: "Hide" }).click();
  await expect(shown).not.toHaveText(key);
  await dlg.getByRole("button", { name: "Test connection" }).click();
  await expect(dlg.getByTestId("connection-result")).toContainText("Connected: 3 models listed");
  await expect(dlg.getByTestId("connection-result")).toContainText("“mock-model” is among them");
  await dlg.getByRole("button", { name: "Done" }).click();

  await newSession(page);
  const words = Array.from({ length: 40 }, (_, i) => `word${i} `);
  await scriptReplies(key, [{ text: words, delayMs: 60 }]);
  await send(page, "Say forty words");
  // Partial text is visible while the stream is still going.
  const live = page.getByTestId("live-text");
  await expect(live).toContainText("word3");
  await expect(page.getByTestId("live-message")).toBeVisible();
  expect(await live.textContent()).not.toContain("word39");
  await waitIdle(page);
  await expect(page.getByTestId("run-message").last()).toContainText("word39");
  // model_change + user + assistant (thinking "off" is the format's default: no entry needed)
  await expect.poll(() => entryCount(page)).toBe(4);

  await page.reload();
  await expect(page.getByTestId("timeline")).toBeVisible();
  await expect.poll(() => entryCount(page)).toBe(4);
  await expect(page.getByTestId("timeline")).toContainText("word0");

  const file = await exportOpen(page);
  expect(file.text).not.toContain(key);
  const lines = parseJsonl(file.text);
  expect(lines[0]).toMatchObject({ type: "session", version: 3 });
  expect(lines.slice(1).map((e) => e.type)).toEqual(["model_change", "message", "message", "message"]);
  expect(lines[1]).toMatchObject({ provider: "custom", modelId: "mock-model" });
  const report = inspect(file.path);
  expect(report).toMatchObject({ version: 3, entries: 4, pathLength: 4, problems: [] });
  expect(report.roles).toEqual({ system: 1, user: 1, assistant: 1 });

  // The key only ever travels in the Authorization header.
  for (const u of urls) expect(u).not.toContain(key);
  const recorded = await getRequests(key);
  expect(recorded.length).toBeGreaterThan(0);
  for (const r of recorded) {
    expect(r.path).not.toContain(key);
    expect(JSON.stringify(r.body ?? "")).not.toContain(key);
    const { authorization, ...rest } = r.headers;
    expect(authorization).toBe(`Bearer ${key}`);
    expect(JSON.stringify(rest)).not.toContain(key);
  }
  const chats = await getChatRequests(key);
  expect(chats).toHaveLength(1);
  expect(JSON.stringify((chats[0]!.body as { messages: unknown }).messages)).toContain("Say forty words");
});

test("a multi-step tool session writes then edits a file, shown in the workspace browser", async ({
  page,
}) => {
  const key = uniqueKey("tools");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  const file = `notes-${key.slice(-8)}.md`;
  await scriptReplies(key, [
    {
      text: "Creating the file.",
      toolCalls: [{ name: "write", arguments: { path: file, content: "# Notes\nfirst line\n" } }],
    },
    {
      text: "Now editing it.",
      toolCalls: [{ name: "edit", arguments: { path: file, oldText: "first line", newText: "edited line" } }],
    },
    { text: ["The file ", "is written ", "and edited."] },
  ]);
  await send(page, "Write and edit a notes file");
  await waitIdle(page);
  const run = page.getByTestId("agent-run");
  await expect(run.getByTestId("tool-call")).toHaveCount(2);
  await expect(run.getByTestId("tool-call").first()).toContainText(`path: ${file}`);
  await expect(run.getByTestId("tool-result")).toHaveCount(2);
  await expect(run).toContainText("The file is written and edited.");
  // model_change + user + (assistant + tool result) × 2 + assistant
  await expect.poll(() => entryCount(page)).toBe(8);

  await page.getByRole("button", { name: "Files", exact: true }).click();
  const panel = page.getByTestId("workspace-panel");
  await expect(panel.getByTestId("workspace-name")).toHaveText("Browser storage (OPFS)");
  await panel.getByRole("button", { name: file }).click();
  await expect(panel.getByTestId("file-content")).toHaveText("# Notes\nedited line\n");

  // The requests carried the tool results back to the model.
  const chats = await getChatRequests(key);
  expect(chats).toHaveLength(3);
  const last = JSON.stringify((chats[2]!.body as { messages: unknown }).messages);
  expect(last).toContain("tool");
});

test("Esc stops a streaming reply: the partial reply is kept, marked aborted, and survives reload", async ({
  page,
}) => {
  const key = uniqueKey("abort");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [{ text: Array.from({ length: 60 }, (_, i) => `part${i} `), delayMs: 80 }]);
  await send(page, "A long answer please");
  await expect(page.getByTestId("live-text")).toContainText("part2");
  await page.keyboard.press("Escape");
  await waitIdle(page);
  await expect(page.getByTestId("aborted-note")).toBeVisible();
  await expect.poll(() => entryCount(page)).toBe(4);
  await page.reload();
  await expect.poll(() => entryCount(page)).toBe(4);
  const file = await exportOpen(page);
  const last = parseJsonl(file.text).at(-1) as {
    message: { stopReason: string; content: { text?: string }[] };
  };
  expect(last.message.stopReason).toBe("aborted");
  expect(last.message.content[0]?.text).toContain("part2");
  expect(last.message.content[0]?.text).not.toContain("part59");
});

test("changing the model and thinking level in a session appends setting entries", async ({ page }) => {
  const key = uniqueKey("settings");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await send(page, "hello");
  await waitIdle(page);
  await expect.poll(() => entryCount(page)).toBe(4);
  const model = page.getByLabel("Model of this session");
  await model.fill("mock-reasoner");
  await model.press("Enter");
  await expect.poll(() => entryCount(page)).toBe(5);
  await page.getByLabel("Thinking level of this session").selectOption("high");
  await expect.poll(() => entryCount(page)).toBe(6);
  await send(page, "think now");
  await waitIdle(page);
  await expect.poll(() => entryCount(page)).toBe(8);
  const chats = await getChatRequests(key);
  expect((chats[1]!.body as { model: string }).model).toBe("mock-reasoner");
  const lines = parseJsonl((await exportOpen(page)).text);
  expect(lines.slice(5, 7)).toMatchObject([
    { type: "model_change", modelId: "mock-reasoner" },
    { type: "thinking_level_change", thinkingLevel: "high" },
  ]);
  // System prompt: visible, editable, used by the next request.
  await page.getByRole("button", { name: "System prompt", exact: true }).click();
  const dlg = page.locator('dialog[data-dialog="system-prompt"]');
  await expect(dlg.getByLabel("System prompt")).toContainText("read {path");
  await dlg.getByLabel("System prompt").fill("You are a terse test agent.");
  await dlg.getByRole("button", { name: "Save" }).click();
  // Typed only once the dialog has closed (the page behind a modal dialog takes no input).
  await expect(dlg).toBeHidden();
  await expect(composerInput(page)).toBeEnabled();
  await send(page, "with my prompt");
  await waitIdle(page);
  const third = (await getChatRequests(key))[2]!.body as { messages: { role: string; content: unknown }[] };
  expect(third.messages[0]).toMatchObject({ role: "system", content: "You are a terse test agent." });
  // The prompt and the tools live in the session as pi 1.6 system messages: the first request
  // declared them, the edit appended a patch of the prompt section.
  const systems = parseJsonl((await exportOpen(page)).text).filter(
    (l) => l.type === "message" && (l.message as { role?: string }).role === "system",
  );
  expect(systems.map((l) => (l.message as { sections?: unknown }).sections)).toEqual([
    { prompt: expect.stringContaining("read {path") },
    { prompt: "You are a terse test agent." },
  ]);
  expect((systems[0]!.message as { toolsAdded?: { name: string }[] }).toolsAdded?.map((t) => t.name)).toEqual(
    ["read", "write", "edit", "ls", "find", "grep"],
  );
});

test.describe("the agent's code", () => {
  // Served by the page's own requests (a service worker would answer from its cache unseen).
  test.use({ serviceWorkers: "block" });

  test("is not needed to show a session: held back, a session opens, and a prompt sent meanwhile goes out once it arrives", async ({
    page,
  }) => {
    const key = uniqueKey("lazy-agent");
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const asked: string[] = [];
    await page.route(/\/assets\/agent-instance-[^/]+\.js$/, async (route) => {
      asked.push(route.request().url());
      await released;
      await route.continue();
    });
    try {
      await page.goto("/");
      // The session list, the settings and a session work while it is held back (it is asked
      // for once the page is idle).
      await setUpProvider(page, key);
      await newSession(page);
      await expect.poll(() => asked.length).toBeGreaterThan(0);
      await expect(page.getByRole("region", { name: "Conversation" })).toContainText(
        "This session has no entries yet.",
      );
      // The workspace's files come with the agent: said while they wait, the composer stays.
      await page.getByRole("button", { name: "Files", exact: true }).click();
      await expect(page.getByText("Opening the workspace…")).toBeVisible();
      await expect(composerInput(page)).toBeEditable();
      await scriptReplies(key, [{ text: ["Loaded ", "on demand."] }]);
      await send(page, "hello while the agent loads");
      await expect(composerInput(page)).toHaveValue("");
      await expect(page.getByTestId("agent-starting")).toContainText("Starting the agent…");
      // Nothing is sent or written before the code is there.
      await page.waitForTimeout(300);
      expect(await getChatRequests(key)).toHaveLength(0);
      await expect(page.getByRole("region", { name: "Conversation" })).toContainText(
        "This session has no entries yet.",
      );
      // From here until the reply is in, the composer never looks idle (neither starting nor Stop):
      // a person, or a test waiting for the run to end, would take the run for over.
      await page.evaluate(() => {
        const w = window as unknown as { __idleGap?: boolean };
        w.__idleGap = false;
        const composer = document.querySelector('[data-testid="agent-composer"]')!;
        const check = () => {
          const starting = composer.querySelector('[data-testid="agent-starting"]');
          const stop = [...composer.querySelectorAll("button")].some((b) => b.textContent?.trim() === "Stop");
          const run = document.querySelector('[data-testid="agent-run"]')?.textContent ?? "";
          if (!starting && !stop && !run.includes("Loaded on demand.")) w.__idleGap = true;
        };
        new MutationObserver(check).observe(composer, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      });
      release();
      await expect(page.getByTestId("agent-run")).toContainText("Loaded on demand.");
      await expect(page.getByTestId("agent-starting")).toBeHidden();
      expect(await page.evaluate(() => (window as unknown as { __idleGap?: boolean }).__idleGap)).toBe(false);
      await waitIdle(page);
      await expect(page.getByTestId("workspace-panel").getByTestId("workspace-name")).toHaveText(
        "Browser storage (OPFS)",
      );
      await expect.poll(() => entryCount(page)).toBe(4);
      expect(await getChatRequests(key)).toHaveLength(1);
      const lines = parseJsonl((await exportOpen(page)).text);
      const said = lines.filter((l) =>
        /^(user|assistant)$/.test((l as { message?: { role?: string } }).message?.role ?? ""),
      );
      expect(said).toMatchObject([
        { message: { role: "user", content: "hello while the agent loads" } },
        { message: { role: "assistant", content: [{ type: "text", text: "Loaded on demand." }] } },
      ]);
    } finally {
      release();
    }
  });

  test("when it cannot be fetched, a send says so and keeps the message; it is fetched again on the next send", async ({
    page,
  }) => {
    const key = uniqueKey("lazy-agent-fail");
    let refuse = true;
    // Its URL with any query too (a fetch again after a failure asks for it under a new URL).
    await page.route(/\/assets\/agent-instance-[^/?]+\.js(\?.*)?$/, (route) =>
      refuse ? route.abort("internetdisconnected") : route.continue(),
    );
    await page.goto("/");
    await setUpProvider(page, key);
    await newSession(page);
    await scriptReplies(key, [{ text: ["Here ", "now."] }]);
    await send(page, "are you there?");
    await expect(page.getByText("The agent's code could not be loaded")).toBeVisible();
    await expect(composerInput(page)).toHaveValue("are you there?");
    expect(await getChatRequests(key)).toHaveLength(0);
    refuse = false;
    await composerInput(page).press("Enter");
    await expect(page.getByTestId("agent-run")).toContainText("Here now.");
    await waitIdle(page);
    await expect.poll(() => entryCount(page)).toBe(4);
  });
});
