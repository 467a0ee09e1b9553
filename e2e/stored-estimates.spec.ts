/**
 * Token counts kept with a session: once it has been open, its chunks' counts are in IndexedDB
 * and the next open takes them instead of counting every message again. The numbers shown are
 * the same either way, and stored counts that do not match the entries are not shown: they are
 * counted again and written anew.
 */
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { AppPage } from "./pages/app-page.ts";

const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;
const NO_MESSAGE = 0xffffffff;

/** Every stored count row, as plain arrays (by chunk seq). */
function storedCounts(page: Page): Promise<Record<number, number[]>> {
  return page.evaluate(
    () =>
      new Promise<Record<number, number[]>>((resolve, reject) => {
        const req = indexedDB.open("cutpoint");
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const all = req.result.transaction("chunkTokens").objectStore("chunkTokens").getAll();
          all.onsuccess = () => {
            req.result.close();
            const out: Record<number, number[]> = {};
            for (const row of all.result as { seq: number; tokens: Uint32Array }[])
              out[row.seq] = Array.from(row.tokens);
            resolve(out);
          };
        };
      }),
  );
}

/** Adds `delta` to every stored count of a message (a rule other than the one they count by). */
function shiftStoredCounts(page: Page, delta: number): Promise<void> {
  return page.evaluate(
    ({ delta, none }) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open("cutpoint");
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const tx = req.result.transaction("chunkTokens", "readwrite");
          const store = tx.objectStore("chunkTokens");
          const all = store.getAll();
          all.onsuccess = () => {
            for (const row of all.result as { tokens: Uint32Array }[]) {
              row.tokens = row.tokens.map((n) => (n === none ? n : n + delta));
              store.put(row);
            }
          };
          tx.oncomplete = () => {
            req.result.close();
            resolve();
          };
        };
      }),
    { delta, none: NO_MESSAGE },
  );
}

/** Entries of the last load that took their counts from storage, and all it loaded. */
function lastLoadSeeded(page: Page): Promise<{ seeded: number; entries: number } | undefined> {
  return page.evaluate(() => {
    const m = performance.getEntriesByName("cutpoint:load read estimates").at(-1) as
      | PerformanceMeasure
      | undefined;
    return m?.detail as { seeded: number; entries: number } | undefined;
  });
}

/** What the cut view says of the path: every count it shows, once they are all made. */
async function shownCounts(page: Page): Promise<string> {
  const meter = page.getByTestId("context-meter");
  await expect(meter).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("context-meter-text")).toContainText(/ \/ .* · \d+ % · threshold /);
  const text = (await page.getByTestId("context-meter-text").textContent()) ?? "";
  await meter.click();
  const panel = page.getByTestId("token-timeline-panel");
  await expect(panel).toBeVisible();
  await expect(panel).toContainText(/tokens/);
  // Without the cut's live announcement (said when the cut is first placed or moved, not a count).
  const panelText = await panel.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const live of copy.querySelectorAll('[data-testid="cut-announce"]')) live.remove();
    return copy.textContent ?? "";
  });
  return `${text}\n${panelText}`;
}

test("token counts are stored once, read back on the next open, and never shown when they do not match", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(FIXTURE);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: 90_000 }).toBe("1,002");
  await app.open(FIRST_USER);
  const counted = await shownCounts(page);

  // Stored once the session is shown: a row per chunk, a count per entry.
  await expect.poll(async () => Object.keys(await storedCounts(page)).length).toBeGreaterThan(1);
  const stored = await storedCounts(page);
  expect(Object.values(stored).reduce((n, t) => n + t.length, 0)).toBe(1002);

  // The next open takes them (all chunks but the newest, shown first and counted as read).
  await page.reload();
  expect(await shownCounts(page)).toBe(counted);
  const seeded = await lastLoadSeeded(page);
  expect(seeded?.entries).toBe(1002);
  expect(seeded?.seeded).toBeGreaterThan(0);
  expect(await storedCounts(page)).toEqual(stored);

  // Counts stored by another rule: not used, the same numbers shown, and the true ones written back.
  await shiftStoredCounts(page, 3);
  await page.reload();
  expect(await shownCounts(page)).toBe(counted);
  expect((await lastLoadSeeded(page))?.seeded).toBe(0);
  await expect.poll(() => storedCounts(page)).toEqual(stored);

  // And the open after that takes them again.
  await page.reload();
  expect(await shownCounts(page)).toBe(counted);
  expect((await lastLoadSeeded(page))?.seeded).toBe(seeded?.seeded);
});
