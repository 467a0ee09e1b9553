/**
 * Sync through storage the person owns, with two browser contexts as two devices (one pair per
 * target, kept through the target's tests), against real servers the test starts (s3rver with and
 * without the bucket's CORS rules, webdav-server): a session made on A appears on B, B appends and
 * A sees it; both append at once and every entry is on both as branches, once; a rename on A and a
 * label on B both travel; the server stopped mid-upload and started again: the upload resumes,
 * nothing half-written or twice, and B fetches the big session on demand; the objects on the
 * server hold no plaintext; a delete travels and so does its Undo; the session list says each
 * session's sync status; wrong credentials and a CORS-less server say so and lose nothing.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { isEncrypted } from "../src/services/sync/sync-crypto.ts";
import { newSession, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { generateBigSession } from "./bench/lib/big-session.ts";
import { uniqueKey } from "./mock/client.ts";
import { AppPage } from "./pages/app-page.ts";
import { storedChunks } from "./sync/objects.ts";
import {
  BUCKET,
  DAV_USER,
  envPorts,
  type Running,
  S3_KEY,
  startS3,
  startWebDav,
  storedFiles,
  storedObjects,
} from "./sync/servers.ts";
import {
  fetchFromTarget,
  listStatus,
  remoteItem,
  type SyncForm,
  setUpSync,
  syncFooter,
  syncNow,
  syncRound,
} from "./sync/steps.ts";

// Serial: each target's tests share one pair of devices. About 20 to 40 s a test on an idle machine.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const [S3_PORT, DAV_PORT, NO_CORS_PORT] = envPorts("CUTPOINT_SYNC_PORTS", [4418, 4428, 4438] as const);
const PASSPHRASE = "tidal basin 42";
const PREFIX = "shared/";
/** Past the size fetched without asking (2 MB), and several upload pieces (512 KB each). */
const BIG = generateBigSession(2.5 * 1024 * 1024);
const BIG_ID = "00000000-0000-4000-8000-000000000bench";
const SHOTS = "/tmp/shots-sync";

let s3: Running;
let dav: Running;
let noCors: Running;
test.beforeAll(async () => {
  [s3, dav, noCors] = await Promise.all([
    startS3(S3_PORT, { cors: true, prefix: PREFIX }),
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

/** Fills Settings → Sync for this spec's servers (the target's defaults, or what `options` changes). */
function setUpSyncOn(
  page: Page,
  kind: Kind,
  options: { url?: string; id?: string; secret?: string; expectError?: RegExp } = {},
) {
  const form: SyncForm =
    kind === "s3"
      ? {
          kind,
          url: s3.url,
          id: S3_KEY.accessKeyId,
          secret: S3_KEY.secretAccessKey,
          bucket: BUCKET,
          prefix: PREFIX,
          passphrase: PASSPHRASE,
        }
      : { kind, url: dav.url, id: DAV_USER.user, secret: DAV_USER.password, passphrase: PASSPHRASE };
  const { expectError, ...changed } = options;
  return setUpSync(page, { ...form, ...changed }, { expectError });
}

/** The stored entries of every session, read from the page's IndexedDB (position markers left out). */
function storedEntries(page: Page, session?: string) {
  return page.evaluate(
    (only) =>
      new Promise<{ id: string; parentId: string | null; type: string; text: string }[]>((resolve) => {
        const req = indexedDB.open("cutpoint");
        req.onsuccess = () => {
          const all = req.result.transaction("chunks").objectStore("chunks").getAll();
          all.onsuccess = async () => {
            const out: { id: string; parentId: string | null; type: string; text: string }[] = [];
            for (const row of all.result as { sessionId: string; data: Blob | string }[]) {
              if (only !== undefined && row.sessionId !== only) continue;
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
    session,
  );
}

const ids = (list: { id: string }[]) => list.map((e) => e.id).sort();

/** The session only on the target, in the list at 390 px (the drawer) and in the dark: its Fetch button in view. */
async function onlyOnTargetShots(page: Page, id: string) {
  for (const [width, scheme] of [
    [1280, "dark"],
    [390, "light"],
    [390, "dark"],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.emulateMedia({ colorScheme: scheme });
    if (width === 390 && scheme === "light") {
      await page.getByRole("button", { name: "Show the session list" }).click();
      // The drawer slides in.
      await expect(page.locator(".sidebar")).toHaveCSS("transform", "none");
    }
    await expect(remoteItem(page, id).getByRole("button", { name: /^Fetch/ })).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/only-on-target-${width}-${scheme}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}

for (const kind of ["s3", "webdav"] as const) {
  test.describe(kind, () => {
    const server = () => (kind === "s3" ? s3 : dav);
    const marker = `marker-${kind}-${Date.now()}`;
    let a: Device;
    let b: Device;
    let sessionId = "";
    test.beforeAll(async ({ browser }) => {
      [a, b] = await Promise.all([device(browser), device(browser)]);
    });
    test.afterAll(async () => {
      await Promise.all([a?.context.close(), b?.context.close()]);
    });

    test("a session made on A appears on B; B appends and A sees it; the list says synced", async () => {
      await setUpProvider(a.page, uniqueKey(`sync-a-${kind}`));
      await newSession(a.page);
      await send(a.page, `hello ${marker}`);
      await waitIdle(a.page);
      sessionId = (await a.page.locator(".session-item[aria-current=true]").getAttribute("data-session-id"))!;
      await setUpSyncOn(a.page, kind);
      await expect(listStatus(a.page, sessionId)).toHaveText("✓ synced");
      await expect(syncFooter(a.page)).toContainText("Synced at");

      await setUpSyncOn(b.page, kind);
      await expect(listStatus(b.page, sessionId)).toHaveText("✓ synced");
      await b.app.open(`hello ${marker}`);
      await expect(b.app.timeline).toContainText(marker);

      await setUpProvider(b.page, uniqueKey(`sync-b-${kind}`));
      await send(b.page, "written on B");
      await waitIdle(b.page);
      await syncNow(b.page);
      await syncNow(a.page);
      await expect(a.app.timeline).toContainText("written on B");
    });

    test("both append at once, round after round: every entry on both as branches, once; a rename on A and a label on B both kept", async () => {
      for (const round of [1, 2, 3]) {
        await Promise.all([send(a.page, `A says ${round}`), send(b.page, `B says ${round}`)]);
        await Promise.all([waitIdle(a.page), waitIdle(b.page)]);
        await Promise.all([syncNow(a.page), syncNow(b.page)]);
      }
      await a.app.clickTopBar("Rename");
      const rename = a.page.locator('dialog[data-dialog="rename"]');
      await rename.getByRole("textbox").fill(`Shared ${kind}`);
      await rename.getByRole("textbox").press("Enter");
      await expect(a.app.title).toHaveText(`Shared ${kind}`);
      await b.app.labelRow(/User\s*written on B/, "checkpoint");
      await syncNow(a.page);
      await syncNow(b.page);
      await syncNow(a.page);

      const [onA, onB] = await Promise.all([storedEntries(a.page), storedEntries(b.page)]);
      expect(ids(onA)).toEqual(ids(onB));
      expect(new Set(ids(onA)).size).toBe(onA.length);
      expect(onA.filter((e) => e.parentId === null)).toHaveLength(1);
      const said = ["written on B", ...[1, 2, 3].flatMap((r) => [`A says ${r}`, `B says ${r}`])];
      for (const text of said)
        expect(onA.filter((e) => e.text.includes(`"role":"user","content":"${text}"`))).toHaveLength(1);
      // Appends at once are branches: some entry has two children.
      const children = new Map<string, number>();
      for (const e of onA) if (e.parentId) children.set(e.parentId, (children.get(e.parentId) ?? 0) + 1);
      expect([...children.values()].some((n) => n > 1)).toBe(true);
      await expect(b.app.item(`Shared ${kind}`)).toHaveCount(1);
      await expect(b.app.title).toHaveText(`Shared ${kind}`);
      for (const stored of [onA, onB]) {
        expect(stored.some((e) => e.type === "session_info" && e.text.includes(`Shared ${kind}`))).toBe(true);
        expect(stored.some((e) => e.type === "label" && e.text.includes("checkpoint"))).toBe(true);
      }
      // Each device stays where it was: A on its own last message, B on its own.
      await expect(a.app.timeline).toContainText("A says 3");
      await expect(a.app.timeline).not.toContainText("B says 3");
      await expect(b.app.timeline).toContainText("B says 3");
      await expect(b.app.timeline).not.toContainText("A says 3");
    });

    test("the server stopped mid-upload, then started again: the upload resumes, nothing half-written, nothing twice; B fetches the big session on demand", async () => {
      const file = join(mkdtempSync(join(tmpdir(), "cutpoint-sync-")), "big.jsonl");
      writeFileSync(file, BIG.text);
      // The server stops right after it stored the first piece of the upload.
      let stopped = false;
      const stored: string[] = [];
      a.page.on("response", (r) => {
        if (r.request().method() === "PUT" && r.url().includes(`/chunks/${BIG_ID}/`) && r.ok())
          stored.push(r.url());
      });
      await a.page.route(`**/chunks/${BIG_ID}/**`, async (route) => {
        if (stopped || route.request().method() !== "PUT") return route.continue();
        const response = await route.fetch();
        stopped = true;
        await server().pause();
        await route.fulfill({ response });
      });
      await a.app.importByPicker(file);
      await expect(a.app.toast(/Imported big\.jsonl/)).toBeVisible({ timeout: 60_000 });
      expect(await syncRound(a.page)).toBe("error");
      expect(stopped).toBe(true);
      await expect(syncFooter(a.page)).toContainText("Could not reach");
      // On the server: the first piece, whole; nothing else of the session.
      const during = await storedChunks(server(), BIG_ID, PASSPHRASE);
      expect(during).toHaveLength(1);
      expect(during[0]!.ids).not.toBeNull();
      // The list says what waits (all but the first piece) and why; the sessions already up say synced.
      const waiting = `${(BIG.entryCount - during[0]!.ids!.length).toLocaleString("en-US")} entries waiting`;
      await expect(listStatus(a.page, BIG_ID)).toContainText(`⚠ ${waiting}; error: Could not reach`);
      await expect(listStatus(a.page, sessionId)).toHaveText("✓ synced");
      await a.page.screenshot({ path: `${SHOTS}/${kind}-server-stopped.png` });

      await server().resume();
      await a.page.unroute(`**/chunks/${BIG_ID}/**`);
      await syncNow(a.page);
      await expect(listStatus(a.page, BIG_ID)).toHaveText("✓ synced");

      // B: the big session is in B's session list as on the target only (with its entries and
      // size), and fetched when asked: from the list on one target, from Settings on the other.
      await syncNow(b.page);
      const local = b.page.locator(`.session-item:not(.session-remote)[data-session-id="${BIG_ID}"]`);
      await expect(local).toHaveCount(0);
      const where = kind === "s3" ? `bucket ${BUCKET}` : `WebDAV at 127.0.0.1:${DAV_PORT}`;
      await expect(remoteItem(b.page, BIG_ID)).toContainText(`On ${where}, not on this device`);
      await expect(remoteItem(b.page, BIG_ID)).toContainText(
        `${BIG.entryCount.toLocaleString("en-US")} entries · 2.5 MB`,
      );
      await b.page.screenshot({ path: `${SHOTS}/${kind}-only-on-target-1280-light.png` });
      if (kind === "s3") await onlyOnTargetShots(b.page, BIG_ID);
      await fetchFromTarget(b.page, BIG_ID, { via: kind === "s3" ? "list" : "settings" });
      await expect(remoteItem(b.page, BIG_ID)).toHaveCount(0);
      await expect(listStatus(b.page, BIG_ID)).toHaveText("✓ synced", { timeout: 30_000 });
      // Stored on B: after a reload it is an ordinary session of B's, with every entry.
      await b.page.reload();
      await expect(local.getByTestId("entry-count")).toHaveText(BIG.entryCount.toLocaleString("en-US"));
      await expect(remoteItem(b.page, BIG_ID)).toHaveCount(0);

      // Every entry once on B, as on A; on the server, whole chunks holding each entry once.
      const [onA, onB] = await Promise.all([storedEntries(a.page, BIG_ID), storedEntries(b.page, BIG_ID)]);
      expect(onA).toHaveLength(BIG.entryCount);
      expect(ids(onB)).toEqual(ids(onA));
      const after = await storedChunks(server(), BIG_ID, PASSPHRASE);
      expect(after.length).toBeGreaterThan(2);
      expect(after.every((c) => c.ids !== null)).toBe(true);
      expect(after.flatMap((c) => c.ids!).sort()).toEqual(ids(onA));
      // Each piece was stored once: the upload went on from the second piece.
      expect(new Set(stored).size).toBe(after.length);
      expect(stored).toHaveLength(after.length);
    });

    test("encrypted end to end: no object on the server holds the text of a message", async () => {
      const objects = storedObjects(server());
      expect(objects.length).toBeGreaterThan(6);
      // A line of the big session's text, long enough to be nowhere else by chance.
      const bigLine = /"text":"([^"\\]{40,80})/.exec(BIG.text)?.[1];
      expect(bigLine).toBeDefined();
      for (const o of objects) {
        expect(isEncrypted(o.bytes), o.name).toBe(true);
        for (const text of [marker, "written on B", "A says 2", `Shared ${kind}`, "checkpoint", bigLine!])
          expect(o.bytes.includes(text), `${o.name} holds “${text}”`).toBe(false);
      }
    });

    test("a delete on A is gone on B after sync; Undo on A brings it back on B", async () => {
      const title = `Shared ${kind}`;
      await a.page.getByRole("button", { name: `Delete ${title}` }).click();
      await a.page.locator('dialog[data-dialog="delete"]').getByRole("button", { name: "Delete" }).click();
      const undo = a.app.toast(`Deleted “${title}”`).getByRole("button", { name: "Undo" });
      await expect(undo).toBeVisible();
      await syncNow(a.page);
      await syncNow(b.page);
      await expect(b.app.item(title)).toHaveCount(0);
      // (The Undo lasts 10 s: both rounds above take a few.)
      await undo.click();
      await expect(a.app.item(title)).toHaveCount(1);
      await syncNow(a.page);
      await syncNow(b.page);
      await expect(b.app.item(title)).toHaveCount(1);
      await expect(listStatus(b.page, sessionId)).toHaveText("✓ synced");
    });
  });
}

test("wrong credentials and a server without CORS: a clear message, and the local session stays", async ({
  browser,
}) => {
  const c = await device(browser);
  await c.app.openExample();
  await setUpSyncOn(c.page, "webdav", { secret: "not-the-password", expectError: /refused the credentials/ });
  // The session list says the example waits, and why.
  await expect(c.app.item(/tally/).getByTestId("session-sync")).toContainText(
    /entries waiting; error: The folder refused the credentials/,
  );
  await setUpSyncOn(c.page, "s3", {
    url: noCors.url,
    expectError: /does not allow requests from this page \(CORS\)/,
  });
  await setUpSyncOn(c.page, "webdav", {
    url: dav.url.replace("/sync/", "/missing/"),
    expectError: /folder does not exist/,
  });
  await expect(c.app.item(/tally/)).toHaveCount(1);
  await c.page.reload();
  await expect(c.app.item(/tally/)).toHaveCount(1);
  expect(storedFiles(noCors.dir).filter((f) => f.path.includes("cutpoint-sync"))).toHaveLength(0);
  await c.context.close();
});
