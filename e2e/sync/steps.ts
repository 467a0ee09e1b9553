/**
 * What a person does with sync in the app, for the sync spec and the sync bench: fill Settings →
 * Sync and save, press the session list's Sync now and wait for its round, read a session's
 * status in the list.
 */
import { expect, type Page } from "@playwright/test";

export interface SyncForm {
  kind: "s3" | "webdav";
  /** S3: the endpoint; WebDAV: the folder's URL. */
  url: string;
  /** S3: access key id; WebDAV: user. */
  id: string;
  secret: string;
  passphrase: string;
  /** S3 only. */
  bucket?: string;
  prefix?: string;
}

export function syncPanel(page: Page) {
  return page.getByTestId("sync-settings");
}

export async function openSettings(page: Page) {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  await expect(syncPanel(page)).toBeVisible();
}

export async function closeSettings(page: Page) {
  await page.locator('dialog[data-dialog="settings"]').getByRole("button", { name: "Done" }).click();
}

async function syncedAt(page: Page): Promise<number> {
  return Number(await syncPanel(page).getByTestId("sync-status").getAttribute("data-synced-at"));
}

/** Fills Settings → Sync and saves; waits for the first round's outcome (or the error expected). */
export async function setUpSync(
  page: Page,
  form: SyncForm,
  options: { expectError?: RegExp; timeout?: number } = {},
) {
  await openSettings(page);
  await fillSyncForm(page, form);
  await saveSyncForm(page, options);
}

/** Fills the form of Settings → Sync (open). */
export async function fillSyncForm(page: Page, form: SyncForm) {
  const panel = syncPanel(page);
  if (form.kind === "s3") {
    await panel.getByLabel("S3-compatible bucket", { exact: true }).check();
    await panel.getByLabel("Endpoint", { exact: true }).fill(form.url);
    await panel.getByLabel("Region", { exact: true }).fill("us-east-1");
    await panel.getByLabel("Bucket", { exact: true }).fill(form.bucket ?? "");
    await panel.getByLabel("Prefix (optional)", { exact: true }).fill(form.prefix ?? "");
    await panel.getByLabel("Access key id", { exact: true }).fill(form.id);
    await panel.getByLabel("Secret access key", { exact: true }).fill(form.secret);
  } else {
    await panel.getByLabel("WebDAV folder", { exact: true }).check();
    await panel.getByLabel("Folder URL", { exact: true }).fill(form.url);
    await panel.getByLabel("User", { exact: true }).fill(form.id);
    await panel.getByLabel("Password or app token", { exact: true }).fill(form.secret);
  }
  await panel.getByLabel("Encryption passphrase", { exact: true }).fill(form.passphrase);
  await expect(panel.getByLabel("Encrypt sessions end to end", { exact: true })).toBeChecked();
}

/** Presses Save and sync (Settings → Sync, filled); waits for the round's outcome and closes Settings. */
export async function saveSyncForm(page: Page, options: { expectError?: RegExp; timeout?: number } = {}) {
  const panel = syncPanel(page);
  const before = await syncedAt(page);
  await panel.getByRole("button", { name: "Save and sync" }).click();
  if (options.expectError) await expect(panel.getByTestId("sync-error")).toHaveText(options.expectError);
  else
    await expect.poll(() => syncedAt(page), { timeout: options.timeout ?? 60_000 }).toBeGreaterThan(before);
  await closeSettings(page);
}

/** The sync line under the session list. */
export function syncFooter(page: Page) {
  return page.getByTestId("sync-footer");
}

/**
 * Presses the session list's "Sync now" and waits for its round (one that starts after the press)
 * to end and for any background round after it; says whether a round went through since the press.
 */
export async function syncRound(page: Page): Promise<"idle" | "error"> {
  const footer = syncFooter(page);
  // A background round under way (the minute's, or one after a local change) may have read the
  // sessions before the test's last step: its end is not the round asked for here.
  await expect(footer).not.toHaveAttribute("data-phase", "running", { timeout: 60_000 });
  const before = Number(await footer.getAttribute("data-synced-at"));
  const button = footer.getByRole("button", { name: "Sync now" });
  await expect(button).toBeEnabled();
  await button.click();
  await expect(button).toBeEnabled({ timeout: 60_000 });
  await expect(footer).not.toHaveAttribute("data-phase", "running", { timeout: 60_000 });
  return Number(await footer.getAttribute("data-synced-at")) > before ? "idle" : "error";
}

/** A round that must go through. */
export async function syncNow(page: Page) {
  expect(await syncRound(page), (await syncFooter(page).textContent()) ?? "").toBe("idle");
}

/** A session's sync status in the session list (matched by its id). */
export function listStatus(page: Page, sessionId: string) {
  return page.locator(`.session-item[data-session-id="${sessionId}"]`).getByTestId("session-sync");
}

/** A session that is only on the target, as the session list shows it. */
export function remoteItem(page: Page, sessionId: string) {
  return page.locator(`.session-remote[data-session-id="${sessionId}"]`);
}

/**
 * Fetches a session that is only on the target, from the session list's row (or Settings → Sync →
 * Fetch); waits for it stored.
 */
export async function fetchFromTarget(
  page: Page,
  sessionId: string,
  options: { via?: "list" | "settings"; timeout?: number } = {},
) {
  const toast = page.getByTestId("toast").filter({ hasText: /^Fetched “/ });
  if (options.via === "settings") {
    await openSettings(page);
    const remote = syncPanel(page).getByRole("list", { name: "Sessions only on the target" });
    await remote.locator(`li[data-session-id="${sessionId}"]`).getByRole("button", { name: "Fetch" }).click();
    await toast.waitFor({ timeout: options.timeout ?? 60_000 });
    await closeSettings(page);
  } else {
    await remoteItem(page, sessionId)
      .getByRole("button", { name: /^Fetch/ })
      .click();
    await toast.waitFor({ timeout: options.timeout ?? 60_000 });
  }
}
