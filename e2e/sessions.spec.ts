/**
 * Sessions as a person handles them: opening the example, a reload straight into it, the end kept
 * in view when the view's height changes, rename, a new session, delete with Undo across a reload
 * and the purge after it, keyboard only, and a 9k-entry timeline with few DOM rows.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { msg, user } from "../src/core/session/test-builders.ts";
import { UNDO_WINDOW_MS } from "../src/services/session/sessions-service.ts";
import { generateBigSession } from "./bench/lib/big-session.ts";
import { writeSessionFile } from "./lib/session-file.ts";
import { storedRows } from "./lib/stored-rows.ts";
import { AppPage, IMPORT_TIMEOUT, topBarButton } from "./pages/app-page.ts";

/** Imports of the real session are slow on a busy 2-core machine. */
// Three times the slowest of these on a loaded 2-core machine (about 28 s): a hang costs 90 s, not 3 min.
test.describe.configure({ timeout: 90_000 });

const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi/before-compaction.jsonl");

test("welcome, then the example session loads with its name, compaction and label", async ({ page }) => {
  const app = new AppPage(page);
  await app.goto();
  await expect(page.getByRole("heading", { name: "Welcome to Cutpoint" })).toBeVisible();
  await page.getByRole("button", { name: "Open the example session" }).click();
  await expect(app.title).toHaveText("tally: --json flag and exact cents");
  await expect.poll(() => app.entryCountOf("tally: --json flag"), { timeout: IMPORT_TIMEOUT }).toBe("55");
  await app.goToLastCompaction();
  const compaction = app.compactionRows().first();
  await compaction.getByRole("button", { expanded: false }).click();
  await expect(compaction).toContainText("Files modified (5)");
  await expect(compaction).toContainText("Key Decisions");
  // "kept from …" scrolls to the first kept entry and focuses it.
  await compaction.getByRole("button", { name: /^kept from “Nice\. One problem/ }).click();
  await expect(page.locator("li.flash")).toContainText("Nice. One problem");
  await expect(page.locator("li.flash")).toHaveClass(/\bin\b/);
  await expect(page.locator("li.out").first()).toBeAttached();
  await expect(app.timeline.locator(".row-label", { hasText: "--json works" })).toHaveCount(1);
});

test("a reload opens the session in the URL straight away: the welcome view is never put on the page", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await app.openExample();
  await expect(page).toHaveURL(/#\/s\//);
  // From the first script on, anything that puts the welcome view (or an empty main area) on the page.
  await page.addInitScript(() => {
    const w = window as unknown as { __welcomeSeen: boolean };
    w.__welcomeSeen = false;
    new MutationObserver(() => {
      if (document.querySelector(".welcome")) w.__welcomeSeen = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  await expect(app.title).toHaveText("tally: --json flag and exact cents");
  await expect(app.timeline.locator("li").first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __welcomeSeen: boolean }).__welcomeSeen)).toBe(
    false,
  );
});

/** The example session opened, its timeline at the end; `gap`: the pixels below the view's bottom. */
async function exampleAtEnd(page: Page) {
  const app = new AppPage(page);
  await app.goto();
  await app.openExample();
  const last = app.timelineRows.last();
  await expect(last).toBeInViewport();
  const scroller = page.locator(".timeline-scroll");
  const gap = () => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  await expect.poll(gap).toBeLessThan(2);
  return { app, last, scroller, gap };
}

test("at the end, the timeline stays at the end when its own height changes (the window, a bar)", async ({
  page,
}) => {
  const { app, last, scroller, gap } = await exampleAtEnd(page);
  // Shorter by a few rows, then by less than one: nothing is scrolled, the view keeps its end.
  for (const height of [560, 530]) {
    await page.setViewportSize({ width: 1280, height });
    await expect(last).toBeInViewport({ ratio: 1 });
    await expect.poll(gap).toBeLessThan(2);
  }
  // Scrolled up by the person, a change of height leaves it where it is.
  await scroller.evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(app.timelineRows.first()).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(0);
  await expect(app.timelineRows.first()).toBeInViewport();
});

test("at the end, the timeline stays at the end when the window gets narrower and its rows wrap again", async ({
  page,
}) => {
  const { last, scroller, gap } = await exampleAtEnd(page);
  const listHeight = () =>
    page.locator(".timeline-inner").evaluate((el) => el.getBoundingClientRect().height);
  const wide = await listHeight();
  for (const size of [
    { width: 800, height: 480 },
    { width: 560, height: 480 },
  ]) {
    await page.setViewportSize(size);
    await expect(last).toBeInViewport({ ratio: 1 });
    await expect.poll(gap).toBeLessThan(2);
    // Still there once every row in view has been measured again at the new width.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await expect.poll(gap).toBeLessThan(2);
  }
  // The rows in view did wrap: the list is taller than at 1280 px.
  expect(await listHeight()).toBeGreaterThan(wide);
  // A row the person expands at the end grows the list below: that is not followed.
  const top = await scroller.evaluate((el) => el.scrollTop);
  await last.locator("button.row-head").click();
  await expect(last.locator(".row-detail").first()).toBeVisible();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(top);
  expect(await gap()).toBeGreaterThan(2);
  // Wider again: the end comes back into view (the expanded row's last pixel row may be cut by
  // the rounding of row heights).
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect.poll(gap).toBeLessThan(2);
  await expect(last).toBeInViewport({ ratio: 0.99 });
});

test("rename appends a session_info entry; new empty session; delete asks, then undo restores", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "Open the example session" }).click();
  await expect.poll(() => app.entryCountOf("tally"), { timeout: IMPORT_TIMEOUT }).toBe("55");

  // Saving the name unchanged (or with spaces around it) appends nothing.
  const rename = page.locator('dialog[data-dialog="rename"]');
  await (await topBarButton(page, "Rename")).click();
  const current = await rename.getByRole("textbox").inputValue();
  expect(current).toMatch(/^tally/);
  await rename.getByRole("textbox").fill(`  ${current} `);
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  await expect(app.title).toHaveText(current);
  await expect.poll(() => app.entryCountOf("tally"), { timeout: IMPORT_TIMEOUT }).toBe("55");

  await (await topBarButton(page, "Rename")).click();
  await rename.getByRole("textbox").fill("Renamed example");
  await rename.getByRole("textbox").press("Enter");
  await expect(app.title).toHaveText("Renamed example");
  await expect.poll(() => app.entryCountOf("Renamed example"), { timeout: IMPORT_TIMEOUT }).toBe("56");
  await expect(app.timelineRows.last()).toContainText("Renamed example");

  // The example again, twice (the first was renamed): the second copy is named apart from the
  // first ("… (2)"), a session_info entry after the example's last, so its export says so too.
  const sidebar = page.locator("#sidebar");
  await sidebar.getByRole("button", { name: "Example session" }).click();
  await expect(app.title).toHaveText(current);
  await sidebar.getByRole("button", { name: "Example session" }).click();
  await expect(app.title).toHaveText(`${current} (2)`);
  const names = await app.sessionItems.locator(".session-name").allTextContents();
  expect(names.sort()).toEqual(["Renamed example", current, `${current} (2)`]);
  const copy = (await readFile(await (await app.exportOpen()).path(), "utf8")).trim().split("\n");
  expect(copy).toHaveLength(57); // the header, the example's 55 entries and the name
  expect(JSON.parse(copy.at(-1)!)).toMatchObject({ type: "session_info", name: `${current} (2)` });
  for (const name of [`${current} (2)`, current]) {
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    await page.locator('dialog[data-dialog="delete"]').getByRole("button", { name: "Delete" }).click();
    await expect(app.item(name)).toHaveCount(0);
  }
  await app.open("Renamed example");

  await page.getByRole("button", { name: "+ New" }).click();
  await expect(page.getByText("This session has no entries yet.")).toBeVisible();
  await expect(app.sessionItems).toHaveCount(2);
  await expect(app.item("Untitled session")).toContainText("0 entries");
  // A session with no name: Save with the field left empty appends nothing either.
  await (await topBarButton(page, "Rename")).click();
  await expect(rename.getByRole("textbox")).toHaveValue("");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(rename).toBeHidden();
  await expect(app.item("Untitled session")).toContainText("0 entries");

  await page.getByRole("button", { name: "Delete Renamed example" }).click();
  const confirm = page.locator('dialog[data-dialog="delete"]');
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Keep it" }).click();
  await expect(app.sessionItems).toHaveCount(2);
  await page.getByRole("button", { name: "Delete Renamed example" }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(app.sessionItems).toHaveCount(1);
  // The focus goes to the session now in its place, not lost.
  await expect(app.sessionItems.first().locator("button.session-open")).toBeFocused();
  await app
    .toast(/Deleted “Renamed example”/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(app.item("Renamed example")).toHaveCount(1);
  await expect(app.title).toHaveText("Renamed example");
});

/**
 * Opens the example session and deletes it; returns what its timeline showed: the path's count
 * and the text of its last row (the DOM row count of a virtualized list is no measure of it: it
 * changes as the rows are measured).
 */
async function deleteExample(app: AppPage): Promise<{ count: string; last: string }> {
  await app.goto();
  await app.page.getByRole("button", { name: "Open the example session" }).click();
  await expect.poll(() => app.entryCountOf("tally"), { timeout: IMPORT_TIMEOUT }).toBe("55");
  const count = (await app.page.getByTestId("path-count").textContent()) ?? "";
  expect(count).toMatch(/^\d+ entries on the path$/);
  const last = (await app.timelineRows.last().locator(".row-excerpt").textContent()) ?? "";
  expect(last).not.toBe("");
  // Once open, its token counts are stored with it (for the next open).
  await expect.poll(() => storedRows(app.page, ["chunkTokens"])).toBeGreaterThan(0);
  await app.page.getByRole("button", { name: /^Delete tally/ }).click();
  await app.page.locator('dialog[data-dialog="delete"]').getByRole("button", { name: "Delete" }).click();
  await expect(app.sessionItems).toHaveCount(0);
  // The delete is done in the page when the URL no longer names the session (it is closed, and
  // its Undo offered, after the write: the list is empty as soon as the write commits). A reload
  // before that opens the deleted session from the URL ("This session no longer exists.").
  await expect(app.page).not.toHaveURL(/#\/s\//);
  return { count, last };
}

test("delete, reload within the undo window: Undo is still offered and brings the session back whole", async ({
  page,
}) => {
  // A fake clock (time still flows; kept across reloads) lets the test jump past the undo window.
  await page.clock.install();
  const app = new AppPage(page);
  const shown = await deleteExample(app);
  await expect(app.toast(/Deleted “tally/)).toBeVisible();

  await page.reload();
  await expect(page.getByRole("heading", { name: "Welcome to Cutpoint" })).toBeVisible();
  await expect(app.sessionItems).toHaveCount(0);
  await app
    .toast(/Deleted “tally/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(app.item("tally")).toHaveCount(1);
  await expect.poll(() => app.entryCountOf("tally"), { timeout: IMPORT_TIMEOUT }).toBe("55");
  await expect(app.title).toHaveText("tally: --json flag and exact cents");
  // Whole again: the same path, and its end in view.
  await expect(page.getByTestId("path-count")).toHaveText(shown.count);
  await expect(app.timelineRows.last().locator(".row-excerpt")).toHaveText(shown.last);
  await expect(app.timelineRows.last()).toBeInViewport();
  const kept = await storedRows(page);
  expect(kept).toBeGreaterThan(1);
  // Undone: after the window (its purge timer fired) nothing is purged, and another reload shows no Undo.
  await page.clock.fastForward(UNDO_WINDOW_MS + 1_000);
  await page.reload();
  await expect(app.item("tally")).toHaveCount(1);
  await expect(app.toast(/Deleted/)).toHaveCount(0);
  expect(await storedRows(page)).toBe(kept);
});

test("delete, reload after the undo window: the session is purged and no Undo is offered", async ({
  page,
}) => {
  await page.clock.install();
  const app = new AppPage(page);
  await deleteExample(app);
  await page.reload();
  await expect(app.toast(/Deleted “tally/)).toBeVisible();
  // The toast ends with the window, and the purge removes the rows (sessions, chunks, counts).
  await page.clock.fastForward(UNDO_WINDOW_MS + 1_000);
  await expect(app.toast(/Deleted “tally/)).toHaveCount(0);
  await expect
    .poll(() => storedRows(page, ["sessions", "chunks", "chunkTokens"]), { timeout: 5_000 })
    .toBe(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Welcome to Cutpoint" })).toBeVisible();
  await expect(app.toast(/Deleted/)).toHaveCount(0);
});

test("keyboard only: import with the file picker, open the session, expand a row, Esc closes dialogs", async ({
  page,
}) => {
  const app = new AppPage(page);
  // Listened for before the page loads: Playwright's file-chooser interception is switched on
  // asynchronously, and a chooser opened before it is on never reaches the test.
  const chooser = page.waitForEvent("filechooser");
  await app.goto();
  await page.getByRole("button", { name: "Import…" }).focus();
  await page.keyboard.press("Enter");
  await (await chooser).setFiles(FIXTURE);
  await expect.poll(() => app.entryCountOf(/alright, read/), { timeout: IMPORT_TIMEOUT }).toBe("1,002");

  // Leave the session, then reopen it with Tab + Enter only.
  await page.goto("/");
  await expect(app.sessionItems).toHaveCount(1);
  const open = app.sessionItems.first().locator(".session-open");
  for (let i = 0; i < 12 && !(await open.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(open).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("path-count")).toHaveText("1,002 entries on the path", {
    timeout: IMPORT_TIMEOUT,
  });

  const row = app.timelineRows.last().locator("button.row-head");
  await row.focus();
  await page.keyboard.press("Enter");
  await expect(row).toHaveAttribute("aria-expanded", "true");

  await page.getByRole("button", { name: "Settings" }).focus();
  await page.keyboard.press("Enter");
  const settings = page.locator('dialog[data-dialog="settings"]');
  await expect(settings).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
});

test("the timeline keeps a constant number of DOM rows on a 9k-entry session", async ({ page }) => {
  const big = generateBigSession(10 * 1024 * 1024);
  const app = new AppPage(page);
  await app.goto();
  await page.evaluate(
    ({ text }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], "big.jsonl"));
      document.body.dispatchEvent(
        new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: dt }),
      );
    },
    { text: big.text },
  );
  await expect(page.getByTestId("path-count")).toHaveText(
    `${big.entryCount.toLocaleString("en-US")} entries on the path`,
    { timeout: IMPORT_TIMEOUT },
  );
  const counts: number[] = [];
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    await app.timeline.evaluate((el, f) => {
      el.scrollTop = f * (el.scrollHeight - el.clientHeight);
    }, fraction);
    await expect(app.timelineRows.first()).toBeVisible();
    counts.push(await app.timelineRows.count());
  }
  for (const n of counts) expect(n).toBeLessThan(60);
});

test("at most three notifications show; the older ones wait behind 'N more', and all can be dismissed", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  const files = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => writeSessionFile(`toast-${i}`, [msg("u1", null, user(`hello ${i}`))]).path,
    );
  const visible = page.locator('[data-testid="toast"]:visible');
  const more = page.getByTestId("toast-more");
  await app.importByPicker(...files(5));
  await expect(app.sessionItems).toHaveCount(5, { timeout: IMPORT_TIMEOUT });
  await expect(visible).toHaveCount(3);
  await expect(page.getByTestId("toast")).toHaveCount(5);
  // One entry is "1 entry", in the toast, the list, the top bar and the timeline.
  await expect(visible.last()).toContainText(": 1 entry.");
  await expect(page.getByTestId("path-count")).toHaveText("1 entry on the path");
  await expect(app.sessionItems.first()).toContainText("1 entry ·");
  await more.getByRole("button", { name: "2 more notifications" }).click();
  await expect(visible).toHaveCount(5);
  await expect(more).toBeHidden();
  // Dismissed down to a few, "N more" is collapsed again for the next ones; "Dismiss all" clears them.
  for (let k = 0; k < 3; k++) await visible.first().getByRole("button", { name: "Dismiss" }).click();
  await expect(visible).toHaveCount(2);
  await app.importByPicker(...files(2));
  await expect(app.sessionItems).toHaveCount(7, { timeout: IMPORT_TIMEOUT });
  await expect(visible).toHaveCount(3);
  await expect(more.getByRole("button", { name: "1 more notification" })).toBeVisible();
  await more.getByRole("button", { name: "Dismiss all" }).click();
  await expect(page.getByTestId("toast")).toHaveCount(0);
});
