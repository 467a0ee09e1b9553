/** Page object of the Cutpoint shell: session list, import/export, timeline, dialogs. */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { type Download, expect, type Locator, type Page } from "@playwright/test";
import {
  EXAMPLE_TITLE,
  IMPORT_TIMEOUT,
  PI_FIXTURE,
  PI_FIXTURE_ENTRIES,
  PI_FIXTURE_FIRST_USER,
  TID,
  UI,
} from "./app-knowledge.ts";

export { EXAMPLE_TITLE, IMPORT_TIMEOUT };

/**
 * A top-bar control, shown: in the bar, or else in the ⋯ menu (opened for it). Rename, Export and
 * Pins live in the menu; narrow, Tree, Panel and Settings move there too.
 */
export async function revealInTopBar(page: Page, control: Locator): Promise<Locator> {
  if (await control.isVisible()) return control;
  const more = page.getByTestId("topbar-more");
  if ((await more.getAttribute("aria-expanded")) !== "true") await more.click();
  await expect(control).toBeVisible();
  return control;
}

/** The top-bar button named `name` (exactly), shown (see revealInTopBar). */
export function topBarButton(page: Page, name: string): Promise<Locator> {
  return revealInTopBar(page, page.locator("header.topbar").getByRole("button", { name, exact: true }));
}

export class AppPage {
  readonly sidebar: Locator;
  readonly sessionItems: Locator;
  readonly timeline: Locator;
  readonly timelineRows: Locator;
  readonly importDialog: Locator;
  readonly toasts: Locator;
  readonly title: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.locator("#sidebar");
    this.sessionItems = page.locator(UI.sessionItem);
    this.timeline = page.getByTestId("timeline");
    this.timelineRows = this.timeline.locator("li");
    this.importDialog = page.locator('dialog[data-dialog="import"]');
    this.toasts = page.getByTestId(TID.toast);
    this.title = page.getByTestId(TID.sessionTitle);
  }

  /** Clicks a top-bar button wherever it is (the bar or its ⋯ menu). */
  async clickTopBar(name: string): Promise<void> {
    await (await topBarButton(this.page, name)).click();
  }

  async goto(): Promise<void> {
    await this.page.goto("/");
    await expect(this.page.locator(UI.welcomeOrList).first()).toBeVisible();
  }

  /** From the welcome view: opens the example session and waits for its title. */
  async openExample(): Promise<void> {
    await this.page.getByRole("button", { name: UI.openExample }).click();
    await expect(this.title).toHaveText(EXAMPLE_TITLE);
  }

  /** Opens the sidebar drawer on narrow windows (no-op when it is always shown). */
  async showSidebar(): Promise<void> {
    const toggle = this.page.getByRole("button", { name: UI.showSessionList });
    if (await toggle.isVisible()) await toggle.click();
  }

  async importByPicker(...paths: string[]): Promise<void> {
    await this.page.getByTestId(TID.importInput).first().setInputFiles(paths);
  }

  /** Imports the shared pi fixture and waits until all of its entries are in the session list. */
  async importPiFixture(): Promise<void> {
    await this.importByPicker(PI_FIXTURE);
    await expect
      .poll(() => this.entryCountOf(PI_FIXTURE_FIRST_USER), { timeout: IMPORT_TIMEOUT })
      .toBe(PI_FIXTURE_ENTRIES);
  }

  /** Drops files on the window like a person dragging them from the file manager. */
  async importByDrop(path: string): Promise<void> {
    const text = readFileSync(path, "utf8");
    const name = basename(path);
    await this.page.evaluate(
      ({ text, name }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], name, { type: "application/x-ndjson" }));
        for (const type of ["dragenter", "dragover", "drop"]) {
          document.body.dispatchEvent(
            new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }),
          );
        }
      },
      { text, name },
    );
  }

  item(text: string | RegExp): Locator {
    return this.sessionItems.filter({ hasText: text });
  }

  async entryCountOf(text: string | RegExp): Promise<string> {
    const count = this.item(text).getByTestId(TID.entryCount);
    if ((await count.count()) === 0) return "";
    return ((await count.first().textContent()) ?? "").trim();
  }

  async open(text: string | RegExp): Promise<void> {
    await this.showSidebar();
    await this.item(text).locator(UI.sessionOpen).click();
    await expect(this.timeline.or(this.page.getByText("This session has no entries yet."))).toBeVisible({
      timeout: IMPORT_TIMEOUT,
    });
  }

  async exportOpen(): Promise<Download> {
    const download = this.page.waitForEvent("download");
    await (await topBarButton(this.page, UI.export)).click();
    return download;
  }

  compactionRows(): Locator {
    return this.timeline.locator("li.k-compaction");
  }

  async goToLastCompaction(): Promise<void> {
    await this.page.getByRole("button", { name: "Go to the last compaction" }).click();
    await expect(this.compactionRows().first()).toBeInViewport({ timeout: IMPORT_TIMEOUT });
  }

  toast(text: string | RegExp): Locator {
    return this.toasts.filter({ hasText: text });
  }

  /** The timeline row whose text contains `text`. */
  timelineRow(text: string | RegExp): Locator {
    return this.timeline.locator("li").filter({ hasText: text });
  }

  /** Labels an entry from its timeline row's "Label" action. */
  async labelRow(text: string | RegExp, label: string): Promise<void> {
    const row = this.timelineRow(text);
    await row.hover();
    await row.getByRole("button", { name: "Label" }).click();
    const dialog = this.page.locator('dialog[data-dialog="label"]');
    await dialog.getByLabel("Label").fill(label);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
  }
}
