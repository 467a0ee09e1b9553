/**
 * The first minute (issue 37 part 7): the compaction example opens with a plan to review at the
 * default settings and says how to try it on one's own sessions; a reload, and a visit to "/",
 * reopen the last session opened.
 */
import { expect, type Page, test } from "@playwright/test";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

const COMPACTION_EXAMPLE_TITLE = "tally: monthly report with budgets";

/** The stored session rows (id, name, entry count, deleted or not), read in the page. */
function storedSessions(
  page: Page,
): Promise<{ id: string; name?: string; entryCount: number; deletedAt: number }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open("cutpoint");
        req.onsuccess = () => {
          const all = req.result.transaction("sessions").objectStore("sessions").getAll();
          all.onsuccess = () => {
            req.result.close();
            resolve(all.result);
          };
        };
      }),
  );
}

test("the compaction example opens with a plan to review at the default settings, and says how to try it", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await expect(page.getByTestId("welcome-how")).toContainText("~/.pi/agent/sessions");
  await page.getByRole("button", { name: "See a compaction planned (example)" }).click();
  await expect(app.title).toHaveText(COMPACTION_EXAMPLE_TITLE, { timeout: IMPORT_TIMEOUT });

  const review = page.getByTestId("compaction-preview");
  await expect(review).toBeVisible({ timeout: IMPORT_TIMEOUT });
  // At the defaults: keep 20,000 recent tokens, and there is something to summarize.
  await expect(review.getByTestId("keep-recent")).toHaveValue("20000");
  await expect(review).toContainText("default settings");
  await expect(review).toContainText("~/.pi/agent/sessions");
  await expect(review.getByTestId("summarize-count")).toHaveText(/^[1-9]\d* messages?$/);
  await expect(review).not.toContainText("Nothing to summarize");
  await expect(page.getByTestId("generate")).toBeEnabled();
  await expect(page.getByTestId("offline")).toBeEnabled();

  // Stored as a session of its own (nothing written by opening the review).
  const rows = await storedSessions(page);
  expect(rows).toHaveLength(1);
  expect(rows[0]?.entryCount).toBeGreaterThanOrEqual(110);

  // The offline summary makes a draft that can be confirmed: the example shows the whole loop.
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("confirm")).toBeEnabled({ timeout: IMPORT_TIMEOUT });
  await page.getByTestId("confirm").click();
  await expect(app.compactionRows()).toHaveCount(1, { timeout: IMPORT_TIMEOUT });
  expect((await storedSessions(page))[0]?.entryCount).toBe((rows[0]?.entryCount ?? 0) + 1);
});

test("a reload, and a visit to '/', reopen the last session opened; a deleted one is not reopened", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "Open the example session" }).click();
  await expect(app.title).toHaveText("tally: --json flag and exact cents", { timeout: IMPORT_TIMEOUT });
  await app.showSidebar();
  await page.getByRole("button", { name: "Compaction example" }).click();
  await expect(app.title).toHaveText(COMPACTION_EXAMPLE_TITLE, { timeout: IMPORT_TIMEOUT });

  await page.reload();
  await expect(app.title).toHaveText(COMPACTION_EXAMPLE_TITLE, { timeout: IMPORT_TIMEOUT });

  // No session in the URL: the last one opened comes back.
  await page.goto("/");
  await expect(app.title).toHaveText(COMPACTION_EXAMPLE_TITLE, { timeout: IMPORT_TIMEOUT });
  await expect(page).toHaveURL(/#\/s\//);

  // The other one opened last: that one comes back.
  await app.open("tally: --json flag and exact cents");
  await page.goto("/");
  await expect(app.title).toHaveText("tally: --json flag and exact cents", { timeout: IMPORT_TIMEOUT });

  // Deleted: nothing is reopened (the welcome of "Open a session" shows).
  await app.showSidebar();
  await app
    .item("tally: --json flag and exact cents")
    .getByRole("button", { name: /Delete/ })
    .click();
  await page.locator('dialog[data-dialog="delete"]').getByRole("button", { name: "Delete" }).click();
  await expect(app.item("tally: --json flag and exact cents")).toHaveCount(0);
  await page.goto("/");
  await expect(page.locator(".welcome")).toBeVisible();
  await expect(app.title).toHaveCount(0);
  const stored = await storedSessions(page);
  expect(stored.filter((r) => !r.deletedAt).map((r) => r.name ?? "")).toHaveLength(1);
});
