// A big file's newest rows are on screen while the import still checks every line: read from the
// file's end, read-only, with the import's progress; the stored session takes their place, a
// cancelled import takes them away with nothing written (back to the session open before), and
// choosing a session meanwhile leaves them.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { generateBigSession } from "./bench/lib/big-session.ts";
import { AppPage, EXAMPLE_TITLE } from "./pages/app-page.ts";

test.describe.configure({ timeout: 180_000 });

const BIG = generateBigSession(8 * 1024 * 1024);
const lines = BIG.text.trimEnd().split("\n");
const LAST_ID = (JSON.parse(lines.at(-1)!) as { id: string }).id;
const WHOLE = `${BIG.entryCount.toLocaleString("en-US")} entries on the path`;

interface Seen {
  /** Frames with the preview's rows, and the import's progress text then. */
  preview: { progress: string; lastId: string | undefined; status: string; actions: number }[];
  /** "Loading the session" shown after the preview (a gap between the preview and the session). */
  gap: boolean;
}

declare global {
  interface Window {
    __previewSeen?: Seen;
    /** A frame showing the example session, no preview, and the import's progress. */
    __progressAway?: boolean;
  }
}

/** Notes every frame until the whole session shows: the preview's rows and what came after. */
async function watch(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Seen = { preview: [], gap: false };
    window.__previewSeen = seen;
    const tick = () => {
      const status = document.querySelector('[data-testid="import-preview-status"]');
      const rows = document.querySelectorAll('[data-testid="timeline"] li button[data-entry-id]');
      if (status && rows.length > 0)
        seen.preview.push({
          progress: document.querySelector('[data-testid="import-progress"]')?.textContent ?? "",
          lastId: rows[rows.length - 1]!.getAttribute("data-entry-id") ?? undefined,
          status: status.textContent ?? "",
          actions: document.querySelectorAll('[data-testid="row-actions"]').length,
        });
      else if (
        seen.preview.length > 0 &&
        document.querySelector(".center-note")?.textContent?.includes("Loading")
      )
        seen.gap = true;
      if (!document.querySelector('[data-testid="path-count"]')) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

function tempFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "cutpoint-preview-")), name);
  writeFileSync(file, text);
  return file;
}

test("a big file's newest rows show while it is checked, then the stored session takes their place", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  // 4x slower CPU: the check of every line takes long enough to be watched.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await watch(page);
  await app.importByPicker(tempFile("big.jsonl", BIG.text));
  await expect(page.getByTestId("import-preview-title")).toHaveText("Importing big.jsonl", {
    timeout: 60_000,
  });
  // Read-only: hovering a row offers nothing to change in a session that is not stored yet.
  await page.getByTestId("timeline").locator("li").last().hover();
  await expect(page.getByTestId("path-count")).toHaveText(WHOLE, { timeout: 120_000 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  const seen = await page.evaluate(() => window.__previewSeen!);
  // Shown while the lines were still being parsed, ending at the file's last entry.
  expect(seen.preview.some((f) => /^Parsing big\.jsonl · \d+ %/.test(f.progress))).toBe(true);
  expect(seen.preview.every((f) => f.lastId === LAST_ID)).toBe(true);
  expect(seen.preview[0]!.status).toMatch(/^The newest 300 entries, from the end of the file · /);
  expect(seen.preview.every((f) => f.actions === 0)).toBe(true);
  // From the preview straight to the session's own rows.
  expect(seen.gap).toBe(false);
  await expect(page.getByTestId("import-preview-title")).toHaveCount(0);
  await expect(page.getByTestId("session-title")).toBeVisible();
  await expect(page.getByTestId("timeline").locator(`button[data-entry-id="${LAST_ID}"]`)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("path-count")).toHaveText(WHOLE, { timeout: 60_000 });
});

test("a big file with a bad line: its preview stays behind the question; Cancel takes it away, nothing written", async ({
  page,
}) => {
  const damaged = [...lines];
  damaged[Math.floor(lines.length / 2)] = '{"type":"message","id":"broken"';
  const app = new AppPage(page);
  await app.goto();
  // Imported while another session is open: the preview takes its place (none is selected then).
  await app.openExample();
  await app.importByPicker(tempFile("damaged.jsonl", `${damaged.join("\n")}\n`));
  await expect(app.importDialog).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("import-preview-title")).toHaveText("Importing damaged.jsonl");
  await expect(page.getByTestId("import-preview-status")).toContainText("waiting for your answer");
  await expect(page.locator('.session-item[aria-current="true"]')).toHaveCount(0);
  await app.importDialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(app.toast(/damaged\.jsonl: import cancelled, nothing was written/)).toBeVisible();
  await expect(page.getByTestId("import-preview-title")).toHaveCount(0);
  // Back where the person was, and nothing else stored.
  await expect(app.title).toHaveText(EXAMPLE_TITLE);
  await expect(app.sessionItems).toHaveCount(1);
  await page.reload();
  await expect(app.title).toHaveText(EXAMPLE_TITLE);
  await expect(app.sessionItems).toHaveCount(1);
});

test("choosing a session while a big file is imported leaves the preview; the stored session opens when done", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await app.openExample();
  // A bigger file at a 6x slower CPU: the import lasts long enough to go elsewhere meanwhile.
  const bigger = generateBigSession(30 * 1024 * 1024);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  await app.importByPicker(tempFile("big.jsonl", bigger.text));
  await expect(page.getByTestId("import-preview-title")).toHaveText("Importing big.jsonl", {
    timeout: 60_000,
  });
  // Noted by the page at each frame: the import may end soon after the switch on a fast machine
  // (the example, open before, shows at once), and then its progress is gone by the next look.
  await page.evaluate((title) => {
    const tick = () => {
      if (
        document.querySelector('[data-testid="session-title"]')?.textContent === title &&
        !document.querySelector('[data-testid="import-preview-title"]') &&
        document.querySelector('[data-testid="import-progress"]')
      )
        window.__progressAway = true;
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, EXAMPLE_TITLE);
  await app.open(EXAMPLE_TITLE);
  await expect(app.title).toHaveText(EXAMPLE_TITLE);
  await expect(page.getByTestId("import-preview-title")).toHaveCount(0);
  // The example shown, the preview gone, the import still going on (its progress shown).
  await expect.poll(() => page.evaluate(() => window.__progressAway === true)).toBe(true);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  // Stored: opened, as every import is.
  await expect(page.getByTestId("path-count")).toHaveText(
    `${bigger.entryCount.toLocaleString("en-US")} entries on the path`,
    { timeout: 120_000 },
  );
  await expect(app.sessionItems).toHaveCount(2);
});
