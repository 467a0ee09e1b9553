/**
 * Issue 37, parts 8 and 3: the review by keyboard (the cut handle within three Tabs of opening it,
 * its value saying what is summarized, kept and the size after; the focus never left to the page
 * after Generate, Stop, Offline summary, Discard, Mask and Undo: Stop while generating, then the
 * button pressed once it is back) and an honest "after" (the best estimate
 * with its bound before a draft, the summary's typical size stated, "moved by hand" only when it was).
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { setUpProvider } from "./agent-helpers.ts";
import { scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

test.setTimeout(120_000);

const num = (s: string | null) => Number((s ?? "").replace(/[^\d.]/g, ""));
const kOf = (n: number) => (n < 10_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`);

/** What has the focus: its test id, or its tag when it has none ("BODY" when the focus is lost). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return a?.getAttribute("data-testid") ?? a?.tagName ?? "none";
  });

/** Presses Enter on a control reached by the keyboard (focused as Tab would, then Enter). */
async function press(control: Locator): Promise<void> {
  await control.focus();
  await expect(control).toBeFocused();
  await control.press("Enter");
}

async function openExample(page: Page): Promise<AppPage> {
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "See a compaction planned (example)" }).click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible({ timeout: IMPORT_TIMEOUT });
  // Closed, to open it by the keyboard as a person would.
  await page.getByTestId("cancel").click();
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  return app;
}

/** Opens the review from the top bar's Compact… with Enter; returns the Tabs it took to reach the cut handle. */
async function openByKeyboard(page: Page): Promise<number> {
  await press(page.getByTestId("compact-open-top"));
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  const handle = page.getByTestId("cut-handle");
  let tabs = 0;
  while (tabs < 10 && !(await handle.evaluate((el) => el === document.activeElement))) {
    await page.keyboard.press("Tab");
    tabs++;
  }
  return tabs;
}

test("by keyboard: the cut within three Tabs, its value says the plan; the focus follows Generate, Stop, Offline, Mask, Undo", async ({
  page,
}) => {
  const key = uniqueKey("review-keys");
  await page.goto("/");
  await setUpProvider(page, key);
  const app = await openExample(page);

  const tabs = await openByKeyboard(page);
  expect(tabs).toBeLessThanOrEqual(3);
  const handle = page.getByTestId("cut-handle");
  await expect(handle).toBeFocused();
  // Its value: what is summarized, what is kept, the size after, as the review's figures say.
  const review = page.getByTestId("compaction-preview");
  const text = (await handle.getAttribute("aria-valuetext")) ?? "";
  const m =
    /^cut before entry [\d,]+: summarizes ([\d,]+) messages?(?: and the first ([\d,]+) messages? of a split turn)?, keeps ([\d,]+) tokens in ([\d,]+) messages?, ≈ ([\d.]+k) after \(at most ([\d.]+k)\)$/.exec(
      text,
    );
  expect(m, text).not.toBeNull();
  expect(num(m![1]!)).toBe(num(await review.getByTestId("summarize-count").textContent()));
  expect(text).toContain(
    `keeps ${(await review.getByTestId("after-parts").textContent())!.match(/kept ([\d,]+)/)![1]} tokens`,
  );
  expect(m![5]).toBe(kOf(num(await review.getByTestId("tokens-after").textContent())));
  expect(m![6]).toBe(kOf(num(await review.getByTestId("tokens-after-bound").textContent())));
  // Its label on screen says the same count of kept messages.
  await expect(handle).toContainText(`· ${m![4]} message`);

  // Generate: the button is replaced by Stop, which takes the focus.
  await scriptReplies(key, [
    { text: ["## Goal\n", "PARTIAL", " draft", " still", " going", " on", " and", " on"], delayMs: 800 },
  ]);
  await press(review.getByTestId("generate"));
  await expect(review.getByTestId("stop")).toBeFocused();
  await expect(review.getByTestId("summary-editor")).toHaveValue(/PARTIAL/, { timeout: 30_000 });
  // Stop: what was written stays in the editor; the button pressed first is back, as Regenerate, with the focus.
  await review.getByTestId("stop").press("Enter");
  await expect(review.getByTestId("draft-incomplete")).toBeVisible();
  await expect(review.getByTestId("generate")).toHaveText("Regenerate");
  await expect(review.getByTestId("generate")).toBeFocused();

  // Offline summary: hidden while it writes (Stop has the focus), back with the focus once the draft is there.
  await press(review.getByTestId("offline"));
  await expect(review.getByTestId("summary-editor")).toHaveValue(/generated offline/);
  await expect(review.getByTestId("offline")).toBeFocused();
  expect(await focused(page)).not.toBe("BODY");
  // With a draft, "after" is its size: no bound left.
  await expect(review.getByTestId("tokens-after-bound")).toHaveCount(0);
  await expect(handle).toHaveAttribute("aria-valuetext", /≈ [\d.]+k after$/);

  // Discard: the Generate button (now in its place) has the focus.
  await press(review.getByTestId("discard"));
  await expect(review.getByTestId("generate")).toBeFocused();

  // Mask: its button goes disabled; the focus is on the masking panel's heading.
  const masking = review.getByTestId("masking").locator("summary");
  await press(masking);
  const apply = review.getByTestId("mask-apply");
  await expect(apply).toBeEnabled();
  await press(apply);
  await expect(masking).toBeFocused();

  // Offline summary and Confirm by keyboard, then Undo from its notice: the focus is on Compact….
  await press(review.getByTestId("offline"));
  await expect(review.getByTestId("summary-editor")).toHaveValue(/generated offline/);
  await expect(review.getByTestId("offline")).toBeFocused();
  await press(review.getByTestId("confirm"));
  await expect(review).toHaveCount(0);
  expect(await focused(page)).not.toBe("BODY");
  await press(app.toast(/Compacted/).getByRole("button", { name: "Undo" }));
  await expect(app.toast(/Compaction undone/)).toBeVisible();
  // The compaction controls take it (Compact… while it is still disabled by the compaction: the meter).
  await expect.poll(() => focused(page)).toMatch(/^(compact-open(-top)?|context-meter)$/);
});

test("an honest after: the best estimate with its bound, the typical summary size said; 'moved by hand' only when it was", async ({
  page,
}) => {
  const app = await openExample(page);
  await openByKeyboard(page);
  const review = page.getByTestId("compaction-preview");
  const before = num(await review.getByTestId("tokens-before").textContent());
  const after = num(await review.getByTestId("tokens-after").textContent());
  const bound = num(await review.getByTestId("tokens-after-bound").textContent());
  expect(after).toBeLessThan(bound);
  // The parts add up: after = summary (typical) + kept; at most = summary (its budget) + kept.
  const parts = (await review.getByTestId("after-parts").textContent()) ?? "";
  const p = /summary ≈ ([\d,]+) typical, ≤ ([\d,]+) \(its budget\) \+ kept ([\d,]+)/.exec(parts);
  expect(p, parts).not.toBeNull();
  const [typical, budget, kept] = [num(p![1]!), num(p![2]!), num(p![3]!)];
  expect(typical + kept).toBe(after);
  expect(budget + kept).toBe(bound);
  // What "typical" is, said.
  await expect(review.getByTestId("typical-summary-note")).toContainText(
    /counted at a typical 1,000 tokens .*pi's own summaries run about 900 to 1,100.*"at most" at its whole output budget, ([\d,]+); both add its file lists \(([\d,]+)\)/,
  );
  const [whole, lists] = (
    /budget, ([\d,]+); both add its file lists \(([\d,]+)\)/.exec(
      (await review.getByTestId("typical-summary-note").textContent()) ?? "",
    ) ?? []
  )
    .slice(1)
    .map(num);
  expect(whole! + lists!).toBe(budget);
  const noteText = (await review.getByTestId("typical-summary-note").textContent()) ?? "";
  const summaryParts = Number(/for each of its (\d) parts/.exec(noteText)?.[1] ?? 1);
  expect(typical).toBe(1000 * summaryParts + lists!);
  expect(parts).not.toContain("moved by hand");
  await expect(page.getByTestId("cut-handle")).not.toHaveAttribute("aria-valuetext", /moved by hand/);
  expect(before).toBeGreaterThan(after);

  // Moved by hand: said; the figures change.
  await page.getByTestId("cut-handle").press("ArrowUp");
  await expect(review.getByTestId("after-parts")).toContainText("(moved by hand)");
  await expect(page.getByTestId("cut-handle")).toHaveAttribute("aria-valuetext", /, moved by hand$/);

  // Confirmed with an offline summary, then undone: the review offered back is not "moved by hand".
  await review.getByTestId("offline").click();
  await expect(review.getByTestId("summary-editor")).toHaveValue(/generated offline/);
  await review.getByTestId("confirm").click();
  await expect(review).toHaveCount(0);
  await app
    .toast(/Compacted/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(app.toast(/Compaction undone/)).toBeVisible();
  await page.getByTestId("compact-open-top").click();
  await expect(review.getByTestId("undone-draft")).toBeVisible();
  await expect(review.getByTestId("after-parts")).not.toContainText("moved by hand");
  await expect(page.getByTestId("cut-handle")).not.toContainText("moved by hand");
  await expect(page.getByTestId("cut-handle")).not.toHaveAttribute("aria-valuetext", /moved by hand/);
  // After a reload too (the review is saved a moment after each change: 250 ms), opened again.
  await page.waitForTimeout(400);
  await page.reload();
  await page.getByTestId("compact-open-top").click({ timeout: IMPORT_TIMEOUT });
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await expect(page.getByTestId("undone-draft")).toBeVisible();
  await expect(page.getByTestId("after-parts")).not.toContainText("moved by hand");
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the review's figures and a split turn's note, screenshots at 1280, 800 and 390 px (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await openExample(page);
    await openByKeyboard(page);
    const review = page.getByTestId("compaction-preview");
    // The example's cut splits a turn: a cut at its start keeps more and its "at most" is lower, said with why.
    const note = review.getByTestId("turn-start-note");
    await expect(note).toContainText(/budget of its own \([\d,]+\)\. A cut at the turn's start keeps/);
    const [budget, prefix, lower] = (
      /\(([\d,]+)\).*≈ ([\d,]+) tokens.*≈ ([\d,]+) lower/.exec((await note.textContent()) ?? "") ?? []
    )
      .slice(1)
      .map(num);
    expect(budget! - prefix!).toBe(lower);
    for (const [width, height] of [
      [1280, 800],
      [800, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await review.getByTestId("preview-figures").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/cutpoint-screens/review-after-${width}-${colorScheme}.png` });
    }
  });
}
