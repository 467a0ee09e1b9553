/**
 * The coverage check in the review, on the real pi fixture: the offline summary's figure and its
 * probes are the CLI's (`coverage <file> --offline --json`); a short hand-written summary misses
 * items and leaves probes unanswered, one click
 * adds one in its section, another is dismissed; Confirm stores the figure in the compaction's
 * details (so pi keeps it), the timeline row and History show it with the record (trigger, tokens
 * before → after, model), also after a reload.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { setUpProvider } from "./agent-helpers.ts";
import { getChatRequests, scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage } from "./pages/app-page.ts";

test.setTimeout(240_000);

const ROOT = resolve(import.meta.dirname, "..");
const FIXTURE = resolve(ROOT, "../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;
const SHOTS = process.env.CUTPOINT_SHOTS ?? "/tmp/shots-review";

interface CliCoverage {
  figure: string;
  covered: number;
  total: number;
  probesFigure: string;
  probes: { probes: { id: string; expected: string; answered: boolean }[] };
}

function cliCoverage(file: string): CliCoverage {
  const out = execFileSync(
    resolve(ROOT, "node_modules/.bin/tsx"),
    ["src/cli/main.ts", "coverage", file, "--offline", "--json"],
    { cwd: ROOT, encoding: "utf8" },
  );
  return JSON.parse(out) as CliCoverage;
}

/** "12 of 60 items mentioned" → [12, 60]. */
async function figureOf(page: Page): Promise<[number, number]> {
  const text = (await page.getByTestId("coverage-figure").textContent()) ?? "";
  const m = /([\d,]+) of ([\d,]+) items?/.exec(text);
  expect(m, text).not.toBeNull();
  return [Number(m![1]!.replace(/,/g, "")), Number(m![2]!.replace(/,/g, ""))];
}

test("coverage: the CLI's figure for the offline summary; add a missing item, dismiss one, Confirm stores it; History and the row show it after a reload", async ({
  page,
}) => {
  const cli = cliCoverage(FIXTURE);
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(FIXTURE);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 90_000 }).toBe("1,002");
  await page.getByTestId("context-meter").click();
  // The token timeline shows the plan: its items are read in idle time, before any review or draft.
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName("cutpoint:coverage-items").length))
    .toBe(1);
  await page.getByTestId("compact-open").click();
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();
  // Before a draft, the review shows no coverage section (nothing to check yet).
  await expect(preview.getByTestId("coverage")).toHaveCount(0);

  // The offline summary: the same figure as the CLI for the same file and keep-recent.
  await preview.getByTestId("offline").click();
  await expect(preview.getByTestId("coverage-figure")).toContainText(cli.figure);
  // The figure says what it measures: key items, what is missing, and all items.
  expect(cli.figure).toMatch(/^\d+ of \d+ key items.*\(\d+ of \d+ items in all\)$/);
  // Beside it the probes: the CLI's figure, each question with the answer the session holds.
  const probes = preview.getByTestId("probes");
  await expect(probes.getByTestId("probes-figure")).toHaveText(cli.probesFigure);
  expect(cli.probesFigure).toMatch(/^(\d+) of \1 probes answered$/);
  await expect(probes.getByTestId("probe")).toHaveCount(cli.probes.probes.length);
  for (const p of cli.probes.probes) {
    const row = probes.locator(`[data-probe="${p.id}"]`);
    await expect(row).toHaveAttribute("data-answered", "yes");
    await expect(row.locator(".cp-probe-expected")).toHaveText(p.expected.replace(/`/g, ""));
  }
  await expect(probes.locator('[data-probe="files"] .cp-probe-question')).toHaveText(
    "Which files were modified?",
  );

  // A short summary written by hand misses most items.
  const editor = preview.getByTestId("summary-editor");
  await editor.fill("## Goal\n- Split main-new.ts into modules\n\n## Next Steps\n1. Carry on");
  await expect(preview.getByTestId("coverage-figure")).not.toContainText(cli.figure);
  const [covered0, total0] = await figureOf(page);
  expect(total0).toBe(cli.total);
  expect(covered0).toBeLessThan(total0);
  // The short summary names no file changed and no rule: those probes are not answered.
  await expect(probes.getByTestId("probes-figure")).not.toHaveText(cli.probesFigure);
  await expect(probes.locator('[data-probe="files"]')).toHaveAttribute("data-answered", "no");
  await expect(probes.locator('[data-probe="rules"]')).toHaveAttribute("data-answered", "no");
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const)
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await probes.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/probes-${width}-${scheme}.png` });
    }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
  // A long list of missing items never covers the draft: the list scrolls, the editor keeps its room.
  const editorBox = (await editor.boundingBox())!;
  const listBox = (await preview.getByTestId("coverage").boundingBox())!;
  expect(listBox.y).toBeGreaterThanOrEqual(editorBox.y + editorBox.height);

  // One click adds a missing file to the summary (Critical Context), and the figure follows.
  const files = preview.getByTestId("coverage-file");
  await expect(files).toBeVisible();
  if ((await files.getAttribute("open")) === null) await files.locator("summary").click();
  const firstFile = files.getByTestId("coverage-item").first();
  const fileText = (await firstFile.locator(".cp-cov-text").getAttribute("title"))!;
  await firstFile.getByTestId("coverage-add").click();
  // In its section: the short draft has none for files, so Critical Context is added after Next Steps.
  await expect(editor).toHaveValue(
    new RegExp(
      `## Next Steps\\n1\\. Carry on\\n\\n## Critical Context\\n- \`${fileText.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\``,
    ),
  );
  await expect.poll(() => figureOf(page)).toEqual([covered0 + 1, total0]);

  // Dismissed: counted in neither covered nor total, and listed apart (it can be restored).
  await preview.getByTestId("coverage-item").first().getByTestId("coverage-dismiss").click();
  await expect.poll(() => figureOf(page)).toEqual([covered0 + 1, total0 - 1]);
  await expect(preview.locator(".cp-cov-group summary", { hasText: "Dismissed (1)" })).toBeVisible();
  await preview.getByTestId("coverage").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/coverage-1280-light.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 800, height: 800 });
  await preview.getByTestId("coverage").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/coverage-800-dark.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });

  // The entry link shows where an item appears: the token timeline beside the review marks its row.
  await preview.getByTestId("coverage-item").first().getByRole("button", { name: "entry" }).click();
  await expect(page.locator(".cp-row.flash")).toHaveCount(1);
  await expect(page.locator(".cp-row.flash")).toBeInViewport();

  const probesAtConfirm = (await probes.getByTestId("probes-figure").textContent())!;
  expect(probesAtConfirm).toMatch(/^\d+ of \d+ probes answered$/);
  await preview.getByTestId("confirm").click();
  await expect(preview).toHaveCount(0);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 30_000 }).toBe("1,003");

  // Stored in the entry's details, next to pi's file lists.
  const download = await app.exportOpen();
  const lines = readFileSync(await download.path(), "utf8")
    .trimEnd()
    .split("\n");
  const compaction = JSON.parse(lines.at(-1)!);
  expect(compaction.type).toBe("compaction");
  expect(compaction.details.readFiles.length + compaction.details.modifiedFiles.length).toBeGreaterThan(0);
  expect(compaction.details.coverage).toMatchObject({ covered: covered0 + 1, total: total0 - 1 });
  expect(compaction.details.coverage.dismissed).toHaveLength(1);
  expect(compaction.details.coverage.probes.unanswered).toContain("Which files were modified?");
  expect(compaction.details.cutpoint).toMatchObject({ trigger: "manual", model: "" });

  const check = async () => {
    // The timeline row: trigger, tokens before → after, model, coverage.
    // In view with no click, also after the review was looked at at 390 px and back (the timeline
    // follows the new row: compaction-review.spec.ts).
    const record = page.getByTestId("timeline").getByTestId("compaction-record").last();
    await expect(record.getByTestId("record-trigger")).toHaveText("by hand");
    await expect(record).toBeInViewport();
    await expect(record.getByTestId("record-tokens")).toHaveText(/^[\d,]+ → [\d,]+ tokens$/);
    await expect(record.getByTestId("record-model")).toHaveText("offline summary");
    await expect(record.getByTestId("record-coverage")).toHaveText(
      `coverage ${covered0 + 1} of ${total0 - 1}`,
    );
    // History: the figure, and what the summary did not mention when it was written.
    const panel = page.getByTestId("token-timeline-panel");
    if (!(await panel.isVisible())) await page.getByRole("button", { name: "Panel", exact: true }).click();
    const historyButton = panel.getByRole("button", { name: /^History/ });
    if ((await historyButton.getAttribute("aria-pressed")) !== "true") await historyButton.click();
    const history = page.getByTestId("compaction-history");
    // Both the coverage figure and the probes the summary answered when it was written.
    await expect(history).toContainText(`coverage ${covered0 + 1} of ${total0 - 1} · ${probesAtConfirm}`);
    await expect(history.getByTestId("history-missing")).toContainText(
      "Not in the summary when it was written",
    );
    await expect(history.getByTestId("history-probes")).toContainText("Which files were modified?");
  };
  await check();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/record-history-1280-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.reload();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 60_000 }).toBe("1,003");
  await check();
});

test("check with model: the summarizer names the requests the summary leaves out; they join the list as to-dos", async ({
  page,
}) => {
  const key = uniqueKey("covcheck");
  const app = new AppPage(page);
  await app.goto();
  await setUpProvider(page, key);
  await app.importByPicker(FIXTURE);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 90_000 }).toBe("1,002");
  await page.getByTestId("context-meter").click();
  await page.getByTestId("compact-open").click();
  const preview = page.getByTestId("compaction-preview");
  await preview.getByTestId("offline").click();
  const figure = await figureOf(page);
  await scriptReplies(key, [{ text: "[1, 2]" }]);
  await preview.getByTestId("coverage-model-check").click();
  await expect(preview.getByTestId("coverage-model-result")).toContainText(
    /mock-model finds 2 requests of [\d,]+ not covered/,
  );
  // Two more items; missing unless the summary's text quotes them (the offline summary now keeps
  // more of the person's requests, so one of the two may already be there).
  await expect.poll(async () => (await figureOf(page))[1]).toBe(figure[1] + 2);
  const quoted = (await figureOf(page))[0] - figure[0];
  expect(quoted).toBeGreaterThanOrEqual(0);
  expect(quoted).toBeLessThanOrEqual(2);
  await expect(preview.getByTestId("coverage-todo").getByTestId("coverage-item")).toHaveCount(2 - quoted);
  // The request carried the person's numbered requests and the draft.
  const asked = (await getChatRequests(key)).at(-1)!;
  const body = JSON.stringify(asked.body);
  expect(body).toContain("<requests>");
  expect(body).toContain("[1] can leave it");
  expect(body).toContain("This summary was generated offline");
  // A bad answer is said as such and changes nothing.
  await scriptReplies(key, [{ text: "I think all is fine." }]);
  await preview.getByTestId("coverage-model-check").click();
  await expect(preview.getByTestId("coverage-model-result")).toContainText("not a list of request numbers");
});
