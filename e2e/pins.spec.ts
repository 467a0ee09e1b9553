/**
 * Pinned instructions and the person's own summary instructions, against the mock: pin a message
 * from its row and a free text from the Pins dialog, compact twice (the mock writes the summaries),
 * and find both pins word for word in what the model sees, in the exported file's system
 * checkpoint, in pi 1.6's own context of that file, and in the next request's system prompt; edit
 * and unpin. Then summary instructions for all sessions and for the session, and the summarizer
 * requests the mock received. Screenshots of both dialogs at 1280 / 800 px, light and dark.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import {
  compactionSettings,
  exportOpen,
  newSession,
  parseJsonl,
  send,
  settingsDialog,
  setUpProvider,
  waitIdle,
} from "./agent-helpers.ts";
import { piAvailable } from "./lib/pi-oracle.ts";
import { piPrompt } from "./lib/pi-prompt-oracle.ts";
import { getChatRequests, uniqueKey } from "./mock/client.ts";
import { AppPage, revealInTopBar } from "./pages/app-page.ts";

// Three times the slowest of these on a loaded 2-core machine (about 17 s): a hang costs 90 s, not 3 min.
test.setTimeout(90_000);

const SHOTS = process.env.CUTPOINT_SHOTS ?? "/tmp/shots-pins";
const RULE = "PINNED-RULE: never edit files under vendor/;\n  always run `npm test -- --run` first.";
const FREE = "FREE-PIN: answer in English, cite paths as a/b.ts:12 — ünïcode ✓";
const filler = (tag: string) => `${tag} ${"some words to make this turn long enough ".repeat(12)}`;

type Chat = { messages: { role: string; content: unknown }[] };
const text = (m: { content: unknown } | undefined): string =>
  typeof m?.content === "string"
    ? m.content
    : Array.isArray(m?.content)
      ? (m.content as { text?: string }[]).map((b) => b.text ?? "").join("")
      : "";

/** Opens the token timeline, compacts with a model summary (the mock's), confirms. */
async function compactWithModel(page: Page, focus?: string): Promise<void> {
  const panel = page.getByTestId("token-timeline-panel");
  if (!(await panel.isVisible())) await page.getByTestId("context-meter").click();
  await panel.getByRole("button", { name: "Compact…" }).click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  if (focus !== undefined) await page.getByTestId("focus").fill(focus);
  await page.getByTestId("generate").click();
  await expect(page.getByTestId("preview-status")).toContainText("Draft ready", { timeout: 30_000 });
  await page.getByTestId("confirm").click();
  await expect(
    page
      .getByTestId("toast")
      .filter({ hasText: /Compacted .* → .* tokens/ })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
}

async function turns(page: Page, tags: string[]): Promise<void> {
  for (const tag of tags) {
    await send(page, filler(tag));
    await waitIdle(page);
  }
}

/** The summarizer requests the mock got (the transcript in <conversation>). */
async function summaryRequests(key: string): Promise<string[]> {
  return (await getChatRequests(key))
    .map((r) => text((r.body as Chat).messages.find((m) => m.role === "user")))
    .filter((u) => u.startsWith("<conversation>"));
}

test("a pinned message and a pinned text survive two compactions word for word", async ({ page }) => {
  const key = uniqueKey("pins");
  const app = new AppPage(page);
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { keep: 40 });
  await newSession(page);
  await send(page, RULE);
  await waitIdle(page);
  await turns(page, ["second", "third"]);

  // Pin the first message from its row.
  const row = app.timelineRow(/PINNED-RULE/).first();
  await row.hover();
  await row.getByRole("button", { name: "Pin", exact: true }).click();
  await expect(app.toast(/Pinned/)).toBeVisible();
  await expect(page.getByTestId("pins-button")).toHaveText("Pins (1)");

  // Pin a free text in the Pins dialog.
  await (await revealInTopBar(page, page.getByTestId("pins-button"))).click();
  const dialog = page.locator('dialog[data-dialog="pins"]');
  await expect(dialog.getByTestId("pins-list")).toContainText("PINNED-RULE: never edit files under vendor/");
  await dialog.getByLabel("Pin a new instruction").fill(FREE);
  await dialog.getByRole("button", { name: "Pin", exact: true }).click();
  await expect(dialog.getByTestId("pins-list").locator("li")).toHaveCount(2);
  await expect(dialog.getByTestId("pins-total")).toContainText("2 pins");
  await dialog.getByRole("button", { name: "Close" }).click();

  // Two compactions, with turns in between.
  await compactWithModel(page);
  await turns(page, ["fourth", "fifth"]);
  await compactWithModel(page);

  // What the model sees: the system prompt carries both pins, verbatim.
  await page.getByTestId("token-timeline-panel").getByLabel("What the model sees").check();
  await expect(page.getByTestId("token-timeline-panel").getByTestId("pins-carried")).toContainText(
    "Carried verbatim: 2 pinned instructions",
  );
  await page.screenshot({ path: `${SHOTS}/model-view-pins.png` });
  await page.getByTestId("token-timeline-panel").getByRole("button", { name: "Raw text" }).click();
  const raw = (await page.getByTestId("token-timeline-panel").getByTestId("raw-text").textContent()) ?? "";
  const system = raw.split(/── 2\. /)[0]!;
  expect(system).toMatch(/^── 1\. system ──/);
  expect(system).toContain(RULE);
  expect(system).toContain(FREE);

  // The export: two compactions; the last one's system checkpoint holds both pins verbatim.
  const file = await exportOpen(page);
  const entries = parseJsonl(file.text);
  const compactions = entries.filter((e) => e.type === "compaction");
  expect(compactions).toHaveLength(2);
  const sections = (compactions[1]!.systemMessage as { sections: Record<string, string> }).sections;
  const pinned = Object.entries(sections).filter(([name]) => name.startsWith("pin-"));
  // Each pin is its text between tags named after its section, as pi 1.6 renders a custom section.
  expect(pinned.map(([n, v]) => [n, v])).toEqual([
    [pinned[0]![0], `<${pinned[0]![0]}>\n${RULE}\n</${pinned[0]![0]}>`],
    [pinned[1]![0], `<${pinned[1]![0]}>\n${FREE}\n</${pinned[1]![0]}>`],
  ]);
  // pi 1.6 itself, opening the exported file, has both pins in its system prompt.
  if (piAvailable()) {
    const pi = piPrompt(file.path)!;
    expect(pi.compactions).toBe(2);
    expect(pi.prompt).toContain(RULE);
    expect(pi.prompt).toContain(FREE);
  }

  // The next request's system prompt carries them.
  await send(page, "sixth");
  await waitIdle(page);
  const last = (await getChatRequests(key)).at(-1)!.body as Chat;
  const prompt = text(last.messages.find((m) => m.role === "system"));
  expect(prompt).toContain(RULE);
  expect(prompt).toContain(FREE);

  // Edit one pin, unpin the other: appended system messages, nothing rewritten.
  await (await revealInTopBar(page, page.getByTestId("pins-button"))).click();
  const items = dialog.getByTestId("pins-list").locator("li");
  await items.nth(1).getByRole("button", { name: "Edit" }).click();
  await items.nth(1).getByLabel("Text of pin 2").fill(`${FREE} (edited)`);
  await items.nth(1).getByRole("button", { name: "Save" }).click();
  await expect(items.nth(1)).toContainText("(edited)");
  await items.nth(0).getByRole("button", { name: "Unpin" }).click();
  await expect(items).toHaveCount(1);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("pins-button")).toHaveText("Pins (1)");
  await page.reload();
  await expect(page.getByTestId("pins-button")).toHaveText("Pins (1)", { timeout: 30_000 });
  const after = parseJsonl((await exportOpen(page)).text);
  expect(after.slice(0, entries.length)).toEqual(entries);
  const patches = after.slice(-2).map((e) => (e.message as { sections: Record<string, unknown> }).sections);
  const edited = pinned[1]![0];
  expect(patches[0]).toEqual({ [edited]: `<${edited}>\n${FREE} (edited)\n</${edited}>` });
  expect(Object.values(patches[1]!)).toEqual([null]);

  // The System prompt dialog lists the pin too.
  await page.getByTestId("agent-composer").getByRole("button", { name: "System prompt" }).click();
  await expect(page.getByTestId("prompt-pins")).toContainText(`${FREE} (edited)`);
  await expect(page.getByTestId("prompt-pins")).not.toContainText("PINNED-RULE");
  await page.locator('dialog[data-dialog="system-prompt"]').getByRole("button", { name: "Cancel" }).click();
});

test("own summary instructions: for all sessions, for this session, and what the summarizer gets", async ({
  page,
}) => {
  const key = uniqueKey("instr");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { keep: 40 });

  // For all sessions, from Settings: the terse preset.
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = settingsDialog(page);
  await expect(settings.getByTestId("summary-instructions-settings")).toContainText("Cutpoint's default");
  await settings.getByTestId("summary-instructions-settings").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/settings-summary-instructions.png` });
  await settings
    .getByTestId("summary-instructions-settings")
    .getByRole("button", { name: "View and edit…" })
    .click();
  const dlg = page.locator('dialog[data-dialog="summary-instructions"]');
  await expect(dlg.getByLabel("All sessions")).toBeChecked();
  await expect(dlg.getByLabel("This session")).toBeDisabled();
  await expect(dlg.getByRole("button", { name: "Standard" })).toHaveAttribute("aria-pressed", "true");
  await dlg.getByRole("button", { name: "Terse" }).click();
  await expect(dlg.getByTestId("si-unsaved")).toBeVisible();
  await expect(dlg.getByLabel("Summary instructions")).toHaveValue(/as briefly as the assistant can afford/);
  await dlg.getByRole("button", { name: "Save" }).click();
  await expect(dlg).toBeHidden();
  await expect(settings.getByTestId("summary-instructions-settings")).toContainText("your own instructions");
  await settings.getByRole("button", { name: "Done" }).click();

  await newSession(page);
  await turns(page, ["one", "two", "three"]);
  await compactWithModel(page, "FOCUS-ON-PORTS");
  let requests = await summaryRequests(key);
  expect(requests).toHaveLength(1);
  expect(requests[0]).toContain("as briefly as the assistant can afford");
  expect(requests[0]).toMatch(/as briefly[\s\S]*FOCUS-ON-PORTS$/);

  // This session's own: "Keep every path and command" plus a line of the person's.
  await page.getByTestId("agent-composer").getByRole("button", { name: "Summary instructions" }).click();
  await expect(dlg.getByLabel("This session")).toBeChecked();
  await expect(dlg.getByTestId("si-in-use")).toContainText("the instructions for all sessions: Terse");
  await dlg.getByRole("button", { name: "Keep every path and command" }).click();
  const editor = dlg.getByLabel("Summary instructions");
  await editor.fill(`${await editor.inputValue()}\n\nALWAYS-LIST-PORTS`);
  await expect(dlg.getByTestId("si-own")).toHaveText("Your own");
  await dlg.getByRole("button", { name: "Save" }).click();
  await expect(dlg).toBeHidden();

  await turns(page, ["four", "five"]);
  await compactWithModel(page);
  requests = await summaryRequests(key);
  expect(requests).toHaveLength(2);
  // An update: the merge request first, then the session's instructions.
  expect(requests[1]).toContain("<previous-summary>");
  expect(requests[1]).toMatch(
    /<\/previous-summary>\s+The conversation above continues[\s\S]*## Commands[\s\S]*ALWAYS-LIST-PORTS/,
  );
  // (The mock's first "summary" echoed its request: only the instructions after it count.)
  expect(requests[1]!.split("</previous-summary>").at(-1)).not.toContain("as briefly as the assistant");

  // Reload: stored. Back to the ones for all sessions, then reset those to the default.
  await page.reload();
  await page.getByTestId("agent-composer").getByRole("button", { name: "Summary instructions" }).click();
  await expect(dlg.getByTestId("si-in-use")).toContainText("this session's own: Your own");
  await expect(dlg.getByLabel("Summary instructions")).toHaveValue(/ALWAYS-LIST-PORTS$/);
  await dlg.getByRole("button", { name: "Use the ones for all sessions" }).click();
  await expect(dlg.getByTestId("si-in-use")).toContainText("the instructions for all sessions: Terse");
  await dlg.getByLabel("All sessions").check();
  await dlg.getByRole("button", { name: "Reset to default" }).click();
  await expect(dlg.getByRole("button", { name: "Standard" })).toHaveAttribute("aria-pressed", "true");
  await dlg.getByRole("button", { name: "Save" }).click();
  await page.getByTestId("agent-composer").getByRole("button", { name: "Summary instructions" }).click();
  await expect(dlg.getByTestId("si-in-use")).toContainText("Cutpoint's default: Standard");
});

test("the Pins dialog says what pi does with the pins and offers Cutpoint's pi extension", async ({
  page,
}) => {
  await page.goto("/");
  await newSession(page);
  await (await revealInTopBar(page, page.getByTestId("pins-button"))).click();
  const dialog = page.locator('dialog[data-dialog="pins"]');
  await dialog.getByLabel("Pin a new instruction").fill(FREE);
  await dialog.getByRole("button", { name: "Pin", exact: true }).click();
  await expect(dialog.getByTestId("pins-list").locator("li")).toHaveCount(1);
  const pi = dialog.getByTestId("pins-in-pi");
  await expect(pi.getByTestId("pins-without-extension")).toContainText(
    "Without Cutpoint's extension, pi 1.6 drops every pin",
  );
  await expect(pi).toContainText("~/.pi/agent/extensions/");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    pi.getByRole("link", { name: "Download the pi extension" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("cutpoint-pins.js");
  const got = readFileSync((await download.path())!, "utf8");
  expect(got).toBe(readFileSync(resolve(import.meta.dirname, "../public/pi/cutpoint-pins.js"), "utf8"));
  for (const scheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await pi.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/pins-in-pi-${width}-${scheme}.png` });
    }
  }
  // What the pin stored: the pin and pi's default tools (pi keeps its tools), no prompt section.
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole("button", { name: "Close" }).click();
  const entries = parseJsonl((await exportOpen(page)).text);
  const system = entries
    .map(
      (e) => e.message as { role?: string; sections?: object; toolsAdded?: { name: string }[] } | undefined,
    )
    .filter((m) => m?.role === "system");
  expect(system).toHaveLength(1);
  expect(Object.keys(system[0]!.sections!)).toHaveLength(1);
  expect(Object.keys(system[0]!.sections!)[0]).toMatch(/^pin-/);
  expect(system[0]!.toolsAdded!.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
});

for (const scheme of ["light", "dark"] as const) {
  for (const width of [1280, 800]) {
    test(`screenshot: pins and summary instructions dialogs, ${width} px ${scheme}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      const key = uniqueKey("pins-shot");
      await page.goto("/");
      await setUpProvider(page, key);
      await newSession(page);
      await send(page, RULE);
      await waitIdle(page);
      const app = new AppPage(page);
      const row = app.timelineRow(/PINNED-RULE/).first();
      await row.hover();
      await page.screenshot({ path: `${SHOTS}/row-pin-${width}-${scheme}.png` });
      await row.getByRole("button", { name: "Pin", exact: true }).click();
      await (await revealInTopBar(page, page.getByTestId("pins-button"))).click();
      const dialog = page.locator('dialog[data-dialog="pins"]');
      await dialog.getByLabel("Pin a new instruction").fill(`${FREE}\n${"a long line ".repeat(30)}`);
      await dialog.getByRole("button", { name: "Pin", exact: true }).click();
      await expect(dialog.getByTestId("pins-list").locator("li")).toHaveCount(2);
      await dialog
        .getByTestId("pins-list")
        .locator("li")
        .nth(1)
        .getByRole("button", { name: "Edit" })
        .click();
      await page.screenshot({ path: `${SHOTS}/pins-dialog-${width}-${scheme}.png` });
      await dialog.getByRole("button", { name: "Close" }).click();
      await page.getByTestId("agent-composer").getByRole("button", { name: "Summary instructions" }).click();
      const si = page.locator('dialog[data-dialog="summary-instructions"]');
      await si.getByRole("button", { name: "Keep every path and command" }).click();
      await page.screenshot({ path: `${SHOTS}/summary-instructions-${width}-${scheme}.png` });
    });
  }
}
