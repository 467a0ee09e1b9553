/**
 * Issue 37: Compact… pressed right after a reload, before the saved review is read back, keeps
 * the saved draft (it was dropped: the review opened empty and the saved one was then ignored).
 * The read of the saved review is held in the page until the button has been pressed.
 */
import { expect, test } from "@playwright/test";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

/** Holds IndexedDB reads of saved reviews (settings keys "compaction.review.*") until `__releaseReviews()`. */
function holdSavedReviews(): void {
  if (sessionStorage.getItem("holdReviews") !== "1") return;
  const held: (() => void)[] = [];
  let released = false;
  const w = window as unknown as { __releaseReviews: () => void; __heldReviews: () => number };
  w.__releaseReviews = () => {
    released = true;
    for (const f of held.splice(0)) f();
  };
  w.__heldReviews = () => held.length;
  const get = IDBObjectStore.prototype.get;
  IDBObjectStore.prototype.get = function (this: IDBObjectStore, key: IDBValidKey | IDBKeyRange) {
    const req = get.call(this, key);
    if (released || typeof key !== "string" || !key.startsWith("compaction.review.")) return req;
    // The caller sees a request whose success comes once released.
    const late = { onsuccess: null, onerror: null, result: undefined } as unknown as IDBRequest & {
      onsuccess: ((e: Event) => void) | null;
    };
    req.onsuccess = () => {
      held.push(() => {
        Object.defineProperty(late, "result", { value: req.result });
        late.onsuccess?.({ target: late } as unknown as Event);
      });
    };
    return late;
  };
}

test("Compact… right after a reload, before the saved review is read back, keeps the saved draft", async ({
  page,
}) => {
  await page.addInitScript(holdSavedReviews);
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "See a compaction planned (example)" }).click();
  const review = page.getByTestId("compaction-preview");
  await expect(review).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await review.getByTestId("offline").click();
  const editor = review.getByTestId("summary-editor");
  await editor.fill("SAVED-DRAFT\n\nkept across the reload");
  // Saved a moment after the change (services/compaction/compaction-drafts.ts).
  await page.waitForTimeout(600);
  await page.getByRole("button", { name: "Close the side panel" }).click();

  await page.evaluate(() => sessionStorage.setItem("holdReviews", "1"));
  await page.reload();
  const compact = page.getByTestId("compact-open-top");
  await expect(compact).toBeEnabled({ timeout: IMPORT_TIMEOUT });
  // The saved review has not been read back yet: its read is held.
  expect(
    await page.evaluate(() => (window as unknown as { __heldReviews: () => number }).__heldReviews()),
  ).toBe(1);
  await compact.click();
  await expect(review).toBeVisible();
  await page.evaluate(() => (window as unknown as { __releaseReviews: () => void }).__releaseReviews());
  await expect(editor).toHaveValue("SAVED-DRAFT\n\nkept across the reload");
  await expect(review.getByTestId("confirm")).toBeEnabled();
  // And it stays saved: another reload (nothing held) shows it again.
  await page.evaluate(() => sessionStorage.removeItem("holdReviews"));
  await page.waitForTimeout(600);
  await page.reload();
  await page.getByTestId("compact-open-top").click();
  await expect(editor).toHaveValue("SAVED-DRAFT\n\nkept across the reload", { timeout: IMPORT_TIMEOUT });
});
