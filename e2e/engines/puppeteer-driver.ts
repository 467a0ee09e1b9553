/** Firefox over WebDriver BiDi (and Chromium over CDP, to check the runner itself) with puppeteer-core. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../playwright.config.ts";
import type { EngineDriver, KeyName, LaunchOptions } from "./driver.ts";

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

async function launch(
  engine: "firefox" | "chromium",
  o: LaunchOptions,
  viewport: { width: number; height: number },
  downloads: string,
): Promise<Browser> {
  if (engine === "firefox") {
    return puppeteer.launch({
      browser: "firefox",
      protocol: "webDriverBiDi",
      executablePath: FIREFOX_PATH,
      headless: true,
      defaultViewport: viewport,
      userDataDir: join(o.dir, "profile"),
      extraPrefsFirefox: {
        // Saves a download in our folder without asking.
        "browser.download.folderList": 2,
        "browser.download.dir": downloads,
        "browser.download.useDownloadDir": true,
        "browser.download.always_ask_before_handling_new_types": false,
        "browser.download.start_downloads_in_tmp_dir": false,
        // No downloads panel (it takes the focus from the page).
        "browser.download.alwaysOpenPanel": false,
      },
    });
  }
  return puppeteer.launch({
    browser: "chrome",
    executablePath: CHROMIUM_PATH,
    headless: true,
    defaultViewport: viewport,
    userDataDir: join(o.dir, "profile"),
    args: CHROMIUM_ARGS,
  });
}

export async function startPuppeteer(
  engine: "firefox" | "chromium",
  o: LaunchOptions,
): Promise<EngineDriver> {
  const downloads = join(o.dir, "downloads");
  mkdirSync(downloads, { recursive: true });
  const viewport = { width: o.width, height: o.height };
  const browser = await launch(engine, o, viewport, downloads);
  // A tab of its own, brought to the front: the window's first tab never gets the focus over
  // BiDi, and without it no focus or blur event fires (the app saves fields on blur).
  const page: Page = await browser.newPage();
  for (const other of await browser.pages()) if (other !== page) await other.close();
  if (engine === "chromium") {
    const cdp = await page.createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
  }
  await page.bringToFront();
  await page.setViewport(viewport);
  const version = await browser.version();

  const element = async (script: string): Promise<ElementHandle<Element> | null> => {
    const handle = await page.evaluateHandle(script);
    const el = handle.asElement() as ElementHandle<Element> | null;
    if (!el) await handle.dispose();
    return el;
  };

  return {
    engine,
    version,
    downloads,
    async goto(url) {
      await page.goto(url);
    },
    async reload() {
      await page.reload();
    },
    async evaluate<T>(script: string) {
      return (await page.evaluate(script)) as T;
    },
    async click(script) {
      const el = await element(script);
      if (!el) return false;
      await el.click();
      await el.dispose();
      return true;
    },
    async type(script, text) {
      const el = await element(script);
      if (!el) return false;
      // Typing needs the focus events a person's window gives (a download can take them away).
      await page.bringToFront();
      await el.focus();
      await page.keyboard.down("Control");
      await page.keyboard.press("a");
      await page.keyboard.up("Control");
      await page.keyboard.type(text);
      await el.dispose();
      return true;
    },
    async press(key: KeyName) {
      await page.keyboard.press(key);
    },
    async setFile(script, path) {
      const el = (await element(script)) as ElementHandle<HTMLInputElement> | null;
      if (!el) return false;
      await el.uploadFile(path);
      await el.dispose();
      return true;
    },
    async screenshot(path) {
      await page.screenshot({ path: path as `${string}.png` });
    },
    async close() {
      await browser.close();
    },
  };
}
