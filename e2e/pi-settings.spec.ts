/**
 * pi's settings.json and models.json brought in as a person does it: from pi's folder dialog,
 * choose both files, read the changes with their sources, Apply; a session pi ran with that model
 * then shows pi's window and reserve, also after a reload. A broken file says where, and changes nothing.
 */
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { TID } from "./pages/app-knowledge.ts";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

/** A session pi 1.6 wrote itself; its replies came from openai/gpt-x. */
const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi16/D-retain-none.jsonl");

const json = (name: string, value: unknown) => ({
  name,
  mimeType: "application/json",
  buffer: Buffer.from(JSON.stringify(value, null, 2)),
});
const SETTINGS = json("settings.json", {
  theme: "dark",
  compaction: {
    modelOverrides: { "openai/gpt-x": { reserveTokens: 1000 }, "openai/gpt-y": { keepRecentTokens: -5 } },
  },
});
const MODELS = json("models.json", {
  providers: { openai: { modelOverrides: { "gpt-x": { contextWindow: 6000 } } } },
});

async function openPiSettings(page: import("@playwright/test").Page) {
  await page.getByRole("button", { name: "pi folder…" }).click();
  await page.getByRole("button", { name: "Import pi's settings…" }).click();
  return page.getByRole("dialog", { name: "pi's settings" });
}

test("pi's settings.json and models.json: the changes and their sources, then a session of that model uses them, after a reload too", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();

  // A broken file: where it is broken, and Apply stays off.
  let dialog = await openPiSettings(page);
  await dialog.getByLabel("pi's settings.json and/or models.json").setInputFiles([
    {
      name: "settings.json",
      mimeType: "application/json",
      buffer: Buffer.from('{\n  "compaction": {,\n}'),
    },
  ]);
  await expect(dialog.getByTestId("pi-settings-error")).toContainText("settings.json, line 2, column");
  await expect(dialog.getByRole("button", { name: "Apply" })).toBeDisabled();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  dialog = await openPiSettings(page);
  await dialog.getByLabel("pi's settings.json and/or models.json").setInputFiles([SETTINGS, MODELS]);
  const rows = dialog.getByTestId("pi-settings-changes").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveText(
    'gpt-x: reserve tokensthe setting for all models1,000 tokenssettings.json compaction.modelOverrides["openai/gpt-x"]',
  );
  await expect(rows.nth(1)).toHaveText(
    'gpt-x: context window128,000 tokens6,000 tokensmodels.json providers["openai"]',
  );
  await expect(dialog.getByTestId("pi-settings-problems")).toContainText(
    'compaction.modelOverrides["openai/gpt-y"].keepRecentTokens is -5: pi expects a non-negative whole number',
  );
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByTestId(TID.toast).filter({ hasText: "pi's settings applied: 2 changes." }),
  ).toBeVisible();

  // The session pi ran with gpt-x: pi's window, and its threshold at window − pi's reserve.
  await app.importByPicker(FIXTURE);
  const meter = page.getByTestId(TID.contextMeter);
  await expect(meter).toContainText("/ 6.0k", { timeout: IMPORT_TIMEOUT });
  await expect(meter).toContainText("threshold 5.0k");
  // Where the figures come from, in the meter's details.
  const details = page.locator(`[id="${await meter.getAttribute("aria-describedby")}"]`);
  await expect(details).toContainText("Window: 6,000 (gpt-x, from pi's models.json)");
  await expect(details).toContainText("reserve 1,000 (gpt-x's, from pi's settings.json)");
  await page.reload();
  await expect(page.getByTestId(TID.contextMeter)).toContainText("/ 6.0k", { timeout: IMPORT_TIMEOUT });
});
