/**
 * The page object of the engine runner: the app as a person uses it (click, type, pick a file,
 * wait for what the screen shows), on top of any EngineDriver. Every wait is on the app's state.
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { IMPORT_TIMEOUT, TID, tid, UI } from "../pages/app-knowledge.ts";
import type { EngineDriver, KeyName } from "./driver.ts";
import {
  type Condition,
  callScript,
  elementScript,
  findScript,
  type Target,
  waitScript,
} from "./page-scripts.ts";

/** How long an ordinary wait may take on a busy machine. */
export const WAIT = 20_000;

/** A button by its name. */
export function button(name: string, within?: string): Target {
  return within === undefined ? { css: "button", name } : { css: "button", name, within };
}

/** An element by its test id. */
export function byTestId(id: string, more: Omit<Target, "css"> = {}): Target {
  return { css: tid(id), ...more };
}

/** What the page shows when a wait fails: the toasts and any alert, to say why. */
function pageNotes(): string {
  const texts = [...document.querySelectorAll('[data-testid="toast"], [role="alert"]')]
    .map((e) => (e.textContent ?? "").replace(/\s+/g, " ").trim())
    .filter((t) => t !== "");
  return texts.length ? `the page says: ${texts.join(" | ").slice(0, 400)}` : "";
}

/** The target is there, shown and enabled. */
const ready: Condition<Target> = (t, find) => {
  const el = find(t);
  if (!el) return "not there";
  if ((el as HTMLButtonElement).disabled) return "there but disabled";
  return true;
};

export class EnginePage {
  constructor(
    readonly d: EngineDriver,
    readonly baseUrl: string,
  ) {}

  /** Waits until `cond` holds in the page; throws with what the page showed instead. */
  async waitFor<A>(what: string, cond: Condition<A>, arg: A, timeoutMs = WAIT): Promise<void> {
    const got = await this.d.evaluate<true | string>(waitScript(cond, arg, timeoutMs));
    if (got === true) return;
    const notes = await this.d.evaluate<string>(callScript(pageNotes)).catch(() => "");
    const said = got.includes("the app says:");
    throw new Error(
      `${what}: ${said ? "" : `not within ${timeoutMs / 1000} s `}(${got})${!said && notes ? `; ${notes}` : ""}`,
    );
  }

  async waitShown(t: Target, what = nameOf(t), timeoutMs = WAIT): Promise<void> {
    await this.waitFor(`${what} shown`, (x, find) => (find(x) ? true : "not there"), t, timeoutMs);
  }

  async waitGone(t: Target, what = nameOf(t), timeoutMs = WAIT): Promise<void> {
    await this.waitFor(`${what} gone`, (x, find) => (find(x) ? "still there" : true), t, timeoutMs);
  }

  /** Waits until the element's text (or a field's value) matches `pattern` (a RegExp source). */
  async waitText(t: Target, pattern: string, what = nameOf(t), timeoutMs = WAIT): Promise<void> {
    await this.waitFor(
      `${what} matching /${pattern}/`,
      (a, find) => {
        const el = find(a.t);
        if (!el) return "not there";
        const text =
          el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement
            ? el.value
            : (el.textContent ?? "");
        return new RegExp(a.pattern).test(text) ? true : `shows "${text.slice(0, 160)}"`;
      },
      { t, pattern },
      timeoutMs,
    );
  }

  /** The element's text (a field's value), or null when it is not there. */
  async text(t: Target): Promise<string | null> {
    return this.d.evaluate<string | null>(
      elementScript(
        t,
        (el) => {
          if (!el) return null;
          return el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement
            ? el.value
            : el.textContent;
        },
        null,
      ),
    );
  }

  /** Clicks the target once it is shown and enabled (again if it was replaced meanwhile). */
  async click(t: Target, what = nameOf(t), timeoutMs = WAIT): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.waitFor(`${what} ready to click`, ready, t, Math.max(1000, deadline - Date.now()));
      try {
        if (await this.d.click(findScript(t))) return;
      } catch (e) {
        // Re-rendered between finding and clicking: find it again while time is left.
        if (Date.now() > deadline || !/stale|detached|not attached|no such element/i.test(String(e))) throw e;
      }
    }
  }

  async type(t: Target, text: string, what = nameOf(t)): Promise<void> {
    await this.waitFor(`${what} ready to type in`, ready, t);
    if (!(await this.d.type(findScript(t), text))) throw new Error(`${what}: gone before typing`);
  }

  async press(key: KeyName): Promise<void> {
    await this.d.press(key);
  }

  /** Picks an option of a select as a person would (the value, then the change event React listens to). */
  async select(t: Target, value: string, what = nameOf(t)): Promise<void> {
    await this.waitFor(
      `${what} offering "${value}"`,
      (a, find) => {
        const el = find(a.t) as HTMLSelectElement | null;
        if (!el) return "not there";
        const values = [...el.options].map((o) => o.value);
        return values.includes(a.value) && !el.disabled ? true : `offers ${values.join(", ")}`;
      },
      { t, value },
    );
    await this.d.evaluate(
      elementScript(
        t,
        (el, v) => {
          const select = el as HTMLSelectElement;
          // The prototype's setter: React tracks the value set through the element's own one.
          Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value")?.set?.call(select, v);
          select.dispatchEvent(new Event("change", { bubbles: true }));
          return true;
        },
        value,
      ),
    );
  }

  async goto(): Promise<void> {
    await this.d.goto(this.baseUrl);
    await this.waitShown({ css: UI.welcomeOrList }, "the welcome view or the session list", 60_000);
  }

  async reload(): Promise<void> {
    await this.d.reload();
    await this.waitShown({ css: UI.welcomeOrList }, "the welcome view or the session list", 60_000);
  }

  /** The entry count the session list shows for the session whose first message has this text. */
  async waitEntryCount(firstUser: string, count: string, timeoutMs = 90_000): Promise<void> {
    await this.waitFor(
      `the session list's "${firstUser}" with ${count} entries`,
      (a, find) => {
        void find;
        const items = [...document.querySelectorAll(a.item)].filter((i) =>
          (i.textContent ?? "").includes(a.text),
        );
        if (items.length === 0) return "no such session in the list";
        const shown = items.map((i) => (i.querySelector(a.count)?.textContent ?? "").trim());
        return shown.includes(a.want) ? true : `shows ${shown.join(", ")} entries`;
      },
      { item: UI.sessionItem, count: tid(TID.entryCount), text: firstUser, want: count },
      timeoutMs,
    );
  }

  /**
   * Clicks Export and returns the saved file's bytes: the download folder is emptied first, and
   * the file is read once the browser has finished it: no partial file beside it, its size the
   * same at two looks, and `complete` holds for its bytes (by default: whole JSON lines, the last
   * one ending the file), since an engine may write the file in place, bit by bit.
   */
  async exportOpen(
    complete: (bytes: Buffer) => boolean = wholeJsonl,
    timeoutMs = IMPORT_TIMEOUT,
  ): Promise<Buffer> {
    const dir = this.d.downloads;
    const listed = () => readdirSync(dir).filter((f) => !f.startsWith("."));
    for (const f of listed()) rmSync(join(dir, f), { recursive: true, force: true });
    // Export sits in the top bar's ⋯ menu.
    await this.click(byTestId("topbar-more"), "the top bar's ⋯ menu");
    await this.click(button(UI.export), "the Export button");
    const deadline = Date.now() + timeoutMs;
    let seen = -1;
    let last = "";
    while (Date.now() < deadline) {
      const files = listed();
      const partial = files.some((f) => /\.(part|download|crdownload|wkdownload)$/.test(f));
      const done = files.filter((f) => f.endsWith(".jsonl"));
      if (!partial && done.length === 1) {
        const path = join(dir, done[0]!);
        const size = statSync(path).size;
        if (size === seen && size > 0) {
          const bytes = readFileSync(path);
          if (bytes.length === size && complete(bytes)) return bytes;
          last = `${done[0]}: ${size} bytes, not complete yet`;
        }
        seen = size;
      }
      // The browser writes the file on its own: look at the folder again shortly.
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `export: no finished .jsonl file in the downloads folder (it has: ${listed().join(", ")}${last ? `; ${last}` : ""})`,
    );
  }
}

/** Whole JSON lines: the file ends with a newline and its last line parses. */
function wholeJsonl(bytes: Buffer): boolean {
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0x0a) return false;
  const end = bytes.length - 1;
  const lastLine = bytes.subarray(bytes.lastIndexOf(0x0a, end - 1) + 1, end).toString("utf8");
  try {
    JSON.parse(lastLine);
    return true;
  } catch {
    return false;
  }
}

function nameOf(t: Target): string {
  return t.name ?? t.label ?? t.css;
}
