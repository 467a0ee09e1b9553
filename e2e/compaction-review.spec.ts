/**
 * The compaction review's numbers against the CLI, on the real pi fixture: after Confirm, the
 * meter's value, the token timeline's in-context rows and the summary's tokens equal what
 * `cli context --json` says of the exported file; the same after importing a file that ends with a
 * compaction; the main timeline follows the new compaction after the window went narrow and back
 * mid-review. Per-session state (nothing carries over to another session; the draft survives a
 * reload), Redo after Undo, the trigger per session with remind only, notifications that behave,
 * keyboard and screen-reader semantics, and screenshots of the review with a draft.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { settingsDialog, setUpProvider } from "./agent-helpers.ts";
import { getChatRequests, scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage, EXAMPLE_TITLE } from "./pages/app-page.ts";

test.setTimeout(240_000);

const ROOT = resolve(import.meta.dirname, "..");
const FIXTURE = resolve(ROOT, "../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;
const SMALL = resolve(ROOT, "../shared/fixtures/pi16/A-system-usage.jsonl");
const SMALL_USER = /Read a\.ts please/;
const SHOTS = process.env.CUTPOINT_SHOTS ?? "/tmp/shots-review";

interface CliContext {
  contextTokens: number;
  source: string;
  messages: { role: string; entryId: string; tokens: number }[];
}

/** The CLI's view of a session file (`npm run cli -- context <file> --json`). */
function cliContext(file: string): CliContext {
  const out = execFileSync(
    resolve(ROOT, "node_modules/.bin/tsx"),
    ["src/cli/main.ts", "context", file, "--json"],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  return JSON.parse(out) as CliContext;
}

async function importFile(page: Page, file: string, count: string, firstUser = FIRST_USER): Promise<AppPage> {
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(file);
  await expect.poll(() => app.entryCountOf(firstUser), { timeout: 90_000 }).toBe(count);
  await expect(page.getByTestId("context-meter")).toBeVisible({ timeout: 30_000 });
  return app;
}

async function exportTo(app: AppPage, file: string): Promise<string> {
  const download = await app.exportOpen();
  const text = readFileSync(await download.path(), "utf8");
  writeFileSync(file, text);
  return text;
}

/** Every row of the virtualized token timeline: entry id -> { in context, tokens }. */
async function allTimelineRows(page: Page): Promise<Map<string, { inContext: boolean; tokens: number }>> {
  const rows = new Map<string, { inContext: boolean; tokens: number }>();
  const scroller = page.getByTestId("token-timeline");
  const height = await scroller.evaluate((el) => el.scrollHeight);
  for (let y = 0; y <= height; y += 400) {
    const batch = await scroller.evaluate((el, top) => {
      el.scrollTop = top;
      return new Promise<[string, string, string][]>((done) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            done(
              [...el.querySelectorAll<HTMLElement>(".cp-row")].map((r) => [
                r.dataset.entryId ?? "",
                r.dataset.inContext ?? "",
                r.dataset.tokens ?? "0",
              ]),
            ),
          ),
        ),
      );
    }, y);
    for (const [id, inContext, tokens] of batch)
      rows.set(id, { inContext: inContext === "true", tokens: Number(tokens) });
  }
  return rows;
}

/** The meter's total (read from its breakdown) and the summary part. */
async function meterFigures(page: Page): Promise<{ total: number; summary: number }> {
  const num = async (sel: string) =>
    Number(((await page.locator(sel).first().textContent()) ?? "").replace(/[^0-9]/g, ""));
  return {
    total: await num('[data-testid="meter-total"]'),
    summary: await num('[data-testid="meter-breakdown"] [data-part="summary"]'),
  };
}

/** Asserts the meter, the timeline rows and the summary against the CLI's context of `file`. */
async function expectAgreesWithCli(page: Page, file: string): Promise<void> {
  const cli = cliContext(file);
  const summary = cli.messages.find((m) => m.role === "compactionSummary")!;
  expect(summary).toBeDefined();
  await expect
    .poll(async () => (await meterFigures(page)).total, { timeout: 15_000 })
    .toBe(cli.contextTokens);
  expect((await meterFigures(page)).summary).toBe(summary.tokens);
  await page.getByTestId("context-meter").click();
  await expect(page.getByTestId("token-timeline")).toBeVisible();
  const rows = await allTimelineRows(page);
  const inCli = new Set(cli.messages.map((m) => m.entryId));
  const inApp = new Set([...rows].filter(([, r]) => r.inContext).map(([id]) => id));
  expect(rows.size).toBeGreaterThan(inApp.size);
  expect([...inApp].sort()).toEqual([...inCli].sort());
  // The compaction's row carries the summary's tokens (the fixture has no system checkpoint).
  expect(rows.get(summary.entryId)?.tokens).toBe(summary.tokens);
  // The axis runs over the context, not the whole path.
  const axis = (await page.locator(".cp-tl-axis").textContent()) ?? "";
  expect(axis).not.toMatch(/0 → 3\d\dk/);
}

async function openReview(page: Page): Promise<void> {
  await page.getByTestId("context-meter").click();
  await page.getByTestId("compact-open").click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
}

async function confirmOffline(page: Page): Promise<void> {
  await openReview(page);
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("summary-editor")).toHaveValue(/generated offline/);
  await page.getByTestId("confirm").click();
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
}

test("after Confirm and in an imported file that ends with a compaction, the numbers are the CLI's", async ({
  page,
  browser,
}, info) => {
  const app = await importFile(page, FIXTURE, "1,002");
  // Before: "after" is measured like "before", with the summary's budget shown apart.
  await openReview(page);
  await expect(page.getByTestId("after-summary")).toContainText(/≤ [\d,]+ \(its budget\)/);
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("after-summary")).not.toContainText("budget");
  await page.getByTestId("cancel").click();
  await confirmOffline(page);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 30_000 }).toBe("1,003");
  const file = info.outputPath("compacted.jsonl");
  const text = await exportTo(app, file);
  expect(JSON.parse(text.trimEnd().split("\n").at(-1)!).type).toBe("compaction");
  await expectAgreesWithCli(page, file);

  // The exported file (it ends with a compaction), imported in a fresh profile: the same numbers.
  const fresh = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
  const other = await fresh.newPage();
  await importFile(other, file, "1,003");
  await expectAgreesWithCli(other, file);
  await fresh.close();
});

test("the window went to 390 px and back during the review: after Confirm the main timeline shows the new compaction row", async ({
  page,
}) => {
  const app = await importFile(page, FIXTURE, "1,002");
  await openReview(page);
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("summary-editor")).toHaveValue(/generated offline/);
  // Narrow (the timeline is in view beside the review's sheet) and back (it shrinks again): the
  // browser moves the timeline's scroll on its own, which is not the person scrolling away.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId("confirm").click();
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 30_000 }).toBe("1,003");
  const record = page.getByTestId("timeline").getByTestId("compaction-record").last();
  await expect(record.getByTestId("record-trigger")).toHaveText("by hand");
  await expect(record).toBeInViewport();
});

test("a session with nothing to summarize says why, once; no row is marked summarized; nothing to confirm", async ({
  page,
}) => {
  // pi 1.6's session with a system prompt first: the cut is after it, and nothing is summarized.
  await importFile(page, SMALL, "9", SMALL_USER);
  await page
    .getByRole("button", { name: /^Compact…/ })
    .first()
    .click();
  await expect(page.getByTestId("nothing-to-compact")).toHaveText(
    "Nothing to summarize: everything in the context would be kept.",
  );
  await expect(page.getByRole("button", { name: "Confirm", exact: true })).toBeDisabled();
  const timeline = page.getByTestId("token-timeline");
  await expect(timeline.locator(".cp-row").first()).toBeVisible();
  await expect(timeline.locator('[data-band="summarized"]')).toHaveCount(0);
  await expect(timeline.locator('[data-band="context"]').first()).toBeVisible();
});

test("Regenerate with no summarizer set up keeps the draft edited by hand, and says why", async ({
  page,
}) => {
  await importFile(page, FIXTURE, "1,002");
  await page
    .getByRole("button", { name: /^Compact…/ })
    .first()
    .click();
  await page.getByTestId("offline").click();
  const editor = page.getByTestId("summary-editor");
  await expect(editor).not.toHaveValue("");
  await editor.fill("MY EDIT MARKER: keep the parser decisions");
  await page.getByTestId("generate").click();
  await expect(page.getByTestId("preview-error")).toContainText("the previous draft is back");
  await expect(page.getByTestId("preview-error")).toContainText("provider");
  await expect(editor).toHaveValue("MY EDIT MARKER: keep the parser decisions");
  await expect(page.getByRole("button", { name: "Confirm", exact: true })).toBeEnabled();
});

test("after Confirm and after Undo the focus is on the compaction controls, not lost", async ({ page }) => {
  await importFile(page, FIXTURE, "1,002");
  await page.getByTestId("compact-open-top").click();
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("summary-editor")).not.toHaveValue("");
  // "Before" is the provider's count, "after" an estimate: the difference is said, and adds up.
  const num = async (id: string) => Number((await page.getByTestId(id).textContent())?.replace(/\D/g, ""));
  await expect(page.getByTestId("after-usage-note")).toBeVisible();
  expect(await num("after-reported")).toBe((await num("tokens-after")) + (await num("usage-difference")));
  expect(await num("usage-difference")).toBeGreaterThan(1000);
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByTestId("compaction-preview")).toBeHidden();
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? "");
  await expect.poll(focused).toMatch(/^(context-meter|compact-open|compact-open-top)$/);
  const app = new AppPage(page);
  await app
    .toast(/Compacted/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(app.toast(/Compaction undone/)).toBeVisible();
  await expect.poll(focused).toMatch(/^(context-meter|compact-open|compact-open-top)$/);
});

test("switching sessions carries nothing over; the draft is back after switching and after a reload", async ({
  page,
}) => {
  const app = await importFile(page, FIXTURE, "1,002");
  await openReview(page);
  await page.getByTestId("focus").fill("FOCUS-OF-A");
  await page.getByTestId("keep-recent").fill("31000");
  await page.getByTestId("offline").click();
  const editor = page.getByTestId("summary-editor");
  await editor.fill("DRAFT-OF-A\n\nedited");
  // Another session (a small pi 1.6 file with a system prompt), imported and opened.
  await app.importByPicker(SMALL);
  await expect.poll(() => app.entryCountOf(SMALL_USER), { timeout: 60_000 }).not.toBe("");
  await app.open(SMALL_USER);
  await expect(app.title).toContainText(/Read a\.ts/);
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  await expect(page.getByTestId("compaction-notice")).toHaveCount(0);
  await page.getByTestId("context-meter").click();
  const compact = page.getByTestId("compact-open");
  if (await compact.isEnabled()) {
    await compact.click();
    await expect(page.getByTestId("focus")).toHaveValue("");
    await expect(page.getByTestId("keep-recent")).not.toHaveValue("31000");
    await expect(page.getByTestId("summary-editor")).toHaveCount(0);
    await page.getByTestId("cancel").click();
  }
  // Back to A: everything where it was (the open review covers the main timeline).
  await app.showSidebar();
  await app.item(FIRST_USER).locator(".session-open").click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await expect(page.getByTestId("focus")).toHaveValue("FOCUS-OF-A");
  await expect(page.getByTestId("keep-recent")).toHaveValue("31000");
  await expect(editor).toHaveValue("DRAFT-OF-A\n\nedited");
  // A reload keeps it too (saved in IndexedDB, not in the session file).
  await page.waitForTimeout(400);
  await page.reload();
  await app.showSidebar();
  await app.item(FIRST_USER).locator(".session-open").click();
  await page.getByTestId("context-meter").click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await expect(editor).toHaveValue("DRAFT-OF-A\n\nedited");
  await expect(page.getByTestId("focus")).toHaveValue("FOCUS-OF-A");
  const text = await exportTo(app, test.info().outputPath("a.jsonl"));
  expect(text).not.toContain("DRAFT-OF-A");
});

test("cut handle is a slider; the meter is named Context; shortcut, focus in and back; Redo after Undo", async ({
  page,
}) => {
  const app = await importFile(page, FIXTURE, "1,002");
  await expect(page.getByRole("meter", { name: "Context" })).toBeAttached();
  await page.getByTestId("context-meter").click();
  const handle = page.getByRole("slider", { name: "Cut" });
  await expect(handle).toHaveAttribute(
    "aria-valuetext",
    /cut before entry [\d,]+: summarizes [\d,]+ messages?.*, keeps [\d,]+ tokens in [\d,]+ messages?, ≈ [\d.]+k after/,
  );
  await handle.focus();
  await page.keyboard.press("ArrowUp");
  await expect(handle).toHaveAttribute("aria-valuetext", /moved by hand/);
  await expect(page.getByTestId("cut-announce")).toHaveText(/cut before entry .* moved by hand/);
  // The cut never covers a row's text: the handle sits between rows.
  const box = (await handle.boundingBox())!;
  const first = page.locator(".cp-row.band-kept").first();
  const row = (await first.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(row.y + 1);
  // Small entries are readable: the "sizes" scale draws each bar on a log scale of the largest.
  const sizes = page.getByTestId("token-timeline-panel").getByLabel("sizes");
  await sizes.check();
  await expect(page.locator(".cp-tl-axis")).toContainText("log scale");
  const small = page.locator(".cp-row[data-tokens='39'] .cp-bar").first();
  expect(await small.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(15);
  await sizes.uncheck();
  // The shortcut opens the review with the focus on the cut (its value says the plan); Cancel gives the focus back.
  await page.getByTestId("compact-open-top").focus();
  await page.keyboard.press("Alt+Shift+C");
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await expect(handle).toBeFocused();
  await expect(page.getByTestId("after-parts")).toContainText("(moved by hand)");
  await page.getByTestId("cancel").click();
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  await expect(page.getByTestId("compact-open-top")).toBeFocused();
  // `/compact focus` puts the focus in the review with that focus text.
  const input = page.getByRole("textbox", { name: "Message" });
  await input.fill("/compact the parser");
  await input.press("Enter");
  await expect(page.getByTestId("focus")).toBeFocused();
  await expect(page.getByTestId("focus")).toHaveValue("the parser");
  await page.getByTestId("offline").click();
  await page.getByTestId("confirm").click();
  await expect(input).toBeFocused();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 30_000 }).toBe("1,003");
  const meter = page.getByRole("meter", { name: "Context" });
  const compacted = await meter.getAttribute("aria-valuetext");
  await expect(page.getByTestId("compact-disabled-reason")).toContainText("Already compacted");
  // Undo, then Redo: the path ends with the compaction again.
  await app
    .toast(/Compacted/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(app.toast(/Compaction undone/)).toBeVisible();
  await expect(page.getByTestId("compact-open")).toBeEnabled();
  await app
    .toast(/Compaction undone/)
    .getByRole("button", { name: "Redo" })
    .click();
  await expect(app.toast(/Compaction redone/)).toBeVisible();
  // Redo is a move to the compaction: the context is the compacted one again, to the token. As in
  // pi 1.6, the path now ends with the move, so a second compaction (of the kept range) can be reviewed.
  await expect(meter).toHaveAttribute("aria-valuetext", compacted!);
  await expect(page.getByTestId("compact-open")).toBeEnabled();
  // One toast per event: the compaction's notices replaced each other.
  await expect(app.toasts.filter({ hasText: /Compact(ed|ion)/ })).toHaveCount(1);
});

test("trigger as a share of the window for this session only; remind only says so on the meter", async ({
  page,
}) => {
  await importFile(page, FIXTURE, "1,002");
  await page.getByRole("button", { name: "Settings" }).click();
  const dlg = settingsDialog(page);
  const when = dlg.getByTestId("compaction-when");
  await when.getByTestId("scope-session").check();
  for (const value of ["remind", "percent"]) {
    const radio = when.locator(`input[type=radio][value=${value}]`);
    await radio.click();
    await expect(radio).toBeChecked();
  }
  await when.getByTestId("trigger-percent").fill("10");
  await when.getByTestId("trigger-percent").blur();
  await dlg.getByRole("button", { name: "Done" }).click();
  // 10 % of the 200k window: the session is past it, and the meter says remind only.
  await expect(page.getByTestId("meter-state")).toHaveText("Past the threshold · remind only");
  await expect(page.getByTestId("meter-breakdown")).toContainText("10 % of the window, this session");
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  // The settings for all sessions did not change.
  await page.getByRole("button", { name: "Settings" }).click();
  await dlg.getByTestId("compaction-when").getByText("For all sessions").click();
  await expect(dlg.locator("input[type=radio][value=ask]")).toBeChecked();
  await expect(dlg.locator("input[type=radio][value=reserve]")).toBeChecked();
});

test("notifications: information goes by itself; errors stay and never cover the composer or Send", async ({
  page,
}, info) => {
  const app = await importFile(page, FIXTURE, "1,002");
  // Information (the import's result) goes by itself after a few seconds.
  const imported = app.toast(/Imported before-compaction/);
  await expect(imported).toHaveCount(0, { timeout: 12_000 });
  // An error (a file that is not a session) stays, above the composer's reach.
  const bad = info.outputPath("not-a-session.jsonl");
  writeFileSync(bad, '{"hello": "world"}\n');
  await app.importByPicker(bad);
  const error = app.toast(/Not a pi session/);
  await expect(error).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(7000);
  await expect(error).toBeVisible();
  const toast = (await error.boundingBox())!;
  for (const target of [page.getByTestId("agent-composer"), page.getByRole("button", { name: "Send" })]) {
    const b = await target.boundingBox();
    if (!b) continue;
    const overlaps =
      toast.x < b.x + b.width &&
      b.x < toast.x + toast.width &&
      toast.y < b.y + b.height &&
      b.y < toast.y + toast.height;
    expect(overlaps).toBe(false);
  }
  // One per event: the same error again replaces it.
  await app.importByPicker(bad);
  await page.waitForTimeout(1500);
  await expect(app.toast(/Not a pi session/)).toHaveCount(1);
});

test("narrow window: a notification is a row under the top bar, then at the top of the review; it covers nothing", async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 800 });
  await importFile(page, FIXTURE, "1,002");
  await page.keyboard.press("Escape");
  const toast = page.getByTestId("toast").filter({ hasText: /Imported before-compaction/ });
  await expect(toast).toBeVisible();
  type Box = { x: number; y: number; width: number; height: number };
  const overlap = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  // In the page: under the top bar, above the timeline (which moved down to make room).
  const bar = (await page.locator(".topbar").boundingBox())!;
  let box = (await toast.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
  for (const target of [page.getByTestId("path-count"), page.getByTestId("agent-composer")])
    expect(overlap(box, (await target.boundingBox())!)).toBe(false);
  // With the review open (a full-screen sheet here): at its top, the review below it.
  await page.getByTestId("context-meter").click();
  await page.getByTestId("compact-open").click();
  const review = page.getByTestId("compaction-preview");
  await expect(review).toBeVisible();
  box = (await toast.boundingBox())!;
  const heading = (await review.getByRole("heading", { name: "Compaction review" }).boundingBox())!;
  expect(overlap(box, heading)).toBe(false);
  expect(heading.y).toBeGreaterThanOrEqual(box.y + box.height - 1);
  await review.getByTestId("offline").click();
  await expect(review.getByTestId("summary-editor")).toBeVisible();
  // It goes by itself, and the review takes the room back.
  await expect(toast).toHaveCount(0, { timeout: 12_000 });
  await expect
    .poll(async () => (await review.getByRole("heading", { name: "Compaction review" }).boundingBox())!.y)
    .toBeLessThan(heading.y);
});

test("the summarizer check: does not fit (Generate refused, with the ways out), a way out makes it fit, then Generate; Stop after Regenerate keeps the draft", async ({
  page,
}) => {
  const key = uniqueKey("review-model");
  await page.goto("/");
  await setUpProvider(page, key);
  await importFile(page, FIXTURE, "1,002");
  await openReview(page);
  // The session's model is another provider's (anthropic): the summary goes to the provider's model.
  await expect(page.getByTestId("summarizer-model")).toHaveValue("mock-model");
  await expect(page.getByTestId("summarizer-info")).toContainText(
    /Custom .* window 128k .* in \+ ≤ [\d,]+ out/,
  );
  // ≈ 120k tokens to summarize plus the output asked for do not fit mock-model's 128k window:
  // said next to Generate, which is refused, with the ways out.
  const check = page.getByTestId("summarizer-check");
  await expect(check).toHaveAttribute("data-fits", "no");
  await expect(check).toContainText("more than mock-model's window of 128,000");
  const numbers = ((await check.textContent()) ?? "").match(/≈ ([\d,]+) in \+ ≤ ([\d,]+) out = ([\d,]+)/);
  const [input, output, needed] = (numbers ?? []).slice(1).map((x) => Number(x.replaceAll(",", "")));
  expect(input! + output!).toBe(needed);
  expect(needed).toBeGreaterThan(128_000);
  await expect(page.getByTestId("generate")).toBeDisabled();
  for (const way of [/larger window/, /Keep more/, /Mask old tool outputs first/, /Offline summary/])
    await expect(check.getByRole("button", { name: way })).toBeVisible();
  // Nothing was sent to the summarizer.
  expect(await getChatRequests(key)).toHaveLength(0);

  // A way out: keep more. The cut moves back, the request fits, Generate is on.
  await check.getByRole("button", { name: /Keep more/ }).click();
  await expect(check).toHaveAttribute("data-fits", "yes");
  await expect(check).toContainText(/fits, [\d.]+k to spare/);
  await expect(page.getByTestId("generate")).toBeEnabled();

  await scriptReplies(key, [
    { text: "## Goal\nFIRST-DRAFT" },
    { text: "## Prefix\nFIRST-PREFIX" },
    { text: ["## Goal\n", "SECOND", " still", " going", " on", " and", " on"], delayMs: 700 },
    { text: "## Prefix\nSECOND-PREFIX", delayMs: 700 },
  ]);
  await page.getByTestId("generate").click();
  const editor = page.getByTestId("summary-editor");
  await expect(editor).toHaveValue(/FIRST-DRAFT/, { timeout: 30_000 });
  await expect(page.getByTestId("preview-status")).toContainText("Draft ready", { timeout: 30_000 });
  const first = await editor.inputValue();
  const chats = await getChatRequests(key);
  expect(chats.length).toBeGreaterThan(0);
  expect(chats.every((c) => (c.body as { model?: string }).model === "mock-model")).toBe(true);
  await page.getByTestId("generate").click(); // Regenerate
  await expect(page.getByTestId("stop")).toBeVisible();
  await page.getByTestId("stop").click();
  await expect(editor).toHaveValue(first);
  await expect(page.getByTestId("preview-status")).toContainText("Draft ready");
});

/** The example session (no key needed) with its review open and a cut that summarizes something. */
async function exampleReview(page: Page): Promise<AppPage> {
  const app = new AppPage(page);
  await app.goto();
  await app.openExample();
  await page.getByTestId("compact-open-top").click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await page.getByTestId("keep-recent").fill("500");
  await expect(page.getByTestId("preview-numbers")).toBeVisible();
  return app;
}

const compactionsIn = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; summary?: string; firstKeptEntryId?: string })
    .filter((l) => l.type === "compaction");

test("after Confirm then Undo, the review offers the undone summary back; nothing is written before Confirm; a reload keeps it", async ({
  page,
}) => {
  const app = await exampleReview(page);
  await page.getByTestId("offline").click();
  const editor = page.getByTestId("summary-editor");
  await expect(editor).toHaveValue(/generated offline/);
  await editor.fill(`${await editor.inputValue()}\n\nUNDONE-MARKER`);
  await page.getByTestId("confirm").click();
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  const first = compactionsIn(await exportTo(app, test.info().outputPath("1.jsonl"))).at(-1)!;
  expect(first.summary).toContain("UNDONE-MARKER");
  await app
    .toast(/Compacted/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(app.toast(/Compaction undone/)).toBeVisible();
  const count = await app.entryCountOf(EXAMPLE_TITLE);
  // Opened again: the undone summary is the draft, said to be that, editable, ready to confirm.
  await page.getByTestId("compact-open-top").click();
  await expect(editor).toHaveValue(/UNDONE-MARKER/);
  await expect(editor).toBeEditable();
  await expect(page.getByTestId("undone-draft")).toContainText("undone");
  await expect(page.getByTestId("preview-status")).toContainText("Undone summary");
  await expect(page.getByTestId("confirm")).toBeEnabled();
  // Nothing was written for it: the session holds what it held after the Undo.
  expect(await app.entryCountOf(EXAMPLE_TITLE)).toBe(count);
  // A reload keeps the offer (saved with the review, not in the session file).
  await editor.fill(`${await editor.inputValue()} AND-EDITED`);
  await page.waitForTimeout(400);
  await page.reload();
  await app.open(EXAMPLE_TITLE);
  await page.getByTestId("compact-open-top").click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await expect(editor).toHaveValue(/UNDONE-MARKER AND-EDITED/);
  await expect(page.getByTestId("undone-draft")).toBeVisible();
  expect(await app.entryCountOf(EXAMPLE_TITLE)).toBe(count);
  // Confirm again without regenerating: the same cut, the edited summary.
  await page.getByTestId("confirm").click();
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  const again = compactionsIn(await exportTo(app, test.info().outputPath("2.jsonl"))).at(-1)!;
  expect(again.summary).toContain("UNDONE-MARKER AND-EDITED");
  expect(again.firstKeptEntryId).toBe(first.firstKeptEntryId);
  // Redo of a compaction takes its offer away (it is in the session again).
  await app
    .toast(/Compacted/)
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(app.toast(/Compaction undone/)).toBeVisible();
  await app
    .toast(/Compaction undone/)
    .getByRole("button", { name: "Redo" })
    .click();
  await expect(app.toast(/Compaction redone/)).toBeVisible();
  await page.getByTestId("compact-open-top").click();
  await expect(page.getByTestId("undone-draft")).toHaveCount(0);
  await expect(editor).toHaveCount(0);
});

for (const scheme of ["light", "dark"] as const) {
  for (const width of [1280, 1600]) {
    test(`the review before a draft uses its width: fields' hints fit, the right column explains, ${width}x800 ${scheme}`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      await exampleReview(page);
      await page.mouse.move(5, 795);
      await page.screenshot({ path: `${SHOTS}/review-empty-${width}-${scheme}.png` });
      // Each field's placeholder fits in the field (none cut off).
      for (const id of ["focus", "summarizer-model"]) {
        const fits = await page.getByTestId(id).evaluate((el) => {
          const f = el as HTMLInputElement;
          const cs = getComputedStyle(f);
          const ctx = document.createElement("canvas").getContext("2d")!;
          ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
          const room = f.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight);
          return ctx.measureText(f.placeholder).width <= room;
        });
        expect(fits, `${id}'s placeholder fits`).toBe(true);
      }
      // The right column says what Generate and Offline summary do, next to them.
      const empty = page.getByTestId("draft-empty");
      await expect(empty).toBeVisible();
      await expect(empty).toContainText("Generate summary");
      await expect(empty).toContainText("Offline summary");
      await expect(empty).toContainText("Nothing is written");
      const col = (await page.locator(".cp-review-main").boundingBox())!;
      const box = (await empty.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(col.x - 1);
      await page.getByTestId("offline").click();
      await expect(empty).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/review-draft-${width}-${scheme}.png` });
    });
  }
}

test("phone, 390x844: the cut handle is in reach of the review, and why Confirm is off is said next to it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await exampleReview(page);
  await page.getByTestId("offline").click();
  await expect(page.getByTestId("summary-editor")).toHaveValue(/generated offline/);
  const handle = page.getByTestId("cut-handle");
  const confirm = page.getByTestId("confirm");
  // Handle and Confirm are both on screen, with no scrolling of the page.
  await expect(handle).toBeInViewport();
  await expect(confirm).toBeInViewport();
  await expect(confirm).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/review-phone-1.png` });
  await handle.focus();
  await page.keyboard.press("ArrowUp");
  await expect(confirm).toBeDisabled();
  const why = page.getByTestId("confirm-why");
  await expect(why).toContainText("The cut moved since this summary was made");
  await expect(why).toBeInViewport();
  await expect(confirm).toHaveAttribute("aria-describedby", (await why.getAttribute("id"))!);
  await page.screenshot({ path: `${SHOTS}/review-phone-2.png` });
  // Said once: not also above the summary.
  await expect(page.getByText("The cut moved since this summary was made")).toHaveCount(1);
  // Putting the cut back where the summary was made turns Confirm on again.
  await why.getByRole("button", { name: /cut back/ }).click();
  await expect(confirm).toBeEnabled();
  await expect(why).toHaveCount(0);
});

for (const scheme of ["light", "dark"] as const) {
  for (const width of [1280, 800]) {
    test(`screenshot: the review with a summary draft, ${width}x800 ${scheme}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 800 });
      await importFile(page, FIXTURE, "1,002");
      if (width <= 900) await page.keyboard.press("Escape");
      await page.getByTestId("context-meter").click();
      await page.getByTestId("compact-open").click();
      await page.getByTestId("offline").click();
      const editor = page.getByTestId("summary-editor");
      await expect(editor).toBeVisible();
      await page.mouse.move(5, 795);
      await page.screenshot({ path: `${SHOTS}/review-${width}-${scheme}.png` });
      // At least 20 lines of the summary and the figures are in view.
      const lineHeight = await editor.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
      const box = (await editor.boundingBox())!;
      const visible = Math.min(box.y + box.height, 800) - Math.max(box.y, 0);
      if (width > 900) {
        expect(visible / lineHeight).toBeGreaterThanOrEqual(20);
        await expect(page.getByTestId("preview-numbers")).toBeInViewport();
        await expect(page.getByTestId("cut-handle")).toBeInViewport();
      } else {
        expect(box.height / lineHeight).toBeGreaterThanOrEqual(20);
        await expect(page.getByTestId("preview-numbers")).toBeInViewport();
      }
      await expect(page.getByTestId("session-title")).not.toHaveText(/^.{0,3}…?$/);
    });
  }
}
