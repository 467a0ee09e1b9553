// How many rows the app's IndexedDB stores hold, read in the page (what a test asserts was stored or not).
import type { Page } from "@playwright/test";

/** The rows of these IndexedDB stores (by default the sessions and chunks: what a purge removes). */
export function storedRows(page: Page, stores = ["sessions", "chunks"]): Promise<number> {
  return page.evaluate(
    (stores) =>
      new Promise<number>((resolve) => {
        const req = indexedDB.open("cutpoint");
        req.onsuccess = () => {
          const tx = req.result.transaction(stores);
          let total = 0;
          let done = 0;
          for (const name of stores) {
            const c = tx.objectStore(name).count();
            c.onsuccess = () => {
              total += c.result;
              if (++done === stores.length) {
                req.result.close();
                resolve(total);
              }
            };
          }
        };
      }),
    stores,
  );
}
