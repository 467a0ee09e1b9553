/**
 * WebKitGTK's MiniBrowser through Debian's WebKitWebDriver with selenium-webdriver, in a virtual
 * display (xvfb-run). MiniBrowser saves downloads in $HOME: the driver gets a home of its own.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { Builder, Key, type WebDriver, type WebElement } from "selenium-webdriver";
import type { EngineDriver, KeyName, LaunchOptions } from "./driver.ts";

export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? "/usr/bin/WebKitWebDriver";
export const MINIBROWSER_PATH =
  process.env.MINIBROWSER_PATH ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
export const XVFB_RUN_PATH = "/usr/bin/xvfb-run";

const KEYS: Record<KeyName, string> = {
  Enter: Key.ENTER,
  ArrowUp: Key.ARROW_UP,
  ArrowDown: Key.ARROW_DOWN,
  Escape: Key.ESCAPE,
  Tab: Key.TAB,
};

/** A free port on the loopback (CUTPOINT_WEBDRIVER_PORT when set). */
function freePort(): Promise<number> {
  const fixed = Number(process.env.CUTPOINT_WEBDRIVER_PORT ?? 0);
  if (fixed > 0) return Promise.resolve(fixed);
  return new Promise((done, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address ? address.port : 0;
      s.close(() => done(port));
    });
  });
}

/** Waits until the driver answers /status ready, or its process ends. */
async function driverReady(url: string, proc: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  proc.once("exit", () => {
    exited = true;
  });
  while (Date.now() < deadline && !exited) {
    const ready = await fetch(`${url}/status`)
      .then((r) => r.json() as Promise<{ value?: { ready?: boolean } }>)
      .then((j) => j.value?.ready === true)
      .catch(() => false);
    if (ready) return;
    // Not listening yet: ask again on the next tick of the event loop's timers.
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    exited ? "WebKitWebDriver exited before it was ready" : "WebKitWebDriver did not get ready",
  );
}

export async function startWebKit(o: LaunchOptions): Promise<EngineDriver> {
  const home = join(o.dir, "home");
  mkdirSync(home, { recursive: true });
  const port = await freePort();
  const proc = spawn(
    XVFB_RUN_PATH,
    ["-a", "-s", `-screen 0 ${o.width}x${o.height + 200}x24`, WEBKIT_DRIVER_PATH, `--port=${port}`],
    { env: { ...process.env, HOME: home }, stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  let stderr = "";
  proc.stderr?.on("data", (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-2000);
  });
  const stop = () => {
    // The whole group: xvfb-run, Xvfb, the driver and MiniBrowser (all started here).
    if (proc.pid !== undefined && proc.exitCode === null) {
      try {
        process.kill(-proc.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
  };
  const url = `http://127.0.0.1:${port}`;
  let driver: WebDriver;
  try {
    await driverReady(url, proc, 30_000);
    driver = await new Builder()
      .usingServer(url)
      .withCapabilities({
        browserName: "MiniBrowser",
        "webkitgtk:browserOptions": { binary: MINIBROWSER_PATH, args: ["--automation"] },
      })
      .build();
  } catch (e) {
    stop();
    throw new Error(`${String(e)} ${stderr.trim()}`.trim());
  }
  await driver.manage().setTimeouts({ script: 180_000, pageLoad: 60_000 });
  await driver.manage().window().setRect({ width: o.width, height: o.height });
  const version = String((await driver.getCapabilities()).get("browserVersion") ?? "");

  const element = async (script: string): Promise<WebElement | null> =>
    (await driver.executeScript(`return ${script};`)) as WebElement | null;
  /**
   * Finds the element and acts on it; when React replaced the node between the find and the act
   * (WebKitWebDriver: "Node with identifier … was not found", or a stale element), finds it again.
   */
  const onElement = async (script: string, act: (el: WebElement) => Promise<void>): Promise<boolean> => {
    for (let attempt = 1; ; attempt++) {
      const el = await element(script);
      if (!el) return false;
      try {
        await act(el);
        return true;
      } catch (e) {
        const stale =
          e instanceof Error && /stale|was not found|not attached/i.test(`${e.name} ${e.message}`);
        if (!stale || attempt >= 5) throw e;
      }
    }
  };

  return {
    engine: "webkit",
    version,
    downloads: home,
    async goto(u) {
      await driver.get(u);
    },
    async reload() {
      await driver.navigate().refresh();
    },
    async evaluate<T>(script: string) {
      return (await driver.executeScript(`return ${script};`)) as T;
    },
    click(script) {
      return onElement(script, (el) => el.click());
    },
    type(script, text) {
      return onElement(script, async (el) => {
        await el.sendKeys(Key.chord(Key.CONTROL, "a"));
        await el.sendKeys(text);
      });
    },
    async press(key) {
      await driver.actions().sendKeys(KEYS[key]).perform();
    },
    setFile(script, path) {
      return onElement(script, (el) => el.sendKeys(path));
    },
    async screenshot(path) {
      writeFileSync(path, Buffer.from(await driver.takeScreenshot(), "base64"));
    },
    async close() {
      await driver.quit().catch(() => undefined);
      stop();
    },
  };
}
