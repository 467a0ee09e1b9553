/**
 * The browser's own cost of what an import cannot avoid, without the app: the file's bytes read,
 * decoded in runs of whole lines and each line JSON.parse'd and kept, in a blank page of the same
 * browser. What the storage bench's import parse compares with (how far the app is from it).
 */
import type { Browser } from "@playwright/test";

export interface ParseFloor {
  /** Reading the Blob's bytes. */
  readMs: number;
  /** Decoding (8 KB runs of whole lines, as core/session/parse-split.ts does) and parsing. */
  parseMs: number;
  lines: number;
}

/** `url`: a blank page of a server that also serves the file at `file` (a path on it). */
export async function measureParseFloor(browser: Browser, url: string, file: string): Promise<ParseFloor> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    // A string, not a function: run as written (no helpers of the bench's compiler inside).
    return (await page.evaluate(`(async () => {
      const blob = await (await fetch(${JSON.stringify(file)})).blob();
      const t0 = performance.now();
      const bytes = new Uint8Array(await blob.arrayBuffer());
      const t1 = performance.now();
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      const kept = [];
      for (let from = 0; from < bytes.length; ) {
        let end = Math.min(bytes.length, from + 8192);
        if (end < bytes.length) {
          const cut = bytes.lastIndexOf(10, end - 1);
          end = (cut >= from ? cut : Math.max(bytes.indexOf(10, end), bytes.length - 1)) + 1;
        }
        const text = decoder.decode(bytes.subarray(from, end));
        let at = 0;
        for (let nl = text.indexOf("\\n"); nl >= 0; nl = text.indexOf("\\n", at)) {
          if (nl > at) kept.push(JSON.parse(text.slice(at, nl)));
          at = nl + 1;
        }
        if (at < text.length) kept.push(JSON.parse(text.slice(at)));
        from = end;
      }
      return { readMs: t1 - t0, parseMs: performance.now() - t1, lines: kept.length };
    })()`)) as ParseFloor;
  } finally {
    await page.close();
  }
}
