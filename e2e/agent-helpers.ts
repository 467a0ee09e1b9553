/** Shared steps of the agent specs: provider setup against the mock, a new session, sending. */
import { readFileSync } from "node:fs";
import { expect, type Locator, type Page, type Request } from "@playwright/test";
import { MOCK_BASE_URL, setModels } from "./mock/client.ts";
import { MOCK_MODELS } from "./pages/app-knowledge.ts";
import { topBarButton } from "./pages/app-page.ts";

export const MODELS = MOCK_MODELS;

export function settingsDialog(page: Page): Locator {
  return page.locator('dialog[data-dialog="settings"]');
}

/** Opens Settings, picks "Custom" with the mock's base URL, saves the key, picks a listed model. */
export async function setUpProvider(page: Page, key: string, model = "mock-model"): Promise<void> {
  await setModels(key, { models: MODELS });
  await page.getByRole("button", { name: "Settings" }).click();
  const dlg = settingsDialog(page);
  await expect(dlg).toBeVisible();
  await dlg.getByLabel("Provider", { exact: true }).selectOption("custom");
  const base = dlg.getByLabel("Base URL");
  await base.fill(MOCK_BASE_URL);
  await base.press("Enter");
  await dlg.getByLabel(/^API key/).fill(key);
  await dlg.getByRole("button", { name: "Save key" }).click();
  await expect(dlg.getByTestId("api-key-display")).toBeVisible();
  await expect(dlg.getByTestId("models-status")).toContainText(`${MODELS.length} models listed`);
  await dlg.getByLabel("Default model").selectOption(model);
  await expect(dlg.getByText(`Limits of “${model}”`)).toBeVisible();
  await dlg.getByRole("button", { name: "Done" }).click();
  await expect(dlg).toBeHidden();
}

export async function newSession(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: "Show the session list" });
  if (await toggle.isVisible()) await toggle.click();
  await page.getByRole("button", { name: "+ New" }).click();
  await expect(page.getByTestId("agent-composer")).toBeVisible();
}

export function composerInput(page: Page): Locator {
  return page.getByRole("textbox", { name: "Message" });
}

export async function send(page: Page, text: string): Promise<void> {
  const input = composerInput(page);
  await input.fill(text);
  await input.press("Enter");
}

/** Waits until no run is going on (the Send button is back). */
export async function waitIdle(page: Page): Promise<void> {
  // A message sent before the agent's code is there waits for it ("Starting the agent…").
  await expect(page.getByTestId("agent-starting")).toBeHidden({ timeout: 30_000 });
  // The composer's Stop (a compaction preview generating a summary has a Stop button of its own).
  await expect(page.getByTestId("agent-composer").getByRole("button", { name: "Stop" })).toBeHidden({
    timeout: 30_000,
  });
}

/**
 * The entries on the open path, as the timeline's head says now (0 when it says nothing: an empty
 * session shows "This session has no entries yet." and no count). It does not wait for the count
 * to appear: poll it with expect.poll.
 */
export async function entryCount(page: Page): Promise<number> {
  const [text] = await page.getByTestId("path-count").allTextContents();
  return Number((text ?? "0").replace(/[^0-9]/g, ""));
}

/** Exports the open session; returns the file's path and text. */
export async function exportOpen(page: Page): Promise<{ path: string; text: string }> {
  const download = page.waitForEvent("download");
  await (await topBarButton(page, "Export")).click();
  const d = await download;
  const path = await d.path();
  return { path, text: readFileSync(path, "utf8") };
}

/** Collects every request URL the page makes (to check that no key ever lands in one). */
export function recordUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (r: Request) => urls.push(r.url()));
  return urls;
}

export function parseJsonl(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Sets the compaction settings in the Settings dialog (fields save on blur). */
export async function compactionSettings(
  page: Page,
  s: { mode?: "ask" | "auto" | "off"; window?: number; reserve?: number; keep?: number },
): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dlg = settingsDialog(page);
  const form = dlg.getByTestId("compaction-settings");
  if (s.mode) {
    const radio = form.locator(`input[type=radio][value=${s.mode}]`);
    await radio.click();
    await expect(radio).toBeChecked();
  }
  const set = async (id: string, v: number | undefined) => {
    if (v === undefined) return;
    const input = form.getByTestId(id);
    await input.fill(String(v));
    await input.blur();
    await expect(input).toHaveValue(String(v));
  };
  await set("compaction-window", s.window);
  await set("compaction-reserve", s.reserve);
  await set("compaction-keep", s.keep);
  await dlg.getByRole("button", { name: "Done" }).click();
  await expect(dlg).toBeHidden();
}
