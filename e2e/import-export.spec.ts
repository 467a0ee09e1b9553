/**
 * Importing like a person: the real pi session by picker and by drop (again: as a copy), a hand-edited v3
 * file, damaged and non-pi files; after a reload the export equals the CLI's `migrate` byte for byte.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { msg, user } from "../src/core/session/test-builders.ts";
import { writeSessionFile } from "./lib/session-file.ts";
import { storedRows } from "./lib/stored-rows.ts";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

const REPO = resolve(import.meta.dirname, "..");
/** Imports of the real session are slow on a busy 2-core machine. */
test.describe.configure({ timeout: 180_000 });

const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;

function tempFile(name: string, text: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), "cutpoint-e2e-")), name);
  writeFileSync(path, text);
  return path;
}

/** The CLI's `migrate` output for a file (what an export must equal byte for byte). */
function cliMigrate(input: string): Buffer {
  const out = join(mkdtempSync(join(tmpdir(), "cutpoint-migrate-")), "out.jsonl");
  execFileSync("npx", ["tsx", "src/cli/main.ts", "migrate", input, "-o", out], { cwd: REPO, stdio: "pipe" });
  return readFileSync(out);
}

test("import the real pi session by file picker, see it, reload, export byte-identical to the CLI", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(FIXTURE);
  await expect(app.toast(/Imported before-compaction\.jsonl: 1,002 entries/)).toBeVisible({
    timeout: IMPORT_TIMEOUT,
  });
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: IMPORT_TIMEOUT }).toBe("1,002");
  await expect(page.getByTestId("path-count")).toHaveText("1,002 entries on the path", {
    timeout: IMPORT_TIMEOUT,
  });
  await app.goToLastCompaction();
  await expect(app.compactionRows().first()).toContainText("Compaction");
  await expect(page.getByRole("button", { name: /^kept from/ }).first()).toBeVisible({
    timeout: IMPORT_TIMEOUT,
  });

  await page.reload();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: IMPORT_TIMEOUT }).toBe("1,002");
  await expect(page.getByTestId("path-count")).toHaveText("1,002 entries on the path", {
    timeout: IMPORT_TIMEOUT,
  });

  const download = await app.exportOpen();
  expect(download.suggestedFilename()).toMatch(
    /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]+_\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.jsonl$/,
  );
  const saved = await download.path();
  expect(readFileSync(saved).equals(cliMigrate(FIXTURE))).toBe(true);
});

test("import by drag and drop; the same session again asks, and imports as a copy", async ({ page }) => {
  const app = new AppPage(page);
  await app.goto();
  await app.importByDrop(FIXTURE);
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: IMPORT_TIMEOUT }).toBe("1,002");
  await expect(app.timelineRows.first()).toBeVisible({ timeout: IMPORT_TIMEOUT });

  await app.importByDrop(FIXTURE);
  await expect(app.importDialog).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await expect(app.importDialog).toContainText("already here");
  await app.importDialog.getByRole("button", { name: "Import as a copy" }).click();
  await expect(app.sessionItems).toHaveCount(2);

  await app.importByDrop(FIXTURE);
  await app.importDialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(app.toast(/import cancelled, nothing was written/)).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await expect(app.sessionItems).toHaveCount(2);
});

test("several files already here: the answer to the first can be kept for the rest of the import", async ({
  page,
}) => {
  const files = ["alpha", "beta", "gamma"].map((word) =>
    writeSessionFile(`again-${word}`, [msg("u1", null, user(`${word} question`))]),
  );
  const paths = files.map((f) => f.path);
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(...paths);
  await expect(app.sessionItems).toHaveCount(3, { timeout: IMPORT_TIMEOUT });

  // Again: asked once, "Import as a copy" with the box ticked copies the other two without asking.
  await app.importByPicker(...paths);
  await expect(app.importDialog).toContainText("alpha question", { timeout: IMPORT_TIMEOUT });
  const forAll = app.importDialog.getByRole("checkbox", {
    name: /Do the same for the other files of this import/,
  });
  await expect(forAll).toBeVisible();
  await expect(app.importDialog).toContainText("2 files still to come");
  await page.screenshot({ path: "/tmp/import-shots/for-all-1280.png" });
  await forAll.check();
  await app.importDialog.getByRole("button", { name: "Import as a copy" }).click();
  await expect(app.sessionItems).toHaveCount(6, { timeout: IMPORT_TIMEOUT });
  await expect(app.importDialog).toBeHidden();
  for (const word of ["alpha", "beta", "gamma"]) await expect(app.item(`${word} question`)).toHaveCount(2);

  // Unticked, each file is asked about; the last file of an import offers no box.
  await app.importByPicker(paths[0]!, paths[1]!);
  await expect(app.importDialog).toContainText("alpha question", { timeout: IMPORT_TIMEOUT });
  await app.importDialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(app.importDialog).toContainText("beta question", { timeout: IMPORT_TIMEOUT });
  await expect(forAll).toHaveCount(0);
  await app.importDialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(app.toast(/beta.*import cancelled, nothing was written/)).toBeVisible({
    timeout: IMPORT_TIMEOUT,
  });
  await expect(app.sessionItems).toHaveCount(6);
});

test("a file with a BOM, CRLF line ends and blank lines imports, and the toast says the export writes LF, no BOM, no blank lines", async ({
  page,
}) => {
  const file = writeSessionFile("crlf", [
    msg("u1", null, user("windows question")),
    msg("u2", "u1", user("second question")),
  ]);
  const lines = file.text.trimEnd().split("\n");
  const edited = tempFile("crlf.jsonl", `\uFEFF${lines.join("\r\n\r\n")}\r\n`);
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(edited);
  // No question: nothing of the session is lost.
  const toast = app.toast("Imported crlf.jsonl: 2 entries.");
  await expect(toast).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await expect(toast).toContainText(
    "The file has a byte order mark (BOM) at its start, 3 lines ending in CRLF and 2 blank lines: the session " +
      "is the same, but its export writes no BOM, LF line ends and no blank lines, so the exported file differs " +
      "from this one.",
  );
  await expect(app.importDialog).toBeHidden();
  await page.screenshot({ path: "/tmp/import-shots/normalized-toast-1280.png" });
  // What the toast says is what the export does.
  const exported = readFileSync(await (await app.exportOpen()).path(), "utf8");
  expect(exported).toBe(file.text);
});

test("a v3 file is stored as its own bytes: export equals the CLI's migrate, CRLF and a bad line included", async ({
  page,
}) => {
  // The fixture as pi writes v3 (the CLI's migrate), then edited by hand: a line with spaces,
  // a CRLF line, a bad line, no final newline.
  const lines = cliMigrate(FIXTURE).toString("utf8").replace(/\n$/, "").split("\n");
  lines[5] = lines[5]!.replace(/^\{"type":"message",/, '{ "type": "message", ');
  lines[8] = `${lines[8]}\r`;
  lines.splice(12, 0, "{not json");
  const edited = tempFile("edited-v3.jsonl", lines.join("\n"));
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(edited);
  await expect(app.importDialog.getByTestId("problem-summary")).toContainText("1 line would be left out", {
    timeout: IMPORT_TIMEOUT,
  });
  await app.importDialog.getByRole("button", { name: "Import the 1,002 valid entries" }).click();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: IMPORT_TIMEOUT }).toBe("1,002");
  await page.reload();
  await expect(page.getByTestId("path-count")).toHaveText("1,002 entries on the path", {
    timeout: IMPORT_TIMEOUT,
  });
  const exported = readFileSync(await (await app.exportOpen()).path());
  expect(exported.equals(cliMigrate(edited))).toBe(true);
  const out = exported.toString("utf8").split("\n");
  expect(out[5]).toBe(lines[5]); // the spaced line, byte for byte
  expect(out[8]).toBe(lines[8]!.slice(0, -1)); // the CRLF line, with "\n" alone
  expect(out).not.toContain("{not json");
  expect(exported.at(-1)).toBe(0x0a);
});

test("a damaged file: the report names the lines; cancel writes nothing, import-valid keeps the rest", async ({
  page,
}) => {
  const lines = readFileSync(FIXTURE, "utf8").split("\n");
  lines[6] = '{"type":"message", broken';
  lines[20] = "\u0000\u0001 not json at all";
  lines[41] = "[1,2,3]";
  const damaged = tempFile("damaged.jsonl", lines.join("\n"));
  const app = new AppPage(page);
  await app.goto();

  await app.importByPicker(damaged);
  await expect(app.importDialog).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await expect(app.importDialog.getByTestId("problem-summary")).toContainText(
    "3 lines would be left out: line 7, line 21, line 42.",
  );
  await expect(app.importDialog.getByRole("listitem")).toHaveCount(3);
  await app.importDialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(app.importDialog).toBeHidden();
  await expect(app.toast(/damaged\.jsonl: import cancelled, nothing was written/)).toBeVisible({
    timeout: IMPORT_TIMEOUT,
  });
  await expect(app.sessionItems).toHaveCount(0);

  await app.importByPicker(damaged);
  await app.importDialog.getByRole("button", { name: "Import the 999 valid entries" }).click();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: IMPORT_TIMEOUT }).toBe("999");
  await expect(app.toast(/3 lines were left out \(line 7: .*\)\./)).toBeVisible({
    timeout: IMPORT_TIMEOUT,
  });
});

test("files that are not pi sessions are rejected with a message", async ({ page }) => {
  const app = new AppPage(page);
  await app.goto();
  const empty = tempFile("empty.jsonl", "");
  const binary = tempFile("image.jsonl", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe]));
  const noHeader = tempFile("entries.jsonl", '{"type":"message","id":"a","parentId":null}\n');
  await app.importByPicker(empty, binary, noHeader);
  await expect(app.toast(/empty\.jsonl: The file is empty/)).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await expect(app.toast(/image\.jsonl: Not a pi session/)).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await expect(app.toast(/entries\.jsonl: Not a pi session/)).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await expect(app.sessionItems).toHaveCount(0);
});

test("an import into full storage says so, stores nothing, and the same file imports once there is room", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.goto();
  // The import's first chunk write fails as a full disk would (the app cannot tell this from the
  // real thing); the writes after it work again.
  await page.evaluate(() => {
    const { add, put } = IDBObjectStore.prototype;
    const full = (store: IDBObjectStore) => {
      if (store.name !== "chunks") return;
      Object.assign(IDBObjectStore.prototype, { add, put });
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
    IDBObjectStore.prototype.add = function (this: IDBObjectStore, ...args: Parameters<typeof add>) {
      full(this);
      return add.apply(this, args);
    };
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      full(this);
      return put.apply(this, args);
    };
  });
  await app.importByPicker(FIXTURE);
  const failed = app.toasts.filter({ hasText: "before-compaction.jsonl" });
  await expect(failed).toContainText("storage for Cutpoint is full", { timeout: IMPORT_TIMEOUT });
  await expect(failed).toContainText("Nothing was written");
  await expect(page.getByText("No sessions yet.")).toBeVisible();
  // Nothing half-written: no session row, no chunk, also after a reload.
  expect(await storedRows(page)).toBe(0);
  await page.reload();
  await expect(page.getByText("No sessions yet.")).toBeVisible();
  expect(await storedRows(page)).toBe(0);
  // With room again, the same file imports whole.
  await app.importByPicker(FIXTURE);
  await expect(app.sessionItems.filter({ hasText: FIRST_USER })).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await expect(page.getByTestId("path-count")).toHaveText("1,002 entries on the path", {
    timeout: IMPORT_TIMEOUT,
  });
});
