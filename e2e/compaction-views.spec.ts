/**
 * The token timeline's other views on the imported real pi fixture: "what the model sees" (the
 * built context, the latest summary first), the minimap jump, and the history's diff of the
 * second summary against the first.
 */
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { AppPage } from "./pages/app-page.ts";

test.setTimeout(180_000);

const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;

test("what the model sees, minimap jump, and the diff of successive summaries", async ({ page }) => {
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(FIXTURE);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 90_000 }).toBe("1,002");
  await page.getByTestId("context-meter").click();
  const panel = page.getByTestId("token-timeline-panel");
  await expect(panel).toBeVisible();

  // "What the model sees": the fixture's context at its leaf is 446 messages, the summary first.
  await panel.getByLabel("What the model sees").check();
  const modelView = page.getByTestId("model-view");
  await expect(modelView).toBeVisible();
  await expect(panel).toContainText("446 messages are sent to the model, the compaction summary first.");
  await expect(modelView.locator("li").first()).toHaveAttribute("data-role", "compactionSummary");
  await expect(modelView.locator("li").first()).toContainText("Summary");
  await panel.getByLabel("What the model sees").uncheck();
  await expect(page.getByTestId("token-timeline")).toBeVisible();

  // The minimap jumps: a click at its top scrolls the timeline to the session's start.
  const timeline = page.getByTestId("token-timeline");
  await timeline.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  const bottom = await timeline.evaluate((el) => el.scrollTop);
  expect(bottom).toBeGreaterThan(1000);
  const minimap = page.getByTestId("minimap");
  const box = (await minimap.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + 2);
  await expect.poll(() => timeline.evaluate((el) => el.scrollTop)).toBeLessThan(bottom / 10);

  // History: two compactions; the second compared with the first shows added and removed lines.
  await panel.getByRole("button", { name: /History \(2\)/ }).click();
  const history = page.getByTestId("compaction-history");
  await expect(history).toContainText("#1");
  await expect(history).toContainText(/#2 · .* tokens before · replaced \d+ entries/);
  await history.getByLabel("compare with the previous summary").check();
  const diff = page.getByTestId("summary-diff");
  await expect(diff).toContainText(/\+\d+ \/ −\d+ lines against the previous summary/);
  const stats = (await diff.locator("p").textContent()) ?? "";
  const [, added] = /\+(\d+)/.exec(stats) ?? [];
  expect(Number(added)).toBeGreaterThan(0);
  await expect(diff.locator(".d-add").first()).toBeVisible();
});
