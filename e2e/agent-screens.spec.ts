/**
 * Screens of the agent UI at 1280 and 800 px, light and dark: a run with thinking, tool calls and
 * results, the settings dialog, the workspace panel. Checks that nothing overflows the window and
 * that the composer stays reachable; writes PNGs to $AGENT_SHOTS (default /tmp/agent-shots) for
 * a person to look at.
 */
import { expect, test } from "@playwright/test";
import { newSession, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { scriptReplies, uniqueKey } from "./mock/client.ts";

const OUT = process.env.AGENT_SHOTS ?? "/tmp/agent-shots";

for (const width of [1280, 800]) {
  for (const scheme of ["light", "dark"] as const) {
    test(`agent screens at ${width}px, ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: scheme });
      const key = uniqueKey(`shots-${width}-${scheme}`);
      await page.goto("/");
      await setUpProvider(page, key);
      await newSession(page);
      await scriptReplies(key, [
        {
          reasoning: ["The person wants a README. ", "I will write it, then fix the title."],
          text: "I'll create the file first.",
          toolCalls: [
            {
              name: "write",
              arguments: {
                path: "docs/README.md",
                content: `# Projct\n\n${"A long line of text to see wrapping. ".repeat(3)}\n`,
              },
            },
          ],
        },
        {
          text: "Now the typo.",
          toolCalls: [
            { name: "edit", arguments: { path: "docs/README.md", oldText: "Projct", newText: "Project" } },
          ],
        },
        {
          text: [
            "Done. I created `docs/README.md` and fixed the title.\n\n",
            "- **write** created the file\n- **edit** fixed the typo\n",
          ],
        },
      ]);
      await send(page, "Create docs/README.md with a title, then fix any typo in it.");
      await waitIdle(page);
      await expect(page.getByTestId("tool-result")).toHaveCount(2);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(page.getByRole("textbox", { name: "Message" })).toBeInViewport();
      await page.screenshot({ path: `${OUT}/run-${width}-${scheme}.png` });

      await page.getByRole("button", { name: "Files", exact: true }).click();
      await page.getByTestId("workspace-panel").getByRole("button", { name: "docs/README.md" }).click();
      await expect(page.getByTestId("file-content")).toContainText("# Project");
      await page.screenshot({ path: `${OUT}/files-${width}-${scheme}.png` });
      // Long lines scroll sideways until "Wrap lines" is checked; then they wrap, text unchanged.
      const content = page.getByTestId("file-content");
      const sideways = () => content.evaluate((el) => el.scrollWidth - el.clientWidth);
      if (width <= 800) expect(await sideways()).toBeGreaterThan(0);
      await page.getByTestId("file-view").getByRole("checkbox", { name: "Wrap lines" }).check();
      expect(await sideways()).toBeLessThanOrEqual(0);
      await expect(content).toContainText("A long line of text to see wrapping. ".repeat(3).trim());
      await page.screenshot({ path: `${OUT}/files-wrapped-${width}-${scheme}.png` });
      await page.getByRole("button", { name: "Close the workspace panel" }).click();

      // Mid-stream: thinking collapsed, text arriving.
      await scriptReplies(key, [
        {
          reasoning: ["Checking the file again. ", "It looks fine."],
          text: Array.from({ length: 40 }, (_, i) => `token${i} `),
          delayMs: 60,
        },
      ]);
      await send(page, "Check it once more, slowly.");
      await expect(page.getByTestId("live-text")).toContainText("token3");
      await expect(page.getByTestId("live-message").locator("details summary")).toContainText("Thinking");
      await page.screenshot({ path: `${OUT}/streaming-${width}-${scheme}.png` });
      await waitIdle(page);

      await page.getByRole("button", { name: "Settings" }).click();
      const dlg = page.locator('dialog[data-dialog="settings"]');
      await expect(dlg.getByTestId("api-key-display")).toBeVisible();
      const box = await dlg.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      await page.screenshot({ path: `${OUT}/settings-${width}-${scheme}.png` });
    });
  }
}
