/**
 * The token timeline's other views on the imported real pi fixture: "what the model sees" (the
 * built context, the latest summary first), the minimap jump, and the history's diff of the
 * second summary against the first.
 */
import { copyFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { joinUserTurns, piRequest } from "./lib/pi-request-oracle.ts";
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

  // "What the model sees" is what a request carries: the fixture's context at its leaf (446
  // messages) with failed and stopped replies left out and back-to-back user messages joined, as
  // many as pi 1.6 sends for it (joined the same way), the summary first.
  await panel.getByLabel("What the model sees").check();
  const modelView = page.getByTestId("model-view");
  await expect(modelView).toBeVisible();
  const copy = test.info().outputPath("fixture.jsonl");
  copyFileSync(FIXTURE, copy);
  const pi = piRequest(copy);
  const sent = pi ? joinUserTurns(pi).length : 431;
  await expect(panel).toContainText(`${sent} messages are sent to the model, the compaction summary first.`);
  await expect(modelView.locator("li").first()).toHaveAttribute("data-role", "summary");
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

test("the meter's breakdown: hover and keyboard focus show it; leaving, a click and Escape hide it", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await app.openExample();
  const meter = page.getByTestId("context-meter");
  const tip = page.getByTestId("meter-breakdown");
  await expect(meter).toBeVisible();
  await expect(tip).toBeHidden();
  // The pointer on it shows it, Escape hides it, leaving and coming back shows it again.
  await meter.hover();
  await expect(tip).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(tip).toBeHidden();
  await page.mouse.move(640, 500);
  await meter.hover();
  await expect(tip).toBeVisible();
  // A click opens the token timeline and closes the tip; keys pressed then leave it closed.
  await meter.click();
  await expect(page.getByTestId("token-timeline-panel")).toBeVisible();
  await expect(tip).toBeHidden();
  await page.mouse.move(640, 500);
  await page.keyboard.press("Shift");
  await expect(tip).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(tip).toBeHidden();
  await meter.click();
  await page.mouse.move(640, 500);
  await expect(tip).toBeHidden();
  // By keyboard: Tab onto the meter shows it, Escape hides it and the focus stays; Tab away and back shows it.
  await page.getByTestId("session-title").click();
  await expect(page.locator(":focus")).toHaveCount(0);
  await page.keyboard.press("Tab");
  for (let i = 0; i < 10 && !(await meter.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(meter).toBeFocused();
  await expect(tip).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(tip).toBeHidden();
  await expect(meter).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(tip).toBeHidden();
  await page.keyboard.press("Shift+Tab");
  await expect(meter).toBeFocused();
  await expect(tip).toBeVisible();
});
