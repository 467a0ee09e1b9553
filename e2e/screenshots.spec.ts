/**
 * The shell at 1280 and 800 px, light and dark: nothing overflows sideways, the main actions
 * stay reachable, and screenshots land in /tmp/cutpoint-screens for a person to look at.
 */
import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { AppPage, IMPORT_TIMEOUT, topBarButton } from "./pages/app-page.ts";

const OUT = "/tmp/cutpoint-screens";

for (const colorScheme of ["light", "dark"] as const) {
  for (const width of [1280, 800]) {
    test(`layout at ${width} px, ${colorScheme}`, async ({ page }) => {
      mkdirSync(OUT, { recursive: true });
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 800 });
      const app = new AppPage(page);
      await app.goto();
      await expect(page.getByRole("button", { name: "Open the example session" })).toBeVisible();
      await page.screenshot({ path: `${OUT}/welcome-${width}-${colorScheme}.png` });

      await page.getByRole("button", { name: "Open the example session" }).click();
      await expect(app.title).toHaveText("tally: --json flag and exact cents", { timeout: IMPORT_TIMEOUT });
      await app.goToLastCompaction();
      await app.compactionRows().first().getByRole("button", { expanded: false }).click();
      await expect(app.compactionRows().first()).toContainText("Key Decisions");
      for (const name of ["Rename", "Export", "Settings"]) {
        await expect(await topBarButton(page, name)).toBeInViewport();
      }
      await page.keyboard.press("Escape");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${OUT}/session-${width}-${colorScheme}.png` });

      if (width === 800) {
        await expect(app.sidebar).not.toBeInViewport();
        await app.showSidebar();
        await expect(app.sidebar).toBeInViewport();
        await page.screenshot({ path: `${OUT}/sidebar-${width}-${colorScheme}.png` });
      }
    });
  }
}
