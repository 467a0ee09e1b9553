/**
 * Masking instead of summarizing, on the real pi fixture: the review shows what masking old tool
 * outputs saves beside what the summary saves; Mask writes one pi 1.6 `context_edit` per output
 * (the originals stay in the file), the context shrinks by what was shown, the rows say "masked";
 * Undo gives the outputs back (more edits, the latest wins) and the context is as before.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { AppPage } from "./pages/app-page.ts";

test.setTimeout(240_000);

const ROOT = resolve(import.meta.dirname, "..");
const FIXTURE = resolve(ROOT, "../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;
const SHOTS = process.env.CUTPOINT_SHOTS ?? "/tmp/shots-review";

const num = (s: string) => Number(s.replace(/,/g, ""));

async function exported(app: AppPage): Promise<Record<string, unknown>[]> {
  const download = await app.exportOpen();
  return readFileSync(await download.path(), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function meterTokens(page: Page): Promise<number> {
  const text = (await page.getByRole("meter", { name: "Context" }).getAttribute("aria-valuetext")) ?? "";
  return num(/^([\d,]+) of/.exec(text)![1]!);
}

test("mask old tool outputs: tokens saved beside the summary's, context_edit entries written, rows marked, Undo", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(FIXTURE);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 90_000 }).toBe("1,002");
  const entriesBefore = (await exported(app)).length;
  await page.getByTestId("context-meter").click();
  await page.getByTestId("compact-open").click();
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();

  await preview.getByTestId("masking").locator("summary").click();
  const saves = preview.getByTestId("masking-saves");
  await expect(saves).toContainText(
    /Masking [\d,]+ tool outputs saves ≈ [\d,]+ tokens .*estimated.*; the summary saves ≈ [\d,]+/,
  );
  const m = /Masking ([\d,]+) tool outputs saves ≈ ([\d,]+) tokens \(([\d,]+) → ≈ ([\d,]+) estimated/.exec(
    (await saves.textContent()) ?? "",
  )!;
  const [count, saved, before, after] = [num(m[1]!), num(m[2]!), num(m[3]!), num(m[4]!)];
  expect(count).toBeGreaterThan(0);
  expect(saved).toBeGreaterThan(0);
  // "Before" is the meter's figure (the provider's count); "after" the estimate less what is saved,
  // which the meter shows once masked (the edits set the provider's count aside).
  expect(before).toBe(await meterTokens(page));
  // A higher size keeps the smaller outputs: fewer of them.
  await preview.getByTestId("mask-min-tokens").fill("1000");
  await expect(saves).not.toContainText(`Masking ${m[1]} tool outputs`);
  await preview.getByTestId("mask-min-tokens").fill("100");
  await expect(saves).toContainText(`Masking ${m[1]} tool outputs`);
  await page.screenshot({ path: `${SHOTS}/masking-1280-light.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 800, height: 800 });
  await preview.getByTestId("masking").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/masking-800-dark.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });

  const meterBefore = await meterTokens(page);
  await preview.getByTestId("mask-apply").click();
  const maskToast = app.toast(/Masked [\d,]+ tool outputs/);
  await expect(maskToast).toBeVisible();
  // Its button is disabled now: the focus is on the masking panel's heading, not lost.
  await expect(preview.getByTestId("masking").locator("summary")).toBeFocused();

  // The file: one context_edit per output, each replacing its target with the placeholder.
  const masked = await exported(app);
  const edits = masked.filter((e) => e.type === "context_edit");
  expect(masked.length).toBe(entriesBefore + count);
  expect(edits).toHaveLength(count);
  for (const e of edits) {
    const r = e.replacement as { content: unknown };
    expect(JSON.stringify(r.content)).toContain("Tool output masked to save context.");
  }
  // The meter reads what the review said (estimates: the reported usage no longer counts).
  await expect.poll(() => meterTokens(page)).toBe(after);
  expect(after).toBeLessThan(meterBefore);
  await page.getByTestId("cancel").click();
  // The pointer rests on the toast, as a person keeping its Undo would: its 10 s timer pauses, so
  // scrolling the timeline below never outlasts it on a slow machine.
  await maskToast.hover();
  // The rows of masked outputs say so (the timeline is virtualized: scroll until one is drawn).
  const timeline = page.getByTestId("timeline");
  const marked = timeline.getByTestId("row-edit").filter({ hasText: "masked for the model" });
  await timeline.evaluate((el) => {
    el.scrollTop = 0;
  });
  for (let i = 0; i < 200 && (await marked.count()) === 0; i++)
    await timeline.evaluate((el) => {
      el.scrollTop += el.clientHeight;
    });
  await expect(marked.first()).toBeVisible();

  // Undo: the outputs are back for the model, the originals never left the file.
  await maskToast.getByRole("button", { name: "Undo" }).click();
  await expect(app.toast(/Masking undone/)).toBeVisible();
  const undone = await exported(app);
  expect(undone.filter((e) => e.type === "context_edit")).toHaveLength(2 * count);
  await expect.poll(() => meterTokens(page)).toBeGreaterThan(after);

  // Mask, then summarize: the compaction confirmed after masking records that strategy.
  await page.getByTestId("compact-open").click();
  await preview.getByTestId("masking").locator("summary").click();
  await preview.getByTestId("mask-apply").click();
  await expect(app.toast(/Masked [\d,]+ tool outputs/)).toBeVisible();
  await preview.getByTestId("offline").click();
  await preview.getByTestId("confirm").click();
  await expect(preview).toHaveCount(0);
  const last = (await exported(app)).at(-1)!;
  expect(last.type).toBe("compaction");
  expect(last.details).toMatchObject({ cutpoint: { trigger: "masking", maskedOutputs: count } });
  await timeline.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(timeline.getByTestId("record-trigger").last()).toHaveText(
    `after masking tool outputs (${count})`,
  );
});
