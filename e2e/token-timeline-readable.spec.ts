/**
 * Issue 37, part 5: a token timeline people can read at 1280 px. Reviewing the shared pi fixture,
 * a tool call's row says which tool and with what (two lines, not "Tool call bash(…"), every bar
 * is at least 4 px wide, the cut's label is whole and the panel's ✕ sits in its head's first row;
 * after Confirm the main timeline is as wide as before the review. Screenshots of the token
 * timeline, the /context view and the review with a draft at 1280x800, 800x800 and 390x844, light
 * and dark, land in /tmp/cutpoint-screens/timeline-*.png.
 */
import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

const OUT = "/tmp/cutpoint-screens";

/**
 * Screenshots `${OUT}/${name}-<width>-<scheme>.png` at 1280x800, 800x800 and 390x844, light and
 * dark, each after `check` (what must be in view at that size); back at 1280x800 after each scheme.
 */
async function screenshotsAtEverySize(page: Page, name: string, check?: () => Promise<void>): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [w, h] of [
      [1280, 800],
      [800, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await check?.();
      await page.screenshot({ path: `${OUT}/${name}-${w}-${colorScheme}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

/** The rendered token rows' excerpts: their label, text, and how many of its characters are in view (not clamped away). */
function rowTexts(page: Page) {
  return page
    .getByTestId("token-timeline")
    .locator("li.cp-row .cp-excerpt")
    .evaluateAll((els) =>
      els.map((e) => {
        const box = e.getBoundingClientRect();
        const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        let shown = 0;
        for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
          for (let i = 0; i < t.length; i++) {
            range.setStart(t, i);
            range.setEnd(t, i + 1);
            const r = range.getBoundingClientRect();
            if (r.height > 0 && r.bottom <= box.bottom + 1 && r.right <= box.right + 1) shown++;
          }
        }
        return { label: e.querySelector("b")?.textContent ?? "", shown, text: e.textContent ?? "" };
      }),
    );
}

test("reviewing the pi fixture at 1280 px: rows say what they are, bars are seen, the cut's label is whole; screenshots", async ({
  page,
}) => {
  test.setTimeout(60_000);
  mkdirSync(OUT, { recursive: true });
  const app = new AppPage(page);
  await app.goto();
  await app.importPiFixture();
  await page.getByTestId("compact-open-top").click();
  const review = page.getByTestId("compaction-preview");
  await expect(review).toBeVisible();

  // A tool call's row: the tool and the start of its arguments.
  const rows = await rowTexts(page);
  const calls = rows.filter((r) => r.label === "Tool call");
  expect(calls.length).toBeGreaterThan(3);
  // Two lines: most calls show their first 35 characters or more (one line cut at "Tool call bash(…" showed ~16).
  const shown = calls.map((r) => Math.min(r.shown, 35)).sort((a, b) => a - b);
  expect(shown[Math.floor(shown.length / 2)]).toBe(35);
  for (const r of calls) expect(r.text).toMatch(/^Tool call \w+\(.{8,}/);
  // Every bar at least 4 px wide.
  const widths = await page
    .getByTestId("token-timeline")
    .locator(".cp-bar")
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
  expect(widths.length).toBeGreaterThan(5);
  expect(Math.min(...widths)).toBeGreaterThanOrEqual(3.9);
  // The cut's label is whole.
  const handle = page.getByTestId("cut-handle");
  await expect(handle).toContainText(/keeps [\d,]+ tokens · [\d,]+ messages/);
  expect(await handle.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
  // The ✕ is in the head's first row, beside its title.
  const head = page.locator(".cp-tl-head");
  const title = (await head.locator("h2").boundingBox())!;
  const close = (await head.getByRole("button", { name: "Close the side panel" }).boundingBox())!;
  expect(Math.abs(close.y + close.height / 2 - (title.y + title.height / 2))).toBeLessThan(12);

  await review.getByTestId("offline").click();
  await expect(review.getByTestId("confirm")).toBeEnabled({ timeout: IMPORT_TIMEOUT });
  await screenshotsAtEverySize(page, "timeline-review");
  // The panel without the review: /context at its top, the token timeline below.
  await page.getByTestId("cancel").click();
  await expect(review).toHaveCount(0);
  await screenshotsAtEverySize(page, "timeline-panel", () =>
    expect(page.getByTestId("token-timeline-panel").getByTestId("context-view")).toBeVisible(),
  );
});

test("after Confirm the main timeline keeps the width it had before the review opened the panel", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "See a compaction planned (example)" }).click();
  const review = page.getByTestId("compaction-preview");
  await expect(review).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await review.getByTestId("cancel").click();
  await page.getByRole("button", { name: "Close the side panel" }).click();
  await expect(page.getByTestId("token-timeline-panel")).toHaveCount(0);
  const before = (await app.timeline.boundingBox())!.width;
  await page.getByTestId("compact-open-top").click();
  await review.getByTestId("offline").click();
  await review.getByTestId("confirm").click();
  await expect(app.compactionRows()).toHaveCount(1, { timeout: IMPORT_TIMEOUT });
  await expect(page.getByTestId("token-timeline-panel")).toHaveCount(0);
  expect((await app.timeline.boundingBox())!.width).toBeCloseTo(before, 0);
  // The compaction's row reads whole tokens ("48,290 → …", never "48,289.5").
  await expect(app.compactionRows().first()).toContainText(/[\d,]+ → [\d,]+ tokens/);
  await expect(app.compactionRows().first()).not.toContainText(/\d\.\d+ →/);
  await page.screenshot({ path: `${OUT}/timeline-after-confirm-1280-light.png` });
});
