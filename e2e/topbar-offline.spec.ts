/**
 * Issue 37, the calm top bar offline: with the Offline chip showing, the bar still fits in one row
 * at 800 and 390 px (what does not fit goes into the ⋯ menu), so ⚙ Settings is in the viewport and
 * opens; back online at 1280 px, the bar shows Settings again. Screenshots in both themes.
 */
import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { AppPage, IMPORT_TIMEOUT, topBarButton } from "./pages/app-page.ts";

const OUT = "/tmp/cutpoint-screens";

/** The right edges of the top bar's shown controls, and the bar's own height. */
async function barExtent(page: Page): Promise<{ right: number; height: number }> {
  return page.locator("header.topbar").evaluate((bar) => {
    let right = 0;
    for (const el of bar.querySelectorAll("button, [role=status], .cp-meter-wrap")) {
      const r = el.getBoundingClientRect();
      // Shown in the bar (the ⋯ menu's closed items have no box).
      if (r.width > 0 && !el.closest(".more-menu-pop")) right = Math.max(right, r.right);
    }
    return { right, height: bar.getBoundingClientRect().height };
  });
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`offline, the top bar fits at 800 and 390 px: Settings in the viewport and working (${colorScheme})`, async ({
    page,
    context,
  }) => {
    mkdirSync(OUT, { recursive: true });
    await page.emulateMedia({ colorScheme });
    const app = new AppPage(page);
    await app.goto();
    await page.getByRole("button", { name: "See a compaction planned (example)" }).click();
    await expect(page.getByTestId("compaction-preview")).toBeVisible({ timeout: IMPORT_TIMEOUT });
    await page.getByTestId("cancel").click();
    await page.getByRole("button", { name: "Panel", exact: true }).click();
    await context.setOffline(true);
    await expect(page.getByTestId("offline-notice")).toBeVisible();

    for (const [width, height] of [
      [800, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await expect(page.getByTestId("offline-notice")).toBeVisible();
      // Nothing of the bar past the window's right edge, and one row.
      await expect.poll(async () => (await barExtent(page)).right).toBeLessThanOrEqual(width);
      expect((await barExtent(page)).height).toBeLessThanOrEqual(56);
      await page.screenshot({ path: `${OUT}/topbar-offline-${width}-${colorScheme}.png` });
      // Settings: in the bar or in the ⋯ menu, inside the viewport, and it opens.
      const settings = await topBarButton(page, "Settings");
      const box = (await settings.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${OUT}/topbar-offline-menu-${width}-${colorScheme}.png` });
      await settings.click();
      await expect(page.locator("dialog[open]")).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.locator("dialog[open]")).toHaveCount(0);
    }

    // Back online and wide: the chip goes, and Settings is in the bar again.
    await context.setOffline(false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByTestId("offline-notice")).toHaveCount(0);
    await expect(
      page.locator("header.topbar > .topbar-actions").getByRole("button", { name: "Settings" }),
    ).toBeVisible();
    expect((await barExtent(page)).right).toBeLessThanOrEqual(1280);
  });
}
