/**
 * Issue 36, part 7: an import that a closed tab (or a crash) cut off is named on the next start,
 * with what it left (nothing: the session is stored in one transaction), once, until dismissed.
 */
import { expect, test } from "@playwright/test";
import { assistant, msg, user } from "../src/core/session/test-builders.ts";
import { writeSessionFile } from "./lib/session-file.ts";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

test("an import cut off while it waited for an answer is named on the next start; nothing was kept", async ({
  context,
}) => {
  const file = writeSessionFile("cut-off", [msg("u1", null, user("cut-off question"))]);
  const name = file.path.split("/").at(-1)!;
  const page = await context.newPage();
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(file.path);
  await expect(app.sessionItems).toHaveCount(1, { timeout: IMPORT_TIMEOUT });
  // Again: the file's id is here, so the import waits for an answer; the tab closes meanwhile.
  await app.importByPicker(file.path);
  await expect(app.importDialog).toContainText("cut-off question", { timeout: IMPORT_TIMEOUT });
  await page.close();

  const next = await context.newPage();
  const again = new AppPage(next);
  await again.goto();
  const notice = again.toast(/was cut off/);
  await expect(notice).toContainText(`The import of “${name}”`);
  await expect(notice).toContainText("Cutpoint closed while waiting for your answer about it.");
  await expect(notice).toContainText("Nothing of it was kept. Import it again.");
  await expect(again.sessionItems).toHaveCount(1);
  await next.screenshot({ path: test.info().outputPath("cut-off-notice.png") });
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toHaveCount(0);
  // Said once: the next start says nothing more.
  await next.reload();
  await expect(again.sessionItems).toHaveCount(1);
  await expect(again.toast(/was cut off/)).toHaveCount(0);
});

test("a big import cut off by a closed tab mid-parse: the next start names the file; nothing was kept", async ({
  context,
}) => {
  // ~25 MB: long enough to be parsed when the tab closes.
  const big = "x".repeat(20_000);
  const entries = [];
  let parent: string | null = null;
  for (let i = 0; i < 1200; i++) {
    const id = `e${i}`;
    entries.push(msg(id, parent, i % 2 === 0 ? user(`q${i} ${big}`) : assistant(`a${i} ${big}`)));
    parent = id;
  }
  const file = writeSessionFile("cut-big", entries);
  const name = file.path.split("/").at(-1)!;
  const page = await context.newPage();
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(file.path);
  await expect(page.getByTestId("import-progress")).toBeVisible();
  await page.close();

  const next = await context.newPage();
  const again = new AppPage(next);
  await again.goto();
  const notice = again.toast(/was cut off/);
  await expect(notice).toContainText(`The import of “${name}” (2`);
  await expect(notice).toContainText(/Cutpoint closed while (reading it|preparing it for storage)\./);
  await expect(notice).toContainText("Nothing of it was kept.");
  await expect(again.sessionItems).toHaveCount(0);
});
