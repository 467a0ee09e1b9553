/**
 * Every way of moving the leaf from the timeline offers the branch summary like the tree panel
 * does (issue #6): the branch switcher "‹ 2 / 3 ›", "Edit and resend" and "Continue from here"
 * open the same preview when the move leaves messages behind. Cancel (button or Escape) moves
 * nothing and writes nothing, Skip only moves (a move entry), Confirm writes a `branch_summary`
 * that the next model request carries. A move that leaves only bookkeeping behind just moves.
 * Focus: back on the control after Cancel, on the new row's switcher after a switch, in the
 * composer after "Edit and resend"; never taken back from where the person put it while the move
 * was written (the tree opened meanwhile). A preview drawn before another tab moved the leaf says so and
 * writes nothing.
 */
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { assistant, msg, user } from "../src/core/session/test-builders.ts";
import { composerInput, newSession, parseJsonl, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { writeSessionFile } from "./lib/session-file.ts";
import { getChatRequests, scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage, topBarButton } from "./pages/app-page.ts";

const SHOTS = "/tmp/tree-shots";
const reply = assistant;

/** u1 → a1 → (u2 → a2 → u4 → a5) | (u3 → a4); the leaf is a5 (no API key: offline drafts). */
function writeSession(name: string): { path: string; text: string } {
  return writeSessionFile(`moves-${name}`, [
    msg("u1", null, user("plan the parser")),
    msg("a1", "u1", reply("Sure, a plan.")),
    msg("u2", "a1", user("write tests")),
    msg("a2", "u2", reply("tests written")),
    msg("u3", "a1", user("write docs instead")),
    msg("a4", "u3", reply("docs written")),
    msg("u4", "a2", user("and run them")),
    msg("a5", "u4", reply("all green")),
  ]);
}

const row = (page: Page, text: string) => new AppPage(page).timelineRow(text);
/** The move entry pi 1.6 sees as the new position: a `custom` entry under its target. */
const moveTo = (targetId: string, fromId?: string) => ({
  type: "custom",
  customType: "cutpoint.move",
  parentId: targetId,
  data: fromId === undefined ? { targetId } : { targetId, fromId },
});
const navDialog = (page: Page) => page.locator('dialog[data-dialog="navigate"]');

async function exported(page: Page): Promise<Record<string, unknown>[]> {
  const download = page.waitForEvent("download");
  await (await topBarButton(page, "Export")).click();
  return parseJsonl(readFileSync(await (await download).path(), "utf8"));
}

async function openImported(page: Page, name: string): Promise<void> {
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(writeSession(name).path);
  await app.open("plan the parser");
  await expect(row(page, "all green")).toBeVisible();
}

test("branch switcher: Escape cancels, Skip switches, Confirm writes the summary; keyboard and focus", async ({
  page,
}) => {
  await openImported(page, "switch");
  const nav = navDialog(page);
  const next = row(page, "write tests").getByRole("button", { name: "Next branch" });
  await expect(row(page, "write tests").getByTestId("branch-position")).toHaveText("1 / 2");

  // Keyboard: focus the switcher, Enter opens the preview of the branch being left.
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("heading")).toHaveText("Switch to another branch");
  await expect(nav.getByTestId("nav-target")).toContainText("docs written");
  await expect(nav.getByTestId("nav-ancestor")).toContainText("Sure, a plan.");
  await expect(nav.getByTestId("nav-left")).toContainText("4 entries");
  // Focus starts on the offer itself (the summary), Skip and Cancel are a Tab or Escape away.
  await expect(nav.getByRole("button", { name: "Write offline draft" })).toBeFocused();

  // Screenshots of the dialog opened from the switcher, at 1280 and 800 px.
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `${SHOTS}/switch-dialog-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Escape cancels: nothing moved, nothing written, focus back on the switcher button.
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(next).toBeFocused();
  await expect(row(page, "all green")).toBeVisible();
  await expect(row(page, "docs written")).toHaveCount(0);
  expect((await exported(page)).length).toBe(9);

  // Skip: the leaf goes to the other branch's tip with a move entry only.
  await next.click();
  await nav.getByRole("button", { name: "Skip summary" }).click();
  await expect(nav).toBeHidden();
  await expect(row(page, "docs written")).toBeVisible();
  await expect(row(page, "all green")).toHaveCount(0);
  const docsRow = row(page, "write docs instead");
  await expect(docsRow.getByTestId("branch-position")).toHaveText("2 / 2");
  // "Next" is disabled on the last branch: focus lands on the enabled "Previous" of the new row.
  await expect(docsRow.getByRole("button", { name: "Previous branch" })).toBeFocused();
  // Back with Enter on the focused button, an offline draft (no key), edited and confirmed.
  await page.keyboard.press("Enter");
  await expect(nav.getByTestId("nav-left")).toContainText("2 entries");
  await nav.getByRole("button", { name: "Write offline draft" }).click();
  const summary = nav.getByTestId("nav-summary");
  await expect(summary).toHaveValue(/Asked: write docs instead/);
  await summary.fill(`${await summary.inputValue()}\nSWITCH-NOTE`);
  await nav.getByRole("button", { name: "Confirm" }).click();
  await expect(nav).toBeHidden();
  await expect(row(page, "all green")).toBeVisible();
  await expect(row(page, "Branch summary")).toBeVisible();
  await expect(row(page, "write tests").getByRole("button", { name: "Next branch" })).toBeFocused();
  // The file: Skip wrote a move entry only, Confirm the summary as pi 1.6 does (fromId = the leaf left).
  const lines = await exported(page);
  expect(lines.length).toBe(11);
  expect(lines.at(-2)).toMatchObject(moveTo("a4", "a5"));
  const bs = lines.at(-1)!;
  expect(bs).toMatchObject({ type: "branch_summary", parentId: "a5", fromId: lines.at(-2)!.id });
  expect(String(bs.summary)).toContain("SWITCH-NOTE");
  expect(String(bs.summary)).toContain("write docs instead");
});

/**
 * Holds every write to the app's database until `release` (a readwrite transaction over its
 * stores, kept open by one request after another): the app's own writes wait behind it.
 */
async function holdWrites(page: Page): Promise<{ release: () => Promise<void> }> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open("cutpoint");
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const conn = req.result;
          const tx = conn.transaction(Array.from(conn.objectStoreNames), "readwrite");
          const store = tx.objectStore("sessions");
          const w = window as unknown as { __held?: boolean };
          w.__held = true;
          const spin = () => {
            if (w.__held) store.count().onsuccess = spin;
          };
          spin();
          tx.oncomplete = () => conn.close();
          resolve();
        };
      }),
  );
  return {
    release: () =>
      page.evaluate(() => {
        (window as unknown as { __held?: boolean }).__held = false;
      }),
  };
}

test("focus given while a move is being written stays there: the move does not take it back", async ({
  page,
}) => {
  await openImported(page, "late-focus");
  const nav = navDialog(page);
  await row(page, "write tests").getByRole("button", { name: "Next branch" }).click();
  await expect(nav.getByRole("button", { name: "Skip summary" })).toBeVisible();
  const held = await holdWrites(page);
  await nav.getByRole("button", { name: "Skip summary" }).click();
  // Shown at once, written later: the person opens the tree meanwhile.
  await expect(row(page, "docs written")).toBeVisible();
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const tree = page.getByTestId("tree-list");
  await expect(tree).toBeFocused();
  await held.release();
  await expect(page.getByText("Switched branch.")).toBeVisible();
  // The move's own focus (the new row's switcher) would land within a frame or two of its write.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let n = 0;
        const frame = () => (++n >= 10 ? resolve() : requestAnimationFrame(frame));
        requestAnimationFrame(frame);
      }),
  );
  await expect(tree).toBeFocused({ timeout: 100 });
  // Stored: the move entry only.
  expect((await exported(page)).at(-1)).toMatchObject(moveTo("a4", "a5"));
});

test("edit and resend: Cancel keeps the leaf and the composer empty; Confirm then the text to edit", async ({
  page,
}) => {
  await openImported(page, "edit");
  const nav = navDialog(page);
  const tests = row(page, "write tests");

  await tests.hover();
  await tests.getByRole("button", { name: "Edit and resend" }).click();
  await expect(nav.getByRole("heading")).toHaveText("Edit and resend");
  await expect(nav).toContainText("Before that message");
  await expect(nav.getByTestId("nav-left")).toContainText("4 entries");
  await nav.getByRole("button", { name: "Cancel" }).click();
  await expect(nav).toBeHidden();
  await expect(tests.getByRole("button", { name: "Edit and resend" })).toBeFocused();
  await expect(composerInput(page)).toHaveValue("");
  await expect(row(page, "all green")).toBeVisible();
  expect((await exported(page)).length).toBe(9);

  // By keyboard: Tab from the row's head reaches its toolbar (mounted on focus), Enter opens it.
  // (The pointer rests on another row first: the toolbar follows the last row hovered or focused.)
  await row(page, "all green").hover();
  await expect(tests.getByRole("button", { name: "Edit and resend" })).toHaveCount(0);
  await page.locator('button.row-head[data-entry-id="u2"]').focus();
  await page.keyboard.press("Tab");
  await expect(tests.getByRole("button", { name: "Edit and resend" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(nav.getByRole("heading")).toHaveText("Edit and resend");
  await nav.getByRole("button", { name: "Write offline draft" }).click();
  await expect(nav.getByTestId("nav-summary")).toHaveValue(/Asked: and run them/);
  await nav.getByRole("button", { name: "Confirm" }).click();
  await expect(nav).toBeHidden();
  await expect(composerInput(page)).toHaveValue("write tests");
  await expect(composerInput(page)).toBeFocused();
  await expect(page.getByTestId("path-count")).toHaveText("3 entries on the path");
  await expect(row(page, "Branch summary")).toBeVisible();
  const bs = (await exported(page)).at(-1)!;
  expect(bs).toMatchObject({ type: "branch_summary", parentId: "a1", fromId: "a5" });
});

test("continue from here: Skip moves without a summary; only a label left behind just moves", async ({
  page,
}) => {
  await openImported(page, "continue");
  const nav = navDialog(page);

  // Label the leaf's reply: the label entry becomes the leaf.
  const green = row(page, "all green");
  await new AppPage(page).labelRow("all green", "done");

  // Continuing from that reply leaves only the label behind: no preview, a move entry.
  await green.hover();
  await green.getByRole("button", { name: "Continue from here" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Continuing from here" })).toBeVisible();
  await expect(nav).toBeHidden();
  let lines = await exported(page);
  expect(lines.at(-1)).toMatchObject(moveTo("a5", lines.at(-2)!.id as string));
  expect(lines.at(-2)).toMatchObject({ type: "label", targetId: "a5" });

  // Continue from an earlier reply: preview; Escape moves nothing, focus back on the button.
  const plan = row(page, "Sure, a plan.");
  await plan.hover();
  const cont = plan.getByRole("button", { name: "Continue from here" });
  await cont.click();
  await expect(nav.getByRole("heading")).toHaveText("Continue from here");
  await expect(nav).toContainText("At that entry");
  await expect(nav.getByTestId("nav-left")).toContainText("4 entries");
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(cont).toBeFocused();
  expect((await exported(page)).length).toBe(lines.length);

  // Skip: the leaf is the reply, a move entry and no summary; focus on the row.
  await plan.hover();
  await cont.click();
  await nav.getByRole("button", { name: "Skip summary" }).click();
  await expect(nav).toBeHidden();
  await expect(page.getByTestId("path-count")).toHaveText("2 entries on the path");
  await expect(page.locator('button.row-head[data-entry-id="a1"]')).toBeFocused();
  lines = await exported(page);
  expect(lines.at(-1)).toMatchObject(moveTo("a1", lines.at(-2)!.id as string));
  expect(lines.some((l) => l.type === "branch_summary")).toBe(false);
});

test("continue from here with a streamed summary: the next model request carries it", async ({ page }) => {
  const key = uniqueKey("tree-moves");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [
    { text: "Answer one" },
    { text: "Answer two" },
    { text: ["CONTINUE-", "SUMMARY"] },
    { text: "Answer three" },
    { text: Array.from({ length: 40 }, (_, i) => `slow${i} `), delayMs: 100 },
  ]);
  await send(page, "first question");
  await waitIdle(page);
  await send(page, "second question");
  await waitIdle(page);

  const one = row(page, "Answer one");
  await one.hover();
  await one.getByRole("button", { name: "Continue from here" }).click();
  const nav = navDialog(page);
  await expect(nav.getByTestId("nav-left")).toContainText("2 entries");
  await nav.getByRole("button", { name: "Generate summary" }).click();
  await expect(nav.getByTestId("nav-summary")).toHaveValue(/CONTINUE-SUMMARY/);
  await nav.getByRole("button", { name: "Confirm" }).click();
  await expect(nav).toBeHidden();
  await expect(row(page, "Answer two")).toHaveCount(0);

  await send(page, "third question");
  await waitIdle(page);
  await expect(row(page, "Answer three")).toBeVisible();
  const requests = await getChatRequests(key);
  // The summary request saw the branch being left; the next turn sees the summary instead.
  expect(JSON.stringify(requests.at(-2)?.body)).toContain("second question");
  const last = JSON.stringify(requests.at(-1)?.body);
  expect(last).toContain("CONTINUE-SUMMARY");
  expect(last).toContain("Answer one");
  expect(last).not.toContain("Answer two");
  const bs = (await exported(page)).find((l) => l.type === "branch_summary")!;
  expect(String(bs.summary)).toContain("CONTINUE-SUMMARY");

  // During a run the leaf does not move (the run would put it back): a plain message, no preview.
  await send(page, "fourth question");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await one.hover();
  await one.getByRole("button", { name: "Continue from here" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Wait for the run to finish" })).toBeVisible();
  await expect(nav).toBeHidden();
  await waitIdle(page);
  await expect(row(page, "slow0")).toBeVisible();
  const after = await exported(page);
  expect(after.filter((l) => l.type === "leaf" || l.customType === "cutpoint.move")).toEqual([]);
});

test("don't ask again: later moves just move until Settings → Compaction turns the offer back on", async ({
  page,
}) => {
  await openImported(page, "dont-ask");
  const nav = navDialog(page);
  await row(page, "write tests").getByRole("button", { name: "Next branch" }).click();
  await nav.getByLabel("Don’t ask again").check();
  await expect(nav.locator(".nav-dont-ask")).toContainText("Settings → Compaction turns it back on");
  await nav.getByRole("button", { name: "Skip summary" }).click();
  await expect(nav).toBeHidden();
  await expect(page.getByTestId("toast").filter({ hasText: "no longer offers a summary" })).toBeVisible();
  await expect(row(page, "docs written")).toBeVisible();

  // The switcher now just switches back: a move entry, no preview.
  await row(page, "write docs instead").getByRole("button", { name: "Previous branch" }).click();
  await expect(row(page, "all green")).toBeVisible();
  await expect(nav).toBeHidden();
  const lines = await exported(page);
  expect(lines.at(-2)).toMatchObject(moveTo("a4", "a5"));
  expect(lines.at(-1)).toMatchObject(moveTo("a5", lines.at(-2)!.id as string));

  // Settings → Compaction shows it and turns it back on.
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.locator('dialog[data-dialog="settings"]');
  const form = settings.getByTestId("compaction-settings");
  await expect(form.locator("input[type=radio][value=branch-never]")).toBeChecked();
  await form.locator("input[type=radio][value=branch-never]").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/settings-branch-summary.png` });
  await form.locator("input[type=radio][value=branch-ask]").click();
  await expect(form.locator("input[type=radio][value=branch-ask]")).toBeChecked();
  await settings.getByRole("button", { name: "Done" }).click();
  await row(page, "write tests").getByRole("button", { name: "Next branch" }).click();
  await expect(nav.getByTestId("nav-left")).toContainText("4 entries");
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
});

test("a move made in another tab: this tab's stale preview says so and writes nothing; the list of entries opens", async ({
  context,
}) => {
  const a = await context.newPage();
  await openImported(a, "two-tabs");
  const nav = navDialog(a);
  await row(a, "write tests").getByRole("button", { name: "Next branch" }).click();
  // The entries the summary would cover, listed when asked for.
  const list = nav.locator("details.nav-entries");
  await expect(list.locator("summary")).toHaveText("Entries to summarize (4)");
  await expect(list.locator("li")).toHaveCount(0);
  await list.locator("summary").click();
  await expect(list.locator("li")).toHaveText([/write tests/, /tests written/, /and run them/, /all green/]);
  await nav.getByRole("button", { name: "Write offline draft" }).click();
  await expect(nav.getByTestId("nav-summary")).toHaveValue(/Asked: write tests/);

  // Meanwhile a second tab on the same session continues from the first reply.
  const b = await context.newPage();
  await b.goto(a.url());
  const plan = row(b, "Sure, a plan.");
  await plan.hover();
  await plan.getByRole("button", { name: "Continue from here" }).click();
  await navDialog(b).getByRole("button", { name: "Skip summary" }).click();
  await expect(b.getByTestId("path-count")).toHaveText("2 entries on the path");

  // Tab A's preview, planned on the old leaf, sees the change: Skip and Confirm are off, text kept.
  await expect(nav.getByTestId("nav-stale")).toContainText("The session changed since this preview opened");
  await expect(nav.getByRole("button", { name: "Confirm" })).toBeDisabled();
  await expect(nav.getByRole("button", { name: "Skip summary" })).toBeDisabled();
  await expect(nav.getByTestId("nav-summary")).toHaveValue(/Asked: write tests/);
  await a.screenshot({ path: `${SHOTS}/switch-dialog-stale.png` });
  await nav.getByRole("button", { name: "Cancel" }).click();
  await expect(nav).toBeHidden();
  // Tab A now shows where tab B put the leaf, and the file has B's move only.
  await expect(a.getByTestId("path-count")).toHaveText("2 entries on the path");
  const lines = await exported(a);
  expect(lines.length).toBe(10);
  expect(lines.at(-1)).toMatchObject(moveTo("a1", "a5"));
  expect(lines.some((l) => l.type === "branch_summary")).toBe(false);
});

test("a move is shown at once; when its write fails it is taken back, says so, and nothing is stored", async ({
  page,
}) => {
  await openImported(page, "write-fails");
  const nav = navDialog(page);
  // The next IndexedDB write fails as a full disk would (the app cannot tell this from the real thing).
  await page.evaluate(() => {
    const add = IDBObjectStore.prototype.add;
    IDBObjectStore.prototype.add = () => {
      IDBObjectStore.prototype.add = add;
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
  });
  await row(page, "write tests").getByRole("button", { name: "Next branch" }).click();
  await nav.getByRole("button", { name: "Skip summary" }).click();
  await expect(nav).toBeHidden();
  await expect(page.getByTestId("toast").filter({ hasText: "Nothing moved." })).toContainText(/storage/i);
  // The path is the one stored: the first branch, its tip the leaf.
  await expect(row(page, "all green")).toBeVisible();
  await expect(row(page, "docs written")).toHaveCount(0);
  await expect(row(page, "write tests").getByTestId("branch-position")).toHaveText("1 / 2");
  expect((await exported(page)).length).toBe(9);
  // The next move (the write works again) goes through as usual.
  await row(page, "write tests").getByRole("button", { name: "Next branch" }).click();
  await nav.getByRole("button", { name: "Skip summary" }).click();
  await expect(row(page, "docs written")).toBeVisible();
  // Shown at once; stored when the toast says it moved (a reload before that loses the move).
  await expect(page.getByTestId("toast").filter({ hasText: "Switched branch." })).toBeVisible();
  await page.reload();
  await expect(row(page, "docs written")).toBeVisible();
  const lines = await exported(page);
  expect(lines.length).toBe(10);
  expect(lines.at(-1)).toMatchObject(moveTo("a4", "a5"));
});
