/**
 * Importing damaged v3 files (the real pi fixture, migrated, then broken): a parentId cycle, a
 * missing parent, a deleted line, invalid UTF-8. The dialog lists each problem with its line and
 * says how many entries will be on the current path; the timeline then shows exactly that;
 * Cancel stores nothing; the export of the invalid-UTF-8 file is valid UTF-8.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

test.describe.configure({ timeout: 180_000 });

const REPO = resolve(import.meta.dirname, "..");
const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi/before-compaction.jsonl");
const FIRST_USER = /alright, read @packages\/coding-agent/;
const SHOTS = "/tmp/shots-damage";

function tempFile(name: string, content: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), "cutpoint-damaged-")), name);
  writeFileSync(path, content);
  return path;
}

/** The fixture as v3 lines (the CLI's migrate), without the final empty string. */
function v3Lines(): string[] {
  const out = join(mkdtempSync(join(tmpdir(), "cutpoint-v3-")), "v3.jsonl");
  execFileSync("npx", ["tsx", "src/cli/main.ts", "migrate", FIXTURE, "-o", out], {
    cwd: REPO,
    stdio: "pipe",
  });
  return readFileSync(out, "utf8").trimEnd().split("\n");
}

/** Line `n` (1-based) with its parentId set to `parentId`. */
function withParent(lines: string[], n: number, parentId: string): string[] {
  const copy = [...lines];
  const entry = JSON.parse(copy[n - 1]!) as { parentId: string };
  entry.parentId = parentId;
  copy[n - 1] = JSON.stringify(entry);
  return copy;
}

const idOf = (line: string) => (JSON.parse(line) as { id: string }).id;

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Imports by the picker, checks the dialog's lines and path sentence, then imports the valid entries. */
async function importDamaged(
  app: AppPage,
  file: string,
  expected: { lines: RegExp[]; path: string; entries: string; onPath: string; shot?: string },
): Promise<void> {
  await app.importByPicker(file);
  await expect(app.importDialog).toBeVisible({ timeout: IMPORT_TIMEOUT });
  const items = app.importDialog.getByRole("listitem");
  await expect(items).toHaveCount(expected.lines.length);
  for (const [i, line] of expected.lines.entries()) await expect(items.nth(i)).toHaveText(line);
  await expect(app.importDialog.getByTestId("path-summary")).toHaveText(expected.path);
  if (expected.shot) await shot(app.page, expected.shot);
  await app.importDialog
    .getByRole("button", { name: `Import the ${expected.entries} valid entries` })
    .click();
  await expect.poll(() => app.entryCountOf(FIRST_USER), { timeout: IMPORT_TIMEOUT }).toBe(expected.entries);
  await expect(app.page.getByTestId("path-count")).toHaveText(`${expected.onPath} entries on the path`, {
    timeout: IMPORT_TIMEOUT,
  });
}

test("a parentId cycle: reported with its lines; the path count in the dialog is what the timeline shows", async ({
  page,
}) => {
  const lines = v3Lines();
  // Line 3's parent becomes the entry on line 1000, one of its own descendants.
  const cycle = tempFile("cycle.jsonl", `${withParent(lines, 3, idOf(lines[999]!)).join("\n")}\n`);
  const app = new AppPage(page);
  await app.goto();
  await importDamaged(app, cycle, {
    lines: [
      /^Line 3: parentIds go round in a cycle through 998 entries \(lines 3, 4, 5, .*cut off from the root$/,
    ],
    path:
      "1,002 entries will be imported; 1,001 of them will be on the current path (lines 3–1003): it starts at " +
      "line 3, where the tree is broken, not at the start of the session.",
    entries: "1,002",
    onPath: "1,001",
    shot: "cycle-dialog",
  });
  await expect(
    app.toast(
      /Imported cycle\.jsonl: 1,002 entries\. 1,001 on the current path \(cut short by the damage on line 3\)/,
    ),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("path-count")).toHaveText("1,001 entries on the path", {
    timeout: IMPORT_TIMEOUT,
  });
});

test("a missing parent: Cancel stores nothing; importing shows the 303 entries the dialog announced", async ({
  page,
}) => {
  const lines = v3Lines();
  const missing = tempFile("missing.jsonl", `${withParent(lines, 701, "nothere").join("\n")}\n`);
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(missing);
  await expect(app.importDialog.getByTestId("problem-summary")).toContainText(
    "303 entries are cut off from the root (a parent that is not in the file: line 701)",
    { timeout: IMPORT_TIMEOUT },
  );
  await app.importDialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(app.toast(/missing\.jsonl: import cancelled, nothing was written/)).toBeVisible({
    timeout: IMPORT_TIMEOUT,
  });
  await expect(app.sessionItems).toHaveCount(0);

  await importDamaged(app, missing, {
    lines: [
      /^Line 701: parentId "nothere" names no entry of the file: this entry and the 302 entries below it are cut off from the root$/,
    ],
    path:
      "1,002 entries will be imported; 303 of them will be on the current path (lines 701–1003): it starts at " +
      "line 701, where the tree is broken, not at the start of the session.",
    entries: "1,002",
    onPath: "303",
  });
});

test("a deleted line and a truncated one: each named, the path cut where the parent went missing", async ({
  page,
}) => {
  const lines = v3Lines();
  // Line 500 deleted (its child, now on line 500, has no parent); line 800 cut in the middle.
  const damaged = lines.filter((_, i) => i !== 499);
  damaged[799] = damaged[799]!.slice(0, 60);
  const file = tempFile("deleted.jsonl", `${damaged.join("\n")}\n`);
  const app = new AppPage(page);
  await app.goto();
  await importDamaged(app, file, {
    lines: [
      /^Line 500: parentId "[0-9a-f]{8}" names no entry of the file: this entry and the 299 entries below it are cut off from the root$/,
      /^Line 800: not valid JSON — \{"type":"message"/,
      /^Line 801: parentId "[0-9a-f]{8}" names no entry of the file \(line 800, left out, has that id\): this entry and the 201 entries below it are cut off from the root$/,
    ],
    path:
      "1,000 entries will be imported; 202 of them will be on the current path (lines 801–1002): it starts at " +
      "line 801, where the tree is broken, not at the start of the session.",
    entries: "1,000",
    onPath: "202",
    shot: "deleted-dialog",
  });
});

test("invalid UTF-8: reported with its line, kept, and exported as valid UTF-8 (other lines byte for byte)", async ({
  page,
}) => {
  const lines = v3Lines();
  const bytes = lines.map((l) => Buffer.from(`${l}\n`, "utf8"));
  // Bad bytes inside a message text: a lone continuation byte and a truncated sequence.
  const bad = lines.findIndex((l, i) => i >= 5 && l.includes('"text":"'));
  const at = bytes[bad]!.indexOf('"text":"') + 8;
  bytes[bad] = Buffer.concat([
    bytes[bad]!.subarray(0, at),
    Buffer.from([0x80, 0xe2, 0x82]),
    bytes[bad]!.subarray(at),
  ]);
  const file = tempFile("utf8.jsonl", Buffer.concat(bytes));
  const app = new AppPage(page);
  await app.goto();
  await importDamaged(app, file, {
    lines: [
      new RegExp(
        `^Line ${bad + 1}: not valid UTF-8: the bad bytes are read as U\\+FFFD and the entry is kept — `,
      ),
    ],
    path: "1,002 entries will be imported; all of them will be on the current path (lines 2–1003).",
    entries: "1,002",
    onPath: "1,002",
    shot: "utf8-dialog",
  });
  const exported = readFileSync(await (await app.exportOpen()).path());
  const text = new TextDecoder("utf-8", { fatal: true }).decode(exported);
  const out = text.trimEnd().split("\n");
  expect(out).toHaveLength(lines.length);
  expect(out[bad]).toContain('"text":"\uFFFD\uFFFD');
  expect(out[bad]!.replace("\uFFFD\uFFFD", "")).toBe(lines[bad]);
  // Every other line is the input's own bytes.
  for (let i = 0; i < lines.length; i++) if (i !== bad) expect(out[i]).toBe(lines[i]);
});

test("the dialog at 800 px, light and dark: long problem lists scroll, the buttons stay in view", async ({
  page,
}) => {
  const lines = v3Lines();
  // Many problems: every tenth line loses its parent (98), and so two compactions their kept entry.
  let damaged = lines;
  for (let n = 20; n < 1000; n += 10) damaged = withParent(damaged, n, `gone-${n}`);
  const file = tempFile("many.jsonl", `${damaged.join("\n")}\n`);
  await page.setViewportSize({ width: 800, height: 700 });
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(file);
  await expect(app.importDialog.getByRole("listitem")).toHaveCount(51, { timeout: IMPORT_TIMEOUT });
  await expect(app.importDialog.getByRole("listitem").last()).toHaveText("… and 50 more");
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await shot(page, `many-800-${colorScheme}`);
    await expect(
      app.importDialog.getByRole("button", { name: "Import the 1,002 valid entries" }),
    ).toBeInViewport();
    await expect(app.importDialog.getByRole("button", { name: "Cancel import" })).toBeInViewport();
    const overflow = await app.importDialog.evaluate((d) => d.scrollWidth - d.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }
  await app.importDialog.getByRole("button", { name: "Cancel import" }).click();
  await expect(app.sessionItems).toHaveCount(0);
});
