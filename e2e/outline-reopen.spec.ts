// Reopening a stored session from its chunks' outlines: after a reload the whole path is in view
// (every row's kind, time and tokens) while the messages' text is still being read; the rows
// whose text is not read yet say so, and fill in. The reads of the text are held here (Blob reads
// after the whole path is shown) so that the person's view of that moment can be checked.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { generateBigSession } from "./bench/lib/big-session.ts";
import { storedRows } from "./lib/stored-rows.ts";
import { AppPage } from "./pages/app-page.ts";

test.describe.configure({ timeout: 120_000 });

const BIG = generateBigSession(6 * 1024 * 1024);
const WHOLE = `${BIG.entryCount.toLocaleString("en-US")} entries on the path`;
/** The thinking level the session's last thinking_level_change sets. */
const LAST_LEVEL = [...BIG.text.matchAll(/"thinkingLevel":"(\w+)"/g)].at(-1)![1]!;

declare global {
  interface Window {
    /** Lets the held Blob reads go. */
    __releaseReads?: () => void;
    __heldReads?: number;
  }
}

/** Holds every Blob read made once the whole path is shown, until `__releaseReads()`. */
async function holdReadsAfterWhole(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const read = Blob.prototype.arrayBuffer;
    const held: (() => void)[] = [];
    let released = false;
    window.__heldReads = 0;
    window.__releaseReads = () => {
      released = true;
      for (const go of held.splice(0)) go();
    };
    Blob.prototype.arrayBuffer = function (this: Blob) {
      if (released || !document.querySelector('[data-testid="path-count"]')) return read.call(this);
      window.__heldReads = (window.__heldReads ?? 0) + 1;
      return new Promise<void>((resolve) => held.push(resolve)).then(() => read.call(this));
    };
  });
}

/** Every chunk has its token counts and outline stored (written once the session was shown whole). */
function outlinesStored(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const req = indexedDB.open("cutpoint");
        req.onsuccess = () => {
          const tx = req.result.transaction(["chunks", "chunkTokens"]);
          const chunks = tx.objectStore("chunks").count();
          const derived = tx.objectStore("chunkTokens").getAll();
          tx.oncomplete = () => {
            req.result.close();
            const rows = derived.result as { outline?: string }[];
            resolve(rows.length === chunks.result && rows.every((r) => typeof r.outline === "string"));
          };
        };
      }),
  );
}

const visibleRows = (app: AppPage) =>
  app.timelineRows.evaluateAll((lis) =>
    lis.map((li) => ({
      kind: li.querySelector(".row-kind")?.textContent ?? "",
      tokens: li.querySelector(".row-tokens")?.textContent ?? "",
      total: li.querySelector(".row-total")?.textContent ?? "",
      pending: li.querySelector('[data-testid="row-pending"]') !== null,
    })),
  );

test("a reopened session shows its whole path first, then each message's text", async ({ page }) => {
  mkdirSync("/tmp/shots-outline", { recursive: true });
  const file = join(mkdtempSync(join(tmpdir(), "cutpoint-outline-")), "outlined.jsonl");
  writeFileSync(file, BIG.text);
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(file);
  await expect(page.getByTestId("path-count")).toHaveText(WHOLE, { timeout: 60_000 });
  await expect.poll(() => outlinesStored(page), { timeout: 30_000 }).toBe(true);
  const stored = await storedRows(page, ["sessions", "chunks", "chunkTokens"]);

  await holdReadsAfterWhole(page);
  await page.reload();
  // The whole path, with its token total, while the text is read.
  await expect(page.getByTestId("path-count")).toHaveText(WHOLE, { timeout: 60_000 });
  const reading = page.getByTestId("bodies-loading");
  await expect(reading).toHaveText(/Reading the messages' text… \d+ %/);
  await expect.poll(() => page.evaluate(() => window.__heldReads ?? 0)).toBeGreaterThan(0);
  // The newest rows were read first: their text is there.
  await expect(app.timelineRows.last()).toBeInViewport();
  expect((await visibleRows(app)).some((r) => r.pending)).toBe(false);
  // The oldest rows are shown from their outline: kind, time and tokens, and a note for the text.
  await app.timeline.evaluate((el) => {
    el.scrollTop = 0;
  });
  const pending = app.timeline.getByTestId("row-pending");
  await expect(pending.first()).toBeVisible();
  await expect(pending.first()).toHaveText("reading its text…");
  const before = await visibleRows(app);
  expect(before.filter((r) => r.pending).length).toBeGreaterThan(3);
  expect(before.some((r) => r.kind === "" || r.total === "")).toBe(false);
  const id = await app.timelineRows
    .filter({ has: page.getByTestId("row-pending") })
    .first()
    .locator("button.row-head")
    .getAttribute("data-entry-id");
  const firstPending = app.timelineRows.filter({ has: page.locator(`button[data-entry-id="${id}"]`) });
  await firstPending.locator("button.row-head").click();
  await expect(firstPending.getByText("This entry's text is still being read…")).toBeVisible();
  // The session's model and thinking level are not known until it is read: nothing is shown as
  // its own, and they cannot be changed yet.
  const thinking = page.getByLabel("Thinking level of this session");
  await expect(thinking).toBeDisabled();
  await expect(thinking).toHaveValue("");
  await expect(page.getByLabel("Model of this session")).toBeDisabled();
  await expect(page.getByLabel("Model of this session")).toHaveAttribute(
    "placeholder",
    "reading the session…",
  );
  await page.screenshot({ path: "/tmp/shots-outline/outline-reading.png" });

  await page.evaluate(() => window.__releaseReads?.());
  await expect(reading).toBeHidden({ timeout: 60_000 });
  await expect(pending).toHaveCount(0);
  // The same rows, the same kinds and numbers: only the text came (the rows with text may be
  // taller: fewer are rendered).
  const after = (await visibleRows(app)).map(({ pending: _, ...r }) => r);
  expect(after.length).toBeGreaterThan(3);
  expect(after).toEqual(before.slice(0, after.length).map(({ pending: _, ...r }) => r));
  // The row opened while its text was read shows the text now.
  await expect(firstPending.getByText("This entry's text is still being read…")).toHaveCount(0);
  await expect(firstPending.locator(`#entry-detail-${id}`)).not.toBeEmpty();
  await expect(app.timelineRows.first().locator(".row-excerpt")).not.toHaveText("");
  // Read: the session's own thinking level (its last thinking_level_change), which can be changed.
  await expect(thinking).toBeEnabled();
  await expect(thinking).toHaveValue(LAST_LEVEL);
  await page.screenshot({ path: "/tmp/shots-outline/outline-read.png" });
  // Reading wrote nothing.
  expect(await storedRows(page, ["sessions", "chunks", "chunkTokens"])).toBe(stored);
});
