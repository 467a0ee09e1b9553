/**
 * The installed app with no network: the service worker (precached build) opens the app after a
 * reload while offline; a pi session imports, opens and is compacted with the Offline summary,
 * and the compaction is stored (it survives another offline reload and is in the export). The
 * top bar says the model endpoint cannot be reached, and so does the composer's error when a
 * message is sent. Back online, the notice goes.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { composerInput, entryCount, newSession, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { serveStatic } from "./bench/lib/browser.ts";
import { uniqueKey } from "./mock/client.ts";
import { AppPage } from "./pages/app-page.ts";

test.setTimeout(240_000);
// The suite blocks service workers (playwright.config.ts); this spec is about them.
test.use({ serviceWorkers: "allow" });

const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;
const SHOTS = process.env.CUTPOINT_SHOTS ?? "/tmp/shots-perf";

/** Waits until the service worker is active (the whole build precached) and controls the page. */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // Registered with clientsClaim off: the first page load is not controlled; a reload is.
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 })
    .toBe(true);
}

/**
 * Reloads the page while the context is offline. Debian bookworm's Chromium 150 tells a document
 * loaded while the network is emulated offline that it is online (navigator.onLine true, no
 * "offline" event) although every request fails; newer ones say offline from the start. There the
 * emulation is set again once the page is loaded, so that the page hears the connection drop as
 * it would in a person's browser: the app must then say it is offline.
 */
async function reloadOffline(page: Page, context: BrowserContext): Promise<void> {
  await page.reload();
  if (await page.evaluate(() => navigator.onLine)) {
    await context.setOffline(false);
    await context.setOffline(true);
  }
}

test("offline: the app opens from the service worker, imports, compacts with the Offline summary, stores it", async ({
  page,
  context,
}) => {
  const app = new AppPage(page);
  await app.goto();
  // Online first: a provider is set up (the mock), so that sending offline shows what fails.
  const key = uniqueKey("offline");
  await setUpProvider(page, key);
  await waitForServiceWorker(page);
  await expect(page.getByTestId("offline-notice")).toBeHidden();

  await context.setOffline(true);
  await reloadOffline(page, context);
  await expect(page.locator(".welcome, .session-item").first()).toBeVisible();
  const notice = page.getByTestId("offline-notice");
  await expect(notice).toBeVisible();
  await expect(notice).toHaveText("Offline");
  await expect(notice).toHaveAttribute("title", /the model endpoint cannot be reached/);
  // Nothing came from the network: the page itself is the service worker's.
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);

  // Import (the parser worker is precached too) and open the session.
  await app.importByPicker(FIXTURE);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 90_000 }).toBe("1,002");
  await expect(notice).toBeVisible();
  await expect(page.getByTestId("offline-composer-notice")).toContainText(
    "Offline: the model endpoint cannot be reached.",
  );

  // Compact with the Offline summary (the panel and the preview load from the precache).
  await page.getByTestId("context-meter").click();
  await expect(page.getByTestId("token-timeline-panel")).toBeVisible();
  await page.getByTestId("token-timeline-panel").getByRole("button", { name: "Compact…" }).click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("preview-status")).toContainText("Offline draft ready");
  const editor = page.getByTestId("summary-editor");
  await expect(editor).toHaveValue(/generated offline/);
  await editor.fill(`${await editor.inputValue()}\n\nWRITTEN-OFFLINE`);
  await page.getByTestId("confirm").click();
  await expect(app.toast(/Compacted .* → .* tokens/)).toBeVisible();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 30_000 }).toBe("1,003");
  await page.screenshot({ path: `${SHOTS}/offline-compacted-1280.png` });

  // Stored: another offline reload finds it, and the export (a download, no network) ends with it.
  await reloadOffline(page, context);
  await expect(notice).toBeVisible();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 30_000 }).toBe("1,003");
  await app.open(FIRST_USER);
  const download = await app.exportOpen();
  const last = JSON.parse(
    readFileSync(await download.path(), "utf8")
      .trimEnd()
      .split("\n")
      .at(-1)!,
  ) as {
    type: string;
    summary: string;
  };
  expect(last.type).toBe("compaction");
  expect(last.summary).toContain("WRITTEN-OFFLINE");

  // Sending to the model: nothing is written, the text stays in the box, and it says so plainly.
  await newSession(page);
  await expect(notice).toBeVisible();
  await send(page, "are you there?");
  // (on a busy machine the agent's first steps can take a while)
  await expect(page.getByTestId("run-problem")).toContainText(
    "You are offline: nothing was sent and nothing was saved.",
    { timeout: 30_000 },
  );
  await waitIdle(page);
  await expect(page.getByTestId("retry-status")).toBeHidden();
  await expect(composerInput(page)).toHaveValue("are you there?");
  await expect(page.getByText("This session has no entries yet.")).toBeVisible();
  expect(await entryCount(page)).toBe(0);
  await page.screenshot({ path: `${SHOTS}/offline-composer-1280.png` });
  await page.setViewportSize({ width: 800, height: 700 });
  await page.screenshot({ path: `${SHOTS}/offline-composer-800.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/offline-composer-800-dark.png` });

  // Back online: the notice goes, and the held message is offered.
  await context.setOffline(false);
  await expect(notice).toBeHidden();
  await expect(page.getByTestId("offline-composer-notice")).toBeHidden();
  await expect(page.getByTestId("back-online")).toContainText("The connection is back.");
});

test("offline: the example session opens from the precache", async ({ page, context }) => {
  const app = new AppPage(page);
  await app.goto();
  await waitForServiceWorker(page);
  await context.setOffline(true);
  await reloadOffline(page, context);
  await expect(page.getByTestId("offline-notice")).toBeVisible();
  await page.getByRole("button", { name: "Example session", exact: true }).click();
  await expect(app.toast(/Example session loaded/)).toBeVisible();
  await expect(app.timelineRows.first()).toBeVisible();
});

test("a new version is offered with 'Reload to update', never applied by itself", async ({ page }) => {
  // The build served by a server of this test, whose sw.js can change (a new version deployed).
  const dist = resolve(process.env.CUTPOINT_DIST ?? "dist");
  const overrides: Record<string, string> = {};
  const server = await serveStatic(dist, overrides);
  try {
    await page.goto(`${server.url}/`);
    const app = new AppPage(page);
    await expect(page.locator(".welcome, .session-item").first()).toBeVisible();
    await waitForServiceWorker(page);
    await page.getByRole("button", { name: "Example session", exact: true }).click();
    await expect(app.timelineRows.first()).toBeVisible();
    await page.evaluate(() => {
      (window as { __before?: boolean }).__before = true;
    });
    const stillTheSamePage = () => page.evaluate(() => (window as { __before?: boolean }).__before === true);
    const waiting = () =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting != null);

    // A new version: the same worker with other bytes. The app checks for updates hourly; here now.
    overrides["/sw.js"] = `${readFileSync(resolve(dist, "sw.js"), "utf8")}\n// the next version\n`;
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const prompt = page.getByTestId("update-prompt");
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    await expect(prompt).toContainText("A new version of Cutpoint is ready.");
    await page.screenshot({ path: `${SHOTS}/update-prompt-1280.png` });
    // Not forced: the page stays as it was (no reload) until the person chooses.
    await page.waitForTimeout(1500);
    expect(await stillTheSamePage()).toBe(true);
    // "Later" hides it; the new version keeps waiting.
    await prompt.getByRole("button", { name: "Later" }).click();
    await expect(prompt).toBeHidden();
    expect(await waiting()).toBe(true);
    expect(await stillTheSamePage()).toBe(true);
    // Offered again after a reload by the person; "Reload to update" applies it and reloads.
    await page.reload();
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    const reloaded = page.waitForEvent("load");
    await prompt.getByRole("button", { name: "Reload to update" }).click();
    await reloaded;
    await expect(page.locator(".welcome, .session-item").first()).toBeVisible();
    await expect.poll(waiting, { timeout: 30_000 }).toBe(false);
    await expect(prompt).toBeHidden();
    expect(await stillTheSamePage()).toBe(false);
    // The session is still there after the update.
    await expect(app.sessionItems.first()).toBeVisible();
  } finally {
    await server.close();
  }
});
