/**
 * Compaction without a key, on the imported real pi fixture: the meter, the token timeline with a
 * plan (bands, cut handle moved by keyboard and by drag, snapping to valid cut points), the
 * preview, an offline summary edited and confirmed, the entry in storage and in the export,
 * Undo, Cancel writing nothing; screenshots at 1280 / 800 px, light and dark.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";

test.setTimeout(240_000);

import { AppPage } from "./pages/app-page.ts";

const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;
const SHOTS = process.env.CUTPOINT_SHOTS ?? "/tmp/cp-shots";

async function importFixture(page: Page): Promise<AppPage> {
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(FIXTURE);
  // The machine is shared: importing 2.3 MB can take a while under load.
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 90_000 }).toBe("1,002");
  await expect(page.getByTestId("context-meter")).toBeVisible({ timeout: 30_000 });
  return app;
}

async function exportedLines(app: AppPage): Promise<Record<string, unknown>[]> {
  const download = await app.exportOpen();
  const text = readFileSync(await download.path(), "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test("meter, timeline with a plan, keyboard and drag cut, offline summary edited and confirmed, undo", async ({
  page,
}) => {
  const app = await importFixture(page);
  const meter = page.getByTestId("context-meter");
  await expect(page.getByTestId("context-meter-text")).toContainText(/ \/ .* · \d+ % · threshold /);
  await expect(meter).toContainText(/reported|estimated/);
  await expect(meter).toContainText("pi chars/4");
  await meter.click();
  const panel = page.getByTestId("token-timeline-panel");
  await expect(panel).toBeVisible();
  // Constant DOM rows: far fewer rows than entries.
  const rows = page.getByTestId("token-timeline").locator(".cp-row");
  expect(await rows.count()).toBeLessThan(80);
  const handle = page.getByTestId("cut-handle");
  await expect(handle).toContainText(/keeps [\d,]+ tokens · [\d,]+ messages?/);
  await expect(handle).toHaveAttribute("role", "slider");
  // pi's automatic cut on this fixture splits a turn: the prefix band is drawn (and labelled).
  await expect(page.locator(".cp-row.band-prefix").first()).toBeVisible();
  await expect(page.locator(".cp-row.band-kept").first()).toBeVisible();
  await expect(page.getByLabel("Legend")).toContainText("prefix");
  const before = await handle.textContent();
  // Keyboard: ↑ keeps more (earlier cut), ↓ back.
  await handle.focus();
  await page.keyboard.press("ArrowUp");
  await expect(handle).not.toHaveText(before ?? "");
  await expect(handle).toBeFocused();
  const up = await handle.textContent();
  await page.keyboard.press("PageUp");
  await expect(handle).not.toHaveText(up ?? "");
  // Far moves scroll the list along: the handle stays in view (and focused) each way.
  for (const key of ["PageUp", "PageDown"]) {
    for (let i = 0; i < 6; i++) await page.keyboard.press(key);
    await expect(handle).toBeInViewport();
    await expect(handle).toBeFocused();
  }
  await page.keyboard.press("PageDown");
  await page.keyboard.press("ArrowDown");
  // The cut never sits on a tool result: the row at the cut is a valid cut point (notched).
  await expect(page.locator(".cp-row.notch").first()).toBeVisible();
  // Drag the handle a few rows up: it snaps to a valid cut point.
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y - 140, { steps: 6 });
  await page.mouse.up();
  const dragged = await handle.textContent();
  expect(dragged).not.toBe(before);
  // Enter opens the preview.
  await handle.focus();
  await page.keyboard.press("Enter");
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();
  await expect(page.getByTestId("preview-numbers")).toContainText(
    // Before a draft, the best estimate and its bound (the summary at its whole budget).
    /[\d,]+ → ≈ [\d,]+ tokens, at most [\d,]+ \(−\d+ %/,
  );
  await expect(page.getByTestId("split-turn")).toContainText(/Splits a turn|Does not split a turn/);
  // The plan's bands: some rows are marked as summarized.
  // (Rows are 40 px: scrolled up from the cut, past the split turn's prefix rows, to the summarized ones.)
  await page.getByTestId("token-timeline").evaluate((el) => {
    el.scrollTop = Math.max(0, el.scrollTop - 800);
  });
  await expect(page.locator(".cp-row.band-summarized").first()).toBeAttached();

  // Offline summary (no key set), edited, confirmed.
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("preview-status")).toContainText("Offline draft ready");
  const editor = page.getByTestId("summary-editor");
  await expect(editor).toHaveValue(/generated offline/);
  await editor.press("End");
  await editor.fill(`${await editor.inputValue()}\n\nEDITED-BY-HAND`);
  const entriesBefore = await app.entryCountOf(FIRST_USER);
  expect(entriesBefore).toBe("1,002");
  await page.getByTestId("confirm").click();
  await expect(app.toast(/Compacted .* → .* tokens/)).toBeVisible();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 30_000 }).toBe("1,003");
  const lines = await exportedLines(app);
  const last = lines.at(-1)!;
  expect(last.type).toBe("compaction");
  expect(String(last.summary)).toContain("EDITED-BY-HAND");
  expect(typeof last.firstKeptEntryId).toBe("string");
  expect(lines.some((l) => l.id === last.firstKeptEntryId)).toBe(true);
  expect(Number(last.tokensBefore)).toBeGreaterThan(0);
  expect(last.details).toMatchObject({ readFiles: expect.any(Array), modifiedFiles: expect.any(Array) });
  // The meter now counts from the summary; nothing to compact right after a compaction: Compact… says why.
  await expect(page.getByTestId("compact-open")).toBeDisabled();
  await expect(page.getByTestId("compact-disabled-reason")).toContainText("Already compacted");

  // History shows it, with a diff against the previous summary.
  await page.getByRole("button", { name: /History \(3\)/ }).click();
  await expect(page.getByTestId("compaction-history")).toContainText("#3");
  // Undo from the toast: a move entry goes back before the compaction; history stays.
  await app
    .toast(/Compacted/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 30_000 }).toBe("1,004");
  const after = await exportedLines(app);
  expect(after.at(-1)).toMatchObject({
    type: "custom",
    customType: "cutpoint.move",
    parentId: last.parentId,
    data: { targetId: last.parentId },
  });
  expect(after.some((l) => l.id === last.id)).toBe(true);
});

test("cancel and discard write nothing; nothing is written before confirm", async ({ page }) => {
  const app = await importFixture(page);
  await page.getByTestId("context-meter").click();
  await page.getByTestId("compact-open").click();
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("summary-editor")).toBeVisible();
  await page.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByTestId("summary-editor")).toHaveCount(0);
  await page.getByTestId("offline").click();
  await page.getByTestId("cancel").click();
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  const lines = await exportedLines(app);
  expect(lines.filter((l) => l.type === "compaction")).toHaveLength(2);
  expect(await app.entryCountOf(FIRST_USER)).toBe("1,002");
});

test("each thing is said once: why nothing can be compacted, and each history item's number", async ({
  page,
}) => {
  // On screen (a screen reader's copy of the button's reason, 1 px, is not shown).
  const shown = (text: RegExp) =>
    page.getByText(text).filter({ visible: true }).and(page.locator(":not(.sr-only)"));
  const app = new AppPage(page);
  await app.goto();
  await app.openExample();
  await page.getByTestId("compact-open-top").click();
  // The review open with nothing to summarize: the reason once on screen (not also under the timeline).
  await expect(page.getByTestId("nothing-to-compact")).toBeVisible();
  await expect(shown(/^Nothing to summarize/)).toHaveCount(1);
  await page.getByTestId("keep-recent").fill("500");
  await page.getByTestId("offline").click();
  await page.getByTestId("confirm").click();
  await expect(app.toast(/Compacted .* → .* tokens/)).toBeVisible();
  // The review opened the side panel, and Confirm closed it (the timeline keeps its width): the meter opens it.
  await expect(page.getByTestId("token-timeline-panel")).toHaveCount(0);
  await page.getByTestId("context-meter").click();
  // After Confirm: "Already compacted" once.
  await expect(page.getByTestId("compact-disabled-reason")).toContainText("Already compacted");
  await expect(shown(/Already compacted/)).toHaveCount(1);
  // History numbers its items once ("#1", not also a list's "1.").
  await page.getByRole("button", { name: /History \(2\)/ }).click();
  const items = page.getByTestId("compaction-history").locator(":scope > ol > li");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText("#1");
  expect(await items.first().evaluate((li) => getComputedStyle(li).listStyleType)).toBe("none");
  await page.screenshot({ path: `${SHOTS}/history-once.png` });
});

for (const scheme of ["light", "dark"] as const) {
  for (const width of [1280, 800]) {
    test(`screenshot: timeline with a plan on the real fixture, ${width} px ${scheme}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      await importFixture(page);
      if (width <= 900) await page.keyboard.press("Escape");
      await page.getByTestId("context-meter").click();
      await expect(page.getByTestId("cut-handle")).toBeVisible();
      await expect(page.locator(".cp-row.band-summarized").first()).toBeVisible();
      await page.mouse.move(5, 790); // no hover tooltip in the picture
      await page.screenshot({ path: `${SHOTS}/timeline-${width}-${scheme}.png` });
      await page.getByTestId("compact-open").click();
      await expect(page.getByTestId("preview-numbers")).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/preview-${width}-${scheme}.png` });
    });
  }
}
