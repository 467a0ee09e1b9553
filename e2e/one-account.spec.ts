/**
 * Issue 37, part 1: one account in every state. On the compaction example and on the shared pi
 * fixture, after each step (Mask, Unmask, Confirm, Undo, Redo, a branch summary, a reply the
 * provider reported), the meter, the timeline head, the review, the token timeline and History
 * give the figures `npm run cli -- context --json` gives of the exported file; the meter's bar
 * draws what its text says; where the provider's count and the estimate differ, both are labelled.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = "/tmp/one-account";

const num = (s: string | null | undefined) => Number((s ?? "").replace(/[^\d.]/g, ""));

interface CliContext {
  contextTokens: number;
  source: "reported" | "estimated";
  /** The estimate: the sum of the messages' estimates. */
  estimate: number;
}

/** Exports the open session and runs the CLI's `context --json` on the file. */
async function cliContext(app: AppPage, step: string): Promise<CliContext> {
  const download = await app.exportOpen();
  await app.page.keyboard.press("Escape");
  const file = `${OUT}/${step}.jsonl`;
  copyFileSync(await download.path(), file);
  const out = execFileSync("node", [resolve(ROOT, "src/cli/run-built.mjs"), "context", file, "--json"], {
    encoding: "utf8",
  });
  const j = JSON.parse(out) as CliContext & { messages: { tokens: number }[] };
  return {
    // The meter shows whole tokens (an image's estimate can be a half).
    contextTokens: Math.round(j.contextTokens),
    source: j.source,
    estimate: Math.round(j.messages.reduce((n, m) => n + m.tokens, 0)),
  };
}

/** The meter's figure and source, and the share of the bar its segments fill against its text's. */
async function meter(page: Page) {
  const valueText = (await page.getByTestId("context-meter-value").getAttribute("aria-valuetext")) ?? "";
  const [, total, window] = /^([\d,]+) of ([\d,]+) tokens/.exec(valueText)!;
  const drawn = await page
    .getByTestId("context-meter-bar")
    .locator(".seg")
    .evaluateAll((els) => els.reduce((n, e) => n + Number.parseFloat((e as HTMLElement).style.width), 0));
  const source = (await page.getByTestId("context-meter").locator(".cp-tag").first().textContent())?.trim();
  return { total: num(total), window: num(window), drawn, source };
}

/** Compares every view with the CLI's account of the exported file; returns the CLI's. */
async function sameAccount(app: AppPage, step: string): Promise<CliContext> {
  const page = app.page;
  const cli = await cliContext(app, step);
  await test.step(`${step}: ${cli.contextTokens} ${cli.source}, estimate ${cli.estimate}`, async () => {
    // The meter: the CLI's size and source; its bar as long as its text says.
    await expect
      .poll(async () => (await meter(page)).total, { message: `${step}: meter` })
      .toBe(cli.contextTokens);
    const m = await meter(page);
    expect(m.source, `${step}: meter source`).toBe(cli.source);
    expect(m.drawn, `${step}: bar vs text`).toBeCloseTo(
      Math.min(100, (m.total / Math.max(m.window, m.total)) * 100),
      1,
    );
    // The timeline head: the estimate, and the provider's count beside it when the meter shows one.
    const head = page.getByTestId("head-tokens");
    await expect(head).toContainText("estimate");
    const k = (n: number) =>
      n < 1000 ? String(n) : n < 10_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`;
    await expect(head).toContainText(`≈ ${k(cli.estimate)} tokens`);
    if (cli.source === "reported")
      await expect(page.getByTestId("head-reported")).toContainText(
        `the provider reports ${k(cli.contextTokens)}`,
      );
    else await expect(page.getByTestId("head-reported")).toHaveCount(0);
    // The panel: /context "Now" is the meter's figure, and says why it is reported or estimated.
    const panel = page.getByTestId("token-timeline-panel");
    const now = panel.getByTestId("context-now");
    expect(Math.round(Number(await now.getAttribute("data-used")))).toBe(cli.contextTokens);
    await expect(panel.getByTestId("context-source-note")).toContainText(
      cli.source === "reported" ? "Reported" : "Estimated",
    );
    // The token timeline: its running total at the last entry is the estimate.
    const rows = panel.getByTestId("token-timeline");
    await rows.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const last = rows.locator("li.cp-row").last();
    await expect
      .poll(
        async () =>
          /running ([\d,]+)/.exec((await last.locator(".cp-total").getAttribute("title")) ?? "")?.[1],
      )
      .toBe(cli.estimate.toLocaleString("en-US"));
  });
  return cli;
}

async function openReview(page: Page) {
  const review = page.getByTestId("compaction-preview");
  if (await review.isVisible()) return review;
  await page.getByTestId("compact-open").click();
  await expect(review).toBeVisible();
  return review;
}

/** Mask (from the review), Unmask (the toast's Undo): the masking's figures are what the meter then shows. */
async function maskAndUnmask(app: AppPage, before: CliContext): Promise<void> {
  const page = app.page;
  const review = await openReview(page);
  await expect
    .poll(async () => num(await review.getByTestId("tokens-before").textContent()))
    .toBe(before.contextTokens);
  await review.getByTestId("masking").locator("summary").click();
  const predicted = num(await review.getByTestId("masking-after").textContent());
  if (before.source === "reported" && before.contextTokens > before.estimate)
    expect(num(await review.getByTestId("masking-next-reply").textContent())).toBe(
      predicted + before.contextTokens - before.estimate,
    );
  await review.getByTestId("mask-apply").click();
  const toast = app.toast(/Masked [\d,]+ tool outputs/);
  await expect(toast).toBeVisible();
  await toast.hover();
  const masked = await sameAccount(app, "mask");
  expect(masked).toMatchObject({ contextTokens: predicted, source: "estimated" });
  // After the masking, the review's "before" is the meter's figure again.
  await expect.poll(async () => num(await review.getByTestId("tokens-before").textContent())).toBe(predicted);
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(app.toast(/Masking undone/)).toBeVisible();
  const unmasked = await sameAccount(app, "unmask");
  // The estimate is back where it was; the provider's count stays aside (an edit came after it), and /context says so.
  expect(unmasked).toEqual({
    contextTokens: before.estimate,
    source: "estimated",
    estimate: before.estimate,
  });
  if (before.source === "reported") {
    const note = page.getByTestId("token-timeline-panel").getByTestId("context-source-note");
    await expect(note).toContainText(/provider's last count \([\d,]+\) came before/);
    const setAside = num(/last count \(([\d,]+)\)/.exec((await note.textContent()) ?? "")?.[1]);
    expect(setAside).toBeGreaterThan(0);
    expect(setAside).toBeLessThanOrEqual(before.contextTokens);
  }
}

/** Offline summary, Confirm, Undo, Redo: the review's "after" is the meter after Confirm; History its "before". */
async function confirmUndoRedo(app: AppPage, before: CliContext): Promise<CliContext> {
  const page = app.page;
  const review = await openReview(page);
  await review.getByTestId("offline").click();
  await expect(review.getByTestId("confirm")).toBeEnabled({ timeout: IMPORT_TIMEOUT });
  const after = num(await review.getByTestId("tokens-after").textContent());
  expect(num(await review.getByTestId("tokens-before").textContent())).toBe(before.contextTokens);
  await review.getByTestId("confirm").click();
  await expect(review).toHaveCount(0);
  const confirmed = await sameAccount(app, "confirm");
  expect(confirmed).toMatchObject({ contextTokens: after, source: "estimated" });
  const panel = page.getByTestId("token-timeline-panel");
  await panel.getByRole("button", { name: /^History/ }).click();
  await expect(panel.getByTestId("compaction-history").locator("li > button").last()).toContainText(
    `${before.contextTokens.toLocaleString("en-US")} tokens before`,
  );
  await panel.getByRole("button", { name: /^History/ }).click();
  await app.toasts.getByRole("button", { name: "Undo" }).click();
  await expect(app.toast(/Compaction undone/)).toBeVisible();
  expect(await sameAccount(app, "undo")).toEqual({
    ...before,
    contextTokens: before.estimate,
    source: "estimated",
  });
  await app
    .toast(/Compaction undone/)
    .getByRole("button", { name: "Redo" })
    .click();
  await expect(app.toast(/Compaction redone/)).toBeVisible();
  expect(await sameAccount(app, "redo")).toEqual(confirmed);
  return confirmed;
}

test.beforeAll(() => mkdirSync(OUT, { recursive: true }));

test("one account on the compaction example: mask, unmask, confirm, undo, redo, a branch summary, a reported reply", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const key = uniqueKey("one-account");
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "See a compaction planned (example)" }).click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await page.getByTestId("cancel").click();
  const start = await sameAccount(app, "example");
  expect(start.source).toBe("reported");
  await maskAndUnmask(app, start);
  await confirmUndoRedo(app, { ...start, contextTokens: start.estimate, source: "estimated" });

  // A branch summary: continue from an early reply, with an offline summary of the branch left.
  const earlier = app.timelineRow("Let me look at the project first.");
  await app.timeline.evaluate((el) => {
    el.scrollTop = 0;
  });
  await earlier.hover();
  await earlier.getByRole("button", { name: "Continue from here" }).click();
  const nav = page.locator('dialog[data-dialog="navigate"]');
  await nav.getByRole("button", { name: "Write offline draft" }).click();
  await nav.getByRole("button", { name: "Confirm" }).click();
  await expect(nav).toBeHidden();
  await sameAccount(app, "branch-summary");

  // A reply the provider reported: the meter is its count plus what came after it.
  await setUpProvider(page, key);
  await scriptReplies(key, [{ text: "Noted.", usage: { prompt_tokens: 3_210, completion_tokens: 12 } }]);
  await send(page, "and now?");
  await waitIdle(page);
  const reported = await sameAccount(app, "reply");
  expect(reported.source).toBe("reported");
  expect(reported.contextTokens).toBeGreaterThanOrEqual(3_222);
});

test("one account on the shared pi fixture: mask, unmask, confirm, undo, redo", async ({ page }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.goto();
  await app.importPiFixture();
  await page.getByTestId("context-meter").click();
  const start = await sameAccount(app, "fixture");
  await maskAndUnmask(app, start);
  await confirmUndoRedo(app, { ...start, contextTokens: start.estimate, source: "estimated" });
});
