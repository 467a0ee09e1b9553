/**
 * Issue 37, parts 4 and 6: the /context view (opened from the meter; at the top of the review) whose
 * "now" parts add up to the meter; the top bar in one row at 1280 px and at most ~90 px above the
 * first entry at 390 px. Screenshots of both, both themes, land in /tmp/cutpoint-screens.
 */
import { mkdirSync } from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { AppPage, IMPORT_TIMEOUT, topBarButton } from "./pages/app-page.ts";

const OUT = "/tmp/cutpoint-screens";

/** The tokens of a /context row's parts, by key (from the legend). */
async function partsOf(row: Locator): Promise<Record<string, { tokens: number; used: boolean }>> {
  const items = await row
    .locator("li[data-part]")
    .evaluateAll((els) =>
      els.map((e) => [
        e.getAttribute("data-part"),
        Number(e.getAttribute("data-tokens")),
        e.getAttribute("data-used"),
      ]),
    );
  return Object.fromEntries(items.map(([k, t, u]) => [k, { tokens: t as number, used: u === "true" }]));
}

const numberIn = async (l: Locator) => Number(((await l.textContent()) ?? "").replace(/[^\d.]/g, ""));

async function openCompactionExample(page: Page): Promise<AppPage> {
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "See a compaction planned (example)" }).click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible({ timeout: IMPORT_TIMEOUT });
  return app;
}

test("the /context view: opened from the meter, its parts add up to the meter; at the top of the review, before and after", async ({
  page,
}) => {
  await openCompactionExample(page);
  const review = page.getByTestId("compaction-preview");
  const inReview = review.getByTestId("context-view");
  await expect(inReview).toBeVisible();
  // At the top of the review: above the figures.
  const viewBox = (await inReview.boundingBox())!;
  const figures = (await review.getByTestId("preview-figures").boundingBox())!;
  expect(viewBox.y).toBeLessThan(figures.y);

  // The meter's total (its breakdown) equals the sum of the used parts of "now".
  const now = inReview.getByTestId("context-now");
  const parts = await partsOf(now);
  for (const key of ["since", "usage", "free", "reserve"]) expect(parts[key], key).toBeDefined();
  const used = Object.values(parts)
    .filter((p) => p.used)
    .reduce((n, p) => n + p.tokens, 0);
  const meterTotal = await numberIn(page.getByTestId("meter-total"));
  expect(Math.round(used)).toBe(Math.round(meterTotal));
  expect(Math.round(Number(await now.getAttribute("data-used")))).toBe(Math.round(meterTotal));
  // With free space and the reserve, the window.
  const all = Object.values(parts).reduce((n, p) => n + p.tokens, 0);
  const meterValue = page.getByTestId("context-meter-value");
  expect(all).toBeCloseTo(Number(await meterValue.getAttribute("max")), 0);

  // "After" adds up to the review's estimate.
  const after = await partsOf(inReview.getByTestId("context-after"));
  const afterUsed = Object.values(after)
    .filter((p) => p.used)
    .reduce((n, p) => n + p.tokens, 0);
  expect(Math.round(afterUsed)).toBe(await numberIn(review.getByTestId("tokens-after")));
  expect(after.since).toBeUndefined();

  mkdirSync(OUT, { recursive: true });
  await inReview.screenshot({ path: `${OUT}/context-view-review.png` });

  // From the meter, the review closed: the panel opens with the view at its top.
  await page.getByTestId("cancel").click();
  await expect(review).toHaveCount(0);
  await page.getByTestId("context-meter").click();
  const inPanel = page.getByTestId("token-timeline-panel").getByTestId("context-view");
  await expect(inPanel).toBeVisible();
  await expect(inPanel.getByTestId("context-after")).toHaveCount(0);
  expect(Math.round(Number(await inPanel.getByTestId("context-now").getAttribute("data-used")))).toBe(
    Math.round(meterTotal),
  );
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`a calm top bar: one row at 1280 px, ≤ 90 px above the first entry at 390 px (${colorScheme})`, async ({
    page,
  }) => {
    mkdirSync(OUT, { recursive: true });
    await page.emulateMedia({ colorScheme });
    const app = await openCompactionExample(page);
    await page.getByTestId("cancel").click();
    await page.getByRole("button", { name: "Panel", exact: true }).click();
    const bar = page.locator("header.topbar");
    // One row: every control's top within the bar's first row.
    const boxes = await bar
      .locator(":scope > *, .topbar-actions > *")
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0));
    const barBox = (await bar.boundingBox())!;
    expect(barBox.height).toBeLessThanOrEqual(56);
    for (const r of boxes) expect(r.bottom).toBeLessThanOrEqual(barBox.y + barBox.height + 1);
    await expect(page.getByTestId("context-meter")).toBeVisible();
    await expect(page.getByTestId("compact-open-top")).toBeVisible();
    await page.screenshot({ path: `${OUT}/topbar-1280-${colorScheme}.png` });
    // The rest is in the ⋯ menu.
    await (await topBarButton(page, "Rename")).focus();
    await page.screenshot({ path: `${OUT}/topbar-menu-1280-${colorScheme}.png` });
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("topbar-more")).toBeFocused();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(app.timeline).toBeVisible();
    const top = (await app.timeline.boundingBox())!.y;
    expect(top).toBeLessThanOrEqual(90);
    expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(50);
    await page.screenshot({ path: `${OUT}/topbar-390-${colorScheme}.png` });
    // Narrow, Tree and Settings are in the menu and work from there.
    await (await topBarButton(page, "Settings")).click();
    await expect(page.locator("dialog[open]")).toBeVisible();
    await page.keyboard.press("Escape");
    await (await topBarButton(page, "Tree")).click();
    await expect(page.getByTestId("tree-list")).toBeVisible({ timeout: IMPORT_TIMEOUT });
  });
}
