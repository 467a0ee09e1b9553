// Code loaded on demand (the tree panel here) whose fetch failed says so, and is fetched again on
// 'Try again': most browsers keep a failed module fetch in their module map, so the app asks for it
// under a new URL (ui/shell/lazy-component.ts importOnce). Without that, "Try again" failed for
// the rest of the page's life.
import { expect, type Page, test } from "@playwright/test";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

/**
 * The example session open, with the chunk `name` (any query too) refused until `allow()`;
 * `asked` lists the query of each request for it.
 */
async function exampleRefusing(page: Page, name: string) {
  let refuse = true;
  const asked: string[] = [];
  await page.route(new RegExp(`/assets/${name}-[^/?]+\\.js(\\?.*)?$`), (route) => {
    asked.push(new URL(route.request().url()).search);
    return refuse ? route.abort("internetdisconnected") : route.continue();
  });
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "Example session", exact: true }).click();
  await expect(app.timeline).toBeVisible({ timeout: IMPORT_TIMEOUT });
  const allow = () => {
    refuse = false;
  };
  return { app, asked, allow };
}

test("the tree's code, refused once, loads on 'Try again' and the tree opens", async ({ page }) => {
  const { app, asked, allow } = await exampleRefusing(page, "tree-panel");
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const failed = page.getByRole("alert").filter({ hasText: "its code did not load" });
  await expect(failed).toBeVisible();
  // Where the tree opens, not at the end of the page.
  await expect(failed).toBeInViewport();
  // Not asked for again and again meanwhile: a failure is shown, not retried by every render.
  const tries = asked.length;
  await page.waitForTimeout(1000);
  expect(asked.length).toBe(tries);
  // The rest of the app goes on: the timeline is still there.
  await expect(app.timelineRows.first()).toBeVisible();
  allow();
  await failed.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("tree-panel")).toBeVisible();
  await expect(failed).toBeHidden();
  // Asked for again under a new URL each time after the first failure.
  expect(asked[0]).toBe("");
  expect(asked.at(-1)).toMatch(/^\?retry=\d+$/);
  expect(new Set(asked).size).toBe(asked.length);
});

test("the label dialog's code, refused, says so in a dialog that closes; 'Try again' opens it", async ({
  page,
}) => {
  const { app, allow } = await exampleRefusing(page, "label-dialog");
  const row = app.timelineRow("The root cause is in `parseCsv`");
  const askLabel = async () => {
    await row.hover();
    await row.getByRole("button", { name: "Label" }).click();
  };
  await askLabel();
  const failed = page.locator('dialog[data-dialog="tree-dialog-failed"]');
  await expect(failed).toBeVisible();
  await expect(failed.getByRole("alert")).toContainText("its code did not load");
  // Where the person is looking (a modal dialog), not a line below the page's end.
  await expect(failed.getByRole("alert")).toBeInViewport();
  await failed.getByRole("button", { name: "Close" }).click();
  await expect(failed).toBeHidden();
  // Asked again while the code is still refused: the failure again, not a blank page.
  await askLabel();
  await expect(failed).toBeVisible();
  allow();
  await failed.getByRole("button", { name: "Try again" }).click();
  const dialog = page.locator('dialog[data-dialog="label"]');
  await expect(dialog).toBeVisible();
  await expect(failed).toBeHidden();
  await dialog.getByLabel("Label").fill("after-retry");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("after-retry");
});

test("when 'Try again' fails too, the page offers a reload, and after it the tree opens", async ({
  page,
}) => {
  const { app, allow } = await exampleRefusing(page, "tree-panel");
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const failed = page.getByRole("alert").filter({ hasText: "its code did not load" });
  await expect(failed).toBeVisible();
  // One failure: only "Try again" (a reload is not offered for a first failure).
  await expect(failed.getByRole("button", { name: "Reload the page" })).toHaveCount(0);
  await failed.getByRole("button", { name: "Try again" }).click();
  await expect(failed.getByRole("button", { name: "Reload the page" })).toBeVisible();
  await expect(failed).toContainText("your sessions are stored");
  allow();
  await failed.getByRole("button", { name: "Reload the page" }).click();
  await expect(app.timeline).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await expect(page.getByTestId("tree-panel")).toBeVisible();
});
