/**
 * The first five minutes (issue 36, part 9), at 1280 and 390 px, light and dark: the welcome
 * screen and an empty session offer "Set up a model"; Settings opens on the provider section
 * (headed, like every section); the base URL is checked as it is typed (scheme, a trailing
 * /chat/completions, a page's address) with a fix one click away; where the key is kept is chosen
 * before Save; Test connection says what it tested, and that no key was given. Nothing overflows
 * sideways. PNGs go to $SETUP_SHOTS (default /tmp/setup-shots) for a person to look at.
 */
import { expect, test } from "@playwright/test";
import { settingsDialog } from "./agent-helpers.ts";
import { MOCK_BASE_URL, setModels, uniqueKey } from "./mock/client.ts";

test.setTimeout(150_000);

const OUT = process.env.SETUP_SHOTS ?? "/tmp/setup-shots";

for (const width of [1280, 390]) {
  for (const scheme of ["light", "dark"] as const) {
    test(`setup at ${width}px, ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/");
      const noSideways = async () =>
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);

      // The welcome screen: "Set up a model" is the first thing to do.
      const setup = page.getByTestId("welcome-setup");
      await expect(setup.getByRole("button", { name: "Set up a model" })).toBeInViewport();
      await noSideways();
      await page.screenshot({ path: `${OUT}/welcome-${width}-${scheme}.png` });

      await setup.getByRole("button", { name: "Set up a model" }).click();
      const dlg = settingsDialog(page);
      await expect(dlg).toBeVisible();
      // It opens on the provider section (the first, with its heading); every section has one.
      const headings = dlg.locator(".settings-heading");
      await expect(headings.first()).toHaveText("Model provider");
      await expect(headings.first()).toBeInViewport();
      await expect(dlg.getByLabel("Provider", { exact: true })).toBeInViewport();
      expect(await headings.allTextContents()).toEqual(
        expect.arrayContaining(["Model provider", "Compaction", "Summary instructions"]),
      );
      // The compaction radio groups each have their own title.
      const groups = dlg.getByTestId("compaction-settings").getByRole("radiogroup");
      for (const name of [
        "When the context passes the trigger",
        "Where the trigger lies",
        "When you move off a branch",
      ])
        await expect(groups.filter({ has: page.getByText(name, { exact: true }) })).toHaveCount(1);
      await page.screenshot({ path: `${OUT}/settings-${width}-${scheme}.png` });

      // The base URL, checked as it is typed.
      await dlg.getByLabel("Provider", { exact: true }).selectOption("custom");
      const base = dlg.getByLabel("Base URL");
      const problems = dlg.getByTestId("base-url-problem");
      await base.fill("api.example.com/v1");
      await expect(problems).toContainText("needs to start with https://");
      await base.fill("https://api.example.com/v1/chat/completions");
      await expect(problems).toContainText("Leave out /chat/completions");
      await base.fill("https://platform.openai.com/docs/overview");
      await expect(problems).toContainText("web page's address");
      await expect(problems.getByRole("button", { name: "Use https://api.openai.com/v1" })).toBeVisible();
      await page.screenshot({ path: `${OUT}/base-url-${width}-${scheme}.png` });
      // One click fixes a trailing endpoint path.
      await base.fill(`${MOCK_BASE_URL}/chat/completions`);
      await problems.getByRole("button", { name: `Use ${MOCK_BASE_URL}` }).click();
      await expect(base).toHaveValue(MOCK_BASE_URL);
      await expect(problems).toHaveCount(0);

      // Where the key is kept comes before Save.
      const keep = dlg.locator("fieldset.key-modes");
      const save = dlg.getByRole("button", { name: "Save key" });
      await expect(keep).toBeVisible();
      const [keepBox, saveBox] = [await keep.boundingBox(), await save.boundingBox()];
      expect(keepBox!.y).toBeLessThan(saveBox!.y);

      // Test connection with no key: says what it tested, and that no key was given.
      const key = uniqueKey(`setup-${width}-${scheme}`);
      await setModels(key, { models: ["mock-model"] });
      await dlg.getByRole("button", { name: "Test connection" }).click();
      const result = dlg.getByTestId("connection-result");
      await expect(result).toContainText(`Tested: listing the models at ${MOCK_BASE_URL}/models`);
      await expect(result).toContainText("without a key");
      await expect(result).not.toContainText(/^Connected/);
      await noSideways();
      await result.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${OUT}/test-connection-${width}-${scheme}.png` });
      await dlg.getByRole("button", { name: "Done" }).click();

      // An empty session with no model set offers it too, where the person is about to type.
      const toggle = page.getByRole("button", { name: "Show the session list" });
      if (await toggle.isVisible()) await toggle.click();
      await page.getByRole("button", { name: "+ New" }).click();
      const inSession = page.getByTestId("setup-model");
      await expect(inSession.getByRole("button", { name: "Set up a model" })).toBeInViewport();
      await noSideways();
      await page.screenshot({ path: `${OUT}/empty-session-${width}-${scheme}.png` });
      await inSession.getByRole("button", { name: "Set up a model" }).click();
      await expect(dlg.locator(".settings-heading").first()).toBeInViewport();
    });
  }
}
