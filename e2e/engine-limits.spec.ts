/**
 * The app where the engine gives less (issue 40): IndexedDB refusing Blobs as WebKit's private
 * windows do, file handles without createWritable as in Safari before 26, and no OPFS at all.
 * Import, the example, export (the same bytes as the CLI's migrate) and the agent's writes all work,
 * and the page says plainly what is limited.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { entryCount, newSession, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { dropCreateWritable, dropOpfs, refuseIdbBlobs } from "./lib/engine-limits.ts";
import { scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage, EXAMPLE_TITLE, IMPORT_TIMEOUT } from "./pages/app-page.ts";

test.describe.configure({ timeout: 180_000 });

const REPO = resolve(import.meta.dirname, "..");
const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;

function cliMigrate(input: string): Buffer {
  const out = join(mkdtempSync(join(tmpdir(), "cutpoint-migrate-")), "out.jsonl");
  execFileSync("npx", ["tsx", "src/cli/main.ts", "migrate", input, "-o", out], { cwd: REPO, stdio: "pipe" });
  return readFileSync(out);
}

/** The kinds of what the chunk rows hold ("Blob", "Uint8Array", "string"), read in the page. */
function chunkForms(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const req = indexedDB.open("cutpoint");
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const all = req.result.transaction("chunks").objectStore("chunks").getAll();
          all.onsuccess = () => {
            req.result.close();
            const kinds = (all.result as { data: unknown }[]).map((r) =>
              r.data instanceof Blob ? "Blob" : r.data instanceof Uint8Array ? "Uint8Array" : typeof r.data,
            );
            resolve([...new Set(kinds)].sort());
          };
        };
      }),
  );
}

test("IndexedDB refusing Blobs (WebKit private window): the example and an import are stored, reload, export byte-exact", async ({
  page,
}) => {
  await page.addInitScript(refuseIdbBlobs);
  const app = new AppPage(page);
  await app.goto();
  expect(await page.evaluate(() => (globalThis as { __blobsRefused?: boolean }).__blobsRefused)).toBe(true);
  await expect(page.getByTestId("storage-limited")).toContainText("This window refuses stored files");

  await app.openExample();
  await expect(app.timelineRows.first()).toBeVisible();

  await app.importByPicker(FIXTURE);
  await expect(app.toast(/Imported before-compaction\.jsonl: 1,002 entries/)).toBeVisible({
    timeout: IMPORT_TIMEOUT,
  });
  await expect(page.getByText(/chunks\.bulkAdd|Storage error/)).toHaveCount(0);
  expect(await chunkForms(page)).not.toContain("Blob");
  expect(await chunkForms(page)).toContain("Uint8Array");

  await page.reload();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: IMPORT_TIMEOUT }).toBe("1,002");
  await app.open(FIRST_USER);
  await expect(page.getByTestId("path-count")).toHaveText("1,002 entries on the path", {
    timeout: IMPORT_TIMEOUT,
  });
  const download = await app.exportOpen();
  expect(download.suggestedFilename()).toMatch(/^[\dTZ-]+_[0-9a-f-]+_[\dTZ-]+\.jsonl$/);
  expect(readFileSync(await download.path()).equals(cliMigrate(FIXTURE))).toBe(true);

  // The example is still there after the reload, whole.
  await app.open(EXAMPLE_TITLE);
  await expect(app.title).toHaveText(EXAMPLE_TITLE);
});

test("no createWritable and Blobs refused (older Safari): the agent writes and edits through the worker", async ({
  page,
}) => {
  await page.addInitScript(refuseIdbBlobs);
  await page.addInitScript(dropCreateWritable);
  const key = uniqueKey("old-safari");
  await page.goto("/");
  expect(await page.evaluate(() => "createWritable" in FileSystemFileHandle.prototype)).toBe(false);
  await setUpProvider(page, key);
  await newSession(page);
  const file = `notes-${key.slice(-8)}.md`;
  await scriptReplies(key, [
    {
      text: "Creating the file.",
      toolCalls: [{ name: "write", arguments: { path: file, content: "# Notes\nfirst line\n" } }],
    },
    {
      text: "Now editing it.",
      toolCalls: [{ name: "edit", arguments: { path: file, oldText: "first line", newText: "edited line" } }],
    },
    { text: "Done." },
  ]);
  await send(page, "Write and edit a notes file");
  await waitIdle(page);
  const run = page.getByTestId("agent-run");
  await expect(run.getByTestId("tool-result")).toHaveCount(2);
  await expect(run.locator(".tool-result.is-error")).toHaveCount(0);
  await expect(run.getByTestId("tool-result").first()).toContainText(`Created ${file}`);
  await expect.poll(() => entryCount(page)).toBe(8);

  await page.getByRole("button", { name: "Files", exact: true }).click();
  const panel = page.getByTestId("workspace-panel");
  await expect(panel.getByTestId("workspace-where")).toHaveText(
    "Files live in this browser's private storage for Cutpoint and stay after a reload.",
  );
  await panel.getByRole("button", { name: file }).click();
  await expect(panel.getByTestId("file-content")).toHaveText("# Notes\nedited line\n");
  // What the worker wrote is in OPFS itself (read back without the app).
  const onDisk = await page.evaluate(async (name) => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle("workspace");
    return (await (await dir.getFileHandle(name)).getFile()).text();
  }, file);
  expect(onDisk).toBe("# Notes\nedited line\n");

  // After a reload the file is still there (not memory).
  await page.reload();
  await page.getByRole("button", { name: "Files", exact: true }).click();
  await expect(page.getByTestId("workspace-panel").getByRole("button", { name: file })).toBeVisible();
});

test("no OPFS at all: files live in memory, said once, and only what works is offered", async ({ page }) => {
  await page.addInitScript(dropOpfs);
  const key = uniqueKey("no-opfs");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [
    {
      text: "Writing.",
      toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "kept in memory\n" } }],
    },
    { text: "Done." },
  ]);
  await send(page, "Write a file");
  await waitIdle(page);
  const run = page.getByTestId("agent-run");
  await expect(run.getByTestId("tool-result")).toHaveCount(1);
  await expect(run.locator(".tool-result.is-error")).toHaveCount(0);

  await page.getByRole("button", { name: "Files", exact: true }).click();
  const panel = page.getByTestId("workspace-panel");
  await expect(panel.getByTestId("workspace-where")).toHaveText(
    "This browser gives Cutpoint no private file storage here (it needs a secure page: https or localhost). Files live in memory only and are lost on reload.",
  );
  await expect(panel.getByText(/Files live/)).toHaveCount(1);
  await expect(panel).not.toContainText("live in the browser's private storage");
  await expect(panel.getByRole("button", { name: "Use browser storage" })).toHaveCount(0);
  await panel.getByRole("button", { name: "a.txt" }).click();
  await expect(panel.getByTestId("file-content")).toHaveText("kept in memory\n");
});
