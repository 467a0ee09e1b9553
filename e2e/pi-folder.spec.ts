/**
 * pi's sessions folder as a person uses it beside pi in a terminal: choose the folder, see its
 * sessions by project, open one and watch the entries pi appends arrive, work on a copy saved back
 * into the folder, and after a reload the session still says it follows pi's file until told not to.
 * The folder is a directory in the page's private file system, handed out by the picker.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { assistant, msg } from "../src/core/session/test-builders.ts";
import { TID } from "./pages/app-knowledge.ts";
import { AppPage, IMPORT_TIMEOUT } from "./pages/app-page.ts";

test.describe.configure({ timeout: 120_000 });

/** A session pi 1.6 wrote itself (v3, with a compaction). */
const FIXTURE = resolve(import.meta.dirname, "../../shared/fixtures/pi16/D-retain-none.jsonl");
const fixtureText = readFileSync(FIXTURE, "utf8");
const fixtureLines = fixtureText.split("\n").filter((l) => l.trim() !== "");
const fixtureCwd = JSON.parse(fixtureLines[0]!).cwd as string;
const lastId = JSON.parse(fixtureLines.at(-1)!).id as string;

/** The picker answers with the folder `folder` (default `pi-sessions`) of the page's private file system. */
async function pickerGivesPrivateFolder(page: Page, folder = "pi-sessions") {
  await page.addInitScript((folder) => {
    (
      window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }
    ).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle(folder, { create: true });
  }, folder);
}

/**
 * Writes (or appends to) a file of the folder, as pi does. `dir` is a path inside the folder
 * ("" for the folder itself, "sessions/--home-me-app--" for a nested one).
 */
async function writeFolderFile(
  page: Page,
  dir: string,
  name: string,
  text: string,
  append = false,
  folder = "pi-sessions",
) {
  await page.evaluate(
    async ({ dir, name, text, append, folder }) => {
      let d = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder, { create: true });
      for (const part of dir.split("/").filter((p) => p !== ""))
        d = await d.getDirectoryHandle(part, { create: true });
      const h = await d.getFileHandle(name, { create: true });
      const size = (await h.getFile()).size;
      const w = await h.createWritable({ keepExistingData: append });
      if (append) await w.seek(size);
      await w.write(text);
      await w.close();
    },
    { dir, name, text, append, folder },
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

/** Opens "pi folder…", chooses the folder the picker gives, and sees the fixture's project in it; returns the dialog. */
async function chooseFolder(app: AppPage): Promise<Locator> {
  await app.showSidebar();
  await app.page.getByRole("button", { name: "pi folder…" }).click();
  const dialog = app.page.locator('dialog[data-dialog="pi-folder"]');
  await dialog.getByRole("button", { name: "Choose the folder…" }).click();
  await expect(dialog.getByRole("heading", { name: fixtureCwd })).toBeVisible();
  return dialog;
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

  const dialog = await chooseFolder(app);
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

test("open pi's agent folder: its settings.json and models.json are offered for review, applied, and a session of its sessions/ uses them", async ({
  page,
}) => {
  await pickerGivesPrivateFolder(page, "agent");
  const app = new AppPage(page);
  await app.goto();
  // pi's ~/.pi/agent: its settings, its models, and sessions/ with one project (openai/gpt-x ran it).
  const settings = { compaction: { modelOverrides: { "openai/gpt-x": { reserveTokens: 1000 } } } };
  const models = { providers: { openai: { modelOverrides: { "gpt-x": { contextWindow: 6000 } } } } };
  await writeFolderFile(page, "", "settings.json", JSON.stringify(settings, null, 2), false, "agent");
  await writeFolderFile(page, "", "models.json", JSON.stringify(models, null, 2), false, "agent");
  await writeFolderFile(page, "", "auth.json", "{}", false, "agent");
  const project = "sessions/--workspace-app--";
  await writeFolderFile(page, project, "2026-01-01T00-00-00-000Z_fixture.jsonl", fixtureText, false, "agent");

  const dialog = await chooseFolder(app);
  await expect(dialog.getByTestId("pi-folder-settings")).toContainText(
    "The folder agent holds pi's settings.json and models.json.",
  );
  await dialog.getByRole("button", { name: "Review pi's settings from this folder…" }).click();

  const review = page.getByRole("dialog", { name: "pi's settings" });
  await expect(review.getByText("Read: settings.json (from agent), models.json (from agent)")).toBeVisible();
  const rows = review.getByTestId("pi-settings-changes").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveText(
    'gpt-x: reserve tokensthe setting for all models1,000 tokenssettings.json compaction.modelOverrides["openai/gpt-x"]',
  );
  await expect(rows.nth(1)).toHaveText(
    'gpt-x: context window128,000 tokens6,000 tokensmodels.json providers["openai"]',
  );
  await review.getByRole("button", { name: "Apply" }).click();
  await expect(review).toBeHidden();
  await expect(app.toasts.filter({ hasText: "pi's settings applied: 2 changes." })).toBeVisible();

  // Stored: gpt-x's window and reserve, marked as pi's.
  const stored = await page.evaluate(async () => {
    const open = indexedDB.open("cutpoint");
    const db = await new Promise<IDBDatabase>((res) => (open.onsuccess = () => res(open.result)));
    const row = await new Promise<{ value: { overrides: Record<string, unknown> } }>((res) => {
      const q = db.transaction("settings").objectStore("settings").get("agent.provider");
      q.onsuccess = () => res(q.result);
    });
    db.close();
    return row.value.overrides["gpt-x"];
  });
  expect(stored).toMatchObject({ contextWindow: 6000, reserveTokens: 1000 });

  // The session from the folder's sessions/: pi's window and threshold.
  await page.getByRole("button", { name: "pi folder…" }).click();
  await dialog
    .getByRole("region", { name: `Project ${fixtureCwd}` })
    .getByRole("button", { name: /^Open and follow/ })
    .click();
  await expect(page.getByTestId("follow-banner")).toContainText(
    "--workspace-app--/2026-01-01T00-00-00-000Z_fixture.jsonl",
    { timeout: IMPORT_TIMEOUT },
  );
  const meter = page.getByTestId(TID.contextMeter);
  await expect(meter).toContainText("/ 6.0k", { timeout: IMPORT_TIMEOUT });
  await expect(meter).toContainText("threshold 5.0k");
});

test("open pi's sessions folder: it says where pi's settings are, as the browser cannot go up", async ({
  page,
}) => {
  await pickerGivesPrivateFolder(page);
  const app = new AppPage(page);
  await app.goto();
  await writeFolderFile(page, "--workspace-app--", "2026-01-01T00-00-00-000Z_fixture.jsonl", fixtureText);
  const dialog = await chooseFolder(app);
  await expect(dialog.getByTestId("pi-folder-settings")).toContainText(
    "pi's settings.json and models.json are in the folder above this one",
  );
  await expect(dialog.getByRole("button", { name: "Review pi's settings from this folder…" })).toHaveCount(0);
  // The file picker stays.
  await dialog.getByRole("button", { name: "Import pi's settings…" }).click();
  await expect(
    page.getByRole("dialog", { name: "pi's settings" }).getByLabel("pi's settings.json and/or models.json"),
  ).toBeVisible();
});
