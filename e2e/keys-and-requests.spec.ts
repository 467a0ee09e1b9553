/**
 * API keys and outgoing requests, driven like a person: a fresh profile contacts nothing outside the
 * app's origin when Settings opens; a key saved for one origin is not sent to another until "Use my
 * saved key for <origin>" is clicked; "this tab only" keys are gone in a new tab; passphrase keys
 * are stored encrypted and unlocked once per page (a wrong passphrase is refused). Screenshots of
 * the new settings in both themes at 1280 and 800 px go to $KEYS_SHOTS (default /tmp/shots-keys).
 */
import { mkdirSync } from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { MODELS, newSession, send, settingsDialog, waitIdle } from "./agent-helpers.ts";
import {
  getChatRequests,
  getRequests,
  MOCK_BASE_URL,
  scriptReplies,
  setModels,
  uniqueKey,
} from "./mock/client.ts";
import { type MockServer, startMockServer } from "./mock/server.ts";

const OUT = process.env.KEYS_SHOTS ?? "/tmp/shots-keys";
mkdirSync(OUT, { recursive: true });

/** Every request the page makes, with its Authorization header. */
function recordRequests(page: Page): { url: string; origin: string; auth: string | undefined }[] {
  const seen: { url: string; origin: string; auth: string | undefined }[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    seen.push({ url: r.url(), origin: url.origin, auth: r.headers().authorization });
  });
  return seen;
}

const appOrigin = (page: Page) => new URL(page.url()).origin;

async function openSettings(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dlg = settingsDialog(page);
  await expect(dlg).toBeVisible();
  return dlg;
}

async function setBaseUrl(dlg: Locator, baseUrl: string): Promise<void> {
  const base = dlg.getByLabel("Base URL");
  await base.fill(baseUrl);
  await base.press("Enter");
}

/** Custom provider at `baseUrl`, key saved in the chosen way (the models are then listed). */
async function saveKey(
  page: Page,
  key: string,
  mode: RegExp,
  options: { baseUrl?: string; passphrase?: string } = {},
): Promise<Locator> {
  await setModels(key, { models: MODELS });
  const dlg = await openSettings(page);
  await dlg.getByLabel("Provider", { exact: true }).selectOption("custom");
  await setBaseUrl(dlg, options.baseUrl ?? MOCK_BASE_URL);
  await dlg.getByLabel(/^API key/).fill(key);
  await dlg.getByRole("radio", { name: mode }).check();
  if (options.passphrase) {
    await dlg.getByLabel("Passphrase", { exact: true }).fill(options.passphrase);
    await dlg.getByLabel("Repeat it").fill(options.passphrase);
  }
  await dlg.getByRole("button", { name: "Save key" }).click();
  await expect(dlg.getByTestId("api-key-display")).toBeVisible({ timeout: 20_000 });
  await expect(dlg.getByTestId("models-status")).toContainText(`${MODELS.length} models listed`);
  await dlg.getByLabel("Default model").selectOption("mock-model");
  return dlg;
}

/** All of the app's IndexedDB, as text (page.evaluate with the raw IndexedDB API). */
function indexedDbText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("cutpoint");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const out: Record<string, unknown[]> = {};
    for (const name of Array.from(db.objectStoreNames)) {
      out[name] = await new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction(name).objectStore(name).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    }
    db.close();
    return JSON.stringify(out);
  });
}

test("a fresh profile: opening Settings contacts nothing outside the app until the person asks", async ({
  page,
}) => {
  const seen = recordRequests(page);
  await page.goto("/");
  const dlg = await openSettings(page);
  await expect(dlg.getByLabel("Provider", { exact: true })).toHaveValue("none");
  await expect(dlg.getByTestId("no-provider")).toContainText("Nothing is contacted");
  await dlg.getByTestId("no-provider").scrollIntoViewIfNeeded();
  await page.waitForTimeout(1500);
  const outside = () => seen.filter((r) => r.origin !== appOrigin(page));
  expect(outside()).toEqual([]);
  await page.screenshot({ path: `${OUT}/fresh-settings.png` });

  // Typing a base URL alone sends nothing either (no key is saved for it); "List models" does.
  await dlg.getByLabel("Provider", { exact: true }).selectOption("custom");
  await setBaseUrl(dlg, MOCK_BASE_URL);
  await expect(dlg.getByLabel(/^API key/)).toBeVisible();
  await page.waitForTimeout(1000);
  expect(outside()).toEqual([]);
  await dlg.getByRole("button", { name: "List models" }).click();
  await expect(dlg.getByTestId("models-status")).toContainText("models listed");
  expect(outside().map((r) => [new URL(r.url).pathname, r.auth])).toEqual([["/v1/models", undefined]]);
});

test.describe("a second endpoint on another origin", () => {
  let other: MockServer;
  test.beforeAll(async () => {
    other = await startMockServer({ port: 0 });
  });
  test.afterAll(async () => {
    await other.close();
  });

  test("the saved key is not sent to another origin until 'Use my saved key' is clicked", async ({
    page,
  }) => {
    const key = uniqueKey("origin-bound");
    const otherOrigin = `http://127.0.0.1:${other.port}`;
    const seen = recordRequests(page);
    await page.goto("/");
    let dlg = await saveKey(page, key, /^On this device/);
    await setBaseUrl(dlg, other.baseUrl);
    // No key for the new origin: the field is empty and the saved one is only offered.
    await expect(dlg.getByLabel(/^API key/)).toBeVisible();
    const offer = dlg.getByRole("button", { name: `Use my saved key for ${otherOrigin}` });
    await expect(offer).toBeVisible();
    await expect(dlg.getByTestId("saved-key-offer")).toContainText(
      `the key saved for ${new URL(MOCK_BASE_URL).origin}`,
    );
    await page.setViewportSize({ width: 800, height: 800 });
    await offer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUT}/offer-800.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    // The person asks: the request goes out without any Authorization header.
    await dlg.getByRole("button", { name: "Test connection" }).click();
    await expect(dlg.getByTestId("connection-result")).toBeVisible();
    await dlg.getByRole("button", { name: "Done" }).click();
    // A run refuses for lack of a key for this origin, and sends nothing.
    await newSession(page);
    await send(page, "hello?");
    await expect(page.getByTestId("run-problem")).toContainText("No API key for Custom");
    const toOther = () => seen.filter((r) => r.origin === otherOrigin);
    expect(toOther().length).toBeGreaterThan(0);
    for (const r of toOther()) expect(r.auth).toBeUndefined();
    expect(await getRequests(key, otherOrigin)).toEqual([]);

    // The explicit choice: now it goes there, in the Authorization header.
    dlg = await openSettings(page);
    await dlg.getByRole("button", { name: `Use my saved key for ${otherOrigin}` }).click();
    await expect(dlg.getByTestId("api-key-where")).toContainText(`Saved for ${otherOrigin}`);
    await dlg.getByRole("button", { name: "Test connection" }).click();
    await expect(dlg.getByTestId("connection-result")).toContainText("Connected");
    const got = await getRequests(key, otherOrigin);
    expect(got.length).toBeGreaterThan(0);
    for (const r of got) expect(r.headers.authorization).toBe(`Bearer ${key}`);
    for (const r of seen) expect(r.url).not.toContain(key);
  });
});

test("this tab only: kept across a reload of the tab, never in IndexedDB, gone in a new tab", async ({
  page,
  context,
}) => {
  const key = uniqueKey("tab-only");
  await page.goto("/");
  let dlg = await saveKey(page, key, /^This tab only/);
  await expect(dlg.getByTestId("api-key-where")).toContainText("kept in this tab only");
  expect(await indexedDbText(page)).not.toContain(key);
  await page.reload();
  dlg = await openSettings(page);
  await expect(dlg.getByTestId("api-key-display")).toBeVisible();

  const second = await context.newPage();
  await second.goto("/");
  const dlg2 = await openSettings(second);
  await expect(dlg2.getByLabel("Base URL")).toHaveValue(MOCK_BASE_URL);
  await expect(dlg2.getByLabel(/^API key/)).toBeVisible();
  await expect(dlg2.getByTestId("api-key-display")).toBeHidden();
  await second.close();
});

test("passphrase: stored encrypted; after a reload a request asks, a wrong one is refused, the right one works", async ({
  page,
}) => {
  const key = uniqueKey("passphrase");
  await page.goto("/");
  const dlg = await saveKey(page, key, /^Encrypted with a passphrase/, { passphrase: "correct horse" });
  await expect(dlg.getByTestId("api-key-where")).toContainText(
    "encrypted with a passphrase (unlocked in this page)",
  );
  await dlg.getByRole("button", { name: "Done" }).click();
  const stored = await indexedDbText(page);
  expect(stored).not.toContain(key);
  expect(stored).toContain("ciphertext");
  expect(stored).toContain("PBKDF2");

  await page.reload();
  await newSession(page);
  await scriptReplies(key, [{ text: "Unlocked and answered." }]);
  await send(page, "Are you there?");
  const unlock = page.locator('dialog[data-dialog="key-unlock"]');
  await expect(unlock).toBeVisible();
  await unlock.getByLabel("Passphrase").fill("wrong horse");
  await unlock.getByRole("button", { name: "Unlock" }).click();
  await expect(unlock.getByRole("alert")).toContainText("Wrong passphrase");
  await page.screenshot({ path: `${OUT}/unlock-wrong.png` });
  expect(await getChatRequests(key)).toEqual([]);
  await unlock.getByLabel("Passphrase").fill("correct horse");
  await unlock.getByRole("button", { name: "Unlock" }).click();
  await expect(unlock).toBeHidden({ timeout: 20_000 });
  await waitIdle(page);
  await expect(page.getByTestId("run-message").last()).toContainText("Unlocked and answered.");
  const chats = await getChatRequests(key);
  expect(chats).toHaveLength(1);
  expect(chats[0]?.headers.authorization).toBe(`Bearer ${key}`);
  // Unlocked once per page: the next request asks nothing.
  await send(page, "Again?");
  await waitIdle(page);
  await expect(unlock).toBeHidden();
  expect(await getChatRequests(key)).toHaveLength(2);
  expect(await indexedDbText(page)).not.toContain(key);
});

test("a key kept on this device can be moved to passphrase encryption: IndexedDB then holds no plain key", async ({
  page,
}) => {
  const key = uniqueKey("move");
  await page.goto("/");
  const dlg = await saveKey(page, key, /^On this device/);
  expect(await indexedDbText(page)).toContain(key);
  await dlg.getByRole("button", { name: "Keep it another way…" }).click();
  await dlg.getByRole("radio", { name: /^Encrypted with a passphrase/ }).check();
  await dlg.getByLabel("Passphrase", { exact: true }).fill("pw-move");
  await dlg.getByLabel("Repeat it").fill("pw-move");
  await dlg.getByRole("button", { name: "Keep it this way" }).click();
  await expect(dlg.getByTestId("api-key-where")).toContainText("kept encrypted with a passphrase", {
    timeout: 20_000,
  });
  expect(await indexedDbText(page)).not.toContain(key);
  await page.reload();
  const again = await openSettings(page);
  await expect(again.getByTestId("api-key-display")).toHaveText("•••••••• (locked)");
  await again.getByRole("button", { name: "Unlock and reveal" }).click();
  const unlock = page.locator('dialog[data-dialog="key-unlock"]');
  await unlock.getByLabel("Passphrase").fill("pw-move");
  await unlock.getByRole("button", { name: "Unlock" }).click();
  await expect(again.getByTestId("api-key-display")).toHaveText(key, { timeout: 20_000 });
});

test("a key of the old per-provider kind keeps working, now bound to the origin it was used with", async ({
  page,
}) => {
  const key = uniqueKey("v1-key");
  await setModels(key, { models: MODELS });
  // A profile written by schema v1 (Dexie version 1 = IndexedDB version 10), made before the app runs.
  await page.goto("/favicon.svg");
  await page.evaluate(
    ({ key, baseUrl }) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open("cutpoint", 10);
        req.onupgradeneeded = () => {
          const db = req.result;
          const sessions = db.createObjectStore("sessions", { keyPath: "id" });
          sessions.createIndex("updatedAt", "updatedAt");
          sessions.createIndex("deletedAt", "deletedAt");
          db.createObjectStore("chunks", { keyPath: ["sessionId", "seq"] });
          const settings = db.createObjectStore("settings", { keyPath: "key" });
          settings.put({
            key: "agent.provider",
            value: { providerId: "custom", baseUrl, model: "mock-model" },
          });
          settings.put({ key: "agent.apiKey.custom", value: key });
          settings.put({ key: "agent.apiKey.groq", value: "gsk-other-provider-key" });
        };
        req.onsuccess = () => {
          req.result.close();
          resolve();
        };
        req.onerror = () => reject(req.error);
      }),
    { key, baseUrl: MOCK_BASE_URL },
  );
  await page.goto("/");
  const dlg = await openSettings(page);
  await expect(dlg.getByTestId("api-key-where")).toContainText(
    `Saved for ${new URL(MOCK_BASE_URL).origin}, kept on this device`,
  );
  await dlg.getByRole("button", { name: "Test connection" }).click();
  await expect(dlg.getByTestId("connection-result")).toContainText("Connected: 3 models listed");
  const got = await getRequests(key);
  expect(got.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
  const stored = await indexedDbText(page);
  expect(stored).not.toContain("agent.apiKey.");
  // At another address, both old keys are only offered (the Groq one not bound yet, by its provider).
  await setBaseUrl(dlg, "http://127.0.0.1:9/v1");
  await expect(dlg.getByTestId("saved-key-offer")).toHaveCount(2);
  const groq = dlg.getByTestId("saved-key-offer").filter({ hasText: "the key saved for Groq" });
  await expect(groq).toHaveCount(1);
});

for (const width of [1280, 800]) {
  for (const scheme of ["light", "dark"] as const) {
    test(`key settings screenshots at ${width}px, ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/");
      const dlg = await openSettings(page);
      await dlg.getByLabel("Provider", { exact: true }).selectOption("custom");
      await setBaseUrl(dlg, MOCK_BASE_URL);
      await dlg.getByRole("radio", { name: /^Encrypted with a passphrase/ }).check();
      await expect(dlg.getByLabel("Passphrase", { exact: true })).toBeVisible();
      const box = await dlg.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      await page.screenshot({ path: `${OUT}/settings-${width}-${scheme}.png` });
      await dlg.getByLabel(/^API key/).fill(uniqueKey("shot"));
      await dlg.getByLabel("Passphrase", { exact: true }).fill("pw");
      await dlg.getByLabel("Repeat it").fill("pX");
      await expect(dlg.getByText("The two passphrases differ.")).toBeVisible();
      await expect(dlg.getByRole("button", { name: "Save key" })).toBeDisabled();
      await dlg.getByLabel("Repeat it").fill("pw");
      await dlg.getByRole("button", { name: "Save key" }).click();
      await expect(dlg.getByTestId("api-key-where")).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: `${OUT}/saved-${width}-${scheme}.png` });
    });
  }
}
