/**
 * pi's sessions folder as a person uses it beside pi in a terminal: choose the folder, see its
 * sessions by project, open one and watch the entries pi appends arrive, work on a copy saved back
 * into the folder, and after a reload the session still says it follows pi's file until told not to.
 * The folder is a directory in the page's private file system, handed out by the picker.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { assistant, msg } from "../src/core/session/test-builders.ts";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

test.describe.configure({ timeout: 120_000 });

/** A session pi 1.6 wrote itself (v3, with a compaction). */
const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi16/D-retain-none.jsonl");
const fixtureText = readFileSync(FIXTURE, "utf8");
const fixtureLines = fixtureText.split("\n").filter((l) => l.trim() !== "");
const fixtureCwd = JSON.parse(fixtureLines[0]!).cwd as string;
const lastId = JSON.parse(fixtureLines.at(-1)!).id as string;

/** The picker answers with the folder `pi-sessions` of the page's private file system. */
async function pickerGivesPrivateFolder(page: Page) {
  await page.addInitScript(() => {
    (
      window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }
    ).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle("pi-sessions", { create: true });
  });
}

/** Writes (or appends to) a file of the folder, as pi does. */
async function writeFolderFile(page: Page, dir: string, name: string, text: string, append = false) {
  await page.evaluate(
    async ({ dir, name, text, append }) => {
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle("pi-sessions", {
        create: true,
      });
      const d = await root.getDirectoryHandle(dir, { create: true });
      const h = await d.getFileHandle(name, { create: true });
      const size = (await h.getFile()).size;
      const w = await h.createWritable({ keepExistingData: append });
      if (append) await w.seek(size);
      await w.write(text);
      await w.close();
    },
    { dir, name, text, append },
  );
}

async function folderFiles(page: Page, dir: string): Promise<string[]> {
  return page.evaluate(async (dir) => {
    const root = await (await navigator.storage.getDirectory()).getDirectoryHandle("pi-sessions");
    const d = (await root.getDirectoryHandle(dir)) as FileSystemDirectoryHandle & {
      keys(): AsyncIterable<string>;
    };
    const out: string[] = [];
    for await (const k of d.keys()) out.push(k);
    return out.sort();
  }, dir);
}

test("open pi's folder, follow a session while pi appends, work on a copy saved back, reload", async ({
  page,
}) => {
  await pickerGivesPrivateFolder(page);
  const app = new AppPage(page);
  await app.goto();
  const project = "--workspace-app--";
  await writeFolderFile(page, project, "2026-01-01T00-00-00-000Z_fixture.jsonl", fixtureText);
  const other = JSON.stringify({
    type: "session",
    version: 3,
    id: "other-1",
    cwd: "/home/me/other",
    timestamp: "2026-02-01T00:00:00.000Z",
  });
  await writeFolderFile(page, "--home-me-other--", "2026-02-01T00-00-00-000Z_other-1.jsonl", `${other}\n`);

  await app.showSidebar();
  await page.getByRole("button", { name: "pi folder…" }).click();
  const dialog = page.locator('dialog[data-dialog="pi-folder"]');
  await dialog.getByRole("button", { name: "Choose the folder…" }).click();
  await expect(dialog.getByRole("heading", { name: fixtureCwd })).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "/home/me/other" })).toBeVisible();
  const compactions = fixtureLines.filter((l) => JSON.parse(l).type === "compaction").length;
  await expect(
    dialog.getByText(
      `${(fixtureLines.length - 1).toLocaleString("en-US")} entries · ${compactions} compaction${compactions === 1 ? "" : "s"}`,
    ),
  ).toBeVisible();

  await dialog
    .getByRole("region", { name: `Project ${fixtureCwd}` })
    .getByRole("button", { name: /^Open and follow/ })
    .click();
  const banner = page.getByTestId("follow-banner");
  await expect(banner).toContainText("pi is writing this session", { timeout: IMPORT_TIMEOUT });
  await expect(banner).toContainText(`${project}/2026-01-01T00-00-00-000Z_fixture.jsonl`);

  // pi appends a turn, the second line in two writes (a line it has not finished yet is not read).
  const now = new Date().toISOString();
  const u = {
    type: "message",
    id: "pi-u1",
    parentId: lastId,
    timestamp: now,
    message: { role: "user", content: "a question typed in pi's terminal", timestamp: 1 },
  };
  const a = msg("pi-a1", "pi-u1", assistant("pi's answer"));
  const second = JSON.stringify(a);
  await writeFolderFile(
    page,
    project,
    "2026-01-01T00-00-00-000Z_fixture.jsonl",
    `${JSON.stringify(u)}\n${second.slice(0, 20)}`,
    true,
  );
  await expect(banner).toContainText("1 new entry");
  await expect(app.timeline).toContainText("a question typed in pi");
  await writeFolderFile(
    page,
    project,
    "2026-01-01T00-00-00-000Z_fixture.jsonl",
    `${second.slice(20)}\n`,
    true,
  );
  await expect(banner).toContainText("2 new entries");
  await expect(app.timeline).toContainText("answer");
  // Stored: the session's leaf is pi's reply.
  const stored = await page.evaluate(async () => {
    const open = indexedDB.open("cutpoint");
    const db = await new Promise<IDBDatabase>((res) => (open.onsuccess = () => res(open.result)));
    const rows = await new Promise<{ leafId: string; followedFrom?: string }[]>((res) => {
      const q = db.transaction("sessions").objectStore("sessions").getAll();
      q.onsuccess = () => res(q.result);
    });
    db.close();
    return rows.map((r) => ({ leafId: r.leafId, followedFrom: r.followedFrom }));
  });
  expect(stored).toContainEqual({
    leafId: "pi-a1",
    followedFrom: `${project}/2026-01-01T00-00-00-000Z_fixture.jsonl`,
  });

  // A copy to work on, saved back into the project folder for pi to resume; pi's own file untouched.
  await banner.getByRole("button", { name: "Work on a copy" }).click();
  await expect(app.toasts.filter({ hasText: "Saved into pi's folder" })).toBeVisible();
  await expect(page.getByTestId("follow-banner")).toHaveCount(0);
  const files = await folderFiles(page, project);
  expect(files).toHaveLength(2);
  expect(files).toContain("2026-01-01T00-00-00-000Z_fixture.jsonl");

  // After a reload the followed session still says so, until the person stops following.
  await page.reload();
  await app.showSidebar();
  // The mirror and its copy start alike: open each until the one that follows pi's file.
  const items = page.locator(".session-item .session-open");
  await expect(items).toHaveCount(2);
  for (let i = 0; i < 2; i++) {
    await items.nth(i).click();
    if (await page.getByTestId("follow-banner").isVisible()) break;
  }
  const after = page.getByTestId("follow-banner");
  await expect(after).toContainText("not followed in this page");
  await after.getByRole("button", { name: "Stop following" }).click();
  await expect(page.getByTestId("follow-banner")).toHaveCount(0);
});
