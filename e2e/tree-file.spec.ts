/**
 * The session tree on an imported branching pi session (no API key needed): the leaf restored
 * from a `leaf` entry, byte-equal export and re-import, labels and jumping to them, navigation
 * with Skip and with an offline draft, fork into a new session, export of one branch, the open
 * tree beside a composer that stays usable (a sheet when narrow), and screenshots at 1280 / 800 px
 * in light and dark.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { assistant, entry, msg, toolResult, user } from "../src/core/session/test-builders.ts";
import type { AssistantMessage } from "../src/core/session/types.ts";
import { composerInput, parseJsonl } from "./agent-helpers.ts";
import { writeSessionFile } from "./lib/session-file.ts";
import { AppPage, topBarButton } from "./pages/app-page.ts";

const SHOTS = "/tmp/tree-shots";
const reply = (content: unknown[]) => ({ ...assistant(""), content }) as AssistantMessage;

/** A v3 pi session: u1 → a1 → (u2 → a2 → r2 → a3) | (u3 → a4), a label, then a leaf entry back to a3. */
function writeSession(name: string): { path: string; text: string; id: string } {
  return writeSessionFile(`tree-${name}`, [
    msg("u1", null, user("plan the parser")),
    msg("a1", "u1", reply([{ type: "text", text: "Sure, a plan." }])),
    msg("u2", "a1", user("write tests")),
    msg(
      "a2",
      "u2",
      reply([
        { type: "toolCall", id: "c1", name: "write", arguments: { path: "src/a.test.ts", content: "x" } },
      ]),
    ),
    msg("r2", "a2", { ...toolResult("ok"), toolCallId: "c1", toolName: "write" }),
    msg("a3", "r2", reply([{ type: "text", text: "tests written" }])),
    msg("u3", "a1", user("write docs instead")),
    msg("a4", "u3", reply([{ type: "text", text: "docs written" }])),
    entry("label", "l1", "a4", { targetId: "u1", label: "origin", extra: { kept: true } }),
    entry("leaf", "L1", "l1", { targetId: "a3" }),
  ]);
}

async function downloadText(page: Page, click: () => Promise<void>): Promise<string> {
  const download = page.waitForEvent("download");
  await click();
  return readFileSync(await (await download).path(), "utf8");
}

const row = (page: Page, text: string) => new AppPage(page).timelineRow(text);
const treeRow = (page: Page, text: string | RegExp) =>
  page.getByTestId("tree-list").getByRole("option").filter({ hasText: text });

test("a branching pi session: leaf restored, export byte-equal, re-import identical", async ({ page }) => {
  const app = new AppPage(page);
  const file = writeSession("roundtrip");
  await app.goto();
  await app.importByPicker(file.path);
  await app.open("plan the parser");
  await expect(row(page, "tests written")).toBeVisible();
  await expect(row(page, "docs written")).toHaveCount(0);
  await expect(page.getByTestId("path-count")).toHaveText("6 entries on the path");

  const exported = await downloadText(page, async () => (await topBarButton(page, "Export")).click());
  expect(exported).toBe(file.text);

  // Re-import the exported file over the stored one: still byte-equal.
  const again = file.path.replace(/\.jsonl$/, "-again.jsonl");
  writeFileSync(again, exported);
  await app.importByPicker(again);
  await app.importDialog.getByRole("button", { name: /Replace/ }).click();
  await expect(row(page, "tests written")).toBeVisible();
  const twice = await downloadText(page, async () => (await topBarButton(page, "Export")).click());
  expect(twice).toBe(file.text);

  // The tree shows both branches, the label and the current leaf.
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await expect(page.getByTestId("tree-stats")).toContainText("2 branches");
  await expect(page.getByTestId("tree-list").locator('[aria-current="location"]')).toContainText(
    "tests written",
  );
  await expect(treeRow(page, "plan the parser")).toContainText("⚑ origin");
});

test("label and jump, skip the summary, offline draft, fork, export one branch; screenshots", async ({
  page,
}) => {
  const app = new AppPage(page);
  const file = writeSession("actions");
  await app.goto();
  await app.importByPicker(file.path);
  await app.open("plan the parser");

  // Label an entry from its timeline row.
  await app.labelRow("write tests", "tests-start");
  await expect(row(page, "write tests")).toContainText("tests-start");

  // Export only this branch.
  const branchText = await (async () => {
    await page.getByRole("button", { name: "Tree", exact: true }).click();
    return downloadText(page, () => page.getByRole("button", { name: "Export branch" }).click());
  })();
  const branch = parseJsonl(branchText);
  // parentSession: the file name the parent's export gets (pi-style), its id readable from it.
  expect(branch[0]).toMatchObject({ type: "session", version: 3 });
  expect(String(branch[0]!.parentSession)).toMatch(new RegExp(`^\\d{4}-.*Z_${file.id}\\.jsonl$`));
  const ids = branch.slice(1).map((e) => e.id);
  expect(ids.slice(0, 6)).toEqual(["u1", "a1", "u2", "a2", "r2", "a3"]);
  expect(ids).not.toContain("u3");

  // Jump to a label with the list, then Enter: navigating to a user message puts its text back.
  const list = page.getByTestId("tree-list");
  await list.press("End");
  await page.locator(".tree-labels").getByRole("button", { name: "⚑ tests-start" }).click();
  await expect(list.locator('[aria-selected="true"]')).toHaveAttribute("data-entry-id", "u2");
  await list.press("Enter");
  const nav = page.locator('dialog[data-dialog="navigate"]');
  await expect(nav).toBeVisible();
  await expect(nav.getByTestId("nav-ancestor")).toContainText("Sure, a plan.");
  await expect(nav.getByTestId("nav-left")).toContainText("5 entries");
  await page.screenshot({ path: `${SHOTS}/navigate-1280-light.png` });
  await nav.getByRole("button", { name: "Skip summary" }).click();
  await expect(nav).toBeHidden();
  await expect(composerInput(page)).toHaveValue("write tests");
  await expect(list.locator('[aria-current="location"]')).toContainText("Sure, a plan.");

  // Forward to the other branch: nothing is left behind, so it just moves.
  await treeRow(page, "docs written").click();
  await expect(nav.getByTestId("nav-left")).toContainText("nothing");
  await nav.getByRole("button", { name: "Move" }).click();
  await expect(list.locator('[aria-current="location"]')).toContainText("docs written");

  // Back to the tests branch with an offline draft (no key), edited, confirmed.
  await treeRow(page, "tests written").click();
  await expect(nav.getByTestId("nav-left")).toContainText("2 entries");
  await nav.getByRole("button", { name: "Write offline draft" }).click();
  const summary = nav.getByTestId("nav-summary");
  await expect(summary).toHaveValue(/offline draft/);
  await expect(summary).toHaveValue(/Asked: write docs instead/);
  await summary.fill(`${await summary.inputValue()}\nNOTE-FROM-PERSON`);
  await nav.getByRole("button", { name: "Confirm" }).click();
  await expect(nav).toBeHidden();
  await expect(list.locator('[aria-current="location"]')).toContainText("Branch summary");
  await expect(row(page, "Branch summary")).toBeVisible();
  // Its details name the branch it left (pi 1.6's fromId: the move to "docs written").
  await row(page, "Branch summary").locator("button.row-head").click();
  await expect(row(page, "Branch summary").getByTestId("branch-left")).toHaveText(
    "Summarizes the branch left at assistant “docs written”.",
  );

  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${SHOTS}/tree-${width}-${scheme}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });

  // The file: the summary is pi 1.6's (fromId = the leaf left: the move to a4), the imported
  // `leaf` entry is kept as it was, and the moves made here are cutpoint.move entries.
  const whole = parseJsonl(
    await downloadText(page, async () => (await topBarButton(page, "Export")).click()),
  );
  const bs = whole.at(-1)!;
  const moves = whole.filter((e) => e.customType === "cutpoint.move");
  expect(moves.map((e) => [e.parentId, (e.data as { targetId: string }).targetId])).toEqual([
    ["a1", "a1"],
    ["a4", "a4"],
  ]);
  expect(bs).toMatchObject({ type: "branch_summary", parentId: "a3", fromId: moves[1]!.id });
  expect(String(bs.summary)).toContain("NOTE-FROM-PERSON");
  expect(bs.details).toEqual({ readFiles: [], modifiedFiles: [] });
  expect(whole.filter((e) => e.type === "leaf").map((e) => e.targetId)).toEqual(["a3"]);

  // Fork from the labelled user message: the fork ends before it (pi's rule), with its text in
  // the composer ready to send, no "lost reply" notice, and a name of its own in the list.
  await page.locator(".tree-labels").getByRole("button", { name: "⚑ tests-start" }).click();
  await page.getByRole("button", { name: "Fork from here" }).click();
  await expect(app.toast("Forked into a new session, “Fork of plan the parser”")).toBeVisible();
  await expect(app.title).toHaveText("Fork of plan the parser");
  await expect(app.item("Fork of plan the parser")).toHaveCount(1);
  await expect(app.item("plan the parser")).toHaveCount(2);
  await expect(composerInput(page)).toHaveValue("write tests");
  await expect(composerInput(page)).toBeFocused();
  await expect(page.getByTestId("reply-missing")).toHaveCount(0);
  await expect(row(page, "Sure, a plan.")).toBeVisible();
  await expect(row(page, "write tests")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/fork-user-message-1280.png` });
  const fork = parseJsonl(await downloadText(page, async () => (await topBarButton(page, "Export")).click()));
  expect(String(fork[0]!.parentSession)).toMatch(new RegExp(`Z_${file.id}\\.jsonl$`));
  expect(fork[0]!.id).not.toBe(file.id);
  expect(fork.slice(1, 3).map((e) => e.id)).toEqual(["u1", "a1"]);
  // The name is pi's session_info entry after a1; the labels re-created after it, then a move back
  // to it: pi opens the fork there too, under that name.
  const info = fork[3]!;
  expect(info).toMatchObject({ type: "session_info", parentId: "a1", name: "Fork of plan the parser" });
  expect(fork.at(-1)).toMatchObject({ customType: "cutpoint.move", data: { targetId: info.id } });
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await expect(page.getByTestId("tree-list").locator('[data-entry-id="u1"]')).toContainText("⚑ origin");
  await expect(treeRow(page, "write tests")).toHaveCount(0);
  await expect(page.getByTestId("tree-list").locator('[aria-current="location"]')).toHaveText(
    /Fork of plan the parser/,
  );
  await page.getByRole("button", { name: "Close the tree" }).click();

  // The fork names its parent, which is in this browser: a link back to it.
  const parent = page.getByTestId("fork-parent");
  await expect(parent).toContainText("Forked from “plan the parser”");
  await page.screenshot({ path: `${SHOTS}/fork-parent-1280.png` });
  await parent.getByRole("button").click();
  await expect(page.getByTestId("path-count")).toHaveText("7 entries on the path");
  await expect(page.getByTestId("fork-parent")).toHaveCount(0);

  // F in the tree on a reply forks there (the reply included); a second fork of the same session
  // is numbered, and nothing goes into its composer.
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await treeRow(page, "tests written").click();
  await nav.getByRole("button", { name: "Cancel" }).click();
  await page.getByTestId("tree-list").press("f");
  await expect(app.title).toHaveText("Fork of plan the parser (2)");
  await expect(app.item(/^Fork of plan the parser/)).toHaveCount(2);
  await expect(row(page, "tests written")).toBeVisible();
  await expect(composerInput(page)).toHaveValue("");
  await expect(page.getByTestId("reply-missing")).toHaveCount(0);
});

test("a long label is cut with its whole text in a tooltip: the row's text stays readable, in the timeline and the tree", async ({
  page,
}) => {
  const app = new AppPage(page);
  const file = writeSession("long-label");
  await app.goto();
  await app.importByPicker(file.path);
  await app.open("plan the parser");
  const long = "my important label with a long name that keeps going and going and going to the end";
  await app.labelRow("write tests", long);
  const timelineRow = row(page, "write tests");
  await expect(timelineRow.locator(".row-label")).toHaveAttribute("title", long);
  const excerptWidth = (el: Element) => el.getBoundingClientRect().width;
  expect(await timelineRow.locator(".row-excerpt").first().evaluate(excerptWidth)).toBeGreaterThan(60);

  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const treeRow = page.getByTestId("tree-list").locator('[data-entry-id="u2"]');
  await expect(treeRow.locator(".tree-label")).toHaveAttribute("title", long);
  expect(await treeRow.locator(".tree-excerpt").evaluate(excerptWidth)).toBeGreaterThan(40);
  expect(await treeRow.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  // Escape closes the tree and gives the focus back to its button.
  await page.getByTestId("tree-list").press("Escape");
  await expect(page.getByTestId("tree-panel")).toBeHidden();
  await expect(page.getByRole("button", { name: "Tree", exact: true })).toBeFocused();
});

/** Whether the centre and both ends of `el` are what a click there reaches (nothing lies over it). */
async function reachable(el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const y = r.top + r.height / 2;
    return [r.left + 4, r.left + r.width / 2, r.right - 4].every((x) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (node === hit || node.contains(hit));
    });
  });
}

test("the open tree sits above the composer, which stays usable at 1280 and 1600 px; narrow, it is a sheet that closes", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await app.openExample();
  const tree = page.getByTestId("tree-panel");
  const treeButton = page.getByRole("button", { name: "Tree", exact: true });
  const input = composerInput(page);
  const sendButton = page.getByRole("button", { name: "Send", exact: true });
  for (const width of [1600, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.keyboard.press("Alt+t");
    await expect(tree).toBeVisible();
    await expect(input).toBeVisible();
    const treeBottom = await tree.evaluate((el) => el.getBoundingClientRect().bottom);
    const composerTop = await page.locator(".composer-area").evaluate((el) => el.getBoundingClientRect().top);
    expect(treeBottom).toBeLessThanOrEqual(composerTop + 0.5);
    expect(await reachable(input)).toBe(true);
    expect(await reachable(sendButton)).toBe(true);
    await input.click();
    await input.fill("");
    await page.keyboard.type(`typed with the tree open at ${width}`);
    await expect(input).toHaveValue(`typed with the tree open at ${width}`);
    await expect(tree).toBeVisible();
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${SHOTS}/tree-over-composer-${width}-${scheme}.png` });
    }
    await page.emulateMedia({ colorScheme: "light" });
    await treeButton.click();
    await expect(tree).toBeHidden();
  }
  // Narrow: Tree is in the top bar's ⋯ menu, and the tree is a sheet over the view; its ✕ and
  // Escape close it, the focus goes back to ⋯ (the Tree button is in the closed menu) and the
  // composer, uncovered, still holds what was typed.
  await page.setViewportSize({ width: 390, height: 844 });
  const more = page.getByTestId("topbar-more");
  await expect(treeButton).toBeHidden();
  await (await topBarButton(page, "Tree")).click();
  await expect(tree).toBeVisible();
  await expect(more).toHaveAttribute("aria-expanded", "false");
  expect(await reachable(input)).toBe(false);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/tree-sheet-390-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await tree.getByRole("button", { name: "Close the tree" }).click();
  await expect(tree).toBeHidden();
  await expect(more).toBeFocused();
  await expect(input).toHaveValue("typed with the tree open at 1280");
  expect(await reachable(input)).toBe(true);
  await more.press("Alt+t");
  await expect(tree).toBeVisible();
  await page.getByTestId("tree-list").press("Escape");
  await expect(tree).toBeHidden();
  await expect(more).toBeFocused();
  expect(await reachable(input)).toBe(true);
  await page.screenshot({ path: `${SHOTS}/tree-sheet-390-closed.png` });
});
