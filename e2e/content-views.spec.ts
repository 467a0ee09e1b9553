/**
 * The content components in a real browser, mounted alone (e2e/lib/content-harness.tsx): the
 * error boundary shows what failed with "Copy details" and keeps its neighbours alive; an entry
 * with a 100k-deep field renders bounded; its Raw switch shows the model's text.
 */
import { expect, type Page, test } from "@playwright/test";
import { bundleModule } from "./lib/bundle.ts";

const ORIGIN = `http://127.0.0.1:${process.env.CUTPOINT_APP_PORT ?? 4173}`;
let code = "";
test.beforeAll(async () => {
  code = await bundleModule("e2e/lib/content-harness.tsx", "Harness");
});

type Harness = {
  mountFailing(root: HTMLElement, message: string): void;
  mountEntry(root: HTMLElement, entry: unknown): void;
  deepObject(depth: number): unknown;
};

/** A blank page of a secure origin (clipboard), holding the harness bundle. */
async function open(page: Page): Promise<void> {
  await page.route(`${ORIGIN}/__content-harness`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: '<!doctype html><html><body><div id="root"></div><script>window.process = { env: { NODE_ENV: "production" } };</script></body></html>',
    }),
  );
  await page.goto(`${ORIGIN}/__content-harness`);
  await page.addScriptTag({ content: code });
}

test("a part that fails shows its error and Copy details; the rest keeps working", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: ORIGIN });
  await open(page);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.evaluate(() =>
    (window as unknown as { Harness: Harness }).Harness.mountFailing(
      document.getElementById("root")!,
      "Maximum call stack size exceeded \u202Egnp.exe",
    ),
  );
  const box = page.getByTestId("error-boundary");
  await expect(box).toHaveCount(1);
  await expect(box).toContainText("Could not show the broken part.");
  await expect(box).toContainText("Error: Maximum call stack size exceeded ⟨U+202E⟩gnp.exe");
  await expect(page.locator("#alive")).toHaveText("still here");
  await box.getByRole("button", { name: "Copy details" }).click();
  await expect(box.getByRole("status")).toHaveText("Copied.");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("Cutpoint: the broken part failed to render");
  expect(copied).toContain("Error: Maximum call stack size exceeded");
  expect(copied).toContain("Component stack:");
  expect(copied).toContain("Bomb");
  expect(errors).toEqual([]);
});

test("an entry with a 100k-deep field renders bounded, and Raw shows the model's text", async ({ page }) => {
  await open(page);
  await page.evaluate(() => {
    const h = (window as unknown as { Harness: Harness }).Harness;
    h.mountEntry(document.getElementById("root")!, {
      type: "message",
      id: "e1",
      parentId: null,
      timestamp: "2026-01-01T00:00:00.000Z",
      message: {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "read",
        content: [{ type: "text", text: "body <b>bold</b>" }],
        details: h.deepObject(100_000),
        isError: false,
        timestamp: 1,
      },
    });
  });
  await expect(page.getByTestId("error-boundary")).toHaveCount(0);
  await page.locator("summary", { hasText: "Details" }).click();
  await expect(page.getByTestId("json-truncated")).toBeVisible();
  await expect(page.locator(".entry-details pre")).toContainText('"a": {… 1 key}');
  await page.getByRole("button", { name: "Raw" }).click();
  await expect(page.getByTestId("raw-text")).toHaveText("body <b>bold</b>");
});
