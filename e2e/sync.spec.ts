/**
 * Sync through storage the person owns, with two browser contexts as two devices, against real
 * servers the test starts (s3rver with and without the bucket's CORS rules, webdav-server): a
 * session made on A appears on B, B appends and A sees it; both append at once and every entry is
 * on both as branches, once; a rename on A and a label on B both travel; a delete travels (Undo
 * stays on A); the objects on the server hold no plaintext; wrong credentials and a CORS-less
 * server say so and lose nothing.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { newSession, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { uniqueKey } from "./mock/client.ts";
import { AppPage } from "./pages/app-page.ts";
import { DAV_USER, type Running, S3_KEY, startS3, startWebDav, storedFiles } from "./sync/servers.ts";

// Generous for a loaded machine; about 40 s per test on an idle 2-core one.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const [S3_PORT, DAV_PORT, NO_CORS_PORT] = (process.env.CUTPOINT_SYNC_PORTS ?? "4418,4428,4438")
  .split(",")
  .map(Number) as [number, number, number];
const PASSPHRASE = "tidal basin 42";

let s3: Running;
let dav: Running;
let noCors: Running;
test.beforeAll(async () => {
  [s3, dav, noCors] = await Promise.all([
    startS3(S3_PORT, { cors: true }),
    startWebDav(DAV_PORT),
    startS3(NO_CORS_PORT, { cors: false }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([s3?.stop(), dav?.stop(), noCors?.stop()]);
});

type Kind = "s3" | "webdav";
interface Device {
  context: BrowserContext;
  page: Page;
  app: AppPage;
}

async function device(browser: Browser): Promise<Device> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const app = new AppPage(page);
  await app.goto();
  return { context, page, app };
}

function syncPanel(page: Page) {
  return page.getByTestId("sync-settings");
}

async function openSettings(page: Page) {
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(syncPanel(page)).toBeVisible();
}

async function closeSettings(page: Page) {
  await page.locator('dialog[data-dialog="settings"]').getByRole("button", { name: "Done" }).click();
}

async function syncedAt(page: Page): Promise<number> {
  return Number(await syncPanel(page).getByTestId("sync-status").getAttribute("data-synced-at"));
}

/** Fills Settings → Sync and saves; waits for the first round's outcome. */
async function setUpSync(
  page: Page,
  kind: Kind,
  options: { url?: string; id?: string; secret?: string; expectError?: RegExp } = {},
) {
  await openSettings(page);
  const panel = syncPanel(page);
  const before = await syncedAt(page);
  if (kind === "s3") {
    await panel.getByLabel("S3-compatible bucket", { exact: true }).check();
    await panel.getByLabel("Endpoint", { exact: true }).fill(options.url ?? s3.url);
    await panel.getByLabel("Region", { exact: true }).fill("us-east-1");
    await panel.getByLabel("Bucket", { exact: true }).fill("cutpoint");
    await panel.getByLabel("Prefix (optional)", { exact: true }).fill("shared/");
    await panel.getByLabel("Access key id", { exact: true }).fill(options.id ?? S3_KEY.accessKeyId);
    await panel
      .getByLabel("Secret access key", { exact: true })
      .fill(options.secret ?? S3_KEY.secretAccessKey);
  } else {
    await panel.getByLabel("WebDAV folder", { exact: true }).check();
    await panel.getByLabel("Folder URL", { exact: true }).fill(options.url ?? dav.url);
    await panel.getByLabel("User", { exact: true }).fill(options.id ?? DAV_USER.user);
    await panel
      .getByLabel("Password or app token", { exact: true })
      .fill(options.secret ?? DAV_USER.password);
  }
  await panel.getByLabel("Encryption passphrase", { exact: true }).fill(PASSPHRASE);
  await expect(panel.getByLabel("Encrypt sessions end to end", { exact: true })).toBeChecked();
  await panel.getByRole("button", { name: "Save and sync" }).click();
  if (options.expectError) await expect(panel.getByTestId("sync-error")).toHaveText(options.expectError);
  else await expect.poll(() => syncedAt(page), { timeout: 90_000 }).toBeGreaterThan(before);
  await closeSettings(page);
}

async function syncNow(page: Page) {
  await openSettings(page);
  const before = await syncedAt(page);
  await syncPanel(page).getByRole("button", { name: "Sync now" }).click();
  await expect.poll(() => syncedAt(page), { timeout: 90_000 }).toBeGreaterThan(before);
  await expect(syncPanel(page).getByTestId("sync-error")).toHaveCount(0);
  await closeSettings(page);
}

/** The stored entries of every session, read from the page's IndexedDB (position markers left out). */
function storedEntries(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ id: string; parentId: string | null; type: string; text: string }[]>((resolve) => {
        const req = indexedDB.open("cutpoint");
        req.onsuccess = () => {
          const all = req.result.transaction("chunks").objectStore("chunks").getAll();
          all.onsuccess = async () => {
            const out: { id: string; parentId: string | null; type: string; text: string }[] = [];
            for (const row of all.result as { data: Blob | string }[]) {
              const text = typeof row.data === "string" ? row.data : await row.data.text();
              for (const line of text.split("\n")) {
                if (line === "") continue;
                const e = JSON.parse(line);
                if (e.type === "custom" && e.customType === "cutpoint.move") continue;
                if (e.type === "leaf") continue;
                out.push({ id: e.id, parentId: e.parentId, type: e.type, text: JSON.stringify(e) });
              }
            }
            req.result.close();
            resolve(out);
          };
        };
      }),
  );
}

for (const kind of ["s3", "webdav"] as const) {
  test(`${kind}: two devices share a session; appends at once become branches; rename, label and delete travel; no plaintext on the server`, async ({
    browser,
  }) => {
    const marker = `marker-${kind}-${Date.now()}`;
    const a = await device(browser);
    const b = await device(browser);
    await setUpProvider(a.page, uniqueKey(`sync-a-${kind}`));
    await newSession(a.page);
    await send(a.page, `hello ${marker}`);
    await waitIdle(a.page);
    await setUpSync(a.page, kind);

    // B: the session appears after B sets the same target.
    await setUpSync(b.page, kind);
    await b.app.open(`hello ${marker}`);
    await expect(b.app.timeline).toContainText(marker);

    // B appends; A sees it.
    await setUpProvider(b.page, uniqueKey(`sync-b-${kind}`));
    await send(b.page, "written on B");
    await waitIdle(b.page);
    await syncNow(b.page);
    await syncNow(a.page);
    await expect(a.app.timeline).toContainText("written on B");

    // Both append at once, two rounds.
    for (const round of [1, 2]) {
      await Promise.all([send(a.page, `A says ${round}`), send(b.page, `B says ${round}`)]);
      await Promise.all([waitIdle(a.page), waitIdle(b.page)]);
      await Promise.all([syncNow(a.page), syncNow(b.page)]);
    }
    await syncNow(a.page);
    await syncNow(b.page);
    const [onA, onB] = await Promise.all([storedEntries(a.page), storedEntries(b.page)]);
    const ids = (list: { id: string }[]) => list.map((e) => e.id).sort();
    expect(ids(onA)).toEqual(ids(onB));
    expect(new Set(ids(onA)).size).toBe(onA.length);
    expect(onA.filter((e) => e.parentId === null)).toHaveLength(1);
    for (const text of ["A says 1", "A says 2", "B says 1", "B says 2", "written on B"])
      expect(onA.filter((e) => e.text.includes(`"role":"user","content":"${text}"`))).toHaveLength(1);
    // Appends at once are branches: some entry has two children.
    const children = new Map<string, number>();
    for (const e of onA) if (e.parentId) children.set(e.parentId, (children.get(e.parentId) ?? 0) + 1);
    expect([...children.values()].some((n) => n > 1)).toBe(true);

    // A rename on A and a label on B: both kept, on both.
    await a.app.clickTopBar("Rename");
    const rename = a.page.locator('dialog[data-dialog="rename"]');
    await rename.getByRole("textbox").fill(`Shared ${kind}`);
    await rename.getByRole("textbox").press("Enter");
    await expect(a.app.title).toHaveText(`Shared ${kind}`);
    await b.app.labelRow(/User\s*written on B/, "checkpoint");
    await syncNow(a.page);
    await syncNow(b.page);
    await syncNow(a.page);
    await expect(b.app.item(`Shared ${kind}`)).toHaveCount(1);
    for (const d of [a, b]) {
      const stored = await storedEntries(d.page);
      expect(stored.some((e) => e.type === "session_info" && e.text.includes(`Shared ${kind}`))).toBe(true);
      expect(stored.some((e) => e.type === "label" && e.text.includes("checkpoint"))).toBe(true);
    }

    // Encrypted end to end: no object on the server holds the text of a message.
    const files = storedFiles((kind === "s3" ? s3 : dav).dir);
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) {
      expect(f.bytes.includes(marker)).toBe(false);
      expect(f.bytes.includes("written on B")).toBe(false);
    }

    // A delete on A travels; A keeps its Undo.
    await a.page.getByRole("button", { name: `Delete Shared ${kind}` }).click();
    await a.page.locator('dialog[data-dialog="delete"]').getByRole("button", { name: "Delete" }).click();
    await expect(a.app.toast(`Deleted “Shared ${kind}”`).getByRole("button", { name: "Undo" })).toBeVisible();
    await syncNow(a.page);
    await syncNow(b.page);
    await expect(b.app.item(`Shared ${kind}`)).toHaveCount(0);
    await a.context.close();
    await b.context.close();
  });
}

test("wrong credentials and a server without CORS: a clear message, and the local session stays", async ({
  browser,
}) => {
  const c = await device(browser);
  await c.app.openExample();
  await setUpSync(c.page, "webdav", { secret: "not-the-password", expectError: /refused the credentials/ });
  await setUpSync(c.page, "s3", {
    url: noCors.url,
    expectError: /does not allow requests from this page \(CORS\)/,
  });
  await setUpSync(c.page, "webdav", {
    url: dav.url.replace("/sync/", "/missing/"),
    expectError: /folder does not exist/,
  });
  await expect(c.app.item(/tally/)).toHaveCount(1);
  await c.page.reload();
  await expect(c.app.item(/tally/)).toHaveCount(1);
  await c.context.close();
});
