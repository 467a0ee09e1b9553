// Switching sessions in one page: going back to a session opened earlier reads and parses nothing
// (its entries stay in memory while they are what is stored, services/session/session-handover.ts); a
// session replaced meanwhile in another tab is read again, and shows what is stored now.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { generateBigSession } from "./bench/lib/big-session.ts";
import { withOneMoreMessage } from "./lib/session-file.ts";
import { AppPage, EXAMPLE_TITLE, IMPORT_TIMEOUT } from "./pages/app-page.ts";

test.describe.configure({ timeout: 120_000 });

const onPath = (n: number) => `${n.toLocaleString("en-US")} entries on the path`;

/** What the last load of a session took in: its entries, and how many came from memory. */
const lastLoad = (page: Page) =>
  page.evaluate(
    () =>
      (performance.getEntriesByName("cutpoint:load read estimates").at(-1) as PerformanceMeasure | undefined)
        ?.detail as { entries: number; fromMemory: number } | undefined,
  );

test("switching back to a session opened earlier takes its entries from memory; one replaced in another tab is read again", async ({
  page,
  context,
}) => {
  const session = generateBigSession(2 * 1024 * 1024);
  const n = session.entryCount;
  const id = (JSON.parse(session.text.slice(0, session.text.indexOf("\n"))) as { id: string }).id;
  const dir = mkdtempSync(join(tmpdir(), "cutpoint-switch-"));
  const file = join(dir, "switch.jsonl");
  writeFileSync(file, session.text);
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(file);
  await expect(page.getByTestId("path-count")).toHaveText(onPath(n), { timeout: IMPORT_TIMEOUT });
  // Opened from storage (not from the import's own entries).
  await page.reload();
  await expect(page.getByTestId("path-count")).toHaveText(onPath(n), { timeout: IMPORT_TIMEOUT });
  expect(await lastLoad(page)).toMatchObject({ entries: n, fromMemory: 0 });
  const lastRow = (await app.timelineRows.last().textContent()) ?? "";
  expect(lastRow.length).toBeGreaterThan(0);

  const item = page.locator(`li.session-item[data-session-id="${id}"] button.session-open`);
  const exampleItem = app.item(EXAMPLE_TITLE).locator(".session-open");
  await page.getByRole("button", { name: "Example session", exact: true }).click();
  await expect(app.title).toHaveText(EXAMPLE_TITLE);
  await expect(page.getByTestId("path-count")).toBeVisible();

  // Back: the whole session at once, from memory, the same rows at its end.
  await item.click();
  await expect(page.getByTestId("path-count")).toHaveText(onPath(n), { timeout: IMPORT_TIMEOUT });
  expect(await lastLoad(page)).toMatchObject({ entries: n, fromMemory: n });
  await expect(app.timelineRows.last()).toHaveText(lastRow);

  // Away again, and the session is replaced in another tab by a version with one entry more.
  await exampleItem.click();
  await expect(app.title).toHaveText(EXAMPLE_TITLE);
  const second = join(dir, "switch-again.jsonl");
  writeFileSync(second, withOneMoreMessage(session.text, "fffffffe", "written by the other tab's re-import"));
  const other = new AppPage(await context.newPage());
  await other.goto();
  await other.importByPicker(second);
  await other.importDialog.getByRole("button", { name: /Replace/ }).click();
  await expect(other.page.getByTestId("path-count")).toHaveText(onPath(n + 1), { timeout: IMPORT_TIMEOUT });
  await other.page.close();

  // The first tab reads it again: what is stored now, not what it kept.
  await item.click();
  await expect(page.getByTestId("path-count")).toHaveText(onPath(n + 1), { timeout: IMPORT_TIMEOUT });
  expect(await lastLoad(page)).toMatchObject({ entries: n + 1, fromMemory: 0 });
  await expect(app.timelineRow("written by the other tab's re-import")).toBeVisible();
});
